//! Foundation and Empire (seed 000; rules of record R1–R10).
//!
//! [`adjudicate`] is the whole rule set: a pure function of a [`State`], the orders
//! each power wrote, and the game's seed. Each phase lives in its own module:
//! [`setup`] (R7), [`movement`] with [`resolve`] (R3–R6.2), [`retreat`] (R6),
//! [`placement`] (R8.4–R8.6), and [`turn`] for the end of a turn (R8.1–R8.3, R9);
//! [`solo`] writes the Imperium's orders in the solo game (R10). Orders are read in
//! two stages: [`syntax`] (text to shape) then [`check`] (shape against position).

pub mod board;
pub mod check;
pub mod generate;
pub mod movement;
pub mod outcome;
pub mod placement;
pub mod play;
pub mod position;
pub mod report;
pub mod resolve;
pub mod retreat;
pub mod scenario;
pub mod setup;
pub mod solo;
pub mod stored;
pub mod syntax;
pub mod turn;

use std::collections::BTreeMap;

use board::PowerId;
use outcome::{Invalid, Outcome, Report};
use position::{Phase, State};

use crate::dice::Dice;
use crate::rules::{LineCheck, PhaseLabel, RuleSet};

/// Each power's orders for the phase, as written.
pub type Submissions = BTreeMap<PowerId, String>;

/// Adjudicates the current phase of `state`. The same arguments always give the same
/// result; nothing outside them is read.
pub fn adjudicate(state: &State, orders: &Submissions, seed: u64) -> (State, Report) {
    let mut dice = Dice::for_phase(seed, state.turn, state.phase.id());
    let owing = owing(state);
    let mut refused = Vec::new();
    let mut taken = Submissions::new();
    for (&power, text) in orders {
        if owing.contains(&power) {
            taken.insert(power, text.clone());
            continue;
        }
        let why = if state.judge_power() == Some(power) {
            Invalid::JudgePlays
        } else {
            Invalid::NothingOwed {
                phase: state.phase.id(),
            }
        };
        for line in syntax::lines(text) {
            refused.push(check::refused(power, None, line.written, &why));
        }
    }
    let (next, mut report) = match state.phase {
        Phase::Setup => setup::adjudicate(state, &taken, &mut dice),
        Phase::Movement => movement::adjudicate(state, &taken, &mut dice),
        Phase::Retreat => retreat::adjudicate(state, &taken),
        Phase::Placement => placement::adjudicate(state, &taken),
        Phase::Over => (state.clone(), Report::default()),
    };
    report.results.extend(refused);
    report.canonicalise();
    (next, report)
}

/// The powers that owe orders in the current phase (§2): in setup every human power;
/// in movement those with fleets; in a retreat those with a dislodged fleet; in a
/// placement those with a new fleet due. The judge's own power owes nothing.
pub fn owing(state: &State) -> Vec<PowerId> {
    let judge = state.judge_power();
    let mut powers: Vec<PowerId> = match state.phase {
        Phase::Setup => state.powers_in_play(),
        Phase::Movement => state.fleets.iter().map(|f| f.power).collect(),
        Phase::Retreat => state.dislodged.iter().map(|d| d.fleet.power).collect(),
        Phase::Placement => state.pending.iter().map(|p| p.power).collect(),
        Phase::Over => Vec::new(),
    };
    powers.sort();
    powers.dedup();
    powers.retain(|&p| Some(p) != judge);
    powers
}

/// The rule set as the judge sees it.
pub struct FoundationEmpire;

impl RuleSet for FoundationEmpire {
    type State = State;
    type Report = Report;
    const ID: &'static str = "foundation-empire";

    fn phase(state: &State) -> PhaseLabel {
        PhaseLabel {
            turn: state.turn,
            phase: state.phase.id(),
            over: state.phase == Phase::Over,
        }
    }

    fn owing(state: &State) -> Vec<String> {
        owing(state)
            .into_iter()
            .map(|p| state.board.power(p).id.clone())
            .collect()
    }

    /// Reads a submission as the adjudication would, without keeping the result: each
    /// line is accepted in canonical form or refused with its reason.
    fn check(state: &State, power: &str, text: &str) -> Vec<LineCheck> {
        let Some(power) = state.board.power_by_id(power) else {
            return Vec::new();
        };
        let orders = Submissions::from([(power, text.to_string())]);
        let (_, report) = adjudicate(state, &orders, 0);
        let mut written: Vec<_> = report
            .results
            .into_iter()
            .filter(|r| r.power == power && r.line.is_some())
            .collect();
        written.sort_by_key(|r| (r.line, r.outcome != Outcome::Invalid));
        let mut checks = Vec::new();
        for r in written {
            let order = r.order_text(&state.board);
            let unreadable = matches!(
                &r.detail,
                outcome::Detail::Invalid(why) if matches!(**why, Invalid::Unparseable(_))
            );
            checks.push(match r.outcome {
                Outcome::Invalid if unreadable => LineCheck::Unreadable {
                    line: order,
                    reason: r.detail_text(&state.board),
                },
                Outcome::Invalid => LineCheck::Refused {
                    line: order,
                    reason: r.detail_text(&state.board),
                },
                _ => LineCheck::Accepted { order },
            });
        }
        checks
    }

    fn adjudicate(state: &State, orders: &BTreeMap<String, String>, seed: u64) -> (State, Report) {
        let orders = orders
            .iter()
            .filter_map(|(p, text)| Some((state.board.power_by_id(p)?, text.clone())))
            .collect();
        adjudicate(state, &orders, seed)
    }
}
