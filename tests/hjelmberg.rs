//! Foundation (Hjelmberg) beyond single scenario files: creation (H1.4, H1.5, H3.2),
//! goals (H9.1), reports and secrets (H11), damaged scenarios. The receipts are in
//! `hjelmberg_receipts`, the games by mail and the command line in `hjelmberg_judge`.

use std::collections::BTreeMap;
use std::path::Path;

use pbem::rules::foundation_hjelmberg::data::{self, Goal};
use pbem::rules::foundation_hjelmberg::outcome::Outcome;
use pbem::rules::foundation_hjelmberg::scenario;
use pbem::rules::foundation_hjelmberg::state::{Options, Pace, Phase, State, NONE};
use pbem::rules::foundation_hjelmberg::{self as fh, generate, report, setup};
use pbem::rules::game::{Game, PhaseResults, Play, Viewer};
use serde_json::Value;

pub(crate) const HEAD: &str = "rules = \"foundation-hjelmberg\"\nphase = \"play\"\nturn = 1\nseating = [\"red\", \"blue\", \"green\"]\n";

/// A position from scenario text (the head above plus `rest`).
pub fn state_of(rest: &str) -> State {
    let text = format!("{HEAD}{rest}");
    scenario::read(&text, Path::new("."))
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .state
}

pub(crate) fn players(red: &str) -> String {
    format!(
        "[[player]]\nid = \"red\"\n{red}\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"
    )
}

