//! Committing a group's effects: game records and the due index, replies queued, one
//! atomic sled batch; then the games' snapshots written beside the store.

use super::*;

impl Judge<'_> {
    pub(super) fn commit(&self, mut fx: Effects) -> Result<(), JudgeError> {
        let records_span = crate::timing::span("store write: game records, due index");
        let records = std::mem::take(&mut fx.records);
        // Each record written once as JSON: into the batch, and as its snapshot.
        // (Serialised side by side: a group of mails to many games changes many.)
        let entries: Vec<(&String, &Record)> = records.iter().collect();
        let encoded = crate::parallel::map(&entries, |(_, record)| {
            serde_json::to_vec(record).expect("records serialise")
        });
        let mut snapshots = Vec::with_capacity(records.len());
        for ((id, record), bytes) in entries.into_iter().zip(encoded) {
            fx.batch.put_raw(&game_key(id), &bytes);
            snapshots.push((id.clone(), bytes));
            if let Some(gc) = self.config.game(id) {
                self.index_due(gc, record, &mut fx)?;
            }
        }
        fx.records = records;
        drop(records_span);
        let queued = crate::timing::span("store write: replies queued");
        for mail in fx.outbox {
            let mail = bounded(mail);
            let seq = self.store.next_id()?;
            let key = format!("{}{seq:020}-{}", outbox::WAITING, mail.message_id);
            fx.batch.put(&key, &Queued::new(mail));
        }
        drop(queued);
        {
            let _t = crate::timing::span("store write: commit (sled, flush)");
            self.store.commit(fx.batch)?;
        }
        self.due_at.borrow_mut().extend(fx.due_at);
        let _t = crate::timing::span("game snapshot files");
        // The records are let go by the thread writing their snapshots.
        self.write_snapshots(snapshots, fx.records);
        drop(_t);
        let _t = crate::timing::span("store write: effects let go");
        drop((fx.read, fx.history, fx.flags, fx.phases));
        Ok(())
    }

    /// Writes games' records beside the store, for `pbem game show` while the judge
    /// runs (sled lets one process open the store), on a thread of their own (the
    /// writes before are waited for, so a game's last snapshot is the last written).
    /// Best effort: the store is the truth, and a failed snapshot is only logged.
    pub(super) fn write_snapshots(
        &self,
        snapshots: Vec<(String, Vec<u8>)>,
        records: BTreeMap<String, Record>,
    ) {
        if snapshots.is_empty() {
            return;
        }
        self.settle_snapshots();
        let dir = snapshot_dir(&self.config.judge.store);
        *self.snapshots.borrow_mut() = Some(std::thread::spawn(move || {
            drop(records);
            if let Err(e) = std::fs::create_dir_all(&dir) {
                tracing::warn!(error = %e, "snapshots not written");
                return;
            }
            for (id, bytes) in snapshots {
                let tmp = dir.join(format!("{id}.json.tmp"));
                let written = std::fs::write(&tmp, bytes)
                    .and_then(|()| std::fs::rename(tmp, dir.join(format!("{id}.json"))));
                if let Err(e) = written {
                    tracing::warn!(game = id, error = %e, "snapshot not written");
                }
            }
        }));
    }

    /// Waits for the snapshots being written.
    pub(super) fn settle_snapshots(&self) {
        if let Some(handle) = self.snapshots.borrow_mut().take() {
            let _ = handle.join();
        }
    }
}

/// The folder of the game snapshots of a store.
pub fn snapshot_dir(store: &Path) -> std::path::PathBuf {
    let mut name = store.file_name().unwrap_or_default().to_os_string();
    name.push(".snapshots");
    store.with_file_name(name)
}
