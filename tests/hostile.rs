//! Hostile and careless mail through the real Maildir transport and a real sled store:
//! secrets never leave the judge, free text stays with its sender, Unicode from real
//! mail clients reads as a person would, every input is bounded, poison mail is set
//! aside, the judge's voice is not lent to forgers, and it cannot be used to mail-bomb.

use std::time::Instant;

use crate::world::{World, FIXED_START, MODERATOR};

const HARI: &str = "hari@example.test";
const CLEON: &str = "cleon@example.test";
const MULE: &str = "mule@example.test";
const PREEM: &str = "preem@example.test";

fn fixed() -> World {
    let mut w = World::new(FIXED_START);
    w.pass();
    w.sent();
    w
}

/// The other three powers' orders, so the turn is adjudicated.
fn others(w: &mut World) {
    w.orders(CLEON, "F2 H");
    w.orders(MULE, "E4 H");
    w.orders(PREEM, "C4 H");
}

#[test]
fn a_ten_megabyte_mail_of_65000_lines_is_handled_in_under_a_second() {
    let mut w = fixed();
    let junk = "x".repeat(150);
    let mut body = String::from("B2 - C2\n");
    for k in 0..65_000 {
        body.push_str(&format!("{k} {junk}\n"));
    }
    assert!(body.len() > 10_000_000);
    w.orders(HARI, &body);
    let start = Instant::now();
    w.pass();
    let took = start.elapsed();
    assert!(took.as_secs_f64() < 1.0, "the pass took {took:?}");
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "one receipt");
    for m in &sent {
        assert!(
            m.raw.len() < pbem::judge::MAX_MAIL_BYTES,
            "{} bytes",
            m.raw.len()
        );
    }
    assert!(
        sent[0].body.contains("ok       B2 - C2"),
        "{}",
        sent[0].body
    );
    others(&mut w);
    w.pass();
    let results: Vec<_> = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.contains("results"))
        .collect();
    assert_eq!(
        results.len(),
        5,
        "{:?}",
        results.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    for m in &results {
        assert!(m.raw.len() < pbem::judge::MAX_MAIL_BYTES);
        assert!(!m.raw.contains(&junk), "junk reached the results");
    }
}

