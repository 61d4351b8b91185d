//! The judge end to end: the store across restarts at any point, `pbem game show`, and
//! a wrong configuration.

use pbem::judge::CrashPoint;

use crate::judge::{fixed, turn_one, HARI};
use crate::world::World;

#[test]
fn restart_at_any_point_loses_nothing_and_repeats_nothing() {
    for crash in [
        CrashPoint::AfterRawStored,
        CrashPoint::AfterCommit,
        CrashPoint::BeforeSend,
        CrashPoint::AfterSend,
    ] {
        let mut w = fixed();
        turn_one(&mut w);
        w.orders(HARI, "BOARD");
        // Passes killed at the first, second, … time they reach the point, each
        // followed by a restart; then a clean pass.
        let mut crashes = 0;
        for skip in 0..12 {
            if w.crashing_pass(crash, skip).is_err() {
                crashes += 1;
            }
        }
        w.pass();
        assert!(crashes >= 1, "{crash:?} was never reached");
        let sent = w.all_sent();
        let mut ids: Vec<&str> = sent.iter().map(|m| m.raw.as_str()).collect();
        ids.dedup();
        let results = sent
            .iter()
            .filter(|m| m.subject.contains("results"))
            .count();
        assert_eq!(results, 5, "{crash:?}: results once to each of 5");
        let receipts = sent
            .iter()
            .filter(|m| m.subject.contains("Orders received"))
            .count();
        assert_eq!(receipts, 4, "{crash:?}: one receipt per order mail");
        let boards = sent.iter().filter(|m| m.subject.contains("Board")).count();
        assert_eq!(boards, 1, "{crash:?}");
        let record = w.record();
        assert_eq!(
            record.game.label().turn,
            2,
            "{crash:?}: turn 1 adjudicated once"
        );
        assert!(std::fs::read_dir(w.inbox().join("new"))
            .unwrap()
            .next()
            .is_none());
        w.assert_no_password_leaks();
    }
}

/// `pbem game show g1 --json` on the world's configuration.
fn show_json(w: &World) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["game", "show", "g1", "--json", "--config"])
        .arg(w.dir.path().join("games.toml"))
        .env("PBEM_NOW", w.now().to_rfc3339())
        .output()
        .unwrap()
}

#[test]
fn game_show_json_has_the_position_and_the_phase() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2");
    w.pass();
    let out = show_json(&w);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "g1");
    assert_eq!(v["turn"], 1);
    assert_eq!(v["phase"], "movement");
    assert_eq!(v["submitted"], serde_json::json!(["foundation"]));
    assert_eq!(v["fleets"].as_array().unwrap().len(), 12);
    assert_eq!(v["systems"]["Terminus"], "foundation");
    assert!(v["deadline"]
        .as_str()
        .unwrap()
        .starts_with("2026-11-24T12:00:00"));
    // While a judge is running (it holds the store), show reads its snapshot.
    let running = w.judge();
    let out = show_json(&w);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let during: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(during, v);
    drop(running);
}

#[test]
fn a_wrong_configuration_is_one_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let base = "[judge]\naddress = \"judge@example.test\"\nstore = \"s\"\n[transport]\nkind = \"maildir\"\ninbox = \"i\"\noutbox = \"o\"\n[[game]]\nid = \"g1\"\nrules = \"foundation-empire\"\n";
    let cases = [
        (base.replace("judge@example.test", "nobody"), "judge.address"),
        (format!("{base}time_zone = \"Mars/Olympus\"\n"), "time_zone"),
        (format!("{base}phases = {{ movement = \"2 days\" }}\n"), "phases.movement"),
        (base.replace("foundation-empire", "chess"), "rules"),
        (format!("{base}[[game.player]]\npower = \"klingon\"\naddress = \"a@example.test\"\npassword = \"$argon2id$x\"\n"), "power \"klingon\""),
        (format!("{base}[[game.player]]\npower = \"union\"\naddress = \"a@example.test\"\npassword = \"plain\"\n"), "pbem hash-password"),
        (format!("{base}colour = \"red\"\n"), "game g1: unknown key `colour`"),
        (format!("{base}seed = \"x\"\n"), "game g1: seed: expected an integer"),
        (format!("{base}[game.options]\nsupport = \"maybe\"\n"), "support mode"),
    ];
    for (text, expected) in cases {
        let path = dir.path().join("games.toml");
        std::fs::write(&path, text).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["poll-once", "--config"])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{expected}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{expected:?} in {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}
