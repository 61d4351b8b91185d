//! `games.toml`: the judge's address, its mail transport and store, and its games.
//! A wrong configuration is one error naming the key, never a panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::Duration;
use serde::Deserialize;

use crate::rules::game::Game;
use crate::rules::RuleSetId;

#[derive(Debug, Clone)]
pub struct Config {
    pub judge: Judge,
    pub transport: Transport,
    pub games: Vec<GameConfig>,
}

#[derive(Debug, Clone)]
pub struct Judge {
    pub address: String,
    pub name: String,
    pub store: PathBuf,
    /// Where templates are looked for first; the built-in ones are the fallback.
    pub templates: Option<PathBuf>,
    /// Seconds between two polls of `pbem serve`.
    pub poll_seconds: u64,
    /// Mails committed together in a pass (one write to disk per batch).
    pub batch: usize,
}

#[derive(Debug, Clone)]
pub enum Transport {
    /// Maildir folders: mail in from one, replies out into the other.
    Maildir { inbox: PathBuf, outbox: PathBuf },
    /// A mailbox read over IMAP; replies sent over SMTP.
    Imap {
        imap: Box<MailServer>,
        mailbox: String,
        smtp: Box<MailServer>,
    },
}

/// How a connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TlsMode {
    None,
    StartTls,
    Tls,
}

/// A mail server the judge logs in to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailServer {
    pub host: String,
    pub port: u16,
    pub tls: TlsMode,
    pub user: String,
    /// The password is read from this environment variable …
    pub password_env: Option<String>,
    /// … or from this file (its first line), never from `games.toml` itself.
    pub password_file: Option<PathBuf>,
    /// A CA to trust besides the system's (a private server's).
    pub ca_file: Option<PathBuf>,
}

impl MailServer {
    pub fn password(&self) -> Result<String, String> {
        if let Some(var) = &self.password_env {
            return std::env::var(var)
                .map_err(|_| format!("environment variable {var} is not set"));
        }
        if let Some(file) = &self.password_file {
            let text =
                std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
            return Ok(text.lines().next().unwrap_or("").to_string());
        }
        Ok(String::new())
    }
}

