//! The combat phase (G5), in the order of G5.8: every combat's units taking part,
//! strengths and odds from the position at the start of the phase; one die a combat
//! whose attack is made, in combat order; eliminations and losses combat by combat;
//! retreats combat by combat; then conquests, neutral garrisons and powers out
//! ([`super::conquest`]).

use std::collections::BTreeSet;

use super::check::{Checked, Step};
use super::conquest;
use super::defence::units_text;
use super::map::{UnitType, Units};
use super::movement::picks;
use super::outcome::{CombatReport, Event, PlacedUnits, RetreatReport, Taking, WarLog};
use super::place::{FastMap as HashMap, Place, Position, Side};
use super::run::Run;
use super::state::Phase;
use super::strength::{able, attack_of, defence_of, Strength, Target};
use super::tables::{combat_result, odds, CombatResult, ODDS};

mod retreat;
use retreat::retreats;

/// A stack's units taking part in one combat.
#[derive(Clone, Debug)]
struct Group {
    place: Place,
    side: Side,
    /// Taking part and not yet lost in this combat.
    units: Units,
    first: Units,
    strength: Strength,
}

struct Combat {
    target: Place,
    /// The ATTACK orders: entry, power, place.
    orders: Vec<(usize, Side, Place)>,
    /// ATTACK orders that cannot join the combat: the entry, the attacker at war with
    /// its power, and whether that power's own units are at the target (they defend).
    refused: Vec<(usize, Side, bool)>,
    attackers: Vec<Group>,
    defenders: Vec<Group>,
    attack: Strength,
    defence: Strength,
    column: Option<usize>,
    roll: Option<u32>,
    result: Option<CombatResult>,
    losses: Vec<(Side, Place, Units)>,
    retreats: Vec<(Side, Place, Option<Place>)>,
    /// Why its result moved a stack taking part nowhere: gone by an earlier combat.
    void: Vec<String>,
}

impl Combat {
    fn sides(&self, attackers: bool) -> &[Group] {
        if attackers {
            &self.attackers
        } else {
            &self.defenders
        }
    }
}

pub fn run(run: &mut Run, mut pos: Position) {
    let mut war = WarLog::default();
    let picks = picks(run, pos.sides.ids.len());
    let mut retreat_orders: HashMap<(Side, Place), (Place, usize)> = HashMap::default();
    for e in run.step(Step::Retreat) {
        if let Checked::Retreat { from, to } = run.entries[e].order {
            retreat_orders.insert((run.entries[e].power, from), (to, e));
        }
    }
    let mut combats: Vec<Combat> = Vec::new();
    let mut by_target: HashMap<Place, usize> = HashMap::default();
    for e in run.step(Step::Attack) {
        let Checked::Attack { from, target } = run.entries[e].order else {
            continue;
        };
        let k = *by_target.entry(target).or_insert_with(|| {
            combats.push(Combat {
                target,
                orders: Vec::new(),
                refused: Vec::new(),
                attackers: Vec::new(),
                defenders: Vec::new(),
                attack: Strength(0),
                defence: Strength(0),
                column: None,
                roll: None,
                result: None,
                losses: Vec::new(),
                retreats: Vec::new(),
                void: Vec::new(),
            });
            combats.len() - 1
        });
        let power = run.entries[e].power;
        let c = &mut combats[k];
        // All attacks on one target are one combat (G5.1), whatever their powers, but
        // a power never both attacks and defends: an ATTACK by a power at war with one
        // already attacking does not join when either has units at the target.
        let places = combat_places(&pos, target);
        let stands = |side: Side| places.iter().any(|&p| !pos.board.get(p, side).is_empty());
        let clash = c
            .orders
            .iter()
            .map(|&(_, a, _)| a)
            .find(|&a| pos.sides.hostile(a, power) && (stands(power) || stands(a)));
        match clash {
            Some(a) => c.refused.push((e, a, stands(power))),
            None => c.orders.push((e, power, from)),
        }
    }
    // (1) Units taking part, strengths and odds, all from the start of the phase.
    for c in &mut combats {
        take_part(&pos, c);
    }
    // (2) One die a combat whose attack is made, in combat order.
    for (k, c) in combats.iter_mut().enumerate() {
        if let Some(column) = c.column {
            let target = run.state.place_name(c.target);
            let roll = run.roll("G5.3", &format!("combat {} at {target}", k + 1));
            c.roll = Some(roll);
            c.result = Some(combat_result(column, roll));
        }
    }
    report_odds(run, &pos, &combats);
    // What became of the stacks gone from their place, to tell why a later result
    // finds nothing there.
    let mut gone: Gone = HashMap::default();
    // (3) Eliminations and losses, combat by combat.
    for (k, c) in combats.iter_mut().enumerate() {
        losses(run, &mut pos, k, c, &picks, &mut gone);
    }
    // (4) Retreats, combat by combat, each seeing the position as it then stands.
    let mut used = BTreeSet::new();
    for (k, c) in combats.iter_mut().enumerate() {
        retreats(run, &mut pos, k, c, &retreat_orders, &mut used, &mut gone);
    }
    for e in run.step(Step::Retreat) {
        if !used.contains(&e) {
            run.done(e, "not needed: no retreat from there this phase");
        }
    }
    let attacked = attacked_neutral_systems(&pos, &combats);
    for (k, c) in combats.iter().enumerate() {
        settle_orders(run, &pos, k, c);
        war.combats.push(report(run, &pos, c));
    }
    pos.write(&mut run.state);
    conquest::end_steps(run, Some(&pos), &attacked, &mut war);
    run.state.phase = Phase::Interphase;
    run.log.war = Some(war);
}

