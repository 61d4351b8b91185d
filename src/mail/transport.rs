//! The transport boundary: where mail comes from and where replies go. The judge knows
//! only these two traits; Maildir folders, IMAP and SMTP implement them.

use crate::store::Store;

/// A mail waiting to be read, with the token its inbox needs to mark it done.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub token: String,
    pub raw: Vec<u8>,
    /// When the mail reached the mailbox (Maildir: the file's time; IMAP: its
    /// INTERNALDATE), if the inbox knows: a mail that came after a game's deadline is
    /// read after that deadline is kept, however late the judge reads it.
    pub received: Option<chrono::DateTime<chrono::Utc>>,
}

#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// Worth trying again later: a server down or refusing for now, a lost connection.
    #[error("{0}")]
    Transient(String),
    /// Will not work however often tried: the receiving server refused this mail.
    #[error("{0}")]
    Permanent(String),
}

/// Where incoming mail waits.
pub trait Inbox {
    /// The mails waiting, oldest first. The store keeps what the inbox must remember
    /// across restarts (for IMAP: UIDVALIDITY and the last UID handled).
    fn fetch(&mut self, store: &Store) -> Result<Vec<Waiting>, TransportError>;

    /// Marks mails whose effects are committed as handled (Maildir: moved to `cur/`;
    /// IMAP: flagged `\Seen`). `failed` are mails of the same fetch that could not be
    /// handled this time: they must be fetched again.
    fn done(
        &mut self,
        store: &Store,
        tokens: &[String],
        failed: &[String],
    ) -> Result<(), TransportError>;

    /// Finishes marking mails handled (an inbox may do it in the background while
    /// the judge goes on): called at the end of a pass's reading.
    fn settle(&mut self) -> Result<(), TransportError> {
        Ok(())
    }

    /// At most this many mails come from one [`Inbox::fetch`] (None: all waiting);
    /// the judge fetches again while rounds come full.
    fn round_limit(&self) -> Option<usize> {
        None
    }

    /// Waits up to `timeout` for new mail (returning early when some may have come).
    fn wait(&mut self, _store: &Store, timeout: std::time::Duration) -> Result<(), TransportError> {
        std::thread::sleep(timeout);
        Ok(())
    }
}

/// A mail to hand over.
pub struct Mail {
    pub name: String,
    pub from: String,
    pub to: String,
    pub bytes: Vec<u8>,
    /// Never handed over before (made since the judge started, not tried yet): no
    /// copy of it can be on the other side, and a transport need not look for one.
    pub fresh: bool,
}

/// Where replies go.
pub trait Outbox {
    /// Hands a mail over; `Ok` only once the other side has accepted it. `name` is
    /// stable for a mail, so a transport can recognise a mail sent twice.
    fn send(
        &mut self,
        name: &str,
        from: &str,
        to: &str,
        bytes: &[u8],
    ) -> Result<(), TransportError>;

    /// Sends several mails, reporting each result to `done` (on the calling thread) as
    /// it comes; stops handing over more after a transient failure. The default sends
    /// one after another.
    fn send_all(
        &mut self,
        mails: &[Mail],
        done: &mut dyn FnMut(usize, Result<(), TransportError>) -> bool,
    ) {
        for (i, m) in mails.iter().enumerate() {
            let result = self.send(&m.name, &m.from, &m.to, &m.bytes);
            let transient = matches!(result, Err(TransportError::Transient(_)));
            if !done(i, result) || transient {
                return;
            }
        }
    }

    /// A way to hand mails over from another thread, where the transport has one
    /// (the judge then writes a group's replies while it reads the next).
    #[allow(clippy::type_complexity)]
    fn detached(
        &self,
    ) -> Option<std::sync::Arc<dyn Fn(&Mail) -> Result<(), TransportError> + Send + Sync>> {
        None
    }

    /// Whether sending the same mail (same `name`) twice delivers it once. Where not,
    /// the judge records each acceptance at once, so a crash resends at most one mail.
    fn idempotent(&self) -> bool {
        false
    }
}

/// Maildir folders (the embedded default).
pub struct MaildirInbox {
    pub dir: std::path::PathBuf,
    /// Mails being moved to `cur/` by a thread of their own while the judge goes on
    /// (a mail not moved yet is read again and known as done).
    marking: Option<std::thread::JoinHandle<Result<(), TransportError>>>,
}

