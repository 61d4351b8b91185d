//! The movement phase (R3–R6.2): orders checked, moves resolved, fleets dislodged.

use super::board::{PowerId, Sector};
use super::check::{self, Checker};
use super::outcome::{Destroyed, Invalid, OrderResult, Outcome, Report};
use super::position::{Dislodged, Phase, State, SupportMode, NO_FLEET};
use super::resolve::{self, defence, Act, Obstacle, Resolution};
use super::syntax::{self, Syntax, Written};
use super::{solo, turn, Submissions};
use crate::dice::Dice;

/// Each fleet's order as it will be carried out, and the line that gave it.
struct Plan<'t> {
    acts: Vec<Act>,
    /// `None` for a fleet with no valid order of its own (it holds by default, R3.1)
    /// or whose order the judge wrote (solo Imperium).
    given: Vec<Option<Written<'t>>>,
}

impl Plan<'_> {
    fn default(&self, fleet: usize) -> bool {
        self.given[fleet].is_none()
    }
}

pub(super) fn adjudicate(state: &State, orders: &Submissions, dice: &mut Dice) -> (State, Report) {
    let mut report = Report::default();
    let occupancy = state.occupancy();
    let checker = Checker {
        state,
        occupancy: &occupancy,
    };
    let mut plan = Plan {
        acts: vec![Act::Hold; state.fleets.len()],
        given: vec![None; state.fleets.len()],
    };
    if let Some(imperium) = state.judge_power() {
        for (fleet, act) in solo::imperium_orders(state, imperium, dice, &mut report.dice) {
            plan.acts[fleet] = act;
        }
    }
    for (&power, text) in orders {
        read_orders(&checker, power, text, &mut plan, &mut report.results);
    }
    let modes: Vec<SupportMode> = state
        .board
        .powers()
        .map(|(p, _)| {
            if Some(p) == state.judge_power() {
                SupportMode::Pooled
            } else {
                state.options.support
            }
        })
        .collect();
    let resolution = resolve::resolve(state, &plan.acts, &modes);
    for i in 0..state.fleets.len() {
        report
            .results
            .push(fleet_result(state, &plan, &resolution, i));
    }
    let next = after_movement(state, &plan.acts, &resolution, &mut report);
    (next, report)
}

/// Reads one power's submission into the plan; refused lines go straight to `results`.
fn read_orders<'t>(
    checker: &Checker,
    power: PowerId,
    text: &'t str,
    plan: &mut Plan<'t>,
    results: &mut Vec<OrderResult>,
) {
    for line in syntax::lines(text) {
        match check_line(checker, power, &line.syntax) {
            Ok((fleet, act)) => {
                if let Some(earlier) = plan.given[fleet] {
                    let at = checker.state.fleets[fleet].at;
                    results.push(check::refused(power, Some(at), earlier, &Invalid::Replaced));
                }
                plan.acts[fleet] = act;
                plan.given[fleet] = Some(line.written);
            }
            Err(why) => {
                let sector = check::line_sector(checker, &line.syntax);
                results.push(check::refused(power, sector, line.written, &why));
            }
        }
    }
}

fn check_line(
    checker: &Checker,
    power: PowerId,
    syntax: &Result<Syntax, String>,
) -> Result<(usize, Act), Invalid> {
    let syntax = syntax
        .as_ref()
        .map_err(|e| Invalid::Unparseable(e.clone()))?;
    match *syntax {
        Syntax::Hold { fleet } => Ok((checker.own_fleet(power, fleet)?, Act::Hold)),
        Syntax::Move { fleet, to } => {
            let i = checker.own_fleet(power, fleet)?;
            let to = checker.destination(checker.state.fleets[i].at, to)?;
            Ok((i, Act::Move(to)))
        }
        Syntax::Support { fleet, target } => {
            let i = checker.own_fleet(power, fleet)?;
            let target = match target {
                Some((from, to)) => Some((checker.sector(from)?, checker.sector(to)?)),
                None => None,
            };
            Ok((i, Act::Support(target)))
        }
        ref other => Err(Invalid::WrongPhase {
            order: check::kind(other),
            phase: "movement",
        }),
    }
}

