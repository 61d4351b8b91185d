//! What a community around a judge needs (issue 18): press relayed between powers,
//! observers, anonymity, absences — each through the Maildir transport and a real sled
//! store. Committed dice are in `committed_dice`, games that change without a restart
//! in `reload`.

use chrono::Duration;

use crate::world::{password_of, squash, Sent, World, FIXED_START, MODERATOR, PLAYERS};

pub(crate) const HARI: &str = "hari@example.test";
const CLEON: &str = "cleon@example.test";
const MULE: &str = "mule@example.test";
const PREEM: &str = "preem@example.test";
const WATCHER: &str = "watcher@example.test";

/// A game from fixed start positions with these game options (lines of the game's
/// table), its welcome mails read.
pub(crate) fn game(extra: &str) -> World {
    let mut w = World::new(&format!("{extra}\n{FIXED_START}"));
    w.pass();
    let welcome = w.sent();
    assert_eq!(
        welcome.len(),
        5,
        "one welcome mail a player, one to the moderator"
    );
    w
}

pub fn to<'a>(sent: &'a [Sent], address: &str) -> Vec<&'a Sent> {
    sent.iter().filter(|m| m.to == address).collect()
}

pub fn header<'a>(m: &'a Sent, name: &str) -> Option<&'a str> {
    let head = m.raw.split("\r\n\r\n").next().unwrap_or("");
    head.split("\r\n")
        .find(|l| {
            l.len() > name.len()
                && l[..name.len()].eq_ignore_ascii_case(name)
                && l[name.len()..].starts_with(':')
        })
        .map(|l| l[name.len() + 1..].trim())
}

/// Everything a reader sees of a mail: headers, text, attachment.
fn everything(m: &Sent) -> String {
    let mut text = m.raw.clone();
    text += &m.body;
    if let Some((_, a)) = &m.attachment {
        text += a;
    }
    text
}

/// No address of another player anywhere in a mail to a player.
fn assert_no_other_address(m: &Sent, players: &[&str]) {
    for a in players {
        if *a != m.to {
            assert!(
                !everything(m).contains(a),
                "a mail to {} ({:?}) shows {a}:\n{}",
                m.to,
                m.subject,
                m.body
            );
        }
    }
}

#[test]
fn press_reaches_exactly_the_named_powers_signed_with_a_power_never_an_address() {
    let mut w = game("");
    w.orders(
        HARI,
        "PRESS TO imperium union\nShall we share the Periphery?\nEND",
    );
    w.pass();
    let sent = w.sent();
    let press: Vec<&Sent> = sent
        .iter()
        .filter(|m| m.subject.contains("Press"))
        .collect();
    let mut got: Vec<&str> = press.iter().map(|m| m.to.as_str()).collect();
    got.sort();
    assert_eq!(got, [CLEON, MULE], "to imperium and union only: {sent:#?}");
    for m in &press {
        assert_eq!(m.subject, "[g1] Press from foundation");
        assert!(
            m.body.contains("Shall we share the Periphery?"),
            "{}",
            m.body
        );
        assert!(
            !everything(m).contains(HARI),
            "the sender's address shows:\n{}",
            m.raw
        );
        assert_eq!(
            header(m, "Reply-To"),
            Some("judge+g1.foundation@example.test"),
            "{}",
            m.raw
        );
    }
    let receipt = to(&sent, HARI);
    assert_eq!(receipt.len(), 1);
    assert!(
        receipt[0].body.contains("PRESS to imperium, union: sent."),
        "{}",
        receipt[0].body
    );
    // The press is not an order: the phase still waits for the foundation's orders.
    assert!(w.record().submissions.is_empty());

    // A reply goes back through the judge to the foundation, signed imperium.
    w.deliver_raw(&format!(
        "From: {CLEON}\r\nTo: judge+g1.foundation@example.test\r\nSubject: Re: [g1] Press from foundation\r\nMessage-ID: <reply-1@example.test>\r\n\r\nPASSWORD {}\r\nOnly if Siwenna stays mine.\r\n",
        password_of(CLEON)
    ));
    w.pass();
    let sent = w.sent();
    let back = press_mails(&sent);
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].to, HARI);
    assert_eq!(back[0].subject, "[g1] Press from imperium");
    assert!(back[0].body.contains("Only if Siwenna stays mine."));
    assert!(!everything(back[0]).contains(CLEON));

    // BROADCAST: every other power.
    w.orders(PREEM, "BROADCAST\nTazenda keeps to itself.\nEND");
    w.pass();
    let sent = w.sent();
    let mut got: Vec<&str> = sent
        .iter()
        .filter(|m| m.subject == "[g1] Press from tazenda")
        .map(|m| m.to.as_str())
        .collect();
    got.sort();
    assert_eq!(got, [CLEON, HARI, MULE]);

    // HISTORY PRESS: what this power sent or received, nothing else.
    w.orders(MULE, "HISTORY PRESS");
    w.pass();
    let sent = w.sent();
    let h = to(&sent, MULE);
    assert_eq!(h.len(), 1);
    assert!(
        h[0].body.contains("Shall we share the Periphery?"),
        "{}",
        h[0].body
    );
    assert!(h[0].body.contains("Tazenda keeps to itself."));
    assert!(
        !h[0].body.contains("Only if Siwenna stays mine."),
        "press between others stays theirs:\n{}",
        h[0].body
    );
}

