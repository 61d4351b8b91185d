//! War! through the `pbem` command line, and the shipped files: the example scenario,
//! damaged scenarios and maps, the games.toml game, a game's history checked by
//! `pbem verify-dice`.

use std::path::Path;
use std::process::Command;

use pbem::rules::game::Game;

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

/// Each battle round's DRM parts and brigades sitting out (fields newer than some
/// recorded games) taken out of a phase's results, as an older pbem recorded them.
fn strip_round_details(v: &mut serde_json::Value) {
    for b in v["battles"].as_array_mut().into_iter().flatten() {
        for r in b["rounds"].as_array_mut().into_iter().flatten() {
            let r = r.as_object_mut().unwrap();
            r.remove("drm_parts");
            r.remove("sat_out");
        }
    }
}

/// A War! game with a fixed seed, its battles told with their DRM parts, verifies
/// with `pbem verify-dice`: played again, every phase's results are the recorded ones;
/// a history recorded before rounds had DRM parts verifies too (a later pbem may tell
/// more), with the same count of dice (the parts are no dice); a changed die fails.
#[test]
fn w10_1_a_war_history_verifies_with_verify_dice() {
    use pbem::rules::war_imperialism::generate::{scripted_orders, Plan};
    use pbem::rules::war_imperialism::state::Phase;
    use pbem::verify::{History, HistoryPhase};
    let seed = 5;
    let options: toml::Table =
        toml::from_str("players = [\"blue\", \"green\", \"red\"]\nstart_pp = 200").unwrap();
    let mut game = Game::new(pbem::rules::RuleSetId::WarImperialism, &options, None, seed).unwrap();
    let mut phases = Vec::new();
    let mut parts = 0;
    for _ in 0..20 {
        let Game::WarImperialism(s) = &game else {
            panic!("not a War! game")
        };
        let mut orders: std::collections::BTreeMap<String, String> = (0..s.np())
            .map(|p| {
                (
                    s.pid(p).to_string(),
                    scripted_orders(s, p, &Plan::default()),
                )
            })
            .collect();
        // Red builds two cities, then a school in each: +1 in his battles (W11.4).
        let red = s.player_index("red").unwrap();
        let two: Vec<&str> = s.regions_of(red).take(2).map(|r| s.rname(r)).collect();
        let build = |what: &str| format!("BUILD {what} {}\nBUILD {what} {}\n", two[0], two[1]);
        match s.phase {
            Phase::Setup => {
                orders.insert("red".into(), build("city") + &build("3 INF"));
            }
            Phase::Production if s.turn == 2 => {
                orders.insert("red".into(), build("school"));
            }
            _ => {}
        }
        let label = game.label();
        let adj = game.adjudicate(&orders, seed);
        let mut results = adj.results.json;
        let m = results.as_object_mut().unwrap();
        m.insert("game".into(), "g1".into());
        m.insert("turn".into(), label.turn.into());
        m.insert("phase".into(), label.phase.into());
        for b in results["battles"].as_array().unwrap() {
            for r in b["rounds"].as_array().unwrap() {
                parts += r["drm_parts"]["attacker"].as_array().unwrap().len()
                    + r["drm_parts"]["defender"].as_array().unwrap().len();
            }
        }
        phases.push(HistoryPhase {
            turn: label.turn,
            phase: label.phase.to_string(),
            orders,
            by: None,
            position: None,
            results,
        });
        game = adj.game;
    }
    assert!(parts > 0, "no battle round with a DRM part");
    let history = History {
        game: "g1".into(),
        rules: "war-imperialism".into(),
        options: serde_json::to_value(&options).unwrap(),
        start: None,
        commitment: None,
        secret: None,
        fixed_seed: Some(seed),
        view_of: None,
        phases,
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.json");
    let check = |h: &History| {
        std::fs::write(&file, serde_json::to_string(h).unwrap()).unwrap();
        let out = pbem(&["verify-dice", file.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    };
    let dice: usize = history
        .phases
        .iter()
        .map(|p| p.results["dice"].as_array().unwrap().len())
        .sum();
    let (ok, out) = check(&history);
    assert!(ok, "{out}");
    assert!(out.contains(&format!("{dice} dice")), "{out}");
    let mut older = history.clone();
    for p in &mut older.phases {
        strip_round_details(&mut p.results);
    }
    assert_ne!(older, history);
    let (ok, again) = check(&older);
    assert!(ok, "{again}");
    assert_eq!(again, out);
    // A changed die of a battle fails.
    let mut tampered = history.clone();
    let phase = tampered
        .phases
        .iter_mut()
        .find(|p| !p.results["battles"].as_array().unwrap().is_empty())
        .unwrap();
    let die = &mut phase.results["battles"][0]["rounds"][0]["rolls"]["attacker"][0];
    *die = (die.as_u64().unwrap() % 6 + 1).into();
    let (ok, out) = check(&tampered);
    assert!(!ok, "{out}");
    assert!(out.contains("differ from the recorded ones"), "{out}");
}
