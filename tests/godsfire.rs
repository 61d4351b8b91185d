//! Godsfire beyond single scenario files: the standard scenario (G1.5), replay (G11.2),
//! the results players read (G11.3), and a 20-turn game through the judge with mail in
//! and out.

use std::collections::{BTreeMap, BTreeSet};

use chrono::Duration;
use pbem::rules::game::Game;
use pbem::rules::godsfire::map::{Cell, Economy};
use pbem::rules::godsfire::scenario::standard;
use pbem::rules::godsfire::state::{Options, Phase, State, NEUTRAL};
use pbem::rules::godsfire::{self as gf};

use crate::world::{World, GODSFIRE_PLAYERS};

/// A quarter turn of the standard map (15 x 15): column, row -> 14 - row, column.
fn quarter_turn(c: Cell) -> Cell {
    let (x, y) = (u16::from(c.col), c.row - 1);
    Cell {
        col: (14 - y) as u8,
        row: x + 1,
    }
}

#[test]
fn g1_5_the_standard_scenario_is_symmetric_between_the_powers() {
    let s = standard(1, Options::default());
    let ids: Vec<&str> = s.powers.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["red", "blue", "green", "yellow"]);
    for (k, p) in s.powers.iter().enumerate() {
        let own: Vec<_> = s.systems.iter().filter(|x| x.owner == p.id).collect();
        assert_eq!(own.len(), 3, "{}: a home system and two smaller ones", p.id);
        let home = own.iter().find(|x| x.name == p.ng).expect("NG at home");
        assert_eq!(home.planets.len(), 3);
        let mut levels: Vec<Economy> = home.planets.iter().flatten().map(|r| r.economy).collect();
        levels.sort();
        use Economy::*;
        assert_eq!(levels, [S, A1, A1, A2, A2, I1, I1, I2], "{}", p.id);
        // The next power's systems are this power's, turned a quarter.
        let next = &s.powers[(k + 1) % 4];
        for x in &own {
            let turned = quarter_turn(x.at);
            let y = s
                .systems
                .iter()
                .find(|y| y.at == turned)
                .unwrap_or_else(|| panic!("nothing at {turned}"));
            assert_eq!(y.owner, next.id);
            assert_eq!(y.planets, x.planets);
            assert_eq!(y.bank, x.bank);
        }
        assert_eq!(p.treasury, s.powers[0].treasury);
    }
    assert_eq!(s.systems.iter().filter(|x| x.owner == NEUTRAL).count(), 8);
    let nebula: BTreeSet<Cell> = s.map.nebula.iter().copied().collect();
    let turned: BTreeSet<Cell> = s.map.nebula.iter().map(|&c| quarter_turn(c)).collect();
    assert_eq!(nebula, turned);
    assert!(!nebula.is_empty());
}

#[test]
fn g1_5_open_values_come_from_the_seed_alone() {
    let a = standard(11, Options::default());
    assert_eq!(a, standard(11, Options::default()));
    let b = standard(12, Options::default());
    let neutral = |s: &State| -> Vec<_> {
        s.systems
            .iter()
            .filter(|x| x.owner == NEUTRAL)
            .map(|x| x.planets.clone())
            .collect()
    };
    assert_ne!(
        neutral(&a),
        neutral(&b),
        "another seed rolls other neutrals"
    );
    let owned = |s: &State| -> Vec<_> {
        s.systems
            .iter()
            .filter(|x| x.owner != NEUTRAL)
            .map(|x| x.planets.clone())
            .collect()
    };
    assert_eq!(owned(&a), owned(&b), "the powers' systems are fixed");
    // 8 neutral systems, 20 regions, 3 dice each.
    assert_eq!(a.setup_dice.len(), 60);
    assert!(a.setup_dice.iter().all(|d| d.step == "G1.5"));
}

