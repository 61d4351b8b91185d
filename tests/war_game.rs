//! A six-player game of War! played to its end through the judge by mail: scripted
//! players (one of them now and then without orders), a war and a peace; every results
//! mail checked for its battles, position, movement order and VP table; then the game
//! replayed from the judge's stored history.

use std::collections::BTreeMap;

use chrono::Duration;
use pbem::rules::game::Game;
use pbem::rules::war_imperialism::generate::{scripted_orders, Plan};
use pbem::rules::war_imperialism::output::output_value;
use pbem::rules::war_imperialism::scenario::{game_options, new_game_state};
use pbem::rules::war_imperialism::state::{Phase, State};
use pbem::rules::war_imperialism::{self as war};

use crate::world::{assert_chatter_only_in_the_receipt, squash, World};

pub(crate) const PLAYERS: [(&str, &str, &str); 6] = [
    ("black", "black.war@example.test", "pw-war-black"),
    ("blue", "blue.war@example.test", "pw-war-blue"),
    ("green", "green.war@example.test", "pw-war-green"),
    ("red", "red.war@example.test", "pw-war-red"),
    ("white", "white.war@example.test", "pw-war-white"),
    ("yellow", "yellow.war@example.test", "pw-war-yellow"),
];

const OPTIONS: &str = "[game.options]\nplayers = [\"black\", \"blue\", \"green\", \"red\", \"white\", \"yellow\"]\nlast_turn = 5\n";

fn plan(player: &str) -> Plan {
    let picks = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
    match player {
        "black" => Plan {
            picks: picks(&["Britain", "France", "LowCountries", "Germany"]),
            ..Plan::default()
        },
        "blue" => Plan {
            picks: picks(&["Egypt", "Levant", "Arabia", "Mesopotamia"]),
            war: vec![(2, 1, "green".into())],
            peace: vec![(4, "green".into())],
        },
        "green" => Plan {
            picks: picks(&["Sudan", "Libya", "Ethiopia", "EastAfrica"]),
            war: Vec::new(),
            peace: vec![(4, "blue".into())],
        },
        "red" => Plan {
            picks: picks(&["Hindustan", "Bengal", "Deccan", "Punjab"]),
            ..Plan::default()
        },
        "white" => Plan {
            picks: picks(&["Japan", "Korea", "Manchuria", "NorthChina"]),
            ..Plan::default()
        },
        _ => Plan {
            picks: picks(&["WestAustralia", "EastAustralia", "NewZealand", "Java"]),
            ..Plan::default()
        },
    }
}

fn war_state(w: &World) -> State {
    match w.record().game {
        Game::WarImperialism(s) => s,
        _ => panic!("not a War! game"),
    }
}

