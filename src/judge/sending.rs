//! Sending: the committed replies handed to the transport, acceptances recorded.

use super::*;

impl Judge<'_> {
    /// Hands every committed reply due to the transport, and forgets those accepted.
    /// A reply refused for now waits with a growing delay (4 s, 8 s, … at most 10 min);
    /// one refused for good is kept under `v1/failed/` and reported.
    pub(super) fn send_outbox(&self, report: &mut PassReport) -> Result<usize, JudgeError> {
        let now = self.clock.now();
        let scan = crate::timing::span("send: outbox read");
        let pending: Vec<(String, Queued)> = self
            .store
            .scan::<Queued>(outbox::WAITING)?
            .into_iter()
            .filter(|(_, q)| q.next_try.is_none_or(|t| t <= now))
            .collect();
        if pending.is_empty() {
            return Ok(0);
        }
        drop(scan);
        let build = crate::timing::span("send: mail text (MIME)");
        let (name, address) = (&self.config.judge.name, &self.config.judge.address);
        let mails: Vec<Mail> = crate::parallel::map(&pending, |(_, q)| Mail {
            name: format!("{}.pbem", q.mail.message_id.replace(['/', '@'], "_")),
            from: address.clone(),
            to: q.mail.to.clone(),
            bytes: q.mail.to_bytes(name, address),
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
        let mut done = Batch::default();
        let mut unrecorded = 0;
        let mut sent = 0;
        let mut failure: Result<(), JudgeError> = Ok(());
        // Replies go in chunks (each sent by several SMTP sessions at once); between
        // chunks the judge may be stopped with replies committed and not yet sent.
        for (c, chunk) in mails.chunks(chunk_size).enumerate() {
            self.crash(CrashPoint::BeforeSend)?;
            let base = c * chunk_size;
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
}
