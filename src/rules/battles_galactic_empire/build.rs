//! The Build phase (B10): income, builds from the own force pool and then the common
//! fleet pool, carry-over, discards; then the start of the next turn: switcheroo
//! (B11.3), upgrades (B11.4) and the chit draw (B5).

use super::draw;
use super::outcome::Outcome;
use super::state::{Phase, Scenario, Switcheroo};
use super::syntax::{kinds_text, Order};
use super::types::{region_name, total, Chits, Kind, Power, Slot};
use super::{Plans, Run};

/// RP carried over to the next turn at most (B10.5).
pub const CARRY_LIMIT: u32 = 10;

/// The Build phase: income (B10.1), builds (B10.2–B10.4), carry-over (B10.5),
/// discards (B10.6), then the next turn.
pub fn adjudicate(run: &mut Run, plans: Plans) {
    income(run);
    let mut builds: Plans = [None, None];
    let mut set_aside: [Chits; 2] = [[0; 5]; 2];
    for p in Power::BOTH {
        match &plans[p.index()] {
            None => run
                .log
                .event("B10.6", format!("{p} builds nothing and discards nothing")),
            Some(entries) => {
                builds[p.index()] = Some(
                    entries
                        .iter()
                        .filter(|e| matches!(e.order, Order::Build(_)))
                        .cloned()
                        .collect(),
                );
                for e in entries {
                    if let Order::Discard(c) = e.order {
                        let side = run.state.side_mut(p);
                        if side.hand[c.index()] > 0 {
                            side.hand[c.index()] -= 1;
                            set_aside[p.index()][c.index()] += 1;
                            run.log.settle(
                                e.line,
                                Outcome::Noted,
                                "set aside; it joins the common chit pool after the draw",
                            );
                        } else {
                            run.log.settle(
                                e.line,
                                Outcome::Failed,
                                format!("no {} in hand to discard", c.name()),
                            );
                        }
                    }
                }
            }
        }
    }
    build_all(run, &builds);
    carry_over(run);
    next_turn(run, set_aside);
}

/// A power's income (B10.1): Resource values of the regions it controls, and 2 per WS
/// in its garrisons, added to the RP it holds.
fn income(run: &mut Run) {
    for p in Power::BOTH {
        let regions: Vec<u8> = run.state.controlled(p).collect();
        let resource: u32 = regions
            .iter()
            .map(|&r| run.state.regions[usize::from(r)].resource)
            .sum();
        let ws = run
            .state
            .units
            .iter()
            .filter(|u| u.power == p && u.garrison && u.kind == Kind::WS)
            .count() as u32;
        let held = run.state.side(p).rp;
        let rp = held.saturating_add(resource).saturating_add(2 * ws);
        run.state.side_mut(p).rp = rp;
        let names: Vec<&str> = regions.iter().map(|&r| region_name(r)).collect();
        run.log.event(
            "B10.1",
            format!(
                "{p} has {rp} RP: {held} held, {resource} from {}{}",
                if names.is_empty() {
                    "no region".to_string()
                } else {
                    names.join(", ")
                },
                if ws > 0 {
                    format!(", {} for {ws} WS in garrison", 2 * ws)
                } else {
                    String::new()
                }
            ),
        );
    }
}

/// What one BUILD line came to.
struct Tally {
    line: usize,
    named: usize,
    built: Vec<Kind>,
    failed: Vec<String>,
}

