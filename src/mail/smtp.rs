//! SMTP out (lettre, blocking, with its connection pool: one connection serves a batch;
//! lettre patched for `TCP_NODELAY`, see `vendor/lettre/PBEM-PATCH.md`).
//! A reply counts as sent only when the server accepted it.

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{Address, SmtpTransport, Transport};

use super::transport::{Mail, Outbox, TransportError};
use crate::config::{MailServer, TlsMode};

/// SMTP connections used at once for a batch of replies.
const WORKERS: usize = 4;

pub struct SmtpOutbox {
    transport: SmtpTransport,
}

impl SmtpOutbox {
    pub fn new(server: &MailServer) -> Result<SmtpOutbox, String> {
        let mut tls_params = TlsParameters::builder(server.host.clone());
        if let Some(ca) = &server.ca_file {
            let pem = std::fs::read(ca).map_err(|e| format!("{}: {e}", ca.display()))?;
            let cert = lettre::transport::smtp::client::Certificate::from_pem(&pem)
                .map_err(|e| format!("{}: {e}", ca.display()))?;
            tls_params = tls_params.add_root_certificate(cert);
        }
        let tls_params = tls_params.build().map_err(|e| e.to_string())?;
        let tls = match server.tls {
            TlsMode::None => Tls::None,
            TlsMode::StartTls => Tls::Required(tls_params),
            TlsMode::Tls => Tls::Wrapper(tls_params),
        };
        let mut builder = SmtpTransport::builder_dangerous(server.host.clone())
            .port(server.port)
            .tls(tls)
            .timeout(Some(std::time::Duration::from_secs(30)));
        if !server.user.is_empty() {
            builder =
                builder.credentials(Credentials::new(server.user.clone(), server.password()?));
        }
        let transport = builder.build();
        warm_up(&transport);
        Ok(SmtpOutbox { transport })
    }
}

/// Opens the pool's sessions (TCP, STARTTLS, login) on threads of their own while the
/// judge starts and reads its first mails, so the first replies do not wait for them.
/// Best effort: a server out of reach now is met again, and told, when replies go.
fn warm_up(transport: &SmtpTransport) {
    for _ in 0..WORKERS {
        let transport = transport.clone();
        std::thread::spawn(move || {
            // The session goes back to the pool when the test is done.
            let _ = transport.test_connection();
        });
    }
}

impl Outbox for SmtpOutbox {
    /// Several SMTP sessions at once (lettre's pool lends each worker a connection):
    /// one mail per SMTP transaction costs round trips, and a few sessions in flight
    /// hide them.
    ///
    /// At most `WORKERS` mails are out of the judge's hands at a time (being sent, or
    /// accepted and not yet told to `done`): while `done` records acceptances (a write
    /// to disk), the sessions go on with the next few, and a judge killed meanwhile
    /// sends again no more than those.
    fn send_all(
        &mut self,
        mails: &[Mail],
        done: &mut dyn FnMut(usize, Result<(), TransportError>) -> bool,
    ) {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::{Condvar, Mutex};
        // (next mail to hand out, results told to `done`)
        let progress = Mutex::new((0usize, 0usize));
        let moved = Condvar::new();
        let stop = AtomicBool::new(false);
        let (tx, rx) = std::sync::mpsc::channel();
        let this = &*self;
        std::thread::scope(|scope| {
            for _ in 0..WORKERS.min(mails.len()) {
                let tx = tx.clone();
                let (progress, moved, stop) = (&progress, &moved, &stop);
                scope.spawn(move || loop {
                    let i = {
                        let mut p = progress.lock().expect("not poisoned");
                        while !stop.load(Ordering::SeqCst)
                            && p.0 < mails.len()
                            && p.0 >= p.1 + WORKERS
                        {
                            p = moved.wait(p).expect("not poisoned");
                        }
                        if stop.load(Ordering::SeqCst) || p.0 >= mails.len() {
                            return;
                        }
                        p.0 += 1;
                        p.0 - 1
                    };
                    let m = &mails[i];
                    // Every mail handed out is answered, even by a panic (the others
                    // wait for the answers).
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        this.send_one(&m.from, &m.to, &m.bytes)
                    }))
                    .unwrap_or_else(|_| {
                        Err(TransportError::Transient("SMTP: the sending failed".into()))
                    });
                    if matches!(result, Err(TransportError::Transient(_))) {
                        stop.store(true, Ordering::SeqCst);
                        moved.notify_all();
                    }
                    if tx.send((i, result)).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            for (i, result) in rx {
                if !done(i, result) {
                    stop.store(true, Ordering::SeqCst);
                }
                progress.lock().expect("not poisoned").1 += 1;
                moved.notify_all();
            }
        });
    }

    fn send(
        &mut self,
        _name: &str,
        from: &str,
        to: &str,
        bytes: &[u8],
    ) -> Result<(), TransportError> {
        self.send_one(from, to, bytes)
    }
}

impl SmtpOutbox {
    fn send_one(&self, from: &str, to: &str, bytes: &[u8]) -> Result<(), TransportError> {
        let parse = |a: &str| {
            a.parse::<Address>()
                .map_err(|e| TransportError::Permanent(format!("address {a:?}: {e}")))
        };
        let envelope = Envelope::new(Some(parse(from)?), vec![parse(to)?])
            .map_err(|e| TransportError::Permanent(e.to_string()))?;
        match self.transport.send_raw(&envelope, bytes) {
            Ok(_) => Ok(()),
            Err(e) if e.is_permanent() && !refuses_the_login(&e) => {
                Err(TransportError::Permanent(format!("SMTP: {e}")))
            }
            Err(e) => Err(TransportError::Transient(format!("SMTP: {e}"))),
        }
    }
}

/// A permanent answer about the judge's login (530 authentication required, 534, 535
/// credentials refused, 538) refuses the session, not the reply: every reply would meet
/// it until the settings are put right, so the replies wait (and are retried) instead of
/// being set aside as undeliverable.
fn refuses_the_login(e: &lettre::transport::smtp::Error) -> bool {
    e.status()
        .is_some_and(|code| matches!(u16::from(code), 530 | 534 | 535 | 538))
}
