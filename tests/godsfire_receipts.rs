//! Godsfire's receipts: what the judge refuses at once (G6.5, G7.2, G7.7, G8.1, G8.2,
//! G9), and money in transit told as a transfer (G6.3).

use std::collections::BTreeMap;

use pbem::rules::godsfire::map::{Economy, Party};
use pbem::rules::godsfire::scenario::standard;
use pbem::rules::godsfire::state::{Options, Phase, State};
use pbem::rules::godsfire::{self as gf};

use crate::world::squash;

/// The receipt's verdict on each line of `text` from `power`: `ok` or the reason.
fn receipt(s: &State, power: &str, text: &str) -> Vec<String> {
    <gf::Godsfire as pbem::rules::RuleSet>::check(s, power, text)
        .into_iter()
        .map(|c| match c {
            pbem::rules::LineCheck::Accepted { .. } | pbem::rules::LineCheck::Noted { .. } => {
                "ok".to_string()
            }
            pbem::rules::LineCheck::Refused { reason, .. }
            | pbem::rules::LineCheck::Unreadable { reason, .. }
            | pbem::rules::LineCheck::Replaced { reason, .. } => reason,
        })
        .collect()
}

#[test]
fn g6_3_money_in_transit_is_told_as_a_transfer() {
    // Money on its way (G6.3), not units: the board and the arrival say whose transfer
    // of how much goes where.
    use pbem::rules::godsfire::state::Transit;
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    let money = |to: &str, arrives_turn: u32| Transit {
        power: "blue".into(),
        amount: 2,
        to: to.into(),
        arrives_turn,
    };
    s.transit = vec![
        money("Deneb", s.turn),
        money("NG", s.turn),
        money("Rigel", 9),
    ];
    let board = squash(&gf::report::board_text(&s));
    assert!(
        board.contains(
            "Money in transit: blue's transfer of 2 to Deneb, arrives in turn 1 \
             blue's transfer of 2 to the NG, arrives in turn 1 \
             blue's transfer of 2 to Rigel, arrives in turn 9"
        ),
        "{board}"
    );
    let (after, log) = gf::adjudicate(&s, &BTreeMap::new(), 1);
    let told: Vec<&str> = log
        .events
        .iter()
        .filter(|e| e.step == "G6.3")
        .map(|e| e.text.as_str())
        .collect();
    let deneb = &after.systems[after.system_index("Deneb").unwrap()];
    let bank = format!(
        "blue's transfer of 2 arrives in the bank of Deneb (bank now {})",
        deneb.bank
    );
    let treasury = format!(
        "blue's transfer of 2 arrives at the NG (treasury now {})",
        after.powers[1].treasury
    );
    assert_eq!(told, [bank.as_str(), treasury.as_str()]);
}

#[test]
fn g6_5_the_receipt_refuses_an_econ_that_cannot_grow_the_region() {
    // The party changes only in G7.1, after ECON (G6.5): a reactionary region cannot
    // grow this turn, and a region grows one level a turn; both are known on receipt.
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    let got = receipt(&s, "red", "ECON Sirius-1b\nECON Sirius-2b\nECON Sirius-2b");
    assert!(
        got[0].contains("only a moderate (M) region grows"),
        "{got:?}"
    );
    assert_eq!(got[1], "ok");
    assert!(got[2].contains("one level a turn"), "{got:?}");
}

