//! Godsfire (seed 004; rules of record G1–G11): a turn is a movement phase, a combat
//! phase (skipped when no stack touches a hostile one), an interphase (economy,
//! politics, subversion, war and peace) and a defence phase.
//!
//! [`adjudicate`] is the whole rule set: a pure function of a [`State`], the orders
//! each power wrote, and the game's seed. Orders are read in two stages, [`syntax`]
//! then [`check`] (with [`orders`] for moves, stances, attacks and retreats); a phase
//! runs as a [`run::Run`] through the steps of the rules in their order: [`movement`]
//! (G4), [`combat`] (G5) and [`conquest`] (G5.5, the end of every combat phase),
//! [`economy`] (G6), [`politics`] (G7), [`placement`] (G8), [`defence`] (G9), [`end`]
//! (G10); [`foresee`] what a receipt can know of an interphase beforehand. [`place`]
//! is the map's geometry and the stacks by place, [`strength`] and [`tables`] G2's
//! strengths and the seed's two tables, [`dice`] a phase's dice.
//! [`scenario`] reads scenario files and writes the JSON of `pbem adjudicate`;
//! [`report`] writes the text players read.

pub mod check;
pub mod combat;
pub mod conquest;
pub mod defence;
pub mod dice;
pub mod economy;
pub mod end;
pub mod foresee;
pub mod generate;
pub mod map;
pub mod movement;
pub mod orders;
pub mod outcome;
pub mod picture;
pub mod place;
pub mod placement;
pub mod play;
pub mod politics;
pub mod report;
pub mod run;
pub mod scenario;
pub mod state;
pub mod strength;
pub mod syntax;
pub mod tables;

use std::collections::BTreeMap;

use check::{check_line, order_text, Checked, Context, Invalid};
use dice::PhaseDice;
use outcome::{Event, LineResult, Log, Outcome};
use place::{Place, Position};
use run::{Entry, Run};
use state::{Phase, State};

use crate::dice::Dice;
use crate::rules::{LineCheck, PhaseLabel, RuleSet};

/// The rule set, for the [`RuleSet`] interface.
pub struct Godsfire;

/// The order lines of a submission: blank lines, `#` comments and quoted reply lines
/// (`>`) are left out. Yields (line number, text).
pub fn lines(text: &str) -> impl Iterator<Item = (u32, &str)> {
    text.lines().enumerate().filter_map(|(k, raw)| {
        let line = raw.split('#').next().unwrap_or("").trim();
        (!line.is_empty() && !raw.trim_start().starts_with('>')).then_some((k as u32 + 1, line))
    })
}

/// The powers that owe orders now: in a movement phase, every power in play with units
/// on the map or at least two systems (G4.8); in a combat phase, those with a stack in
/// contact with hostile units (G5.9); every power in play in an interphase (G3); in a
/// defence phase, those with money in a bank of their own (anything else has nothing
/// to decide, G3).
pub fn owing(state: &State) -> Vec<String> {
    match state.phase {
        Phase::Over => Vec::new(),
        Phase::Movement => state
            .powers_in_play()
            .filter(|p| {
                state.systems_owned(&p.id) >= 2
                    || state
                        .stacks
                        .iter()
                        .any(|k| k.power == p.id && !k.units.is_empty())
            })
            .map(|p| p.id.clone())
            .collect(),
        Phase::Combat => owing_combat(state),
        Phase::Interphase => state.powers_in_play().map(|p| p.id.clone()).collect(),
        Phase::Defence => state
            .powers_in_play()
            .filter(|p| state.systems.iter().any(|s| s.owner == p.id && s.bank > 0))
            .map(|p| p.id.clone())
            .collect(),
    }
}

/// The powers in play with a stack in contact with hostile units (G5.9), whatever the
/// phase.
pub fn owing_combat(state: &State) -> Vec<String> {
    owing_combat_at(state, &Position::new(state))
}

/// [`owing_combat`] with the position at hand.
pub fn owing_combat_at(state: &State, pos: &Position) -> Vec<String> {
    let contacts = pos.contacts();
    state
        .powers
        .iter()
        .enumerate()
        .filter(|(k, p)| !p.out && contacts[*k])
        .map(|(_, p)| p.id.clone())
        .collect()
}

/// Adjudicates the current phase. The same arguments always give the same result.
pub fn adjudicate(state: &State, orders: &BTreeMap<String, String>, seed: u64) -> (State, Log) {
    adjudicate_with_dice(state, orders, seed, &[])
}

