//! Throttles: how often the judge answers or checks something for one address or one
//! power, counted in the store over a window of time (so they hold across restarts).
//!
//! | what | limit |
//! |---|---|
//! | replies to an unregistered sender (or about an unknown game) | 1 a day per address |
//! | refusals for a wrong or missing password, to a registered address | 1 an hour per address |
//! | wrong passwords for one power (or moderator) of a game | 5 an hour; then no further attempt is checked or answered until the hour is out, and the moderators are told once |
//! | HELP without a game, from a registered address | 4 an hour per address |

use chrono::Duration;
use serde::{Deserialize, Serialize};

use super::{Effects, Judge, JudgeError};

/// Wrong passwords for one power in [`auth_window`] before attempts stop being checked.
pub const MAX_WRONG_PASSWORDS: u32 = 5;

/// The window of the password limits.
pub fn auth_window() -> Duration {
    Duration::hours(1)
}

/// Events counted in the current window.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct Window {
    /// When the window began (Unix seconds).
    pub start: i64,
    pub count: u32,
    /// Whoever must hear of it once per window was told.
    #[serde(default)]
    pub told: bool,
}

pub fn key(kind: &str, who: &str) -> String {
    format!("v1/throttle/{kind}/{who}")
}

impl Judge<'_> {
    /// The window stored under `key` as of now (a new one once `period` has passed).
    pub(super) fn window(
        &self,
        fx: &Effects,
        key: &str,
        period: Duration,
    ) -> Result<Window, JudgeError> {
        let stored = match fx.flags.get(key) {
            Some(json) => serde_json::from_str(json).ok(),
            None => self.store.get::<Window>(key)?,
        };
        let now = self.clock.now().timestamp();
        Ok(match stored {
            Some(w) if now - w.start < period.num_seconds() => w,
            _ => Window {
                start: now,
                count: 0,
                told: false,
            },
        })
    }

    pub(super) fn save_window(&self, fx: &mut Effects, key: &str, w: &Window) {
        fx.batch.put(key, w);
        fx.flags.insert(
            key.to_string(),
            serde_json::to_string(w).expect("a window serialises"),
        );
    }

    /// Counts one more event under `key`; whether it is still within `max` a `period`.
    pub(super) fn allow(
        &self,
        fx: &mut Effects,
        key: &str,
        period: Duration,
        max: u32,
    ) -> Result<bool, JudgeError> {
        let mut w = self.window(fx, key, period)?;
        let allowed = w.count < max;
        if allowed {
            w.count += 1;
            self.save_window(fx, key, &w);
        }
        Ok(allowed)
    }
}
