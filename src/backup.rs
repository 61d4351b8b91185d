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

/// The headers of a stored mail a backup keeps as received: who, to whom, when, and
/// the thread (the subject is written decoded and scrubbed); never its MIME structure
/// (the text is written anew, see [`scrubbed_mail`]) nor anything else a sender may
/// have put in a header.
const KEPT_HEADERS: [&str; 13] = [
    "from",
    "sender",
    "reply-to",
    "to",
    "cc",
    "date",
    "message-id",
    "in-reply-to",
    "references",
    "return-path",
    "auto-submitted",
    "precedence",
    "received",
];

/// Whether a line is a `PASSWORD` line as the judge reads one ([`command::parse`]):
/// with its secret (`Some(Some(secret))`), or one the judge ignores (no secret, or more
/// than one word: `Some(None)`). A quoted line (`> PASSWORD …`) counts too.
///
/// [`command::parse`]: crate::judge::command::parse
fn password_line(line: &str) -> Option<Option<String>> {
    let bare = line
        .trim_start_matches(|c: char| c == '>' || c.is_whitespace())
        .trim_end();
    crate::judge::command::password_line(bare).map(|secret| secret.map(str::to_string))
}

/// A mail's text with every password line's secret replaced by `[password]`, and each
/// such secret elsewhere in the text as the judge scrubs it from what a mail said
/// ([`command::scrub`]: a line that is the bare secret goes, the secret in a line
/// becomes `[password]`). Returns the text and the secrets found.
///
/// [`command::scrub`]: crate::judge::command::scrub
fn scrub_text(text: &str) -> (String, Vec<String>) {
    let mut secrets: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for line in text.lines() {
        let Some(secret) = password_line(line) else {
            lines.push(line.to_string());
            continue;
        };
        secrets.extend(secret);
        // The keyword stays (`PASSWORD`, `Password:`, quoted or not): a reader sees a
        // password was given, not which.
        let start = line.len()
            - line
                .trim_start_matches(|c: char| c == '>' || c.is_whitespace())
                .len();
        let keyword = line[start..]
            .char_indices()
            .nth(8)
            .map_or(line.len(), |(i, _)| start + i);
        let colon = if line[keyword..].starts_with(':') {
            ":"
        } else {
            ""
        };
        lines.push(format!("{}{colon} [password]", &line[..keyword]));
    }
    let mut said = crate::judge::command::Parsed {
        orders: Some(lines.join("\n")),
        ..Default::default()
    };
    for secret in &secrets {
        crate::judge::command::scrub(&mut said, secret);
    }
    (said.orders.unwrap_or_default(), secrets)
}

