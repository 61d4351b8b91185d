//! The judge end to end, through Maildir folders and a real sled store.

use chrono::Duration;
use pbem::judge::CrashPoint;

use crate::world::{World, FIXED_START, MODERATOR, PLAYERS};

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
fn turn_one(w: &mut World) {
    w.orders(HARI, "B2 - C2\nA1 S\nC1 - C9");
    w.orders(CLEON, "F2 - E2\nE1 S\nG1 S");
    w.orders(MULE, "E4 - D3\nG4 H\nF5 - F4");
    w.orders(PREEM, "C4 - C3\nA4 S\nB5 S");
}

#[test]
fn full_turn_adjudicated_when_all_four_submit_results_to_everyone() {
    let mut w = fixed();
    turn_one(&mut w);
    let pass = w.pass();
    assert_eq!(pass.mails_read, 4);
    assert_eq!(pass.phases_adjudicated, 1);
    let sent = w.sent();
    let receipts: Vec<_> = sent
        .iter()
        .filter(|m| m.subject.contains("Orders received"))
        .collect();
    assert_eq!(receipts.len(), 4);
    let results: Vec<_> = sent
        .iter()
        .filter(|m| m.subject == "[g1] Turn 1 movement results")
        .collect();
    let mut to: Vec<&str> = results.iter().map(|m| m.to.as_str()).collect();
    to.sort();
    assert_eq!(to, [CLEON, HARI, MODERATOR.0, MULE, PREEM]);
    for m in &results {
        let (name, json) = m.attachment.clone().expect("results.json attached");
        assert_eq!(name, "results.json");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["game"], "g1");
        assert_eq!(v["turn"], 1);
        assert_eq!(v["phase"], "movement");
        assert_eq!(v["next_phase"], "movement");
        assert!(v["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["order"] == "B2 - C2" && r["outcome"] == "moved"));
        assert!(m.body.contains("foundation B2 - C2"));
        assert!(m.body.contains("+-------+"), "the board is drawn");
        assert!(
            m.body.lines().all(|l| l.chars().count() <= 72),
            "within 72 columns"
        );
    }
    let record = w.record();
    assert_eq!(record.game.label().turn, 2);
    assert!(record.submissions.is_empty());
    w.assert_no_password_leaks();
}

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

#[test]
fn deadline_passing_defaults_missing_orders_and_sends_results() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2");
    w.pass();
    w.sent();
    w.advance(Duration::hours(47));
    assert_eq!(w.pass().phases_adjudicated, 0, "not yet");
    w.advance(Duration::hours(2));
    assert_eq!(w.pass().phases_adjudicated, 1);
    let results = w
        .sent()
        .into_iter()
        .find(|m| m.subject.contains("results"))
        .unwrap();
    assert!(results.body.contains("foundation B2 - C2"));
    assert!(
        results.body.contains("no valid order: holds"),
        "{}",
        results.body
    );
    // Who sent nothing is said in words, once, in the text and the HTML.
    assert!(
        results
            .body
            .contains("No orders from imperium, union, tazenda: the rules' defaults were\nplayed."),
        "{}",
        results.body
    );
    assert!(results
        .html
        .as_deref()
        .is_some_and(|h| h.contains("No orders from imperium, union, tazenda")));
    assert_eq!(w.record().game.label().turn, 2);
    // The next deadline is a full phase after the adjudication.
    assert_eq!(w.record().deadline, Some(w.now() + Duration::hours(48)));
}

