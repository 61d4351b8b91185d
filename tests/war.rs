//! War! Age of Imperialism beyond single scenario files: rule coverage against the
//! rules page and the W11 charts, a new game's setup, the phases of a turn, dice,
//! what players see, and the command line.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use pbem::rules::game::{Game, Viewer};
use pbem::rules::war_imperialism::scenario::{game_options, new_game_state};
use pbem::rules::war_imperialism::state::{Phase, State};
use pbem::rules::war_imperialism::{self as war};

use crate::coverage::{numbered_rules, test_names};

/// The numbered rules of `../shared/rules/war-age-of-imperialism.md`.
const WAR_RULES: &[&str] = &[
    "W1.1", "W1.2", "W1.3", "W1.4", "W1.5", "W1.6", "W1.7", "W2.1", "W2.2", "W2.3", "W2.4", "W3.1",
    "W3.2", "W3.3", "W4.1", "W4.2", "W4.3", "W4.4", "W4.5", "W4.6", "W4.7", "W4.8", "W4.9", "W5.1",
    "W5.2", "W5.3", "W5.4", "W5.5", "W5.6", "W5.7", "W5.8", "W5.9", "W6.1", "W6.2", "W6.3", "W6.4",
    "W6.5", "W6.6", "W6.7", "W6.8", "W6.9", "W7.1", "W7.2", "W7.3", "W8.1", "W9.1", "W10.1",
    "W10.2", "W10.3",
];

