//! The DATC, every case: `tests/cases/diplomacy/datc-v3/` (171 DATC v3.0 chapter 6
//! cases with per-order expectations, copied from `../shared/datc/v3-cases/`) and
//! `tests/cases/diplomacy/datc-v2.4/` (DATC v2.4 cases with end states, from
//! `../shared/datc/v2.4-cases-end-states/`), each run through `pbem adjudicate` as
//! a player would run it, on the file exactly as shipped.
//!
//! What is checked, from a case's `[expect]`:
//! - `orders`: each order's outcome. `fails` is met by `fails` or `invalid` (an
//!   impossible order is ignored and fails, DATC 4.E.1); `succeeds` only by
//!   `succeeds`.
//! - `units`, `dislodged`, `civil_disorder`: the same set of units after the phase.
//!
//! Where a file and the DATC v3.0 text disagree, the DATC stands (`../shared/datc/
//! ERRATA.md`, README "Diplomacy: DATC"): [`CORRECTIONS`] replaces the file's
//! expectations with the DATC's answer and says why. Cases marked `ignore` are run
//! too, and checked against the DATC text's answer (the file's own expectation when
//! it agrees with the DATC).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The cases their files mark `ignore`, and what the test checks of each (the DATC
/// v3.0 text's answer).
pub const IGNORED: &[(&str, &str)] = &[
    ("t6b07_supporting_with_unspecified_coast", "6.B.7: the support without a coast counts; the Italian fleet bounces (the file's expectation)"),
    ("t6b08_supporting_with_unspecified_coast_when_only_one_coast_is_possible", "6.B.8: the support counts; the fleets bounce (the file's expectation)"),
    ("t6b15_supporting_foreign_unit_with_unspecified_coast", "6.B.15: the support counts, both fleets bounce (CORRECTIONS)"),
    ("t6g19_swapping_with_intent_of_unnecessary_convoy_2023", "6.G.19: the unneeded convoy order is illegal, no intent, both armies fail (the file's expectation)"),
    ("t6h01_no_supports_during_retreat", "6.H.1: the support is illegal, both fleets disband (CORRECTIONS)"),
    ("t6h02_no_supports_from_retreating_unit", "unreadable (`nor`): exit 2; 6.H.2 in diplomacy_rules"),
    ("t6h03_no_convoy_during_retreat", "6.H.3: the convoy is illegal, the army disbands (the file's expectation)"),
];

