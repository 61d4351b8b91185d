//! Hostile and careless mail through the real Maildir transport and a real sled store:
//! secrets never leave the judge, free text stays with its sender, Unicode from real
//! mail clients reads as a person would, every input is bounded, poison mail is set
//! aside, the judge's voice is not lent to forgers, and it cannot be used to mail-bomb.

use std::time::Instant;

use crate::judge::{fixed, CLEON, HARI, MULE, PREEM};
use crate::world::{squash, World, MODERATOR};

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
    eprintln!("10 MB pass: {took:?}");
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
        "B2 - C2\nCleon wrote to me on Sunday\nLet us ally against the Mule, my secret plan is C4\nC1 - C9\nOn Sun, 22 Nov 2026, Cleon wrote:\n",
    );
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert_eq!(receipt.to, HARI);
    assert!(
        receipt
            .body
            .contains("NOT READ Cleon wrote to me on Sunday"),
        "{}",
        receipt.body
    );
    assert!(receipt.body.contains("my secret plan"));
    // The line a mail program puts above a quote is not read at all.
    assert!(!receipt.body.contains("On Sun, 22 Nov"), "{}", receipt.body);
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

#[test]
fn a_groups_passwords_are_checked_side_by_side_once_each_and_a_wrong_one_still_refused() {
    let mut w = fixed();
    // Four players' first mails in one group (each password checked in full once,
    // side by side), one of them with a wrong password, and a second mail of each.
    w.orders(HARI, "B2 - C2");
    w.orders(CLEON, "F2 H");
    w.send(MULE, "[g1] orders", "PASSWORD not-mules\nE4 H");
    w.orders(PREEM, "A4 H");
    w.orders(HARI, "B2 - C3");
    w.send(MULE, "[g1] orders", "PASSWORD not-mules\nE4 H");
    let judge = w.judge();
    judge.poll_once().unwrap();
    let checks = judge.password_checks();
    drop(judge);
    // Hari, Cleon and Preem right (remembered), Mule's wrong one checked once for the
    // group (its second use is known wrong in this commit, not checked again).
    assert_eq!(checks, 4);
    let sent = w.sent();
    let to = |a: &str| sent.iter().filter(|m| m.to == a).count();
    assert_eq!((to(HARI), to(CLEON), to(PREEM)), (2, 1, 1));
    let to_mule: Vec<_> = sent.iter().filter(|m| m.to == MULE).collect();
    assert_eq!(to_mule.len(), 1, "one refusal an hour");
    assert!(
        to_mule[0].body.contains("The password was wrong."),
        "{}",
        to_mule[0].body
    );
    let record = w.record();
    assert_eq!(record.submissions.len(), 3);
    assert!(record.submissions["foundation"].orders.contains("B2 - C3"));
    assert!(!record.submissions.contains_key("union"));
}

#[test]
fn a_mail_that_fails_is_set_aside_after_three_attempts_and_the_rest_goes_on() {
    let mut w = fixed();
    w.send(
        HARI,
        "[g1] pbem-fault",
        &format!("PASSWORD {}\nB2 - C2", crate::world::password_of(HARI)),
    );
    w.orders(CLEON, "F2 H");
    for pass in 1..=4 {
        let mut judge = w.judge();
        judge.set_group_size(2);
        judge.crash_at(pbem::judge::CrashPoint::Fail, 0);
        let report = judge
            .poll_once()
            .expect("a faulty mail does not stop the pass");
        assert_eq!(report.errors.len(), 1, "pass {pass}: {:?}", report.errors);
        if pass == 4 {
            assert!(
                report.errors[0].contains("set aside"),
                "{:?}",
                report.errors
            );
        }
    }
    let sent = w.sent();
    // Cleon's mail, in the same group, was answered on the first pass.
    assert_eq!(sent.iter().filter(|m| m.to == CLEON).count(), 1);
    assert!(sent.iter().all(|m| m.to != HARI));
    let notice: Vec<_> = sent.iter().filter(|m| m.to == MODERATOR.0).collect();
    assert_eq!(notice.len(), 1, "the moderator is told once");
    assert!(notice[0].body.contains("set aside"), "{}", notice[0].body);
    assert!(!w.record().submissions.contains_key("foundation"));
    // Later passes leave it alone.
    w.pass();
    assert!(w.sent().is_empty());
}

