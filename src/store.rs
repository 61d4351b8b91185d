//! The judge's storage: one sled tree with explicit, versioned keys (`v1/…`).
//!
//! | key | value |
//! |---|---|
//! | `v1/game/<id>` | the game record (JSON) |
//! | `v1/raw/<mail key>` | an incoming mail as received (its first MiB), stored before it is acted on; a backup holds a mail done as its headers and scrubbed text (no password) |
//! | `v1/done/<mail key>` | the mail's effects are committed |
//! | `v1/adjudicated/<id>/<turn>/<phase>` | that phase was adjudicated (once, ever) |
//! | `v1/history/<id>/<turn>/<phase>` | its results (JSON) |
//! | `v1/outbox/<seq>` | a reply committed but not yet handed to the transport |
//! | `v1/failed/<seq>` | a reply a server refused for good, set aside (`pbem outbox`) |
//! | `v1/reminded/<id>/<deadline>/<offset>` | that reminder went out |
//! | `v1/throttle/<kind>/<who>` | a rate limit's window (refusals, password attempts, HELP) |
//! | `v1/attempts/<mail key>` | tries at a mail not yet done (set aside after three) |
//! | `v1/attempts/game/<id>/<deadline>` | tries at a game's deadline |
//! | `v1/poison/<mail key>` | a mail set aside after three failed tries |
//! | `v1/meta/format` | the store's format number ([`FORMAT`]) |
//! | `v1/due/<unix time>/<id>` | the next time game `<id>` needs the judge without mail (its deadline or a reminder) |
//! | `v1/due-at/<id>` | that game's `v1/due/` key, or empty when nothing is due (format 2) |
//! | `v1/played-by/<address>/<id>` | the address plays in game `<id>` by a moderator's `REPLACE` (format 3) |
//! | `v1/unreadable/<id>` | game `<id>`'s record could not be read and its moderators were told why (let go once it reads again) |
//! | `v1/archived/<id>` | when game `<id>` was archived (no longer in games.toml) |
//! | `v1/meta/last-backup` | when the last scheduled backup was taken |
//! | `v1/imap/<host>/<user>/<mailbox>` | how far the judge has read that IMAP mailbox (UIDVALIDITY, last UID) |
//!
//! A game export (`pbem game export`) carries `v1/game/<id>` and every family under
//! the game's id: history, adjudication marks, reminders, attempts at its deadlines,
//! its password-attempt windows (`v1/throttle/auth/<id>/`), and its press, press
//! tokens and observers (`judge::community`'s table). The indexes `v1/due/`,
//! `v1/due-at/<id>` and `v1/played-by/<address>/<id>` are not carried: the importing
//! judge builds them from the record when it opens the store.
//!
//! The format is versioned: a store says which format it is in, a newer program
//! migrates an older store when it opens it, and an older program refuses a newer
//! store instead of misreading it. Stores from before the format key are format 1.
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
    #[error(
        "store {path}: written in format {found} by a newer pbem; this one reads formats up to {FORMAT}: upgrade pbem"
    )]
    Newer { path: String, found: u32 },
    #[error("store {path}: {source}")]
    Open { path: String, source: sled::Error },
}

/// The store format this program writes (see the module's table). Format 2 added the
/// due-time index (`v1/due/`, `v1/due-at/`), which the judge builds when it first opens
/// a format-1 store; an older pbem, which would not keep the index, refuses format 2.
/// Format 3 has every `REPLACE` in the index `v1/played-by/` (before, only those made
/// by a pbem that kept it); the judge builds it from the game records when it opens an
/// older store.
pub const FORMAT: u32 = 3;
/// Where a store keeps its format.
pub const FORMAT_KEY: &str = "v1/meta/format";

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Meta {
    pub format: u32,
    /// The program that last wrote the format (for people).
    pub written_by: String,
}

impl Meta {
    pub fn current() -> Meta {
        Meta {
            format: FORMAT,
            written_by: format!("pbem {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

pub struct Store {
    db: sled::Db,
    /// The format the store was in when opened (older ones are migrated by the judge).
    format: u32,
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
            // A bounded cache: a judge hosting thousands of games reads few of them a
            // pass, and must not keep them all in memory.
            match sled::Config::new()
                .path(path)
                .flush_every_ms(None)
                .cache_capacity(16 * 1024 * 1024)
                .open()
            {
                Ok(db) => {
                    let mut store = Store { db, format: FORMAT };
                    store.format = store.check_format(path)?;
                    return Ok(store);
                }
                Err(sled::Error::Io(e))
                    if e.to_string().contains("could not acquire lock")
                        && std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e @ sled::Error::Io(_)) if e.to_string().contains("could not acquire lock") => {
                    return Err(e.into())
                }
                Err(source) => {
                    return Err(StoreError::Open {
                        path: path.display().to_string(),
                        source,
                    })
                }
            }
        }
    }

    /// Reads the store's format: a new store is marked with this one's; a store
    /// without the mark was written in format 1 (before stores carried one); a newer
    /// format is refused. An older format is left as it is for the judge to migrate
    /// ([`Store::format`], [`Store::mark_format`]): reading commands need no migration.
    fn check_format(&self, path: &Path) -> Result<u32, StoreError> {
        match self.get::<Meta>(FORMAT_KEY)? {
            Some(meta) if meta.format > FORMAT => Err(StoreError::Newer {
                path: path.display().to_string(),
                found: meta.format,
            }),
            Some(meta) => Ok(meta.format),
            None if self.db.is_empty() => {
                self.put_now(FORMAT_KEY, &Meta::current())?;
                Ok(FORMAT)
            }
            None => Ok(1),
        }
    }

    /// The format the store was in when it was opened.
    pub fn format(&self) -> u32 {
        self.format
    }

    /// Marks the store as migrated to this program's format, in `batch`.
    pub fn mark_format(batch: &mut Batch) {
        batch.put(FORMAT_KEY, &Meta::current());
    }

    /// The keys in `[from, to)`, in order (for the due-time index).
    pub fn keys_between(&self, from: &str, to: &str) -> Result<Vec<String>, StoreError> {
        let mut out = Vec::new();
        for item in self.db.range(from.as_bytes()..to.as_bytes()) {
            let (k, _) = item?;
            out.push(String::from_utf8_lossy(&k).into_owned());
        }
        Ok(out)
    }

    /// Every entry, raw, in key order (for backups).
    pub fn entries(&self) -> impl Iterator<Item = Result<(String, Vec<u8>), StoreError>> + '_ {
        self.db.iter().map(|item| {
            let (k, v) = item?;
            Ok((String::from_utf8_lossy(&k).into_owned(), v.to_vec()))
        })
    }

    /// The raw entries under a prefix, in key order.
    pub fn scan_raw(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let mut out = Vec::new();
        for item in self.db.scan_prefix(prefix.as_bytes()) {
            let (k, v) = item?;
            out.push((String::from_utf8_lossy(&k).into_owned(), v.to_vec()));
        }
        Ok(out)
    }

    /// Whether the store holds nothing but its format mark.
    pub fn is_blank(&self) -> Result<bool, StoreError> {
        for item in self.db.iter() {
            let (k, _) = item?;
            if k.as_ref() != FORMAT_KEY.as_bytes() {
                return Ok(false);
            }
        }
        Ok(true)
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