#[test]
fn grey_press_may_be_anonymous_and_its_replies_find_the_sender() {
    let mut w = game("press = \"grey\"");
    w.orders(HARI, "PRESS ANON TO imperium\nWatch the union.\nEND");
    w.pass();
    let sent = w.sent();
    let press: Vec<&Sent> = sent
        .iter()
        .filter(|m| m.subject.contains("Press"))
        .collect();
    assert_eq!(press.len(), 1);
    let m = press[0];
    assert_eq!(m.to, CLEON);
    assert_eq!(m.subject, "[g1] Press from anonymous");
    assert!(!everything(m).contains("foundation"), "{}", m.raw);
    assert!(!everything(m).contains(HARI));
    let reply_to = header(m, "Reply-To").unwrap().to_string();
    assert!(reply_to.starts_with("judge+g1.anon"), "{reply_to}");
    // The token is 64 random bits, not a count anyone could guess from their own.
    let token = reply_to
        .trim_start_matches("judge+g1.anon")
        .trim_end_matches("@example.test");
    assert!(
        token.len() == 16 && token.bytes().all(|b| b.is_ascii_hexdigit()),
        "{reply_to}"
    );
    assert!(to(&sent, HARI)[0]
        .body
        .contains("PRESS (anonymous) to imperium: sent."));
    // The reply reaches the foundation without telling the imperium who it was.
    w.deliver_raw(&format!(
        "From: {CLEON}\r\nTo: {reply_to}\r\nSubject: Re: press\r\nMessage-ID: <reply-2@example.test>\r\n\r\nPASSWORD {}\r\nWho are you?\r\n",
        password_of(CLEON)
    ));
    w.pass();
    let sent = w.sent();
    let back = press_mails(&sent);
    assert_eq!(back.len(), 1);
    assert_eq!(back[0].to, HARI);
    assert!(back[0].body.contains("Who are you?"));
    let receipt = to(&sent, CLEON);
    // Press alone is no orders mail.
    assert_eq!(receipt[0].subject, "[g1] Mail received: turn 1 movement");
    assert!(
        !receipt[0].body.contains("PRESS to foundation"),
        "{}",
        receipt[0].body
    );
    // The imperium's own HISTORY PRESS keeps the sender anonymous.
    w.orders(CLEON, "HISTORY PRESS");
    w.pass();
    let h = w.sent();
    assert!(
        h[0].body.contains("from anonymous to imperium"),
        "{}",
        h[0].body
    );
    assert!(!h[0].body.contains("from foundation"));
    // The moderator sees who sent it, and that it went anonymously.
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {}\nHISTORY PRESS", MODERATOR.1),
    );
    w.pass();
    let h = w.sent();
    assert!(
        squash(&h[0].body).contains("from foundation to imperium (anonymously):"),
        "{}",
        h[0].body
    );
}