/// A mail is read as of when it reached the mailbox, however late the pass that reads
/// it (a judge run from cron): one that came before the deadline counts for the phase,
/// one that came after it counts for the next phase, and its writer is told why.
#[test]
fn a_mail_that_came_after_the_deadline_counts_for_the_next_phase() {
    let mut w = fixed();
    w.pass();
    w.sent();
    let deadline = w.record().deadline.unwrap();
    w.advance(Duration::hours(47));
    w.orders(HARI, "B2 - C2");
    w.advance(Duration::hours(2));
    w.orders(CLEON, "F2 - E2");
    // The first pass after the deadline comes ten minutes late.
    w.advance(Duration::minutes(10));
    assert!(w.now() > deadline);
    assert_eq!(w.pass().phases_adjudicated, 1);
    let sent = w.sent();
    let results = sent
        .iter()
        .find(|m| m.to == HARI && m.subject.contains("results"))
        .unwrap();
    assert!(
        results.body.contains("foundation B2 - C2"),
        "{}",
        results.body
    );
    assert!(
        results
            .body
            .contains("No orders from imperium, union, tazenda"),
        "{}",
        results.body
    );
    let record = w.record();
    assert_eq!(record.game.label().turn, 2);
    assert_eq!(
        record
            .submissions
            .get("imperium")
            .map(|s| s.orders.as_str()),
        Some("F2 - E2"),
        "the late orders stand for turn 2"
    );
    assert!(!record.submissions.contains_key("foundation"));
    let receipt = sent
        .iter()
        .find(|m| m.to == CLEON && m.subject.contains("received"))
        .unwrap();
    assert!(receipt.subject.contains("turn 2"), "{}", receipt.subject);
    let body = receipt
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        body.contains(
            "after the deadline of turn 1, movement phase: 2026-11-24 12:00 UTC"
        ) && body.contains("That phase was played without it, and the mail is read for turn 2, movement phase."),
        "{body}"
    );

    // A moderator's bare FORCE that came after the deadline meant the phase that
    // deadline played: the next phase is not forced as well.
    let deadline = w.record().deadline.unwrap();
    w.advance(deadline - w.now() + Duration::minutes(1));
    w.orders(MODERATOR.0, "FORCE");
    w.advance(Duration::minutes(10));
    assert_eq!(w.pass().phases_adjudicated, 1);
    assert_eq!(w.record().game.label().turn, 3);
    let reply = w
        .sent()
        .into_iter()
        .find(|m| m.to == MODERATOR.0 && !m.subject.contains("results"))
        .unwrap();
    let body = reply.body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        body.contains("the mail is read for turn 3, movement phase")
            && body.contains("FORCE refused: the current phase is turn 3 movement"),
        "{body}"
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
fn retreat_phase_asks_only_the_dislodged_power() {
    let mut w = World::new(
        "[game.start]\nfoundation = [\"Daribow\", \"Askone\", \"Smyrno\"]\nimperium = [\"Trantor\", \"Neotrantor\", \"Siwenna\"]\nunion = [\"Kalgan\", \"Haven\", \"Radole\"]\ntazenda = [\"Rossem\", \"Tazenda\", \"Sark\"]\n",
    );
    w.orders(HARI, "C3 - C4\nD2 S\nB2 S");
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.orders(PREEM, "C4 H");
    w.pass();
    let record = w.record();
    assert_eq!(record.game.label().phase, "retreat");
    assert_eq!(record.game.owing(), ["tazenda"]);
    // The movement results say, in words, which fleet must retreat and where it may go.
    let sent = w.sent();
    let results = sent
        .iter()
        .find(|m| m.subject == "[g1] Turn 1 movement results")
        .unwrap();
    let squashed = results
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        squashed.contains("Tazenda fleet in C4 is dislodged; it may retreat to")
            && squashed.contains("(or DISBAND)"),
        "{}",
        results.body
    );
    // Another power's orders are not kept in a phase it owes nothing in.
    w.orders(HARI, "C4 - C5");
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert!(
        receipt
            .body
            .contains("owes no orders in this retreat phase"),
        "{}",
        receipt.body
    );
    w.orders(PREEM, "C4 R B4");
    assert_eq!(w.pass().phases_adjudicated, 1);
    let results = w
        .sent()
        .into_iter()
        .find(|m| m.subject == "[g1] Turn 1 retreat results")
        .unwrap();
    assert!(
        results.body.contains("tazenda    C4 R B4"),
        "{}",
        results.body
    );
    assert_eq!(w.record().game.label().phase, "movement");
}

#[test]
fn placement_phase_after_a_capture() {
    let mut w = World::new(&format!(
        "[game.options]\noccupation_turns = 1\n{FIXED_START}"
    ));
    w.orders(HARI, "B2 - A3");
    w.orders(CLEON, "E1 H");
    w.orders(MULE, "E4 H");
    w.orders(PREEM, "A4 H");
    w.pass();
    let record = w.record();
    assert_eq!(record.game.label().phase, "placement");
    assert_eq!(record.game.owing(), ["foundation"]);
    w.orders(HARI, "PLACE A2");
    w.pass();
    let fleets = w.record().game.position_json()["fleets"].clone();
    assert!(fleets
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["at"] == "A2" && f["produced_by"] == "Konom"));
}