#[test]
fn g6_5_the_receipt_refuses_an_econ_on_an_i2_region_no_default_can_lower() {
    // I-2 is the highest level: ECON on it fails at G6.5 unless a loan default short by
    // more than 4 lowers it first (G6.2). Without loans, or with instalments the
    // treasury nearly covers, that cannot happen: known on receipt.
    use pbem::rules::godsfire::state::Loan;
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    let at = s
        .regions()
        .find(|&at| s.owner(at) == "red" && s.region(at).economy == Economy::I2)
        .unwrap();
    s.region_mut(at).party = Party::M;
    let id = s.region_name(at);
    let order = format!("ECON {id}");
    let got = receipt(&s, "red", &order);
    assert!(
        got[0].contains("the highest level") && got[0].contains("you have no loans"),
        "{got:?}"
    );
    // Short by 4 at most: still no level lost before ECON.
    s.powers[0].treasury = 3;
    s.powers[0].loans = vec![Loan {
        left: 2,
        instalment: 7,
    }];
    let got = receipt(&s, "red", &order);
    assert!(got[0].contains("short by only 4"), "{got:?}");
    // Short by 5: G6.2 may lower it to I-1, and ECON may then raise it again.
    s.powers[0].treasury = 2;
    assert_eq!(receipt(&s, "red", &order), ["ok"]);
    // And it does: the default takes the region named by DEMOTE first, and ECON
    // raises it back.
    s.systems[at.system].bank = 20;
    let orders = BTreeMap::from([("red".to_string(), format!("DEMOTE {id}\n{order}"))]);
    let (after, log) = gf::adjudicate(&s, &orders, 1);
    assert_eq!(log.results[1].outcome.id(), "done", "{:?}", log.results);
    assert_eq!(after.region(at).economy, Economy::I2);
}

#[test]
fn g7_2_the_receipt_refuses_a_bribe_in_an_e_region() {
    // G7.2 bribes only an R revolt; G7.1 turns an E region only into M before it: a
    // BRIBE in an E region is known to fail. One in an M region is not (G7.1 may make
    // it R), nor one in an R region.
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    let e = s
        .regions()
        .find(|&at| s.region_name(at) == "Sirius-1a")
        .unwrap();
    s.region_mut(e).party = Party::E;
    let got = receipt(&s, "red", "BRIBE Sirius-1a\nBRIBE Sirius-1b");
    assert!(
        got[0].contains("only a reactionary (R) revolt takes bribes")
            && got[0].contains("changes only to M"),
        "{got:?}"
    );
    assert_eq!(got[1], "ok");
}

#[test]
fn g7_7_the_receipt_refuses_a_second_change_of_ministers() {
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    let got = receipt(&s, "red", "CHANGE MINISTERS\nCHANGE MINISTERS");
    assert_eq!(got[0], "ok");
    assert!(got[1].contains("once a game"), "{got:?}");
    s.powers[0].ministers_changed = true;
    let got = receipt(&s, "red", "CHANGE MINISTERS");
    assert!(got[0].contains("already did"), "{got:?}");
}

#[test]
fn g8_2_the_receipt_refuses_peace_without_war_and_war_at_war() {
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    s.powers[0].at_war.push("blue".into());
    s.powers[1].at_war.push("red".into());
    let got = receipt(
        &s,
        "red",
        "PEACE green\nWAR blue\nPEACE blue\nWAR green\nWAR green",
    );
    assert!(got[0].contains("not at war with green"), "{got:?}");
    assert!(got[1].contains("already at war with blue"), "{got:?}");
    assert_eq!(got[2], "ok");
    assert_eq!(got[3], "ok");
    assert!(got[4].contains("declared already"), "{got:?}");
}

#[test]
fn g8_2_a_war_listed_by_one_side_binds_both_for_war_and_peace() {
    // A scenario may list a war on one side only (red lists blue, blue lists nobody):
    // the war binds both, so blue may order PEACE and may not declare WAR; peace ends
    // the war on both sides when both order it.
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    s.powers[0].at_war = vec!["blue".into()];
    s.powers[1].at_war.clear();
    let got = receipt(&s, "blue", "PEACE red\nWAR red");
    assert_eq!(got[0], "ok");
    assert!(got[1].contains("already at war with red"), "{got:?}");
    let orders = |red: &str, blue: &str| {
        BTreeMap::from([
            ("red".to_string(), red.to_string()),
            ("blue".to_string(), blue.to_string()),
        ])
    };
    let result = |log: &gf::outcome::Log, power: &str| {
        let r = log.results.iter().find(|r| r.power == power).unwrap();
        format!("{}: {}", r.outcome.id(), r.detail)
    };
    // One side alone makes no peace, whichever it is.
    let (after, log) = gf::adjudicate(&s, &orders("", "PEACE red"), 1);
    assert_eq!(
        result(&log, "blue"),
        "failed: red did not order PEACE with blue"
    );
    assert_eq!(after.powers[0].at_war, ["blue"]);
    // Both: done for both, and neither lists the other any more.
    let (after, log) = gf::adjudicate(&s, &orders("PEACE blue", "PEACE red"), 1);
    assert_eq!(result(&log, "red"), "done: peace with blue");
    assert_eq!(result(&log, "blue"), "done: peace with red");
    assert!(after.powers[0].at_war.is_empty() && after.powers[1].at_war.is_empty());
    assert!(!after.at_war_either("red", "blue"));
    let told: Vec<&str> = log
        .events
        .iter()
        .filter(|e| e.step == "G8.2")
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(told, ["red and blue make peace"]);
}

