//! Battles for the Galactic Empire (rules of record B1–B14,
//! `../shared/rules/battles-for-the-galactic-empire.md`): the rule list and its
//! coverage, and the rules that read better as code than as a scenario file.

use std::collections::BTreeMap;
use std::path::Path;

use pbem::rules::battles_galactic_empire::state::{Options, Phase, Scenario, State, Switcheroo};
use pbem::rules::battles_galactic_empire::types::{Power, Slot};
use pbem::rules::battles_galactic_empire::{self as bfge, scenario, setup, view, Bfge};
use pbem::rules::game::{Play, Viewer};
use pbem::rules::{LineCheck, RuleSet};

use crate::bfge_play;
use crate::coverage::{numbered_rules, test_names};

/// The numbered rules of the rules page, and B4 (the turn), which has no sub-rules.
/// Each maps to code (see `src/rules/battles_galactic_empire/mod.rs`) and to at least
/// one test named after it (`b8_4_…`): a case under `tests/cases/bfge/` or a `fn`.
pub const BFGE_RULES: &[&str] = &[
    "B1.1", "B1.2", "B1.3", "B1.4", "B1.5", "B2.1", "B2.2", "B2.3", "B3.1", "B3.2", "B3.3", "B3.4",
    "B4", "B5.1", "B5.2", "B5.3", "B5.4", "B6.1", "B6.2", "B6.3", "B6.4", "B7.1", "B7.2", "B7.3",
    "B7.4", "B8.1", "B8.2", "B8.3", "B8.4", "B8.5", "B8.6", "B8.7", "B8.8", "B8.9", "B9.1", "B9.2",
    "B10.1", "B10.2", "B10.3", "B10.4", "B10.5", "B10.6", "B11.1", "B11.2", "B11.3", "B11.4",
    "B11.5", "B12.1", "B12.2", "B13.1", "B13.2", "B13.3",
];

/// The list above is the rules page's list (and B4), when the page is beside the
/// project.
#[test]
fn bfge_rule_list_matches_the_rules_of_record() {
    let Some(mut numbered) = numbered_rules("battles-for-the-galactic-empire.md", 'B') else {
        return;
    };
    numbered.push("B4".into());
    numbered.sort();
    let mut ours: Vec<String> = BFGE_RULES.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(numbered, ours);
}

/// Every numbered rule (and B4) has a test named after it: a case file or a `fn`.
#[test]
fn bfge_every_numbered_rule_has_a_test() {
    let names = test_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    let missing: Vec<&str> = BFGE_RULES
        .iter()
        .copied()
        .filter(|rule| {
            let prefix = format!("{}_", rule.to_lowercase().replace('.', "_"));
            !names.iter().any(|n| n.starts_with(&prefix))
        })
        .collect();
    assert!(missing.is_empty(), "rules without a test: {missing:?}");
}

/// The three examples of B14 are scenario cases.
#[test]
fn bfge_the_examples_of_b14_are_cases() {
    let names = test_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    for k in 1..=3 {
        let prefix = format!("ex14_{k}_");
        assert!(names.iter().any(|n| n.starts_with(&prefix)), "example {k}");
    }
}

fn new(options: Options, seed: u64) -> State {
    setup::new_game(options, seed)
}

fn values(s: &State, slot: Slot) -> Vec<u32> {
    s.regions.iter().map(|r| r.value(slot)).collect()
}

#[test]
fn b1_3_each_group_is_dealt_to_the_slots_of_its_kind() {
    let a = new(Options::default(), 11);
    for slot in Slot::ALL {
        let mut v = values(&a, slot);
        v.sort();
        assert_eq!(v, [1, 2, 3, 4, 5, 6], "{slot:?}");
    }
    assert_eq!(a, new(Options::default(), 11), "the seed alone decides");
    assert!(
        (12..20).any(|seed| new(Options::default(), seed).regions != a.regions),
        "other seeds, other deals"
    );
    // The deal is reported with the setup's results, and the values stay.
    let (after, log) = bfge::adjudicate(&a, &BTreeMap::new(), 11);
    assert!(log
        .events
        .iter()
        .any(|e| e.step == "B1.3" && e.text.contains("Tau C")));
    assert_eq!(
        after.regions.map(|r| (r.combat, r.political, r.resource)),
        a.regions.map(|r| (r.combat, r.political, r.resource))
    );
    assert!(after.dealt.is_empty());
}

