//! A moderator's mail: FORCE, DEADLINE, PAUSE, RESUME, REPLACE, queries.

use super::*;

impl Judge<'_> {
    pub(super) fn act_as_moderator(
        &self,
        gc: &GameConfig,
        mail: &Incoming,
        parsed: &command::Parsed,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let mut notes: Vec<String> = parsed.notes.clone();
        if parsed.orders.is_some() {
            notes.push("Moderators give no orders: the orders were ignored.".into());
        }
        for (line, why) in &parsed.not_understood {
            notes.push(format!("Not understood: {line} ({why})"));
        }
        for line in parsed.loose.iter().flat_map(|text| text.lines()) {
            notes.push(format!(
                "Not understood: {line} (not a command; moderators give no orders)"
            ));
        }
        let now = self.clock.now();
        // What the players are told of the moderator's changes to the clock and the
        // players, in one mail after the commands, or before the results of a phase
        // a command adjudicates (so that they read in the order things happened); a
        // line may leave out one address (a new player hears of herself otherwise).
        let mut announce: Vec<(String, Option<String>)> = Vec::new();
        for c in &parsed.commands {
            let mut record = self.load(fx, &gc.id)?;
            let label = record.game.label();
            match c {
                Command::Force(guard) => {
                    let current = guard
                        .as_ref()
                        .is_none_or(|(t, p)| *t == label.turn && p == label.phase);
                    if record.over() {
                        notes.push("FORCE: the game is over.".into());
                    } else if !current {
                        notes.push(format!(
                            "FORCE refused: the current phase is turn {} {}.",
                            label.turn, label.phase
                        ));
                    } else {
                        self.announce(gc, &mut announce, fx)?;
                        let before = fx.adjudicated.len();
                        self.advance(gc, fx, true)?;
                        if fx.adjudicated.len() > before {
                            notes.push(format!(
                                "FORCE: turn {} {} adjudicated.",
                                label.turn, label.phase
                            ));
                        }
                    }
                }
                Command::Deadline(when) => match parse_when(when, now) {
                    Some(t) if t <= now && !record.over() => notes.push(format!(
                        "DEADLINE {when} refused: that time is past ({}); FORCE plays the phase now.",
                        replies::when(t, gc.time_zone)
                    )),
                    Some(t)
                        if t > now + Duration::days(super::MAX_DEADLINE_AHEAD_DAYS)
                            && !record.over() =>
                    {
                        notes.push(format!(
                            "DEADLINE {when} refused: {} is more than a year ahead; a game waits at most {} days for a phase (PAUSE stops the clock for as long as needed).",
                            replies::when(t, gc.time_zone),
                            super::MAX_DEADLINE_AHEAD_DAYS
                        ))
                    }
                    Some(t) if record.paused.is_none() && !record.over() => {
                        record.deadline = Some(t);
                        let when = replies::when(t, gc.time_zone);
                        notes.push(format!("DEADLINE set: {when}."));
                        announce.push((
                            format!(
                                "The moderator moved the deadline of turn {} {}: it is now {when}.",
                                label.turn, label.phase
                            ),
                            None,
                        ));
                        fx.records.insert(gc.id.clone(), record);
                    }
                    Some(_) if record.over() => notes.push("DEADLINE: the game is over.".into()),
                    Some(_) => notes.push("DEADLINE: the game is paused; RESUME first.".into()),
                    None => notes.push(format!(
                        "DEADLINE {when:?} not understood: write 2026-12-01T18:00:00Z, +36h or +2d."
                    )),
                },
                Command::Pause => {
                    if record.paused.is_some() || record.over() {
                        notes.push("PAUSE: the game is already paused or over.".into());
                    } else {
                        let left = record.deadline.map(|d| seconds_left(d, now)).unwrap_or(0);
                        record.paused = Some(left);
                        record.deadline = None;
                        notes.push("PAUSE: the clock is stopped.".into());
                        announce.push((
                            format!(
                                "The moderator paused the game in turn {} {}: the clock is stopped with {} left. Orders are still taken; nothing is adjudicated until the game resumes, and you will be told the new deadline.",
                                label.turn,
                                label.phase,
                                replies::length(Duration::seconds(left))
                            ),
                            None,
                        ));
                        fx.records.insert(gc.id.clone(), record);
                    }
                }
                Command::Resume => {
                    match record.paused.take() {
                        Some(left) => {
                            if let Some(why) = record.suspended.take() {
                                notes.push(format!("RESUME: the game was suspended ({why}); the judge tries again."));
                            }
                            let d = now + Duration::seconds(left);
                            record.deadline = Some(d);
                            let when = replies::when(d, gc.time_zone);
                            // Told before the results of a phase the resumption plays
                            // at once (every order in), and then without a deadline.
                            let plays = record.suspended.is_none()
                                && phases::all_in(&record, &record.game.owing());
                            fx.records.insert(gc.id.clone(), record);
                            let line = if plays {
                                notes.push(format!(
                                    "RESUME: every order was in: turn {} {} adjudicated.",
                                    label.turn, label.phase
                                ));
                                format!(
                                    "The moderator resumed the game; every order was in, so turn {} {} was adjudicated at once.",
                                    label.turn, label.phase
                                )
                            } else {
                                notes.push(format!("RESUME: the deadline is now {when}."));
                                format!(
                                    "The moderator resumed the game: the deadline of turn {} {} is now {when}.",
                                    label.turn, label.phase
                                )
                            };
                            announce.push((line, None));
                            self.announce(gc, &mut announce, fx)?;
                            self.advance(gc, fx, false)?;
                        }
                        None => notes.push("RESUME: the game is not paused.".into()),
                    }
                }
                Command::Replace { power, address } => {
                    let written = power;
                    let power = &record.power_named(written).unwrap_or_default();
                    if power.is_empty() {
                        notes.push(format!(
                            "REPLACE: {written:?} is not a power of this game ({}).",
                            record.game.powers().join(", ")
                        ));
                    } else if !crate::config::is_address(address) {
                        notes.push(format!("REPLACE: {address:?} is not a mail address."));
                    } else if let Some(other) = record
                        .addresses
                        .iter()
                        .find(|(p, a)| *p != power && *a == address)
                        .map(|(p, _)| p.clone())
                    {
                        // The judge knows a player by address: one address, one power.
                        notes.push(format!(
                            "REPLACE: {address} already plays {other} in this game, and an address plays one power: nothing was changed."
                        ));
                    } else if gc.moderators.iter().any(|m| m.address == *address) {
                        notes.push(format!(
                            "REPLACE: {address} moderates this game, and a moderator plays no power: nothing was changed."
                        ));
                    } else {
                        let before = record.addresses.insert(power.clone(), address.clone());
                        // Known as a player without games.toml (HELP with no game).
                        fx.batch.put(&record::played_by_key(address, &gc.id), &true);
                        if let Some(old) = &before {
                            if !record.addresses.values().any(|a| a == old) {
                                fx.batch.remove(&record::played_by_key(old, &gc.id));
                            }
                        }
                        notes.push(format!(
                            "REPLACE: {power} is now played from {address}, who was sent a welcome with the position. Give them {power}'s password; the previous player knows it, so set a new one in games.toml (pbem hash-password, then pbem reload) if need be."
                        ));
                        let reader = Reader {
                            address: address.clone(),
                            power: Some(power.clone()),
                            observer: false,
                        };
                        self.welcome_one(gc, &record, &reader, true, fx)?;
                        if let Some(old) = before.filter(|old| old != address) {
                            let view = replies::Notice {
                                game: &gc.id,
                                lines: vec![format!(
                                    "The moderator has handed {power} to another player: the judge takes no more mail for {power} from this address. Thank you for playing."
                                )],
                            };
                            let body = self.templates.render("notice.txt", &view)?;
                            let subject = format!("[{}] You no longer play {power}", gc.id);
                            fx.outbox.push(self.mail(&old, subject, body, None));
                        }
                        announce.push((format!("{power} has a new player."), Some(address.clone())));
                        fx.records.insert(gc.id.clone(), record);
                    }
                }
                Command::Board => self.board_reply(gc, &record, Viewer::Moderator, mail, fx)?,
                Command::History(n) => {
                    self.history_reply(gc, &record, Viewer::Moderator, *n, mail, fx)?
                }
                Command::Help(_) => self.help_reply(gc, &record, None, mail, fx)?,
                Command::Ready | Command::Wait => {
                    notes.push("READY and WAIT are for players.".into())
                }
                Command::Observers | Command::RemoveObserver(_) => {
                    self.moderate_observers(gc, c, &mut notes, fx)?
                }
                Command::HistoryPress(turn) => {
                    self.press_history_reply(gc, &record, "", *turn, mail, fx)?
                }
                Command::Press(_) => notes.push(
                    "Moderators send no press: write to the players directly, or ask the judge's maintainer for a moderator broadcast.".into(),
                ),
                Command::Observe(_) | Command::Unobserve(_) => notes.push(
                    "OBSERVE and UNOBSERVE are for observers; a moderator gets every mail of the game.".into(),
                ),
                Command::Absence { .. } => {
                    notes.push("ABSENCE is for players (a moderator moves deadlines with DEADLINE).".into())
                }
                Command::CancelAbsence(power) => {
                    let named = power.as_ref().map(|p| record.power_named(p).unwrap_or_else(|| p.clone()));
                    let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut record.absences)
                        .into_iter()
                        .partition(|a| named.as_ref().is_none_or(|p| a.power == *p));
                    record.absences = kept;
                    let cancelled = gone.len();
                    // Each player whose absence is cancelled learns it: the deadlines
                    // no longer wait for it.
                    for a in &gone {
                        let line = format!(
                            "The moderator cancelled your absence ({} to {}): deadlines no longer move for it (a deadline already moved stays).",
                            replies::when(a.from, gc.time_zone),
                            replies::when(a.to, gc.time_zone)
                        );
                        let player = record.addresses.get(&a.power).map(String::as_str);
                        self.notify(gc, player, "Absence cancelled", vec![line], fx)?;
                    }
                    notes.push(format!(
                        "ABSENCE CANCEL: {} cancelled (deadlines already moved stay).",
                        match cancelled {
                            0 => "no absence".to_string(),
                            1 => "1 absence".to_string(),
                            n => format!("{n} absences"),
                        }
                    ));
                    fx.records.insert(gc.id.clone(), record);
                }
                Command::EndGame => {
                    if record.over() {
                        notes.push("END GAME: the game is already over.".into());
                    } else {
                        record.ended = Some(format!(
                            "ended by a moderator on {}",
                            replies::utc(now)
                        ));
                        record.deadline = None;
                        record.paused = None;
                        let why = record.ended.clone().unwrap_or_default();
                        self.game_over_mails(gc, &record, label.turn, Some(&why), fx)?;
                        fx.records.insert(gc.id.clone(), record);
                        notes.push("END GAME: the game is over; everyone was told, the dice secret revealed.".into());
                    }
                }
            }
        }
        if !notes.is_empty() {
            let view = replies::Notice {
                game: &gc.id,
                lines: notes,
            };
            let subject = format!("[{}] Moderator commands", gc.id);
            self.answer(fx, mail, subject, "notice.txt", &view)?;
        }
        self.announce(gc, &mut announce, fx)
    }

    /// Tells the players what `announce` holds (each the lines not leaving its address
    /// out), in one mail each, and empties it.
    fn announce(
        &self,
        gc: &GameConfig,
        announce: &mut Vec<(String, Option<String>)>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        if announce.is_empty() {
            return Ok(());
        }
        let record = self.load(fx, &gc.id)?;
        let mut addresses: Vec<&String> = record.addresses.values().collect();
        addresses.sort();
        addresses.dedup();
        let subject = format!("[{}] From the moderator", gc.id);
        for address in addresses {
            let lines: Vec<String> = announce
                .iter()
                .filter(|(_, except)| except.as_ref() != Some(address))
                .map(|(line, _)| line.clone())
                .collect();
            if lines.is_empty() {
                continue;
            }
            let view = replies::Notice {
                game: &gc.id,
                lines,
            };
            let body = self.templates.render("notice.txt", &view)?;
            fx.outbox
                .push(self.mail(address, subject.clone(), body, None));
        }
        announce.clear();
        Ok(())
    }

    /// A notice (`[<game>] <topic>`) to each of `addresses`, once each.
    pub(super) fn notify<'a>(
        &self,
        gc: &GameConfig,
        addresses: impl IntoIterator<Item = &'a str>,
        topic: &str,
        lines: Vec<String>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let view = replies::Notice {
            game: &gc.id,
            lines,
        };
        let body = self.templates.render("notice.txt", &view)?;
        let subject = format!("[{}] {topic}", gc.id);
        let mut addresses: Vec<&str> = addresses.into_iter().collect();
        addresses.sort();
        addresses.dedup();
        for address in addresses {
            fx.outbox
                .push(self.mail(address, subject.clone(), body.clone(), None));
        }
        Ok(())
    }

    /// A notice to the game's moderators.
    pub(super) fn tell_moderators(
        &self,
        gc: &GameConfig,
        topic: &str,
        lines: Vec<String>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let moderators = gc.moderators.iter().map(|m| m.address.as_str());
        self.notify(gc, moderators, topic, lines, fx)
    }

    /// A notice to every player of the game (not its moderators, who hear of it
    /// otherwise), but `except` (an address).
    pub(super) fn tell_players(
        &self,
        gc: &GameConfig,
        record: &Record,
        topic: &str,
        lines: Vec<String>,
        except: Option<&str>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let players = record
            .addresses
            .values()
            .map(String::as_str)
            .filter(|a| Some(*a) != except);
        self.notify(gc, players, topic, lines, fx)
    }
}

/// Whole seconds from `now` to `deadline`, rounded up (a pause keeps every second that
/// was left), never below zero.
pub(super) fn seconds_left(deadline: DateTime<Utc>, now: DateTime<Utc>) -> i64 {
    ((deadline - now).num_milliseconds().max(0) + 999) / 1000
}
