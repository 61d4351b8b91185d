//! The integration tests: one binary, one module per concern.
//!
//! - `cases`: the rules of record as scenario files under `tests/cases/`, each with the
//!   expected outcome in an `[expect]` table; one test per file, named after the rule.
//! - `rules`: rule tests that read better as code than as a scenario.
//! - `properties`: property tests on random boards and orders.
//! - `solo`: the solo game played end to end, many times.
//! - `cli`: the `pbem` command line as a user runs it.
//! - `coverage`: every numbered rule has a test.
//! - `judge`: the judge end to end through Maildir and sled (`world` sets one up): its
//!   shared helpers; the tests by concern in `judge_phases`, `judge_intake`,
//!   `judge_moderator` and `judge_store`.
//! - `picture`: the board as a picture, checked pixel by pixel, and the mails that
//!   carry it; `picture_games`: the later rule sets' pictures.
//!
//! The judge against real Postfix and Dovecot is its own binary, `tests/real_mail/`.

/// The judge's allocator, as `pbem` itself runs on it (`src/main.rs`): every test
/// adjudicates on it.
#[global_allocator]
static ALLOCATOR: pbem::memory::LargePages = pbem::memory::LargePages;

mod backup;
mod bfge;
mod bfge_cases;
mod bfge_judge;
mod bfge_play;
mod bfge_properties;
mod cases;
mod cli;
mod committed_dice;
mod community;
mod community_playtest;
mod coverage;
mod diplomacy;
mod diplomacy_datc;
mod diplomacy_mail;
mod diplomacy_properties;
mod diplomacy_rules;
mod fe_mail;
mod first_hour;
mod godsfire;
mod godsfire_cases;
mod godsfire_game;
mod godsfire_policies;
mod godsfire_properties;
mod godsfire_receipts;
mod godsfire_tables;
mod hjelmberg;
mod hjelmberg_cases;
mod hjelmberg_judge;
mod hjelmberg_properties;
mod hjelmberg_receipts;
mod hostile;
mod imap_quirks;
mod judge;
mod judge_intake;
mod judge_moderator;
mod judge_notices;
mod judge_phases;
mod judge_store;
mod memory;
mod picture;
mod picture_games;
mod properties;
mod reload;
mod rules;
mod solo;
mod stored_games;
mod war;
mod war_battle;
mod war_cases;
mod war_cli;
mod war_game;
mod war_properties;
mod war_turns;
mod world;