#[test]
fn b11_5_mixed_values_deals_all_18_chits_to_all_18_slots() {
    let options = Options {
        mixed_values: true,
        ..Options::default()
    };
    let mut mixed = false;
    for seed in 0..20 {
        let s = new(options, seed);
        let mut all: Vec<u32> = Slot::ALL.iter().flat_map(|&k| values(&s, k)).collect();
        all.sort();
        assert_eq!(all, [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6]);
        let mut combat = values(&s, Slot::Combat);
        combat.sort();
        mixed |= combat != [1, 2, 3, 4, 5, 6];
        // The 18 chits, each once; a chit counts for the slot it stands in.
        let mut names: Vec<&str> = s.dealt.iter().map(|(_, _, n)| n.as_str()).collect();
        names.sort();
        assert_eq!(names.len(), 18);
        names.dedup();
        assert_eq!(names.len(), 18);
        for (r, slot, name) in &s.dealt {
            let v: u32 = name[1..].parse().unwrap();
            assert_eq!(
                s.regions[usize::from(*r)].value(Slot::ALL[usize::from(*slot)]),
                v
            );
        }
    }
    assert!(mixed, "no seed mixed the groups");
}

#[test]
fn b3_2_a_new_civil_war_game_has_the_standard_mix() {
    let s = new(Options::default(), 1);
    assert_eq!((s.turn, s.phase, s.chaos), (0, Phase::Setup, 50));
    for p in Power::BOTH {
        let side = s.side(p);
        assert_eq!(side.force_pool, [8, 6, 3, 2, 1, 0]);
        assert_eq!(side.th_supply, 2);
        assert_eq!(side.chit_pool, [3, 3, 3, 2, 2]);
        assert_eq!(side.rp, 30);
        assert_eq!(side.hand, [0; 5]);
    }
    assert_eq!(s.common.chits, [0; 5]);
    assert_eq!(Bfge::owing(&s), ["blue", "red"]);
    assert_eq!(s.options.hand_limit, 5);
}

#[test]
fn b3_1_a_new_invasion_game_gives_the_invader_the_rp_and_the_chits() {
    for invader in Power::BOTH {
        let options = Options {
            scenario: Scenario::Invasion,
            invader,
            ..Options::default()
        };
        let s = new(options, 1);
        assert_eq!(s.side(invader).rp, 30);
        assert_eq!(s.side(invader.other()).rp, 0);
        assert_eq!(s.common.chits, [6, 6, 6, 4, 4]);
        assert_eq!(s.side(invader).chit_pool, [0; 5]);
        // Defaults for both: the defender places, the invader builds and draws five.
        let (after, _) = bfge::adjudicate(&s, &BTreeMap::new(), 1);
        assert_eq!(after.hand_size(invader), 5);
        assert_eq!(after.hand_size(invader.other()), 0);
        assert!(after.units.iter().all(|u| u.power == invader.other()));
        assert!(!after.units.is_empty());
        // Turn 2 onwards the defender draws too.
        assert_eq!(Bfge::owing(&after), [invader.id()]);
    }
}

#[test]
fn b12_1_receipts_show_each_line_in_canonical_form() {
    let s = new(Options::default(), 1);
    let checks = Bfge::check(
        &s,
        "blue",
        "build 2 sf, cg\n# a comment\n> quoted\nPLACE Tau 1SF\nGood luck, Bob!\n",
    );
    assert_eq!(
        checks,
        vec![
            LineCheck::Accepted {
                order: "BUILD 2SF 1CG".into()
            },
            LineCheck::Refused {
                line: "PLACE Tau 1SF".into(),
                reason: "only the Invasion's defender places fleets; others BUILD".into()
            },
            // Chatter is no order: the judge keeps it out of the orders and the results.
            LineCheck::Unreadable {
                line: "Good luck, Bob!".into(),
                reason: "unknown order \"GOOD\": expected BUILD, PLACE, DEPLOY, RESOLVE, PLAY, REPRESS, TARGET, DISENGAGE, PURSUE, GARRISON, LOSSES or DISCARD".into()
            }
        ]
    );
}

