//! Battles for the Galactic Empire through the judge, by mail (Maildir and sled): a
//! whole game of ten turns between two scripted players, one of them missing orders
//! now and then, in which no mail to a player shows what the rules keep secret from
//! it (B13.3), while the moderator's copy has everything; then the game replayed from
//! the judge's stored history.

use std::collections::{BTreeMap, BTreeSet};

use chrono::Duration;
use pbem::rules::battles_galactic_empire::state::{Phase, State};
use pbem::rules::battles_galactic_empire::types::{chits_text, Chit, Power};
use pbem::rules::battles_galactic_empire::{self as bfge, check, scenario, setup, view};
use pbem::rules::game::{Game, Viewer};
use pbem::rules::{LineCheck, RuleSet};
use serde_json::Value;

use crate::bfge_play::{misses, orders, Style};
use crate::world::{squash, Sent, World, MODERATOR};

/// The players of the BFGE tests: blue adapts to the Index, red is bold.
pub const BFGE_PLAYERS: [(&str, &str, &str); 2] = [
    ("blue", "alice.bfge@example.test", "pw-bfge-alice"),
    ("red", "bob.bfge@example.test", "pw-bfge-bob"),
];

const SEED: u64 = 3;

fn style(p: Power) -> Style {
    match p {
        Power::Blue => Style::Canny,
        Power::Red => Style::Bold,
    }
}

fn address(p: Power) -> &'static str {
    BFGE_PLAYERS[p.index()].1
}

fn power_of(address: &str) -> Option<Power> {
    BFGE_PLAYERS
        .iter()
        .find(|(_, a, _)| *a == address)
        .and_then(|(p, _, _)| Power::from_id(p))
}

fn state(w: &World) -> State {
    match w.record().game {
        Game::BattlesGalacticEmpire(s) => s,
        _ => panic!("not a BFGE game"),
    }
}

fn headers(m: &Sent) -> &str {
    m.raw.split("\r\n\r\n").next().unwrap_or("")
}

fn json_of(m: &Sent) -> Value {
    let (name, text) = m.attachment.clone().expect("results.json");
    let v: Value = serde_json::from_str(&text).unwrap();
    if name == "history.json" {
        // The game-over mail carries the reader's view of the whole history: its last
        // phase is checked as a results mail's JSON, the others for the other's hand.
        let phases = v["phases"].as_array().unwrap();
        for phase in phases {
            for side in phase["results"]["powers"].as_array().unwrap() {
                if v.get("view_of").is_some() && side["id"] != v["view_of"] {
                    assert!(side.get("hand").is_none(), "{side}");
                }
            }
        }
        return phases.last().unwrap()["results"].clone();
    }
    assert_eq!(name, "results.json");
    v
}

/// The section of a board text about one power: from its `id: ` line to the next blank
/// line.
fn section(body: &str, p: Power) -> &str {
    let head = format!("\n{}: ", p.id());
    match body.find(&head) {
        Some(k) => {
            let rest = &body[k + 1..];
            &rest[..rest.find("\n\n").unwrap_or(rest.len())]
        }
        None => "",
    }
}

