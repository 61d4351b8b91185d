//! Who a mail is from: the power or moderation a sender's address holds in a game, the
//! password it is checked against, a group's passwords checked side by side, and the
//! notice when a power's password attempts stop being checked.

use super::intake::{game_named, observing, Taken};
use super::*;

impl Judge<'_> {
    /// The power `sender` plays in a game (if a player) and the password hash their
    /// mail is checked against (a player's, or a moderator's; none for a stranger).
    pub(super) fn credential(
        &self,
        fx: &Effects,
        gc: &GameConfig,
        sender: &str,
    ) -> Result<(Option<String>, Option<String>), JudgeError> {
        let player = self.peek(fx, &gc.id, |record| {
            record
                .addresses
                .iter()
                .find(|(_, a)| a.as_str() == sender)
                .map(|(p, _)| p.clone())
        })?;
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
        Ok((player, stored_hash))
    }

    /// Checks the passwords of a group's mails side by side (Argon2 is slow on purpose,
    /// and a group's first mails from several players would each wait for theirs), so
    /// that [`Judge::act`] finds them known right, or known wrong for this commit. Only
    /// the checks `act` would make: a registered sender's password (in their first mail
    /// of the group), not known already, and for each power no more wrong ones than its
    /// window of attempts has left.
    pub(super) fn check_passwords_ahead(
        &self,
        mails: &[Taken],
        fx: &Effects,
    ) -> Result<(), JudgeError> {
        if mails.len() < 2 {
            return Ok(());
        }
        let _t = crate::timing::span("password check");
        let mut pairs: Vec<(String, String)> = Vec::new();
        let mut left: BTreeMap<String, u32> = BTreeMap::new();
        // A sender's first mail of the group (the others most often carry the same
        // password, then known; a different one is checked by `act`).
        let mut senders = std::collections::HashSet::new();
        for (mail, ..) in mails {
            if mail.automatic || !senders.insert(mail.from.as_str()) {
                continue;
            }
            let parsed = command::parse(&mail.body);
            let Some(password) = parsed.password.clone() else {
                continue;
            };
            if observing(&parsed) {
                continue;
            }
            let Some(gc) = game_named(mail, &parsed)
                .as_deref()
                .and_then(|id| self.config.game(id))
            else {
                continue;
            };
            let sender = mail.from.as_str();
            let (player, Some(hash)) = self.credential(fx, gc, sender)? else {
                continue;
            };
            if self.passwords.known(&password, &hash)
                || pairs.contains(&(hash.clone(), password.clone()))
            {
                continue;
            }
            let who = player.unwrap_or_else(|| format!("moderator {sender}"));
            let key = auth_key(gc, &who);
            let allowed = match left.get_mut(&key) {
                Some(n) => n,
                None => {
                    let used = self.window(fx, &key, throttle::auth_window())?.count;
                    left.entry(key)
                        .or_insert(throttle::MAX_WRONG_PASSWORDS.saturating_sub(used))
                }
            };
            if *allowed == 0 {
                continue;
            }
            *allowed -= 1;
            pairs.push((hash, password));
        }
        // One check gains nothing from a thread: `act` makes it.
        if pairs.len() < 2 {
            return Ok(());
        }
        let asked: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(h, p)| (p.as_str(), h.as_str()))
            .collect();
        let right = self.passwords.verify_all(&asked);
        let mut wrong = fx.wrong_passwords.borrow_mut();
        for (pair, ok) in pairs.into_iter().zip(right) {
            if !ok {
                wrong.insert(pair);
            }
        }
        Ok(())
    }

    /// The moderators hear once that a power's password attempts are no longer checked.
    pub(super) fn tell_moderators_of_lockout(
        &self,
        gc: &GameConfig,
        who: &str,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let until = self.clock.now() + throttle::auth_window();
        let line = format!(
            "{} wrong passwords for {who} within an hour: further mails for {who} are \
             not checked or answered until {}. If the player lost the password, give \
             a new one in games.toml.",
            throttle::MAX_WRONG_PASSWORDS,
            replies::utc(until)
        );
        self.tell_moderators(
            gc,
            &format!("Password attempts stopped for {who}"),
            vec![line],
            fx,
        )
    }
}

/// The key of a power's (or a moderator's) window of password attempts in a game.
pub(super) fn auth_key(gc: &GameConfig, who: &str) -> String {
    throttle::key("auth", &format!("{}/{who}", gc.id))
}
