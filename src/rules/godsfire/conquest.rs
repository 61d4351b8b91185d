//! The end of every combat phase, a skipped one too (G5.8 (5)–(7), G5.5): systems
//! conquered, neutral systems set back to their garrison, powers that lost their NG's
//! system put out of the game.

use std::collections::BTreeSet;

use super::defence::units_text;
use super::map::{Economy, Party, Units};
use super::outcome::{Conquest, Event, WarLog};
use super::place::{Place, Position};
use super::run::Run;
use super::state::NEUTRAL;

/// The end steps; `pos` is the position as the state now holds it, if at hand.
pub fn end_steps(
    run: &mut Run,
    pos: Option<&Position>,
    attacked: &BTreeSet<usize>,
    war: &mut WarLog,
) {
    match pos {
        Some(pos) => conquests(run, pos, war),
        None => conquests(run, &Position::new(&run.state), war),
    }
    restore(run, attacked, war);
    super::end::eliminate(run);
}

/// G5.5: a system passes to the one power with units in its cell and in one of its
/// regions, and nobody else's (nor neutrals') there, if it is neutral or its owner is
/// at war with that power. Systems in the game's order.
fn conquests(run: &mut Run, pos: &Position, war: &mut WarLog) {
    for s in 0..run.state.systems.len() {
        let cell = Place::Cell(run.state.systems[s].at);
        let regions: Vec<Place> = pos.geo.regions(s).into_iter().map(Place::Region).collect();
        let mut present = BTreeSet::new();
        for &place in std::iter::once(&cell).chain(&regions) {
            present.extend(
                pos.board
                    .at(place)
                    .filter(|(_, u)| !u.is_empty())
                    .map(|(s, _)| s),
            );
        }
        let [p] = present.into_iter().collect::<Vec<_>>()[..] else {
            continue;
        };
        if p == pos.sides.neutral()
            || pos.board.get(cell, p).is_empty()
            || regions.iter().all(|&r| pos.board.get(r, p).is_empty())
        {
            continue;
        }
        let owner = run.state.systems[s].owner.clone();
        let id = pos.sides.id(p).to_string();
        let hostile =
            owner == NEUTRAL || pos.sides.of(&owner).is_some_and(|o| pos.sides.at_war(p, o));
        if owner == id || !hostile {
            continue;
        }
        let name = run.state.systems[s].name.clone();
        run.state.systems[s].owner = id.clone();
        run.state.systems[s].garrison = None;
        let bank = run.state.systems[s].bank;
        let ids: BTreeSet<String> = pos
            .geo
            .regions(s)
            .into_iter()
            .map(|r| run.state.region_name(r).to_ascii_lowercase())
            .collect();
        run.state
            .stakes
            .retain(|k| !(k.power == id && ids.contains(&k.region.to_ascii_lowercase())));
        run.state
            .counters
            .retain(|c| !ids.contains(&c.region.to_ascii_lowercase()));
        run.event(
            Event::new(
                "G5.5",
                format!("{id} conquers {name} from {owner}, with its bank of {bank}"),
            )
            .system(&name)
            .power(&id),
        );
        if owner == NEUTRAL {
            // Rolled again, region by region in id order; all reactionary.
            for r in pos.geo.regions(s) {
                let rid = run.state.region_name(r);
                let a = run.roll("G5.5", &format!("{rid} allegiance"));
                let allegiance = match a {
                    1 => 2,
                    2 | 3 => 3,
                    _ => 4,
                };
                let e = run.roll("G5.5", &format!("{rid} economy"));
                let economy = match e {
                    1 | 2 => Economy::S,
                    3 | 4 => Economy::A1,
                    _ => Economy::A2,
                };
                let region = run.state.region_mut(r);
                region.allegiance = allegiance;
                region.economy = economy;
                region.party = Party::R;
                run.event(
                    Event::new(
                        "G5.5",
                        format!("1d6 = {a} -> {rid}: allegiance {allegiance}"),
                    )
                    .region(&rid)
                    .die("1d6", a),
                );
                run.event(
                    Event::new(
                        "G5.5",
                        format!("1d6 = {e} -> {rid}: economy {economy}, party R"),
                    )
                    .region(&rid)
                    .die("1d6", e),
                );
            }
        }
        war.conquests.push(Conquest {
            system: name,
            from: owner,
            to: id,
        });
    }
}

/// G5.5: a neutral system none of whose units was attacked, with no power's units in
/// its cell or regions, is set back to its garrison, in its cell (reported when that
/// changes anything).
fn restore(run: &mut Run, attacked: &BTreeSet<usize>, war: &mut WarLog) {
    for s in 0..run.state.systems.len() {
        if run.state.systems[s].owner != NEUTRAL || attacked.contains(&s) {
            continue;
        }
        let cell = run.state.systems[s].at.to_string();
        let places: Vec<String> = std::iter::once(cell.clone())
            .chain(
                run.state
                    .system_regions(s)
                    .map(|r| run.state.region_name(r)),
            )
            .collect();
        let here = |at: &str| places.iter().any(|p| p.eq_ignore_ascii_case(at));
        if run
            .state
            .stacks
            .iter()
            .any(|k| k.power != NEUTRAL && here(&k.at) && !k.units.is_empty())
        {
            continue;
        }
        let garrison = run.state.systems[s].garrison.unwrap_or_default();
        let now: Vec<(String, Units)> = run
            .state
            .stacks
            .iter()
            .filter(|k| k.power == NEUTRAL && here(&k.at) && !k.units.is_empty())
            .map(|k| (k.at.clone(), k.units))
            .collect();
        let as_garrison = match now.as_slice() {
            [] => garrison.is_empty(),
            [(at, units)] => at.eq_ignore_ascii_case(&cell) && *units == garrison,
            _ => false,
        };
        if as_garrison {
            continue;
        }
        run.state
            .stacks
            .retain(|k| !(k.power == NEUTRAL && here(&k.at)));
        if !garrison.is_empty() {
            run.state.add_units(NEUTRAL, &cell, garrison);
        }
        run.restack = true;
        let name = run.state.systems[s].name.clone();
        run.event(
            Event::new(
                "G5.5",
                format!(
                    "{name} is set back to its neutral garrison: {} in {cell}",
                    units_text(garrison)
                ),
            )
            .system(&name),
        );
        war.restored.push(name);
    }
}
