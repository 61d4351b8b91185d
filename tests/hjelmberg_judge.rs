//! Foundation (Hjelmberg) through the judge: a 5-player game by mail to its end (no
//! secret of another in any mail, every receipt's marks), replayed from the stored
//! history; turn pace by mail; the shipped `games.toml`; `pbem adjudicate`.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::Duration;
use pbem::rules::foundation_hjelmberg::data;
use pbem::rules::foundation_hjelmberg::state::{Phase, State, NONE};
use pbem::rules::foundation_hjelmberg::{self as fh, generate, output, report};
use pbem::rules::game::{Game, Play};
use serde_json::Value;

use crate::world::{orders_in_results, World};

fn fh_state(w: &World) -> State {
    match w.record().game {
        Game::FoundationHjelmberg(s) => s,
        _ => panic!("not a Foundation (Hjelmberg) game"),
    }
}

pub(crate) const PLAYERS: [(&str, &str, &str); 5] = [
    ("ann", "ann.fh@example.test", "pw-fh-ann"),
    ("bob", "bob.fh@example.test", "pw-fh-bob"),
    ("cat", "cat.fh@example.test", "pw-fh-cat"),
    ("dan", "dan.fh@example.test", "pw-fh-dan"),
    ("eve", "eve.fh@example.test", "pw-fh-eve"),
];