fn chit_text(v: &Value) -> String {
    let parts: Vec<String> = v
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn power_json(v: &Value, p: Power) -> Value {
    v["powers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == p.id())
        .unwrap()
        .clone()
}

/// Nothing in a mail to `p` shows what B13.3 keeps from it, given the whole results
/// of the phase (`whole`, the moderator's): the other hand and chit pool, the other's
/// draws, the common chit pool's contents, the other's private lines.
fn assert_keeps_secrets(m: &Sent, p: Power, whole: Option<&Value>, turn: &[&Value]) {
    let q = p.other();
    let what = format!("mail {:?} to {p}", m.subject);
    for text in [headers(m).to_string(), squash(&m.body)] {
        let text = text.as_str();
        assert!(
            !section(&m.body, q).contains("(secret)"),
            "{what} shows {q}'s hand or pool:\n{}",
            m.body
        );
        // The other's draws are counted, never named (B5.1's event with its chits in
        // brackets, or a chit a line).
        let counted = format!("B5.1 {} draws ", q.id());
        assert!(
            !text.contains(&format!("B5 {} draws", q.id()))
                && text.split(counted.as_str()).skip(1).all(|rest| {
                    !rest
                        .split("in hand")
                        .next()
                        .unwrap_or("")
                        .contains("pool (")
                }),
            "{what} shows {q}'s draws:\n{}",
            m.body
        );
        assert!(
            !text.contains("chits (") && !text.contains("chit ("),
            "{what} shows the common chit pool's contents:\n{}",
            m.body
        );
    }
    assert!(!headers(m).contains("(secret)"));
    for phase in whole.into_iter().chain(turn.iter().copied()) {
        let results = phase["results"].as_array().unwrap();
        for r in results {
            let public_twin = results
                .iter()
                .any(|x| x["power"] == q.id() && x["order"] == r["order"] && x["private"] != true);
            if r["power"] == q.id() && r["private"] == true && !public_twin {
                let line = format!("  {:<10} {}", q.id(), r["order"].as_str().unwrap());
                assert!(
                    !m.body.lines().any(|l| l.starts_with(&line)),
                    "{what} shows {q}'s private line {line:?}:\n{}",
                    m.body
                );
            }
        }
    }
    if m.attachment.is_some() {
        let seen = json_of(m);
        let theirs = power_json(&seen, q);
        assert!(
            theirs.get("hand").is_none() && theirs.get("chit_pool").is_none(),
            "{what}: {theirs}"
        );
        assert!(theirs.get("hand_size").is_some());
        assert!(seen["common"].get("chits").is_none(), "{what}");
        assert!(seen["common"]["chits_size"].is_u64());
        assert!(seen["draws"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["power"] == p.id()));
        assert!(!seen["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["power"] == q.id() && r["private"] == true));
        // What is its own, it sees; and exactly the cut of the whole.
        assert!(power_json(&seen, p).get("hand").is_some());
        // (The game-over mail has the standing, not the board.)
        if !m.subject.contains("Game over") {
            assert!(
                section(&m.body, p).contains("hand (secret): "),
                "{}",
                m.body
            );
            assert!(section(&m.body, q).contains(" RP; "), "{}", m.body);
        }
        if let Some(whole) = whole {
            assert_eq!(seen, view::cut(whole, Viewer::Power(p.id())), "{what}");
        }
    }
}

/// The moderator's mail has everything: both hands and pools, all draws, the common
/// chit pool's contents.
fn assert_has_everything(m: &Sent) {
    let whole = json_of(m);
    for p in Power::BOTH {
        let side = power_json(&whole, p);
        assert!(side.get("hand").is_some() && side.get("chit_pool").is_some());
        assert!(
            squash(section(&m.body, p))
                .contains(&format!("hand (secret): {}", chit_text(&side["hand"]))),
            "{}",
            m.body
        );
    }
    assert!(whole["common"].get("chits").is_some());
    // Every chit drawn, told in the event that counts each power's draws.
    for p in Power::BOTH {
        for (from, pool) in [("own", "its own"), ("common", "the common")] {
            let chits: Vec<&str> = whole["draws"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["power"] == p.id() && d["from"] == from)
                .map(|d| d["chit"].as_str().unwrap())
                .collect();
            if chits.is_empty() {
                continue;
            }
            let mut counts = [0u32; 5];
            for c in &chits {
                counts[Chit::from_word(c).expect("a chit").index()] += 1;
            }
            let line = format!("from {pool} chit pool ({})", chits_text(&counts));
            assert!(
                squash(&m.body).contains(&format!("B5.1 {} draws", p.id()))
                    && squash(&m.body).contains(&line),
                "{line}: {}",
                m.body
            );
        }
    }
}

#[test]
fn bfge_ten_turns_by_mail_show_each_player_only_its_own() {
    let mut w = World::with_rules(
        "battles-galactic-empire",
        "phases = { setup = \"48h\", deployment = \"24h\", actions = \"48h\", build = \"24h\" }",
        &BFGE_PLAYERS,
    );
    w.pass();
    let mut moderator_results: BTreeMap<String, Value> = BTreeMap::new();
    let (mut results_checked, mut missed, mut queries, mut receipts, mut histories) =
        (0, 0, 0, 0, 0);
    let mut phases = 0;
    loop {
        let before = state(&w);
        if before.phase == Phase::Over {
            break;
        }
        phases += 1;
        assert!(phases <= 60, "the game does not end");
        let owing = check::owing(&before);
        // Each player's orders, as the receipts would show them.
        let mut written: BTreeMap<Power, BTreeSet<String>> = BTreeMap::new();
        for p in owing.iter().copied() {
            if p == Power::Blue && misses(&before) {
                missed += 1;
                continue;
            }
            let mut text = orders(&before, p, style(p)).expect("orders");
            if p == Power::Red {
                // Chatter is no order: kept out of the orders, never shown to blue.
                text += "\nPsst, my hand is all REPRESSION";
            }
            let lines: BTreeSet<String> = bfge::Bfge::check(&before, p.id(), &text)
                .into_iter()
                .map(|c| match c {
                    LineCheck::Accepted { order } | LineCheck::Noted { order, .. } => order,
                    LineCheck::Refused { line, .. }
                    | LineCheck::Unreadable { line, .. }
                    | LineCheck::Replaced { line, .. } => line,
                })
                .collect();
            written.insert(p, lines);
            w.orders(address(p), &text);
        }
        // Now and then both ask for the board and the history.
        if phases % 5 == 2 {
            for p in Power::BOTH {
                w.orders(address(p), "BOARD\nHISTORY");
            }
            queries += 1;
        }
        w.pass();
        let mut sent = w.sent();
        if state(&w).phase == before.phase && state(&w).turn == before.turn {
            // Someone's orders are missing: the deadline ends the phase.
            w.advance(Duration::hours(49));
            w.pass();
        }
        sent.extend(w.sent());
        let after = state(&w);
        assert!(
            (after.turn, after.phase != before.phase) > (before.turn, false),
            "the phase did not advance"
        );
        // Results mails: the moderator's whole, each player's cut.
        let mut whole_by_subject: BTreeMap<String, Value> = BTreeMap::new();
        for m in sent
            .iter()
            .filter(|m| m.to == MODERATOR.0 && m.subject.contains("results"))
        {
            assert_has_everything(m);
            whole_by_subject.insert(m.subject.clone(), json_of(m));
            moderator_results.insert(m.subject.clone(), json_of(m));
        }
        for m in &sent {
            let Some(p) = power_of(&m.to) else { continue };
            // A receipt shows the sender's own orders, never the other's (orders are
            // secret until their phase is adjudicated).
            if m.subject.contains("Orders received") {
                let own = written.get(&p).cloned().unwrap_or_default();
                for l in written.get(&p.other()).into_iter().flatten() {
                    if !own.contains(l) {
                        assert!(
                            !m.body.lines().any(|b| b.trim_end().ends_with(l.as_str())),
                            "{p}'s receipt shows {l:?} of the other power:\n{}",
                            m.body
                        );
                    }
                }
                receipts += 1;
            }
            let whole = whole_by_subject.get(&m.subject);
            if m.subject.contains("results") {
                assert!(whole.is_some(), "no moderator copy of {:?}", m.subject);
                results_checked += 1;
            }
            // A HISTORY reply: the whole results of that turn's phases.
            let turn: Vec<&Value> = match m.subject.strip_prefix("[g1] History of turn ") {
                Some(t) => moderator_results
                    .iter()
                    .filter(|(k, _)| k.starts_with(&format!("[g1] Turn {t} ")))
                    .map(|(_, v)| v)
                    .collect(),
                None => Vec::new(),
            };
            if !turn.is_empty() {
                histories += 1;
            }
            assert_keeps_secrets(m, p, whole, &turn);
        }
    }
    let end = state(&w);
    for m in w.all_sent() {
        if power_of(&m.to) == Some(Power::Blue) {
            assert!(
                !m.body.contains("Psst"),
                "red's chatter reached blue:\n{}",
                m.body
            );
        }
        m.assert_fits_72();
    }
    assert!(w
        .all_sent()
        .iter()
        .any(|m| power_of(&m.to) == Some(Power::Red) && m.body.contains("Psst")));
    assert_eq!(end.turn, 10, "a game of ten turns");
    assert!(end.winner.is_some());
    assert!(missed >= 3, "blue missed orders only {missed} times");
    assert!(queries >= 5);
    assert!(histories >= 10, "only {histories} HISTORY replies checked");
    assert!(receipts >= 40, "only {receipts} receipts");
    assert!(
        results_checked >= 60,
        "only {results_checked} results mails"
    );
    let over = w
        .all_sent()
        .into_iter()
        .find(|m| m.subject.contains("Game over") && power_of(&m.to).is_some())
        .expect("a game-over mail to a player");
    // The final standing says why the winner won (B9.2).
    let winner = end.winner.unwrap();
    let (low, high) = State::victory_levels(end.turn);
    let level = if winner == Power::Red { low } else { high };
    assert!(
        squash(&over.body).contains(&format!(
            "Chaos Index {} ({} band) at the end of turn {}: {winner} wins at {level} or",
            end.chaos,
            pbem::rules::battles_galactic_empire::types::Band::of(end.chaos).name(),
            end.turn
        )),
        "{}",
        over.body
    );
    // So does the results mail of the phase that won it, under its board (while the
    // game went on, the board alone told the Index).
    let last = w
        .all_sent()
        .into_iter()
        .rev()
        .find(|m| m.subject.contains("results") && power_of(&m.to).is_some())
        .expect("results mails");
    assert!(
        squash(&last.body).contains(&format!(
            "at the end of turn {}: {winner} wins at",
            end.turn
        )),
        "{}",
        last.body
    );
    replay_from_the_store(&w, &end, &moderator_results);
}

/// The game replayed from what the judge stored (each phase's orders, as its whole
/// results list them, and who sent none) and the seed: every phase's JSON again, the
/// same end; and each stored phase is what the moderator was mailed.
fn replay_from_the_store(w: &World, end: &State, mailed: &BTreeMap<String, Value>) {
    let store = pbem::store::Store::open(&w.dir.path().join("judge.sled")).unwrap();
    let mut entries: Vec<(String, pbem::judge::record::HistoryEntry)> =
        store.scan("v1/history/g1/").unwrap();
    let rank = |phase: &str| {
        ["setup", "deployment", "actions", "build"]
            .iter()
            .position(|p| *p == phase)
    };
    entries.sort_by_key(|(_, e)| (e.turn, rank(&e.phase)));
    assert!(entries.len() >= 30, "{} phases stored", entries.len());
    let mut s = setup::new_game(
        scenario::options_from_table(&toml::Table::new()).unwrap(),
        SEED,
    );
    for (key, entry) in entries {
        let json = &entry.json;
        let mut orders: BTreeMap<String, String> = BTreeMap::new();
        for p in check::owing(&s) {
            let none = format!("{p} sent no orders");
            if json["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["text"].as_str().unwrap().starts_with(&none))
            {
                continue;
            }
            let text: String = json["results"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["power"] == p.id())
                .map(|r| format!("{}\n", r["order"].as_str().unwrap()))
                .collect();
            orders.insert(p.id().to_string(), text);
        }
        let (next, log) = bfge::Bfge::adjudicate(&s, &orders, SEED);
        let mut stored = json.clone();
        stored.as_object_mut().unwrap().remove("game");
        assert_eq!(scenario::output_value(&s, &next, &log), stored, "{key}");
        let subject = format!("[g1] Turn {} {} results", entry.turn, entry.phase);
        assert_eq!(mailed.get(&subject), Some(json), "{subject}");
        s = next;
    }
    assert_eq!(&s, end);
}

/// A results mail states the next victory check once, for the turn that check is made
/// in (after the actions of turn 1, turn 2's): no stale "End of turn 1" below the
/// board; who holds which region is in the board's column and one summing-up line,
/// not in a third list. The game-over mail's standing has the final Index.
#[test]
fn results_state_the_next_victory_check_once() {
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass();
    let mut actions_results = None;
    for _ in 0..3 {
        let before = state(&w);
        for p in check::owing(&before) {
            w.orders(address(p), &orders(&before, p, style(p)).expect("orders"));
        }
        w.pass();
        if before.phase == Phase::Actions {
            actions_results = w
                .sent()
                .into_iter()
                .find(|m| m.to == address(Power::Blue) && m.subject.contains("actions results"));
        } else {
            w.sent();
        }
    }
    let mail = actions_results.expect("the results of turn 1's actions");
    assert_eq!(state(&w).phase, Phase::Build);
    let body = squash(&mail.body);
    assert_eq!(body.matches("red wins at").count(), 1, "{}", mail.body);
    assert!(
        body.contains("At the end of turn 2: red wins at"),
        "{}",
        mail.body
    );
    assert!(!body.contains("Regions controlled"), "{}", mail.body);
    // The board tells the Index and who holds each region: no standing line repeats
    // them under it while the game goes on.
    assert_eq!(body.matches("Chaos Index 46").count(), 1, "{}", mail.body);
    assert!(
        body.contains("Chaos Index 46 (middle band)."),
        "{}",
        mail.body
    );
    assert!(!body.contains("regions held"), "{}", mail.body);
    let control = |region: &str| -> Option<String> {
        mail.body
            .lines()
            .find(|l| l.starts_with(&format!("{region:<10}")))
            .map(|l| l.split_whitespace().nth(4).unwrap_or("").to_string())
    };
    assert_eq!(control("Omega").as_deref(), Some("blue"), "{}", mail.body);
    assert_eq!(control("Gamma").as_deref(), Some("red"), "{}", mail.body);
    // No event says again what a result line says: a region resolved uncontrolled is
    // told once, under the power that resolved it; the chits played are told as the
    // order they were played in, their effects in the results.
    let (results, events) = mail.body.split_once("What else happened:").expect("events");
    for region in ["Tau", "Alpha", "Beta"] {
        let told = format!("{region}: no fleets there, resolved uncontrolled");
        assert_eq!(squash(results).matches(&told).count(), 1, "{}", mail.body);
        assert!(!squash(events).contains(&told), "{}", mail.body);
    }
    assert!(
        squash(events).contains(
            "B7.3 chits played, in turn: red BUILD, blue BUILD, red TACTICAL, blue TACTICAL, red ILLUMINATION"
        ),
        "{}",
        mail.body
    );
    assert!(!events.contains(" plays "), "{}", mail.body);

    w.end_game();
    w.pass();
    let over = w
        .sent()
        .into_iter()
        .find(|m| m.to == address(Power::Red) && m.subject.contains("Game over"))
        .expect("a game-over mail");
    let body = squash(&over.body);
    assert!(
        body.contains("Final standing: Chaos Index 46 (middle band); regions held:"),
        "{}",
        over.body
    );
}

/// A power that sent no orders is named once in a results mail, by the judge's line
/// (`No orders from red: …`), not again by the rules' B13.1 event; `results.json` keeps
/// the event, and HISTORY names the power as the results mail did.
#[test]
fn a_power_without_orders_is_named_once() {
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass();
    let before = state(&w);
    w.orders(
        address(Power::Blue),
        &orders(&before, Power::Blue, style(Power::Blue)).expect("orders"),
    );
    w.pass();
    w.advance(Duration::hours(72));
    w.pass();
    let mail = w
        .sent()
        .into_iter()
        .find(|m| m.to == address(Power::Blue) && m.subject.contains("results"))
        .expect("the setup results");
    let body = squash(&mail.body);
    assert_eq!(
        body.matches("No orders from red: the rules' defaults were played.")
            .count(),
        1,
        "{}",
        mail.body
    );
    assert!(!body.contains("sent no orders"), "{}", mail.body);
    let events = json_of(&mail)["events"].clone();
    assert!(
        events
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["step"] == "B13.1" && e["text"] == "red sent no orders: the defaults apply"),
        "{events}"
    );
    w.orders(address(Power::Blue), "HISTORY 0");
    w.pass();
    let history = w
        .sent()
        .into_iter()
        .find(|m| m.subject.contains("History of turn 0"))
        .expect("a HISTORY reply");
    let text = squash(&history.body);
    assert_eq!(
        text.matches("No orders from red: the rules' defaults were played.")
            .count(),
        1,
        "{}",
        history.body
    );
    assert!(!text.contains("sent no orders"), "{}", history.body);
}

/// A refused line (B12.2 `invalid`) is no order: its writer's results show it, the
/// other power's mail, `results.json` and HISTORY never do (B13.3: `PLAY REPRESSION`
/// would tell a hand); the moderator's have it.
#[test]
fn an_invalid_line_reaches_only_its_writer() {
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass();
    let refused = [
        "PLAY REPRESSION",
        "PLAY TACTICAL Tau WS",
        "RESOLVE Nowhere",
        "BUILD 2SF",
    ];
    let mut checked = false;
    while !checked {
        let before = state(&w);
        for p in check::owing(&before) {
            let mut text = orders(&before, p, style(p)).expect("orders");
            if before.phase == Phase::Actions && p == Power::Red {
                text = format!("{}\n{text}", refused.join("\n"));
            }
            w.orders(address(p), &text);
        }
        w.pass();
        let sent = w.sent();
        if before.phase != Phase::Actions {
            continue;
        }
        checked = true;
        let results = |to: &str| {
            sent.iter()
                .find(|m| m.to == to && m.subject.contains("actions results"))
                .expect("an actions results mail")
                .clone()
        };
        let orders_of = |m: &Sent| -> Vec<String> { crate::bfge::result_lines(&json_of(m)) };
        let (blue, red, moderator) = (
            results(address(Power::Blue)),
            results(address(Power::Red)),
            results(MODERATOR.0),
        );
        for line in refused {
            assert!(!blue.body.contains(line), "{line}:\n{}", blue.body);
            assert!(!orders_of(&blue).contains(&format!("red {line}")), "{line}");
            assert!(red.body.contains(line), "{line}:\n{}", red.body);
            assert!(orders_of(&red).contains(&format!("red {line}")), "{line}");
            assert!(moderator.body.contains(line), "{line}:\n{}", moderator.body);
        }
        assert!(
            squash(&red.body).contains("REPRESSION is never played"),
            "{}",
            red.body
        );
        // Blue's valid lines and red's are all there for both.
        assert!(orders_of(&blue)
            .iter()
            .any(|o| o.starts_with("red RESOLVE")));
        w.orders(address(Power::Blue), &format!("HISTORY {}", before.turn));
        w.pass();
        let history = w
            .sent()
            .into_iter()
            .find(|m| m.to == address(Power::Blue) && m.subject.contains("History of turn"))
            .expect("a HISTORY reply");
        assert!(history.body.contains("RESOLVE"), "{}", history.body);
        for line in refused {
            assert!(!history.body.contains(line), "{line}:\n{}", history.body);
        }
    }
}

/// A power that misses a phase is told of once in each results mail: the judge's `No
/// orders from red` line; the rules' event then says what its default did (B6.4: `red
/// deploys nothing; on its display: …`; B10.6: `red builds nothing and discards
/// nothing`) without saying again that it sent nothing.
#[test]
fn a_missed_deployment_is_told_once() {
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass();
    let mut seen = BTreeSet::new();
    while seen.len() < 2 {
        let before = state(&w);
        for p in check::owing(&before) {
            if p == Power::Red && matches!(before.phase, Phase::Deployment | Phase::Build) {
                continue;
            }
            w.orders(address(p), &orders(&before, p, style(p)).expect("orders"));
        }
        w.pass();
        if matches!(before.phase, Phase::Deployment | Phase::Build) {
            w.advance(Duration::hours(100));
            w.pass();
        }
        for m in w.sent() {
            if !m.subject.contains(" results") {
                continue;
            }
            let body = squash(&m.body);
            let missed = [
                "No orders from red",
                "sent no",
                "no orders)",
                "no deployment",
            ];
            let said: usize = missed.iter().map(|s| body.matches(s).count()).sum();
            match before.phase {
                Phase::Deployment => {
                    assert_eq!(said, 1, "{}", m.body);
                    assert_eq!(
                        body.matches("B6.4 red deploys nothing; on its display:")
                            .count(),
                        1,
                        "{}",
                        m.body
                    );
                    seen.insert("deployment");
                }
                Phase::Build => {
                    assert_eq!(said, 1, "{}", m.body);
                    assert_eq!(
                        body.matches("B10.6 red builds nothing and discards nothing")
                            .count(),
                        1,
                        "{}",
                        m.body
                    );
                    seen.insert("build");
                }
                _ => {}
            }
        }
    }
}

/// A garrison (B8.8) is told once in a results mail: at the end of the result line of
/// the action that resolved its region, not again as an event; `results.json` keeps
/// the event.
#[test]
fn a_garrison_is_told_once() {
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass();
    loop {
        let before = state(&w);
        for p in check::owing(&before) {
            w.orders(address(p), &orders(&before, p, style(p)).expect("orders"));
        }
        w.pass();
        let sent = w.sent();
        if before.phase != Phase::Actions {
            continue;
        }
        let mail = sent
            .iter()
            .find(|m| m.to == address(Power::Red) && m.subject.contains("actions results"))
            .expect("an actions results mail");
        let body = squash(&mail.body);
        let garrisons: Vec<String> = json_of(mail)["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["step"] == "B8.8")
            .map(|e| e["text"].as_str().unwrap().to_string())
            .collect();
        assert!(!garrisons.is_empty(), "{}", mail.body);
        for g in &garrisons {
            let said = g.split_once(": ").unwrap().1;
            assert_eq!(body.matches(said).count(), 1, "{said}:\n{}", mail.body);
        }
        break;
    }
}

/// Every reader's picture is the public one (README, "The board as a picture"): a
/// player's results mail shows her own refused line in its text (B12.2: hers alone),
/// but her `board.png` draws it no more than the other power's or the moderator's
/// does: the three pictures are the same bytes.
#[test]
fn a_refused_line_is_drawn_in_no_reader_s_picture() {
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass();
    // A deployment that has the shape of one but is refused: more SFs than any display.
    let refused = "DEPLOY Beta 9SF";
    let mut checked = false;
    while !checked {
        let before = state(&w);
        assert_ne!(before.phase, Phase::Over, "no deployment phase was played");
        for p in check::owing(&before) {
            let mut text = orders(&before, p, style(p)).expect("orders");
            if before.phase == Phase::Deployment && p == Power::Blue {
                text = format!("{refused}\n{text}");
            }
            w.orders(address(p), &text);
        }
        w.pass();
        let sent = w.sent();
        if before.phase != Phase::Deployment {
            continue;
        }
        checked = true;
        let results = |to: &str| {
            sent.iter()
                .find(|m| m.to == to && m.subject.contains("deployment results"))
                .expect("a deployment results mail")
                .clone()
        };
        let (blue, red, moderator) = (
            results(address(Power::Blue)),
            results(address(Power::Red)),
            results(MODERATOR.0),
        );
        assert!(blue.body.contains(refused), "{}", blue.body);
        assert!(!red.body.contains(refused), "{}", red.body);
        let public = red.picture.as_ref().expect("red's board.png");
        for m in [&blue, &moderator] {
            assert!(
                m.picture.as_ref() == Some(public),
                "{}'s board.png is not the public picture",
                m.to
            );
        }
    }
}
