//! The placement phase (R8.4, R8.6): new fleets earned by occupation are placed.

use std::collections::HashMap;
use std::num::NonZeroU32;

use crate::rules::words::and_list;

use super::board::{PowerId, Sector, SystemId};
use super::check::{self, Checker, Chosen};
use super::outcome::{
    Detail, Invalid, LostPlacement, NoPlace, OrderResult, OrderText, Outcome, Report,
};
use super::position::{Fleet, State, NO_FLEET};
use super::syntax::Syntax;
use super::turn::{self, placement_sectors};
use super::Submissions;

pub(super) fn adjudicate(state: &State, orders: &Submissions) -> (State, Report) {
    adjudicate_with(state, orders, &Slots::of(state))
}

fn adjudicate_with(state: &State, orders: &Submissions, slots: &Slots) -> (State, Report) {
    let mut report = Report::default();
    let (picks, lines) = choose(state, orders, slots, &mut report);
    // R8.6: a sector chosen by two powers gets neither fleet.
    let mut claims: HashMap<Sector, u32> = HashMap::new();
    for (s, _) in picks.iter().flatten() {
        *claims.entry(*s).or_default() += 1;
    }
    let mut next = state.clone();
    let board = &state.board;
    for ((p, pick), &line) in state.pending.iter().zip(&picks).zip(&lines) {
        let system = &board.system(p.system).name;
        let (order, outcome, detail, default) = match *pick {
            None => {
                let why = NoPlace::NoneLeft;
                report.lost_placements.push(LostPlacement {
                    power: p.power,
                    system: p.system,
                    why,
                });
                let why = why.text(board, p.system);
                (format!("PLACE {system}"), Outcome::Destroyed, why, true)
            }
            Some((at, default)) if claims[&at] > 1 => {
                let why = NoPlace::Contested(at);
                report.lost_placements.push(LostPlacement {
                    power: p.power,
                    system: p.system,
                    why,
                });
                let why = why.text(board, p.system);
                let order = format!("PLACE {system} {}", board.name(at));
                (order, Outcome::Destroyed, why, default)
            }
            Some((at, default)) => {
                next.fleets.push(Fleet {
                    power: p.power,
                    at,
                    stay: 0,
                    produced_by: Some(p.system),
                });
                let detail = if default && state.judge_power() != Some(p.power) {
                    format!(
                        "no order: placed in {}, the first empty sector",
                        board.name(at)
                    )
                } else {
                    format!("placed in {}", board.name(at))
                };
                let order = format!("PLACE {system} {}", board.name(at));
                (order, Outcome::Placed, detail, default)
            }
        };
        report.results.push(OrderResult {
            power: p.power,
            sector: Some(board.system(p.system).at),
            order: OrderText::text(order),
            outcome,
            detail: Detail::Text(detail.into()),
            default,
            line,
        });
    }
    next.sort_fleets();
    turn::start_next_turn(&mut next);
    (next, report)
}

/// Where a pending placement goes, and whether by default (`None`: nowhere).
type Pick = Option<(Sector, bool)>;

