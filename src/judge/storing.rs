//! A commit's effects: game records read (at most once a commit) and taken for
//! changing; then committed with the due index and the replies queued, in one atomic
//! sled batch, and the games' snapshots written beside the store.

use super::*;

impl Judge<'_> {
    /// A fresh commit: nothing read, nothing changed yet.
    pub(super) fn effects(&self) -> Effects {
        Effects {
            batch: Batch::default(),
            outbox: Vec::new(),
            records: BTreeMap::new(),
            read: Default::default(),
            phases: Default::default(),
            due_at: Vec::new(),
            wrong_passwords: Default::default(),
            adjudicated: Vec::new(),
            flags: BTreeMap::new(),
            history: Vec::new(),
        }
    }

    /// Looks at a game's record as this commit has it, without a copy.
    pub(super) fn peek<T>(
        &self,
        fx: &Effects,
        id: &str,
        f: impl FnOnce(&Record) -> T,
    ) -> Result<T, JudgeError> {
        let _t = crate::timing::span("act: game record read");
        if let Some(r) = fx.records.get(id) {
            return Ok(f(r));
        }
        let record = self.read_once(fx, id)?;
        Ok(f(&record))
    }

    /// A record from the store, read at most once in a commit.
    pub(super) fn read_once(
        &self,
        fx: &Effects,
        id: &str,
    ) -> Result<std::rc::Rc<Record>, JudgeError> {
        if let Some(r) = fx.read.borrow().get(id) {
            return Ok(r.clone());
        }
        let record = std::rc::Rc::new(self.stored(id)?.expect("configured games have records"));
        fx.read.borrow_mut().insert(id.to_string(), record.clone());
        Ok(record)
    }

    /// A game's record for changing: taken out of this commit's records (no copy),
    /// to be put back.
    pub(super) fn take(&self, fx: &mut Effects, id: &str) -> Result<Record, JudgeError> {
        match fx.records.remove(id) {
            Some(r) => Ok(r),
            None => self.load(fx, id),
        }
    }

    /// A game's phase and who owes orders in it, asked of the game once a position.
    pub(super) fn phase_of(
        &self,
        fx: &Effects,
        id: &str,
        record: &Record,
    ) -> (PhaseLabel, Vec<String>) {
        let mut phases = fx.phases.borrow_mut();
        match phases.get(id) {
            Some((n, label, owing)) if *n == record.phases_played => (label.clone(), owing.clone()),
            _ => {
                let (label, owing) = (record.game.label(), record.game.owing());
                phases.insert(
                    id.to_string(),
                    (record.phases_played, label.clone(), owing.clone()),
                );
                (label, owing)
            }
        }
    }

    pub(super) fn load(&self, fx: &mut Effects, id: &str) -> Result<Record, JudgeError> {
        let _t = crate::timing::span("act: game record read");
        if let Some(r) = fx.records.get(id) {
            return Ok(r.clone());
        }
        // Read in this commit already: taken (the caller changes it, as a rule).
        if let Some(r) = fx.read.borrow_mut().remove(id) {
            return Ok(std::rc::Rc::try_unwrap(r).unwrap_or_else(|r| (*r).clone()));
        }
        Ok(self.stored(id)?.expect("configured games have records"))
    }

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
