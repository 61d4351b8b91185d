//! Phases: deadlines and reminders, adjudication when everyone owing orders is in,
//! and the results mailed to everyone.

use super::*;
use crate::picture::mail::Rich;

impl Judge<'_> {
    /// Deadlines and reminders of every game due by `read_at`, the time the pass
    /// began reading its mail. Returns the phases adjudicated. A game whose deadline
    /// was tried [`MAX_ATTEMPTS`] times (a pass killed or failing on it) is suspended
    /// instead; a fault in one game leaves the others alone.
    ///
    /// Not the time of the tick itself: a mail that reached the mailbox after the
    /// pass looked, but before a deadline that passed while the pass read the others,
    /// has not been read yet. The deadline is kept by the next pass, after that mail
    /// is read, so it counts for the phase it came in time for.
    pub(super) fn tick(
        &self,
        report: &mut PassReport,
        read_at: DateTime<Utc>,
    ) -> Result<usize, JudgeError> {
        let now = read_at;
        let mut count = 0;
        for id in self.due_games(now)? {
            let Some(gc) = self.config.game(&id) else {
                continue;
            };
            report.games_due += 1;
            let mut fx = self.effects();
            let record = match self.record(&gc.id) {
                Ok(Some(record)) => record,
                Ok(None) => continue,
                Err(JudgeError::Unreadable { why, .. }) => {
                    // The game waits, alone, in the index: kept when it reads again.
                    // Told once by this process, not on every pass while it waits.
                    if self.unreadable_reported.borrow_mut().insert(gc.id.clone()) {
                        report.errors.push(format!(
                            "game {}: its record cannot be read ({why}); it waits",
                            gc.id
                        ));
                    }
                    self.tell_unreadable(gc, &why, &mut fx)?;
                    self.commit(fx)?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let Some(deadline) = record.deadline else {
                continue;
            };
            if record.suspended.is_some() {
                continue;
            }
            self.mended(&gc.id, &mut fx)?;
            self.unreadable_reported.borrow_mut().remove(&gc.id);
            if now >= deadline {
                let attempts_key = record::deadline_attempts_key(&gc.id, deadline);
                let attempts: u32 = self.store.get(&attempts_key)?.unwrap_or(0);
                if attempts >= MAX_ATTEMPTS {
                    let why = format!(
                        "the deadline of turn {} {} could not be handled in {attempts} attempts",
                        record.game.label().turn,
                        record.game.label().phase
                    );
                    self.suspend(gc, &record, &why, &mut fx)?;
                    fx.batch.remove(&attempts_key);
                    self.commit(fx)?;
                    report
                        .errors
                        .push(format!("game {}: {why}; suspended", gc.id));
                    continue;
                }
                self.store.put_now(&attempts_key, &(attempts + 1))?;
                match self.unit(|| self.advance(gc, &mut fx, true)) {
                    Ok(()) => fx.batch.remove(&attempts_key),
                    Err(e) if e.is_local() => {
                        report.errors.push(format!(
                            "game {}: {e} (tried again on the next pass)",
                            gc.id
                        ));
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            } else {
                self.remind(gc, &record, deadline, now, &mut fx)?;
            }
            // Indexed anew whether or not anything changed (a reminder sent moves the
            // game's next due time).
            if !fx.records.contains_key(&gc.id) {
                fx.records.insert(gc.id.clone(), record);
            }
            count += fx.adjudicated.len();
            self.commit(fx)?;
        }
        Ok(count)
    }

    /// Sets a game aside until a moderator's RESUME: its clock stops, the moderators
    /// are told why.
    pub(super) fn suspend(
        &self,
        gc: &GameConfig,
        record: &Record,
        why: &str,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        tracing::error!(game = %gc.id, why, "game suspended");
        let mut record = record.clone();
        record.suspended = Some(why.to_string());
        if record.paused.is_none() {
            let now = self.clock.now();
            let left = record
                .deadline
                .map(|d| super::moderator::seconds_left(d, now))
                .unwrap_or(0);
            record.paused = Some(left);
        }
        record.deadline = None;
        fx.records.insert(gc.id.clone(), record);
        let view = replies::Notice {
            game: &gc.id,
            lines: vec![format!(
                "The judge suspended this game: {why}. This is a fault of the program, not \
                 of the players; orders are kept. Send RESUME (then FORCE if needed) to try \
                 again, and please tell the judge's maintainer."
            )],
        };
        let body = self.templates.render("notice.txt", &view)?;
        for m in &gc.moderators {
            let subject = format!("[{}] Game suspended", gc.id);
            fx.outbox
                .push(self.mail(&m.address, subject, body.clone(), None));
        }
        Ok(())
    }

    pub(super) fn remind(
        &self,
        gc: &GameConfig,
        record: &Record,
        deadline: DateTime<Utc>,
        now: DateTime<Utc>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        // Every reminder of this deadline whose time has come is marked as sent, and
        // one mail goes out for them all (a deadline moved closer makes several due at
        // once: the players are reminded once).
        let mut due_now = false;
        for before in &gc.reminders {
            if now < deadline - *before {
                continue;
            }
            let key = due::reminded_key(&gc.id, deadline, *before);
            if self.store.contains(&key)? || fx.flags.contains_key(&key) {
                continue;
            }
            fx.batch.put(&key, &true);
            fx.flags.insert(key, String::new());
            due_now = true;
        }
        if due_now {
            let label = record.game.label();
            for power in record.game.owing() {
                if record.submissions.contains_key(&power) {
                    continue;
                }
                let Some(address) = record.addresses.get(&power) else {
                    continue;
                };
                let view = replies::Reminder {
                    game: &gc.id,
                    power: &power,
                    turn: label.turn,
                    phase: label.phase,
                    when: record.game.play().phase_title(label.turn, label.phase),
                    deadline_utc: replies::utc(deadline),
                    deadline_local: replies::local(deadline, gc.time_zone),
                };
                let body = self.templates.render("reminder.txt", &view)?;
                let subject = format!(
                    "[{}] Reminder: turn {} {} orders",
                    gc.id, label.turn, label.phase
                );
                fx.outbox.push(self.mail(address, subject, body, None));
            }
        }
        Ok(())
    }

    /// Adjudicates the current phase of a game while it can be: everyone owing orders
    /// has submitted and nobody asked to wait, nobody owes anything (a phase for the
    /// judge's own power), or `force` (deadline passed, FORCE) for the first phase.
    pub(super) fn advance(
        &self,
        gc: &GameConfig,
        fx: &mut Effects,
        mut force: bool,
    ) -> Result<(), JudgeError> {
        loop {
            let mut record = self.load(fx, &gc.id)?;
            let label = record.game.label();
            if record.over() || record.suspended.is_some() || (record.paused.is_some() && !force) {
                return Ok(());
            }
            let owing = record.game.owing();
            if !(force || all_in(&record, &owing)) {
                return Ok(());
            }
            let marker = adjudicated_key(&gc.id, label.turn, label.phase);
            if self.store.contains(&marker)? || fx.adjudicated.contains(&marker) {
                // Adjudicated once already: never again.
                return Ok(());
            }
            let orders: BTreeMap<String, String> = owing
                .iter()
                .filter_map(|p| Some((p.clone(), record.submissions.get(p)?.orders.clone())))
                .collect();
            // The first phase this build adjudicates in a game that had played keeps
            // the position it started from, for `verify-dice` across an upgrade.
            let position = (record.phases_played > 0
                && record.last_build.as_deref() != Some(self.build.as_str()))
            .then(|| serde_json::to_value(&record.game).ok())
            .flatten();
            let adjudicated = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let _ = self.crash(CrashPoint::FailAdjudication);
                record.game.adjudicate(&orders, seed_of(gc, &record))
            }));
            let adj = match adjudicated {
                Ok(adj) => adj,
                Err(panic) => {
                    let why = format!(
                        "adjudicating turn {} {} failed ({})",
                        label.turn,
                        label.phase,
                        panic_text(&panic)
                    );
                    return self.suspend(gc, &record, &why, fx);
                }
            };
            let now = self.clock.now();
            record.game = adj.game;
            record.submissions.clear();
            record.phase_began = Some(now);
            let next = record.game.label();
            record.deadline = if next.over {
                None
            } else {
                Some(deadline_after(
                    gc,
                    &record,
                    now + gc.phase_length(next.phase),
                ))
            };
            if record.paused.is_some() {
                record.paused = Some(gc.phase_length(next.phase).num_seconds());
                record.deadline = None;
            }
            if let Some(d) = record.deadline {
                self.skip_reminders_at_start(gc, d, now, fx);
            }
            let mut json = adj.results.json;
            if let serde_json::Value::Object(map) = &mut json {
                map.insert("game".into(), gc.id.clone().into());
                map.insert("turn".into(), label.turn.into());
                // A rule set that names its phases itself keeps its name (Diplomacy's
                // "S1901M", as `pbem adjudicate` writes it).
                map.entry("phase").or_insert_with(|| label.phase.into());
            }
            let entry = HistoryEntry {
                turn: label.turn,
                phase: label.phase.into(),
                seq: record.phases_played,
                missing: owing
                    .iter()
                    .filter(|p| !orders.contains_key(*p))
                    .cloned()
                    .collect(),
                orders,
                by: Some(self.build.clone()),
                position,
                json: json.clone(),
                view: adj.results.view.clone(),
            };
            record.phases_played += 1;
            record.last_build = Some(self.build.clone());
            fx.batch.put(&marker, &true);
            let key = history_key(&gc.id, label.turn, label.phase);
            fx.batch.put(&key, &entry);
            fx.history.push((key, entry.clone()));
            fx.adjudicated.push(marker);
            self.results_mails(gc, &record, &entry, fx)?;
            fx.records.insert(gc.id.clone(), record);
            force = false;
        }
    }

    /// Everyone a game's results go to: each player with the power they hold, each
    /// moderator (sees everything), and each observer (the public view).
    pub(super) fn readers(&self, gc: &GameConfig, record: &Record) -> Vec<Reader> {
        let mut all: Vec<Reader> = record
            .addresses
            .iter()
            .map(|(power, address)| Reader {
                address: address.clone(),
                power: Some(power.clone()),
                observer: false,
            })
            .collect();
        for m in &gc.moderators {
            if !all.iter().any(|r| r.address == m.address) {
                all.push(Reader {
                    address: m.address.clone(),
                    power: None,
                    observer: false,
                });
            }
        }
        all.sort_by(|a, b| a.address.cmp(&b.address).then(a.power.cmp(&b.power)));
        all.dedup_by(|a, b| a.address == b.address && a.power == b.power);
        all
    }

    /// The readers of results: the players and moderators, then the observers.
    pub(super) fn results_readers(
        &self,
        gc: &GameConfig,
        record: &Record,
        fx: &Effects,
    ) -> Result<Vec<Reader>, JudgeError> {
        let mut all = self.readers(gc, record);
        for address in self.observers(gc, fx)? {
            if !all.iter().any(|r| r.address == address) {
                all.push(Reader {
                    address,
                    power: None,
                    observer: true,
                });
            }
        }
        Ok(all)
    }

    pub(super) fn results_mails(
        &self,
        gc: &GameConfig,
        record: &Record,
        entry: &HistoryEntry,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let next = record.game.label();
        let play = record.game.play();
        let whole = entry.results();
        let subject = format!("[{}] Turn {} {} results", gc.id, entry.turn, entry.phase);
        // One rendering per distinct view: every reader alike unless the game hides
        // something.
        let mut rendered: BTreeMap<String, (String, String, Option<Rich>)> = BTreeMap::new();
        let (deadline_utc, deadline_local) = replies::deadline_of(record, gc.time_zone);
        for reader in self.results_readers(gc, record, fx)? {
            let key = if play.hidden_information() {
                reader.view_key()
            } else {
                String::new()
            };
            if !rendered.contains_key(&key) {
                let viewer = reader.viewer();
                let seen = play.results_for(&whole, viewer);
                let view = replies::Results {
                    game: &gc.id,
                    turn: entry.turn,
                    phase: &entry.phase,
                    when: play.phase_title(entry.turn, &entry.phase),
                    results: &seen.view["results"],
                    missing: &entry.missing,
                    events: &seen.view["events"],
                    systems: &seen.view["systems"],
                    owned_label: play.owned_label(),
                    board: play.board_text(viewer),
                    standing: play.standing_under_board(),
                    over: next.over,
                    winners: record.game.winners(),
                    next_turn: next.turn,
                    next_phase: next.phase,
                    next_when: play.phase_title(next.turn, next.phase),
                    owing: record.game.owing(),
                    deadline_utc: deadline_utc.clone(),
                    deadline_local: deadline_local.clone(),
                };
                let body = self.templates.render("results.txt", &view)?;
                let json = serde_json::to_string_pretty(&seen.json).expect("JSON");
                let picture = gc.pictures.then(|| play.picture(viewer, Some(&seen)));
                let rich = picture
                    .flatten()
                    .map(|p| Rich::render(&self.templates, "results.html", &view, Some(p)))
                    .transpose()?;
                rendered.insert(key.clone(), (body, json, rich));
            }
            let (body, json, rich) = &rendered[&key];
            let mut mail = self.mail(&reader.address, subject.clone(), body.clone(), None);
            mail.attachment = Some(("results.json".into(), json.clone()));
            if let Some(rich) = rich {
                rich.dress(&mut mail);
            }
            fx.outbox.push(mail);
        }
        if next.over {
            self.game_over_mails(gc, record, entry.turn, None, fx)?;
        }
        Ok(())
    }

    /// The game-over mail, to players, moderators and observers: the winners and the
    /// standing, who played which power (unless the game is anonymous), and the dice:
    /// the secret revealed with the whole history attached (`history.json`, for
    /// `pbem verify-dice`), or the fixed seed.
    pub(super) fn game_over_mails(
        &self,
        gc: &GameConfig,
        record: &Record,
        turn: u32,
        ended_by: Option<&str>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let play = record.game.play();
        let history = self.history_of(gc, record, fx)?;
        let whole_json = serde_json::to_string(&history).expect("JSON");
        let view = replies::GameOver {
            game: &gc.id,
            turn,
            turn_title: play.turn_title(turn),
            ended_by: ended_by.unwrap_or(""),
            winners: if ended_by.is_some() {
                Vec::new()
            } else {
                record.game.winners()
            },
            standing: play.standing(),
            roster: if gc.anonymous {
                Vec::new()
            } else {
                record
                    .addresses
                    .iter()
                    .map(|(p, a)| (p.clone(), a.clone()))
                    .collect()
            },
            has_dice: play.has_dice(),
            secret: history.secret.clone().unwrap_or_default(),
            commitment: history.commitment.clone().unwrap_or_default(),
            fixed_seed: history
                .fixed_seed
                .map(|s| s.to_string())
                .unwrap_or_default(),
            partial: false,
        };
        let subject = format!("[{}] Game over", gc.id);
        for reader in self.results_readers(gc, record, fx)? {
            // Observers are not told who played: addresses are for the game's own
            // people. A view of a game with hidden information is no whole history.
            let body = self.templates.render(
                "game_over.txt",
                &replies::GameOver {
                    roster: if reader.observer {
                        Vec::new()
                    } else {
                        view.roster.clone()
                    },
                    partial: play.hidden_information()
                        && !matches!(reader.viewer(), Viewer::Moderator),
                    ..view.clone()
                },
            )?;
            let mut mail = self.mail(&reader.address, subject.clone(), body, None);
            let json = match reader.viewer() {
                Viewer::Moderator => whole_json.clone(),
                _ if !play.hidden_information() => whole_json.clone(),
                viewer => {
                    serde_json::to_string(&view_of_history(&history, play, viewer)).expect("JSON")
                }
            };
            mail.attachment = Some(("history.json".into(), json));
            fx.outbox.push(mail);
        }
        Ok(())
    }

    /// A game's adjudicated phases, stored and from this group, in the order they were
    /// played (their keys sort by turn, then by phase name).
    pub(super) fn history_entries(
        &self,
        id: &str,
        fx: &Effects,
    ) -> Result<Vec<(String, HistoryEntry)>, JudgeError> {
        let prefix = format!("v1/history/{id}/");
        let mut entries: Vec<(String, HistoryEntry)> = self.store.scan(&prefix)?;
        entries.extend(
            fx.history
                .iter()
                .filter(|(k, _)| k.starts_with(&prefix))
                .cloned(),
        );
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        entries.dedup_by(|a, b| a.0 == b.0);
        entries.sort_by_key(|(_, e)| (e.turn, e.seq));
        Ok(entries)
    }

    /// A game's whole history: its creation and every phase's orders and results, as
    /// `pbem verify-dice` reads it.
    pub(super) fn history_of(
        &self,
        gc: &GameConfig,
        record: &Record,
        fx: &Effects,
    ) -> Result<crate::verify::History, JudgeError> {
        let entries = self.history_entries(&gc.id, fx)?;
        let (secret, commitment, fixed_seed) = match (&record.dice, gc.fixed_seed) {
            (Some(d), false) => (Some(d.secret.clone()), Some(d.commitment.clone()), None),
            _ => (None, None, Some(gc.seed)),
        };
        Ok(crate::verify::History {
            game: gc.id.clone(),
            rules: gc.rules.id().to_string(),
            options: serde_json::to_value(&gc.options).expect("options are JSON"),
            start: gc.start.clone(),
            commitment,
            secret,
            fixed_seed,
            view_of: None,
            phases: entries
                .into_iter()
                .map(|(_, e)| crate::verify::HistoryPhase {
                    turn: e.turn,
                    phase: e.phase,
                    orders: e.orders,
                    by: e.by,
                    position: e.position,
                    results: e.json,
                })
                .collect(),
        })
    }
}