#[test]
fn g8_1_a_stake_toward_a_power_at_war_by_its_list_only_is_paid_from_a_bank_near() {
    // Blue lists the war, red does not: red is at war with blue all the same, and its
    // stake on a blue region is paid from a bank of its own within 3 (G8.1), not from
    // the treasury.
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    s.powers[0].at_war.clear();
    s.powers[1].at_war = vec!["red".into()];
    let algol = s.system_index("Algol").unwrap();
    s.systems[algol].owner = "red".into();
    s.systems[algol].bank = 5;
    let orders = BTreeMap::from([("red".to_string(), "SUBVERT Rigel-1a".to_string())]);
    let (after, log) = gf::adjudicate(&s, &orders, 1);
    let r = &log.results[0];
    assert_eq!(r.outcome.id(), "done", "{r:?}");
    assert!(r.detail.ends_with("from Algol"), "{r:?}");
    assert_eq!(after.powers[0].treasury, s.powers[0].treasury);
}

#[test]
fn g8_1_the_receipt_refuses_a_stake_at_war_with_no_bank_in_reach() {
    // At war, a stake is paid from a bank of one's own within 3 of the target (G8.1).
    // Red has none near Deneb (N6); only G7.6, before G8.1, could give it one (a system
    // all in revolt going to the one power with stakes there) or give Deneb another
    // owner. Known on receipt when neither can happen.
    use pbem::rules::godsfire::state::Stake;
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    s.powers[0].at_war = vec!["blue".into()];
    s.powers[1].at_war = vec!["red".into()];
    let blue: Vec<_> = s.regions().filter(|&at| s.owner(at) == "blue").collect();
    for &at in &blue {
        s.region_mut(at).allegiance = 4;
    }
    let got = receipt(&s, "red", "SUBVERT Deneb-1a\nSUBVERT Rigel-1a");
    assert!(
        got[0].contains("you are at war with blue")
            && got[0].contains("at most 3 from Deneb")
            && got[0].contains("you have none there"),
        "{got:?}"
    );
    // Rigel (J2) is 4 from Procyon (F2) too.
    assert!(got[1].contains("at most 3 from Rigel"), "{got:?}");
    // A stake on Mizar (L8, 2 from Deneb), the only one there, could give red Mizar at
    // G7.6 if all its regions revolt; not one on its last circle (G7.3 removes it
    // first), nor while a region of Mizar cannot fall that far.
    let mizar: Vec<_> = s
        .regions()
        .filter(|&at| s.systems[at.system].name == "Mizar")
        .collect();
    for &at in &mizar {
        s.region_mut(at).allegiance = 1;
    }
    s.stakes.push(Stake {
        power: "red".into(),
        region: "Mizar-1a".into(),
        circle: 1,
        placed_turn: 1,
    });
    assert!(receipt(&s, "red", "SUBVERT Deneb-1a")[0].contains("at war with blue"));
    s.stakes[0].circle = 2;
    assert_eq!(receipt(&s, "red", "SUBVERT Deneb-1a"), ["ok"]);
    s.region_mut(mizar[1]).allegiance = 5;
    assert!(receipt(&s, "red", "SUBVERT Deneb-1a")[0].contains("at war with blue"));
    // And it may happen: Mizar all in revolt, 1d6 = 1, Mizar is red's and pays.
    for &at in &mizar {
        s.region_mut(at).allegiance = 0;
    }
    let m = mizar[0].system;
    s.systems[m].bank = 5;
    let orders = BTreeMap::from([("red".to_string(), "SUBVERT Deneb-1a".to_string())]);
    let (after, log) = gf::adjudicate_with_dice(&s, &orders, 1, &[1]);
    assert_eq!(after.systems[m].owner, "red");
    let r = &log.results[0];
    assert!(
        r.outcome.id() == "done" && r.detail.ends_with("from Mizar"),
        "{r:?}"
    );
    // A Deneb region at 3 could fall by blue's own orders (2 at G7.1 after an
    // extortion, a failed party change): Deneb could go neutral, the stake then be
    // paid from the treasury. Not at war: from the treasury.
    s.stakes.clear();
    let deneb = s
        .regions()
        .find(|&at| s.region_name(at) == "Deneb-1a")
        .unwrap();
    s.region_mut(deneb).allegiance = 3;
    assert_eq!(receipt(&s, "red", "SUBVERT Deneb-1a"), ["ok"]);
    s.region_mut(deneb).allegiance = 4;
    s.powers[0].at_war.clear();
    s.powers[1].at_war.clear();
    assert_eq!(receipt(&s, "red", "SUBVERT Deneb-1a"), ["ok"]);
}