#[test]
fn a_five_player_game_by_mail_to_its_end() {
    let mut w = World::with_rules(
        "foundation-hjelmberg",
        "phases = { setup = \"24h\", play = \"48h\" }\n[game.options]\nseating = [\"ann\", \"bob\", \"cat\", \"dan\", \"eve\"]\nround_limit = 30\n",
        &PLAYERS,
    );
    w.pass();
    let mut phases = 0;
    let mut missed = 0;
    let mut failed_lines = 0;
    let mut fallbacks = 0;
    let mut secret_goals_seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut marks: BTreeMap<String, usize> = BTreeMap::new();
    while !w.record().game.label().over {
        let before = fh_state(&w);
        for (k, (power, address, _)) in PLAYERS.iter().enumerate() {
            // Now and then a player misses a deadline.
            if phases > 0 && (phases * 3 + k) % 11 == 5 {
                missed += 1;
                continue;
            }
            let text = generate::policy(&before, k as u8, k as u8);
            let _ = power;
            w.orders(address, &text);
        }
        let label = w.record().game.label();
        w.pass();
        if w.record().game.label() == label {
            // Someone missed: the deadline ends the phase.
            w.advance(Duration::hours(49));
            w.pass();
        }
        assert_ne!(w.record().game.label(), label, "the phase did not end");
        phases += 1;
        assert!(phases <= 40, "the game runs on");
        let after = fh_state(&w);
        let sent = w.sent();
        let results: Vec<_> = sent
            .iter()
            .filter(|m| m.subject.contains("results"))
            .collect();
        assert!(!results.is_empty(), "no results mail after phase {phases}");
        // A receipt marks each accepted line (ok, later, unused, WARNING) and says below it
        // what it would do; the orders standing are the orders alone.
        for m in sent.iter().filter(|m| m.body.contains("line by line:")) {
            let (lines, standing) = m.body.split_once("Orders now standing").unwrap();
            assert!(!standing.contains(" -> "), "{}", m.body);
            let rows: Vec<&str> = lines.lines().collect();
            for (k, row) in rows.iter().enumerate() {
                let Some(mark) = ["ok", "later", "unused", "WARNING"]
                    .into_iter()
                    .find(|mark| row.starts_with(&format!("  {mark:<9}")))
                else {
                    continue;
                };
                *marks.entry(mark.to_string()).or_default() += 1;
                // Below the order (and its wrapped rest), the note.
                let below = rows[k + 1..]
                    .iter()
                    .find(|r| !r.starts_with("           ") || r.starts_with("           -> "));
                assert!(
                    below.is_some_and(|r| r.starts_with("           -> ")),
                    "no note below {row:?}:\n{}",
                    m.body
                );
            }
        }
        // Every mail to a player: no secret of another in body, headers or attachment.
        let d = &*after.data;
        for m in &sent {
            let Some((power, _, _)) = PLAYERS.iter().find(|(_, a, _)| *a == m.to) else {
                continue;
            };
            let seat = after.seat_of(power).unwrap();
            let me = after.core.player(seat);
            let mut forbidden: Vec<String> = Vec::new();
            for s in after.core.seats().filter(|&s| s != seat) {
                let p = after.core.player(s);
                if p.personal != NONE && after.core.personal_revealed & (1 << s) == 0 {
                    // Another's personal goal may be a tile she knows from elsewhere:
                    // forbid the owner's personal line only.
                    forbidden.push(format!(
                        "drew the personal goal {}",
                        d.goal_name(p.personal)
                    ));
                    forbidden.push(format!("personal goal: {}", d.goal_name(p.personal)));
                }
            }
            for n in 0..3u8 {
                let seen = me.seen & (1 << n) != 0
                    || me.has(data::GOAL_SPACE + usize::from(n))
                    || after.core.revealed & (1 << n) != 0;
                if !seen {
                    let g = d.goal_name(after.core.goals[usize::from(n)]);
                    forbidden.push(format!("GOAL {}: {g}", n + 1));
                    forbidden.push(format!("GOAL {} {g}", n + 1));
                }
            }
            let attachment = m.attachment.clone().map(|a| a.1).unwrap_or_default();
            for f in &forbidden {
                assert!(
                    !m.raw.contains(f.as_str())
                        && !m.body.contains(f.as_str())
                        && !attachment.contains(f.as_str()),
                    "a mail to {} ({}) leaks {f:?}:\n{}\n{attachment}",
                    m.to,
                    m.subject,
                    m.body
                );
            }
            assert!(
                !attachment.contains("secret_to"),
                "whole results mailed to {}",
                m.to
            );
            // Each player's colonies are on the board: no list of them below it.
            assert!(!m.body.contains("Colonies held"), "{}", m.body);
            if m.subject.contains("results") {
                let v: Value = serde_json::from_str(&attachment).unwrap();
                for pile in ["colony1", "colony2", "colony3", "goals"] {
                    for t in v["piles"][pile].as_array().into_iter().flatten() {
                        assert_eq!(t, report::HIDDEN, "pile contents mailed to {}", m.to);
                    }
                }
                for (n, g) in v["goals"].as_array().unwrap().iter().enumerate() {
                    let seen = me.seen & (1 << n) != 0
                        || me.has(data::GOAL_SPACE + n)
                        || after.core.revealed & (1 << n) != 0;
                    if g != report::HIDDEN {
                        assert!(
                            seen,
                            "GOAL {} mailed to {} who has not seen it",
                            n + 1,
                            m.to
                        );
                        secret_goals_seen
                            .entry(power.to_string())
                            .or_default()
                            .push(g.as_str().unwrap().to_string());
                    }
                }
                for dr in v["draws"].as_array().unwrap() {
                    if dr["pile"] == "goals" && dr["for"] != *power {
                        assert_eq!(dr["drew"], report::HIDDEN, "a goal draw mailed to {}", m.to);
                    }
                }
                for p in v["players"].as_array().unwrap() {
                    let revealed = p["personal_revealed"] == Value::Bool(true);
                    if p["id"] != *power && !revealed {
                        assert!(
                            p["personal"] == "" || p["personal"] == report::HIDDEN,
                            "another's personal goal mailed to {}",
                            m.to
                        );
                    }
                }
            }
        }
        // Count the fallbacks that ran.
        let store_results: Vec<Value> = sent
            .iter()
            .filter(|m| m.subject.contains("results"))
            .filter_map(|m| m.attachment.as_ref())
            .filter_map(|(_, j)| serde_json::from_str(j).ok())
            .collect();
        if let Some(v) = store_results.first() {
            for r in v["results"].as_array().unwrap() {
                if r["outcome"] == "failed" {
                    failed_lines += 1;
                }
                if r["detail"]
                    .as_str()
                    .unwrap_or("")
                    .contains("fallback: line")
                {
                    fallbacks += 1;
                }
            }
        }
        assert!(after.core.round >= before.core.round);
    }
    let end = fh_state(&w);
    assert_eq!(end.core.phase, Phase::Over);
    assert!(
        end.core.winner != NONE || end.core.round == 30,
        "ended in round {}",
        end.core.round
    );
    assert!(missed > 0, "nobody missed a deadline");
    for mark in ["ok", "later", "unused", "WARNING"] {
        assert!(
            marks.contains_key(mark),
            "no receipt line marked {mark}: {marks:?}"
        );
    }
    assert!(failed_lines > 0 && fallbacks > 0, "no fallback ran");
    assert!(
        w.all_sent().iter().any(|m| m.subject.contains("Game over")),
        "no game-over mail"
    );
    // A finished game's phase is `over` (game show, HELP's list, receipts).
    assert_eq!(w.record().game.label().phase, "over");
    eprintln!(
        "{phases} phases, winner {:?}, {missed} missed, {failed_lines} failed lines, {fallbacks} fallbacks, goals seen {secret_goals_seen:?}",
        end.winners()
    );
    // A BOARD and a HISTORY reply, then: every line of every mail fits 72 columns.
    w.orders(PLAYERS[1].1, "BOARD\nHISTORY 3");
    w.pass();
    let sent = w.sent();
    assert!(sent.iter().any(|m| m.subject.contains("History of turn 3")));
    assert!(sent.iter().any(|m| m.subject.contains("Board")));
    for m in w.all_sent() {
        m.assert_fits_72();
    }
    replay_from_the_store(&w, &end);
}