fn five() -> Vec<String> {
    ["ann", "bob", "cat", "dan", "eve"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn h1_4_three_goals_on_the_board_six_in_the_goal_pile() {
    for seed in 0..20 {
        let s = setup::create(data::standard(), five(), Options::default(), false, seed);
        let c = &s.core;
        assert!(c.goals.iter().all(|&g| g != NONE));
        assert_eq!(c.goal_pile.count_ones(), 6);
        for &g in &c.goals {
            assert_eq!(
                c.goal_pile & (1 << g),
                0,
                "a goal on the board is not in the pile"
            );
        }
    }
}

#[test]
fn h1_5_the_colony_board_has_21_spaces_and_the_piles_the_rest() {
    let d = data::standard();
    let copies = |id: &str| d.tiles[usize::from(d.tile(id).unwrap())].copies;
    assert_eq!(copies("riches-1"), 3);
    assert_eq!(copies("riches-2"), 2);
    let kins: u8 = ["kin-1", "kin-2", "kin-3"]
        .iter()
        .map(|k| d.tiles[usize::from(d.tile(k).unwrap())].level)
        .sum();
    assert_eq!(kins, 6, "kin tiles give 1 + 2 + 3 neutral kins");
    for seed in 0..20 {
        let s = setup::create(d.clone(), five(), Options::default(), false, seed);
        let c = &s.core;
        let board = (0..d.planets.len())
            .filter(|&p| c.colony[p] != NONE)
            .count();
        let core: u32 = c.core_tiles.iter().map(|&n| u32::from(n)).sum();
        assert_eq!(board, 18);
        assert_eq!(core, 3);
        assert_eq!([c.pile_size(0), c.pile_size(1), c.pile_size(2)], [4, 4, 4]);
        let total: u32 = c.tile_total(&d).iter().sum();
        assert_eq!(total, 33);
    }
}

#[test]
fn h3_2_creation_draws_from_the_seed_and_reports_every_draw() {
    let d = data::standard();
    let a = setup::create(d.clone(), five(), Options::default(), false, 11);
    let b = setup::create(d.clone(), five(), Options::default(), false, 11);
    assert_eq!(a, b, "the same seed draws the same layout");
    let other = setup::create(d.clone(), five(), Options::default(), false, 12);
    assert_ne!(
        a.core.planets, other.core.planets,
        "another seed, another layout"
    );
    // 12 + 6 planet tiles, 12 + 6 + 3 colony tiles, 3 goals, 3 Empire pairs.
    assert_eq!(a.creation.len(), 18 + 21 + 3 + 3);
    // Every planet tile once; Empire pairs opposite.
    let mut tiles: Vec<u8> = (0..18).map(|p| a.core.planets[p]).collect();
    tiles.sort();
    tiles.dedup();
    assert_eq!(tiles.len(), 18);
    for ring in 0..3 {
        let on = a.core.empire_in_ring(&d, ring);
        assert_eq!(on.len(), 2);
        assert_eq!(d.opposite[usize::from(on[0])], on[1]);
    }
    assert!(
        a.core.stock[..19].iter().all(|&s| s == 1),
        "1 cube on every planet"
    );
    // The standard layout takes planets and colony tiles from the data file.
    let st = setup::create(d.clone(), five(), Options::default(), true, 11);
    assert_eq!(
        d.planet_tiles[usize::from(st.core.planets[0])].id,
        "blue-green"
    );
    assert_eq!(d.tile_name(st.core.colony[7]), "warp");
    // The setup phase reports the creation draws, the goal tiles' secret to all.
    let (_, log) = fh::adjudicate(&a, &BTreeMap::new(), 11);
    assert_eq!(log.draws.len(), a.creation.len());
    for dr in log.draws.iter().filter(|x| x.pile == "goals") {
        assert_eq!(dr.to, Some(Vec::new()), "a goal tile drawn face down");
    }
}

#[test]
fn h9_1_each_goal_is_fulfilled_as_written() {
    let d = data::standard();
    let check = |goal: &str, red: &str, want: bool| {
        // Two Empire ships off the board, so a player may hold them.
        let s = state_of(&format!(
            "empire = [\"A3\", \"A9\", \"B2\", \"B5\"]\n{}",
            players(red)
        ));
        let g = d.goal(goal).unwrap();
        assert_eq!(
            fh::goals::fulfilled(&d, &s.core, 0, g),
            want,
            "{goal} with {red}"
        );
    };
    // outer-ships: 2 outer planets of each level-1 colour in reach.
    check("outer-ships", "ships = [\"A1\", \"A3\", \"A5\"]", false);
    check(
        "outer-ships",
        "ships = [\"A1\", \"A3\", \"A5\", \"A7\"]",
        true,
    );
    check(
        "outer-ships",
        "ships = [\"A1\", \"A3\", \"A5\", \"A7\", \"A9\", \"A11\"]",
        true,
    );
    check("colonies", "colonies = [\"warp\", \"cloak\"]", false);
    check(
        "colonies",
        "colonies = [\"warp\", \"cloak\", \"ascend\"]",
        true,
    );
    check("black-3", "hand = { black = 2 }", false);
    check("black-3", "hand = { black = 3 }", true);
    check(
        "variety",
        "hand = { blue = 1, green = 1, red = 1, yellow = 1, brown = 1, gray = 1, orange = 1, purple = 1 }",
        false,
    );
    check(
        "variety",
        "hand = { blue = 1, green = 1, red = 1, yellow = 1, brown = 1, gray = 1, orange = 1, purple = 1, black = 1 }",
        true,
    );
    check("research-iv", "research = [\"GOAL 1\"]", false);
    check("research-iv", "research = [\"GOAL 1\", \"GOAL 3\"]", true);
    check(
        "research-iv",
        "research = [\"GOAL 1\", \"PERSONAL\"]",
        false,
    );
    check("empire-2", "empire_due = 1", false);
    check("empire-2", "empire_due = 1\nempire_new = 1", true);
    let all_i = "kins = 0\nearned = 6\ndynasty = { \"TRAVEL I\" = 1, \"COLONIZE I\" = 1, \"TRADE I\" = 1, \"PRODUCE I\" = 1, \"RESEARCH I\" = 1, \"BATTLE I\" = 1 }";
    check("all-actions", all_i, true);
    check(
        "all-actions",
        "kins = 1\ndynasty = { \"TRADE I\" = 1, \"TRADE II\" = 1 }",
        false,
    );
    check(
        "all-levels",
        "kins = 0\ndynasty = { \"TRADE I\" = 1, \"TRADE II\" = 1, \"TRADE III\" = 1 }",
        true,
    );
    check(
        "all-levels",
        "kins = 0\ndynasty = { \"TRADE I\" = 1, \"TRADE II\" = 1, \"CENTER\" = 1 }",
        false,
    );
    check("middle-ships", "ships = [\"B1\", \"B3\"]", false);
    check("middle-ships", "ships = [\"B1\", \"B3\", \"B5\"]", true);
    check(
        "middle-ships",
        "ships = [\"B1\", \"B2\", \"B3\", \"B4\", \"B5\", \"B6\"]",
        true,
    );
    check(
        "middle-ships",
        "ships = [\"A1\", \"A3\", \"A5\", \"A7\", \"A9\", \"A11\"]",
        true,
    );
    assert_eq!(d.goals.len(), 9);
    assert!(d.goals.contains(&Goal::MiddleShips));
}

/// A phase's results as the judge stores them, and a reader's cut of them.
fn results_of(before: &State, orders: &[(&str, &str)], seed: u64) -> (State, PhaseResults) {
    let orders: BTreeMap<String, String> = orders
        .iter()
        .map(|(p, o)| (p.to_string(), o.to_string()))
        .collect();
    let adj = before.adjudicate(&orders, seed);
    let Game::FoundationHjelmberg(after) = adj.game else {
        panic!("not this game")
    };
    (after, adj.results)
}

#[test]
fn h11_2_the_results_show_every_line_event_and_the_position() {
    let s = state_of(&format!(
        "empire_kin = \"red\"\n{}",
        players("ships = [\"A1\", \"A2\"]\nkins = 2\ndynasty = { \"TRADE I\" = 1 }")
    ));
    let (after, results) = results_of(&s, &[("red", "TRADE I O1 O3\nPLACE TRAVEL I\nDECLARE")], 1);
    let view = &results.view;
    assert_eq!(view["results"].as_array().unwrap().len(), 3);
    let events: Vec<&str> = view["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(events
        .iter()
        .any(|e| e.starts_with("[H7.1] Empire ships move")));
    assert!(events
        .iter()
        .any(|e| e.starts_with("[H5.6] red earns her 4th kin")));
    let json = &results.json;
    for key in [
        "players",
        "seating",
        "next",
        "round",
        "empire_kin",
        "empire",
        "planets",
        "stock",
        "colony_board",
        "piles",
        "goals",
        "revealed",
        "supply",
        "next_phase",
        "winner",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["stock"].as_object().unwrap().len(), 19);
    assert_eq!(json["planets"].as_object().unwrap().len(), 18);
    assert_eq!(json["colony_board"].as_object().unwrap().len(), 19);
    assert_eq!(json["supply"].as_object().unwrap().len(), 11);
    // The board every player reads shows hands, kins, ships, stocks, tiles, research.
    let board = after.board_text(Viewer::Power("blue"));
    for want in [
        "red: hand blue 1, green 1",
        "dynasty: TRAVEL I",
        "ships: A1 A2",
        "O1   blue<green 0 riches-1",
    ] {
        assert!(board.contains(want), "{want} not in\n{board}");
    }
    assert!(board.lines().all(|l| l.chars().count() <= 72), "{board}");
}

/// The board wraps long lines only at spaces outside parentheses: "(earned 3,
/// neutral 0)" after a long hand, "(supply 4)" after many ships stay whole.
#[test]
fn board_lines_break_outside_parentheses() {
    let colours = [
        "blue", "green", "red", "yellow", "brown", "gray", "orange", "purple", "teal", "white",
        "black",
    ];
    let gates: Vec<String> = (1..=12)
        .map(|k| format!("\"A{k}\""))
        .chain((1..=6).map(|k| format!("\"B{k}\"")))
        .chain((1..=6).map(|k| format!("\"C{k}\"")))
        .collect();
    let mut broken_before = 0;
    for n in 1..=colours.len() {
        for count in [1, 9, 10] {
            for ships in [0, 12, 17, 20, 24] {
                let hand: Vec<String> = colours[..n]
                    .iter()
                    .map(|c| format!("{c} = {count}"))
                    .collect();
                let s = state_of(&format!(
                    "empire = []\n{}",
                    players(&format!(
                        "hand = {{ {} }}\nships = [{}]",
                        hand.join(", "),
                        gates[..ships].join(", ")
                    ))
                ));
                let board = s.board_text(Viewer::Power("blue"));
                for line in board.lines() {
                    assert!(line.chars().count() <= 72, "{line}\n{board}");
                    let (open, close) = (line.matches('(').count(), line.matches(')').count());
                    assert_eq!(open, close, "a break inside parentheses:\n{board}");
                }
                if board.contains("kins in hand 3 (earned 3, neutral 0)") {
                    broken_before += 1;
                }
            }
        }
    }
    assert!(broken_before > 0);
}

/// The board shows what each research space costs and what it needs first (H2.6,
/// H6.5, the data file's `[research]`), so a player plans without the rulebook.
#[test]
fn the_board_shows_research_costs() {
    let s = state_of(&players(""));
    let board = s.board_text(Viewer::Power("red"));
    for want in [
        "Research costs (a/b: one of; WILD: black instead):",
        "  TRAVEL    II blue/green    III teal after BATTLE II/TRAVEL II",
        "  PRODUCE   II green/yellow  III brown after TRADE II/PRODUCE II",
        "  BATTLE    II green/red     III white after RESEARCH II/BATTLE II",
        "  GOAL 2    black after TRADE III/PRODUCE III/any GOAL",
        "  PERSONAL  black after one II and one III space (with a personal goal)",
    ] {
        assert!(
            board.lines().any(|l| l == want),
            "{want:?} not a line of\n{board}"
        );
    }
    // Every space and each of its colours, as the data file has them.
    let d = data::standard();
    for space in 0..data::RESEARCH_SPACES {
        let name = data::research_name(space);
        let word = name.split(' ').next().unwrap();
        let row = board
            .lines()
            .skip_while(|l| !l.starts_with("Research costs"))
            .find(|l| l.trim_start().starts_with(word))
            .unwrap_or_else(|| panic!("no row for {name}"));
        for &c in &d.cost[space] {
            assert!(row.contains(d.colour_name(c)), "{name}: {row}");
        }
    }
    assert!(board.lines().all(|l| l.chars().count() <= 72), "{board}");
}

/// Every string in a JSON value.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out)
        }),
        _ => {}
    }
}

