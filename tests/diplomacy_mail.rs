//! Diplomacy's mails as players read them: results lines, the welcome and game-over
//! mails, a quoted mail below the orders, phases named by season and year.

use chrono::Duration;

use crate::diplomacy::{mail_to, receipt_to, DIPLOMACY_PLAYERS};
use crate::world::squash;
use crate::world::World;

/// The results mail lists each order once under its power (`FRA  A par - bur`, not
/// `FRA  FRA A par - bur`), and an outcome with nothing to explain stands alone
/// (`succeeds`, never `succeeds: `).
#[test]
fn results_lines_name_the_power_once_and_end_cleanly() {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    w.sent();
    for (_, address, _) in DIPLOMACY_PLAYERS {
        let orders = if address.starts_with("marianne") {
            // A change of mind: the first order for F bre is replaced, and nobody
            // else reads it.
            "F bre - eng\nA par - bur\nA mar S A par - bur\nF bre - mao"
        } else {
            "READY"
        };
        w.orders(address, orders);
    }
    w.pass();
    let sent = w.sent();
    let results = sent
        .iter()
        .find(|m| m.subject.contains("spring results"))
        .expect("a results mail");
    // results.json keeps the phase as `pbem adjudicate` names it (the spec's
    // `"phase": "S1901M"`), beside the game and the turn the judge adds.
    let (_, json) = results.attachment.clone().expect("results.json");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["phase"], "S1901M", "{json}");
    assert_eq!(json["game"], "g1", "{json}");
    let lines: Vec<&str> = results.body.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| squash(l) == "FRA A par - bur succeeds"),
        "{}",
        results.body
    );
    assert!(
        lines
            .iter()
            .any(|l| squash(l) == "ITA A ven H succeeds: no order: holds"),
        "{}",
        results.body
    );
    assert!(!results.body.contains("FRA FRA"), "{}", results.body);
    assert!(!results.body.contains("bre - eng"), "{}", results.body);
    assert!(!results.body.contains("replaced"), "{}", results.body);
    // The outcomes stand in one column, the longest order's width.
    let column = |order: &str| {
        let line = lines
            .iter()
            .find(|l| squash(l).starts_with(&format!("FRA {order} ")))
            .expect(order);
        line.find(" succeeds").expect("succeeds")
    };
    assert_eq!(
        column("A par - bur"),
        column("A mar S A par - bur"),
        "{}",
        results.body
    );
    assert!(lines.iter().all(|l| !l.ends_with(": ")), "{}", results.body);
    // The JSON keeps the orders whole.
    let (_, json) = results.attachment.clone().expect("results.json");
    assert!(json.contains("\"FRA A par - bur\""), "{json}");
}

/// Diplomacy has no dice: its welcome and game-over mails say nothing of them, and the
/// welcome lists the length of every phase of a year (spring to winter), not only the
/// first.
#[test]
fn welcome_and_game_over_speak_of_no_dice_and_list_every_phase() {
    // Only the movement phases are given: retreats and winter take Diplomacy's default.
    let phases = "phases = { spring = \"72h\", fall = \"72h\" }\n";
    let mut w = World::with_rules("diplomacy", phases, &DIPLOMACY_PLAYERS);
    w.pass();
    let sent = w.sent();
    let welcome = sent
        .iter()
        .find(|m| m.subject.contains("Welcome: you play ITA"))
        .expect("a welcome mail");
    let body = squash(&welcome.body);
    for (phase, length) in [
        ("spring", "3 days"),
        ("spring-retreats", "24 hours"),
        ("fall", "3 days"),
        ("fall-retreats", "24 hours"),
        ("winter", "24 hours"),
    ] {
        assert!(
            body.contains(&format!("{phase} {length}")),
            "{phase}: {}",
            welcome.body
        );
    }
    assert!(
        !welcome.body.to_lowercase().contains("dice"),
        "{}",
        welcome.body
    );

    w.end_game();
    w.pass();
    let sent = w.sent();
    let over = sent
        .iter()
        .find(|m| m.subject.contains("Game over"))
        .expect("a game-over mail");
    assert!(!over.body.to_lowercase().contains("dice"), "{}", over.body);
    assert!(
        over.body.starts_with("Game g1 is over in 1901."),
        "{}",
        over.body
    );
    assert!(over.body.contains("history.json"), "{}", over.body);
}

