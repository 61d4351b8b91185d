//! What the judge keeps of a game between mails: the rule set's state plus the judge's
//! own business (deadline, pause, submissions, who holds each power).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::rules::game::{Game, PhaseResults};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Record {
    pub game: Game,
    /// The current phase's deadline (UTC); none once the game is over or paused.
    pub deadline: Option<DateTime<Utc>>,
    /// While paused: the time that was left, in seconds.
    pub paused: Option<i64>,
    /// This phase's submissions, by power.
    pub submissions: BTreeMap<String, Submission>,
    /// Who holds each power now (REPLACE changes it; the configuration gives it first).
    pub addresses: BTreeMap<String, String>,
    /// Set when adjudicating the game failed (a fault of the program, not of the
    /// players): the game waits for a moderator's RESUME, other games go on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspended: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq, Default)]
pub struct Submission {
    pub orders: String,
    pub ready: bool,
    pub wait: bool,
}

/// The key of a game's record.
pub fn game_key(id: &str) -> String {
    format!("v1/game/{id}")
}

/// The key that makes each phase adjudicated once.
pub fn adjudicated_key(id: &str, turn: u32, phase: &str) -> String {
    format!("v1/adjudicated/{id}/{turn:08}/{phase}")
}

pub fn history_key(id: &str, turn: u32, phase: &str) -> String {
    format!("v1/history/{id}/{turn:08}/{phase}")
}

/// The results of one adjudicated phase, as kept for HISTORY.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    pub turn: u32,
    pub phase: String,
    pub json: serde_json::Value,
    pub view: serde_json::Value,
}

impl HistoryEntry {
    /// The phase's results, whole.
    pub fn results(&self) -> PhaseResults {
        PhaseResults {
            json: self.json.clone(),
            view: self.view.clone(),
        }
    }
}
