//! Diplomacy rules that read better as code than as a case file: the DATC cases whose
//! files cannot be read as written (see `diplomacy_datc`), orders as players write
//! them, receipts, civil disorder, the draw vote, victory and the phase sequence.

use std::collections::BTreeMap;

use pbem::rules::diplomacy::phase::adjudicate;
use pbem::rules::diplomacy::scenario::{adjudicate_text, as_given};
use pbem::rules::diplomacy::state::{Options, State};
use pbem::rules::diplomacy::{given, Diplomacy};
use pbem::rules::{LineCheck, RuleSet};
use serde_json::Value;

fn run(text: &str) -> Value {
    serde_json::from_str(&adjudicate_text(text).unwrap_or_else(|e| panic!("{e}"))).unwrap()
}

/// A receipt's lines as text: the order accepted, or `REFUSED <line>: <reason>`.
fn shown(checks: &[LineCheck]) -> Vec<String> {
    checks
        .iter()
        .map(|c| match c {
            LineCheck::Accepted { order } | LineCheck::Noted { order, .. } => order.clone(),
            LineCheck::Refused { line, reason } | LineCheck::Unreadable { line, reason } => {
                format!("REFUSED {line}: {reason}")
            }
            LineCheck::Replaced { line, reason } => format!("REPLACED {line}: {reason}"),
        })
        .collect()
}