#[test]
fn g9_the_receipt_refuses_a_desubvert_without_a_stake_and_a_second_counter() {
    // The stakes of the turn are all placed when the defence phase begins (G8.1).
    let mut s = standard(4, Options::default());
    s.phase = Phase::Defence;
    s.stakes.push(pbem::rules::godsfire::state::Stake {
        power: "blue".into(),
        region: "Sirius-1a".into(),
        placed_turn: s.turn,
        circle: 3,
    });
    let got = receipt(
        &s,
        "red",
        "DESUBVERT Sirius-1a\nDESUBVERT Sirius-2a\nCOUNTER Sirius-2a\nCOUNTER sirius-2A",
    );
    assert_eq!(got[0], "ok");
    assert!(
        got[1].contains("no stake was placed on Sirius-2a"),
        "{got:?}"
    );
    assert_eq!(got[2], "ok");
    assert!(got[3].contains("one COUNTER a region"), "{got:?}");
}

#[test]
fn g3_a_late_order_names_the_phase_plainly() {
    let mut s = standard(4, Options::default());
    s.phase = Phase::Interphase;
    let got = receipt(&s, "red", "C3 -> D4");
    assert!(
        got[0].contains("not an order of the interphase ("),
        "{got:?}"
    );
}

#[test]
fn g6_2_the_board_tells_each_loan_and_what_the_next_interphase_takes() {
    use pbem::rules::godsfire::state::Loan;
    let mut s = standard(2, Options::default());
    s.powers[0].loans = vec![
        Loan {
            left: 2,
            instalment: 2,
        },
        Loan {
            left: 1,
            instalment: 3,
        },
    ];
    let board = squash(&gf::report::board_text(&s));
    assert!(
        board.contains(
            "loans: 2 instalments of 2, 1 instalment of 3 (5 due at the next interphase);"
        ),
        "{board}"
    );
    assert!(board.contains("blue: NG at Vega, treasury 10, loyalty R5 M5 E5 loans: none;"));
}

/// A scenario's loan with no instalments left is refused, in plain words: kept, it
/// would be charged an instalment at G6.2 and block a victory for want of "no loan
/// outstanding", while the board shows "loans: none".
#[test]
fn a_scenario_loan_with_nothing_left_to_pay_is_refused() {
    let path = std::path::Path::new(
        "tests/cases/godsfire/g6_2_a_default_of_more_than_4_costs_economic_levels.toml",
    );
    let (text, _) = crate::godsfire_cases::scenario_text(path);
    assert!(pbem::rules::godsfire::scenario::Scenario::from_toml(&text).is_ok());
    let zero = text.replace("left = 1", "left = 0");
    assert_ne!(zero, text);
    let err = pbem::rules::godsfire::scenario::Scenario::from_toml(&zero)
        .err()
        .expect("refused");
    assert!(
        err.contains("left = 0 instalments is no loan; leave it out"),
        "{err}"
    );
}

