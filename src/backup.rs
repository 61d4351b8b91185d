//! Backups and game moves: the store written as a portable text file, and read back.
//!
//! A backup is JSON lines: a header (`{"pbem_backup":1,"format":…,"created":…}`), one
//! line per entry (`{"k":key,"s":text}`, or `{"k":key,"b":base64}` for bytes that are
//! not text), and a trailer with the count (`{"end":N}`), so a cut file is refused.
//! Nothing in it depends on sled's on-disk layout: a backup moves between machines
//! and program versions (an older format is migrated on restore, as a store is).
//!
//! A game export is the same file holding one game's entries: its record, history,
//! adjudication marks, reminders and rate-limit windows.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::store::{Batch, Store, StoreError, FORMAT, FORMAT_KEY};

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: line {line}: {why}")]
    Bad {
        path: String,
        line: usize,
        why: String,
    },
    #[error("{0}")]
    Refused(String),
}

#[derive(Serialize, Deserialize)]
struct Header {
    pbem_backup: u32,
    format: u32,
    created: String,
    /// The game, for a game export.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    k: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    s: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    b: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Trailer {
    end: usize,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> BackupError + '_ {
    move |source| BackupError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Writes entries as a backup file (through a temporary name, so a reader never sees a
/// half-written file under the final name).
fn write_file(
    path: &Path,
    game: Option<&str>,
    now: chrono::DateTime<chrono::Utc>,
    entries: impl Iterator<Item = Result<(String, Vec<u8>), StoreError>>,
) -> Result<usize, BackupError> {
    // The folder is made if it is missing (as `pbem backup DIR` makes its folder).
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let tmp = path.with_extension("partial");
    let file = create_private(&tmp).map_err(io(&tmp))?;
    let mut out = std::io::BufWriter::new(file);
    let header = Header {
        pbem_backup: 1,
        format: FORMAT,
        created: now.to_rfc3339(),
        game: game.map(str::to_string),
    };
    let line = |out: &mut std::io::BufWriter<std::fs::File>, v: &dyn erased::Line| {
        out.write_all(v.json().as_bytes())
            .and_then(|()| out.write_all(b"\n"))
            .map_err(io(&tmp))
    };
    line(&mut out, &header)?;
    let mut n = 0;
    for entry in entries {
        let (k, v) = entry?;
        let e = match String::from_utf8(v) {
            Ok(s) => Entry {
                k,
                s: Some(s),
                b: None,
            },
            Err(e) => Entry {
                k,
                s: None,
                b: Some(base64::engine::general_purpose::STANDARD.encode(e.as_bytes())),
            },
        };
        line(&mut out, &e)?;
        n += 1;
    }
    line(&mut out, &Trailer { end: n })?;
    let file = out.into_inner().map_err(|e| io(&tmp)(e.into_error()))?;
    file.sync_all().map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))?;
    Ok(n)
}

/// Creates (or empties) a file only its owner may read or write (0600): a backup holds
/// every game's secrets (dice seeds, press, addresses). An older file of the name, of
/// any mode, is made 0600 too; renamed over the final name, so is the file there.
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let file = options.open(path)?;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        Ok(file)
    }
    #[cfg(not(unix))]
    options.open(path)
}

