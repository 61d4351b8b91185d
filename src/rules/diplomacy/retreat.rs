//! The retreat phase: each dislodged unit's retreat or disbanding (a unit without a
//! valid retreat order is disbanded; two retreats to one province both disband).

use std::collections::BTreeMap;

use crate::rules::words::{and_list, or_list};

use super::adjustments::plural;
use super::check::{self, Does, Order};
use super::map::{Loc, Prov};
use super::phase::{end_of_season, last_per_unit, result, OrderResult, Outcome, Report};
use super::state::{State, Step, Unit};

pub(super) fn retreats(state: &State, orders: Vec<Order>, report: &mut Report) -> State {
    let map = state.map();
    let (by_unit, other) = last_per_unit(orders, report);
    for o in &other {
        report.results.push(result(
            o,
            Outcome::Invalid,
            false,
            o.invalid
                .clone()
                .unwrap_or_else(|| "not a retreat order".into()),
        ));
    }
    let mut next = state.clone();
    next.dislodged.clear();
    // Where each dislodged unit tries to go.
    let wants: Vec<Option<Loc>> = (0..state.dislodged.len())
        .map(|k| match by_unit.get(k).and_then(|o| o.as_ref()) {
            Some(Order {
                does: Does::Retreat { to },
                invalid: None,
                ..
            }) => Some(*to),
            _ => None,
        })
        .collect();
    for (k, d) in state.dislodged.iter().enumerate() {
        let o = by_unit.get(k).and_then(|o| o.as_ref());
        let bounce = wants[k].and_then(|to| {
            let others: Vec<String> = wants
                .iter()
                .enumerate()
                .filter(|&(j, w)| j != k && w.is_some_and(|w| map.prov_of(w) == map.prov_of(to)))
                .map(|(j, _)| {
                    map.prov_id(map.prov_of(state.dislodged[j].unit.loc))
                        .to_string()
                })
                .collect();
            (!others.is_empty()).then(|| others.join(", "))
        });
        let (outcome, detail) = match (o, wants[k]) {
            (Some(o), _) if o.invalid.is_some() => (
                Outcome::Invalid,
                format!("{}; disbanded", o.invalid.clone().unwrap_or_default()),
            ),
            (Some(_), Some(to)) => match &bounce {
                Some(b) => (Outcome::Fails, format!("bounced with {b}; disbanded")),
                None => {
                    next.units.push(Unit { loc: to, ..d.unit });
                    (Outcome::Succeeds, String::new())
                }
            },
            (Some(_), None) => (Outcome::Succeeds, "disbanded".into()),
            (None, _) => {
                report.results.push(OrderResult {
                    power: Some(d.unit.power),
                    order: format!("{} D", d.unit.text(map)),
                    outcome: Outcome::Succeeds,
                    dislodged: false,
                    detail: "no retreat order: disbanded".into(),
                    default: true,
                });
                continue;
            }
        };
        report
            .results
            .push(result(o.expect("ordered"), outcome, false, detail));
    }
    next.units.sort();
    end_of_season(&mut next, report);
    next
}

/// What a retreat receipt says under a power's orders standing (`text`, as kept): how
/// many units it has dislodged, how many its orders retreat or disband, and each unit
/// left without an order, with where it may go (`No order yet for RUS F rum (may
/// retreat to bla, bul/ec or sev): without an order by the deadline, it disbands.`).
/// Orders are read as the adjudication reads them: a unit's last order stands, and an
/// impossible one leaves the unit without an order. Two of the power's own units
/// retreating to one province both disband, and the note says so; another power's
/// retreats are not its business. Nothing outside a retreat phase, nor for a power with
/// nothing dislodged.
pub(super) fn receipt_notes(state: &State, power: &str, text: &str) -> Vec<String> {
    let map = state.map();
    let Some(q) = map.power_by_id(power) else {
        return Vec::new();
    };
    if state.over || state.phase.step != Step::Retreat {
        return Vec::new();
    }
    let mine: Vec<usize> = (0..state.dislodged.len())
        .filter(|&k| state.dislodged[k].unit.power == q)
        .collect();
    if mine.is_empty() {
        return Vec::new();
    }
    // The last order read for each of the power's dislodged units.
    let mut last: BTreeMap<usize, Order> = BTreeMap::new();
    for o in check::lines(text).filter_map(|l| check::read(state, Some(q), l).ok()) {
        if let Some(k) = o.unit.filter(|&k| o.power == q && mine.contains(&k)) {
            last.insert(k, o);
        }
    }
    let mut retreats: Vec<(usize, Loc)> = Vec::new();
    let mut disbanded = 0u32;
    let mut unordered: Vec<String> = Vec::new();
    for &k in &mine {
        match last.get(&k) {
            Some(Order {
                does: Does::Retreat { to },
                invalid: None,
                ..
            }) => retreats.push((k, *to)),
            Some(Order {
                does: Does::Disband,
                invalid: None,
                ..
            }) => disbanded += 1,
            _ => {
                let d = &state.dislodged[k];
                let to: Vec<String> = d
                    .retreats
                    .iter()
                    .map(|&l| map.loc_id(l).to_string())
                    .collect();
                unordered.push(format!(
                    "{} (may retreat to {})",
                    d.unit.text(map),
                    or_list(&to)
                ));
            }
        }
    }
    let n = mine.len() as u32;
    let retreated = retreats.len() as u32;
    let mut note = format!("Dislodged units: {n}.");
    let ordered = match (retreated, disbanded) {
        (0, 0) => None,
        (r, 0) => Some(format!("Your orders retreat {r}")),
        (0, d) => Some(format!("Your orders disband {d}")),
        (r, d) => Some(format!("Your orders retreat {r} and disband {d}")),
    };
    if let Some(o) = ordered {
        note += &format!(" {o}");
        note += if unordered.is_empty() {
            ": nothing is left to order."
        } else {
            "."
        };
    }
    if !unordered.is_empty() {
        let left = unordered.len() as u32;
        note += &format!(
            " {} yet for {}: without {} by the deadline, {}.",
            plural(left, "No order", "No orders"),
            and_list(&unordered),
            plural(left, "an order", "orders"),
            plural(left, "it disbands", "they disband")
        );
    }
    // The power's own retreats to one province: all of them disband.
    let mut by_prov: BTreeMap<Prov, Vec<String>> = BTreeMap::new();
    for &(k, to) in &retreats {
        by_prov
            .entry(map.prov_of(to))
            .or_default()
            .push(state.dislodged[k].unit.text(map));
    }
    for (p, units) in by_prov.into_iter().filter(|(_, u)| u.len() > 1) {
        note += &format!(
            " {} {} retreat to {}: {} disband.",
            and_list(&units),
            if units.len() == 2 { "both" } else { "all" },
            map.prov_id(p),
            if units.len() == 2 { "both" } else { "all" }
        );
    }
    vec![note]
}
