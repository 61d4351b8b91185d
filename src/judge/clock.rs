//! The judge's clock, injected so deadlines can be tested without sleeping.

use std::sync::Mutex;

use chrono::{DateTime, Duration, Utc};

pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;
}

/// The real time.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// The real time moved by a fixed amount, so that it starts at a given time and runs
/// on from there: the judge's clock when `PBEM_NOW` is set (see `service::clock`).
pub struct OffsetClock(Duration);

impl OffsetClock {
    /// A clock that reads `start` now.
    pub fn starting_at(start: DateTime<Utc>) -> OffsetClock {
        OffsetClock(start - Utc::now())
    }
}

impl Clock for OffsetClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + self.0
    }
}

/// A clock that moves only when told to (tests, the demo).
pub struct FixedClock(Mutex<DateTime<Utc>>);

impl FixedClock {
    pub fn at(t: DateTime<Utc>) -> FixedClock {
        FixedClock(Mutex::new(t))
    }

    pub fn advance(&self, by: Duration) {
        *self.0.lock().expect("not poisoned") += by;
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().expect("not poisoned")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_clock_starts_where_it_is_told_and_runs_on() {
        let start = DateTime::parse_from_rfc3339("2026-11-22T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let clock = OffsetClock::starting_at(start);
        let first = clock.now();
        assert!(
            first >= start && first - start < Duration::seconds(5),
            "{first}"
        );
        let later = clock.now();
        assert!(later >= first);
    }
}