impl MaildirInbox {
    pub fn new(dir: std::path::PathBuf) -> MaildirInbox {
        MaildirInbox { dir, marking: None }
    }
}

impl Drop for MaildirInbox {
    fn drop(&mut self) {
        let _ = self.settle();
    }
}

impl Inbox for MaildirInbox {
    fn settle(&mut self) -> Result<(), TransportError> {
        match self.marking.take() {
            None => Ok(()),
            Some(handle) => handle.join().unwrap_or_else(|_| {
                Err(TransportError::Transient(
                    "marking mail read: the thread failed".into(),
                ))
            }),
        }
    }

    fn fetch(&mut self, _: &Store) -> Result<Vec<Waiting>, TransportError> {
        // Mails left unmarked by a failure are read again and known as done.
        let _ = self.settle();
        let paths = super::maildir::waiting(&self.dir)
            .map_err(|e| TransportError::Transient(format!("{}: {e}", self.dir.display())))?;
        crate::parallel::map(&paths, |path| {
            // A mail server writes the file once, at delivery: its time is the
            // delivery's (from the open file: no second look-up of the path).
            let read = || -> std::io::Result<(Vec<u8>, Option<std::time::SystemTime>)> {
                let mut file = std::fs::File::open(path)?;
                let meta = file.metadata()?;
                let mut raw = Vec::with_capacity(meta.len() as usize);
                std::io::Read::read_to_end(&mut file, &mut raw)?;
                Ok((raw, meta.modified().ok()))
            };
            let (raw, modified) = read()
                .map_err(|e| TransportError::Transient(format!("{}: {e}", path.display())))?;
            let received = modified.map(chrono::DateTime::<chrono::Utc>::from);
            Ok(Waiting {
                token: path.display().to_string(),
                raw,
                received,
            })
        })
        .into_iter()
        .collect::<Result<Vec<Waiting>, TransportError>>()
        .map(|mut mails| {
            // Read in the order they reached the mailbox, as a player's second mail
            // replaces her first: names (a time to the second, then a counter or a
            // host) break ties only, as `M99` sorts after `M100` within a second.
            mails.sort_by_key(|m| m.received);
            mails
        })
    }

    fn done(
        &mut self,
        _: &Store,
        tokens: &[String],
        _failed: &[String],
    ) -> Result<(), TransportError> {
        // The last group's marks are waited for (their failure told now).
        let before = self.settle();
        let (dir, tokens) = (self.dir.clone(), tokens.to_vec());
        self.marking = Some(std::thread::spawn(move || {
            for token in &tokens {
                let path = std::path::Path::new(token);
                // A mail already gone (moved by another reader) is done as well.
                match super::maildir::mark_seen(&dir, path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound || path.exists() => {
                        return Err(TransportError::Transient(format!("{token}: {e}")))
                    }
                    _ => {}
                }
            }
            Ok(())
        }));
        before
    }
}

pub struct MaildirOutbox {
    pub dir: std::path::PathBuf,
}

impl Outbox for MaildirOutbox {
    /// Files written side by side; the results told in order, up to the first failure
    /// for now (a file written past it is found there when the reply is sent again).
    fn send_all(
        &mut self,
        mails: &[Mail],
        done: &mut dyn FnMut(usize, Result<(), TransportError>) -> bool,
    ) {
        let dir = &self.dir;
        let results = crate::parallel::map(mails, |m| {
            super::maildir::deliver_mail(dir, m)
                .map_err(|e| TransportError::Transient(format!("{}: {e}", dir.display())))
        });
        for (i, result) in results.into_iter().enumerate() {
            let transient = matches!(result, Err(TransportError::Transient(_)));
            if !done(i, result) || transient {
                return;
            }
        }
    }

    fn send(&mut self, name: &str, _: &str, _: &str, bytes: &[u8]) -> Result<(), TransportError> {
        super::maildir::deliver(&self.dir, name, bytes)
            .map_err(|e| TransportError::Transient(format!("{}: {e}", self.dir.display())))
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn detached(
        &self,
    ) -> Option<std::sync::Arc<dyn Fn(&Mail) -> Result<(), TransportError> + Send + Sync>> {
        let dir = self.dir.clone();
        Some(std::sync::Arc::new(move |m: &Mail| {
            super::maildir::deliver_mail(&dir, m)
                .map_err(|e| TransportError::Transient(format!("{}: {e}", dir.display())))
        }))
    }
}
