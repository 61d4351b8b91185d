//! What players read: the position by power (units, centres, counts), dislodged units
//! with their retreats, the adjustments owed, and the results view of the mails.

use std::fmt::Write;

use super::map::Map;
use super::phase::Report;
use super::state::{State, Step};
use crate::rules::{ResultLine, ResultsView};

/// The position as text, power by power.
pub fn board_text(s: &State) -> String {
    let map = Map::standard();
    let mut out = String::new();
    if s.over {
        let _ = writeln!(out, "The game is over ({}).", s.phase.words());
    } else {
        let _ = writeln!(out, "{} ({}).", s.phase.words(), s.phase.code());
    }
    for q in 0..map.powers.len() as u8 {
        if !s.alive(q) {
            continue;
        }
        let units: Vec<String> = s
            .units
            .iter()
            .filter(|u| u.power == q)
            .map(|u| format!("{} {}", u.kind.letter(), map.loc_id(u.loc)))
            .collect();
        let centres: Vec<&str> = (0..map.provinces.len())
            .filter(|&p| s.owners[p] == Some(q))
            .map(|p| map.prov_id(p as u8))
            .collect();
        let _ = writeln!(
            out,
            "\n{} ({}): {} centres, {} units",
            map.powers[q as usize].1,
            map.power_id(q),
            centres.len(),
            units.len()
        );
        wrap(&mut out, "  units:   ", &units.join(", "));
        wrap(&mut out, "  centres: ", &centres.join(", "));
        for d in s.dislodged.iter().filter(|d| d.unit.power == q) {
            let r: Vec<&str> = d.retreats.iter().map(|&l| map.loc_id(l)).collect();
            let _ = writeln!(
                out,
                "  dislodged: {} {} (from {}), may retreat to: {}",
                d.unit.kind.letter(),
                map.loc_id(d.unit.loc),
                map.prov_id(d.attacker_from),
                if r.is_empty() {
                    "nowhere (disbands)".to_string()
                } else {
                    r.join(", ")
                }
            );
        }
        if s.phase.step == Step::Adjustment && !s.over {
            let a = s.adjustment(q);
            if a > 0 {
                let _ = writeln!(out, "  builds: {}", builds_owed(s, q));
            } else if a < 0 {
                let _ = writeln!(out, "  removals: {}", -a);
            }
        }
    }
    let neutral: Vec<&str> = (0..map.provinces.len())
        .filter(|&p| map.is_centre(p as u8) && s.owners[p].is_none())
        .map(|p| map.prov_id(p as u8))
        .collect();
    if !neutral.is_empty() {
        out.push('\n');
        wrap(&mut out, "Neutral centres: ", &neutral.join(", "));
    }
    out
}

/// The builds a power is owed and how many it can use, after `builds: `: `2 (free home
/// centres: bud, vie)`, `3, 2 possible (free home centres: bud, vie)`, `2, none possible
/// (no free home centre)`.
pub fn builds_owed(s: &State, q: u8) -> String {
    let map = s.map();
    let owed = s.adjustment(q).max(0) as usize;
    let sites: Vec<&str> = s.build_sites(q).iter().map(|&p| map.prov_id(p)).collect();
    let possible = match sites.len() {
        0 => ", none possible".to_string(),
        n if n < owed => format!(", {n} possible"),
        _ => String::new(),
    };
    let free = if sites.is_empty() {
        "no free home centre".to_string()
    } else {
        format!("free home centres: {}", sites.join(", "))
    };
    format!("{owed}{possible} ({free})")
}

fn wrap(out: &mut String, head: &str, text: &str) {
    let mut line = head.to_string();
    let indent = " ".repeat(head.len());
    for word in text.split(' ') {
        if line.len() + word.len() + 1 > 72 && line.trim().len() > head.trim().len() {
            let _ = writeln!(out, "{}", line.trim_end());
            line = indent.clone();
        }
        line.push_str(word);
        line.push(' ');
    }
    let _ = writeln!(out, "{}", line.trim_end());
}

/// The view model of the results mail.
pub fn results_view(after: &State, report: &Report) -> ResultsView {
    let map = Map::standard();
    let results = report
        .results
        .iter()
        .map(|r| {
            let power = r.power.map(|p| map.power_id(p)).unwrap_or_default();
            // The mail has a column of powers: each order is written there without its
            // own (`FRA  A par - bur`, not `FRA  FRA A par - bur`).
            let order = match r
                .order
                .strip_prefix(power)
                .and_then(|o| o.strip_prefix(' '))
            {
                Some(order) if !power.is_empty() => order,
                _ => &r.order,
            };
            ResultLine {
                power: power.to_string(),
                order: order.to_string(),
                outcome: r.outcome.word(),
                detail: r.detail.clone(),
            }
        })
        .collect();
    let mut events = report.events.clone();
    for u in &report.civil_disorder {
        events.push(format!("Civil disorder: {} removed", u.text(map)));
    }
    let systems = (0..map.provinces.len())
        .filter_map(|p| {
            let o = after.owners[p]?;
            Some((
                map.prov_id(p as u8).to_string(),
                map.power_id(o).to_string(),
            ))
        })
        .collect();
    ResultsView {
        results,
        events,
        systems,
    }
}

/// Centre counts, for the results mails.
pub fn standing(s: &State) -> Vec<String> {
    let map = Map::standard();
    let mut v: Vec<(usize, u8)> = (0..map.powers.len() as u8)
        .filter(|&q| s.alive(q))
        .map(|q| (s.centres_of(q), q))
        .collect();
    v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    vec![v
        .iter()
        .map(|(c, q)| format!("{} {c}", map.power_id(*q)))
        .collect::<Vec<_>>()
        .join(", ")]
}

/// An example orders mail for a power in the current phase.
pub fn example_orders(s: &State, power: &str) -> String {
    let map = Map::standard();
    let Some(q) = map.power_by_id(power) else {
        return String::new();
    };
    match s.phase.step {
        Step::Movement => s
            .units
            .iter()
            .filter(|u| u.power == q)
            .map(|u| format!("{} {} H", u.kind.letter(), map.loc_id(u.loc)))
            .collect::<Vec<_>>()
            .join("\n"),
        Step::Retreat => s
            .dislodged
            .iter()
            .filter(|d| d.unit.power == q)
            .map(|d| match d.retreats.first() {
                Some(&l) => format!(
                    "{} {} R {}",
                    d.unit.kind.letter(),
                    map.loc_id(d.unit.loc),
                    map.loc_id(l)
                ),
                None => format!("{} {} D", d.unit.kind.letter(), map.loc_id(d.unit.loc)),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Step::Adjustment => {
            let a = s.adjustment(q);
            if a > 0 {
                match s.build_sites(q).first() {
                    Some(&p) => format!("BUILD A {}", map.prov_id(p)),
                    None => "WAIVE".into(),
                }
            } else if a < 0 {
                s.units
                    .iter()
                    .find(|u| u.power == q)
                    .map(|u| format!("REMOVE {} {}", u.kind.letter(), map.loc_id(u.loc)))
                    .unwrap_or_default()
            } else {
                String::new()
            }
        }
    }
}
