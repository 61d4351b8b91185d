//! Foundation by Nicholas Hjelmberg (seed 001; rules of record H1–H12,
//! `../shared/rules/foundation-hjelmberg.md`): kins on a dynasty board, ships on star
//! gates, cubes, colonies, research and secret goals, by mail.
//!
//! [`adjudicate`] is the whole rule set: a pure function of a [`State`], the orders each
//! player wrote and the game's seed. The board and tiles are data ([`data`], H1.6);
//! orders are read by [`syntax`] (H10); a phase is [`setup`] (H3) or a round or turn of
//! [`turn`] (H4), whose lines move kins ([`kins`], H5), act ([`actions`], H6) and take
//! colony tiles ([`tiles`], H8); the Empire is [`empire`] (H7), victory [`goals`] (H9).
//! [`outcome`] keeps what each reader may see (H11), [`scenario`] reads and writes the
//! scenario files, [`report`] writes what players read, [`receipt`] previews a
//! submission for its receipt, [`play`] is what the judge drives.

pub mod actions;
pub mod data;
pub mod empire;
pub mod file;
pub mod generate;
pub mod goals;
pub mod kins;
pub mod order;
pub mod outcome;
pub mod output;
pub mod picture;
pub mod play;
pub mod receipt;
pub mod report;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod stored;
pub mod syntax;
pub mod tiles;
pub mod turn;

use std::collections::BTreeMap;

use outcome::Log;
use state::{Pace, Phase, State};

use crate::rules::{LineCheck, PhaseLabel, RuleSet};

pub const ID: &str = "foundation-hjelmberg";

/// The rule set, for the [`RuleSet`] interface.
pub struct FoundationHjelmberg;

/// The label the judge shows and stores: the setup is turn 0; in `round` pace a phase is
/// a round and numbered by it; in `turn` pace each player's turn is a phase, numbered
/// from 1 across the game (round r, seat k of n: (r − 1)·n + k + 1).
pub fn label(state: &State) -> PhaseLabel {
    let c = &state.core;
    let turn = match (c.phase, state.options.pace) {
        (Phase::Setup, _) => 0,
        (_, Pace::Round) => c.round,
        (_, Pace::Turn) => (c.round.max(1) - 1) * u32::from(c.seats) + u32::from(c.next) + 1,
    };
    PhaseLabel {
        turn,
        phase: match c.phase {
            Phase::Setup => "setup",
            Phase::Over => "over",
            _ => "play",
        },
        over: c.phase == Phase::Over,
    }
}

/// Who owes orders (H3.3, H4.1).
pub fn owing(state: &State) -> Vec<String> {
    match (state.core.phase, state.options.pace) {
        (Phase::Over, _) => Vec::new(),
        (Phase::Play, Pace::Turn) => vec![state.name(state.core.next).to_string()],
        _ => state.seating.clone(),
    }
}

/// Adjudicates the current phase; `draws` are a scenario's forced draws. Gives the new
/// state, the reports, and a forced draw that was not in its pile (an error of the
/// scenario), if any.
pub fn adjudicate_with(
    state: &State,
    orders: &BTreeMap<String, String>,
    seed: u64,
    draws: Vec<String>,
) -> (State, Log, Option<String>) {
    let mut next = state.clone();
    let (core, log, error) = match state.core.phase {
        Phase::Over => return (next, Log::default(), None),
        Phase::Setup => {
            let (core, log) = setup::run(state, orders);
            (core, log, None)
        }
        Phase::Play => turn::play(state, orders, seed, draws),
    };
    *next.core = core;
    next.creation.clear();
    // Once-a-turn marks mean nothing between phases.
    for s in 0..next.core.seats {
        let p = next.core.player_mut(s);
        p.used = [0; data::MAX_TILES];
        p.reserve_used = false;
    }
    (next, log, error)
}

/// Adjudicates the current phase. The same arguments always give the same result.
pub fn adjudicate(state: &State, orders: &BTreeMap<String, String>, seed: u64) -> (State, Log) {
    let (s, log, _) = adjudicate_with(state, orders, seed, Vec::new());
    (s, log)
}

/// Whether a line's first word could begin an order (else it is chatter, H10).
fn order_word(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    let up = first.to_ascii_uppercase();
    let head = up.split('-').next().unwrap_or("");
    matches!(
        up.as_str(),
        "START"
            | "PLACE"
            | "RAISE"
            | "RETRIEVE"
            | "DEPOSIT"
            | "EXCHANGE"
            | "RESERVE"
            | "RETURN"
            | "EMPIRE"
            | "DECLARE"
            | "SPACE-TRAVEL"
    ) || data::Action::parse(&up).is_some()
        || data::Action::parse(head).is_some()
}

/// A receipt (H4.4): each line in canonical form with what it would do when carried
/// out, as far as known now ([`receipt`]), or why it is refused; a line that is no
/// order at all is unreadable.
pub fn check(state: &State, power: &str, text: &str) -> Vec<LineCheck> {
    let Some(seat) = state.seat_of(power) else {
        return Vec::new();
    };
    let setup = state.core.phase == Phase::Setup;
    let trial = receipt::trial(state, seat, text);
    let raw: Vec<&str> = text
        .lines()
        .filter(|r| {
            let l = r.split('#').next().unwrap_or("").trim();
            !l.is_empty() && !r.trim_start().starts_with('>')
        })
        .collect();
    syntax::lines(text)
        .zip(raw)
        .map(
            |((line, t), raw)| match syntax::parse_line(&state.data, t, setup) {
                Err(reason) if !order_word(t) => LineCheck::Unreadable {
                    line: raw.trim().to_string(),
                    reason,
                },
                Err(reason) => LineCheck::Refused {
                    line: t.to_string(),
                    reason,
                },
                Ok(l) => {
                    let order = order::line_text(&state.data, &l);
                    match trial.lines.iter().find(|p| p.result.line == line) {
                        Some(p) => {
                            let (mark, note) = receipt::note(p, &trial.after);
                            LineCheck::Noted { order, mark, note }
                        }
                        None => LineCheck::Accepted { order },
                    }
                }
            },
        )
        .collect()
}

impl RuleSet for FoundationHjelmberg {
    type State = State;
    type Report = Log;
    const ID: &'static str = ID;

    fn phase(state: &State) -> PhaseLabel {
        label(state)
    }

    fn owing(state: &State) -> Vec<String> {
        owing(state)
    }

    fn check(state: &State, power: &str, text: &str) -> Vec<LineCheck> {
        check(state, power, text)
    }

    fn adjudicate(state: &State, orders: &BTreeMap<String, String>, seed: u64) -> (State, Log) {
        adjudicate(state, orders, seed)
    }
}
