//! Games whose stored record cannot be read: a damaged record, or a game state written
//! by a pbem that stores games differently. Such a game waits, alone, for its
//! moderators, and every other game goes on: a mail to it is answered at once (nothing
//! of it takes effect), its deadline waits in the due index and is kept when the record
//! reads again, and its moderators hear of it once (again only if it is mended and
//! breaks anew).

use super::*;

/// Marks that a game's moderators were told its record cannot be read (the reason).
fn told_key(id: &str) -> String {
    format!("v1/unreadable/{id}")
}

/// A store's error reading game `id`'s record, as the judge tells it.
fn unreadable(id: &str, e: StoreError) -> JudgeError {
    match e {
        StoreError::Corrupt { why, .. } => JudgeError::Unreadable {
            game: id.to_string(),
            why,
        },
        e => e.into(),
    }
}

impl Judge<'_> {
    /// A game's record from the store; one that cannot be read is
    /// [`JudgeError::Unreadable`] (a fault of that game alone).
    pub(super) fn stored(&self, id: &str) -> Result<Option<Record>, JudgeError> {
        self.store.get(&game_key(id)).map_err(|e| unreadable(id, e))
    }

    /// Tells the game's moderators, once, that its record cannot be read.
    pub(super) fn tell_unreadable(
        &self,
        gc: &GameConfig,
        why: &str,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let key = told_key(&gc.id);
        if fx.flags.contains_key(&key) || self.store.contains(&key)? {
            return Ok(());
        }
        tracing::error!(game = %gc.id, why, "game record cannot be read");
        fx.batch.put(&key, &why);
        fx.flags.insert(key, String::new());
        let lines = vec![
            format!(
                "The judge cannot read this game's record (store key {}): {why}.",
                game_key(&gc.id)
            ),
            "The game waits: mail to it takes no effect (whoever writes is told so) and its \
             deadline is not kept, while every other game goes on. Restore the game from a \
             backup or an export (pbem game import), or run the pbem that wrote it; the \
             judge then goes on from the record, and keeps a deadline that passed \
             meanwhile. Please tell the judge's maintainer."
                .to_string(),
        ];
        self.tell_moderators(gc, "The game's record cannot be read", lines, fx)
    }

    /// A game's record read well: a mark that it could not be read is let go (its
    /// moderators hear of it again if it breaks anew).
    pub(super) fn mended(&self, id: &str, fx: &mut Effects) -> Result<(), JudgeError> {
        let key = told_key(id);
        if self.store.contains(&key)? {
            tracing::info!(game = id, "game record readable again");
            fx.batch.remove(&key);
        }
        Ok(())
    }

    /// The answer to a mail about a game whose record cannot be read: nothing of it
    /// took effect, and the moderators are told (once); committed with the mail's mark
    /// that it is done.
    pub(super) fn answer_unreadable(
        &self,
        taken: &intake::Taken,
        game: &str,
        why: &str,
    ) -> Result<(), JudgeError> {
        let (mail, done, attempts_key, _) = taken;
        let mut fx = self.effects();
        if let Some(gc) = self.config.game(game) {
            self.tell_unreadable(gc, why, &mut fx)?;
            let view = replies::Notice {
                game: &gc.id,
                lines: vec![format!(
                    "The judge cannot read game {}'s record just now, so nothing of your mail \
                     (subject \"{}\") took effect. The game's moderators have been told; \
                     please send it again when they say the game goes on.",
                    gc.id,
                    replies::quote(&mail.subject)
                )],
            };
            let subject = format!("[{}] Mail not acted on", gc.id);
            self.answer(&mut fx, mail, subject, "notice.txt", &view)?;
        }
        fx.batch.put(done, &true);
        if let Some(key) = attempts_key {
            fx.batch.remove(key);
        }
        self.commit(fx)
    }
}
