//! The JSON of `pbem adjudicate` for a phase (`../shared/specs/foundation-hjelmberg-scenario.md`):
//! the position after it in the scenario's shape, with the phase's results, events and
//! draws (whole: secrets included, each secret marked with who may read it).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::file::to_file;
use super::outcome::{Draw, Log};
use super::state::{Phase, State};

fn by_canonical(mut v: Vec<(String, Value)>, order: &[String]) -> Map<String, Value> {
    v.sort_by_key(|(k, _)| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
    v.into_iter().collect()
}

/// A value for each planet, in the planets' canonical order.
fn by_planet<V: Clone + Into<Value>>(
    list: &Option<BTreeMap<String, V>>,
    order: &[String],
) -> Value {
    let values = list
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, v.into()))
        .collect();
    Value::Object(by_canonical(values, order))
}

/// The JSON of `pbem adjudicate` (whole: secrets included).
pub fn output_value(before: &State, after: &State, log: &Log) -> Value {
    let d = &*after.data;
    let c = &after.core;
    let file = to_file(after);
    let name = |s: u8| after.name(s).to_string();
    let results: Vec<Value> = log
        .results
        .iter()
        .map(|r| {
            let mut m = Map::new();
            m.insert("power".into(), name(r.seat).into());
            m.insert("line".into(), r.line.into());
            m.insert("order".into(), r.order.clone().into());
            m.insert("outcome".into(), r.outcome.word().into());
            match &r.secret {
                Some(s) => {
                    m.insert("detail".into(), format!("{}; {s}", r.detail).into());
                    m.insert("public_detail".into(), r.detail.clone().into());
                    m.insert("secret_to".into(), json!([name(r.seat)]));
                }
                None => {
                    m.insert("detail".into(), r.detail.clone().into());
                }
            }
            Value::Object(m)
        })
        .collect();
    let events: Vec<Value> = log
        .events
        .iter()
        .map(|e| {
            let mut m = Map::new();
            m.insert("step".into(), e.step.into());
            match &e.secret {
                Some(s) => {
                    m.insert("text".into(), s.text.clone().into());
                    m.insert("public_text".into(), e.text.clone().into());
                    m.insert(
                        "secret_to".into(),
                        s.to.iter().map(|&k| Value::from(name(k))).collect(),
                    );
                }
                None => {
                    m.insert("text".into(), e.text.clone().into());
                }
            }
            Value::Object(m)
        })
        .collect();
    let draws: Vec<Value> = log.draws.iter().map(|x| draw_json(after, x)).collect();
    let players = serde_json::to_value(&file.player).expect("players serialise");
    let planet_order: Vec<String> = d.planets.clone();
    let supply: Map<String, Value> = (0..d.colours.len() as u8)
        .map(|k| (d.colour_name(k).to_string(), Value::from(c.supply(d, k))))
        .collect();
    let mut m = Map::new();
    m.insert("rules".into(), super::ID.into());
    m.insert("phase".into(), before.core.phase.id().into());
    m.insert("turn".into(), before.core.round.into());
    m.insert("results".into(), Value::Array(results));
    m.insert("events".into(), Value::Array(events));
    m.insert("draws".into(), Value::Array(draws));
    m.insert("players".into(), players);
    m.insert("seating".into(), json!(after.seating));
    m.insert("next".into(), name(c.next).into());
    m.insert("round".into(), c.round.into());
    m.insert("empire_kin".into(), name(c.empire_kin).into());
    m.insert("empire".into(), json!(file.empire));
    m.insert("planets".into(), by_planet(&file.planets, &planet_order));
    m.insert("stock".into(), by_planet(&file.stock, &planet_order));
    m.insert(
        "colony_board".into(),
        Value::Object(by_canonical(
            file.colony_board
                .clone()
                .unwrap_or_default()
                .into_iter()
                .map(|(k, v)| (k, serde_json::to_value(v).expect("space")))
                .collect(),
            &planet_order,
        )),
    );
    m.insert(
        "piles".into(),
        serde_json::to_value(&file.piles).expect("piles"),
    );
    m.insert("goals".into(), json!(file.goals));
    m.insert("revealed".into(), json!(file.revealed));
    m.insert("supply".into(), Value::Object(supply));
    m.insert("discard".into(), json!(file.discard));
    m.insert(
        "options".into(),
        serde_json::to_value(&file.options).expect("options"),
    );
    m.insert(
        "next_phase".into(),
        match c.phase {
            Phase::Over => "over",
            _ => "play",
        }
        .into(),
    );
    m.insert(
        "winner".into(),
        file.winner.map(Value::from).unwrap_or(Value::Null),
    );
    Value::Object(m)
}

fn draw_json(state: &State, x: &Draw) -> Value {
    let mut m = Map::new();
    m.insert("step".into(), x.step.into());
    m.insert("pile".into(), x.pile.into());
    m.insert("drew".into(), x.drew.clone().into());
    m.insert("for".into(), x.for_.clone().into());
    if let Some(to) = &x.to {
        m.insert(
            "secret_to".into(),
            to.iter().map(|&k| Value::from(state.name(k))).collect(),
        );
    }
    Value::Object(m)
}
