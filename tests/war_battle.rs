//! War! battles as the results mails tell them and results.json records them: the
//! order of a battle's lines among the events, each side's DRM part by part, the
//! brigades that sit a round out.

use std::path::Path;

use pbem::rules::war_imperialism::{self as war};
use serde_json::Value;

/// A case file of `tests/cases/war-imperialism/` played: its results.json and the
/// lines of the results mail's events.
fn played(case: &str) -> (Value, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases/war-imperialism")
        .join(case);
    let (text, _) = crate::war_cases::scenario_text(&path);
    let dir = path.parent().unwrap();
    let json = pbem::scenario::adjudicate_text(&text, dir).unwrap();
    let sc = war::scenario::Scenario::from_toml(&text, dir).unwrap();
    let (after, log) = war::adjudicate_with_dice(&sc.state, &sc.orders, sc.seed, &sc.dice);
    let events = war::report::results_view(&after, &log).events;
    (serde_json::from_str(&json).unwrap(), events)
}

/// A side's DRM parts in a round of results.json, as `part drm` words.
fn parts(out: &Value, battle: usize, round: usize, side: &str) -> Vec<String> {
    out["battles"][battle]["rounds"][round]["drm_parts"][side]
        .as_array()
        .unwrap_or_else(|| panic!("drm_parts in {}", out["battles"]))
        .iter()
        .map(|p| {
            let count = p
                .get("count")
                .map(|n| format!(" of {n}"))
                .unwrap_or_default();
            format!("{}{count} {}", p["part"].as_str().unwrap(), p["drm"])
        })
        .collect()
}

/// `line` is among the events, as a battle's line (indented under the battle's first
/// line, which is not).
fn has_line(events: &[String], line: &str) {
    assert!(
        events.iter().any(|e| e.strip_prefix("  ") == Some(line)),
        "{line:?} in {events:#?}"
    );
    for (k, e) in events.iter().enumerate() {
        if e.starts_with("Battle at ") {
            let rest = events[k + 1..]
                .iter()
                .take_while(|l| !l.starts_with('[') && !l.starts_with("Battle at "));
            assert!(rest.clone().count() > 0, "{events:#?}");
            assert!(rest.into_iter().all(|l| l.starts_with("  ")), "{events:#?}");
        }
    }
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
    assert!(board.starts_with("Movement order of turn "), "{board}");
}

/// W6.3, W11.4: the mail lists each side's DRM part by part before its dice, and
/// results.json has the parts beside the DRM: general, schools (with their number),
/// a fort, a side below 0 set to 0 and the other side's gain, the transfer; a side
/// with nothing in its DRM has no such line.
#[test]
fn w6_3_each_sides_drm_is_shown_part_by_part() {
    // General +1 and two schools +1 against the natives, who have nothing.
    let (out, events) = played("w6_2_every_brigade_rolls_hits_by_band.toml");
    has_line(&events, "round 1, red: DRM +2 (general +1, 2 schools +1)");
    has_line(&events, "round 1, red: DRM +2; CAV+1 3; ART+2 6 -> 3 hits");
    assert_eq!(
        parts(&out, 0, 0, "attacker"),
        ["general 1", "schools of 2 1"]
    );
    assert_eq!(parts(&out, 0, 0, "defender"), Vec::<String>::new());
    assert!(
        !events.iter().any(|e| e.contains("natives: DRM +0 (")),
        "{events:#?}"
    );
    // Attacking a fort: -2, set to 0; the defender gains the 2.
    let (out, events) = played("w6_3_a_fort_below_zero_gives_the_defender_its_drm.toml");
    has_line(&events, "round 1, red: DRM +0 (fort -2, set to 0 +2)");
    has_line(&events, "round 1, blue: DRM +2 (gained from red +2)");
    assert_eq!(parts(&out, 0, 0, "attacker"), ["fort -2", "set_to_0 2"]);
    assert_eq!(parts(&out, 0, 0, "defender"), ["from_other_side 2"]);
    // The only general transfers: both sides lowered by 1.
    let (out, events) = played("w6_3_transfer_auto_lowers_both_when_outnumbered.toml");
    has_line(&events, "round 1, red: DRM +0 (general +1, transfer -1)");
    has_line(&events, "round 1, blue: DRM +0 (2 schools +1, transfer -1)");
    assert_eq!(parts(&out, 0, 0, "attacker"), ["general 1", "transfer -1"]);
    assert_eq!(
        parts(&out, 0, 0, "defender"),
        ["schools of 2 1", "transfer -1"]
    );
    // At sea (W6.8): a port on the sea.
    let (out, events) = played("w6_8_a_port_on_the_sea_adds_one.toml");
    has_line(&events, "round 2, red: DRM +1 (port +1)");
    assert_eq!(parts(&out, 0, 1, "attacker"), ["port 1"]);
    assert_eq!(parts(&out, 0, 1, "defender"), Vec::<String>::new());
}

/// W6.6: brigades that retreated into a region before its battle sit out its first
/// round, and the mail says so (the dice would look short); results.json has them
/// under `sat_out`, in that round only.
#[test]
fn w6_6_the_mail_names_the_brigades_that_sit_out_a_round_and_why() {
    let (out, events) =
        played("w6_6_units_retreating_into_a_battle_to_come_sit_out_its_first_round.toml");
    let ottoman = out["battles"]
        .as_array()
        .unwrap()
        .iter()
        .position(|b| b["at"] == "Ottoman")
        .unwrap();
    let rounds = &out["battles"][ottoman]["rounds"];
    assert_eq!(
        rounds[0]["sat_out"],
        serde_json::json!({"attacker": null, "defender": {"units": {"INF": 2}, "why": "retreated_in"}})
    );
    assert!(rounds[1].get("sat_out").is_none(), "{}", rounds[1]);
    // The Levant battle before it: everybody rolled.
    assert!(out["battles"][0]["rounds"][0].get("sat_out").is_none());
    let sits = "round 1, blue: 2 INF sit out, having retreated here before this battle: no roll in its first round (W6.6)";
    has_line(&events, sits);
    let at = |line: &str| events.iter().position(|e| e.trim_start() == line).unwrap();
    assert_eq!(
        at(sits) + 1,
        at("round 1, blue: DRM +0; INF 1, 1, 1 -> 0 hits"),
        "{events:#?}"
    );
    assert_eq!(
        events.iter().filter(|e| e.contains(" sit out")).count(),
        1,
        "{events:#?}"
    );
    // In the extra round on brigades retreating onto their fleets only the enemy
    // rolls: the retreating side's line says why it has no dice.
    let (out, events) = played("w6_6_a_retreat_onto_fleets_costs_an_extra_round.toml");
    let extra = &out["battles"][0]["rounds"][1];
    assert_eq!(extra["extra"], true);
    assert_eq!(
        extra["sat_out"]["attacker"],
        serde_json::json!({"units": {"INF": 2}, "why": "retreating_onto_fleets"})
    );
    assert!(extra["sat_out"]["defender"].is_null());
    let line = "extra round, red: 2 INF do not roll, retreating onto the fleets: in the extra round only the enemy rolls (W6.6)";
    has_line(&events, line);
    assert_eq!(
        events.iter().position(|e| e.trim_start() == line).unwrap() + 1,
        events
            .iter()
            .position(|e| e
                .trim_start()
                .starts_with("extra round, natives: DRM +0; INF"))
            .unwrap(),
        "{events:#?}"
    );
}
