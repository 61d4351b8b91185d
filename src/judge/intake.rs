//! Intake: waiting mail stored raw, read once, its sender authenticated, and handed
//! to the player's or moderator's commands.

use super::*;
use auth::auth_key;

/// How much of an incoming mail the store archives under `v1/raw/`.
pub const RAW_KEPT_BYTES: usize = 1024 * 1024;

impl Judge<'_> {
    /// A group of waiting mails, each exactly once: their raw bytes stored in one
    /// batch (with one more attempt counted for each), then all their effects, with the
    /// marks that they are done, in another; then the inbox is told they are handled.
    /// A mail tried [`MAX_ATTEMPTS`] times already (a pass that failed on it, or was
    /// killed while on it) is set aside instead, and its game's moderators told.
    /// Returns the phases adjudicated.
    pub(super) fn handle_group(
        &self,
        group: &[Waiting],
        report: &mut PassReport,
    ) -> Result<usize, JudgeError> {
        let mut mails = Vec::with_capacity(group.len());
        let mut raw_batch = Batch::default();
        let mut keys = std::collections::HashSet::new();
        let mut poison = self.effects();
        let mut set_aside = false;
        // Tokens of the mails that failed this time (fetched again next pass).
        let mut failed: Vec<String> = Vec::new();
        let parsed = {
            let _t = crate::timing::span("parse mail");
            group
                .iter()
                .map(|w| incoming::Incoming {
                    received: w.received,
                    ..incoming::parse(&w.raw)
                })
                .collect::<Vec<_>>()
        };
        for (w, mail) in group.iter().zip(parsed) {
            let checks = crate::timing::span("intake: done and attempts looked up");
            let done = format!("v1/done/{}", mail.key);
            // A mail seen before (or twice in this group) has had its effects.
            if self.store.contains(&done)? || !keys.insert(mail.key.clone()) {
                continue;
            }
            // A mail's first try is marked by its raw copy alone (one write less a
            // mail); later tries are counted under `v1/attempts/`.
            let raw_key = format!("v1/raw/{}", mail.key);
            let attempts_key = format!("v1/attempts/{}", mail.key);
            let attempts: u32 = match self.store.get(&attempts_key)? {
                Some(n) => n,
                None => u32::from(self.store.contains(&raw_key)?),
            };
            drop(checks);
            if attempts > 0 && group.len() > 1 {
                // A mail of this group was tried before and never finished (a pass
                // killed or failing on it): take them one at a time, so one bad mail
                // keeps no other waiting.
                let mut adjudicated = 0;
                for one in group {
                    adjudicated += self.handle_group(std::slice::from_ref(one), report)?;
                }
                return Ok(adjudicated);
            }
            if attempts >= MAX_ATTEMPTS {
                self.set_aside(&mail, attempts, &mut poison)?;
                set_aside = true;
                poison.batch.put(&done, &true);
                poison.batch.remove(&attempts_key);
                report.errors.push(format!(
                    "mail {} from {} set aside after {attempts} attempts",
                    mail.key, mail.from
                ));
                continue;
            }
            let counted = (attempts > 0).then(|| {
                raw_batch.put(&attempts_key, &(attempts + 1));
                attempts_key
            });
            // The archive keeps the first MiB of a mail: enough to see what it was.
            let kept = &w.raw[..w.raw.len().min(RAW_KEPT_BYTES)];
            raw_batch.put_raw(&raw_key, kept);
            mails.push((mail, done, counted, w.token.clone()));
        }
        if set_aside {
            self.commit(poison)?;
        }
        let mut adjudicated = 0;
        if !mails.is_empty() {
            {
                let _t = crate::timing::span("intake: raw mails stored");
                self.store.commit(raw_batch)?;
            }
            self.crash(CrashPoint::AfterRawStored)?;
            match self.act_on(&mails) {
                Ok(n) => adjudicated = n,
                Err(e) if e.is_local() && mails.len() > 1 => {
                    // One mail of the group failed: the others must not wait for it.
                    for one in &mails {
                        match self.act_on(std::slice::from_ref(one)) {
                            Ok(n) => adjudicated += n,
                            Err(e) if e.is_local() => {
                                self.failed_alone(one, e, report, &mut failed)?
                            }
                            Err(e) => return Err(e),
                        }
                    }
                }
                Err(e) if e.is_local() => self.failed_alone(&mails[0], e, report, &mut failed)?,
                Err(e) => return Err(e),
            }
        }
        let tokens: Vec<String> = group
            .iter()
            .map(|w| w.token.clone())
            .filter(|t| !failed.contains(t))
            .collect();
        let _t = crate::timing::span("inbox mark read");
        if let Err(e) = self.inbox.borrow_mut().done(&self.store, &tokens, &failed) {
            // Not fatal: the mails are fetched again and recognised as done.
            report.errors.push(format!("marking mail read: {e}"));
        }
        Ok(adjudicated)
    }

    /// A mail that failed on its own, by a fault of that mail or its game: tried again
    /// on the next pass (set aside after [`MAX_ATTEMPTS`]); a mail to a game whose
    /// record cannot be read is answered now instead, and done (trying again would not
    /// mend the record).
    fn failed_alone(
        &self,
        one: &Taken,
        e: JudgeError,
        report: &mut PassReport,
        failed: &mut Vec<String>,
    ) -> Result<(), JudgeError> {
        report
            .errors
            .push(format!("mail {} from {}: {e}", one.0.key, one.0.from));
        if let JudgeError::Unreadable { game, why } = &e {
            return self.answer_unreadable(one, game, why);
        }
        if let Some(error) = report.errors.last_mut() {
            error.push_str(" (tried again on the next pass)");
        }
        failed.push(one.3.clone());
        Ok(())
    }

    /// The effects of some mails, committed together with their done marks. Returns
    /// the phases adjudicated.
    #[allow(clippy::type_complexity)]
    fn act_on(&self, mails: &[Taken]) -> Result<usize, JudgeError> {
        let mut fx = self.effects();
        self.read_ahead(mails, &fx)?;
        self.check_passwords_ahead(mails, &fx)?;
        for (mail, done, attempts_key, _) in mails {
            let _t = crate::timing::span("act: other");
            self.unit(|| {
                // The test faults strike only mails that ask for them.
                if mail.subject.contains("pbem-fault") {
                    self.crash(CrashPoint::Hang)?;
                    self.crash(CrashPoint::Fail)?;
                }
                self.act(mail, &mut fx)
            })?;
            fx.batch.put(done, &true);
            if let Some(key) = attempts_key {
                fx.batch.remove(key);
            }
        }
        let adjudicated = fx.adjudicated.len();
        self.commit(fx)?;
        self.crash(CrashPoint::AfterCommit)?;
        Ok(adjudicated)
    }

    /// Reads the records of the games a group's mails name, side by side, into the
    /// commit's records read (where [`Judge::load`] finds them): a group of mails to
    /// many games does not read and decode them one after another. Only a guess at
    /// what each mail names (as [`Judge::act`] finds it); a game guessed wrong is read
    /// for nothing, one missed is read when needed.
    fn read_ahead(&self, mails: &[Taken], fx: &Effects) -> Result<(), JudgeError> {
        if mails.len() < 2 {
            return Ok(());
        }
        let _t = crate::timing::span("act: game records read ahead");
        // The subject or the address first (cheap); the body's GAME line where they
        // name none.
        let named = mails
            .iter()
            .filter(|(mail, ..)| !mail.automatic)
            .map(|(mail, ..)| {
                subject_game(&mail.subject)
                    .or_else(|| mail.to.iter().find_map(|a| plus_game(a)))
                    .or_else(|| command::parse(&mail.body).game)
            });
        let mut wanted: Vec<String> = named
            .flatten()
            .filter(|id| self.config.game(id).is_some())
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        {
            let read = fx.read.borrow();
            wanted.retain(|id| !fx.records.contains_key(id) && !read.contains_key(id));
        }
        // One game is read when needed, as ever.
        if wanted.len() < 2 {
            return Ok(());
        }
        let store = &self.store;
        let records = crate::parallel::map(&wanted, |id| store.get::<Record>(&game_key(id)));
        let mut read = fx.read.borrow_mut();
        for (id, record) in wanted.into_iter().zip(records) {
            match record {
                Ok(Some(record)) => {
                    read.insert(id, std::rc::Rc::new(record));
                }
                Ok(None) => {}
                // Not read ahead: its mail finds it unreadable when it reads it.
                Err(StoreError::Corrupt { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// A mail the judge could not handle, kept under `v1/poison/` (`pbem` logs it);
    /// the moderators of the game it names hear of it once.
    fn set_aside(
        &self,
        mail: &Incoming,
        attempts: u32,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        tracing::error!(mail = %mail.key, from = %mail.from, attempts, "mail set aside");
        fx.batch.put(
            &format!("v1/poison/{}", mail.key),
            &serde_json::json!({
                "from": mail.from,
                "subject": mail.subject,
                "attempts": attempts,
                "set_aside": self.clock.now().to_rfc3339(),
            }),
        );
        let game = command::parse(&mail.body)
            .game
            .or_else(|| subject_game(&mail.subject))
            .or_else(|| mail.to.iter().find_map(|a| plus_game(a)));
        if let Some(gc) = game.as_deref().and_then(|id| self.config.game(id)) {
            let view = replies::Notice {
                game: &gc.id,
                lines: vec![format!(
                    "A mail from {} (subject \"{}\") could not be handled in {attempts} \
                     attempts and was set aside (store key v1/poison/{}). Nothing of it \
                     took effect; the game goes on. Please tell the judge's maintainer.",
                    mail.from,
                    replies::quote(&mail.subject),
                    mail.key
                )],
            };
            let body = self.templates.render("notice.txt", &view)?;
            for m in &gc.moderators {
                let subject = format!("[{}] A mail was set aside", gc.id);
                fx.outbox
                    .push(self.mail(&m.address, subject, body.clone(), None));
            }
        }
        Ok(())
    }

    /// Everything one mail asks for. Silence for machine mail.
    pub(super) fn act(&self, mail: &Incoming, fx: &mut Effects) -> Result<(), JudgeError> {
        if mail.automatic {
            return Ok(());
        }
        let mut parsed = {
            let _t = crate::timing::span("parse commands");
            command::parse(&mail.body)
        };
        // What the mail's form asks the sender to be told (attachments not read).
        parsed.notes.extend(mail.notes.iter().cloned());
        // Observers need no registration: OBSERVE and UNOBSERVE are answered as such.
        // A player's mail (registered, with a password) may hold them beside orders or
        // other commands: the rest of the mail is then read as if they were not there.
        // A greeting or a signature beside them alone is no such mail.
        // Anyone who observes the game after it (a stranger too) may ask BOARD, HISTORY
        // and HELP in the same mail, as an observer.
        if observing(&parsed) {
            self.observe(mail, &parsed, fx)?;
            let mut observed = parsed.commands.iter().filter_map(|c| match c {
                Command::Observe(id) => Some(id.clone()),
                _ => None,
            });
            let observed = observed
                .next()
                .filter(|first| observed.all(|id| id == *first));
            parsed
                .commands
                .retain(|c| !matches!(c, Command::Observe(_) | Command::Unobserve(_)));
            let rest =
                parsed.orders.is_some() || parsed.loose.is_some() || !parsed.commands.is_empty();
            if !rest {
                return Ok(());
            }
            if parsed.password.is_none() || !self.is_registered(&mail.from)? {
                let asks = parsed
                    .commands
                    .iter()
                    .any(|c| matches!(c, Command::Board | Command::History(_) | Command::Help(_)));
                let game = game_named(mail, &parsed).or(observed);
                let observes = match game.as_deref().and_then(|id| self.config.game(id)) {
                    Some(gc) => self.observers(gc, fx)?.contains(&mail.from),
                    None => false,
                };
                if !asks || !observes {
                    return Ok(());
                }
                parsed.game = game;
            }
        }
        let game_id = game_named(mail, &parsed);
        let sender = mail.from.as_str();
        let Some(gc) = game_id.as_deref().and_then(|id| self.config.game(id)) else {
            let reason = match &game_id {
                Some(id) => match self
                    .store
                    .get::<String>(&super::maintenance::archived_key(id))?
                {
                    Some(when) => format!(
                        "Game {:?} was archived on {} (it is no longer played here; \
                         ask its moderator).",
                        command::echo(id),
                        when.get(..10).unwrap_or(&when)
                    ),
                    None => format!("There is no game {:?} here.", command::echo(id)),
                },
                None => "The mail names no game: write GAME <id> on a line of its own.".into(),
            };
            // A registered address gets its games and the commands, not silence; a mail
            // of HELP alone asked for just that, and is told of no missing game.
            if self.is_registered(sender)? {
                let only_help = game_id.is_none()
                    && parsed.orders.is_none()
                    && parsed.loose.is_none()
                    && parsed.commands.iter().all(|c| *c == Command::Help(None));
                let note = (!only_help).then_some(reason.as_str());
                return self.general_help(mail, note, fx);
            }
            return self.refuse_unknown(mail, game_id.as_deref(), &reason, fx);
        };
        let (player, stored_hash) = self.credential(fx, gc, sender)?;
        let Some(stored_hash) = stored_hash else {
            // An observer's BOARD, HISTORY or HELP: the public view.
            if self.observer_queries(gc, mail, &parsed, fx)? {
                return Ok(());
            }
            return self.refuse_unknown(
                mail,
                Some(&gc.id),
                &format!("{sender} is not a player or moderator of game {}.", gc.id),
                fx,
            );
        };
        // HELP alone needs no password (at most 4 answers an hour per address).
        let only_help = parsed.orders.is_none()
            && !parsed.commands.is_empty()
            && parsed
                .commands
                .iter()
                .all(|c| matches!(c, Command::Help(_)));
        if only_help && parsed.password.is_none() {
            let key = throttle::key("help", sender);
            if !self.allow(fx, &key, Duration::hours(1), 4)? {
                return Ok(());
            }
            let record = self.load(fx, &gc.id)?;
            return self.help_reply(gc, &record, player.as_deref(), mail, fx);
        }
        // Wrong passwords for this power are counted; past the limit, attempts are
        // neither checked (no Argon2 work) nor answered until the window is out.
        let who = player
            .clone()
            .unwrap_or_else(|| format!("moderator {sender}"));
        let auth_key = auth_key(gc, &who);
        let mut failures = {
            let _t = crate::timing::span("act: password attempts looked up");
            self.window(fx, &auth_key, throttle::auth_window())?
        };
        if failures.count >= throttle::MAX_WRONG_PASSWORDS {
            return Ok(());
        }
        let good = parsed.password.as_deref().is_some_and(|p| {
            let _t = crate::timing::span("password check");
            let known_wrong = fx
                .wrong_passwords
                .borrow()
                .contains(&(stored_hash.clone(), p.to_string()));
            !known_wrong && self.passwords.verify(p, &stored_hash)
        });
        if !good {
            let reason = if parsed.password.is_none() {
                "The mail has no PASSWORD line.".to_string()
            } else {
                failures.count += 1;
                "The password was wrong.".to_string()
            };
            if failures.count >= throttle::MAX_WRONG_PASSWORDS && !failures.told {
                failures.told = true;
                self.tell_moderators_of_lockout(gc, &who, fx)?;
            }
            self.save_window(fx, &auth_key, &failures);
            // To the registered address (the sender may be a forger), at most once an
            // hour.
            let refusals = throttle::key("refusal", sender);
            if !self.allow(fx, &refusals, Duration::hours(1), 1)? {
                return Ok(());
            }
            let view = replies::Refusal::new(Some(&gc.id), sender, &mail.subject, &reason);
            let body = self.templates.render("refusal.txt", &view)?;
            fx.outbox.push(self.mail(
                sender,
                format!("[{}] Mail refused", gc.id),
                body,
                Some(mail),
            ));
            return Ok(());
        }
        if let Some(secret) = parsed.password.clone() {
            command::scrub(&mut parsed, &secret);
        }
        if let Some((note, turn, phase)) = self.keep_passed_deadline(gc, mail, fx)? {
            parsed.notes.insert(0, note);
            // A bare FORCE meant the phase the deadline has just played: not the next.
            for c in &mut parsed.commands {
                if *c == Command::Force(None) {
                    *c = Command::Force(Some((turn, phase.clone())));
                }
            }
        }
        match player {
            Some(power) => self.act_as_player(gc, mail, &parsed, &power, fx),
            None => self.act_as_moderator(gc, mail, &parsed, fx),
        }
    }

    /// A mail that reached the mailbox after its game's deadline is read after that
    /// deadline is kept: the phase is adjudicated first (as the deadline's pass would
    /// have, had it come before the mail was read), and the mail counts for the phase
    /// that follows. Returns the note that tells its writer so, and the phase played.
    /// A delivery time later than the judge's clock counts as now.
    ///
    /// (The deadline pass adjudicates the game in its own commit; here it is done in
    /// the mail's, so a crash leaves both or neither.)
    fn keep_passed_deadline(
        &self,
        gc: &GameConfig,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<Option<(String, u32, String)>, JudgeError> {
        let Some(received) = mail.received else {
            return Ok(None);
        };
        let received = received.min(self.clock.now());
        let passed = self.peek(fx, &gc.id, |r| {
            let label = r.game.label();
            r.deadline
                .filter(|&d| received >= d && r.suspended.is_none() && !label.over)
                .map(|d| (d, label))
        })?;
        let Some((deadline, label)) = passed else {
            return Ok(None);
        };
        // A deadline the judge already failed to keep is the deadline pass's to retry
        // (and to suspend the game over): the mail is read as it stands, so a fault
        // in the adjudication never keeps the mail itself from being read.
        if self
            .store
            .contains(&record::deadline_attempts_key(&gc.id, deadline))?
        {
            return Ok(None);
        }
        self.advance(gc, fx, true)?;
        let (now, titles) = self.peek(fx, &gc.id, |r| {
            let now = r.game.label();
            let play = r.game.play();
            let titles = (
                play.phase_title(label.turn, label.phase),
                play.phase_title(now.turn, now.phase),
            );
            (now, titles)
        })?;
        if now.turn == label.turn && now.phase == label.phase {
            return Ok(None);
        }
        let tz = gc.time_zone;
        let note = format!(
            "This mail came at {}, after the deadline of {}: {}. That phase was played \
             without it, and the mail is read for {}.",
            replies::when(received, tz),
            titles.0,
            replies::when(deadline, tz),
            titles.1,
        );
        Ok(Some((note, label.turn, label.phase.to_string())))
    }

    /// Whether an address plays or moderates any game here.
    fn is_registered(&self, address: &str) -> Result<bool, JudgeError> {
        let listed = self.config.games.iter().any(|g| {
            g.players.iter().any(|p| p.address == address)
                || g.moderators.iter().any(|m| m.address == address)
        });
        Ok(listed || !self.replaced_into(address)?.is_empty())
    }

    /// The games played here (listed in `games.toml`) an address was handed a power in
    /// by `REPLACE`. An entry of a game no longer listed counts for nothing: a pbem
    /// before 480e6f0 left them behind when it archived a game.
    pub(super) fn replaced_into(&self, address: &str) -> Result<Vec<String>, JudgeError> {
        let prefix = record::played_by_prefix(address);
        let end = format!("{prefix}\u{10FFFF}");
        Ok(self
            .store
            .keys_between(&prefix, &end)?
            .into_iter()
            .map(|k| k[prefix.len()..].to_string())
            .filter(|id| self.config.game(id).is_some())
            .collect())
    }

    /// An unregistered sender, or an unknown game: answered at most once a day.
    pub(super) fn refuse_unknown(
        &self,
        mail: &Incoming,
        game: Option<&str>,
        reason: &str,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let key = throttle::key("unregistered", &mail.from);
        if !self.allow(fx, &key, Duration::days(1), 1)? {
            return Ok(());
        }
        let view = replies::Refusal::new(game, &mail.from, &mail.subject, reason);
        let body = self.templates.render("refusal.txt", &view)?;
        fx.outbox
            .push(self.mail(&mail.from, "Mail not accepted".into(), body, Some(mail)));
        Ok(())
    }
}

/// `[andromeda]` in a subject.
/// A mail of a group taken in: the mail, its done key, its attempts key (a retry),
/// and its inbox token.
pub(super) type Taken = (Incoming, String, Option<String>, String);

/// Whether a mail asks to observe or stop observing (answered without registration).
pub(super) fn observing(parsed: &command::Parsed) -> bool {
    parsed
        .commands
        .iter()
        .any(|c| matches!(c, Command::Observe(_) | Command::Unobserve(_)))
}

/// The game a mail is about: its GAME line, a `HELP <game>`, its subject's `[game]`,
/// or its address's `+game`.
pub(super) fn game_named(mail: &Incoming, parsed: &command::Parsed) -> Option<String> {
    let help_game = parsed.commands.iter().find_map(|c| match c {
        Command::Help(Some(g)) => Some(g.clone()),
        _ => None,
    });
    parsed
        .game
        .clone()
        .or(help_game)
        .or_else(|| subject_game(&mail.subject))
        .or_else(|| mail.to.iter().find_map(|a| plus_game(a)))
}

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
    let id = id.split('.').next().unwrap_or(id);
    (!id.is_empty()).then(|| id.to_lowercase())
}

/// `judge+andromeda.foundation@host`: the power (or anonymous press token) a reply to
/// press goes back to.
pub(super) fn plus_target(address: &str) -> Option<String> {
    let local = address.split('@').next()?;
    let (_, rest) = local.split_once('+')?;
    let (_, target) = rest.split_once('.')?;
    (!target.is_empty()).then(|| target.to_lowercase())
}
