//! Games stored by an earlier pbem stay readable and playable: a game of every rule
//! set, exported (`pbem game export`) in the middle of play by the pbem of 2026-11-25
//! (store format 3), is imported into a new store and played on. The exports are in
//! `tests/fixtures/games-format-3/`, each with its record, history, press and an
//! observer.
//!
//! When a change to a stored type makes one of them unreadable, the change needs a
//! migration (a `#[serde(default)]`, an alias, a conversion when the store opens):
//! **never regenerate these files**. A new format gets a folder of its own, written
//! by `write_stored_game_fixtures` (ignored; `STORED_GAMES_OUT=<dir> cargo test
//! --release --test pbem write_stored_game_fixtures -- --ignored`), beside the old.

use std::path::{Path, PathBuf};

use chrono::Duration;

use crate::world::{password_of, Sent, World, GODSFIRE_PLAYERS, PLAYERS};

const WATCHER: &str = "watcher@example.test";

/// A game's players: power, address, password.
type Players = Vec<(&'static str, &'static str, &'static str)>;

/// Each rule set's game: its `rules`, the game table's extra lines and its players.
fn games() -> Vec<(&'static str, &'static str, Players)> {
    vec![
        ("foundation-empire", "", PLAYERS.to_vec()),
        ("godsfire", "", GODSFIRE_PLAYERS.to_vec()),
        (
            "diplomacy",
            "",
            crate::diplomacy::DIPLOMACY_PLAYERS.to_vec(),
        ),
        (
            "battles-galactic-empire",
            "",
            crate::bfge_judge::BFGE_PLAYERS.to_vec(),
        ),
        (
            "war-imperialism",
            "[game.options]\nplayers = [\"black\", \"blue\", \"green\", \"red\", \"white\", \"yellow\"]\nlast_turn = 5\n",
            crate::war_game::PLAYERS.to_vec(),
        ),
        (
            "foundation-hjelmberg",
            "phases = { setup = \"24h\", play = \"48h\" }\n[game.options]\nseating = [\"ann\", \"bob\", \"cat\", \"dan\", \"eve\"]\nround_limit = 30\n",
            crate::hjelmberg_judge::PLAYERS.to_vec(),
        ),
    ]
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games-format-3")
}

fn to<'a>(sent: &'a [Sent], address: &str) -> Vec<&'a Sent> {
    sent.iter().filter(|m| m.to == address).collect()
}

#[test]
fn games_stored_by_an_earlier_pbem_are_read_and_played_on() {
    for (rules, extra, players) in games() {
        let file = fixtures().join(format!("{rules}.export"));
        let mut w = World::with_rules(rules, extra, &players);
        {
            let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
            let id =
                pbem::backup::import_game(&store, &file).unwrap_or_else(|e| panic!("{rules}: {e}"));
            assert_eq!(id, "g1");
        }
        // Read as stored: the phase it was left in, not a new game.
        let before = w.record();
        let label = before.game.label();
        assert!(
            before.phases_played >= 2 && !label.over,
            "{rules}: {label:?}"
        );
        let report = w.pass();
        assert!(report.errors.is_empty(), "{rules}: {:?}", report.errors);
        assert!(
            w.sent().is_empty(),
            "{rules}: an imported game is not welcomed again"
        );
        // A player's BOARD, HISTORY and HISTORY PRESS are answered from what is stored.
        let (_, address, _) = players[0];
        w.send(
            address,
            "[g1] queries",
            &format!(
                "PASSWORD {}\nBOARD\nHISTORY 1\nHISTORY PRESS",
                password_of(address)
            ),
        );
        let report = w.pass();
        assert!(report.errors.is_empty(), "{rules}: {:?}", report.errors);
        let sent = w.sent();
        let mine = to(&sent, address);
        let subjects: Vec<&str> = mine.iter().map(|m| m.subject.as_str()).collect();
        assert!(
            subjects.iter().any(|s| s.ends_with("Board"))
                && subjects.iter().any(|s| s.contains("History of turn 1")),
            "{rules}: {subjects:?}"
        );
        assert!(
            mine.iter()
                .any(|m| m.body.contains("Press kept from before the upgrade.")),
            "{rules}: HISTORY PRESS shows the stored press: {mine:#?}"
        );
        // The deadline passes: the phase is adjudicated, the results reach the
        // players and the stored observer.
        w.advance(Duration::days(30));
        let report = w.pass();
        assert!(report.errors.is_empty(), "{rules}: {:?}", report.errors);
        assert!(report.phases_adjudicated >= 1, "{rules}: {report:?}");
        assert_ne!(w.record().game.label(), label, "{rules}");
        let sent = w.sent();
        assert!(!to(&sent, WATCHER).is_empty(), "{rules}: the observer");
        assert!(
            players
                .iter()
                .all(|(_, address, _)| !to(&sent, address).is_empty()),
            "{rules}: every player hears of the phase"
        );
    }
}

/// Writes the exports `games_stored_by_an_earlier_pbem_are_read_and_played_on` reads,
/// into `$STORED_GAMES_OUT`: each game played two phases by its deadlines, with press
/// and an observer.
#[test]
#[ignore = "writes fixtures for a new store format; run by hand"]
fn write_stored_game_fixtures() {
    let out = PathBuf::from(std::env::var("STORED_GAMES_OUT").expect("STORED_GAMES_OUT"));
    for (rules, extra, players) in games() {
        let mut w = World::with_rules(rules, extra, &players);
        w.pass();
        w.send(WATCHER, "observe", "OBSERVE g1");
        let (_, first, _) = players[0];
        let (second, _, _) = players[1];
        w.orders(
            first,
            &format!("PRESS TO {second}\nPress kept from before the upgrade.\nEND"),
        );
        w.pass();
        for _ in 0..2 {
            let label = w.record().game.label();
            w.advance(Duration::days(8));
            w.pass();
            assert_ne!(w.record().game.label(), label, "{rules}");
        }
        w.sent();
        let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
        let file = out.join(format!("{rules}.export"));
        pbem::backup::export_game(&store, "g1", &file, w.now()).unwrap();
    }
}
