//! A War! game as JSON (`../shared/specs/war-scenario.md`, "Output"): the position as
//! the scenario format writes it, and the output of `pbem adjudicate`: the phase, its
//! log, the position after.

use serde_json::{json, Value};

use super::end::victory_points;
use super::outcome::Log;
use super::state::{Phase, State};

fn owner_name(s: &State, o: Option<usize>) -> String {
    match o {
        Some(p) => s.players[p].id.clone(),
        None => "natives".into(),
    }
}

/// The position part of the output (also `position_json`).
pub fn position(s: &State) -> serde_json::Map<String, Value> {
    let map = &s.map;
    let regions: Vec<Value> = s
        .regions
        .iter()
        .enumerate()
        .map(|(r, x)| {
            let mut spheres = serde_json::Map::new();
            for (p, &n) in x.spheres.iter().enumerate() {
                if n > 0 {
                    spheres.insert(s.players[p].id.clone(), n.into());
                }
            }
            json!({
                "id": map.regions[r].id,
                "zone": map.zones[map.regions[r].zone],
                "owner": owner_name(s, x.owner),
                "native": x.native.map(|m| m.to_string()).unwrap_or_else(|| "none".into()),
                "chit": x.chit.to_string(),
                "developed": x.developed,
                "buildings": x.buildings.names(),
                "spheres": spheres,
                "revolt": x.revolt,
                "suppressors": x.suppressors.iter().map(|&p| s.players[p].id.clone()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut units = Vec::new();
    let mut fleets = Vec::new();
    for p in 0..s.np() {
        for &r in &map.regions_by_id {
            let u = s.units(r, p);
            if !u.is_empty() {
                units.push(json!({"player": s.players[p].id, "at": map.regions[r].id, "units": u.to_json()}));
            }
        }
        for &k in &map.seas_by_id {
            let f = s.fleet(k, p);
            if f.n > 0 || !f.cargo.is_empty() {
                fleets.push(json!({"player": s.players[p].id, "at": map.seas[k].id, "n": f.n, "cargo": f.cargo.to_json()}));
            }
        }
    }
    let wars: Vec<Value> = s
        .wars
        .iter()
        .map(|w| {
            json!({
                "players": [s.players[w.players.0].id, s.players[w.players.1].id],
                "declared_by": s.players[w.declared_by].id,
                "turn": w.turn,
                "movement": w.movement,
            })
        })
        .collect();
    let vp = victory_points(s);
    let mut vps = serde_json::Map::new();
    for (player, points) in s.players.iter().zip(&vp) {
        vps.insert(player.id.clone(), (*points).into());
    }
    let players: Vec<Value> = s
        .players
        .iter()
        .map(|p| json!({"id": p.id, "pp": p.pp, "dp": p.dp, "eliminated": p.eliminated}))
        .collect();
    let mut out = serde_json::Map::new();
    out.insert("players".into(), players.into());
    out.insert("regions".into(), regions.into());
    out.insert("units".into(), units.into());
    out.insert("fleets".into(), fleets.into());
    out.insert("wars".into(), wars.into());
    out.insert("suez".into(), s.suez.into());
    out.insert(
        "pool".into(),
        json!({
            "native": s.pool_native.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "chits": s.pool_chits.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        }),
    );
    out.insert(
        "order".into(),
        s.order
            .iter()
            .filter(|&&p| !s.players[p].eliminated || s.phase == Phase::Over)
            .map(|&p| Value::from(s.players[p].id.clone()))
            .collect::<Vec<_>>()
            .into(),
    );
    out.insert("vp".into(), Value::Object(vps));
    out.insert(
        "winner".into(),
        match s.winners.as_slice() {
            [] => Value::Null,
            [one] => Value::from(one.clone()),
            many => many.iter().map(|w| Value::from(w.clone())).collect(),
        },
    );
    out
}

/// The JSON value of `pbem adjudicate` for one phase.
pub fn output_value(before: &State, after: &State, log: &Log) -> Value {
    let mut pos = position(after);
    let mut out = serde_json::Map::new();
    out.insert("rules".into(), "war-imperialism".into());
    out.insert("turn".into(), before.turn.into());
    out.insert("phase".into(), before.phase.kind().into());
    out.insert(
        "movement".into(),
        before
            .phase
            .movement()
            .map(Value::from)
            .unwrap_or(Value::Null),
    );
    out.insert(
        "results".into(),
        serde_json::to_value(&log.results).expect("json"),
    );
    out.insert(
        "events".into(),
        serde_json::to_value(&log.events).expect("json"),
    );
    out.insert(
        "battles".into(),
        serde_json::to_value(&log.battles).expect("json"),
    );
    for key in [
        "players", "regions", "units", "fleets", "wars", "suez", "pool", "order",
    ] {
        out.insert(key.into(), pos.remove(key).expect("position key"));
    }
    out.insert("next_phase".into(), after.phase.kind().into());
    out.insert("next_turn".into(), after.turn.into());
    out.insert(
        "next_movement".into(),
        after
            .phase
            .movement()
            .map(Value::from)
            .unwrap_or(Value::Null),
    );
    out.insert("vp".into(), pos.remove("vp").expect("vp"));
    out.insert("winner".into(), pos.remove("winner").expect("winner"));
    out.insert(
        "dice".into(),
        serde_json::to_value(&log.dice).expect("json"),
    );
    if before.phase == Phase::Draft {
        out.insert(
            "picks".into(),
            serde_json::to_value(&log.picks).expect("json"),
        );
    }
    Value::Object(out)
}

pub fn output_json(before: &State, after: &State, log: &Log) -> String {
    let mut text = serde_json::to_string_pretty(&output_value(before, after, log)).expect("json");
    text.push('\n');
    text
}
