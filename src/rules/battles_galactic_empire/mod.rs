//! Battles for the Galactic Empire (seed 003; rules of record B1–B14,
//! `../shared/rules/battles-for-the-galactic-empire.md`): a two-player game with
//! hidden hands.
//!
//! [`adjudicate`] is the whole rule set: a pure function of a [`State`], the orders
//! each power wrote and the game's seed. Orders are read in two stages, [`syntax`]
//! then [`check`]; a phase then runs through the rules in their order:
//!
//! | rules | module |
//! |---|---|
//! | B1 powers, regions, values, Chaos Index, control | [`types`], [`state`] |
//! | B2 fleets and chits | [`types`], [`state`] |
//! | B3 scenarios and setup | [`setup`] |
//! | B4 turn and phases | [`adjudicate`], [`check::owing`] |
//! | B5 chit draw | [`draw`] |
//! | B6 deployment | [`deployment`] |
//! | B7 actions, initiative, Repression | [`actions`] |
//! | B8 region resolution, battles, standing instructions | [`battle`], [`instructions`] |
//! | B9 politics and victory | [`politics`] |
//! | B10 building, discards | [`build`] |
//! | B11 options (switcheroo, upgrades at the start of a turn) | [`build`], [`battle`] |
//! | B12 reading orders | [`syntax`], [`check`] |
//! | B13 defaults, dice, secrecy | [`rng`], [`view`] |
//!
//! [`scenario`] reads scenario files and writes the JSON of `pbem adjudicate`;
//! [`view`] cuts results and positions for each viewer (B13.3) and writes the text
//! players read; [`play`] plugs the game into the judge.

pub mod actions;
pub mod battle;
pub mod build;
pub mod check;
pub mod deployment;
pub mod draw;
pub mod generate;
pub mod instructions;
pub mod outcome;
pub mod picture;
pub mod play;
pub mod politics;
pub mod rng;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod syntax;
pub mod types;
pub mod view;

use std::collections::BTreeMap;

use check::Entry;
use outcome::Log;
use rng::Rng;
use state::{Phase, State};
use types::{Chit, Power};

use crate::rules::{LineCheck, PhaseLabel, RuleSet};

/// The rule set, for the [`RuleSet`] interface.
pub struct Bfge;

/// A phase being adjudicated: the state as it changes, the report, the dice.
pub struct Run {
    pub state: State,
    pub log: Log,
    pub rng: Rng,
}

/// Adjudicates the current phase. The same arguments always give the same result.
pub fn adjudicate(state: &State, orders: &BTreeMap<String, String>, seed: u64) -> (State, Log) {
    let rng = Rng::for_phase(seed, state.turn, state.phase.id());
    adjudicate_with(state, orders, rng)
}

/// [`adjudicate`] with the phase's streams given (a scenario's pinned dice and draws).
pub fn adjudicate_with(state: &State, orders: &BTreeMap<String, String>, rng: Rng) -> (State, Log) {
    let mut log = Log::default();
    if state.phase == Phase::Over {
        return (state.clone(), log);
    }
    let entries = check::read(state, orders, &mut log);
    for p in check::owing(state) {
        if entries[p.index()].is_none() {
            log.event("B13.1", format!("{p} sent no orders: the defaults apply"));
        }
    }
    let mut run = Run {
        state: state.clone(),
        log,
        rng,
    };
    match state.phase {
        Phase::Setup => setup::adjudicate(&mut run, entries),
        Phase::Deployment => deployment::adjudicate(&mut run, entries),
        Phase::Actions => actions::adjudicate(&mut run, entries),
        Phase::Build => build::adjudicate(&mut run, entries),
        Phase::Over => {}
    }
    run.state.tidy();
    (run.state, run.log)
}

/// One power's orders of the phase; none if it sent nothing.
pub type Plans = [Option<Vec<Entry>>; 2];

/// Moves one chit from a hand to the common chit pool (B2.3: a played chit goes there
/// at once).
pub fn spend(state: &mut State, p: Power, chit: Chit) {
    state.side_mut(p).hand[chit.index()] -= 1;
    state.common.chits[chit.index()] += 1;
}

impl RuleSet for Bfge {
    type State = State;
    type Report = Log;
    const ID: &'static str = "battles-galactic-empire";

    fn phase(state: &State) -> PhaseLabel {
        PhaseLabel {
            turn: state.turn,
            phase: state.phase.id(),
            over: state.phase == Phase::Over,
        }
    }

    fn owing(state: &State) -> Vec<String> {
        check::owing(state)
            .into_iter()
            .map(|p| p.id().to_string())
            .collect()
    }

    fn check(state: &State, power: &str, text: &str) -> Vec<LineCheck> {
        let orders = BTreeMap::from([(power.to_string(), text.to_string())]);
        let mut log = Log::default();
        check::read(state, &orders, &mut log);
        log.results
            .into_iter()
            .map(|r| match r.outcome {
                // A line whose first word is no order at all is chatter: the sender's
                // own business, never kept as an order nor shown to the other power.
                outcome::Outcome::Invalid
                    if matches!(
                        syntax::parse(&r.order),
                        Err(syntax::SyntaxError::UnknownVerb(_))
                    ) =>
                {
                    LineCheck::Unreadable {
                        line: r.order,
                        reason: r.detail,
                    }
                }
                outcome::Outcome::Invalid => LineCheck::Refused {
                    line: r.order,
                    reason: r.detail,
                },
                _ => LineCheck::Accepted { order: r.order },
            })
            .collect()
    }

    fn adjudicate(state: &State, orders: &BTreeMap<String, String>, seed: u64) -> (State, Log) {
        adjudicate(state, orders, seed)
    }
}
