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
pub mod picture;
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
    adjudicate_marked(state, orders, seed, &mut |_| {})
}

/// [`adjudicate`], calling `mark` with the name of each stage of a movement phase as it
/// ends, so that a benchmark can tell where the time goes (`pbem bench --stages`). The
/// rules read no clock; `mark` changes nothing they compute.
pub fn adjudicate_marked(
    state: &State,
    orders: &Submissions,
    seed: u64,
    mark: &mut dyn FnMut(&'static str),
) -> (State, Report) {
    let mut dice = Dice::for_phase(seed, state.turn, state.phase.id());
    let owing = owing(state);
    let mut refused = Vec::new();
    // Orders from powers that owe none are refused; the others are read as they are
    // (copied only when some must be left out).
    let owed = |p: &PowerId| owing.contains(p);
    let kept;
    let taken = if orders.keys().all(owed) {
        orders
    } else {
        kept = orders
            .iter()
            .filter(|(p, _)| owed(p))
            .map(|(&p, text)| (p, text.clone()))
            .collect::<Submissions>();
        &kept
    };
    for (&power, text) in orders {
        if owed(&power) {
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
        Phase::Setup => setup::adjudicate(state, taken, &mut dice),
        Phase::Movement => movement::adjudicate(state, taken, &mut dice, mark),
        Phase::Retreat => retreat::adjudicate(state, taken),
        Phase::Placement => placement::adjudicate(state, taken),
        Phase::Over => (state.clone(), Report::default()),
    };
    // A movement phase writes its results in canonical order (its many fleets'
    // results in one pass); the other phases' few are sorted here.
    if state.phase == Phase::Movement && refused.is_empty() {
        report.canonicalise_events();
    } else {
        report.results.extend(refused);
        report.canonicalise();
    }
    mark("report put in order");
    (next, report)
}

/// The powers that owe orders in the current phase (§2): in setup every human power;
/// in movement those with fleets; in a retreat those with a dislodged fleet; in a
/// placement those with a new fleet due. The judge's own power owes nothing.
pub fn owing(state: &State) -> Vec<PowerId> {
    let judge = state.judge_power();
    let all = state.board.powers().len();
    let mut owes = vec![false; all];
    let mut mark = |powers: &mut dyn Iterator<Item = PowerId>| {
        let mut found = 0;
        for p in powers {
            if !std::mem::replace(&mut owes[p.0 as usize], true) {
                found += 1;
                if found == all {
                    break;
                }
            }
        }
    };
    match state.phase {
        Phase::Setup => mark(&mut state.powers_in_play().into_iter()),
        Phase::Movement => mark(&mut state.fleets.iter().map(|f| f.power)),
        Phase::Retreat => mark(&mut state.dislodged.iter().map(|d| d.fleet.power)),
        Phase::Placement => mark(&mut state.pending.iter().map(|p| p.power)),
        Phase::Over => {}
    }
    (0..all)
        .map(|p| PowerId(p as u8))
        .filter(|&p| owes[p.0 as usize] && Some(p) != judge)
        .collect()
}

/// The systems a line names by name (not by coordinate), each as its name on the board
/// and its sector's label: `Terminus - B2` gives `("Terminus", "A1")`.
fn named_systems(
    board: &board::Board,
    line: &Result<syntax::Syntax, String>,
) -> Vec<(String, String)> {
    use syntax::Syntax;
    let words: Vec<&str> = match line {
        Ok(Syntax::Hold { fleet }) | Ok(Syntax::Disband { fleet }) => vec![*fleet],
        Ok(Syntax::Move { fleet, to }) | Ok(Syntax::Retreat { fleet, to }) => vec![*fleet, *to],
        Ok(Syntax::Support { fleet, target }) => {
            let mut w = vec![*fleet];
            w.extend(target.iter().flat_map(|&(from, to)| [from, to]));
            w
        }
        Ok(Syntax::Place { system, at }) => system.iter().copied().chain([*at]).collect(),
        Err(_) => Vec::new(),
    };
    let mut names: Vec<(String, String)> = Vec::new();
    for word in words {
        if board::parse_coordinate(word).is_some() {
            continue;
        }
        if let Some(id) = board.system_by_name(word) {
            let system = board.system(id);
            let pair = (system.name.clone(), board.name(system.at));
            if !names.contains(&pair) {
                names.push(pair);
            }
        }
    }
    names
}

/// An accepted order in canonical form with each system the player named by name shown
/// by name and sector: `A1 - B2` written as `Terminus - B2` reads `Terminus (A1) - B2`,
/// `PLACE A1` written as `PLACE Terminus` reads `PLACE Terminus (A1)`.
fn echo_names(order: &str, names: &[(String, String)]) -> String {
    order
        .split(' ')
        .map(|word| {
            match names
                .iter()
                .find(|(name, label)| word == label || word == name)
            {
                Some((name, label)) => format!("{name} ({label})"),
                None => word.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
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
        // The systems each line named by name, to echo beside their sectors.
        let named: BTreeMap<u32, Vec<(String, String)>> = syntax::lines(text)
            .map(|l| (l.written.number, named_systems(&state.board, &l.syntax)))
            .filter(|(_, names)| !names.is_empty())
            .collect();
        let mut checks = Vec::new();
        for r in written {
            let mut order = r.order_text(&state.board);
            let why = match &r.detail {
                outcome::Detail::Invalid(why) => Some(&**why),
                _ => None,
            };
            let unreadable = matches!(why, Some(Invalid::Unparseable(_) | Invalid::NotAnOrder(_)));
            let replaced = why == Some(&Invalid::Replaced);
            checks.push(match r.outcome {
                Outcome::Invalid if replaced => LineCheck::Replaced {
                    line: order,
                    reason: r.detail_text(&state.board),
                },
                Outcome::Invalid if unreadable => LineCheck::Unreadable {
                    line: order,
                    reason: r.detail_text(&state.board),
                },
                Outcome::Invalid => LineCheck::Refused {
                    line: order,
                    reason: r.detail_text(&state.board),
                },
                _ => {
                    if let Some(names) = r.line.and_then(|n| named.get(&n.get())) {
                        order = echo_names(&order, names);
                    }
                    LineCheck::Accepted { order }
                }
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
