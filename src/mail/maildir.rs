//! Maildir folders (the embedded transport): mail in from `new/`, moved to `cur/` once
//! handled; mail out written to `tmp/` and renamed into `new/`, as a mail server
//! delivers. Names are unique and stable, so delivering the same mail twice is a no-op.

use std::io;
use std::path::{Path, PathBuf};

/// Creates `tmp`, `new` and `cur` under `dir`.
pub fn create(dir: &Path) -> io::Result<()> {
    for sub in ["tmp", "new", "cur"] {
        std::fs::create_dir_all(dir.join(sub))?;
    }
    Ok(())
}

/// The mails waiting in `new/`, in name order (Maildir names start with a time; the
/// inbox puts them in the order of their files' times).
pub fn waiting(dir: &Path) -> io::Result<Vec<PathBuf>> {
    // The entry's type comes with the listing (no look at each file); a file system
    // that does not give it is asked.
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir.join("new"))?
        .filter_map(|e| e.ok())
        .filter(|e| match e.file_type() {
            Ok(t) if t.is_file() => true,
            Ok(t) if t.is_symlink() => e.path().is_file(),
            Ok(_) => false,
            Err(_) => e.path().is_file(),
        })
        .map(|e| e.path())
        .collect();
    paths.sort();
    Ok(paths)
}

/// Marks a mail of `new/` as seen: moves it to `cur/` with the `S` flag.
pub fn mark_seen(dir: &Path, path: &Path) -> io::Result<()> {
    let name = path.file_name().expect("a file").to_string_lossy();
    let base = name.split(":2,").next().unwrap_or(&name);
    std::fs::rename(path, dir.join("cur").join(format!("{base}:2,S")))
}

/// Delivers a mail into `new/` under `name`, unless it is already there (or was seen).
pub fn deliver(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let target = dir.join("new").join(name);
    let seen = dir.join("cur").join(format!("{name}:2,S"));
    if target.exists() || seen.exists() {
        return Ok(());
    }
    let tmp = dir.join("tmp").join(name);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, &target)
}

/// Delivers a reply; one never handed over before is written without looking for an
/// earlier copy (two looks at the disk a mail).
pub fn deliver_mail(dir: &Path, mail: &super::transport::Mail) -> io::Result<()> {
    if !mail.fresh {
        return deliver(dir, &mail.name, &mail.bytes);
    }
    let tmp = dir.join("tmp").join(&mail.name);
    std::fs::write(&tmp, &mail.bytes)?;
    std::fs::rename(&tmp, dir.join("new").join(&mail.name))
}
