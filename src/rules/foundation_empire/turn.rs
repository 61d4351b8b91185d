//! The end of a turn, after movement or after retreats: occupation and capture (R8.2,
//! R8.3), new fleets due (R8.4), victory and elimination (R9), and the next phase.

use super::board::{PowerId, Sector, SystemId};
use super::outcome::{Capture, Destroyed, Loss, LostPlacement, NoPlace, Report};
use super::position::{PendingPlacement, Phase, State, NO_FLEET};

/// Ends the turn of `state`, whose fleets have all finished moving and retreating.
/// `before` are the powers present at the start of the phase that ends the turn.
pub(super) fn end(before: &[PowerId], state: &mut State, report: &mut Report) {
    state.dislodged.clear();
    state.standoffs.clear();
    occupy(state, report);
    if !victory(state) && !eliminate(before, state, report) {
        limit_or_next(state);
    }
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
    let mut disbanded = Vec::new();
    // Only a system taken from a power can disband fleets (R8.3): whom each system was
    // taken from, looked up by system (a turn may see thousands of captures).
    if captures.iter().any(|c| c.from.is_some()) {
        let mut taken_from: Vec<Option<PowerId>> = vec![None; state.board.system_count()];
        for c in &captures {
            taken_from[c.system.0 as usize] = c.from;
        }
        state.fleets.retain(|f| {
            let lost = f
                .produced_by
                .is_some_and(|s| taken_from[s.0 as usize] == Some(f.power));
            if lost {
                disbanded.push(Destroyed {
                    power: f.power,
                    at: f.at,
                    why: Loss::SystemTaken(f.produced_by.expect("produced")),
                });
            }
            !lost
        });
    }
    report.destroyed.extend(disbanded);
    report.captures.extend(captures);
    if state.pending.is_empty() {
        return;
    }
    let occupancy = state.occupancy();
    let mut due = Vec::new();
    for p in std::mem::take(&mut state.pending) {
        if placement_sectors(state, &occupancy, p.system).is_empty() {
            report.lost_placements.push(LostPlacement {
                power: p.power,
                system: p.system,
                why: NoPlace::NoEmptySector,
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

/// R9.2: the powers present in `before` with nothing left are eliminated; if that
/// leaves one power (or none), the game is over. Returns whether it is.
pub(super) fn eliminate(before: &[PowerId], state: &mut State, report: &mut Report) -> bool {
    let present = state.present_powers();
    let out: Vec<PowerId> = before
        .iter()
        .copied()
        .filter(|p| !present.contains(p))
        .collect();
    if out.is_empty() {
        return false;
    }
    report.eliminated.extend(&out);
    report.eliminated.sort();
    report.eliminated.dedup();
    if present.len() > 1 {
        return false;
    }
    game_over(state, present);
    true
}

/// R9.1: a power owning `victory_systems` systems wins; of several, the one owning
/// most; equal, a shared win. R10.4: in a solo game only the Foundation wins so (the
/// Imperium owns 18 systems from the start). Returns whether the game is over.
fn victory(state: &mut State) -> bool {
    let counts = state.system_counts();
    let judge = state.judge_power();
    let victors: Vec<PowerId> = state
        .board
        .powers()
        .map(|(p, _)| p)
        .filter(|&p| Some(p) != judge)
        .filter(|p| counts[p.0 as usize] >= state.options.victory_systems)
        .collect();
    if victors.is_empty() {
        return false;
    }
    let winners = most_systems(&counts, &victors);
    game_over(state, winners);
    true
}

/// R9.3, R10.4: after the last turn the power owning most systems wins (in a solo
/// game the Imperium, the Foundation not having won); otherwise the next phase.
fn limit_or_next(state: &mut State) {
    if state.options.turn_limit.is_some_and(|t| state.turn >= t) {
        let winners = match state.judge_power() {
            Some(imperium) => vec![imperium],
            None => most_systems(&state.system_counts(), &state.present_powers()),
        };
        game_over(state, winners);
    } else if !state.pending.is_empty() {
        state.phase = Phase::Placement;
    } else {
        start_next_turn(state);
    }
}

fn most_systems(counts: &[u32], among: &[PowerId]) -> Vec<PowerId> {
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
}

fn game_over(state: &mut State, winners: Vec<PowerId>) {
    state.winners = winners;
    state.phase = Phase::Over;
    state.pending.clear();
    state.dislodged.clear();
    state.standoffs.clear();
}

/// Moves on to the movement phase of the next turn.
pub(super) fn start_next_turn(state: &mut State) {
    state.turn = state.turn.saturating_add(1);
    state.phase = Phase::Movement;
    state.pending.clear();
}
