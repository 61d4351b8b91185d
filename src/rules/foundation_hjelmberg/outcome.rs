//! What a phase reports (H11): every line's outcome, the events, the draws. Anything
//! secret (H11.3) is kept apart from its public part, with the players allowed to see it,
//! so each reader's view can be cut from the whole.

use serde::Serialize;

/// How a line turned out (the scenario spec's four outcomes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Done,
    Failed,
    Invalid,
    Unused,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Failed => "failed",
            Outcome::Invalid => "invalid",
            Outcome::Unused => "unused",
        }
    }
}

/// A secret part of a report: shown only to the seats listed (a moderator sees all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secret {
    pub to: Vec<u8>,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineResult {
    pub seat: u8,
    pub line: u32,
    pub order: String,
    pub outcome: Outcome,
    /// The public detail.
    pub detail: String,
    /// Added to the detail for its owner.
    pub secret: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub step: &'static str,
    /// The public text.
    pub text: String,
    /// The whole text, for the seats listed.
    pub secret: Option<Secret>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    pub step: &'static str,
    pub pile: &'static str,
    pub drew: String,
    pub for_: String,
    /// None: public; Some(seats): only they (and a moderator) see what was drawn.
    pub to: Option<Vec<u8>>,
}

/// The reports of a phase, in the order things happened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Log {
    pub results: Vec<LineResult>,
    pub events: Vec<Event>,
    pub draws: Vec<Draw>,
}

impl Log {
    pub fn event(&mut self, step: &'static str, text: impl Into<String>) {
        self.events.push(Event {
            step,
            text: text.into(),
            secret: None,
        });
    }

    /// An event whose whole text only `to` may read; others read `public`.
    pub fn secret_event(
        &mut self,
        step: &'static str,
        public: impl Into<String>,
        to: Vec<u8>,
        whole: impl Into<String>,
    ) {
        self.events.push(Event {
            step,
            text: public.into(),
            secret: Some(Secret {
                to,
                text: whole.into(),
            }),
        });
    }

    pub fn mark(&self) -> (usize, usize, usize) {
        (self.results.len(), self.events.len(), self.draws.len())
    }

    pub fn truncate(&mut self, mark: (usize, usize, usize)) {
        self.results.truncate(mark.0);
        self.events.truncate(mark.1);
        self.draws.truncate(mark.2);
    }
}
