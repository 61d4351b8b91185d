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

mod auth;
pub mod clock;
pub mod command;
mod community;
mod due;
mod games;
mod intake;
mod maintenance;
mod moderator;
pub mod outbox;
mod phases;
mod player;
mod queries;
pub mod record;
mod replies;
mod sending;
mod storing;
mod throttle;
mod unreadable;

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
use crate::rules::{LineCheck, PhaseLabel};
use crate::store::{Batch, Store, StoreError};
use clock::Clock;
use command::Command;
use outbox::Queued;
use phases::{deadline_after, Reader};
use record::{adjudicated_key, game_key, history_key, HistoryEntry, Record, Submission};
pub use storing::snapshot_dir;

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
    /// A fault of the program while handling one mail or one game (a panic, a
    /// template that does not render): that mail or game is set aside, the rest goes on.
    #[error("fault: {0}")]
    Fault(String),
    /// A game's stored record cannot be read (damaged, or written by a pbem that
    /// stores games differently): that game waits for its moderators, the rest goes on.
    #[error("game {game}: its record cannot be read ({why})")]
    Unreadable { game: String, why: String },
}

impl JudgeError {
    /// Whether the error concerns one mail or game only (the pass goes on without it),
    /// rather than the judge as a whole (the store, an injected crash).
    fn is_local(&self) -> bool {
        matches!(
            self,
            JudgeError::Fault(_) | JudgeError::Template(_) | JudgeError::Unreadable { .. }
        )
    }
}

/// A panic's message.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic".into())
}

/// Attempts at one mail, or at one game's deadline, before it is set aside.
pub const MAX_ATTEMPTS: u32 = 3;

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
    /// Acting on a mail never ends (for the time-budget test): the watchdog of
    /// `pbem serve` must end the process.
    Hang,
    /// Acting on a mail fails (a fault of the program, for the poison-mail test).
    Fail,
    /// Adjudicating a phase fails (a fault of a rule set, for the suspension test).
    FailAdjudication,
}

