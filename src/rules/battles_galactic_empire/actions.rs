//! The Action phase (B7): initiative, the powers acting alternately from their
//! written lines until all six regions are resolved, chits played and repressed;
//! then Politics and the victory check (B9).

use super::battle;
use super::check::Entry;
use super::instructions::Instructions;
use super::outcome::{Action, Outcome};
use super::politics;
use super::state::{Scenario, Unit};
use super::syntax::{order_text, Order};
use super::types::{fleets_text, region_name, verb, Chit, Fleets, Kind, Power, Segment};
use super::{spend, Plans, Run};

/// One power's action lines (in order) and whether each has been taken.
struct Queue {
    lines: Vec<Entry>,
    taken: Vec<bool>,
}

impl Queue {
    fn new(entries: &[Entry]) -> Queue {
        let lines: Vec<Entry> = entries
            .iter()
            .filter(|e| is_action(&e.order))
            .cloned()
            .collect();
        let taken = vec![false; lines.len()];
        Queue { lines, taken }
    }

    /// The next line not yet taken, marked taken.
    fn next(&mut self) -> Option<Entry> {
        let k = self.taken.iter().position(|t| !t)?;
        self.taken[k] = true;
        Some(self.lines[k].clone())
    }
}

fn is_action(o: &Order) -> bool {
    matches!(
        o,
        Order::Resolve(_)
            | Order::DeployTh(..)
            | Order::PlayBuild
            | Order::PlayMove { .. }
            | Order::PlayTactical { .. }
            | Order::PlayIlluminationTh(_)
            | Order::PlayIlluminationChaos
    )
}

/// The whole Action phase, then Politics and the victory check.
pub fn adjudicate(run: &mut Run, plans: Plans) {
    let empty = Vec::new();
    let entries = Power::BOTH.map(|p| plans[p.index()].as_ref().unwrap_or(&empty));
    let instructions = entries.map(|e| Instructions::read(e, &mut run.log));
    let mut queues = entries.map(|e| Queue::new(e));
    let invasion_start = run.state.options.scenario == Scenario::Invasion && run.state.turn == 1;
    let first = if invasion_start {
        let p = run.state.options.invader;
        run.log.event(
            "B7.1",
            format!("{p}, the invader, acts first on turn 1 without a roll"),
        );
        p
    } else {
        initiative(run)
    };
    run.log.initiative = Some(first);
    let mut turn = first;
    let mut surprise = invasion_start;
    while run.state.regions.iter().any(|r| !r.resolved) {
        let queue = &mut queues[turn.index()];
        if surprise {
            surprise = false;
            surprise_attack(run, turn, queue, &instructions);
        } else {
            act(run, turn, queue, &instructions);
        }
        turn = turn.other();
    }
    for q in &queues {
        for (k, e) in q.lines.iter().enumerate() {
            if !q.taken[k] {
                run.log.settle(
                    e.line,
                    Outcome::Unused,
                    "not reached: every region was resolved (B7.2)",
                );
            }
        }
    }
    politics::politics(run);
    politics::victory(run);
}

/// Initiative (B7.1): blue rolls, then red; the higher acts first; a tie again.
fn initiative(run: &mut Run) -> Power {
    loop {
        let b = run.rng.d6(&mut run.log, "B7.1", "blue's initiative");
        let r = run.rng.d6(&mut run.log, "B7.1", "red's initiative");
        if b == r {
            run.log.event(
                "B7.1",
                format!("initiative: blue {b}, red {r}: a tie, rolled again"),
            );
            continue;
        }
        let first = if b > r { Power::Blue } else { Power::Red };
        run.log.event(
            "B7.1",
            format!("initiative: blue {b}, red {r}: {first} acts first"),
        );
        return first;
    }
}

/// The invader's first action on turn 1 of an Invasion (B7.1): his first `RESOLVE`
/// line that can be carried out, the lines before it waiting; else the default.
fn surprise_attack(run: &mut Run, p: Power, q: &mut Queue, instr: &[Instructions; 2]) {
    let found = (0..q.lines.len()).find(|&k| {
        matches!(q.lines[k].order, Order::Resolve(r) if !run.state.regions[usize::from(r)].resolved)
    });
    match found {
        Some(k) => {
            q.taken[k] = true;
            let e = q.lines[k].clone();
            if let Err(why) = carry_out(run, p, &e, instr) {
                run.log.settle(e.line, Outcome::Failed, why);
            }
        }
        None => default_action(run, p, instr),
    }
}