#[test]
fn h11_3_goal_tiles_personal_goals_and_piles_are_cut_per_reader() {
    // Red takes prophecy on CORE: she sees GOAL 1 (black-3) and draws a personal goal.
    let s = state_of(&format!(
        "colony_board = {{ CORE = [\"prophecy\"] }}\n{}",
        players(
            "ships = [\"C2\"]\nkins = 2\ndynasty = { \"COLONIZE III\" = 1 }\nhand = { black = 1 }"
        )
    ));
    let (after, results) = results_of(&s, &[("red", "COLONIZE III CORE")], 5);
    let d = data::standard();
    let personal = d.goal_name(after.core.player(0).personal).to_string();
    let hidden_goals = ["colonies", "empire-2"]; // GOAL 2 and 3: nobody has seen them
    let whole = serde_json::to_string(&results.json).unwrap();
    assert!(
        whole.contains(&personal) && whole.contains("black-3"),
        "a moderator sees all"
    );
    let red = after.results_for(&results, Viewer::Power("red"));
    let blue = after.results_for(&results, Viewer::Power("blue"));
    let public = after.results_for(&results, Viewer::Public);
    let mut red_strings = Vec::new();
    strings(&red.json, &mut red_strings);
    strings(&red.view, &mut red_strings);
    let red_text = red_strings.join("\n");
    assert!(red_text.contains(&personal), "red sees her personal goal");
    assert!(red_text.contains("black-3"), "red sees GOAL 1");
    for cut in [&blue, &public] {
        let mut all = Vec::new();
        strings(&cut.json, &mut all);
        strings(&cut.view, &mut all);
        let text = all.join("\n");
        assert!(
            !text.contains(&personal),
            "red's personal goal leaked:\n{text}"
        );
        assert!(!text.contains("black-3"), "GOAL 1 leaked");
        assert_eq!(cut.json["goals"][1], report::HIDDEN);
        assert_eq!(cut.json["goals"][2], report::HIDDEN);
        for (n, g) in [(2, "colonies"), (3, "empire-2")] {
            assert!(!text.contains(&format!("GOAL {n}: {g}")), "GOAL {n} leaked");
        }
        // The piles' sizes only.
        assert!(text.contains(report::HIDDEN));
        assert!(!text.contains("draft-3"), "colony3's contents leaked");
        assert!(!text.contains("secret_to"));
    }
    assert_eq!(red.json["goals"][0], "black-3");
    assert_eq!(red.json["goals"][1], report::HIDDEN);
    assert!(!red_text.contains(&format!("GOAL 2: {}", hidden_goals[0])));
    // The board text and BOARD's position alike.
    let board = after.board_text(Viewer::Power("blue"));
    assert!(!board.contains(&personal) && !board.contains("black-3"));
    assert!(board.contains("personal goal: one, face down"));
    assert!(after
        .board_text(Viewer::Power("red"))
        .contains(&format!("personal goal: {personal}")));
    let pos = serde_json::to_string(&after.position_json(Viewer::Power("blue"))).unwrap();
    assert!(!pos.contains(&personal) && !pos.contains("black-3"));
    assert!(after.hidden_information());
}

