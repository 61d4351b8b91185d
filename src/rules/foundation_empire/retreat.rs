//! The retreat phase (R6): dislodged fleets retreat, clash, or are destroyed.

use std::collections::HashMap;
use std::num::NonZeroU32;

use super::board::{PowerId, Sector};
use super::check::{self, Checker, Chosen};
use super::movement::retreats;
use super::outcome::{Destroyed, Detail, Invalid, Loss, OrderResult, OrderText, Outcome, Report};
use super::position::{State, NO_FLEET};
use super::syntax::Syntax;
use super::{turn, Submissions};

/// Where a dislodged fleet goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    To(Sector),
    Disband,
}

pub(super) fn adjudicate(state: &State, orders: &Submissions) -> (State, Report) {
    let mut report = Report::default();
    let occupancy = state.occupancy();
    let checker = Checker {
        state,
        occupancy: &occupancy,
    };
    let options: Vec<Vec<Sector>> = state
        .dislodged
        .iter()
        .map(|d| retreats(state, &occupancy, d))
        .collect();
    let mut chosen: Vec<Chosen<Choice>> = vec![None; state.dislodged.len()];
    check::read_into_slots(
        &checker,
        orders,
        &mut chosen,
        |i| state.dislodged[i].fleet.at,
        |power, syntax, _| check_line(&checker, &options, power, syntax),
        &mut report.results,
    );
    // R6.4: no valid order → the first legal sector in reading order.
    let choices: Vec<(Choice, Option<NonZeroU32>)> = chosen
        .iter()
        .zip(&options)
        .map(|(c, opts)| match c {
            Some((choice, w)) => (*choice, Some(w.number)),
            None => (Choice::To(opts[0]), None),
        })
        .collect();
    let mut arrivals: HashMap<Sector, u32> = HashMap::new();
    for (choice, _) in &choices {
        if let Choice::To(s) = choice {
            *arrivals.entry(*s).or_default() += 1;
        }
    }
    let mut next = state.clone();
    let name = |s: Sector| state.board.name(s);
    for (d, &(choice, line)) in state.dislodged.iter().zip(&choices) {
        let default = line.is_none();
        let at = d.fleet.at;
        let mut lost = |why: Loss| {
            report.destroyed.push(Destroyed {
                power: d.fleet.power,
                at,
                why,
            });
            why.text(&state.board)
        };
        let (order, outcome, mut detail) = match choice {
            Choice::Disband => (
                format!("{} DISBAND", name(at)),
                Outcome::Destroyed,
                lost(Loss::Disbanded),
            ),
            Choice::To(to) if arrivals[&to] > 1 => (
                format!("{} R {}", name(at), name(to)),
                Outcome::Destroyed,
                lost(Loss::SharedRetreat(to)),
            ),
            Choice::To(to) => {
                let mut fleet = d.fleet;
                fleet.at = to;
                fleet.stay = 1;
                next.fleets.push(fleet);
                (
                    format!("{} R {}", name(at), name(to)),
                    Outcome::Retreated,
                    format!("retreated to {}", name(to)),
                )
            }
        };
        if default && state.judge_power() != Some(d.fleet.power) {
            detail = format!("no valid retreat order: first legal sector; {detail}");
        }
        report.results.push(OrderResult {
            power: d.fleet.power,
            sector: Some(at),
            order: OrderText::text(order),
            outcome,
            detail: Detail::Text(detail.into()),
            default,
            line,
        });
    }
    next.dislodged.clear();
    next.sort_fleets();
    turn::end(&state.present_powers(), &mut next, &mut report);
    (next, report)
}

fn check_line(
    checker: &Checker,
    options: &[Vec<Sector>],
    power: PowerId,
    syntax: &Result<Syntax, String>,
) -> Result<(usize, Choice), Invalid> {
    let syntax = syntax.as_ref().map_err(|_| {
        Invalid::Unparseable(
            "retreat orders read <sector> R <sector> or <sector> DISBAND, e.g. C3 R D4".into(),
        )
    })?;
    let (fleet, to) = match *syntax {
        Syntax::Retreat { fleet, to } | Syntax::Move { fleet, to } => (fleet, Some(to)),
        Syntax::Disband { fleet } => (fleet, None),
        ref other => {
            return Err(Invalid::WrongPhase {
                order: check::kind(other),
                phase: "retreat",
            })
        }
    };
    let state = checker.state;
    let at = checker.sector(fleet)?;
    let i = state
        .dislodged
        .iter()
        .position(|d| d.fleet.at == at && d.fleet.power == power)
        .ok_or_else(|| Invalid::NotDislodged(checker.name(at)))?;
    let Some(to) = to else {
        return Ok((i, Choice::Disband));
    };
    let to = checker.destination(at, to)?;
    if options[i].contains(&to) {
        return Ok((i, Choice::To(to)));
    }
    let name = checker.name(to);
    Err(if checker.occupancy[to.0 as usize] != NO_FLEET {
        Invalid::RetreatOccupied(name)
    } else if to == state.dislodged[i].attacker_from {
        Invalid::RetreatToAttackerOrigin(name)
    } else {
        Invalid::RetreatToStandoff(name)
    })
}
