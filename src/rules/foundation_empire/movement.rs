//! The movement phase (R3–R6.2): orders checked, moves resolved, fleets dislodged.

use super::board::{PowerId, Sector};
use super::check::{self, Checker, Chosen};
use super::outcome::{
    grouped, merge_results, Against, Bounce, Destroyed, Detail, Invalid, Loss, OrderResult,
    OrderText, Outcome, Report,
};
use super::position::{Dislodged, Phase, State, SupportMode, NO_FLEET};
use super::resolve::{self, Act, Obstacle, Positions, Resolution};
use super::syntax::Syntax;
use super::{solo, turn, Submissions};
use crate::dice::Dice;

/// Each fleet's order as it will be carried out, and the line that gave it.
struct Plan {
    acts: Vec<Act>,
    /// `None` for a fleet with no valid order of its own (it holds by default, R3.1)
    /// or whose order the judge wrote (solo Imperium). The order itself is in `acts`,
    /// written there when its line is accepted.
    given: Vec<Chosen<()>>,
}

impl Plan {
    fn default(&self, fleet: usize) -> bool {
        self.given[fleet].is_none()
    }
}

/// Adjudicates a movement phase; `mark` is told the name of each stage as it ends (see
/// [`super::adjudicate_marked`]).
pub(super) fn adjudicate(
    state: &State,
    orders: &Submissions,
    dice: &mut Dice,
    mark: &mut dyn FnMut(&'static str),
) -> (State, Report) {
    let mut report = Report::default();
    let positions = Positions::of(state);
    let checker = Checker {
        state,
        occupancy: &positions.occ,
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
    mark("position tables, plan");
    let acts = &mut plan.acts;
    check::read_into_slots(
        &checker,
        orders,
        &mut plan.given,
        |fleet| state.fleets[fleet].at,
        |power, syntax, _| {
            let (fleet, act) = check_line(&checker, &positions.owner, power, syntax)?;
            acts[fleet] = act;
            Ok((fleet, ()))
        },
        &mut report.results,
    );
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
    mark("orders read and checked");
    let mut resolution = resolve::resolve(state, &plan.acts, &modes, positions);
    mark("resolution");
    // One result per fleet, in the report's canonical order (power, then sector): the
    // results are laid out once, each power's fleets in a block of their own, and one
    // pass over the fleets (in sector order) fills the blocks; then the lines refused
    // while reading are merged in.
    let refused = std::mem::take(&mut report.results);
    let powers = resolution.powers();
    let mut results = grouped(
        powers.len(),
        state.board.powers().len(),
        |i| powers[i].0 as usize,
        |i| fleet_result(state, &plan, &resolution, i),
        refused.len(),
    );
    merge_results(&mut results, refused);
    report.results = results;
    mark("results");
    let table = resolution.take_occupancy();
    let next = after_movement(state, &plan.acts, &resolution, table, &mut report);
    mark("position after movement");
    (next, report)
}

fn check_line(
    checker: &Checker,
    owner: &[u8],
    power: PowerId,
    syntax: &Result<Syntax, String>,
) -> Result<(usize, Act), Invalid> {
    let syntax = syntax
        .as_ref()
        .map_err(|e| Invalid::Unparseable(e.clone()))?;
    match *syntax {
        Syntax::Hold { fleet } => Ok((checker.own_fleet(owner, power, fleet)?.0, Act::Hold)),
        Syntax::Move { fleet, to } => {
            let (i, at) = checker.own_fleet(owner, power, fleet)?;
            let to = checker.destination(at, to)?;
            Ok((i, Act::Move(to)))
        }
        Syntax::Support { fleet, target } => {
            let (i, _) = checker.own_fleet(owner, power, fleet)?;
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

/// The result of the order each fleet carried out.
fn fleet_result(state: &State, plan: &Plan, r: &Resolution, i: usize) -> OrderResult {
    let (at, power) = (r.at(i), r.power(i));
    let act = plan.acts[i];
    let at_of = |j: usize| r.at(j);
    let (outcome, detail) = if r.dislodged_by[i] != NO_FLEET {
        let by = r.dislodged_by[i] as usize;
        let head_to_head = plan.acts[by] == Act::Move(at) && act == Act::Move(r.at(by));
        let against = if head_to_head {
            r.attack(i)
        } else {
            r.defence(i)
        };
        let detail = Detail::Dislodged {
            by: at_of(by),
            attack: r.attack(by),
            against,
            head_to_head,
        };
        (Outcome::Dislodged, detail)
    } else {
        match act {
            Act::Hold => (
                Outcome::Held,
                Detail::Held {
                    defence: r.defence(i),
                    no_order: plan.default(i) && state.judge_power() != Some(power),
                },
            ),
            Act::Support(target) => (
                Outcome::Supported,
                support_detail(state, &plan.acts, r, i, target),
            ),
            Act::Move(to) if r.moved[i] => (Outcome::Moved, success_detail(&plan.acts, r, i, to)),
            Act::Move(_) => {
                let why = match r.obstacle(i).expect("a failed move has an obstacle") {
                    Obstacle::Rival { from, power } if power == r.attack(i) => {
                        Bounce::StandOff { from: at_of(from) }
                    }
                    Obstacle::Rival { from, power } => Bounce::Beaten {
                        from: at_of(from),
                        power,
                    },
                    Obstacle::Swap { fleet: j } if r.power(j) == power => {
                        Bounce::OwnSwap { at: at_of(j) }
                    }
                    Obstacle::Swap { fleet: j } => Bounce::HeadToHead {
                        at: at_of(j),
                        power: r.attack(j),
                    },
                    Obstacle::OwnFleet { fleet: j } => Bounce::OwnFleet { at: at_of(j) },
                    Obstacle::Defence { fleet: j, power } => Bounce::Defence {
                        at: at_of(j),
                        power,
                    },
                };
                let attack = r.attack(i);
                (Outcome::Bounced, Detail::Bounced { attack, why })
            }
        }
    };
    OrderResult {
        power,
        sector: Some(at),
        order: OrderText::Fleet(at, act),
        outcome,
        detail,
        default: plan.default(i),
        line: plan.given[i].map(|(_, w)| w.number),
    }
}

fn success_detail(acts: &[Act], r: &Resolution, i: usize, to: Sector) -> Detail {
    let rival = r.rival(i).map(|k| (r.attack(k), r.at(k)));
    let attack = r.attack(i);
    let j = r.occupancy()[to.0 as usize];
    let against = if j == NO_FLEET {
        Against::Empty
    } else if r.dislodged_by[j as usize] != i as u32 {
        Against::Vacated
    } else if acts[j as usize] == Act::Move(r.at(i)) {
        Against::HeadToHead(r.attack(j as usize))
    } else {
        Against::Defence(r.defence(j as usize))
    };
    Detail::Moved {
        attack,
        against,
        rival,
    }
}

fn support_detail(
    state: &State,
    acts: &[Act],
    r: &Resolution,
    i: usize,
    target: Option<(Sector, Sector)>,
) -> Detail {
    let power = r.power(i);
    let pooled = state.options.support == SupportMode::Pooled || state.judge_power() == Some(power);
    match (pooled, target) {
        (true, named) => Detail::PooledSupport {
            power,
            named: named.is_some(),
        },
        (false, None) => Detail::SupportNamesNothing,
        (false, Some((from, to))) => {
            let j = r.occupancy()[from.0 as usize];
            let counted = j != NO_FLEET && acts[j as usize] == Act::Move(to);
            Detail::TargetedSupport { from, to, counted }
        }
    }
}

/// The position after movement: fleets moved, stays counted (R8.1), dislodged fleets
/// set aside with their retreats or destroyed (R6.1–R6.2); then the retreat phase, or
/// the end of the turn.
/// `table` is the occupancy at the start of the turn, no longer needed: on a dense
/// board it is rewritten into the occupancy after movement.
fn after_movement(
    state: &State,
    acts: &[Act],
    r: &Resolution,
    table: Vec<u32>,
    report: &mut Report,
) -> State {
    let mut next = state.without_fleets();
    next.dislodged.clear();
    next.standoffs = r.standoffs.clone();
    let n = state.fleets.len();
    let kept = |i: usize| r.dislodged_by[i] == NO_FLEET;
    // A fleet that is not dislodged, where it ends the movement.
    let after = |i: usize| {
        let mut fleet = state.fleets[i];
        match acts[i] {
            Act::Move(to) if r.moved[i] => {
                fleet.at = to;
                fleet.stay = 1;
            }
            _ => fleet.stay = fleet.stay.saturating_add(1),
        }
        fleet
    };
    // A dislodged fleet, set aside with where its attacker came from.
    let dislodged = |i: usize| Dislodged {
        fleet: state.fleets[i],
        attacker_from: r.at(r.dislodged_by[i] as usize),
    };
    // The fleets in sector order: on a board not much larger than the fleets, placed by
    // sector in one pass over it (no sort), and that table then tells who stands where
    // (for the retreats); on a sparse board, sorted.
    let sectors = state.board.len();
    let mut occupancy = Vec::new();
    let mut placed = false;
    if n >= 64 && sectors <= 8 * n {
        // `table` holds who stood in each sector at the start of the turn; one pass
        // over the sectors replaces each entry by the index in `next.fleets` of the
        // fleet that ends the movement there: the one that was there if it neither
        // moved nor was dislodged, else the one whose move into the sector succeeded.
        // The dislodged fleets are set aside as the pass reaches their sectors, their
        // records read while the fleets around them are read anyway (read on their
        // own, a phase of 100,000 fleets finds them long gone from the cache).
        let mut by_sector = table;
        by_sector.resize(sectors, NO_FLEET);
        next.dislodged.reserve(r.dislodged);
        let mut in_order = true;
        let mut last_dislodged = 0;
        for (s, slot) in by_sector.iter_mut().enumerate() {
            let mut ends = None;
            if *slot != NO_FLEET {
                let j = *slot as usize;
                if !kept(j) {
                    in_order &= next.dislodged.is_empty() || last_dislodged < j;
                    last_dislodged = j;
                    next.dislodged.push(dislodged(j));
                } else if !r.moved[j] {
                    ends = Some(j);
                }
            }
            if ends.is_none() {
                ends = r.arrival(Sector(s as u32));
            }
            *slot = match ends {
                Some(i) => {
                    next.fleets.push(after(i));
                    next.fleets.len() as u32 - 1
                }
                None => NO_FLEET,
            };
        }
        // Fleets are kept in the order of their sectors, so the dislodged ones come in
        // the order of `state.fleets`; were they ever not, the pass below sets them
        // aside again.
        placed = in_order && next.fleets.len() + next.dislodged.len() == n;
        occupancy = by_sector;
    }
    if !placed {
        // A sparse board (or, were resolution ever wrong, two fleets in one sector:
        // none is lost).
        next.dislodged.clear();
        next.dislodged
            .extend((0..n).filter(|&i| !kept(i)).map(dislodged));
        next.fleets.clear();
        next.fleets.extend((0..n).filter(|&i| kept(i)).map(after));
        next.sort_fleets();
        occupancy.clear();
    }
    // For the retreats: who stands where after movement, and the stand-off sectors.
    let standoff = if next.dislodged.is_empty() {
        Vec::new()
    } else {
        if occupancy.is_empty() {
            occupancy = next.occupancy();
        }
        let mut standoff = vec![false; sectors];
        for s in &next.standoffs {
            standoff[s.0 as usize] = true;
        }
        standoff
    };
    let mut dislodged = std::mem::take(&mut next.dislodged);
    dislodged.retain(|d| {
        let retreat = has_retreat(&next, &occupancy, &standoff, d);
        if !retreat {
            report.destroyed.push(Destroyed {
                power: d.fleet.power,
                at: d.fleet.at,
                why: Loss::NoRetreat,
            });
        }
        retreat
    });
    next.dislodged = dislodged;
    let before = state.present_powers();
    if next.dislodged.is_empty() {
        next.standoffs.clear();
        turn::end(&before, &mut next, report);
    } else if !turn::eliminate(&before, &mut next, report) {
        next.phase = Phase::Retreat;
    }
    next
}

/// Whether a dislodged fleet has a legal retreat (R6.1); `standoff` marks the
/// stand-off sectors by index.
fn has_retreat(state: &State, occupancy: &[u32], standoff: &[bool], d: &Dislodged) -> bool {
    state.board.neighbours(d.fleet.at).into_iter().any(|s| {
        occupancy[s.0 as usize] == NO_FLEET && s != d.attacker_from && !standoff[s.0 as usize]
    })
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
