//! Retreats (G5.7): a side that must retreat moves its units that took part, stack by
//! stack, combat by combat, after every combat's losses.

use std::collections::BTreeSet;

use super::{Combat, Gone, Group};
use crate::rules::godsfire::defence::units_text;
use crate::rules::godsfire::outcome::Event;
use crate::rules::godsfire::place::{FastMap as HashMap, Place, Position, Side};
use crate::rules::godsfire::run::Run;
use crate::rules::godsfire::tables::CombatResult;

/// G5.7: a side that must retreat moves its units that took part, stack by stack.
pub(super) fn retreats(
    run: &mut Run,
    pos: &mut Position,
    k: usize,
    c: &mut Combat,
    orders: &HashMap<(Side, Place), (Place, usize)>,
    used: &mut BTreeSet<usize>,
    gone: &mut Gone,
) {
    let (attackers, result) = match c.result {
        Some(r @ CombatResult::Ar) => (true, r),
        Some(r @ CombatResult::Dr) => (false, r),
        _ => return,
    };
    let neutral = pos.sides.neutral();
    let target = c.target;
    let from_places: Vec<Place> = c.attackers.iter().map(|g| g.place).collect();
    let groups: Vec<Group> = c.sides(attackers).to_vec();
    for g in groups {
        let units = g.units.min(pos.board.get(g.place, g.side));
        if units.is_empty() {
            // Gone by an earlier combat of the phase: said, with what became of it.
            let what = gone.get(&(g.side, g.place)).map_or("left", String::as_str);
            let note = format!(
                "{result} moves nothing: {}'s {} at {} had already {what}",
                pos.sides.id(g.side),
                units_text(g.units),
                run.state.place_name(g.place)
            );
            run.event(
                Event::new("G5.7", format!("combat {}: {note}", k + 1)).power(pos.sides.id(g.side)),
            );
            c.void.push(note);
            continue;
        }
        // Neutrals never retreat (G5.5); ground units counted in the defence of a
        // system's cell stay where they are. Said, so a player sees why they stay.
        let stays = if g.side == neutral {
            Some("neutral units never retreat (G5.5)")
        } else if !attackers && g.place != target {
            Some("counted in the defence of the system's cell, they stay")
        } else {
            None
        };
        if let Some(why) = stays {
            let text = format!(
                "combat {}: {}'s {} at {} {}: {why}",
                k + 1,
                pos.sides.id(g.side),
                units_text(units),
                run.state.place_name(g.place),
                if units.total() == 1 {
                    "does not retreat"
                } else {
                    "do not retreat"
                },
            );
            run.event(Event::new("G5.7", text));
            continue;
        }
        let legal = |pos: &Position, to: Place| {
            !pos.hostile_at(to, g.side)
                && if attackers {
                    to != target
                } else {
                    !from_places.contains(&to)
                }
        };
        let mut options: Vec<Place> = Vec::new();
        let ordered = orders.get(&(g.side, g.place));
        if let Some(&(to, e)) = ordered {
            used.insert(e);
            options.push(to);
        }
        match g.place {
            Place::Cell(cell) => {
                options.extend(pos.geo.neighbours(cell).into_iter().map(Place::Cell))
            }
            Place::Region(r) => {
                options.extend(pos.geo.planet_neighbours(r).into_iter().map(Place::Region));
                options.push(Place::Cell(pos.geo.cell_of(r)));
            }
        }
        let to = options.into_iter().find(|&p| legal(pos, p));
        pos.board.sub(g.place, g.side, units);
        let (id, from) = (
            pos.sides.id(g.side).to_string(),
            run.state.place_name(g.place),
        );
        if pos.board.get(g.place, g.side).is_empty() {
            let what = match to {
                Some(p) => format!(
                    "retreated to {} in combat {}",
                    run.state.place_name(p),
                    k + 1
                ),
                None => format!("been eliminated for want of a retreat in combat {}", k + 1),
            };
            gone.insert((g.side, g.place), what);
        }
        match to {
            Some(p) => {
                pos.board.add(p, g.side, units);
                let text = format!(
                    "combat {}: {id}'s {} at {from} {} to {}",
                    k + 1,
                    units_text(units),
                    if units.total() == 1 {
                        "retreats"
                    } else {
                        "retreat"
                    },
                    run.state.place_name(p)
                );
                run.event(Event::new("G5.7", text).power(&id));
            }
            None => {
                c.losses.push((g.side, g.place, units));
                let text = format!(
                    "combat {}: {id}'s {} at {from} {}",
                    k + 1,
                    units_text(units),
                    if units.total() == 1 {
                        "has no place to retreat to and is eliminated"
                    } else {
                        "have no place to retreat to and are eliminated"
                    }
                );
                run.event(Event::new("G5.7", text).power(&id));
            }
        }
        if let Some(&(wanted, e)) = ordered {
            let detail = match to {
                Some(p) if p == wanted => format!("retreated to {}", run.state.place_name(p)),
                Some(p) => format!(
                    "{} was not a legal retreat then; retreated to {}",
                    run.state.place_name(wanted),
                    run.state.place_name(p)
                ),
                None => "no legal place to retreat to: eliminated".to_string(),
            };
            run.done(e, detail);
        }
        c.retreats.push((g.side, g.place, to));
    }
}
