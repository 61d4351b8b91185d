//! A game of Diplomacy through the judge by mail (Maildir in and out, the sled store):
//! seven scripted players, Italy missing its orders now and then, eleven game years,
//! ended by a draw every surviving power votes in the same phase; then replayed from
//! the judge's stored history, phase by phase, to the same JSON and the same end.

use std::collections::BTreeMap;

use chrono::Duration;
use pbem::rules::diplomacy::generate::random_orders;
use pbem::rules::diplomacy::given;
use pbem::rules::diplomacy::phase::adjudicate;
use pbem::rules::diplomacy::scenario::{as_given, output_value};
use pbem::rules::diplomacy::state::{Options, State, Step};
use pbem::rules::diplomacy::Diplomacy;
use pbem::rules::game::Game;
use pbem::rules::{LineCheck, RuleSet};

use crate::world::{assert_chatter_only_in_the_receipt, squash, Sent, World};

pub const DIPLOMACY_PLAYERS: [(&str, &str, &str); 7] = [
    ("AUS", "franz.dip@example.test", "pw-dip-franz"),
    ("ENG", "george.dip@example.test", "pw-dip-george"),
    ("FRA", "marianne.dip@example.test", "pw-dip-marianne"),
    ("GER", "wilhelm.dip@example.test", "pw-dip-wilhelm"),
    ("ITA", "vittorio.dip@example.test", "pw-dip-vittorio"),
    ("RUS", "nicholas.dip@example.test", "pw-dip-nicholas"),
    ("TUR", "mehmed.dip@example.test", "pw-dip-mehmed"),
];

fn state(w: &World) -> State {
    match w.record().game {
        Game::Diplomacy(s) => s,
        _ => panic!("not a Diplomacy game"),
    }
}

/// The receipt mailed to `to` among `sent`.
pub(crate) fn receipt_to<'a>(sent: &'a [Sent], to: &str) -> &'a Sent {
    mail_to(sent, to, "Orders received")
}

/// The mail to `to` among `sent` whose subject holds `subject`.
pub(crate) fn mail_to<'a>(sent: &'a [Sent], to: &str, subject: &str) -> &'a Sent {
    sent.iter()
        .find(|m| m.to == to && m.subject.contains(subject))
        .unwrap_or_else(|| panic!("no mail to {to} about {subject:?}"))
}

/// The phase ids in the order they come within a year.
fn rank(phase: &str) -> u8 {
    match phase {
        "spring" => 0,
        "spring-retreats" => 1,
        "fall" => 2,
        "fall-retreats" => 3,
        _ => 4,
    }
}

