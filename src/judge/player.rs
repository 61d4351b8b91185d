//! A player's mail: orders kept and checked, READY/WAIT, queries; the receipt.

use super::*;

impl Judge<'_> {
    pub(super) fn act_as_player(
        &self,
        gc: &GameConfig,
        mail: &Incoming,
        parsed: &command::Parsed,
        power: &str,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        // Taken out of this commit's records (no copy) and put back below; nothing in
        // between reads it from `fx`.
        let mut record = self.take(fx, &gc.id)?;
        let mut notes = parsed.notes.clone();
        let mut lines = Vec::new();
        let mut parsed = parsed.clone();
        // Orders and READY (or BOARD, …) in one mail, without ORDERS … END: the other
        // lines are the orders, if one of them is a valid order (below).
        let beside_commands = parsed.orders.is_none() && parsed.loose.is_some();
        if parsed.orders.is_none() {
            parsed.orders = parsed.loose.take();
        }
        // A reply to press (mail to judge+<game>.<power>@…): its loose lines are press
        // back to that power, not orders.
        if let Some(target) = mail.to.iter().find_map(|a| intake::plus_target(a)) {
            if !parsed.orders_block {
                if let Some(text) = parsed.orders.take() {
                    match self.press_target(gc, &record, power, &target, fx)? {
                        Some((to, anonymous)) => parsed.commands.push(Command::Press(command::Press {
                            // A token (not a power's name) stands for anonymous press:
                            // its sender stays unnamed to the one replying.
                            to_anonymous: anonymous,
                            to: vec![to],
                            broadcast: false,
                            anonymous: false,
                            text,
                        })),
                        None => notes.push(format!(
                            "A reply to press for {target:?}, which is no power or press of this game: nothing was sent."
                        )),
                    }
                }
            }
        }
        let parsed = &parsed;
        // The phase and who owes orders, asked of the game once a position (nothing
        // below changes the game itself).
        let (label, owing) = self.phase_of(fx, &gc.id, &record);
        let owes = owing.iter().any(|p| p == power);
        // A mail that came in before the phase now current began, read after it (in
        // the same pass as the mail that completed the phase before, or just after a
        // deadline): its orders count for the phase now current, and the player is
        // told, or a correction meant for the phase before would seem lost.
        let for_a_phase = parsed.orders.is_some()
            || parsed
                .commands
                .iter()
                .any(|c| matches!(c, Command::Ready | Command::Wait));
        if let (Some(came), Some(began)) = (mail.received, record.phase_began) {
            if for_a_phase && came < began && !record.over() {
                notes.push(format!(
                    "This mail came in at {}, before the phase before this one was adjudicated at {}, and was read after it: it counts for turn {} {}, the phase now current.",
                    replies::when(came, gc.time_zone),
                    replies::when(began, gc.time_zone),
                    label.turn,
                    label.phase
                ));
            }
        }
        // The orders standing after this mail, when its orders were just checked.
        let mut standing = None;
        if let Some(orders) = &parsed.orders {
            if record.over() {
                // The receipt says the game is over, and why: not told twice.
            } else if !owes {
                notes.push(format!(
                    "{power} owes no orders in this {} phase: nothing was kept.",
                    label.phase
                ));
            } else {
                lines = {
                    let _t = crate::timing::span("act: orders checked");
                    record.game.check(power, orders)
                };
                // A mail in which no line is a valid order is no submission: the orders
                // standing stay, and a power with none is not counted in, so that a
                // phase is not played before the player could correct a refused line.
                // Chatter ("I will send my orders tomorrow") is such a mail, and so is
                // press signed off with "Move fast, all!" beside a command. Only an
                // empty ORDERS block submits nothing on purpose.
                let unread = lines
                    .iter()
                    .all(|c| matches!(c, LineCheck::Unreadable { .. }));
                let none_valid = !lines.iter().any(|c| c.accepted().is_some());
                let on_purpose = parsed.orders_block && lines.is_empty();
                let unchanged = format!("the orders standing for {power} are unchanged");
                if !on_purpose && none_valid {
                    notes.push(if unread && !beside_commands {
                        format!("Nothing in this mail reads as an order: {unchanged}.")
                    } else if beside_commands {
                        format!("No line beside the commands is a valid order: {unchanged}.")
                    } else {
                        format!(
                            "No line of this mail is a valid order: {unchanged}. Correct the refused lines and send them again."
                        )
                    });
                } else {
                    let entry = record.submissions.entry(power.to_string()).or_default();
                    entry.orders = kept_orders(orders, &lines);
                    entry.ready = false;
                    // WAIT stands until READY or the phase's end: new orders do not
                    // lift it, and the player is reminded that it stands.
                    let says_which = parsed
                        .commands
                        .iter()
                        .any(|c| matches!(c, Command::Ready | Command::Wait));
                    if entry.wait && !says_which {
                        notes.push(
                            "Your WAIT still stands: the judge waits for the deadline even when everyone is in. Send READY to let the phase be played as soon as everyone is in."
                                .into(),
                        );
                    }
                    // Kept as sent (no line left out): checking them again would give
                    // these lines.
                    if entry.orders == *orders {
                        standing = Some(accepted(&lines));
                    }
                }
            }
        }
        let mut receipt = parsed.orders.is_some();
        for c in &parsed.commands {
            match c {
                Command::Ready | Command::Wait if owes && !record.over() => {
                    let entry = record
                        .submissions
                        .entry(power.to_string())
                        .or_insert_with(Submission::default);
                    let ready = *c == Command::Ready;
                    entry.ready = ready;
                    entry.wait = !ready;
                    notes.push(if ready {
                        "READY: your orders are final.".into()
                    } else {
                        "WAIT: the judge will wait for the deadline.".into()
                    });
                    receipt = true;
                }
                Command::Ready | Command::Wait => {
                    notes.push("You owe no orders now: READY and WAIT have no effect.".into());
                    receipt = true;
                }
                Command::Board => self.board_reply(gc, &record, Viewer::Power(power), mail, fx)?,
                Command::History(n) => {
                    self.history_reply(gc, &record, Viewer::Power(power), *n, mail, fx)?
                }
                Command::Help(_) => self.help_reply(gc, &record, Some(power), mail, fx)?,
                Command::Press(press) => {
                    let note = self.press(gc, &record, power, press, fx)?;
                    notes.push(note);
                    receipt = true;
                }
                Command::HistoryPress(turn) => {
                    self.press_history_reply(gc, &record, power, *turn, mail, fx)?
                }
                Command::Absence { from, to } => {
                    let before = record.deadline;
                    let note = self.absence(gc, &mut record, power, from, to);
                    receipt = true;
                    // The moderators learn of every absence (they may cancel it).
                    if let Some(a) = record.absences.iter().find(|a| a.power == power) {
                        if note.starts_with("ABSENCE:") {
                            let mut line = format!(
                                "{power} will be away from {} to {}: deadlines that fall inside move to its end (ABSENCE CANCEL {power} cancels it).",
                                replies::when(a.from, gc.time_zone),
                                replies::when(a.to, gc.time_zone)
                            );
                            if let Some(d) = record.deadline.filter(|d| Some(*d) != before) {
                                line += &format!(
                                    " The deadline of turn {} {} is now {}.",
                                    label.turn,
                                    label.phase,
                                    replies::when(d, gc.time_zone)
                                );
                            }
                            self.tell_moderators(gc, "Absence", vec![line], fx)?;
                        }
                    }
                    notes.push(note);
                    // The others learn that the deadline moved (not whose absence).
                    if let Some(d) = record.deadline.filter(|d| Some(*d) != before) {
                        let line = format!(
                            "A player's absence moved the deadline of turn {} {}: it is now {}.",
                            label.turn,
                            label.phase,
                            replies::when(d, gc.time_zone)
                        );
                        self.tell_players(
                            gc,
                            &record,
                            "Deadline moved",
                            vec![line],
                            Some(&mail.from),
                            fx,
                        )?;
                    }
                }
                Command::CancelAbsence(None) => {
                    let before = record.absences.len();
                    record.absences.retain(|a| a.power != power);
                    notes.push(if record.absences.len() < before {
                        "ABSENCE CANCEL: your absence is cancelled (deadlines already moved stay)."
                            .into()
                    } else {
                        "ABSENCE CANCEL: you have no absence.".into()
                    });
                    receipt = true;
                }
                other => {
                    notes.push(format!("{} is for moderators only: ignored.", other.name()));
                    receipt = true;
                }
            }
        }
        // Notes made here (a reply to press that reaches nobody, a mail read late)
        // are told too.
        if !parsed.not_understood.is_empty() || !notes.is_empty() {
            receipt = true;
        }
        if receipt {
            let view = {
                let _t = crate::timing::span("act: receipt view");
                let standing = match standing {
                    Some(s) => s,
                    None => record
                        .submissions
                        .get(power)
                        .map(|s| accepted(&record.game.check(power, &s.orders)))
                        .unwrap_or_default(),
                };
                let mut view = replies::receipt(replies::ReceiptOf {
                    gc,
                    record: &record,
                    label: label.clone(),
                    owing: &owing,
                    standing,
                    power,
                    checks: &lines,
                    notes,
                    not_understood: &parsed.not_understood,
                });
                // What the rules say of the orders standing (a winter's builds owed and
                // ordered, …), for a power that owes orders now.
                if owes && !record.over() {
                    let orders = record.submissions.get(power).map(|s| s.orders.as_str());
                    view.standing_notes = record
                        .game
                        .play()
                        .receipt_notes(power, orders.unwrap_or(""));
                }
                view.when_played = when_played(&record, &owing, power, gc.time_zone);
                view
            };
            let body = self.templates.render("receipt.txt", &view)?;
            // "Orders received" only for a mail that held orders: press, ABSENCE or a
            // query alone is not one.
            let what = if parsed.orders.is_some() {
                "Orders received"
            } else {
                "Mail received"
            };
            let subject = if record.over() {
                format!("[{}] {what}: game over", gc.id)
            } else {
                format!("[{}] {what}: turn {} {}", gc.id, label.turn, label.phase)
            };
            fx.outbox
                .push(self.mail(&mail.from, subject, body, Some(mail)));
        }
        // Adjudicated only when everyone owing is in (the same test as `advance`'s).
        let all_in = phases::all_in(&record, &owing);
        fx.records.insert(gc.id.clone(), record);
        if !all_in {
            return Ok(());
        }
        let _t = crate::timing::span("act: turn over? (advance)");
        self.advance(gc, fx, false)
    }
}

