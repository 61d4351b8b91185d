//! The due-time index: for each game, the next time it needs the judge without any
//! mail (its deadline, or a reminder before it), kept in the store under
//! `v1/due/<unix time>/<id>` in the same atomic batch as the game's record. A pass
//! reads the entries due by now and nothing else, so its cost follows the work to do,
//! not the number of games hosted.

use super::*;

const DUE: &str = "v1/due/";

fn due_key(at: DateTime<Utc>, id: &str) -> String {
    format!("{DUE}{:020}/{id}", at.timestamp().max(0))
}

fn due_at_key(id: &str) -> String {
    format!("v1/due-at/{id}")
}

/// The key of a reminder sent for one deadline value.
pub(super) fn reminded_key(id: &str, deadline: DateTime<Utc>, before: Duration) -> String {
    format!(
        "v1/reminded/{id}/{}/{}",
        deadline.timestamp(),
        before.num_minutes()
    )
}

/// The addresses that hold a power of `record` but are not that power's player in
/// games.toml: those a moderator's `REPLACE` handed it to.
fn replaced_addresses<'a>(gc: &GameConfig, record: &'a Record) -> Vec<&'a str> {
    record
        .addresses
        .iter()
        .filter(|(power, address)| {
            !gc.players
                .iter()
                .any(|p| &p.power == *power && &p.address == *address)
        })
        .map(|(_, address)| address.as_str())
        .collect()
}

impl Judge<'_> {
    /// The next time a game needs the judge by itself: its deadline, or a reminder
    /// before it that has not gone out (one already due is due now). None while the
    /// game is over, paused or suspended.
    fn due_time(
        &self,
        gc: &GameConfig,
        record: &Record,
        fx: &Effects,
    ) -> Result<Option<DateTime<Utc>>, JudgeError> {
        let Some(deadline) = record.deadline else {
            return Ok(None);
        };
        let mut due = deadline;
        for before in &gc.reminders {
            let at = deadline - *before;
            if at >= due {
                continue;
            }
            let key = reminded_key(&gc.id, deadline, *before);
            let sent = fx.flags.contains_key(&key) || self.store.contains(&key)?;
            if !sent {
                // A reminder already due (the deadline moved closer) is due now.
                due = at;
            }
        }
        Ok(Some(due))
    }

    /// The reminders of a phase that begins `now` whose time has come already (a 24-hour
    /// reminder in a 24-hour phase): marked as sent, so that they do not go out in the
    /// same moment as the results that opened the phase.
    pub(super) fn skip_reminders_at_start(
        &self,
        gc: &GameConfig,
        deadline: DateTime<Utc>,
        now: DateTime<Utc>,
        fx: &mut Effects,
    ) {
        for before in &gc.reminders {
            if deadline - *before <= now {
                let key = reminded_key(&gc.id, deadline, *before);
                fx.batch.put(&key, &true);
                fx.flags.insert(key, String::new());
            }
        }
    }

    /// Puts a game's entry in the index, in `fx`'s batch (its old entry removed).
    pub(super) fn index_due(
        &self,
        gc: &GameConfig,
        record: &Record,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let new = self
            .due_time(gc, record, fx)?
            .map(|t| due_key(t, &gc.id))
            .unwrap_or_default();
        let at = due_at_key(&gc.id);
        // Known since the store was opened (or last written); else asked of the store.
        let known = self.due_at.borrow().get(&gc.id).cloned();
        let old: Option<String> = match known {
            Some(key) => Some(key),
            None => self.store.get(&at)?,
        };
        if old.as_deref() == Some(new.as_str()) {
            return Ok(());
        }
        fx.due_at.push((gc.id.clone(), new.clone()));
        if let Some(old) = old.filter(|o| !o.is_empty()) {
            fx.batch.remove(&old);
        }
        if !new.is_empty() {
            fx.batch.put_raw(&new, b"");
        }
        fx.batch.put(&at, &new);
        Ok(())
    }

    /// Takes a game out of the index (archived); listed again, it is indexed anew when
    /// a judge opens.
    pub(super) fn unindex(&self, id: &str, fx: &mut Effects) -> Result<(), JudgeError> {
        let at = due_at_key(id);
        if let Some(old) = self.store.get::<String>(&at)?.filter(|o| !o.is_empty()) {
            fx.batch.remove(&old);
        }
        fx.batch.remove(&at);
        Ok(())
    }

    /// Whether a game came due from `from` (to the second) to `until`: a deadline or
    /// reminder that passed while a pass read its mail.
    pub(super) fn came_due(
        &self,
        from: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<bool, JudgeError> {
        let start = format!("{DUE}{:020}/", from.timestamp().max(0));
        let end = format!("{DUE}{:020}~", until.timestamp().max(0));
        Ok(start <= end && !self.store.keys_between(&start, &end)?.is_empty())
    }

    /// The games due by `at`, earliest first.
    pub(super) fn due_games(&self, at: DateTime<Utc>) -> Result<Vec<String>, JudgeError> {
        let end = format!("{DUE}{:020}~", at.timestamp().max(0));
        let mut ids: Vec<String> = self
            .store
            .keys_between(DUE, &end)?
            .into_iter()
            .filter_map(|k| k.rsplit_once('/').map(|(_, id)| id.to_string()))
            .collect();
        ids.dedup();
        Ok(ids)
    }

    /// At opening: a store of an older format gets the index (and this format's mark);
    /// a game the index does not know yet (new, or imported) is indexed, with the
    /// addresses its powers were handed to by `REPLACE`. Returns the games that have a
    /// record.
    pub(super) fn build_due_index(&self) -> Result<std::collections::HashSet<String>, JudgeError> {
        let mut known = std::collections::HashSet::new();
        let migrate = self.store.format() < crate::store::FORMAT;
        let mut fx = self.effects();
        if migrate {
            for (k, _) in self.store.scan_raw(DUE)? {
                fx.batch.remove(&k);
            }
            for (k, _) in self.store.scan_raw("v1/due-at/")? {
                fx.batch.remove(&k);
            }
        }
        let mut due_at = std::collections::HashMap::new();
        for gc in &self.config.games {
            if !self.store.contains(&game_key(&gc.id))? {
                continue;
            }
            known.insert(gc.id.clone());
            let stored: Option<String> = if migrate {
                None
            } else {
                self.store.get(&due_at_key(&gc.id))?
            };
            if let Some(key) = stored {
                due_at.insert(gc.id.clone(), key);
            } else {
                let record = match self.stored(&gc.id) {
                    Ok(Some(record)) => record,
                    Ok(None) => continue,
                    // Not indexed: its moderators hear of it when a pass meets it (a
                    // mail to it, or the next opening of the store once it is mended).
                    Err(e @ JudgeError::Unreadable { .. }) => {
                        tracing::error!(error = %e, "game not indexed");
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                // A store from before the index of replacements (format 3), or a game
                // imported from another judge, gets it here.
                for address in replaced_addresses(gc, &record) {
                    fx.batch.put(&record::played_by_key(address, &gc.id), &true);
                }
                let new = self
                    .due_time(gc, &record, &fx)?
                    .map(|t| due_key(t, &gc.id))
                    .unwrap_or_default();
                if !new.is_empty() {
                    fx.batch.put_raw(&new, b"");
                }
                fx.batch.put(&due_at_key(&gc.id), &new);
                due_at.insert(gc.id.clone(), new);
            }
        }
        if migrate {
            crate::store::Store::mark_format(&mut fx.batch);
        }
        self.store.commit(fx.batch)?;
        *self.due_at.borrow_mut() = due_at;
        Ok(known)
    }
}
