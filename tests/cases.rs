//! Scenario files with expectations: `tests/cases/<rule set>/<rule>_<what>.toml`.
//!
//! A case is a scenario (`../shared/specs/scenario-format.md`) plus an `[expect]`
//! table, checked against `pbem adjudicate`'s JSON. Every key of `[expect]` is optional:
//!
//! | key | checks |
//! |---|---|
//! | `next_phase`, `next_turn` | equal |
//! | `fleets` | the whole position, as `power@SECTOR` in output order |
//! | `stays` | `SECTOR=stay` for the fleets named |
//! | `produced` | `SECTOR=System` for the fleets named |
//! | `results` | each `power ORDER: outcome` is among the results |
//! | `details` | each `power ORDER: text` matches a result whose detail contains text |
//! | `not_results` | no result is `power ORDER: outcome` |
//! | `dislodged` | all, as `power@SECTOR from SECTOR: RETREATS…` |
//! | `destroyed` | all, as `power@SECTOR` |
//! | `systems` | `System = "power"` (or `"nobody"`) for the systems named |
//! | `placements_due` | all, as `power System: SECTORS…` |
//! | `standoffs` | all |
//! | `winner` | `"none"`, a power, or a list |
//! | `rolls` | the dice rolled, in order |

use std::path::Path;

use serde_json::Value;

fn strings(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("output has no list {key}"))
        .iter()
        .map(|x| x.as_str().expect("string").to_string())
        .collect()
}

fn list(expect: &toml::Table, key: &str) -> Option<Vec<String>> {
    expect.get(key).map(|v| {
        v.as_array()
            .unwrap_or_else(|| panic!("expect.{key} must be a list"))
            .iter()
            .map(|x| x.as_str().expect("expect lists hold strings").to_string())
            .collect()
    })
}

/// Each result as (`power ORDER: outcome`, `power ORDER: detail`).
pub fn result_lines(out: &Value) -> Vec<(String, String)> {
    result_lines_by(out, "power")
}

/// [`result_lines`] with the result's owner under `who` (War! says `player`).
pub fn result_lines_by(out: &Value, who: &str) -> Vec<(String, String)> {
    out["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let head = format!(
                "{} {}",
                r[who].as_str().unwrap(),
                r["order"].as_str().unwrap()
            );
            (
                format!("{head}: {}", r["outcome"].as_str().unwrap()),
                format!("{head}: {}", r["detail"].as_str().unwrap()),
            )
        })
        .collect()
}

/// An `[expect]` list (none: empty), for the cases of the games after the first.
pub fn expected(expect: &toml::Table, key: &str) -> Vec<String> {
    match expect.get(key) {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .unwrap_or_else(|| panic!("expect.{key} must be a list"))
            .iter()
            .map(|x| x.as_str().expect("strings").to_string())
            .collect(),
    }
}

/// The expectations every game's cases share, on `pbem adjudicate`'s JSON: `results`
/// (each `who ORDER: outcome` among the results), `details` (`who ORDER: text`: a
/// result of that order whose detail contains the text), `events` (`STEP: text`: an
/// event of that step whose text contains it) and `no_events` (no event's text
/// contains it). `who` names the results' owner key. The first mismatch, if any.
pub fn check_lines(out: &Value, expect: &toml::Table, who: &str) -> Result<(), String> {
    let results = result_lines_by(out, who);
    for want in expected(expect, "results") {
        if !results.iter().any(|(r, _)| *r == want) {
            return Err(format!("no result {want:?}"));
        }
    }
    for want in expected(expect, "details") {
        let (head, text) = want.split_once(": ").expect("`who ORDER: text`");
        if !results
            .iter()
            .any(|(_, d)| d.starts_with(&format!("{head}: ")) && d[head.len() + 2..].contains(text))
        {
            return Err(format!("no result detail {want:?}"));
        }
    }
    let events: Vec<(&str, &str)> = out["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| {
            (
                e["step"].as_str().unwrap_or(""),
                e["text"].as_str().unwrap_or(""),
            )
        })
        .collect();
    for want in expected(expect, "events") {
        let (step, text) = want.split_once(": ").expect("`STEP: text`");
        if !events.iter().any(|(s, t)| *s == step && t.contains(text)) {
            return Err(format!("no event {want:?}"));
        }
    }
    for not in expected(expect, "no_events") {
        if events.iter().any(|(_, t)| t.contains(&not)) {
            return Err(format!("unexpected event {not:?}"));
        }
    }
    Ok(())
}

