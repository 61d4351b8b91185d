//! The judge end to end: mails coming in, their receipts, resubmissions, READY and
//! WAIT, the game a mail is for, who may order what, mails that get no answer, queries.

use chrono::Duration;

use crate::judge::{fixed, turn_one, CLEON, HARI, MULE, PREEM};
use crate::world::PLAYERS;

#[test]
fn receipts_show_errors_line_by_line_and_are_threaded() {
    let mut w = fixed();
    let id = w.orders(HARI, "B2 - C2\nA1 S\nC1 - C9\nC4 - C5\nwhat now");
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1);
    let r = &sent[0];
    assert_eq!(r.to, HARI);
    assert_eq!(r.in_reply_to.as_deref(), Some(id.as_str()));
    let body = &r.body;
    assert!(body.contains("ok       B2 - C2"), "{body}");
    assert!(body.contains("ok       A1 S"));
    assert!(
        body.contains("REFUSED  C1 - C9\n           -> C9 is off the board"),
        "{body}"
    );
    assert!(
        body.contains("REFUSED  C4 - C5\n           -> the fleet in C4 belongs to Tazenda"),
        "{body}"
    );
    // Chatter is the sender's business: in the receipt, marked as not read.
    assert!(body.contains("NOT READ what now"), "{body}");
    assert!(body.contains("Submitted so far: foundation"));
    assert!(body.contains("Still to submit: imperium, union, tazenda"));
    // Deadline in UTC and in the game's time zone (America/New_York).
    assert!(
        body.contains("2026-11-24 12:00 UTC (2026-11-24 07:00 EST)"),
        "{body}"
    );
    w.assert_no_password_leaks();
}

#[test]
fn resubmission_replaces_earlier_orders_whole() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2\nA1 S");
    w.pass();
    w.orders(HARI, "B2 - B3");
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert!(
        receipt
            .body
            .contains("Orders now standing for foundation:\n  B2 - B3\n\n"),
        "{}",
        receipt.body
    );
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.orders(PREEM, "A4 H");
    w.pass();
    let position = w.record().game.position_json();
    let fleets: Vec<&str> = position["fleets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["power"] == "foundation")
        .map(|f| f["at"].as_str().unwrap())
        .collect();
    assert_eq!(
        fleets,
        ["A1", "C1", "B3"],
        "the second submission was adjudicated"
    );
}

/// An order replaced by a later one for the same fleet (R3.1) is told to its writer
/// in the receipt, and left out of the results everyone reads: a player's change of
/// mind is nobody else's business.
#[test]
fn a_replaced_order_is_in_the_receipt_not_in_the_results() {
    let mut w = fixed();
    w.orders(HARI, "B2 - B3\nA1 S\nB2 - C2");
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert!(
        receipt
            .body
            .contains("replaced by a later order for the same fleet"),
        "{}",
        receipt.body
    );
    w.orders(CLEON, "F2 - E2");
    w.orders(MULE, "E4 - D3");
    w.orders(PREEM, "C4 - C3");
    assert_eq!(w.pass().phases_adjudicated, 1);
    let results = w
        .sent()
        .into_iter()
        .find(|m| m.to == CLEON && m.subject.contains("results"))
        .unwrap();
    assert!(results.body.contains("B2 - C2"), "{}", results.body);
    assert!(!results.body.contains("B2 - B3"), "{}", results.body);
    assert!(!results.body.contains("replaced"), "{}", results.body);
    let (_, json) = results.attachment.as_ref().unwrap();
    assert!(!json.contains("B2 - B3"), "{json}");
}

#[test]
fn ready_and_wait() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2\nWAIT");
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.orders(PREEM, "A4 H");
    assert_eq!(
        w.pass().phases_adjudicated,
        0,
        "the Foundation asked to wait"
    );
    w.orders(HARI, "READY");
    assert_eq!(w.pass().phases_adjudicated, 1);
}

#[test]
fn game_selected_by_subject_or_plus_address() {
    let mut w = fixed();
    let pw = PLAYERS[0].2;
    w.deliver_raw(&format!(
        "From: {HARI}\r\nTo: judge+g1@example.test\r\nSubject: my orders\r\nMessage-ID: <plus@example.test>\r\n\r\nPASSWORD {pw}\r\nB2 - C2\r\n"
    ));
    w.pass();
    assert_eq!(w.record().submissions["foundation"].orders, "B2 - C2");
    w.send(HARI, "no game here", &format!("PASSWORD {pw}\nB2 H"));
    w.pass();
    let sent = w.sent();
    assert!(sent.last().unwrap().body.contains("names no game"));
}

