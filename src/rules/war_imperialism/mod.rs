//! War! Age of Imperialism (seed 002; rules of record W1–W11), for 3–6 players by
//! mail: a draft and a setup, then turns of three rounds of simultaneous secret orders
//! (production, movement 1, movement 2) carried out in the drawn movement order.
//!
//! [`adjudicate`] is the whole rule set: a pure function of a [`State`], the orders
//! each player wrote and the game's seed. Orders are read by [`syntax`] and
//! [`check`]; a phase runs as a [`run::Run`] through the rules' steps: [`setup`] (W3),
//! [`production`] (W4), [`movement`] (W5) with [`battle`] (W6) and [`naval`] (W6.8,
//! W5.6), [`actions`] (W7), [`end`] (W8, W11.7). [`scenario`] reads scenario files and
//! writes the JSON of `pbem adjudicate`; [`report`] writes the text players read.

pub mod actions;
mod aftermath;
pub mod battle;
pub mod check;
mod construction;
pub mod end;
pub mod generate;
pub mod map;
pub mod movement;
mod natives;
pub mod naval;
pub mod order;
pub mod outcome;
pub mod output;
pub mod picture;
pub mod play;
pub mod production;
pub mod report;
pub mod run;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod syntax;
mod voyage;

use std::collections::BTreeMap;

use outcome::{Event, Log, Outcome};
use run::Run;
use state::{Phase, State};

use crate::rules::{LineCheck, PhaseLabel, RuleSet};

/// The rule set, for the [`RuleSet`] interface.
pub struct WarImperialism;

/// Adjudicates the current phase. The same arguments always give the same result.
pub fn adjudicate(state: &State, orders: &BTreeMap<String, String>, seed: u64) -> (State, Log) {
    adjudicate_with_dice(state, orders, seed, &[])
}

/// As [`adjudicate`], the first rolls taken from `listed` (a scenario's `dice`).
pub fn adjudicate_with_dice(
    state: &State,
    orders: &BTreeMap<String, String>,
    seed: u64,
    listed: &[u32],
) -> (State, Log) {
    if state.phase == Phase::Over {
        return (state.clone(), Log::default());
    }
    let mut s = state.clone();
    let setup_dice = std::mem::take(&mut s.setup_dice);
    let mut run = Run::new(s, orders, seed, listed);
    if !setup_dice.is_empty() {
        let drawn = run.order_with_rolls(&run.s.order, &setup_dice, "for the setup order");
        run.log.dice.splice(0..0, setup_dice);
        run.event(Event::new(
            "W2.3",
            format!(
                "setup order drawn at the game's creation (1d6 each, ties roll again): {drawn}"
            ),
        ));
    }
    match run.s.phase {
        Phase::Draft => run.draft(),
        Phase::Setup => run.setup(),
        Phase::Production => run.production(),
        Phase::Movement1 | Phase::Movement2 => run.movement(),
        Phase::Over => {}
    }
    (run.s, run.log)
}

impl RuleSet for WarImperialism {
    type State = State;
    type Report = Log;
    const ID: &'static str = "war-imperialism";

    fn phase(state: &State) -> PhaseLabel {
        PhaseLabel {
            turn: state.turn,
            phase: state.phase.id(),
            over: state.phase == Phase::Over,
        }
    }

    fn owing(state: &State) -> Vec<String> {
        run::owing(state)
    }

    fn check(state: &State, power: &str, text: &str) -> Vec<LineCheck> {
        let Some(p) = state.player_index(power) else {
            return Vec::new();
        };
        let ids: Vec<String> = state.players.iter().map(|x| x.id.clone()).collect();
        let mut earlier = Vec::new();
        run::lines_as_written(text)
            .map(
                |(_, written, line)| match run::read_line_after(state, p, line, &earlier) {
                    Ok(order) => {
                        let text = order.text(&state.map, &ids);
                        earlier.push(order);
                        LineCheck::Accepted { order: text }
                    }
                    // No order at all (chatter, a greeting): the sender's own business,
                    // never kept as an order nor shown to another player.
                    Err(reason) if !syntax::is_order_attempt(line) => LineCheck::Unreadable {
                        line: written.to_string(),
                        reason,
                    },
                    Err(reason) => LineCheck::Refused {
                        line: line.to_string(),
                        reason,
                    },
                },
            )
            .collect()
    }

    fn adjudicate(state: &State, orders: &BTreeMap<String, String>, seed: u64) -> (State, Log) {
        adjudicate(state, orders, seed)
    }
}

/// Whether any result line is `invalid` (for tests and tools).
pub fn any_invalid(log: &Log) -> bool {
    log.results.iter().any(|r| r.outcome == Outcome::Invalid)
}