#[test]
fn force_with_and_without_the_phase_guard() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2");
    w.pass();
    w.sent();
    let pw = MODERATOR.1;
    w.send(
        MODERATOR.0,
        "[g1] force",
        &format!("PASSWORD {pw}\nFORCE 3 movement"),
    );
    assert_eq!(w.pass().phases_adjudicated, 0);
    let notice = w.sent().pop().unwrap();
    assert!(
        notice
            .body
            .contains("FORCE refused: the current phase is turn 1 movement"),
        "{}",
        notice.body
    );
    w.send(
        MODERATOR.0,
        "[g1] force",
        &format!("PASSWORD {pw}\nFORCE 1 movement"),
    );
    assert_eq!(w.pass().phases_adjudicated, 1);
    w.send(MODERATOR.0, "[g1] force", &format!("PASSWORD {pw}\nFORCE"));
    assert_eq!(w.pass().phases_adjudicated, 1);
    assert_eq!(w.record().game.label().turn, 3);
}

#[test]
fn moderator_deadline_pause_resume() {
    let mut w = fixed();
    let pw = MODERATOR.1;
    w.send(MODERATOR.0, "[g1]", &format!("PASSWORD {pw}\nDEADLINE +1h"));
    w.pass();
    assert_eq!(w.record().deadline, Some(w.now() + Duration::hours(1)));
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {pw}\nDEADLINE 2026-11-30T18:00:00Z"),
    );
    w.pass();
    assert_eq!(
        w.record().deadline.unwrap().to_rfc3339(),
        "2026-11-30T18:00:00+00:00"
    );
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {pw}\nDEADLINE tomorrow"),
    );
    w.pass();
    assert!(w.sent().pop().unwrap().body.contains("not understood"));
    // Pause: the clock stops; resume: the deadline moves by the pause.
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {pw}\nDEADLINE +10h"),
    );
    w.pass();
    // Every player is told of each move of the clock, with the new deadline.
    let told = |sent: &[crate::world::Sent], what: &str| {
        for player in [HARI, CLEON, MULE, PREEM] {
            let m = sent
                .iter()
                .find(|m| m.to == player && m.subject == "[g1] From the moderator")
                .unwrap_or_else(|| panic!("{player} told of {what}"));
            assert!(
                m.body
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .contains(what),
                "{}",
                m.body
            );
        }
    };
    let deadline = pbem_utc(w.record().deadline.unwrap());
    told(
        &w.sent(),
        &format!("moved the deadline of turn 1 movement: it is now {deadline}"),
    );
    // A pause keeps the seconds left, rounded up, not down (a resumed deadline came a
    // second early, shown a minute early).
    w.advance(Duration::hours(4) + Duration::milliseconds(300));
    w.send(MODERATOR.0, "[g1]", &format!("PASSWORD {pw}\nPAUSE"));
    w.pass();
    assert_eq!(w.record().deadline, None);
    told(
        &w.sent(),
        "The moderator paused the game in turn 1 movement",
    );
    w.orders(HARI, "BOARD");
    w.pass();
    let board = w.sent().pop().unwrap();
    assert!(
        board.body.contains("Deadline: none: the game is paused\n"),
        "{}",
        board.body
    );
    w.advance(Duration::hours(100));
    assert_eq!(
        w.pass().phases_adjudicated,
        0,
        "nothing happens while paused"
    );
    w.send(MODERATOR.0, "[g1]", &format!("PASSWORD {pw}\nRESUME"));
    w.pass();
    assert_eq!(w.record().deadline, Some(w.now() + Duration::hours(6)));
    let deadline = pbem_utc(w.record().deadline.unwrap());
    told(
        &w.sent(),
        &format!("the deadline of turn 1 movement is now {deadline}"),
    );
}