/// Builds every power's BUILD lines (B10.2–B10.4): from its own force pool first, then
/// alternately from the common fleet pool for the powers whose force pool is empty.
pub fn build_all(run: &mut Run, plans: &Plans) {
    let mut tallies: Vec<(Power, Tally)> = Vec::new();
    let mut kept: [Vec<(usize, Kind)>; 2] = [Vec::new(), Vec::new()];
    for p in Power::BOTH {
        for e in plans[p.index()].iter().flatten() {
            let Order::Build(kinds) = &e.order else {
                continue;
            };
            let t = tallies.len();
            tallies.push((
                p,
                Tally {
                    line: e.line,
                    named: kinds.len(),
                    built: Vec::new(),
                    failed: Vec::new(),
                },
            ));
            for &k in kinds {
                let side = run.state.side_mut(p);
                if side.force_pool[k.index()] == 0 {
                    kept[p.index()].push((t, k));
                } else if side.rp >= k.cost() {
                    side.rp -= k.cost();
                    side.force_pool[k.index()] -= 1;
                    side.base[k.index()] += 1;
                    tallies[t].1.built.push(k);
                } else {
                    let rp = side.rp;
                    tallies[t].1.failed.push(format!(
                        "{} costs {}, {rp} RP left",
                        k.name(),
                        k.cost()
                    ));
                }
            }
        }
    }
    // B10.3: only a power whose force pool is now empty builds from the common pool.
    let mut eligible = [false; 2];
    for p in Power::BOTH {
        eligible[p.index()] = total(&run.state.side(p).force_pool) == 0;
        if !eligible[p.index()] {
            for &(t, k) in &kept[p.index()] {
                tallies[t].1.failed.push(format!(
                    "{}: none in the force pool, which is not empty, so none from the common pool (B10.3)",
                    k.name()
                ));
            }
            kept[p.index()].clear();
        }
    }
    if kept.iter().all(|k| !k.is_empty()) {
        let first = common_first(run);
        run.log.event(
            "B10.4",
            format!("{first} builds first from the common fleet pool"),
        );
        common_builds(run, &mut tallies, &mut kept, first);
    } else if let Some(p) = Power::BOTH
        .into_iter()
        .find(|p| !kept[p.index()].is_empty())
    {
        common_builds(run, &mut tallies, &mut kept, p);
    }
    for (p, t) in tallies {
        let outcome = if t.built.len() == t.named {
            Outcome::Done
        } else if t.built.is_empty() {
            Outcome::Failed
        } else {
            Outcome::Partial
        };
        let mut detail = if t.built.is_empty() {
            "nothing built".to_string()
        } else {
            format!("built {}", kinds_text(&t.built))
        };
        if !t.failed.is_empty() {
            detail += &format!("; failed: {}", t.failed.join("; "));
        }
        detail += &format!("; {} RP left", run.state.side(p).rp);
        run.log.settle(t.line, outcome, detail);
    }
}

/// Who starts building from the common fleet pool (B10.4).
fn common_first(run: &Run) -> Power {
    let by_chaos = if run.state.chaos <= 50 {
        Power::Red
    } else {
        Power::Blue
    };
    if run.state.options.scenario == Scenario::Invasion {
        let (b, r) = (
            run.state.side(Power::Blue).rp,
            run.state.side(Power::Red).rp,
        );
        if b > r {
            return Power::Blue;
        }
        if r > b {
            return Power::Red;
        }
    }
    by_chaos
}

/// B10.3: kept fleets built alternately, one at a time, from the common fleet pool.
fn common_builds(
    run: &mut Run,
    tallies: &mut [(Power, Tally)],
    kept: &mut [Vec<(usize, Kind)>; 2],
    first: Power,
) {
    let queues = std::mem::take(kept);
    let mut next = [0usize; 2];
    let mut turn = first;
    while queues.iter().zip(next).any(|(q, n)| n < q.len()) {
        let p = if next[turn.index()] < queues[turn.index()].len() {
            turn
        } else {
            turn.other()
        };
        let i = p.index();
        while next[i] < queues[i].len() {
            let (t, k) = queues[i][next[i]];
            next[i] += 1;
            let rp = run.state.side(p).rp;
            if run.state.common.fleets[k.index()] == 0 {
                tallies[t]
                    .1
                    .failed
                    .push(format!("no {} in the common fleet pool", k.name()));
            } else if rp < k.cost() {
                tallies[t].1.failed.push(format!(
                    "{} from the common fleet pool costs {}, {rp} RP left",
                    k.name(),
                    k.cost()
                ));
            } else {
                run.state.common.fleets[k.index()] -= 1;
                let side = run.state.side_mut(p);
                side.rp -= k.cost();
                side.base[k.index()] += 1;
                tallies[t].1.built.push(k);
                run.log.event(
                    "B10.3",
                    format!("{p} builds one {} from the common fleet pool", k.name()),
                );
                break;
            }
        }
        turn = p.other();
    }
}