/// What one reader of a game with hidden information may see of its history: each
/// phase's results cut for them, their own orders only. `pbem verify-dice` checks its
/// commitment; the moderator's whole copy plays the phases again.
/// Every power owing orders has sent them and none asked to WAIT: the phase is played
/// without waiting for its deadline.
pub(super) fn all_in(record: &Record, owing: &[String]) -> bool {
    owing
        .iter()
        .all(|p| record.submissions.get(p).is_some_and(|s| !s.wait))
}

fn view_of_history(
    history: &crate::verify::History,
    play: &dyn crate::rules::game::Play,
    viewer: Viewer,
) -> crate::verify::History {
    let own = match viewer {
        Viewer::Power(p) => Some(p),
        _ => None,
    };
    crate::verify::History {
        view_of: Some(own.unwrap_or("an observer").to_string()),
        phases: history
            .phases
            .iter()
            .map(|p| crate::verify::HistoryPhase {
                turn: p.turn,
                phase: p.phase.clone(),
                orders: p
                    .orders
                    .iter()
                    .filter(|(power, _)| Some(power.as_str()) == own)
                    .map(|(a, b)| (a.clone(), b.clone()))
                    .collect(),
                by: p.by.clone(),
                // A position holds what every power has hidden.
                position: None,
                results: play
                    .results_for(
                        &crate::rules::game::PhaseResults {
                            json: p.results.clone(),
                            view: serde_json::Value::Null,
                        },
                        viewer,
                    )
                    .json,
            })
            .collect(),
        ..history.clone()
    }
}

