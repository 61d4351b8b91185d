//! Godsfire through the judge: a 20-turn war with mail in and out (the powers' scripts
//! are in `godsfire_policies`), every results mail checked, then the game replayed from
//! the store.

use chrono::Duration;
use pbem::rules::godsfire::scenario::standard;
use pbem::rules::godsfire::state::{Options, Phase, State};
use pbem::rules::godsfire::{self as gf};

use crate::godsfire::godsfire_state;
use crate::godsfire_policies;
use crate::world::squash;
use crate::world::{orders_in_results, World};

/// Addresses and passwords of this game's players (unique to it).
const PLAYERS: [(&str, &str, &str); 4] = [
    ("red", "red.gf2@example.test", "pw-gf2-red"),
    ("blue", "blue.gf2@example.test", "pw-gf2-blue"),
    ("green", "green.gf2@example.test", "pw-gf2-green"),
    ("yellow", "yellow.gf2@example.test", "pw-gf2-yellow"),
];

/// What the war produced, counted from every phase's results.
#[derive(Debug, Default)]
struct Tally {
    phases: usize,
    moves: usize,
    transit_attacks: usize,
    blocks: usize,
    space_combats: usize,
    ground_combats: usize,
    conquests: Vec<String>,
    stakes: usize,
    /// Movement phases whose results told the contacts due in the combat phase.
    contacts_told: usize,
}

