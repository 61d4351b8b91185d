//! Standard Diplomacy, DATC-compliant (v3.0 with its preferred options).
//!
//! [`phase::adjudicate`] is the whole rule set: a pure function of a [`State`] and
//! the order lines each power wrote. The map is data ([`map`], `standard.map`); order
//! lines are read in two stages, [`syntax`] then [`check`]; a movement phase is
//! resolved by [`resolve`] (Kruijswijk's guess-and-check with the Szykman paradox
//! rule); [`phase`] carries out retreats, adjustments, civil disorder, victory and
//! draws; [`scenario`] reads scenario files and writes the JSON of `pbem adjudicate`;
//! [`report`] writes the text players read; [`play`] plugs it into the judge.

pub mod adjustments;
pub mod check;
pub mod convoy;
pub mod generate;
pub mod map;
pub mod phase;
pub mod picture;
pub mod play;
pub mod report;
pub mod resolve;
mod retreat;
pub mod scenario;
pub mod state;
pub mod syntax;

use std::collections::BTreeMap;

use crate::rules::{LineCheck, PhaseLabel, RuleSet};
use state::{State, Step};

/// The rule set, for the [`RuleSet`] interface.
pub struct Diplomacy;

/// Orders by power id (as the judge keeps them) as the adjudicator takes them.
pub fn given(state: &State, orders: &BTreeMap<String, String>) -> Vec<(Option<u8>, String)> {
    let map = state.map();
    let mut v = Vec::new();
    for (power, text) in orders {
        let p = map.power_by_id(power);
        if p.is_none() {
            continue;
        }
        v.extend(check::lines(text).map(|l| (p, l.to_string())));
    }
    v
}

/// The powers that owe orders now.
pub fn owing(s: &State) -> Vec<String> {
    let map = s.map();
    if s.over {
        return Vec::new();
    }
    let powers: Vec<u8> = match s.phase.step {
        Step::Movement => (0..map.powers.len() as u8)
            .filter(|&q| s.alive(q))
            .collect(),
        Step::Retreat => (0..map.powers.len() as u8)
            .filter(|&q| s.dislodged.iter().any(|d| d.unit.power == q))
            .collect(),
        Step::Adjustment => adjustments::owing_adjustments(s),
    };
    powers
        .into_iter()
        .map(|q| map.power_id(q).to_string())
        .collect()
}

impl RuleSet for Diplomacy {
    type State = State;
    type Report = phase::Report;
    const ID: &'static str = "diplomacy";

    fn phase(state: &State) -> PhaseLabel {
        PhaseLabel {
            turn: u32::from(state.phase.year),
            phase: state.phase.id(),
            over: state.over,
        }
    }

    fn owing(state: &State) -> Vec<String> {
        owing(state)
    }

    fn check(state: &State, power: &str, text: &str) -> Vec<LineCheck> {
        let map = state.map();
        let p = map.power_by_id(power);
        let read: Vec<_> = check::lines_as_written(text)
            .map(|(written, line)| (written, line, check::read(state, p, line)))
            .collect();
        // In movement and retreats a unit's last order stands; an earlier one is
        // replaced, as the adjudication will have it (phase::last_per_unit). Removals
        // written twice are both read (the second "already removed").
        let mut last = BTreeMap::new();
        for (i, (_, _, o)) in read.iter().enumerate() {
            if let Ok(check::Order { unit: Some(k), .. }) = o {
                if state.phase.step != Step::Adjustment {
                    last.insert(*k, i);
                }
            }
        }
        // In winter a power's builds and removals depend on its own orders only: they
        // are played here as the adjudication will, so that a build beyond those owed
        // or a second removal of a unit is refused at once.
        let mut adjusted = BTreeMap::new();
        if state.phase.step == Step::Adjustment {
            let (lines, orders): (Vec<usize>, Vec<check::Order>) = read
                .iter()
                .enumerate()
                .filter_map(|(i, (_, _, o))| Some((i, o.as_ref().ok()?.clone())))
                .unzip();
            let mut report = phase::Report::default();
            adjustments::adjustments(state, orders, &mut report);
            adjusted = lines.into_iter().zip(report.results).collect();
        }
        read.into_iter()
            .enumerate()
            .map(|(i, (written, line, o))| match o {
                Ok(o)
                    if o.unit
                        .is_some_and(|k| last.get(&k).is_some_and(|&j| j != i)) =>
                {
                    LineCheck::Replaced {
                        line: line.to_string(),
                        reason: format!("{} ({})", o.text, phase::REPLACED),
                    }
                }
                Ok(o)
                    if adjusted
                        .get(&i)
                        .is_some_and(|r| r.outcome != phase::Outcome::Succeeds) =>
                {
                    LineCheck::Refused {
                        line: line.to_string(),
                        reason: format!("{} ({})", o.text, adjusted[&i].detail),
                    }
                }
                Ok(o) => match o.invalid {
                    None => match o.note {
                        Some(note) => LineCheck::Noted {
                            order: o.text,
                            mark: "ok",
                            note,
                        },
                        None => LineCheck::Accepted { order: o.text },
                    },
                    Some(reason) => LineCheck::Refused {
                        line: line.to_string(),
                        reason: format!("{} ({reason})", o.text),
                    },
                },
                // No order at all (chatter, a greeting): the sender's own business,
                // never kept as an order nor shown to another power.
                Err(reason) if !syntax::is_order_attempt(map, line) => LineCheck::Unreadable {
                    line: written.to_string(),
                    reason,
                },
                Err(reason) => LineCheck::Refused {
                    line: line.to_string(),
                    reason,
                },
            })
            .collect()
    }

    fn adjudicate(
        state: &State,
        orders: &BTreeMap<String, String>,
        _seed: u64,
    ) -> (State, phase::Report) {
        let g = given(state, orders);
        phase::adjudicate(state, &scenario::as_given(&g))
    }
}
