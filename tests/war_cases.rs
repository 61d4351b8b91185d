//! War! scenario files with expectations: `tests/cases/war-imperialism/<rule>_<what>.toml`.
//!
//! A case is a scenario (`../shared/specs/war-scenario.md`) plus an `[expect]` table.
//! With `base = true` it starts from `_base.toml`: the case's `[[player]]`,
//! `[[region]]`, `[[units]]`, `[[fleet]]` and `[[war]]` entries replace the base's
//! entries for the same player, region or place (`[[units]]` with empty `units`
//! removes one), other lists are added to, and any other key replaces the base's.
//! Every key of `[expect]` is optional:
//!
//! | key | checks |
//! |---|---|
//! | `error` | the scenario is refused with a message containing this |
//! | `next_phase`, `next_turn`, `next_movement` | equal |
//! | `results` | each `player ORDER: outcome` is among the results |
//! | `details` | each `player ORDER: text` matches a result whose detail contains text |
//! | `events` | each `W6.7: text` matches an event of that rule containing text |
//! | `no_events` | no event contains the text |
//! | `pp`, `dp`, `vp` | `red = 40` |
//! | `eliminated` | player ids, all of them |
//! | `regions` | `Egypt owner=red native=4+ chit=dot developed=false buildings=city,fort revolt=true suppressors=blue` (the fields given) |
//! | `spheres` | `Egypt = blue:1 red:2` (or `Egypt = none`) |
//! | `units` | every stack, as `red@Egypt 2 INF GEN` |
//! | `units_at` | `red@Egypt = 2 INF GEN` (or `nothing`) |
//! | `fleets_at` | `red@EasternMed = 2 FLT carrying 2 INF` (or `0 FLT`) |
//! | `wars` | every war, as `blue-red by red 2.2` |
//! | `battles` | every battle, as `land Libya red` (kind, place, winner) |
//! | `battle_lines` | each text is in the battles' report lines (as mailed) |
//! | `rolls` | every die, in order, as `W6.2 5 red INF at Libya, round 1` |
//! | `order` | the next movement order |
//! | `pool_native`, `pool_chits` | the pools, in order |
//! | `picks` | every pick, as `red Britain 1 list` |
//! | `suez` | equal |
//! | `winner` | `"none"`, a player, or a list |
//! | `golden` | `true`: the whole output equals `<case>.json` beside it (`UPDATE_GOLDEN=1` writes it) |

use crate::cases::expected;
use std::path::Path;

use serde_json::Value;

fn split_eq(s: &str) -> (&str, &str) {
    let (a, b) = s
        .split_once('=')
        .unwrap_or_else(|| panic!("{s:?}: `name = value`"));
    (a.trim(), b.trim())
}

/// The identity of an entry of a list of tables, for merging over the base.
fn identity(key: &str, t: &toml::Table) -> Option<String> {
    let s = |k: &str| t.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
    match key {
        "player" | "region" => Some(s("id").to_ascii_lowercase()),
        "units" | "fleet" => Some(format!("{}@{}", s("player"), s("at").to_ascii_lowercase())),
        "war" => {
            let mut p: Vec<String> = t
                .get("players")
                .and_then(|v| v.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            p.sort();
            Some(p.join("-"))
        }
        _ => None,
    }
}

/// The case's scenario text, merged over the base if asked.
pub fn scenario_text(path: &Path) -> (String, toml::Table) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut case: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let expect = case
        .remove("expect")
        .and_then(|e| e.as_table().cloned())
        .unwrap_or_default();
    if case.remove("base").and_then(|b| b.as_bool()) != Some(true) {
        return (toml::to_string(&case).unwrap(), expect);
    }
    let base = std::fs::read_to_string(path.with_file_name("_base.toml")).unwrap();
    let mut table: toml::Table = toml::from_str(&base).unwrap();
    for (k, v) in case {
        match (table.get_mut(&k), v) {
            (Some(toml::Value::Array(old)), toml::Value::Array(new))
                if new.iter().all(|x| x.is_table()) && !new.is_empty() =>
            {
                for entry in new {
                    let t = entry.as_table().unwrap();
                    let id = identity(&k, t);
                    if let Some(id) = &id {
                        old.retain(|x| identity(&k, x.as_table().unwrap()).as_ref() != Some(id));
                    }
                    let empty_units = k == "units"
                        && t.get("units")
                            .and_then(|u| u.as_table())
                            .is_some_and(|u| u.is_empty());
                    if !empty_units {
                        old.push(toml::Value::Table(t.clone()));
                    }
                }
            }
            (_, v) => {
                table.insert(k, v);
            }
        }
    }
    (toml::to_string(&table).unwrap(), expect)
}