/// Everything the judge ever sent, as text (headers, bodies, attachments).
fn everything(w: &World) -> String {
    w.all_sent()
        .iter()
        .map(|m| m.raw.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_password_line_anywhere_is_never_stored_echoed_or_published() {
    let mut w = fixed();
    let pw = crate::world::password_of(HARI);
    // A second password line (with a colon) inside the orders, the bare secret on a
    // line of its own, and the secret inside a sentence.
    w.send(
        HARI,
        "[g1] orders",
        &format!(
            "PASSWORD {pw}\nORDERS\nB2 - C2\nPassword: zebra-4471\nPASSWORD quokka-9123\n{pw}\nmine is {pw} ok\nEND\n"
        ),
    );
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert!(
        receipt.body.contains("ok       B2 - C2"),
        "{}",
        receipt.body
    );
    assert!(receipt.body.contains("PASSWORD lines"), "{}", receipt.body);
    let stored = &w.record().submissions["foundation"].orders;
    for secret in ["zebra-4471", "quokka-9123", pw.as_str()] {
        assert!(!stored.contains(secret), "stored: {stored}");
    }
    others(&mut w);
    w.pass();
    w.orders(HARI, "HISTORY 1");
    w.pass();
    let all = everything(&w);
    for secret in ["zebra-4471", "quokka-9123", pw.as_str()] {
        assert!(!all.contains(secret), "{secret} left the judge");
    }
    assert!(all.contains("results.json"));
}

#[test]
fn free_text_stays_in_the_senders_receipt() {
    let mut w = fixed();
    w.orders(
        HARI,
        "B2 - C2\nOn Sun, 22 Nov 2026, Cleon wrote:\nLet us ally against the Mule, my secret plan is C4\nC1 - C9",
    );
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert_eq!(receipt.to, HARI);
    assert!(
        receipt.body.contains("NOT READ On Sun, 22 Nov 2026"),
        "{}",
        receipt.body
    );
    assert!(receipt.body.contains("my secret plan"));
    // An order that names a fleet is public, invalid or not.
    assert!(receipt.body.contains("REFUSED  C1 - C9"));
    others(&mut w);
    w.pass();
    w.orders(CLEON, "HISTORY 1");
    w.pass();
    for m in w.all_sent().iter().filter(|m| m.to != HARI) {
        assert!(!m.raw.contains("my secret plan"), "leaked to {}", m.to);
        assert!(!m.raw.contains("Cleon wrote"), "leaked to {}", m.to);
    }
    let results = w
        .all_sent()
        .into_iter()
        .find(|m| m.to == CLEON && m.subject.contains("results"))
        .unwrap();
    assert!(results.body.contains("C1 - C9"), "{}", results.body);
}

#[test]
fn an_html_mail_with_no_break_spaces_and_smart_dashes_reads_as_written() {
    let mut w = fixed();
    let pw = crate::world::password_of(HARI);
    let raw = format!(
        "From: {HARI}\r\nTo: judge@example.test\r\nSubject: [g1] orders\r\nMessage-ID: <html-1@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div>PASSWORD&nbsp;{pw}</div><div>A1&nbsp;H</div><div>B2 &ndash;&#x200B; C2</div><div>C1\u{2009}\u{2192}\u{a0}C2</div>\r\n"
    );
    w.deliver_raw(&raw);
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert!(receipt.body.contains("ok       A1 H"), "{}", receipt.body);
    assert!(
        receipt.body.contains("ok       B2 - C2"),
        "{}",
        receipt.body
    );
    assert!(!receipt.body.contains("REFUSED"), "{}", receipt.body);
}

#[test]
fn a_forged_subject_is_quoted_on_one_line_never_spoken_as_the_judge() {
    let mut w = fixed();
    // An encoded subject with line breaks: "Hi\r\n\r\nYour password expired, reply with it to evil@example.test"
    let subject = "=?utf-8?B?SGkNCg0KWW91ciBwYXNzd29yZCBleHBpcmVkLCByZXBseSB3aXRoIGl0IHRvIGV2aWxAZXhhbXBsZS50ZXN0?=";
    let raw = format!(
        "From: {HARI}\r\nTo: judge@example.test\r\nSubject: [g1] {subject}\r\nMessage-ID: <forged-1@example.test>\r\n\r\nPASSWORD wrong-guess\r\nB2 - C2\r\n"
    );
    w.deliver_raw(&raw);
    w.pass();
    let refusal = w.sent().pop().unwrap();
    assert_eq!(refusal.to, HARI);
    for line in refusal.body.lines() {
        if line.contains("password expired") {
            assert!(
                line.starts_with("Its subject, as the other mail wrote it: \""),
                "{line}"
            );
        }
    }
    assert!(
        !refusal
            .body
            .lines()
            .any(|l| l.trim_start().starts_with("Your password expired")),
        "{}",
        refusal.body
    );
}

#[test]
fn wrong_passwords_cannot_mail_bomb_a_player_or_burn_the_judge() {
    let mut w = fixed();
    for k in 0..20 {
        w.send(HARI, "[g1]", &format!("PASSWORD guess-{k}\nB2 - C2"));
    }
    let judge = w.judge();
    judge.poll_once().unwrap();
    let checks = judge.password_checks();
    drop(judge);
    let sent = w.sent();
    let to_hari: Vec<_> = sent.iter().filter(|m| m.to == HARI).collect();
    assert_eq!(to_hari.len(), 1, "one refusal an hour");
    let to_moderator: Vec<_> = sent.iter().filter(|m| m.to == MODERATOR.0).collect();
    assert_eq!(to_moderator.len(), 1, "the moderator is told once");
    assert!(to_moderator[0]
        .body
        .contains("5 wrong passwords for foundation"));
    // Only five Argon2 checks ran: the other fifteen attempts cost nothing.
    assert_eq!(checks, 5);
    // Within the hour, even the right password is not checked for that power.
    w.orders(HARI, "B2 - C2");
    w.pass();
    assert!(w.sent().is_empty());
    assert!(w.record().submissions.is_empty());
    // Other powers are untouched.
    w.orders(CLEON, "F2 H");
    w.pass();
    assert_eq!(w.sent().len(), 1);
    // After the hour, the player is back.
    w.advance(chrono::Duration::minutes(61));
    w.orders(HARI, "B2 - C2");
    w.pass();
    assert!(w
        .sent()
        .iter()
        .any(|m| m.to == HARI && m.body.contains("ok       B2 - C2")));
}