/// Each phase's orders and output.
type History = Vec<(BTreeMap<String, String>, String)>;

/// A game played by the scripted policies, phase by phase: each phase's orders and
/// output.
fn play_game(seed: u64, options: Options, missing_every: u32) -> (State, History) {
    let mut s = new(options, seed);
    let mut history = Vec::new();
    for k in 0..200u32 {
        if s.phase == Phase::Over {
            break;
        }
        // Now and then one power sends nothing.
        let missing: Vec<Power> = if missing_every > 0 && k % missing_every == missing_every - 1 {
            vec![if k % 2 == 0 { Power::Blue } else { Power::Red }]
        } else {
            Vec::new()
        };
        let orders = bfge_play::both(&s, &missing);
        let (next, log) = bfge::adjudicate(&s, &orders, seed);
        history.push((orders, scenario::output_json(&s, &next, &log)));
        s = next;
    }
    (s, history)
}

#[test]
fn b13_2_a_game_replayed_from_its_orders_and_seed_ends_the_same() {
    for (seed, options) in [
        (5, Options::default()),
        (
            6,
            Options {
                scenario: Scenario::Invasion,
                switcheroo: Switcheroo::MoreChaos,
                upgrades: true,
                no_moon: true,
                ..Options::default()
            },
        ),
    ] {
        let (first, history) = play_game(seed, options, 5);
        let (second, again) = play_game(seed, options, 5);
        assert_eq!(first, second);
        assert_eq!(history, again);
        assert_eq!(first.phase, Phase::Over, "ten turns always end the game");
        assert!(first.winner.is_some());
        // From the stored orders alone.
        let mut s = new(options, seed);
        for (orders, json) in &history {
            let (next, log) = bfge::adjudicate(&s, orders, seed);
            assert_eq!(&scenario::output_json(&s, &next, &log), json);
            s = next;
        }
        assert_eq!(s, first);
        // Another seed, another game.
        let (other, _) = play_game(seed + 100, options, 5);
        assert_ne!(other, first);
    }
}