#[derive(Debug, Clone)]
pub struct GameConfig {
    pub id: String,
    pub rules: RuleSetId,
    pub seed: u64,
    pub time_zone: chrono_tz::Tz,
    pub options: toml::Table,
    pub start: Option<BTreeMap<String, Vec<String>>>,
    /// Length of each phase by phase id; phases not listed take `default_phase`.
    pub phases: BTreeMap<String, Duration>,
    pub default_phase: Duration,
    /// How long before a deadline reminders go out.
    pub reminders: Vec<Duration>,
    pub players: Vec<Player>,
    pub moderators: Vec<Moderator>,
    /// Results mails and BOARD replies carry the board as a picture, with an HTML
    /// version showing it (`pictures = false`: text and results.json only).
    pub pictures: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub power: String,
    pub address: String,
    pub password: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moderator {
    pub address: String,
    pub password: String,
}

/// A configuration that cannot be used: the file, and what is wrong where.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {message}")]
pub struct ConfigError {
    pub file: String,
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    judge: JudgeFile,
    transport: TransportFile,
    #[serde(default, rename = "game")]
    games: Vec<GameFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JudgeFile {
    address: String,
    #[serde(default = "judge_name")]
    name: String,
    store: String,
    templates: Option<String>,
    #[serde(default = "poll_seconds")]
    poll_seconds: u64,
    #[serde(default = "batch")]
    batch: usize,
}

fn batch() -> usize {
    256
}

fn judge_name() -> String {
    "pbem judge".into()
}

fn poll_seconds() -> u64 {
    10
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, tag = "kind", rename_all = "lowercase")]
enum TransportFile {
    Maildir {
        inbox: String,
        outbox: String,
    },
    Imap {
        imap: Box<ServerFile>,
        smtp: Box<ServerFile>,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ServerFile {
    host: String,
    port: u16,
    tls: TlsMode,
    #[serde(default)]
    user: String,
    password_env: Option<String>,
    password_file: Option<String>,
    ca_file: Option<String>,
    /// IMAP only.
    mailbox: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    id: String,
    rules: String,
    seed: Option<u64>,
    #[serde(default = "utc")]
    time_zone: String,
    #[serde(default)]
    options: toml::Table,
    start: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    phases: BTreeMap<String, String>,
    #[serde(default)]
    reminders: Vec<String>,
    #[serde(default, rename = "player")]
    players: Vec<PersonFile>,
    #[serde(default, rename = "moderator")]
    moderators: Vec<PersonFile>,
    #[serde(default = "yes")]
    pictures: bool,
}

fn yes() -> bool {
    true
}

fn utc() -> String {
    "UTC".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PersonFile {
    power: Option<String>,
    address: String,
    password: String,
}

/// Reads a duration: `48h`, `2d`, `30m`, `1d12h`, with an optional leading `+`.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let t = text.trim().trim_start_matches('+');
    if t.is_empty() {
        return None;
    }
    let mut total = Duration::zero();
    let mut number = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let n: i64 = number.parse().ok()?;
        number.clear();
        total += match c.to_ascii_lowercase() {
            'd' => Duration::try_days(n)?,
            'h' => Duration::try_hours(n)?,
            'm' => Duration::try_minutes(n)?,
            _ => return None,
        };
    }
    number.is_empty().then_some(total)
}

/// Whether an address is shaped like `local@domain`.
pub fn is_address(a: &str) -> bool {
    let mut parts = a.split('@');
    matches!((parts.next(), parts.next(), parts.next()), (Some(l), Some(d), None) if !l.is_empty() && d.contains('.') && !a.contains(char::is_whitespace))
}

impl Config {
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let err = |message: String| ConfigError {
            file: file.clone(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
        let dir = path.parent().unwrap_or(Path::new("."));
        Config::parse(&text, dir).map_err(err)
    }

    /// Parses the text of a `games.toml`; relative paths are taken from `dir`.
    pub fn parse(text: &str, dir: &Path) -> Result<Config, String> {
        let f: File = toml::from_str(text).map_err(|e| crate::toml_text::one_line(&e, text))?;
        if !is_address(&f.judge.address) {
            return Err(format!(
                "judge.address: {:?} is not a mail address",
                f.judge.address
            ));
        }
        let path = |p: &str| dir.join(p);
        let server = |at: &str, s: Box<ServerFile>| -> Result<Box<MailServer>, String> {
            let s = *s;
            if s.password_env.is_some() && s.password_file.is_some() {
                return Err(format!("{at}: password_env and password_file: choose one"));
            }
            Ok(Box::new(MailServer {
                host: s.host,
                port: s.port,
                tls: s.tls,
                user: s.user,
                password_env: s.password_env,
                password_file: s.password_file.as_deref().map(path),
                ca_file: s.ca_file.as_deref().map(path),
            }))
        };
        let transport = match f.transport {
            TransportFile::Maildir { inbox, outbox } => Transport::Maildir {
                inbox: path(&inbox),
                outbox: path(&outbox),
            },
            TransportFile::Imap { imap, smtp } => {
                let mailbox = imap.mailbox.clone().unwrap_or_else(|| "INBOX".into());
                if smtp.mailbox.is_some() {
                    return Err(
                        "transport.smtp.mailbox: a mailbox belongs to transport.imap".into(),
                    );
                }
                Transport::Imap {
                    imap: server("transport.imap", imap)?,
                    mailbox,
                    smtp: server("transport.smtp", smtp)?,
                }
            }
        };
        let mut games = Vec::new();
        for g in f.games {
            let at = format!("game {:?}", g.id);
            let game = game_config(g).map_err(|e| format!("{at}: {e}"))?;
            if games.iter().any(|other: &GameConfig| other.id == game.id) {
                return Err(format!("{at}: listed twice"));
            }
            games.push(game);
        }
        Ok(Config {
            judge: Judge {
                address: f.judge.address,
                name: f.judge.name,
                store: path(&f.judge.store),
                templates: f.judge.templates.as_deref().map(path),
                poll_seconds: f.judge.poll_seconds.max(1),
                batch: f.judge.batch.max(1),
            },
            transport,
            games,
        })
    }

    pub fn game(&self, id: &str) -> Option<&GameConfig> {
        self.games.iter().find(|g| g.id == id)
    }
}

fn game_config(g: GameFile) -> Result<GameConfig, String> {
    let valid_id = !g.id.is_empty()
        && g.id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !valid_id {
        return Err("id: game ids are lower-case letters, digits and '-'".into());
    }
    let rules = RuleSetId::from_id(&g.rules)
        .ok_or_else(|| format!("rules: unknown rule set {:?}", g.rules))?;
    let time_zone: chrono_tz::Tz = g
        .time_zone
        .parse()
        .map_err(|_| format!("time_zone: unknown time zone {:?}", g.time_zone))?;
    let duration = |key: &str, v: &str| {
        parse_duration(v)
            .ok_or_else(|| format!("{key}: {v:?} is not a duration like 48h, 2d or 30m"))
    };
    let mut phases = BTreeMap::new();
    for (phase, v) in &g.phases {
        phases.insert(phase.clone(), duration(&format!("phases.{phase}"), v)?);
    }
    let reminders = g
        .reminders
        .iter()
        .map(|v| duration("reminders", v))
        .collect::<Result<Vec<_>, _>>()?;
    // The game must be creatable: options and start positions are checked here.
    let game = Game::new(rules, &g.options, g.start.as_ref(), g.seed.unwrap_or(0))
        .map_err(|e| format!("options: {e}"))?;
    let powers = game.powers();
    let mut players = Vec::new();
    for (k, p) in g.players.into_iter().enumerate() {
        let at = format!("player {}", k + 1);
        let power = p.power.ok_or_else(|| format!("{at}: power is missing"))?;
        if !powers.contains(&power) {
            return Err(format!(
                "{at}: power {power:?} is not a power of this game ({})",
                powers.join(", ")
            ));
        }
        if players.iter().any(|q: &Player| q.power == power) {
            return Err(format!("{at}: power {power:?} has two players"));
        }
        check_person(&at, &p.address, &p.password)?;
        players.push(Player {
            power,
            address: p.address.to_lowercase(),
            password: p.password,
        });
    }
    let mut moderators = Vec::new();
    for (k, m) in g.moderators.into_iter().enumerate() {
        let at = format!("moderator {}", k + 1);
        if m.power.is_some() {
            return Err(format!("{at}: a moderator has no power"));
        }
        check_person(&at, &m.address, &m.password)?;
        moderators.push(Moderator {
            address: m.address.to_lowercase(),
            password: m.password,
        });
    }
    Ok(GameConfig {
        id: g.id,
        rules,
        seed: g.seed.unwrap_or(0),
        time_zone,
        options: g.options,
        start: g.start,
        phases,
        default_phase: Duration::hours(48),
        reminders,
        players,
        moderators,
        pictures: g.pictures,
    })
}

fn check_person(at: &str, address: &str, password: &str) -> Result<(), String> {
    if !is_address(address) {
        return Err(format!("{at}: address {address:?} is not a mail address"));
    }
    if !password.starts_with("$argon2") {
        return Err(format!(
            "{at}: password must be a hash made by `pbem hash-password`, not the password itself"
        ));
    }
    Ok(())
}

impl GameConfig {
    /// How long a phase lasts.
    pub fn phase_length(&self, phase: &str) -> Duration {
        self.phases.get(phase).copied().unwrap_or(match phase {
            "retreat" | "placement" => Duration::hours(24),
            _ => self.default_phase,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_a_person_writes_them() {
        assert_eq!(parse_duration("48h"), Some(Duration::hours(48)));
        assert_eq!(parse_duration("+2d"), Some(Duration::days(2)));
        assert_eq!(
            parse_duration("1d12h30m"),
            Some(Duration::minutes(36 * 60 + 30))
        );
        for bad in ["", "h", "48", "4x", "-2h", "2d 3h"] {
            assert_eq!(parse_duration(bad), None, "{bad:?}");
        }
    }
}
