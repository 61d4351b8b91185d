//! Findings of a play-test of the judge's community mail (observers, press, the end
//! of a game, mail as mailers send it), each played through Maildir and sled.

use pbem::rules::game::Viewer;

use crate::bfge_judge::BFGE_PLAYERS;
use crate::community::{game, HARI};
use crate::world::{squash, Sent, World, MODERATOR, PLAYERS};

const CLEON: &str = "cleon@example.test";
const MULE: &str = "mule@example.test";
const WATCHER: &str = "watcher@example.test";

fn to<'a>(sent: &'a [Sent], address: &str) -> Vec<&'a Sent> {
    sent.iter().filter(|m| m.to == address).collect()
}

fn header<'a>(m: &'a Sent, name: &str) -> Option<&'a str> {
    let head = m.raw.split("\r\n\r\n").next().unwrap_or("");
    head.split("\r\n")
        .find(|l| {
            l.len() > name.len()
                && l[..name.len()].eq_ignore_ascii_case(name)
                && l[name.len()..].starts_with(':')
        })
        .map(|l| l[name.len() + 1..].trim())
}

fn subjects(sent: &[Sent]) -> Vec<(&str, &str)> {
    sent.iter()
        .map(|m| (m.to.as_str(), m.subject.as_str()))
        .collect()
}

/// The mail interface lets "all" ask for BOARD: an observer of a game is answered
/// with the public board (what the judge shows observers in results mails), and so
/// for HISTORY and HELP; a stranger who observes nothing is refused as before.
#[test]
fn an_observer_may_ask_for_the_board_and_gets_the_public_one() {
    let mut w = game("");
    w.send(WATCHER, "observe", "OBSERVE g1");
    w.pass();
    w.sent();
    w.send(WATCHER, "[g1] board", "BOARD");
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "{:?}", subjects(&sent));
    assert_eq!(sent[0].to, WATCHER);
    assert_eq!(sent[0].subject, "[g1] Board");
    let public = w.record().game.play().board_text(Viewer::Public);
    assert!(sent[0].body.contains(&public), "{}", sent[0].body);
    for (_, address, _) in PLAYERS {
        assert!(
            !sent[0].raw.contains(address),
            "an observer sees no address"
        );
    }
    // Someone who observes nothing is not answered with the board.
    w.send("stranger@example.test", "[g1] board", "BOARD");
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "{:?}", subjects(&sent));
    assert_ne!(sent[0].subject, "[g1] Board");
    assert!(
        squash(&sent[0].body).contains("not a player or moderator of game g1"),
        "{}",
        sent[0].body
    );
}

/// In a game with hidden information (Battles for the Galactic Empire), an observer's
/// BOARD is the public view, what the observers' results mails show: never a power's.
#[test]
fn an_observer_s_board_of_a_game_with_hidden_information_is_the_public_view() {
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass();
    w.send(WATCHER, "observe", "OBSERVE g1");
    w.pass();
    w.sent();
    w.send(WATCHER, "[g1] board", "BOARD\nHISTORY");
    w.pass();
    let sent = w.sent();
    let board = sent
        .iter()
        .find(|m| m.subject == "[g1] Board")
        .unwrap_or_else(|| panic!("{:?}", subjects(&sent)));
    let record = w.record();
    let play = record.game.play();
    let public = play.board_text(Viewer::Public);
    assert!(board.body.contains(&public), "{}", board.body);
    for (power, _, _) in BFGE_PLAYERS {
        let own = play.board_text(Viewer::Power(power));
        assert_ne!(own, public, "{power}'s view is not the public one");
        assert!(
            !board.body.contains(&own),
            "{power}'s view:\n{}",
            board.body
        );
    }
    assert!(
        sent.iter().any(|m| m.subject.starts_with("[g1] History")),
        "{:?}",
        subjects(&sent)
    );
}

/// The moderator's copy of press (`press_to_moderator`) says where a reply goes, and
/// its Reply-To takes it there: to the sender's player, directly (moderators send no
/// press through the judge), not to the judge.
#[test]
fn the_moderator_s_copy_of_press_says_where_a_reply_goes_and_it_goes_there() {
    let mut w = game("press_to_moderator = true");
    w.orders(HARI, "PRESS TO imperium\nMeet me at Kalgan.\nEND");
    w.pass();
    let sent = w.sent();
    let copy = to(&sent, MODERATOR.0);
    assert_eq!(copy.len(), 1, "{:?}", subjects(&sent));
    let copy = copy[0];
    assert!(copy.body.contains("Meet me at Kalgan."), "{}", copy.body);
    assert_eq!(header(copy, "Reply-To"), Some(HARI), "{}", copy.raw);
    let words = squash(&copy.body);
    assert!(
        words.contains(&format!(
            "a reply to this mail goes to foundation's player, {HARI}, directly"
        )),
        "{}",
        copy.body
    );
    assert!(!words.contains("back through the judge"), "{}", copy.body);
    // The players' copies are as they were.
    let player = to(&sent, CLEON)[0];
    assert_eq!(
        header(player, "Reply-To"),
        Some("judge+g1.foundation@example.test")
    );
    assert!(squash(&player.body).contains("back through the judge"));
}

/// A mail's HISTORY PRESS sees the press an earlier mail of the same commit sent.
#[test]
fn history_press_sees_press_sent_earlier_in_the_same_pass() {
    let mut w = game("");
    w.orders(HARI, "PRESS TO union\nShall we share the Periphery?\nEND");
    w.orders(MULE, "HISTORY PRESS");
    // World::pass commits mails two at a time: these two in one group.
    w.pass();
    let sent = w.sent();
    let history = sent
        .iter()
        .find(|m| m.to == MULE && m.subject == "[g1] Press")
        .unwrap_or_else(|| panic!("{:?}", subjects(&sent)));
    assert!(
        history.body.contains("Shall we share the Periphery?"),
        "{}",
        history.body
    );
    // The moderator's too, in one group with a player's press.
    w.orders(HARI, "BROADCAST\nFoundation stands alone.\nEND");
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {}\nHISTORY PRESS", MODERATOR.1),
    );
    w.pass();
    let sent = w.sent();
    let history = sent
        .iter()
        .find(|m| m.to == MODERATOR.0 && m.subject == "[g1] Press")
        .unwrap_or_else(|| panic!("{:?}", subjects(&sent)));
    assert!(
        history.body.contains("Foundation stands alone."),
        "{}",
        history.body
    );
}