/// An attack, a retreat or a stance written without its place (`ATTACK`, the keyword
/// alone) is an order short of its place: the receipt refuses it and says what it
/// needs, as for other orders with a part missing. It was told `"ATTACK" is not an
/// order`, as chatter is.
#[test]
fn g5_1_an_attack_without_its_place_is_told_what_it_needs() {
    let (s, _) = gf::generate::standard_combat(1);
    let lines = "ATTACK\natt F5\nRETREAT E4\nINTERCEPT\nBLOCK H9";
    let got = receipt(&s, "red", lines);
    assert_eq!(
        got,
        [
            "ATTACK needs the place of the attacking stack before it and the target after \
             it, like F4 ATTACK F5",
            "ATTACK needs the place of the attacking stack before it and the target after \
             it, like F4 ATTACK F5",
            "RETREAT needs the place of the stack before it and where it retreats to after \
             it, like F5 RETREAT E4",
            "INTERCEPT needs the cell of the standing stack before it, like G7 INTERCEPT",
            "BLOCK needs the cell of the standing stack before it, like H8 BLOCK or H8 \
             BLOCK H9",
        ]
    );
    // Refused as an order, not passed over as a line that is no order at all.
    for check in <gf::Godsfire as pbem::rules::RuleSet>::check(&s, "red", lines) {
        assert!(
            matches!(check, pbem::rules::LineCheck::Refused { .. }),
            "{check:?}"
        );
    }
}

/// A power out of the game owes nothing and has nothing to spend or fight with: the
/// board says it is out and no more, not instalments "due at the next interphase" that
/// no interphase charges (G6.2 skips a power out; a game saved before its loans went
/// with it, G10.1, still holds them), nor its treasury; and a war with it is over.
#[test]
fn g10_1_the_board_shows_no_loans_for_a_power_out_of_the_game() {
    use pbem::rules::godsfire::state::Loan;
    let mut s = standard(2, Options::default());
    s.powers[1].out = true;
    s.powers[1].loans = vec![Loan {
        left: 2,
        instalment: 2,
    }];
    s.powers[0].at_war = vec!["blue".into()];
    s.powers[1].at_war = vec!["red".into()];
    let board = squash(&gf::report::board_text(&s));
    assert!(board.contains("blue: out of the game"), "{board}");
    assert!(!board.contains("due at the next interphase"), "{board}");
    assert!(
        !board.contains("treasury 10, loyalty R5 M5 E5 loans: none; at war with: red"),
        "{board}"
    );
    assert!(board.contains("at war with: nobody"), "{board}");
    assert!(!board.contains("at war with: blue"), "{board}");
}

/// G10.1: a war with a power out of the game is over. A game saved before its wars
/// were ended when it went out still lists them on the others' side: it is read with
/// them ended (README, "Choices"), so the position and the board show none, and a
/// `PEACE` with it is refused for what it is.
#[test]
fn g10_1_a_game_saved_with_wars_on_a_power_out_reads_without_them() {
    use pbem::rules::game::{Game, Viewer};
    let mut s = standard(2, Options::default());
    s.phase = Phase::Interphase;
    s.powers[1].out = true;
    s.powers[0].at_war = vec!["blue".into()];
    s.powers[1].at_war = vec!["red".into()];
    s.powers[1].declared_war = vec!["red".into()];
    let saved = serde_json::to_string(&Game::Godsfire(s)).unwrap();
    let read: Game = serde_json::from_str(&saved).unwrap();
    let position = read.play().position_json(Viewer::Moderator);
    for p in 0..2 {
        assert_eq!(
            position["powers"][p]["at_war"],
            serde_json::json!([]),
            "{position}"
        );
        assert_eq!(
            position["powers"][p]["declared_war"],
            serde_json::json!([]),
            "{position}"
        );
    }
    let Game::Godsfire(read) = read else {
        panic!("a Godsfire game");
    };
    assert_eq!(
        receipt(&read, "red", "PEACE blue"),
        ["blue is out of the game"]
    );
    assert_eq!(
        receipt(&read, "red", "WAR blue"),
        ["blue is out of the game"]
    );
}
