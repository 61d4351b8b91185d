//! The retreat phase: each dislodged unit's retreat or disbanding (a unit without a
//! valid retreat order is disbanded; two retreats to one province both disband).

use super::check::{Does, Order};
use super::map::Loc;
use super::phase::{end_of_season, last_per_unit, result, OrderResult, Outcome, Report};
use super::state::{State, Unit};

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
