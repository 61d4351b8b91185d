//! `games.toml`: the judge's address, its mail transport and store, and its games.
//! A wrong configuration is one error naming the key, never a panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::Duration;
use serde::Deserialize;

use crate::rules::game::Game;
use crate::rules::RuleSetId;

mod file;
use file::*;

#[derive(Debug, Clone)]
pub struct Config {
    pub judge: Judge,
    pub transport: Transport,
    /// The games, in the order of the files (read only: [`Config::game`] finds them
    /// by id through an index).
    pub games: Vec<GameConfig>,
    by_id: std::collections::HashMap<String, usize>,
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
    /// The longest one mail or one game's deadline may take before `pbem serve`'s
    /// watchdog ends the process (a supervisor restarts it; the mail or game is set
    /// aside after three attempts).
    pub budget_seconds: u64,
    /// Backups `pbem serve` takes by itself.
    pub backup: Option<BackupSchedule>,
}

/// `[judge.backup]`: a backup into `dir` every `every`, the newest `keep` kept.
#[derive(Debug, Clone)]
pub struct BackupSchedule {
    pub dir: PathBuf,
    pub every: Duration,
    pub keep: usize,
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
    /// The seed every die derives from, when `games.toml` fixes it; otherwise the judge
    /// draws a secret one when it creates the game (see `fixed_seed`).
    pub seed: u64,
    /// Whether `seed` was written in `games.toml` (dice anyone knowing it can predict).
    pub fixed_seed: bool,
    pub press: PressMode,
    /// Phases in which press is allowed; empty: every phase.
    pub press_during: Vec<String>,
    pub press_after_end: bool,
    pub press_to_moderator: bool,
    /// No mail shows a player's address to another player.
    pub anonymous: bool,
    /// Argon2 hash of the password an observer must give (none: anyone may observe).
    pub observer_password: Option<String>,
    pub max_observers: usize,
    pub time_zone: chrono_tz::Tz,
    pub options: toml::Table,
    pub start: Option<BTreeMap<String, Vec<String>>>,
    /// Length of each phase by phase id: as listed in games.toml, or the game's default
    /// ([`Play::short_phases`](crate::rules::game::Play::short_phases) 24 h, others 48 h).
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

/// Who may send press, and how it is signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PressMode {
    /// Press signed with the sender's power.
    White,
    /// Signed, or anonymous at the sender's choice (`PRESS ANON TO …`).
    Grey,
    /// No press.
    None,
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

/// A duration setting, or an error naming its key.
fn duration(key: &str, v: &str) -> Result<Duration, String> {
    parse_duration(v).ok_or_else(|| format!("{key}: {v:?} is not a duration like 48h, 2d or 30m"))
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
        let part = match c.to_ascii_lowercase() {
            'd' => Duration::try_days(n)?,
            'h' => Duration::try_hours(n)?,
            'm' => Duration::try_minutes(n)?,
            _ => return None,
        };
        total = total.checked_add(&part)?;
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
        let mut f: File = read_file(text)?;
        let mut files = Vec::new();
        for entry in &f.include {
            files.extend(included_files(&dir.join(entry))?);
        }
        // Included files are read side by side; the first error in file order is told.
        let included = crate::parallel::map_owned(files, |file| -> Result<GamesFile, String> {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("include {}: {e}", file.display()))?;
            read_file(&text).map_err(|e| format!("{}: {e}", file.display()))
        });
        for more in included {
            f.games.extend(more?.games);
        }
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
        let backup = match &f.judge.backup {
            None => None,
            Some(b) => Some(BackupSchedule {
                dir: path(&b.dir),
                every: duration("judge.backup.every", &b.every)?,
                keep: b.keep.max(1),
            }),
        };
        let mut games = Vec::with_capacity(f.games.len());
        let mut by_id = std::collections::HashMap::with_capacity(f.games.len());
        // Each game is checked by creating it (options, start positions): side by side,
        // the first error in file order told.
        let checked = crate::parallel::map_owned(f.games, |g| {
            let at = format!("game {}", g.id);
            game_config(g).map_err(|e| format!("{at}: {e}"))
        });
        for game in checked {
            let game = game?;
            let at = format!("game {}", game.id);
            if by_id.insert(game.id.clone(), games.len()).is_some() {
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
                budget_seconds: f.judge.budget_seconds.max(1),
                backup,
            },
            transport,
            games,
            by_id,
        })
    }

    pub fn game(&self, id: &str) -> Option<&GameConfig> {
        self.by_id.get(id).map(|&k| &self.games[k])
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
    // Phase ids are the game's own; a phase left out takes the game's default: 24 h for
    // the short ones (retreats, placements, Diplomacy's winter), 48 h for the others.
    let play = game.play();
    let ids = play.phases();
    if let Some(wrong) = phases.keys().find(|p| !ids.contains(&p.as_str())) {
        return Err(format!(
            "phases.{wrong}: not a phase of this game ({})",
            ids.join(", ")
        ));
    }
    for id in &ids {
        let short = play.short_phases().contains(id);
        phases
            .entry(id.to_string())
            .or_insert(Duration::hours(if short { 24 } else { 48 }));
    }
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
    let press = match g.press.as_str() {
        "white" => PressMode::White,
        "grey" | "gray" => PressMode::Grey,
        "none" => PressMode::None,
        other => return Err(format!("press: {other:?} is not white, grey or none")),
    };
    if let Some(h) = &g.observer_password {
        if !h.starts_with("$argon2") {
            return Err(
                "observer_password: write the hash pbem hash-password gives, not the password"
                    .into(),
            );
        }
    }
    Ok(GameConfig {
        id: g.id,
        rules,
        seed: g.seed.unwrap_or(0),
        fixed_seed: g.seed.is_some(),
        press,
        press_during: g.press_during.unwrap_or_default(),
        press_after_end: g.press_after_end,
        press_to_moderator: g.press_to_moderator,
        anonymous: g.anonymous,
        observer_password: g.observer_password,
        max_observers: g.max_observers,
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
        self.phases
            .get(phase)
            .copied()
            .unwrap_or(self.default_phase)
    }
}

#[cfg(test)]
mod tests;
