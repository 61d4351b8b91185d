//! Politics and the victory check (B9).

use super::state::{Phase, State};
use super::types::{region_name, Power};
use super::Run;

/// After the last region is resolved (B9.1): Tactical markers go; the Chaos Index
/// gains the Political values of the regions blue controls and loses those of the
/// regions red controls.
pub fn politics(run: &mut Run) {
    for u in &mut run.state.units {
        u.marker = None;
        u.hits = 0;
    }
    let before = run.state.chaos;
    let mut parts = Vec::new();
    for p in Power::BOTH {
        let regions: Vec<u8> = run.state.controlled(p).collect();
        let points: i64 = regions
            .iter()
            .map(|&r| i64::from(run.state.regions[usize::from(r)].political))
            .sum();
        run.state.chaos += match p {
            Power::Blue => points,
            Power::Red => -points,
        };
        let names: Vec<&str> = regions.iter().map(|&r| region_name(r)).collect();
        parts.push(format!(
            "{p} {}{points} ({})",
            if p == Power::Blue { "+" } else { "-" },
            if names.is_empty() {
                "no region".to_string()
            } else {
                names.join(", ")
            }
        ));
    }
    run.log.event(
        "B9.1",
        format!(
            "politics: {}; the Chaos Index goes from {before} to {}",
            parts.join(", "),
            run.state.chaos
        ),
    );
}

/// The victory check at the end of the turn (B9.2): red wins at or below the low
/// level, blue at or above the high one; else the Build phase follows.
pub fn victory(run: &mut Run) {
    let (low, high) = State::victory_levels(run.state.turn);
    let chaos = run.state.chaos;
    let winner = if chaos <= low {
        Some(Power::Red)
    } else if chaos >= high {
        Some(Power::Blue)
    } else {
        None
    };
    match winner {
        Some(p) => {
            run.state.winner = Some(p);
            run.state.phase = Phase::Over;
            run.log.event(
                "B9.2",
                format!(
                    "end of turn {}: the Chaos Index is {chaos} ({}): {p} wins",
                    run.state.turn,
                    if p == Power::Red {
                        format!("at or below {low}")
                    } else {
                        format!("at or above {high}")
                    }
                ),
            );
        }
        None => {
            run.state.phase = Phase::Build;
            run.log.event(
                "B9.2",
                format!(
                    "end of turn {}: the Chaos Index is {chaos}: no winner (red needs {low} or less, blue {high} or more)",
                    run.state.turn
                ),
            );
        }
    }
}