fn outcome(v: &Value, order: &str) -> String {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["order"] == order)
        .unwrap_or_else(|| panic!("no result {order}: {v:#}"))["outcome"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Builds neither ordered nor waived are waived, and the events say how many, and
/// how many home centres were free when that is why.
#[test]
fn unused_builds_are_told_in_the_events() {
    let v = run("phase = \"W1901A\"\nunits = [\"RUS A mos\"]\norders = [\"RUS BUILD F stp/nc\"]\n");
    assert_eq!(outcome(&v, "RUS F stp/nc B"), "succeeds");
    let events = v["events"].as_array().unwrap();
    assert!(
        events.contains(&"RUS leaves 2 builds unused.".into()),
        "{events:?}"
    );
    // Austria owns Serbia and Greece too, and stands on every home centre.
    let v = run(
        "phase = \"W1901A\"\nunits = [\"AUS A vie\", \"AUS A bud\", \"AUS F tri\"]\norders = []\n[supply_centers]\nvie = \"AUS\"\nbud = \"AUS\"\ntri = \"AUS\"\nser = \"AUS\"\ngre = \"AUS\"\n",
    );
    let events = v["events"].as_array().unwrap();
    assert!(
        events.contains(&"AUS leaves 2 builds unused (0 free home centres).".into()),
        "{events:?}"
    );
}

/// A winter receipt plays the power's builds and removals as the adjudication will: a
/// build or a WAIVE beyond those owed is refused at once, not receipted "ok".
#[test]
fn a_winter_receipt_refuses_builds_beyond_those_owed() {
    let s = pbem::rules::diplomacy::scenario::Scenario::from_toml(
        "phase = \"W1901A\"\nunits = [\"AUS A ser\", \"AUS A gre\", \"AUS F alb\"]\norders = []\n[supply_centers]\nvie = \"AUS\"\nbud = \"AUS\"\ntri = \"AUS\"\nser = \"AUS\"\ngre = \"AUS\"\n",
    )
    .unwrap()
    .state;
    let got = shown(&Diplomacy::check(
        &s,
        "AUS",
        "A vie B\nF tri B\nA bud B\nWAIVE\n",
    ));
    assert_eq!(
        got,
        [
            "AUS A vie B",
            "AUS F tri B",
            "REFUSED A bud B: AUS A bud B (no builds left)",
            "REFUSED WAIVE: AUS WAIVE (no builds left)",
        ]
    );
}

/// The winter board says how many builds a power is owed and, when its free home
/// centres are fewer, how many it can use: Austria owes 3 with only Budapest and Vienna
/// free.
#[test]
fn the_winter_board_tells_the_builds_owed_and_how_many_are_possible() {
    let s = pbem::rules::diplomacy::scenario::Scenario::from_toml(
        "phase = \"W1901A\"\nunits = [\"AUS A tri\", \"AUS A ser\", \"AUS A gre\", \"AUS A bul\", \"RUS A mos\", \"GER A kie\", \"GER A ber\", \"GER A mun\", \"GER A ruh\"]\n[supply_centers]\nvie = \"AUS\"\nbud = \"AUS\"\nrum = \"AUS\"\nstp = \"RUS\"\n",
    )
    .unwrap()
    .state;
    let board = pbem::rules::diplomacy::report::board_text(&s);
    assert!(
        board.contains("\n  builds: 3, 2 possible (free home centres: bud, vie)\n"),
        "{board}"
    );
    // Russia owns all four home centres and stands in Moscow: 3 owed, 3 possible.
    assert!(
        board.contains("\n  builds: 3 (free home centres: war, sev, stp)\n"),
        "{board}"
    );
    assert!(board.contains("\n  removals: 1\n"), "{board}");
}

#[test]
fn datc_6_b_14_a_build_needs_a_coast() {
    let v = run(
        "phase = \"W1901A\"\nunits = [\"RUS A mos\"]\norders = [\"RUS BUILD F stp\", \"RUS BUILD F stp/nc\"]\n",
    );
    assert_eq!(outcome(&v, "RUS F stp B"), "invalid");
    assert_eq!(outcome(&v, "RUS F stp/nc B"), "succeeds");
    // The refusal names the coasts to choose from, as in movement.
    let s = pbem::rules::diplomacy::scenario::Scenario::from_toml(
        "phase = \"W1901A\"\nunits = [\"RUS A mos\"]\n",
    )
    .unwrap()
    .state;
    assert_eq!(
        shown(&Diplomacy::check(&s, "RUS", "Build F stp")),
        ["REFUSED Build F stp: RUS F stp B (say which coast of stp: stp/nc or stp/sc)"]
    );
    assert!(v["units"]
        .as_array()
        .unwrap()
        .contains(&"RUS F stp/nc".into()));
}

#[test]
fn datc_6_i_2_no_fleet_built_inland() {
    let v = run("phase = \"W1901A\"\nunits = [\"RUS A stp\"]\norders = [\"RUS BUILD F mos\"]\n");
    assert_eq!(outcome(&v, "RUS F mos B"), "invalid");
    assert!(!v["units"].as_array().unwrap().contains(&"RUS F mos".into()));
}

/// The spring of DATC 6.H.2, which leaves fleets of England and Russia dislodged.
const DATC_6_H_2_SPRING: &str = r#"[[prior_orders]]
order = "ENG A lvp - edi"
[[prior_orders]]
order = "ENG F yor S A lvp - edi"
[[prior_orders]]
order = "ENG F nwy H"
[[prior_orders]]
order = "GER A kie S A ruh - hol"
[[prior_orders]]
order = "GER A ruh - hol"
[[prior_orders]]
order = "RUS F edi H"
[[prior_orders]]
order = "RUS A swe S A fin - nwy"
[[prior_orders]]
order = "RUS A fin - nwy"
[[prior_orders]]
order = "RUS F hol H"
"#;

#[test]
fn datc_6_h_2_no_supports_from_a_retreating_unit() {
    let v = run(&format!(
        "phase = \"S1901R\"\norders = [\"ENG F nwy R nth\", \"RUS F edi R nth\", \"RUS F hol S F edi - nth\"]\n{DATC_6_H_2_SPRING}"
    ));
    assert_eq!(outcome(&v, "ENG F nwy R nth"), "fails");
    assert_eq!(outcome(&v, "RUS F edi R nth"), "fails");
    assert_eq!(outcome(&v, "RUS F hol S"), "invalid");
    let units = v["units"].as_array().unwrap();
    assert!(!units.iter().any(|u| u.as_str().unwrap().ends_with("nth")));
    // The three fleets are gone: two bounced, the third did not retreat.
    assert_eq!(units.len(), 6, "{units:?}");
}

#[test]
fn orders_as_players_write_them_are_echoed_canonically() {
    let s = State::standard(Options::default());
    let text = "A PAR-BUR\nF bre - mao\nMarseilles - Spain\n# a comment\n> quoted\nA par - bur\n";
    let got = shown(&Diplomacy::check(&s, "FRA", text));
    assert_eq!(
        got,
        [
            // The same order again replaces the first (the adjudication keeps the last).
            "REPLACED A PAR-BUR: FRA A par - bur (replaced by a later order for the same unit)",
            "FRA F bre - mao",
            "FRA A mar - spa",
            "FRA A par - bur"
        ]
    );
    let refused = Diplomacy::check(
        &s,
        "FRA",
        "A vie - bud\nF bre - par\nA xyz - bur\nGER A mun H\nA par\n",
    );
    assert_eq!(refused.len(), 5);
    for c in &refused {
        match c {
            LineCheck::Refused { reason, .. } => assert!(!reason.is_empty()),
            other => panic!("accepted {other:?}"),
        }
    }
    let LineCheck::Refused { reason, .. } = &refused[0] else {
        panic!()
    };
    assert!(reason.contains("AUS"), "{reason}");
    let LineCheck::Refused { reason, .. } = &refused[3] else {
        panic!()
    };
    assert!(reason.contains("you play FRA"), "{reason}");
}

#[test]
fn supports_convoys_coasts_and_builds_read_in_every_habit() {
    let s = State::standard(Options::default());
    let ok = |power: &str, line: &str, want: &str| {
        let c = Diplomacy::check(&s, power, line);
        assert_eq!(
            c,
            vec![LineCheck::Accepted { order: want.into() }],
            "{line}"
        );
    };
    ok("GER", "A MUN S A BER - KIE", "GER A mun S A ber - kie");
    ok("GER", "A mun supports F kie", "GER A mun S F kie");
    ok("RUS", "F STP/SC - BOT", "RUS F stp/sc - bot");
    ok(
        "RUS",
        "F St Petersburg(sc) - Gulf of Bothnia",
        "RUS F stp/sc - bot",
    );
    ok("TUR", "TUR A con - bul", "TUR A con - bul");
    ok("ENG", "F lon - nth", "ENG F lon - nth");
    ok("ENG", "England: A lvp - yor", "ENG A lvp - yor");
    ok("ITA", "DRAW", "ITA DRAW");
}

/// A fleet's move written without the coast, when only one coast can be meant, is
/// echoed and listed with that coast (the scenario spec's canonical form); when two can
/// be, the line is refused with both named.
#[test]
fn a_fleet_move_without_a_coast_is_echoed_with_the_one_it_reaches() {
    let s = pbem::rules::diplomacy::scenario::Scenario::from_toml(
        "phase = \"S1901M\"\nunits = [\"TUR F bla\", \"TUR F con\"]\n",
    )
    .unwrap()
    .state;
    assert_eq!(
        shown(&Diplomacy::check(&s, "TUR", "F bla - bul\nF con - bul")),
        [
            "TUR F bla - bul/ec",
            "REFUSED F con - bul: TUR F con - bul (say which coast of bul: bul/ec or bul/sc)"
        ]
    );
    let v = run("phase = \"S1901M\"\nunits = [\"TUR F bla\", \"FRA F gas\", \"FRA F mao\"]\norders = [\"TUR F bla - bul\", \"FRA F gas - spa\", \"FRA F mao - spa\"]\n");
    assert_eq!(outcome(&v, "TUR F bla - bul/ec"), "succeeds");
    assert_eq!(outcome(&v, "FRA F gas - spa/nc"), "succeeds");
    assert_eq!(outcome(&v, "FRA F mao - spa"), "invalid");
    assert!(v["units"]
        .as_array()
        .unwrap()
        .contains(&"TUR F bul/ec".into()));
}

/// The ordered unit's coast written wrongly does not matter (DATC 4.B.5, 6.B.10): the
/// order stands for the fleet where it is, and the receipt and the results say so
/// plainly when the player wrote another coast.
#[test]
fn a_wrong_coast_on_the_ordered_fleet_is_said_plainly() {
    let text = "phase = \"S1901M\"\nunits = [\"RUS F stp/nc\"]\n";
    let s = pbem::rules::diplomacy::scenario::Scenario::from_toml(text)
        .unwrap()
        .state;
    assert_eq!(
        Diplomacy::check(&s, "RUS", "F stp/sc - bot\nF stp/sc - bar"),
        vec![
            LineCheck::Replaced {
                line: "F stp/sc - bot".into(),
                reason: "RUS F stp/nc - bot (replaced by a later order for the same unit)".into()
            },
            LineCheck::Noted {
                order: "RUS F stp/nc - bar".into(),
                mark: "ok",
                note: "the fleet is on stp/nc, not stp/sc".into()
            },
        ]
    );
    assert_eq!(
        shown(&Diplomacy::check(&s, "RUS", "F stp/sc - bot")),
        ["REFUSED F stp/sc - bot: RUS F stp/nc - bot (the fleet is on stp/nc, not stp/sc; stp/nc does not border bot)"]
    );
    let v = run(&format!("{text}orders = [\"RUS F stp/sc - bot\"]\n"));
    let r = &v["results"][0];
    assert_eq!(r["order"], "RUS F stp/nc - bot");
    assert_eq!(r["outcome"], "invalid");
    assert_eq!(
        r["detail"],
        "the fleet is on stp/nc, not stp/sc; stp/nc does not border bot; holds"
    );
    // The coast it is on, written or not, is no news.
    assert_eq!(
        Diplomacy::check(&s, "RUS", "F stp/nc - bar\n"),
        vec![LineCheck::Accepted {
            order: "RUS F stp/nc - bar".into()
        }]
    );
}

fn orders(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

#[test]
fn a_draw_needs_every_surviving_power_in_the_same_phase() {
    let s = State::standard(Options::default());
    let all = ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"];
    let mut six: Vec<(&str, &str)> = all.iter().map(|p| (*p, "DRAW")).collect();
    six.pop();
    let (next, _) = Diplomacy::adjudicate(&s, &orders(&six), 0);
    assert!(!next.over, "six of seven is no draw");
    six.push(("TUR", "A con - bul\nDRAW"));
    let (next, report) = Diplomacy::adjudicate(&s, &orders(&six), 0);
    assert!(next.over);
    assert_eq!(next.winners.len(), 7);
    assert!(report.events.iter().any(|e| e.contains("draw")));
    // The moves of the phase still happen.
    assert!(next.units.iter().any(|u| s.map().loc_id(u.loc) == "bul"));
    assert!(Diplomacy::owing(&next).is_empty());
}

/// A draw voted in a fall movement phase: that fall's centres change hands before the
/// game ends (as with `last_year`), so the final standings count Bulgaria as Turkish.
#[test]
fn a_draw_in_the_fall_counts_that_falls_centre_changes() {
    let v = run(
        "phase = \"F1901M\"\nunits = [\"FRA A par\", \"GER A mun\", \"ENG F lon\", \"ITA A ven\", \"AUS A vie\", \"RUS A war\", \"TUR A con\"]\norders = [\"FRA A par - bur\", \"TUR A con - bul\", \"FRA DRAW\", \"GER DRAW\", \"ENG DRAW\", \"ITA DRAW\", \"AUS DRAW\", \"RUS DRAW\", \"TUR DRAW\"]\n",
    );
    assert_eq!(v["over"], true);
    assert_eq!(v["draw"].as_array().unwrap().len(), 7);
    assert_eq!(
        v["supply_centers"]["bul"], "TUR",
        "{:#}",
        v["supply_centers"]
    );
    assert_eq!(v["centres"]["TUR"]["centres"], 4);
    let events = v["events"].as_array().unwrap();
    assert!(events.contains(&"TUR takes Bulgaria".into()), "{events:?}");
    // In spring nothing changes hands.
    let v = run(
        "phase = \"S1901M\"\nunits = [\"TUR A con\"]\norders = [\"TUR A con - bul\", \"FRA DRAW\", \"GER DRAW\", \"ENG DRAW\", \"ITA DRAW\", \"AUS DRAW\", \"RUS DRAW\", \"TUR DRAW\"]\n",
    );
    assert_eq!(v["over"], true);
    assert_eq!(v["supply_centers"].get("bul"), None);
}

#[test]
fn a_year_runs_spring_fall_winter_with_centres_changing_hands_after_the_fall() {
    let s = State::standard(Options::default());
    let (s, _) = Diplomacy::adjudicate(
        &s,
        &orders(&[("RUS", "A war - gal"), ("AUS", "A vie - tyr")]),
        0,
    );
    assert_eq!(s.phase.code(), "F1901M");
    let (s, rep) = Diplomacy::adjudicate(
        &s,
        &orders(&[("TUR", "A con - bul"), ("RUS", "A gal - rum")]),
        0,
    );
    assert_eq!(s.phase.code(), "W1901A");
    assert!(
        rep.events.iter().any(|e| e.contains("takes Bulgaria")),
        "{:?}",
        rep.events
    );
    let tur = s.map().power_by_id("TUR").unwrap();
    assert_eq!(s.centres_of(tur), 4);
    assert_eq!(Diplomacy::owing(&s), ["RUS", "TUR"]);
    let (s, _) = Diplomacy::adjudicate(
        &s,
        &orders(&[("TUR", "BUILD F smy\nBUILD A con"), ("RUS", "WAIVE")]),
        0,
    );
    assert_eq!(s.phase.code(), "S1902M");
    assert_eq!(
        s.units_of(tur),
        4,
        "one build: Smyrna is occupied, Constantinople free"
    );
}

#[test]
fn a_missing_retreat_disbands_and_too_few_removals_fall_to_civil_disorder() {
    let v = run(r#"
phase = "S1901R"
orders = []
[[prior_orders]]
order = "AUS A vie H"
[[prior_orders]]
order = "ITA A tyr - vie"
[[prior_orders]]
order = "ITA A boh S A tyr - vie"
"#);
    assert!(v["units"]
        .as_array()
        .unwrap()
        .iter()
        .all(|u| u != "AUS A vie"));
    let line = &v["results"][0];
    assert_eq!(line["order"], "AUS A vie D");
    assert_eq!(line["default"], true);
    let v = run("phase = \"W1901A\"\nunits = [\"FRA A par\", \"FRA A bur\", \"FRA A gas\", \"FRA A pic\"]\noccupiers = { bre = \"ENG\", mar = \"ITA\" }\norders = []\n");
    // Paris owned, three removals; Paris itself (distance 0) stays.
    assert_eq!(v["civil_disorder"].as_array().unwrap().len(), 3);
    assert_eq!(v["units"], serde_json::json!(["FRA A par"]));
}

#[test]
fn eighteen_centres_win_after_the_fall() {
    let mut s = State::standard(Options::default());
    s.phase = pbem::rules::diplomacy::state::Phase::parse("F1905M").unwrap();
    let map = s.map();
    let fra = map.power_by_id("FRA").unwrap();
    let (ger, ita) = (
        map.power_by_id("GER").unwrap(),
        map.power_by_id("ITA").unwrap(),
    );
    s.units.retain(|u| u.power != ger && u.power != ita);
    let mut n = 0;
    for (k, p) in map.provinces.iter().enumerate() {
        let free = s.unit_in(k as u8).is_none_or(|u| u.power == fra);
        if p.centre && free && n < 18 {
            s.owners[k] = Some(fra);
            n += 1;
        }
    }
    let (next, rep) = adjudicate(&s, &as_given(&given(&s, &BTreeMap::new())));
    assert!(next.over);
    assert_eq!(next.winners, vec![fra]);
    assert!(rep.events.iter().any(|e| e.contains("wins")));
}

#[test]
fn damaged_scenarios_are_one_line_errors() {
    for (text, want) in [
        (
            "phase = \"S1901M\"\nunits = [\"AUS A xyz\"]\n",
            "unknown province",
        ),
        (
            "phase = \"S1901M\"\nunits = [\"AUS F vie\"]\n",
            "cannot stand",
        ),
        (
            "phase = \"S1901M\"\nunits = [\"AUS A vie\", \"ITA A vie\"]\n",
            "two units",
        ),
        ("phase = \"S1901M\"\nunitz = []\n", "unknown key `unitz`"),
        ("phase = \"X1901M\"\n", "unknown phase"),
        ("phase = \"S1901R\"\n", "prior_orders"),
        (
            "phase = \"S1901M\"\nedition = \"1066\"\n",
            "unknown edition",
        ),
        (
            "phase = \"S1901M\"\n[options]\nparadox = \"all-hold\"\n",
            "szykman",
        ),
    ] {
        let e = adjudicate_text(text).expect_err(text);
        assert!(e.contains(want), "{text}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn the_shipped_games_toml_has_a_diplomacy_game_of_seven() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games.toml");
    let config = pbem::config::Config::load(&path).expect("games.toml reads");
    let g = config
        .games
        .iter()
        .find(|g| g.rules == pbem::rules::RuleSetId::Diplomacy)
        .expect("a Diplomacy game");
    assert_eq!(g.players.len(), 7);
    assert_eq!(g.phase_length("spring"), chrono::Duration::hours(72));
    assert_eq!(g.phase_length("winter"), chrono::Duration::hours(24));
}

/// What a winter receipt says under the orders standing (`Play::receipt_notes`): the
/// builds owed in the board's words, how many the orders build or waive, and what is
/// left: builds that may still be ordered (waived at the deadline without an order),
/// builds no free home centre is left for; removals owed, and the units civil disorder
/// removes at the deadline without more orders, named.
#[test]
fn a_winter_receipt_counts_the_adjustments_owed_ordered_and_left() {
    use pbem::rules::game::Play;
    let s = pbem::rules::diplomacy::scenario::Scenario::from_toml(
        "phase = \"W1901A\"\nunits = [\"AUS A tri\", \"AUS A ser\", \"AUS A gre\", \"AUS A bul\", \"GER A kie\", \"GER A ber\", \"GER A mun\", \"GER A ruh\", \"RUS A mos\", \"RUS A war\", \"RUS F sev\", \"RUS F stp/sc\"]\n[supply_centers]\nvie = \"AUS\"\nbud = \"AUS\"\nrum = \"AUS\"\n",
    )
    .unwrap()
    .state;
    let notes = |power: &str, orders: &str| s.receipt_notes(power, orders).join("\n");
    // Austria: 3 builds owed, Budapest and Vienna free.
    assert_eq!(
        notes("AUS", ""),
        "Builds owed: 3, 2 possible (free home centres: bud, vie). No build is ordered yet. 2 builds may be ordered; without orders by the deadline, they are waived. The other 1 cannot be built (too few free home centres) and is waived."
    );
    assert_eq!(
        notes("AUS", "Build A vie\nWAIVE"),
        "Builds owed: 3, 2 possible (free home centres: bud, vie). Your orders build 1 and waive 1. 1 more build may be ordered; without an order by the deadline, it is waived."
    );
    assert_eq!(
        notes("AUS", "Build A vie\nBuild F bud\nBuild A bud"),
        "Builds owed: 3, 2 possible (free home centres: bud, vie). Your orders build 2: nothing more can be built (no free home centre is left), and the 1 build left is waived."
    );
    // A refused line counts for nothing.
    assert_eq!(
        notes("AUS", "Build A tri"),
        "Builds owed: 3, 2 possible (free home centres: bud, vie). No build is ordered yet. 2 builds may be ordered; without orders by the deadline, they are waived. The other 1 cannot be built (too few free home centres) and is waived."
    );
    // Germany: 4 units on 3 centres.
    assert_eq!(
        notes("GER", "A ruh H"),
        "Removals owed: 1. No removal is ordered yet. 1 unit must be removed; without an order by the deadline, civil disorder removes GER A ruh."
    );
    // A power owing nothing is told nothing.
    assert_eq!(notes("RUS", ""), "");

    // England: 5 units on its 3 home centres; the fleets farthest from them go first.
    let s = pbem::rules::diplomacy::scenario::Scenario::from_toml(
        "phase = \"W1901A\"\nunits = [\"ENG F lon\", \"ENG F edi\", \"ENG A lvp\", \"ENG F mao\", \"ENG F nao\"]\n",
    )
    .unwrap()
    .state;
    let notes = |orders: &str| s.receipt_notes("ENG", orders).join("\n");
    assert_eq!(
        notes(""),
        "Removals owed: 2. No removal is ordered yet. 2 units must be removed; without orders by the deadline, civil disorder removes ENG F mao and ENG F nao."
    );
    assert_eq!(
        notes("Remove F lon"),
        "Removals owed: 2. Your orders remove 1. 1 more unit must be removed; without an order by the deadline, civil disorder removes ENG F mao."
    );
    assert_eq!(
        notes("Remove F lon\nRemove F lon\nRemove F edi\nRemove A lvp"),
        "Removals owed: 2. Your orders remove 2: nothing is left to order."
    );
    // Not in a movement phase.
    let s = State::standard(Options::default());
    assert!(s.receipt_notes("ENG", "F lon H").is_empty());
}

/// What a retreat receipt says under the orders standing (`Play::receipt_notes`): the
/// power's dislodged units, how many its orders retreat or disband, and each unit left
/// without an order, with where it may go: it disbands at the deadline. Two of the
/// power's own units retreating to one province both disband, and the note says so.
#[test]
fn a_retreat_receipt_names_the_dislodged_units_left_without_an_order() {
    use pbem::rules::game::Play;
    let s = pbem::rules::diplomacy::scenario::Scenario::from_toml(&format!(
        "phase = \"S1901R\"\n{DATC_6_H_2_SPRING}"
    ))
    .unwrap()
    .state;
    let notes = |power: &str, orders: &str| s.receipt_notes(power, orders).join("\n");
    // Russia: two fleets dislodged.
    assert_eq!(
        notes("RUS", ""),
        "Dislodged units: 2. No orders yet for RUS F edi (may retreat to cly, nth or nwg) and RUS F hol (may retreat to bel, hel or nth): without orders by the deadline, they disband."
    );
    assert_eq!(
        notes("RUS", "F edi R nth"),
        "Dislodged units: 2. Your orders retreat 1. No order yet for RUS F hol (may retreat to bel, hel or nth): without an order by the deadline, it disbands."
    );
    assert_eq!(
        notes("RUS", "F edi - nwg\nF hol D"),
        "Dislodged units: 2. Your orders retreat 1 and disband 1: nothing is left to order."
    );
    // Two retreats to one province: both disband.
    assert_eq!(
        notes("RUS", "F edi R nth\nF hol R nth"),
        "Dislodged units: 2. Your orders retreat 2: nothing is left to order. RUS F edi and RUS F hol both retreat to nth: both disband."
    );
    // A refused line counts for nothing, and a later refused order for a unit replaces
    // the earlier one, as the adjudication has it.
    assert_eq!(
        notes("RUS", "F edi R yor\nF hol R nth\nF hol R kie\nF hol H"),
        "Dislodged units: 2. No orders yet for RUS F edi (may retreat to cly, nth or nwg) and RUS F hol (may retreat to bel, hel or nth): without orders by the deadline, they disband."
    );
    // England: one fleet, disbanded by its orders.
    assert_eq!(
        notes("ENG", "F nwy D"),
        "Dislodged units: 1. Your orders disband 1: nothing is left to order."
    );
    // A power with nothing dislodged is told nothing.
    assert_eq!(notes("GER", ""), "");
    // Not in a movement phase.
    let s = State::standard(Options::default());
    assert!(s.receipt_notes("RUS", "").is_empty());
}