fn units_text(v: &Value) -> String {
    let mut parts = Vec::new();
    for k in ["INF", "CAV", "ART", "GEN", "EXP", "ENG"] {
        match v[k].as_u64().unwrap_or(0) {
            0 => {}
            1 => parts.push(k.to_string()),
            n => parts.push(format!("{n} {k}")),
        }
    }
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(" ")
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

pub fn run_case(path: &Path) {
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let (text, expect) = scenario_text(path);
    let dir = path.parent().unwrap();
    let outcome = pbem::scenario::adjudicate_text(&text, dir);
    if let Some(want) = expect.get("error").and_then(|e| e.as_str()) {
        match outcome {
            Ok(_) => panic!("{name}: expected the error {want:?}, the scenario was read"),
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.contains(want),
                    "{name}: error {msg:?} does not contain {want:?}"
                );
                assert!(
                    !msg.contains('\n'),
                    "{name}: the error is more than one line"
                );
                return;
            }
        }
    }
    let json = outcome.unwrap_or_else(|e| panic!("{name}: {e}"));
    let again = pbem::scenario::adjudicate_text(&text, dir).unwrap();
    assert_eq!(json, again, "{name}: not deterministic");
    let out: Value = serde_json::from_str(&json).unwrap();
    let fail = |what: &str| -> ! {
        if std::env::var_os("WAR_CASE_JSON").is_some() {
            panic!("{name}: {what}\noutput:\n{json}")
        }
        panic!("{name}: {what}")
    };
    for key in ["next_phase", "next_turn", "next_movement"] {
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
    if let Err(e) = crate::cases::check_lines(&out, &expect, "player") {
        fail(&e);
    }
    let player = |id: &str| -> &Value {
        out["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap_or_else(|| fail(&format!("no player {id}")))
    };
    for key in ["pp", "dp"] {
        for want in expected(&expect, key) {
            let (id, v) = split_eq(&want);
            let got = player(id)[key].to_string();
            if got != v {
                fail(&format!("{id} {key}: expected {v}, got {got}"));
            }
        }
    }
    for want in expected(&expect, "vp") {
        let (id, v) = split_eq(&want);
        let got = out["vp"][id].to_string();
        if got != v {
            fail(&format!("{id} vp: expected {v}, got {got}"));
        }
    }
    if expect.contains_key("eliminated") {
        let got: Vec<String> = out["players"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["eliminated"] == true)
            .map(|p| p["id"].as_str().unwrap().to_string())
            .collect();
        if got != expected(&expect, "eliminated") {
            fail(&format!("eliminated: got {got:?}"));
        }
    }
    let region = |id: &str| -> &Value {
        out["regions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| fail(&format!("no region {id}")))
    };
    for want in expected(&expect, "regions") {
        let mut words = want.split_whitespace();
        let id = words.next().unwrap();
        let r = region(id);
        for w in words {
            let (k, v) = w.split_once('=').expect("field=value");
            let got = match &r[k] {
                Value::String(s) => s.clone(),
                Value::Array(a) => a
                    .iter()
                    .map(|x| x.as_str().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join(","),
                other => other.to_string(),
            };
            if got != v {
                fail(&format!("{id} {k}: expected {v}, got {got}"));
            }
        }
    }
    for want in expected(&expect, "spheres") {
        let (id, v) = split_eq(&want);
        let s = region(id)["spheres"].as_object().unwrap();
        let got = if s.is_empty() {
            "none".to_string()
        } else {
            s.iter()
                .map(|(k, n)| format!("{k}:{n}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if got != v {
            fail(&format!("{id} spheres: expected {v}, got {got}"));
        }
    }
    let stacks: Vec<(String, String)> = out["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                format!(
                    "{}@{}",
                    u["player"].as_str().unwrap(),
                    u["at"].as_str().unwrap()
                ),
                units_text(&u["units"]),
            )
        })
        .collect();
    if expect.contains_key("units") {
        let got: Vec<String> = stacks.iter().map(|(a, b)| format!("{a} {b}")).collect();
        if got != expected(&expect, "units") {
            fail(&format!("units: got {got:?}"));
        }
    }
    for want in expected(&expect, "units_at") {
        let (at, v) = split_eq(&want);
        let got = stacks
            .iter()
            .find(|(a, _)| a == at)
            .map(|(_, b)| b.clone())
            .unwrap_or_else(|| "nothing".into());
        if got != v {
            fail(&format!("{at}: expected {v}, got {got}"));
        }
    }
    for want in expected(&expect, "fleets_at") {
        let (at, v) = split_eq(&want);
        let got = out["fleets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| {
                format!(
                    "{}@{}",
                    f["player"].as_str().unwrap(),
                    f["at"].as_str().unwrap()
                ) == at
            })
            .map(|f| {
                let cargo = units_text(&f["cargo"]);
                if cargo == "nothing" {
                    format!("{} FLT", f["n"])
                } else {
                    format!("{} FLT carrying {cargo}", f["n"])
                }
            })
            .unwrap_or_else(|| "0 FLT".into());
        if got != v {
            fail(&format!("{at}: expected {v}, got {got}"));
        }
    }
    if expect.contains_key("wars") {
        let got: Vec<String> = out["wars"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                let p = strings(&w["players"]);
                format!(
                    "{}-{} by {} {}.{}",
                    p[0],
                    p[1],
                    w["declared_by"].as_str().unwrap(),
                    w["turn"],
                    w["movement"]
                )
            })
            .collect();
        if got != expected(&expect, "wars") {
            fail(&format!("wars: got {got:?}"));
        }
    }
    if expect.contains_key("battles") {
        let got: Vec<String> = out["battles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                format!(
                    "{} {} {}",
                    b["kind"].as_str().unwrap(),
                    b["at"].as_str().unwrap(),
                    b["winner"].as_str().unwrap()
                )
            })
            .collect();
        if got != expected(&expect, "battles") {
            fail(&format!("battles: got {got:?}"));
        }
    }
    let want_lines = expected(&expect, "battle_lines");
    if !want_lines.is_empty() {
        let mut lines = Vec::new();
        for b in out["battles"].as_array().unwrap() {
            let report: pbem::rules::war_imperialism::outcome::BattleReport = report_from(b);
            lines.extend(pbem::rules::war_imperialism::report::battle_lines(&report));
        }
        for want in want_lines {
            if !lines.iter().any(|l| l.contains(&want)) {
                fail(&format!("no battle line {want:?} in {lines:#?}"));
            }
        }
    }
    if expect.contains_key("rolls") {
        let got: Vec<String> = out["dice"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {} {}",
                    d["step"].as_str().unwrap(),
                    d["roll"],
                    d["for"].as_str().unwrap()
                )
            })
            .collect();
        if got != expected(&expect, "rolls") {
            fail(&format!("rolls: got {got:#?}"));
        }
    }
    if expect.contains_key("order") && strings(&out["order"]) != expected(&expect, "order") {
        fail(&format!("order: got {:?}", out["order"]));
    }
    if expect.contains_key("pool_native")
        && strings(&out["pool"]["native"]) != expected(&expect, "pool_native")
    {
        fail(&format!("pool native: got {:?}", out["pool"]["native"]));
    }
    if expect.contains_key("pool_chits")
        && strings(&out["pool"]["chits"]) != expected(&expect, "pool_chits")
    {
        fail(&format!("pool chits: got {:?}", out["pool"]["chits"]));
    }
    if expect.contains_key("picks") {
        let got: Vec<String> = out["picks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                format!(
                    "{} {} {} {}",
                    p["player"].as_str().unwrap(),
                    p["region"].as_str().unwrap(),
                    p["round"],
                    p["how"].as_str().unwrap()
                )
            })
            .collect();
        if got != expected(&expect, "picks") {
            fail(&format!("picks: got {got:?}"));
        }
    }
    if let Some(v) = expect.get("suez").and_then(|v| v.as_bool()) {
        if out["suez"] != v {
            fail(&format!("suez: got {}", out["suez"]));
        }
    }
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