/// Orders for one phase of the standard scenario: every power does a little of
/// everything it can afford.
fn busy_orders(s: &State) -> BTreeMap<String, String> {
    let mut orders = BTreeMap::new();
    for p in s.powers_in_play() {
        let mine: Vec<String> = s
            .regions()
            .filter(|&r| s.owner(r) == p.id)
            .map(|r| s.region_name(r))
            .collect();
        let theirs: Vec<String> = s
            .regions()
            .filter(|&r| s.owner(r) != p.id)
            .map(|r| s.region_name(r))
            .collect();
        let home = &p.ng;
        let text = match s.phase {
            Phase::Interphase => format!(
                "EXTORT {home}-1a\nBORROW 4\nTRANSFER 1 FROM NG TO {home}\nBUY {home}-1a 2 AG\nLOYALTY {} 1\nECON {home}-2b\nSUBVERT {}\nSUBVERT {}\n",
                mine.first().cloned().unwrap_or_default(),
                theirs[(s.turn as usize * 3) % theirs.len()],
                theirs[(s.turn as usize * 7 + 1) % theirs.len()],
            ),
            _ => format!(
                "DESUBVERT {}\nCOUNTER {}\n",
                mine.first().cloned().unwrap_or_default(),
                mine.last().cloned().unwrap_or_default()
            ),
        };
        orders.insert(p.id.clone(), text);
    }
    orders
}

#[test]
fn g11_2_a_game_replayed_from_its_orders_and_seed_ends_the_same() {
    let play = || {
        let mut s = standard(5, Options::default());
        let mut history = Vec::new();
        for _ in 0..12 {
            if s.phase == Phase::Over {
                break;
            }
            let orders = busy_orders(&s);
            let (next, log) = gf::adjudicate(&s, &orders, 5);
            history.push((orders, serde_json::to_string(&log).unwrap()));
            s = next;
        }
        (s, history)
    };
    let (first, history) = play();
    let (second, again) = play();
    assert_eq!(first, second);
    assert_eq!(history, again);
    // Replayed from the stored orders alone.
    let mut s = standard(5, Options::default());
    for (orders, _) in &history {
        s = gf::adjudicate(&s, orders, 5).0;
    }
    assert_eq!(s, first);
    assert!(first.turn > 1);
}

#[test]
fn g11_2_every_die_is_rolled_from_the_seed_and_reported() {
    let s = standard(8, Options::default());
    let orders = busy_orders(&s);
    let (_, log) = gf::adjudicate(&s, &orders, 8);
    // The setup dice come with the first results; later dice each with an event.
    assert_eq!(log.dice.iter().filter(|d| d.step == "G1.5").count(), 60);
    for d in log.dice.iter().filter(|d| d.step != "G1.5") {
        assert!(
            log.events
                .iter()
                .any(|e| e.roll == Some(d.roll) && e.step == d.step),
            "{d:?} has no event saying what it decided"
        );
    }
    assert_ne!(
        standard(9, Options::default()).setup_dice,
        s.setup_dice,
        "another seed, other dice"
    );
}

#[test]
fn g11_3_the_results_view_shows_every_order_and_new_stake() {
    let s = standard(2, Options::default());
    let orders = busy_orders(&s);
    let (after, log) = gf::adjudicate(&s, &orders, 2);
    let view = gf::report::results_view(&after, &log);
    let lines: usize = orders.values().map(|t| t.lines().count()).sum();
    assert_eq!(view.results.len(), lines);
    for stake in after.stakes.iter().filter(|k| k.placed_turn == s.turn) {
        assert!(
            view.events.iter().any(|e| e.contains(&format!(
                "{} places a subversion stake on {}",
                stake.power, stake.region
            ))),
            "{stake:?}"
        );
    }
    let board = gf::report::board_text(&after);
    assert!(board.contains("Sirius-1a"));
    assert!(board.contains("treasury"));
    assert!(board.lines().all(|l| l.chars().count() <= 78), "{board}");
}

fn godsfire_state(w: &World) -> State {
    match w.record().game {
        Game::Godsfire(s) => s,
        _ => panic!("not a Godsfire game"),
    }
}

