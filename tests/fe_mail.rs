//! Foundation and Empire's mails as a player reads them (issue 10, point 5): a receipt
//! echoes every system the player named by name beside its sector, and the board's
//! legend explains every mark the board uses.

use std::path::Path;

use pbem::rules::foundation_empire::report::board_text;
use pbem::rules::foundation_empire::scenario::Scenario;
use pbem::rules::foundation_empire::FoundationEmpire;
use pbem::rules::{LineCheck, RuleSet};

use crate::world::{squash, Sent, World, DISLODGING_START, FIXED_START, MODERATOR, PLAYERS};

const SALVOR: (&str, &str, &str) = (
    "foundation",
    "salvor.femail@example.test",
    "pw-femail-salvor-12",
);

fn receipt(sent: &[Sent]) -> &Sent {
    sent.iter()
        .find(|m| m.body.contains("your mail as the judge read it"))
        .expect("a receipt")
}

/// The accepted orders of `text` for the Foundation in the scenario, as a receipt
/// shows them.
fn accepted(scenario: &str, text: &str) -> Vec<String> {
    let s = Scenario::from_toml(scenario, Path::new(".")).expect("the scenario reads");
    FoundationEmpire::check(&s.state, "foundation", text)
        .into_iter()
        .map(|c| match c {
            LineCheck::Accepted { order } => order,
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Setup and movement by mail: `PLACE Terminus` is echoed `PLACE Terminus (A1)`, a
/// system named in a movement order is echoed by name and sector wherever it stands in
/// the order, and a sector named by its coordinate is echoed as written.
#[test]
fn receipt_echoes_a_system_named_by_name_with_its_sector() {
    let (_, address, _) = SALVOR;
    let mut w = World::with_rules(
        "foundation-empire",
        "[game.options]\nsolo = true\n",
        &[SALVOR],
    );
    w.pass();
    w.sent();
    w.orders(address, "PLACE Terminus\nPLACE smyrno\nPLACE C3");
    w.pass();
    let sent = w.sent();
    let body = &receipt(&sent).body;
    for line in [
        "  ok       PLACE Terminus (A1)\n",
        "  ok       PLACE Smyrno (B2)\n",
        "  ok       PLACE C3\n",
    ] {
        assert!(body.contains(line), "{line:?} in\n{body}");
    }
    // Turn 1: the fleets stand on Terminus (A1), Smyrno (B2) and Daribow (C3).
    w.orders(address, "terminus - A2\nSmyrno S\nC3 - Askone");
    w.pass();
    let sent = w.sent();
    let body = &receipt(&sent).body;
    for line in [
        "  ok       Terminus (A1) - A2\n",
        "  ok       Smyrno (B2) S\n",
        "  ok       C3 - Askone (D2)\n",
    ] {
        assert!(body.contains(line), "{line:?} in\n{body}");
    }
    // The orders standing are echoed the same way.
    let standing = &body[body.find("Orders now standing").unwrap()..];
    assert!(standing.contains("  Terminus (A1) - A2\n"), "{body}");
    assert!(body.lines().all(|l| l.chars().count() <= 72), "{body}");
}

/// A targeted support, a retreat and a placement that name systems by name: each named
/// system is echoed by name and sector, in every position of the order.
#[test]
fn receipt_echoes_systems_named_in_supports_retreats_and_placements() {
    let support = "rules = \"foundation-empire\"\nphase = \"movement\"\nturn = 2\n\
        [options]\nsupport = \"targeted\"\n\
        [[fleet]]\npower = \"foundation\"\nat = \"A1\"\n\
        [[fleet]]\npower = \"foundation\"\nat = \"B2\"\n";
    assert_eq!(
        accepted(support, "Smyrno S Terminus - A2\nTerminus - A2"),
        ["Smyrno (B2) S Terminus (A1) - A2", "Terminus (A1) - A2"]
    );
    let retreat = "rules = \"foundation-empire\"\nphase = \"retreat\"\nturn = 3\n\
        [[fleet]]\npower = \"imperium\"\nat = \"C2\"\n\
        [[dislodged]]\npower = \"foundation\"\nat = \"C2\"\nattacker_from = \"D2\"\n";
    assert_eq!(accepted(retreat, "C2 R Anacreon"), ["C2 R Anacreon (C1)"]);
    let placement = "rules = \"foundation-empire\"\nphase = \"placement\"\nturn = 6\n\
        [systems]\nRossem = \"foundation\"\nDaribow = \"foundation\"\n\
        [[fleet]]\npower = \"foundation\"\nat = \"C4\"\nstay = 4\n\
        [[fleet]]\npower = \"foundation\"\nat = \"C3\"\nstay = 4\n\
        [[pending_placement]]\npower = \"foundation\"\nsystem = \"Rossem\"\n\
        [[pending_placement]]\npower = \"foundation\"\nsystem = \"Daribow\"\n";
    assert_eq!(
        accepted(placement, "PLACE Rossem D5\nPLACE daribow D3"),
        ["PLACE Rossem (C4) D5", "PLACE Daribow (C3) D3"]
    );
    // By coordinate only: nothing added.
    assert_eq!(accepted(placement, "PLACE D5"), ["PLACE Rossem D5"]);
}

/// The board's legend names every mark the board uses: a system (first letters and
/// owner tag, `.` for no owner), a fleet (`[F]`), a fleet occupying a system (`1/4`,
/// R8.2), and the tag of every power in play; within 72 columns.
#[test]
fn board_legend_explains_every_mark() {
    let scenario = "rules = \"foundation-empire\"\nphase = \"movement\"\nturn = 3\n\
        [systems]\nTerminus = \"foundation\"\n\
        [[fleet]]\npower = \"foundation\"\nat = \"A1\"\n\
        [[fleet]]\npower = \"foundation\"\nat = \"D2\"\nstay = 1\n\
        [[fleet]]\npower = \"imperium\"\nat = \"E1\"\nstay = 2\n";
    let s = Scenario::from_toml(scenario, Path::new(".")).unwrap();
    let board = board_text(&s.state);
    // The marks are on the board ...
    assert!(board.contains("|Ter F  |"), "{board}");
    assert!(board.contains("|Ask .  |"), "{board}");
    assert!(board.contains("|[F]    |"), "{board}");
    assert!(board.contains("|[F] 1/4|"), "{board}");
    assert!(board.contains("|[I] 2/4|"), "{board}");
    // ... and the legend under it says what each means.
    let legend = &board[board.rfind('+').unwrap()..];
    for line in [
        "    Ter F    a system (first letters of its name) and its owner\n",
        "    Ter .    a system owned by nobody\n",
        "    [F]      a fleet of F\n",
        "    [F] 1/4  a fleet occupying: 1 turn of the 4 that take a system\n",
        "    F The Foundation, I The Imperium, U The Union of Worlds, T Tazenda\n",
    ] {
        assert!(legend.contains(line), "{line:?} in\n{legend}");
    }
    assert!(board.lines().all(|l| l.chars().count() <= 72), "{board}");
    // A solo game's legend names only the two powers in play.
    let solo = scenario.replace("turn = 3\n", "turn = 3\n[options]\nsolo = true\n");
    let s = Scenario::from_toml(&solo, Path::new(".")).unwrap();
    let board = board_text(&s.state);
    assert!(
        board.ends_with("    F The Foundation, I The Imperium\n"),
        "{board}"
    );
}

/// The BOARD reply by mail carries the legend.
#[test]
fn board_reply_carries_the_legend() {
    let (_, address, _) = SALVOR;
    let mut w = World::with_rules(
        "foundation-empire",
        "[game.options]\nsolo = true\n",
        &[SALVOR],
    );
    w.pass();
    w.sent();
    w.orders(address, "BOARD");
    w.pass();
    let sent = w.sent();
    let board = sent
        .iter()
        .find(|m| m.subject.contains("Board"))
        .expect("a BOARD reply");
    assert!(board.body.contains("owned by nobody"), "{}", board.body);
    assert!(board.body.contains("that take a system"), "{}", board.body);
    assert!(
        board.body.contains("F The Foundation, I The Imperium"),
        "{}",
        board.body
    );
}

/// The standing (welcome and results mails) is a table: most systems first, the
/// names padded to the longest (`The Union of Worlds`), one system and one fleet
/// named so.
#[test]
fn the_standing_is_a_table_most_systems_first() {
    let scenario = "rules = \"foundation-empire\"\nphase = \"movement\"\nturn = 3\n\n[systems]\nWye = \"union\"\nKalgan = \"union\"\nTerminus = \"foundation\"\n\n[[fleet]]\npower = \"union\"\nat = \"E3\"\n[[fleet]]\npower = \"foundation\"\nat = \"A1\"\n[[fleet]]\npower = \"foundation\"\nat = \"B2\"\n";
    let s = Scenario::from_toml(scenario, Path::new(".")).expect("the scenario reads");
    let lines = pbem::rules::foundation_empire::report::standing(&s.state);
    assert_eq!(lines[0], "Systems owned (13 win):");
    let rows = &lines[1..];
    assert!(
        rows[0].starts_with("  The Union of Worlds   2 systems   1 fleet"),
        "{rows:#?}"
    );
    assert!(
        rows[1].starts_with("  The Foundation        1 system    2 fleets"),
        "{rows:#?}"
    );
    // Every row's numbers in the same columns.
    let column = |r: &String| r.find(" system").unwrap();
    assert!(
        rows.iter().all(|r| column(r) == column(&rows[0])),
        "{rows:#?}"
    );
}

/// The BOARD reply of the phase `w` is in, from the Union's player, squashed to one line.
fn board_reply(w: &mut World) -> String {
    w.sent();
    w.orders(PLAYERS[2].1, "BOARD");
    w.pass();
    let sent = w.sent();
    let board = sent
        .iter()
        .find(|m| m.subject == "[g1] Board")
        .expect("a BOARD reply");
    squash(&board.body)
}

/// A BOARD reply in a retreat phase tells which fleets must retreat and where they may
/// go, and in a placement phase where each new fleet may be placed, as the results
/// mail that began the phase did (R6.1, R8.4); it names the systems' owners as the
/// results do, and shows the standing with the turn limit (R9.3).
#[test]
fn board_reply_tells_what_the_phase_asks() {
    // A retreat phase: the Foundation dislodges Tazenda's fleet in C4.
    let mut w = World::new(&format!(
        "[game.options]\nturn_limit = 10\n{DISLODGING_START}"
    ));
    w.dislodge_in_c4();
    assert_eq!(w.record().game.label().phase, "retreat");
    let board = board_reply(&mut w);
    assert!(
        board.contains("Due in this phase: Tazenda fleet in C4 is dislodged; it may retreat to")
            && board.contains("(or DISBAND)"),
        "{board}"
    );
    assert!(
        board.contains("Kalgan (The Union of Worlds)") && !board.contains("(union)"),
        "{board}"
    );
    assert!(
        board.contains("Systems owned (13 win, or the most after turn 10):"),
        "{board}"
    );

    // A placement phase: a system taken in one turn earns a fleet to place.
    let mut w = World::new(&format!(
        "[game.options]\noccupation_turns = 1\n{FIXED_START}"
    ));
    w.orders(PLAYERS[0].1, "B2 - A3\nC1 - D2\nA1 - B1");
    w.orders(MODERATOR.0, "FORCE");
    w.pass();
    assert_eq!(w.record().game.label().phase, "placement");
    let board = board_reply(&mut w);
    assert!(
        board
            .contains("Due in this phase: The Foundation places a new fleet for Askone in one of:"),
        "{board}"
    );
    // No turn limit, none told.
    assert!(board.contains("Systems owned (13 win):"), "{board}");
}

/// Chatter with a dash in it (`Thanks - Preem`, `Ok - bye`, `Cheers -> Mule`) has an
/// order's shape, but its first word is no sector, system or order word: it is no
/// order, so it is told to its writer only, in the receipt as not read, in the setup
/// phase as in movement, and no results mail nor `results.json` shows it. A line that
/// begins like an order and is wrong (`A4 - Z9`, `Rossem - Nowhere`) is still refused,
/// in the receipt and in every power's results.
#[test]
fn chatter_with_a_dash_is_not_read_and_reaches_only_its_writer() {
    let [(_, hari, _), (_, cleon, _), (_, mule, _), (_, preem, _)] = PLAYERS;
    let mut w = World::new("");
    w.pass();
    w.sent();
    let receipt_of = |sent: &[Sent]| squash(&receipt(sent).body);

    // Setup: a line of chatter is not read as a movement order out of its phase.
    w.orders(
        preem,
        "PLACE Tazenda\nPLACE Rossem\nPLACE Gentri\nThanks - Preem",
    );
    w.pass();
    let sent = w.sent();
    let body = receipt_of(&sent);
    assert!(
        body.contains(
            "NOT READ Thanks - Preem -> \"Thanks\" is not a sector, a major system or an order word (not an order: only you see this line)"
        ),
        "{body}"
    );
    assert!(body.contains("ok PLACE Gentri (B5)"), "{body}");
    let mut setup = sent;
    w.orders(hari, "PLACE Terminus\nPLACE Anacreon\nPLACE Smyrno");
    w.orders(cleon, "PLACE Trantor\nPLACE Neotrantor\nPLACE Siwenna");
    w.orders(mule, "PLACE Kalgan\nPLACE Haven\nPLACE Radole");
    assert_eq!(w.pass().phases_adjudicated, 1);
    setup.extend(w.sent());
    assert!(
        setup.iter().any(|m| m.subject.contains("setup results")),
        "{setup:#?}"
    );
    crate::world::assert_chatter_only_in_the_receipt(&setup, &["Thanks - Preem"], preem);
    assert_eq!(w.record().game.label().phase, "movement");

    // Movement: chatter beside orders, and two wrong orders.
    let chatter = ["Thanks - Preem", "Cheers -> Mule", "Ok - bye"];
    w.orders(
        preem,
        "C4 H\nThanks - Preem\nCheers -> Mule\nOk - bye\nA4 - Z9\nRossem - Nowhere",
    );
    w.pass();
    let sent = w.sent();
    let body = receipt_of(&sent);
    for c in chatter {
        assert!(
            body.contains(&format!("NOT READ {c} ->")),
            "{c:?} in\n{body}"
        );
    }
    assert!(
        body.contains("REFUSED A4 - Z9 -> Z9 is off the board"),
        "{body}"
    );
    assert!(
        body.contains(
            "REFUSED Rossem - Nowhere -> \"Nowhere\" is neither a sector nor a major system"
        ),
        "{body}"
    );
    let mut movement = sent;
    w.orders(hari, "B2 H");
    w.orders(cleon, "E1 H");
    w.orders(mule, "E4 H");
    assert_eq!(w.pass().phases_adjudicated, 1);
    movement.extend(w.sent());
    crate::world::assert_chatter_only_in_the_receipt(&movement, &chatter, preem);
    // The wrong orders are public: in every power's results mail and results.json.
    let results: Vec<&Sent> = movement
        .iter()
        .filter(|m| m.subject.contains("movement results"))
        .collect();
    assert_eq!(results.len(), 5, "{movement:#?}");
    for m in results {
        let json = &m.attachment.as_ref().expect("results.json").1;
        for wrong in ["A4 - Z9", "Rossem - Nowhere"] {
            assert!(squash(&m.body).contains(wrong), "{wrong:?} to {}", m.to);
            assert!(json.contains(wrong), "{wrong:?} in {json}");
        }
    }
}

/// A placement receipt says under the orders standing how many new fleets the power
/// has to place, how many its orders place, and where the deadline places the others
/// (R8.4: the first empty sector next to the system, in reading order).
#[test]
fn a_placement_receipt_tells_the_new_fleets_due_placed_and_left() {
    let (_, hari, _) = PLAYERS[0];
    let mut w = World::new(&format!(
        "[game.options]\noccupation_turns = 1\n{FIXED_START}"
    ));
    for ((_, address, _), holds) in PLAYERS[1..].iter().zip(["E1 H", "E4 H", "A4 H"]) {
        w.orders(address, holds);
    }
    w.orders(hari, "B2 - A3");
    w.pass();
    assert_eq!(w.record().game.label().phase, "placement");
    w.sent();
    let mut receipt = |body: &str| {
        w.orders(hari, body);
        w.pass();
        receipt(&w.sent()).body.clone()
    };
    // WAIT: nothing ordered, and the phase waits for the deadline.
    let raw = receipt("WAIT");
    assert!(
        raw.contains(
            "Orders now standing for foundation:\n  (none: the rules' defaults apply to your pieces)\nNew fleets to place: 1 (for Konom). No placement is ordered yet. Without\nan order by the deadline, the fleet for Konom goes to A2, the first\nempty sector next to it.\n"
        ),
        "{raw}"
    );
    let body = squash(&receipt("PLACE B3"));
    assert!(
        body.contains(
            "Orders now standing for foundation: PLACE Konom B3 New fleets to place: 1 (for Konom). Your orders place 1: nothing is left to order. Submitted so far"
        ),
        "{body}"
    );
    assert_eq!(w.record().game.label().phase, "placement");
}
