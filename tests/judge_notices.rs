//! The judge's answers in the order things happened, to the right readers: mail read
//! in the order it reached the mailbox, the moderator's notices before the results
//! they lead to, a player's private lines kept out of what others read, a finished
//! game's receipts.

use chrono::Duration;

use crate::judge::{fixed, CLEON, HARI, MULE, PREEM};
use crate::world::{Sent, World, MODERATOR};

fn moderate(w: &mut World, commands: &str) {
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {}\n{commands}", MODERATOR.1),
    );
}

fn to<'a>(sent: &'a [Sent], address: &str) -> Vec<&'a Sent> {
    sent.iter().filter(|m| m.to == address).collect()
}

#[test]
fn mails_are_read_in_the_order_they_reached_the_mailbox_not_by_name() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2");
    w.orders(HARI, "B2 - B3");
    // The second file reached the mailbox a minute before the first (a name that
    // sorts later within a second: `M99` after `M100`).
    let mut names: Vec<_> = std::fs::read_dir(w.inbox().join("new"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let earlier = w.now() - Duration::minutes(1);
    std::fs::File::options()
        .write(true)
        .open(&names[1])
        .unwrap()
        .set_modified(earlier.into())
        .unwrap();
    w.pass();
    let orders = &w.record().submissions["foundation"].orders;
    assert_eq!(orders.trim(), "B2 - C2", "the mail delivered last stands");
}

#[test]
fn comments_and_replaced_orders_stay_out_of_the_stored_orders_and_the_history() {
    let mut w = fixed();
    w.orders(
        HARI,
        "# private note: betray the Union on turn 5\nB2 - B3\nB2 - C2 # to the core\nA1 S",
    );
    w.pass();
    let receipt = w.sent().pop().unwrap();
    let body = crate::world::squash(&receipt.body);
    assert!(
        body.contains(
            "REPLACED B2 - B3 -> replaced by a later order for the same fleet (only you see this line)"
        ),
        "{}",
        receipt.body
    );
    let kept = w.record().submissions["foundation"].orders.clone();
    assert!(!kept.contains('#') && !kept.contains("B3"), "{kept:?}");
    assert!(
        kept.contains("B2 - C2") && kept.contains("A1 S"),
        "{kept:?}"
    );
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.orders(PREEM, "A4 H");
    assert_eq!(w.pass().phases_adjudicated, 1);
    w.end_game();
    w.pass();
    let sent = w.sent();
    for player in [CLEON, MULE, PREEM, HARI] {
        let (_, history) = to(&sent, player)
            .into_iter()
            .find_map(|m| m.attachment.as_ref().filter(|(n, _)| n == "history.json"))
            .expect("the game-over mail with history.json");
        assert!(history.contains("B2 - C2"), "{history}");
        for private in ["betray", "to the core", "B2 - B3"] {
            assert!(!history.contains(private), "{private}: {history}");
        }
    }
}

#[test]
fn a_new_player_is_welcomed_not_told_of_herself() {
    let mut w = fixed();
    moderate(&mut w, "REPLACE tazenda gaal@example.test");
    w.pass();
    let sent = w.sent();
    let gaal = to(&sent, "gaal@example.test");
    assert_eq!(gaal.len(), 1, "only the welcome: {gaal:?}");
    assert!(gaal[0].subject.contains("Welcome"), "{}", gaal[0].subject);
    for player in [HARI, CLEON, MULE] {
        assert!(
            to(&sent, player)
                .iter()
                .any(|m| m.body.contains("tazenda has a new player.")),
            "{player}"
        );
    }
}

#[test]
fn a_deadline_already_past_is_refused_and_nobody_is_told_of_it() {
    let mut w = fixed();
    let deadline = w.record().deadline;
    moderate(&mut w, "DEADLINE 2020-01-01T00:00:00Z\nDEADLINE +0h");
    let pass = w.pass();
    assert_eq!(pass.phases_adjudicated, 0);
    assert_eq!(w.record().deadline, deadline);
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "the moderator's answer only: {sent:?}");
    let body = crate::world::squash(&sent[0].body);
    assert!(
        body.contains(
            "DEADLINE 2020-01-01T00:00:00Z refused: that time is past (2020-01-01 00:00 UTC"
        ),
        "{body}"
    );
    assert!(
        body.contains("DEADLINE +0h refused: that time is past"),
        "{body}"
    );
    assert!(body.contains("FORCE plays the phase now"), "{body}");
}

