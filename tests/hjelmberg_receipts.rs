//! Foundation (Hjelmberg)'s receipts (H4.4): each line previewed against the position
//! it will meet, marked `ok`, `later`, `unused` or `WARNING` with its note, or refused.

use std::collections::BTreeMap;
use std::path::Path;

use pbem::rules::foundation_hjelmberg::outcome::Outcome;
use pbem::rules::foundation_hjelmberg::state::Phase;
use pbem::rules::foundation_hjelmberg::{self as fh, scenario};
use pbem::rules::game::Play;
use pbem::rules::LineCheck;

use crate::hjelmberg::{players, state_of, HEAD};

/// Receipts: each line says what it would do now, or why it is refused.
#[test]
fn receipts_say_what_each_line_will_do_or_why_it_is_refused() {
    let s = state_of(&players(
        "ships = [\"A1\", \"A2\"]\nkins = 2\ndynasty = { \"TRADE I\" = 1 }\nresearch = [\"TRAVEL III\"]\nhand = { black = 1 }",
    ));
    let checks = s.check(
        "red",
        "TRADE I O1 O2\nTRADE I O1 O3\nFLY A1\nPLACE TRADE I\nPLACE TRAVEL I\nRESEARCH III GOAL 1 FROM CENTER\n",
    );
    assert_eq!(checks.len(), 6);
    let text = |k: usize| match &checks[k] {
        LineCheck::Accepted { order } => order.clone(),
        LineCheck::Noted { order, mark, note } => format!("{mark}: {order} -> {note}"),
        LineCheck::Refused { line, reason } => format!("REFUSED {line}: {reason}"),
        LineCheck::Unreadable { line, reason } => format!("NOT READ {line}: {reason}"),
        LineCheck::Replaced { line, reason } => format!("REPLACED {line}: {reason}"),
    };
    assert!(text(0).starts_with("WARNING: TRADE I O1 O2 -> "));
    assert!(text(0).contains("not possible as things stand: O1 and O2 are not trade partners"));
    assert!(text(1).starts_with("ok: "));
    assert!(text(1).contains("-> if played now: took blue from O1, green from O3"));
    assert_eq!(text(2), "NOT READ FLY A1: \"FLY\" is not an order");
    assert!(text(3).contains("if played now: kin to TRADE I"));
    assert!(text(4).starts_with("unused: "));
    assert!(
        text(4).contains("-> not carried out as things stand: 2 orders were carried out already")
    );
    // A line the rules can read but never carry out is refused.
    let refused = s.check("red", "TRADE I O1 M2\n");
    assert!(
        matches!(&refused[0], LineCheck::Refused { reason, .. } if reason.contains("two outer planets"))
    );
    // A receipt never names a secret: the goal tile she would see is not in it.
    assert!(!checks.iter().any(|c| format!("{c:?}").contains("black-3")));
}

/// The text of a receipt's line (accepted: its mark, the order and its note).
fn receipt_text(c: &LineCheck) -> String {
    match c {
        LineCheck::Accepted { order } => order.clone(),
        LineCheck::Noted { order, mark, note } => format!("{mark}: {order} -> {note}"),
        LineCheck::Refused { line, reason } => format!("REFUSED {line}: {reason}"),
        LineCheck::Unreadable { line, reason } => format!("NOT READ {line}: {reason}"),
        LineCheck::Replaced { line, reason } => format!("REPLACED {line}: {reason}"),
    }
}

