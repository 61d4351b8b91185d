//! `pbem` as a user runs it: the binary, its output and its exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pbem(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("pbem runs")
}

fn temp_scenario(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbem-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn adjudicate_prints_deterministic_json() {
    let first = pbem(&["adjudicate", "examples/foundation-empire-movement.toml"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&first.stdout).expect("JSON on stdout");
    for key in [
        "results",
        "fleets",
        "dislodged",
        "destroyed",
        "systems",
        "placements_due",
        "next_phase",
        "winner",
        "dice",
    ] {
        assert!(json.get(key).is_some(), "output has {key}");
    }
    let second = pbem(&["adjudicate", "examples/foundation-empire-movement.toml"]);
    assert_eq!(first.stdout, second.stdout, "byte-identical output");
}

#[test]
fn every_shipped_example_adjudicates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let out = pbem(&["adjudicate", path.to_str().unwrap()]);
            assert!(
                out.status.success(),
                "{path:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            count += 1;
        }
    }
    assert!(count > 0, "examples/ holds scenarios");
}

const FLEET: &str = "[[fleet]]\npower = \"foundation\"\nat = \"B2\"\n";

/// Unreadable scenarios: exit 2, one line on stderr naming the file and the problem.
#[test]
fn unreadable_scenarios_exit_2_with_one_line() {
    let head = "rules = \"foundation-empire\"\nphase = \"movement\"\n";
    let cases = [
        ("bad-toml.toml", format!("{head}[[fleet]\n"), "line 3"),
        (
            "no-rules.toml",
            "phase = \"movement\"\n".to_string(),
            "no `rules` key",
        ),
        (
            "unknown-rules.toml",
            "rules = \"chess\"\nphase = \"movement\"\n".to_string(),
            "unknown rule set \"chess\"",
        ),
        (
            "unknown-sector.toml",
            format!("{head}[[fleet]]\npower = \"foundation\"\nat = \"Q9\"\n"),
            "unknown sector \"Q9\"",
        ),
        (
            "two-fleets.toml",
            format!("{head}{FLEET}{FLEET}"),
            "two fleets in sector B2",
        ),
        (
            "unknown-power.toml",
            format!("{head}[[fleet]]\npower = \"klingons\"\nat = \"B2\"\n"),
            "unknown power \"klingons\"",
        ),
        (
            "unknown-phase.toml",
            "rules = \"foundation-empire\"\nphase = \"lunch\"\n".to_string(),
            "unknown phase \"lunch\"",
        ),
        (
            "unknown-key.toml",
            format!("{head}[[fleets]]\npower = \"foundation\"\nat = \"B2\"\n"),
            "unknown field `fleets`",
        ),
        (
            "unknown-system.toml",
            format!("{head}[systems]\nAtlantis = \"foundation\"\n"),
            "unknown system \"Atlantis\"",
        ),
        (
            "negative-stay.toml",
            format!("{head}[[fleet]]\npower = \"foundation\"\nat = \"B2\"\nstay = -1\n"),
            "line",
        ),
        (
            "orders-unknown-power.toml",
            format!("{head}{FLEET}[orders]\nvulcan = \"B2 H\"\n"),
            "unknown power \"vulcan\" in [orders]",
        ),
        (
            "bad-board.toml",
            format!("{head}board = \"no-such-board.toml\"\n"),
            "cannot read board file",
        ),
    ];
    for (name, text, expected) in cases {
        let path = temp_scenario(name, &text);
        let out = pbem(&["adjudicate", path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
        assert_eq!(
            stderr.trim_end().lines().count(),
            1,
            "{name}: one line: {stderr}"
        );
        assert!(stderr.contains(name), "{name}: names the file: {stderr}");
        assert!(
            stderr.contains(expected),
            "{name}: says {expected:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
    let out = pbem(&["adjudicate", "no/such/file.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/file.toml"));
}

/// Unreadable Godsfire scenarios: exit 2, one line on stderr.
#[test]
fn unreadable_godsfire_scenarios_exit_2_with_one_line() {
    let head = "rules = \"godsfire\"\nphase = \"interphase\"\n[map]\nwidth = 8\nheight = 6\n\
        [[system]]\nname = \"Vega\"\nat = \"G5\"\nowner = \"blue\"\nbank = 1\n\
        planets = [[{ economy = \"I-2\", party = \"M\", allegiance = 4 }]]\n\
        [[power]]\nid = \"blue\"\nng = \"Vega\"\n";
    let cases = [
        ("gf-bad-toml.toml", format!("{head}[[stake]\n"), "line"),
        (
            "gf-region-of-no-planet.toml",
            format!("{head}[[stake]]\npower = \"blue\"\nregion = \"Vega-3a\"\ncircle = 3\nplaced_turn = 1\n"),
            "unknown region Vega-3a",
        ),
        (
            "gf-negative-money.toml",
            head.replace("bank = 1", "bank = -1"),
            "line",
        ),
        (
            "gf-too-much-money.toml",
            head.replace("bank = 1", "bank = 4000000000"),
            "above the limit",
        ),
        (
            "gf-allegiance.toml",
            head.replace("allegiance = 4", "allegiance = 7"),
            "allegiance 7 is not 0 to 5",
        ),
        (
            "gf-pinned-die.toml",
            head.replace("phase = \"interphase\"", "phase = \"combat\"\ndice = [3, 7]"),
            "pinned die 7 is not 1 to 6",
        ),
        (
            "gf-orders-unknown-power.toml",
            format!("{head}[orders]\nvulcan = \"BORROW 2\"\n"),
            "unknown power \"vulcan\"",
        ),
        (
            "gf-ng-not-owned.toml",
            head.replace("owner = \"blue\"", "owner = \"neutral\""),
            "is not its own",
        ),
    ];
    for (name, text, expected) in cases {
        let path = temp_scenario(name, &text);
        let out = pbem(&["adjudicate", path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{name}: says {expected:?}: {stderr}"
        );
    }
    let ok = temp_scenario("gf-ok.toml", head);
    let out = pbem(&["adjudicate", ok.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn godsfire_example_adjudicates_with_every_output_field() {
    let out = pbem(&["adjudicate", "examples/godsfire-interphase.toml"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "results",
        "events",
        "systems",
        "powers",
        "stacks",
        "stakes",
        "counters",
        "transit",
        "purchases",
        "dice",
        "next_phase",
        "winner",
    ] {
        assert!(json.get(key).is_some(), "no {key}");
    }
    assert_eq!(json["next_phase"], "defence");
    let again = pbem(&["adjudicate", "examples/godsfire-interphase.toml"]);
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn invalid_orders_are_results_not_errors() {
    let path = temp_scenario(
        "garbage-orders.toml",
        &format!(
            "rules = \"foundation-empire\"\nphase = \"movement\"\n{FLEET}[orders]\nfoundation = \"\"\"\n\u{e4}\u{2603} \u{1f680}\n B2 ->->-> \n;;;\nPLACE\n\"\"\"\n"
        ),
    );
    let out = pbem(&["adjudicate", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let invalid = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["outcome"] == "invalid")
        .count();
    assert_eq!(invalid, 4);
}

#[test]
fn the_shipped_games_toml_is_valid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games.toml");
    let config = pbem::config::Config::load(&path).expect("games.toml reads");
    assert_eq!(config.games.len(), 2);
    assert!(config.games.iter().all(|g| g.players.len() == 4));
    assert_eq!(config.games[1].rules, pbem::rules::RuleSetId::Godsfire);
}

#[test]
fn demo_shows_a_turn_adjudicated_and_the_result_mails() {
    let out = pbem(&["demo"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("adjudicated 1 phase(s)"), "{text}");
    assert!(text.contains("REFUSED  C1 - C9"));
    assert!(text.contains("[demo] Turn 1 movement results"));
    assert!(text.contains("+-------+"));
}
