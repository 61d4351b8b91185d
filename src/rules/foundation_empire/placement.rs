//! The placement phase (R8.4, R8.6): new fleets earned by occupation are placed.

use std::collections::HashMap;
use std::num::NonZeroU32;

use super::board::{PowerId, Sector};
use super::check::{self, Checker, Chosen};
use super::outcome::{Detail, Invalid, LostPlacement, OrderResult, OrderText, Outcome, Report};
use super::position::{Fleet, State, NO_FLEET};
use super::syntax::Syntax;
use super::turn::{self, placement_sectors};
use super::Submissions;

pub(super) fn adjudicate(state: &State, orders: &Submissions) -> (State, Report) {
    let mut report = Report::default();
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
        |power, syntax, chosen| check_line(&checker, power, syntax, chosen),
        &mut report.results,
    );
    // NMR: the first empty sector next to the system that this power has not chosen.
    let mut picks: Vec<Option<(Sector, bool)>> =
        chosen.iter().map(|c| c.map(|(s, _)| (s, false))).collect();
    let lines: Vec<Option<NonZeroU32>> = chosen.iter().map(|c| c.map(|(_, w)| w.number)).collect();
    for slot in 0..picks.len() {
        if picks[slot].is_some() {
            continue;
        }
        let p = state.pending[slot];
        let taken = |s: &Sector| {
            picks
                .iter()
                .zip(&state.pending)
                .any(|(pick, q)| q.power == p.power && pick.is_some_and(|(t, _)| t == *s))
        };
        let free = placement_sectors(state, &occupancy, p.system)
            .into_iter()
            .find(|s| !taken(s));
        picks[slot] = free.map(|s| (s, true));
    }
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
                let why = format!("no empty sector left next to {system}");
                report.lost_placements.push(LostPlacement {
                    power: p.power,
                    system: p.system,
                    why: why.clone(),
                });
                (format!("PLACE {system}"), Outcome::Destroyed, why, true)
            }
            Some((at, default)) if claims[&at] > 1 => {
                let why = format!("another power placed in {} too: both lost", board.name(at));
                report.lost_placements.push(LostPlacement {
                    power: p.power,
                    system: p.system,
                    why: why.clone(),
                });
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

/// Checks a `PLACE` line; returns the pending slot it fills and the sector.
fn check_line(
    checker: &Checker,
    power: PowerId,
    syntax: &Result<Syntax, String>,
    chosen: &[Chosen<Sector>],
) -> Result<(usize, Sector), Invalid> {
    let syntax = syntax
        .as_ref()
        .map_err(|e| Invalid::Unparseable(e.clone()))?;
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
    let mine = |slot: &usize| state.pending[*slot].power == power;
    let slot = match system {
        Some(word) => {
            let sys_sector = checker.sector(word)?;
            let sys = board
                .system_at(sys_sector)
                .ok_or_else(|| Invalid::NotMajorSystem(checker.name(sys_sector)))?;
            let slot = (0..state.pending.len())
                .filter(mine)
                .find(|&k| state.pending[k].system == sys)
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
            let near =
                |k: &usize| board.adjacent(board.system(state.pending[*k].system).at, sector);
            let candidates: Vec<usize> =
                (0..state.pending.len()).filter(mine).filter(near).collect();
            if candidates.is_empty() {
                return Err(Invalid::NoPendingPlacement(format!(
                    "any system next to {name}"
                )));
            }
            candidates
                .iter()
                .copied()
                .find(|&k| chosen[k].is_none())
                .unwrap_or(candidates[0])
        }
    };
    if checker.occupancy[sector.0 as usize] != NO_FLEET {
        return Err(Invalid::SectorOccupied(name));
    }
    let taken_by_other_slot = (0..state.pending.len())
        .filter(mine)
        .any(|k| k != slot && chosen[k].is_some_and(|(s, _)| s == sector));
    if taken_by_other_slot {
        return Err(Invalid::AlreadyChosen(name));
    }
    Ok((slot, sector))
}
