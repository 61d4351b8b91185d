//! The integration tests: one binary, one module per concern.
//!
//! - `cases`: the rules of record as scenario files under `tests/cases/`, each with the
//!   expected outcome in an `[expect]` table; one test per file, named after the rule.
//! - `rules`: rule tests that read better as code than as a scenario.
//! - `properties`: property tests on random boards and orders.
//! - `solo`: the solo game played end to end, many times.
//! - `cli`: the `pbem` command line as a user runs it.
//! - `coverage`: every numbered rule has a test.
//! - `judge`: the judge end to end through Maildir and sled (`world` sets one up).
//! - `real_mail`: the judge against real Postfix and Dovecot (`mailserver` starts them).

mod cases;
mod cli;
mod coverage;
mod godsfire;
mod godsfire_cases;
mod godsfire_policies;
mod godsfire_properties;
mod godsfire_tables;
mod judge;
mod mailserver;
mod properties;
mod real_mail;
mod rules;
mod solo;
mod world;