/// An order in canonical form.
fn canonical(state: &State, at: Sector, act: Act) -> String {
    let name = |s| state.board.name(s);
    match act {
        Act::Hold => format!("{} H", name(at)),
        Act::Move(to) => format!("{} - {}", name(at), name(to)),
        Act::Support(None) => format!("{} S", name(at)),
        Act::Support(Some((from, to))) => {
            format!("{} S {} - {}", name(at), name(from), name(to))
        }
    }
}

/// The result of the order each fleet carried out.
fn fleet_result(state: &State, plan: &Plan, r: &Resolution, i: usize) -> OrderResult {
    let fleet = &state.fleets[i];
    let act = plan.acts[i];
    let name = |s: Sector| state.board.name(s);
    let at_of = |j: usize| name(state.fleets[j].at);
    let (outcome, detail) = if r.dislodged_by[i] != NO_FLEET {
        let by = r.dislodged_by[i] as usize;
        let attack = r.attack[by];
        let detail =
            if plan.acts[by] == Act::Move(fleet.at) && act == Act::Move(state.fleets[by].at) {
                format!(
                    "dislodged by {} in a head-to-head, {} vs {}",
                    at_of(by),
                    attack,
                    r.attack[i]
                )
            } else {
                format!(
                    "dislodged by {}, attack {} vs defence {}",
                    at_of(by),
                    attack,
                    defence(state, &r.occupancy, i)
                )
            };
        (Outcome::Dislodged, detail)
    } else {
        match act {
            Act::Hold => (
                Outcome::Held,
                format!("defence {}", defence(state, &r.occupancy, i)),
            ),
            Act::Support(_) => (
                Outcome::Supported,
                support_detail(state, &plan.acts, &r.occupancy, i),
            ),
            Act::Move(to) if r.moved[i] => {
                (Outcome::Moved, success_detail(state, &plan.acts, r, i, to))
            }
            Act::Move(_) => {
                let why = match r.obstacles[i] {
                    Some(Obstacle::Rival { from, power }) if power == r.attack[i] => {
                        format!(
                            "stand-off with {}, {} vs {}",
                            at_of(from),
                            r.attack[i],
                            power
                        )
                    }
                    Some(Obstacle::Rival { from, power }) => {
                        format!("beaten by {}, {} vs {}", at_of(from), r.attack[i], power)
                    }
                    Some(Obstacle::Swap { fleet: j }) if state.fleets[j].power == fleet.power => {
                        format!("own fleet in {} moving the other way", at_of(j))
                    }
                    Some(Obstacle::Swap { fleet: j }) => format!(
                        "head-to-head with {}, {} vs {}",
                        at_of(j),
                        r.attack[i],
                        r.attack[j]
                    ),
                    Some(Obstacle::OwnFleet { fleet: j }) => {
                        format!("own fleet stays in {}", at_of(j))
                    }
                    Some(Obstacle::Defence { fleet: j, power }) => format!(
                        "attack {} vs defence {} of {}",
                        r.attack[i],
                        power,
                        at_of(j)
                    ),
                    None => "bounced".to_string(),
                };
                (Outcome::Bounced, why)
            }
        }
    };
    let mut detail = detail;
    if plan.default(i) && state.judge_power() != Some(fleet.power) {
        detail = format!("no valid order: holds; {detail}");
    }
    OrderResult {
        power: fleet.power,
        sector: Some(fleet.at),
        order: canonical(state, fleet.at, act),
        outcome,
        detail,
        default: plan.default(i),
        line: plan.given[i].map(|w| w.number),
    }
}