/// Someone a game's mail goes to, and what they may see of it.
pub(super) struct Reader {
    pub address: String,
    /// The power they play; none for a moderator or an observer.
    pub power: Option<String>,
    /// An observer: sees what every power may know.
    pub observer: bool,
}

impl Reader {
    pub fn viewer(&self) -> Viewer<'_> {
        match (&self.power, self.observer) {
            (Some(p), _) => Viewer::Power(p),
            (None, true) => Viewer::Public,
            (None, false) => Viewer::Moderator,
        }
    }

    /// Readers with the same key see the same.
    pub fn view_key(&self) -> String {
        match self.viewer() {
            Viewer::Power(p) => format!("power {p}"),
            Viewer::Public => "public".into(),
            Viewer::Moderator => "moderator".into(),
        }
    }
}

/// The seed a game's dice come from: the one `games.toml` fixes, or the one derived
/// from the game's secret.
pub(super) fn seed_of(gc: &GameConfig, record: &Record) -> u64 {
    match &record.dice {
        Some(d) if !gc.fixed_seed => crate::verify::seed(&d.secret).unwrap_or(gc.seed),
        _ => gc.seed,
    }
}

/// A deadline moved past the absences of the powers that owe orders (an absence that
/// ends inside another is followed to the end of that one).
pub(super) fn deadline_after(gc: &GameConfig, record: &Record, at: DateTime<Utc>) -> DateTime<Utc> {
    let _ = gc;
    let owing = record.game.owing();
    let mut d = at;
    for _ in 0..=record.absences.len() {
        let moved = record
            .absences
            .iter()
            .filter(|a| owing.contains(&a.power) && a.from <= d && d < a.to)
            .map(|a| a.to)
            .max();
        match moved {
            Some(to) => d = to,
            None => break,
        }
    }
    d
}
