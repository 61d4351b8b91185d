//! A newcomer's first hour, through Maildir and sled: the welcome mail, mails that
//! read well at 72 columns, HELP with or without a game.

use crate::world::{World, FIXED_START, MODERATOR, PLAYERS};

const HARI: &str = "hari@example.test";
const CLEON: &str = "cleon@example.test";

#[test]
fn every_player_is_welcomed_with_power_others_board_deadline_example_and_help() {
    let mut w = World::new("");
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 5, "four players and the moderator");
    let hari = sent.iter().find(|m| m.to == HARI).unwrap();
    assert_eq!(hari.subject, "[g1] Welcome: you play foundation");
    let body = &hari.body;
    for needed in [
        "game g1, a game of Foundation and Empire",
        "You play foundation. The other powers: imperium, union, tazenda.",
        "turn 0, setup phase",
        "2026-11-24 12:00 UTC (2026-11-24 07:00 EST)",
        "movement         2 days",
        "retreat          24 hours",
        "+-------+",
        "Subject: [g1] orders",
        "PLACE Terminus",
        "Send HELP",
    ] {
        assert!(body.contains(needed), "{needed:?} missing from:\n{body}");
    }
    // 72 columns, as every mail of the judge.
    for line in body.lines() {
        assert!(line.chars().count() <= 72, "too long: {line}");
    }
    // Four players roll no dice (only the solo game's Imperium does, R10).
    assert!(!body.to_lowercase().contains("dice"), "{body}");
    // No address of another player in anybody's welcome.
    for m in &sent {
        for (_, address, _) in PLAYERS {
            if address != m.to {
                assert!(!m.raw.contains(address), "{address} shown to {}", m.to);
            }
        }
    }
    let moderator = sent.iter().find(|m| m.to == MODERATOR.0).unwrap();
    assert!(
        moderator.body.contains("You moderate this game"),
        "{}",
        moderator.body
    );
    // Welcomed once.
    w.pass();
    assert!(w.sent().is_empty());
}

