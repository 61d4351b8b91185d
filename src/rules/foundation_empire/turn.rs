//! The end of a turn, after movement or after retreats: occupation and capture (R8.2,
//! R8.3), new fleets due (R8.4), victory and elimination (R9), and the next phase.

use super::board::{PowerId, Sector, SystemId};
use super::outcome::{Capture, Destroyed, LostPlacement, Report};
use super::position::{PendingPlacement, Phase, State, NO_FLEET};

/// Ends the turn of `state`, whose fleets have all finished moving and retreating.
pub(super) fn end(state: &mut State, report: &mut Report) {
    state.dislodged.clear();
    state.standoffs.clear();
    occupy(state, report);
    decide(state, report);
}

/// R8.2–R8.3: every fleet that has ended its N-th turn on a system its power does not
/// own takes it. All captures of a turn happen together; then the fleets the taken
/// systems had produced for their previous owners are disbanded.
fn occupy(state: &mut State, report: &mut Report) {
    let needed = state.options.occupation_turns;
    let captures: Vec<Capture> = state
        .fleets
        .iter()
        .filter(|f| f.stay >= needed)
        .filter_map(|f| {
            let system = state.board.system_at(f.at)?;
            let from = state.owners[system.0 as usize];
            (from != Some(f.power)).then_some(Capture {
                system,
                power: f.power,
                from,
            })
        })
        .collect();
    for c in &captures {
        state.owners[c.system.0 as usize] = Some(c.power);
        state.pending.push(PendingPlacement {
            power: c.power,
            system: c.system,
        });
    }
    let name = |s: SystemId| state.board.system(s).name.clone();
    let mut disbanded = Vec::new();
    state.fleets.retain(|f| {
        let lost = f.produced_by.is_some_and(|s| {
            captures
                .iter()
                .any(|c| c.system == s && c.from == Some(f.power))
        });
        if lost {
            disbanded.push(Destroyed {
                power: f.power,
                at: f.at,
                why: format!(
                    "disbanded: {} was taken",
                    name(f.produced_by.expect("produced"))
                ),
            });
        }
        !lost
    });
    report.destroyed.extend(disbanded);
    report.captures.extend(captures);
    let occupancy = state.occupancy();
    let mut due = Vec::new();
    for p in std::mem::take(&mut state.pending) {
        if placement_sectors(state, &occupancy, p.system).is_empty() {
            report.lost_placements.push(LostPlacement {
                power: p.power,
                system: p.system,
                why: format!("no empty sector next to {}", name(p.system)),
            });
        } else {
            due.push(p);
        }
    }
    due.sort_by_key(|p| (p.power, p.system));
    state.pending = due;
}

/// The empty sectors next to a system, where its new fleet may be placed (R8.4).
pub fn placement_sectors(state: &State, occupancy: &[u32], system: SystemId) -> Vec<Sector> {
    let at = state.board.system(system).at;
    state
        .board
        .neighbours(at)
        .into_iter()
        .filter(|s| occupancy[s.0 as usize] == NO_FLEET)
        .collect()
}

/// The powers in play that are out of the game: no fleets and no systems (R9.2).
pub fn eliminated(state: &State) -> Vec<PowerId> {
    let counts = state.system_counts();
    state
        .powers_in_play()
        .into_iter()
        .filter(|&p| counts[p.0 as usize] == 0 && !state.fleets.iter().any(|f| f.power == p))
        .collect()
}

/// R9.1–R9.3, R10.4: whether the game is over and who won; then the next phase.
fn decide(state: &mut State, report: &mut Report) {
    let counts = state.system_counts();
    let in_play = state.powers_in_play();
    let out = eliminated(state);
    report.eliminated = out.clone();
    let remaining: Vec<PowerId> = in_play
        .iter()
        .copied()
        .filter(|p| !out.contains(p))
        .collect();
    let most = |among: &[PowerId]| -> Vec<PowerId> {
        let best = among
            .iter()
            .map(|p| counts[p.0 as usize])
            .max()
            .unwrap_or(0);
        among
            .iter()
            .copied()
            .filter(|p| counts[p.0 as usize] == best)
            .collect()
    };
    let victors: Vec<PowerId> = in_play
        .iter()
        .copied()
        .filter(|p| counts[p.0 as usize] >= state.options.victory_systems)
        .collect();
    let at_limit = state.options.turn_limit.is_some_and(|t| state.turn >= t);
    let winners = if !victors.is_empty() {
        Some(most(&victors))
    } else if remaining.len() <= 1 {
        Some(remaining)
    } else if at_limit {
        match state.judge_power() {
            // R10.4: at the turn limit the Imperium wins unless the Foundation has.
            Some(imperium) => Some(vec![imperium]),
            None => Some(most(&remaining)),
        }
    } else {
        None
    };
    match winners {
        Some(w) => {
            state.winners = w;
            state.phase = Phase::Over;
            state.pending.clear();
        }
        None if !state.pending.is_empty() => state.phase = Phase::Placement,
        None => start_next_turn(state),
    }
}

/// Moves on to the movement phase of the next turn.
pub(super) fn start_next_turn(state: &mut State) {
    state.turn += 1;
    state.phase = Phase::Movement;
    state.pending.clear();
}
