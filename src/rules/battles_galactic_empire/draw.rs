//! The chit draw at the start of each turn (B5).

use super::outcome::Draw;
use super::types::{total, Chits, Power};
use super::Run;

/// Fills each hand up to the hand limit (B5.1): own chit pool first, blue's draws
/// then red's (B5.2); then the common chit pool, alternately when both still need
/// chits (B5.3); then the discards set aside join the common pool (B5.4). `skip`: a
/// power that does not draw (the Invasion's defender at the end of setup).
pub fn draw(run: &mut Run, set_aside: [Chits; 2], skip: Option<Power>) {
    let limit = run.state.options.hand_limit;
    let drawing: Vec<Power> = Power::BOTH
        .into_iter()
        .filter(|&p| Some(p) != skip)
        .collect();
    let need = |run: &Run, p: Power| limit.saturating_sub(run.state.hand_size(p));
    let mut counts = [[0u32; 2]; 2];
    for &p in &drawing {
        while need(run, p) > 0 {
            let pool = run.state.side(p).chit_pool;
            let Some(c) = run.rng.draw(&pool) else {
                break;
            };
            let side = run.state.side_mut(p);
            side.chit_pool[c.index()] -= 1;
            side.hand[c.index()] += 1;
            run.log.draws.push(Draw {
                power: p,
                from: "own",
                chit: c,
            });
            counts[p.index()][0] += 1;
        }
    }
    let mut turn = if run.state.chaos <= 50 {
        Power::Red
    } else {
        Power::Blue
    };
    loop {
        let needy: Vec<Power> = drawing
            .iter()
            .copied()
            .filter(|&p| need(run, p) > 0)
            .collect();
        if needy.is_empty() || total(&run.state.common.chits) == 0 {
            break;
        }
        let p = if needy.contains(&turn) {
            turn
        } else {
            needy[0]
        };
        let pool = run.state.common.chits;
        let Some(c) = run.rng.draw(&pool) else {
            break;
        };
        run.state.common.chits[c.index()] -= 1;
        run.state.side_mut(p).hand[c.index()] += 1;
        run.log.draws.push(Draw {
            power: p,
            from: "common",
            chit: c,
        });
        counts[p.index()][1] += 1;
        turn = p.other();
    }
    for &p in &drawing {
        let [own, common] = counts[p.index()];
        run.log.event(
            "B5.1",
            format!(
                "{p} draws {}: {own} from its own chit pool, {common} from the common chit pool; {} in hand",
                crate::rules::counted(own + common, "chit", "chits"),
                run.state.hand_size(p)
            ),
        );
    }
    // Who discarded what is the writer's alone (B13.3): the event says only that
    // discards joined the pool.
    for p in Power::BOTH {
        for (k, n) in set_aside[p.index()].iter().enumerate() {
            run.state.common.chits[k] += n;
        }
    }
    if set_aside.iter().any(|c| total(c) > 0) {
        run.log
            .event("B5.4", "the discarded chits join the common chit pool");
    }
}
