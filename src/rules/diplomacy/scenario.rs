//! Scenario files (`../shared/specs/diplomacy-scenario.md`, a superset of the DATC
//! case files) and the JSON `pbem adjudicate` prints.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Value};

use super::check::lines;
use super::map::Map;
use super::phase::{adjudicate, Report};
use super::state::{owners_map, Edition, Options, Phase, State, Step, Unit};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    rules: Option<String>,
    phase: String,
    #[serde(default)]
    units: Vec<String>,
    #[serde(default)]
    orders: Option<Orders>,
    #[serde(default)]
    edition: Option<String>,
    #[serde(default)]
    options: Option<toml::Table>,
    #[serde(default)]
    supply_centers: Option<Centres>,
    #[serde(default)]
    occupiers: Option<BTreeMap<String, String>>,
    #[serde(default)]
    prior_orders: Vec<Prior>,
    /// The v2.4 files' fixed prestate of a retreat phase: the prior orders stand
    /// instead (`../datc/ERRATA.md`).
    #[serde(default)]
    #[allow(dead_code)]
    dislodged: Vec<String>,
    // The DATC files' description of the case, and expectations for tests.
    #[serde(default)]
    #[allow(dead_code)]
    id: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    url: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    source: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    datc_version: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    comment: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    ignore: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    expect: Option<toml::Table>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Orders {
    List(Vec<String>),
    ByPower(BTreeMap<String, String>),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Centres {
    ByProvince(BTreeMap<String, String>),
    List(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Prior {
    order: String,
    #[serde(default)]
    #[allow(dead_code)]
    ok: Option<bool>,
}

/// Order lines with their sender (none in a scenario list).
pub type Lines = Vec<(Option<u8>, String)>;

/// A scenario read: the position, the orders, and the movement phase before a retreat
/// phase when the file gives one.
pub struct Scenario {
    pub state: State,
    pub orders: Lines,
    pub prior: Option<(State, Lines)>,
}

fn units_of(map: &Map, list: &[String]) -> Result<Vec<Unit>, String> {
    let mut units: Vec<Unit> = Vec::new();
    for s in list {
        let u = Unit::parse(map, s)?;
        if units
            .iter()
            .any(|v| map.prov_of(v.loc) == map.prov_of(u.loc))
        {
            return Err(format!("two units in {}", map.prov_id(map.prov_of(u.loc))));
        }
        units.push(u);
    }
    units.sort();
    Ok(units)
}

impl Scenario {
    pub fn from_toml(text: &str) -> Result<Scenario, String> {
        let f: File = toml::from_str(text).map_err(|e| {
            let m = e
                .message()
                .replace('\n', " ")
                .replace("unknown field", "unknown key");
            m.trim().to_string()
        })?;
        if let Some(r) = &f.rules {
            if r != "diplomacy" {
                return Err(format!("rules {r:?}: this is a diplomacy scenario"));
            }
        }
        let map = Map::standard();
        let phase = Phase::parse(&f.phase).ok_or(format!(
            "unknown phase {:?} (S1901M, F1901R, W1901A …)",
            f.phase
        ))?;
        let mut options = match &f.options {
            Some(t) => Options::from_table(t)?,
            None => Options::default(),
        };
        if let Some(e) = &f.edition {
            options.edition = Edition::parse(e)
                .ok_or(format!("unknown edition {e:?} (1971, 1982, 2023, dptg)"))?;
        }
        let mut state = State::standard(options);
        state.phase = phase;
        state.units = units_of(map, &f.units)?;
        match &f.supply_centers {
            Some(Centres::ByProvince(t)) => set_owners(map, &mut state, t)?,
            Some(Centres::List(l)) => {
                state.owners.iter_mut().for_each(|o| *o = None);
                for s in l {
                    let w: Vec<&str> = s.split_whitespace().collect();
                    let [power, prov] = w.as_slice() else {
                        return Err(format!("supply centre {s:?}: write POWER prov"));
                    };
                    let mut t = BTreeMap::new();
                    t.insert(prov.to_string(), power.to_string());
                    set_owners(map, &mut state, &t)?;
                }
            }
            None => {}
        }
        if let Some(t) = &f.occupiers {
            set_owners(map, &mut state, t)?;
        }
        let orders: Vec<(Option<u8>, String)> = match &f.orders {
            None => Vec::new(),
            Some(Orders::List(l)) => l.iter().map(|s| (None, s.clone())).collect(),
            Some(Orders::ByPower(t)) => {
                let mut v = Vec::new();
                for (p, text) in t {
                    let power = map.power_by_id(p).ok_or(format!("unknown power {p:?}"))?;
                    v.extend(lines(text).map(|l| (Some(power), l.to_string())));
                }
                v
            }
        };
        let mut prior = None;
        if !f.prior_orders.is_empty() {
            if phase.step != Step::Retreat {
                return Err("prior_orders belong to a retreat phase".into());
            }
            let names: Vec<String> = f
                .prior_orders
                .iter()
                .map(|p| {
                    p.order
                        .split_whitespace()
                        .take(3)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let mut before = state.clone();
            before.phase = Phase {
                step: Step::Movement,
                ..phase
            };
            before.units = units_of(map, &names)?;
            let prior_orders: Vec<(Option<u8>, String)> = f
                .prior_orders
                .iter()
                .map(|p| (None, p.order.clone()))
                .collect();
            let (after, _) = adjudicate(&before, &as_given(&prior_orders));
            state = after;
            state.phase = phase;
            prior = Some((before, prior_orders));
        } else if phase.step == Step::Retreat {
            return Err("a retreat phase needs the movement before it as prior_orders".into());
        }
        let complete = matches!(f.supply_centers, Some(Centres::List(_)));
        if phase.step == Step::Adjustment && !complete {
            for u in &state.units {
                let p = map.prov_of(u.loc);
                if map.is_centre(p) {
                    state.owners[p as usize] = Some(u.power);
                }
            }
        }
        Ok(Scenario {
            state,
            orders,
            prior,
        })
    }
}

fn set_owners(map: &Map, state: &mut State, t: &BTreeMap<String, String>) -> Result<(), String> {
    for (p, o) in t {
        let prov = map.prov_by_id(p).ok_or(format!("unknown province {p:?}"))?;
        if !map.is_centre(prov) {
            return Err(format!("{p} is not a supply centre"));
        }
        let power = map.power_by_id(o).ok_or(format!("unknown power {o:?}"))?;
        state.owners[prov as usize] = Some(power);
    }
    Ok(())
}

pub fn as_given(orders: &[(Option<u8>, String)]) -> Vec<(Option<u8>, &str)> {
    orders.iter().map(|(p, s)| (*p, s.as_str())).collect()
}

/// The JSON of `pbem adjudicate` for one phase: `before` adjudicated into `after`.
pub fn output_value(before: &State, after: &State, report: &Report) -> Value {
    let map = Map::standard();
    let results: Vec<Value> = report
        .results
        .iter()
        .map(|r| {
            let mut v = json!({
                "power": r.power.map(|p| map.power_id(p).to_string()),
                "order": r.order,
                "outcome": r.outcome.word(),
                "dislodged": r.dislodged,
                "detail": r.detail,
            });
            if r.default {
                v["default"] = json!(true);
            }
            v
        })
        .collect();
    let winner: Value = match after.winners.as_slice() {
        _ if !after.over => Value::Null,
        [one] => json!(map.power_id(*one)),
        _ => Value::Null,
    };
    json!({
        "rules": "diplomacy",
        "phase": before.phase.code(),
        "results": results,
        "units": after.units.iter().map(|u| u.text(map)).collect::<Vec<_>>(),
        "dislodged": after.dislodged.iter().map(|d| json!({
            "unit": d.unit.text(map),
            "attacker_from": map.prov_id(d.attacker_from),
            "by_convoy": d.by_convoy,
            "retreats": d.retreats.iter().map(|&l| map.loc_id(l)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "supply_centers": owners_map(map, &after.owners),
        "centres": centre_counts(after),
        "civil_disorder": report.civil_disorder.iter().map(|u| u.text(map)).collect::<Vec<_>>(),
        "events": report.events,
        "next_phase": if after.over { Value::Null } else { json!(after.phase.code()) },
        "over": after.over,
        "winner": winner,
        "draw": if after.over && after.winners.len() > 1 {
            json!(after.winners.iter().map(|&p| map.power_id(p)).collect::<Vec<_>>())
        } else {
            json!([])
        },
    })
}

/// Centres and units per power.
pub fn centre_counts(s: &State) -> Value {
    let map = Map::standard();
    let mut m = serde_json::Map::new();
    for q in 0..map.powers.len() as u8 {
        m.insert(
            map.power_id(q).to_string(),
            json!({"centres": s.centres_of(q), "units": s.units_of(q)}),
        );
    }
    Value::Object(m)
}

/// Adjudicates a scenario's text; the JSON to print.
pub fn adjudicate_text(text: &str) -> Result<String, String> {
    let s = Scenario::from_toml(text)?;
    let (after, report) = adjudicate(&s.state, &as_given(&s.orders));
    let mut v = output_value(&s.state, &after, &report);
    if let Some((before, orders)) = &s.prior {
        let (mid, rep) = adjudicate(before, &as_given(orders));
        v["prior"] = output_value(before, &mid, &rep);
    }
    Ok(serde_json::to_string_pretty(&v).expect("JSON") + "\n")
}