#[test]
fn h11_3_a_goal_won_is_revealed_to_all() {
    let s = state_of(&players(
        "research = [\"TRAVEL III\", \"GOAL 1\"]\nhand = { black = 3 }",
    ));
    let (after, results) = results_of(&s, &[], 1);
    assert_eq!(after.winners(), vec!["red".to_string()]);
    let blue = after.results_for(&results, Viewer::Power("blue"));
    assert_eq!(blue.json["goals"][0], "black-3");
    assert_eq!(blue.json["goals"][1], report::HIDDEN);
}

/// Damaged scenarios are errors with one line, never panics.
#[test]
fn damaged_scenarios_are_refused_with_one_line() {
    let p3 = "[[player]]\nid = \"red\"\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n";
    let cases: Vec<(String, &str)> = vec![
        (format!("{HEAD}colour = 1\n{p3}"), "unknown key"),
        (format!("{HEAD}empire = [\"A13\"]\n{p3}"), "A13"),
        (format!("{HEAD}[stock]\nO13 = 1\n{p3}"), "O13"),
        (format!("{HEAD}[stock]\nO1 = 3\n{p3}"), "not 0..2"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nhand = {{ pink = 1 }}\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "pink"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nresearch = [\"TRADE I\"]\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "TRADE I"),
        (format!("{HEAD}[[player]]\nid = \"red\"\ncolonies = [\"teleport\"]\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "teleport"),
        (format!("{HEAD}[[player]]\nid = \"red\"\n[[player]]\nid = \"blue\"\n"), "without a [[player]]"),
        (format!("{HEAD}{p3}[[player]]\nid = \"white\"\n"), "not seated"),
        ("rules = \"foundation-hjelmberg\"\nseating = [\"red\"]\n[[player]]\nid = \"red\"\n".to_string(), "2 to 5"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nhand = {{ blue = 16 }}\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "there are 16"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nkins = 2\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "is not earned"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nearned = 7\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "earned"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nneutral = 4\nkins = 7\n[[player]]\nid = \"blue\"\nneutral = 3\nkins = 6\n[[player]]\nid = \"green\"\n"), "neutral kins in all"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nkins = 1\ndynasty = {{ \"TRADE I\" = 2 }}\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "at most 1"),
        (format!("{HEAD}empire = [\"A3\", \"A3\"]\n{p3}"), "two Empire ships on A3"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nempire_due = 1\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "more than 6"),
        (format!("{HEAD}[[player]]\nid = \"red\"\nships = [\"A1\", \"A1\"]\n[[player]]\nid = \"blue\"\n[[player]]\nid = \"green\"\n"), "listed twice"),
        (format!("{HEAD}next = \"white\"\n{p3}"), "not seated"),
        (format!("{HEAD}empire_kin = \"white\"\n{p3}"), "not seated"),
        (format!("{HEAD}phase = \"retreat\"\n{p3}").replace("phase = \"play\"\n", ""), "unknown phase"),
        (format!("{HEAD}[options]\npace = \"fast\"\n{p3}"), "pace"),
        (format!("{HEAD}goals = [\"black-3\"]\n{p3}"), "GOAL 1, 2 and 3"),
        (format!("{HEAD}[colony_board]\nO1 = \"teleport\"\n{p3}"), "teleport"),
        (format!("{HEAD}data = \"no-such-file.toml\"\n{p3}"), "data file"),
    ];
    for (text, want) in cases {
        match pbem::scenario::adjudicate_text(&text, Path::new(".")) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.contains(want), "{msg:?} lacks {want:?}\n{text}");
                assert!(!msg.contains('\n'), "{msg:?}");
            }
        }
    }
}

#[test]
fn turn_pace_and_round_pace_play_alike() {
    // A round in round pace is the same turns played one by one in turn pace.
    let mut s = setup::create(data::standard(), five(), Options::default(), false, 21);
    let all: BTreeMap<String, String> = five()
        .iter()
        .enumerate()
        .map(|(k, id)| (id.clone(), generate::policy(&s, k as u8, 0)))
        .collect();
    s = fh::adjudicate(&s, &all, 21).0;
    for _ in 0..6 {
        let orders: BTreeMap<String, String> = five()
            .iter()
            .enumerate()
            .map(|(k, id)| {
                let text = generate::policy(&s, k as u8, k as u8);
                let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("EMPIRE")).collect();
                (id.clone(), kept.join("\n"))
            })
            .collect();
        let (by_round, log) = fh::adjudicate(&s, &orders, 21);
        let mut t = s.clone();
        t.options.pace = Pace::Turn;
        let mut lines = Vec::new();
        for _ in 0..5 {
            let next = t.name(t.core.next).to_string();
            let one: BTreeMap<String, String> = [(next.clone(), orders[&next].clone())]
                .into_iter()
                .collect();
            let (after, l) = fh::adjudicate(&t, &one, 21);
            lines.extend(l.results);
            t = after;
            if t.core.phase == Phase::Over {
                break;
            }
        }
        t.options.pace = Pace::Round;
        assert_eq!(t.core, by_round.core, "round {}", s.core.round);
        assert_eq!(lines, log.results);
        assert!(log.results.iter().any(|r| r.outcome == Outcome::Done));
        s = by_round;
        if s.core.phase == Phase::Over {
            break;
        }
    }
}

/// The benchmark's round is a real one: every player's turn, most orders carried out,
/// the Empire moving.
#[test]
fn the_benchmark_round_carries_out_its_orders() {
    for (seed, rounds) in [(7, 3), (11, 8), (13, 15)] {
        let (s, orders) = generate::midgame_round(seed, rounds);
        assert_eq!(s.core.phase, Phase::Play);
        assert_eq!(orders.len(), 5);
        let (_, log) = fh::adjudicate(&s, &orders, seed);
        let done = log
            .results
            .iter()
            .filter(|r| r.outcome == Outcome::Done)
            .count();
        assert!(done >= 15, "only {done} lines done");
        assert!(
            log.events.iter().any(|e| e.step == "H7.1"),
            "the Empire did not move"
        );
        let turns = log
            .events
            .iter()
            .filter(|e| e.step == "H4.3" && e.text.contains("'s turn (round"))
            .count();
        assert_eq!(turns, 5);
    }
}

/// The standings count in words: one ship, one colony, one Empire ship.
#[test]
fn the_standings_say_one_ship_not_one_ships() {
    let s = state_of(&format!(
        "empire = [\"A3\", \"A9\", \"B2\", \"B5\", \"C1\"]\n{}",
        players("ships = [\"A1\"]\ncolonies = [\"warp\"]\nempire_due = 1")
    ));
    let lines = pbem::rules::foundation_hjelmberg::report::standing(&s);
    let red = lines.iter().find(|l| l.starts_with("red:")).unwrap();
    assert!(
        red.contains("1 ship,") && red.contains("1 colony,") && red.ends_with("1 Empire ship"),
        "{red}"
    );
    let blue = lines.iter().find(|l| l.starts_with("blue:")).unwrap();
    assert!(
        blue.contains("0 ships,") && blue.contains("0 colonies,"),
        "{blue}"
    );
}
