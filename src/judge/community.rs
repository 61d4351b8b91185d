//! What a community of players needs around the rules: press relayed between powers
//! (never showing an address), observers of a game's public results, and players'
//! absences.
//!
//! | key | value |
//! |---|---|
//! | `v1/press/<id>/<seq>` | one press message: turn, phase, sender, recipients, text |
//! | `v1/press-token/<id>/<token>` | an anonymous press message's reply address: its sender's power and the powers it went to (before 2026-11-25: the power alone) |
//! | `v1/observers/<id>/<address>` | an observer of the game |

use serde::{Deserialize, Serialize};

use super::*;
use crate::config::PressMode;
use command::Press;
use record::Absence;

/// An observer may watch at most this many games at once.
pub const MAX_GAMES_OBSERVED: usize = 10;
/// An absence lasts at most this long.
pub fn max_absence() -> Duration {
    Duration::days(14)
}

/// One press message, as stored.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct PressRecord {
    pub turn: u32,
    pub phase: String,
    pub from: String,
    pub anonymous: bool,
    /// The recipients' powers.
    pub to: Vec<String>,
    pub broadcast: bool,
    /// A reply to anonymous press: the sender is not told who received it.
    #[serde(default)]
    pub to_anonymous: bool,
    pub text: String,
    pub at: DateTime<Utc>,
}

/// What an anonymous press message's reply token stands for: who sent the message,
/// and the only powers who may answer through the token, those it went to.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(untagged)]
enum PressToken {
    Sent {
        from: String,
        to: Vec<String>,
    },
    /// A token stored before its recipients were kept with it: the sender alone.
    Sender(String),
}

fn observer_key(game: &str, address: &str) -> String {
    format!("v1/observers/{game}/{address}")
}