#[test]
fn a_game_added_later_is_welcomed_when_the_judge_first_sees_it() {
    let mut w = World::new(FIXED_START);
    w.pass();
    w.sent();
    let path = w.dir.path().join("games.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let game = &text[text.find("[[game]]").unwrap()..];
    let g2 = game
        .replacen("id = \"g1\"", "id = \"g2\"", 1)
        .replacen("rules = \"foundation-empire\"", "rules = \"godsfire\"", 1)
        .replace("[game.start]\nfoundation = [\"Terminus\", \"Anacreon\", \"Smyrno\"]\nimperium = [\"Trantor\", \"Neotrantor\", \"Siwenna\"]\nunion = [\"Kalgan\", \"Haven\", \"Radole\"]\ntazenda = [\"Tazenda\", \"Rossem\", \"Gentri\"]\n", "")
        .replace("power = \"foundation\"", "power = \"red\"")
        .replace("power = \"imperium\"", "power = \"blue\"")
        .replace("power = \"union\"", "power = \"green\"")
        .replace("power = \"tazenda\"", "power = \"yellow\"");
    std::fs::write(&path, format!("{text}\n{g2}")).unwrap();
    w.config = pbem::config::Config::load(&path).unwrap();
    w.pass();
    let sent = w.sent();
    assert_eq!(
        sent.len(),
        5,
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(sent.iter().all(|m| m.subject.starts_with("[g2] Welcome")));
    let hari = sent.iter().find(|m| m.to == HARI).unwrap();
    assert!(hari.body.contains("a game of Godsfire"), "{}", hari.body);
    assert!(hari.body.contains("You play red"), "{}", hari.body);
}

/// Every line of every mail's text fits 72 columns.
fn assert_fits(w: &World) {
    for m in w.all_sent() {
        m.assert_fits_72();
    }
}

#[test]
fn every_mail_of_a_game_fits_72_columns_and_wrapped_results_stay_in_their_column() {
    let mut w = World::new(FIXED_START);
    w.pass();
    w.orders(
        HARI,
        "B2 - C2\nA1 S\nC1 - C9\nthis line is not an order and says so at some length to wrap\n",
    );
    w.orders(CLEON, "F2 - E2\nE1 S\nG1 S\nBOARD\nHELP");
    w.send(HARI, "[g1] hi", "PASSWORD wrong\nB2 H");
    w.send("stranger@example.test", "[g1] let me in", "B2 H");
    w.advance(chrono::Duration::hours(47));
    w.pass();
    w.advance(chrono::Duration::hours(2));
    w.pass();
    w.orders(HARI, "HISTORY 1\nBOARD\nHELP");
    w.pass();
    assert_fits(&w);
    let results = w
        .all_sent()
        .into_iter()
        .find(|m| m.to == HARI && m.subject.contains("results"))
        .unwrap();
    // A result line that wraps continues under the outcome column (30), never under
    // the order column.
    let lines: Vec<&str> = results.body.lines().collect();
    let mut wrapped = 0;
    for pair in lines.windows(2) {
        let (first, next) = (pair[0], pair[1]);
        if first.starts_with("  ")
            && first.len() > 40
            && first[13..].contains(' ')
            && next.starts_with("     ")
        {
            let indent = next.len() - next.trim_start().len();
            assert_eq!(indent, 30, "{first}\n{next}");
            wrapped += 1;
        }
    }
    assert!(wrapped > 0, "some result line wraps:\n{}", results.body);
    let mut g = World::godsfire("");
    g.pass();
    g.orders(HARI, "LOYALTY Sirius-1a 1\nBOARD\nHELP");
    g.pass();
    assert_fits(&g);
}

#[test]
fn help_without_a_game_lists_the_senders_games_and_a_player_is_never_silenced() {
    let mut w = World::new(FIXED_START);
    w.pass();
    w.sent();
    // Twice in a row: the once-a-day rule for strangers does not apply.
    for _ in 0..2 {
        w.send(HARI, "help", "HELP");
        w.pass();
        let sent = w.sent();
        assert_eq!(sent.len(), 1);
        let body = &sent[0].body;
        assert!(body.contains("g1"), "{body}");
        assert!(body.contains("you play foundation"), "{body}");
        assert!(body.contains("ORDERS ... END"), "{body}");
        // HELP needs no game: nothing in the answer reads as an error.
        assert!(!body.contains("names no game"), "{body}");
        assert!(body.lines().all(|l| l.chars().count() <= 72), "{body}");
    }
    // A mail that names no game, from a player, gets the same help with the reason.
    w.send(HARI, "orders", "PASSWORD x\nB2 H");
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].body.contains("names no game"), "{}", sent[0].body);
    assert!(sent[0].body.contains("you play foundation"));
    // HELP <game>: the order syntax and an example for the sender's power now.
    w.send(HARI, "help", "HELP g1");
    w.pass();
    let sent = w.sent();
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].body.contains("Foundation and Empire orders"),
        "{}",
        sent[0].body
    );
    assert!(
        sent[0].body.contains("An orders mail for foundation"),
        "{}",
        sent[0].body
    );
    // A stranger still hears once a day.
    for _ in 0..2 {
        w.send("stranger@example.test", "help", "HELP");
    }
    w.pass();
    assert_eq!(w.sent().len(), 1);
}

#[test]
fn solo_results_say_the_turn_and_both_sides_systems() {
    let mut w = World::with_players("[game.options]\nsolo = true\n", &PLAYERS[..1]);
    w.pass();
    w.sent();
    w.orders(HARI, "PLACE Terminus\nPLACE Anacreon\nPLACE Smyrno");
    w.pass();
    let results = w
        .sent()
        .into_iter()
        .find(|m| m.subject.contains("results"))
        .expect("setup results");
    let race = results.body.replace("\n  ", " ");
    // The race line counts the turns whose end has passed (R10.4, issue 12).
    assert!(race.contains("After 0 of 30 turns"), "{}", results.body);
    assert!(
        race.contains("The Foundation 3 systems"),
        "{}",
        results.body
    );
    assert!(race.contains("The Imperium"), "{}", results.body);
}

/// Every game's order syntax, as HELP mails it, fits the 72 columns of the judge's
/// other mails (a longer line is broken by mail programs, columns and all).
#[test]
fn every_games_order_help_fits_72_columns() {
    let helps = [
        include_str!("../src/rules/battles_galactic_empire/help.txt"),
        include_str!("../src/rules/diplomacy/help.txt"),
        include_str!("../src/rules/foundation_empire/help.txt"),
        include_str!("../src/rules/foundation_hjelmberg/help.txt"),
        include_str!("../src/rules/godsfire/help.txt"),
        include_str!("../src/rules/war_imperialism/help.txt"),
    ];
    for help in helps {
        for line in help.lines() {
            assert!(
                line.chars().count() <= 72,
                "{} columns: {line}",
                line.chars().count()
            );
        }
    }
}
