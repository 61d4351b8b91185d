//! Sending: the committed replies handed to the transport, acceptances recorded.
//!
//! Where the transport can write on its own (Maildir: [`Outbox::detached`]), a group's
//! replies are formatted and written by a thread of their own while the judge goes on
//! with the next group; their acceptances are recorded when it is done (on the next
//! send, at the latest at the end of the pass). A reply written and not yet recorded is
//! written again after a crash, which such a transport delivers once.

use super::*;

/// Replies being written by a thread of their own, to be recorded.
pub(super) struct InFlight {
    pending: Vec<(String, Queued)>,
    handle: std::thread::JoinHandle<Vec<Result<(), TransportError>>>,
}

/// The acceptances (and refusals) of one send, recorded as they come.
struct Recorder {
    now: DateTime<Utc>,
    record_every: usize,
    done: Batch,
    unrecorded: usize,
    sent: usize,
    /// A transient failure: nothing more is handed over in this send.
    stopped: bool,
    failure: Result<(), JudgeError>,
    /// The replies whose acceptance is recorded (or about to be).
    accepted: Vec<String>,
}

impl Recorder {
    fn new(now: DateTime<Utc>, record_every: usize) -> Recorder {
        Recorder {
            now,
            record_every,
            done: Batch::default(),
            unrecorded: 0,
            sent: 0,
            stopped: false,
            failure: Ok(()),
            accepted: Vec::new(),
        }
    }

