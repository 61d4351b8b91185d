//! What an adjudication reports (G11.2–G11.3): a result for every order line, every
//! event in order with its rule step, and every die with what it decided.

use std::fmt;

use serde::Serialize;

use super::dice::PhaseDice as Dice;
use super::map::Units;
use super::state::Roll;
use super::strength::Strength;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Done,
    Failed,
    Invalid,
}

impl Outcome {
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Failed => "failed",
            Outcome::Invalid => "invalid",
        }
    }
}

/// The result of one order line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineResult {
    pub power: String,
    /// The order in canonical form, or the line as written if it was not understood.
    pub order: String,
    pub outcome: Outcome,
    pub detail: String,
    /// The line's number in the power's submission.
    pub line: u32,
}

/// Something that happened, with the rule that made it happen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub step: &'static str,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub die: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<u32>,
}

impl Event {
    pub fn new(step: &'static str, text: impl fmt::Display) -> Event {
        Event {
            step,
            text: text.to_string(),
            region: None,
            system: None,
            power: None,
            die: None,
            roll: None,
        }
    }

    pub fn region(mut self, region: impl Into<String>) -> Event {
        self.region = Some(region.into());
        self
    }

    pub fn system(mut self, system: impl Into<String>) -> Event {
        self.system = Some(system.into());
        self
    }

    pub fn power(mut self, power: impl Into<String>) -> Event {
        self.power = Some(power.into());
        self
    }

    pub fn die(mut self, die: &'static str, roll: u32) -> Event {
        self.die = Some(die);
        self.roll = Some(roll);
        self
    }
}

/// The whole report of one phase.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Log {
    pub results: Vec<LineResult>,
    pub events: Vec<Event>,
    pub dice: Vec<Roll>,
    /// What a movement or combat phase reports besides (its seven lists).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub war: Option<WarLog>,
}

/// The seven lists of a movement or combat phase's output
/// (`../shared/specs/godsfire-scenario.md`), always all present there.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct WarLog {
    pub moves: Vec<MoveReport>,
    pub transit_attacks: Vec<TransitReport>,
    pub blocks: Vec<BlockReport>,
    pub disbanded: Vec<PlacedUnits>,
    pub combats: Vec<CombatReport>,
    pub conquests: Vec<Conquest>,
    pub restored: Vec<String>,
}

/// One move order taken (G4.8).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReport {
    pub power: String,
    pub from: String,
    pub ng: bool,
    pub units: Units,
    pub path: Vec<String>,
    pub to: Option<String>,
    pub outcome: &'static str,
    pub lost: Units,
}

/// One transit attack (G5.4).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TransitReport {
    pub cell: String,
    pub power: String,
    pub mover: String,
    pub from: String,
    pub attack: Strength,
    pub rolls: Vec<TransitRoll>,
    /// Beyond the spec: the interceptor's units lost at the end of the phase to this
    /// attack's S-1 results (G4.7 (2)).
    pub interceptor_lost: Units,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TransitRoll {
    pub unit: &'static str,
    pub defence: Strength,
    pub column: i8,
    pub roll: u32,
    pub result: &'static str,
}

/// A blocking stack that stopped movers, and where it retreated (G4.7 (3)).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlockReport {
    pub cell: String,
    pub power: String,
    pub stopped: Vec<Stopped>,
    pub retreat: Option<String>,
    /// Beyond the spec: the blocking stack's units, eliminated when it had no cell to
    /// retreat to.
    pub lost: Units,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stopped {
    pub power: String,
    pub from: String,
}

/// Some units of a power at a place: disbanded, lost, taking part.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlacedUnits {
    pub power: String,
    pub at: String,
    pub units: Units,
}

/// A stack's units taking part in a combat, with their strength.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Taking {
    pub power: String,
    pub at: String,
    pub units: Units,
    pub strength: Strength,
}

/// One combat (G5.9).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CombatReport {
    pub target: String,
    pub attackers: Vec<Taking>,
    pub defenders: Vec<Taking>,
    pub attack: Strength,
    pub defence: Strength,
    pub odds: &'static str,
    pub roll: Option<u32>,
    pub result: Option<&'static str>,
    pub losses: Vec<PlacedUnits>,
    pub retreats: Vec<RetreatReport>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RetreatReport {
    pub power: String,
    pub from: String,
    pub to: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Conquest {
    pub system: String,
    pub from: String,
    pub to: String,
}

impl Log {
    pub fn event(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Rolls a die for `subject` at rule `step` and records it; the event saying what
    /// it decided is the caller's.
    pub fn roll(
        &mut self,
        dice: &mut Dice,
        step: &'static str,
        die: &'static str,
        subject: &str,
    ) -> u32 {
        let roll = Roll::throw(dice, step, die, subject.to_string());
        let n = roll.roll;
        self.dice.push(roll);
        n
    }
}
