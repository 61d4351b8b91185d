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
                    Some(t) if record.paused.is_none() => {
                        record.deadline = Some(t);
                        notes.push(format!(
                            "DEADLINE set: {} ({}).",
                            replies::utc(t),
                            replies::local(t, gc.time_zone)
                        ));
                        fx.records.insert(gc.id.clone(), record);
                    }
                    Some(_) => notes.push("DEADLINE: the game is paused; RESUME first.".into()),
                    None => notes.push(format!(
                        "DEADLINE {when:?} not understood: write 2026-12-01T18:00:00Z, +36h or +2d."
                    )),
                },
                Command::Pause => {
                    if record.paused.is_some() || record.over() {
                        notes.push("PAUSE: the game is already paused or over.".into());
                    } else {
                        let left = record
                            .deadline
                            .map(|d| (d - now).num_seconds().max(0))
                            .unwrap_or(0);
                        record.paused = Some(left);
                        record.deadline = None;
                        notes.push("PAUSE: the clock is stopped.".into());
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
                            notes.push(format!("RESUME: the deadline is now {}.", replies::utc(d)));
                            fx.records.insert(gc.id.clone(), record);
                            self.advance(gc, fx, false)?;
                        }
                        None => notes.push("RESUME: the game is not paused.".into()),
                    }
                }
                Command::Replace { power, address } => {
                    if !record.addresses.contains_key(power)
                        && !record.game.powers().contains(power)
                    {
                        notes.push(format!("REPLACE: {power:?} is not a power of this game."));
                    } else if !crate::config::is_address(address) {
                        notes.push(format!("REPLACE: {address:?} is not a mail address."));
                    } else {
                        record.addresses.insert(power.clone(), address.clone());
                        notes.push(format!("REPLACE: {power} is now played from {address}."));
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
                    self.press_history_reply(gc, "", *turn, mail, fx)?
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
                    let before = record.absences.len();
                    match power {
                        Some(p) => record.absences.retain(|a| &a.power != p),
                        None => record.absences.clear(),
                    }
                    notes.push(format!(
                        "ABSENCE CANCEL: {} absence(s) cancelled (deadlines already moved stay).",
                        before - record.absences.len()
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
        Ok(())
    }
}
