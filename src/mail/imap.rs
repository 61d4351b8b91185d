//! IMAP in (the `imap` crate, 3.x, over rustls from [`super::tls`]): exactly-once
//! intake.
//!
//! The inbox remembers, in the store, the mailbox's UIDVALIDITY and the last UID it
//! handled; it fetches with `BODY.PEEK[]` (which leaves `\Seen` alone) the unseen mails
//! above that UID, and flags them `\Seen` only after their effects are committed. When
//! UIDVALIDITY changes (the mailbox was recreated), it falls back on all unseen mail,
//! and the judge's record of every processed Message-ID keeps each mail's effect single.
//! A lost connection is dropped and made again on the next call.

use std::net::TcpStream;

use serde::{Deserialize, Serialize};

use super::tls::TlsStream;
use super::transport::{Inbox, TransportError, Waiting};
use crate::config::{MailServer, TlsMode};
use crate::store::Store;

enum Session {
    Plain(imap::Session<TcpStream>),
    Tls(Box<imap::Session<TlsStream>>),
}

macro_rules! with_session {
    ($s:expr, $x:ident => $body:expr) => {
        match $s {
            Session::Plain($x) => $body,
            Session::Tls($x) => $body,
        }
    };
}

#[derive(Serialize, Deserialize, Default, Debug, Clone, PartialEq, Eq)]
struct Checkpoint {
    uid_validity: u32,
    last_uid: u32,
}

pub struct ImapInbox {
    server: MailServer,
    mailbox: String,
    session: Option<Session>,
    uid_validity: u32,
    /// Mails the next fetch takes at most.
    round: usize,
}

fn transient(e: impl std::fmt::Display) -> TransportError {
    TransportError::Transient(format!("IMAP: {e}"))
}

impl ImapInbox {
    pub fn new(server: MailServer, mailbox: String) -> ImapInbox {
        ImapInbox {
            server,
            mailbox,
            session: None,
            uid_validity: 0,
            round: FIRST_ROUND,
        }
    }

    fn key(&self) -> String {
        format!(
            "v1/imap/{}/{}/{}",
            self.server.host, self.server.user, self.mailbox
        )
    }

    fn connect(&mut self) -> Result<&mut Session, TransportError> {
        if self.session.is_none() {
            let s = &self.server;
            let password = s.password().map_err(transient)?;
            let session = match s.tls {
                TlsMode::None => {
                    let stream =
                        TcpStream::connect((s.host.as_str(), s.port)).map_err(transient)?;
                    let mut client = imap::Client::new(stream);
                    client.read_greeting().map_err(transient)?;
                    Session::Plain(
                        client
                            .login(&s.user, &password)
                            .map_err(|(e, _)| transient(e))?,
                    )
                }
                TlsMode::StartTls | TlsMode::Tls => {
                    let config = super::tls::client_config(s).map_err(transient)?;
                    let tcp = TcpStream::connect((s.host.as_str(), s.port)).map_err(transient)?;
                    let tcp = if s.tls == TlsMode::StartTls {
                        let mut tcp = tcp;
                        starttls(&mut tcp).map_err(transient)?;
                        tcp
                    } else {
                        tcp
                    };
                    let stream = TlsStream::connect(config, &s.host, tcp).map_err(transient)?;
                    let mut client = imap::Client::new(stream);
                    if s.tls == TlsMode::Tls {
                        client.read_greeting().map_err(transient)?;
                    }
                    Session::Tls(Box::new(
                        client
                            .login(&s.user, &password)
                            .map_err(|(e, _)| transient(e))?,
                    ))
                }
            };
            self.session = Some(session);
        }
        Ok(self.session.as_mut().expect("just made"))
    }

    /// Runs `f` on a live session; on any error the session is dropped, so the next
    /// call connects anew. The `imap` crate (2.x) panics on some server answers it does
    /// not expect (an untagged `NO` to SELECT, which Dovecot sends when it cannot sync
    /// a mailbox): such a panic is contained here and treated as a lost connection.
    fn with<T>(
        &mut self,
        f: impl FnOnce(&mut Session, &str) -> Result<T, TransportError>,
    ) -> Result<T, TransportError> {
        let mailbox = self.mailbox.clone();
        let session = self.connect()?;
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(session, &mailbox)))
                .unwrap_or_else(|_| {
                    Err(TransportError::Transient(
                        "IMAP: the server's answer could not be read".into(),
                    ))
                });
        if result.is_err() {
            self.session = None;
        }
        result
    }
}

/// Mails fetched in the first round of a burst; each full round doubles the next, up
/// to [`MAX_ROUND`].
const FIRST_ROUND: usize = 32;
const MAX_ROUND: usize = 256;

impl Inbox for ImapInbox {
    fn round_limit(&self) -> Option<usize> {
        Some(self.round)
    }

