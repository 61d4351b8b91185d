//! Foundation (Hjelmberg) scenario files with expectations:
//! `tests/cases/foundation-hjelmberg/<rule>_<what>.toml`, and the rule coverage check.
//!
//! A case is a scenario (`../shared/specs/foundation-hjelmberg-scenario.md`) plus an
//! `[expect]` table; with `base = true` it starts from `_base.toml`, each top-level key
//! of the case replacing the base's. Every key of `[expect]` is optional:
//!
//! | key | checks |
//! |---|---|
//! | `error` | adjudication refuses the scenario, the message containing this text |
//! | `next_phase`, `next`, `round` | equal |
//! | `winner` | a player, or `"none"` |
//! | `results` | each `power ORDER: outcome` is among the results |
//! | `details` | each `power ORDER: text` matches a result whose detail contains text |
//! | `events` | each `H7.2: text` matches an event of that step containing text |
//! | `no_events` | no event contains the text |
//! | `values` | `path = value`: the output at a dotted path (`players.red.hand`, `stock.O1`), arrays and tables written flat (`blue 1 green 1`) |
//! | `draws` | every draw, in order, as `pile drew for` |

use crate::cases::expected;
use std::path::Path;

use serde_json::Value;

use crate::coverage::{numbered_rules, test_names};

/// A JSON value written flat: `blue 1 green 1`, `A3 A9`, `1`, `red`.
pub fn flat(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(flat).collect::<Vec<_>>().join(" "),
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k} {}", flat(v)))
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

/// The value at a dotted path; a player is addressed by id (`players.red.kins`).
pub fn at<'a>(out: &'a Value, path: &str) -> &'a Value {
    let mut v = out;
    for seg in path.split('.') {
        v = match v {
            Value::Array(a) => a
                .iter()
                .find(|x| x["id"] == seg)
                .or_else(|| seg.parse::<usize>().ok().and_then(|k| a.get(k)))
                .unwrap_or(&Value::Null),
            Value::Object(m) => m.get(seg).unwrap_or(&Value::Null),
            _ => &Value::Null,
        };
    }
    v
}

/// The case's scenario text, merged over the base if asked.
fn scenario_text(path: &Path) -> (String, toml::Table) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut case: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let expect = case
        .remove("expect")
        .and_then(|e| e.as_table().cloned())
        .unwrap_or_default();
    let mut table = if case.remove("base").and_then(|b| b.as_bool()) == Some(true) {
        let base = std::fs::read_to_string(path.with_file_name("_base.toml")).unwrap();
        toml::from_str::<toml::Table>(&base).unwrap()
    } else {
        toml::Table::new()
    };
    for (k, v) in case {
        table.insert(k, v);
    }
    (toml::to_string(&table).unwrap(), expect)
}

pub fn run_case(path: &Path) {
    let (text, expect) = scenario_text(path);
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let got = pbem::scenario::adjudicate_text(&text, path.parent().unwrap());
    if let Some(want) = expect.get("error").and_then(|e| e.as_str()) {
        match got {
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.contains(want), "{name}: error {msg:?} lacks {want:?}");
                assert!(!msg.contains('\n'), "{name}: error on more than one line");
                return;
            }
            Ok(json) => panic!("{name}: expected an error {want:?}, got\n{json}"),
        }
    }
    let json = got.unwrap_or_else(|e| panic!("{name}: {e}"));
    let again = pbem::scenario::adjudicate_text(&text, path.parent().unwrap()).unwrap();
    assert_eq!(json, again, "{name}: not deterministic");
    let out: Value = serde_json::from_str(&json).unwrap();
    let fail = |what: &str| -> ! { panic!("{name}: {what}\noutput:\n{json}") };
    for key in ["next_phase", "next", "round"] {
        if let Some(v) = expect.get(key) {
            let want = match v {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                _ => fail("bad expectation"),
            };
            if flat(&out[key]) != want {
                fail(&format!("{key}: expected {want}, got {}", out[key]));
            }
        }
    }
    if let Some(w) = expect.get("winner").and_then(|w| w.as_str()) {
        let want = if w == "none" {
            Value::Null
        } else {
            Value::from(w)
        };
        if out["winner"] != want {
            fail(&format!("winner: expected {want}, got {}", out["winner"]));
        }
    }
    if let Err(e) = crate::cases::check_lines(&out, &expect, "power") {
        fail(&e);
    }
    for want in expected(&expect, "values") {
        let (path, value) = want.split_once('=').expect("`path = value`");
        let got = flat(at(&out, path.trim()));
        if got != value.trim() {
            fail(&format!(
                "{}: expected {:?}, got {got:?}",
                path.trim(),
                value.trim()
            ));
        }
    }
    if expect.contains_key("draws") {
        let got: Vec<String> = out["draws"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {} {}",
                    d["pile"].as_str().unwrap(),
                    d["drew"].as_str().unwrap(),
                    d["for"].as_str().unwrap()
                )
            })
            .collect();
        if got != expected(&expect, "draws") {
            fail(&format!(
                "draws: expected {:?}, got {got:?}",
                expected(&expect, "draws")
            ));
        }
    }
}

fn case_paths() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/foundation-hjelmberg");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('_'))
        .collect();
    paths.sort();
    paths
}

/// Every case file in the folder, each run; the folder is never empty.
#[test]
fn hjelmberg_cases() {
    let paths = case_paths();
    assert!(
        paths.len() >= 40,
        "only {} Foundation (Hjelmberg) cases",
        paths.len()
    );
    let mut failures = Vec::new();
    for path in &paths {
        if let Err(e) = std::panic::catch_unwind(|| run_case(path)) {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(msg);
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The numbered rules H1.1–H11.x of the rules of record.
const RULES: &[&str] = &[
    "H1.1", "H1.2", "H1.3", "H1.4", "H1.5", "H1.6", "H2.1", "H2.2", "H2.3", "H2.4", "H2.5", "H2.6",
    "H2.7", "H2.8", "H3.1", "H3.2", "H3.3", "H4.1", "H4.2", "H4.3", "H4.4", "H4.5", "H4.6", "H5.1",
    "H5.2", "H5.3", "H5.4", "H5.5", "H5.6", "H5.7", "H6.1", "H6.2", "H6.3", "H6.4", "H6.5", "H6.6",
    "H6.7", "H7.1", "H7.2", "H7.3", "H7.4", "H7.5", "H9.1", "H9.2", "H9.3", "H9.4", "H11.1",
    "H11.2", "H11.3",
];

#[test]
fn hjelmberg_every_numbered_rule_has_a_test() {
    let names = test_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    let missing: Vec<&str> = RULES
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
fn hjelmberg_rule_list_matches_the_rules_of_record() {
    let Some(numbered) = numbered_rules("foundation-hjelmberg.md", 'H') else {
        return;
    };
    let mut ours: Vec<String> = RULES.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(numbered, ours);
}

/// The three examples of H12 are cases (`ex12_1_…`).
#[test]
fn hjelmberg_the_examples_of_h12_are_cases() {
    let names: Vec<String> = case_paths()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for k in 1..=3 {
        let prefix = format!("ex12_{k}_");
        assert!(names.iter().any(|n| n.starts_with(&prefix)), "example {k}");
    }
}
