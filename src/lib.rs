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
