//! Battles for the Galactic Empire scenario files with expectations:
//! `tests/cases/bfge/<rule>_<what>.toml`.
//!
//! A case is a scenario (`../shared/specs/bfge-scenario.md`) plus an `[expect]` table;
//! with `base = true` it starts from `_base.toml` (an Action phase of turn 2, region k
//! with all three values k, nobody holding anything), each top-level key of the case
//! replacing the base's. Every key of `[expect]` is optional:
//!
//! | key | checks |
//! |---|---|
//! | `next_phase`, `next_turn`, `chaos`, `initiative`, `winner` | equal (`"none"` for null) |
//! | `owing` | the list, in order |
//! | `results` | each `power ORDER: outcome` is among the results |
//! | `details` | each `power ORDER: text` matches a result whose detail contains text |
//! | `events` | each `B8.4: text` matches an event of that step containing text |
//! | `no_events` | no event contains the text |
//! | `control` | `Tau = blue` (or `none`) |
//! | `values` | `Tau = 1 2 3` (Combat, Political, Resource) |
//! | `fleets` | all fleets, as `blue SF Tau garrison 2`, `red CG base 1` |
//! | `rp`, `th_supply` | `blue = 5` |
//! | `hand`, `chit_pool` | `blue = BUILD 1, MOVE 2` (or `none`) |
//! | `force_pool` | `blue = 2SF 1CG` (or `nothing`) |
//! | `common_chits` | `BUILD 1, MOVE 2` (or `none`) |
//! | `common_fleets` | `1SF` (or `nothing`) |
//! | `draws` | all draws, as `blue own MOVE` |
//! | `rolls` | all dice, as `B8.4 6 blue SF at red CG` |
//! | `shots` | all shots, as `1 military blue SF 6 2 at CG: eliminated` (`pursuit` has no target) |
//! | `actions` | all actions, as `blue resolve Tau order done` (no region: `-`) |
//! | `golden` | `true`: the whole output equals `<case>.json` beside the case (`UPDATE_GOLDEN=1` writes it) |

use crate::cases::expected;
use std::path::Path;

use serde_json::Value;

fn split_eq(s: &str) -> (&str, &str) {
    let (a, b) = s
        .split_once('=')
        .unwrap_or_else(|| panic!("{s:?}: `name = value`"));
    (a.trim(), b.trim())
}

fn chits(v: &Value) -> String {
    let parts: Vec<String> = v
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn fleets(v: &Value) -> String {
    let parts: Vec<String> = v
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, n)| format!("{n}{k}"))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(" ")
    }
}

/// The case's scenario text, merged over the base if asked, and its expectations.
pub fn scenario_text(path: &Path) -> (String, toml::Table) {
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

fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "none".into(),
        other => other.to_string(),
    }
}