#[test]
fn eleven_years_by_mail_ending_in_a_draw_and_replayed() {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    let mut phases = 0;
    let mut missed = 0;
    let mut dislodged_seen = 0;
    while !w.record().game.label().over {
        let before = state(&w);
        phases += 1;
        assert!(phases < 120, "the game does not end");
        let owing = w.record().game.owing();
        let orders = random_orders(&before, phases as u64 * 31 + 7);
        let draw_now = before.phase.year >= 1912 && before.phase.step == Step::Movement;
        for (power, address, _) in DIPLOMACY_PLAYERS {
            if !owing.contains(&power.to_string()) {
                continue;
            }
            // Italy forgets its orders every third phase.
            if power == "ITA" && phases % 3 == 0 && !draw_now {
                missed += 1;
                continue;
            }
            let mut body = orders.get(power).cloned().unwrap_or_default();
            if draw_now {
                body.push_str("DRAW\n");
            }
            w.orders(address, &body);
        }
        w.pass();
        if !w.record().game.label().over && state(&w).phase == before.phase {
            // Someone is missing: the deadline ends the phase.
            w.advance(Duration::hours(100));
            w.pass();
        }
        let after = state(&w);
        assert!(
            after.over || after.phase != before.phase,
            "the phase did not advance"
        );
        dislodged_seen += after.dislodged.len();
        let sent = w.sent();
        // Every order mail has its receipt, each line echoed in canonical form.
        for m in sent
            .iter()
            .filter(|m| m.subject.contains("Orders received"))
        {
            let (power, _, _) = DIPLOMACY_PLAYERS
                .iter()
                .find(|(_, a, _)| *a == m.to)
                .unwrap();
            let text = orders.get(*power).cloned().unwrap_or_default();
            for c in Diplomacy::check(&before, power, &text) {
                let shown = match c {
                    LineCheck::Accepted { order } | LineCheck::Noted { order, .. } => order,
                    LineCheck::Refused { line, .. }
                    | LineCheck::Unreadable { line, .. }
                    | LineCheck::Replaced { line, .. } => line,
                };
                assert!(
                    squash(&m.body).contains(&shown),
                    "{shown} not echoed:\n{}",
                    m.body
                );
            }
        }
        let results: Vec<_> = sent
            .iter()
            .filter(|m| m.subject.contains("results"))
            .collect();
        assert!(
            !results.is_empty(),
            "no results mail for {}",
            before.phase.code()
        );
        for m in &results {
            let body = squash(&m.body);
            let (name, json) = m.attachment.clone().expect("results.json");
            assert_eq!(name, "results.json");
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["rules"], "diplomacy");
            for r in v["results"].as_array().unwrap() {
                let order = r["order"].as_str().unwrap();
                assert!(
                    body.contains(order),
                    "{order} missing from the mail to {}",
                    m.to
                );
            }
            for d in &after.dislodged {
                let u = d.unit.text(after.map());
                assert!(body.contains("dislodged:"), "{u}: {}", m.body);
            }
            if after.phase.step == Step::Adjustment && !after.over {
                for q in pbem::rules::diplomacy::owing(&after) {
                    let _ = q;
                    assert!(
                        body.contains("builds:") || body.contains("removals:"),
                        "{}",
                        m.body
                    );
                }
            }
        }
    }
    let end = state(&w);
    assert!(end.phase.year >= 1911, "ended in {}", end.phase.code());
    assert!(end.over);
    let alive: Vec<u8> = (0..7).filter(|&q| end.alive(q)).collect();
    assert_eq!(end.winners, alive, "a draw of every surviving power");
    assert!(missed >= 5, "Italy missed only {missed} phases");
    assert!(dislodged_seen > 0, "no retreats in eleven years");
    assert!(
        w.all_sent().iter().any(|m| m.subject.contains("Game over")),
        "no game-over mail"
    );
    eprintln!(
        "{phases} phases, Italy missed {missed}, winners {:?}",
        end.winners
    );
    replay_from_the_store(&w, &end);
}

/// Every phase again from what the judge stored (the orders each phase's results
/// list, leaving out the rules' own defaults): the same JSON, and the same end.
fn replay_from_the_store(w: &World, end: &State) {
    let store = pbem::store::Store::open(&w.dir.path().join("judge.sled")).unwrap();
    let mut entries: Vec<(String, pbem::judge::record::HistoryEntry)> =
        store.scan("v1/history/g1/").unwrap();
    entries.sort_by_key(|(_, e)| (e.turn, rank(&e.phase)));
    assert!(entries.len() >= 30, "only {} phases stored", entries.len());
    let mut s = State::standard(Options::default());
    for (key, entry) in entries {
        let mut orders: BTreeMap<String, String> = BTreeMap::new();
        for r in entry.json["results"].as_array().unwrap() {
            if r.get("default").is_some() || r["power"].is_null() {
                continue;
            }
            let text = orders
                .entry(r["power"].as_str().unwrap().to_string())
                .or_default();
            text.push_str(r["order"].as_str().unwrap());
            text.push('\n');
        }
        let (next, report) = adjudicate(&s, &as_given(&given(&s, &orders)));
        let mut stored = entry.json.clone();
        let mut again = output_value(&s, &next, &report);
        for v in [&mut stored, &mut again] {
            for k in ["game", "turn", "phase"] {
                v.as_object_mut().unwrap().remove(k);
            }
        }
        assert_eq!(again, stored, "{key}");
        s = next;
    }
    assert_eq!(&s, end);
}