mod erased {
    /// Anything written as one JSON line.
    pub trait Line {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Line for T {
        fn json(&self) -> String {
            serde_json::to_string(self).expect("backup lines serialise")
        }
    }
}

/// A backup file read whole: its header's game (for an export) and its entries.
/// A backup file's game (for an export) and its entries.
type Contents = (Option<String>, Vec<(String, Vec<u8>)>);

fn read_file(path: &Path) -> Result<Contents, BackupError> {
    let file = std::fs::File::open(path).map_err(io(path))?;
    let bad = |line: usize, why: String| BackupError::Bad {
        path: path.display().to_string(),
        line,
        why,
    };
    let mut lines = std::io::BufReader::new(file).lines();
    let first = lines
        .next()
        .ok_or_else(|| bad(1, "empty file".into()))?
        .map_err(io(path))?;
    let header: Header =
        serde_json::from_str(&first).map_err(|e| bad(1, format!("not a pbem backup ({e})")))?;
    if header.pbem_backup != 1 {
        return Err(bad(1, format!("backup version {}", header.pbem_backup)));
    }
    if header.format > FORMAT {
        return Err(bad(
            1,
            format!(
                "written in store format {} by a newer pbem; this one reads up to {FORMAT}",
                header.format
            ),
        ));
    }
    let mut entries = Vec::new();
    for (k, text) in lines.enumerate() {
        let number = k + 2;
        let text = text.map_err(io(path))?;
        if let Ok(t) = serde_json::from_str::<Trailer>(&text) {
            if t.end != entries.len() {
                return Err(bad(
                    number,
                    format!("{} entries, the trailer says {}", entries.len(), t.end),
                ));
            }
            return Ok((header.game, entries));
        }
        let e: Entry = serde_json::from_str(&text).map_err(|e| bad(number, e.to_string()))?;
        let value = match (e.s, e.b) {
            (Some(s), None) => s.into_bytes(),
            (None, Some(b)) => base64::engine::general_purpose::STANDARD
                .decode(b)
                .map_err(|e| bad(number, e.to_string()))?,
            _ => return Err(bad(number, "an entry needs s or b".into())),
        };
        entries.push((e.k, value));
    }
    Err(bad(
        0,
        "cut short: no trailer (the file is incomplete)".into(),
    ))
}

/// The name of a backup taken at `now` in `dir`.
pub fn file_name(dir: &Path, now: chrono::DateTime<chrono::Utc>) -> PathBuf {
    dir.join(format!("pbem-{}.backup", now.format("%Y%m%dT%H%M%SZ")))
}

/// Writes a backup of the whole store into `dir`; keeps the newest `keep` backups
/// there (all when `None`). Returns the file and its entry count.
pub fn backup(
    store: &Store,
    dir: &Path,
    now: chrono::DateTime<chrono::Utc>,
    keep: Option<usize>,
) -> Result<(PathBuf, usize), BackupError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let path = file_name(dir, now);
    let n = write_file(&path, None, now, store.entries())?;
    if let Some(keep) = keep {
        let mut old: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io(dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("pbem-") && n.ends_with(".backup"))
            })
            .collect();
        old.sort();
        let excess = old.len().saturating_sub(keep.max(1));
        for p in &old[..excess] {
            std::fs::remove_file(p).map_err(io(p))?;
        }
    }
    Ok((path, n))
}

/// Brings a backup back into a blank store (a new one, or one holding nothing).
pub fn restore(store: &Store, file: &Path) -> Result<usize, BackupError> {
    if !store.is_blank()? {
        return Err(BackupError::Refused(
            "the store is not empty: restore into a new store path (or move the old one away)"
                .into(),
        ));
    }
    let (game, entries) = read_file(file)?;
    if let Some(game) = game {
        return Err(BackupError::Refused(format!(
            "{} is an export of game {game}, not a backup: use pbem game import",
            file.display()
        )));
    }
    let mut batch = Batch::default();
    let n = entries.len();
    let has_format = entries.iter().any(|(k, _)| k == FORMAT_KEY);
    for (k, v) in entries {
        batch.put_raw(&k, &v);
    }
    // The backup's entries carry the format they are in (FORMAT_KEY); a backup of a
    // store from before stores carried one is format 1. The judge migrates an older
    // format when it opens the store.
    if !has_format {
        batch.put(
            FORMAT_KEY,
            &crate::store::Meta {
                format: 1,
                written_by: "a restored backup".into(),
            },
        );
    }
    store.commit(batch)?;
    Ok(n)
}

/// The keys of one game's entries: its record, and everything under its id.
fn game_entries(store: &Store, id: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
    let mut out = Vec::new();
    let record = format!("v1/game/{id}");
    if let Some(v) = store.get_raw(&record)? {
        out.push((record, v));
    }
    for prefix in [
        format!("v1/history/{id}/"),
        format!("v1/adjudicated/{id}/"),
        format!("v1/reminded/{id}/"),
        format!("v1/attempts/game/{id}/"),
        format!("v1/throttle/auth/{id}/"),
    ] {
        out.extend(store.scan_raw(&prefix)?);
    }
    Ok(out)
}

/// Writes one game, with its history, to `file`. Returns the entry count.
pub fn export_game(
    store: &Store,
    id: &str,
    file: &Path,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<usize, BackupError> {
    let entries = game_entries(store, id)?;
    if entries.is_empty() {
        return Err(BackupError::Refused(format!("no game {id:?} in the store")));
    }
    write_file(file, Some(id), now, entries.into_iter().map(Ok))
}

/// Reads a game export into the store. The game must not be there yet (it must be in
/// `games.toml` for the judge to play it). Returns the game's id.
pub fn import_game(store: &Store, file: &Path) -> Result<String, BackupError> {
    let (game, entries) = read_file(file)?;
    let Some(id) = game else {
        return Err(BackupError::Refused(format!(
            "{} is a whole backup, not a game export: use pbem restore",
            file.display()
        )));
    };
    if store.contains(&format!("v1/game/{id}"))? {
        return Err(BackupError::Refused(format!(
            "game {id} is already in the store"
        )));
    }
    let mut batch = Batch::default();
    for (k, v) in entries {
        batch.put_raw(&k, &v);
    }
    store.commit(batch)?;
    Ok(id)
}