/// Runs one case file and panics with every mismatch.
pub fn run(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut table: toml::Table = toml::from_str(&text).expect("case is TOML");
    let expect = match table.remove("expect") {
        Some(toml::Value::Table(t)) => t,
        _ => panic!("{path:?} has no [expect] table"),
    };
    let scenario = toml::to_string(&table).expect("re-serialise");
    let json = pbem::scenario::adjudicate_text(&scenario, path.parent().unwrap())
        .unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let out: Value = serde_json::from_str(&json).expect("JSON output");
    let mut problems = Vec::new();
    let results = result_lines(&out);
    for key in expect.keys() {
        let known = [
            "next_phase",
            "next_turn",
            "fleets",
            "stays",
            "produced",
            "results",
            "details",
            "not_results",
            "dislodged",
            "destroyed",
            "systems",
            "placements_due",
            "standoffs",
            "winner",
            "rolls",
        ];
        assert!(
            known.contains(&key.as_str()),
            "{path:?}: unknown expect key {key}"
        );
    }
    if let Some(v) = expect.get("next_phase") {
        if out["next_phase"].as_str() != v.as_str() {
            problems.push(format!("next_phase is {}, expected {v}", out["next_phase"]));
        }
    }
    if let Some(v) = expect.get("next_turn") {
        if out["next_turn"].as_i64() != v.as_integer() {
            problems.push(format!("next_turn is {}, expected {v}", out["next_turn"]));
        }
    }
    let fleets = out["fleets"].as_array().expect("fleets");
    let fleet_of = |at: &str| fleets.iter().find(|f| f["at"] == at);
    if let Some(want) = list(&expect, "fleets") {
        let got: Vec<String> = fleets
            .iter()
            .map(|f| {
                format!(
                    "{}@{}",
                    f["power"].as_str().unwrap(),
                    f["at"].as_str().unwrap()
                )
            })
            .collect();
        if got != want {
            problems.push(format!("fleets are {got:?}, expected {want:?}"));
        }
    }
    for (key, field) in [("stays", "stay"), ("produced", "produced_by")] {
        for item in list(&expect, key).unwrap_or_default() {
            let (at, value) = item.split_once('=').expect("SECTOR=value");
            match fleet_of(at) {
                None => problems.push(format!("{key}: no fleet at {at}")),
                Some(f) => {
                    let got = match &f[field] {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    if got != value {
                        problems.push(format!("{field} of {at} is {got}, expected {value}"));
                    }
                }
            }
        }
    }
    for want in list(&expect, "results").unwrap_or_default() {
        if !results.iter().any(|(r, _)| *r == want) {
            problems.push(format!("no result {want:?}"));
        }
    }
    for want in list(&expect, "not_results").unwrap_or_default() {
        if results.iter().any(|(r, _)| *r == want) {
            problems.push(format!("unexpected result {want:?}"));
        }
    }
    for want in list(&expect, "details").unwrap_or_default() {
        let (head, text) = want.split_once(": ").expect("power ORDER: text");
        let found = results
            .iter()
            .any(|(_, d)| d.starts_with(&format!("{head}: ")) && d.contains(text));
        if !found {
            problems.push(format!(
                "no result {head:?} with detail containing {text:?}"
            ));
        }
    }
    if let Some(want) = list(&expect, "dislodged") {
        let got: Vec<String> = out["dislodged"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{}@{} from {}: {}",
                    d["power"].as_str().unwrap(),
                    d["at"].as_str().unwrap(),
                    d["attacker_from"].as_str().unwrap(),
                    strings(d, "retreats").join(" ")
                )
            })
            .collect();
        if got != want {
            problems.push(format!("dislodged are {got:?}, expected {want:?}"));
        }
    }
    if let Some(want) = list(&expect, "destroyed") {
        let got: Vec<String> = out["destroyed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{}@{}",
                    d["power"].as_str().unwrap(),
                    d["at"].as_str().unwrap()
                )
            })
            .collect();
        if got != want {
            problems.push(format!("destroyed are {got:?}, expected {want:?}"));
        }
    }
    if let Some(toml::Value::Table(want)) = expect.get("systems") {
        for (name, owner) in want {
            let got = out["systems"][name].as_str().unwrap_or("nobody");
            if Some(got) != owner.as_str() {
                problems.push(format!("{name} is owned by {got}, expected {owner}"));
            }
        }
    }
    if let Some(want) = list(&expect, "placements_due") {
        let got: Vec<String> = out["placements_due"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                format!(
                    "{} {}: {}",
                    p["power"].as_str().unwrap(),
                    p["system"].as_str().unwrap(),
                    strings(p, "sectors").join(" ")
                )
            })
            .collect();
        if got != want {
            problems.push(format!("placements_due are {got:?}, expected {want:?}"));
        }
    }
    if let Some(want) = list(&expect, "standoffs") {
        let got = strings(&out, "standoffs");
        if got != want {
            problems.push(format!("standoffs are {got:?}, expected {want:?}"));
        }
    }
    if let Some(want) = expect.get("winner") {
        let got = &out["winner"];
        let ok = match want {
            toml::Value::String(s) if s == "none" => got.is_null(),
            toml::Value::String(s) => got.as_str() == Some(s),
            toml::Value::Array(a) => {
                let want: Vec<_> = a.iter().map(|x| x.as_str().unwrap()).collect();
                got.as_array().is_some_and(|g| {
                    g.iter().map(|x| x.as_str().unwrap()).collect::<Vec<_>>() == want
                })
            }
            _ => false,
        };
        if !ok {
            problems.push(format!("winner is {got}, expected {want}"));
        }
    }
    if let Some(toml::Value::Array(want)) = expect.get("rolls") {
        let got: Vec<i64> = out["dice"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["roll"].as_i64().unwrap())
            .collect();
        let want: Vec<i64> = want.iter().map(|x| x.as_integer().unwrap()).collect();
        if got != want {
            problems.push(format!("rolls are {got:?}, expected {want:?}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{}:\n  {}\n--- output ---\n{json}",
        path.display(),
        problems.join("\n  ")
    );
}

/// All case files of a rule set, by file stem.
pub fn files(rules: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases")
        .join(rules);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir:?}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

macro_rules! cases {
    ($rules:literal => $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/cases")
                    .join($rules)
                    .join(concat!(stringify!($name), ".toml"));
                run(&path);
            }
        )*

        /// Every case file has a test above, and every test a file.
        #[test]
        fn every_case_file_is_listed() {
            let listed: Vec<String> = vec![$(stringify!($name).to_string()),*];
            let mut listed_sorted = listed.clone();
            listed_sorted.sort();
            assert!(!listed.is_empty());
            assert_eq!(files($rules), listed_sorted, "tests/cases/{} and the cases! list differ", $rules);
        }
    };
}