/// The press among mails sent.
fn press_mails(sent: &[Sent]) -> Vec<&Sent> {
    sent.iter()
        .filter(|m| m.subject.contains("Press"))
        .collect()
}

/// A reply by `from` to the press address `reply_to`.
fn reply_to_press(w: &mut World, from: &str, reply_to: &str, id: &str, text: &str) {
    w.deliver_raw(&format!(
        "From: {from}\r\nTo: {reply_to}\r\nSubject: Re: press\r\nMessage-ID: <{id}@example.test>\r\n\r\nPASSWORD {}\r\n{text}\r\n",
        password_of(from)
    ));
}

#[test]
fn only_the_recipients_of_anonymous_press_may_answer_through_its_token() {
    let mut w = game("press = \"grey\"");
    w.orders(HARI, "PRESS ANON TO imperium\nWatch the union.\nEND");
    w.pass();
    let sent = w.sent();
    let reply_to = header(to(&sent, CLEON)[0], "Reply-To").unwrap().to_string();
    assert!(reply_to.starts_with("judge+g1.anon"), "{reply_to}");
    // The union learns the token (a forwarded mail, a careless recipient): its mail
    // through it goes nowhere, and is told as for a token that does not exist.
    reply_to_press(&mut w, MULE, &reply_to, "mule-1", "I know who you are.");
    w.pass();
    let sent = w.sent();
    assert!(
        sent.iter().all(|m| !m.subject.contains("Press")),
        "no press relayed: {sent:#?}"
    );
    let receipt = to(&sent, MULE);
    assert_eq!(receipt.len(), 1, "{sent:#?}");
    let token = reply_to
        .trim_start_matches("judge+g1.")
        .trim_end_matches("@example.test");
    assert!(
        squash(&receipt[0].body).contains(&format!(
            "A reply to press for \"{token}\", which is no power or press of this game: nothing was sent."
        )),
        "{}",
        receipt[0].body
    );
    assert!(
        !receipt[0].body.contains("the anonymous sender: sent"),
        "{}",
        receipt[0].body
    );
    // The recipient still may.
    reply_to_press(&mut w, CLEON, &reply_to, "cleon-1", "Who are you?");
    w.pass();
    let sent = w.sent();
    let back = press_mails(&sent);
    assert_eq!(back.len(), 1, "{sent:#?}");
    assert_eq!(back[0].to, HARI);
}