/// One power's policy: orders for the current phase, read from the position (which the
/// results mails show in full).
fn policy(power: &str, s: &State) -> Option<String> {
    let mine: Vec<_> = s.regions().filter(|&r| s.owner(r) == power).collect();
    let me = s.power(power)?;
    let mut lines = Vec::new();
    match (power, s.phase) {
        // Subverts aggressively: as many stakes as the treasury pays, cheapest first;
        // extorts at home to pay for them; declares war on yellow in turn 3.
        ("red", Phase::Interphase) => {
            lines.push(format!("EXTORT {}-1a", me.ng));
            // The home bank (after this turn's tax, about 9) to the treasury.
            lines.push(format!("TRANSFER 8 FROM {} TO NG", me.ng));
            let mut targets: Vec<_> = s.regions().filter(|&r| s.owner(r) != power).collect();
            targets.sort_by_key(|&r| (s.region(r).economy.subversion_cost(), s.region_name(r)));
            let shift = (s.turn as usize * 5) % targets.len().max(1);
            targets.rotate_left(shift);
            let mut money = me.treasury + 8;
            for r in targets.into_iter().take(6) {
                let cost = s.region(r).economy.subversion_cost();
                if cost <= money {
                    money -= cost;
                    lines.push(format!("SUBVERT {}", s.region_name(r)));
                }
            }
            if s.turn == 3 {
                lines.push("WAR yellow".into());
            }
        }
        // Defends: de-subverts every stake placed on it this turn, counters the older.
        ("blue", Phase::Defence) => {
            for &r in &mine {
                let id = s.region_name(r);
                if s.stakes
                    .iter()
                    .any(|k| k.region == id && k.placed_turn == s.turn)
                {
                    lines.push(format!("DESUBVERT {id}"));
                } else if s.stakes.iter().any(|k| k.region == id) {
                    lines.push(format!("COUNTER {id}"));
                }
            }
        }
        ("blue", Phase::Interphase) => {
            for &r in &mine {
                if s.region(r).in_revolt() {
                    lines.push(format!("NEGOTIATE {}", s.region_name(r)));
                }
            }
        }
        // Borrows whenever it may, and spends on units.
        ("green", Phase::Interphase) => {
            lines.push("BORROW 6".into());
            lines.push(format!("TRANSFER 2 FROM NG TO {}", me.ng));
            lines.push(format!("BUY {}-1a 2 AG", me.ng));
        }
        _ => {}
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Regions by id with their allegiance.
fn allegiances(s: &State) -> BTreeMap<String, u8> {
    s.regions()
        .map(|r| (s.region_name(r), s.region(r).allegiance))
        .collect()
}

#[test]
fn twenty_turns_of_the_standard_scenario_by_mail() {
    let mut w = World::godsfire("");
    w.pass();
    assert_eq!(godsfire_state(&w).phase, Phase::Interphase);
    let (mut stakes, mut desubverted, mut revolts, mut phases) = (0, 0, 0, 0);
    while !w.record().game.label().over {
        let before = godsfire_state(&w);
        assert!(before.turn <= 20, "the game runs past its last turn");
        let owing = w.record().game.owing();
        for (power, address, _) in GODSFIRE_PLAYERS {
            if !owing.contains(&power.to_string()) {
                continue;
            }
            if let Some(text) = policy(power, &before) {
                w.orders(address, &text);
            }
        }
        w.pass();
        // Yellow never writes: the deadline ends every phase.
        w.advance(Duration::hours(49));
        w.pass();
        let after = godsfire_state(&w);
        assert!(
            (after.turn, after.phase != Phase::Interphase)
                > (before.turn, before.phase != Phase::Interphase)
                || after.phase == Phase::Over,
            "the phase did not advance"
        );
        phases += 1;
        let sent = w.sent();
        let results: Vec<_> = sent
            .iter()
            .filter(|m| m.subject.contains("results"))
            .collect();
        assert!(
            !results.is_empty(),
            "no results mail for turn {} {:?}",
            before.turn,
            before.phase
        );
        for m in &results {
            let body = squash(&m.body);
            let (name, json) = m.attachment.clone().expect("results.json");
            assert_eq!(name, "results.json");
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["rules"], "godsfire");
            // Every event of the phase, and so every stake, de-subversion and revolt, is
            // in the mail every player gets.
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
            for k in after
                .stakes
                .iter()
                .filter(|k| k.placed_turn == before.turn && before.phase == Phase::Interphase)
            {
                assert!(body.contains(&format!("places a subversion stake on {}", k.region)));
            }
            for k in before
                .stakes
                .iter()
                .filter(|k| k.placed_turn == before.turn && before.phase == Phase::Defence)
            {
                if !after.stakes.contains(k) {
                    assert!(
                        body.contains(&format!("{} de-subverted", k.region)),
                        "{}",
                        m.body
                    );
                }
            }
            let (a, b) = (allegiances(&before), allegiances(&after));
            for (id, &was) in &a {
                if was > 0 && b[id] == 0 {
                    assert!(
                        body.contains(&format!("{id} is in revolt")),
                        "{id}: {}",
                        m.body
                    );
                }
            }
        }
        // Counted once per phase, from the position itself.
        if before.phase == Phase::Interphase {
            stakes += after
                .stakes
                .iter()
                .filter(|k| k.placed_turn == before.turn)
                .count();
        } else {
            desubverted += before
                .stakes
                .iter()
                .filter(|k| k.placed_turn == before.turn && !after.stakes.contains(k))
                .count();
        }
        let (a, b) = (allegiances(&before), allegiances(&after));
        revolts += a.iter().filter(|(id, &was)| was > 0 && b[*id] == 0).count();
        assert!(phases <= 40, "more than 20 turns of two phases");
    }
    let end = godsfire_state(&w);
    assert!(
        end.turn == 20 || !end.winners.is_empty(),
        "ended at turn {}",
        end.turn
    );
    assert!(stakes >= 40, "only {stakes} stakes placed");
    assert!(desubverted > 0, "nothing was de-subverted");
    assert!(revolts > 0, "no region revolted");
    assert!(
        w.all_sent()
            .iter()
            .any(|m| m.subject.contains("over") || m.body.contains("The game is over")),
        "no game-over mail"
    );
    eprintln!("{phases} phases, {stakes} stakes, {desubverted} de-subverted, {revolts} revolts, winners {:?}", end.winners);
    replay_from_the_store(&w, &end);
}

/// The game replayed from what the judge stored (each phase's orders, as its results
/// list them) and the game's seed: every phase's JSON again, and the same end.
fn replay_from_the_store(w: &World, end: &State) {
    let store = pbem::store::Store::open(&w.dir.path().join("judge.sled")).unwrap();
    let mut entries: Vec<(String, pbem::judge::record::HistoryEntry)> =
        store.scan("v1/history/g1/").unwrap();
    entries.sort_by_key(|(_, e)| (e.turn, e.phase == "defence"));
    assert_eq!(entries.len(), 40);
    let mut s = standard(3, Options::default());
    for (key, entry) in entries {
        let mut orders: BTreeMap<String, String> = BTreeMap::new();
        for r in entry.json["results"].as_array().unwrap() {
            let text = orders
                .entry(r["power"].as_str().unwrap().to_string())
                .or_default();
            text.push_str(r["order"].as_str().unwrap());
            text.push('\n');
        }
        let (next, log) = gf::adjudicate(&s, &orders, 3);
        let mut stored = entry.json.clone();
        stored.as_object_mut().unwrap().remove("game");
        assert_eq!(gf::scenario::output_value(&s, &next, &log), stored, "{key}");
        s = next;
    }
    assert_eq!(&s, end);
}

/// The benchmark's interphase is a real one: most orders carried out, none unread.
#[test]
fn the_benchmark_interphase_carries_out_its_orders() {
    let (state, orders) = gf::generate::standard_interphase(7);
    let (_, log) = gf::adjudicate(&state, &orders, 7);
    let done = log
        .results
        .iter()
        .filter(|r| r.outcome == gf::outcome::Outcome::Done)
        .count();
    let invalid: Vec<_> = log
        .results
        .iter()
        .filter(|r| r.outcome == gf::outcome::Outcome::Invalid)
        .collect();
    assert!(invalid.is_empty(), "{invalid:?}");
    assert!(
        done * 4 >= log.results.len() * 3,
        "only {done} of {} done",
        log.results.len()
    );
}