/// A battle round's line for one side as the results mail writes it, from
/// results.json: `round 2, red: DRM +1; INF 3, 5; CAV+1 landed-1 6 -> 2 hits` (None for
/// the side that does not roll in an extra round).
fn side_line(b: &serde_json::Value, r: &serde_json::Value, k: usize, side: &str) -> Option<String> {
    let groups = r["by_kind"][side].as_array().expect("by_kind");
    if groups.is_empty() && r["extra"] == true {
        return None;
    }
    let label = if r["extra"] == true {
        "extra round".to_string()
    } else {
        format!("round {}", k + 1)
    };
    let mut parts = vec![format!("DRM {:+}", r["drm"][side].as_i64().unwrap())];
    for g in groups {
        let mut kind = g["kind"].as_str().unwrap().to_string();
        let unit = g["unit_drm"].as_i64().unwrap();
        if unit != 0 {
            kind += &format!("{unit:+}");
        }
        if let Some(l) = g.get("landed_drm") {
            kind += &format!(" landed{:+}", l.as_i64().unwrap());
        }
        let dice: Vec<String> = g["rolls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.to_string())
            .collect();
        parts.push(format!("{kind} {}", dice.join(", ")));
    }
    if groups.is_empty() {
        parts.push("no dice".into());
    }
    let hits = r["hits"][side].as_u64().unwrap();
    Some(format!(
        "{label}, {}: {} -> {hits} {}",
        b[side].as_str().unwrap(),
        parts.join("; "),
        if hits == 1 { "hit" } else { "hits" }
    ))
}

/// A side's DRM part by part as the results mail writes it, from results.json:
/// `round 1, red: DRM +0 (general +1, 2 schools +1, transfer -2)` (None when nothing
/// is in it).
fn parts_line(
    b: &serde_json::Value,
    r: &serde_json::Value,
    k: usize,
    side: &str,
) -> Option<String> {
    let parts = r["drm_parts"][side].as_array().expect("drm_parts");
    if parts.is_empty() {
        return None;
    }
    let other = if side == "attacker" {
        "defender"
    } else {
        "attacker"
    };
    let words: Vec<String> = parts
        .iter()
        .map(|p| {
            let what = match (p["part"].as_str().unwrap(), p.get("count")) {
                ("schools", Some(n)) if n == 1 => "1 school".to_string(),
                ("schools", Some(n)) => format!("{n} schools"),
                ("set_to_0", _) => "set to 0".into(),
                ("from_other_side", _) => format!("gained from {}", b[other].as_str().unwrap()),
                (part, _) => part.into(),
            };
            format!("{what} {:+}", p["drm"].as_i64().unwrap())
        })
        .collect();
    let label = if r["extra"] == true {
        "extra round".to_string()
    } else {
        format!("round {}", k + 1)
    };
    Some(format!(
        "{label}, {}: DRM {:+} ({})",
        b[side].as_str().unwrap(),
        r["drm"][side].as_i64().unwrap(),
        words.join(", ")
    ))
}

/// Whether a player skips this phase: yellow every third phase, white in turn 3's
/// production.
fn skips(player: &str, s: &State, phase_no: usize) -> bool {
    (player == "yellow" && phase_no % 3 == 2)
        || (player == "white" && s.turn == 3 && s.phase == Phase::Production)
}

#[test]
fn war_six_players_play_a_game_to_its_end_by_mail() {
    let mut w = World::with_rules("war-imperialism", OPTIONS, &PLAYERS);
    w.pass();
    assert_eq!(war_state(&w).phase, Phase::Draft);
    let (mut phases, mut battles, mut skipped) = (0usize, 0usize, 0usize);
    let (mut wars, mut peaces) = (0usize, 0usize);
    let mut parleys_told_once = 0usize;
    let mut production_receipts = 0usize;
    while !w.record().game.label().over {
        let before = war_state(&w);
        assert!(before.turn <= 5, "past the last turn");
        let owing = w.record().game.owing();
        for (player, address, _) in PLAYERS {
            if !owing.contains(&player.to_string()) {
                continue;
            }
            if skips(player, &before, phases) {
                skipped += 1;
                continue;
            }
            let p = before.player_index(player).unwrap();
            let text = scripted_orders(&before, p, &plan(player));
            w.orders(address, &format!("# {player}'s orders\n{text}"));
        }
        w.pass();
        if war_state(&w) == before {
            // Someone did not write: the deadline ends the phase.
            w.advance(Duration::hours(49));
            w.pass();
        }
        let after = war_state(&w);
        assert!(after != before, "the phase did not advance");
        phases += 1;
        assert!(phases <= 20, "too many phases");
        let sent = w.sent();
        // A production receipt tells what the player held (Play::receipt_notes).
        if before.phase == Phase::Production {
            for (player, address, _) in PLAYERS {
                let Some(receipt) = sent
                    .iter()
                    .find(|m| m.to == address && m.subject.contains("Orders received"))
                else {
                    continue;
                };
                let held = &before.players[before.player_index(player).unwrap()];
                let want = format!("You hold {} PP and {} DP now.", held.pp, held.dp);
                assert!(squash(&receipt.body).contains(&want), "{}", receipt.body);
                production_receipts += 1;
            }
        }
        let results: Vec<_> = sent
            .iter()
            .filter(|m| m.subject.contains("results"))
            .collect();
        assert_eq!(
            results.len(),
            PLAYERS.len() + 1,
            "a results mail to each player and the moderator ({} {})",
            before.turn,
            before.phase.id()
        );
        for m in &results {
            let body = squash(&m.body);
            if let Some(long) = m.body.lines().find(|l| l.chars().count() > 72) {
                panic!("a line over 72 columns: {long:?}");
            }
            let (name, json) = m.attachment.clone().expect("results.json");
            assert_eq!(name, "results.json");
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["rules"], "war-imperialism");
            // Every battle with its rolls and losses.
            for b in v["battles"].as_array().unwrap() {
                let head = format!("Battle at {}", b["at"].as_str().unwrap());
                assert!(
                    body.contains(&head),
                    "{head} missing from {}:\n{}",
                    m.to,
                    m.body
                );
                // Each side's DRM and its dice by kind, with each kind's unit DRM
                // (W6.2, W11.4): enough to check the hits from the dice shown.
                for (k, r) in b["rounds"].as_array().unwrap().iter().enumerate() {
                    for side in ["attacker", "defender"] {
                        let line = side_line(b, r, k, side);
                        if let Some(line) = line {
                            assert!(body.contains(&line), "{line:?} missing from:\n{}", m.body);
                            if let Some(parts) = parts_line(b, r, k, side) {
                                assert!(
                                    body.contains(&parts),
                                    "{parts:?} missing from:\n{}",
                                    m.body
                                );
                            }
                        }
                    }
                }
                assert!(body.contains("lost:"));
            }
            // Every event, but one that says again what a result line of its player
            // says (a parley): that is told once, in the result line.
            let events = squash(m.body.split_once("What else happened:").map_or("", |x| x.1));
            for e in v["events"].as_array().unwrap() {
                let raw = e["text"].as_str().unwrap();
                let text = squash(raw);
                let rest = raw.split_once(": ").map_or(raw, |x| x.1);
                let repeated = v["results"].as_array().unwrap().iter().any(|r| {
                    e.get("player") == Some(&r["player"]) && r["detail"].as_str() == Some(rest)
                });
                if repeated {
                    parleys_told_once += 1;
                    assert!(
                        body.contains(&squash(rest)),
                        "{rest} missing from:\n{}",
                        m.body
                    );
                    assert!(!events.contains(&text), "{text} told twice in:\n{}", m.body);
                } else {
                    assert!(
                        body.contains(&text),
                        "{text} missing from {}:\n{}",
                        m.to,
                        m.body
                    );
                }
            }
            // The position by player, the VP table, the next movement order.
            for p in &after.players {
                if !p.eliminated {
                    assert!(
                        body.contains(&format!("{}: {} PP, {} DP", p.id, p.pp, p.dp)),
                        "{}",
                        m.body
                    );
                }
            }
            assert!(body.contains("Victory points (W11.7):"), "{}", m.body);
            if after.phase != Phase::Over {
                assert!(body.contains("Movement order of turn"), "{}", m.body);
            }
            // Said once: the board lists each player's regions and the movement order.
            assert_eq!(
                body.matches("Movement order").count(),
                usize::from(after.phase != Phase::Over),
                "{}",
                m.body
            );
            assert!(!body.contains("Regions owned"), "{}", m.body);
            // Players see every result but not the pools' order.
            if m.to.starts_with("mod@") {
                assert!(v["pool"]["chits"].is_array());
            } else {
                assert!(v["pool"]["chits"].is_number(), "{}", m.to);
            }
        }
        if std::env::var_os("WAR_GAME_SHOW").is_some() {
            if let Some(m) = results.iter().find(|m| m.to.starts_with("blue")) {
                eprintln!("----- {}\n{}", m.subject, m.body);
            }
        }
        battles += after_battles(&results);
        wars += usize::from(after.wars.len() > before.wars.len());
        peaces += usize::from(after.wars.len() < before.wars.len());
        for m in sent
            .iter()
            .filter(|m| m.subject.contains("received") || m.body.contains("PASSWORD"))
        {
            assert!(!m.body.contains("pw-war-"), "a password in a mail");
        }
    }
    let end = war_state(&w);
    assert_eq!(end.phase, Phase::Over);
    assert!(!end.winners.is_empty());
    assert!(wars >= 1, "no war was declared");
    assert!(peaces >= 1, "no peace was made");
    assert!(battles >= 5, "only {battles} battles");
    assert!(
        parleys_told_once > 0,
        "no parley's event left to its result line"
    );
    assert!(skipped >= 3, "nobody missed orders");
    assert!(
        production_receipts >= 6,
        "only {production_receipts} production receipts"
    );
    assert!(
        w.all_sent().iter().any(|m| m.subject.contains("Game over")),
        "no game-over mail"
    );
    eprintln!(
        "{phases} phases, {battles} battles, winners {:?}",
        end.winners
    );
    replay_from_the_store(&w, &end);
}