/// What each viewer may see of a phase (B13.3): own hand, own pool, own draws and own
/// DISCARD and unused REPRESS lines; of the other power only what is public.
#[test]
fn b13_3_each_power_sees_its_own_hand_and_not_the_others() {
    let (scenario_text, _) = crate::bfge_cases::scenario_text(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/cases/bfge/b5_1_discards_are_set_aside_then_hands_fill_up.toml"),
    );
    let mut sc = scenario::Scenario::from_toml(&scenario_text).unwrap();
    sc.orders
        .insert("red".into(), "DISCARD BUILD\nBUILD SF\n".into());
    let (after, log) = bfge::adjudicate_with(&sc.state, &sc.orders, sc.rng());
    let whole = scenario::output_value(&sc.state, &after, &log);
    let blue = Viewer::Power("blue");
    let red = Viewer::Power("red");
    let mine = view::cut(&whole, blue);
    let theirs = view::cut(&whole, red);
    let public = view::cut(&whole, Viewer::Public);
    let power = |v: &serde_json::Value, id: &str| {
        v["powers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap()
            .clone()
    };
    // Own hand and pool, not the other's; sizes for both.
    assert!(power(&mine, "blue").get("hand").is_some());
    assert!(power(&mine, "blue").get("chit_pool").is_some());
    assert!(power(&mine, "red").get("hand").is_none());
    assert!(power(&mine, "red").get("chit_pool").is_none());
    assert_eq!(power(&mine, "red")["hand_size"], 5);
    assert!(power(&theirs, "blue").get("hand").is_none());
    assert!(
        power(&public, "blue").get("hand").is_none() && power(&public, "red").get("hand").is_none()
    );
    // The common chit pool's size only.
    assert!(mine["common"].get("chits").is_none());
    assert!(mine["common"]["chits_size"].as_u64().is_some());
    assert!(whole["common"].get("chits").is_some());
    // Own draws only.
    assert!(!mine["draws"].as_array().unwrap().is_empty());
    assert!(mine["draws"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["power"] == "blue"));
    assert!(public["draws"].as_array().unwrap().is_empty());
    // DISCARD lines are their writer's.
    let lines = result_lines;
    assert!(lines(&mine).contains(&"blue DISCARD MOVE".to_string()));
    assert!(!lines(&mine).contains(&"red DISCARD BUILD".to_string()));
    assert!(lines(&mine).contains(&"red BUILD 1SF".to_string()));
    assert!(lines(&theirs).contains(&"red DISCARD BUILD".to_string()));
    assert!(!lines(&theirs).iter().any(|l| l.starts_with("blue DISCARD")));
    // The text is made from the cut JSON: blue's mail names none of red's draws.
    let seen = view::results_view(&mine);
    let events = seen["events"].to_string();
    assert!(events.contains("blue draws"), "{events}");
    assert!(!events.contains("red draws TACTICAL") && !events.contains("red draws BUILD from"));
    // A moderator sees everything.
    assert_eq!(view::cut(&whole, Viewer::Moderator), whole);
    // The board as text: own hand shown, the other's not.
    let board_blue = after.board_text(blue);
    assert!(
        board_blue.contains("hand (secret): BUILD 2"),
        "{board_blue}"
    );
    assert_eq!(board_blue.matches("hand (secret)").count(), 1);
    // The region table's headings stand over their columns (C, P and R over the
    // values' last digit).
    let table: Vec<&str> = board_blue
        .lines()
        .skip_while(|l| !l.starts_with("Region "))
        .take(2)
        .collect();
    let (head, row) = (table[0], table[1]);
    for (k, c) in head
        .char_indices()
        .skip("Region".len())
        .filter(|(_, c)| "CPR".contains(*c))
    {
        assert!(
            row[..=k].ends_with(|d: char| d.is_ascii_digit()),
            "{c} at {k}:\n{head}\n{row}"
        );
    }
    assert!(!after.board_text(Viewer::Public).contains("(secret)"));
    assert_eq!(
        after
            .board_text(Viewer::Moderator)
            .matches("hand (secret)")
            .count(),
        2
    );
}

#[test]
fn b13_3_a_repress_line_that_cancelled_nothing_is_its_writers_alone() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases/bfge/b7_4_repression_cancels_a_chit.toml");
    let (text, _) = crate::bfge_cases::scenario_text(&path);
    let sc = scenario::Scenario::from_toml(&text).unwrap();
    let (after, log) = bfge::adjudicate_with(&sc.state, &sc.orders, sc.rng());
    let whole = scenario::output_value(&sc.state, &after, &log);
    let blue_sees: Vec<String> = view::cut(&whole, Viewer::Power("blue"))["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["order"].as_str().unwrap().to_string())
        .collect();
    assert!(
        blue_sees.contains(&"REPRESS ANY".to_string()),
        "it cancelled blue's BUILD"
    );
    assert!(!blue_sees.contains(&"REPRESS MOVE".to_string()));
    assert!(!blue_sees.iter().any(|o| o.contains("REPRESS REPRESSION")));
    // Red sees all its own lines, and blue's but its invalid PLAY REPRESSION (a refused
    // line is its writer's alone).
    let red_sees = result_lines(&view::cut(&whole, Viewer::Power("red")));
    let mut all = result_lines(&whole);
    all.retain(|o| o != "blue PLAY REPRESSION");
    assert_eq!(red_sees, all);
}

/// The whole output of `pbem adjudicate` on a case of `tests/cases/bfge/`.
fn adjudicated_case(name: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/cases/bfge/{name}.toml"));
    let (text, _) = crate::bfge_cases::scenario_text(&path);
    serde_json::from_str(&pbem::scenario::adjudicate_text(&text, path.parent().unwrap()).unwrap())
        .unwrap()
}

/// A results JSON's lines as `<power> <order>`.
pub fn result_lines(v: &serde_json::Value) -> Vec<String> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r["power"].as_str().unwrap(),
                r["order"].as_str().unwrap()
            )
        })
        .collect()
}

fn pbem_cli(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("pbem runs")
}