pub fn run_case(path: &Path) {
    let (text, expect) = scenario_text(path);
    let json = pbem::scenario::adjudicate_text(&text, path.parent().unwrap())
        .unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let again = pbem::scenario::adjudicate_text(&text, path.parent().unwrap()).unwrap();
    assert_eq!(json, again, "not deterministic");
    let out: Value = serde_json::from_str(&json).unwrap();
    let name = path.file_stem().unwrap().to_string_lossy();
    let fail = |what: &str| -> ! { panic!("{name}: {what}\noutput:\n{json}") };
    for key in ["next_phase", "next_turn", "chaos", "initiative", "winner"] {
        if let Some(v) = expect.get(key) {
            let want = match v {
                toml::Value::String(x) => x.clone(),
                other => other.to_string(),
            };
            if s(&out[key]) != want {
                fail(&format!("{key}: expected {want}, got {}", out[key]));
            }
        }
    }
    let all = |key: &str, got: Vec<String>| {
        if expect.contains_key(key) && got != expected(&expect, key) {
            fail(&format!(
                "{key}: expected\n  {:?}\ngot\n  {got:?}",
                expected(&expect, key)
            ));
        }
    };
    let arr = |key: &str| out[key].as_array().cloned().unwrap_or_default();
    all("owing", arr("owing").iter().map(s).collect());
    if let Err(e) = crate::cases::check_lines(&out, &expect, "power") {
        fail(&e);
    }
    let region = |name: &str| -> Value {
        arr("regions")
            .into_iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| fail(&format!("no region {name}")))
    };
    for want in expected(&expect, "control") {
        let (r, v) = split_eq(&want);
        let got = s(&region(r)["control"]);
        if got != v {
            fail(&format!("{r} control: expected {v}, got {got}"));
        }
    }
    for want in expected(&expect, "values") {
        let (r, v) = split_eq(&want);
        let reg = region(r);
        let got = format!("{} {} {}", reg["combat"], reg["political"], reg["resource"]);
        if got != v {
            fail(&format!("{r} values: expected {v}, got {got}"));
        }
    }
    all(
        "fleets",
        arr("fleets")
            .iter()
            .map(|f| {
                format!(
                    "{} {} {}{} {}",
                    s(&f["power"]),
                    s(&f["type"]),
                    s(&f["at"]),
                    if f["garrison"] == true {
                        " garrison"
                    } else {
                        ""
                    },
                    f["count"]
                )
            })
            .collect(),
    );
    let power = |id: &str| -> Value {
        arr("powers")
            .into_iter()
            .find(|p| p["id"] == id)
            .unwrap_or_else(|| fail(&format!("no power {id}")))
    };
    for (key, show) in [
        ("rp", s as fn(&Value) -> String),
        ("th_supply", s),
        ("hand", chits),
        ("chit_pool", chits),
        ("force_pool", fleets),
    ] {
        for want in expected(&expect, key) {
            let (id, v) = split_eq(&want);
            let got = show(&power(id)[key]);
            if got != v {
                fail(&format!("{id} {key}: expected {v}, got {got}"));
            }
        }
    }
    if let Some(v) = expect.get("common_chits") {
        let got = chits(&out["common"]["chits"]);
        if Some(got.as_str()) != v.as_str() {
            fail(&format!("common chits: expected {v}, got {got}"));
        }
    }
    if let Some(v) = expect.get("common_fleets") {
        let got = fleets(&out["common"]["fleets"]);
        if Some(got.as_str()) != v.as_str() {
            fail(&format!("common fleets: expected {v}, got {got}"));
        }
    }
    all(
        "draws",
        arr("draws")
            .iter()
            .map(|d| format!("{} {} {}", s(&d["power"]), s(&d["from"]), s(&d["chit"])))
            .collect(),
    );
    all(
        "rolls",
        arr("dice")
            .iter()
            .map(|d| format!("{} {} {}", s(&d["step"]), d["roll"], s(&d["for"])))
            .collect(),
    );
    all(
        "shots",
        arr("battles")
            .iter()
            .flat_map(|b| b["shots"].as_array().cloned().unwrap_or_default())
            .map(|x| {
                let dice: Vec<String> = x["dice"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d.to_string())
                    .collect();
                format!(
                    "{} {} {} {} {}{}: {}",
                    x["round"],
                    s(&x["segment"]),
                    s(&x["power"]),
                    s(&x["firer"]),
                    dice.join(" "),
                    if x["target"].is_null() {
                        String::new()
                    } else {
                        format!(" at {}", s(&x["target"]))
                    },
                    s(&x["result"])
                )
            })
            .collect(),
    );
    all(
        "actions",
        arr("actions")
            .iter()
            .map(|a| {
                format!(
                    "{} {} {} {} {}",
                    s(&a["power"]),
                    s(&a["kind"]),
                    if a["region"].is_null() {
                        "-".to_string()
                    } else {
                        s(&a["region"])
                    },
                    s(&a["by"]),
                    s(&a["outcome"])
                )
            })
            .collect(),
    );
    if expect.get("golden").and_then(|g| g.as_bool()) == Some(true) {
        let golden = path.with_extension("json");
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&golden, &json).unwrap();
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_else(|_| fail("no golden file"));
        if want != json {
            fail(&format!("output differs from {}", golden.display()));
        }
    }
}

/// The case files of the folder (not `_base.toml`), sorted.
pub fn case_paths() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/bfge");
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
fn bfge_cases() {
    let paths = case_paths();
    assert!(paths.len() >= 60, "only {} BFGE cases", paths.len());
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