/// A correction: the case file (name without `.toml`) and what the DATC v3.0 says
/// instead, in the form of the file's `[expect]` (TOML), or `exit 2` for a file that
/// is not a readable scenario by the spec.
pub const CORRECTIONS: &[(&str, &str, &str)] = &[
    // DATC v3.0 cases (the files follow another adjudicator's options).
    (
        "t6a05_move_to_own_sector_with_convoy",
        "[orders]\n\"ENG A yor - yor\" = \"fails\"\n\"ENG A lvp S A yor - yor\" = \"fails\"\n\"GER F lon - yor\" = \"succeeds\"\n\"GER A wal S F lon - yor\" = \"succeeds\"",
        "6.A.5: the move is illegal, so its support is illegal too",
    ),
    (
        "t6b02_moving_with_unspecified_coast_when_coast_is_not_necessary",
        "[orders]\n\"FRA F gas - spa\" = \"succeeds\"",
        "6.B.2: the move goes to the only coast it can reach",
    ),
    (
        "t6b10_unit_ordered_with_wrong_coast",
        "[orders]\n\"FRA F spa/nc - lyo\" = \"succeeds\"",
        "6.B.10: the coast of the ordered unit is ignored; the move is attempted",
    ),
    (
        "t6b12_army_movement_with_coastal_specification",
        "[orders]\n\"FRA A gas - spa/nc\" = \"succeeds\"",
        "6.B.12: an army's coast is ignored; the move is attempted",
    ),
    (
        "t6b14_building_with_unspecified_coast",
        "exit 2",
        "the file makes `RUS F stp` a unit, which cannot stand there (spec); 6.B.14's build without a coast is checked by diplomacy_rules::datc_6_b_14_a_build_needs_a_coast",
    ),
    (
        "t6b15_supporting_foreign_unit_with_unspecified_coast",
        "[orders]\n\"FRA F por S F mao - spa\" = \"succeeds\"\n\"ENG F mao - spa/nc\" = \"fails\"\n\"ITA F wes - spa/sc\" = \"fails\"",
        "6.B.15 (marked ignore in the file): the support succeeds and both fleets bounce",
    ),
    (
        "t6g11_a_convoy_to_an_adjacent_place_with_a_paradox",
        "[orders]\n\"ENG F nth - ska\" = \"succeeds\"\n\"RUS A swe - nwy\" = \"fails\"",
        "6.G.11: no fallback to the land route; the fleet in Skagerrak is dislodged, the army does not advance",
    ),
    (
        "t6h01_no_supports_during_retreat",
        "[orders]\n\"AUS F tri R alb\" = \"fails\"\n\"TUR F gre R alb\" = \"fails\"",
        "6.H.1 (marked ignore in the file): the support is illegal, both fleets retreat to Albania and are disbanded",
    ),
    (
        "t6h02_no_supports_from_retreating_unit",
        "exit 2",
        "the file names a province `nor` that does not exist; 6.H.2 itself is checked by diplomacy_rules::datc_6_h_2_no_supports_from_a_retreating_unit",
    ),
    (
        "t6i02_fleets_can_not_be_build_in_land_areas",
        "exit 2",
        "the file makes `RUS F mos` a unit (a fleet inland): unreadable; 6.I.2 is checked by diplomacy_rules::datc_6_i_2_no_fleet_built_inland",
    ),
    (
        "t6j02_removing_the_same_unit_twice",
        "civil_disorder = [\"FRA F lyo\"]\n[orders]\n\"FRA A par D\" = \"succeeds\"",
        "6.J.2: Paris is removed, and another unit by the civil disorder rule (the fleet in the Gulf of Lyon, three from Paris)",
    ),
    (
        "t6j09_civil_disorder_must_be_counted_from_both_coasts_second_scenario_2023",
        "civil_disorder = [\"RUS A alb\"]",
        "6.J.9: the fleet in Skagerrak is two from St Petersburg by its north coast; the army (in Albania here) is removed",
    ),
    // DATC v2.4 cases: where v3.0 differs, v3.0 stands; fixed prestates give way to
    // the position the prior orders give.
    (
        "case_6.G.8",
        "units = [\"ENG A kie\", \"ENG F hel\", \"FRA A bel\"]",
        "v3.0 6.G.8: an explicit convoy that is not there does not fall back to the land route",
    ),
    (
        "case_6.H.14",
        "units = [\"ENG F eng\", \"FRA A bre\", \"FRA A pic\", \"GER A bur\", \"GER A mun\"]",
        "fixed prestate: the prior orders move Paris to Picardy and Marseilles to Burgundy; both retreats to Belgium disband",
    ),
    (
        "case_6.H.15",
        "units = [\"FRA F mao\", \"FRA F por\"]",
        "fixed prestate: the prior orders put the French fleet in Portugal; the English fleet cannot retreat and is disbanded",
    ),
    (
        "case_6.H.16",
        "units = [\"FRA F mao\", \"FRA F spa/nc\", \"ITA F tun\", \"ITA F wes\"]",
        "fixed prestate; and `F mao - spa` without a coast is illegal (6.B.1), so the fleet from Gascony takes the north coast and the dislodged fleet cannot retreat there",
    ),
    (
        "case_6.H.5",
        "units = [\"RUS F bla\", \"RUS F con\", \"TUR F ank\"]",
        "fixed prestate: the prior support is for `A ruh - hol` (no such unit), so the Black Sea fleet bounces and nothing is dislodged",
    ),
    (
        "case_6.H.5.mod",
        "units = [\"RUS F bla\", \"RUS F con\", \"TUR F ank\"]",
        "as case_6.H.5",
    ),
];

/// The ordered unit's coast as written does not matter (DATC 4.B.5): `FRA F spa/nc -
/// lyo` names the fleet on the south coast too. A fleet's destination written without
/// a coast is named with the one coast it can reach in the canonical order (`FRA F gas
/// - spa` is `FRA F gas - spa/nc`, DATC 6.B.2).
fn same_order(got: &str, want: &str) -> bool {
    let got: Vec<String> = got
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let want: Vec<String> = want
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let province = |w: &str| w.split('/').next().unwrap_or(w).to_string();
    got.len() == want.len()
        && got
            .iter()
            .zip(&want)
            .enumerate()
            .all(|(k, (g, w))| g == w || (k == 2 || !w.contains('/')) && province(g) == province(w))
}

