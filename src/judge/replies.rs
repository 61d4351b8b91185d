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

/// A time in UTC and in the game's time zone: `2026-12-01 18:00 UTC (2026-12-01 19:00 CET)`.
pub fn when(t: DateTime<Utc>, tz: chrono_tz::Tz) -> String {
    format!("{} ({})", utc(t), local(t, tz))
}

/// A game's deadline as mails show it, in UTC and in the game's time zone: when the
/// clock is stopped, `none: the game is paused` and no local time; nothing once the
/// game is over.
pub fn deadline_of(record: &Record, tz: chrono_tz::Tz) -> (String, String) {
    match record.deadline {
        Some(d) => (utc(d), local(d, tz)),
        None if record.over() => (String::new(), String::new()),
        None if record.paused.is_some() => ("none: the game is paused".into(), String::new()),
        None => ("none".into(), String::new()),
    }
}

/// A receipt shows at most this many lines of a submission (a mail of 10,000 lines
/// gets a readable answer).
pub const RECEIPT_LINES: usize = 200;

#[derive(Serialize)]
pub struct Line {
    pub ok: bool,
    /// An accepted line's first column, padded: `ok       `, or the rules' word for a
    /// line they say more of ([`LineCheck::Noted`]).
    pub mark: String,
    /// What the rules foresee of an accepted line, shown below it.
    pub note: String,
    /// Not an order at all: shown to the sender only, never kept.
    pub private: bool,
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
    /// The phase as mails name it ([`crate::rules::game::Play::phase_title`]).
    pub when: String,
    pub lines: Vec<Line>,
    /// Lines not shown, past the first [`RECEIPT_LINES`].
    pub more_lines: usize,
    pub notes: Vec<String>,
    pub not_understood: Vec<(String, String)>,
    pub standing: Vec<String>,
    /// What the rules say of the orders standing, under them
    /// ([`crate::rules::game::Play::receipt_notes`]).
    pub standing_notes: Vec<String>,
    pub submitted: Vec<String>,
    pub waiting: Vec<String>,
    /// With every power's orders in, when the phase is played (and why not now).
    pub when_played: String,
    pub deadline_utc: String,
    pub deadline_local: String,
    /// The game is over (no standing orders, no deadline shown); `ended` says why when
    /// a moderator ended it.
    pub over: bool,
    pub ended: String,
    /// The sender's power owes orders in the current phase.
    pub owes: bool,
}

/// What a receipt is made of: the game and its record after the mail, the phase and
/// who owes orders in it, the sender's orders standing now, and the mail's checks.
pub struct ReceiptOf<'a, 'r> {
    pub gc: &'a GameConfig,
    pub record: &'r Record,
    pub label: crate::rules::PhaseLabel,
    pub owing: &'r [String],
    pub standing: Vec<String>,
    pub power: &'a str,
    pub checks: &'r [LineCheck],
    pub notes: Vec<String>,
    pub not_understood: &'r [(String, String)],
}

