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

pub mod battles_galactic_empire;
pub mod diplomacy;
pub mod foundation_empire;
pub mod foundation_hjelmberg;
pub mod game;
pub mod godsfire;
pub mod war_imperialism;
pub mod words;

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
    /// Understood and kept, as `Accepted`, with what the rules foresee of it below it
    /// in the receipt: `mark` stands in the receipt's first column (a word of at most 8
    /// characters; Foundation (Hjelmberg) uses `ok`, `later` for a line whose verdict
    /// waits for orders not yet known, `unused` for one that would not be carried out,
    /// `WARNING` for one that would fail or after which a ship would be lost), `note`
    /// says what it would do, or why not.
    Noted {
        order: String,
        mark: &'static str,
        note: String,
    },
    /// Not taken: the line as written and why. It is an order (it names a unit, a
    /// region …): the adjudication reports it, to everyone.
    Refused { line: String, reason: String },
    /// Not an order at all (chatter, a quoted line, a signature): the sender's own
    /// business. The judge shows it in the sender's receipt only and keeps it out of
    /// the stored orders, so no results or history ever show it. `line` is the line as
    /// written (trimmed).
    Unreadable { line: String, reason: String },
    /// A valid order that a later line of the same submission replaced (for the same
    /// unit): a change of mind, the writer's own business. Told in the sender's receipt
    /// only and kept out of the stored orders, as `Unreadable`. `line` is the line as
    /// the rules read it (its comment left out).
    Replaced { line: String, reason: String },
}

impl LineCheck {
    /// The order in canonical form, if the line was taken as one.
    pub fn accepted(&self) -> Option<&str> {
        match self {
            LineCheck::Accepted { order } | LineCheck::Noted { order, .. } => Some(order),
            LineCheck::Refused { .. }
            | LineCheck::Unreadable { .. }
            | LineCheck::Replaced { .. } => None,
        }
    }
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

/// Why a scenario could not be adjudicated. Invalid *orders* are never errors: they
/// are results.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
    #[error("not valid TOML: {0}")]
    Toml(String),
    #[error("no `rules` key naming the rule set")]
    NoRules,
    #[error("unknown rule set {0:?} (known: {known})", known = known_rules())]
    UnknownRules(String),
    #[error("{0}")]
    Invalid(String),
}

fn known_rules() -> String {
    RuleSetId::ALL
        .iter()
        .map(|r| r.id())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fixed start positions of a new game: power → places.
pub type Start = BTreeMap<String, Vec<String>>;

/// How a rule set starts a new game (see [`Registration::new_game`]).
pub type NewGame = fn(&toml::Table, Option<&Start>, u64) -> Result<game::Game, String>;

/// What the registry knows of a rule set: how to start a game and how to adjudicate a
/// scenario file. Each rule set gives one (`play.rs` in its folder).
pub struct Registration {
    /// The id used in scenario files and `games.toml`.
    pub id: &'static str,
    /// The game's name, for people.
    pub name: &'static str,
    /// A new game: rule options (a scenario's `[options]`), optional fixed start
    /// positions (power → places), the game's seed.
    pub new_game: NewGame,
    /// `pbem adjudicate`: a scenario's text (files it names are found in the folder
    /// given) to the JSON to print.
    pub adjudicate_scenario: fn(&str, &std::path::Path) -> Result<String, ScenarioError>,
}

/// The rule sets this program knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSetId {
    FoundationEmpire,
    Godsfire,
    Diplomacy,
    BattlesGalacticEmpire,
    WarImperialism,
    FoundationHjelmberg,
}

impl RuleSetId {
    pub const ALL: &[RuleSetId] = &[
        RuleSetId::FoundationEmpire,
        RuleSetId::Godsfire,
        RuleSetId::Diplomacy,
        RuleSetId::BattlesGalacticEmpire,
        RuleSetId::WarImperialism,
        RuleSetId::FoundationHjelmberg,
    ];

    pub fn registration(self) -> &'static Registration {
        match self {
            RuleSetId::FoundationEmpire => &foundation_empire::play::REGISTRATION,
            RuleSetId::Godsfire => &godsfire::play::REGISTRATION,
            RuleSetId::Diplomacy => &diplomacy::play::REGISTRATION,
            RuleSetId::BattlesGalacticEmpire => &battles_galactic_empire::play::REGISTRATION,
            RuleSetId::WarImperialism => &war_imperialism::play::REGISTRATION,
            RuleSetId::FoundationHjelmberg => &foundation_hjelmberg::play::REGISTRATION,
        }
    }

    pub fn id(self) -> &'static str {
        self.registration().id
    }

    pub fn name(self) -> &'static str {
        self.registration().name
    }

    pub fn from_id(id: &str) -> Option<RuleSetId> {
        RuleSetId::ALL.iter().copied().find(|r| r.id() == id)
    }

    /// The rule set of a scenario file without a `rules` key: a file whose phase is
    /// written like Diplomacy's (`S1901M`), as the DATC case files are, is a Diplomacy
    /// scenario (../shared/specs/diplomacy-scenario.md).
    pub fn for_untagged_scenario(table: &toml::Table) -> Option<RuleSetId> {
        let phase = table.get("phase").and_then(|v| v.as_str())?;
        diplomacy::state::Phase::parse(phase).map(|_| RuleSetId::Diplomacy)
    }
}

/// A count with its noun as a reader says it: `counted(1, "chit", "chits")` is
/// "1 chit", `counted(3, "colony", "colonies")` "3 colonies".
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    match n.into() {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}