/// `pbem adjudicate` on the shipped example: every output field of the spec, the same
/// bytes twice.
#[test]
fn bfge_example_adjudicates_with_every_output_field() {
    let out = pbem_cli(&["adjudicate", "examples/bfge-actions.toml"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "rules",
        "turn",
        "phase",
        "next_phase",
        "next_turn",
        "owing",
        "winner",
        "results",
        "actions",
        "initiative",
        "battles",
        "chaos",
        "regions",
        "fleets",
        "powers",
        "common",
        "draws",
        "dice",
        "events",
    ] {
        assert!(json.get(key).is_some(), "no {key}");
    }
    for key in [
        "id",
        "rp",
        "hand",
        "chit_pool",
        "force_pool",
        "th_supply",
        "hand_size",
        "chit_pool_size",
    ] {
        assert!(json["powers"][0].get(key).is_some(), "no powers[].{key}");
    }
    for key in ["chits", "fleets", "chits_size"] {
        assert!(json["common"].get(key).is_some(), "no common.{key}");
    }
    assert_eq!(json["next_phase"], "build");
    assert_eq!(
        pbem_cli(&["adjudicate", "examples/bfge-actions.toml"]).stdout,
        out.stdout
    );
}

/// Every kind of damaged scenario the spec names exits 2 with one line naming the
/// file and the problem, nothing on stdout.
#[test]
fn b12_2_damaged_scenarios_exit_2_with_one_line() {
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/bfge/_base.toml"),
    )
    .unwrap();
    let with = |extra: &str| format!("{base}\n{extra}");
    let cases: Vec<(&str, String, &str)> = vec![
        ("bfge-bad-toml.toml", with("[[fleet]\n"), "line"),
        ("bfge-unknown-rules.toml", base.replace("battles-galactic-empire", "bfge"), "unknown rule set"),
        ("bfge-unknown-phase.toml", base.replace("phase = \"actions\"", "phase = \"combat\""), "unknown phase"),
        ("bfge-region-missing.toml", base.replace("name = \"Omega\"", "name = \"Tau\""), "region Tau given twice"),
        ("bfge-region-absent.toml", base.replace("[[region]]\nname = \"Omega\"\ncombat = 6\npolitical = 6\nresource = 6\n", ""), "region Omega is missing"),
        ("bfge-region-unknown.toml", base.replace("name = \"Omega\"", "name = \"Vega\""), "unknown region \"Vega\""),
        ("bfge-value-missing.toml", base.replace("combat = 6\n", ""), "region Omega: a value is missing"),
        ("bfge-unknown-power.toml", base.replace("id = \"red\"", "id = \"green\""), "unknown power \"green\""),
        ("bfge-unknown-type.toml", with("[[fleet]]\npower = \"blue\"\ntype = \"XX\"\nat = \"Tau\"\n"), "unknown type \"XX\""),
        ("bfge-unknown-chit.toml", base.replace("[[power]]\nid = \"blue\"", "[[power]]\nid = \"blue\"\nhand = { MAGIC = 1 }"), "unknown chit \"MAGIC\""),
        ("bfge-negative-count.toml", with("[[fleet]]\npower = \"blue\"\ntype = \"SF\"\nat = \"Tau\"\ncount = -2\n"), "negative count -2"),
        ("bfge-bad-die.toml", base.replace("seed = 1", "seed = 1\ndice = [3, 7]"), "dice: 7 is not a roll of 1 to 6"),
        ("bfge-two-garrisons.toml", with("[[fleet]]\npower = \"blue\"\ntype = \"SF\"\nat = \"Tau\"\ngarrison = true\n[[fleet]]\npower = \"red\"\ntype = \"SF\"\nat = \"tau\"\ngarrison = true\n"), "garrisons of both powers in Tau"),
        ("bfge-garrison-at-base.toml", with("[[fleet]]\npower = \"red\"\ntype = \"SF\"\nat = \"base\"\ngarrison = true\n"), "a garrison on the display"),
        ("bfge-unknown-key.toml", base.replace("chaos = 50", "chaos = 50\nmoon = 1"), "unknown key `moon`"),
        ("bfge-chaos-beyond.toml", base.replace("chaos = 50", "chaos = 100001"), "chaos 100001 is beyond"),
        // The least 64-bit integer, whose absolute value does not fit: refused alike.
        ("bfge-chaos-least.toml", base.replace("chaos = 50", "chaos = -9223372036854775808"), "is beyond ±100000"),
        ("bfge-orders-unknown-power.toml", with("[orders]\ngreen = \"RESOLVE Tau\"\n"), "unknown power \"green\""),
        ("bfge-power-missing.toml", base.replace("[[power]]\nid = \"red\"\n", ""), "no [[power]] entry for red"),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (name, text, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, &text).unwrap();
        let out = pbem_cli(&["adjudicate", path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(name), "{name}: names the file: {stderr}");
        assert!(
            stderr.contains(expected),
            "{name}: says {expected:?}: {stderr}"
        );
    }
    // The base itself reads, and a setup without values gets them dealt.
    let ok = dir.join("bfge-setup-dealt.toml");
    let setup_text = "rules = \"battles-galactic-empire\"\nphase = \"setup\"\nseed = 4\n\
        [[region]]\nname = \"Tau\"\n[[region]]\nname = \"Alpha\"\n[[region]]\nname = \"Beta\"\n\
        [[region]]\nname = \"Gamma\"\n[[region]]\nname = \"Delta\"\n[[region]]\nname = \"Omega\"\n\
        [[power]]\nid = \"blue\"\n[[power]]\nid = \"red\"\n";
    std::fs::write(&ok, setup_text).unwrap();
    let out = pbem_cli(&["adjudicate", ok.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["step"] == "B1.3"));
    assert_eq!(json["next_phase"], "deployment");
}

/// The benchmark's Action phase is a real one: all six regions contested, each a
/// battle; chits played; nothing unread.
#[test]
fn bfge_the_benchmark_phase_fights_in_all_six_regions() {
    let (state, orders) = bfge::generate::contested_actions(7);
    for r in 0..6u8 {
        for p in Power::BOTH {
            assert!(
                state.units_of(r, p).next().is_some(),
                "region {r} not contested"
            );
        }
    }
    let (after, log) = bfge::adjudicate(&state, &orders, 7);
    assert_eq!(log.battles.len(), 6);
    assert!(
        log.results.iter().all(|r| r.outcome.id() != "invalid"),
        "{:?}",
        log.results
    );
    assert!(log.actions.iter().any(|a| a.kind == "tactical"));
    assert!(after.regions.iter().all(|r| r.resolved));
}

/// The shipped `games.toml` has a BFGE game of two players, with its options read.
#[test]
fn bfge_the_shipped_games_toml_has_a_game() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games.toml");
    let config = pbem::config::Config::load(&path).expect("games.toml reads");
    let g = config
        .games
        .iter()
        .find(|g| g.rules == pbem::rules::RuleSetId::BattlesGalacticEmpire)
        .expect("a BFGE game");
    assert_eq!(g.players.len(), 2);
    let game = pbem::rules::game::Game::new(g.rules, &g.options, None, g.seed).unwrap();
    assert_eq!(game.label().phase, "setup");
    assert_eq!(game.owing(), ["blue", "red"]);
    assert!(game.play().hidden_information());
}

