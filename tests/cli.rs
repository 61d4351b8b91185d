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

/// A scenario file in a folder of its own, removed when the returned guard drops.
pub struct TempFile {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
}

impl std::ops::Deref for TempFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

fn temp_scenario(name: &str, text: &str) -> TempFile {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    TempFile { _dir: dir, path }
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

/// A scenario's orders are read as a mail's: written with an en dash, an arrow and
/// a no-break space (as a mail client or a web page may leave them), every shipped
/// example gives the same results, byte for byte.
#[test]
fn scenario_orders_read_unicode_dashes_and_arrows_as_a_mail_does() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut changed = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let typed = text
            .replace(" - ", "\u{a0}\u{2013} ")
            .replace("->", "\u{2192}");
        if typed == text {
            continue;
        }
        changed += 1;
        let plain = pbem::scenario::adjudicate_text(&text, &dir).unwrap();
        let read = pbem::scenario::adjudicate_text(&typed, &dir)
            .unwrap_or_else(|e| panic!("{path:?}: {e}"));
        assert_eq!(read, plain, "{path:?}");
    }
    assert!(changed >= 3, "examples with moves written: {changed}");
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
            "unknown key `fleets`",
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
    // Each rule set adds its sample game; the first two are Foundation and Empire
    // and Godsfire, of four players each.
    assert!(config.games.len() >= 2);
    assert!(config.games[..2].iter().all(|g| g.players.len() == 4));
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
    // The demo leaves its folder for the user to look at; the test does not.
    let dir = text
        .lines()
        .find_map(|l| l.strip_prefix("pbem demo in "))
        .expect("the demo says where it ran");
    assert!(Path::new(dir).join("games.toml").exists());
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every subcommand's --help describes every argument, and shows defaults as written.
#[test]
fn every_argument_of_every_subcommand_is_described() {
    use clap::CommandFactory;
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            if arg.get_help().is_none() {
                missing.push(format!("{path} {id}"));
            }
        }
        for sub in cmd.get_subcommands() {
            if sub.get_about().is_none() {
                missing.push(format!("{path} {} (no description)", sub.get_name()));
            }
            walk(sub, &format!("{path} {}", sub.get_name()), missing);
        }
    }
    let mut missing = Vec::new();
    walk(&pbem::cli::Cli::command(), "pbem", &mut missing);
    assert!(missing.is_empty(), "undescribed: {missing:?}");
    let help = pbem(&["bench", "--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("[default: 1000,10000,100000]"), "{text}");
    let help = pbem(&["serve", "--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("[default: games.toml]"), "{text}");
}

/// A judge folder with a Maildir games.toml and no store yet.
fn judge_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("games.toml")).unwrap();
    std::fs::write(dir.path().join("games.toml"), text).unwrap();
    dir
}

#[test]
fn game_show_creates_nothing_and_says_the_judge_has_not_run() {
    let dir = judge_folder();
    let config = dir.path().join("games.toml");
    let out = pbem(&[
        "game",
        "show",
        "andromeda",
        "--config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("has not run"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "only games.toml: {entries:?}");
}

#[test]
fn poll_once_exits_non_zero_when_the_mailbox_is_out_of_reach_and_says_why() {
    let dir = judge_folder();
    let config = dir.path().join("games.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    // IMAP on a loopback port where nothing listens, its password in a variable that
    // is not set.
    let transport = "[transport]\nkind = \"imap\"\n[transport.imap]\nhost = \"127.0.0.1\"\nport = 9\ntls = \"none\"\nuser = \"judge\"\npassword_env = \"PBEM_TEST_UNSET_PW\"\nmailbox = \"INBOX\"\n[transport.smtp]\nhost = \"127.0.0.1\"\nport = 9\ntls = \"none\"\nuser = \"\"\n";
    let start = text.find("[transport]").unwrap();
    let end = start + text[start..].find("\n[[game]]").unwrap();
    std::fs::write(
        &config,
        format!("{}{transport}{}", &text[..start], &text[end..]),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["poll-once", "--config"])
        .arg(&config)
        .env_remove("PBEM_TEST_UNSET_PW")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("PBEM_TEST_UNSET_PW is not set"), "{err}");
}

#[test]
fn poll_once_while_serve_holds_the_store_says_so_in_one_line() {
    let dir = judge_folder();
    let config = dir.path().join("games.toml");
    let mut serve = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["serve", "--config"])
        .arg(&config)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let store = dir.path().join("data/pbem.sled");
    let start = std::time::Instant::now();
    while !store.exists()
        || pbem::store::Store::open_waiting(&store, std::time::Duration::ZERO).is_ok()
    {
        assert!(start.elapsed().as_secs() < 30, "serve did not start");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = pbem(&["poll-once", "--config", config.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("the judge is running"), "{err}");
    serve.kill().unwrap();
    let output = serve.wait_with_output().unwrap();
    // Logs to a pipe carry no colour codes.
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(log.contains("serving"), "{log}");
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in a piped log: {log:?}"
    );
}

/// The shipped systemd unit passes `systemd-analyze verify` (where systemd is
/// installed; otherwise the test says so and checks only that the unit runs serve).
#[test]
fn the_systemd_unit_is_valid() {
    let unit =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/pbem.service"))
            .unwrap();
    assert!(unit.contains("ExecStart=/usr/local/bin/pbem serve --config"));
    assert!(unit.contains("Restart=always"));
    let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let Some(analyze) = analyze else {
        eprintln!("systemd-analyze is not installed: the unit's syntax was not verified");
        return;
    };
    // The unit as installed, pointing at this build's binary.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pbem.service");
    std::fs::write(
        &path,
        unit.replace("/usr/local/bin/pbem", env!("CARGO_BIN_EXE_pbem")),
    )
    .unwrap();
    let out = Command::new(analyze)
        .args(["verify", "--man=no"])
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // Lines about the machine itself (no running systemd, missing users) are not
    // about the unit.
    let about_unit: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("pbem.service") && !l.contains("User=") && !l.contains("Group="))
        .collect();
    assert!(about_unit.is_empty(), "{err}");
    assert!(out.status.success(), "{err}");
}

/// The benchmarks of issue 20 (`pbem bench --games`, `pbem bench --mail`) run whole, on a
/// small scale, and print every figure the README quotes.
#[test]
fn the_many_games_and_mail_benchmarks_run_and_print_their_figures() {
    let out = pbem(&["bench", "--games", "1000", "--idle", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = text
        .lines()
        .find(|l| l.starts_with("1000 "))
        .unwrap_or_else(|| panic!("no row for 1000 games: {text}"));
    for figure in ["ms /", "CPU-s/2 s", "MB", "µs", "× one game's speed"] {
        assert!(row.contains(figure), "{figure:?} missing: {row}");
    }
    // Where a mail's time goes, one game against spread.
    assert!(text.contains("act: game records read ahead"), "{text}");
    assert!(text.contains("store write: commit (sled, flush)"), "{text}");

    let out = pbem(&["bench", "--mail", "300"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("300 order mails in "), "{text}");
    assert!(
        text.contains("the filesystem alone (same run): 30"),
        "{text}"
    );
    assert!(text.contains("password check"), "{text}");
}

/// `pbem bench` measures the sizes side by side in rounds: each round, a size ten times
/// smaller adjudicates ten times as many phases (as many fleets), and the table shows
/// the growth from size to size.
#[test]
fn the_movement_benchmark_measures_sizes_side_by_side_in_rounds() {
    let out = pbem(&["bench", "--fleets", "100,1000", "--phases", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let row = |fleets: &str| -> Vec<String> {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(fleets))
            .unwrap_or_else(|| panic!("no row for {fleets} fleets: {text}"))
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    // Two rounds: 2 phases of the largest size, 20 of the size ten times smaller.
    assert_eq!(row("100")[1], "20", "{text}");
    assert_eq!(row("1000")[1], "2", "{text}");
    assert!(
        row("1000").join(" ").contains("time for 10× fleets"),
        "{text}"
    );
    // It tells whether the kernel gives the phases' large blocks huge pages.
    assert!(
        text.lines()
            .any(|l| l.starts_with("large blocks of a phase on huge pages: ")),
        "{text}"
    );
    // The growth read round by round too, where the CPU time is told.
    if cfg!(target_os = "linux") {
        assert!(
            text.lines()
                .any(|l| l.starts_with("100        -> 1000       median ")
                    && l.ends_with("(2 rounds)")),
            "{text}"
        );
    }
}

/// `pbem bench` on 100 and 1,000 fleets (two rounds) with `flag`: its whole output and
/// the part after `heading` (which must be there).
fn bench_table(flag: &str, heading: &str) -> (String, String) {
    let out = pbem(&["bench", "--fleets", "100,1000", "--phases", "2", flag]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    let (_, table) = text
        .split_once(heading)
        .unwrap_or_else(|| panic!("no {heading:?} table: {text}"));
    let table = table.to_string();
    (text, table)
}

/// `pbem bench --stages` also tells where a phase's time goes: every stage of a movement
/// phase, with a figure for each size; without it, no such table.
#[test]
fn the_movement_benchmark_tells_where_a_phase_s_time_goes() {
    let (text, stages) = bench_table("--stages", "where a phase's time goes");
    let stages = stages.as_str();
    for stage in [
        "position tables, plan",
        "orders read and checked",
        "resolution",
        "results",
        "position after movement",
    ] {
        let line = stages
            .lines()
            .find(|l| l.starts_with(stage))
            .unwrap_or_else(|| panic!("no {stage:?}: {text}"));
        let figures: Vec<f64> = line[stage.len()..]
            .split_whitespace()
            .map(|f| f.parse().unwrap_or_else(|_| panic!("{line:?}")))
            .collect();
        assert_eq!(figures.len(), 2, "{line:?}");
        assert!(figures.iter().all(|&f| f >= 0.0), "{line:?}");
    }
    // Reading and checking orders is never free.
    let read = stages
        .lines()
        .find(|l| l.starts_with("orders read and checked"))
        .expect("row");
    assert!(
        read.split_whitespace()
            .filter_map(|f| f.parse::<f64>().ok())
            .all(|f| f > 0.0),
        "{read:?}"
    );
    let plain = pbem(&["bench", "--fleets", "100", "--phases", "1"]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("where a phase's time goes"));
}

/// `pbem bench --floor` also times each phase's floor (its records read and written,
/// nothing adjudicated) and tells the lowest growth an adjudication could show; without
/// it, no such table.
#[test]
fn the_movement_benchmark_tells_the_floor_of_a_phase() {
    let (text, floor) = bench_table(
        "--floor",
        "the floor: orders and fleets read, results and fleets written",
    );
    let floor = floor.as_str();
    let row = |fleets: &str| -> &str {
        floor
            .lines()
            .find(|l| l.split_whitespace().next() == Some(fleets))
            .unwrap_or_else(|| panic!("no floor row for {fleets}: {text}"))
    };
    let ns = |fleets: &str| -> f64 {
        row(fleets)
            .split_whitespace()
            .nth(1)
            .and_then(|f| f.parse().ok())
            .unwrap_or_else(|| panic!("{text}"))
    };
    // A phase of 100 fleets takes about a microsecond, near what reading the clock
    // costs (taken off); one of 1,000 is never free.
    assert!(ns("100") >= 0.0, "{text}");
    assert!(ns("1000") > 0.0, "{text}");
    assert!(!row("100").contains("lowest growth"), "{text}");
    let lowest: f64 = row("1000")
        .split("lowest growth of a phase from 100: ")
        .nth(1)
        .and_then(|g| g.trim_end_matches('×').parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(lowest > 0.0, "{text}");
    let plain = pbem(&["bench", "--fleets", "100", "--phases", "1"]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("the floor"));
}

/// `PBEM_NOW` starts the judge's clock at a given time: a time that cannot be read stops
/// the command with a plain error; a readable one is the time the judge works at (its
/// games' deadlines are set from it).
#[test]
fn pbem_now_sets_the_judges_clock_and_a_bad_one_is_refused() {
    let dir = judge_folder();
    let config = dir.path().join("games.toml");
    // `pbem <args> --config <config>` with `PBEM_NOW` set to `now`.
    let at = |now: &str, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(args)
            .arg("--config")
            .arg(&config)
            .env("PBEM_NOW", now)
            .output()
            .unwrap()
    };
    let bad = at("tomorrow", &["poll-once"]);
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success(), "{err}");
    assert!(
        err.contains("PBEM_NOW: \"tomorrow\" is not a time"),
        "{err}"
    );
    let later = "2031-03-01T09:00:00Z";
    let good = at(later, &["poll-once"]);
    assert!(
        good.status.success(),
        "{}",
        String::from_utf8_lossy(&good.stderr)
    );
    let show = at(later, &["game", "show", "andromeda", "--json"]);
    let json = String::from_utf8_lossy(&show.stdout);
    assert!(
        json.contains("2031-03-0"),
        "the deadline follows the clock: {json}{}",
        String::from_utf8_lossy(&show.stderr)
    );
}
