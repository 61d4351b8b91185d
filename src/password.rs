//! Passwords: stored as Argon2id hashes (`pbem hash-password`), checked against the
//! `PASSWORD` line of a mail.
//!
//! Argon2 is slow on purpose (tens of milliseconds). A judge checks the same player's
//! password on every mail, so a successful check is remembered for the life of the
//! process, keyed by a hash of (stored hash, password) with a per-process random key;
//! nothing is written to disk and a wrong password is always checked in full.

use std::collections::HashSet;
use std::hash::BuildHasher;
use std::sync::Mutex;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// A new Argon2id hash of `password`, with a random salt.
pub fn hash(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password")
        .to_string()
}

/// Checks passwords, remembering the ones found right.
#[derive(Default)]
pub struct Checker {
    known: Mutex<HashSet<u64>>,
    keys: std::collections::hash_map::RandomState,
    /// Full Argon2 checks done (for tests and the pass report).
    full: std::sync::atomic::AtomicU64,
}

impl Checker {
    pub fn verify(&self, password: &str, stored: &str) -> bool {
        let fingerprint = self.keys.hash_one((stored, password));
        if self
            .known
            .lock()
            .expect("not poisoned")
            .contains(&fingerprint)
        {
            return true;
        }
        self.full.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let ok = PasswordHash::new(stored)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false);
        if ok {
            self.known.lock().expect("not poisoned").insert(fingerprint);
        }
        ok
    }

    /// Whether `password` was found right for `stored` before (no Argon2 work).
    pub fn known(&self, password: &str, stored: &str) -> bool {
        let fingerprint = self.keys.hash_one((stored, password));
        self.known
            .lock()
            .expect("not poisoned")
            .contains(&fingerprint)
    }

    /// Checks several (password, stored hash) pairs side by side, a thread each and
    /// as many at once as the machine has cores, remembering those found right; whether
    /// each is right, in order. Each check holds Argon2's 19 MiB while it runs.
    pub fn verify_all(&self, pairs: &[(&str, &str)]) -> Vec<bool> {
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .clamp(1, 4);
        let mut out = Vec::with_capacity(pairs.len());
        for wave in pairs.chunks(threads) {
            std::thread::scope(|s| {
                let running: Vec<_> = wave
                    .iter()
                    .map(|&(password, stored)| s.spawn(move || self.verify(password, stored)))
                    .collect();
                out.extend(running.into_iter().map(|t| t.join().unwrap_or(false)));
            });
        }
        out
    }

    /// How many full Argon2 checks this checker has done.
    pub fn full_checks(&self) -> u64 {
        self.full.load(std::sync::atomic::Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_checked_side_by_side_are_remembered_when_right_only() {
        let (a, b) = (hash("sesame"), hash("open"));
        let c = Checker::default();
        let got = c.verify_all(&[("sesame", &a), ("wrong", &b), ("open", &b)]);
        assert_eq!(got, [true, false, true]);
        assert_eq!(c.full_checks(), 3);
        assert!(c.known("sesame", &a) && c.known("open", &b));
        assert!(!c.known("wrong", &b) && !c.known("open", &a));
        // Known ones cost no Argon2 work again; a wrong one is checked again in full.
        assert_eq!(
            c.verify_all(&[("sesame", &a), ("wrong", &b)]),
            [true, false]
        );
        assert_eq!(c.full_checks(), 4);
    }

    #[test]
    fn a_hash_verifies_its_password_only() {
        let h = hash("sesame");
        assert!(h.starts_with("$argon2id$"));
        let c = Checker::default();
        assert!(c.verify("sesame", &h));
        assert!(c.verify("sesame", &h), "remembered");
        assert!(!c.verify("Sesame", &h));
        assert!(!c.verify("sesame", "not a hash"));
        assert_ne!(hash("sesame"), h, "salted");
    }
}