#[test]
fn a_press_token_kept_before_recipients_were_stored_answers_only_those_who_got_anonymous_press() {
    let mut w = game("press = \"grey\"");
    w.orders(HARI, "PRESS ANON TO imperium\nWatch the union.\nEND");
    w.pass();
    w.sent();
    // A token as a pbem before 2026-11-25 kept it: the sender's power alone, under a
    // name counted up (so others could guess it).
    {
        let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
        store
            .put_raw_now("v1/press-token/g1/anon1", br#""foundation""#)
            .unwrap();
    }
    let old = "judge+g1.anon1@example.test";
    reply_to_press(&mut w, MULE, old, "mule-1", "Guessed it.");
    w.pass();
    let sent = w.sent();
    assert!(
        sent.iter().all(|m| !m.subject.contains("Press")),
        "the union got no anonymous press from the foundation: {sent:#?}"
    );
    reply_to_press(&mut w, CLEON, old, "cleon-1", "Who are you?");
    w.pass();
    let sent = w.sent();
    let back = press_mails(&sent);
    assert_eq!(back.len(), 1, "{sent:#?}");
    assert_eq!(back[0].to, HARI);
    assert!(back[0].body.contains("Who are you?"));
}

#[test]
fn press_the_game_forbids_is_refused_with_the_reason_and_sent_to_nobody() {
    let cases = [
        (
            "press = \"none\"",
            "PRESS TO imperium\nhello\nEND",
            "this game has no press",
        ),
        (
            "",
            "PRESS ANON TO imperium\nhello\nEND",
            "anonymous press is for grey-press games",
        ),
        (
            "press_during = [\"retreat\"]",
            "PRESS TO imperium\nhello\nEND",
            "press is allowed in the retreat phases, not in this movement phase",
        ),
        (
            "",
            "PRESS TO klingons\nhello\nEND",
            "klingons is not a power of this game",
        ),
    ];
    for (options, body, reason) in cases {
        let mut w = game(options);
        w.orders(HARI, body);
        w.pass();
        let sent = w.sent();
        assert_eq!(sent.len(), 1, "{options}: the receipt only");
        assert_eq!(sent[0].to, HARI);
        assert!(
            squash(&sent[0].body).contains(reason),
            "{options}: {}",
            sent[0].body
        );
    }
}

#[test]
fn observers_get_the_public_results_and_no_press_and_a_moderator_can_remove_them() {
    let mut w = game("max_observers = 1");
    w.send(WATCHER, "observe", "OBSERVE g1");
    w.send("second@example.test", "observe", "OBSERVE g1");
    w.pass();
    let sent = w.sent();
    assert!(to(&sent, WATCHER)[0]
        .body
        .contains("you now receive game g1's public results"));
    assert!(
        to(&sent, "second@example.test")[0]
            .body
            .contains("takes no more observers (it takes 1 at most)"),
        "the limit holds"
    );
    w.orders(
        HARI,
        "ORDERS\nB2 - C2\nEND\nPRESS TO imperium\nsecret plans\nEND",
    );
    w.orders(CLEON, "F2 - E2");
    w.orders(MULE, "E4 - D3");
    w.orders(PREEM, "C4 - C3");
    w.pass();
    let sent = w.sent();
    let watched = to(&sent, WATCHER);
    assert_eq!(
        watched.len(),
        1,
        "{:?}",
        watched.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(
        watched[0].subject.contains("results"),
        "{}",
        watched[0].subject
    );
    assert!(watched[0].body.contains("B2 - C2"));
    assert!(!everything(watched[0]).contains("secret plans"));
    for p in [HARI, CLEON, MULE, PREEM] {
        assert!(
            !everything(watched[0]).contains(p),
            "an observer sees no address"
        );
    }
    // The moderator lists the observers and removes one.
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!(
            "PASSWORD {}\nOBSERVERS\nREMOVE OBSERVER {WATCHER}\nOBSERVERS",
            MODERATOR.1
        ),
    );
    w.pass();
    let sent = w.sent();
    let answer = &to(&sent, MODERATOR.0)[0].body;
    assert!(
        answer.contains(&format!("OBSERVERS (1 of at most 1): {WATCHER}")),
        "{answer}"
    );
    assert!(answer.contains(&format!("REMOVE OBSERVER: {WATCHER} no longer observes.")));
    assert!(answer.contains("OBSERVERS: nobody observes this game."));
    w.advance(Duration::hours(72));
    w.pass();
    assert!(
        to(&w.sent(), WATCHER).is_empty(),
        "removed: no more results"
    );
    // UNOBSERVE answers, and a game's observer password is asked for.
    let mut w = game(&format!(
        "observer_password = \"{}\"",
        crate::world::hash_of("pw-watch-31")
    ));
    w.send(WATCHER, "observe", "OBSERVE g1");
    w.pass();
    assert!(w.sent()[0]
        .body
        .contains("asks observers for its observer password"));
    w.send(WATCHER, "observe", "OBSERVE g1\nPASSWORD pw-watch-31");
    w.pass();
    let sent = w.sent();
    assert!(sent[0].body.contains("you now receive"));
    assert!(!sent[0].raw.contains("pw-watch-31"));
    w.send(WATCHER, "unobserve", "UNOBSERVE g1");
    w.pass();
    assert!(w.sent()[0]
        .body
        .contains("you no longer receive game g1's results"));
}

/// OBSERVE or UNOBSERVE in a player's orders mail is answered, and the orders beside it
/// are still read (they used to be dropped without a word).
#[test]
fn an_observe_line_beside_orders_leaves_the_orders_read() {
    let mut w = game("");
    w.orders(HARI, "B2 - C2\nUNOBSERVE g1");
    w.pass();
    let sent = w.sent();
    let to_hari = to(&sent, HARI);
    let observing = to_hari
        .iter()
        .find(|m| m.subject == "[g1] Observing")
        .expect("the UNOBSERVE answered");
    assert!(
        observing
            .body
            .starts_with("Game g1:\n\nUNOBSERVE: you were not observing game g1."),
        "{}",
        observing.body
    );
    let receipt = to_hari
        .iter()
        .find(|m| m.subject.contains("Orders received"))
        .expect("a receipt for the orders");
    assert!(receipt.body.contains("B2 - C2"), "{}", receipt.body);
    assert_eq!(
        w.record().submissions["foundation"].orders.trim(),
        "B2 - C2"
    );
    // A player's OBSERVE with a greeting and no password is only an OBSERVE: no
    // refusal for the missing password, no receipt.
    w.send(HARI, "[g1] watching", "OBSERVE g1\nThanks, see you");
    w.pass();
    let sent = w.sent();
    assert_eq!(
        sent.len(),
        1,
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert_eq!(sent[0].subject, "[g1] Observing");
    // A stranger's OBSERVE of no game here: no header standing for a game.
    w.send(WATCHER, "observe", "OBSERVE nowhere");
    w.pass();
    let sent = w.sent();
    let answer = to(&sent, WATCHER)[0];
    assert_eq!(answer.subject, "Observing");
    assert!(
        answer
            .body
            .starts_with("There is no game \"nowhere\" here."),
        "{}",
        answer.body
    );
}

/// The game-over mail tells the players and moderators who played which power; an
/// observer gets it without the addresses.
#[test]
fn the_game_over_mail_shows_observers_no_address() {
    let mut w = game("");
    w.send(WATCHER, "observe", "OBSERVE g1");
    w.pass();
    w.sent();
    w.end_game();
    w.pass();
    let sent = w.sent();
    let over = |address: &str| {
        sent.iter()
            .find(|m| m.to == address && m.subject == "[g1] Game over")
            .unwrap_or_else(|| panic!("{address} told"))
            .body
            .clone()
    };
    let player = over(HARI);
    assert!(player.contains("Game g1 is over in turn 1."), "{player}");
    assert!(
        player.contains("It was ended by a moderator on"),
        "{player}"
    );
    assert!(player.contains("Who played:"), "{player}");
    assert!(player.contains(CLEON), "{player}");
    let observer = over(WATCHER);
    assert!(!observer.contains("Who played:"), "{observer}");
    for (_, address, _) in PLAYERS {
        assert!(!observer.contains(address), "{observer}");
    }
}

#[test]
fn an_anonymous_game_shows_no_player_another_players_address_in_five_turns() {
    let mut w = game("anonymous = true\npress = \"grey\"");
    let players: Vec<&str> = PLAYERS.iter().map(|(_, a, _)| *a).collect();
    let mut all = Vec::new();
    for turn in 0..5 {
        w.orders(
            HARI,
            "PRESS TO imperium union tazenda\nHello from the edge.\nEND\nBOARD",
        );
        w.orders(CLEON, "HISTORY PRESS");
        if turn == 2 {
            // A player leaves; the new one is announced by power, not by address.
            w.send(
                MODERATOR.0,
                "[g1]",
                &format!("PASSWORD {}\nREPLACE union tosh@example.test", MODERATOR.1),
            );
        }
        w.advance(Duration::hours(72));
        w.pass();
        all.extend(w.sent());
    }
    w.end_game();
    w.pass();
    all.extend(w.sent());
    assert!(all.iter().any(|m| m.subject.contains("Game over")));
    assert!(all.iter().filter(|m| m.subject.contains("results")).count() >= 15);
    let mut everyone = players.clone();
    everyone.push("tosh@example.test");
    let mut moderator_saw = false;
    for m in &all {
        if m.to == MODERATOR.0 {
            moderator_saw |= everything(m).contains(MULE) || everything(m).contains("tosh");
            continue;
        }
        assert_no_other_address(m, &everyone);
    }
    assert!(moderator_saw, "the moderator sees everything");
}

#[test]
fn an_absence_moves_the_deadline_that_falls_inside_it_to_its_end() {
    let mut w = game("");
    let deadline = w.record().deadline.unwrap();
    let from = (w.now() + Duration::hours(1)).to_rfc3339();
    let until = deadline + Duration::days(3);
    w.orders(HARI, &format!("ABSENCE {from} {}", until.to_rfc3339()));
    w.pass();
    let sent = w.sent();
    let receipt = &to(&sent, HARI)[0].body;
    assert!(
        squash(receipt).contains("deadlines that fall inside move to its end"),
        "{receipt}"
    );
    assert_eq!(w.record().deadline, Some(until));
    // The other players are told the new deadline, not whose absence moved it.
    for other in [CLEON, MULE, PREEM] {
        let told = to(&sent, other);
        assert_eq!(told.len(), 1, "{other}");
        assert_eq!(told[0].subject, "[g1] Deadline moved");
        assert!(
            squash(&told[0].body).contains("A player's absence moved the deadline"),
            "{}",
            told[0].body
        );
        assert!(!told[0].body.contains(HARI) && !told[0].body.contains("foundation"));
    }
    // Too long is refused; a moderator cancels.
    w.orders(
        CLEON,
        &format!(
            "ABSENCE {from} {}",
            (w.now() + Duration::days(30)).to_rfc3339()
        ),
    );
    w.pass();
    assert!(w.sent()[0]
        .body
        .contains("an absence lasts at most 14 days"));
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {}\nABSENCE CANCEL foundation", MODERATOR.1),
    );
    w.pass();
    let sent = w.sent();
    assert!(to(&sent, MODERATOR.0)[0]
        .body
        .contains("ABSENCE CANCEL: 1 absence cancelled"));
    assert!(w.record().absences.is_empty());
    assert_eq!(to(&sent, HARI)[0].subject, "[g1] Absence cancelled");
}

#[test]
fn a_press_mail_is_relayed_exactly_once_whatever_point_the_judge_is_killed_at() {
    use pbem::judge::CrashPoint;
    for crash in [
        CrashPoint::AfterRawStored,
        CrashPoint::AfterCommit,
        CrashPoint::BeforeSend,
        CrashPoint::AfterSend,
    ] {
        let mut w = game("");
        w.orders(HARI, "PRESS TO imperium\nOnce only.\nEND");
        w.orders(PREEM, "BROADCAST\nAnd once from me.\nEND");
        let mut crashes = 0;
        for skip in 0..8 {
            if w.crashing_pass(crash, skip).is_err() {
                crashes += 1;
            }
        }
        w.pass();
        assert!(crashes >= 1, "{crash:?} never reached");
        let sent = w.all_sent();
        let count = |subject: &str, to: &str| {
            sent.iter()
                .filter(|m| m.subject == subject && m.to == to)
                .count()
        };
        assert_eq!(count("[g1] Press from foundation", CLEON), 1, "{crash:?}");
        assert_eq!(count("[g1] Press from foundation", MULE), 0, "{crash:?}");
        for p in [HARI, CLEON, MULE] {
            assert_eq!(count("[g1] Press from tazenda", p), 1, "{crash:?}");
        }
        let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
        assert_eq!(
            store.scan_raw("v1/press/g1/").unwrap().len(),
            2,
            "{crash:?}"
        );
    }
}

/// Diplomacy's powers are upper case (`GER`): press, a reply to press, `REPLACE` and
/// `ABSENCE CANCEL` name them in any case, and the judge uses the game's own spelling.
#[test]
fn powers_are_named_in_any_case_in_press_replace_and_absence() {
    use crate::diplomacy::DIPLOMACY_PLAYERS;
    let (franz, george, marianne, wilhelm) = (
        DIPLOMACY_PLAYERS[0].1,
        DIPLOMACY_PLAYERS[1].1,
        DIPLOMACY_PLAYERS[2].1,
        DIPLOMACY_PLAYERS[3].1,
    );
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    w.sent();
    w.orders(marianne, "PRESS TO ger Eng\nA channel tunnel?\nEND");
    w.pass();
    let sent = w.sent();
    let mut got: Vec<&str> = sent
        .iter()
        .filter(|m| m.subject == "[g1] Press from FRA")
        .map(|m| m.to.as_str())
        .collect();
    got.sort();
    assert_eq!(got, [george, wilhelm], "{sent:#?}");
    let receipt = to(&sent, marianne);
    assert!(
        receipt[0].body.contains("PRESS to ENG, GER: sent."),
        "{}",
        receipt[0].body
    );
    // A reply to the press's Reply-To (judge+g1.FRA@…) reaches France, signed GER.
    w.deliver_raw(&format!(
        "From: {wilhelm}\r\nTo: judge+g1.FRA@example.test\r\nSubject: Re: [g1] Press from FRA\r\nMessage-ID: <reply-fra@example.test>\r\n\r\nPASSWORD {}\r\nOnly if Belgium is mine.\r\n",
        password_of(wilhelm)
    ));
    w.pass();
    let sent = w.sent();
    let back: Vec<&Sent> = sent
        .iter()
        .filter(|m| m.subject == "[g1] Press from GER")
        .collect();
    assert_eq!(back.len(), 1, "{sent:#?}");
    assert_eq!(back[0].to, marianne);
    assert!(back[0].body.contains("Only if Belgium is mine."));
    // A reply to an address that names no power nor press is answered, not lost.
    w.deliver_raw(&format!(
        "From: {wilhelm}\r\nTo: judge+g1.xyz@example.test\r\nSubject: Re: [g1] Press\r\nMessage-ID: <reply-xyz@example.test>\r\n\r\nPASSWORD {}\r\nHello?\r\n",
        password_of(wilhelm)
    ));
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    assert_eq!(sent[0].to, wilhelm);
    assert!(
        squash(&sent[0].body).contains("A reply to press for \"xyz\", which is no power or press of this game: nothing was sent."),
        "{}",
        sent[0].body
    );
    // The moderator cancels Austria's absence naming it in lower case.
    w.orders(franz, "ABSENCE 2026-12-01 2026-12-05");
    w.pass();
    assert_eq!(w.record().absences.len(), 1);
    // The moderator learns of it (and may cancel it).
    let sent = w.sent();
    let told = to(&sent, MODERATOR.0);
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert_eq!(told[0].subject, "[g1] Absence");
    assert!(
        squash(&told[0].body).contains("AUS will be away from 2026-12-01"),
        "{}",
        told[0].body
    );
    w.send(
        MODERATOR.0,
        "[g1] moderation",
        &format!("PASSWORD {}\nABSENCE CANCEL aus", MODERATOR.1),
    );
    w.pass();
    assert!(w.record().absences.is_empty());
    let sent = w.sent();
    let note = to(&sent, MODERATOR.0);
    assert!(
        note[0].body.contains("ABSENCE CANCEL: 1 absence cancelled"),
        "{}",
        note[0].body
    );
    // Austria's player learns that the deadlines no longer wait for her.
    let told = to(&sent, franz);
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert_eq!(told[0].subject, "[g1] Absence cancelled");
    assert!(
        squash(&told[0].body).contains("The moderator cancelled your absence (2026-12-01"),
        "{}",
        told[0].body
    );
    // REPLACE names the power in lower case; the game keeps its spelling.
    w.send(
        MODERATOR.0,
        "[g1] moderation",
        &format!(
            "PASSWORD {}\nREPLACE ger otto.dip@example.test",
            MODERATOR.1
        ),
    );
    w.pass();
    assert_eq!(
        w.record().addresses.get("GER").map(String::as_str),
        Some("otto.dip@example.test")
    );
    assert!(!w.record().addresses.contains_key("ger"));
    let sent = w.sent();
    assert!(
        to(&sent, MODERATOR.0)[0]
            .body
            .contains("REPLACE: GER is now played from otto.dip@example.test"),
        "{}",
        to(&sent, MODERATOR.0)[0].body
    );
}