/// The input example of the scenario spec, completed with the five regions and the
/// power it leaves out ("all six", "both"), is read and adjudicated: every key the spec
/// names is understood.
#[test]
fn bfge_the_spec_example_scenario_is_read() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/specs/bfge-scenario.md");
    let Ok(text) = std::fs::read_to_string(&spec) else {
        eprintln!("{spec:?} not found: not compared");
        return;
    };
    let start = text.find("```toml\n").expect("a TOML example") + 8;
    let end = start + text[start..].find("```").unwrap();
    let mut example = text[start..end].to_string();
    let more = "[[region]]\nname = \"Alpha\"\ncombat = 2\npolitical = 2\nresource = 2\n\
        [[region]]\nname = \"Beta\"\ncombat = 3\npolitical = 3\nresource = 3\n\
        [[region]]\nname = \"Gamma\"\ncombat = 4\npolitical = 4\nresource = 4\n\
        [[region]]\nname = \"Delta\"\ncombat = 5\npolitical = 5\nresource = 5\n\
        [[region]]\nname = \"Omega\"\ncombat = 6\npolitical = 6\nresource = 6\n\
        [[power]]\nid = \"red\"\nhand = { REPRESSION = 1 }\n";
    let at = example.find("[common]").expect("[common]");
    example.insert_str(at, more);
    let json = pbem::scenario::adjudicate_text(&example, Path::new("."))
        .unwrap_or_else(|e| panic!("{e}\n{example}"));
    let out: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(out["phase"], "actions");
    assert_eq!(out["turn"], 3);
    // Its pinned dice are the first rolled: the initiative, 6 against 5.
    assert_eq!(out["dice"][0]["roll"], 6);
    assert_eq!(out["dice"][1]["roll"], 5);
    assert_eq!(out["initiative"], "blue");
    let results: Vec<String> = out["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r["order"].as_str().unwrap(),
                r["outcome"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        results.contains(&"TARGET ALL MILITARY CG noted".to_string()),
        "{results:?}"
    );
}