#[test]
fn a_mail_that_hangs_ends_the_daemon_and_is_set_aside_after_three_restarts() {
    use std::process::Command;
    let mut w = fixed();
    let config = w.dir.path().join("games.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text.replacen(
            "[judge]\n",
            "[judge]\nbudget_seconds = 1\npoll_seconds = 1\n",
            1,
        ),
    )
    .unwrap();
    w.send(
        HARI,
        "[g1] pbem-fault",
        &format!("PASSWORD {}\nB2 - C2", crate::world::password_of(HARI)),
    );
    w.orders(CLEON, "F2 H");
    for _ in 0..3 {
        let start = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["serve", "--config"])
            .arg(&config)
            .env("PBEM_CRASH", "hang:0")
            // The game's deadline was set by the world's clock; the judge runs on it.
            .env("PBEM_NOW", w.now().to_rfc3339())
            .env("RUST_LOG", "error")
            .output()
            .unwrap();
        assert_eq!(status.status.code(), Some(75), "{status:?}");
        assert!(start.elapsed().as_secs() < 30);
    }
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["poll-once", "--config"])
        .arg(&config)
        .env("PBEM_NOW", w.now().to_rfc3339())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("set aside"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent = w.sent();
    assert_eq!(
        sent.iter().filter(|m| m.to == CLEON).count(),
        1,
        "answered once"
    );
    assert!(sent.iter().all(|m| m.to != HARI));
    assert_eq!(sent.iter().filter(|m| m.to == MODERATOR.0).count(), 1);
}

