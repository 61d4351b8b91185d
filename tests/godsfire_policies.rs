//! Scripted Godsfire powers for the 20-turn game by mail, each reading the position (as
//! the results mails show it) and writing the orders of the phase:
//!
//! - red, aggressive: declares war on blue and yellow, buys AGs every turn, marches
//!   every stack east toward Vega along row 2 (through blue's pickets), lands an AG on
//!   Rigel as it passes and AGs on Vega at the end of the road, attacks whatever hostile
//!   stack it touches, and subverts a little;
//! - blue, defending: sends two pickets west to I2 and J2 in turn 1, then stands with
//!   them (INTERCEPT west of column J, BLOCK from there), buys PDFs, counter-attacks
//!   invaders on its planets, negotiates revolts and de-subverts;
//! - green, trading: borrows and moves money to its home bank, spends it on loyalty,
//!   and shuttles a patrol between two cells at home (at peace with everyone);
//!
//! Whoever buys spends on every other region of the system too, so that jealousy
//! (G7.4) does not set the home system in revolt.
//! - yellow sends nothing.

use std::collections::HashMap;

use pbem::rules::godsfire::map::{Cell, UnitType, Units};
use pbem::rules::godsfire::orders::check_path;
use pbem::rules::godsfire::place::{Place, Position, Side};
use pbem::rules::godsfire::state::{Phase, State, NEUTRAL};

