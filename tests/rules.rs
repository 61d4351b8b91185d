//! Rule tests that read better as code than as scenario files.

use std::collections::BTreeMap;
use std::path::Path;

use pbem::rules::foundation_empire::board::{Board, Sector};
use pbem::rules::foundation_empire::position::Phase;
use pbem::rules::foundation_empire::scenario::Scenario;
use pbem::rules::foundation_empire::FoundationEmpire;
use pbem::rules::{LineCheck, RuleSet};
use serde_json::Value;

fn adjudicate(scenario: &str) -> Value {
    let json = pbem::scenario::adjudicate_text(scenario, Path::new(".")).expect("scenario reads");
    serde_json::from_str(&json).expect("JSON")
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn r1_1_standard_board_is_8_by_6_with_a1_top_left() {
    let b = Board::standard();
    assert_eq!((b.width(), b.height()), (8, 6));
    assert_eq!(b.sector("A1"), Some(Sector(0)));
    assert_eq!(b.sector("h1"), Some(Sector(7)));
    assert_eq!(b.sector("A2"), Some(Sector(8)));
    assert_eq!(b.sector("H6"), Some(Sector(47)));
    assert_eq!(b.sector("I1"), None);
    assert_eq!(b.sector("A7"), None);
    assert_eq!(b.name(Sector(26)), "C4");
}

#[test]
fn r1_2_adjacency_is_eight_neighbours_without_wrap() {
    let b = Board::standard();
    let around = |s: &str| -> Vec<String> {
        b.neighbours(b.sector(s).unwrap())
            .into_iter()
            .map(|n| b.name(n))
            .collect()
    };
    assert_eq!(
        around("C3"),
        ["B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4"]
    );
    assert_eq!(around("A1"), ["B1", "A2", "B2"]);
    assert_eq!(around("H6"), ["G5", "H5", "G6"]);
    let (a1, h1) = (b.sector("A1").unwrap(), b.sector("H1").unwrap());
    assert!(!b.adjacent(a1, h1), "no wrap-around");
    assert!(!b.adjacent(a1, a1), "a sector is not its own neighbour");
}

#[test]
fn r1_3_quadrants_of_the_standard_board() {
    let b = Board::standard();
    let home = |s: &str| {
        b.power(b.home_power(b.sector(s).unwrap()).unwrap())
            .id
            .clone()
    };
    for (sector, power) in [
        ("A1", "foundation"),
        ("D3", "foundation"),
        ("E1", "imperium"),
        ("H3", "imperium"),
        ("E4", "union"),
        ("H6", "union"),
        ("A4", "tazenda"),
        ("D6", "tazenda"),
    ] {
        assert_eq!(home(sector), power, "{sector}");
    }
    for (p, _) in b.powers() {
        assert_eq!(b.home_sectors(p).count(), 12);
    }
    let tags: Vec<&str> = b.powers().map(|(_, d)| d.tag.as_str()).collect();
    assert_eq!(tags, ["F", "I", "U", "T"]);
}

#[test]
fn r1_4_twenty_four_named_systems_six_per_quadrant() {
    let b = Board::standard();
    assert_eq!(b.system_count(), 24);
    for (p, _) in b.powers() {
        let in_home = b
            .home_sectors(p)
            .filter(|&s| b.system_at(s).is_some())
            .count();
        assert_eq!(in_home, 6);
    }
    for (name, at) in [
        ("Terminus", "A1"),
        ("Trantor", "E1"),
        ("Kalgan", "E4"),
        ("Comporellon", "C6"),
    ] {
        assert_eq!(b.sector(name), b.sector(at), "{name}");
        assert_eq!(b.sector(&name.to_uppercase()), b.sector(at), "{name}");
    }
}

#[test]
fn r1_5_bad_board_files_are_refused_with_a_reason() {
    let ok = "name = \"x\"\nwidth = 2\nheight = 2\n[[power]]\nid = \"a\"\nhome = \"A1:B2\"\n";
    assert!(Board::from_toml(ok).is_ok());
    let bad = [
        (ok.replace("width = 2", "width = 0"), "out of range"),
        (ok.replace("A1:B2", "A1:C2"), "not a range"),
        (ok.replace("id = \"a\"", "id = \"A b\""), "lower-case"),
        (format!("{ok}[[system]]\nname = \"B2\"\nat = \"A1\"\n"), "look like a sector"),
        (
            format!("{ok}[[system]]\nname = \"X\"\nat = \"A1\"\n[[system]]\nname = \"x\"\nat = \"B1\"\n"),
            "listed twice",
        ),
        (
            format!("{ok}[[system]]\nname = \"X\"\nat = \"A1\"\n[[system]]\nname = \"Y\"\nat = \"A1\"\n"),
            "two systems",
        ),
        (format!("{ok}[[system]]\nname = \"X\"\nat = \"C9\"\n"), "not on the board"),
    ];
    for (text, why) in bad {
        let err = Board::from_toml(&text).unwrap_err().to_string();
        assert!(err.contains(why), "{err:?} should say {why:?}");
    }
}

fn solo_setup(seed: u64) -> Vec<String> {
    let out = adjudicate(&format!(
        "rules = \"foundation-empire\"\nphase = \"setup\"\nturn = 0\nseed = {seed}\n[options]\nsolo = true\n"
    ));
    out["fleets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["power"] == "imperium")
        .map(|f| f["at"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn r10_1_solo_setup_places_nine_imperium_fleets_at_random() {
    let b = Board::standard();
    let foundation = b.power_by_id("foundation").unwrap();
    let mut layouts = std::collections::BTreeSet::new();
    for seed in 0..50 {
        let sectors = solo_setup(seed);
        assert_eq!(sectors.len(), 9, "seed {seed}");
        let mut distinct = sectors.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), 9, "distinct sectors");
        for s in &sectors {
            let home = b.home_power(b.sector(s).unwrap()).unwrap();
            assert_ne!(home, foundation, "{s} is in the Foundation's quadrant");
        }
        assert_eq!(solo_setup(seed), sectors, "seed {seed} is reproducible");
        layouts.insert(sectors);
    }
    assert!(layouts.len() > 45, "seeds give different layouts");
}

#[test]
fn r10_1_imperium_owns_its_18_systems_at_turn_1() {
    let b = Board::standard();
    let foundation = b.power_by_id("foundation").unwrap();
    for seed in [0, 3, 17] {
        let out = adjudicate(&format!(
            "rules = \"foundation-empire\"\nphase = \"setup\"\nturn = 0\nseed = {seed}\n[options]\nsolo = true\n[orders]\nfoundation = \"PLACE Terminus\\nPLACE Smyrno\\nPLACE Konom\"\n"
        ));
        assert_eq!(out["next_turn"], 1);
        assert_eq!(out["next_phase"], "movement");
        let systems = out["systems"].as_object().unwrap();
        let mut imperium = 0;
        for (id, s) in b.systems() {
            let name = &s.name;
            let owner = systems.get(name).and_then(|o| o.as_str());
            let home = b.home_power(s.at).unwrap();
            if home != foundation {
                assert_eq!(owner, Some("imperium"), "{name}, seed {seed}");
                imperium += 1;
            } else if ["Terminus", "Smyrno", "Konom"].contains(&name.as_str()) {
                assert_eq!(owner, Some("foundation"), "{name}");
            } else {
                assert_eq!(owner, None, "{name} ({id:?}) is owned by nobody");
            }
        }
        assert_eq!(imperium, 18);
    }
}

/// A solo movement phase with the given Imperium and Foundation fleets.
fn solo_turn(seed: u64, imperium: &[&str], foundation: &[&str], systems: &str) -> Value {
    let mut s = format!(
        "rules = \"foundation-empire\"\nphase = \"movement\"\nturn = 5\nseed = {seed}\n[options]\nsolo = true\n[systems]\n{systems}\n"
    );
    for (power, list) in [("imperium", imperium), ("foundation", foundation)] {
        for at in list {
            s += &format!("[[fleet]]\npower = \"{power}\"\nat = \"{at}\"\nstay = 5\n");
        }
    }
    adjudicate(&s)
}

fn imperium_order(out: &Value, from: &str) -> String {
    out["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["power"] == "imperium" && r["order"].as_str().unwrap().starts_with(from))
        .map(|r| r["order"].as_str().unwrap().to_string())
        .unwrap()
}

#[test]
fn r10_2_lone_fleet_follows_the_action_table() {
    // One free Imperium fleet at H6; the Foundation owns Terminus (A1). Roll 1–2: toward
    // A1, first nearer neighbour in reading order is G5. Roll 3–4: no Imperium-owned
    // system, so the next kind, unowned: Mandress (H5) and Loris (G6) are at distance
    // 0; H5 comes first in reading order. Roll 5–6: unowned: H5.
    let mut seen = [false; 3];
    for seed in 0..40 {
        let out = solo_turn(seed, &["H6"], &["A2"], "Terminus = \"foundation\"");
        let dice = out["dice"].as_array().unwrap();
        assert_eq!(dice.len(), 1);
        assert_eq!(names(&dice[0]["fleets"]), ["H6"]);
        let roll = dice[0]["roll"].as_u64().unwrap();
        let want = match roll {
            1 | 2 => "H6 - G5",
            3..=6 => "H6 - H5",
            _ => panic!("roll {roll}"),
        };
        assert_eq!(imperium_order(&out, "H6"), want, "seed {seed} roll {roll}");
        seen[(roll as usize - 1) / 2] = true;
    }
    assert_eq!(seen, [true; 3], "every row of the table was rolled");
}

#[test]
fn r10_2_group_of_three_splits_movers_and_supporters() {
    // Three free fleets form one group: 1, 2 or 3 of them move, the rest support; the
    // movers are the nearest to the group's targets.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let out = solo_turn(
            seed,
            &["F5", "H5", "H6"],
            &["A2"],
            "Terminus = \"foundation\"\nSantanni = \"imperium\"",
        );
        let dice = out["dice"].as_array().unwrap();
        assert_eq!(dice.len(), 1);
        let roll = dice[0]["roll"].as_u64().unwrap();
        let supports = out["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["power"] == "imperium" && r["outcome"] == "supported")
            .count();
        let moving = match roll {
            1 | 2 => 1,
            3 | 4 => 2,
            _ => 3,
        };
        assert_eq!(supports, 3 - moving, "seed {seed} roll {roll}");
        if roll <= 2 {
            // Toward Terminus (A1): F5 is nearest (distance 5); it steps to E4.
            assert_eq!(imperium_order(&out, "F5"), "F5 - E4", "seed {seed}");
        }
        if (3..=4).contains(&roll) {
            // Toward Santanni (G3): H5 and F5 are at 2, H6 at 3: H6 supports.
            assert_eq!(imperium_order(&out, "H6"), "H6 S", "seed {seed}");
        }
        seen.insert(moving);
    }
    assert_eq!(seen.len(), 3);
}

#[test]
fn r10_2_groups_are_taken_in_reading_order_and_movers_never_collide() {
    let imperium = ["E2", "F2", "G2", "E5", "F5", "G5", "H6"];
    for seed in 0..30 {
        let out = solo_turn(seed, &imperium, &["A1"], "Terminus = \"foundation\"");
        let dice = out["dice"].as_array().unwrap();
        let groups: Vec<Vec<String>> = dice.iter().map(|d| names(&d["fleets"])).collect();
        assert_eq!(
            groups,
            [vec!["E2", "F2", "G2"], vec!["E5", "F5", "G5"], vec!["H6"]],
            "groups of three in reading order, the last smaller"
        );
        let mut targets: Vec<String> = out["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["power"] == "imperium")
            .filter_map(|r| {
                let order = r["order"].as_str().unwrap();
                order.split_once(" - ").map(|(_, to)| to.to_string())
            })
            .collect();
        let n = targets.len();
        targets.sort();
        targets.dedup();
        assert_eq!(targets.len(), n, "two Imperium movers chose one sector");
        for t in &targets {
            assert!(
                !imperium.contains(&t.as_str()),
                "moved onto an Imperium fleet"
            );
        }
    }
}

#[test]
fn r10_5_every_roll_is_reported_and_replays_identically() {
    let a = solo_turn(9, &["E2", "F2", "G2", "H6"], &["A1"], "");
    let b = solo_turn(9, &["E2", "F2", "G2", "H6"], &["A1"], "");
    assert_eq!(a, b);
    let dice = a["dice"].as_array().unwrap();
    assert_eq!(
        dice.len(),
        2,
        "one roll per group of up to three free fleets"
    );
    for d in dice {
        let roll = d["roll"].as_u64().unwrap();
        assert!((1..=6).contains(&roll));
        assert!(d["action"].as_str().unwrap().contains("moving toward"));
    }
    let other: Vec<Value> = (10..30)
        .map(|seed| solo_turn(seed, &["E2", "F2", "G2", "H6"], &["A1"], "")["dice"].clone())
        .collect();
    assert!(other.iter().any(|d| d != &a["dice"]), "the seed matters");
}

fn scenario(text: &str) -> Scenario {
    Scenario::from_toml(text, Path::new(".")).unwrap()
}

#[test]
fn rule_set_reports_who_owes_orders_per_phase() {
    let movement = scenario(
        "rules = \"foundation-empire\"\nphase = \"movement\"\n[[fleet]]\npower = \"tazenda\"\nat = \"C2\"\n[[fleet]]\npower = \"foundation\"\nat = \"B2\"\n",
    );
    assert_eq!(
        FoundationEmpire::owing(&movement.state),
        ["foundation", "tazenda"]
    );
    let retreat = scenario(
        "rules = \"foundation-empire\"\nphase = \"retreat\"\n[[fleet]]\npower = \"foundation\"\nat = \"C2\"\n[[dislodged]]\npower = \"tazenda\"\nat = \"C2\"\nattacker_from = \"B2\"\n",
    );
    assert_eq!(FoundationEmpire::owing(&retreat.state), ["tazenda"]);
    let solo_setup =
        scenario("rules = \"foundation-empire\"\nphase = \"setup\"\n[options]\nsolo = true\n");
    assert_eq!(FoundationEmpire::owing(&solo_setup.state), ["foundation"]);
    let label = FoundationEmpire::phase(&retreat.state);
    assert_eq!((label.turn, label.phase, label.over), (1, "retreat", false));
}

#[test]
fn rule_set_checks_a_submission_line_by_line() {
    let s = scenario(
        "rules = \"foundation-empire\"\nphase = \"movement\"\n[[fleet]]\npower = \"foundation\"\nat = \"B2\"\n[[fleet]]\npower = \"foundation\"\nat = \"A1\"\n",
    );
    let checks = FoundationEmpire::check(&s.state, "foundation", "Smyrno - c3\nA1 - A3\n");
    assert_eq!(
        checks,
        [
            LineCheck::Accepted {
                order: "Smyrno (B2) - C3".into()
            },
            LineCheck::Refused {
                line: "A1 - A3".into(),
                reason: "A3 is not next to A1: fleets move one sector a turn".into()
            },
        ]
    );
}

#[test]
fn rule_set_adjudicates_by_power_id_and_ends_games() {
    let s = scenario(
        "rules = \"foundation-empire\"\nphase = \"movement\"\n[[fleet]]\npower = \"foundation\"\nat = \"B2\"\n[[fleet]]\npower = \"tazenda\"\nat = \"C5\"\n",
    );
    let orders = BTreeMap::from([("foundation".to_string(), "B2 - C2".to_string())]);
    let (next, report) = FoundationEmpire::adjudicate(&s.state, &orders, 0);
    assert_eq!(next.phase, Phase::Movement);
    assert_eq!(next.turn, 2);
    assert!(report
        .results
        .iter()
        .any(|r| r.order_text(&next.board) == "B2 - C2" && r.outcome.id() == "moved"));
    // A finished game takes no more orders.
    let mut over = next.clone();
    over.phase = Phase::Over;
    assert!(FoundationEmpire::owing(&over).is_empty());
    let (after, report) = FoundationEmpire::adjudicate(&over, &orders, 0);
    assert_eq!(after.phase, Phase::Over);
    assert!(report.results.iter().all(|r| r.outcome.id() == "invalid"));
}

/// The standings count a dislodged fleet waiting for its retreat as its power's (R6),
/// and say it is to retreat.
#[test]
fn r6_standings_count_a_fleet_waiting_to_retreat() {
    let s = scenario(
        "rules = \"foundation-empire\"\nphase = \"movement\"\n[[fleet]]\npower = \"foundation\"\nat = \"B2\"\n[[fleet]]\npower = \"foundation\"\nat = \"A1\"\n[[fleet]]\npower = \"foundation\"\nat = \"A3\"\n[[fleet]]\npower = \"tazenda\"\nat = \"C2\"\n[[fleet]]\npower = \"tazenda\"\nat = \"F6\"\n",
    );
    let orders = BTreeMap::from([("foundation".to_string(), "B2 - C2\nA1 S\nA3 S".to_string())]);
    let (next, _) = FoundationEmpire::adjudicate(&s.state, &orders, 0);
    assert_eq!(next.phase, Phase::Retreat);
    let lines = pbem::rules::foundation_empire::report::standing(&next);
    let tazenda = lines.iter().find(|l| l.contains("Tazenda")).unwrap();
    assert!(tazenda.ends_with(" 2 fleets (1 to retreat)"), "{lines:?}");
    let foundation = lines.iter().find(|l| l.contains("Foundation")).unwrap();
    assert!(foundation.ends_with(" 3 fleets"), "{lines:?}");
}

/// A line that does not read as an order is answered with the form of this phase's
/// orders, not movement's.
#[test]
fn an_unreadable_line_is_answered_with_the_phase_s_own_form() {
    for (phase, rest, want) in [
        ("setup", "", "setup orders read PLACE <system>"),
        (
            "placement",
            "turn = 6\n[systems]\nRossem = \"foundation\"\n[[fleet]]\npower = \"foundation\"\nat = \"C3\"\n[[pending_placement]]\npower = \"foundation\"\nsystem = \"Rossem\"\n",
            "placement orders read PLACE <sector>",
        ),
    ] {
        let s = scenario(&format!(
            "rules = \"foundation-empire\"\nphase = \"{phase}\"\n{rest}"
        ));
        let checks = FoundationEmpire::check(&s.state, "foundation", "please place my fleets\n");
        let reason = match &checks[..] {
            [LineCheck::Unreadable { reason, .. }] => reason.clone(),
            other => panic!("{phase}: {other:?}"),
        };
        assert!(reason.contains(want), "{phase}: {reason}");
        assert!(!reason.contains("write H, -"), "{phase}: {reason}");
    }
}