/// One action of a power (B7.2): its next line that can be carried out now (those
/// that cannot have failed), else the default.
fn act(run: &mut Run, p: Power, q: &mut Queue, instr: &[Instructions; 2]) {
    while let Some(e) = q.next() {
        match carry_out(run, p, &e, instr) {
            Ok(()) => return,
            Err(why) => run.log.settle(e.line, Outcome::Failed, why),
        }
    }
    default_action(run, p, instr);
}

/// B7.2's default: resolve the first unresolved region in region order.
fn default_action(run: &mut Run, p: Power, instr: &[Instructions; 2]) {
    let Some(r) = (0..6u8).find(|&r| !run.state.regions[usize::from(r)].resolved) else {
        return;
    };
    let detail = battle::resolve(run, r, instr);
    run.log.actions.push(Action {
        power: p,
        kind: "resolve",
        region: Some(region_name(r)),
        by: "default",
        outcome: "done",
        detail,
    });
}

fn unresolved(run: &Run, r: u8) -> Result<(), String> {
    if run.state.regions[usize::from(r)].resolved {
        Err(format!("{} is already resolved", region_name(r)))
    } else {
        Ok(())
    }
}

fn record(
    run: &mut Run,
    p: Power,
    kind: &'static str,
    region: Option<u8>,
    outcome: &'static str,
    detail: String,
) {
    run.log.actions.push(Action {
        power: p,
        kind,
        region: region.map(region_name),
        by: "order",
        outcome,
        detail,
    });
}

/// Carries out one action line if it can be now; else why not (it has failed).
fn carry_out(run: &mut Run, p: Power, e: &Entry, instr: &[Instructions; 2]) -> Result<(), String> {
    match &e.order {
        Order::Resolve(r) => {
            unresolved(run, *r)?;
            let detail = battle::resolve(run, *r, instr);
            run.log.settle(e.line, Outcome::Done, detail.clone());
            record(run, p, "resolve", Some(*r), "done", detail);
            Ok(())
        }
        Order::DeployTh(r, n) => {
            unresolved(run, *r)?;
            let have = run.state.side(p).base[Kind::TH.index()];
            let n = n.unwrap_or(have);
            if have == 0 {
                return Err("no TH on the display".into());
            }
            if n > have {
                return Err(format!("{n} TH named, {have} on the display"));
            }
            run.state.side_mut(p).base[Kind::TH.index()] -= n;
            for _ in 0..n {
                run.state.units.push(unit(*r, p, Kind::TH));
            }
            let detail = format!("{n} TH deployed in {}", region_name(*r));
            run.log.settle(e.line, Outcome::Done, detail.clone());
            record(run, p, "deploy-th", Some(*r), "done", detail);
            Ok(())
        }
        order => play(run, p, e, order, instr),
    }
}

fn unit(region: u8, power: Power, kind: Kind) -> Unit {
    Unit {
        region,
        power,
        kind,
        garrison: false,
        marker: None,
        hits: 0,
    }
}

/// The fleets of a power in a region that a MOVE chit moves: AF and IO, not garrison.
fn movable(run: &Run, p: Power, r: u8) -> Fleets {
    let mut f = [0; 6];
    for u in run.state.units_of(r, p) {
        if !u.garrison && matches!(u.kind, Kind::AF | Kind::IO) {
            f[u.kind.index()] += 1;
        }
    }
    f
}