/// The game replayed from what the judge stored (each phase's lines, as its results
/// list them) and the seed: every phase's JSON again, and the same end.
fn replay_from_the_store(w: &World, end: &State) {
    let store = pbem::store::Store::open(&w.dir.path().join("judge.sled")).unwrap();
    let mut entries: Vec<(String, pbem::judge::record::HistoryEntry)> =
        store.scan("v1/history/g1/").unwrap();
    entries.sort_by_key(|(_, e)| (e.turn, e.phase != "setup"));
    let mut s = match Game::new(
        pbem::rules::RuleSetId::FoundationHjelmberg,
        &toml::from_str(
            "seating = [\"ann\", \"bob\", \"cat\", \"dan\", \"eve\"]\nround_limit = 30",
        )
        .unwrap(),
        None,
        3,
    )
    .unwrap()
    {
        Game::FoundationHjelmberg(s) => s,
        _ => unreachable!(),
    };
    assert!(entries.len() >= 2);
    for (key, entry) in entries {
        let orders = orders_in_results(&entry.json);
        let (next, log) = fh::adjudicate(&s, &orders, 3);
        let mut stored = entry.json.clone();
        for k in ["game", "turn", "phase"] {
            stored.as_object_mut().unwrap().remove(k);
        }
        let mut again = output::output_value(&s, &next, &log);
        for k in ["turn", "phase"] {
            again.as_object_mut().unwrap().remove(k);
        }
        assert_eq!(again, stored, "{key}");
        s = next;
    }
    assert_eq!(&s, end);
}

/// The shipped `games.toml` holds a Foundation (Hjelmberg) game, valid and creatable.
#[test]
fn the_shipped_games_toml_has_a_hjelmberg_game() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games.toml");
    let config = pbem::config::Config::load(&path).expect("games.toml reads");
    let g = config
        .games
        .iter()
        .find(|g| g.rules == pbem::rules::RuleSetId::FoundationHjelmberg)
        .expect("a Foundation (Hjelmberg) game");
    let game = Game::new(g.rules, &g.options, None, g.seed).unwrap();
    assert_eq!(game.powers(), vec!["red", "blue", "green", "yellow"]);
    assert_eq!(game.label().phase, "setup");
    assert_eq!(game.owing().len(), 4);
}

/// `pbem adjudicate` as a user runs it: the example prints JSON twice alike; a damaged
/// scenario or data file exits 2 with one line naming the file and the problem.
#[test]
fn pbem_adjudicate_reads_hjelmberg_scenarios_and_refuses_damaged_ones() {
    let run = |path: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["adjudicate", path.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = root.join("examples/foundation-hjelmberg-round.toml");
    let (a, b) = (run(&example), run(&example));
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "byte-identical output");
    let json: Value = serde_json::from_slice(&a.stdout).unwrap();
    for key in [
        "results",
        "events",
        "draws",
        "players",
        "next_phase",
        "winner",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(&example).unwrap();
    let cases = [
        (
            "gate.toml",
            text.replace("ships = [\"A7\"]", "ships = [\"A13\"]"),
            "A13",
        ),
        (
            "colour.toml",
            text.replace("hand = { black = 1 }", "hand = { pink = 1 }"),
            "pink",
        ),
        (
            "key.toml",
            text.replace("seed = 7", "seed = 7\ncolor = 1"),
            "unknown key",
        ),
        (
            "data.toml",
            text.replace("seed = 7", "seed = 7\ndata = \"broken-data.toml\""),
            "broken-data.toml",
        ),
    ];
    std::fs::write(
        dir.path().join("broken-data.toml"),
        data::STANDARD_TEXT.replace("id = \"warp\"", "id = \"teleport\""),
    )
    .unwrap();
    for (name, text, want) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = run(&path);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(name) && err.contains(want), "{name}: {err}");
    }
}