impl Judge<'_> {
    /// The observers of a game (with those added or removed in this group).
    pub(super) fn observers(
        &self,
        gc: &GameConfig,
        fx: &Effects,
    ) -> Result<Vec<String>, JudgeError> {
        let prefix = observer_key(&gc.id, "");
        let mut all: std::collections::BTreeSet<String> = self
            .store
            .scan_raw(&prefix)?
            .into_iter()
            .filter_map(|(k, _)| k.strip_prefix(&prefix).map(str::to_string))
            .collect();
        for (k, v) in fx.flags.range(prefix.clone()..) {
            let Some(address) = k.strip_prefix(&prefix) else {
                break;
            };
            if v == "on" {
                all.insert(address.to_string());
            } else {
                all.remove(address);
            }
        }
        Ok(all.into_iter().collect())
    }

    fn set_observer(&self, gc: &GameConfig, address: &str, on: bool, fx: &mut Effects) {
        let key = observer_key(&gc.id, address);
        if on {
            fx.batch.put(&key, &self.clock.now().to_rfc3339());
        } else {
            fx.batch.remove(&key);
        }
        fx.flags
            .insert(key, if on { "on" } else { "off" }.to_string());
    }

    /// `OBSERVE <game>` / `UNOBSERVE <game>` from anyone: the game's public results
    /// (no press), with the game's observer password if it has one. Answered at most
    /// four times an hour per address.
    pub(super) fn observe(
        &self,
        mail: &Incoming,
        parsed: &command::Parsed,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let key = throttle::key("observe", &mail.from);
        if !self.allow(fx, &key, Duration::hours(1), 4)? {
            return Ok(());
        }
        let mut lines = Vec::new();
        for c in &parsed.commands {
            let (id, on) = match c {
                Command::Observe(id) => (id, true),
                Command::Unobserve(id) => (id, false),
                _ => continue,
            };
            let Some(gc) = self.config.game(id) else {
                lines.push(format!("There is no game {:?} here.", command::echo(id)));
                continue;
            };
            let observers = self.observers(gc, fx)?;
            let already = observers.contains(&mail.from);
            if !on {
                if already {
                    self.set_observer(gc, &mail.from, false, fx);
                    lines.push(format!(
                        "UNOBSERVE: you no longer receive game {id}'s results."
                    ));
                } else {
                    lines.push(format!("UNOBSERVE: you were not observing game {id}."));
                }
                continue;
            }
            if already {
                lines.push(format!("OBSERVE: you already observe game {id}."));
                continue;
            }
            if let Some(hash) = &gc.observer_password {
                let good = parsed
                    .password
                    .as_deref()
                    .is_some_and(|p| self.passwords.verify(p, hash));
                if !good {
                    lines.push(format!(
                        "OBSERVE: game {id} asks observers for its observer password (a PASSWORD line); it was missing or wrong."
                    ));
                    continue;
                }
            }
            if observers.len() >= gc.max_observers {
                lines.push(format!(
                    "OBSERVE: game {id} takes no more observers (it takes {} at most).",
                    gc.max_observers
                ));
                continue;
            }
            let watching = self
                .config
                .games
                .iter()
                .filter(|g| {
                    self.store
                        .contains(&observer_key(&g.id, &mail.from))
                        .unwrap_or(false)
                })
                .count();
            if watching >= MAX_GAMES_OBSERVED {
                lines.push(format!(
                    "OBSERVE: an address may observe {MAX_GAMES_OBSERVED} games at once."
                ));
                continue;
            }
            self.set_observer(gc, &mail.from, true, fx);
            lines.push(format!(
                "OBSERVE: you now receive game {id}'s public results (no press). Send UNOBSERVE {id} to stop."
            ));
        }
        // The game named when the mail names one (the usual case), no header otherwise.
        let mut ids = parsed.commands.iter().filter_map(|c| match c {
            Command::Observe(id) | Command::Unobserve(id) => Some(id.as_str()),
            _ => None,
        });
        let one = ids
            .next()
            .filter(|first| ids.all(|id| id == *first))
            .filter(|id| self.config.game(id).is_some());
        let subject = match one {
            Some(id) => format!("[{id}] Observing"),
            None => "Observing".to_string(),
        };
        let view = replies::Notice {
            game: one.unwrap_or(""),
            lines,
        };
        self.answer(fx, mail, subject, "notice.txt", &view)
    }

    /// `BOARD`, `HISTORY [N]` and `HELP` from an observer of the game (the mail
    /// interface gives them to "all"): answered with the public view, what the
    /// observers' results mails show, never a power's; at most four such mails an hour
    /// per address. Anything else in the mail is for players and moderators and is not
    /// read (the observer is told). Returns whether the mail was an observer's asking
    /// (then nothing more of it is to be done).
    pub(super) fn observer_queries(
        &self,
        gc: &GameConfig,
        mail: &Incoming,
        parsed: &command::Parsed,
        fx: &mut Effects,
    ) -> Result<bool, JudgeError> {
        let asks = parsed
            .commands
            .iter()
            .any(|c| matches!(c, Command::Board | Command::History(_) | Command::Help(_)));
        if !asks || !self.observers(gc, fx)?.contains(&mail.from) {
            return Ok(false);
        }
        let key = throttle::key("observer-query", &mail.from);
        if !self.allow(fx, &key, Duration::hours(1), 4)? {
            return Ok(true);
        }
        let record = self.load(fx, &gc.id)?;
        let mut not_read: Vec<&str> = Vec::new();
        for c in &parsed.commands {
            match c {
                Command::Board => self.board_reply(gc, &record, Viewer::Public, mail, fx)?,
                Command::History(n) => {
                    self.history_reply(gc, &record, Viewer::Public, *n, mail, fx)?
                }
                Command::Help(_) => self.help_reply(gc, &record, None, mail, fx)?,
                other => not_read.push(other.name()),
            }
        }
        let lines_not_read =
            parsed.orders.is_some() || parsed.loose.is_some() || !parsed.not_understood.is_empty();
        if lines_not_read || !not_read.is_empty() {
            not_read.dedup();
            let mut what = not_read.join(", ");
            if lines_not_read {
                what += if what.is_empty() { "" } else { " and " };
                what += "the other lines";
            }
            let view = replies::Notice {
                game: &gc.id,
                lines: vec![format!(
                    "You observe game {}: the judge answers your BOARD, HISTORY and HELP. \
                     The rest of your mail ({what}) was not read: orders and the other \
                     commands are for the game's players and moderators.",
                    gc.id
                )],
            };
            let subject = format!("[{}] Observing", gc.id);
            self.answer(fx, mail, subject, "notice.txt", &view)?;
        }
        Ok(true)
    }

    /// A moderator's `OBSERVERS` and `REMOVE OBSERVER <address>`.
    pub(super) fn moderate_observers(
        &self,
        gc: &GameConfig,
        c: &Command,
        notes: &mut Vec<String>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let observers = self.observers(gc, fx)?;
        match c {
            Command::Observers if observers.is_empty() => {
                notes.push("OBSERVERS: nobody observes this game.".into())
            }
            Command::Observers => notes.push(format!(
                "OBSERVERS ({} of at most {}): {}",
                observers.len(),
                gc.max_observers,
                observers.join(", ")
            )),
            Command::RemoveObserver(address) if observers.contains(address) => {
                self.set_observer(gc, address, false, fx);
                notes.push(format!("REMOVE OBSERVER: {address} no longer observes."));
            }
            Command::RemoveObserver(address) => notes.push(format!(
                "REMOVE OBSERVER: {address} does not observe this game."
            )),
            _ => {}
        }
        Ok(())
    }

    /// Relays one press message from `power`; returns the line for the receipt.
    pub(super) fn press(
        &self,
        gc: &GameConfig,
        record: &Record,
        power: &str,
        press: &Press,
        fx: &mut Effects,
    ) -> Result<String, JudgeError> {
        let label = record.game.label();
        let what = if press.broadcast {
            "BROADCAST"
        } else {
            "PRESS"
        };
        if gc.press == PressMode::None {
            return Ok(format!("{what} refused: this game has no press."));
        }
        if press.anonymous && gc.press != PressMode::Grey {
            return Ok(format!(
                "{what} refused: anonymous press is for grey-press games; this one is white (press is signed)."
            ));
        }
        if record.over() && !gc.press_after_end {
            return Ok(format!(
                "{what} refused: the game is over and takes no more press."
            ));
        }
        if !record.over()
            && !gc.press_during.is_empty()
            && !gc.press_during.iter().any(|p| p == label.phase)
        {
            return Ok(format!(
                "{what} refused: press is allowed in the {} phases, not in this {} phase.",
                gc.press_during.join(", "),
                label.phase
            ));
        }
        if press.text.trim().is_empty() {
            return Ok(format!("{what} refused: the message is empty."));
        }
        let powers = record.game.powers();
        let to: Vec<String> = if press.broadcast {
            powers.iter().filter(|p| *p != power).cloned().collect()
        } else {
            let unknown: Vec<&String> = press
                .to
                .iter()
                .filter(|p| record.power_named(p).is_none())
                .collect();
            if !unknown.is_empty() {
                return Ok(format!(
                    "{what} refused: {} {} not a power of this game ({}).",
                    unknown
                        .iter()
                        .map(|p| command::echo(p))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if unknown.len() == 1 { "is" } else { "are" },
                    powers.join(", ")
                ));
            }
            let mut to: Vec<String> = press
                .to
                .iter()
                .filter_map(|p| record.power_named(p))
                .filter(|p| p != power)
                .collect();
            to.sort();
            to.dedup();
            to
        };
        if to.is_empty() {
            return Ok(format!("{what} refused: nobody to send it to."));
        }
        let now = self.clock.now();
        let stored = PressRecord {
            turn: label.turn,
            phase: label.phase.to_string(),
            from: power.to_string(),
            anonymous: press.anonymous,
            to: to.clone(),
            broadcast: press.broadcast,
            to_anonymous: press.to_anonymous,
            text: press.text.clone(),
            at: now,
        };
        let seq = self.store.next_id()?;
        let key = format!("v1/press/{}/{seq:020}", gc.id);
        fx.batch.put(&key, &stored);
        // A later mail of this commit (HISTORY PRESS) sees it before it is stored.
        fx.flags.insert(
            key,
            serde_json::to_string(&stored).expect("press serialises"),
        );
        // Replies come back through the judge: to the power, or to a token for
        // anonymous press.
        let domain = self
            .config
            .judge
            .address
            .split('@')
            .nth(1)
            .unwrap_or("localhost")
            .to_string();
        let local = self
            .config
            .judge
            .address
            .split('@')
            .next()
            .unwrap_or("judge");
        let target = if press.anonymous {
            // Unguessable, so that only those who got the message can answer it, and
            // telling nothing of when it was sent.
            let token = format!("anon{}", anonymous_token());
            let kept = PressToken::Sent {
                from: power.to_string(),
                to: to.clone(),
            };
            fx.batch
                .put(&format!("v1/press-token/{}/{token}", gc.id), &kept);
            token
        } else {
            power.to_string()
        };
        let reply_to = format!("{local}+{}.{target}@{domain}", gc.id);
        let sender = if press.anonymous { "anonymous" } else { power };
        let view = replies::PressMail {
            game: &gc.id,
            turn: label.turn,
            phase: label.phase,
            when: record.game.play().phase_title(label.turn, label.phase),
            from: sender,
            to: if press.broadcast {
                "every power".to_string()
            } else {
                to.join(", ")
            },
            text: &press.text,
            reply_to: &reply_to,
            to_moderator: false,
        };
        let body = self.templates.render("press.txt", &view)?;
        let subject = format!("[{}] Press from {sender}", gc.id);
        for p in &to {
            let Some(address) = record.addresses.get(p) else {
                continue;
            };
            let mut mail = self.mail(address, subject.clone(), body.clone(), None);
            mail.reply_to = Some(reply_to.clone());
            fx.outbox.push(mail);
        }
        if gc.press_to_moderator {
            // Moderators send no press through the judge: their copy's reply goes to
            // the sender's player directly (they know every address), and says so.
            let player = record.addresses.get(power).map(String::as_str);
            let view = replies::PressMail {
                from: power,
                reply_to: player.unwrap_or(""),
                to_moderator: true,
                ..view
            };
            let body = self.templates.render("press.txt", &view)?;
            for m in &gc.moderators {
                let subject = format!(
                    "[{}] Press from {power}{} to {}",
                    gc.id,
                    if press.anonymous {
                        " (sent anonymously)"
                    } else {
                        ""
                    },
                    to.join(", ")
                );
                let mut mail = self.mail(&m.address, subject, body.clone(), None);
                mail.reply_to = player.map(str::to_string);
                fx.outbox.push(mail);
            }
        }
        Ok(format!(
            "{what}{} to {}: sent.",
            if press.anonymous { " (anonymous)" } else { "" },
            if press.to_anonymous {
                "the anonymous sender".to_string()
            } else {
                to.join(", ")
            }
        ))
    }

    /// The power a reply to press goes to, named by its id (in any case) or by an
    /// anonymous message's token, and whether it was by a token (its sender stays
    /// unnamed to the one replying). A token answers only for the powers the message
    /// went to: for anyone else it is no press of this game (which tells nothing of
    /// whether it exists). A token kept before its recipients were stored with it
    /// answers for the powers that ever got anonymous press from its sender.
    pub(super) fn press_target(
        &self,
        gc: &GameConfig,
        record: &Record,
        replier: &str,
        target: &str,
        fx: &Effects,
    ) -> Result<Option<(String, bool)>, JudgeError> {
        if let Some(power) = record.power_named(target) {
            return Ok(Some((power, false)));
        }
        let key = format!("v1/press-token/{}/{target}", gc.id);
        let Some(token) = self.store.get::<PressToken>(&key)? else {
            return Ok(None);
        };
        let (from, allowed) = match token {
            PressToken::Sent { from, to } => {
                let allowed = to.iter().any(|p| p == replier);
                (from, allowed)
            }
            PressToken::Sender(from) => {
                let allowed = self
                    .press_archive(gc, fx)?
                    .iter()
                    .any(|p| p.anonymous && p.from == from && p.to.iter().any(|t| t == replier));
                (from, allowed)
            }
        };
        Ok(allowed.then_some((from, true)))
    }

    /// The game's press in the order it was sent: the stored messages and those sent
    /// earlier in this commit.
    fn press_archive(&self, gc: &GameConfig, fx: &Effects) -> Result<Vec<PressRecord>, JudgeError> {
        let prefix = format!("v1/press/{}/", gc.id);
        let mut all: BTreeMap<String, PressRecord> = self
            .store
            .scan::<PressRecord>(&prefix)?
            .into_iter()
            .collect();
        for (key, text) in fx.flags.range(prefix.clone()..) {
            if !key.starts_with(&prefix) {
                break;
            }
            let press = serde_json::from_str(text)
                .map_err(|e| JudgeError::Fault(format!("press {key} of this commit: {e}")))?;
            all.insert(key.clone(), press);
        }
        Ok(all.into_values().collect())
    }

    /// `HISTORY PRESS [N]`: the press a power sent or received (in turn N).
    pub(super) fn press_history_reply(
        &self,
        gc: &GameConfig,
        record: &Record,
        power: &str,
        turn: Option<u32>,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let play = record.game.play();
        let mut lines = Vec::new();
        for p in self.press_archive(gc, fx)? {
            if turn.is_some_and(|t| t != p.turn) {
                continue;
            }
            // A moderator (no power) sees all press, senders included.
            let everything = power.is_empty();
            let sent = p.from == power;
            let received = p.to.iter().any(|t| t == power);
            if !sent && !received && !everything {
                continue;
            }
            let from = if everything {
                p.from.clone()
            } else if sent {
                "you".to_string()
            } else if p.anonymous {
                "anonymous".to_string()
            } else {
                p.from.clone()
            };
            let to = if p.broadcast {
                "every power".to_string()
            } else if p.to_anonymous && sent && !everything {
                "the anonymous sender".to_string()
            } else {
                p.to.join(", ")
            };
            lines.push(format!(
                "{}, from {from} to {to}{}:",
                crate::report::capitalised(&play.phase_title(p.turn, &p.phase)),
                // Its sender and the moderators know it went anonymously.
                if (sent || everything) && p.anonymous {
                    " (anonymously)"
                } else {
                    ""
                }
            ));
            lines.extend(p.text.lines().map(|l| format!("  {l}")));
        }
        if lines.is_empty() {
            lines.push("No press sent or received here.".into());
        }
        let view = replies::Notice {
            game: &gc.id,
            lines,
        };
        let subject = match turn {
            Some(t) => format!("[{}] Press of {}", gc.id, play.turn_title(t)),
            None => format!("[{}] Press", gc.id),
        };
        self.answer(fx, mail, subject, "notice.txt", &view)
    }

    /// `ABSENCE <from> <to>` from a player: deadlines inside move to its end. One
    /// absence a power at a time (a new one replaces it), at most 14 days, ending in
    /// the future; the current deadline moves at once if it falls inside.
    pub(super) fn absence(
        &self,
        gc: &GameConfig,
        record: &mut Record,
        power: &str,
        from: &str,
        to: &str,
    ) -> String {
        let now = self.clock.now();
        let (Some(start), Some(end)) = (
            absence_time(from, gc.time_zone, false),
            absence_time(to, gc.time_zone, true),
        ) else {
            return format!(
                "ABSENCE {from} {to} not understood: write dates (2026-12-01 2026-12-05, the end day included) or RFC 3339 times."
            );
        };
        if end <= start || end <= now {
            return "ABSENCE refused: it must end after it begins, in the future.".into();
        }
        if end - start > max_absence() {
            return format!(
                "ABSENCE refused: an absence lasts at most {} days.",
                max_absence().num_days()
            );
        }
        if start > now + Duration::days(90) {
            return "ABSENCE refused: it must begin within 90 days.".into();
        }
        record.absences.retain(|a| a.power != power);
        record.absences.push(Absence {
            power: power.to_string(),
            from: start,
            to: end,
        });
        let mut note = format!(
            "ABSENCE: {} to {}; deadlines that fall inside move to its end.",
            replies::utc(start),
            replies::utc(end)
        );
        if let Some(d) = record.deadline {
            let moved = deadline_after(gc, record, d);
            if moved != d {
                record.deadline = Some(moved);
                note += &format!(" The deadline is now {}.", replies::utc(moved));
            }
        }
        note
    }
}

/// A day (`2026-12-01`, in the game's time zone: its start, or the next day's start for
/// an end) or an RFC 3339 time.
fn absence_time(text: &str, tz: chrono_tz::Tz, end: bool) -> Option<DateTime<Utc>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.with_timezone(&Utc));
    }
    let day = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
    let day = if end { day.succ_opt()? } else { day };
    let midnight = day.and_hms_opt(0, 0, 0)?;
    use chrono::TimeZone;
    tz.from_local_datetime(&midnight)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
}

/// 64 random bits, as 16 hex digits: an anonymous press message's reply token.
fn anonymous_token() -> String {
    use rand_core::RngCore;
    format!("{:016x}", rand_core::OsRng.next_u64())
}
