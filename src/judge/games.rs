//! New games: each game of the configuration the judge does not know yet is created
//! (its dice committed to unless games.toml fixes a seed), its players and moderators
//! welcomed, and a phase nobody owes played at once; committed in groups, like mail.

use super::*;

impl Judge<'_> {
    /// Creates the games of the configuration the store does not know yet (and
    /// indexes those brought in under the judge), each with its welcome mail.
    pub(super) fn ensure_games(&self) -> Result<(), JudgeError> {
        let _t = crate::timing::span("new games (ensure_games)");
        let now = self.clock.now();
        // New games are committed in groups, like mail: one write to disk a group.
        let mut fx = self.effects();
        let mut pending = Vec::new();
        for gc in &self.config.games {
            if self.known.borrow().contains(&gc.id) {
                continue;
            }
            if self.store.contains(&game_key(&gc.id))? {
                // Brought in under the judge (an import): index it like the others.
                let record = match self.load(&mut fx, &gc.id) {
                    Ok(record) => record,
                    // Looked at again on the next pass (mended, it is indexed then).
                    Err(JudgeError::Unreadable { why, .. }) => {
                        self.tell_unreadable(gc, &why, &mut fx)?;
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                pending.push(gc.id.clone());
                fx.records.insert(gc.id.clone(), record);
            } else {
                pending.push(gc.id.clone());
                // Dice anyone can check: a secret seed unless games.toml fixes one.
                let dice = (!gc.fixed_seed).then(|| {
                    let (secret, commitment) = crate::verify::new_secret();
                    record::DiceSecret { secret, commitment }
                });
                let seed = match &dice {
                    Some(d) => crate::verify::seed(&d.secret).expect("a fresh secret is hex"),
                    None => gc.seed,
                };
                let game = Game::new(gc.rules, &gc.options, gc.start.as_ref(), seed)
                    .expect("checked when the configuration was read");
                let phase = game.label().phase;
                let record = Record {
                    game,
                    deadline: Some(now + gc.phase_length(phase)),
                    paused: None,
                    submissions: BTreeMap::new(),
                    addresses: gc
                        .players
                        .iter()
                        .map(|p| (p.power.clone(), p.address.clone()))
                        .collect(),
                    suspended: None,
                    absences: Vec::new(),
                    dice,
                    ended: None,
                    phases_played: 0,
                    last_build: None,
                    phase_began: None,
                };
                if let Some(d) = record.deadline {
                    self.skip_reminders_at_start(gc, d, now, &mut fx);
                }
                self.welcome(gc, &record, &mut fx)?;
                fx.records.insert(gc.id.clone(), record);
                // A phase nobody owes (a solo Imperium's turn) is played at once.
                self.advance(gc, &mut fx, false)?;
            }
            if pending.len() >= self.group_size {
                self.commit(std::mem::replace(&mut fx, self.effects()))?;
                self.known.borrow_mut().extend(pending.drain(..));
            }
        }
        if !pending.is_empty() || !fx.outbox.is_empty() {
            self.commit(fx)?;
            self.known.borrow_mut().extend(pending);
        }
        Ok(())
    }

    /// The welcome mail of a new game, to each player (their power's view) and each
    /// moderator.
    fn welcome(
        &self,
        gc: &GameConfig,
        record: &Record,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        for reader in self.readers(gc, record) {
            self.welcome_one(gc, record, &reader, false, fx)?;
        }
        Ok(())
    }

    /// One welcome mail: to a player or moderator of a new game, or (`takeover`) to the
    /// player who takes a power over in the middle of a game (REPLACE).
    pub(super) fn welcome_one(
        &self,
        gc: &GameConfig,
        record: &Record,
        reader: &Reader,
        takeover: bool,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let play = record.game.play();
        let label = play.label();
        let powers = play.powers();
        let mut phases: Vec<&str> = play.phases();
        if phases.is_empty() {
            phases.push(label.phase);
        }
        let phases: Vec<(String, String)> = phases
            .iter()
            .map(|p| (p.to_string(), replies::length(gc.phase_length(p))))
            .collect();
        // No deadline and no clock stopped: the game is over; the welcome names now.
        let (deadline_utc, deadline_local) = if record.deadline.is_none() && record.paused.is_none()
        {
            let now = self.clock.now();
            (replies::utc(now), replies::local(now, gc.time_zone))
        } else {
            replies::deadline_of(record, gc.time_zone)
        };
        let power = reader.power.as_deref();
        let example = power
            .map(|p| play.example_orders(p))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let view = replies::Welcome {
            game: &gc.id,
            rules: gc.rules.name(),
            power: power.unwrap_or(""),
            others: powers
                .iter()
                .filter(|p| Some(p.as_str()) != power)
                .cloned()
                .collect(),
            judge_plays: play.judge_powers(),
            turn: label.turn,
            phase: label.phase,
            when: play.phase_title(label.turn, label.phase),
            deadline_utc,
            deadline_local,
            phases,
            board: play.board_text(reader.viewer()),
            standing: play.standing_under_board(),
            example,
            commitment: record
                .dice
                .as_ref()
                .filter(|_| !gc.fixed_seed && play.has_dice())
                .map(|d| d.commitment.clone())
                .unwrap_or_default(),
            fixed_seed: gc.fixed_seed && play.has_dice(),
            takeover,
        };
        let body = self.templates.render("welcome.txt", &view)?;
        let subject = match power {
            Some(p) if takeover => format!("[{}] Welcome: you take over {p}", gc.id),
            Some(p) => format!("[{}] Welcome: you play {p}", gc.id),
            None => format!("[{}] Welcome: you moderate this game", gc.id),
        };
        fx.outbox
            .push(self.mail(&reader.address, subject, body, None));
        Ok(())
    }
}