pub fn receipt<'a>(of: ReceiptOf<'a, '_>) -> Receipt<'a> {
    let ReceiptOf {
        gc,
        record,
        label,
        owing,
        standing,
        power,
        checks,
        notes,
        not_understood,
    } = of;
    let line = |c: &LineCheck| match c {
        LineCheck::Accepted { order } => Line {
            ok: true,
            mark: format!("{:<9}", "ok"),
            note: String::new(),
            private: false,
            order: order.clone(),
            line: String::new(),
            reason: String::new(),
        },
        LineCheck::Noted { order, mark, note } => Line {
            ok: true,
            mark: format!("{mark:<9}"),
            note: note.clone(),
            private: false,
            order: order.clone(),
            line: String::new(),
            reason: String::new(),
        },
        LineCheck::Refused { line, reason } => Line {
            ok: false,
            mark: format!("{:<9}", "REFUSED"),
            note: String::new(),
            private: false,
            order: String::new(),
            line: super::command::echo(line),
            reason: reason.clone(),
        },
        LineCheck::Replaced { line, reason } => Line {
            ok: false,
            mark: format!("{:<9}", "REPLACED"),
            note: String::new(),
            private: false,
            order: String::new(),
            line: super::command::echo(line),
            reason: format!("{reason} (only you see this line)"),
        },
        LineCheck::Unreadable { line, reason } => Line {
            ok: false,
            mark: String::new(),
            note: String::new(),
            private: true,
            order: String::new(),
            line: super::command::echo(line),
            reason: reason.clone(),
        },
    };
    let (submitted, waiting) = owing
        .iter()
        .cloned()
        .partition(|p| record.submissions.contains_key(p));
    let (deadline_utc, deadline_local) = deadline_of(record, gc.time_zone);
    let owes = owing.iter().any(|p| p == power);
    Receipt {
        game: &gc.id,
        power,
        turn: label.turn,
        phase: label.phase,
        when: if record.over() {
            "game over".to_string()
        } else {
            record.game.play().phase_title(label.turn, label.phase)
        },
        lines: checks.iter().take(RECEIPT_LINES).map(line).collect(),
        more_lines: checks.len().saturating_sub(RECEIPT_LINES),
        notes,
        not_understood: not_understood.to_vec(),
        standing,
        standing_notes: Vec::new(),
        submitted,
        waiting,
        when_played: String::new(),
        deadline_utc,
        deadline_local,
        over: record.over(),
        ended: record.ended.clone().unwrap_or_default(),
        owes,
    }
}

#[derive(Serialize)]
pub struct Results<'a> {
    pub game: &'a str,
    pub turn: u32,
    pub phase: &'a str,
    /// The phase as mails name it ([`crate::rules::game::Play::phase_title`]).
    pub when: String,
    pub results: &'a serde_json::Value,
    /// The powers that owed orders and sent none.
    pub missing: &'a [String],
    pub events: &'a serde_json::Value,
    pub systems: &'a serde_json::Value,
    pub owned_label: &'static str,
    pub board: String,
    pub standing: Vec<String>,
    pub over: bool,
    pub winners: Vec<String>,
    pub next_turn: u32,
    pub next_phase: &'static str,
    /// The next phase as mails name it.
    pub next_when: String,
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
    /// The phase as mails name it ([`crate::rules::game::Play::phase_title`]).
    pub when: String,
    pub deadline_utc: String,
    pub deadline_local: String,
}

#[derive(Serialize)]
pub struct Refusal<'a> {
    pub game: Option<&'a str>,
    pub sender: &'a str,
    /// The other mail's subject, made safe to quote: see [`quote`].
    pub subject: String,
    pub reason: &'a str,
}

impl<'a> Refusal<'a> {
    pub fn new(
        game: Option<&'a str>,
        sender: &'a str,
        subject: &str,
        reason: &'a str,
    ) -> Refusal<'a> {
        Refusal {
            game,
            sender,
            subject: quote(subject),
            reason,
        }
    }
}

/// Text someone else wrote, made safe to quote in the judge's own mail: one line
/// (line breaks and control characters become spaces), at most 60 characters.
/// Templates show it in quotes and say whose words they are.
pub fn quote(text: &str) -> String {
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let words: Vec<&str> = one_line.split_whitespace().collect();
    super::command::echo(&words.join(" "))
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
    /// The phase as mails name it ([`crate::rules::game::Play::phase_title`]).
    pub when: String,
    pub board: String,
    pub systems: Vec<(String, String)>,
    pub owned_label: &'static str,
    /// What the phase asks ([`crate::rules::game::Play::phase_asks`]).
    pub asks: Vec<String>,
    /// The race so far, as results mails show it under the board.
    pub standing: Vec<String>,
    pub deadline_utc: String,
    pub deadline_local: String,
    /// The game is over: how, when and its result ([`Record::over_summary`]); empty
    /// while it is played.
    pub over: String,
}

#[derive(Serialize)]
pub struct HistoryPhase {
    pub phase: String,
    /// The phase as mails name it.
    pub when: String,
    pub results: serde_json::Value,
    /// The powers that owed orders and sent none (the rules' defaults were played).
    pub missing: Vec<String>,
    pub events: serde_json::Value,
}