/// A deadline as the mails write it.
fn pbem_utc(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

#[test]
fn replace_hands_a_power_to_a_new_address() {
    let mut w = fixed();
    let pw = MODERATOR.1;
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {pw}\nREPLACE tazenda gaal@example.test"),
    );
    w.pass();
    assert_eq!(w.record().addresses["tazenda"], "gaal@example.test");
    let sent = w.sent();
    // The new player is welcomed with the position, the old one told, the others
    // told that the power has a new player (not who).
    let welcome = sent
        .iter()
        .find(|m| m.to == "gaal@example.test")
        .expect("a welcome");
    assert_eq!(welcome.subject, "[g1] Welcome: you take over tazenda");
    for what in [
        "You take over tazenda",
        "The game is at turn 1, movement phase. The deadline:",
        "Your password is tazenda's: the moderator gives it to you.",
    ] {
        assert!(welcome.body.contains(what), "{what}: {}", welcome.body);
    }
    let old = sent
        .iter()
        .find(|m| m.to == PREEM)
        .expect("the old player told");
    assert_eq!(old.subject, "[g1] You no longer play tazenda");
    for player in [HARI, CLEON, MULE] {
        let m = sent
            .iter()
            .find(|m| m.to == player)
            .expect("the others told");
        assert!(m.body.contains("tazenda has a new player."), "{}", m.body);
        assert!(!m.body.contains("gaal"), "{}", m.body);
    }
    // The new player plays with the power's password; the old address is a stranger.
    w.send(
        "gaal@example.test",
        "[g1]",
        &format!("PASSWORD {}\nC4 - C3", PLAYERS[3].2),
    );
    w.pass();
    let receipt = w.sent().pop().unwrap();
    assert_eq!(receipt.to, "gaal@example.test");
    assert!(receipt.body.contains("ok       C4 - C3"));
    w.orders(PREEM, "C4 H");
    w.pass();
    let refusal = w.sent().pop().unwrap();
    assert!(
        refusal.body.contains("is not a player or moderator"),
        "{}",
        refusal.body
    );
    assert_eq!(w.record().submissions["tazenda"].orders, "C4 - C3");
    // HELP naming no game: the new address is known as tazenda's player (it is in no
    // games.toml), the old one plays nothing any more.
    w.send("gaal@example.test", "help", "HELP");
    w.send(PREEM, "help", "HELP");
    w.pass();
    let sent = w.sent();
    let help = |to: &str| {
        let m = sent.iter().find(|m| m.to == to).expect("a HELP reply");
        m.body.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let gaal = help("gaal@example.test");
    assert!(
        gaal.contains("g1") && gaal.contains("you play tazenda"),
        "{gaal}"
    );
    assert!(!help(PREEM).contains("you play tazenda"), "{}", help(PREEM));
}

/// A replacement made by a pbem that did not index replacements (store format 2 and
/// no `v1/played-by/` key) is indexed when the judge opens the store: the new
/// player's HELP naming no game lists the game.
#[test]
fn replacements_made_before_the_index_are_indexed_on_opening() {
    let mut w = fixed();
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!(
            "PASSWORD {}\nREPLACE tazenda gaal@example.test",
            MODERATOR.1
        ),
    );
    w.pass();
    // The store as the older pbem left it.
    let key = "v1/played-by/gaal@example.test/g1";
    let path = w.dir.path().join("judge.sled");
    {
        let store = pbem::store::Store::open(&path).unwrap();
        assert!(store.contains(key).unwrap());
        let mut batch = pbem::store::Batch::default();
        batch.remove(key);
        batch.put(
            pbem::store::FORMAT_KEY,
            &pbem::store::Meta {
                format: 2,
                written_by: "pbem 0.1.0".into(),
            },
        );
        store.commit(batch).unwrap();
    }
    w.sent();
    w.send("gaal@example.test", "help", "HELP");
    w.pass();
    let help = w.sent().pop().unwrap();
    assert_eq!(help.to, "gaal@example.test");
    let body = help.body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        body.contains("g1") && body.contains("you play tazenda"),
        "{body}"
    );
    let store = pbem::store::Store::open(&path).unwrap();
    assert!(store.contains(key).unwrap());
    assert_eq!(store.format(), pbem::store::FORMAT);
    // PREEM, tazenda's player in games.toml, was not indexed as a replacement.
    assert!(!store.contains(&format!("v1/played-by/{PREEM}/g1")).unwrap());
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

