//! Stage two for the orders of the movement and combat phases (G4.1–G4.5, G5.1,
//! G5.6, G5.7): places found, stacks and paths checked against the position at the
//! start of the phase. What the phase itself decides (transit attacks, blocks, end
//! positions, combat) is for [`super::movement`] and [`super::combat`].

use super::check::{can_attack, Checked, Context, Invalid, Once};
use super::map::{Cell, UnitType, Units};
use super::place::{Place, Position};
use super::state::{State, NEUTRAL};
use super::syntax::Order;

fn place(state: &State, text: &str) -> Result<Place, Invalid> {
    state
        .find_place(text)
        .ok_or_else(|| Invalid::UnknownPlace(text.to_string()))
}

fn cell(state: &State, text: &str, what: &str) -> Result<Cell, Invalid> {
    match place(state, text)? {
        Place::Cell(c) => Ok(c),
        Place::Region(r) => Err(Invalid::Illegal(format!(
            "{} is a region: {what}",
            state.region_name(r)
        ))),
    }
}

/// The power's units at a place at the start of the phase, which must be some.
fn stack(state: &State, pos: &Position, power: usize, at: Place) -> Result<Units, Invalid> {
    let units = pos.board.get(at, power);
    if units.is_empty() {
        return Err(Invalid::NoUnitsAt(state.place_name(at)));
    }
    Ok(units)
}

/// How far the slowest of some units moves (G4.2): SQD 4, AG 4, PDF 3.
pub fn allowance(units: Units) -> (u32, &'static str) {
    if units.pdf > 0 {
        (3, "PDF")
    } else if units.ag > 0 {
        (4, "AG")
    } else {
        (4, "SQD")
    }
}

/// What entering a cell costs (G4.2): 1, a nebula cell 2.
pub fn cost(pos: &Position, c: Cell) -> u32 {
    if pos.geo.nebula(c) {
        2
    } else {
        1
    }
}

pub fn check(
    state: &State,
    pos: &Position,
    context: &mut Context,
    power: usize,
    order: Order,
) -> Result<Checked, Invalid> {
    match order {
        Order::Move { from, units, path } => {
            let from = place(state, from)?;
            let start = stack(state, pos, power, from)?;
            let mut left = start;
            left.sub(context.moved.get(&from).copied().unwrap_or_default());
            let (units, written) = match units {
                Some(list) => {
                    let mut asked = Units::default();
                    for (kind, n) in list {
                        *asked.get_mut(kind) = n;
                    }
                    if !left.holds(asked) {
                        return Err(Invalid::NotEnough {
                            at: state.place_name(from),
                            asked,
                            left,
                        });
                    }
                    (asked, true)
                }
                None => (left, false),
            };
            if units.is_empty() {
                return Err(Invalid::Illegal(format!(
                    "nothing is left to move at {}: your earlier orders move every unit there",
                    state.place_name(from)
                )));
            }
            let path = path
                .iter()
                .map(|p| place(state, p))
                .collect::<Result<Vec<Place>, Invalid>>()?;
            check_path(state, pos, power, from, units, &path)?;
            context.take(from, units);
            Ok(Checked::Move {
                from,
                units,
                written,
                path,
            })
        }
        Order::NgMove(path) => {
            let cells = path
                .iter()
                .map(|p| cell(state, p, "the NG moves through space, cell by cell"))
                .collect::<Result<Vec<Cell>, Invalid>>()?;
            let me = &state.powers[power];
            let home = state
                .system_index(&me.ng)
                .ok_or_else(|| Invalid::Illegal("your NG has no system".into()))?;
            let mut prev = state.systems[home].at;
            let mut spent = 0;
            for &c in &cells {
                if !pos.geo.adjacent(Place::Cell(prev), Place::Cell(c)) {
                    return Err(Invalid::Illegal(format!("{c} is not next to {prev}")));
                }
                spent += cost(pos, c);
                prev = c;
            }
            if spent > 3 {
                return Err(Invalid::Illegal(format!(
                    "the NG's path costs {spent}; it moves 3 at most (a nebula cell costs 2)"
                )));
            }
            let to = pos
                .geo
                .system_at(prev)
                .filter(|&s| s != home && state.systems[s].owner == me.id)
                .ok_or_else(|| {
                    Invalid::Illegal(format!(
                        "the NG's path must end at the cell of another system of yours, not {prev}"
                    ))
                })?;
            context.once(Once::Ng)?;
            Ok(Checked::NgMove { path: cells, to })
        }
        Order::Intercept(at) => {
            let c = cell(state, at, "no stance in a region (G4.3)")?;
            stack(state, pos, power, Place::Cell(c))?;
            context.once(Once::Stance(c))?;
            Ok(Checked::Stance {
                at: c,
                block: false,
                to: None,
            })
        }
        Order::Block { at, to } => {
            let c = cell(state, at, "no stance in a region (G4.3)")?;
            stack(state, pos, power, Place::Cell(c))?;
            let to = match to {
                None => None,
                Some(t) => {
                    let t = cell(state, t, "a blocking stack retreats to a cell")?;
                    if !pos.geo.adjacent(Place::Cell(c), Place::Cell(t)) {
                        return Err(Invalid::Illegal(format!(
                            "{t} is not next to {c}: a blocking stack retreats one cell"
                        )));
                    }
                    Some(t)
                }
            };
            context.once(Once::Stance(c))?;
            Ok(Checked::Stance {
                at: c,
                block: true,
                to,
            })
        }
        Order::Losses(written) => {
            context.once(Once::Losses)?;
            let mut order = [UnitType::Sqd; 3];
            let all = written
                .iter()
                .copied()
                .chain(UnitType::ALL.into_iter().filter(|k| !written.contains(k)));
            for (slot, kind) in order.iter_mut().zip(all) {
                *slot = kind;
            }
            Ok(Checked::Losses { written, order })
        }
        Order::Attack { from, target } => {
            let from = place(state, from)?;
            let units = stack(state, pos, power, from)?;
            let target = place(state, target)?;
            let (f, t) = (state.place_name(from), state.place_name(target));
            // The place itself; an adjacent cell; a system's cell and its regions both
            // ways; never another region.
            let reach = from == target
                || (pos.geo.adjacent(from, target)
                    && !matches!((from, target), (Place::Region(_), Place::Region(_))));
            if !reach {
                return Err(Invalid::Illegal(format!(
                    "{f} cannot attack {t}: a cell attacks an adjacent cell or a region of its \
                     system, a region its own units or its system's cell"
                )));
            }
            if !pos.hostile_at(target, power) {
                return Err(Invalid::Illegal(format!(
                    "{t} holds no units hostile to you (of a power at war with you, or neutral)"
                )));
            }
            if can_attack(pos, units, from, target).is_empty() {
                return Err(Invalid::Illegal(format!(
                    "none of your units at {f} can attack {t} (a SQD has no effect on a \
                     planet, a PDF attacks only from a system's cell or within its region, \
                     only AGs attack between space and the ground)"
                )));
            }
            context.once(Once::Attack(from))?;
            Ok(Checked::Attack { from, target })
        }
        Order::Retreat { from, to } => {
            let from = place(state, from)?;
            stack(state, pos, power, from)?;
            let to = place(state, to)?;
            let next = match (from, to) {
                (Place::Cell(_), Place::Cell(_)) => pos.geo.adjacent(from, to),
                (Place::Region(_), _) => pos.geo.adjacent(from, to),
                (Place::Cell(_), Place::Region(_)) => false,
            };
            if !next {
                return Err(Invalid::Illegal(format!(
                    "{} is not a place to retreat to from {} (a cell retreats to an adjacent \
                     cell; a region to a region of its planet or its system's cell)",
                    state.place_name(to),
                    state.place_name(from)
                )));
            }
            context.once(Once::Retreat(from))?;
            Ok(Checked::Retreat { from, to })
        }
        _ => Err(Invalid::WrongPhase { phase: state.phase }),
    }
}