/// What a receipt says under "Still to submit: nobody", when every power owing orders
/// has sent them: the phase is adjudicated now (its results follow the receipt), or
/// why not: a WAIT stands (the sender's own, or a player's: never whose), or the game
/// is paused. Empty while some orders are missing, and for a suspended game (the
/// moderators are told).
fn when_played(record: &Record, owing: &[String], power: &str, tz: chrono_tz::Tz) -> String {
    let everyone_in = owing.iter().all(|p| record.submissions.contains_key(p));
    if owing.is_empty() || !everyone_in || record.over() || record.suspended.is_some() {
        return String::new();
    }
    let waits = |p: &String| record.submissions.get(p).is_some_and(|s| s.wait);
    if record.paused.is_some() {
        return "Every power's orders are in, but the game is paused: nothing is adjudicated until the moderator resumes it.".into();
    }
    if !owing.iter().any(waits) {
        return "Every power's orders are in: the phase is adjudicated now, and its results follow.".into();
    }
    let who = if owing.iter().any(|p| p == power && waits(p)) {
        "you"
    } else {
        "a player"
    };
    let at = match record.deadline {
        Some(d) => format!("at the deadline, {},", replies::when(d, tz)),
        None => "at the deadline".into(),
    };
    format!(
        "Every power's orders are in. The phase will be adjudicated {at} because {who} asked the judge to wait for it."
    )
}