/// Where each pending placement goes (in the state's order: by power, then system), as
/// the orders and the NMR default choose it (`true`: by default), or `None` when no
/// empty sector is left next to its system; and the line that chose it. Refused lines
/// go to `report`. Two powers' picks of one sector are not looked at here (R8.6).
fn choose(
    state: &State,
    orders: &Submissions,
    slots: &Slots,
    report: &mut Report,
) -> (Vec<Pick>, Vec<Option<NonZeroU32>>) {
    let occupancy = state.occupancy();
    let checker = Checker {
        state,
        occupancy: &occupancy,
    };
    // One slot per pending placement (in the state's order: by power, then system).
    let mut chosen: Vec<Chosen<Sector>> = vec![None; state.pending.len()];
    check::read_into_slots(
        &checker,
        orders,
        &mut chosen,
        |slot| state.board.system(state.pending[slot].system).at,
        |power, syntax, chosen| check_line(&checker, slots, power, syntax, chosen),
        &mut report.results,
    );
    // NMR: the first empty sector next to the system that this power has not chosen.
    let mut picks: Vec<Pick> = chosen.iter().map(|c| c.map(|(s, _)| (s, false))).collect();
    let lines: Vec<Option<NonZeroU32>> = chosen.iter().map(|c| c.map(|(_, w)| w.number)).collect();
    for slot in 0..picks.len() {
        if picks[slot].is_some() {
            continue;
        }
        let p = state.pending[slot];
        // Picked for another of the power's placements (next to the sector, as
        // every pick is).
        let taken = |s: &Sector| {
            slots
                .near(state, p.power, *s)
                .into_iter()
                .any(|q| picks[q].is_some_and(|(t, _)| t == *s))
        };
        let free = placement_sectors(state, &occupancy, p.system)
            .into_iter()
            .find(|s| !taken(s));
        picks[slot] = free.map(|s| (s, true));
    }
    (picks, lines)
}

/// What a placement receipt says under a power's orders standing (`text`, as kept):
/// the new fleets it has to place (`New fleets to place: 2 (for Daribow and
/// Rossem).`), how many its orders place, and what the deadline does with the others:
/// each goes to the first empty sector next to its system in reading order that the
/// power's other placements leave (R8.4), named, or is lost when none is left. A
/// power's placements depend on its own orders only, but for another power placing
/// in the same sector (R8.6): that is the other's secret, and not looked at.
/// Nothing outside a placement phase, nor for a power with nothing to place.
pub fn receipt_notes(state: &State, power: PowerId, text: &str) -> Vec<String> {
    if state.phase != super::position::Phase::Placement {
        return Vec::new();
    }
    let mut mine = state.clone();
    mine.pending.retain(|p| p.power == power);
    if mine.pending.is_empty() {
        return Vec::new();
    }
    let board = &state.board;
    let orders = Submissions::from([(power, text.to_string())]);
    let (picks, _) = choose(&mine, &orders, &Slots::of(&mine), &mut Report::default());
    let systems: Vec<String> = mine
        .pending
        .iter()
        .map(|p| board.system(p.system).name.clone())
        .collect();
    let placed = picks
        .iter()
        .filter(|p| matches!(p, Some((_, false))))
        .count();
    let mut by_default: Vec<(String, String)> = Vec::new();
    let mut lost: Vec<String> = Vec::new();
    for (system, pick) in systems.iter().zip(&picks) {
        match pick {
            Some((at, true)) => by_default.push((system.clone(), board.name(*at))),
            None => lost.push(system.clone()),
            Some((_, false)) => {}
        }
    }
    let mut note = format!(
        "New fleets to place: {} (for {}).",
        systems.len(),
        and_list(&systems)
    );
    note += &match placed {
        0 => " No placement is ordered yet".to_string(),
        n => format!(" Your orders place {n}"),
    };
    note += if by_default.is_empty() && lost.is_empty() {
        ": nothing is left to order."
    } else {
        "."
    };
    match by_default.as_slice() {
        [] => {}
        [(system, at)] => {
            note += &format!(
                " Without an order by the deadline, the fleet for {system} goes to {at}, the first empty sector next to it."
            )
        }
        many => {
            let each: Vec<String> = many
                .iter()
                .map(|(system, at)| format!("{at} for {system}"))
                .collect();
            note += &format!(
                " Without orders by the deadline, each fleet left goes to the first empty sector next to its system: {}.",
                and_list(&each)
            );
        }
    }
    for system in &lost {
        note += &format!(" The fleet for {system} is lost: no empty sector is left next to it.");
    }
    vec![note]
}