/// In round pace a later seat's receipt previews her lines on the position they will
/// meet: after the earlier seats' turns, the Empire's move at the end of red's included.
/// What the earlier seats' orders could still change is said to be checked when
/// carried out; what only she touches keeps its plain verdict.
#[test]
fn a_later_seats_receipt_reckons_with_the_empires_move_before_her_turn() {
    let s = state_of(concat!(
        "empire_kin = \"red\"\n",
        "[[player]]\nid = \"red\"\nships = [\"A1\"]\nkins = 2\ndynasty = { \"TRAVEL I\" = 1 }\n",
        "[[player]]\nid = \"blue\"\nships = [\"A5\"]\nkins = 2\ndynasty = { \"TRAVEL I\" = 1 }\n",
        "[[player]]\nid = \"green\"\n",
    ));
    // A3 -> A4 at the end of red's turn: A4 is empty now, not when blue travels.
    let blue = "PLACE TRADE I\nTRAVEL I A4\nEMPIRE YIELD\n";
    let checks = s.check("blue", blue);
    assert_eq!(checks.len(), 3);
    let place = receipt_text(&checks[0]);
    assert!(
        place.contains("-> if played now: kin to TRADE I"),
        "{place}"
    );
    let travel = receipt_text(&checks[1]);
    assert!(!travel.contains("if played now"), "{travel}");
    assert!(
        travel.starts_with("WARNING: TRAVEL I A4 -> checked when carried out after red's turn (the Empire moves at its end); as far as known now, not possible: A4 holds an Empire ship"),
        "{travel}"
    );
    // And so it is when red sends nothing.
    let (_, log) = fh::adjudicate(&s, &BTreeMap::from([("blue".into(), blue.into())]), 1);
    let line2 = log
        .results
        .iter()
        .find(|r| r.seat == 1 && r.line == 2)
        .unwrap();
    assert_eq!(line2.outcome, Outcome::Failed);
    assert!(line2.detail.starts_with("A4 holds an Empire ship"));
    // Red plays first: nothing comes before her lines, so the preview is plain.
    let red = s.check("red", "TRAVEL I A2\n");
    assert!(
        receipt_text(&red[0]).contains("-> if played now: "),
        "{}",
        receipt_text(&red[0])
    );
    // Green plays after red and blue: blue may take a gate first.
    let green = s.check("green", "START A6 blue\nTRAVEL I A6\n");
    assert!(receipt_text(&green[1]).contains(
        "checked when carried out after the turns of red and blue (the Empire moves at the end of red's); as far as known now, "
    ));
}

/// In the setup every start before hers may take her gate or colour first.
#[test]
fn a_setup_receipt_waits_for_the_starts_before_hers() {
    let text = format!(
        "{}{}",
        HEAD.replace("phase = \"play\"\nturn = 1", "phase = \"setup\"\nturn = 0"),
        players("")
    );
    let s = scenario::read(&text, Path::new(".")).unwrap().state;
    assert_eq!(s.core.phase, Phase::Setup);
    // Green holds the Empire kin and starts first, then blue, then red.
    let green = s.check("green", "START A1 blue\n");
    assert!(receipt_text(&green[0]).contains("-> if played now: a ship on A1 and 1 blue"));
    let red = s.check("red", "START A1 blue\nSTART A2 red\nEMPIRE YIELD\n");
    assert!(
        receipt_text(&red[0]).starts_with("later: START A1 blue -> checked when carried out after the starts of green and blue; as far as known now, it would do: a ship on A1 and 1 blue"),
        "{}",
        receipt_text(&red[0])
    );
    assert!(receipt_text(&red[1]).contains("-> checked when carried out"));
    assert!(receipt_text(&red[2]).contains("-> if played now: standing response: yield"));
}

/// The example orders HELP and the welcome mail give can all be carried out: no line
/// of them is past the two orders of a turn (H4.4), none is refused.
#[test]
fn the_example_orders_fit_in_a_turn() {
    let s = state_of(&players("ships = [\"A1\", \"A2\"]\nkins = 3"));
    let example = s.example_orders("red");
    assert!(example.contains("PLACE"), "{example}");
    for c in s.check("red", &example) {
        let text = receipt_text(&c);
        assert!(
            !text.starts_with("unused") && !text.starts_with("REFUSED"),
            "{text}\n{example}"
        );
    }
}

/// A ship of hers that the Empire's move before her turn sends back to her supply
/// (H7.2) is lost in the position her lines meet: a line that needed it is a WARNING
/// that says where the ship went, and the results say it by an event when it fails.
#[test]
fn a_receipt_says_when_a_ship_is_lost_before_her_turn() {
    let s = state_of(concat!(
        "empire_kin = \"red\"\n",
        "[[player]]\nid = \"red\"\n",
        "[[player]]\nid = \"blue\"\nships = [\"A4\"]\nkins = 1\nresponse = \"yield\"\n",
        "dynasty = { \"PRODUCE I\" = 1, \"TRAVEL I\" = 1 }\n",
        "[[player]]\nid = \"green\"\n",
    ));
    // A3 -> A4 at the end of red's turn, and blue yields.
    let blue = "PRODUCE I O4\nTRAVEL I A6\n";
    let why = "O4 is not in reach (no ship of hers next to it)";
    let checks = s.check("blue", blue);
    let produce = receipt_text(&checks[0]);
    assert!(
        produce.starts_with(&format!("WARNING: PRODUCE I O4 -> checked when carried out after red's turn (the Empire moves at its end); as far as known now, not possible: {why}: her ship on A4 returns to her supply at the end of red's turn (H7.2)")),
        "{produce}"
    );
    let (_, log) = fh::adjudicate(&s, &BTreeMap::from([("blue".into(), blue.into())]), 1);
    let line1 = log
        .results
        .iter()
        .find(|r| r.seat == 1 && r.line == 1)
        .unwrap();
    assert_eq!(line1.outcome, Outcome::Failed);
    assert!(line1.detail.starts_with(why), "{}", line1.detail);
    // The results tell it by an event, a round read as its turns one by one.
    assert!(log.events.iter().any(|e| e.step == "H7.2"
        && e.text
            == "blue's line 1 (PRODUCE I O4) failed because her ship on A4 returned to her supply at the end of red's turn"));
}