#[test]
fn solo_game_played_to_its_end_with_game_over_mail() {
    let mut w = World::with_players(
        "[game.options]\nsolo = true\nturn_limit = 6\n",
        &PLAYERS[..1],
    );
    w.orders(HARI, "PLACE Terminus\nPLACE Daribow\nPLACE Askone");
    w.pass();
    for _ in 0..30 {
        if w.record().game.label().over {
            break;
        }
        w.advance(Duration::hours(49));
        w.pass();
    }
    let record = w.record();
    assert!(record.game.label().over);
    assert_eq!(record.game.winners(), ["imperium"]);
    let sent = w.all_sent();
    let over: Vec<_> = sent
        .iter()
        .filter(|m| m.subject == "[g1] Game over")
        .collect();
    let mut to: Vec<&str> = over.iter().map(|m| m.to.as_str()).collect();
    to.sort();
    assert_eq!(to, [HARI, MODERATOR.0]);
    assert!(
        over[0].body.contains("Winner: imperium"),
        "{}",
        over[0].body
    );
    assert!(
        sent.iter().any(|m| m.body.contains("Imperium group 1")),
        "rolls reported"
    );
    // Orders after the end change nothing.
    w.orders(HARI, "A1 H");
    w.pass();
    assert!(w.sent().pop().unwrap().body.contains("The game is over"));
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
fn a_reminder_goes_once_per_deadline_value() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2");
    w.pass();
    w.sent();
    w.advance(Duration::hours(25)); // 23 h before the deadline: the 24 h reminder
    w.pass();
    w.pass();
    let reminders: Vec<_> = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.contains("Reminder"))
        .collect();
    let mut to: Vec<&str> = reminders.iter().map(|m| m.to.as_str()).collect();
    to.sort();
    assert_eq!(
        to,
        [CLEON, PREEM, MULE]
            .iter()
            .copied()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    );
    assert!(reminders[0].body.contains("UTC ("));
    // A new deadline value: reminders again.
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!("PASSWORD {}\nDEADLINE +20h", MODERATOR.1),
    );
    w.pass();
    let again = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.contains("Reminder"))
        .count();
    assert_eq!(again, 3);
}

/// A reminder as long before the deadline as the phase is long (24 h in a 24-hour
/// phase) does not go out with the results that open the phase; the later one does.
#[test]
fn no_reminder_goes_out_with_the_results_that_open_a_phase() {
    let mut w = World::new(&format!("phases = {{ movement = \"24h\" }}\n{FIXED_START}"));
    w.pass();
    w.sent();
    w.advance(Duration::hours(5));
    turn_one(&mut w);
    assert_eq!(w.pass().phases_adjudicated, 1);
    let sent = w.sent();
    assert!(sent.iter().any(|m| m.subject.contains("results")));
    assert!(
        !sent.iter().any(|m| m.subject.contains("Reminder")),
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    w.advance(Duration::minutes(1));
    w.pass();
    let sent = w.sent();
    assert!(
        !sent.iter().any(|m| m.subject.contains("Reminder")),
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    w.advance(Duration::hours(22) + Duration::minutes(59));
    w.pass();
    let reminders: Vec<_> = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.contains("Reminder"))
        .collect();
    assert_eq!(reminders.len(), 4, "the 2 h reminder, to each power");
}

#[test]
fn restart_at_any_point_loses_nothing_and_repeats_nothing() {
    for crash in [
        CrashPoint::AfterRawStored,
        CrashPoint::AfterCommit,
        CrashPoint::BeforeSend,
        CrashPoint::AfterSend,
    ] {
        let mut w = fixed();
        turn_one(&mut w);
        w.orders(HARI, "BOARD");
        // Passes killed at the first, second, … time they reach the point, each
        // followed by a restart; then a clean pass.
        let mut crashes = 0;
        for skip in 0..12 {
            if w.crashing_pass(crash, skip).is_err() {
                crashes += 1;
            }
        }
        w.pass();
        assert!(crashes >= 1, "{crash:?} was never reached");
        let sent = w.all_sent();
        let mut ids: Vec<&str> = sent.iter().map(|m| m.raw.as_str()).collect();
        ids.dedup();
        let results = sent
            .iter()
            .filter(|m| m.subject.contains("results"))
            .count();
        assert_eq!(results, 5, "{crash:?}: results once to each of 5");
        let receipts = sent
            .iter()
            .filter(|m| m.subject.contains("Orders received"))
            .count();
        assert_eq!(receipts, 4, "{crash:?}: one receipt per order mail");
        let boards = sent.iter().filter(|m| m.subject.contains("Board")).count();
        assert_eq!(boards, 1, "{crash:?}");
        let record = w.record();
        assert_eq!(
            record.game.label().turn,
            2,
            "{crash:?}: turn 1 adjudicated once"
        );
        assert!(std::fs::read_dir(w.inbox().join("new"))
            .unwrap()
            .next()
            .is_none());
        w.assert_no_password_leaks();
    }
}

/// `pbem game show g1 --json` on the world's configuration.
fn show_json(w: &World) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["game", "show", "g1", "--json", "--config"])
        .arg(w.dir.path().join("games.toml"))
        .env("PBEM_NOW", w.now().to_rfc3339())
        .output()
        .unwrap()
}