    fn fetch(&mut self, store: &Store) -> Result<Vec<Waiting>, TransportError> {
        let key = self.key();
        let checkpoint: Checkpoint = store.get(&key).map_err(transient)?.unwrap_or_default();
        let round = self.round;
        let (validity, mut mails) = self.with(|session, mailbox| {
            with_session!(session, s => {
                let selected = s.select(mailbox).map_err(transient)?;
                let validity = selected.uid_validity.unwrap_or(0);
                let query = if validity == checkpoint.uid_validity && checkpoint.last_uid > 0 {
                    format!("UID {}:* UNSEEN", checkpoint.last_uid + 1)
                } else {
                    "UNSEEN".to_string()
                };
                let mut uids: Vec<u32> = s.uid_search(query).map_err(transient)?.into_iter().collect();
                uids.sort_unstable();
                // `UID n:*` matches the highest UID even when it is below n.
                uids.retain(|&u| validity != checkpoint.uid_validity || u > checkpoint.last_uid);
                // The oldest first, a round at a time: the judge answers them (and the
                // servers deliver the answers) while the next round waits.
                uids.truncate(round);
                let mut mails = Vec::new();
                for chunk in uids.chunks(200) {
                    let set: Vec<String> = chunk.iter().map(u32::to_string).collect();
                    let fetched = s.uid_fetch(set.join(","), "(UID INTERNALDATE BODY.PEEK[])").map_err(transient)?;
                    for f in fetched.iter() {
                        if let (Some(uid), Some(body)) = (f.uid, f.body()) {
                            let received = f.internal_date().map(|d| d.with_timezone(&chrono::Utc));
                            mails.push(Waiting { token: uid.to_string(), raw: body.to_vec(), received });
                        }
                    }
                }
                Ok((validity, mails))
            })
        })?;
        self.uid_validity = validity;
        // A full round: more wait, the next round is larger; else the next burst starts
        // small again, so its first answers go out soon.
        self.round = if mails.len() >= round {
            (round * 2).min(MAX_ROUND)
        } else {
            FIRST_ROUND
        };
        mails.sort_by_key(|m| m.token.parse::<u32>().unwrap_or(0));
        Ok(mails)
    }

    /// IDLE (RFC 2177) until the mailbox changes or `timeout` passes; Dovecot tells of
    /// new mail about half a second after delivery. Mail that came since the last fetch
    /// (before IDLE began) is looked for first, so it does not wait for the timeout.
    fn wait(&mut self, store: &Store, timeout: std::time::Duration) -> Result<(), TransportError> {
        let checkpoint: Checkpoint = store
            .get(&self.key())
            .map_err(transient)?
            .unwrap_or_default();
        self.with(|session, mailbox| {
            with_session!(session, s => {
                let selected = s.select(mailbox).map_err(transient)?;
                let same = selected.uid_validity.unwrap_or(0) == checkpoint.uid_validity;
                let unseen = s.uid_search("UNSEEN").map_err(transient)?;
                if unseen.iter().any(|&u| !same || u > checkpoint.last_uid) {
                    return Ok(());
                }
                s.idle()
                    .timeout(timeout)
                    .keepalive(false)
                    .wait_while(imap::extensions::idle::stop_on_any)
                    .map_err(transient)?;
                Ok(())
            })
        })
    }

    fn done(
        &mut self,
        store: &Store,
        tokens: &[String],
        failed: &[String],
    ) -> Result<(), TransportError> {
        if tokens.is_empty() {
            return Ok(());
        }
        let set = tokens.join(",");
        self.with(|session, _| {
            with_session!(session, s => {
                s.uid_store(&set, "+FLAGS (\\Seen)").map_err(transient)?;
                Ok(())
            })
        })?;
        let mut last = tokens
            .iter()
            .filter_map(|t| t.parse::<u32>().ok())
            .max()
            .unwrap_or(0);
        // The next fetch starts above the checkpoint: keep it below a mail to retry.
        if let Some(first_failed) = failed.iter().filter_map(|t| t.parse::<u32>().ok()).min() {
            last = last.min(first_failed.saturating_sub(1));
        }
        let key = self.key();
        let mut checkpoint: Checkpoint = store.get(&key).map_err(transient)?.unwrap_or_default();
        if checkpoint.uid_validity != self.uid_validity {
            checkpoint = Checkpoint {
                uid_validity: self.uid_validity,
                last_uid: 0,
            };
        }
        checkpoint.last_uid = checkpoint.last_uid.max(last);
        store.put_now(&key, &checkpoint).map_err(transient)
    }
}

/// The plain start of a STARTTLS connection (RFC 3501 6.2.1): the greeting, then
/// `STARTTLS` and its `OK`. Read a byte at a time, so nothing of the TLS handshake
/// that follows is taken from the socket.
fn starttls(tcp: &mut TcpStream) -> Result<(), String> {
    use std::io::{Read, Write};
    fn line(tcp: &mut TcpStream) -> Result<String, String> {
        let mut bytes = Vec::new();
        let mut b = [0u8; 1];
        while !bytes.ends_with(b"\r\n") {
            if bytes.len() > 8192 {
                return Err("an over-long line before STARTTLS".into());
            }
            match tcp.read(&mut b) {
                Ok(0) => return Err("the server closed the connection".into()),
                Ok(_) => bytes.push(b[0]),
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
    }
    let greeting = line(tcp)?;
    if !greeting.starts_with("* OK") {
        return Err(format!("unexpected greeting: {greeting}"));
    }
    tcp.write_all(b"s1 STARTTLS\r\n")
        .map_err(|e| e.to_string())?;
    loop {
        let answer = line(tcp)?;
        if let Some(rest) = answer.strip_prefix("s1 ") {
            return if rest.starts_with("OK") {
                Ok(())
            } else {
                Err(format!("STARTTLS refused: {rest}"))
            };
        }
    }
}
