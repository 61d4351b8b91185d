//! The judge's outbox in the store: replies waiting to be sent (`v1/outbox/`), and
//! replies set aside because a server refused them for good (`v1/failed/`), which a
//! moderator can look at and put back to be sent again (`pbem outbox`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::mail::outgoing::Outgoing;
use crate::store::{Batch, Store, StoreError};

pub(crate) const WAITING: &str = "v1/outbox/";
pub(crate) const FAILED: &str = "v1/failed/";

/// A reply in the outbox, with its tries so far.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Queued {
    pub mail: Outgoing,
    pub attempts: u32,
    pub next_try: Option<DateTime<Utc>>,
    /// What the server answered the last try (none before the first refusal; absent
    /// from records written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

impl Queued {
    pub fn new(mail: Outgoing) -> Queued {
        Queued {
            mail,
            attempts: 0,
            next_try: None,
            last_error: None,
        }
    }
}

/// What the outbox holds.
#[derive(Debug, Default)]
pub struct OutboxReport {
    /// Replies still to be sent, oldest first.
    pub waiting: Vec<Queued>,
    /// Replies refused for good, oldest first.
    pub failed: Vec<Queued>,
}

pub fn report(store: &Store) -> Result<OutboxReport, StoreError> {
    let list = |prefix| -> Result<Vec<Queued>, StoreError> {
        Ok(store
            .scan::<Queued>(prefix)?
            .into_iter()
            .map(|(_, q)| q)
            .collect())
    };
    Ok(OutboxReport {
        waiting: list(WAITING)?,
        failed: list(FAILED)?,
    })
}

/// Puts every reply refused for good back in the outbox, to be sent on the judge's next
/// pass as if new (what the server said is kept until the next try). Returns how many.
pub fn resend_failed(store: &Store) -> Result<usize, StoreError> {
    let failed = store.scan::<Queued>(FAILED)?;
    let mut batch = Batch::default();
    for (key, q) in &failed {
        let again = Queued {
            attempts: 0,
            next_try: None,
            ..q.clone()
        };
        batch.put(&key.replacen(FAILED, WAITING, 1), &again);
        batch.remove(key);
    }
    store.commit(batch)?;
    Ok(failed.len())
}

impl OutboxReport {
    /// The report as `pbem outbox` prints it.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{} {} waiting to be sent, {} refused for good and set aside\n",
            self.waiting.len(),
            if self.waiting.len() == 1 {
                "reply"
            } else {
                "replies"
            },
            self.failed.len()
        );
        let line = |state: &str, p: &Queued| {
            let mut l = format!("{state:<9} {}  {:?}", p.mail.to, p.mail.subject);
            if p.attempts > 0 {
                l += &format!(
                    "  tried {} time{}",
                    p.attempts,
                    if p.attempts == 1 { "" } else { "s" }
                );
            }
            if let Some(t) = p.next_try {
                l += &format!(", next try {}", t.format("%Y-%m-%d %H:%M:%S UTC"));
            }
            if let Some(e) = &p.last_error {
                l += &format!("\n          last answer: {e}");
            }
            l + "\n"
        };
        for p in &self.waiting {
            out += &line("waiting", p);
        }
        for p in &self.failed {
            out += &line("set aside", p);
        }
        if !self.failed.is_empty() {
            out +=
                "(`pbem outbox --resend-failed` puts the replies set aside back in the outbox)\n";
        }
        out
    }
}