/// Game g1 as [`fixed`] has it, and a second game, g2, beside it (the same players),
/// both welcomed.
fn with_second_game() -> World {
    let mut w = fixed();
    let path = w.dir.path().join("games.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let game = &text[text.find("[[game]]").unwrap()..];
    std::fs::write(
        &path,
        format!("{text}\n{}", game.replacen("id = \"g1\"", "id = \"g2\"", 1)),
    )
    .unwrap();
    w.config = pbem::config::Config::load(&path).unwrap();
    w.pass();
    w.sent();
    w
}

#[test]
fn a_game_whose_adjudication_fails_is_suspended_and_the_other_games_go_on() {
    let mut w = with_second_game();
    w.advance(chrono::Duration::hours(49));
    {
        let mut judge = w.judge();
        judge.crash_at(pbem::judge::CrashPoint::FailAdjudication, 0);
        let report = judge.poll_once().expect("the pass goes on");
        // g1's adjudication failed; g2's, in the same pass, went well.
        assert_eq!(report.phases_adjudicated, 1, "{report:?}");
    }
    let record = w.record();
    assert!(record.suspended.is_some(), "g1 is suspended");
    let sent = w.sent();
    let notices: Vec<_> = sent
        .iter()
        .filter(|m| m.subject.contains("Game suspended"))
        .collect();
    assert!(!notices.is_empty() && notices.iter().all(|m| m.to == MODERATOR.0));
    // A clean pass: g1 stays suspended (no retry loop).
    w.pass();
    assert!(w.record().suspended.is_some());
    // `pbem game show` says so, not "Paused" (its clock is stopped too).
    let show = crate::community_playtest::game_show(&w);
    assert!(
        show.contains("\nSuspended: adjudicating turn 1 movement failed"),
        "{show}"
    );
    let g2 = w.judge().record("g2").unwrap().unwrap();
    assert!(g2.suspended.is_none());
    assert_eq!(
        g2.game.label().turn,
        2,
        "g2 was adjudicated at its deadline"
    );
    // RESUME lets the judge try again.
    w.send(
        MODERATOR.0,
        "[g1] resume",
        &format!("PASSWORD {}\nRESUME", MODERATOR.1),
    );
    w.pass();
    w.advance(chrono::Duration::minutes(1));
    w.pass();
    assert!(w.record().suspended.is_none());
    assert_eq!(w.record().game.label().turn, 2);
}

/// Replaces the stored bytes of a game's record (the judge is not running).
fn store_record_bytes(w: &World, id: &str, bytes: &[u8]) -> Vec<u8> {
    let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
    let key = format!("v1/game/{id}");
    let old = store.get_raw(&key).unwrap().expect("the game has a record");
    store.put_raw_now(&key, bytes).unwrap();
    old
}

#[test]
fn a_game_whose_record_cannot_be_read_waits_alone_and_its_moderators_are_told_once() {
    let mut w = with_second_game();
    // g1's record is damaged (a disk fault, or a state another pbem wrote).
    let good = store_record_bytes(&w, "g1", br#"{"game": {"rules": 17"#);
    let pw = crate::world::password_of(HARI);
    w.send(HARI, "[g1] orders", &format!("PASSWORD {pw}\nB2 - C3"));
    w.send(HARI, "[g2] orders", &format!("PASSWORD {pw}\nB2 - C3"));
    w.send(
        CLEON,
        "[g2] orders",
        &format!("PASSWORD {}\nF2 H", crate::world::password_of(CLEON)),
    );
    // Both games' deadlines pass.
    w.advance(chrono::Duration::hours(49));
    let report = {
        let mut judge = w.judge();
        judge.set_group_size(2);
        let first = judge
            .poll_once()
            .expect("a damaged game does not stop the pass");
        // A judge that runs on (`pbem serve`) tells it in its first pass only, not in
        // every pass while the game waits.
        let again = judge.poll_once().expect("the next pass");
        assert!(again.errors.is_empty(), "{:?}", again.errors);
        first
    };
    assert_eq!(report.phases_adjudicated, 1, "g2 is played: {report:?}");
    assert!(
        report
            .errors
            .iter()
            .any(|e| e.contains("g1") && e.contains("cannot be read")),
        "{:?}",
        report.errors
    );
    let g2 = w.judge().record("g2").unwrap().unwrap();
    assert_eq!(
        g2.game.label().turn,
        2,
        "g2 was adjudicated at its deadline"
    );
    assert!(g2.submissions.is_empty());
    let sent = w.sent();
    // The player's mail to g1 is answered: nothing of it took effect.
    let to_hari: Vec<_> = sent
        .iter()
        .filter(|m| m.to == HARI && m.subject.contains("[g1]"))
        .collect();
    assert_eq!(to_hari.len(), 1, "{to_hari:#?}");
    assert!(
        squash(&to_hari[0].body).contains("cannot read game g1's record")
            && squash(&to_hari[0].body)
                .contains("nothing of your mail (subject \"[g1] orders\") took effect"),
        "{}",
        to_hari[0].body
    );
    assert!(!to_hari[0].body.contains(&pw));
    let told: Vec<_> = sent
        .iter()
        .filter(|m| m.to == MODERATOR.0 && m.subject.contains("[g1]"))
        .collect();
    assert_eq!(told.len(), 1, "the moderator is told once: {told:#?}");
    assert!(
        squash(&told[0].body).contains("cannot read this game's record"),
        "{}",
        told[0].body
    );
    assert!(told[0].body.contains("v1/game/g1"), "{}", told[0].body);
    // Later passes do not tell again, and fail no more.
    w.send(
        CLEON,
        "[g1] orders",
        &format!("PASSWORD {}\nF2 H", crate::world::password_of(CLEON)),
    );
    let report = w.pass();
    assert_eq!(report.phases_adjudicated, 0);
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "only Cleon's answer: {sent:#?}");
    assert_eq!(sent[0].to, CLEON);
    // HELP lists the games the judge can read (g1 waits for its moderators).
    w.send(HARI, "help", "HELP");
    w.pass();
    let help = w.sent();
    assert_eq!(help.len(), 1, "{help:#?}");
    assert!(
        help[0].body.contains("g2") && !help[0].body.contains("g1"),
        "{}",
        help[0].body
    );
    // The record mended (a restore), the game goes on: its deadline, long past, is kept.
    store_record_bytes(&w, "g1", &good);
    let report = w.pass();
    assert_eq!(report.phases_adjudicated, 1, "{report:?}");
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(w.record().game.label().turn, 2);
    // Damaged again later, the moderators hear of it again.
    store_record_bytes(&w, "g1", b"[]");
    w.sent();
    w.advance(chrono::Duration::hours(49));
    w.pass();
    let told = w
        .sent()
        .into_iter()
        .filter(|m| m.to == MODERATOR.0 && m.subject.contains("[g1]"))
        .count();
    assert_eq!(told, 1);
}
