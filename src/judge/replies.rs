//! View models of the judge's mails: built from outcomes and records, rendered by the
//! templates in `templates/`.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::record::Record;
use crate::config::GameConfig;
use crate::rules::LineCheck;

pub fn utc(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

pub fn local(t: DateTime<Utc>, tz: chrono_tz::Tz) -> String {
    t.with_timezone(&tz).format("%Y-%m-%d %H:%M %Z").to_string()
}

/// A receipt shows at most this many lines of a submission (a mail of 10,000 lines
/// gets a readable answer).
pub const RECEIPT_LINES: usize = 200;

#[derive(Serialize)]
pub struct Line {
    pub ok: bool,
    pub order: String,
    pub line: String,
    pub reason: String,
}

#[derive(Serialize)]
pub struct Receipt<'a> {
    pub game: &'a str,
    pub power: &'a str,
    pub turn: u32,
    pub phase: &'static str,
    pub lines: Vec<Line>,
    /// Lines not shown, past the first [`RECEIPT_LINES`].
    pub more_lines: usize,
    pub notes: Vec<String>,
    pub not_understood: Vec<(String, String)>,
    pub standing: Vec<String>,
    pub submitted: Vec<String>,
    pub waiting: Vec<String>,
    pub deadline_utc: String,
    pub deadline_local: String,
}

pub fn receipt<'a>(
    gc: &'a GameConfig,
    record: &Record,
    power: &'a str,
    checks: &[LineCheck],
    notes: Vec<String>,
    not_understood: &[(String, String)],
) -> Receipt<'a> {
    let label = record.game.label();
    let line = |c: &LineCheck| match c {
        LineCheck::Accepted { order } => Line {
            ok: true,
            order: order.clone(),
            line: String::new(),
            reason: String::new(),
        },
        LineCheck::Refused { line, reason } => Line {
            ok: false,
            order: String::new(),
            line: line.clone(),
            reason: reason.clone(),
        },
    };
    // The orders standing now: the accepted lines of the kept submission.
    let standing = record
        .submissions
        .get(power)
        .map(|s| {
            record
                .game
                .check(power, &s.orders)
                .iter()
                .filter_map(|c| match c {
                    LineCheck::Accepted { order } => Some(order.clone()),
                    LineCheck::Refused { .. } => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let owing = record.game.owing();
    let (submitted, waiting) = owing
        .iter()
        .cloned()
        .partition(|p| record.submissions.contains_key(p));
    Receipt {
        game: &gc.id,
        power,
        turn: label.turn,
        phase: label.phase,
        lines: checks.iter().take(RECEIPT_LINES).map(line).collect(),
        more_lines: checks.len().saturating_sub(RECEIPT_LINES),
        notes,
        not_understood: not_understood.to_vec(),
        standing,
        submitted,
        waiting,
        deadline_utc: record
            .deadline
            .map(utc)
            .unwrap_or_else(|| "none (paused)".into()),
        deadline_local: record
            .deadline
            .map(|d| local(d, gc.time_zone))
            .unwrap_or_else(|| "paused".into()),
    }
}

#[derive(Serialize)]
pub struct Results<'a> {
    pub game: &'a str,
    pub turn: u32,
    pub phase: &'a str,
    pub results: &'a serde_json::Value,
    pub events: &'a serde_json::Value,
    pub systems: &'a serde_json::Value,
    pub board: String,
    pub standing: Vec<String>,
    pub over: bool,
    pub winners: Vec<String>,
    pub next_turn: u32,
    pub next_phase: &'static str,
    pub owing: Vec<String>,
    pub deadline_utc: String,
    pub deadline_local: String,
}

#[derive(Serialize)]
pub struct Reminder<'a> {
    pub game: &'a str,
    pub power: &'a str,
    pub turn: u32,
    pub phase: &'static str,
    pub deadline_utc: String,
    pub deadline_local: String,
}

#[derive(Serialize)]
pub struct Refusal<'a> {
    pub game: Option<&'a str>,
    pub sender: &'a str,
    pub subject: &'a str,
    pub reason: &'a str,
}

#[derive(Serialize)]
pub struct Notice<'a> {
    pub game: &'a str,
    pub lines: Vec<String>,
}

#[derive(Serialize)]
pub struct BoardView<'a> {
    pub game: &'a str,
    pub turn: u32,
    pub phase: &'static str,
    pub board: String,
    pub systems: Vec<(String, String)>,
    pub deadline_utc: String,
    pub deadline_local: String,
}

#[derive(Serialize)]
pub struct HistoryPhase {
    pub phase: String,
    pub results: serde_json::Value,
    pub events: serde_json::Value,
}

#[derive(Serialize)]
pub struct History<'a> {
    pub game: &'a str,
    pub turn: u32,
    pub phases: Vec<HistoryPhase>,
}

#[derive(Serialize)]
pub struct GameOver<'a> {
    pub game: &'a str,
    pub turn: u32,
    pub winners: Vec<String>,
    pub standing: Vec<String>,
}
