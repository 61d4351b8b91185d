//! pbem: a play-by-email judge for board war games.
//!
//! The crate is built in three rings, from the inside out:
//!
//! - **Rules** ([`rules`]): each game's rules as a pure function of (state, orders,
//!   seed) → (new state, results). No I/O, no clock, no global randomness, so the same
//!   input always gives byte-identical output; that is what makes replays, tests and
//!   `pbem adjudicate` possible. Dice come from [`dice`], seeded per game and phase.
//! - **Scenarios** ([`scenario`]): one phase of one game as a file, adjudicated
//!   without any mail (`pbem adjudicate`), in the format other tools read.
//! - **The command line** (`src/main.rs`, [`cli`]): a thin shell over the above.
//!
//! The judge service (mail commands, phases, deadlines, storage) and the mail
//! transports are added around the rules in later rings, never inside them.

pub mod backup;
pub mod bench;
pub mod bench_scale;
pub mod cli;
pub mod config;
pub mod control;
pub mod demo;
pub mod dice;
pub mod judge;
pub mod mail;
pub mod memory;
pub mod output;
pub mod parallel;
pub mod password;
pub mod picture;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod service;
pub mod store;
pub mod timing;
mod toml_text;
pub mod verify;

/// This build's version: the crate's version and, when it was built from a git
/// checkout, its commit (`0.1.0 (git 2a7ea83b1c)`; set by `scripts/build.rs`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), env!("PBEM_COMMIT"));

/// This build, named as the phases a judge adjudicates record it (`pbem 0.1.0 (git
/// 2a7ea83b1c)`): `pbem verify-dice` tells the build that recorded a game from the one
/// playing it again.
pub const BUILD: &str = concat!("pbem ", env!("CARGO_PKG_VERSION"), env!("PBEM_COMMIT"));