fn after_battles(results: &[&crate::world::Sent]) -> usize {
    results
        .first()
        .and_then(|m| m.attachment.as_ref())
        .map(|(_, json)| {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            v["battles"].as_array().unwrap().len()
        })
        .unwrap_or(0)
}

fn phase_rank(phase: &str) -> u8 {
    match phase {
        "draft" => 0,
        "setup" => 1,
        "production" => 2,
        "movement-1" => 3,
        _ => 4,
    }
}

/// The game replayed from what the judge stored (each phase's orders, as its results
/// list them) and the game's seed: every phase's JSON again, and the same end.
fn replay_from_the_store(w: &World, end: &State) {
    let store = pbem::store::Store::open(&w.dir.path().join("judge.sled")).unwrap();
    let mut entries: Vec<(String, pbem::judge::record::HistoryEntry)> =
        store.scan("v1/history/g1/").unwrap();
    entries.sort_by_key(|(_, e)| (e.turn, phase_rank(&e.phase)));
    assert!(entries.len() >= 16, "{} phases stored", entries.len());
    let table: toml::Table = toml::from_str(&OPTIONS.replace("[game.options]\n", "")).unwrap();
    let (ids, options) = game_options(&table).unwrap();
    let mut s = new_game_state(ids, options, 3);
    for (key, entry) in entries {
        let mut orders: BTreeMap<String, String> = BTreeMap::new();
        for r in entry.json["results"].as_array().unwrap() {
            let text = orders
                .entry(r["player"].as_str().unwrap().to_string())
                .or_default();
            text.push_str(r["order"].as_str().unwrap());
            text.push('\n');
        }
        let (next, log) = war::adjudicate(&s, &orders, 3);
        let mut stored = entry.json.clone();
        let mut again = output_value(&s, &next, &log);
        for v in [&mut stored, &mut again] {
            let m = v.as_object_mut().unwrap();
            m.remove("game");
            m.remove("phase");
        }
        assert_eq!(again, stored, "{key}");
        s = next;
    }
    assert_eq!(&s, end);
}