/// The orders of one power for the current phase, or nothing.
pub fn orders(power: &str, s: &State) -> Option<String> {
    let me = s.power_index(power)?;
    let lines = match (power, s.phase) {
        ("red", Phase::Movement) => red_movement(s, me),
        ("red", Phase::Combat) => attacks(s, me, true),
        ("red", Phase::Interphase) => red_interphase(s, me),
        ("blue", Phase::Movement) => blue_movement(s, me),
        ("blue", Phase::Combat) => {
            let mut lines = attacks(s, me, false);
            lines.push("LOSSES PDF SQD AG".into());
            lines
        }
        ("blue", Phase::Interphase) => blue_interphase(s, me),
        ("blue", Phase::Defence) => blue_defence(s, me),
        ("green", Phase::Movement) => green_movement(s, me),
        ("green", Phase::Interphase) => {
            let home = s.powers[me].ng.clone();
            let mut lines = vec!["BORROW 6".into(), format!("TRANSFER 4 FROM NG TO {home}")];
            lines.extend(spend_at_home(s, me, None, 8));
            lines
        }
        _ => Vec::new(),
    };
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn cell_of(s: &State, system: &str) -> Cell {
    s.systems[s.system_index(system).unwrap()].at
}

fn name(s: &State, p: Place) -> String {
    s.place_name(p)
}

/// A power's stacks: place and units, cells first in reading order.
fn stacks(pos: &Position, me: Side) -> Vec<(Place, Units)> {
    let mut out: Vec<(Place, Units)> = pos
        .board
        .iter()
        .filter(|&(_, side, u)| side == me && !u.is_empty())
        .map(|(p, _, u)| (p, u))
        .collect();
    out.sort_by_key(|(p, _)| p.key());
    out
}

fn units_text(u: Units) -> String {
    UnitType::ALL
        .into_iter()
        .filter(|&k| u.get(k) > 0)
        .map(|k| format!("{}{}", u.get(k), k.name()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Cells from `from` toward `goal`, one king move at a time (preferring row 2, never
/// into nebula), as far as `budget` allows.
fn toward(pos: &Position, from: Cell, goal: Cell, budget: u32) -> Vec<Cell> {
    let mut path = Vec::new();
    let mut at = from;
    for _ in 0..budget {
        if at == goal {
            break;
        }
        let next = pos
            .geo
            .neighbours(at)
            .into_iter()
            .filter(|&c| !pos.geo.nebula(c))
            .min_by_key(|&c| (c.distance(goal), c.row.abs_diff(2), c.col))
            .unwrap();
        if next.distance(goal) >= at.distance(goal) {
            break;
        }
        path.push(next);
        at = next;
    }
    path
}

/// Room for `units` at a cell given what is planned there (3 a type).
fn room(planned: &HashMap<Place, Units>, at: Place, units: Units) -> bool {
    let mut u = planned.get(&at).copied().unwrap_or_default();
    u.add(units);
    u.sqd <= 3 && u.ag <= 3 && u.pdf <= 3
}

/// A move order if the path is legal, trimmed back to an end cell that holds no hostile
/// units at the start and has room; the plan is updated.
#[allow(clippy::too_many_arguments)]
fn go(
    s: &State,
    pos: &Position,
    me: Side,
    from: Place,
    units: Units,
    mut path: Vec<Place>,
    planned: &mut HashMap<Place, Units>,
    written: bool,
) -> Option<String> {
    while let Some(&end) = path.last() {
        let end_ok = match end {
            Place::Cell(_) => !pos.hostile_at(end, me) && room(planned, end, units),
            Place::Region(_) => {
                let mut u = planned.get(&end).copied().unwrap_or_default();
                u.add(units);
                u.ag <= 6 && u.pdf <= 6
            }
        };
        if end_ok && check_path(s, pos, me, from, units, &path).is_ok() {
            break;
        }
        path.pop();
    }
    if path.is_empty() {
        return None;
    }
    let end = *path.last().unwrap();
    planned.entry(end).or_default().add(units);
    if let Some(u) = planned.get_mut(&from) {
        u.sub(units);
    }
    let places: Vec<String> = path.iter().map(|&p| name(s, p)).collect();
    let what = if written {
        format!(" {}", units_text(units))
    } else {
        String::new()
    };
    Some(format!("{}{what} -> {}", name(s, from), places.join(" ")))
}

fn red_movement(s: &State, me: Side) -> Vec<String> {
    let pos = Position::new(s);
    let goal = cell_of(s, "Vega");
    let rigel = cell_of(s, "Rigel");
    let rigel_ours = s.systems[s.system_index("Rigel").unwrap()].owner == "red";
    let mut planned: HashMap<Place, Units> = stacks(&pos, me).into_iter().collect();
    let mut lines = Vec::new();
    let mut landing_at_rigel = false;
    let mut mine = stacks(&pos, me);
    // The front first, so that those behind find room where it was.
    mine.sort_by_key(|&(p, _)| match p {
        Place::Cell(c) => (0, c.distance(goal)),
        Place::Region(_) => (1, 0),
    });
    for (place, units) in mine {
        match place {
            Place::Region(r) => {
                // On a hostile planet with no enemy left in the region: on to the
                // neighbouring region that still holds some.
                if s.systems[r.system].owner != "red" {
                    let here_enemy = pos.hostile_at(place, me);
                    let next = pos
                        .geo
                        .planet_neighbours(r)
                        .into_iter()
                        .map(Place::Region)
                        .find(|&p| pos.hostile_at(p, me));
                    if let (false, Some(next), true) = (here_enemy, next, units.ag > 0) {
                        let ags = Units::of(UnitType::Ag, units.ag);
                        if let Some(l) = go(s, &pos, me, place, ags, vec![next], &mut planned, true)
                        {
                            lines.push(l);
                        }
                    }
                    continue;
                }
                // New AGs at home lift off in groups of three and head east.
                if units.ag == 0 {
                    continue;
                }
                let cell = pos.geo.cell_of(r);
                let mut left = units.ag;
                while left > 0 {
                    let n = left.min(3);
                    left -= n;
                    let mut path = vec![Place::Cell(cell)];
                    path.extend(toward(&pos, cell, goal, 4).into_iter().map(Place::Cell));
                    let group = Units::of(UnitType::Ag, n);
                    if let Some(l) = go(s, &pos, me, place, group, path, &mut planned, true) {
                        lines.push(l);
                    }
                }
            }
            Place::Cell(cell) => {
                let route = toward(&pos, cell, goal, 4);
                // Land an AG on Rigel as the road passes it, keeping the rest in its cell.
                let mut rest = units;
                rest.sub(Units::of(UnitType::Ag, 1));
                if !rigel_ours
                    && !landing_at_rigel
                    && units.ag > 0
                    && route.contains(&rigel)
                    && !pos.hostile_at(Place::Cell(rigel), me)
                    && !rest.is_empty()
                    && room(&planned, Place::Cell(rigel), rest)
                {
                    let k = route.iter().position(|&c| c == rigel).unwrap();
                    let mut path: Vec<Place> =
                        route[..=k].iter().map(|&c| Place::Cell(c)).collect();
                    path.push(Place::Region(
                        pos.geo.regions(s.system_index("Rigel").unwrap())[0],
                    ));
                    let one = Units::of(UnitType::Ag, 1);
                    if let Some(l) = go(s, &pos, me, place, one, path.clone(), &mut planned, true) {
                        landing_at_rigel = true;
                        lines.push(l);
                        path.pop();
                        if let Some(l) = go(s, &pos, me, place, rest, path, &mut planned, false) {
                            lines.push(l);
                        }
                        continue;
                    }
                }
                // At the end of the road: land every AG on Vega-1a, SQDs in the cell.
                if route.last() == Some(&goal) && !pos.hostile_at(Place::Cell(goal), me) {
                    let mut path: Vec<Place> = route.iter().map(|&c| Place::Cell(c)).collect();
                    if units.ag > 0 {
                        let ags = Units::of(UnitType::Ag, units.ag);
                        path.push(Place::Region(
                            pos.geo.regions(s.system_index("Vega").unwrap())[0],
                        ));
                        if let Some(l) =
                            go(s, &pos, me, place, ags, path.clone(), &mut planned, true)
                        {
                            lines.push(l);
                        }
                        path.pop();
                    }
                    let rest = Units { ag: 0, ..units };
                    if !rest.is_empty() {
                        if let Some(l) = go(s, &pos, me, place, rest, path, &mut planned, true) {
                            lines.push(l);
                        }
                    }
                    continue;
                }
                let path = route.into_iter().map(Place::Cell).collect();
                if let Some(l) = go(s, &pos, me, place, units, path, &mut planned, false) {
                    lines.push(l);
                }
            }
        }
    }
    lines
}

/// ATTACK orders: every stack touching hostile units of a power at war attacks the
/// weakest such place (never the neutrals); the defender only where its own strength
/// is at least the enemy's.
fn attacks(s: &State, me: Side, aggressive: bool) -> Vec<String> {
    let pos = Position::new(s);
    let neutral = pos.sides.neutral();
    let mut lines = Vec::new();
    let enemy_at = |p: Place| -> u32 {
        pos.board
            .at(p)
            .filter(|&(side, _)| side != neutral && pos.sides.at_war(me, side))
            .map(|(_, u)| u.total())
            .sum()
    };
    for (place, units) in stacks(&pos, me) {
        let mut targets: Vec<Place> = vec![place];
        match place {
            Place::Cell(c) => {
                targets.extend(pos.geo.neighbours(c).into_iter().map(Place::Cell));
                if let Some(system) = pos.geo.system_at(c) {
                    if units.ag > 0 {
                        targets.extend(pos.geo.regions(system).into_iter().map(Place::Region));
                    }
                }
            }
            Place::Region(r) => {
                if units.ag > 0 {
                    targets.push(Place::Cell(pos.geo.cell_of(r)));
                }
            }
        }
        let best = targets
            .into_iter()
            .filter(|&t| enemy_at(t) > 0)
            .filter(|&t| !(matches!(t, Place::Region(_)) && units.ag == 0 && units.pdf == 0))
            .filter(|&t| !pos.board.at(t).any(|(side, _)| side == neutral))
            .min_by_key(|&t| enemy_at(t));
        if let Some(t) = best {
            if aggressive || units.total() >= enemy_at(t) {
                lines.push(format!("{} ATTACK {}", name(s, place), name(s, t)));
            }
        }
    }
    lines
}

/// Spending at home without jealousy (G7.4) eating the system away: `n` units bought in
/// one region, 1 of LOYALTY on each other region (its +1 makes up for the 1 it is short),
/// if the bank (after this turn's tax, about `income`) pays for all of it.
fn spend_at_home(s: &State, me: Side, buy: Option<(&str, u32, &str)>, income: u32) -> Vec<String> {
    let home = &s.powers[me].ng;
    let Some(k) = s.system_index(home) else {
        return Vec::new();
    };
    let others: Vec<String> = s
        .system_regions(k)
        .map(|r| s.region_name(r))
        .filter(|id| buy.is_none_or(|(b, _, _)| b != id))
        .filter(|id| !s.region(s.region_at(id).unwrap()).in_revolt())
        .collect();
    let bank = s.systems[k].bank + income;
    let mut lines = Vec::new();
    let mut cost = others.len() as u32;
    if let Some((region, n, kind)) = buy {
        if bank >= cost + n {
            lines.push(format!("BUY {region} {n} {kind}"));
            cost += n;
        }
    }
    if bank >= cost {
        lines.extend(others.into_iter().map(|id| format!("LOYALTY {id} 1")));
    }
    lines
}

fn red_interphase(s: &State, me: Side) -> Vec<String> {
    let home = s.powers[me].ng.clone();
    let region = format!("{home}-1a");
    let mut lines = spend_at_home(s, me, Some((&region, 2, "AG")), 8);
    // Money from the smaller systems to the treasury, for subversion.
    for k in 0..s.systems.len() {
        let sys = &s.systems[k];
        if sys.owner == "red" && sys.name != home && sys.bank >= 2 {
            lines.push(format!("TRANSFER {} FROM {} TO NG", sys.bank, sys.name));
        }
    }
    if s.turn == 1 {
        lines.push("WAR blue".into());
        lines.push("WAR yellow".into());
    }
    // A little subversion from the treasury, on regions of powers at peace with red.
    let targets: Vec<String> = s
        .regions()
        .filter(|&r| {
            let owner = s.owner(r);
            owner != "red" && owner != NEUTRAL && !s.at_war_either("red", owner)
        })
        .map(|r| s.region_name(r))
        .collect();
    for k in 0..2 {
        if let Some(t) = targets.get((s.turn as usize * 3 + k * 5) % targets.len().max(1)) {
            lines.push(format!("SUBVERT {t}"));
        }
    }
    lines
}

fn blue_movement(s: &State, me: Side) -> Vec<String> {
    let pos = Position::new(s);
    if s.turn == 1 {
        return vec!["M3 1SQD 1AG -> L2 K2 J2 I2".into(), "M3 -> L2 K2 J2".into()];
    }
    // The westmost picket intercepts, the others block.
    stacks(&pos, me)
        .into_iter()
        .filter_map(|(p, _)| p.cell())
        .map(|c| {
            let stance = if c.col <= 8 { "INTERCEPT" } else { "BLOCK" };
            format!("{c} {stance}")
        })
        .collect()
}

fn blue_interphase(s: &State, me: Side) -> Vec<String> {
    let id = &s.powers[me].id;
    let mut lines = Vec::new();
    for r in s.regions().filter(|&r| s.owner(r) == id) {
        if s.region(r).in_revolt() {
            lines.push(format!("NEGOTIATE {}", s.region_name(r)));
        }
    }
    if s.powers[me].ng == "Vega" {
        lines.extend(spend_at_home(s, me, Some(("Vega-3a", 2, "PDF")), 8));
    }
    lines
}

/// De-subverts every stake placed on it this turn, counters the older ones.
fn blue_defence(s: &State, me: Side) -> Vec<String> {
    let id = &s.powers[me].id;
    let mut lines = Vec::new();
    for r in s.regions().filter(|&r| s.owner(r) == id) {
        let rid = s.region_name(r);
        if s.stakes
            .iter()
            .any(|k| k.region == rid && k.placed_turn == s.turn)
        {
            lines.push(format!("DESUBVERT {rid}"));
        } else if s.stakes.iter().any(|k| k.region == rid) {
            lines.push(format!("COUNTER {rid}"));
        }
    }
    lines
}

/// A patrol between the home cell and the next one, back and forth.
fn green_movement(s: &State, me: Side) -> Vec<String> {
    let home = cell_of(s, &s.powers[me].ng);
    let out = Cell {
        col: home.col - 1,
        row: home.row - 1,
    };
    let pos = Position::new(s);
    let (from, to) = if s.turn % 2 == 1 {
        (home, out)
    } else {
        (out, home)
    };
    let units = pos.board.get(Place::Cell(from), me);
    if units.sqd == 0 {
        return Vec::new();
    }
    vec![format!("{from} 1SQD -> {to}")]
}
