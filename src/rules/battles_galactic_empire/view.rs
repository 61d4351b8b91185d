//! What each viewer may see (B13.3), and the text players read.
//!
//! Everything a player is sent is cut from the judge's whole JSON by [`cut`]: the
//! results mail's `results.json`, the text of its results (made by [`results_view`]
//! from the cut JSON) and the board (made by [`board_text`] from the cut position).
//! So the text and the JSON cannot disagree, and nothing the cut removes can reach a
//! player by another road.
//!
//! A power does not see the other power's `hand`, `chit_pool` and `draws`, the
//! contents of the common chit pool (its size stays), or the other power's result
//! lines marked `private` (`DISCARD` lines, `REPRESS` lines that cancelled nothing,
//! invalid lines).
//! An observer sees what both powers may see; a moderator sees everything.

use std::collections::BTreeSet;
use std::fmt::Write;

use serde_json::{json, Value};

use super::state::State;
use super::types::{chits_text, total, Chit, Chits};
use crate::rules::game::Viewer;

/// The JSON as `viewer` may see it.
pub fn cut(json: &Value, viewer: Viewer) -> Value {
    let may_see = |power: &str| match viewer {
        Viewer::Moderator => true,
        Viewer::Power(p) => p == power,
        Viewer::Public => false,
    };
    if viewer == Viewer::Moderator {
        return json.clone();
    }
    let mut v = json.clone();
    let Some(map) = v.as_object_mut() else {
        return v;
    };
    if let Some(Value::Array(powers)) = map.get_mut("powers") {
        for p in powers {
            let id = p["id"].as_str().unwrap_or("").to_string();
            if !may_see(&id) {
                if let Some(o) = p.as_object_mut() {
                    o.remove("hand");
                    o.remove("chit_pool");
                }
            }
        }
    }
    if let Some(Value::Array(draws)) = map.get_mut("draws") {
        draws.retain(|d| may_see(d["power"].as_str().unwrap_or("")));
    }
    if let Some(Value::Object(common)) = map.get_mut("common") {
        common.remove("chits");
    }
    if let Some(Value::Array(results)) = map.get_mut("results") {
        results.retain(|r| {
            r["private"].as_bool() != Some(true) || may_see(r["power"].as_str().unwrap_or(""))
        });
    }
    v
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// The width of the text players read.
pub const WIDTH: usize = 72;

/// Writes `text` as lines of at most [`WIDTH`] columns, the first starting with
/// `first`, the others indented by `indent` spaces; words are never split.
fn wrapped(out: &mut String, first: &str, text: &str, indent: usize) {
    let mut line = first.to_string();
    let mut empty = first.trim().is_empty();
    for word in text.split(' ') {
        if !empty && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(indent);
            empty = true;
        }
        if !empty && !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The results view the mail templates read (`results`, `events`, `systems`), made
/// from a (cut) JSON alone.
pub fn results_view(json: &Value) -> Value {
    let mut results: Vec<Value> = json["results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            json!({
                "power": r["power"], "order": r["order"],
                "outcome": r["outcome"], "detail": r["detail"],
            })
        })
        .collect();
    // The actions the judge took for a power (B7.2's default, B13.1: reported), under
    // that power's name.
    for a in json["actions"].as_array().into_iter().flatten() {
        if a["by"] != "default" {
            continue;
        }
        let order = match a["region"].as_str() {
            Some(region) => format!("{} {region}", s(&a["kind"]).to_uppercase()),
            None => s(&a["kind"]).to_uppercase(),
        };
        results.push(json!({
            "power": a["power"], "order": order, "outcome": a["outcome"],
            "detail": format!("by default (B7.2): {}", s(&a["detail"])),
        }));
    }
    // An event that only says again what a result line says (a region resolved
    // uncontrolled, B8.1, by a RESOLVE order or by default) is left out of the mail:
    // the result line tells it, under the power's name.
    let details: BTreeSet<&str> = json["results"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(
            json["actions"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|a| a["by"] == "default"),
        )
        .filter_map(|r| r["detail"].as_str())
        .collect();
    // A region's garrison (B8.8) ends the detail of the action that resolved it: its
    // event (`Omega: blue garrisons …`) is left out too.
    let resolved: Vec<(&str, &str)> = json["actions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["kind"] == "resolve")
        .map(|a| (s(&a["region"]), s(&a["detail"])))
        .collect();
    let ends_a_resolution = |text: &str| {
        text.split_once(": ").is_some_and(|(region, said)| {
            resolved.iter().any(|(r, detail)| {
                *r == region && (*detail == said || detail.ends_with(&format!("; {said}")))
            })
        })
    };
    // Chits played (B7.3) whose effect a result line tells are said as the order they
    // were played in, one line for each run of them.
    let mut events: Vec<String> = Vec::new();
    let mut plays: Vec<String> = Vec::new();
    let flush = |events: &mut Vec<String>, plays: &mut Vec<String>| {
        if !plays.is_empty() {
            events.push(format!("B7.3 chits played, in turn: {}", plays.join(", ")));
            plays.clear();
        }
    };
    for e in json["events"].as_array().into_iter().flatten() {
        let (step, text) = (s(&e["step"]), s(&e["text"]));
        // A power that sent no orders (B13.1): the judge's mails name it (`No orders
        // from red: the rules' defaults were played.`), results and HISTORY alike.
        let no_orders = step == "B13.1" && text.ends_with(" sent no orders: the defaults apply");
        if details.contains(text) || no_orders || (step == "B8.8" && ends_a_resolution(text)) {
            continue;
        }
        let told = text
            .split_once(": ")
            .filter(|(_, effect)| details.contains(effect))
            .and_then(|(play, _)| play.split_once(" plays "));
        match (step, told) {
            ("B7.3", Some((power, chit))) => plays.push(format!("{power} {chit}")),
            _ => {
                flush(&mut events, &mut plays);
                events.push(format!("{step} {text}"));
            }
        }
    }
    flush(&mut events, &mut plays);
    told_draws(&mut events, json["draws"].as_array().map_or(&[][..], |d| d));
    let systems: Vec<Value> = json["regions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["control"].is_string())
        .map(|r| json!([r["name"], r["control"]]))
        .collect();
    json!({ "results": results, "events": events, "systems": systems })
}

fn counts(v: &Value) -> String {
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

/// The turn whose victory check (B9.2) comes next in a position at `turn` and
/// `phase`: the check comes right after Politics, so in the build phase this turn's is
/// made and the next one is the next turn's; none once the game is over. The text
/// board and the picture both tell it.
pub fn next_check(turn: u32, phase: &str) -> Option<u32> {
    match phase {
        "over" => None,
        "build" => Some(turn + 1),
        _ => Some(turn.max(1)),
    }
}

/// The board as text, from a (cut) position JSON and the turn and phase.
pub fn board_text(json: &Value, turn: u32, phase: &str) -> String {
    let mut out = String::new();
    let chaos = json["chaos"].as_i64().unwrap_or(0);
    // The turn and phase are in every mail's first line (the judge's templates).
    let _ = writeln!(
        out,
        "Chaos Index {chaos} ({} band).",
        super::types::Band::of(chaos).name()
    );
    if let Some(check) = next_check(turn, phase) {
        let (low, high) = State::victory_levels(check);
        let _ = writeln!(
            out,
            "At the end of turn {check}: red wins at {low} or less, blue at {high} or more."
        );
    }
    let _ = writeln!(out, "\nRegion    C  P  R  control  fleets");
    let fleets = json["fleets"].as_array().cloned().unwrap_or_default();
    for r in json["regions"].as_array().into_iter().flatten() {
        let name = s(&r["name"]);
        let mut here: Vec<String> = Vec::new();
        for p in ["blue", "red"] {
            for garrison in [true, false] {
                let list: Vec<String> = fleets
                    .iter()
                    .filter(|f| {
                        s(&f["at"]) == name
                            && s(&f["power"]) == p
                            && f["garrison"].as_bool() == Some(garrison)
                    })
                    .map(|f| format!("{}{}", f["count"], s(&f["type"])))
                    .collect();
                if !list.is_empty() {
                    here.push(format!(
                        "{p}{} {}",
                        if garrison { " garrison" } else { "" },
                        list.join(" ")
                    ));
                }
            }
        }
        let head = format!(
            "{:<8} {:>2} {:>2} {:>2}  {:<7}  ",
            name,
            r["combat"].as_u64().unwrap_or(0),
            r["political"].as_u64().unwrap_or(0),
            r["resource"].as_u64().unwrap_or(0),
            r["control"].as_str().unwrap_or("-"),
        );
        let fleets_here = format!(
            "{}{}",
            if here.is_empty() {
                "-".to_string()
            } else {
                here.join("; ")
            },
            if r["resolved"].as_bool() == Some(true) {
                " (resolved)"
            } else {
                ""
            }
        );
        let indent = head.chars().count();
        wrapped(&mut out, &head, &fleets_here, indent);
    }
    for p in json["powers"].as_array().into_iter().flatten() {
        let id = s(&p["id"]);
        let display: Vec<String> = fleets
            .iter()
            .filter(|f| s(&f["at"]) == "base" && s(&f["power"]) == id)
            .map(|f| format!("{}{}", f["count"], s(&f["type"])))
            .collect();
        out.push('\n');
        wrapped(
            &mut out,
            &format!("{id}:"),
            &format!(
                "{} RP; {} in hand, {} in its own chit pool; TH supply {}",
                p["rp"],
                crate::rules::counted(p["hand_size"].as_u64().unwrap_or(0), "chit", "chits"),
                p["chit_pool_size"],
                p["th_supply"]
            ),
            2,
        );
        let display = if display.is_empty() {
            "nothing".to_string()
        } else {
            display.join(" ")
        };
        wrapped(&mut out, "  display:", &display, 4);
        wrapped(&mut out, "  force pool:", &counts(&p["force_pool"]), 4);
        if let Some(h) = p.get("hand") {
            wrapped(&mut out, "  hand (secret):", &chits(h), 4);
        }
        if let Some(c) = p.get("chit_pool") {
            wrapped(&mut out, "  own chit pool (secret):", &chits(c), 4);
        }
    }
    let common = &json["common"];
    let mut pool =
        crate::rules::counted(common["chits_size"].as_u64().unwrap_or(0), "chit", "chits");
    if let Some(c) = common.get("chits") {
        pool += &format!(" ({})", chits(c));
    }
    out.push('\n');
    wrapped(&mut out, "Common chit pool:", &pool, 2);
    wrapped(
        &mut out,
        "Common fleet pool:",
        &counts(&common["fleets"]),
        2,
    );
    out
}

/// The line that sums up the race: the Chaos Index and the regions each side holds
/// (results, welcome and game-over mails; the board beside it has the next victory
/// check, for the turn that check is made in).
pub fn standing(state: &State) -> Vec<String> {
    let controlled = |p| {
        state
            .controlled(p)
            .map(super::types::region_name)
            .collect::<Vec<_>>()
    };
    let list = |v: Vec<&str>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    // A game won says why (B9.2): the Index against the level of the turn it ended.
    let won = match state.winner {
        Some(p) if state.phase == super::state::Phase::Over => {
            let (low, high) = State::victory_levels(state.turn);
            let level = match p {
                super::types::Power::Red => format!("{low} or less"),
                super::types::Power::Blue => format!("{high} or more"),
            };
            format!(
                " at the end of turn {}: {p} wins at {level} (B9.2)",
                state.turn
            )
        }
        _ => String::new(),
    };
    vec![format!(
        "Chaos Index {} ({} band){won}; regions held: blue {}; red {}.",
        state.chaos,
        super::types::Band::of(state.chaos).name(),
        list(controlled(super::types::Power::Blue)),
        list(controlled(super::types::Power::Red))
    )]
}

/// The chits each power drew that `draws` holds (its own, or both powers' for a
/// moderator) told in the event that counts them (B5.1): `blue draws 5 chits: 5 from
/// its own chit pool (BUILD 2, TACTICAL 3), 0 from the common chit pool; 5 in hand`.
/// Were there not exactly one such event for a power, its chits are told one a line.
fn told_draws(events: &mut Vec<String>, draws: &[Value]) {
    let mut drawn: Vec<(&str, [Chits; 2])> = Vec::new();
    let mut lines: Vec<(&str, String)> = Vec::new();
    for d in draws {
        let (power, own) = (s(&d["power"]), s(&d["from"]) == "own");
        lines.push((
            power,
            format!(
                "B5 {power} draws {} from {} chit pool",
                s(&d["chit"]),
                if own { "its own" } else { "the common" }
            ),
        ));
        let Some(chit) = Chit::from_word(s(&d["chit"])) else {
            continue;
        };
        let k = match drawn.iter().position(|(p, _)| *p == power) {
            Some(k) => k,
            None => {
                drawn.push((power, [[0; 5]; 2]));
                drawn.len() - 1
            }
        };
        drawn[k].1[usize::from(!own)][chit.index()] += 1;
    }
    for (power, [own, common]) in drawn {
        let head = format!("B5.1 {power} draws ");
        let at: Vec<usize> = (0..events.len())
            .filter(|&k| events[k].starts_with(&head))
            .collect();
        if let [k] = at[..] {
            let mut text = events[k].clone();
            for (pool, chits) in [("its own", own), ("the common", common)] {
                let said = format!(" from {pool} chit pool");
                if total(&chits) > 0 && text.contains(&said) {
                    text = text.replacen(&said, &format!("{said} ({})", chits_text(&chits)), 1);
                }
            }
            if text != events[k] {
                events[k] = text;
                continue;
            }
        }
        events.extend(
            lines
                .iter()
                .filter(|(p, _)| *p == power)
                .map(|(_, line)| line.clone()),
        );
    }
}