#[test]
fn twenty_turns_of_war_by_mail() {
    let mut w = World::with_rules("godsfire", "", &PLAYERS);
    w.pass();
    assert_eq!(godsfire_state(&w).phase, Phase::Movement);
    let mut tally = Tally::default();
    while !w.record().game.label().over {
        let before = godsfire_state(&w);
        assert!(before.turn <= 20, "the game runs past its last turn");
        let owing = w.record().game.owing();
        for (power, address, _) in PLAYERS {
            if !owing.contains(&power.to_string()) {
                continue;
            }
            let mut text = godsfire_policies::orders(power, &before);
            // Red asks for the board, the help and a past turn in every phase of turn
            // 3: those replies are checked at 72 columns with the rest.
            if power == "red" && before.turn == 3 {
                text = Some(text.unwrap_or_default() + "\nBOARD\nHELP\nHISTORY 2\n");
            }
            if let Some(text) = text {
                w.orders(address, &text);
            }
        }
        w.pass();
        // Yellow never writes: the deadline ends every phase it owes.
        if !w.record().game.label().over
            && godsfire_state(&w).phase == before.phase
            && godsfire_state(&w).turn == before.turn
        {
            w.advance(Duration::hours(49));
            w.pass();
        }
        let after = godsfire_state(&w);
        assert!(
            (after.turn, after.phase) != (before.turn, before.phase),
            "the phase did not advance"
        );
        tally.phases += 1;
        let sent = w.sent();
        let results: Vec<_> = sent
            .iter()
            .filter(|m| m.subject.contains("results"))
            .collect();
        // A mail to every player (each reader once) for every phase adjudicated.
        assert!(
            results.len() >= 4,
            "turn {} {:?}: {} results mails",
            before.turn,
            before.phase,
            results.len()
        );
        // A movement phase leading into a combat phase tells, in every mail, text and
        // HTML, which stacks are in contact, in the BOARD's words (G5.9).
        let contacts: Vec<String> =
            if (before.phase, after.phase) == (Phase::Movement, Phase::Combat) {
                tally.contacts_told += 1;
                gf::report::phase_asks(&after)
                    .into_iter()
                    .map(|a| format!("[G5.9] due in the combat phase: {a}"))
                    .collect()
            } else {
                Vec::new()
            };
        for (m, told) in results
            .iter()
            .flat_map(|m| contacts.iter().map(move |c| (m, c)))
        {
            assert!(
                squash(&m.body).contains(told),
                "{told} missing:\n{}",
                m.body
            );
            let html = m.html.as_deref().expect("an HTML part");
            assert!(
                squash(&html.replace("&#x27;", "'").replace("&#39;", "'")).contains(told),
                "{told} missing:\n{html}"
            );
        }
        let mut seen_phases = std::collections::BTreeSet::new();
        for m in &results {
            let body = squash(&m.body);
            let (name, json) = m.attachment.clone().expect("results.json");
            assert_eq!(name, "results.json");
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["rules"], "godsfire");
            // The board lists each power's systems: no list of systems owned below it.
            assert!(!body.contains("Systems owned"), "{}", m.body);
            // The setup's rolls (G1.5), each region's three on one line.
            for d in v["dice"].as_array().into_iter().flatten() {
                if d["step"] != "G1.5" {
                    continue;
                }
                let subject = d["for"].as_str().unwrap();
                let (region, what) = subject.rsplit_once(' ').unwrap();
                let line = format!("[G1.5] {region} rolled: ");
                let told = body
                    .split(&line)
                    .nth(1)
                    .unwrap_or_else(|| panic!("no {line:?} in:\n{}", m.body));
                assert!(
                    told.split(" [")
                        .next()
                        .unwrap()
                        .contains(&format!("{what} {}", d["roll"])),
                    "{subject}: {}",
                    m.body
                );
            }
            // Every event of the phase is in the mail every player gets.
            for e in v["events"].as_array().unwrap() {
                let text = squash(e["text"].as_str().unwrap());
                assert!(
                    body.contains(&text),
                    "{} missing from the mail to {}:\n{}",
                    text,
                    m.to,
                    m.body
                );
            }
            if !seen_phases.insert(m.subject.clone()) {
                continue;
            }
            // Counted once per phase.
            let count = |key: &str| v[key].as_array().map_or(0, Vec::len);
            tally.moves += count("moves");
            tally.transit_attacks += count("transit_attacks");
            tally.blocks += count("blocks");
            for c in v["combats"].as_array().into_iter().flatten() {
                if c["roll"].is_null() {
                    continue;
                }
                let target = c["target"].as_str().unwrap();
                if target.contains('-') {
                    tally.ground_combats += 1;
                } else {
                    tally.space_combats += 1;
                }
                // The mail shows each combat's odds, die and result.
                assert!(body.contains(&format!("odds {}", c["odds"].as_str().unwrap())));
            }
            for c in v["conquests"].as_array().into_iter().flatten() {
                tally
                    .conquests
                    .push(format!("{} {} -> {}", c["system"], c["from"], c["to"]));
            }
            if v["phase"] == "interphase" {
                tally.stakes += v["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|e| e["step"] == "G8.1")
                    .count();
            }
            // Every move with its path and fate.
            for (r, mv) in v["results"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["outcome"] == "done" && r["order"].as_str().unwrap().contains("->"))
                .zip(v["moves"].as_array().into_iter().flatten())
            {
                let _ = mv;
                assert!(body.contains(&squash(r["order"].as_str().unwrap())));
            }
        }
        assert!(tally.phases <= 80, "more than 20 turns of four phases");
    }
    let end = godsfire_state(&w);
    eprintln!("{tally:?}, turn {}, winners {:?}", end.turn, end.winners);
    assert!(
        end.turn == 20 || !end.winners.is_empty(),
        "ended at turn {}",
        end.turn
    );
    assert!(tally.moves >= 40, "{tally:?}");
    assert!(tally.transit_attacks >= 1, "no interception: {tally:?}");
    assert!(tally.blocks >= 1, "no block: {tally:?}");
    assert!(tally.space_combats >= 1, "no space combat: {tally:?}");
    assert!(tally.ground_combats >= 1, "no ground combat: {tally:?}");
    assert!(!tally.conquests.is_empty(), "no conquest: {tally:?}");
    assert!(tally.stakes >= 10, "{tally:?}");
    assert!(tally.contacts_told >= 1, "no combat phase: {tally:?}");
    assert!(
        w.all_sent()
            .iter()
            .any(|m| m.subject.contains("over") || m.body.contains("The game is over")),
        "no game-over mail"
    );
    replay_from_the_store(&w, &end);
    // Every line of every mail of the game (welcomes, receipts, results, BOARD, HELP
    // and HISTORY replies, reminders, the end) fits 72 columns.
    let all = w.all_sent();
    for kind in [
        "Welcome",
        "Orders received",
        "results",
        "Board",
        "Help",
        "History",
    ] {
        assert!(
            all.iter()
                .any(|m| m.subject.to_lowercase().contains(&kind.to_lowercase())),
            "no {kind} mail: {:?}",
            all.iter()
                .map(|m| &m.subject)
                .collect::<std::collections::BTreeSet<_>>()
        );
    }
    for m in &all {
        m.assert_fits_72();
    }
}

/// The order phases come in within a turn (G3).
fn phase_rank(phase: &str) -> u8 {
    match phase {
        "movement" => 0,
        "combat" => 1,
        "interphase" => 2,
        _ => 3,
    }
}

/// The game replayed from what the judge stored (each phase's orders, as its results
/// list them) and the game's seed: every phase's JSON again, and the same end.
fn replay_from_the_store(w: &World, end: &State) {
    let store = pbem::store::Store::open(&w.dir.path().join("judge.sled")).unwrap();
    let mut entries: Vec<(String, pbem::judge::record::HistoryEntry)> =
        store.scan("v1/history/g1/").unwrap();
    entries.sort_by_key(|(_, e)| (e.turn, phase_rank(&e.phase)));
    assert!(entries.len() >= 60, "{} phases stored", entries.len());
    let mut s = standard(3, Options::default());
    for (key, entry) in entries {
        let orders = orders_in_results(&entry.json);
        let (next, log) = gf::adjudicate(&s, &orders, 3);
        let mut stored = entry.json.clone();
        stored.as_object_mut().unwrap().remove("game");
        assert_eq!(gf::scenario::output_value(&s, &next, &log), stored, "{key}");
        s = next;
    }
    assert_eq!(&s, end);
}
