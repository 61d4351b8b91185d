//! The judge service: mail in, commands, authentication, phases, deadlines, defaults
//! for missing orders, moderator actions, history, replies out. No sockets here: mail
//! arrives as bytes from a transport, replies leave through the outbox.
//!
//! Exactly once: a mail is stored raw before anything is done with it; its effects
//! (the game record, the adjudication marker, history, the replies to send) are then
//! committed in one atomic batch together with the mark that the mail is done. Replies
//! are sent from the outbox after the commit, under stable names, so a restart resends
//! what was not sent and never duplicates what was. Each (game, turn, phase) has an
//! adjudication marker: a phase whose marker exists is never adjudicated again.

pub mod clock;
pub mod command;
mod intake;
mod moderator;
pub mod outbox;
mod phases;
mod player;
mod queries;
pub mod record;
mod replies;
mod sending;

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use crate::config::{Config, GameConfig, Transport};
use crate::mail::imap::ImapInbox;
use crate::mail::incoming::{self, Incoming};
use crate::mail::maildir;
use crate::mail::outgoing::Outgoing;
use crate::mail::smtp::SmtpOutbox;
use crate::mail::transport::Mail;
use crate::mail::transport::{Inbox, MaildirInbox, MaildirOutbox, Outbox, TransportError, Waiting};
use crate::password;
use crate::report::{TemplateError, Templates};
use crate::rules::game::{Game, Viewer};
use crate::store::{Batch, Store, StoreError};
use clock::Clock;
use command::Command;
use outbox::Queued;
use record::{adjudicated_key, game_key, history_key, HistoryEntry, Record, Submission};

#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error("mail folder {path}: {source}")]
    Maildir {
        path: String,
        source: std::io::Error,
    },
    #[error("stopped at {0:?} (an injected crash)")]
    Crash(CrashPoint),
    #[error("{0}")]
    Setup(String),
}

/// Where a test may make a pass stop, as if the process had been killed there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrashPoint {
    /// The raw mail is stored; nothing acted on.
    AfterRawStored,
    /// The mail's effects are committed; the mail is not yet marked seen.
    AfterCommit,
    /// A reply is committed to the outbox and about to be handed to the transport.
    BeforeSend,
    /// A reply was handed to the transport but not removed from the outbox.
    AfterSend,
}

impl CrashPoint {
    pub fn from_id(id: &str) -> Option<CrashPoint> {
        match id {
            "after-raw" => Some(CrashPoint::AfterRawStored),
            "after-commit" => Some(CrashPoint::AfterCommit),
            "before-send" => Some(CrashPoint::BeforeSend),
            "after-send" => Some(CrashPoint::AfterSend),
            _ => None,
        }
    }
}

/// What one pass did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PassReport {
    pub mails_read: usize,
    pub phases_adjudicated: usize,
    pub replies_sent: usize,
    /// Mail servers out of reach, replies refused: the pass went on without them.
    pub errors: Vec<String>,
}

/// How many accepted replies are recorded together where resending is harmless.
const SENT_RECORD_EVERY: usize = 256;
/// … and where a resend duplicates a mail (SMTP): a crash may resend up to this many.
const SMTP_RECORD_EVERY: usize = 8;
/// Replies handed to the transport together.
const SEND_CHUNK: usize = 16;

/// Effects being gathered for one atomic commit.
struct Effects {
    batch: Batch,
    outbox: Vec<Outgoing>,
    /// Records changed so far in this commit (read back before the store).
    records: BTreeMap<String, Record>,
    adjudicated: Vec<String>,
    /// Keys written in this group that later mails of it must see.
    flags: BTreeMap<String, String>,
    history: Vec<(String, HistoryEntry)>,
}

pub struct Judge<'c> {
    pub config: &'c Config,
    store: Store,
    clock: &'c dyn Clock,
    passwords: password::Checker,
    templates: Templates,
    /// Fault injection for restart tests: where, and how many times to pass it first.
    crash_at: Option<CrashPoint>,
    crash_countdown: std::cell::Cell<usize>,
    /// Die at the crash point (as if killed) instead of returning an error.
    crash_aborts: bool,
    /// Mails committed together (one write to disk per group).
    group_size: usize,
    inbox: std::cell::RefCell<Box<dyn Inbox>>,
    outbox: std::cell::RefCell<Box<dyn Outbox>>,
}

