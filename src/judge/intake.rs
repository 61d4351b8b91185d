//! Intake: waiting mail stored raw, read once, its sender authenticated, and handed
//! to the player's or moderator's commands.

use super::*;

impl Judge<'_> {
    /// A group of waiting mails, each exactly once: their raw bytes stored in one
    /// batch, then all their effects, with the marks that they are done, in another;
    /// then the inbox is told they are handled. Returns the phases adjudicated.
    pub(super) fn handle_group(
        &self,
        group: &[Waiting],
        report: &mut PassReport,
    ) -> Result<usize, JudgeError> {
        let mut mails = Vec::with_capacity(group.len());
        let mut raw_batch = Batch::default();
        let mut keys = std::collections::HashSet::new();
        for w in group {
            let mail = incoming::parse(&w.raw);
            let done = format!("v1/done/{}", mail.key);
            // A mail seen before (or twice in this group) has had its effects.
            if self.store.contains(&done)? || !keys.insert(mail.key.clone()) {
                continue;
            }
            raw_batch.put_raw(&format!("v1/raw/{}", mail.key), &w.raw);
            mails.push((mail, done));
        }
        let mut adjudicated = 0;
        if !mails.is_empty() {
            self.store.commit(raw_batch)?;
            self.crash(CrashPoint::AfterRawStored)?;
            let mut fx = self.effects();
            for (mail, done) in &mails {
                self.act(mail, &mut fx)?;
                fx.batch.put(done, &true);
            }
            adjudicated = fx.adjudicated.len();
            self.commit(fx)?;
            self.crash(CrashPoint::AfterCommit)?;
        }
        let tokens: Vec<String> = group.iter().map(|w| w.token.clone()).collect();
        if let Err(e) = self.inbox.borrow_mut().done(&self.store, &tokens) {
            // Not fatal: the mails are fetched again and recognised as done.
            report.errors.push(format!("marking mail read: {e}"));
        }
        Ok(adjudicated)
    }

    /// Everything one mail asks for. Silence for machine mail.
    pub(super) fn act(&self, mail: &Incoming, fx: &mut Effects) -> Result<(), JudgeError> {
        if mail.automatic {
            return Ok(());
        }
        let parsed = command::parse(&mail.body);
        let game_id = parsed
            .game
            .clone()
            .or_else(|| subject_game(&mail.subject))
            .or_else(|| mail.to.iter().find_map(|a| plus_game(a)));
        let sender = mail.from.as_str();
        let Some(gc) = game_id.as_deref().and_then(|id| self.config.game(id)) else {
            let reason = match &game_id {
                Some(id) => format!("There is no game {id:?} here."),
                None => "The mail names no game: write GAME <id> on a line of its own.".into(),
            };
            return self.refuse_unknown(mail, game_id.as_deref(), &reason, fx);
        };
        let record = self.load(fx, &gc.id)?;
        let player = record
            .addresses
            .iter()
            .find(|(_, a)| a.as_str() == sender)
            .map(|(p, _)| p.clone());
        let moderator = gc.moderators.iter().find(|m| m.address == sender);
        let stored_hash = match (&player, moderator) {
            (Some(power), _) => gc
                .players
                .iter()
                .find(|p| &p.power == power)
                .map(|p| p.password.clone()),
            (None, Some(m)) => Some(m.password.clone()),
            (None, None) => None,
        };
        let Some(stored_hash) = stored_hash else {
            return self.refuse_unknown(
                mail,
                Some(&gc.id),
                &format!("{sender} is not a player or moderator of game {}.", gc.id),
                fx,
            );
        };
        let good = parsed
            .password
            .as_deref()
            .is_some_and(|p| self.passwords.verify(p, &stored_hash));
        if !good {
            let reason = if parsed.password.is_none() {
                "The mail has no PASSWORD line.".to_string()
            } else {
                "The password was wrong.".to_string()
            };
            // To the registered address: the sender may be a forger.
            let view = replies::Refusal {
                game: Some(&gc.id),
                sender,
                subject: &mail.subject,
                reason: &reason,
            };
            let body = self.templates.render("refusal.txt", &view)?;
            fx.outbox.push(self.mail(
                sender,
                format!("[{}] Mail refused", gc.id),
                body,
                Some(mail),
            ));
            return Ok(());
        }
        match player {
            Some(power) => self.act_as_player(gc, mail, &parsed, &power, fx),
            None => self.act_as_moderator(gc, mail, &parsed, fx),
        }
    }

    /// An unregistered sender, or an unknown game: answered at most once a day.
    pub(super) fn refuse_unknown(
        &self,
        mail: &Incoming,
        game: Option<&str>,
        reason: &str,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let today = self.clock.now().format("%Y-%m-%d").to_string();
        let key = format!("v1/unregistered/{}", mail.from);
        let last = match fx.flags.get(&key) {
            Some(day) => Some(day.clone()),
            None => self.store.get::<String>(&key)?,
        };
        if last.as_deref() == Some(today.as_str()) {
            return Ok(());
        }
        fx.batch.put(&key, &today);
        fx.flags.insert(key, today.clone());
        let view = replies::Refusal {
            game,
            sender: &mail.from,
            subject: &mail.subject,
            reason,
        };
        let body = self.templates.render("refusal.txt", &view)?;
        fx.outbox
            .push(self.mail(&mail.from, "Mail not accepted".into(), body, Some(mail)));
        Ok(())
    }
}

/// `[andromeda]` in a subject.
fn subject_game(subject: &str) -> Option<String> {
    let start = subject.find('[')?;
    let end = subject[start..].find(']')? + start;
    let id = subject[start + 1..end].trim().to_lowercase();
    (!id.is_empty()).then_some(id)
}

/// `judge+andromeda@host`.
fn plus_game(address: &str) -> Option<String> {
    let local = address.split('@').next()?;
    let (_, id) = local.split_once('+')?;
    (!id.is_empty()).then(|| id.to_lowercase())
}