#[test]
fn game_show_json_has_the_position_and_the_phase() {
    let mut w = fixed();
    w.orders(HARI, "B2 - C2");
    w.pass();
    let out = show_json(&w);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "g1");
    assert_eq!(v["turn"], 1);
    assert_eq!(v["phase"], "movement");
    assert_eq!(v["submitted"], serde_json::json!(["foundation"]));
    assert_eq!(v["fleets"].as_array().unwrap().len(), 12);
    assert_eq!(v["systems"]["Terminus"], "foundation");
    assert!(v["deadline"]
        .as_str()
        .unwrap()
        .starts_with("2026-11-24T12:00:00"));
    // While a judge is running (it holds the store), show reads its snapshot.
    let running = w.judge();
    let out = show_json(&w);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let during: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(during, v);
    drop(running);
}

#[test]
fn a_wrong_configuration_is_one_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let base = "[judge]\naddress = \"judge@example.test\"\nstore = \"s\"\n[transport]\nkind = \"maildir\"\ninbox = \"i\"\noutbox = \"o\"\n[[game]]\nid = \"g1\"\nrules = \"foundation-empire\"\n";
    let cases = [
        (base.replace("judge@example.test", "nobody"), "judge.address"),
        (format!("{base}time_zone = \"Mars/Olympus\"\n"), "time_zone"),
        (format!("{base}phases = {{ movement = \"2 days\" }}\n"), "phases.movement"),
        (base.replace("foundation-empire", "chess"), "rules"),
        (format!("{base}[[game.player]]\npower = \"klingon\"\naddress = \"a@example.test\"\npassword = \"$argon2id$x\"\n"), "power \"klingon\""),
        (format!("{base}[[game.player]]\npower = \"union\"\naddress = \"a@example.test\"\npassword = \"plain\"\n"), "pbem hash-password"),
        (format!("{base}colour = \"red\"\n"), "game g1: unknown key `colour`"),
        (format!("{base}seed = \"x\"\n"), "game g1: seed: expected an integer"),
        (format!("{base}[game.options]\nsupport = \"maybe\"\n"), "support mode"),
    ];
    for (text, expected) in cases {
        let path = dir.path().join("games.toml");
        std::fs::write(&path, text).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["poll-once", "--config"])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{expected}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(expected), "{expected:?} in {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

/// A pass looks only at the games with something due: the due-time index.
#[test]
fn a_pass_visits_only_the_games_with_a_deadline_or_reminder_due() {
    let mut w = World::new(FIXED_START);
    let path = w.dir.path().join("games.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let game = &text[text.find("[[game]]").unwrap()..];
    let mut more = String::new();
    for k in 2..=30 {
        more += &game.replacen("id = \"g1\"", &format!("id = \"g{k}\""), 1);
        more.push('\n');
    }
    std::fs::write(&path, format!("{text}\n{more}")).unwrap();
    w.config = pbem::config::Config::load(&path).unwrap();
    w.pass();
    w.sent();
    // Nothing due: nothing visited.
    assert_eq!(w.pass().games_due, 0);
    // One game's deadline moved to within the hour: that game alone, once for its two
    // reminders (both due now: one mail) and once at its deadline.
    w.send(
        MODERATOR.0,
        "[g7] deadline",
        &format!("PASSWORD {}\nDEADLINE +1h", MODERATOR.1),
    );
    let pass = w.pass();
    assert_eq!(pass.games_due, 1, "{pass:?}");
    let reminders: Vec<_> = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.starts_with("[g7] Reminder"))
        .collect();
    assert_eq!(reminders.len(), 4, "one reminder to each of four players");
    assert_eq!(w.pass().games_due, 0);
    w.advance(Duration::minutes(61));
    let pass = w.pass();
    assert_eq!(pass.games_due, 1);
    assert_eq!(pass.phases_adjudicated, 1);
    assert_eq!(
        w.judge().record("g7").unwrap().unwrap().game.label().turn,
        2
    );
    // The 24 h reminder of every other game comes due together, then their deadlines.
    w.advance(Duration::hours(24));
    assert_eq!(w.pass().games_due, 30);
    assert_eq!(w.pass().games_due, 0);
}