/// RP left over carry to the next turn, at most 10 (B10.5).
pub fn carry_over(run: &mut Run) {
    for p in Power::BOTH {
        let rp = run.state.side(p).rp;
        if rp > CARRY_LIMIT {
            run.state.side_mut(p).rp = CARRY_LIMIT;
            run.log.event(
                "B10.5",
                format!(
                    "{p} carries {CARRY_LIMIT} RP over; {} lost",
                    if rp - CARRY_LIMIT == 1 {
                        "1 is".to_string()
                    } else {
                        format!("{} are", rp - CARRY_LIMIT)
                    }
                ),
            );
        } else {
            run.log.event("B10.5", format!("{p} carries {rp} RP over"));
        }
    }
}

/// The start of the next turn (B4.3): switcheroo, upgrades, then the chit draw.
fn next_turn(run: &mut Run, set_aside: [Chits; 2]) {
    run.state.turn += 1;
    for r in &mut run.state.regions {
        r.resolved = false;
    }
    switcheroo(run);
    upgrades(run);
    draw::draw(run, set_aside, None);
    run.state.phase = Phase::Deployment;
}

/// Two dice naming a value chit (B11.3): its region, then its slot; the chit and
/// the two rolls.
fn roll_chit(run: &mut Run, step: &'static str, which: &str) -> ((u8, Slot), [u8; 2]) {
    let r = run
        .rng
        .d6(&mut run.log, step, format!("{which}: the region"));
    let region = r - 1;
    let s = run.rng.d6(
        &mut run.log,
        step,
        format!("{which}: the slot in {}", region_name(region)),
    );
    ((region, Slot::from_die(s)), [r, s])
}

fn chit_text(run: &Run, (r, slot): (u8, Slot)) -> String {
    format!(
        "{} {} {}",
        region_name(r),
        slot.name(),
        run.state.regions[usize::from(r)].value(slot)
    )
}

/// Two dice as the text tells them: `6 4`.
fn dice_text([a, b]: [u8; 2]) -> String {
    format!("{a} {b}")
}

/// Option `switcheroo` (B11.3): at the start of turn 2 and later, value chits swap.
/// Every die is told with what it decided (B13.2): the number of swaps, and each
/// swap's dice in its event, chit B's rolls that named chit A again among them.
fn switcheroo(run: &mut Run) {
    let mode = run.state.options.switcheroo;
    if mode == Switcheroo::Off || run.state.turn < 2 {
        return;
    }
    let swaps = if mode == Switcheroo::MoreChaos {
        let d = run.rng.d6(&mut run.log, "B11.3", "the number of swaps");
        run.log.event(
            "B11.3",
            format!(
                "switcheroo, more chaos: {} (1d6: {d})",
                crate::rules::counted(d, "swap", "swaps")
            ),
        );
        d
    } else {
        1
    };
    for _ in 0..swaps {
        let (a, a_dice) = roll_chit(run, "B11.3", "chit A");
        // Chit B's rolls, those that named chit A again first (B11.3: rolled again).
        let mut b_rolls = Vec::new();
        let b = loop {
            let (b, dice) = roll_chit(run, "B11.3", "chit B");
            if b != a {
                b_rolls.push(dice_text(dice));
                break b;
            }
            b_rolls.push(format!("{} (the same as A: rolled again)", dice_text(dice)));
        };
        let text = format!(
            "{} and {} swap (dice: chit A {}; chit B {})",
            chit_text(run, a),
            chit_text(run, b),
            dice_text(a_dice),
            b_rolls.join(", ")
        );
        let va = run.state.regions[usize::from(a.0)].value(a.1);
        let vb = run.state.regions[usize::from(b.0)].value(b.1);
        *run.state.regions[usize::from(a.0)].value_mut(a.1) = vb;
        *run.state.regions[usize::from(b.0)].value_mut(b.1) = va;
        run.log.event("B11.3", format!("switcheroo: {text}"));
    }
}

/// Option `upgrades` (B11.4): at the start of turn 2 and later, one value chit gains 1.
fn upgrades(run: &mut Run) {
    if !run.state.options.upgrades || run.state.turn < 2 {
        return;
    }
    let (c, dice) = roll_chit(run, "B11.4", "the chit upgraded");
    let before = chit_text(run, c);
    let v = run.state.regions[usize::from(c.0)].value_mut(c.1);
    *v = v.saturating_add(1);
    let after = *v;
    run.log.event(
        "B11.4",
        format!(
            "upgrade: {before} becomes {after} (dice: {})",
            dice_text(dice)
        ),
    );
}