/// B13.1: defaults are reported: the actions the judge took for a power without orders
/// (B7.2) are in the results mail under that power's name.
#[test]
fn b13_1_default_actions_are_told_under_their_power() {
    let json = adjudicated_case("b13_1_missing_orders_get_the_defaults");
    let seen = view::results_view(&json);
    let rows: Vec<String> = seen["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {}: {}",
                r["power"].as_str().unwrap(),
                r["order"].as_str().unwrap(),
                r["detail"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        rows.iter()
            .any(|r| r.starts_with("red RESOLVE Tau: by default (B7.2): battle of 3 rounds")),
        "{rows:#?}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("blue RESOLVE Alpha: by default")),
        "{rows:#?}"
    );
    // Each player's mail is made from the JSON cut for them: the actions are public.
    let blue = view::results_view(&view::cut(&json, Viewer::Power("blue")));
    assert_eq!(blue["results"], seen["results"]);
}

/// The board under the mail's first line does not repeat the turn and phase, and its
/// victory line (B9.2) speaks of the next check: this turn's before the build phase,
/// the next turn's during it (the check comes right after Politics), none once the game
/// is over.
#[test]
fn b9_2_the_board_names_the_next_victory_check() {
    let mut s = new(Options::default(), 3);
    s.turn = 2;
    let board = |s: &State| s.board_text(Viewer::Public);
    s.phase = Phase::Actions;
    assert!(board(&s).starts_with("Chaos Index "), "{}", board(&s));
    let (low, high) = State::victory_levels(2);
    assert!(
        board(&s).contains(&format!(
            "At the end of turn 2: red wins at {low} or less, blue at {high} or more."
        )),
        "{}",
        board(&s)
    );
    s.phase = Phase::Build;
    assert!(board(&s).contains("At the end of turn 3:"), "{}", board(&s));
    s.phase = Phase::Over;
    assert!(!board(&s).contains("At the end of turn"), "{}", board(&s));
}

/// B13.2: every die is reported, the switcheroo's (B11.3) and the upgrade's (B11.4)
/// too: the mail's text, made from the JSON by the view, tells each with what it
/// decided, not only `results.json`'s `dice`.
#[test]
fn b13_2_switcheroo_and_upgrade_dice_are_in_the_mail_text() {
    let json = adjudicated_case("b11_3_every_switcheroo_and_upgrade_die_is_told");
    let rolled: Vec<u64> = json["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["roll"].as_u64().unwrap())
        .collect();
    assert_eq!(rolled, [2, 1, 1, 1, 2, 6, 6, 3, 5, 4, 4, 2, 3]);
    for viewer in [Viewer::Power("blue"), Viewer::Power("red"), Viewer::Public] {
        let events: Vec<String> = view::results_view(&view::cut(&json, viewer))["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap().to_string())
            .filter(|e| e.starts_with("B11."))
            .collect();
        assert_eq!(
            events,
            [
                "B11.3 switcheroo, more chaos: 2 swaps (1d6: 2)",
                "B11.3 switcheroo: Tau Combat 1 and Omega Resource 6 swap (dice: chit A 1 1; chit B 1 2 (the same as A: rolled again), 6 6)",
                "B11.3 switcheroo: Beta Resource 3 and Gamma Political 4 swap (dice: chit A 3 5; chit B 4 4)",
                "B11.4 upgrade: Alpha Political 2 becomes 3 (dice: 2 3)",
            ],
            "{viewer:?}"
        );
    }
}
