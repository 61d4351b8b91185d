//! The setup phase (R7, R10.1): starting fleets placed on home systems.

use super::board::{PowerId, Sector, SystemId};
use super::check::{self, Checker};
use super::outcome::{line_number, Detail, Invalid, OrderResult, OrderText, Outcome, Report};
use super::position::{Fleet, State};
use super::syntax::{self, Syntax};
use super::{turn, Submissions};
use crate::dice::Dice;

pub(super) fn adjudicate(state: &State, orders: &Submissions, dice: &mut Dice) -> (State, Report) {
    let mut report = Report::default();
    let occupancy = state.occupancy();
    let checker = Checker {
        state,
        occupancy: &occupancy,
    };
    let mut next = state.clone();
    let limit = state.options.start_fleets;
    for power in state.powers_in_play() {
        if Some(power) == state.judge_power() {
            continue;
        }
        let mut chosen: Vec<SystemId> = Vec::new();
        let mut lines: Vec<u32> = Vec::new();
        let text = orders.get(&power).map(String::as_str).unwrap_or("");
        for line in syntax::lines(text) {
            match check_line(&checker, power, &line.syntax, &chosen, limit) {
                Ok(system) => {
                    chosen.push(system);
                    lines.push(line.written.number);
                }
                Err(why) => {
                    let why = check::chatter(&checker, &line).unwrap_or(why);
                    let sector = check::line_sector(&checker, &line.syntax);
                    report
                        .results
                        .push(check::refused(power, sector, line.written, &why));
                }
            }
        }
        let written = chosen.len();
        // R7.3: missing fleets go to the first free home systems in reading order.
        let free: Vec<SystemId> = home_systems(state, power)
            .filter(|s| !chosen.contains(s))
            .collect();
        for s in free {
            if chosen.len() as u32 >= limit {
                break;
            }
            chosen.push(s);
        }
        for (k, &system) in chosen.iter().enumerate() {
            let at = state.board.system(system).at;
            next.owners[system.0 as usize] = Some(power);
            next.fleets.push(Fleet {
                power,
                at,
                stay: 0,
                produced_by: None,
            });
            let default = k >= written;
            let name = &state.board.system(system).name;
            report.results.push(OrderResult {
                power,
                sector: Some(at),
                order: OrderText::text(format!("PLACE {}", state.board.name(at))),
                outcome: Outcome::Placed,
                detail: Detail::Text(
                    if default {
                        format!("no order: placed on {name}, the first free home system")
                    } else {
                        format!("placed on {name}")
                    }
                    .into(),
                ),
                default,
                line: lines.get(k).copied().and_then(line_number),
            });
        }
    }
    if let Some(imperium) = state.judge_power() {
        place_imperium(state, imperium, dice, &mut next, &mut report);
    }
    next.sort_fleets();
    next.turn = 0;
    turn::start_next_turn(&mut next);
    (next, report)
}

fn home_systems(state: &State, power: PowerId) -> impl Iterator<Item = SystemId> + '_ {
    state
        .board
        .home_sectors(power)
        .filter_map(|s| state.board.system_at(s))
}

fn check_line(
    checker: &Checker,
    power: PowerId,
    syntax: &Result<Syntax, String>,
    chosen: &[SystemId],
    limit: u32,
) -> Result<SystemId, Invalid> {
    let syntax = syntax.as_ref().map_err(|_| {
        Invalid::Unparseable("setup orders read PLACE <system>, e.g. PLACE Terminus".into())
    })?;
    let at = match *syntax {
        Syntax::Place { system: None, at } => at,
        Syntax::Place {
            system: Some(_), ..
        } => {
            return Err(Invalid::Unparseable(
                "in the setup phase write PLACE <system>".into(),
            ))
        }
        ref other => {
            return Err(Invalid::WrongPhase {
                order: check::kind(other),
                phase: "setup",
            })
        }
    };
    let sector = checker.sector(at)?;
    let name = checker.name(sector);
    let board = &checker.state.board;
    let system = board
        .system_at(sector)
        .ok_or_else(|| Invalid::NotMajorSystem(name.clone()))?;
    if board.home_power(sector) != Some(power) {
        return Err(Invalid::NotInHomeQuadrant(name));
    }
    if chosen.contains(&system) {
        return Err(Invalid::AlreadyChosen(name));
    }
    if chosen.len() as u32 >= limit {
        return Err(Invalid::TooManyFleets(limit));
    }
    Ok(system)
}

/// R10.1: the Imperium owns every major system of the other quadrants, and its
/// fleets are shuffled among their sectors.
fn place_imperium(
    state: &State,
    imperium: PowerId,
    dice: &mut Dice,
    next: &mut State,
    report: &mut Report,
) {
    let human = state.human();
    let mut sectors: Vec<Sector> = state
        .board
        .powers()
        .filter(|(p, _)| Some(*p) != human)
        .flat_map(|(p, _)| state.board.home_sectors(p))
        .collect();
    sectors.sort();
    // Owned from the start (a scenario may begin its setup without them).
    next.give_the_imperium_its_quadrants();
    dice.shuffle(&mut sectors);
    sectors.truncate(state.options.solo_imperium_fleets as usize);
    sectors.sort();
    for at in sectors {
        next.fleets.push(Fleet {
            power: imperium,
            at,
            stay: 0,
            produced_by: None,
        });
        report.results.push(OrderResult {
            power: imperium,
            sector: Some(at),
            order: OrderText::text(format!("PLACE {}", state.board.name(at))),
            outcome: Outcome::Placed,
            detail: Detail::Text("placed at random (R10.1)".into()),
            default: true,
            line: None,
        });
    }
}