fn pbem_adjudicate(path: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("adjudicate")
        .arg(path)
        .output()
        .expect("pbem runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn strings(v: Option<&toml::Value>) -> Option<BTreeSet<String>> {
    Some(
        v?.as_array()?
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect(),
    )
}

fn json_set(v: &Value, key: &str, field: Option<&str>) -> BTreeSet<String> {
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| match field {
            Some(f) => x[f].as_str().unwrap().to_string(),
            None => x.as_str().unwrap().to_string(),
        })
        .collect()
}

/// Checks one case; `Err` says what differs.
pub fn check_case(path: &Path) -> Result<(), String> {
    let name = path.file_stem().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    let mut expect = table
        .get("expect")
        .and_then(|e| e.as_table())
        .cloned()
        .unwrap_or_default();
    let (code, out, err) = pbem_adjudicate(path);
    if let Some((_, fix, why)) = CORRECTIONS.iter().find(|(n, _, _)| *n == name) {
        if *fix == "exit 2" {
            return if code == 2 && err.lines().count() == 1 {
                Ok(())
            } else {
                Err(format!(
                    "{name}: expected exit 2 ({why}), got {code}: {err}"
                ))
            };
        }
        expect = toml::from_str(fix).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    if code != 0 {
        return Err(format!("{name}: exit {code}: {err}"));
    }
    let v: Value = serde_json::from_str(&out).unwrap();
    let mut problems = Vec::new();
    if let Some(orders) = expect.get("orders").and_then(|o| o.as_table()) {
        for (order, want) in orders {
            let want = want.as_str().unwrap();
            let found = v["results"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| same_order(r["order"].as_str().unwrap(), order));
            match found {
                None => problems.push(format!("no result for {order:?}")),
                Some(r) => {
                    let got = r["outcome"].as_str().unwrap();
                    let ok = got == want || (want == "fails" && got == "invalid");
                    if !ok {
                        problems.push(format!("{order}: {got} ({}), expected {want}", r["detail"]));
                    }
                }
            }
        }
    }
    if let Some(units) = strings(expect.get("units")) {
        let got = json_set(&v, "units", None);
        if got != units {
            problems.push(format!("units {got:?}, expected {units:?}"));
        }
    }
    if let Some(d) = strings(expect.get("dislodged")) {
        let got = json_set(&v, "dislodged", Some("unit"));
        if got != d {
            problems.push(format!("dislodged {got:?}, expected {d:?}"));
        }
    }
    if let Some(d) = strings(expect.get("civil_disorder")) {
        let got = json_set(&v, "civil_disorder", None);
        if got != d {
            problems.push(format!("civil disorder {got:?}, expected {d:?}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}: {}", problems.join("; ")))
    }
}

pub fn cases(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases/diplomacy")
        .join(folder);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    paths
}

fn run_all(folder: &str, count: usize) {
    let paths = cases(folder);
    assert_eq!(paths.len(), count, "{folder}: the DATC cases are all there");
    let failures: Vec<String> = paths.iter().filter_map(|p| check_case(p).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
}

#[test]
fn datc_v3_every_case_matches() {
    run_all("datc-v3", 171);
}

#[test]
fn datc_v2_4_every_case_matches() {
    run_all("datc-v2.4", 167);
}

#[test]
fn every_case_marked_ignore_is_checked_against_the_datc_text() {
    let mut marked: Vec<String> = cases("datc-v3")
        .into_iter()
        .chain(cases("datc-v2.4"))
        .filter(|p| {
            let t: toml::Table = toml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
            t.contains_key("ignore")
        })
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    marked.sort();
    let mut listed: Vec<String> = IGNORED.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(marked, listed);
    for (name, _) in IGNORED {
        let path = cases("datc-v3")
            .into_iter()
            .find(|p| p.file_stem().unwrap() == *name)
            .unwrap();
        check_case(&path).unwrap();
    }
}
