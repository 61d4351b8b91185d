//! The transport boundary: where mail comes from and where replies go. The judge knows
//! only these two traits; Maildir folders, IMAP and SMTP implement them.

use crate::store::Store;

/// A mail waiting to be read, with the token its inbox needs to mark it done.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub token: String,
    pub raw: Vec<u8>,
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

    /// Whether sending the same mail (same `name`) twice delivers it once. Where not,
    /// the judge records each acceptance at once, so a crash resends at most one mail.
    fn idempotent(&self) -> bool {
        false
    }
}

/// Maildir folders (the embedded default).
pub struct MaildirInbox {
    pub dir: std::path::PathBuf,
}

impl Inbox for MaildirInbox {
    fn fetch(&mut self, _: &Store) -> Result<Vec<Waiting>, TransportError> {
        let paths = super::maildir::waiting(&self.dir)
            .map_err(|e| TransportError::Transient(format!("{}: {e}", self.dir.display())))?;
        crate::parallel::map(&paths, |path| {
            let raw = std::fs::read(path)
                .map_err(|e| TransportError::Transient(format!("{}: {e}", path.display())))?;
            Ok(Waiting {
                token: path.display().to_string(),
                raw,
            })
        })
        .into_iter()
        .collect()
    }

    fn done(
        &mut self,
        _: &Store,
        tokens: &[String],
        _failed: &[String],
    ) -> Result<(), TransportError> {
        crate::parallel::map(tokens, |token| {
            let path = std::path::Path::new(token);
            // A mail already gone (moved by another reader) is done as well.
            match super::maildir::mark_seen(&self.dir, path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound || path.exists() => {
                    Err(TransportError::Transient(format!("{token}: {e}")))
                }
                _ => Ok(()),
            }
        })
        .into_iter()
        .collect()
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
            super::maildir::deliver(dir, &m.name, &m.bytes)
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
}
