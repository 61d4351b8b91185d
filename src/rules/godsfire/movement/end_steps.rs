//! The end steps of the movement phase (G4.7, after the end positions of G4.6): the
//! interceptors' S-1 losses, the blockers' retreats, each stance's result, and the
//! excess above the stacking limit disbanded.

use super::{in_order, Stance};
use crate::rules::godsfire::defence;
use crate::rules::godsfire::map::{Cell, UnitType, Units};
use crate::rules::godsfire::outcome::{BlockReport, Event, PlacedUnits, Stopped, WarLog};
use crate::rules::godsfire::place::{Place, Position, Side};
use crate::rules::godsfire::run::Run;

/// G4.7 (2): each S-1 takes a unit of the intercepting stack, picked by the mover.
pub(super) fn losses_of_interceptors(
    run: &mut Run,
    pos: &mut Position,
    stances: &mut [Stance],
    s1: &[(usize, Side, usize)],
    picks: &[[UnitType; 3]],
    war: &mut WarLog,
) {
    for &(s, mover, report) in s1 {
        let stance = &mut stances[s];
        let Some(kind) = in_order(stance.units, picks[mover]).next() else {
            continue;
        };
        let one = Units::of(kind, 1);
        stance.units.sub(one);
        pos.board.sub(Place::Cell(stance.cell), stance.power, one);
        war.transit_attacks[report].interceptor_lost.add(one);
        let text = format!(
            "{}'s intercepting stack at {} loses 1 {} (S-1, picked by {})",
            pos.sides.id(stance.power),
            stance.cell,
            kind.name(),
            pos.sides.id(mover)
        );
        run.event(Event::new("G4.7", text).power(pos.sides.id(stance.power)));
    }
}

/// G4.7 (3): each blocking stack that stopped a mover retreats one cell, in the order
/// of the BLOCK orders: to the cell named if legal, else the first legal one in
/// reading order; with none, it is eliminated.
pub(super) fn retreat_blockers(
    run: &mut Run,
    pos: &mut Position,
    stances: &[Stance],
    war: &mut WarLog,
) {
    for s in stances.iter().filter(|s| s.block && !s.stopped.is_empty()) {
        let here = Place::Cell(s.cell);
        let legal = |pos: &Position, c: Cell| {
            pos.geo.adjacent(here, Place::Cell(c))
                && !s
                    .stopped
                    .iter()
                    .any(|&(_, entered, _)| entered == Place::Cell(c))
                && !pos.hostile_at(Place::Cell(c), s.power)
        };
        let to = s.to.filter(|&c| legal(pos, c)).or_else(|| {
            pos.geo
                .neighbours(s.cell)
                .into_iter()
                .find(|&c| legal(pos, c))
        });
        let id = pos.sides.id(s.power).to_string();
        pos.board.sub(here, s.power, s.units);
        let text = match to {
            Some(c) => {
                pos.board.add(Place::Cell(c), s.power, s.units);
                format!(
                    "{id}'s blocking stack at {} ({}) retreats to {c}",
                    s.cell,
                    defence::units_text(s.units)
                )
            }
            None => format!(
                "{id}'s blocking stack at {} ({}) has no cell to retreat to and is eliminated",
                s.cell,
                defence::units_text(s.units)
            ),
        };
        run.event(Event::new("G4.7", text).power(&id));
        war.blocks.push(BlockReport {
            cell: s.cell.to_string(),
            power: id,
            stopped: s
                .stopped
                .iter()
                .map(|&(p, _, start)| Stopped {
                    power: pos.sides.id(p).to_string(),
                    from: run.state.place_name(start),
                })
                .collect(),
            retreat: to.map(|c| c.to_string()),
            lost: if to.is_none() {
                s.units
            } else {
                Units::default()
            },
        });
    }
}

pub(super) fn settle_stances(run: &mut Run, stances: &[Stance]) {
    for s in stances {
        let detail = if s.block {
            match s.stopped.len() {
                0 => format!("no hostile mover entered {}", s.cell),
                n => format!("stopped {n} mover{}", if n == 1 { "" } else { "s" }),
            }
        } else {
            match s.attacks {
                0 => format!("no transit attack made at {}", s.cell),
                n => format!("{n} transit attack{} made", if n == 1 { "" } else { "s" }),
            }
        };
        run.done(s.entry, detail);
    }
}

/// G4.7 (4): every stack above the stacking limit (G2.2: 3 of a type in a cell, 6 in a
/// region) loses the excess.
pub(super) fn disband(run: &mut Run, pos: &mut Position, war: &mut WarLog) {
    let over: Vec<(Place, Side, Units)> = pos
        .board
        .iter()
        .filter_map(|(place, side, units)| {
            let limit = match place {
                Place::Cell(_) => 3,
                Place::Region(_) => 6,
            };
            let mut excess = Units::default();
            for k in UnitType::ALL {
                *excess.get_mut(k) = units.get(k).saturating_sub(limit);
            }
            (!excess.is_empty()).then_some((place, side, excess))
        })
        .collect();
    for (place, side, excess) in over {
        pos.board.sub(place, side, excess);
        let (id, at) = (pos.sides.id(side).to_string(), run.state.place_name(place));
        let text = format!(
            "{id} disbands {} at {at}: above the stacking limit",
            defence::units_text(excess)
        );
        run.event(Event::new("G4.7", text).power(&id));
        war.disbanded.push(PlacedUnits {
            power: id,
            at,
            units: excess,
        });
    }
}