#[test]
fn a_resumption_that_plays_the_phase_is_told_before_its_results() {
    let mut w = fixed();
    moderate(&mut w, "DEADLINE +1h\nPAUSE");
    w.pass();
    let paused = w.sent();
    let told = to(&paused, HARI);
    assert_eq!(told.len(), 1);
    let body = crate::world::squash(&told[0].body);
    assert!(body.contains("stopped with 1 hour left"), "{body}");
    w.orders(HARI, "A1 H");
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.orders(PREEM, "A4 H");
    assert_eq!(w.pass().phases_adjudicated, 0, "paused");
    w.sent();
    moderate(&mut w, "RESUME");
    assert_eq!(w.pass().phases_adjudicated, 1);
    let sent = w.sent();
    let hari: Vec<&str> = to(&sent, HARI).iter().map(|m| m.subject.as_str()).collect();
    assert_eq!(
        hari,
        ["[g1] From the moderator", "[g1] Turn 1 movement results"],
        "the notice first"
    );
    let notice = crate::world::squash(&to(&sent, HARI)[0].body);
    assert!(
        notice.contains(
            "The moderator resumed the game; every order was in, so turn 1 movement was adjudicated at once."
        ),
        "{notice}"
    );
    assert!(!notice.contains("deadline"), "{notice}");
    let answer = sent
        .iter()
        .find(|m| m.to == MODERATOR.0 && m.subject == "[g1] Moderator commands")
        .unwrap();
    assert!(
        answer
            .body
            .contains("RESUME: every order was in: turn 1 movement adjudicated."),
        "{}",
        answer.body
    );
}

#[test]
fn a_mail_to_a_finished_game_is_told_so_with_no_deadline() {
    let mut w = fixed();
    w.end_game();
    w.pass();
    w.sent();
    w.orders(HARI, "A1 H");
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert_eq!(receipt.subject, "[g1] Orders received: game over");
    let body = crate::world::squash(&receipt.body);
    assert!(body.contains("Game g1, game over:"), "{body}");
    assert!(
        body.contains("The game is over: ended by a moderator on"),
        "{body}"
    );
    for stale in [
        "Deadline:",
        "without orders by the deadline",
        "Still to submit",
    ] {
        assert!(!body.contains(stale), "{stale}: {body}");
    }
}

/// A deadline moved to within both reminders' times makes both due at once: each power
/// owing orders is reminded once, not twice.
#[test]
fn reminders_due_together_go_out_once() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2");
    w.pass();
    w.sent();
    moderate(&mut w, "DEADLINE +1h");
    w.pass();
    w.pass();
    let mut reminded: Vec<String> = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.contains("Reminder"))
        .map(|m| m.to)
        .collect();
    reminded.sort();
    assert_eq!(reminded, [CLEON, MULE, PREEM]);
}

#[test]
fn new_orders_leave_a_wait_standing_and_the_player_is_reminded_of_it() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2\nWAIT");
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.orders(PREEM, "A4 H");
    w.pass();
    w.sent();
    w.orders(HARI, "B2 - B3");
    assert_eq!(w.pass().phases_adjudicated, 0, "the WAIT still stands");
    let receipt = w.sent().pop().unwrap();
    assert_eq!(receipt.to, HARI);
    assert!(
        receipt.body.contains("Your WAIT still stands"),
        "{}",
        receipt.body
    );
    // Sent with READY, the orders are final and nothing is said of the WAIT.
    w.orders(HARI, "B2 - C2\nREADY");
    assert_eq!(w.pass().phases_adjudicated, 1);
    let receipt = w.sent().into_iter().find(|m| m.to == HARI).unwrap();
    assert!(!receipt.body.contains("WAIT still"), "{}", receipt.body);
}