/// A stack gone from its place in this phase, by power and place: what became of it
/// ("retreated to C4 in combat 1").
type Gone = HashMap<(Side, Place), String>;

fn target_kind(target: Place) -> Target {
    match target {
        Place::Cell(_) => Target::Cell,
        Place::Region(_) => Target::Region,
    }
}

/// Where the units defending `target` stand (G5.2): the target, and at a system's cell
/// also the system's regions.
fn combat_places(pos: &Position, target: Place) -> Vec<Place> {
    let mut places = vec![target];
    if let Place::Cell(cell) = target {
        if let Some(system) = pos.geo.system_at(cell) {
            places.extend(pos.geo.regions(system).into_iter().map(Place::Region));
        }
    }
    places
}

/// G5.2: who takes part, with what strength; the odds.
fn take_part(pos: &Position, c: &mut Combat) {
    let target = c.target;
    let kind = target_kind(target);
    let attacking: Vec<Side> = c.orders.iter().map(|&(_, p, _)| p).collect();
    for &(_, side, from) in &c.orders {
        let units = able(pos.board.get(from, side), pos.geo.ground(from), kind);
        c.attackers.push(Group {
            place: from,
            side,
            units,
            first: units,
            strength: Strength(0),
        });
    }
    // Defenders: every side at the target hostile to an attacker (and not attacking).
    let defending: Vec<Side> = pos
        .board
        .at(target)
        .map(|(s, _)| s)
        .filter(|s| !attacking.contains(s))
        .filter(|&s| attacking.iter().any(|&a| pos.sides.hostile(a, s)))
        .collect();
    for place in combat_places(pos, target) {
        for &side in &defending {
            let units = pos.board.get(place, side);
            if !units.is_empty() {
                c.defenders.push(Group {
                    place,
                    side,
                    units,
                    first: units,
                    strength: Strength(0),
                });
            }
        }
    }
    if let Place::Region(_) = target {
        ground_limit(c);
    }
    for g in &mut c.defenders {
        g.strength = defence_of(g.units, pos.geo.ground(g.place), pos.geo.halved(g.place));
        g.first = g.units;
    }
    for g in &mut c.attackers {
        g.strength = attack_of(
            g.units,
            pos.geo.ground(g.place),
            kind,
            pos.geo.halved(g.place),
        );
        g.first = g.units;
    }
    c.attack = c.attackers.iter().map(|g| g.strength).sum();
    c.defence = c.defenders.iter().map(|g| g.strength).sum();
    c.column = odds(c.attack, c.defence);
}

/// G5.2's ground combat limit at a region: each defending side's first 7 (AGs, then
/// PDFs), then the attacking stacks' units in attack order (AGs, then PDFs), at most 7
/// a power, until 12 take part.
fn ground_limit(c: &mut Combat) {
    let mut total = 0u32;
    let mut per_side: HashMap<Side, u32> = HashMap::default();
    let mut cut = |g: &mut Group| {
        let used = per_side.entry(g.side).or_default();
        let mut room = (7 - (*used).min(7)).min(12 - total.min(12));
        let mut kept = Units::default();
        for k in [UnitType::Ag, UnitType::Pdf, UnitType::Sqd] {
            let n = g.units.get(k).min(room);
            *kept.get_mut(k) = n;
            room -= n;
            *used += n;
            total += n;
        }
        g.units = kept;
    };
    for g in &mut c.defenders {
        cut(g);
    }
    for g in &mut c.attackers {
        cut(g);
    }
    c.defenders.retain(|g| !g.units.is_empty());
    c.attackers.retain(|g| !g.units.is_empty());
}

