//! Godsfire scenario files with expectations: `tests/cases/godsfire/<rule>_<what>.toml`.
//!
//! A case is a scenario (`../shared/specs/godsfire-scenario.md`) plus an `[expect]`
//! table; with `base = true` it starts from `_base.toml` (with `base = "war"`, from
//! `_war.toml`), each top-level key of the case replacing the base's; the lists of a
//! `[more]` table (`[[more.stack]]`) are appended to the base's instead. Every key of
//! `[expect]` is optional:
//!
//! | key | checks |
//! |---|---|
//! | `next_phase`, `next_turn` | equal |
//! | `results` | each `power ORDER: outcome` is among the results |
//! | `details` | each `power ORDER: text` matches a result whose detail contains text |
//! | `events` | each `G7.3: text` matches an event of that step containing text |
//! | `no_events` | no event contains the text |
//! | `regions` | `Sirius-1a = I-2 M 4` (economy, party, allegiance) |
//! | `banks`, `treasury` | `Sirius = 5`, `red = 3` |
//! | `owners` | `Sirius = red` |
//! | `stakes` | all, as `power@Region circle` |
//! | `counters` | all regions |
//! | `stacks` | all, as `power@place SQD AG PDF` |
//! | `loans` | `red = 3x2 1x4` (instalments left x size), or `red = none` |
//! | `loyalty` | `red = R5 M5 E4` |
//! | `at_war` | `red = blue` (or `none`) |
//! | `transit`, `purchases` | all, as `power amount to turn`, `power@Region SQD AG PDF` |
//! | `rolls` | every die, in order, as `G7.1 1d6 4 Sirius-1b` |
//! | `winner` | `"none"`, a power, or a list |
//! | `json` | `/combats/0/odds = 2-1`: the value at a JSON pointer (strings unquoted) |
//! | `golden` | `true`: the whole output equals `<case>.json` beside the case |
//!   (`UPDATE_GOLDEN=1` writes it) |

use crate::cases::expected;
use std::path::Path;

use serde_json::Value;

fn split_eq(s: &str) -> (&str, &str) {
    let (a, b) = s
        .split_once('=')
        .unwrap_or_else(|| panic!("{s:?}: `name = value`"));
    (a.trim(), b.trim())
}

fn units(v: &Value) -> String {
    format!(
        "{} {} {}",
        v["SQD"].as_u64().unwrap_or(0),
        v["AG"].as_u64().unwrap_or(0),
        v["PDF"].as_u64().unwrap_or(0)
    )
}

fn region<'a>(out: &'a Value, id: &str) -> &'a Value {
    let (system, rest) = id.rsplit_once('-').unwrap();
    let planet: usize = rest[..rest.len() - 1].parse().unwrap();
    let letter = rest.as_bytes()[rest.len() - 1] - b'a';
    let s = out["systems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == system)
        .unwrap_or_else(|| panic!("no system {system}"));
    &s["planets"][planet - 1][letter as usize]
}

fn by_name<'a>(out: &'a Value, list: &str, key: &str, name: &str) -> &'a Value {
    out[list]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x[key] == name)
        .unwrap_or_else(|| panic!("no {list} entry {name}"))
}

/// The case's scenario text, merged over the base if asked.
pub fn scenario_text(path: &Path) -> (String, toml::Table) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut case: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let expect = case
        .remove("expect")
        .and_then(|e| e.as_table().cloned())
        .unwrap_or_default();
    let base = match case.remove("base") {
        Some(toml::Value::Boolean(true)) => Some("_base.toml".to_string()),
        Some(toml::Value::String(name)) => Some(format!("_{name}.toml")),
        _ => None,
    };
    let mut table = match base {
        Some(file) => {
            let base = std::fs::read_to_string(path.with_file_name(file)).unwrap();
            toml::from_str::<toml::Table>(&base).unwrap()
        }
        None => toml::Table::new(),
    };
    let set = case.remove("set");
    let more = case.remove("more");
    for (k, v) in case {
        table.insert(k, v);
    }
    for (k, v) in more
        .iter()
        .flat_map(|m| m.as_table().expect("[more] is a table"))
    {
        let items = v.as_array().expect("[more] holds lists").clone();
        match table.get_mut(k) {
            Some(toml::Value::Array(a)) => a.extend(items),
            _ => {
                table.insert(k.clone(), toml::Value::Array(items));
            }
        }
    }
    for change in set
        .iter()
        .flat_map(|s| s.as_array().expect("set is a list"))
    {
        apply(&mut table, change.as_str().expect("set holds strings"));
    }
    (toml::to_string(&table).unwrap(), expect)
}