/// G4.2: adjacency, costs, landing and lift-off, allowances, who enters which region.
pub fn check_path(
    state: &State,
    pos: &Position,
    power: usize,
    from: Place,
    units: Units,
    path: &[Place],
) -> Result<(), Invalid> {
    let name = |p: Place| state.place_name(p);
    let mut spent = 0;
    let mut prev = from;
    let last = path.len() - 1;
    for (k, &p) in path.iter().enumerate() {
        if !pos.geo.adjacent(prev, p) {
            return Err(Invalid::Illegal(format!(
                "{} is not next to {}",
                name(p),
                name(prev)
            )));
        }
        match (prev, p) {
            (Place::Cell(_), Place::Cell(c)) => spent += cost(pos, c),
            (Place::Region(_), Place::Cell(_)) => {
                if k != 0 {
                    return Err(Invalid::Illegal(format!(
                        "the lift-off from {} to {} may only be the first step of a path",
                        name(prev),
                        name(p)
                    )));
                }
            }
            (Place::Cell(c), Place::Region(r)) => {
                if k != last {
                    return Err(Invalid::Illegal(format!(
                        "the landing on {} may only be the last step of a path",
                        name(p)
                    )));
                }
                if pos.hostile_at(Place::Cell(c), power) {
                    return Err(Invalid::Illegal(format!(
                        "no landing on {}: units hostile to you stand in {c}, the system's \
                         cell (it must be held to land)",
                        state.region_name(r)
                    )));
                }
                enter_region(state, pos, power, units, p)?;
            }
            (Place::Region(_), Place::Region(_)) => {
                if path.len() != 1 {
                    return Err(Invalid::Illegal(format!(
                        "a step on the ground from {} to {} is a whole move by itself",
                        name(prev),
                        name(p)
                    )));
                }
                enter_region(state, pos, power, units, p)?;
            }
        }
        prev = p;
    }
    let (most, slowest) = allowance(units);
    if spent > most {
        return Err(Invalid::Illegal(format!(
            "the path costs {spent}, more than the {most} the slowest unit ({slowest}) moves \
             (a nebula cell costs 2)"
        )));
    }
    Ok(())
}

/// Who may enter a region (G4.2): SQDs never; AGs and PDFs on their power's planets;
/// only AGs on a hostile planet; nobody on the planet of a power not at war.
fn enter_region(
    state: &State,
    pos: &Position,
    power: usize,
    units: Units,
    p: Place,
) -> Result<(), Invalid> {
    let Place::Region(r) = p else {
        return Ok(());
    };
    let id = state.region_name(r);
    if units.sqd > 0 {
        return Err(Invalid::Illegal(format!(
            "a SQD never goes on the ground ({id})"
        )));
    }
    let owner = &state.systems[r.system].owner;
    if *owner == state.powers[power].id {
        return Ok(());
    }
    let hostile = *owner == NEUTRAL
        || pos
            .sides
            .of(owner)
            .is_some_and(|o| pos.sides.at_war(power, o));
    if !hostile {
        return Err(Invalid::Illegal(format!(
            "{id} belongs to {owner}, not at war with you: no unit of yours enters it"
        )));
    }
    if units.pdf > 0 {
        return Err(Invalid::Illegal(format!(
            "only AGs land on a hostile planet ({id} is {})",
            if *owner == NEUTRAL {
                "neutral".to_string()
            } else {
                format!("{owner}'s")
            }
        )));
    }
    Ok(())
}
