//! The solo game (R10) played end to end: setup, then turns until a result or the turn
//! limit, with the Foundation following a simple scripted policy.

use std::collections::BTreeMap;

use pbem::rules::foundation_empire::board::{Board, PowerId, Sector};
use pbem::rules::foundation_empire::outcome::Report;
use pbem::rules::foundation_empire::position::{Options, Phase, State};
use pbem::rules::foundation_empire::{adjudicate, Submissions};

const TURN_LIMIT: u32 = 60;

/// The Foundation's policy: each fleet steps toward the nearest system it does not own
/// (holding once on one), avoiding its own fleets; it supports when it cannot step.
fn foundation_orders(state: &State, foundation: PowerId) -> String {
    let board = &state.board;
    let targets: Vec<Sector> = board
        .systems()
        .filter(|(id, _)| state.owners[id.0 as usize] != Some(foundation))
        .map(|(_, s)| s.at)
        .collect();
    let distance = |s: Sector| {
        targets
            .iter()
            .map(|&t| board.distance(s, t))
            .min()
            .unwrap_or(0)
    };
    let own: Vec<Sector> = state
        .fleets
        .iter()
        .filter(|f| f.power == foundation)
        .map(|f| f.at)
        .collect();
    let mut taken = Vec::new();
    let mut lines = Vec::new();
    for &at in &own {
        let name = board.name(at);
        if distance(at) == 0 {
            lines.push(format!("{name} H"));
            continue;
        }
        let step = board
            .neighbours(at)
            .into_iter()
            .filter(|s| !own.contains(s) && !taken.contains(s))
            .min_by_key(|&s| (distance(s), s));
        match step {
            Some(to) if distance(to) < distance(at) => {
                taken.push(to);
                lines.push(format!("{name} - {}", board.name(to)));
            }
            _ => lines.push(format!("{name} S")),
        }
    }
    lines.join("\n")
}

/// Plays one solo game; returns its state at the end and every phase's report.
fn play(seed: u64) -> (State, Vec<Report>) {
    let board = Board::standard();
    let foundation = board.power_by_id("foundation").unwrap();
    let options = Options {
        solo: true,
        turn_limit: Some(TURN_LIMIT),
        ..Options::default()
    };
    let mut state = State::new(board, options);
    let mut reports = Vec::new();
    for _ in 0..TURN_LIMIT * 4 + 1 {
        if state.phase == Phase::Over {
            break;
        }
        let mut orders = Submissions::new();
        match state.phase {
            Phase::Setup => {
                orders.insert(
                    foundation,
                    "PLACE Terminus\nPLACE Daribow\nPLACE Askone".into(),
                );
            }
            Phase::Movement => {
                orders.insert(foundation, foundation_orders(&state, foundation));
            }
            // Retreats and placements: the defaults (R6.4, R8.4).
            _ => {}
        }
        let (next, report) = adjudicate(&state, &orders, seed);
        assert!(
            next.turn <= TURN_LIMIT,
            "seed {seed}: played past the limit"
        );
        reports.push(report);
        state = next;
    }
    assert_eq!(state.phase, Phase::Over, "seed {seed}: the game ended");
    (state, reports)
}

#[test]
fn r10_thousand_solo_games_end_without_panic_and_replay_identically() {
    let mut outcomes: BTreeMap<String, u32> = BTreeMap::new();
    let mut rolls = 0usize;
    for seed in 0..1000 {
        let (end, reports) = play(seed);
        let board = &end.board;
        let winner = end
            .winners
            .iter()
            .map(|p| board.power(*p).id.clone())
            .collect::<Vec<_>>()
            .join("+");
        *outcomes.entry(winner).or_default() += 1;
        for r in &reports {
            for d in &r.dice {
                assert!((1..=6).contains(&d.roll), "seed {seed}: roll {}", d.roll);
            }
            rolls += r.dice.len();
        }
        let (again, reports_again) = play(seed);
        assert_eq!(reports, reports_again, "seed {seed} replays identically");
        assert_eq!(format!("{end:?}"), format!("{again:?}"));
    }
    eprintln!("1000 solo games: {outcomes:?}, {rolls} rolls");
    assert!(rolls > 1000, "the Imperium rolled its dice");
    assert_eq!(outcomes.values().sum::<u32>(), 1000);
    assert!(outcomes
        .keys()
        .all(|w| w == "foundation" || w == "imperium"));
}

#[test]
fn r10_5_the_imperium_moves_only_as_its_dice_say() {
    // Every Imperium fleet that moved was a mover of a group whose roll was reported.
    let (_, reports) = play(7);
    for r in reports {
        let rolled: Vec<Sector> = r.dice.iter().flat_map(|d| d.fleets.clone()).collect();
        for result in &r.results {
            let imperium = result.power.0 == 1;
            if imperium && result.outcome.id() == "moved" {
                assert!(rolled.contains(&result.sector.unwrap()));
            }
        }
    }
}
