//! The judge's storage: one sled tree with explicit, versioned keys (`v1/…`).
//!
//! | key | value |
//! |---|---|
//! | `v1/game/<id>` | the game record (JSON) |
//! | `v1/raw/<mail key>` | an incoming mail as received, stored before it is acted on |
//! | `v1/done/<mail key>` | the mail's effects are committed |
//! | `v1/adjudicated/<id>/<turn>/<phase>` | that phase was adjudicated (once, ever) |
//! | `v1/history/<id>/<turn>/<phase>` | its results (JSON) |
//! | `v1/outbox/<seq>` | a reply committed but not yet handed to the transport |
//! | `v1/failed/<seq>` | a reply a server refused for good, set aside (`pbem outbox`) |
//! | `v1/reminded/<id>/<deadline>/<offset>` | that reminder went out |
//! | `v1/unregistered/<address>` | the day an unregistered sender was last answered |
//!
//! Effects of one mail or one deadline are written in one atomic batch, so a crash
//! leaves either all of them or none.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("store: {0}")]
    Sled(#[from] sled::Error),
    #[error("store: record {key} is unreadable: {why}")]
    Corrupt { key: String, why: String },
}

pub struct Store {
    db: sled::Db,
}

/// Writes to commit together.
#[derive(Default)]
pub struct Batch {
    inner: sled::Batch,
}

impl Batch {
    pub fn put<T: Serialize>(&mut self, key: &str, value: &T) {
        let bytes = serde_json::to_vec(value).expect("records serialise");
        self.inner.insert(key.as_bytes(), bytes);
    }

    pub fn put_raw(&mut self, key: &str, bytes: &[u8]) {
        self.inner.insert(key.as_bytes(), bytes);
    }

    pub fn remove(&mut self, key: &str) {
        self.inner.remove(key.as_bytes());
    }
}

impl Store {
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_waiting(path, std::time::Duration::from_secs(5))
    }

    /// Whether an error says another process holds the store.
    pub fn is_locked(e: &StoreError) -> bool {
        matches!(e, StoreError::Sled(sled::Error::Io(io)) if io.to_string().contains("could not acquire lock"))
    }

    /// Opens the store, waiting up to `wait` for another process to let it go.
    pub fn open_waiting(path: &Path, wait: std::time::Duration) -> Result<Store, StoreError> {
        // No background flusher: every commit flushes itself, and a store closed is
        // closed at once (its lock released), so a restarted judge can open it.
        // A judge that just stopped may hold the lock for a moment while its last
        // writes finish: wait for it a little before giving up.
        let deadline = std::time::Instant::now() + wait;
        loop {
            match sled::Config::new().path(path).flush_every_ms(None).open() {
                Ok(db) => return Ok(Store { db }),
                Err(sled::Error::Io(e))
                    if e.to_string().contains("could not acquire lock")
                        && std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, StoreError> {
        match self.db.get(key.as_bytes())? {
            None => Ok(None),
            Some(bytes) => {
                serde_json::from_slice(&bytes)
                    .map(Some)
                    .map_err(|e| StoreError::Corrupt {
                        key: key.into(),
                        why: e.to_string(),
                    })
            }
        }
    }

    pub fn get_raw(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.db.get(key.as_bytes())?.map(|v| v.to_vec()))
    }

    pub fn contains(&self, key: &str) -> Result<bool, StoreError> {
        Ok(self.db.contains_key(key.as_bytes())?)
    }

    /// Stores one value at once (durably).
    pub fn put_now<T: Serialize>(&self, key: &str, value: &T) -> Result<(), StoreError> {
        let mut b = Batch::default();
        b.put(key, value);
        self.commit(b)
    }

    pub fn put_raw_now(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        let mut b = Batch::default();
        b.put_raw(key, bytes);
        self.commit(b)
    }

    /// Applies a batch atomically and waits until it is on disk.
    pub fn commit(&self, batch: Batch) -> Result<(), StoreError> {
        self.db.apply_batch(batch.inner)?;
        self.db.flush()?;
        Ok(())
    }

    /// The entries under a prefix, in key order.
    pub fn scan<T: DeserializeOwned>(&self, prefix: &str) -> Result<Vec<(String, T)>, StoreError> {
        let mut out = Vec::new();
        for item in self.db.scan_prefix(prefix.as_bytes()) {
            let (k, v) = item?;
            let key = String::from_utf8_lossy(&k).into_owned();
            let value = serde_json::from_slice(&v).map_err(|e| StoreError::Corrupt {
                key: key.clone(),
                why: e.to_string(),
            })?;
            out.push((key, value));
        }
        Ok(out)
    }

    /// A fresh number, increasing across restarts.
    pub fn next_id(&self) -> Result<u64, StoreError> {
        Ok(self.db.generate_id()?)
    }
}