/// A line that is no order at all (chatter, a greeting) stays the sender's: its
/// receipt shows it as not read, and no other mail of the phase (another player's
/// receipt or results, the moderator's copy, any results.json) ever shows it; a wrong
/// order is still refused and published in the results.
#[test]
fn chatter_stays_in_the_senders_receipt() {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    w.sent();
    let spring = state(&w).phase;
    let (_, france, _) = DIPLOMACY_PLAYERS[2];
    let chatter = [
        "Hi all, shall we meet in Burgundy?",
        "Moscow will fall before winter",
    ];
    w.orders(
        france,
        &format!(
            "A par - bur\n{}\nA xyz - pic\n{}\nF bre - mao",
            chatter[0], chatter[1]
        ),
    );
    w.pass();
    let sent = w.sent();
    let receipt = receipt_to(&sent, france);
    let body = squash(&receipt.body);
    for c in chatter {
        assert!(body.contains(&format!("NOT READ {c}")), "{}", receipt.body);
    }
    assert!(body.contains("only you see this line"), "{}", receipt.body);
    assert!(body.contains("REFUSED A xyz - pic"), "{}", receipt.body);
    assert!(body.contains("ok FRA A par - bur"), "{}", receipt.body);
    // Nobody else sends orders: the deadline ends the phase.
    w.advance(Duration::hours(100));
    w.pass();
    let all = w.all_sent();
    let results: Vec<_> = all
        .iter()
        .filter(|m| m.subject.contains("results"))
        .collect();
    assert!(results.len() >= 7, "{} results mails", results.len());
    assert_chatter_only_in_the_receipt(&all, &chatter, france);
    // The wrong order is an order: refused in every results mail.
    for m in &results {
        assert!(m.body.contains("A xyz - pic"), "{}", m.body);
    }
    assert_ne!(state(&w).phase, spring, "the phase was adjudicated");
}

/// A second order for the same unit replaces the first, as the adjudication has it: the
/// receipt says so at once and leaves the first out of the orders standing; the
/// results show only the last. The results do not list the centres a second time
/// (the board lists each power's).
#[test]
fn a_later_order_for_the_same_unit_replaces_the_earlier_in_the_receipt() {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    w.sent();
    let (_, austria, _) = DIPLOMACY_PLAYERS[0];
    w.orders(austria, "A vie - gal\nA bud - ser\nA vie - boh\nF tri H");
    w.pass();
    let sent = w.sent();
    let receipt = receipt_to(&sent, austria);
    let body = squash(&receipt.body);
    assert!(
        body.contains(
            "REPLACED A vie - gal -> AUS A vie - gal (replaced by a later order for the same unit) (only you see this line)"
        ),
        "{}",
        receipt.body
    );
    assert!(body.contains("ok AUS A vie - boh"), "{}", receipt.body);
    let standing = body.split("Orders now standing for AUS:").nth(1).unwrap();
    let standing = standing.split("Submitted so far").next().unwrap();
    assert_eq!(
        standing.trim(),
        "AUS A bud - ser AUS A vie - boh AUS F tri H",
        "{}",
        receipt.body
    );
    // Nor is it kept with the orders: no results or history shows it.
    assert!(
        w.record()
            .submissions
            .values()
            .all(|s| !s.orders.contains("gal") && s.orders.contains("vie - boh")),
        "{:?}",
        w.record().submissions
    );
    w.advance(Duration::hours(100));
    w.pass();
    let sent = w.sent();
    let results = mail_to(&sent, austria, "results");
    assert!(results.body.contains("A vie - boh"), "{}", results.body);
    assert!(!results.body.contains("A vie - gal"), "{}", results.body);
    assert!(!results.body.contains("centres owned"), "{}", results.body);
    assert!(
        results.body.contains("centres: bud, vie, tri"),
        "{}",
        results.body
    );
}

