//! The solo game (R10) played end to end: setup, then turns until a result or the turn
//! limit, with the Foundation following a documented greedy policy (R10.6). The policy
//! is test code: it measures the balance of the rules, it is no part of the judge.

use std::collections::BTreeMap;

use chrono::Duration;
use pbem::judge::record::Record;
use pbem::rules::game::Game;

use pbem::rules::foundation_empire::board::{Board, PowerId, Sector};
use pbem::rules::foundation_empire::outcome::Report;
use pbem::rules::foundation_empire::position::{Options, Phase, State};
use pbem::rules::foundation_empire::{adjudicate, Submissions};

use crate::world::{Sent, World};

/// The greedy Foundation's setup: the three western systems of its quadrant, so that
/// its fleets capture the three eastern ones (nearer the Empire) first.
const GREEDY_SETUP: &str = "PLACE Terminus\nPLACE Smyrno\nPLACE Konom";

/// The greedy Foundation policy of R10.6, one movement phase at a time:
///
/// 1. A fleet standing on a system the Foundation does not own stays there to capture
///    it (R8.2). It stays by supporting (`S`): a supporting fleet stays and defends
///    like a holding one (R3.5), its stay count goes on, and it adds +1 to every
///    Foundation move (pooled support, R3.4).
/// 2. Every other fleet, in reading order, picks the nearest system the Foundation
///    does not own and no other Foundation fleet stands on or heads for (ties: reading
///    order of the system), and steps to the neighbouring sector nearest to it (ties:
///    reading order), leaving out sectors that hold a Foundation fleet and sectors
///    another Foundation mover has chosen. A fleet with no step that brings it nearer
///    supports.
/// 3. A step into a sector held by an Imperium fleet is made only if it can win:
///    attack 1 + the Foundation's supports must exceed that fleet's defence (R4.2,
///    counted from the start of the turn). Otherwise the fleet supports instead, which
///    raises every other move's attack; this is repeated until no move is hopeless.
///
/// Retreats and placements are left to the judge's defaults (R6.4, R8.4).
fn greedy_orders(state: &State, foundation: PowerId) -> String {
    let board = &state.board;
    let occupant = state.occupancy();
    let fleet_at = |s: Sector| {
        let k = occupant[s.0 as usize];
        (k != u32::MAX).then(|| &state.fleets[k as usize])
    };
    let own: Vec<Sector> = state
        .fleets
        .iter()
        .filter(|f| f.power == foundation)
        .map(|f| f.at)
        .collect();
    let targets: Vec<Sector> = board
        .systems()
        .filter(|(id, _)| state.owners[id.0 as usize] != Some(foundation))
        .map(|(_, s)| s.at)
        .collect();
    let is_target = |s: Sector| targets.contains(&s);
    // Systems already being taken, and those a mover heads for.
    let mut claimed: Vec<Sector> = own.iter().copied().filter(|&s| is_target(s)).collect();
    let mut chosen: Vec<Sector> = Vec::new();
    // Each fleet's plan: None = stay by supporting, Some(to) = move.
    let mut plan: Vec<(Sector, Option<Sector>)> = Vec::new();
    for &at in &own {
        if is_target(at) {
            plan.push((at, None));
            continue;
        }
        let goal = targets
            .iter()
            .copied()
            .filter(|t| !claimed.contains(t))
            .min_by_key(|&t| (board.distance(at, t), t));
        let Some(goal) = goal else {
            plan.push((at, None));
            continue;
        };
        let step = board
            .neighbours(at)
            .into_iter()
            .filter(|s| !own.contains(s) && !chosen.contains(s))
            .min_by_key(|&s| (board.distance(s, goal), s))
            .filter(|&s| board.distance(s, goal) < board.distance(at, goal));
        match step {
            Some(to) => {
                claimed.push(goal);
                chosen.push(to);
                plan.push((at, Some(to)));
            }
            None => plan.push((at, None)),
        }
    }
    // R4.2: the defence of an enemy fleet that stays where it is.
    let defence = |s: Sector| {
        let f = fleet_at(s).expect("a fleet");
        1 + board
            .neighbours(s)
            .into_iter()
            .filter(|&n| fleet_at(n).is_some_and(|g| g.power == f.power))
            .count() as u32
    };
    loop {
        let attack = 1 + plan.iter().filter(|(_, to)| to.is_none()).count() as u32;
        let hopeless = plan.iter().position(|&(_, to)| {
            to.and_then(fleet_at)
                .is_some_and(|f| f.power != foundation && attack <= defence(f.at))
        });
        match hopeless {
            Some(k) => plan[k].1 = None,
            None => break,
        }
    }
    plan.iter()
        .map(|&(at, to)| match to {
            Some(to) => format!("{} - {}", board.name(at), board.name(to)),
            None => format!("{} S", board.name(at)),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One solo game played to its end.
struct Played {
    end: State,
    reports: Vec<Report>,
}

/// Plays the solo game of `seed` with the options of the rules page (turn limit 30)
/// and the greedy Foundation.
fn play(seed: u64) -> Played {
    play_with(seed, Options::solo())
}

fn play_with(seed: u64, options: Options) -> Played {
    let board = Board::standard();
    let foundation = board.power_by_id("foundation").unwrap();
    let limit = options.turn_limit.expect("a solo game has a turn limit");
    let mut state = State::new(board, options);
    let mut reports = Vec::new();
    // Each turn has at most three phases, and the setup one more.
    for _ in 0..limit * 3 + 1 {
        if state.phase == Phase::Over {
            break;
        }
        let mut orders = Submissions::new();
        match state.phase {
            Phase::Setup => {
                orders.insert(foundation, GREEDY_SETUP.into());
            }
            Phase::Movement => {
                orders.insert(foundation, greedy_orders(&state, foundation));
            }
            // Retreats and placements: the defaults (R6.4, R8.4).
            _ => {}
        }
        let (next, report) = adjudicate(&state, &orders, seed);
        assert!(next.turn <= limit, "seed {seed}: played past the limit");
        reports.push(report);
        state = next;
    }
    assert_eq!(state.phase, Phase::Over, "seed {seed}: the game ended");
    Played {
        end: state,
        reports,
    }
}

fn winner(state: &State) -> String {
    state
        .winners
        .iter()
        .map(|p| state.board.power(*p).id.clone())
        .collect::<Vec<_>>()
        .join("+")
}

/// R10.6 with R10.5: 1,000 seeded solo games with the greedy Foundation. The
/// Foundation wins some and loses some; every game replays identically from its seed;
/// the win rate and the game lengths printed here are those published in the README
/// ("Foundation and Empire solo: the balance (R10.6)"), and the exact count below is the
/// published one, so a change of the rules that moves it must update the README too.
#[test]
fn r10_6_greedy_foundation_wins_some_and_loses_some_of_1000_games() {
    let mut wins: BTreeMap<String, u32> = BTreeMap::new();
    // Game lengths (the turn it ended on), per winner.
    let mut lengths: BTreeMap<(String, u32), u32> = BTreeMap::new();
    let mut endings: BTreeMap<&str, u32> = BTreeMap::new();
    let mut rolls = 0usize;
    for seed in 0..1000 {
        let game = play(seed);
        let who = winner(&game.end);
        *wins.entry(who.clone()).or_default() += 1;
        *lengths.entry((who.clone(), game.end.turn)).or_default() += 1;
        let eliminated = game
            .reports
            .iter()
            .any(|r| r.eliminated.contains(&PowerId(0)));
        let owned = game.end.system_counts()[0];
        let how = match (who.as_str(), eliminated, owned) {
            ("foundation", ..) => "13 systems",
            (_, true, _) => "Foundation eliminated",
            (_, false, 0) => "turn limit, Foundation owning none",
            _ => "turn limit, Foundation owning some",
        };
        *endings.entry(how).or_default() += 1;
        for r in &game.reports {
            for d in &r.dice {
                assert!((1..=6).contains(&d.roll), "seed {seed}: roll {}", d.roll);
            }
            rolls += r.dice.len();
        }
        let again = play(seed);
        assert_eq!(
            game.reports, again.reports,
            "seed {seed} replays identically"
        );
        assert_eq!(format!("{:?}", game.end), format!("{:?}", again.end));
    }
    eprintln!("1000 solo games: {wins:?}, {rolls} rolls; game lengths (turns):");
    for who in ["foundation", "imperium"] {
        let buckets: Vec<String> = [(1, 9), (10, 14), (15, 19), (20, 24), (25, 29), (30, 30)]
            .iter()
            .map(|&(a, b)| {
                let n: u32 = (a..=b).filter_map(|t| lengths.get(&(who.into(), t))).sum();
                format!("{a}-{b}: {n}")
            })
            .collect();
        eprintln!("  {who} wins by turn {}", buckets.join(", "));
    }
    eprintln!("  endings: {endings:?}");
    assert!(rolls > 1000, "the Imperium rolled its dice");
    assert_eq!(wins.values().sum::<u32>(), 1000);
    assert!(wins.keys().all(|w| w == "foundation" || w == "imperium"));
    let foundation = wins.get("foundation").copied().unwrap_or(0);
    assert!(
        0 < foundation && foundation < 1000,
        "the Foundation wins some and loses some: {foundation}"
    );
    assert_eq!(foundation, PUBLISHED_FOUNDATION_WINS, "the README's figure");
}

/// The Foundation's wins out of 1,000 as published in the README.
const PUBLISHED_FOUNDATION_WINS: u32 = 105;

/// Foundation wins out of `games` seeded solo games with the greedy policy.
fn foundation_wins(games: u64, options: &Options) -> u32 {
    (0..games)
        .filter(|&seed| winner(&play_with(seed, options.clone()).end) == "foundation")
        .count() as u32
}

/// R10.6, what would move the balance: the same 1,000 games under other values of the
/// game's options (the rules' defaults unchanged). Slow in a debug build, so run on
/// demand: `cargo test --release --test pbem r10_6_balance -- --ignored --nocapture`.
/// The README quotes its figures.
#[test]
#[ignore]
fn r10_6_balance_under_other_options() {
    let base = Options::solo();
    let with = |f: &dyn Fn(&mut Options)| {
        let mut o = base.clone();
        f(&mut o);
        o
    };
    let fleets: Vec<u32> = (6..=9)
        .map(|n| foundation_wins(1000, &with(&|o| o.solo_imperium_fleets = n)))
        .collect();
    eprintln!("Imperium fleets 6, 7, 8, 9: Foundation wins {fleets:?}");
    assert!(
        fleets.windows(2).all(|w| w[0] > w[1]),
        "fewer fleets, more wins"
    );
    assert_eq!(fleets[3], PUBLISHED_FOUNDATION_WINS);
    for (what, o) in [
        ("turn_limit 40", with(&|o| o.turn_limit = Some(40))),
        ("turn_limit 50", with(&|o| o.turn_limit = Some(50))),
        ("occupation_turns 3", with(&|o| o.occupation_turns = 3)),
        ("victory_systems 12", with(&|o| o.victory_systems = 12)),
    ] {
        let wins = foundation_wins(1000, &o);
        eprintln!("{what}: Foundation wins {wins}");
        assert!(
            wins >= PUBLISHED_FOUNDATION_WINS,
            "{what} helps the Foundation"
        );
    }
}

#[test]
fn r10_5_the_imperium_moves_only_as_its_dice_say() {
    // Every Imperium fleet that moved was a mover of a group whose roll was reported.
    let game = play(7);
    for r in game.reports {
        let rolled: Vec<Sector> = r.dice.iter().flat_map(|d| d.fleets.clone()).collect();
        for result in &r.results {
            let imperium = result.power.0 == 1;
            if imperium && result.outcome.id() == "moved" {
                assert!(rolled.contains(&result.sector.unwrap()));
            }
        }
    }
}

const SALVOR: (&str, &str, &str) = (
    "foundation",
    "salvor.fesolo@example.test",
    "pw-fesolo-salvor-31",
);

fn state_of(record: &Record) -> State {
    match &record.game {
        Game::FoundationEmpire(stored) => stored.to_state().expect("the stored game reads"),
        other => panic!("not a Foundation and Empire game: {other:?}"),
    }
}

/// The solo game by mail (R10.4, R10.5): the greedy Foundation plays seed 3 through the
/// judge, which writes the Imperium's orders. Every results mail shows the race in one
/// line (turns played of 30, both sides' systems and fleets), the game ends as the same
/// game played directly does, and the last mail names the winner.
#[test]
fn r10_4_solo_game_by_mail_shows_the_race_in_every_results_mail() {
    let mut w = World::with_rules(
        "foundation-empire",
        "[game.options]\nsolo = true\n",
        &[SALVOR],
    );
    let (_, address, _) = SALVOR;
    w.orders(address, GREEDY_SETUP);
    w.pass();
    let is_results = |m: &Sent| m.to == address && m.subject.ends_with(" results");
    let first = w.sent();
    let results = first
        .iter()
        .find(|m| is_results(m))
        .expect("a results mail after setup");
    assert!(
        results.body.contains(
            "After 0 of 30 turns: The Foundation 3 systems, 3 fleets (13 win); The\n  Imperium 18 systems, 9 fleets (wins after turn 30)."
        ),
        "{}",
        results.body
    );
    let mut mails = 1;
    for _ in 0..200 {
        let state = state_of(&w.record());
        match state.phase {
            Phase::Over => break,
            Phase::Movement => {
                let foundation = state.human().unwrap();
                w.orders(address, &greedy_orders(&state, foundation));
            }
            // Retreats and placements: the defaults at the deadline, as in `play`.
            _ => w.advance(Duration::hours(49)),
        }
        w.pass();
        for m in w.sent().iter().filter(|m| is_results(m)) {
            mails += 1;
            // The counts of the position after the phase, from the mail's own JSON.
            let (_, json) = m.attachment.as_ref().expect("results.json");
            let json: serde_json::Value = serde_json::from_str(json).unwrap();
            let body = m.body.replace("\n  ", " ");
            let line = body
                .lines()
                .find(|l| l.starts_with("After "))
                .unwrap_or_else(|| panic!("no race line in\n{}", m.body));
            for (power, name) in [
                ("foundation", "The Foundation"),
                ("imperium", "The Imperium"),
            ] {
                let owned = json["systems"]
                    .as_object()
                    .unwrap()
                    .values()
                    .filter(|o| *o == power)
                    .count();
                // A dislodged fleet waiting for its retreat is still the power's.
                let fleets = ["fleets", "dislodged"]
                    .iter()
                    .filter_map(|k| json[*k].as_array())
                    .flatten()
                    .filter(|f| f["power"] == power)
                    .count();
                let side = format!("{name} {owned} system");
                assert!(line.contains(&side), "{line}: {side}");
                let rest = &line[line.find(&side).unwrap()..];
                assert!(
                    rest.contains(&format!(", {fleets} fleet")),
                    "{line}: {fleets}"
                );
            }
            let over = json["next_phase"] == "over";
            assert_eq!(line.contains("(13 win)"), !over, "{line}");
            // Turns whose end has passed: a turn ends before its placement phase.
            let next_turn = json["next_turn"].as_u64().unwrap();
            let played = match json["next_phase"].as_str().unwrap() {
                "movement" | "retreat" => next_turn - 1,
                _ => next_turn,
            };
            assert!(
                line.starts_with(&format!("After {played} of 30 turns: ")),
                "{line}"
            );
        }
    }
    let end = state_of(&w.record());
    assert_eq!(end.phase, Phase::Over);
    let direct = play(3).end;
    assert_eq!(
        format!("{end:?}"),
        format!("{direct:?}"),
        "the judge plays the same game"
    );
    let over = w
        .all_sent()
        .into_iter()
        .find(|m| m.subject == "[g1] Game over")
        .expect("a game-over mail");
    assert!(
        over.body.contains(&format!("Winner: {}", winner(&end))),
        "{}",
        over.body
    );
    assert!(mails > 10, "a results mail every phase: {mails}");
    w.assert_no_password_leaks();
}

/// R10.1: the Imperium owns its 18 systems from the start, so the welcome's board (the
/// setup phase) shows them; the welcome says the judge plays it, and lists no empty
/// "other powers".
#[test]
fn r10_1_the_solo_welcome_shows_the_imperium_owning_its_quadrants_and_says_who_plays_it() {
    let mut w = World::with_rules(
        "foundation-empire",
        "[game.options]\nsolo = true\n",
        &[SALVOR],
    );
    w.pass();
    let (_, address, _) = SALVOR;
    let sent = w.sent();
    let welcome = sent
        .iter()
        .find(|m| m.to == address && m.subject.contains("Welcome"))
        .expect("a welcome");
    let body = welcome.body.replace("\n  ", " ").replace('\n', " ");
    assert!(
        body.contains("You play foundation. The judge plays imperium."),
        "{}",
        welcome.body
    );
    assert!(!body.contains("The other powers: ."), "{}", welcome.body);
    assert!(body.contains("The Imperium 18 systems"), "{}", welcome.body);
    let state = state_of(&w.record());
    let imperium = state.judge_power().unwrap();
    assert_eq!(state.system_counts()[imperium.0 as usize], 18);
}
