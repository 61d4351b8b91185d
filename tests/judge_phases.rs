//! The judge end to end: turns adjudicated when all submit or at the deadline, late
//! mails, retreat and placement phases, a solo game to its end, reminders, and which
//! games a pass visits.

use chrono::Duration;

use crate::judge::{fixed, turn_one, CLEON, HARI, MULE, PREEM};
use crate::world::{World, DISLODGING_START, FIXED_START, MODERATOR, PLAYERS};

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

/// A mailbox that takes a mail while the judge reads it: the mail, written at its
/// delivery time but still in `tmp/` (as a mail server leaves it until it is whole),
/// is moved into `new/` just after the judge has listed the mailbox, and the clock
/// moves on past the deadline before the judge goes on.
struct MailArrivingDuringTheRead {
    inner: pbem::mail::transport::MaildirInbox,
    arriving: Option<(std::path::PathBuf, std::path::PathBuf)>,
    clock: std::sync::Arc<pbem::judge::clock::FixedClock>,
    then: Duration,
}

impl pbem::mail::transport::Inbox for MailArrivingDuringTheRead {
    fn fetch(
        &mut self,
        store: &pbem::store::Store,
    ) -> Result<Vec<pbem::mail::transport::Waiting>, pbem::mail::transport::TransportError> {
        let waiting = self.inner.fetch(store);
        if let Some((from, to)) = self.arriving.take() {
            std::fs::rename(from, to).unwrap();
            self.clock.advance(self.then);
        }
        waiting
    }

    fn done(
        &mut self,
        store: &pbem::store::Store,
        tokens: &[String],
        failed: &[String],
    ) -> Result<(), pbem::mail::transport::TransportError> {
        self.inner.done(store, tokens, failed)
    }
}

/// A mail that reached the mailbox before the deadline, but after the pass that the
/// deadline passed in had looked at the mailbox, counts for the phase it came in time
/// for: the deadline is kept by the next pass, which reads the mail first.
#[test]
fn a_mail_that_came_just_before_the_deadline_counts_though_the_pass_had_looked() {
    use pbem::judge::clock::Clock;
    let mut w = fixed();
    w.pass();
    w.sent();
    let deadline = w.record().deadline.unwrap();
    w.advance(deadline - w.now() - Duration::minutes(1));
    w.orders(HARI, "B2 - C2");
    // The mail is not whole yet when the pass lists the mailbox.
    let name = std::fs::read_dir(w.inbox().join("new"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let writing = w.inbox().join("tmp").join(&name);
    std::fs::rename(w.inbox().join("new").join(&name), &writing).unwrap();

    let clock = std::sync::Arc::new(pbem::judge::clock::FixedClock::at(w.now()));
    let mut judge = pbem::judge::Judge::open(&w.config, &*clock).unwrap();
    judge.set_inbox(Box::new(MailArrivingDuringTheRead {
        inner: pbem::mail::transport::MaildirInbox::new(w.inbox()),
        arriving: Some((writing, w.inbox().join("new").join(&name))),
        clock: clock.clone(),
        then: Duration::minutes(2),
    }));
    let pass = judge.poll_once().unwrap();
    assert!(clock.now() > deadline);
    assert_eq!(pass.mails_read, 0);
    assert_eq!(
        pass.phases_adjudicated, 0,
        "the deadline waits for the mail that came before it"
    );
    assert!(pass.due_again, "the next pass is asked for at once");
    let pass = judge.poll_once().unwrap();
    assert_eq!((pass.mails_read, pass.phases_adjudicated), (1, 1));
    assert!(!pass.due_again);
    drop(judge);
    let sent = w.sent();
    let receipt = sent
        .iter()
        .find(|m| m.to == HARI && m.subject.contains("received"))
        .unwrap();
    assert!(receipt.subject.contains("turn 1"), "{}", receipt.subject);
    assert!(!receipt.body.contains("counts for"), "{}", receipt.body);
    hari_s_results_with_her_move(&sent);
    assert_eq!(w.record().game.label().turn, 2);
}

/// The results mail to HARI, which must show her move B2 - C2.
fn hari_s_results_with_her_move(sent: &[crate::world::Sent]) -> &crate::world::Sent {
    let results = sent
        .iter()
        .find(|m| m.to == HARI && m.subject.contains("results"))
        .unwrap();
    assert!(
        results.body.contains("foundation B2 - C2"),
        "{}",
        results.body
    );
    results
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
    let results = hari_s_results_with_her_move(&sent);
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

#[test]
fn retreat_phase_asks_only_the_dislodged_power() {
    let mut w = World::new(DISLODGING_START);
    w.dislodge_in_c4();
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
    // Said of any game, units or none yet.
    assert!(
        crate::world::squash(&reminders[0].body)
            .contains("the rules' defaults for missing orders are played for you"),
        "{}",
        reminders[0].body
    );
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