/// `red at D5 2 SQD (4) and green at F5 1 SQD (2)`, written piece by piece (a combat
/// phase writes many).
fn side_text(run: &Run, pos: &Position, groups: &[Group], out: &mut String) {
    if groups.is_empty() {
        out.push_str("nobody");
    }
    for (k, g) in groups.iter().enumerate() {
        if k > 0 {
            out.push_str(" and ");
        }
        out.push_str(pos.sides.id(g.side));
        out.push_str(" at ");
        out.push_str(&run.state.place_name(g.place));
        out.push(' ');
        super::defence::push_units(out, g.first);
        out.push_str(" (");
        push_strength(out, g.strength);
        out.push(')');
    }
}

fn push_strength(out: &mut String, s: Strength) {
    super::defence::push_number(out, s.halves() / 2);
    if s.halves() % 2 == 1 {
        out.push_str(".5");
    }
}

fn report_odds(run: &mut Run, pos: &Position, combats: &[Combat]) {
    for (k, c) in combats.iter().enumerate() {
        let target = run.state.place_name(c.target);
        let mut head = String::with_capacity(160);
        head.push_str("combat ");
        super::defence::push_number(&mut head, (k + 1) as u32);
        head.push_str(" at ");
        head.push_str(&target);
        head.push_str(": ");
        side_text(run, pos, &c.attackers, &mut head);
        head.push_str(" against ");
        side_text(run, pos, &c.defenders, &mut head);
        head.push_str(": ");
        push_strength(&mut head, c.attack);
        head.push_str(" to ");
        push_strength(&mut head, c.defence);
        match (c.column, c.roll, c.result) {
            (Some(column), Some(roll), Some(result)) => {
                run.event(Event::new("G5.2", format!("{head}, odds {}", ODDS[column])));
                run.event(
                    Event::new(
                        "G5.3",
                        format!("1d6 = {roll} -> {result} in combat {} at {target}", k + 1),
                    )
                    .die("1d6", roll),
                );
            }
            _ => run.event(Event::new(
                "G5.2",
                format!("{head}, below 1-3: the attack is not made"),
            )),
        }
    }
}

/// The side that picks for a side: its power with the greatest strength taking part
/// (ties: the first in the game's order).
fn picker(groups: &[Group]) -> Option<Side> {
    let mut by_side: Vec<(Side, u32)> = Vec::new();
    for g in groups {
        match by_side.iter_mut().find(|(s, _)| *s == g.side) {
            Some((_, n)) => *n += g.strength.halves(),
            None => by_side.push((g.side, g.strength.halves())),
        }
    }
    by_side.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    by_side.first().map(|&(s, _)| s)
}

/// The order within a type (G5.6): at a system's cell the units in the cell before those
/// on the ground (regions in id order); then powers in the game's order; attackers'
/// stacks in attack order.
fn loss_order(c: &Combat, attackers: bool) -> Vec<usize> {
    let groups = c.sides(attackers);
    let mut order: Vec<usize> = (0..groups.len()).collect();
    if attackers {
        order.sort_by_key(|&k| (groups[k].side, k));
    } else {
        order.sort_by_key(|&k| {
            (
                groups[k].place != c.target,
                groups[k].place.key(),
                groups[k].side,
            )
        });
    }
    order
}

/// G5.3, G5.6: eliminations and losses of one combat.
fn losses(
    run: &mut Run,
    pos: &mut Position,
    k: usize,
    c: &mut Combat,
    picks: &[[UnitType; 3]],
    gone: &mut Gone,
) {
    let Some(result) = c.result else {
        return;
    };
    let (losing_attackers, count) = match result {
        CombatResult::AE => (true, None),
        CombatResult::A(n) => (true, Some(n)),
        CombatResult::DE => (false, None),
        CombatResult::D(n) => (false, Some(n)),
        _ => return,
    };
    let by = picker(c.sides(!losing_attackers));
    let order = by.map_or(UnitType::ALL, |s| picks[s]);
    // PDFs on the ground take no loss unless at least half of the enemy's units taking
    // part are on the ground.
    let enemy = c.sides(!losing_attackers);
    let enemy_total: u32 = enemy.iter().map(|g| g.first.total()).sum();
    let enemy_ground: u32 = enemy
        .iter()
        .filter(|g| matches!(g.place, Place::Region(_)))
        .map(|g| g.first.total())
        .sum();
    let pdfs_spared = enemy_ground * 2 < enemy_total;
    let list = loss_order(c, losing_attackers);
    let mut left = count.unwrap_or(u32::MAX);
    let mut lost: Vec<(Side, Place, Units)> = Vec::new();
    let mut spared = false;
    for kind in order {
        for &g in &list {
            if left == 0 {
                break;
            }
            let group = if losing_attackers {
                &mut c.attackers[g]
            } else {
                &mut c.defenders[g]
            };
            let there = pos.board.get(group.place, group.side).get(kind);
            let available = group.units.get(kind).min(there);
            if available == 0 {
                continue;
            }
            if kind == UnitType::Pdf && pdfs_spared && matches!(group.place, Place::Region(_)) {
                spared = true;
                continue;
            }
            let n = available.min(left);
            left -= n;
            let one = Units::of(kind, n);
            group.units.sub(one);
            pos.board.sub(group.place, group.side, one);
            match lost
                .iter_mut()
                .find(|(s, p, _)| *s == group.side && *p == group.place)
            {
                Some((_, _, u)) => u.add(one),
                None => lost.push((group.side, group.place, one)),
            }
        }
    }
    let side_name = if losing_attackers {
        "attackers"
    } else {
        "defenders"
    };
    for &(side, place, units) in &lost {
        if pos.board.get(place, side).is_empty() {
            gone.insert(
                (side, place),
                format!("been eliminated in combat {}", k + 1),
            );
        }
        let text = match count {
            None => format!(
                "combat {}: {}'s {} at {} {} eliminated ({result})",
                k + 1,
                pos.sides.id(side),
                units_text(units),
                run.state.place_name(place),
                if units.total() == 1 { "is" } else { "are" }
            ),
            Some(_) => format!(
                "combat {}: {} loses {} at {} ({result}, picked by {})",
                k + 1,
                pos.sides.id(side),
                units_text(units),
                run.state.place_name(place),
                by.map_or("default", |s| pos.sides.id(s))
            ),
        };
        run.event(Event::new("G5.6", text).power(pos.sides.id(side)));
    }
    if spared {
        run.event(Event::new(
            "G5.6",
            format!(
                "combat {}: the {side_name}' PDFs on the ground take no loss (less than half \
                 of the enemy is on the ground)",
                k + 1
            ),
        ));
    }
    if left > 0 && count.is_some() && lost.is_empty() {
        run.event(Event::new(
            "G5.6",
            format!("combat {}: {result} finds no unit it may take: void", k + 1),
        ));
    }
    c.losses.extend(lost);
}

