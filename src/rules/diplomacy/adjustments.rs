//! The adjustment phase (winter): builds and removals, and civil disorder for a power
//! that ordered too few removals (the units farthest from its centres go first).

use crate::rules::words::and_list;

use super::check::{self, Does, Order};
use super::map::{bits, Kind, Prov};
use super::phase::{result, Outcome, Report};
use super::state::{Edition, State, Step};

/// The powers with builds or removals to order.
pub fn owing_adjustments(s: &State) -> Vec<u8> {
    let map = s.map();
    (0..map.powers.len() as u8)
        .filter(|&q| {
            let a = s.adjustment(q);
            a < 0 || (a > 0 && !s.build_sites(q).is_empty())
        })
        .collect()
}

pub(super) fn adjustments(state: &State, orders: Vec<Order>, report: &mut Report) -> State {
    let map = state.map();
    let mut next = state.clone();
    let np = map.powers.len();
    let mut built: Vec<u32> = vec![0; np];
    let mut removed: Vec<u32> = vec![0; np];
    let mut used: u128 = 0;
    let mut gone = vec![false; state.units.len()];
    let mut new_units = Vec::new();
    for o in &orders {
        if let Some(e) = &o.invalid {
            report
                .results
                .push(result(o, Outcome::Invalid, false, e.clone()));
            continue;
        }
        let q = o.power as usize;
        let owed = state.adjustment(o.power);
        let r = match &o.does {
            Does::Build { unit } => {
                let p = map.prov_of(unit.loc);
                if owed <= 0 {
                    result(
                        o,
                        Outcome::Invalid,
                        false,
                        format!("{} has no builds", map.power_id(o.power)),
                    )
                } else if built[q] >= owed as u32 {
                    result(o, Outcome::Fails, false, "no builds left".into())
                } else if used & (1u128 << p) != 0 {
                    result(
                        o,
                        Outcome::Fails,
                        false,
                        format!("already a build in {}", map.prov_id(p)),
                    )
                } else {
                    built[q] += 1;
                    used |= 1u128 << p;
                    new_units.push(*unit);
                    result(o, Outcome::Succeeds, false, String::new())
                }
            }
            Does::Waive => {
                if owed <= 0 {
                    result(
                        o,
                        Outcome::Invalid,
                        false,
                        format!("{} has no builds to waive", map.power_id(o.power)),
                    )
                } else if built[q] >= owed as u32 {
                    result(o, Outcome::Fails, false, "no builds left".into())
                } else {
                    built[q] += 1;
                    result(o, Outcome::Succeeds, false, "a build waived".into())
                }
            }
            Does::Disband => {
                let k = o.unit.expect("a removal names a unit");
                if owed >= 0 {
                    result(
                        o,
                        Outcome::Invalid,
                        false,
                        format!("{} has no removals", map.power_id(o.power)),
                    )
                } else if gone[k] {
                    result(o, Outcome::Fails, false, "already removed".into())
                } else if removed[q] >= (-owed) as u32 {
                    result(o, Outcome::Fails, false, "no removals left".into())
                } else {
                    removed[q] += 1;
                    gone[k] = true;
                    result(o, Outcome::Succeeds, false, String::new())
                }
            }
            _ => result(o, Outcome::Invalid, false, "not an adjustment order".into()),
        };
        report.results.push(r);
    }
    // Builds neither ordered nor waived are waived; the results say so, and why when
    // the power had fewer free home centres than builds.
    for q in 0..np as u8 {
        let owed = state.adjustment(q);
        if owed <= 0 || built[q as usize] >= owed as u32 {
            continue;
        }
        let left = owed as u32 - built[q as usize];
        let sites = state.build_sites(q).len() as u32;
        let builds = if left == 1 { "build" } else { "builds" };
        let why = if sites < owed as u32 {
            format!(
                " ({sites} free home centre{})",
                if sites == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        };
        report.events.push(format!(
            "{} leaves {left} {builds} unused{why}.",
            map.power_id(q)
        ));
    }
    // Civil disorder: too few removals (DATC 4.D.9, 6.J).
    for q in 0..np as u8 {
        let owed = state.adjustment(q);
        if owed >= 0 {
            continue;
        }
        let mut left = (-owed) as u32 - removed[q as usize];
        if left == 0 {
            continue;
        }
        let dist = distances(state, q);
        let mut cands: Vec<usize> = (0..state.units.len())
            .filter(|&k| state.units[k].power == q && !gone[k])
            .collect();
        cands.sort_by_key(|&k| {
            let u = &state.units[k];
            let p = map.prov_of(u.loc);
            let d = match (state.options.edition, u.kind) {
                (Edition::E2023, _) | (_, Kind::Army) => dist.0[p as usize],
                (_, Kind::Fleet) => dist.1[p as usize],
            };
            (
                std::cmp::Reverse(d),
                u.kind != Kind::Fleet,
                map.alpha_rank[p as usize],
            )
        });
        for k in cands {
            if left == 0 {
                break;
            }
            gone[k] = true;
            left -= 1;
            report.civil_disorder.push(state.units[k]);
        }
    }
    next.units = state
        .units
        .iter()
        .enumerate()
        .filter(|(k, _)| !gone[*k])
        .map(|(_, u)| *u)
        .chain(new_units)
        .collect();
    next.units.sort();
    for q in 0..np as u8 {
        if state.adjustment(q) != 0 && state.alive(q) && !next.alive(q) {
            report
                .events
                .push(format!("{} is eliminated.", map.power_id(q)));
        }
    }
    next.phase = state.phase.after_season();
    next
}

/// Distances to the power's centres used by the civil disorder rule: (any border,
/// fleet borders only). The 2023 rules count from owned centres over every border;
/// the older ones from home centres, fleets over water only.
fn distances(state: &State, q: u8) -> (Vec<u32>, Vec<u32>) {
    let map = state.map();
    let np = map.provinces.len();
    let sources: Vec<Prov> = match state.options.edition {
        Edition::E2023 => (0..np as u8)
            .filter(|&p| state.owners[p as usize] == Some(q))
            .collect(),
        _ => map.home_centres(q).collect(),
    };
    let bfs = |fleet: bool| {
        let mut d = vec![u32::MAX; np];
        let mut frontier: u128 = 0;
        for &p in &sources {
            if fleet && !map.fleet_can_enter(p) {
                continue;
            }
            d[p as usize] = 0;
            frontier |= 1u128 << p;
        }
        let mut seen = frontier;
        let mut step = 0;
        while frontier != 0 {
            step += 1;
            let mut next = 0u128;
            for p in bits(frontier) {
                next |= if fleet {
                    map.fleet_border_any_coast(p)
                } else {
                    map.any_border(p)
                };
            }
            next &= !seen;
            for p in bits(next) {
                d[p as usize] = step;
            }
            seen |= next;
            frontier = next;
        }
        d
    };
    (bfs(false), bfs(true))
}

/// What a winter receipt says under a power's orders standing (`text`, as kept): the
/// builds or removals it owes, in the board's words (`Builds owed: 3, 2 possible (free
/// home centres: bud, vie).`, `Removals owed: 2.`), how many its orders give, and what
/// the deadline does with the rest: builds not ordered are waived, units not removed
/// go by civil disorder (named: a power's adjustments depend on its own orders only, so
/// the receipt can tell which). Nothing outside an adjustment phase, nor for a power
/// that owes nothing.
pub fn receipt_notes(state: &State, power: &str, text: &str) -> Vec<String> {
    let map = state.map();
    let Some(q) = map.power_by_id(power) else {
        return Vec::new();
    };
    let owed = state.adjustment(q);
    if state.over || state.phase.step != Step::Adjustment || owed == 0 {
        return Vec::new();
    }
    let orders: Vec<Order> = check::lines(text)
        .filter_map(|l| check::read(state, Some(q), l).ok())
        .collect();
    let mut report = Report::default();
    adjustments(state, orders.clone(), &mut report);
    let (mut built, mut waived, mut removed) = (0u32, 0u32, 0u32);
    // One result per order, in their order.
    for (o, r) in orders.iter().zip(&report.results) {
        if o.power != q || r.outcome != Outcome::Succeeds {
            continue;
        }
        match o.does {
            Does::Build { .. } => built += 1,
            Does::Waive => waived += 1,
            Does::Disband => removed += 1,
            _ => {}
        }
    }
    let note = if owed > 0 {
        let owed = owed as u32;
        let free = state.build_sites(q).len() as u32;
        let left = owed.saturating_sub(built + waived);
        let may = left.min(free.saturating_sub(built));
        let cannot = left - may;
        let head = format!("Builds owed: {}.", super::report::builds_owed(state, q));
        let ordered = match (built, waived) {
            (0, 0) => "No build is ordered yet".to_string(),
            (b, 0) => format!("Your orders build {b}"),
            (0, w) => format!("Your orders waive {w}"),
            (b, w) => format!("Your orders build {b} and waive {w}"),
        };
        let more = if built + waived > 0 { " more" } else { "" };
        let rest = if left == 0 {
            ": nothing is left to order.".to_string()
        } else if may == 0 {
            format!(
                ": nothing more can be built (no free home centre is left), and the {left} {} left {} waived.",
                plural(left, "build", "builds"),
                plural(left, "is", "are")
            )
        } else {
            let mut s = format!(
                ". {may}{more} {} may be ordered; without {} by the deadline, {} waived.",
                plural(may, "build", "builds"),
                plural(may, "an order", "orders"),
                plural(may, "it is", "they are")
            );
            if cannot > 0 {
                s += &format!(
                    " The other {cannot} cannot be built (too few free home centres) and {} waived.",
                    plural(cannot, "is", "are")
                );
            }
            s
        };
        format!("{head} {ordered}{rest}")
    } else {
        let owed = (-owed) as u32;
        let left = owed.saturating_sub(removed);
        let head = format!("Removals owed: {owed}.");
        let ordered = match removed {
            0 => "No removal is ordered yet".to_string(),
            r => format!("Your orders remove {r}"),
        };
        let more = if removed > 0 { " more" } else { "" };
        let rest = if left == 0 {
            ": nothing is left to order.".to_string()
        } else {
            let gone: Vec<String> = report
                .civil_disorder
                .iter()
                .filter(|u| u.power == q)
                .map(|u| u.text(map))
                .collect();
            format!(
                ". {left}{more} {} be removed; without {} by the deadline, civil disorder removes {}.",
                plural(left, "unit must", "units must"),
                plural(left, "an order", "orders"),
                and_list(&gone)
            )
        };
        format!("{head} {ordered}{rest}")
    };
    vec![note]
}

pub(super) fn plural(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}