mod foundation_empire {
    use super::*;

    cases!("foundation-empire" =>
        ex11_1_move_into_empty_sector,
        ex11_2_equal_moves_stand_off,
        ex11_3_pooled_supports_dislodge,
        ex11_4_defender_bonus_stands_off,
        ex11_5_own_fleet_blocks_move,
        ex11_6_occupation_of_rossem,
        r10_2_occupying_imperium_fleet_holds,
        r10_3_imperium_places_by_default,
        r10_3_imperium_retreats_by_default,
        r10_4_foundation_eliminated_imperium_wins,
        r10_4_foundation_wins_at_thirteen,
        r10_4_imperium_does_not_win_by_system_count,
        r10_4_solo_game_goes_on_before_turn_30,
        r10_4_solo_turn_limit_defaults_to_30,
        r10_4_turn_limit_imperium_wins,
        r1_1_sectors_are_case_insensitive,
        r1_2_diagonal_moves_and_no_wraparound,
        r1_3_setup_only_in_own_quadrant,
        r1_4_orders_may_name_systems,
        r1_5_board_loaded_from_file,
        r3_1_fleet_without_order_holds,
        r3_1_later_order_replaces_earlier,
        r3_2_accepted_spellings,
        r3_3_invalid_orders_are_reported_and_hold,
        r3_4_pooled_support_follows_the_seed_table,
        r3_4_targeted_support_adds_to_named_move_only,
        r3_5_supports_from_afar_are_never_cut,
        r4_1_attack_power_is_one_plus_supports,
        r4_2_defence_counts_neighbours_at_start_even_if_they_move,
        r4_3_vacated_sector_has_no_defender,
        r5_1_attack_must_exceed_defence,
        r5_1_stronger_of_two_moves_enters,
        r5_2_no_dislodging_own_fleet,
        r5_3_head_to_head_equal_both_stay,
        r5_3_head_to_head_stronger_dislodges_weaker,
        r5_3_loser_of_head_to_head_causes_no_standoff,
        r5_4_ring_broken_by_outside_attack,
        r5_4_ring_of_three_all_move,
        r5_5_failed_move_defends_origin,
        r5_6_fleet_whose_move_failed_is_dislodged,
        r6_1_retreats_exclude_occupied_attacker_origin_and_standoff,
        r6_2_no_retreat_destroyed_at_once,
        r6_3_retreat_order_spellings,
        r6_3_two_retreats_to_one_sector_both_destroyed,
        r6_4_no_retreat_order_takes_first_legal_sector,
        r7_1_setup_places_starting_fleets,
        r7_2_fixed_start_positions_need_no_setup,
        r7_3_setup_nmr_takes_first_free_home_systems,
        r8_1_stay_counts_consecutive_turns,
        r8_2_fourth_turn_on_system_captures_and_earns_fleet,
        r8_2_occupation_turns_option,
        r8_2_undefended_owned_system_is_taken,
        r8_3_capture_disbands_fleet_produced_for_previous_owner,
        r8_3_simultaneous_captures_all_stand,
        r8_4_a_sector_next_to_no_owing_system_names_those_that_owe,
        r8_4_new_fleet_placed_next_to_system,
        r8_4_no_room_new_fleet_lost,
        r8_4_place_naming_the_owing_system_itself_is_told_where_to_place,
        r8_4_placement_nmr_first_empty_sector,
        r8_5_occupying_fleet_may_move_and_resets,
        r8_6_one_power_twice_second_invalid,
        r8_6_two_powers_place_on_one_sector_both_lost,
        r9_1_equal_winners_share,
        r9_1_several_winners_most_systems_wins,
        r9_1_thirteen_systems_win,
        r9_2_last_power_standing_wins,
        r9_2_power_without_fleets_or_systems_is_eliminated,
        r9_3_turn_limit_most_systems_wins,
    );
}