/// A battle of the JSON output, back as the report the mail lines are made from.
fn report_from(b: &Value) -> pbem::rules::war_imperialism::outcome::BattleReport {
    use pbem::rules::war_imperialism::outcome::{
        BattleReport, BattleRound, DrmPart, KindDice, SatOut, Sides,
    };
    let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
    let side_map = |v: &Value| {
        v.as_object()
            .unwrap()
            .iter()
            .map(|(k, n)| (leak(k), n.as_u64().unwrap() as u32))
            .collect()
    };
    let nums = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect()
    };
    let by_kind = |v: &Value| -> Vec<KindDice> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|g| KindDice {
                kind: leak(g["kind"].as_str().unwrap()),
                unit_drm: g["unit_drm"].as_i64().unwrap() as i32,
                landed_drm: g.get("landed_drm").map(|l| l.as_i64().unwrap() as i32),
                rolls: nums(&g["rolls"]),
            })
            .collect()
    };
    let parts = |v: &Value| -> Vec<DrmPart> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| DrmPart {
                part: leak(p["part"].as_str().unwrap()),
                drm: p["drm"].as_i64().unwrap() as i32,
                count: p.get("count").map(|n| n.as_u64().unwrap() as u32),
            })
            .collect()
    };
    let sat_out = |v: &Value| -> Option<SatOut> {
        v.as_object().map(|s| SatOut {
            units: side_map(&s["units"]),
            why: leak(s["why"].as_str().unwrap()),
        })
    };
    BattleReport {
        kind: leak(b["kind"].as_str().unwrap()),
        at: b["at"].as_str().unwrap().into(),
        attacker: b["attacker"].as_str().unwrap().into(),
        defender: b["defender"].as_str().unwrap().into(),
        revolt: b["revolt"].as_bool().unwrap(),
        rounds: b["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| BattleRound {
                drm: Sides {
                    attacker: r["drm"]["attacker"].as_i64().unwrap() as i32,
                    defender: r["drm"]["defender"].as_i64().unwrap() as i32,
                },
                drm_parts: Sides {
                    attacker: parts(&r["drm_parts"]["attacker"]),
                    defender: parts(&r["drm_parts"]["defender"]),
                },
                hits: Sides {
                    attacker: r["hits"]["attacker"].as_u64().unwrap() as u32,
                    defender: r["hits"]["defender"].as_u64().unwrap() as u32,
                },
                losses: Sides {
                    attacker: side_map(&r["losses"]["attacker"]),
                    defender: side_map(&r["losses"]["defender"]),
                },
                rolls: Sides {
                    attacker: nums(&r["rolls"]["attacker"]),
                    defender: nums(&r["rolls"]["defender"]),
                },
                by_kind: Sides {
                    attacker: by_kind(&r["by_kind"]["attacker"]),
                    defender: by_kind(&r["by_kind"]["defender"]),
                },
                sat_out: Sides {
                    attacker: sat_out(&r["sat_out"]["attacker"]),
                    defender: sat_out(&r["sat_out"]["defender"]),
                },
                extra: r.get("extra").and_then(|x| x.as_bool()).unwrap_or(false),
            })
            .collect(),
        winner: b["winner"].as_str().unwrap().into(),
        end: b["end"].as_str().unwrap().into(),
        // Not in the JSON (the events' order is): where the mails tell the rounds.
        event: 0,
    }
}

/// Every case file in the folder, each run; the folder is never empty.
#[test]
fn war_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/war-imperialism");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('_'))
        .collect();
    paths.sort();
    if let Ok(only) = std::env::var("WAR_CASE") {
        paths.retain(|p| p.to_string_lossy().contains(&only));
    }
    assert!(!paths.is_empty(), "no War! cases");
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
        "{} of {} case(s) failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}