impl CrashPoint {
    pub fn from_id(id: &str) -> Option<CrashPoint> {
        match id {
            "after-raw" => Some(CrashPoint::AfterRawStored),
            "after-commit" => Some(CrashPoint::AfterCommit),
            "before-send" => Some(CrashPoint::BeforeSend),
            "after-send" => Some(CrashPoint::AfterSend),
            "hang" => Some(CrashPoint::Hang),
            "fail" => Some(CrashPoint::Fail),
            "fail-adjudication" => Some(CrashPoint::FailAdjudication),
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
    /// Games whose deadline or reminder was due (the others were not looked at).
    pub games_due: usize,
    /// A deadline or reminder came due after the pass began reading its last mails:
    /// it is kept by the next pass, which should come at once.
    pub due_again: bool,
    /// Mail servers out of reach, replies refused: the pass went on without them.
    pub errors: Vec<String>,
}

/// No mail the judge sends is larger than this, encoded (well under the 10 MB many
/// servers accept): its text is cut at [`MAX_BODY_BYTES`], an attachment at
/// [`MAX_ATTACHMENT_BYTES`].
pub const MAX_MAIL_BYTES: usize = 1024 * 1024;
/// The longest text of a mail the judge sends.
pub const MAX_BODY_BYTES: usize = 256 * 1024;
/// The largest attachment (`results.json`) of a mail the judge sends.
pub const MAX_ATTACHMENT_BYTES: usize = 384 * 1024;
/// The most a mail's text, HTML version, picture and attachment may weigh together
/// (before encoding) for the mail to carry its HTML version and picture; a heavier
/// mail goes as text (and attachment) only, which [`MAX_MAIL_BYTES`] always holds.
pub const MAX_RICH_MAIL_BYTES: usize = 640 * 1024;

/// A mail made to fit [`MAX_MAIL_BYTES`]: text cut with a note, an over-large
/// attachment replaced by a note (the whole results stay in the store, for HISTORY and
/// `pbem game show`), the HTML version and picture left out of a mail whose text was
/// cut or that would weigh more than [`MAX_RICH_MAIL_BYTES`] with them.
fn bounded(mut mail: Outgoing) -> Outgoing {
    let rich = mail.html.as_ref().map_or(0, String::len)
        + mail.picture.as_ref().map_or(0, |p| p.png.len());
    let attached = mail.attachment.as_ref().map_or(0, |(_, c)| c.len());
    if rich > 0
        && (mail.body.len() > MAX_BODY_BYTES
            || mail.body.len() + rich + attached > MAX_RICH_MAIL_BYTES)
    {
        mail.html = None;
        mail.picture = None;
    }
    if mail.body.len() > MAX_BODY_BYTES {
        let mut cut = MAX_BODY_BYTES - 200;
        while !mail.body.is_char_boundary(cut) {
            cut -= 1;
        }
        mail.body.truncate(cut);
        mail.body.push_str(
            "\n\n[... the rest of this mail was cut: it was over the judge's size limit]\n",
        );
    }
    if let Some((name, content)) = &mut mail.attachment {
        if content.len() > MAX_ATTACHMENT_BYTES {
            *content = serde_json::json!({
                "cut": format!("{name} was {} bytes, over the judge's limit of {MAX_ATTACHMENT_BYTES}", content.len()),
            })
            .to_string();
        }
    }
    mail
}

/// How many accepted replies are recorded together where resending is harmless.
const SENT_RECORD_EVERY: usize = 256;
/// … and where a resend duplicates a mail (SMTP): a crash may resend up to this many.
const SMTP_RECORD_EVERY: usize = 8;
/// Replies handed to the transport together.
const SEND_CHUNK: usize = 64;

/// A game's phase and the powers owing orders in it, by the phases it has played.
type KnownPhase = (u64, PhaseLabel, Vec<String>);

/// Effects being gathered for one atomic commit.
struct Effects {
    batch: Batch,
    outbox: Vec<Outgoing>,
    /// Records changed so far in this commit (read back before the store).
    records: BTreeMap<String, Record>,
    /// Records read from the store in this commit and not changed (read once).
    read: std::cell::RefCell<BTreeMap<String, std::rc::Rc<Record>>>,
    /// Each game's phase and the powers owing orders, by the number of phases it has
    /// played (only adjudication changes a game, and it counts).
    phases: std::cell::RefCell<std::collections::HashMap<String, KnownPhase>>,
    adjudicated: Vec<String>,
    /// Keys written in this group that later mails of it must see.
    flags: BTreeMap<String, String>,
    history: Vec<(String, HistoryEntry)>,
    /// Games' new `v1/due-at/` values in this commit (known in memory once committed).
    due_at: Vec<(String, String)>,
    /// (stored hash, password) pairs found wrong while this group's passwords were
    /// checked side by side (see `read_ahead`): not checked again in this commit.
    wrong_passwords: std::cell::RefCell<std::collections::HashSet<(String, String)>>,
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
    /// When the mail or game being handled now was started (Unix seconds; 0 when
    /// idle), for the watchdog of `pbem serve`.
    busy_since: std::sync::Arc<std::sync::atomic::AtomicI64>,
    /// The configured games that have a record in the store (so a pass need not ask
    /// the store about every game).
    known: std::cell::RefCell<std::collections::HashSet<String>>,
    /// `pbem reload` asked for `games.toml` to be read again.
    reload: std::cell::Cell<bool>,
    /// Replies being written by a thread of their own (see `sending`).
    in_flight: std::cell::RefCell<Option<sending::InFlight>>,
    /// Each game's `v1/due-at/` value as in the store (read once when it is opened).
    due_at: std::cell::RefCell<std::collections::HashMap<String, String>>,
    /// Game snapshots being written by a thread of their own.
    snapshots: std::cell::RefCell<Option<std::thread::JoinHandle<()>>>,
    /// Outbox entries numbered above this were made by this judge since it started…
    outbox_floor: u64,
    /// … and these of them were handed over and their acceptance not yet recorded:
    /// the others were never handed over (see `Mail::fresh`).
    handed: std::cell::RefCell<std::collections::HashSet<String>>,
    /// Due games whose record could not be read, told in a pass's errors once for the
    /// life of the process (not on every pass while they wait).
    unreadable_reported: std::cell::RefCell<std::collections::HashSet<String>>,
    /// The build named in the history of each phase this judge adjudicates
    /// ([`crate::BUILD`]; another only in tests of an upgrade, [`Judge::adjudicate_as`]).
    build: String,
}

impl Drop for Judge<'_> {
    fn drop(&mut self) {
        self.abandon_in_flight();
        self.settle_snapshots();
    }
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
                    Box::new(MaildirInbox::new(inbox.clone())),
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
        // Above every reply already waiting (a restored store may hold replies numbered
        // above its counter).
        let outbox_floor = store
            .keys_between(outbox::WAITING, &format!("{}~", outbox::WAITING))?
            .iter()
            .filter_map(|k| {
                k.strip_prefix(outbox::WAITING)?
                    .get(..20)?
                    .parse::<u64>()
                    .ok()
            })
            .max()
            .unwrap_or(0)
            .max(store.next_id()?);
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
            busy_since: Default::default(),
            known: Default::default(),
            reload: Default::default(),
            in_flight: Default::default(),
            snapshots: Default::default(),
            due_at: Default::default(),
            outbox_floor,
            handed: Default::default(),
            unreadable_reported: Default::default(),
            build: crate::BUILD.to_string(),
        };
        *judge.known.borrow_mut() = judge.build_due_index()?;
        judge.ensure_games()?;
        judge.settle_snapshots();
        Ok(judge)
    }

    /// Reads mail from `inbox` instead of the one games.toml names (a program that
    /// embeds the judge with a transport of its own; the tests' mailbox that takes a
    /// mail while the judge reads it).
    pub fn set_inbox(&mut self, inbox: Box<dyn Inbox>) {
        self.inbox = std::cell::RefCell::new(inbox);
    }

    /// How many mails are committed together (default 256).
    pub fn set_group_size(&mut self, n: usize) {
        self.group_size = n.max(1);
    }

    /// Names `build` instead of this one in the history of the phases this judge
    /// adjudicates: a drill of an upgrade (a store played on by two builds) for tests.
    pub fn adjudicate_as(&mut self, build: &str) {
        self.build = build.to_string();
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
                match at {
                    CrashPoint::Hang => loop {
                        std::thread::park();
                    },
                    CrashPoint::Fail => panic!("an injected fault"),
                    CrashPoint::FailAdjudication => {
                        // Once: the next game's adjudication goes well.
                        self.crash_countdown.set(usize::MAX);
                        panic!("an injected fault")
                    }
                    _ => {}
                }
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
        let _pass = crate::timing::span("other (the pass's own work)");
        let mut report = PassReport::default();
        self.ensure_games()?;
        report.replies_sent += self.send_outbox(&mut report)?;
        // An inbox that hands out mail in rounds (IMAP) is read round after round; the
        // replies go out group by group, so the mail servers deliver the first while
        // the judge reads on.
        let mut first_of_round: Option<String> = None;
        // When the last look at the mailbox began: what came after it is read by the
        // next pass, so deadlines are kept as of then (see `tick`).
        let mut read_at;
        loop {
            read_at = self.clock.now();
            let limit = self.inbox.borrow().round_limit();
            // A mailbox out of reach is reported, and the pass goes on: deadlines are
            // kept and replies sent whatever the inbox does.
            let started = std::time::Instant::now();
            let fetched = {
                let _t = crate::timing::span("inbox read");
                self.inbox.borrow_mut().fetch(&self.store)
            };
            if let Ok(w) = &fetched {
                tracing::debug!(
                    mails = w.len(),
                    ms = started.elapsed().as_millis() as u64,
                    "fetched"
                );
            }
            let waiting = match fetched {
                Ok(w) => w,
                Err(e) => {
                    report.errors.push(format!("reading mail: {e}"));
                    Vec::new()
                }
            };
            // A round that starts where the last one did made no progress (its mails
            // failed, to be tried on the next pass): the pass goes on without them.
            let first = waiting.first().map(|w| w.token.clone());
            let more = limit.is_some_and(|l| waiting.len() >= l) && first != first_of_round;
            first_of_round = first;
            for group in waiting.chunks(self.group_size.max(1)) {
                let started = std::time::Instant::now();
                report.phases_adjudicated += self.handle_group(group, &mut report)?;
                report.mails_read += group.len();
                let handled = started.elapsed();
                // Written while the next group is read, where the transport allows.
                let sent = self.send_replies(&mut report, true)?;
                report.replies_sent += sent;
                tracing::debug!(
                    mails = group.len(),
                    handled_ms = handled.as_millis() as u64,
                    sent,
                    sent_ms = (started.elapsed() - handled).as_millis() as u64,
                    "group"
                );
            }
            if !more {
                break;
            }
        }
        if let Err(e) = self.inbox.borrow_mut().settle() {
            // Not fatal: the mails are fetched again and recognised as done.
            report.errors.push(format!("marking mail read: {e}"));
        }
        report.phases_adjudicated += {
            let _t = crate::timing::span("deadlines and reminders (tick)");
            self.tick(&mut report, read_at)?
        };
        // A deadline or reminder that came due while the mail was read is kept by a
        // pass that comes at once.
        report.due_again = self.came_due(read_at, self.clock.now())?;
        report.replies_sent += self.send_outbox(&mut report)?;
        self.settle_snapshots();
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

    /// When the unit of work under way began (Unix seconds, 0 when idle): a watchdog
    /// reads it from another thread.
    pub fn busy_since(&self) -> std::sync::Arc<std::sync::atomic::AtomicI64> {
        self.busy_since.clone()
    }

    /// Reports the work under way to this cell instead (one watchdog for judges opened
    /// one after another, as `serve` does on a reload).
    pub fn report_busy_to(&mut self, cell: std::sync::Arc<std::sync::atomic::AtomicI64>) {
        self.busy_since = cell;
    }

    /// Runs one unit of work (a mail, a game's deadline) with the watchdog told, a
    /// panic in it turned into an error.
    fn unit<T>(&self, f: impl FnOnce() -> Result<T, JudgeError>) -> Result<T, JudgeError> {
        use std::sync::atomic::Ordering;
        self.busy_since.store(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(1),
            Ordering::Relaxed,
        );
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
            .unwrap_or_else(|panic| Err(JudgeError::Fault(panic_text(&panic))));
        self.busy_since.store(0, Ordering::Relaxed);
        result
    }

    /// How many full password checks (Argon2) this judge has done.
    pub fn password_checks(&self) -> u64 {
        self.passwords.full_checks()
    }

    /// The stored record of a game ([`JudgeError::Unreadable`] if it cannot be read).
    pub fn record(&self, id: &str) -> Result<Option<Record>, JudgeError> {
        self.stored(id)
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
        let _t = crate::timing::span("act: mail ids");
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
            reply_to: None,
        }
    }
}

