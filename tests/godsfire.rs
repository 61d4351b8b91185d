//! Godsfire beyond single scenario files: the standard scenario (G1.5), the order of
//! phases (G3), who owes them (G4.8, G5.9), replay (G11.2), the results and board
//! players read (G11.3, G2.1). The 20-turn war by mail is in `godsfire_game`, the
//! receipts in `godsfire_receipts`.

use std::collections::{BTreeMap, BTreeSet};

use pbem::rules::game::Game;
use pbem::rules::godsfire::map::{Cell, Economy};
use pbem::rules::godsfire::scenario::standard;
use pbem::rules::godsfire::state::{Options, Phase, State, NEUTRAL};
use pbem::rules::godsfire::{self as gf};

use crate::world::{squash, World, GODSFIRE_PLAYERS};

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
/// everything it can afford; its home stack goes out and back.
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
        let cell = s.systems[s.system_index(home).unwrap()].at;
        let text = match s.phase {
            Phase::Movement => format!("{cell} 1SQD -> {home}\nLOSSES AG\n"),
            Phase::Combat => String::new(),
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
fn g3_a_game_starts_with_the_movement_phase_of_turn_1() {
    let s = standard(4, Options::default());
    assert_eq!((s.turn, s.phase), (1, Phase::Movement));
    // Everyone has units: everyone owes the first movement phase (G4.8).
    assert_eq!(gf::owing(&s), ["red", "blue", "green", "yellow"]);
    // Nobody is at war and nothing touches a neutral: no combat phase; the turn goes
    // on to the interphase, then the defence phase, then turn 2's movement.
    let (s, _) = gf::adjudicate(&s, &BTreeMap::new(), 4);
    assert_eq!((s.turn, s.phase), (1, Phase::Interphase));
    let (s, _) = gf::adjudicate(&s, &BTreeMap::new(), 4);
    assert_eq!((s.turn, s.phase), (1, Phase::Defence));
    let (s, _) = gf::adjudicate(&s, &BTreeMap::new(), 4);
    assert_eq!((s.turn, s.phase), (2, Phase::Movement));
}

#[test]
fn g4_8_movement_is_owed_by_powers_with_units_or_two_systems() {
    let mut s = standard(4, Options::default());
    // Yellow loses its units but keeps three systems: it may still move its NG.
    s.stacks.retain(|k| k.power != "yellow");
    // Green loses its units and two systems: nothing to order.
    s.stacks.retain(|k| k.power != "green");
    for sys in s.systems.iter_mut().filter(|x| x.owner == "green") {
        if sys.name != "Antares" {
            sys.owner = NEUTRAL.into();
        }
    }
    assert_eq!(gf::owing(&s), ["red", "blue", "yellow"]);
    let checks = <gf::Godsfire as pbem::rules::RuleSet>::check(&s, "green", "NG -> L12");
    assert!(
        matches!(&checks[0], pbem::rules::LineCheck::Refused { reason, .. } if reason.contains("no orders to give")),
        "{checks:?}"
    );
}

#[test]
fn g5_9_combat_is_owed_by_powers_in_contact_with_hostile_units() {
    let mut s = standard(4, Options::default());
    s.phase = Phase::Combat;
    assert!(gf::owing(&s).is_empty());
    // Red next to a neutral system's garrison: red owes the combat phase.
    s.stacks.push(pbem::rules::godsfire::state::Stack {
        power: "red".into(),
        at: "E5".into(),
        units: pbem::rules::godsfire::map::Units::of(pbem::rules::godsfire::map::UnitType::Sqd, 1),
    });
    assert_eq!(gf::owing(&s), ["red"]);
    // A BOARD reply says where: the stacks in contact (G5.9).
    let asks = gf::report::phase_asks(&s);
    assert_eq!(
        asks,
        ["red's 1 SQD at E5 and the neutral 3 SQD, 3 AG, 3 PDF at F6 are in contact"]
    );
    s.phase = Phase::Movement;
    assert!(gf::report::phase_asks(&s).is_empty());
    // The results of the movement phase that leads into it tell the same, in the same
    // words, among what else happened (the text and the HTML mail show those).
    let (after, log) = gf::adjudicate(&s, &BTreeMap::new(), 4);
    assert_eq!(after.phase, Phase::Combat);
    let view = gf::report::results_view(&after, &log);
    assert_eq!(
        view.events.last().map(String::as_str),
        Some(
            "[G5.9] due in the combat phase: red's 1 SQD at E5 and the neutral 3 SQD, 3 AG, \
             3 PDF at F6 are in contact"
        ),
        "{:?}",
        view.events
    );
    // The combat phase's own results say nothing of it: it is over.
    let (next, log) = gf::adjudicate(&after, &BTreeMap::new(), 4);
    assert!(!gf::report::results_view(&next, &log)
        .events
        .iter()
        .any(|e| e.contains("due in")),);
}

#[test]
fn g11_2_a_game_replayed_from_its_orders_and_seed_ends_the_same() {
    let play = || {
        let mut s = standard(5, Options::default());
        let mut history = Vec::new();
        for _ in 0..24 {
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
    let mut s = standard(8, Options::default());
    s.phase = Phase::Interphase;
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
    let mut s = standard(2, Options::default());
    s.phase = Phase::Interphase;
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
    // The mail's first line names the turn and phase; the board does not again.
    assert!(board.starts_with("red: NG at"), "{board}");
    assert!(board.contains("Sirius-1a"));
    assert!(board.contains("treasury"));
    assert!(board.lines().all(|l| l.chars().count() <= 72), "{board}");
}

#[test]
fn g4_4_results_board_and_standing_tell_the_powers_in_the_games_order() {
    // The game's order is the scenario's: red, blue, green, yellow (not alphabetical).
    use pbem::rules::godsfire::state::Stake;
    let mut s = standard(2, Options::default());
    s.phase = Phase::Interphase;
    let orders: BTreeMap<String, String> = s
        .powers
        .iter()
        .map(|p| (p.id.clone(), "BORROW 1".to_string()))
        .collect();
    for (k, power) in ["yellow", "blue"].into_iter().enumerate() {
        s.stakes.push(Stake {
            power: power.into(),
            region: "Sirius-1a".into(),
            circle: 3 - k as u8,
            placed_turn: 1,
        });
    }
    s.powers[0].at_war = vec!["yellow".into(), "blue".into()];
    let (after, log) = gf::adjudicate(&s, &orders, 1);
    let view = gf::report::results_view(&after, &log);
    let powers: Vec<&str> = view.results.iter().map(|r| r.power.as_str()).collect();
    assert_eq!(powers, ["red", "blue", "green", "yellow"]);
    assert!(
        view.events
            .iter()
            .any(|e| e.contains("Sirius-1a: allegiance")
                && e.ends_with("(subversion by blue, yellow)")),
        "{:?}",
        view.events
    );
    let board = squash(&gf::report::board_text(&s));
    assert!(board.contains("stakes: blue(2) yellow(3)"), "{board}");
    assert!(board.contains("at war with: blue, yellow"), "{board}");
    // Standing: most systems first, ties in the game's order.
    let standing = |s: &State| -> Vec<String> {
        gf::report::standing(s)
            .iter()
            .skip(1)
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .collect()
    };
    assert_eq!(standing(&s), ["red", "blue", "green", "yellow"]);
    let polaris = s.system_index("Polaris").unwrap();
    s.systems[polaris].owner = "yellow".into();
    assert_eq!(standing(&s), ["yellow", "red", "blue", "green"]);
}

#[test]
fn g7_3_the_board_explains_stakes_and_counters_where_it_shows_them() {
    // "stakes: green(3)" on a region line: whose stake, and how many interphases it
    // still acts at (G7.3); "counter": counter-subversion (G9.2).
    use pbem::rules::godsfire::state::{Counter, Stake};
    let mut s = standard(2, Options::default());
    let plain = gf::report::board_text(&s);
    assert!(!plain.contains("subversion"), "{plain}");
    s.stakes.push(Stake {
        power: "green".into(),
        region: "Sirius-1a".into(),
        circle: 3,
        placed_turn: 1,
    });
    let board = gf::report::board_text(&s);
    assert!(board.lines().all(|l| l.chars().count() <= 72), "{board}");
    let board = squash(&board);
    assert!(board.contains("stakes: green(3) "), "{board}");
    assert!(
        board.contains(
            "stakes: green(3) is green's subversion stake; it acts at the next 3 \
             interphases, each time taking 1 allegiance from its region (once, however \
             many stakes) unless the region has counter-subversion (G7.3)."
        ),
        "{board}"
    );
    assert!(!board.contains("counter:"), "{board}");
    s.counters.push(Counter {
        region: "Sirius-2a".into(),
    });
    let board = squash(&gf::report::board_text(&s));
    assert!(
        board.contains("counter: counter-subversion, which stops the region's stakes"),
        "{board}"
    );
}

#[test]
fn g2_1_the_board_shows_every_stack_by_power() {
    let s = standard(2, Options::default());
    let board = gf::report::board_text(&s);
    // Each power's stacks under its own heading, the neutrals' under theirs.
    let section = |head: &str| -> String {
        let start = board
            .find(head)
            .unwrap_or_else(|| panic!("{head}:\n{board}"));
        let rest = &board[start + head.len()..];
        let end = rest.find("\n\n").unwrap_or(rest.len());
        rest[..end].to_string()
    };
    let red = section("red: NG at Sirius");
    assert!(
        red.contains("its units:") && red.contains("C3") && red.contains("2 SQD, 2 AG"),
        "{red}"
    );
    assert!(
        red.contains("Sirius-1a") && red.contains("1 AG, 2 PDF"),
        "{red}"
    );
    assert!(!red.contains("M3"), "blue's stack is not red's:\n{red}");
    let neutral = section("neutral systems:");
    assert!(
        neutral.contains("neutral units:") && neutral.contains("F6"),
        "{neutral}"
    );
    assert!(neutral.contains("garrison 3 SQD, 3 AG, 3 PDF"), "{neutral}");
    // The map: a system cell with red's units, legend.
    assert!(board.contains(" *R"), "{board}");
    assert!(
        board.contains("R red, B blue, G green, Y yellow, n neutral"),
        "{board}"
    );
    assert!(board.lines().all(|l| l.chars().count() <= 72), "{board}");
}

#[test]
fn g4_1_a_receipt_reads_movement_orders_in_canonical_form() {
    let mut w = World::godsfire("");
    w.pass();
    w.sent(); // the welcome mails
    assert_eq!(godsfire_state(&w).phase, Phase::Movement);
    let (_, address, _) = GODSFIRE_PLAYERS[0];
    w.orders(
        address,
        "move c3 1 sqd->d4\nSirius-1a 1pdf - sirius\nC3 INTERCEPT\nC3 ATTACK D4",
    );
    w.pass();
    let receipt = w
        .sent()
        .into_iter()
        .find(|m| m.to == address)
        .expect("a receipt");
    let body = squash(&receipt.body);
    assert!(body.contains("C3 1SQD -> D4"), "{}", receipt.body);
    assert!(body.contains("Sirius-1a 1PDF -> C3"), "{}", receipt.body);
    assert!(body.contains("C3 INTERCEPT"), "{}", receipt.body);
    assert!(
        body.contains("not an order of the movement phase"),
        "{}",
        receipt.body
    );
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

/// The benchmark's movement and combat phases are real: 200 stacks moving through a
/// line of stances, 50 combats made.
#[test]
fn the_benchmark_movement_and_combat_are_busy() {
    let (state, orders) = gf::generate::standard_movement(7);
    let (_, log) = gf::adjudicate(&state, &orders, 7);
    let war = log.war.as_ref().unwrap();
    let invalid: Vec<_> = log
        .results
        .iter()
        .filter(|r| r.outcome == gf::outcome::Outcome::Invalid)
        .collect();
    assert!(invalid.is_empty(), "{invalid:?}");
    assert_eq!(war.moves.len(), 200);
    assert!(
        war.transit_attacks.len() >= 5,
        "{}",
        war.transit_attacks.len()
    );
    assert!(!war.blocks.is_empty());
    let (state, orders) = gf::generate::standard_combat(7);
    let (_, log) = gf::adjudicate(&state, &orders, 7);
    let war = log.war.as_ref().unwrap();
    assert_eq!(war.combats.len(), 50);
    assert!(war.combats.iter().all(|c| c.roll.is_some()));
    eprintln!(
        "moves {}, transit attacks {}, blocks {}",
        200,
        log.results.len(),
        war.combats.len()
    );
}

/// The example mail the judge offers (welcome mails, HELP) is read without a refusal in
/// the movement, combat and interphase of a game.
#[test]
fn g4_1_example_orders_are_accepted_in_every_phase() {
    use pbem::rules::game::Play;
    let (combat, _) = gf::generate::standard_combat(1);
    let mut interphase = standard(1, Options::default());
    interphase.phase = Phase::Interphase;
    for s in [standard(1, Options::default()), combat, interphase] {
        for p in &s.powers {
            let text = s.example_orders(&p.id);
            assert!(!text.is_empty(), "{:?} {}", s.phase, p.id);
            for check in s.check(&p.id, &text) {
                assert!(
                    matches!(check, pbem::rules::LineCheck::Accepted { .. }),
                    "{:?} {}: {check:?} in\n{text}",
                    s.phase,
                    p.id
                );
            }
        }
    }
    let (combat, _) = gf::generate::standard_combat(1);
    assert!(combat.example_orders("red").contains("ATTACK"));
}

/// The example mails of the README's "Playing Godsfire by mail" (movement, interphase,
/// defence) are read without a refusal for red in the standard scenario.
#[test]
fn g3_the_readme_example_mails_are_accepted() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let section = &readme[readme.find("## Playing Godsfire by mail").unwrap()..];
    let section = &section[..section[3..].find("\n## ").unwrap()];
    let blocks: Vec<&str> = section.split("```").skip(1).step_by(2).collect();
    assert_eq!(blocks.len(), 4, "movement, combat, interphase, defence");
    let mut s = standard(1, Options::default());
    // The defence mail's DESUBVERT needs a stake placed this turn (G9.1).
    s.stakes.push(pbem::rules::godsfire::state::Stake {
        power: "blue".into(),
        region: "Sirius-1a".into(),
        placed_turn: s.turn,
        circle: 3,
    });
    // The combat mail's position: red at war with blue, red's stacks at D4, C3 and
    // Sirius-1a, blue's at E5 and landed on Sirius-1a.
    let mut war = s.clone();
    for (me, other) in [(0, "blue"), (1, "red")] {
        war.powers[me].at_war = vec![other.to_string()];
    }
    for (power, at, sqd, ag) in [
        ("red", "D4", 1, 0),
        ("blue", "E5", 1, 1),
        ("blue", "Sirius-1a", 0, 2),
    ] {
        war.stacks.push(pbem::rules::godsfire::state::Stack {
            power: power.into(),
            at: at.into(),
            units: pbem::rules::godsfire::map::Units { sqd, ag, pdf: 0 },
        });
    }
    let phases = [
        Phase::Movement,
        Phase::Combat,
        Phase::Interphase,
        Phase::Defence,
    ];
    for (block, phase) in blocks.iter().zip(phases) {
        if phase == Phase::Combat {
            std::mem::swap(&mut s, &mut war);
        }
        s.phase = phase;
        let text: Vec<&str> = block
            .lines()
            .filter(|l| !l.starts_with("Subject:") && !l.starts_with("PASSWORD"))
            .collect();
        let checks = <gf::Godsfire as pbem::rules::RuleSet>::check(&s, "red", &text.join("\n"));
        assert!(checks.len() >= 2, "{phase:?}: {checks:?}");
        for c in checks {
            assert!(
                matches!(c, pbem::rules::LineCheck::Accepted { .. }),
                "{phase:?}: {c:?}"
            );
        }
        if phase == Phase::Combat {
            std::mem::swap(&mut s, &mut war);
        }
    }
}

/// The example scenarios adjudicate, byte for byte the same twice, and show what they
/// say they show.
#[test]
fn g4_4_the_example_scenarios_adjudicate() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for (name, wants) in [
        (
            "godsfire-movement.toml",
            ["transit_attacks", "blocks", "disbanded"],
        ),
        ("godsfire-combat.toml", ["combats", "conquests", "combats"]),
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let json = pbem::scenario::adjudicate_text(&text, &dir).unwrap();
        assert_eq!(json, pbem::scenario::adjudicate_text(&text, &dir).unwrap());
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        for key in wants {
            assert!(!v[key].as_array().unwrap().is_empty(), "{name}: no {key}");
        }
    }
}

/// The game's state now.
pub(crate) fn godsfire_state(w: &World) -> State {
    match w.record().game {
        Game::Godsfire(s) => s,
        _ => panic!("not a Godsfire game"),
    }
}

/// The interphase orders as the rules carry them out (G3: step by step in the order of
/// the rules): G6.1 EXTORT, G6.2 BORROW, G6.3 TRANSFER, G6.4 BUY, G6.5 LOYALTY and
/// ECON, G7.1 PARTY, G7.2 NEGOTIATE, BRIBE, POLICE, G7.7 CHANGE MINISTERS ("before
/// G7.3"), G7.5 DEMOTE, G8.1 SUBVERT, G8.2 WAR and PEACE.
const INTERPHASE_IN_THE_RULES_ORDER: [&str; 15] = [
    "EXTORT",
    "BORROW",
    "TRANSFER",
    "BUY",
    "LOYALTY",
    "ECON",
    "PARTY",
    "NEGOTIATE",
    "BRIBE",
    "POLICE",
    "CHANGE",
    "DEMOTE",
    "SUBVERT",
    "WAR",
    "PEACE",
];

/// The first words of the order lines of `text` that are interphase keywords, in order.
fn interphase_keywords(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| INTERPHASE_IN_THE_RULES_ORDER.contains(w))
        .collect()
}

/// HELP, the player's guide and the README's example interphase mail list the
/// interphase orders in the order the rules carry them out (G3), as the adjudication
/// does (its steps); `DEMOTE` (G7.5) comes after `CHANGE MINISTERS` (G7.7, before
/// G7.3). HELP listed it second, between EXTORT and BORROW.
#[test]
fn g3_help_lists_the_interphase_orders_in_the_rules_order() {
    use gf::check::Checked;
    use gf::map::RegionAt;
    use gf::syntax::PartyCost;
    use pbem::rules::game::Play;
    let at = RegionAt {
        system: 0,
        planet: 0,
        region: 0,
    };
    // The adjudication's steps, one order for each keyword above.
    let steps: Vec<_> = [
        Checked::Extort(at),
        Checked::Borrow(1),
        Checked::Transfer {
            amount: 1,
            from: gf::check::Source::Ng,
            to: gf::check::Source::Bank(0),
        },
        Checked::Buy {
            region: at,
            count: 1,
            kind: gf::map::UnitType::Ag,
        },
        Checked::Loyalty {
            region: at,
            amount: 1,
        },
        Checked::Econ(at),
        Checked::Party {
            region: at,
            paid_by: PartyCost::Pay,
        },
        Checked::Negotiate(at),
        Checked::Bribe(at),
        Checked::Police(at),
        Checked::ChangeMinisters,
        Checked::Demote(at),
        Checked::Subvert(at),
        Checked::War(1),
        Checked::Peace(1),
    ]
    .iter()
    .map(Checked::step)
    .collect();
    assert!(steps.is_sorted(), "{steps:?}");

    let s = standard(1, Options::default());
    let help = s.order_help();
    let interphase = &help[help.find("Interphase").unwrap()..help.find("Defence").unwrap()];
    assert_eq!(
        interphase_keywords(interphase),
        INTERPHASE_IN_THE_RULES_ORDER
    );

    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/godsfire.md")).unwrap();
    let guide = &guide[guide.find("## Interphase").unwrap()..guide.find("## Defence").unwrap()];
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let readme = &readme[readme.find("an interphase mail:").unwrap()..];
    let readme = &readme[..readme.find("a defence mail:").unwrap()];
    // The guide and the README show BRIBE and POLICE on NEGOTIATE's line, PEACE on
    // WAR's (README).
    for text in [guide, readme] {
        let got = interphase_keywords(text);
        let want: Vec<&str> = INTERPHASE_IN_THE_RULES_ORDER
            .iter()
            .copied()
            .filter(|k| got.contains(k))
            .collect();
        assert_eq!(got, want);
        assert!(got.len() >= 12, "{got:?}");
    }
}
