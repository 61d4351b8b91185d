//! The shapes of `games.toml` and its included files as serde reads them, and the
//! reading itself (errors worded with the game and key they are about). What they
//! mean, and the checks of it, are the parent module's.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::TlsMode;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct File {
    pub(super) judge: JudgeFile,
    pub(super) transport: TransportFile,
    /// More files of `[[game]]` tables: files, or folders whose `*.toml` files are read
    /// in name order; paths relative to this file's folder.
    #[serde(default)]
    pub(super) include: Vec<String>,
    #[serde(default, rename = "game")]
    pub(super) games: Vec<GameFile>,
}

/// An included file: games only.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GamesFile {
    #[serde(default, rename = "game")]
    pub(super) games: Vec<GameFile>,
}

/// The files an `include` entry names: the file itself, or a folder's `*.toml` files in
/// name order.
pub(super) fn included_files(path: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)
            .map_err(|e| format!("include {}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        Ok(files)
    } else if path.is_file() {
        Ok(vec![path.to_path_buf()])
    } else {
        Err(format!(
            "include {}: no such file or folder",
            path.display()
        ))
    }
}

/// Reads `games.toml`: a syntax error is told with its line, a wrong value with the
/// game and the key it is about (`game andromeda: seed: expected an integer, …`).
pub(super) fn read_file<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    // Parsed once, straight into the configuration; the text is read again (keeping
    // the path to the value, and as a table) only to word an error.
    if let Ok(value) = toml::from_str(text) {
        return Ok(value);
    }
    let de = toml::Deserializer::parse(text).map_err(|e| crate::toml_text::one_line(&e, text))?;
    serde_path_to_error::deserialize::<_, T>(de).map_err(|e| {
        let table: toml::Table = match toml::from_str(text) {
            Ok(t) => t,
            Err(e) => return crate::toml_text::one_line(&e, text),
        };
        let mut path = e.path().to_string();
        // game[2].seed → game andromeda: seed
        if let Some(rest) = path.strip_prefix("game[") {
            if let Some((k, key)) = rest.split_once(']') {
                let id = k
                    .parse::<usize>()
                    .ok()
                    .and_then(|k| {
                        table
                            .get("game")?
                            .as_array()?
                            .get(k)?
                            .get("id")?
                            .as_str()
                            .map(str::to_string)
                    })
                    .unwrap_or_else(|| {
                        format!("number {}", k.parse::<usize>().map(|k| k + 1).unwrap_or(0))
                    });
                path = format!("game {id}{}", key.replacen('.', ": ", 1));
            }
        }
        let message = crate::toml_text::one_line(e.inner(), text);
        let message = message
            .split_once(": ")
            .map(|(_, m)| m)
            .unwrap_or(&message)
            .to_string();
        if message.starts_with("unknown key") {
            // The path ends with the unknown key itself, which the message names.
            path = match path.rfind([':', '.']) {
                Some(at) => path[..at].to_string(),
                None => String::new(),
            };
        }
        if path.is_empty() || path == "." {
            message
        } else {
            format!("{path}: {message}")
        }
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JudgeFile {
    pub(super) address: String,
    #[serde(default = "judge_name")]
    pub(super) name: String,
    pub(super) store: String,
    pub(super) templates: Option<String>,
    #[serde(default = "poll_seconds")]
    pub(super) poll_seconds: u64,
    #[serde(default = "batch")]
    pub(super) batch: usize,
    #[serde(default = "budget_seconds")]
    pub(super) budget_seconds: u64,
    pub(super) backup: Option<BackupFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BackupFile {
    pub(super) dir: String,
    #[serde(default = "backup_every")]
    pub(super) every: String,
    #[serde(default = "backup_keep")]
    pub(super) keep: usize,
}

fn backup_every() -> String {
    "24h".into()
}

fn backup_keep() -> usize {
    7
}

fn budget_seconds() -> u64 {
    120
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
pub(super) enum TransportFile {
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
pub(super) struct ServerFile {
    pub(super) host: String,
    pub(super) port: u16,
    pub(super) tls: TlsMode,
    #[serde(default)]
    pub(super) user: String,
    pub(super) password_env: Option<String>,
    pub(super) password_file: Option<String>,
    pub(super) ca_file: Option<String>,
    /// IMAP only.
    pub(super) mailbox: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GameFile {
    pub(super) id: String,
    pub(super) rules: String,
    pub(super) seed: Option<u64>,
    #[serde(default = "utc")]
    pub(super) time_zone: String,
    #[serde(default)]
    pub(super) options: toml::Table,
    pub(super) start: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default)]
    pub(super) phases: BTreeMap<String, String>,
    #[serde(default)]
    pub(super) reminders: Vec<String>,
    #[serde(default, rename = "player")]
    pub(super) players: Vec<PersonFile>,
    #[serde(default, rename = "moderator")]
    pub(super) moderators: Vec<PersonFile>,
    #[serde(default = "yes")]
    pub(super) pictures: bool,
    /// `white` (press signed with the sender's power), `grey` (may be anonymous) or
    /// `none`.
    #[serde(default = "white")]
    pub(super) press: String,
    /// The phases in which press is allowed (all when absent).
    pub(super) press_during: Option<Vec<String>>,
    #[serde(default = "yes")]
    pub(super) press_after_end: bool,
    #[serde(default)]
    pub(super) press_to_moderator: bool,
    #[serde(default)]
    pub(super) anonymous: bool,
    pub(super) observer_password: Option<String>,
    #[serde(default = "max_observers")]
    pub(super) max_observers: usize,
}

fn white() -> String {
    "white".into()
}

fn yes() -> bool {
    true
}

fn max_observers() -> usize {
    50
}

fn utc() -> String {
    "UTC".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PersonFile {
    pub(super) power: Option<String>,
    pub(super) address: String,
    pub(super) password: String,
}