/// A player answers the welcome mail from a mail program that copies it below the
/// answer without `>` marks (Outlook): only the answer is read, never the example
/// orders of the mail answered; an HTML-only answer with the welcome in a
/// `<blockquote>` likewise.
#[test]
fn the_mail_answered_below_the_orders_is_not_read() {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    let sent = w.sent();
    let (_, france, pw) = DIPLOMACY_PLAYERS[2];
    let welcome = mail_to(&sent, france, "Welcome");
    assert!(welcome.body.contains("  A par H"), "{}", welcome.body);
    w.send(
        france,
        "RE: [g1] Welcome: you play FRA",
        &format!(
            "PASSWORD {pw}\nA par - bur\n\n-----Original Message-----\nFrom: judge@example.test\nSent: Sunday\nSubject: {}\n\n{}",
            welcome.subject, welcome.body
        ),
    );
    w.pass();
    assert_eq!(w.record().submissions["FRA"].orders, "A par - bur");

    let (_, germany, pw) = DIPLOMACY_PLAYERS[3];
    let welcome = mail_to(&sent, germany, "Welcome");
    let quoted: String = welcome
        .body
        .lines()
        .map(|l| format!("<div>{l}</div>"))
        .collect();
    w.deliver_raw(&format!(
        "From: {germany}\r\nTo: judge@example.test\r\nSubject: Re: [g1] Welcome\r\nMessage-ID: <html-reply@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><head><style>div {{ margin: 0 }}</style></head><body><div>PASSWORD {pw}</div><div>A mun - ruh</div><div>On Sunday, the judge wrote:</div><blockquote>{quoted}</blockquote></body></html>\r\n"
    ));
    w.pass();
    assert_eq!(w.record().submissions["GER"].orders, "A mun - ruh");
    let sent = w.sent();
    let receipt = receipt_to(&sent, germany);
    assert!(!receipt.body.contains("NOT READ"), "{}", receipt.body);
}

/// Diplomacy's mails name a phase as its players do ("Spring 1901 movement"), not as
/// "turn 1901, spring phase", and a turn by its year: the welcome, the receipt, the
/// results (and the next phase in them), the board, the history and the press history.
#[test]
fn mails_name_the_phase_by_season_and_year() {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    let sent = w.sent();
    let welcome = sent
        .iter()
        .find(|m| m.subject.contains("Welcome: you play AUS"))
        .expect("a welcome mail");
    assert!(
        squash(&welcome.body).contains("The game begins with Spring 1901 movement."),
        "{}",
        welcome.body
    );
    let (_, austria, _) = DIPLOMACY_PLAYERS[0];
    w.orders(austria, "BROADCAST\nGreetings from Vienna.\nEND");
    w.orders(austria, "A vie - gal\nA bud - ser\nF tri H\nBOARD");
    w.pass();
    let sent = w.sent();
    let receipt = receipt_to(&sent, austria);
    assert!(
        squash(&receipt.body).starts_with("Game g1, Spring 1901 movement: your mail"),
        "{}",
        receipt.body
    );
    let board = mail_to(&sent, austria, "Board");
    assert!(
        board.body.starts_with("Game g1, Spring 1901 movement."),
        "{}",
        board.body
    );
    w.advance(Duration::hours(100));
    w.pass();
    let sent = w.sent();
    let results = mail_to(&sent, austria, "results");
    let body = squash(&results.body);
    assert!(
        body.starts_with("Game g1: results of Spring 1901 movement."),
        "{}",
        results.body
    );
    assert!(
        body.contains("Next: Fall 1901 movement; orders from"),
        "{}",
        results.body
    );
    assert!(!body.contains("turn 1901"), "{}", results.body);
    w.orders(austria, "HISTORY 1901");
    w.pass();
    let sent = w.sent();
    let history = mail_to(&sent, austria, "History");
    assert!(
        history.body.starts_with("Game g1: history of 1901.")
            && history.body.contains("Spring 1901 movement:"),
        "{}",
        history.body
    );
    w.orders(austria, "HISTORY PRESS 1901");
    w.pass();
    let sent = w.sent();
    let press = mail_to(&sent, austria, "Press of 1901");
    assert!(
        press
            .body
            .contains("Spring 1901 movement, from you to every power:\n  Greetings from Vienna."),
        "{}",
        press.body
    );
}
