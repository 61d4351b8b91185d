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
    /// Players' absences: deadlines that fall inside one move to its end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absences: Vec<Absence>,
    /// The game's secret dice seed and its commitment (games without a fixed seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<DiceSecret>,
    /// Set when a moderator ended the game (`END GAME`): why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// Phases adjudicated so far: orders the history of a turn's phases as played.
    #[serde(default)]
    pub phases_played: u64,
    /// The pbem that adjudicated the game's last phase ([`crate::BUILD`]); none before
    /// it was kept. A phase adjudicated by another build keeps the position it started
    /// from ([`HistoryEntry::position`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_build: Option<String>,
    /// When the current phase began (the last adjudication), by the judge's clock:
    /// a mail that reached the mailbox before it but was read after is told so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase_began: Option<DateTime<Utc>>,
}

impl Record {
    /// The game's power a command names, in the game's own spelling: commands are read
    /// in any case (`ger`, `GER`, `Ger` are Diplomacy's `GER`).
    pub fn power_named(&self, written: &str) -> Option<String> {
        self.game
            .powers()
            .into_iter()
            .chain(self.addresses.keys().cloned())
            .find(|p| p == written)
            .or_else(|| {
                self.game
                    .powers()
                    .into_iter()
                    .chain(self.addresses.keys().cloned())
                    .find(|p| p.eq_ignore_ascii_case(written))
            })
    }

    /// Whether the game is over: by its rules, or ended by a moderator.
    pub fn over(&self) -> bool {
        self.ended.is_some() || self.game.label().over
    }

    /// How a game that is over ended, when, and its result, in one line:
    /// `ended by a moderator on 2026-11-22 12:00 UTC; no winner`, `ended by its rules
    /// on 2026-12-04 12:00 UTC; winner: imperium` (when its last phase was played).
    /// None while the game is played.
    pub fn over_summary(&self) -> Option<String> {
        if !self.over() {
            return None;
        }
        let how = match (&self.ended, self.phase_began) {
            (Some(why), _) => why.clone(),
            (None, Some(t)) => format!("ended by its rules on {}", t.format("%Y-%m-%d %H:%M UTC")),
            (None, None) => "ended by its rules".to_string(),
        };
        // A game a moderator ended has no winner, whatever the position.
        let winners = match self.ended {
            Some(_) => Vec::new(),
            None => self.game.winners(),
        };
        let result = match winners.as_slice() {
            [] => "no winner".to_string(),
            [one] => format!("winner: {one}"),
            many => format!("winners: {}", many.join(", ")),
        };
        Some(format!("{how}; {result}"))
    }
}

/// A player's absence (UTC), inclusive of its start, exclusive of its end.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Absence {
    pub power: String,
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
}

/// A game's secret seed: 32 random bytes (hex), and their SHA-256 (hex), mailed to
/// everyone when the game begins and checked against the secret revealed at its end.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct DiceSecret {
    pub secret: String,
    pub commitment: String,
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

/// The count of tries at a game's deadline (a pass killed or failing on it).
pub fn deadline_attempts_key(id: &str, deadline: chrono::DateTime<chrono::Utc>) -> String {
    format!("v1/attempts/game/{id}/{}", deadline.timestamp())
}

/// The keys that say an address plays in games by a moderator's `REPLACE` (not in
/// games.toml): `v1/played-by/<address>/` and the game's id.
pub fn played_by_prefix(address: &str) -> String {
    format!("v1/played-by/{address}/")
}

pub fn played_by_key(address: &str, game: &str) -> String {
    format!("{}{game}", played_by_prefix(address))
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
    /// The number of phases the game had played before this one: orders the phases of
    /// a turn as they were played (0 in entries written before it was kept).
    #[serde(default)]
    pub seq: u64,
    /// The orders the phase was adjudicated with, by power, as given to the rules
    /// (for `pbem verify-dice` and replays).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub orders: BTreeMap<String, String>,
    /// The powers that owed orders and sent none: the rules' defaults played for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// The pbem that adjudicated the phase ([`crate::BUILD`]; absent in entries
    /// written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The game as it stood before this phase (the stored state, as JSON), kept when
    /// this phase is the first a build adjudicated in a game that had played before:
    /// after an upgrade, `pbem verify-dice` can play each build's phases from where
    /// that build took the game over (see [`crate::verify`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
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