impl<'c> Judge<'c> {
    pub fn open(config: &'c Config, clock: &'c dyn Clock) -> Result<Judge<'c>, JudgeError> {
        let store = Store::open(&config.judge.store)?;
        let templates = Templates::load(config.judge.templates.as_deref())?;
        let (inbox, outbox): (Box<dyn Inbox>, Box<dyn Outbox>) = match &config.transport {
            Transport::Maildir { inbox, outbox } => {
                for dir in [inbox, outbox] {
                    maildir::create(dir).map_err(|source| JudgeError::Maildir {
                        path: dir.display().to_string(),
                        source,
                    })?;
                }
                (
                    Box::new(MaildirInbox { dir: inbox.clone() }),
                    Box::new(MaildirOutbox {
                        dir: outbox.clone(),
                    }),
                )
            }
            Transport::Imap {
                imap,
                mailbox,
                smtp,
            } => (
                Box::new(ImapInbox::new((**imap).clone(), mailbox.clone())),
                Box::new(SmtpOutbox::new(smtp).map_err(JudgeError::Setup)?),
            ),
        };
        let judge = Judge {
            inbox: std::cell::RefCell::new(inbox),
            outbox: std::cell::RefCell::new(outbox),
            config,
            store,
            clock,
            passwords: password::Checker::default(),
            templates,
            crash_at: None,
            crash_countdown: std::cell::Cell::new(0),
            crash_aborts: false,
            group_size: config.judge.batch,
        };
        judge.ensure_games()?;
        Ok(judge)
    }

    /// How many mails are committed together (default 256).
    pub fn set_group_size(&mut self, n: usize) {
        self.group_size = n.max(1);
    }

    /// Makes the pass stop at the `skip`+1-th time it reaches `at`.
    pub fn crash_at(&mut self, at: CrashPoint, skip: usize) {
        self.crash_at = Some(at);
        self.crash_countdown.set(skip);
    }

    /// Like [`Judge::crash_at`], but the process dies there at once, with no cleanup,
    /// as under SIGKILL (`pbem serve` with `PBEM_CRASH=<point>:<n>`, for tests).
    pub fn abort_at(&mut self, at: CrashPoint, skip: usize) {
        self.crash_at(at, skip);
        self.crash_aborts = true;
    }

    fn crash(&self, at: CrashPoint) -> Result<(), JudgeError> {
        if self.crash_at == Some(at) {
            let left = self.crash_countdown.get();
            if left == 0 {
                if self.crash_aborts {
                    std::process::abort();
                }
                return Err(JudgeError::Crash(at));
            }
            self.crash_countdown.set(left - 1);
        }
        Ok(())
    }

    /// One pass: create new games, read every waiting mail, act on deadlines and
    /// reminders, send the replies.
    pub fn poll_once(&self) -> Result<PassReport, JudgeError> {
        let mut report = PassReport::default();
        self.ensure_games()?;
        report.replies_sent += self.send_outbox(&mut report)?;
        // A mailbox out of reach is reported, and the pass goes on: deadlines are kept
        // and replies sent whatever the inbox does.
        let waiting = match self.inbox.borrow_mut().fetch(&self.store) {
            Ok(w) => w,
            Err(e) => {
                report.errors.push(format!("reading mail: {e}"));
                Vec::new()
            }
        };
        for group in waiting.chunks(self.group_size.max(1)) {
            report.phases_adjudicated += self.handle_group(group, &mut report)?;
            report.mails_read += group.len();
        }
        report.phases_adjudicated += self.tick()?;
        report.replies_sent += self.send_outbox(&mut report)?;
        Ok(report)
    }

    /// Waits up to `timeout` for new mail (IMAP IDLE; a sleep for Maildir). A mail
    /// server out of reach is waited for the whole timeout, so the daemon does not spin.
    pub fn wait(&self, timeout: std::time::Duration) -> Result<(), String> {
        let start = std::time::Instant::now();
        let result = self.inbox.borrow_mut().wait(&self.store, timeout);
        if let Err(e) = result {
            if let Some(left) = timeout.checked_sub(start.elapsed()) {
                std::thread::sleep(left);
            }
            return Err(e.to_string());
        }
        Ok(())
    }

    /// The stored record of a game.
    pub fn record(&self, id: &str) -> Result<Option<Record>, JudgeError> {
        Ok(self.store.get(&game_key(id))?)
    }

    fn ensure_games(&self) -> Result<(), JudgeError> {
        let now = self.clock.now();
        for gc in &self.config.games {
            if self.store.contains(&game_key(&gc.id))? {
                continue;
            }
            let game = Game::new(gc.rules, &gc.options, gc.start.as_ref(), gc.seed)
                .expect("checked when the configuration was read");
            let phase = game.label().phase;
            let record = Record {
                game,
                deadline: Some(now + gc.phase_length(phase)),
                paused: None,
                submissions: BTreeMap::new(),
                addresses: gc
                    .players
                    .iter()
                    .map(|p| (p.power.clone(), p.address.clone()))
                    .collect(),
            };
            let mut fx = self.effects();
            fx.records.insert(gc.id.clone(), record);
            // A phase nobody owes (a solo Imperium's turn) is played at once.
            self.advance(gc, &mut fx, false)?;
            self.commit(fx)?;
        }
        Ok(())
    }

    fn effects(&self) -> Effects {
        Effects {
            batch: Batch::default(),
            outbox: Vec::new(),
            records: BTreeMap::new(),
            adjudicated: Vec::new(),
            flags: BTreeMap::new(),
            history: Vec::new(),
        }
    }

    fn load(&self, fx: &mut Effects, id: &str) -> Result<Record, JudgeError> {
        if let Some(r) = fx.records.get(id) {
            return Ok(r.clone());
        }
        Ok(self
            .store
            .get(&game_key(id))?
            .expect("configured games have records"))
    }

    fn commit(&self, mut fx: Effects) -> Result<(), JudgeError> {
        for (id, record) in &fx.records {
            fx.batch.put(&game_key(id), record);
        }
        for mail in fx.outbox {
            let seq = self.store.next_id()?;
            let key = format!("{}{seq:020}-{}", outbox::WAITING, mail.message_id);
            fx.batch.put(&key, &Queued::new(mail));
        }
        self.store.commit(fx.batch)?;
        for (id, record) in &fx.records {
            self.write_snapshot(id, record);
        }
        Ok(())
    }

    /// Writes a game's record beside the store, for `pbem game show` while the judge
    /// runs (sled lets one process open the store). Best effort: the store is the
    /// truth, and a failed snapshot is only logged.
    fn write_snapshot(&self, id: &str, record: &Record) {
        let dir = snapshot_dir(&self.config.judge.store);
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(&dir)?;
            let tmp = dir.join(format!("{id}.json.tmp"));
            std::fs::write(&tmp, serde_json::to_vec_pretty(record).expect("JSON"))?;
            std::fs::rename(tmp, dir.join(format!("{id}.json")))
        };
        if let Err(e) = write() {
            tracing::warn!(game = id, error = %e, "snapshot not written");
        }
    }

    /// Renders a template and queues it as the answer to `mail`, threaded to it.
    fn answer<S: Serialize>(
        &self,
        fx: &mut Effects,
        mail: &Incoming,
        subject: String,
        template: &str,
        view: &S,
    ) -> Result<(), JudgeError> {
        let body = self.templates.render(template, view)?;
        fx.outbox
            .push(self.mail(&mail.from, subject, body, Some(mail)));
        Ok(())
    }

    fn mail(
        &self,
        to: &str,
        subject: String,
        body: String,
        reply_to: Option<&Incoming>,
    ) -> Outgoing {
        let id = self.store.next_id().unwrap_or(0);
        let now = self.clock.now();
        Outgoing {
            message_id: format!(
                "pbem-{:012}-{id:012}@{}",
                now.timestamp(),
                self.config
                    .judge
                    .address
                    .split('@')
                    .nth(1)
                    .unwrap_or("localhost")
            ),
            to: to.into(),
            subject,
            body,
            in_reply_to: reply_to.and_then(|m| m.message_id.clone()),
            date: now.to_rfc2822(),
            attachment: None,
            html: None,
            picture: None,
        }
    }
}

/// The folder of the game snapshots of a store.
pub fn snapshot_dir(store: &Path) -> std::path::PathBuf {
    let mut name = store.file_name().unwrap_or_default().to_os_string();
    name.push(".snapshots");
    store.with_file_name(name)
}

/// A deadline: RFC 3339, or relative to now (`+36h`, `+2d`).
pub fn parse_when(text: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    if text.starts_with('+') {
        return crate::config::parse_duration(text).map(|d| now + d);
    }
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}
