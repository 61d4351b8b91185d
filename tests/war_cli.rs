//! War! through the `pbem` command line, and the shipped files: the example scenario,
//! damaged scenarios and maps, the games.toml game.

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
