//! Phases: deadlines and reminders, adjudication when everyone owing orders is in,
//! and the results mailed to everyone.

use super::*;
use crate::picture::mail::Rich;

impl Judge<'_> {
    /// Deadlines and reminders of every game. Returns the phases adjudicated.
    pub(super) fn tick(&self) -> Result<usize, JudgeError> {
        let now = self.clock.now();
        let mut count = 0;
        for gc in &self.config.games {
            let Some(record) = self.record(&gc.id)? else {
                continue;
            };
            let Some(deadline) = record.deadline else {
                continue;
            };
            let mut fx = self.effects();
            if now >= deadline {
                self.advance(gc, &mut fx, true)?;
            } else {
                self.remind(gc, &record, deadline, now, &mut fx)?;
            }
            count += fx.adjudicated.len();
            self.commit(fx)?;
        }
        Ok(count)
    }

    pub(super) fn remind(
        &self,
        gc: &GameConfig,
        record: &Record,
        deadline: DateTime<Utc>,
        now: DateTime<Utc>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        for before in &gc.reminders {
            if now < deadline - *before {
                continue;
            }
            let key = format!(
                "v1/reminded/{}/{}/{}",
                gc.id,
                deadline.timestamp(),
                before.num_minutes()
            );
            if self.store.contains(&key)? {
                continue;
            }
            fx.batch.put(&key, &true);
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
            if label.over || (record.paused.is_some() && !force) {
                return Ok(());
            }
            let owing = record.game.owing();
            let all_in = owing
                .iter()
                .all(|p| record.submissions.get(p).is_some_and(|s| !s.wait));
            if !(force || all_in) {
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
            let adj = record.game.adjudicate(&orders, gc.seed);
            let now = self.clock.now();
            record.game = adj.game;
            record.submissions.clear();
            let next = record.game.label();
            record.deadline = if next.over {
                None
            } else {
                Some(now + gc.phase_length(next.phase))
            };
            if record.paused.is_some() {
                record.paused = Some(gc.phase_length(next.phase).num_seconds());
                record.deadline = None;
            }
            let mut json = adj.results.json;
            if let serde_json::Value::Object(map) = &mut json {
                map.insert("game".into(), gc.id.clone().into());
                map.insert("turn".into(), label.turn.into());
                map.insert("phase".into(), label.phase.into());
            }
            let entry = HistoryEntry {
                turn: label.turn,
                phase: label.phase.into(),
                json: json.clone(),
                view: adj.results.view.clone(),
            };
            fx.batch.put(&marker, &true);
            fx.batch
                .put(&history_key(&gc.id, label.turn, label.phase), &entry);
            fx.adjudicated.push(marker);
            self.results_mails(gc, &record, &entry, fx)?;
            fx.records.insert(gc.id.clone(), record);
            force = false;
        }
    }

    /// Everyone a game's results go to: each player with the power they hold, and each
    /// moderator (no power: sees everything).
    pub(super) fn readers(&self, gc: &GameConfig, record: &Record) -> Vec<Reader> {
        let mut all: Vec<Reader> = record
            .addresses
            .iter()
            .map(|(power, address)| Reader {
                address: address.clone(),
                power: Some(power.clone()),
            })
            .collect();
        for m in &gc.moderators {
            if !all.iter().any(|r| r.address == m.address) {
                all.push(Reader {
                    address: m.address.clone(),
                    power: None,
                });
            }
        }
        all.sort_by(|a, b| a.address.cmp(&b.address).then(a.power.cmp(&b.power)));
        all.dedup_by(|a, b| a.address == b.address && a.power == b.power);
        all
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
        let mut rendered: BTreeMap<Option<String>, (String, String, Option<Rich>)> =
            BTreeMap::new();
        for reader in self.readers(gc, record) {
            let key = play
                .hidden_information()
                .then(|| reader.power.clone())
                .flatten();
            if !rendered.contains_key(&key) {
                let viewer = reader.viewer();
                let seen = play.results_for(&whole, viewer);
                let view = replies::Results {
                    game: &gc.id,
                    turn: entry.turn,
                    phase: &entry.phase,
                    results: &seen.view["results"],
                    events: &seen.view["events"],
                    systems: &seen.view["systems"],
                    board: play.board_text(viewer),
                    standing: play.standing(),
                    over: next.over,
                    winners: record.game.winners(),
                    next_turn: next.turn,
                    next_phase: next.phase,
                    owing: record.game.owing(),
                    deadline_utc: record.deadline.map(replies::utc).unwrap_or_default(),
                    deadline_local: record
                        .deadline
                        .map(|d| replies::local(d, gc.time_zone))
                        .unwrap_or_default(),
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
            let view = replies::GameOver {
                game: &gc.id,
                turn: entry.turn,
                winners: record.game.winners(),
                standing: play.standing(),
            };
            let body = self.templates.render("game_over.txt", &view)?;
            let subject = format!("[{}] Game over", gc.id);
            for reader in self.readers(gc, record) {
                fx.outbox
                    .push(self.mail(&reader.address, subject.clone(), body.clone(), None));
            }
        }
        Ok(())
    }
}

/// Someone a game's mail goes to, and what they may see of it.
pub(super) struct Reader {
    pub address: String,
    /// The power they play; none for a moderator.
    pub power: Option<String>,
}

impl Reader {
    pub fn viewer(&self) -> Viewer<'_> {
        match &self.power {
            Some(p) => Viewer::Power(p),
            None => Viewer::Moderator,
        }
    }
}