/// Adjudicates with the phase's first dice pinned (scenario files only,
/// `../shared/specs/godsfire-scenario.md`).
pub fn adjudicate_with_dice(
    state: &State,
    orders: &BTreeMap<String, String>,
    seed: u64,
    pinned: &[u8],
) -> (State, Log) {
    let mut log = Log::default();
    if state.phase == Phase::Over {
        return (state.clone(), log);
    }
    // Movement and combat work on the stacks by place ([`Position`]) and write them
    // back whole: the stacks are not copied for them.
    let mut next = match state.phase {
        Phase::Movement | Phase::Combat => state.without_stacks(),
        _ => state.clone(),
    };
    if !next.setup_dice.is_empty() {
        log.event(Event::new(
            "G1.5",
            format!(
                "{} dice rolled at setup for the region values the scenario left open",
                next.setup_dice.len()
            ),
        ));
        log.dice.append(&mut next.setup_dice);
    }
    let pos = Position::new(state);
    let entries = read(state, &pos, orders, &mut log);
    let dice = PhaseDice::new(
        Dice::for_phase(seed, state.turn, state.phase.id()),
        pinned.to_vec(),
    );
    let mut run = Run::new(next, log, dice, entries);
    match state.phase {
        Phase::Movement => movement::run(&mut run, pos),
        Phase::Combat => combat::run(&mut run, pos),
        Phase::Interphase => interphase(&mut run),
        Phase::Defence => defence(&mut run),
        Phase::Over => {}
    }
    if run.restack {
        // Stacks listed by power, then place, whatever the end steps added or took.
        Position::new(&run.state).write(&mut run.state);
    }
    (run.state, run.log)
}

fn interphase(run: &mut Run) {
    economy::tax(run);
    economy::loans(run);
    economy::transfers(run);
    economy::purchases(run);
    economy::loyalty_and_economy(run);
    politics::party_changes(run);
    politics::revolts(run);
    politics::change_ministers(run);
    politics::subversion(run);
    politics::allegiance_losses(run);
    politics::decline(run);
    politics::systems_in_revolt(run);
    end::eliminate(run);
    placement::subvert(run);
    placement::war_and_peace(run);
    if !end::victory(run) {
        run.state.phase = Phase::Defence;
        if owing(&run.state).is_empty() {
            // G3: nobody has anything to decide in the defence phase; it is skipped.
            run.event(Event::new(
                "G3",
                "the defence phase is skipped: nobody has money to spend in it",
            ));
            defence(run);
        }
    }
}

fn defence(run: &mut Run) {
    defence::desubvert(run);
    defence::counter(run);
    defence::place_units(run);
    end::end_turn(run);
}

impl RuleSet for Godsfire {
    type State = State;
    type Report = Log;
    const ID: &'static str = "godsfire";

    fn phase(state: &State) -> PhaseLabel {
        PhaseLabel {
            turn: state.turn,
            phase: state.phase.id(),
            over: state.phase == Phase::Over,
        }
    }

    fn owing(state: &State) -> Vec<String> {
        owing(state)
    }

    fn check(state: &State, power: &str, text: &str) -> Vec<LineCheck> {
        let orders = BTreeMap::from([(power.to_string(), text.to_string())]);
        let mut log = Log::default();
        read(state, &Position::new(state), &orders, &mut log);
        log.results
            .into_iter()
            .map(|r| match r.outcome {
                // A line whose first word is no order at all is chatter, not an order.
                Outcome::Invalid
                    if matches!(
                        syntax::parse(&r.order),
                        Err(syntax::SyntaxError::UnknownKeyword(_))
                    ) =>
                {
                    LineCheck::Unreadable {
                        line: r.order,
                        reason: r.detail,
                    }
                }
                Outcome::Invalid => LineCheck::Refused {
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

/// Reads every power's orders: a result for each line (invalid ones settled now), and
/// the orders taken.
fn read(
    state: &State,
    pos: &Position,
    orders: &BTreeMap<String, String>,
    log: &mut Log,
) -> Vec<Entry> {
    let owing = match state.phase {
        Phase::Combat => owing_combat_at(state, pos),
        _ => owing(state),
    };
    let mut entries = Vec::new();
    // Power by power in the orders' (alphabetical) order, as games recorded before
    // were adjudicated: the steps take their entries in this order, and results.json
    // lists them so. The mails tell them in the game's order (`report::results_view`).
    for (power, text) in orders {
        let Some(p) = state.power_index(power) else {
            continue;
        };
        let id = state.powers[p].id.clone();
        let mut context = Context::default();
        for (number, line) in lines(text) {
            let taken = if state.powers[p].out {
                Err(Invalid::Out)
            } else if !owing.contains(&id) {
                Err(Invalid::NothingOwed { phase: state.phase })
            } else {
                check_line(state, pos, &mut context, p, line)
            };
            let (order, outcome, detail) = match &taken {
                Ok(order) => (
                    order_text(state, order),
                    Outcome::Failed,
                    "not carried out".to_string(),
                ),
                Err(why) => (line.to_string(), Outcome::Invalid, why.to_string()),
            };
            log.results.push(LineResult {
                power: id.clone(),
                order,
                outcome,
                detail,
                line: number,
            });
            if let Ok(order) = taken {
                entries.push(Entry {
                    power: p,
                    result: log.results.len() - 1,
                    order,
                });
            }
        }
        // G4.3: a stance needs units that no valid move order of the power moves.
        entries.retain(|e: &Entry| {
            let Checked::Stance { at, .. } = e.order else {
                return true;
            };
            if e.power != p {
                return true;
            }
            let mut left = pos.board.get(Place::Cell(at), p);
            left.sub(
                context
                    .moved
                    .get(&Place::Cell(at))
                    .copied()
                    .unwrap_or_default(),
            );
            if !left.is_empty() {
                return true;
            }
            let r = &mut log.results[e.result];
            r.outcome = Outcome::Invalid;
            r.detail = format!("your move orders leave no unit at {at} to take the stance");
            false
        });
    }
    entries
}