#[derive(Serialize)]
pub struct History<'a> {
    pub game: &'a str,
    pub turn: u32,
    /// The turn as mails name it ([`crate::rules::game::Play::turn_title`]).
    pub turn_title: String,
    pub phases: Vec<HistoryPhase>,
}

#[derive(Serialize, Clone)]
pub struct GameOver<'a> {
    pub game: &'a str,
    pub turn: u32,
    /// The turn as mails name it ([`crate::rules::game::Play::turn_title`]).
    pub turn_title: String,
    /// Why a moderator ended the game, if one did.
    pub ended_by: &'a str,
    pub winners: Vec<String>,
    pub standing: Vec<String>,
    /// Who played which power (not in anonymous games).
    pub roster: Vec<(String, String)>,
    /// Whether the game has dice at all (Diplomacy has none: no word of them).
    pub has_dice: bool,
    /// The revealed dice secret and its commitment, or the fixed seed.
    pub secret: String,
    pub commitment: String,
    pub fixed_seed: String,
    /// The reader's `history.json` is one power's (or an observer's) view of a game
    /// with hidden information: it cannot be played again, the moderator's copy can.
    pub partial: bool,
}

#[derive(Serialize)]
pub struct HelpGame {
    pub id: String,
    pub rules: String,
    pub role: String,
    pub turn: u32,
    pub phase: String,
    /// The phase as mails name it ([`crate::rules::game::Play::phase_title`]).
    pub when: String,
}

#[derive(Serialize)]
pub struct Help {
    /// Why this help came (an unknown game named, say).
    pub note: String,
    /// The sender's games (HELP without a game).
    pub games: Vec<HelpGame>,
    pub game: String,
    pub order_help: String,
    pub example: Vec<String>,
    pub example_power: String,
}

#[derive(Serialize)]
pub struct Welcome<'a> {
    pub game: &'a str,
    pub rules: &'static str,
    /// The reader's power; empty for a moderator.
    pub power: &'a str,
    pub others: Vec<String>,
    /// The powers the judge plays itself (a solo game's opponent).
    pub judge_plays: Vec<String>,
    pub turn: u32,
    pub phase: &'static str,
    /// The phase as mails name it ([`crate::rules::game::Play::phase_title`]).
    pub when: String,

    pub deadline_utc: String,
    pub deadline_local: String,
    /// (phase, length) pairs.
    pub phases: Vec<(String, String)>,
    pub board: String,
    pub standing: Vec<String>,
    pub example: Vec<String>,
    /// The SHA-256 of the game's secret dice seed (revealed when the game ends).
    pub commitment: String,
    /// The seed is fixed in `games.toml` instead.
    pub fixed_seed: bool,
    /// To a player who takes a power over in the middle of the game (REPLACE).
    pub takeover: bool,
}

/// A duration as a person writes it: `48h`, `2d`, `90m`.
pub fn length(d: chrono::Duration) -> String {
    let minutes = d.num_minutes();
    let count = |n: i64, unit: &str| match n {
        1 => format!("1 {unit}"),
        n => format!("{n} {unit}s"),
    };
    if minutes % (24 * 60) == 0 && minutes >= 24 * 60 * 2 {
        count(minutes / (24 * 60), "day")
    } else if minutes % 60 == 0 && minutes > 0 {
        count(minutes / 60, "hour")
    } else {
        count(minutes, "minute")
    }
}

#[derive(Serialize)]
pub struct PressMail<'a> {
    pub game: &'a str,
    pub turn: u32,
    pub phase: &'a str,
    /// The phase as mails name it ([`crate::rules::game::Play::phase_title`]).
    pub when: String,
    /// The sender's power, or `anonymous`.
    pub from: &'a str,
    pub to: String,
    pub text: &'a str,
    /// Where a reply goes: the judge's address for the power (or the anonymous
    /// message's token); in a moderator's copy, the sender's player's address.
    pub reply_to: &'a str,
    /// The moderators' copy (`press_to_moderator`).
    pub to_moderator: bool,
}