/// Neutral systems some of whose units defended in a combat that was made (G5.5).
fn attacked_neutral_systems(pos: &Position, combats: &[Combat]) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    for c in combats.iter().filter(|c| c.result.is_some()) {
        for g in c.defenders.iter().filter(|g| g.side == pos.sides.neutral()) {
            let system = match g.place {
                Place::Cell(cell) => pos.geo.system_at(cell),
                Place::Region(r) => Some(r.system),
            };
            out.extend(system);
        }
    }
    out
}

fn settle_orders(run: &mut Run, pos: &Position, k: usize, c: &Combat) {
    let target = run.state.place_name(c.target);
    for &(e, with, defends) in &c.refused {
        let with = pos.sides.id(with);
        let why = if defends {
            "your units there defend".to_string()
        } else {
            format!("{with}'s units stand there, and a power never both attacks and defends")
        };
        run.failed(
            e,
            format!(
                "combat {} at {target} is {with}'s attack, and you are at war with {with}: {why}",
                k + 1
            ),
        );
    }
    for &(e, _, _) in &c.orders {
        match (c.column, c.roll, c.result) {
            (Some(column), Some(roll), Some(result)) => {
                let mut detail = format!(
                    "combat {} at {target}: {} to {}, {}, 1d6 = {roll}: {result}",
                    k + 1,
                    c.attack,
                    c.defence,
                    ODDS[column]
                );
                for note in &c.void {
                    detail.push_str("; ");
                    detail.push_str(note);
                }
                run.done(e, detail)
            }
            _ => run.failed(
                e,
                format!(
                    "combat {} at {target}: {} to {}, below 1-3: the attack is not made",
                    k + 1,
                    c.attack,
                    c.defence
                ),
            ),
        }
    }
}

fn report(run: &Run, pos: &Position, c: &Combat) -> CombatReport {
    let taking = |groups: &[Group]| -> Vec<Taking> {
        groups
            .iter()
            .map(|g| Taking {
                power: pos.sides.id(g.side).to_string(),
                at: run.state.place_name(g.place),
                units: g.first,
                strength: g.strength,
            })
            .collect()
    };
    CombatReport {
        target: run.state.place_name(c.target),
        attackers: taking(&c.attackers),
        defenders: taking(&c.defenders),
        attack: c.attack,
        defence: c.defence,
        odds: c.column.map_or("below 1-3", |k| ODDS[k]),
        roll: c.roll,
        result: c.result.map(CombatResult::name),
        losses: c
            .losses
            .iter()
            .map(|&(side, place, units)| PlacedUnits {
                power: pos.sides.id(side).to_string(),
                at: run.state.place_name(place),
                units,
            })
            .collect(),
        retreats: c
            .retreats
            .iter()
            .map(|&(side, from, to)| RetreatReport {
                power: pos.sides.id(side).to_string(),
                from: run.state.place_name(from),
                to: to.map(|p| run.state.place_name(p)),
            })
            .collect(),
    }
}