/// A `PLAY` line (B7.3, B7.4).
fn play(
    run: &mut Run,
    p: Power,
    e: &Entry,
    order: &Order,
    instr: &[Instructions; 2],
) -> Result<(), String> {
    let (chit, kind, region) = match order {
        Order::PlayBuild => (Chit::Build, "build", None),
        Order::PlayMove { from, .. } => (Chit::Move, "move", Some(*from)),
        Order::PlayTactical { region, .. } => (Chit::Tactical, "tactical", Some(*region)),
        Order::PlayIlluminationTh(r) => (Chit::Illumination, "illumination", Some(*r)),
        Order::PlayIlluminationChaos => (Chit::Illumination, "illumination", None),
        _ => return Err("not an action".into()),
    };
    if run.state.side(p).hand[chit.index()] == 0 {
        return Err(format!("no {} chit in hand", chit.name()));
    }
    // Can it be carried out now?
    let mut moving: Fleets = [0; 6];
    let mut marked: Option<(usize, Segment)> = None;
    match order {
        Order::PlayMove { from, to, fleets } => {
            unresolved(run, *from)?;
            unresolved(run, *to)?;
            let can = movable(run, p, *from);
            match fleets {
                Some(f) => {
                    if let Some(k) = Kind::ALL.iter().find(|k| f[k.index()] > can[k.index()]) {
                        return Err(format!(
                            "{} {} named, {} that may move in {}",
                            f[k.index()],
                            k.name(),
                            can[k.index()],
                            region_name(*from)
                        ));
                    }
                    moving = *f;
                }
                None => {
                    if can.iter().all(|&n| n == 0) {
                        return Err(format!(
                            "no AF or IO of {p} that may move in {}",
                            region_name(*from)
                        ));
                    }
                    moving = can;
                }
            }
        }
        Order::PlayTactical {
            region,
            kind,
            segment,
        } => {
            unresolved(run, *region)?;
            let Some(i) = run.state.units.iter().position(|u| {
                u.region == *region && u.power == p && u.kind == *kind && u.marker.is_none()
            }) else {
                return Err(format!(
                    "no unmarked {} of {p} in {}",
                    kind.name(),
                    region_name(*region)
                ));
            };
            let seg = segment.unwrap_or_else(|| {
                let (m, morph) = super::types::fleet_values(*kind, p, run.state.chaos);
                if morph > m {
                    Segment::Morph
                } else {
                    Segment::Military
                }
            });
            marked = Some((i, seg));
        }
        Order::PlayIlluminationTh(r) => {
            unresolved(run, *r)?;
            if run.state.side(p).th_supply == 0 {
                return Err("the TH supply is empty; the chit stays in hand".into());
            }
        }
        _ => {}
    }
    spend(&mut run.state, p, chit);
    // Repression (B7.4).
    let o = p.other();
    if run.state.side(o).hand[Chit::Repression.index()] > 0 {
        let lines = &instr[o.index()].represses;
        let by = lines
            .iter()
            .find(|(_, c)| *c == Some(chit))
            .or_else(|| lines.iter().find(|(_, c)| c.is_none()));
        if let Some(&(line, _)) = by {
            spend(&mut run.state, o, Chit::Repression);
            let text = order_text(order);
            let r = &mut run.log.results[line];
            r.private = false;
            r.detail = if r.detail == "cancelled nothing" {
                format!("cancelled {p}'s {text}")
            } else {
                format!("{}; cancelled {p}'s {text}", r.detail)
            };
            let detail = format!("by {o}'s REPRESSION; both chits go to the common chit pool");
            run.log.settle(e.line, Outcome::Cancelled, detail.clone());
            run.log.event("B7.4", format!("{o} represses {p}'s {text}"));
            record(run, p, kind, region, "cancelled", detail);
            return Ok(());
        }
    }
    let detail = match order {
        Order::PlayBuild => {
            let n = run.state.controlled(p).count() as u32;
            let side = run.state.side_mut(p);
            side.rp = side.rp.saturating_add(n);
            format!(
                "{p} gains {n} RP (one per region it controls); {} RP held",
                side.rp
            )
        }
        Order::PlayMove { from, to, .. } => {
            let mut left = moving;
            for u in run.state.units.iter_mut() {
                if u.region == *from && u.power == p && !u.garrison && left[u.kind.index()] > 0 {
                    left[u.kind.index()] -= 1;
                    u.region = *to;
                }
            }
            format!(
                "{} {} from {} to {}",
                fleets_text(&moving),
                verb(&moving, "moves", "move"),
                region_name(*from),
                region_name(*to)
            )
        }
        Order::PlayTactical { region, .. } => {
            let (i, seg) = marked.expect("found above");
            let u = &mut run.state.units[i];
            u.marker = Some(seg);
            format!(
                "one {} of {p} in {} rolls one more die in the {} segment",
                u.kind.name(),
                region_name(*region),
                seg.name()
            )
        }
        Order::PlayIlluminationTh(r) => {
            run.state.side_mut(p).th_supply -= 1;
            run.state.units.push(unit(*r, p, Kind::TH));
            format!("a TH from {p}'s supply enters {}", region_name(*r))
        }
        _ => {
            let d = run.rng.d6(
                &mut run.log,
                "B7.3",
                format!("{p}'s Illumination: the Chaos Index"),
            );
            let before = run.state.chaos;
            run.state.chaos += match p {
                Power::Blue => i64::from(d),
                Power::Red => -i64::from(d),
            };
            format!(
                "the Chaos Index goes from {before} to {} ({}{d})",
                run.state.chaos,
                if p == Power::Blue { "+" } else { "-" }
            )
        }
    };
    run.log.settle(e.line, Outcome::Done, detail.clone());
    run.log
        .event("B7.3", format!("{p} plays {}: {detail}", chit.name()));
    record(run, p, kind, region, "done", detail);
    Ok(())
}