/// What a backup holds of a stored mail the judge is done with: the mail's headers
/// ([`KEPT_HEADERS`]; the subject decoded, its secrets replaced) and the text the judge read
/// from it (decoded from quoted-printable or base64, HTML made text), with every
/// password replaced ([`scrub_text`]), as a plain UTF-8 mail. Attachments, other parts
/// and the encoded original are left out: a password cannot be found safely in encoded
/// bytes, and the judge reads none of them again.
fn scrubbed_mail(raw: &[u8]) -> Vec<u8> {
    let mail = crate::mail::incoming::parse(raw);
    let (text, secrets) = scrub_text(&mail.body);
    // The header block: up to the first empty line; folded lines joined to theirs.
    let mut headers: Vec<Vec<u8>> = Vec::new();
    let mut keep = false;
    for line in raw.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            if keep {
                if let Some(last) = headers.last_mut() {
                    last.extend_from_slice(b"\r\n");
                    last.extend_from_slice(line);
                }
            }
            continue;
        }
        let name = line.split(|&b| b == b':').next().unwrap_or(line);
        keep = line.contains(&b':')
            && KEPT_HEADERS
                .iter()
                .any(|k| name.eq_ignore_ascii_case(k.as_bytes()));
        if keep {
            headers.push(line.to_vec());
        }
    }
    let mut out = Vec::with_capacity(raw.len().min(text.len() + 4096));
    for header in headers {
        out.extend_from_slice(&header);
        out.extend_from_slice(b"\r\n");
    }
    if !mail.subject.is_empty() {
        let mut subject = mail.subject.replace(['\r', '\n'], " ");
        for secret in &secrets {
            subject = subject.replace(secret.as_str(), "[password]");
        }
        out.extend_from_slice(format!("Subject: {subject}\r\n").as_bytes());
    }
    out.extend_from_slice(
        b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
          Content-Transfer-Encoding: 8bit\r\n\
          X-Pbem-Backup: the text the judge read, passwords replaced\r\n\r\n",
    );
    for line in text.lines() {
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// The store's entries as a backup writes them: a stored mail the judge is done with
/// (`v1/done/<key>`) without its passwords ([`scrubbed_mail`]); a mail not done yet
/// as received, since a restored judge still has to act on it.
fn backup_entries(
    store: &Store,
) -> impl Iterator<Item = Result<(String, Vec<u8>), StoreError>> + '_ {
    store.entries().map(|entry| {
        let (k, v) = entry?;
        match k.strip_prefix("v1/raw/") {
            Some(mail) if store.contains(&format!("v1/done/{mail}"))? => {
                let v = scrubbed_mail(&v);
                Ok((k, v))
            }
            _ => Ok((k, v)),
        }
    })
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
    let n = write_file(&path, None, now, backup_entries(store))?;
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
    for (k, v) in renumber_press(store, entries)? {
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

/// The families of keys under a game's id that an export carries (see the key tables
/// in `store.rs` and `judge/community.rs`).
fn game_prefixes(id: &str) -> [String; 8] {
    [
        format!("v1/history/{id}/"),
        format!("v1/adjudicated/{id}/"),
        format!("v1/reminded/{id}/"),
        format!("v1/attempts/game/{id}/"),
        format!("v1/throttle/auth/{id}/"),
        format!("v1/press/{id}/"),
        format!("v1/press-token/{id}/"),
        format!("v1/observers/{id}/"),
    ]
}

/// One game's entries: its record, and everything under its id. The judge's indexes
/// (`v1/due/`, `v1/due-at/<id>`, `v1/played-by/<address>/<id>`) are not carried: the
/// judge that imports the game builds them from the record when it opens the store.
fn game_entries(store: &Store, id: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
    let mut out = Vec::new();
    let record = format!("v1/game/{id}");
    if let Some(v) = store.get_raw(&record)? {
        out.push((record, v));
    }
    for prefix in game_prefixes(id) {
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
    // Whatever this store still holds of a game of that id goes (an index entry, an
    // old observer or press), so the judge indexes the game anew from its record when
    // it opens the store, and the game is what the export holds.
    let due_at = format!("v1/due-at/{id}");
    if let Some(due) = store.get::<String>(&due_at)?.filter(|d| !d.is_empty()) {
        batch.remove(&due);
    }
    batch.remove(&due_at);
    let suffix = format!("/{id}");
    for (k, _) in store.scan_raw("v1/played-by/")? {
        if k.ends_with(&suffix) {
            batch.remove(&k);
        }
    }
    for prefix in game_prefixes(&id) {
        for (k, _) in store.scan_raw(&prefix)? {
            batch.remove(&k);
        }
    }
    for (k, v) in renumber_press(store, entries)? {
        if !belongs_to(&k, &id) {
            return Err(BackupError::Refused(format!(
                "{}: entry {k:?} is not one of game {id}'s",
                file.display()
            )));
        }
        batch.put_raw(&k, &v);
    }
    store.commit(batch)?;
    Ok(id)
}

/// Press keys (`v1/press/<id>/<seq>`) numbered anew from `store`'s counter, in their
/// order. The judge numbers press from its store's counter ([`Store::next_id`]), which
/// a new store (a restore, or the store a game moves to) starts again from zero: press
/// kept under the old numbers would be listed after press sent later, and in time
/// overwritten by it.
fn renumber_press(
    store: &Store,
    entries: Vec<(String, Vec<u8>)>,
) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
    let numbered = |k: &str| -> Option<(String, u64)> {
        let (game, seq) = k.strip_prefix("v1/press/")?.rsplit_once('/')?;
        Some((game.to_string(), seq.parse().ok()?))
    };
    let (mut press, mut out): (Vec<_>, Vec<_>) = entries
        .into_iter()
        .partition(|(k, _)| numbered(k).is_some());
    press.sort_by_key(|(k, _)| numbered(k));
    for (k, v) in press {
        let (game, _) = numbered(&k).expect("partitioned on it");
        out.push((format!("v1/press/{game}/{:020}", store.next_id()?), v));
    }
    Ok(out)
}

/// Whether a key is one a game export of `id` may hold.
fn belongs_to(key: &str, id: &str) -> bool {
    key == format!("v1/game/{id}") || game_prefixes(id).iter().any(|p| key.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_lines_are_known_as_the_judge_reads_them() {
        for line in [
            "PASSWORD hunter22",
            "password: hunter22",
            "Password:hunter22",
            "  > > PASSWORD hunter22",
        ] {
            assert_eq!(password_line(line), Some(Some("hunter22".into())), "{line}");
        }
        // Lines the judge ignores still hold what may be a password.
        for line in ["PASSWORD my hunter22", "PASSWORD", "Password:"] {
            assert_eq!(password_line(line), Some(None), "{line}");
        }
        for line in ["B2 - C2", "PASSWORDS are dull", "HISTORY PRESS", "", "-- "] {
            assert_eq!(password_line(line), None, "{line}");
        }
    }

    #[test]
    fn a_mail_s_text_keeps_no_secret_of_its_password_lines() {
        let (text, secrets) = scrub_text(
            "Password: hunter22\nB2 - C2 hunter22\n> PASSWORD quoted-9\nquoted-9\nPASSWORD two words\nEND",
        );
        assert_eq!(
            text,
            "Password: [password]\nB2 - C2 [password]\n> PASSWORD [password]\nPASSWORD [password]\nEND"
        );
        assert_eq!(secrets, ["hunter22", "quoted-9"]);
    }

    #[test]
    fn a_mail_acted_on_is_kept_as_its_headers_and_scrubbed_text() {
        let raw = b"From: a@example.test\r\nSubject: PASSWORD hunter22\r\nX-Secret: PASSWORD hunter22\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\nReferences: <x@y>\r\n <z@y>\r\n\r\nUEFTU1dPUkQgaHVudGVyMjINCkIyIC0gQzINCg==\r\n";
        let out = String::from_utf8(scrubbed_mail(raw)).unwrap();
        assert!(!out.contains("hunter22"), "{out}");
        assert!(out.contains("From: a@example.test\r\n"), "{out}");
        assert!(out.contains("References: <x@y>\r\n <z@y>\r\n"), "{out}");
        assert!(out.contains("Subject: PASSWORD [password]\r\n"), "{out}");
        assert!(!out.contains("X-Secret"), "{out}");
        assert!(
            out.ends_with("\r\n\r\nPASSWORD [password]\r\nB2 - C2\r\n"),
            "{out}"
        );
        // What is not a mail keeps nothing but header lines.
        let out = scrubbed_mail(b"PASSWORD: hunter22\nB2 - C2\n");
        assert!(!String::from_utf8_lossy(&out).contains("hunter22"));
    }
}