/// One `set` change: `Sirius-1a allegiance 0` (also `economy`, `party`, or `open` to
/// leave the region's values to the dice), `Sirius bank 0`, `Sirius owner blue`,
/// `Sirius at E5`, `red treasury 0`.
fn apply(table: &mut toml::Table, change: &str) {
    let words: Vec<&str> = change.split_whitespace().collect();
    let value = |w: &str| match w.parse::<i64>() {
        Ok(n) => toml::Value::Integer(n),
        Err(_) => toml::Value::String(w.to_string()),
    };
    match words.as_slice() {
        [name, "treasury", v] => {
            find(table, "power", "id", name).insert("treasury".into(), value(v));
        }
        [name, field, v] if !name.contains('-') => {
            find(table, "system", "name", name).insert(field.to_string(), value(v));
        }
        [id, rest @ ..] => {
            let (system, r) = id.rsplit_once('-').unwrap();
            let planet: usize = r[..r.len() - 1].parse().unwrap();
            let letter = (r.as_bytes()[r.len() - 1] - b'a') as usize;
            let region = find(table, "system", "name", system)["planets"]
                .as_array_mut()
                .unwrap()[planet - 1]
                .as_array_mut()
                .unwrap()[letter]
                .as_table_mut()
                .unwrap();
            match rest {
                ["open"] => region.clear(),
                [field, v] => {
                    region.insert(field.to_string(), value(v));
                }
                _ => panic!("set: {change:?}"),
            }
        }
        _ => panic!("set: {change:?}"),
    }
}

fn find<'a>(table: &'a mut toml::Table, list: &str, key: &str, name: &str) -> &'a mut toml::Table {
    table[list]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .map(|v| v.as_table_mut().unwrap())
        .find(|t| t[key].as_str() == Some(name))
        .unwrap_or_else(|| panic!("set: no {list} {name}"))
}