/// Checks a `PLACE` line; returns the pending slot it fills and the sector.
fn check_line(
    checker: &Checker,
    slots: &Slots,
    power: PowerId,
    syntax: &Result<Syntax, String>,
    chosen: &[Chosen<Sector>],
) -> Result<(usize, Sector), Invalid> {
    let syntax = syntax.as_ref().map_err(|_| {
        Invalid::Unparseable(
            "placement orders read PLACE <sector> or PLACE <system> <sector>, e.g. PLACE D3".into(),
        )
    })?;
    let Syntax::Place { system, at } = *syntax else {
        return Err(Invalid::WrongPhase {
            order: check::kind(syntax),
            phase: "placement",
        });
    };
    let state = checker.state;
    let board = &state.board;
    let sector = checker.sector(at)?;
    let name = checker.name(sector);
    // The power's placements next to the sector, in slot order.
    let near = slots.near(state, power, sector);
    let slot = match system {
        Some(word) => {
            let sys_sector = checker.sector(word)?;
            let sys = board
                .system_at(sys_sector)
                .ok_or_else(|| Invalid::NotMajorSystem(checker.name(sys_sector)))?;
            let slot = slots
                .of_system(state, power, sys)
                .ok_or_else(|| Invalid::NoPendingPlacement(board.system(sys).name.clone()))?;
            if !board.adjacent(sys_sector, sector) {
                return Err(Invalid::NotNextToSystem {
                    at: name,
                    system: board.system(sys).name.clone(),
                });
            }
            slot
        }
        None => {
            // A bare sector goes to the first pending system next to it (R8.4).
            let Some(&first) = near.first() else {
                // `PLACE Askone`: the system that owes the fleet, not a sector next to it.
                if let Some(sys) = board
                    .system_at(sector)
                    .filter(|&sys| slots.of_system(state, power, sys).is_some())
                {
                    let free = super::turn::placement_sectors(state, checker.occupancy, sys);
                    return Err(Invalid::PlaceOnTheSystem {
                        system: board.system(sys).name.clone(),
                        at: name,
                        example: free.first().map(|&s| checker.name(s)),
                    });
                }
                let mut systems: Vec<String> = state
                    .pending
                    .iter()
                    .filter(|p| p.power == power)
                    .map(|p| board.system(p.system).name.clone())
                    .collect();
                systems.sort();
                systems.dedup();
                return Err(Invalid::NotNearPending { at: name, systems });
            };
            near.iter()
                .copied()
                .find(|&k| chosen[k].is_none())
                .unwrap_or(first)
        }
    };
    if checker.occupancy[sector.0 as usize] != NO_FLEET {
        return Err(Invalid::SectorOccupied(name));
    }
    // Only a placement next to the sector can have chosen it.
    let taken_by_other_slot = near
        .iter()
        .any(|&k| k != slot && chosen[k].is_some_and(|(s, _)| s == sector));
    if taken_by_other_slot {
        return Err(Invalid::AlreadyChosen(name));
    }
    Ok((slot, sector))
}

/// The pending placements (slots, indices into `state.pending`) of each power by
/// system: a line, or a placement by default, concerns the placements next to one
/// sector, found without going through them all (a phase with thousands of placements
/// would otherwise take time in their square).
struct Slots {
    /// `None`: every placement is looked at each time (what the index is tested
    /// against).
    by: Option<HashMap<(PowerId, SystemId), Vec<usize>>>,
}

impl Slots {
    fn of(state: &State) -> Slots {
        let mut by: HashMap<(PowerId, SystemId), Vec<usize>> = HashMap::new();
        for (k, p) in state.pending.iter().enumerate() {
            by.entry((p.power, p.system)).or_default().push(k);
        }
        Slots { by: Some(by) }
    }

    /// The first placement of `power` for `system`.
    fn of_system(&self, state: &State, power: PowerId, system: SystemId) -> Option<usize> {
        match &self.by {
            Some(by) => by.get(&(power, system)).map(|v| v[0]),
            None => (0..state.pending.len())
                .find(|&k| state.pending[k].power == power && state.pending[k].system == system),
        }
    }

