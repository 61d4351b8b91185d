//! Cargo's build script for pbem (`build` in Cargo.toml): names the build.
//!
//! Sets `PBEM_COMMIT` to ` (git <short commit>)` when the sources are a git checkout,
//! else to nothing: `pbem --version` and every phase a judge records
//! ([`pbem::BUILD`]) carry it, so a game recorded by one build can be told from one
//! played again by another (`pbem verify-dice`). Uncommitted changes are not marked:
//! the script runs again when the commit changes, not on every edit.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=10", "HEAD"]);
    // Run again when HEAD moves: HEAD itself (a branch switched, a detached HEAD
    // moved), the branch's ref, and the packed refs. In a worktree `.git` is a file,
    // so ask git where these live.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let dir = PathBuf::from(dir);
        let common = git(&["rev-parse", "--git-common-dir"])
            .map(PathBuf::from)
            .unwrap_or_else(|| dir.clone());
        let mut watch = vec![dir.join("HEAD"), common.join("packed-refs")];
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            watch.push(common.join(branch));
        }
        for path in watch.iter().filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rerun-if-changed=scripts/build.rs");
    println!(
        "cargo:rustc-env=PBEM_COMMIT={}",
        commit.map(|c| format!(" (git {c})")).unwrap_or_default()
    );
}