    /// One reply's result; false when sending must stop (a crash, the store failing).
    fn take(
        &mut self,
        judge: &Judge,
        (key, q): &(String, Queued),
        result: Result<(), TransportError>,
        report: &mut PassReport,
    ) -> bool {
        match result {
            Ok(()) => {
                if let Err(e) = judge.crash(CrashPoint::AfterSend) {
                    self.failure = Err(e);
                    return false;
                }
                self.done.remove(key);
                self.accepted.push(key.clone());
                self.sent += 1;
                self.unrecorded += 1;
                // Acceptances are recorded in small groups: a crash can resend at most
                // the replies accepted since the last record.
                if self.unrecorded >= self.record_every {
                    self.unrecorded = 0;
                    if let Err(e) = judge.store.commit(std::mem::take(&mut self.done)) {
                        self.failure = Err(e.into());
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
                self.done
                    .put(&key.replacen(outbox::WAITING, outbox::FAILED, 1), &q);
                self.done.remove(key);
            }
            Err(TransportError::Transient(e)) => {
                report.errors.push(format!("sending replies: {e}"));
                let mut q = q.clone();
                q.attempts += 1;
                q.last_error = Some(e);
                let wait = 2i64.saturating_mul(1 << q.attempts.min(9)).min(600);
                q.next_try = Some(self.now + Duration::seconds(wait));
                self.done.put(key, &q);
                self.stopped = true;
            }
        }
        true
    }

    fn finish(self, judge: &Judge) -> Result<usize, JudgeError> {
        self.failure?;
        judge.store.commit(self.done)?;
        let mut handed = judge.handed.borrow_mut();
        for key in &self.accepted {
            handed.remove(key);
        }
        Ok(self.sent)
    }
}

impl Judge<'_> {
    /// Hands every committed reply due to the transport, and forgets those accepted.
    /// A reply refused for now waits with a growing delay (4 s, 8 s, … at most 10 min);
    /// one refused for good is kept under `v1/failed/` and reported.
    pub(super) fn send_outbox(&self, report: &mut PassReport) -> Result<usize, JudgeError> {
        self.send_replies(report, false)
    }

    /// As [`Judge::send_outbox`]; with `background`, where the transport allows, the
    /// replies are written by a thread of their own and recorded on the next send.
    pub(super) fn send_replies(
        &self,
        report: &mut PassReport,
        background: bool,
    ) -> Result<usize, JudgeError> {
        let mut sent = self.finish_in_flight(report)?;
        let now = self.clock.now();
        let scan = crate::timing::span("send: outbox read");
        let pending: Vec<(String, Queued)> = self
            .store
            .scan::<Queued>(outbox::WAITING)?
            .into_iter()
            .filter(|(_, q)| q.next_try.is_none_or(|t| t <= now))
            .collect();
        if pending.is_empty() {
            return Ok(sent);
        }
        drop(scan);
        let (name, address) = (&self.config.judge.name, &self.config.judge.address);
        // Which replies were never handed over (see `Mail::fresh`); from now on, all were.
        let fresh: Vec<bool> = {
            let mut handed = self.handed.borrow_mut();
            pending
                .iter()
                .map(|(key, q)| {
                    let made_here = key
                        .strip_prefix(outbox::WAITING)
                        .and_then(|k| k.get(..20))
                        .and_then(|n| n.parse::<u64>().ok())
                        .is_some_and(|n| n > self.outbox_floor);
                    let fresh = made_here && q.attempts == 0 && !handed.contains(key);
                    handed.insert(key.clone());
                    fresh
                })
                .collect()
        };
        if background {
            if let Some(write) = self.outbox.borrow().detached() {
                self.crash(CrashPoint::BeforeSend)?;
                let mails: Vec<(Outgoing, bool)> = pending
                    .iter()
                    .zip(&fresh)
                    .map(|((_, q), &fresh)| (q.mail.clone(), fresh))
                    .collect();
                let (name, address) = (name.clone(), address.clone());
                let handle = std::thread::spawn(move || {
                    mails
                        .iter()
                        .map(|(mail, fresh)| write(&mail_of(mail, *fresh, &name, &address)))
                        .collect()
                });
                *self.in_flight.borrow_mut() = Some(InFlight { pending, handle });
                return Ok(sent);
            }
        }
        let build = crate::timing::span("send: mail text (MIME)");
        let both: Vec<(&(String, Queued), bool)> = pending.iter().zip(fresh).collect();
        let mails: Vec<Mail> = crate::parallel::map(&both, |((_, q), fresh)| {
            mail_of(&q.mail, *fresh, name, address)
        });
        drop(build);
        let _t = crate::timing::span("send: file writes, sent marks");
        let mut outbox = self.outbox.borrow_mut();
        // Where a mail sent twice is delivered once, replies go in larger chunks (the
        // files written side by side).
        let (record_every, chunk_size) = if outbox.idempotent() {
            (SENT_RECORD_EVERY, SENT_RECORD_EVERY)
        } else {
            (SMTP_RECORD_EVERY, SEND_CHUNK)
        };
        let mut recorder = Recorder::new(now, record_every);
        // Replies go in chunks (each sent by several SMTP sessions at once); between
        // chunks the judge may be stopped with replies committed and not yet sent.
        for (c, chunk) in mails.chunks(chunk_size).enumerate() {
            self.crash(CrashPoint::BeforeSend)?;
            let base = c * chunk_size;
            outbox.send_all(chunk, &mut |i, result| {
                recorder.take(self, &pending[base + i], result, report)
            });
            if recorder.stopped || recorder.failure.is_err() {
                break;
            }
        }
        sent += recorder.finish(self)?;
        Ok(sent)
    }

    /// Records what the thread writing replies did (waiting for it to end).
    fn finish_in_flight(&self, report: &mut PassReport) -> Result<usize, JudgeError> {
        let Some(InFlight { pending, handle }) = self.in_flight.borrow_mut().take() else {
            return Ok(0);
        };
        let _t = crate::timing::span("send: waiting for the writing thread");
        let results = handle.join().unwrap_or_else(|panic| {
            let why = format!("writing replies: {}", panic_text(&panic));
            pending
                .iter()
                .map(|_| Err(TransportError::Transient(why.clone())))
                .collect()
        });
        let mut recorder = Recorder::new(self.clock.now(), SENT_RECORD_EVERY);
        for (entry, result) in pending.iter().zip(results) {
            if !recorder.take(self, entry, result, report) || recorder.stopped {
                break;
            }
        }
        recorder.finish(self)
    }

    /// Waits for the thread writing replies, if any, without recording what it did
    /// (what it wrote is written again, harmlessly, when the judge next sends).
    pub(super) fn abandon_in_flight(&self) {
        if let Some(f) = self.in_flight.borrow_mut().take() {
            let _ = f.handle.join();
        }
    }
}

/// A reply as the transport takes it.
fn mail_of(mail: &Outgoing, fresh: bool, name: &str, address: &str) -> Mail {
    Mail {
        name: format!("{}.pbem", mail.message_id.replace(['/', '@'], "_")),
        from: address.to_string(),
        to: mail.to.clone(),
        bytes: mail.to_bytes(name, address),
        fresh,
    }
}
