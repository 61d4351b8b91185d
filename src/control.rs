//! Asking a running judge to do something: `pbem backup`, `pbem game export|import`
//! while `pbem serve` holds the store (sled lets one process open it).
//!
//! The command writes a request file into `<store>.control/requests/` (through a
//! temporary name) and waits for the answer file of the same name in
//! `<store>.control/answers/`; the daemon looks at its requests between passes (at
//! least every `poll_seconds`), does them on its own store, and answers.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "do", rename_all = "lowercase")]
pub enum Request {
    /// A backup into this folder.
    Backup { dir: PathBuf },
    /// One game, with its history, into this file.
    Export { game: String, file: PathBuf },
    /// A game export read into the store.
    Import { file: PathBuf },
    /// `games.toml` read again (this file): new games start, changed settings take
    /// effect, removed games are archived; a file that does not read changes nothing.
    Reload { config: PathBuf },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub ok: bool,
    pub text: String,
}

/// The control folder of a store.
pub fn dir(store: &Path) -> PathBuf {
    let mut name = store.file_name().unwrap_or_default().to_os_string();
    name.push(".control");
    store.with_file_name(name)
}

/// Sends a request to the judge running on `store` and waits up to `wait` for its
/// answer.
pub fn ask(store: &Path, request: &Request, wait: Duration) -> Result<String, String> {
    let base = dir(store);
    let requests = base.join("requests");
    let answers = base.join("answers");
    for d in [&requests, &answers] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let name = format!(
        "{}-{}.json",
        chrono::Utc::now().format("%Y%m%dT%H%M%S%.6f"),
        std::process::id()
    );
    let tmp = base.join(format!(".{name}"));
    std::fs::write(&tmp, serde_json::to_vec(request).expect("JSON"))
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, requests.join(&name)).map_err(|e| e.to_string())?;
    let answer = answers.join(&name);
    let start = Instant::now();
    while start.elapsed() < wait {
        if let Ok(bytes) = std::fs::read(&answer) {
            let _ = std::fs::remove_file(&answer);
            let a: Answer = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
            return if a.ok { Ok(a.text) } else { Err(a.text) };
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = std::fs::remove_file(requests.join(&name));
    Err(format!(
        "the running judge did not answer within {} s (is pbem serve running on {}?)",
        wait.as_secs(),
        store.display()
    ))
}

/// The requests waiting for the judge on `store`, oldest first, each with the path
/// to answer at.
pub fn waiting(store: &Path) -> Vec<(Request, PathBuf)> {
    let base = dir(store);
    let Ok(entries) = std::fs::read_dir(base.join("requests")) else {
        return Vec::new();
    };
    let mut names: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    names.sort();
    let mut out = Vec::new();
    for path in names {
        let Some(name) = path.file_name().map(|n| n.to_owned()) else {
            continue;
        };
        let request = std::fs::read(&path)
            .ok()
            .and_then(|b| serde_json::from_slice::<Request>(&b).ok());
        let _ = std::fs::remove_file(&path);
        if let Some(request) = request {
            out.push((request, base.join("answers").join(name)));
        }
    }
    out
}

/// Writes the answer to a request.
pub fn answer(path: &Path, result: Result<String, String>) {
    let a = match result {
        Ok(text) => Answer { ok: true, text },
        Err(text) => Answer { ok: false, text },
    };
    let tmp = path.with_extension("tmp");
    if std::fs::write(&tmp, serde_json::to_vec(&a).expect("JSON")).is_ok() {
        let _ = std::fs::rename(&tmp, path);
    }
}

/// Does a request on a store (the running judge's, or one a command opened).
pub fn carry_out(
    store: &crate::store::Store,
    request: &Request,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<String, String> {
    use crate::backup;
    match request {
        Request::Backup { dir } => {
            let (path, n) = backup::backup(store, dir, now, None).map_err(|e| e.to_string())?;
            Ok(format!("backup written: {} ({n} entries)", path.display()))
        }
        Request::Export { game, file } => {
            let n = backup::export_game(store, game, file, now).map_err(|e| e.to_string())?;
            Ok(format!(
                "game {game} exported to {} ({n} entries)",
                file.display()
            ))
        }
        Request::Import { file } => {
            let id = backup::import_game(store, file).map_err(|e| e.to_string())?;
            Ok(format!("game {id} imported"))
        }
        Request::Reload { .. } => {
            Err("no judge is running: it reads games.toml when it starts".into())
        }
    }
}