/// How far ahead a moderator may set a deadline (`DEADLINE`): a year.
pub const MAX_DEADLINE_AHEAD_DAYS: i64 = 366;

/// A deadline: RFC 3339, or relative to now (`+36h`, `+2d`); none for a time no
/// calendar holds.
pub fn parse_when(text: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    if text.starts_with('+') {
        return crate::config::parse_duration(text).and_then(|d| now.checked_add_signed(d));
    }
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::outgoing::Inline;

    fn rich_mail(body: usize, html: usize, png: usize, json: usize) -> Outgoing {
        Outgoing {
            message_id: "m@x".into(),
            to: "a@example.test".into(),
            subject: "s".into(),
            body: "b".repeat(body),
            in_reply_to: None,
            date: String::new(),
            attachment: Some(("results.json".into(), "j".repeat(json))),
            html: Some("h".repeat(html)),
            picture: Some(Inline {
                content_id: "c@pbem".into(),
                name: "board.png".into(),
                png: vec![7; png],
            }),
            reply_to: None,
        }
    }

    #[test]
    fn a_heavy_mail_goes_without_its_html_and_picture() {
        let light = bounded(rich_mail(4_000, 8_000, 60_000, 10_000));
        assert!(light.html.is_some() && light.picture.is_some());
        let heavy = bounded(rich_mail(
            200_000,
            220_000,
            60_000,
            MAX_ATTACHMENT_BYTES - 1,
        ));
        assert!(heavy.html.is_none() && heavy.picture.is_none());
        assert_eq!(heavy.attachment.unwrap().1.len(), MAX_ATTACHMENT_BYTES - 1);
        let cut = bounded(rich_mail(MAX_BODY_BYTES + 1, 10, 10, 10));
        assert!(cut.html.is_none() && cut.picture.is_none());
        assert!(cut.body.len() <= MAX_BODY_BYTES);
        let biggest = bounded(rich_mail(
            MAX_BODY_BYTES,
            MAX_RICH_MAIL_BYTES,
            1,
            MAX_ATTACHMENT_BYTES,
        ));
        assert!(biggest.to_bytes("J", "judge@example.test").len() < MAX_MAIL_BYTES);
        // The heaviest mail that keeps them still fits (a picture is base64 in mail).
        let k = MAX_RICH_MAIL_BYTES / 4;
        let kept = bounded(rich_mail(k, k, k, k));
        assert!(kept.picture.is_some());
        assert!(kept.to_bytes("J", "judge@example.test").len() < MAX_MAIL_BYTES);
    }
}
