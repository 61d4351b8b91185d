//! War! beyond single scenario files: a new game's setup and draft, the phases of a
//! turn, dice, what players see and the receipts of their orders.

use std::collections::BTreeMap;
use std::path::Path;

use pbem::rules::game::{Game, Viewer};
use pbem::rules::war_imperialism::scenario::{game_options, new_game_state};
use pbem::rules::war_imperialism::state::{Phase, State};
use pbem::rules::war_imperialism::{self as war};

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

/// W5.1, W8.1: a player whose last brigades go for upkeep is eliminated at the end of
/// production: he owes no movement orders, an order from him is refused, and the game
/// ends after movement 1, the phase that follows.
#[test]
fn w5_1_a_player_eliminated_in_production_owes_nothing_and_the_game_ends_after_movement_1() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/cases/war-imperialism/w5_1_a_player_left_without_regions_by_upkeep_is_eliminated_in_production.toml",
    );
    let (text, _) = crate::war_cases::scenario_text(&path);
    let sc = war::scenario::Scenario::from_toml(&text, path.parent().unwrap()).unwrap();
    let (after, _) = run(&sc.state, &[], 5);
    assert_eq!(after.phase, Phase::Movement1);
    assert_eq!(war::run::owing(&after), ["blue", "green"]);
    let game = Game::WarImperialism(after.clone());
    assert_eq!(
        game.check("red", "MOVE INF Egypt - Libya"),
        vec![pbem::rules::LineCheck::Refused {
            line: "MOVE INF Egypt - Libya".into(),
            reason: "you are out of the game (W5.1)".into()
        }]
    );
    let (over, log) = run(&after, &[], 5);
    assert_eq!(over.phase, Phase::Over, "{:#?}", log.events);
    assert!(log.events.iter().any(|e| e
        .text
        .starts_with("the game ends (a player was eliminated)")));
}

/// W5.8: the receipt refuses a second CEDE of a region to another player, the first
/// standing for the rest of the turn; the same cession again is no conflict.
#[test]
fn w5_8_the_receipt_refuses_a_second_cession_of_a_region() {
    use pbem::rules::LineCheck;
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/war-imperialism/_base.toml"),
    )
    .unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/war-imperialism");
    let sc = war::scenario::Scenario::from_toml(&text, &dir).unwrap();
    let game = Game::WarImperialism(sc.state);
    let checks = game.check(
        "red",
        "CEDE Egypt TO green\nCEDE Egypt TO blue\nCEDE Egypt TO green\n",
    );
    assert_eq!(
        checks,
        vec![
            LineCheck::Accepted {
                order: "CEDE Egypt TO green".into()
            },
            LineCheck::Refused {
                line: "CEDE Egypt TO blue".into(),
                reason: "Egypt is ceded to green by an earlier line, and a cession stands for the rest of the turn (W5.8)".into()
            },
            LineCheck::Accepted {
                order: "CEDE Egypt TO green".into()
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

/// An example order is one that would be carried out as things stand: red's MOVE
/// from Egypt goes to native Libya, not to blue's Levant (no war); blue, without a
/// city, is not told to buy DP (W4.4).
#[test]
fn w2_4_the_example_orders_would_be_carried_out() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/war-imperialism");
    let text = std::fs::read_to_string(dir.join("_base.toml")).unwrap();
    let sc = war::scenario::Scenario::from_toml(&text, &dir).unwrap();
    let game = Game::WarImperialism(sc.state.clone());
    let red = game.play().example_orders("red");
    assert!(red.lines().any(|l| l == "MOVE INF Egypt - Libya"), "{red}");
    let mut s = sc.state;
    s.phase = Phase::Production;
    let game = Game::WarImperialism(s);
    assert_eq!(
        game.play().example_orders("red"),
        "BUILD INF Egypt\nBUY 1 DP"
    );
    assert_eq!(game.play().example_orders("blue"), "BUILD INF Ottoman");
}

fn game_help_is_empty() -> bool {
    let s = new_game(&["red", "blue", "green"], 1);
    Game::WarImperialism(s).order_help().is_empty()
}
