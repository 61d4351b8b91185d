//! Findings of a play-test of the judge's community mail (observers, press, the end
//! of a game, mail as mailers send it), each played through Maildir and sled.

use chrono::Duration;
use pbem::rules::game::Viewer;

use crate::bfge_judge::BFGE_PLAYERS;
use crate::community::{game, header, to, HARI};
use crate::world::{password_of, squash, Sent, World, MODERATOR, PLAYERS};

const CLEON: &str = "cleon@example.test";
const MULE: &str = "mule@example.test";
const WATCHER: &str = "watcher@example.test";

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

/// A stranger's first mail may both OBSERVE a game and ask for its BOARD: both are
/// answered (before, only the OBSERVE). One whose OBSERVE fails gets no board.
#[test]
fn a_stranger_s_observe_and_board_in_one_mail_are_both_answered() {
    let mut w = game("max_observers = 1");
    w.send(WATCHER, "hello", "OBSERVE g1\nBOARD\nHISTORY");
    w.pass();
    let sent = w.sent();
    let got: Vec<&str> = to(&sent, WATCHER)
        .iter()
        .map(|m| m.subject.as_str())
        .collect();
    assert_eq!(
        got,
        ["[g1] Observing", "[g1] Board", "[g1] History of turn 1"],
        "{:?}",
        subjects(&sent)
    );
    let public = w.record().game.play().board_text(Viewer::Public);
    assert!(sent[1].body.contains(&public), "{}", sent[1].body);
    // The game takes no second observer: that mail gets the refusal alone.
    w.send("second@example.test", "[g1]", "OBSERVE g1\nBOARD");
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "{:?}", subjects(&sent));
    assert!(
        squash(&sent[0].body).contains("takes no more observers"),
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

/// `pbem game show g1` of a world's store.
pub fn game_show(w: &World) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["game", "show", "g1", "--config"])
        .arg(w.dir.path().join("games.toml"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// After a moderator's END GAME, BOARD and HELP say the game is over (when, and that
/// it has no winner), not its last phase as if it were played, and `game show` prints
/// its "Over:" line with that.
#[test]
fn a_game_ended_by_its_moderator_is_told_over_by_board_help_and_game_show() {
    let mut w = game("");
    w.end_game();
    w.pass();
    w.sent();
    w.orders(HARI, "BOARD");
    w.send(HARI, "help", "HELP");
    w.orders(CLEON, "HELP g1");
    w.pass();
    let sent = w.sent();
    let reply = |to: &str, subject: &str| {
        sent.iter()
            .find(|m| m.to == to && m.subject == subject)
            .unwrap_or_else(|| panic!("{to} {subject}: {:?}", subjects(&sent)))
            .body
            .clone()
    };
    let board = reply(HARI, "[g1] Board");
    let first = board.lines().next().unwrap();
    assert!(
        first.starts_with("Game g1 is over: ended by a moderator on 2026-11-22 12:00 UTC"),
        "{board}"
    );
    assert!(squash(&board).contains("no winner"), "{board}");
    assert!(!board.contains("movement"), "{board}");
    assert!(!board.contains("Deadline"), "{board}");
    let help = reply(HARI, "Help");
    let games = squash(&help);
    assert!(
        games.contains("g1 Foundation and Empire you play foundation; over: ended by a moderator on 2026-11-22 12:00 UTC; no winner"),
        "{help}"
    );
    assert!(!help.contains("movement"), "{help}");
    for line in help.lines() {
        assert!(line.chars().count() <= 72, "{line}");
    }
    let help = reply(CLEON, "[g1] Help");
    assert!(
        squash(&help)
            .contains("Game g1 is over: ended by a moderator on 2026-11-22 12:00 UTC; no winner."),
        "{help}"
    );
    assert!(!help.contains("An orders mail for"), "{help}");
    let show = game_show(&w);
    assert!(
        show.contains("Over: ended by a moderator on 2026-11-22 12:00 UTC; no winner\n"),
        "{show}"
    );
    assert!(
        show.starts_with("Game g1 is over (its last phase: turn 1, movement)\n"),
        "{show}"
    );
    assert!(!show.contains("Submitted"), "{show}");
}

/// A game its rules end (a solo game's turn limit) is told over the same way, with
/// its winner; before it ends, `game show` prints no "Over:" line.
#[test]
fn a_game_its_rules_ended_is_told_over_with_its_winner() {
    let mut w = World::with_players(
        "[game.options]\nsolo = true\nturn_limit = 6\n",
        &PLAYERS[..1],
    );
    w.orders(HARI, "PLACE Terminus\nPLACE Daribow\nPLACE Askone");
    w.pass();
    let show = game_show(&w);
    assert!(!show.contains("Over:"), "{show}");
    for _ in 0..30 {
        if w.record().game.label().over {
            break;
        }
        w.advance(Duration::hours(49));
        w.pass();
    }
    assert!(w.record().game.label().over);
    w.sent();
    w.orders(HARI, "BOARD\nHELP");
    w.pass();
    let sent = w.sent();
    let board = &to(&sent, HARI)
        .into_iter()
        .find(|m| m.subject == "[g1] Board")
        .unwrap()
        .body;
    let first = squash(board.lines().next().unwrap());
    assert!(
        first.starts_with("Game g1 is over: ended by its rules on "),
        "{board}"
    );
    assert!(squash(board).contains("winner: imperium"), "{board}");
    let show = game_show(&w);
    let over = show.lines().find(|l| l.starts_with("Over: ")).unwrap_or("");
    assert!(over.starts_with("Over: ended by its rules on "), "{show}");
    assert!(over.ends_with("; winner: imperium"), "{show}");
}

/// A base64 text part followed by junk some mailers add (a line of garbage, a stray
/// `=`) is read as far as it decodes: the orders are not lost.
#[test]
fn a_base64_text_with_trailing_junk_is_read_up_to_the_junk() {
    use base64::Engine;
    let text = format!("PASSWORD {}\r\nB2 - C2\r\n", password_of(HARI));
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    let mails = [
        // A multipart mail whose text part ends in a line that is no base64.
        format!(
            "From: {HARI}\r\nTo: judge@example.test\r\nSubject: [g1] orders\r\nMessage-ID: <b64-1@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{encoded}\r\nSent from my phone!\r\n--XX--\r\n"
        ),
        // A single-part mail with a stray `=` and garbage after the base64.
        format!(
            "From: {HARI}\r\nTo: judge@example.test\r\nSubject: [g1] orders\r\nMessage-ID: <b64-2@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{encoded}\r\n=\r\n%%%junk%%%\r\n"
        ),
    ];
    for raw in mails {
        let mut w = game("");
        w.deliver_raw(&raw);
        w.pass();
        let sent = w.sent();
        assert_eq!(sent.len(), 1, "{:?}", subjects(&sent));
        assert!(
            sent[0].body.contains("ok       B2 - C2"),
            "{}",
            sent[0].body
        );
        assert_eq!(w.record().submissions["foundation"].orders, "B2 - C2");
    }
}

/// Orders in a text attachment (orders.txt) are not read, and the sender is told so
/// in the receipt, whether the mail's text held orders or nothing but the password.
#[test]
fn orders_in_an_attachment_are_not_read_and_the_sender_is_told() {
    let mail = |id: &str, text: &str| {
        format!(
            "From: {HARI}\r\nTo: judge@example.test\r\nSubject: [g1] orders\r\nMessage-ID: <{id}@example.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nPASSWORD {}\r\n{text}\r\n--XX\r\nContent-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n\r\nB2 - C2\r\n--XX--\r\n",
            password_of(HARI)
        )
    };
    let told = "The attachment orders.txt was not read: the judge reads only the text of a mail. Write orders and commands in the mail itself.";
    let mut w = game("");
    w.deliver_raw(&mail("att-1", ""));
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "{:?}", subjects(&sent));
    assert_eq!(sent[0].to, HARI);
    assert!(squash(&sent[0].body).contains(told), "{}", sent[0].body);
    assert!(w.record().submissions.is_empty());
    // Orders in the text are read, and the attachment is still told of.
    w.deliver_raw(&mail("att-2", "C4 - C3"));
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "{:?}", subjects(&sent));
    assert!(squash(&sent[0].body).contains(told), "{}", sent[0].body);
    assert!(sent[0].body.contains("C4 - C3"), "{}", sent[0].body);
}
