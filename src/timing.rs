//! Where a pass's time goes, for `pbem bench --mail`: named spans on the judge's
//! thread, each counting its own time (a span inside another pauses the outer one).
//! Off unless [`start`] was called on the thread: a span then costs one check.

use std::cell::RefCell;
use std::time::{Duration, Instant};

#[derive(Default)]
struct Profile {
    /// Open spans, innermost last, each with when it (last) resumed.
    stack: Vec<(&'static str, Instant)>,
    /// Own time and entries per span name, in first-seen order.
    totals: Vec<(&'static str, Duration, u64)>,
}

thread_local! {
    static PROFILE: RefCell<Option<Profile>> = const { RefCell::new(None) };
}

/// Starts counting on this thread (anew).
pub fn start() {
    PROFILE.with(|p| *p.borrow_mut() = Some(Profile::default()));
}

/// Stops counting; returns each span's own time and how often it was entered, in the
/// order first seen.
pub fn finish() -> Vec<(&'static str, Duration, u64)> {
    PROFILE.with(|p| p.borrow_mut().take().map(|p| p.totals).unwrap_or_default())
}

/// A span: its time counts under `name` until it is dropped.
#[must_use]
pub struct Span(bool);

/// Opens a span named `name` (nothing when not counting).
pub fn span(name: &'static str) -> Span {
    PROFILE.with(|p| {
        let mut p = p.borrow_mut();
        let Some(p) = p.as_mut() else {
            return Span(false);
        };
        let now = Instant::now();
        if let Some(&(outer, since)) = p.stack.last() {
            p.add(outer, now - since, 0);
        }
        p.stack.push((name, now));
        Span(true)
    })
}

impl Profile {
    fn add(&mut self, name: &'static str, d: Duration, entries: u64) {
        match self.totals.iter_mut().find(|(n, _, _)| *n == name) {
            Some(t) => {
                t.1 += d;
                t.2 += entries;
            }
            None => self.totals.push((name, d, entries)),
        }
    }
}

impl Drop for Span {
    fn drop(&mut self) {
        if !self.0 {
            return;
        }
        PROFILE.with(|p| {
            let mut p = p.borrow_mut();
            let Some(p) = p.as_mut() else { return };
            let now = Instant::now();
            if let Some((name, since)) = p.stack.pop() {
                p.add(name, now - since, 1);
            }
            if let Some(outer) = p.stack.last_mut() {
                outer.1 = now;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    fn spin(d: Duration) {
        let start = Instant::now();
        while start.elapsed() < d {
            std::hint::spin_loop();
        }
    }

    #[test]
    fn a_span_inside_another_pauses_it() {
        super::start();
        let whole = Instant::now();
        {
            let _outer = super::span("outer");
            {
                let _inner = super::span("inner");
                spin(Duration::from_millis(3));
            }
            let _again = super::span("inner");
        }
        let whole = whole.elapsed();
        let t = super::finish();
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].0, t[0].2), ("outer", 1));
        assert_eq!((t[1].0, t[1].2), ("inner", 2));
        assert!(t[1].1 >= Duration::from_millis(3));
        assert!(t[0].1 + t[1].1 <= whole, "{t:?} in {whole:?}");
        assert!(t[0].1 <= whole - Duration::from_millis(3));
        assert!(super::finish().is_empty(), "off again");
        drop(super::span("off"));
        assert!(super::finish().is_empty());
    }
}
