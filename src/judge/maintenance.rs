//! The judge's housekeeping between passes: requests from `pbem backup` and
//! `pbem game export|import` while it runs, and scheduled backups.

use super::*;

use crate::control::{self, Request};

/// When the last scheduled backup was taken (RFC 3339).
const LAST_BACKUP: &str = "v1/meta/last-backup";

impl Judge<'_> {
    /// Does what commands asked of the running judge; returns how many requests.
    pub fn handle_requests(&self) -> usize {
        let waiting = control::waiting(&self.config.judge.store);
        let n = waiting.len();
        for (request, answer_at) in waiting {
            let result = self.carry_out(&request);
            match &result {
                Ok(text) => tracing::info!(?request, text, "request done"),
                Err(e) => tracing::warn!(?request, error = %e, "request refused"),
            }
            control::answer(&answer_at, result);
        }
        n
    }

    /// One request, on this judge's store.
    pub fn carry_out(&self, request: &Request) -> Result<String, String> {
        if let Request::Reload { config } = request {
            // Checked here, so a file that does not read is refused with its reason and
            // the running configuration stays.
            let new = crate::config::Config::load(config).map_err(|e| e.to_string())?;
            let added = new
                .games
                .iter()
                .filter(|g| self.config.game(&g.id).is_none())
                .count();
            let removed = self
                .config
                .games
                .iter()
                .filter(|g| new.game(&g.id).is_none())
                .count();
            self.reload.set(true);
            return Ok(format!(
                "games.toml read again: {} games ({added} new, {removed} archived)",
                new.games.len()
            ));
        }
        let mut text = control::carry_out(&self.store, request, self.clock.now())?;
        if let Request::Import { .. } = request {
            if let Some(id) = text.strip_prefix("game ").and_then(|t| t.split(' ').next()) {
                if self.config.game(id).is_none() {
                    text += &format!(" (add game {id} to games.toml for the judge to play it)");
                }
            }
        }
        Ok(text)
    }

    /// Takes the scheduled backup when it is due (`[judge.backup]`); returns its file.
    pub fn scheduled_backup(&self) -> Result<Option<std::path::PathBuf>, String> {
        let Some(schedule) = &self.config.judge.backup else {
            return Ok(None);
        };
        let now = self.clock.now();
        let last: Option<String> = self.store.get(LAST_BACKUP).map_err(|e| e.to_string())?;
        let due = last
            .and_then(|t| DateTime::parse_from_rfc3339(&t).ok())
            .is_none_or(|t| now - t.with_timezone(&Utc) >= schedule.every);
        if !due {
            return Ok(None);
        }
        let (path, _) = crate::backup::backup(&self.store, &schedule.dir, now, Some(schedule.keep))
            .map_err(|e| e.to_string())?;
        self.store
            .put_now(LAST_BACKUP, &now.to_rfc3339())
            .map_err(|e| e.to_string())?;
        Ok(Some(path))
    }
}

/// Games archived (no longer in games.toml): `v1/archived/<id>` holds when.
pub(super) fn archived_key(id: &str) -> String {
    format!("v1/archived/{id}")
}

/// Where archived games are exported: beside the store.
pub fn archive_dir(store: &std::path::Path) -> std::path::PathBuf {
    let mut name = store.file_name().unwrap_or_default().to_os_string();
    name.push(".archive");
    store.with_file_name(name)
}

impl Judge<'_> {
    /// Games the store holds that games.toml no longer lists: each exported once (with
    /// its history) into `<store>.archive/<id>-<time>.json`, taken out of the due
    /// index (and the index of its players by `REPLACE`) and marked archived. Nothing
    /// of the game is deleted: listed again, the game goes on where it stopped.
    /// Returns the games archived now, with their files.
    pub fn archive_removed(&self) -> Result<Vec<(String, std::path::PathBuf)>, JudgeError> {
        let mut archived = Vec::new();
        for key in self.store.keys_between("v1/game/", "v1/game/~")? {
            let id = &key["v1/game/".len()..];
            if self.config.game(id).is_some() || self.store.contains(&archived_key(id))? {
                continue;
            }
            let now = self.clock.now();
            let file = archive_dir(&self.config.judge.store)
                .join(format!("{id}-{}.json", now.format("%Y%m%dT%H%M%SZ")));
            if let Some(dir) = file.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| JudgeError::Setup(format!("{}: {e}", dir.display())))?;
            }
            crate::backup::export_game(&self.store, id, &file, now)
                .map_err(|e| JudgeError::Setup(format!("archiving game {id}: {e}")))?;
            let mut fx = self.effects();
            self.unindex(id, &mut fx)?;
            // Its players by REPLACE no longer play here through it (listed again,
            // the game is indexed anew, these with it).
            if let Some(record) = self.record(id)? {
                for address in record.addresses.values() {
                    fx.batch.remove(&record::played_by_key(address, id));
                }
            }
            fx.batch.put(&archived_key(id), &now.to_rfc3339());
            self.store.commit(fx.batch)?;
            archived.push((id.to_string(), file));
        }
        // A game listed again is no longer archived.
        let mut fx = self.effects();
        let mut back = false;
        for key in self.store.keys_between("v1/archived/", "v1/archived/~")? {
            let id = &key["v1/archived/".len()..];
            if self.config.game(id).is_some() {
                fx.batch.remove(&key);
                back = true;
            }
        }
        if back {
            self.store.commit(fx.batch)?;
        }
        Ok(archived)
    }

    /// Whether a reload of `games.toml` was asked for (and takes the request).
    pub fn take_reload(&self) -> bool {
        self.reload.replace(false)
    }
}
