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
pub mod outbox;
pub mod record;
mod replies;

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
use crate::rules::game::Game;
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

    /// Hands every committed reply due to the transport, and forgets those accepted.
    /// A reply refused for now waits with a growing delay (4 s, 8 s, … at most 10 min);
    /// one refused for good is kept under `v1/failed/` and reported.
    fn send_outbox(&self, report: &mut PassReport) -> Result<usize, JudgeError> {
        let now = self.clock.now();
        let pending: Vec<(String, Queued)> = self
            .store
            .scan::<Queued>(outbox::WAITING)?
            .into_iter()
            .filter(|(_, q)| q.next_try.is_none_or(|t| t <= now))
            .collect();
        if pending.is_empty() {
            return Ok(0);
        }
        let mails: Vec<Mail> = pending
            .iter()
            .map(|(_, q)| Mail {
                name: format!("{}.pbem", q.mail.message_id.replace(['/', '@'], "_")),
                from: self.config.judge.address.clone(),
                to: q.mail.to.clone(),
                bytes: q
                    .mail
                    .to_bytes(&self.config.judge.name, &self.config.judge.address),
            })
            .collect();
        let mut outbox = self.outbox.borrow_mut();
        let record_every = if outbox.idempotent() {
            SENT_RECORD_EVERY
        } else {
            SMTP_RECORD_EVERY
        };
        let mut done = Batch::default();
        let mut unrecorded = 0;
        let mut sent = 0;
        let mut failure: Result<(), JudgeError> = Ok(());
        // Replies go in chunks (each sent by several SMTP sessions at once); between
        // chunks the judge may be stopped with replies committed and not yet sent.
        for (c, chunk) in mails.chunks(SEND_CHUNK).enumerate() {
            self.crash(CrashPoint::BeforeSend)?;
            let base = c * SEND_CHUNK;
            let mut stopped = false;
            outbox.send_all(chunk, &mut |i, result| {
                let (key, q) = &pending[base + i];
                match result {
                    Ok(()) => {
                        if let Err(e) = self.crash(CrashPoint::AfterSend) {
                            failure = Err(e);
                            return false;
                        }
                        done.remove(key);
                        sent += 1;
                        unrecorded += 1;
                        // Acceptances are recorded in small groups: a crash can resend at
                        // most the replies accepted since the last record.
                        if unrecorded >= record_every {
                            unrecorded = 0;
                            if let Err(e) = self.store.commit(std::mem::take(&mut done)) {
                                failure = Err(e.into());
                                return false;
                            }
                        }
                    }
                    Err(TransportError::Permanent(e)) => {
                        report.errors.push(format!(
                            "reply to {} refused for good, set aside (pbem outbox): {e}",
                            q.mail.to
                        ));
                        let q = Queued {
                            attempts: q.attempts + 1,
                            last_error: Some(e),
                            ..q.clone()
                        };
                        done.put(&key.replacen(outbox::WAITING, outbox::FAILED, 1), &q);
                        done.remove(key);
                    }
                    Err(TransportError::Transient(e)) => {
                        report.errors.push(format!("sending replies: {e}"));
                        let mut q = q.clone();
                        q.attempts += 1;
                        q.last_error = Some(e);
                        let wait = 2i64.saturating_mul(1 << q.attempts.min(9)).min(600);
                        q.next_try = Some(now + Duration::seconds(wait));
                        done.put(key, &q);
                        stopped = true;
                    }
                }
                true
            });
            if stopped || failure.is_err() {
                break;
            }
        }
        failure?;
        self.store.commit(done)?;
        Ok(sent)
    }

    /// A group of waiting mails, each exactly once: their raw bytes stored in one
    /// batch, then all their effects, with the marks that they are done, in another;
    /// then the inbox is told they are handled. Returns the phases adjudicated.
    fn handle_group(
        &self,
        group: &[Waiting],
        report: &mut PassReport,
    ) -> Result<usize, JudgeError> {
        let mut mails = Vec::with_capacity(group.len());
        let mut raw_batch = Batch::default();
        let mut keys = std::collections::HashSet::new();
        for w in group {
            let mail = incoming::parse(&w.raw);
            let done = format!("v1/done/{}", mail.key);
            // A mail seen before (or twice in this group) has had its effects.
            if self.store.contains(&done)? || !keys.insert(mail.key.clone()) {
                continue;
            }
            raw_batch.put_raw(&format!("v1/raw/{}", mail.key), &w.raw);
            mails.push((mail, done));
        }
        let mut adjudicated = 0;
        if !mails.is_empty() {
            self.store.commit(raw_batch)?;
            self.crash(CrashPoint::AfterRawStored)?;
            let mut fx = self.effects();
            for (mail, done) in &mails {
                self.act(mail, &mut fx)?;
                fx.batch.put(done, &true);
            }
            adjudicated = fx.adjudicated.len();
            self.commit(fx)?;
            self.crash(CrashPoint::AfterCommit)?;
        }
        let tokens: Vec<String> = group.iter().map(|w| w.token.clone()).collect();
        if let Err(e) = self.inbox.borrow_mut().done(&self.store, &tokens) {
            // Not fatal: the mails are fetched again and recognised as done.
            report.errors.push(format!("marking mail read: {e}"));
        }
        Ok(adjudicated)
    }

    /// Deadlines and reminders of every game. Returns the phases adjudicated.
    fn tick(&self) -> Result<usize, JudgeError> {
        let now = self.clock.now();
        let mut count = 0;
        for gc in &self.config.games {
            let Some(record) = self.record(&gc.id)? else {
                continue;
            };
            let Some(deadline) = record.deadline else {
                continue;
            };
            let mut fx = self.effects();
            if now >= deadline {
                self.advance(gc, &mut fx, true)?;
            } else {
                self.remind(gc, &record, deadline, now, &mut fx)?;
            }
            count += fx.adjudicated.len();
            self.commit(fx)?;
        }
        Ok(count)
    }

    fn remind(
        &self,
        gc: &GameConfig,
        record: &Record,
        deadline: DateTime<Utc>,
        now: DateTime<Utc>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        for before in &gc.reminders {
            if now < deadline - *before {
                continue;
            }
            let key = format!(
                "v1/reminded/{}/{}/{}",
                gc.id,
                deadline.timestamp(),
                before.num_minutes()
            );
            if self.store.contains(&key)? {
                continue;
            }
            fx.batch.put(&key, &true);
            let label = record.game.label();
            for power in record.game.owing() {
                if record.submissions.contains_key(&power) {
                    continue;
                }
                let Some(address) = record.addresses.get(&power) else {
                    continue;
                };
                let view = replies::Reminder {
                    game: &gc.id,
                    power: &power,
                    turn: label.turn,
                    phase: label.phase,
                    deadline_utc: replies::utc(deadline),
                    deadline_local: replies::local(deadline, gc.time_zone),
                };
                let body = self.templates.render("reminder.txt", &view)?;
                let subject = format!(
                    "[{}] Reminder: turn {} {} orders",
                    gc.id, label.turn, label.phase
                );
                fx.outbox.push(self.mail(address, subject, body, None));
            }
        }
        Ok(())
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
        }
    }

    /// Adjudicates the current phase of a game while it can be: everyone owing orders
    /// has submitted and nobody asked to wait, nobody owes anything (a phase for the
    /// judge's own power), or `force` (deadline passed, FORCE) for the first phase.
    fn advance(
        &self,
        gc: &GameConfig,
        fx: &mut Effects,
        mut force: bool,
    ) -> Result<(), JudgeError> {
        loop {
            let mut record = self.load(fx, &gc.id)?;
            let label = record.game.label();
            if label.over || (record.paused.is_some() && !force) {
                return Ok(());
            }
            let owing = record.game.owing();
            let all_in = owing
                .iter()
                .all(|p| record.submissions.get(p).is_some_and(|s| !s.wait));
            if !(force || all_in) {
                return Ok(());
            }
            let marker = adjudicated_key(&gc.id, label.turn, label.phase);
            if self.store.contains(&marker)? || fx.adjudicated.contains(&marker) {
                // Adjudicated once already: never again.
                return Ok(());
            }
            let orders: BTreeMap<String, String> = owing
                .iter()
                .filter_map(|p| Some((p.clone(), record.submissions.get(p)?.orders.clone())))
                .collect();
            let adj = record.game.adjudicate(&orders, gc.seed);
            let now = self.clock.now();
            record.game = adj.game;
            record.submissions.clear();
            let next = record.game.label();
            record.deadline = if next.over {
                None
            } else {
                Some(now + gc.phase_length(next.phase))
            };
            if record.paused.is_some() {
                record.paused = Some(gc.phase_length(next.phase).num_seconds());
                record.deadline = None;
            }
            let mut json = adj.json;
            if let serde_json::Value::Object(map) = &mut json {
                map.insert("game".into(), gc.id.clone().into());
                map.insert("turn".into(), label.turn.into());
                map.insert("phase".into(), label.phase.into());
            }
            let entry = HistoryEntry {
                turn: label.turn,
                phase: label.phase.into(),
                json: json.clone(),
                view: adj.view.clone(),
            };
            fx.batch.put(&marker, &true);
            fx.batch
                .put(&history_key(&gc.id, label.turn, label.phase), &entry);
            fx.adjudicated.push(marker);
            self.results_mails(gc, &record, &entry, fx)?;
            fx.records.insert(gc.id.clone(), record);
            force = false;
        }
    }

    fn everyone(&self, gc: &GameConfig, record: &Record) -> Vec<String> {
        let mut all: Vec<String> = record.addresses.values().cloned().collect();
        all.extend(gc.moderators.iter().map(|m| m.address.clone()));
        all.sort();
        all.dedup();
        all
    }

    fn results_mails(
        &self,
        gc: &GameConfig,
        record: &Record,
        entry: &HistoryEntry,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let next = record.game.label();
        let view = replies::Results {
            game: &gc.id,
            turn: entry.turn,
            phase: &entry.phase,
            results: &entry.view["results"],
            events: &entry.view["events"],
            systems: &entry.view["systems"],
            board: record.game.board_text(),
            over: next.over,
            winners: record.game.winners(),
            next_turn: next.turn,
            next_phase: next.phase,
            owing: record.game.owing(),
            deadline_utc: record.deadline.map(replies::utc).unwrap_or_default(),
            deadline_local: record
                .deadline
                .map(|d| replies::local(d, gc.time_zone))
                .unwrap_or_default(),
        };
        let body = self.templates.render("results.txt", &view)?;
        let json = serde_json::to_string_pretty(&entry.json).expect("JSON");
        let subject = format!("[{}] Turn {} {} results", gc.id, entry.turn, entry.phase);
        for to in self.everyone(gc, record) {
            let mut mail = self.mail(&to, subject.clone(), body.clone(), None);
            mail.attachment = Some(("results.json".into(), json.clone()));
            fx.outbox.push(mail);
        }
        if next.over {
            let standings: Vec<(String, usize)> = {
                let systems = entry.view["systems"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let mut count: BTreeMap<String, usize> = BTreeMap::new();
                for s in systems {
                    if let Some(owner) = s.get(1).and_then(|o| o.as_str()) {
                        *count.entry(owner.to_string()).or_default() += 1;
                    }
                }
                let mut v: Vec<_> = count.into_iter().collect();
                v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                v
            };
            let view = replies::GameOver {
                game: &gc.id,
                turn: entry.turn,
                winners: record.game.winners(),
                standings,
            };
            let body = self.templates.render("game_over.txt", &view)?;
            for to in self.everyone(gc, record) {
                let subject = format!("[{}] Game over", gc.id);
                fx.outbox.push(self.mail(&to, subject, body.clone(), None));
            }
        }
        Ok(())
    }

    /// Everything one mail asks for. Silence for machine mail.
    fn act(&self, mail: &Incoming, fx: &mut Effects) -> Result<(), JudgeError> {
        if mail.automatic {
            return Ok(());
        }
        let parsed = command::parse(&mail.body);
        let game_id = parsed
            .game
            .clone()
            .or_else(|| subject_game(&mail.subject))
            .or_else(|| mail.to.iter().find_map(|a| plus_game(a)));
        let sender = mail.from.as_str();
        let Some(gc) = game_id.as_deref().and_then(|id| self.config.game(id)) else {
            let reason = match &game_id {
                Some(id) => format!("There is no game {id:?} here."),
                None => "The mail names no game: write GAME <id> on a line of its own.".into(),
            };
            return self.refuse_unknown(mail, game_id.as_deref(), &reason, fx);
        };
        let record = self.load(fx, &gc.id)?;
        let player = record
            .addresses
            .iter()
            .find(|(_, a)| a.as_str() == sender)
            .map(|(p, _)| p.clone());
        let moderator = gc.moderators.iter().find(|m| m.address == sender);
        let stored_hash = match (&player, moderator) {
            (Some(power), _) => gc
                .players
                .iter()
                .find(|p| &p.power == power)
                .map(|p| p.password.clone()),
            (None, Some(m)) => Some(m.password.clone()),
            (None, None) => None,
        };
        let Some(stored_hash) = stored_hash else {
            return self.refuse_unknown(
                mail,
                Some(&gc.id),
                &format!("{sender} is not a player or moderator of game {}.", gc.id),
                fx,
            );
        };
        let good = parsed
            .password
            .as_deref()
            .is_some_and(|p| self.passwords.verify(p, &stored_hash));
        if !good {
            let reason = if parsed.password.is_none() {
                "The mail has no PASSWORD line.".to_string()
            } else {
                "The password was wrong.".to_string()
            };
            // To the registered address: the sender may be a forger.
            let view = replies::Refusal {
                game: Some(&gc.id),
                sender,
                subject: &mail.subject,
                reason: &reason,
            };
            let body = self.templates.render("refusal.txt", &view)?;
            fx.outbox.push(self.mail(
                sender,
                format!("[{}] Mail refused", gc.id),
                body,
                Some(mail),
            ));
            return Ok(());
        }
        match player {
            Some(power) => self.act_as_player(gc, mail, &parsed, &power, fx),
            None => self.act_as_moderator(gc, mail, &parsed, fx),
        }
    }

    /// An unregistered sender, or an unknown game: answered at most once a day.
    fn refuse_unknown(
        &self,
        mail: &Incoming,
        game: Option<&str>,
        reason: &str,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let today = self.clock.now().format("%Y-%m-%d").to_string();
        let key = format!("v1/unregistered/{}", mail.from);
        let last = match fx.flags.get(&key) {
            Some(day) => Some(day.clone()),
            None => self.store.get::<String>(&key)?,
        };
        if last.as_deref() == Some(today.as_str()) {
            return Ok(());
        }
        fx.batch.put(&key, &today);
        fx.flags.insert(key, today.clone());
        let view = replies::Refusal {
            game,
            sender: &mail.from,
            subject: &mail.subject,
            reason,
        };
        let body = self.templates.render("refusal.txt", &view)?;
        fx.outbox
            .push(self.mail(&mail.from, "Mail not accepted".into(), body, Some(mail)));
        Ok(())
    }

    fn act_as_player(
        &self,
        gc: &GameConfig,
        mail: &Incoming,
        parsed: &command::Parsed,
        power: &str,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let mut record = self.load(fx, &gc.id)?;
        let mut notes = Vec::new();
        let mut lines = Vec::new();
        let owes = record.game.owing().iter().any(|p| p == power);
        let label = record.game.label();
        if let Some(orders) = &parsed.orders {
            if label.over {
                notes.push("The game is over: no more orders are taken.".to_string());
            } else if !owes {
                notes.push(format!(
                    "{power} owes no orders in this {} phase: nothing was kept.",
                    label.phase
                ));
            } else {
                lines = record.game.check(power, orders);
                let entry = record.submissions.entry(power.to_string()).or_default();
                entry.orders = orders.clone();
                entry.ready = false;
            }
        }
        let mut receipt = parsed.orders.is_some();
        for c in &parsed.commands {
            match c {
                Command::Ready | Command::Wait if owes && !label.over => {
                    let entry = record
                        .submissions
                        .entry(power.to_string())
                        .or_insert_with(Submission::default);
                    let ready = *c == Command::Ready;
                    entry.ready = ready;
                    entry.wait = !ready;
                    notes.push(if ready {
                        "READY: your orders are final.".into()
                    } else {
                        "WAIT: the judge will wait for the deadline.".into()
                    });
                    receipt = true;
                }
                Command::Ready | Command::Wait => {
                    notes.push("You owe no orders now: READY and WAIT have no effect.".into());
                    receipt = true;
                }
                Command::Board => self.board_reply(gc, &record, mail, fx)?,
                Command::History(n) => self.history_reply(gc, &record, *n, mail, fx)?,
                Command::Help => self.help_reply(gc, &record, mail, fx)?,
                other => {
                    notes.push(format!(
                        "{} is for moderators only: ignored.",
                        command_name(other)
                    ));
                    receipt = true;
                }
            }
        }
        if !parsed.not_understood.is_empty() {
            receipt = true;
        }
        if receipt {
            let view = replies::receipt(gc, &record, power, &lines, notes, &parsed.not_understood);
            let body = self.templates.render("receipt.txt", &view)?;
            let subject = format!(
                "[{}] Orders received: turn {} {}",
                gc.id, label.turn, label.phase
            );
            fx.outbox
                .push(self.mail(&mail.from, subject, body, Some(mail)));
        }
        fx.records.insert(gc.id.clone(), record);
        self.advance(gc, fx, false)
    }

    fn act_as_moderator(
        &self,
        gc: &GameConfig,
        mail: &Incoming,
        parsed: &command::Parsed,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let mut notes: Vec<String> = Vec::new();
        if parsed.orders.is_some() {
            notes.push("Moderators give no orders: the orders were ignored.".into());
        }
        for (line, why) in &parsed.not_understood {
            notes.push(format!("Not understood: {line} ({why})"));
        }
        let now = self.clock.now();
        for c in &parsed.commands {
            let mut record = self.load(fx, &gc.id)?;
            let label = record.game.label();
            match c {
                Command::Force(guard) => {
                    let current = guard
                        .as_ref()
                        .is_none_or(|(t, p)| *t == label.turn && p == label.phase);
                    if label.over {
                        notes.push("FORCE: the game is over.".into());
                    } else if !current {
                        notes.push(format!(
                            "FORCE refused: the current phase is turn {} {}.",
                            label.turn, label.phase
                        ));
                    } else {
                        let before = fx.adjudicated.len();
                        self.advance(gc, fx, true)?;
                        if fx.adjudicated.len() > before {
                            notes.push(format!(
                                "FORCE: turn {} {} adjudicated.",
                                label.turn, label.phase
                            ));
                        }
                    }
                }
                Command::Deadline(when) => match parse_when(when, now) {
                    Some(t) if record.paused.is_none() => {
                        record.deadline = Some(t);
                        notes.push(format!(
                            "DEADLINE set: {} ({}).",
                            replies::utc(t),
                            replies::local(t, gc.time_zone)
                        ));
                        fx.records.insert(gc.id.clone(), record);
                    }
                    Some(_) => notes.push("DEADLINE: the game is paused; RESUME first.".into()),
                    None => notes.push(format!(
                        "DEADLINE {when:?} not understood: write 2026-12-01T18:00:00Z, +36h or +2d."
                    )),
                },
                Command::Pause => {
                    if record.paused.is_some() || label.over {
                        notes.push("PAUSE: the game is already paused or over.".into());
                    } else {
                        let left = record
                            .deadline
                            .map(|d| (d - now).num_seconds().max(0))
                            .unwrap_or(0);
                        record.paused = Some(left);
                        record.deadline = None;
                        notes.push("PAUSE: the clock is stopped.".into());
                        fx.records.insert(gc.id.clone(), record);
                    }
                }
                Command::Resume => match record.paused.take() {
                    Some(left) => {
                        let d = now + Duration::seconds(left);
                        record.deadline = Some(d);
                        notes.push(format!("RESUME: the deadline is now {}.", replies::utc(d)));
                        fx.records.insert(gc.id.clone(), record);
                        self.advance(gc, fx, false)?;
                    }
                    None => notes.push("RESUME: the game is not paused.".into()),
                },
                Command::Replace { power, address } => {
                    if !record.addresses.contains_key(power)
                        && !record.game.powers().contains(power)
                    {
                        notes.push(format!("REPLACE: {power:?} is not a power of this game."));
                    } else if !crate::config::is_address(address) {
                        notes.push(format!("REPLACE: {address:?} is not a mail address."));
                    } else {
                        record.addresses.insert(power.clone(), address.clone());
                        notes.push(format!("REPLACE: {power} is now played from {address}."));
                        fx.records.insert(gc.id.clone(), record);
                    }
                }
                Command::Board => self.board_reply(gc, &record, mail, fx)?,
                Command::History(n) => self.history_reply(gc, &record, *n, mail, fx)?,
                Command::Help => self.help_reply(gc, &record, mail, fx)?,
                Command::Ready | Command::Wait => {
                    notes.push("READY and WAIT are for players.".into())
                }
            }
        }
        if !notes.is_empty() {
            let view = replies::Notice {
                game: &gc.id,
                lines: notes,
            };
            let subject = format!("[{}] Moderator commands", gc.id);
            self.answer(fx, mail, subject, "notice.txt", &view)?;
        }
        Ok(())
    }

    fn board_reply(
        &self,
        gc: &GameConfig,
        record: &Record,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let label = record.game.label();
        let position = record.game.position_json();
        let systems: Vec<(String, String)> = position["systems"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let view = replies::BoardView {
            game: &gc.id,
            turn: label.turn,
            phase: label.phase,
            board: record.game.board_text(),
            systems,
            deadline_utc: record.deadline.map(replies::utc).unwrap_or_default(),
            deadline_local: record
                .deadline
                .map(|d| replies::local(d, gc.time_zone))
                .unwrap_or_default(),
        };
        self.answer(fx, mail, format!("[{}] Board", gc.id), "board.txt", &view)
    }

    fn history_reply(
        &self,
        gc: &GameConfig,
        record: &Record,
        turn: Option<u32>,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        // Stored history, and any adjudicated earlier in this group.
        let prefix = format!("v1/history/{}/", gc.id);
        let mut entries: Vec<(String, HistoryEntry)> = self.store.scan(&prefix)?;
        entries.extend(
            fx.history
                .iter()
                .filter(|(k, _)| k.starts_with(&prefix))
                .cloned(),
        );
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let last = entries
            .last()
            .map(|(_, e)| e.turn)
            .unwrap_or(record.game.label().turn);
        let turn = turn.unwrap_or(last);
        let phases: Vec<replies::HistoryPhase> = entries
            .iter()
            .filter(|(_, e)| e.turn == turn)
            .map(|(_, e)| replies::HistoryPhase {
                phase: e.phase.clone(),
                results: e.view["results"].clone(),
                events: e.view["events"].clone(),
            })
            .collect();
        let view = replies::History {
            game: &gc.id,
            turn,
            phases,
        };
        let subject = format!("[{}] History of turn {turn}", gc.id);
        self.answer(fx, mail, subject, "history.txt", &view)
    }

    fn help_reply(
        &self,
        gc: &GameConfig,
        record: &Record,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        #[derive(Serialize)]
        struct Help<'a> {
            order_help: &'a str,
        }
        let view = Help {
            order_help: record.game.order_help(),
        };
        self.answer(fx, mail, format!("[{}] Help", gc.id), "help.txt", &view)
    }
}

fn command_name(c: &Command) -> &'static str {
    match c {
        Command::Force(_) => "FORCE",
        Command::Deadline(_) => "DEADLINE",
        Command::Pause => "PAUSE",
        Command::Resume => "RESUME",
        Command::Replace { .. } => "REPLACE",
        Command::Ready => "READY",
        Command::Wait => "WAIT",
        Command::Board => "BOARD",
        Command::History(_) => "HISTORY",
        Command::Help => "HELP",
    }
}

/// The folder of the game snapshots of a store.
pub fn snapshot_dir(store: &Path) -> std::path::PathBuf {
    let mut name = store.file_name().unwrap_or_default().to_os_string();
    name.push(".snapshots");
    store.with_file_name(name)
}

/// `[andromeda]` in a subject.
fn subject_game(subject: &str) -> Option<String> {
    let start = subject.find('[')?;
    let end = subject[start..].find(']')? + start;
    let id = subject[start + 1..end].trim().to_lowercase();
    (!id.is_empty()).then_some(id)
}

/// `judge+andromeda@host`.
fn plus_game(address: &str) -> Option<String> {
    let local = address.split('@').next()?;
    let (_, id) = local.split_once('+')?;
    (!id.is_empty()).then(|| id.to_lowercase())
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