#[test]
fn wrong_password_is_refused_to_the_registered_address_and_changes_nothing() {
    let mut w = fixed();
    w.send(HARI, "[g1]", "PASSWORD guess\nB2 - C2");
    w.send(HARI, "[g1]", "B2 - C2");
    w.pass();
    // Refusals to one registered address: at most one an hour.
    let mut sent = w.sent();
    assert_eq!(sent.len(), 1);
    w.advance(chrono::Duration::minutes(61));
    w.send(HARI, "[g1]", "B2 - C2");
    w.pass();
    sent.extend(w.sent());
    assert_eq!(sent.len(), 2);
    for m in &sent {
        assert_eq!(m.to, HARI);
        assert!(m.subject.contains("refused"));
        assert!(
            !m.body.contains("guess"),
            "the tried password is not repeated"
        );
    }
    assert!(w.record().submissions.is_empty());
    w.assert_no_password_leaks();
}

#[test]
fn unregistered_sender_answered_at_most_once_a_day() {
    let mut w = fixed();
    for _ in 0..3 {
        w.send("stranger@example.test", "[g1]", "PASSWORD x\nB2 - C2");
    }
    w.pass();
    assert_eq!(w.sent().len(), 1);
    w.advance(Duration::hours(24));
    w.send("stranger@example.test", "[g1]", "B2 - C2");
    w.pass();
    let sent = w.sent();
    assert_eq!(
        sent.iter()
            .filter(|m| m.to == "stranger@example.test")
            .count(),
        1
    );
    assert!(w.record().submissions.is_empty());
}

#[test]
fn a_player_cannot_order_another_powers_fleets_nor_moderate() {
    let mut w = fixed();
    let deadline = w.record().deadline;
    w.orders(
        HARI,
        "ORDERS\nE1 - D1\nEND\nFORCE\nDEADLINE +1h\nREPLACE imperium hari@example.test",
    );
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert!(
        receipt
            .body
            .contains("the fleet in E1 belongs to The Imperium"),
        "{}",
        receipt.body
    );
    assert!(receipt.body.contains("FORCE is for moderators only"));
    assert!(receipt.body.contains("REPLACE is for moderators only"));
    let record = w.record();
    assert_eq!(record.deadline, deadline);
    assert_eq!(record.game.label().turn, 1);
    assert_eq!(record.addresses["imperium"], CLEON);
}

#[test]
fn auto_replies_and_bounces_get_no_answer_and_change_nothing() {
    let mut w = fixed();
    let pw = PLAYERS[0].2;
    w.deliver_raw(&format!(
        "From: {HARI}\r\nTo: judge@example.test\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <ooo@example.test>\r\n\r\nGAME g1\r\nPASSWORD {pw}\r\nB2 - C2\r\n"
    ));
    w.deliver_raw("From: MAILER-DAEMON@example.test\r\nTo: judge@example.test\r\nSubject: Undelivered\r\nMessage-ID: <bounce@example.test>\r\n\r\n[g1] failed\r\n");
    w.deliver_raw(&format!(
        "From: {HARI}\r\nTo: judge@example.test\r\nSubject: [g1] list\r\nPrecedence: bulk\r\nMessage-ID: <bulk@example.test>\r\n\r\nPASSWORD {pw}\r\nB2 - C2\r\n"
    ));
    w.deliver_raw(&format!(
        "From: {HARI}\r\nReturn-Path: <>\r\nTo: judge@example.test\r\nSubject: [g1]\r\nMessage-ID: <rp@example.test>\r\n\r\nPASSWORD {pw}\r\nB2 - C2\r\n"
    ));
    let pass = w.pass();
    assert_eq!(pass.mails_read, 4);
    let sent = w.sent();
    assert!(
        sent.is_empty(),
        "no answer to machines: {:?}",
        sent.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
    );
    assert!(w.record().submissions.is_empty());
    assert!(
        std::fs::read_dir(w.inbox().join("new"))
            .unwrap()
            .next()
            .is_none(),
        "all read"
    );
}

#[test]
fn board_history_and_help_queries() {
    let mut w = fixed();
    turn_one(&mut w);
    w.pass();
    w.sent();
    w.orders(HARI, "BOARD");
    w.orders(CLEON, "HISTORY 1");
    w.orders(MULE, "HISTORY");
    w.orders(PREEM, "HELP");
    w.pass();
    let sent = w.sent();
    let find = |s: &str| sent.iter().find(|m| m.subject.contains(s)).unwrap();
    let board = find("Board");
    assert_eq!(board.to, HARI);
    assert!(board.body.contains("Game g1, turn 2, movement phase"));
    assert!(board.body.contains("Ter F"));
    let history = sent
        .iter()
        .filter(|m| m.subject.contains("History of turn 1"))
        .count();
    assert_eq!(history, 2, "HISTORY 1 and HISTORY (the last turn)");
    assert!(find("History").body.contains("movement phase:"));
    assert!(find("History").body.contains("imperium   F2 - E2"));
    let help = find("Help");
    assert_eq!(help.to, PREEM);
    assert!(help.body.contains("FORCE [<turn> <phase>]"));
    assert!(help.body.contains("B2 - C3"));
    assert!(w.record().submissions.is_empty(), "queries are not orders");
}
