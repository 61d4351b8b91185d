//! Games that change without a restart (issue 18): `SIGHUP` and `pbem reload` add
//! games, keep running ones, refuse bad files and archive removed games, with a real
//! `pbem serve` on Maildir and sled.

use std::path::Path;
use std::process::{Child, Command};

use crate::community::{game, HARI};
use crate::world::{password_of, World};

/// `pbem serve` on a configuration, polling every second, logging to a file.
struct Serve {
    child: Child,
}

impl Serve {
    /// `now`: the world's time, which the judge's clock starts at (`PBEM_NOW`), so that
    /// the deadlines the world's clock set are as far off as the world sees them.
    fn start(config: &Path, log: &Path, now: chrono::DateTime<chrono::Utc>) -> Serve {
        let child = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["serve", "--config"])
            .arg(config)
            .env("RUST_LOG", "info")
            .env("PBEM_NOW", now.to_rfc3339())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap();
        Serve { child }
    }

    fn hangup(&self) {
        let ok = Command::new("kill")
            .args(["-HUP", &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits (up to 60 s) until `what` holds.
fn await_until(what: &str, mut f: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !f() {
        assert!(start.elapsed().as_secs() < 60, "gave up waiting: {what}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

fn welcomes(w: &World, game: &str) -> usize {
    w.all_sent()
        .iter()
        .filter(|m| {
            m.subject
                .starts_with(&format!("[{game}] Welcome: you play"))
        })
        .count()
}

#[test]
fn sighup_and_pbem_reload_add_games_keep_running_ones_refuse_bad_files_and_archive_removed_games() {
    let w = game("");
    let config = w.dir.path().join("games.toml");
    let original = std::fs::read_to_string(&config).unwrap().replacen(
        "[judge]\n",
        "[judge]\npoll_seconds = 1\n",
        1,
    );
    std::fs::write(&config, &original).unwrap();
    let before = w.record();
    let log = w.dir.path().join("serve.log");
    let serve = Serve::start(&config, &log, w.now());
    await_until("serving", || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .contains("serving")
    });
    // A second game, added while the judge runs: SIGHUP starts it.
    let g2 = original.replace("id = \"g1\"", "id = \"g2\"");
    let g2_table = &g2[g2.find("[[game]]").unwrap()..];
    std::fs::write(&config, format!("{original}\n{g2_table}")).unwrap();
    serve.hangup();
    await_until("g2's welcome mails", || welcomes(&w, "g2") == 4);
    assert_eq!(
        welcomes(&w, "g1"),
        4,
        "the running game is not welcomed again"
    );
    // A file that does not read: `pbem reload` refuses it with the reason, SIGHUP
    // leaves the running configuration.
    let good = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        good.replace("rules = \"foundation-empire\"", "rules = \"chess\""),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["reload", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("chess"), "{err}");
    serve.hangup();
    await_until("the refusal in the log", || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .contains("games.toml not reloaded")
    });
    // Still serving g2 on the old configuration: a BOARD request is answered.
    let mut w = w;
    w.send(
        HARI,
        "[g2]",
        &format!("PASSWORD {}\nGAME g2\nBOARD", password_of(HARI)),
    );
    await_until("g2's BOARD reply", || {
        w.all_sent()
            .iter()
            .any(|m| m.subject.starts_with("[g2] Board"))
    });
    // g1 removed, through `pbem reload`: archived (exported), not deleted.
    std::fs::write(&config, good.replacen("id = \"g1\"", "id = \"g3\"", 1)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["reload", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("1 new, 1 archived"), "{said}");
    let archive = w.dir.path().join("judge.sled.archive");
    await_until("g1's archive file", || {
        std::fs::read_dir(&archive)
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("g1-"))
            })
            .unwrap_or(false)
    });
    await_until("g3's welcome mails", || welcomes(&w, "g3") == 4);
    drop(serve);
    let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
    let kept: pbem::judge::record::Record = store.get("v1/game/g1").unwrap().expect("kept");
    assert_eq!(kept.game, before.game);
    assert!(store.contains("v1/archived/g1").unwrap());
}