fn success_detail(state: &State, acts: &[Act], r: &Resolution, i: usize, to: Sector) -> String {
    let beaten = match r.rivals[i] {
        Some(k) => format!(
            ", beating {} from {}",
            r.attack[k],
            state.board.name(state.fleets[k].at)
        ),
        None => String::new(),
    };
    let j = r.occupancy[to.0 as usize];
    if j == NO_FLEET || r.dislodged_by[j as usize] != i as u32 {
        let place = if j == NO_FLEET {
            "an empty"
        } else {
            "a vacated"
        };
        return format!("attack {} into {place} sector{beaten}", r.attack[i]);
    }
    let j = j as usize;
    if acts[j] == Act::Move(state.fleets[i].at) {
        return format!("head-to-head, {} vs {}{beaten}", r.attack[i], r.attack[j]);
    }
    format!(
        "attack {} vs defence {}{beaten}",
        r.attack[i],
        defence(state, &r.occupancy, j)
    )
}

fn support_detail(state: &State, acts: &[Act], occupancy: &[u32], i: usize) -> String {
    let fleet = &state.fleets[i];
    let Act::Support(target) = acts[i] else {
        return String::new();
    };
    let pooled =
        state.options.support == SupportMode::Pooled || state.judge_power() == Some(fleet.power);
    let power = &state.board.power(fleet.power).name;
    match (pooled, target) {
        (true, None) => format!("+1 to every move of {power}"),
        (true, Some(_)) => {
            format!("+1 to every move of {power} (pooled support: the named move has no effect)")
        }
        (false, None) => "names no move: no effect".to_string(),
        (false, Some((from, to))) => {
            let j = occupancy[from.0 as usize];
            let ordered = j != NO_FLEET && acts[j as usize] == Act::Move(to);
            let mv = format!("{} - {}", state.board.name(from), state.board.name(to));
            if ordered {
                format!("+1 to {mv}")
            } else {
                format!("{mv} was not ordered: no effect")
            }
        }
    }
}

/// The position after movement: fleets moved, stays counted (R8.1), dislodged fleets
/// set aside with their retreats or destroyed (R6.1–R6.2); then the retreat phase, or
/// the end of the turn.
fn after_movement(state: &State, acts: &[Act], r: &Resolution, report: &mut Report) -> State {
    let mut next = state.clone();
    next.fleets.clear();
    next.dislodged.clear();
    next.standoffs = r.standoffs.clone();
    for (i, fleet) in state.fleets.iter().enumerate() {
        let mut fleet = fleet.clone();
        if r.dislodged_by[i] != NO_FLEET {
            let attacker_from = state.fleets[r.dislodged_by[i] as usize].at;
            next.dislodged.push(Dislodged {
                fleet,
                attacker_from,
            });
            continue;
        }
        match acts[i] {
            Act::Move(to) if r.moved[i] => {
                fleet.at = to;
                fleet.stay = 1;
            }
            _ => fleet.stay = fleet.stay.saturating_add(1),
        }
        next.fleets.push(fleet);
    }
    next.sort_fleets();
    let occupancy = next.occupancy();
    let mut keep = Vec::new();
    for d in std::mem::take(&mut next.dislodged) {
        if retreats(&next, &occupancy, &d).is_empty() {
            report.destroyed.push(Destroyed {
                power: d.fleet.power,
                at: d.fleet.at,
                why: "dislodged with no retreat".into(),
            });
        } else {
            keep.push(d);
        }
    }
    next.dislodged = keep;
    let before = state.present_powers();
    if next.dislodged.is_empty() {
        next.standoffs.clear();
        turn::end(&before, &mut next, report);
    } else if !turn::eliminate(&before, &mut next, report) {
        next.phase = Phase::Retreat;
    }
    next
}

/// The legal retreats of a dislodged fleet, in reading order (R6.1).
pub fn retreats(state: &State, occupancy: &[u32], d: &Dislodged) -> Vec<Sector> {
    state
        .board
        .neighbours(d.fleet.at)
        .into_iter()
        .filter(|&s| {
            occupancy[s.0 as usize] == NO_FLEET
                && s != d.attacker_from
                && state.standoffs.binary_search(&s).is_err()
        })
        .collect()
}