/// A game played to the fall 1901 retreat phase: Austria has taken Rumania from
/// Russia's fleet, which owes a retreat; nobody else owes orders.
fn to_russias_retreat() -> World {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    let (_, austria, _) = DIPLOMACY_PLAYERS[0];
    let (_, russia, _) = DIPLOMACY_PLAYERS[5];
    w.orders(austria, "A bud - ser\nA vie - bud");
    w.orders(russia, "F sev - rum");
    w.advance(Duration::hours(100));
    w.pass();
    w.orders(austria, "A ser - rum\nA bud S A ser - rum");
    w.advance(Duration::hours(100));
    w.pass();
    assert_eq!(state(&w).phase.step, Step::Retreat);
    w
}

/// A build neither ordered nor waived is waived, and the winter results say so (the
/// results list is otherwise empty: no blank lines in its place).
#[test]
fn builds_left_unordered_are_told_in_the_winter_results() {
    let mut w = to_russias_retreat();
    let (_, russia, _) = DIPLOMACY_PLAYERS[5];
    w.orders(russia, "F rum R bla");
    w.pass();
    assert_eq!(state(&w).phase.step, Step::Adjustment);
    w.sent();
    // Austria (4 centres, 3 units; vie free) orders nothing.
    w.advance(Duration::hours(100));
    w.pass();
    let sent = w.sent();
    let results = mail_to(&sent, russia, "winter results");
    assert!(
        results
            .body
            .contains("What else happened:\n  AUS leaves 1 build unused.\n"),
        "{}",
        results.body
    );
    assert!(
        results.body.contains(
            "Winter 1901 adjustments.\n\nNo orders from AUS: the rules' defaults were played."
        ),
        "{}",
        results.body
    );
}

