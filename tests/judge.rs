//! The judge end to end, through Maildir folders and a real sled store: the helpers the
//! judge tests share (the players' addresses, a game from fixed start positions, the
//! first turn's orders). The tests are by concern: `judge_phases` (turns adjudicated,
//! deadlines, retreats and placements, reminders, the passes), `judge_intake` (mails
//! in: receipts, resubmissions, READY and WAIT, game selection, passwords and strangers,
//! bounces, queries), `judge_moderator` (FORCE, DEADLINE, PAUSE and RESUME, REPLACE),
//! `judge_store` (restarts at any point, `pbem game show`, the configuration);
//! `judge_notices` and `hostile` use these helpers too.

use crate::world::{World, FIXED_START};

pub const HARI: &str = "hari@example.test";
pub const CLEON: &str = "cleon@example.test";
pub const MULE: &str = "mule@example.test";
pub const PREEM: &str = "preem@example.test";

/// A game from fixed start positions, its welcome mails already read.
pub fn fixed() -> World {
    let mut w = World::new(FIXED_START);
    w.pass();
    let welcome = w.sent();
    assert_eq!(
        welcome.len(),
        5,
        "a welcome to each player and the moderator"
    );
    w
}

/// The four powers' first-turn orders (Foundation's has one error line).
pub fn turn_one(w: &mut World) {
    w.orders(HARI, "B2 - C2\nA1 S\nC1 - C9");
    w.orders(CLEON, "F2 - E2\nE1 S\nG1 S");
    w.orders(MULE, "E4 - D3\nG4 H\nF5 - F4");
    w.orders(PREEM, "C4 - C3\nA4 S\nB5 S");
}