/// With every power's orders in, a receipt says when the phase is played: now, or, while
/// a player's WAIT stands, at the deadline (its time given) because a player asked the
/// judge to wait, without saying who; the player who waits is told it is its WAIT.
#[test]
fn a_receipt_with_every_order_in_says_when_the_phase_is_played() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2\nWAIT");
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.pass();
    let receipts = w.sent();
    assert!(
        receipts
            .iter()
            .all(|m| !m.body.contains("Every power's orders are in")),
        "{receipts:#?}"
    );
    let deadline = w.record().deadline.unwrap();
    let at = format!(
        "at the deadline, {} (",
        deadline.format("%Y-%m-%d %H:%M UTC")
    );

    w.orders(PREEM, "A4 H");
    assert_eq!(w.pass().phases_adjudicated, 0, "the WAIT stands");
    let receipt = w.sent().pop().unwrap();
    assert_eq!(receipt.to, PREEM);
    let body = crate::world::squash(&receipt.body);
    let told = format!(
        "Still to submit: nobody Every power's orders are in. The phase will be adjudicated {at}"
    );
    assert!(body.contains(&told), "{body}");
    assert!(
        body.contains("), because a player asked the judge to wait for it. Deadline:"),
        "{body}"
    );
    // Not who waits: the Foundation is named only among those who submitted.
    assert_eq!(body.matches("foundation").count(), 1, "{body}");

    // The player who waits is told it is its own WAIT.
    w.orders(HARI, "B2 - B3");
    assert_eq!(w.pass().phases_adjudicated, 0, "the WAIT stands");
    let body = crate::world::squash(&w.sent().pop().unwrap().body);
    assert!(
        body.contains(&format!(
            "Every power's orders are in. The phase will be adjudicated {at}"
        )) && body.contains("), because you asked the judge to wait for it."),
        "{body}"
    );

    // READY: every order in and nobody waiting, the phase is played now.
    w.orders(HARI, "READY");
    assert_eq!(w.pass().phases_adjudicated, 1);
    let sent = w.sent();
    let receipt = sent.iter().find(|m| m.to == HARI).unwrap();
    let body = crate::world::squash(&receipt.body);
    assert!(
        body.contains(
            "Still to submit: nobody Every power's orders are in: the phase is adjudicated now, and its results follow."
        ),
        "{body}"
    );

    // While the game is paused, nothing is played, WAIT or not.
    moderate(&mut w, "PAUSE");
    w.pass();
    for player in [HARI, CLEON, MULE, PREEM] {
        w.orders(player, "ORDERS\nEND");
    }
    assert_eq!(w.pass().phases_adjudicated, 0, "the game is paused");
    let sent = w.sent();
    let receipt = sent.iter().rev().find(|m| m.to == PREEM).unwrap();
    let body = crate::world::squash(&receipt.body);
    assert!(
        body.contains(
            "Still to submit: nobody Every power's orders are in, but the game is paused: nothing is adjudicated until the moderator resumes it. Deadline: none: the game is paused"
        ),
        "{body}"
    );
}

#[test]
fn a_mail_that_came_in_before_the_phase_was_played_but_was_read_after_is_told_so() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2");
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.advance(Duration::minutes(1));
    // The last orders of the phase, then a correction from the Imperium, both in the
    // mailbox before the pass that plays the phase on the first of them.
    w.orders(PREEM, "A4 H");
    w.advance(Duration::minutes(1));
    w.orders(CLEON, "E1 - E2");
    w.advance(Duration::minutes(1));
    assert_eq!(w.pass().phases_adjudicated, 1);
    let sent = w.sent();
    let receipts: Vec<_> = to(&sent, CLEON)
        .into_iter()
        .filter(|m| m.subject.contains("received"))
        .collect();
    assert_eq!(receipts.len(), 2, "{receipts:#?}");
    assert!(
        !receipts[0].body.contains("came in at"),
        "{}",
        receipts[0].body
    );
    let late = crate::world::squash(&receipts[1].body);
    assert!(
        late.contains("before the phase before this one was adjudicated")
            && late.contains("counts for turn 2 movement, the phase now current"),
        "{late}"
    );
    // A mail that came in after the phase began is not told so.
    w.orders(CLEON, "E1 H");
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert!(!receipt.body.contains("came in at"), "{}", receipt.body);
}
