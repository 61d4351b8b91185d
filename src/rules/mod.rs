//! Rule sets: each game's rules as a pure function, and the registry of them.
//!
//! A rule set knows its own state, orders and phases; the judge knows none of them.
//! What the judge needs is the [`RuleSet`] trait: who owes orders now (which may be
//! nobody, one player of two alternating within a turn, or only the powers with a
//! retreat to make), how a submission reads, and the adjudication itself. Nothing in
//! it assumes fleets, grids or that every player moves every phase, so Godsfire
//! (money, regions, dice tables) and Battles for the Galactic Empire (alternating
//! actions) fit beside Foundation and Empire.
//!
//! [`RuleSetId`] is the closed registry: adding a game adds a variant, and the compiler
//! finds every place that must learn of it.

pub mod foundation_empire;
pub mod game;
pub mod godsfire;

use std::collections::BTreeMap;

/// The current turn and phase of a game, as the judge shows and stores them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseLabel {
    pub turn: u32,
    pub phase: &'static str,
    pub over: bool,
}

/// How one line of a submission was read (for receipts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineCheck {
    /// Understood: the order in canonical form.
    Accepted { order: String },
    /// Not taken: the line as written and why.
    Refused { line: String, reason: String },
}

/// One result line of a phase, for the mail templates (every rule set alike).
#[derive(serde::Serialize, Clone, Debug)]
pub struct ResultLine {
    pub power: String,
    pub order: String,
    pub outcome: &'static str,
    pub detail: String,
}

/// The results of a phase for the templates: results by power, events, and the owned
/// systems as (system, owner).
#[derive(serde::Serialize, Clone, Debug)]
pub struct ResultsView {
    pub results: Vec<ResultLine>,
    pub events: Vec<String>,
    pub systems: Vec<(String, String)>,
}

/// A game's rules as the judge uses them. Every function is pure: no I/O, no clock,
/// no global randomness; dice come from `seed` (see [`crate::dice`]).
pub trait RuleSet {
    /// Everything about a game between two phases.
    type State: Clone;
    /// What an adjudication reports besides the new state.
    type Report;
    /// The id used in scenario files and `games.toml`.
    const ID: &'static str;

    fn phase(state: &Self::State) -> PhaseLabel;

    /// The powers (by id) that owe orders in the current phase; may be empty, in which
    /// case the judge adjudicates at once.
    fn owing(state: &Self::State) -> Vec<String>;

    /// Reads one power's submission against the current position, line by line.
    fn check(state: &Self::State, power: &str, text: &str) -> Vec<LineCheck>;

    /// Adjudicates the current phase: orders by power id, as written; powers missing
    /// from `orders` get the rules' defaults.
    fn adjudicate(
        state: &Self::State,
        orders: &BTreeMap<String, String>,
        seed: u64,
    ) -> (Self::State, Self::Report);
}

/// The rule sets this program knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSetId {
    FoundationEmpire,
    Godsfire,
}

impl RuleSetId {
    pub const ALL: [RuleSetId; 2] = [RuleSetId::FoundationEmpire, RuleSetId::Godsfire];

    pub fn id(self) -> &'static str {
        match self {
            RuleSetId::FoundationEmpire => foundation_empire::FoundationEmpire::ID,
            RuleSetId::Godsfire => godsfire::Godsfire::ID,
        }
    }

    pub fn from_id(id: &str) -> Option<RuleSetId> {
        RuleSetId::ALL.into_iter().find(|r| r.id() == id)
    }
}