/// A ship of hers that the Empire's move at the end of a turn after her lines would send
/// back to her supply (H7.2) makes a WARNING: on the line that put it there, else on
/// her last line, with the turn and the reason. Blue holds the Empire kin: at the end
/// of her turn A3 -> A4 and B2 -> B3, and she has no kin on a BATTLE space.
#[test]
fn a_receipt_warns_of_a_ship_lost_after_her_lines() {
    let s = state_of(concat!(
        "empire_kin = \"blue\"\n",
        "[[player]]\nid = \"red\"\n",
        "[[player]]\nid = \"blue\"\nships = [\"A4\", \"A6\"]\nkins = 2\n",
        "dynasty = { \"TRAVEL I\" = 1 }\n",
        "[[player]]\nid = \"green\"\n",
    ));
    let blue = "TRAVEL I B3\nPLACE TRADE I\n";
    let checks = s.check("blue", blue);
    let travel = receipt_text(&checks[0]);
    assert!(
        travel.starts_with("WARNING: TRAVEL I B3 -> checked when carried out after red's turn; as far as known now, it would do: "),
        "{travel}"
    );
    assert!(
        travel.ends_with("; then her ship on B3 returns to her supply at the end of her turn, when the Empire moves (no kin to battle with) (H7.2)"),
        "{travel}"
    );
    // The ship on A4 stood there before her lines: her last line says it (checked when
    // carried out, as it comes after such a line).
    let place = receipt_text(&checks[1]);
    assert_eq!(
        place,
        "WARNING: PLACE TRADE I -> checked when carried out after red's turn; as far as known now, it would do: kin to TRADE I; after her lines, her ship on A4 returns to her supply at the end of her turn, when the Empire moves (no kin to battle with) (H7.2)"
    );
    // In turn pace nothing comes before her lines and nobody else is there: it is sure.
    let s_turn = state_of(concat!(
        "next = \"blue\"\nempire_kin = \"blue\"\n[options]\npace = \"turn\"\n",
        "[[player]]\nid = \"red\"\n",
        "[[player]]\nid = \"blue\"\nships = [\"A6\"]\nkins = 2\n",
        "dynasty = { \"TRAVEL I\" = 1 }\n",
        "[[player]]\nid = \"green\"\n",
    ));
    assert_eq!(
        receipt_text(&s_turn.check("blue", "TRAVEL I B3\n")[0]),
        "WARNING: TRAVEL I B3 -> if played now: ship to B3; then her ship on B3 returns to her supply at the end of her turn, when the Empire moves (no kin to battle with) (H7.2)"
    );
    // So the adjudication does, when red sends nothing.
    let (after, log) = fh::adjudicate(&s, &BTreeMap::from([("blue".into(), blue.into())]), 1);
    assert_eq!(after.core.player(1).ships.count_ones(), 1);
    assert!(log
        .events
        .iter()
        .any(|e| e.text == "blue's ship on B3 returns to her supply (no kin to battle with)"));

    // Green holds the Empire kin and plays after blue: her ship on A4 is lost at the end
    // of green's turn, as far as known now (green's orders may change it).
    let s = state_of(concat!(
        "empire_kin = \"green\"\n",
        "[[player]]\nid = \"red\"\n",
        "[[player]]\nid = \"blue\"\nships = [\"A4\"]\nkins = 3\nresponse = \"yield\"\n",
        "[[player]]\nid = \"green\"\n",
    ));
    let checks = s.check("blue", "PLACE TRADE I\n");
    assert_eq!(
        receipt_text(&checks[0]),
        "WARNING: PLACE TRADE I -> if played now: kin to TRADE I; after her lines, as far as known now, her ship on A4 returns to her supply at the end of green's turn, when the Empire moves (she yields) (H7.2)"
    );
    // Green's own receipt says nothing of blue's ship.
    let checks = s.check("green", "PLACE TRADE I\n");
    assert_eq!(
        receipt_text(&checks[0]),
        "ok: PLACE TRADE I -> if played now: kin to TRADE I"
    );
}