pub fn run_case(path: &Path) {
    let (text, expect) = scenario_text(path);
    let json = pbem::scenario::adjudicate_text(&text, path.parent().unwrap())
        .unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let again = pbem::scenario::adjudicate_text(&text, path.parent().unwrap()).unwrap();
    assert_eq!(json, again, "not deterministic");
    let out: Value = serde_json::from_str(&json).unwrap();
    let name = path.file_stem().unwrap().to_string_lossy();
    if std::env::var("GODSFIRE_CASE_SHOW").is_ok() {
        eprintln!("{name}:\n{json}");
    }
    let fail = |what: &str| -> ! { panic!("{name}: {what}\noutput:\n{json}") };
    for key in ["next_phase", "next_turn"] {
        if let Some(v) = expect.get(key) {
            let want = match v {
                toml::Value::String(s) => Value::String(s.clone()),
                toml::Value::Integer(i) => Value::from(*i),
                _ => fail("bad expectation"),
            };
            if out[key] != want {
                fail(&format!("{key}: expected {want}, got {}", out[key]));
            }
        }
    }
    if let Err(e) = crate::cases::check_lines(&out, &expect, "power") {
        fail(&e);
    }
    for want in expected(&expect, "regions") {
        let (id, value) = split_eq(&want);
        let r = region(&out, id);
        let got = format!(
            "{} {} {}",
            r["economy"].as_str().unwrap(),
            r["party"].as_str().unwrap(),
            r["allegiance"]
        );
        if got != value {
            fail(&format!("{id}: expected {value}, got {got}"));
        }
    }
    let field = |list: &str, key: &str, field: &str, want: &str| {
        let (name, value) = split_eq(want);
        let got = by_name(&out, list, key, name)[field]
            .to_string()
            .replace('"', "");
        if got != value {
            fail(&format!("{name} {field}: expected {value}, got {got}"));
        }
    };
    for want in expected(&expect, "banks") {
        field("systems", "name", "bank", &want);
    }
    for want in expected(&expect, "owners") {
        field("systems", "name", "owner", &want);
    }
    for want in expected(&expect, "treasury") {
        field("powers", "id", "treasury", &want);
    }
    for want in expected(&expect, "loans") {
        let (id, value) = split_eq(&want);
        let loans: Vec<String> = by_name(&out, "powers", "id", id)["loans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| format!("{}x{}", l["left"], l["instalment"]))
            .collect();
        let got = if loans.is_empty() {
            "none".into()
        } else {
            loans.join(" ")
        };
        if got != value {
            fail(&format!("{id} loans: expected {value}, got {got}"));
        }
    }
    for want in expected(&expect, "loyalty") {
        let (id, value) = split_eq(&want);
        let l = &by_name(&out, "powers", "id", id)["loyalty"];
        let got = format!("R{} M{} E{}", l["R"], l["M"], l["E"]);
        if got != value {
            fail(&format!("{id} loyalty: expected {value}, got {got}"));
        }
    }
    for want in expected(&expect, "at_war") {
        let (id, value) = split_eq(&want);
        let wars: Vec<String> = by_name(&out, "powers", "id", id)["at_war"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect();
        let got = if wars.is_empty() {
            "none".into()
        } else {
            wars.join(" ")
        };
        if got != value {
            fail(&format!("{id} at war: expected {value}, got {got}"));
        }
    }
    let all = |key: &str, got: Vec<String>| {
        if expect.contains_key(key) && got != expected(&expect, key) {
            fail(&format!(
                "{key}: expected {:?}, got {got:?}",
                expected(&expect, key)
            ));
        }
    };
    let arr = |key: &str| out[key].as_array().unwrap().clone();
    all(
        "stakes",
        arr("stakes")
            .iter()
            .map(|k| {
                format!(
                    "{}@{} {}",
                    k["power"].as_str().unwrap(),
                    k["region"].as_str().unwrap(),
                    k["circle"]
                )
            })
            .collect(),
    );
    all(
        "counters",
        arr("counters")
            .iter()
            .map(|c| c["region"].as_str().unwrap().to_string())
            .collect(),
    );
    all(
        "stacks",
        arr("stacks")
            .iter()
            .map(|s| {
                format!(
                    "{}@{} {}",
                    s["power"].as_str().unwrap(),
                    s["at"].as_str().unwrap(),
                    units(&s["units"])
                )
            })
            .collect(),
    );
    all(
        "transit",
        arr("transit")
            .iter()
            .map(|t| {
                format!(
                    "{} {} {} {}",
                    t["power"].as_str().unwrap(),
                    t["amount"],
                    t["to"].as_str().unwrap(),
                    t["arrives_turn"]
                )
            })
            .collect(),
    );
    all(
        "purchases",
        arr("purchases")
            .iter()
            .map(|p| {
                format!(
                    "{}@{} {}",
                    p["power"].as_str().unwrap(),
                    p["region"].as_str().unwrap(),
                    units(&p["units"])
                )
            })
            .collect(),
    );
    all(
        "rolls",
        arr("dice")
            .iter()
            .map(|d| {
                format!(
                    "{} {} {} {}",
                    d["step"].as_str().unwrap(),
                    d["die"].as_str().unwrap(),
                    d["roll"],
                    d["for"].as_str().unwrap()
                )
            })
            .collect(),
    );
    if let Some(w) = expect.get("winner") {
        let want = match w {
            toml::Value::String(s) if s == "none" => Value::Null,
            toml::Value::String(s) => Value::String(s.clone()),
            toml::Value::Array(a) => a
                .iter()
                .map(|x| Value::String(x.as_str().unwrap().into()))
                .collect(),
            _ => fail("bad winner"),
        };
        if out["winner"] != want {
            fail(&format!("winner: expected {want}, got {}", out["winner"]));
        }
    }
    for want in expected(&expect, "json") {
        let (pointer, value) = split_eq(&want);
        let got = out
            .pointer(pointer)
            .unwrap_or_else(|| fail(&format!("nothing at {pointer}")))
            .to_string()
            .replace('"', "");
        if got != value {
            fail(&format!("{pointer}: expected {value}, got {got}"));
        }
    }
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

/// Every case file in the folder, each run; the folder is never empty.
#[test]
fn godsfire_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/godsfire");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('_'))
        .collect();
    paths.sort();
    assert!(paths.len() >= 30, "only {} Godsfire cases", paths.len());
    // GODSFIRE_CASE=g4_6 runs only the cases whose names hold it.
    if let Ok(only) = std::env::var("GODSFIRE_CASE") {
        paths.retain(|p| p.to_string_lossy().contains(&only));
    }
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
