//! The judge end to end: the moderator's commands (FORCE, DEADLINE, PAUSE, RESUME,
//! REPLACE).

use chrono::Duration;

use crate::judge::{fixed, CLEON, HARI, MULE, PREEM};
use crate::world::{MODERATOR, PLAYERS};

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

/// The moderator hands tazenda to gaal@example.test (`REPLACE`), read in a pass.
fn replace_tazenda_by_gaal(w: &mut crate::world::World) {
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!(
            "PASSWORD {}\nREPLACE tazenda gaal@example.test",
            MODERATOR.1
        ),
    );
    w.pass();
}

/// An archived game's player by REPLACE is no longer known as a player here (a HELP
/// naming no game is refused as from a stranger); listed again, the game knows her
/// again.
#[test]
fn an_archived_game_no_longer_makes_its_replacement_player_known() {
    let mut w = fixed();
    replace_tazenda_by_gaal(&mut w);
    w.sent();
    let key = "v1/played-by/gaal@example.test/g1";
    // games.toml with g1 taken out (another game in its place).
    let text = std::fs::read_to_string(w.dir.path().join("games.toml")).unwrap();
    let without = pbem::config::Config::parse(
        &text.replacen("id = \"g1\"", "id = \"g2\"", 1),
        w.dir.path(),
    )
    .unwrap();
    {
        let judge = pbem::judge::Judge::open(&without, &w.clock).unwrap();
        assert_eq!(judge.archive_removed().unwrap().len(), 1);
    }
    {
        let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
        assert!(!store.contains(key).unwrap());
        assert!(store.contains("v1/game/g1").unwrap(), "the game is kept");
    }
    w.send("gaal@example.test", "help", "HELP");
    pbem::judge::Judge::open(&without, &w.clock)
        .unwrap()
        .poll_once()
        .unwrap();
    let reply = w.sent().pop().expect("a reply");
    assert_eq!(reply.to, "gaal@example.test");
    assert_eq!(reply.subject, "Mail not accepted", "{}", reply.body);
    // A pbem before 480e6f0 left the entry behind when it archived the game: it counts
    // for nothing while the game is not listed.
    {
        let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
        store.put_now(key, &true).unwrap();
    }
    // (A day later: a stranger is answered once a day.)
    w.advance(chrono::Duration::days(2));
    w.send("gaal@example.test", "help", "HELP");
    pbem::judge::Judge::open(&without, &w.clock)
        .unwrap()
        .poll_once()
        .unwrap();
    let sent = w.sent();
    let to_gaal: Vec<_> = sent
        .iter()
        .filter(|m| m.to == "gaal@example.test")
        .collect();
    assert_eq!(to_gaal.len(), 1, "{sent:#?}");
    assert_eq!(
        to_gaal[0].subject, "Mail not accepted",
        "{}",
        to_gaal[0].body
    );
    // Listed again: indexed anew when a judge opens.
    w.pass();
    let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
    assert!(store.contains(key).unwrap());
}

/// A replacement made by a pbem that did not index replacements (store format 2 and
/// no `v1/played-by/` key) is indexed when the judge opens the store: the new
/// player's HELP naming no game lists the game.
#[test]
fn replacements_made_before_the_index_are_indexed_on_opening() {
    let mut w = fixed();
    replace_tazenda_by_gaal(&mut w);
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

/// `REPLACE` to an address that already plays another power of the game, or moderates
/// it, is refused: the judge knows a sender by address, and the other power (or the
/// moderation) would be lost to it.
#[test]
fn replace_refuses_an_address_that_plays_or_moderates_the_game() {
    let mut w = fixed();
    for (line, why) in [
        (
            "REPLACE tazenda mule@example.test",
            "REPLACE: mule@example.test already plays union in this game, and an address plays one power: nothing was changed.",
        ),
        (
            "REPLACE tazenda mod@example.test",
            "REPLACE: mod@example.test moderates this game, and a moderator plays no power: nothing was changed.",
        ),
    ] {
        w.send(
            MODERATOR.0,
            "[g1]",
            &format!("PASSWORD {}\n{line}", MODERATOR.1),
        );
        w.pass();
        let sent = w.sent();
        assert_eq!(sent.len(), 1, "only the moderator's receipt: {sent:#?}");
        assert!(
            crate::world::squash(&sent[0].body).contains(why),
            "{}",
            sent[0].body
        );
        assert_eq!(
            w.record().addresses.get("tazenda").map(String::as_str),
            Some("preem@example.test")
        );
    }
    // union's player still plays union.
    w.orders("mule@example.test", "BOARD");
    w.pass();
    let sent = w.sent();
    assert!(
        !sent.iter().any(|m| m.body.contains("password was wrong")),
        "{sent:#?}"
    );
}

/// A deadline beyond what a calendar holds is not understood (the mail's other
/// commands still act), and one more than a year ahead is refused with the reason.
#[test]
fn deadline_refuses_times_out_of_reach() {
    let mut w = fixed();
    let before = w.record().deadline;
    w.send(
        MODERATOR.0,
        "[g1]",
        &format!(
            "PASSWORD {}\nDEADLINE +99999999999d\nDEADLINE +400d\nDEADLINE 9999-12-31T23:59:59Z\nPAUSE",
            MODERATOR.1
        ),
    );
    w.pass();
    let sent = w.sent();
    let receipt = sent
        .iter()
        .find(|m| m.to == MODERATOR.0)
        .expect("the moderator's receipt");
    let body = crate::world::squash(&receipt.body);
    assert!(
        body.contains("DEADLINE \"+99999999999d\" not understood"),
        "{body}"
    );
    assert!(
        body.contains("DEADLINE +400d refused:") && body.contains("is more than a year ahead"),
        "{body}"
    );
    assert!(
        body.contains("DEADLINE 9999-12-31T23:59:59Z refused:"),
        "{body}"
    );
    // PAUSE, after them, acted: the deadline was not moved, then the game paused.
    let record = w.record();
    assert!(record.paused.is_some(), "{body}");
    assert_eq!(record.paused, before.map(|d| (d - w.now()).num_seconds()));
}

/// Orders to a game that is over are answered by a receipt that says so once.
#[test]
fn orders_to_a_game_over_are_told_it_once() {
    let mut w = fixed();
    w.end_game();
    w.pass();
    w.sent();
    w.orders(HARI, "B2 - C2");
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let body = crate::world::squash(&sent[0].body);
    assert_eq!(body.matches("The game is over").count(), 1, "{body}");
    assert!(
        body.contains("The judge takes no more orders; BOARD and HISTORY still answer."),
        "{body}"
    );
}