/// Orders written loose (no ORDERS … END) in a mail that also holds a command are still
/// the orders: `READY` under three order lines submits them, final; `BOARD` under order
/// lines keeps them and sends the board.
#[test]
fn loose_orders_beside_a_command_are_the_orders() {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    w.sent();
    let (_, italy, _) = DIPLOMACY_PLAYERS[4];
    w.orders(italy, "A ven H\nA rom - apu\nF nap - ion\nREADY");
    w.pass();
    let record = w.record();
    let stored = &record.submissions["ITA"];
    assert_eq!(stored.orders, "A ven H\nA rom - apu\nF nap - ion");
    assert!(stored.ready);
    let sent = w.sent();
    let receipt = receipt_to(&sent, italy);
    let body = squash(&receipt.body);
    assert!(body.contains("ok ITA A rom - apu"), "{}", receipt.body);
    assert!(
        body.contains("READY: your orders are final"),
        "{}",
        receipt.body
    );
    assert!(!body.contains("Not understood"), "{}", receipt.body);

    let (_, france, _) = DIPLOMACY_PLAYERS[2];
    w.orders(france, "BOARD\nA par - bur\nA mar S A par - bur");
    w.pass();
    assert_eq!(
        w.record().submissions["FRA"].orders,
        "A par - bur\nA mar S A par - bur"
    );
    let sent = w.sent();
    assert!(sent
        .iter()
        .any(|m| m.to == france && m.subject.contains("Orders received")));
    assert!(
        sent.iter()
            .any(|m| m.to == france && m.subject.contains("Board")),
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
}

/// A mail in which nothing reads as an order (chatter alone, or chatter beside READY)
/// is no submission: the orders standing stay, and a power that had sent none is not
/// counted in. An ORDERS block, even an empty one, still replaces them.
#[test]
fn a_mail_of_chatter_or_refused_orders_leaves_the_standing_orders() {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    w.sent();
    let (_, france, _) = DIPLOMACY_PLAYERS[2];
    let (_, england, _) = DIPLOMACY_PLAYERS[1];
    let standing = "A par - bur\nF bre - mao";
    // A mail, a pass, and the sender's receipt (its words on one line) and stored orders.
    let mut mail = |from: &str, body: &str| {
        w.orders(from, body);
        w.pass();
        let receipt = squash(&receipt_to(&w.sent(), from).body);
        let power = if from == france { "FRA" } else { "ENG" };
        let stored = w.record().submissions.get(power).map(|s| s.orders.clone());
        (receipt, stored)
    };
    mail(france, standing);

    let (receipt, stored) = mail(
        france,
        "Hi judge, I will change my orders tomorrow.\nCheers",
    );
    assert_eq!(stored.as_deref(), Some(standing));
    assert!(
        receipt.contains(
            "Nothing in this mail reads as an order: the orders standing for FRA are unchanged"
        ),
        "{receipt}"
    );
    assert!(receipt.contains("NOT READ Cheers"), "{receipt}");
    assert!(
        receipt.contains("FRA A par - bur FRA F bre - mao"),
        "{receipt}"
    );

    // A power with no orders yet writes only chatter: still not in.
    let (receipt, stored) = mail(england, "Who wants to ally with me?");
    assert_eq!(stored, None);
    assert!(receipt.contains("Still to submit: AUS, ENG"), "{receipt}");
    assert!(
        receipt.contains("(none yet: without orders by the deadline, the rules' defaults apply"),
        "{receipt}"
    );

    // Beside a command, loose lines replace the orders only if one is a valid order.
    let (receipt, stored) = mail(france, "WAIT\nA par - xyz");
    assert_eq!(stored.as_deref(), Some(standing));
    assert!(
        receipt.contains("No line beside the commands is a valid order"),
        "{receipt}"
    );

    // Orders all refused, loose or in a block: nothing replaced, and a power with no
    // orders yet is still not in (the phase must not be played before the player
    // could correct them).
    for body in ["A par - xyz\nF bre - lon", "ORDERS\nA par - xyz\nEND"] {
        let (receipt, stored) = mail(france, body);
        assert_eq!(stored.as_deref(), Some(standing), "{body}");
        assert!(
            receipt.contains("No line of this mail is a valid order: the orders standing for FRA are unchanged. Correct the refused lines"),
            "{receipt}"
        );
    }
    let (receipt, stored) = mail(england, "F lon - par\nA lvp - ber");
    assert_eq!(stored, None);
    assert!(receipt.contains("Still to submit: AUS, ENG"), "{receipt}");

    // An explicit empty ORDERS block withdraws the orders.
    let (_, stored) = mail(france, "ORDERS\nEND");
    assert_eq!(stored.as_deref(), Some(""));
}

/// Orders from a power that owes none in the phase (a retreat phase in which it has no
/// unit to retreat) are not kept, and the receipt says why instead of warning of the
/// deadline's defaults.
#[test]
fn a_power_owing_nothing_is_told_so_in_its_receipt() {
    let mut w = to_russias_retreat();
    let (_, austria, _) = DIPLOMACY_PLAYERS[0];
    w.sent();
    w.orders(austria, "A rum H");
    w.pass();
    let sent = w.sent();
    let body = squash(&receipt_to(&sent, austria).body);
    assert!(
        body.contains("(none: AUS owes no orders in this phase)"),
        "{body}"
    );
    assert!(!body.contains("without orders by the deadline"), "{body}");
}

/// A game played to the winter of 1901 in which Germany owes 2 builds (Denmark and
/// Holland taken; Munich, Berlin and Kiel free), Italy 1 (Trieste taken; Venice free)
/// and Austria 1 removal (Trieste lost, its three units kept).
fn to_a_winter_of_builds_and_removals() -> World {
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    let (_, austria, _) = DIPLOMACY_PLAYERS[0];
    let (_, germany, _) = DIPLOMACY_PLAYERS[3];
    let (_, italy, _) = DIPLOMACY_PLAYERS[4];
    w.orders(austria, "F tri - alb\nA vie - gal");
    w.orders(germany, "F kie - den\nA ber - kie\nA mun - ruh");
    w.orders(italy, "A ven - tri");
    w.advance(Duration::hours(100));
    w.pass();
    w.orders(germany, "A kie - hol");
    w.advance(Duration::hours(100));
    w.pass();
    let s = state(&w);
    assert_eq!(s.phase.step, Step::Adjustment);
    assert_eq!(Diplomacy::owing(&s), ["AUS", "GER", "ITA"]);
    w.sent();
    w
}

/// A winter receipt tells what the power owes, in the board's words, how many builds
/// or removals its orders standing give, and what the deadline does with the rest:
/// builds waived, units removed by civil disorder (named: the power's own orders decide
/// which).
#[test]
fn a_winter_receipt_tells_the_builds_or_removals_owed_and_ordered() {
    let mut w = to_a_winter_of_builds_and_removals();
    let (_, austria, _) = DIPLOMACY_PLAYERS[0];
    let (_, germany, _) = DIPLOMACY_PLAYERS[3];
    let mut receipt = |from: &str, body: &str| {
        w.orders(from, body);
        w.pass();
        mail_to(&w.sent(), from, "received").body.clone()
    };

    let raw = receipt(germany, "Build A ber");
    // Under the orders standing, flush left, folded at 72 columns.
    assert!(
        raw.contains(
            "Orders now standing for GER:\n  GER A ber B\nBuilds owed: 2 (free home centres: mun, ber, kie). Your orders build 1.\n1 more build may be ordered; without an order by the deadline, it is\nwaived.\n\nSubmitted so far: GER\n"
        ),
        "{raw}"
    );
    let body = squash(&raw);
    assert!(
        body.contains(
            "Orders now standing for GER: GER A ber B Builds owed: 2 (free home centres: mun, ber, kie). Your orders build 1. 1 more build may be ordered; without an order by the deadline, it is waived. Submitted so far"
        ),
        "{body}"
    );
    let cases = [
        (
            germany,
            "Build A ber\nBuild F kie",
            "Your orders build 2: nothing is left to order.",
        ),
        (
            germany,
            "Build A ber\nWAIVE",
            "Your orders build 1 and waive 1: nothing is left to order.",
        ),
        // Austria's READY alone: no orders standing, one unit to remove.
        (
            austria,
            "READY",
            "Removals owed: 1. No removal is ordered yet. 1 unit must be removed; without an order by the deadline, civil disorder removes AUS F alb.",
        ),
        (
            austria,
            "Remove A gal",
            "Removals owed: 1. Your orders remove 1: nothing is left to order.",
        ),
    ];
    for (from, orders, said) in cases {
        let body = squash(&receipt(from, orders));
        assert!(body.contains(said), "{body}");
    }
}

/// A retreat receipt names the power's dislodged units left without an order, with
/// where each may go, and says the deadline disbands them; with every unit ordered, one
/// short line.
#[test]
fn a_retreat_receipt_tells_the_dislodged_units_left_without_an_order() {
    let mut w = to_russias_retreat();
    let (_, russia, _) = DIPLOMACY_PLAYERS[5];
    w.sent();
    let mut receipt = |body: &str| {
        w.orders(russia, body);
        w.pass();
        mail_to(&w.sent(), russia, "received").body.clone()
    };
    // WAIT: no orders standing, and the phase waits for the deadline.
    let raw = receipt("WAIT");
    assert!(
        raw.contains(
            "Orders now standing for RUS:\n  (none: the rules' defaults apply to your pieces)\nDislodged units: 1. No order yet for RUS F rum (may retreat to sev, bla\nor bul/ec): without an order by the deadline, it disbands.\n"
        ),
        "{raw}"
    );
    let body = squash(&receipt("F rum R sev"));
    assert!(
        body.contains(
            "Orders now standing for RUS: RUS F rum R sev Dislodged units: 1. Your orders retreat 1: nothing is left to order. Submitted so far"
        ),
        "{body}"
    );
    let body = squash(&receipt("F rum D"));
    assert!(
        body.contains("Dislodged units: 1. Your orders disband 1: nothing is left to order."),
        "{body}"
    );
    assert_eq!(state(&w).phase.step, Step::Retreat);
}
