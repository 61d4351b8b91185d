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