/// Every row (or item) of the W11 charts, and a test that exercises it.
const CHART_ROWS: &[(&str, &str)] = &[
    (
        "W11.1 3 players: 7 regions, 120 PP, 3 DP",
        "w11_1_three_players_draft_seven_regions_each",
    ),
    (
        "W11.1 4 players: 6 regions",
        "w11_1_four_players_draft_six_regions_each",
    ),
    (
        "W11.1 5 players: 5 regions",
        "w11_1_five_players_draft_five_regions_each",
    ),
    (
        "W11.1 6 players: 4 regions",
        "w11_1_six_players_draft_four_regions_each",
    ),
    ("W11.1 options", "w3_2_setup_points_after_the_draft"),
    ("W11.2 INF", "w4_7_unit_limits_and_where_units_are_built"),
    ("W11.2 CAV", "w4_7_unit_limits_and_where_units_are_built"),
    (
        "W11.2 ART",
        "w11_2_artillery_and_generals_where_factory_and_school_stand",
    ),
    (
        "W11.2 GEN",
        "w11_2_artillery_and_generals_where_factory_and_school_stand",
    ),
    ("W11.2 EXP", "w4_7_unit_limits_and_where_units_are_built"),
    ("W11.2 ENG", "w4_7_unit_limits_and_where_units_are_built"),
    ("W11.2 FLT", "w4_7_a_fleet_at_a_port_once_a_phase"),
    ("W11.2 MP", "w11_2_movement_points_by_kind"),
    ("W11.2 FLT MP", "w5_5_fleets_have_four_mp"),
    ("W11.2 portage", "w5_4_a_fleet_carries_eight_portage_points"),
    (
        "W11.2 maintenance",
        "w4_3_unpaid_units_are_removed_cheapest_first",
    ),
    (
        "W11.3 region with a native marker",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    (
        "W11.3 westernized region",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    (
        "W11.3 developed resource",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    (
        "W11.3 city",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    (
        "W11.3 factory",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    ("W11.3 port", "w4_2_a_trade_path_may_end_at_a_friendly_port"),
    ("W11.3 railroad", "w5_2_leaving_an_own_railroad_costs_no_mp"),
    (
        "W11.3 fort",
        "w6_3_a_fort_below_zero_gives_the_defender_its_drm",
    ),
    ("W11.3 school", "w6_2_every_brigade_rolls_hits_by_band"),
    ("W11.3 suez", "w4_8_the_suez_canal_once_per_game"),
    (
        "W11.3 one of city/factory/port/railroad",
        "w4_7_a_school_needs_a_city_not_built_this_phase",
    ),
    (
        "W11.3 no income in revolt",
        "w4_7_nothing_is_built_in_a_region_in_revolt",
    ),
    (
        "W11.4 hits 0, 1, 2",
        "w6_2_every_brigade_rolls_hits_by_band",
    ),
    ("W11.4 general +1", "w6_2_every_brigade_rolls_hits_by_band"),
    ("W11.4 schools", "w6_2_every_brigade_rolls_hits_by_band"),
    (
        "W11.4 fort -2",
        "w6_3_a_fort_below_zero_gives_the_defender_its_drm",
    ),
    (
        "W11.4 CAV +1, ART +2",
        "w6_2_every_brigade_rolls_hits_by_band",
    ),
    (
        "W11.4 landed -2, -1",
        "w5_5_landed_units_fight_at_minus_two_then_minus_one",
    ),
    (
        "W11.4 landed CAV and ART keep +1, +2",
        "w11_4_landed_cavalry_and_artillery_keep_their_own_drm",
    ),
    (
        "W11.4 landed defenders",
        "w11_4_a_defenders_brigades_landed_this_phase_fight_at_minus_two_too",
    ),
    ("W11.4 naval 5+", "w5_6_equal_intercepts_a_group_no_larger"),
    ("W11.4 naval port +1", "w6_8_a_port_on_the_sea_adds_one"),
    ("W11.5 colony", "w7_1_a_parley_may_found_a_colony"),
    ("W11.5 sphere", "w7_1_a_sphere_below_the_cap_is_placed"),
    ("W11.5 nothing", "w7_1_nothing_or_the_explorer_killed"),
    (
        "W11.5 explorer killed",
        "w7_1_nothing_or_the_explorer_killed",
    ),
    (
        "W11.6 remove another's sphere",
        "w4_5_spheres_removed_by_the_controller_and_by_their_owners",
    ),
    (
        "W11.6 remove own sphere",
        "w4_5_spheres_removed_by_the_controller_and_by_their_owners",
    ),
    (
        "W11.6 westernize",
        "w4_5_westernize_then_automatic_westernizing",
    ),
    (
        "W11.6 automatic",
        "w4_5_westernize_then_automatic_westernizing",
    ),
    (
        "W11.6 incite",
        "w4_5_incite_with_a_sphere_needs_no_neighbour",
    ),
    (
        "W11.6 bribe",
        "w4_5_incite_bribe_and_one_attempt_per_region",
    ),
    ("W11.6 each sphere", "w4_6_postures_decide_a_spheres_drm"),
    ("W11.7 every item", "w11_7_victory_points_by_item"),
    (
        "W11.7 zone tie",
        "w8_1_ties_go_to_most_regions_then_most_pp",
    ),
    ("W11.8 buy DP", "w4_4_gifts_of_pp_and_dp_bought"),
    (
        "W11.8 declare war",
        "w7_3_the_declarer_attacks_from_his_next_phase",
    ),
    ("W11.8 parley third die", "w7_1_a_parley_may_found_a_colony"),
    (
        "W11.8 prospect",
        "w7_2_prospecting_draws_by_schools_and_keeps_the_best",
    ),
    (
        "W11.8 develop",
        "w4_7_an_engineer_takes_the_first_project_at_two_thirds",
    ),
    ("W11.8 suez", "w4_8_the_suez_canal_once_per_game"),
    ("W11.8 gifts", "w4_4_gifts_of_pp_and_dp_bought"),
    ("W11.8 peace", "w4_1_peace_needs_both_players"),
];

#[test]
fn every_war_rule_has_a_test() {
    let names = test_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    let missing: Vec<&str> = WAR_RULES
        .iter()
        .copied()
        .filter(|rule| {
            let prefix = format!("{}_", rule.to_lowercase().replace('.', "_"));
            !names.iter().any(|n| n.starts_with(&prefix))
        })
        .collect();
    assert!(missing.is_empty(), "rules without a test: {missing:?}");
}

/// The list above is the rules page's list, when the page is beside the project.
#[test]
fn war_rule_list_matches_the_rules_of_record() {
    let Some(mut numbered) = numbered_rules("war-age-of-imperialism.md", 'W') else {
        return;
    };
    numbered.dedup();
    let mut ours: Vec<String> = WAR_RULES.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(numbered, ours);
}

#[test]
fn every_w11_chart_row_is_exercised_by_a_test() {
    let names = test_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    let missing: Vec<&str> = CHART_ROWS
        .iter()
        .filter(|(_, test)| !names.iter().any(|n| n == test))
        .map(|(row, _)| *row)
        .collect();
    assert!(
        missing.is_empty(),
        "chart rows without their test: {missing:?}"
    );
    for section in [
        "W11.1", "W11.2", "W11.3", "W11.4", "W11.5", "W11.6", "W11.7", "W11.8",
    ] {
        assert!(
            CHART_ROWS.iter().any(|(row, _)| row.starts_with(section)),
            "{section}"
        );
    }
}

fn options(players: &[&str]) -> toml::Table {
    let mut t = toml::Table::new();
    t.insert(
        "players".into(),
        toml::Value::Array(
            players
                .iter()
                .map(|p| toml::Value::String(p.to_string()))
                .collect(),
        ),
    );
    t
}

fn new_game(players: &[&str], seed: u64) -> State {
    let (ids, opts) = game_options(&options(players)).unwrap();
    new_game_state(ids, opts, seed)
}

fn run(s: &State, orders: &[(&str, &str)], seed: u64) -> (State, war::outcome::Log) {
    let orders: BTreeMap<String, String> = orders
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    war::adjudicate(s, &orders, seed)
}

/// A draft with no orders: every player gets `each` regions by default, 120 PP, 3 DP.
fn draft_gives(players: &[&str], each: usize) {
    let s = new_game(players, 9);
    let (after, log) = run(&s, &[], 9);
    assert_eq!(after.phase, Phase::Setup);
    for p in 0..after.np() {
        assert_eq!(after.region_count(p), each, "{}", after.players[p].id);
        assert_eq!(after.players[p].pp, 120);
        assert_eq!(after.players[p].dp, 3);
    }
    assert_eq!(log.picks.len(), each * players.len());
}

#[test]
fn w11_1_three_players_draft_seven_regions_each() {
    draft_gives(&["red", "blue", "green"], 7);
}

#[test]
fn w11_1_four_players_draft_six_regions_each() {
    draft_gives(&["red", "blue", "green", "white"], 6);
}

#[test]
fn w11_1_five_players_draft_five_regions_each() {
    draft_gives(&["red", "blue", "green", "white", "black"], 5);
}

#[test]
fn w11_1_six_players_draft_four_regions_each() {
    draft_gives(&["red", "blue", "green", "white", "black", "yellow"], 4);
}

#[test]
fn w1_6_a_new_game_shuffles_the_pools_with_its_seed() {
    let a = new_game(&["red", "blue", "green"], 1);
    let b = new_game(&["red", "blue", "green"], 2);
    assert_eq!(
        a,
        new_game(&["red", "blue", "green"], 1),
        "the same seed, the same game"
    );
    assert_ne!(a.pool_native, b.pool_native);
    assert_ne!(a.pool_chits, b.pool_chits);
    let mut x = a
        .pool_chits
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>();
    let mut y = a
        .map
        .pool_chits
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>();
    x.sort();
    y.sort();
    assert_eq!(x, y, "a shuffle of the map's chits");
}

#[test]
fn w2_1_a_game_is_a_draft_a_setup_then_three_phases_a_turn() {
    let mut s = new_game(&["red", "blue", "green"], 4);
    let mut seen = Vec::new();
    for _ in 0..9 {
        seen.push(format!("{} {}", s.turn, s.phase.id()));
        s = run(&s, &[], 4).0;
    }
    assert_eq!(
        seen,
        [
            "0 draft",
            "0 setup",
            "1 movement-1",
            "1 movement-2",
            "2 production",
            "2 movement-1",
            "2 movement-2",
            "3 production",
            "3 movement-1"
        ]
    );
    // Every player not eliminated owes orders in every phase.
    assert_eq!(war::run::owing(&s), vec!["blue", "green", "red"]);
}

#[test]
fn w2_3_the_setup_order_is_drawn_at_creation_and_reported_with_the_draft() {
    let s = new_game(&["red", "blue", "green", "white"], 11);
    assert!(s.setup_dice.len() >= 4);
    assert!(s.setup_dice.iter().all(|d| d.step == "W2.3"));
    let (after, log) = run(&s, &[], 11);
    assert_eq!(&log.dice[..s.setup_dice.len()], &s.setup_dice[..]);
    assert!(after.setup_dice.is_empty());
    // The event names each player with the dice of the draw (W10.1), in the order.
    let event = log
        .events
        .iter()
        .find(|e| e.text.starts_with("setup order drawn"))
        .expect("the setup order is reported");
    let first_roll = s
        .setup_dice
        .iter()
        .find(|d| d.subject == format!("{} for the setup order", s.players[s.order[0]].id))
        .unwrap()
        .roll;
    assert!(
        event.text.contains(&format!(
            "(1d6 each, ties roll again): {} ({first_roll}",
            s.players[s.order[0]].id
        )),
        "{}",
        event.text
    );
    // Highest first.
    let first = &s.players[s.order[0]].id;
    let roll = |id: &str| {
        s.setup_dice
            .iter()
            .find(|d| d.subject.starts_with(id))
            .map(|d| d.roll)
            .unwrap()
    };
    assert!(s
        .order
        .iter()
        .all(|&p| roll(first) >= roll(&s.players[p].id)));
}

#[test]
fn w4_9_a_cession_written_in_production_serves_in_movement() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/war-imperialism/_base.toml"),
    )
    .unwrap()
    .replace(
        "phase = \"movement\"\nturn = 3\nmovement = 1",
        "phase = \"production\"\nturn = 3",
    );
    let sc = war::scenario::Scenario::from_toml(&text, Path::new(".")).unwrap();
    let (production, log) = run(&sc.state, &[("blue", "CEDE Levant TO red")], 1);
    assert!(log
        .results
        .iter()
        .any(|r| r.outcome == war::outcome::Outcome::Noted));
    assert_eq!(production.phase, Phase::Movement1);
    let (movement, log) = run(&production, &[("red", "MOVE INF Egypt - Levant")], 1);
    let levant = movement.map.by_id("Levant").unwrap();
    let pbem::rules::war_imperialism::map::Place::Region(l) = levant else {
        panic!()
    };
    assert_eq!(
        movement.owner(l),
        movement.player_index("red"),
        "{:?}",
        log.results
    );
    assert!(movement.cedes.is_empty(), "used up");
}

#[test]
fn w10_1_listed_dice_come_first_then_the_seed() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/war-imperialism-movement.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let with_dice = text.replace("seed = 7\n", "seed = 7\ndice = [6, 5]\n");
    let out = |t: &str| -> serde_json::Value {
        serde_json::from_str(&pbem::scenario::adjudicate_text(t, path.parent().unwrap()).unwrap())
            .unwrap()
    };
    let a = out(&with_dice);
    let dice = a["dice"].as_array().unwrap();
    assert!(dice.len() > 2);
    assert_eq!(dice[0]["roll"], 6);
    assert_eq!(dice[0]["source"], "list");
    assert_eq!(dice[1]["roll"], 5);
    assert_eq!(dice[1]["source"], "list");
    assert!(dice[2..].iter().all(|d| d["source"] == "seed"));
    assert!(dice
        .iter()
        .all(|d| !d["for"].as_str().unwrap().is_empty()
            && d["step"].as_str().unwrap().starts_with('W')));
    // Without a list every die comes from the seed and the phase: the same again.
    let b = out(&text);
    assert_eq!(b, out(&text));
    assert!(b["dice"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["source"] == "seed"));
    let other_seed = out(&text.replace("seed = 7", "seed = 8"));
    assert_ne!(b["dice"], other_seed["dice"]);
}

#[test]
fn w10_3_players_do_not_see_the_pool_order() {
    let s = new_game(&["red", "blue", "green"], 3);
    let game = Game::WarImperialism(s.clone());
    let play = game.play();
    assert!(play.hidden_information());
    let moderator = play.position_json(Viewer::Moderator);
    let player = play.position_json(Viewer::Power("red"));
    assert!(moderator["pool"]["chits"].is_array());
    assert_eq!(player["pool"]["chits"], s.pool_chits.len());
    assert_eq!(player["pool"]["hidden"], true);
    assert_eq!(
        player["regions"], moderator["regions"],
        "everything else is public"
    );
    let adj = play.adjudicate(&BTreeMap::new(), 3);
    let seen = play.results_for(&adj.results, Viewer::Power("blue"));
    assert!(seen.json["pool"]["native"].is_number());
    assert_eq!(seen.json["results"], adj.results.json["results"]);
    assert_eq!(seen.view, adj.results.view);
    let whole = play.results_for(&adj.results, Viewer::Moderator);
    assert!(whole.json["pool"]["native"].is_array());
}

#[test]
fn w2_4_a_receipt_echoes_each_line_or_refuses_it() {
    use pbem::rules::LineCheck;
    let s = new_game(&["red", "blue", "green"], 3);
    let game = Game::WarImperialism(s);
    let checks = game.check(
        "red",
        "# wishes\npick britain, low countries\nMOVE INF Britain - France\nPICK Atlantis\n",
    );
    assert_eq!(
        checks,
        vec![
            LineCheck::Accepted {
                order: "PICK Britain LowCountries".into()
            },
            LineCheck::Refused {
                line: "MOVE INF Britain - France".into(),
                reason: "not an order of the draft phase".into()
            },
            LineCheck::Refused {
                line: "PICK Atlantis".into(),
                reason: "unknown region \"Atlantis\"".into()
            },
        ]
    );
}

#[test]
fn new_games_need_three_to_six_players() {
    assert!(game_options(&options(&["red", "blue"])).is_err());
    assert!(game_options(&options(&["a", "b", "c", "d", "e", "f", "g"])).is_err());
    assert!(game_options(&toml::Table::new())
        .unwrap_err()
        .contains("players"));
    assert!(game_options(&options(&["Red", "blue", "green"])).is_err());
    let mut t = options(&["red", "blue", "green"]);
    t.insert("last_turn".into(), toml::Value::Integer(8));
    let (ids, o) = game_options(&t).unwrap();
    assert_eq!(ids, ["blue", "green", "red"]);
    assert_eq!(o.last_turn, Some(8));
    t.insert("colour".into(), toml::Value::Integer(8));
    assert!(game_options(&t).is_err(), "unknown option");
}

fn pbem(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("pbem runs")
}

#[test]
fn war_example_adjudicates_with_every_output_field() {
    let out = pbem(&["adjudicate", "examples/war-imperialism-movement.toml"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "rules",
            "turn",
            "phase",
            "movement",
            "results",
            "events",
            "battles",
            "players",
            "regions",
            "units",
            "fleets",
            "wars",
            "suez",
            "pool",
            "order",
            "next_phase",
            "next_turn",
            "next_movement",
            "vp",
            "winner",
            "dice"
        ]
    );
    assert_eq!(
        v["regions"].as_array().unwrap().len(),
        68,
        "every region of the map"
    );
    let again = pbem(&["adjudicate", "examples/war-imperialism-movement.toml"]);
    assert_eq!(out.stdout, again.stdout, "byte-identical");
}

/// Damaged scenario and map files: exit 2, one line on stderr naming the file and the
/// problem.
#[test]
fn damaged_war_scenarios_and_maps_exit_2_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let head = "rules = \"war-imperialism\"\nphase = \"production\"\norder = [\"red\"]\n[[player]]\nid = \"red\"\n";
    let map = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/war-imperialism/_tiny-map.toml"),
    )
    .unwrap();
    std::fs::write(
        dir.join("broken-map.toml"),
        map.replace("native = \"6+\"", "native = \"six\""),
    )
    .unwrap();
    std::fs::write(dir.join("cut-map.toml"), &map[..map.len() / 2]).unwrap();
    let cases = [
        ("bad-toml.toml", format!("{head}[[region]\n"), "line 6"),
        (
            "unknown-key.toml",
            format!("{head}speed = 3\n"),
            "unknown key `speed`",
        ),
        (
            "map.toml",
            format!("map = \"broken-map.toml\"\n{head}"),
            "map file broken-map.toml: region Gamma: bad native marker \"six\"",
        ),
        (
            "cut.toml",
            format!("map = \"cut-map.toml\"\n{head}"),
            "map file cut-map.toml:",
        ),
        (
            "nomap.toml",
            format!("map = \"none-such.toml\"\n{head}"),
            "map file none-such.toml: cannot read it",
        ),
    ];
    for (name, text, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = pbem(&["adjudicate", path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(name), "{name}: names the file: {stderr}");
        assert!(stderr.contains(want), "{name}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn the_shipped_games_toml_has_a_four_player_war_game() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games.toml");
    let config = pbem::config::Config::load(&path).expect("games.toml reads");
    let g = config
        .games
        .iter()
        .find(|g| g.rules == pbem::rules::RuleSetId::WarImperialism)
        .expect("a War! game");
    assert_eq!(g.players.len(), 4);
    let game = Game::new(g.rules, &g.options, None, g.seed).unwrap();
    assert_eq!(game.powers().len(), 4);
    assert_eq!(game.label().phase, "draft");
    for phase in ["draft", "setup", "production", "movement-1", "movement-2"] {
        assert!(g.phases.contains_key(phase), "{phase}");
    }
}

/// The example orders of welcome mails and HELP read back without a refusal, in every
/// phase of a game.
#[test]
fn w2_4_the_example_orders_of_every_phase_are_accepted() {
    use pbem::rules::LineCheck;
    let mut s = new_game(&["red", "blue", "green"], 6);
    for _ in 0..5 {
        let game = Game::WarImperialism(s.clone());
        for p in ["red", "blue", "green"] {
            let example = game.play().example_orders(p);
            assert!(!example.is_empty(), "{} {p}", s.phase.id());
            // Each line fits a mail's 72 columns as the welcome shows it (indented 2).
            assert!(example.lines().all(|l| l.len() <= 70), "{example}");
            for check in game.check(p, &example) {
                assert!(
                    matches!(check, LineCheck::Accepted { .. }),
                    "{} {p}: {check:?}",
                    s.phase.id()
                );
            }
        }
        let orders: Vec<(String, String)> = ["red", "blue", "green"]
            .iter()
            .map(|p| (p.to_string(), game.play().example_orders(p)))
            .collect();
        let orders: Vec<(&str, &str)> = orders
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        s = run(&s, &orders, 6).0;
    }
    assert!(!game_help_is_empty());
}

fn game_help_is_empty() -> bool {
    let s = new_game(&["red", "blue", "green"], 1);
    Game::WarImperialism(s).order_help().is_empty()
}

/// The mail tells a battle and its rounds before what followed from it (the loser's
/// retreat).
#[test]
fn w6_6_the_mail_tells_a_battle_before_the_retreat_it_caused() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/cases/war-imperialism/w6_6_the_defender_retreats_to_his_region_with_most_brigades.toml",
    );
    let (text, _) = crate::war_cases::scenario_text(&path);
    let sc = war::scenario::Scenario::from_toml(&text, path.parent().unwrap()).unwrap();
    let (after, log) = war::adjudicate_with_dice(&sc.state, &sc.orders, sc.seed, &sc.dice);
    let events = war::report::results_view(&after, &log).events;
    let at = |text: &str| {
        events
            .iter()
            .position(|e| e.contains(text))
            .unwrap_or_else(|| panic!("{text:?} in {events:#?}"))
    };
    let (battle, round, retreat) = (
        at("battle at Levant"),
        at("round 1, "),
        at("retreat from Levant"),
    );
    assert!(battle < round && round < retreat, "{events:#?}");
    assert!(events[battle].contains("1 round;"), "{}", events[battle]);
    // The board under the mail's first line (turn and phase) does not repeat them.
    let board = war::report::board_text(&after);
    assert!(board.starts_with("Movement order: "), "{board}");
}