    /// The placements of `power` for systems next to `sector`, in slot order.
    fn near(&self, state: &State, power: PowerId, sector: Sector) -> Vec<usize> {
        let board = &state.board;
        match &self.by {
            Some(by) => {
                let mut near: Vec<usize> = board
                    .neighbours(sector)
                    .into_iter()
                    .filter_map(|s| board.system_at(s))
                    .filter_map(|system| by.get(&(power, system)))
                    .flatten()
                    .copied()
                    .collect();
                near.sort_unstable();
                near
            }
            None => (0..state.pending.len())
                .filter(|&k| {
                    let p = state.pending[k];
                    p.power == power && board.adjacent(board.system(p.system).at, sector)
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::dice::Dice;
    use crate::rules::foundation_empire::board::Board;
    use crate::rules::foundation_empire::position::{Options, PendingPlacement, Phase};

    /// A placement phase on a generated board: fleets on a third of the sectors,
    /// placements due (some twice for one system), and lines naming a system and a
    /// sector, or a sector alone, valid or not.
    fn random_phase(seed: u64) -> (State, Submissions) {
        let mut dice = Dice::for_phase(seed, 0, "placement");
        let board = Arc::new(Board::generated(12, 9, 4));
        let mut state = State::new(board.clone(), Options::default());
        state.phase = Phase::Placement;
        state.turn = 3;
        for s in 0..board.len() as u32 {
            if dice.below(3) == 0 {
                state.fleets.push(Fleet {
                    power: PowerId(dice.below(4) as u8),
                    at: Sector(s),
                    stay: 1,
                    produced_by: None,
                });
            }
        }
        let systems: Vec<SystemId> = board.systems().map(|(id, _)| id).collect();
        for _ in 0..dice.below(40) + 10 {
            state.pending.push(PendingPlacement {
                power: PowerId(dice.below(4) as u8),
                system: systems[dice.below(systems.len() as u64) as usize],
            });
        }
        state.pending.sort();
        let mut orders = Submissions::new();
        for p in 0..4u8 {
            let mut text = String::new();
            for _ in 0..dice.below(30) {
                let system = systems[dice.below(systems.len() as u64) as usize];
                let near = board.neighbours(board.system(system).at);
                let at = near.as_slice()[dice.below(near.as_slice().len() as u64) as usize];
                let line = match dice.below(3) {
                    0 => format!("PLACE {}\n", board.name(at)),
                    1 => format!(
                        "PLACE {} {}\n",
                        board.name(board.system(system).at),
                        board.name(at)
                    ),
                    _ => format!("PLACE {} {}\n", board.name(at), board.name(at)),
                };
                text.push_str(&line);
            }
            orders.insert(PowerId(p), text);
        }
        (state, orders)
    }

    #[test]
    fn the_index_of_placements_agrees_with_looking_at_them_all() {
        let (mut placed, mut refused) = (0, 0);
        for seed in 0..200 {
            let (state, orders) = random_phase(seed);
            let indexed = adjudicate(&state, &orders);
            let scanned = adjudicate_with(&state, &orders, &Slots { by: None });
            assert_eq!(indexed.1, scanned.1, "seed {seed}");
            assert_eq!(indexed.0.fleets, scanned.0.fleets, "seed {seed}");
            let outcomes = indexed.1.results.iter().map(|r| r.outcome);
            placed += outcomes.clone().filter(|o| *o == Outcome::Placed).count();
            refused += outcomes.filter(|o| *o == Outcome::Invalid).count();
        }
        // Both placed and refused lines were met, many times.
        assert!(
            placed > 1000 && refused > 1000,
            "{placed} placed, {refused} refused"
        );
    }

    /// A placement scenario for the Foundation: fleets on Daribow (C3) and Rossem (C4),
    /// a new fleet due for each; `owned`: more lines of `[systems]`, `more`: more lines
    /// after (fleets, placements).
    fn due(owned: &str, more: &str) -> State {
        let text = format!(
            "rules = \"foundation-empire\"\nphase = \"placement\"\nturn = 6\n\
             [systems]\nRossem = \"foundation\"\nDaribow = \"foundation\"\n{owned}\
             [[fleet]]\npower = \"foundation\"\nat = \"C4\"\nstay = 4\n\
             [[fleet]]\npower = \"foundation\"\nat = \"C3\"\nstay = 4\n\
             [[pending_placement]]\npower = \"foundation\"\nsystem = \"Rossem\"\n\
             [[pending_placement]]\npower = \"foundation\"\nsystem = \"Daribow\"\n{more}"
        );
        crate::rules::foundation_empire::scenario::Scenario::from_toml(
            &text,
            std::path::Path::new("."),
        )
        .expect("the scenario reads")
        .state
    }

    /// What a placement receipt says under the orders standing: the new fleets due,
    /// how many the orders place, and where the deadline places the others (R8.4: the
    /// first empty sector next to the system, in reading order, leaving out the sectors
    /// the power's other placements take), or that one is lost, no sector being left.
    #[test]
    fn a_placement_receipt_counts_the_fleets_due_placed_and_left() {
        let state = due("", "");
        let notes = |orders: &str| receipt_notes(&state, PowerId(0), orders).join("\n");
        assert_eq!(
            notes(""),
            "New fleets to place: 2 (for Daribow and Rossem). No placement is ordered yet. Without orders by the deadline, each fleet left goes to the first empty sector next to its system: B2 for Daribow and B3 for Rossem."
        );
        assert_eq!(
            notes("PLACE Rossem D5"),
            "New fleets to place: 2 (for Daribow and Rossem). Your orders place 1. Without an order by the deadline, the fleet for Daribow goes to B2, the first empty sector next to it."
        );
        // The sector the orders take is left out of the default for the other.
        assert_eq!(
            notes("PLACE Daribow B3"),
            "New fleets to place: 2 (for Daribow and Rossem). Your orders place 1. Without an order by the deadline, the fleet for Rossem goes to D3, the first empty sector next to it."
        );
        assert_eq!(
            notes("PLACE Rossem D5\nPLACE Daribow D3"),
            "New fleets to place: 2 (for Daribow and Rossem). Your orders place 2: nothing is left to order."
        );
        // A refused line counts for nothing; a second placement on one sector is
        // refused (R8.6), and that fleet goes where the default puts it.
        assert_eq!(
            notes("PLACE Rossem C3\nPLACE Rossem D4\nPLACE Daribow D4"),
            "New fleets to place: 2 (for Daribow and Rossem). Your orders place 1. Without an order by the deadline, the fleet for Daribow goes to B2, the first empty sector next to it."
        );
        // A power with nothing to place is told nothing.
        assert!(receipt_notes(&state, PowerId(1), "").is_empty());

        // Terminus (A1) hemmed in: its fleet is lost.
        let state = due(
            "Terminus = \"foundation\"\n",
            "[[fleet]]\npower = \"imperium\"\nat = \"A2\"\n\
             [[fleet]]\npower = \"imperium\"\nat = \"B1\"\n\
             [[fleet]]\npower = \"imperium\"\nat = \"B2\"\n\
             [[fleet]]\npower = \"foundation\"\nat = \"A1\"\nstay = 4\n\
             [[pending_placement]]\npower = \"foundation\"\nsystem = \"Terminus\"\n",
        );
        let notes = |orders: &str| receipt_notes(&state, PowerId(0), orders).join("\n");
        assert_eq!(
            notes("PLACE Daribow D3\nPLACE Rossem D5"),
            "New fleets to place: 3 (for Terminus, Daribow and Rossem). Your orders place 2. The fleet for Terminus is lost: no empty sector is left next to it."
        );
    }

    #[test]
    fn a_receipt_outside_a_placement_phase_says_nothing() {
        let mut state = due("", "");
        state.phase = Phase::Movement;
        assert!(receipt_notes(&state, PowerId(0), "").is_empty());
    }
}
