//! What an adjudication reports (B12.2, B13.2, the scenario spec's output): a result
//! per order line, the actions carried out, the battles shot by shot, the chits drawn,
//! every die with what it decided, and the events in order.

use serde::Serialize;

use super::types::{Chit, Kind, Power, Segment};

/// The outcome of an order line (B12.2).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Done,
    Partial,
    Failed,
    Cancelled,
    Unused,
    Noted,
    Invalid,
}

impl Outcome {
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Partial => "partial",
            Outcome::Failed => "failed",
            Outcome::Cancelled => "cancelled",
            Outcome::Unused => "unused",
            Outcome::Noted => "noted",
            Outcome::Invalid => "invalid",
        }
    }
}

/// One order line's result. `private`: shown to its writer only (B13.3: `DISCARD`
/// lines, `REPRESS` lines that cancelled nothing; and invalid lines, which are no
/// orders).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct LineResult {
    pub power: Power,
    pub order: String,
    pub outcome: Outcome,
    pub detail: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
}

/// One action of the Action phase (B7.2, B7.3).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub power: Power,
    pub kind: &'static str,
    pub region: Option<&'static str>,
    /// `order`, or `default` for B7.2's default.
    pub by: &'static str,
    /// `done` or `cancelled`.
    pub outcome: &'static str,
    pub detail: String,
}

/// A battle in one region (B8).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Battle {
    pub region: &'static str,
    pub rounds: u32,
    pub shots: Vec<Shot>,
}

/// One firer's fire (B8.4, B8.5, B8.7).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    pub round: u32,
    pub segment: &'static str,
    pub power: Power,
    pub firer: Kind,
    pub dice: Vec<u8>,
    pub target: Option<Kind>,
    /// What this firer's dice scored alone: `eliminated`, `converted`, `returned`,
    /// `hit` or `none`.
    pub result: &'static str,
}

/// One chit drawn (B5).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    pub power: Power,
    /// `own` or `common`.
    pub from: &'static str,
    pub chit: Chit,
}

/// One die rolled (B13.2).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Roll {
    pub step: &'static str,
    pub die: &'static str,
    pub roll: u8,
    #[serde(rename = "for")]
    pub for_: String,
}

/// Something that happened, with the rule it happened by.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub step: &'static str,
    pub text: String,
}

/// Everything an adjudication reports besides the new state.
#[derive(Serialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    pub results: Vec<LineResult>,
    pub actions: Vec<Action>,
    pub initiative: Option<Power>,
    pub battles: Vec<Battle>,
    pub draws: Vec<Draw>,
    pub dice: Vec<Roll>,
    pub events: Vec<Event>,
}

impl Log {
    pub fn event(&mut self, step: &'static str, text: impl Into<String>) {
        self.events.push(Event {
            step,
            text: text.into(),
        });
    }

    /// Sets a line's outcome and detail.
    pub fn settle(&mut self, line: usize, outcome: Outcome, detail: impl Into<String>) {
        let r = &mut self.results[line];
        r.outcome = outcome;
        r.detail = detail.into();
    }
}

/// A segment's name in the output (`military`, `morph`, `pursuit`).
pub fn segment_id(s: Option<Segment>) -> &'static str {
    match s {
        Some(s) => s.name(),
        None => "pursuit",
    }
}