/// A line that is no order at all (chatter, a greeting) stays the sender's: its
/// receipt shows it as not read, and no other mail of the phase (another player's
/// receipt or results, the moderator's copy, any results.json) ever shows it; a wrong
/// order is still refused and published in the results.
#[test]
fn war_chatter_stays_in_the_senders_receipt() {
    let mut w = World::with_rules("war-imperialism", OPTIONS, &PLAYERS);
    w.pass();
    w.sent();
    assert_eq!(war_state(&w).phase, Phase::Draft);
    let (_, black, _) = PLAYERS[0];
    let chatter = [
        "Hello neighbours, shall we share Africa?",
        "Thanks for the game so far",
    ];
    w.orders(
        black,
        &format!(
            "PICK Britain France\n{}\nPICK Atlantis\n{}",
            chatter[0], chatter[1]
        ),
    );
    w.pass();
    let sent = w.sent();
    let receipt = sent
        .iter()
        .find(|m| m.to == black && m.subject.contains("Orders received"))
        .expect("a receipt");
    let body = squash(&receipt.body);
    for c in chatter {
        assert!(body.contains(&format!("NOT READ {c}")), "{}", receipt.body);
    }
    assert!(body.contains("only you see this line"), "{}", receipt.body);
    assert!(body.contains("REFUSED PICK Atlantis"), "{}", receipt.body);
    // Nobody else sends orders: the deadline ends the phase.
    w.advance(Duration::hours(100));
    w.pass();
    assert_ne!(
        war_state(&w).phase,
        Phase::Draft,
        "the draft was adjudicated"
    );
    let all = w.all_sent();
    let results: Vec<_> = all
        .iter()
        .filter(|m| m.subject.contains("results"))
        .collect();
    assert_eq!(results.len(), PLAYERS.len() + 1);
    assert_chatter_only_in_the_receipt(&all, &chatter, black);
    // The wrong order is an order: refused in every results mail.
    for m in &results {
        assert!(squash(&m.body).contains("PICK Atlantis"), "{}", m.body);
    }
}