/// The orders a check accepted.
fn accepted(checks: &[LineCheck]) -> Vec<String> {
    checks
        .iter()
        .filter_map(|c| c.accepted().map(str::to_string))
        .collect()
}

/// The orders as kept for adjudication: the lines the rule set found to be no order at
/// all, the orders a later line replaced and every comment (`#` to the end of the line,
/// in every game) are left out, so they never reach the results or the history, which
/// every power reads at the end of a game.
fn kept_orders(orders: &str, checks: &[LineCheck]) -> String {
    let mut unreadable: std::collections::HashSet<&str> = std::collections::HashSet::new();
    // A replaced line's text may stand again later (the same order written twice):
    // its first occurrences are the replaced ones.
    let mut replaced: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for c in checks {
        match c {
            LineCheck::Unreadable { line, .. } => {
                unreadable.insert(line.as_str());
            }
            LineCheck::Replaced { line, .. } => *replaced.entry(line.as_str()).or_default() += 1,
            _ => {}
        }
    }
    if unreadable.is_empty() && replaced.is_empty() && !orders.contains('#') {
        return orders.to_string();
    }
    orders
        .lines()
        .filter_map(|raw| {
            let content = raw.split('#').next().unwrap_or("").trim_end();
            if unreadable.contains(raw.trim()) || unreadable.contains(content.trim()) {
                return None;
            }
            if let Some(left) = replaced.get_mut(content.trim()).filter(|n| **n > 0) {
                *left -= 1;
                return None;
            }
            Some(content)
        })
        .collect::<Vec<_>>()
        .join("\n")
}