/// In turn pace each player's turn is a phase of its own, numbered across the game: the
/// judge asks only that player, and every turn gets its own results and history entry.
#[test]
fn turn_pace_by_mail_asks_one_player_a_turn() {
    let players = &PLAYERS[..3];
    let mut w = World::with_rules(
        "foundation-hjelmberg",
        "[game.options]\nseating = [\"ann\", \"bob\", \"cat\"]\npace = \"turn\"\n",
        players,
    );
    w.pass();
    let mut labels = Vec::new();
    for phase in 0..8 {
        let s = fh_state(&w);
        let label = w.record().game.label();
        labels.push((label.turn, label.phase));
        let owing = w.record().game.owing();
        if phase > 0 {
            assert_eq!(owing, vec![s.name(s.core.next).to_string()]);
        }
        for (k, (power, address, _)) in players.iter().enumerate() {
            if owing.contains(&power.to_string()) && phase != 4 {
                w.orders(address, &generate::policy(&s, k as u8, 0));
            }
        }
        w.pass();
        if w.record().game.label() == label {
            w.advance(Duration::hours(49));
            w.pass();
        }
        assert_ne!(w.record().game.label(), label);
    }
    assert_eq!(labels[0], (0, "setup"));
    let turns: Vec<u32> = labels[1..].iter().map(|l| l.0).collect();
    assert_eq!(turns, vec![1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(fh_state(&w).core.round, 3);
    let store = pbem::store::Store::open(&w.dir.path().join("judge.sled")).unwrap();
    let entries: Vec<(String, pbem::judge::record::HistoryEntry)> =
        store.scan("v1/history/g1/").unwrap();
    assert_eq!(entries.len(), 8, "one history entry per turn");
}

/// A player who sent no orders is named once in a results mail, by the judge's line
/// (`No orders from cat: …`), not again by the rules' H4.5 event, in the text and the
/// HTML alike; `results.json` keeps the event.
#[test]
fn a_player_without_orders_is_named_once_in_the_results_mail() {
    let players = &PLAYERS[..3];
    let mut w = World::with_rules(
        "foundation-hjelmberg",
        "phases = { setup = \"24h\", play = \"48h\" }\n[game.options]\nseating = [\"ann\", \"bob\", \"cat\"]\n",
        players,
    );
    w.pass();
    let setup = fh_state(&w);
    for (k, (_, address, _)) in players.iter().enumerate() {
        w.orders(address, &generate::policy(&setup, k as u8, 0));
    }
    w.pass();
    assert_eq!(w.record().game.label().phase, "play");
    let play = fh_state(&w);
    for (k, (_, address, _)) in players.iter().enumerate().take(2) {
        w.orders(address, &generate::policy(&play, k as u8, 0));
    }
    w.pass();
    w.sent();
    w.advance(Duration::hours(49));
    w.pass();
    let mail = w
        .sent()
        .into_iter()
        .find(|m| m.to == players[0].1 && m.subject.contains("results"))
        .expect("the results mail");
    let body = crate::world::squash(&mail.body);
    assert_eq!(
        body.matches("No orders from cat: the rules' defaults were played.")
            .count(),
        1,
        "{}",
        mail.body
    );
    assert!(!body.contains("no orders from cat"), "{}", mail.body);
    let html = mail.html.clone().expect("an HTML part");
    assert!(!html.contains("no orders from cat"), "{html}");
    let (_, json) = mail.attachment.clone().expect("results.json");
    let json: Value = serde_json::from_str(&json).unwrap();
    assert!(
        json["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["step"] == "H4.5"
                && e["text"] == "no orders from cat: her turn is played with no lines"),
        "{json}"
    );
}
