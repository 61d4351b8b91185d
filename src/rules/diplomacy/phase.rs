//! One phase adjudicated: movement (through [`Resolver`]), retreats, adjustments with
//! civil disorder, and the season's end (centres change hands after the fall, a solo
//! victory, a draw voted by every surviving power).

use std::collections::BTreeSet;

use super::adjustments::{adjustments, owing_adjustments};
use super::check::{self, Does, Order};
use super::convoy;
use super::map::{bits, Kind, Loc, Map};
use super::resolve::{Act, Resolver, NONE};
use super::retreat::retreats;
use super::state::{Dislodged, Edition, Phase, Season, State, Step, Unit};

/// How an order went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Succeeds,
    Fails,
    Invalid,
}

impl Outcome {
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Succeeds => "succeeds",
            Outcome::Fails => "fails",
            Outcome::Invalid => "invalid",
        }
    }
}

/// One order's result.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct OrderResult {
    /// The power (none for a line naming no unit and no power).
    pub power: Option<u8>,
    pub order: String,
    pub outcome: Outcome,
    pub dislodged: bool,
    pub detail: String,
    /// A rule's default for a unit left without an order (not written by a player).
    pub default: bool,
}

/// What a phase did besides the new state.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub results: Vec<OrderResult>,
    pub civil_disorder: Vec<Unit>,
    pub events: Vec<String>,
    /// Units dislodged with nowhere to retreat, disbanded at once.
    pub destroyed: Vec<Unit>,
}

/// The detail of an order replaced by a later one for the same unit.
pub const REPLACED: &str = "replaced by a later order for the same unit";

/// Orders as given: the sender (none in a scenario list) and the line.
pub type Given<'a> = (Option<u8>, &'a str);

/// Adjudicates the current phase. The same arguments always give the same result,
/// whatever the order of the lines of different units.
pub fn adjudicate(state: &State, given: &[Given]) -> (State, Report) {
    let (orders, report) = read(state, given);
    adjudicate_read(state, orders, report)
}

/// Reads every line against the position: the orders, and a report holding the lines
/// that are no orders at all.
pub fn read(state: &State, given: &[Given]) -> (Vec<Order>, Report) {
    let mut report = Report::default();
    let mut orders = Vec::with_capacity(given.len());
    for &(sender, line) in given {
        match check::read(state, sender, line) {
            Ok(o) => orders.push(o),
            Err(e) => report.results.push(OrderResult {
                power: sender,
                order: line.trim().to_string(),
                outcome: Outcome::Invalid,
                dislodged: false,
                detail: e,
                default: false,
            }),
        }
    }
    (orders, report)
}

/// Adjudicates orders already read (see [`read`]).
pub fn adjudicate_read(state: &State, orders: Vec<Order>, mut report: Report) -> (State, Report) {
    if state.over {
        return (state.clone(), report);
    }
    let next = match state.phase.step {
        Step::Movement => movement(state, orders, &mut report),
        Step::Retreat => retreats(state, orders, &mut report),
        Step::Adjustment => adjustments(state, orders, &mut report),
    };
    report.results.sort();
    (next, report)
}

pub(super) fn result(o: &Order, outcome: Outcome, dislodged: bool, detail: String) -> OrderResult {
    OrderResult {
        power: (o.power != u8::MAX).then_some(o.power),
        order: o.text.clone(),
        outcome,
        dislodged,
        detail,
        default: false,
    }
}

/// Keeps the last order of each unit; earlier ones become invalid results.
pub(super) fn last_per_unit(
    orders: Vec<Order>,
    report: &mut Report,
) -> (Vec<Option<Order>>, Vec<Order>) {
    let mut by_unit: Vec<Option<Order>> = Vec::new();
    let mut other = Vec::new();
    for o in orders {
        match o.unit {
            Some(k) => {
                if by_unit.len() <= k {
                    by_unit.resize(k + 1, None);
                }
                if let Some(old) = by_unit[k].replace(o) {
                    report
                        .results
                        .push(result(&old, Outcome::Invalid, false, REPLACED.into()));
                }
            }
            _ => other.push(o),
        }
    }
    (by_unit, other)
}

/// The movement phase prepared for the resolver; kept apart so the benchmark can
/// time resolution alone.
pub struct Prepared {
    pub resolver: Resolver,
    pub orders: Vec<Option<Order>>,
    pub other: Vec<Order>,
    pub move_to: Vec<Loc>,
    pub target: Vec<u8>,
    pub matched: Vec<bool>,
}

pub fn prepare(state: &State, orders: Vec<Order>, report: &mut Report) -> Prepared {
    let map = state.map();
    let n = state.units.len();
    let (mut by_unit, other) = last_per_unit(orders, report);
    by_unit.resize(n, None);
    let mut r = Resolver::default();
    r.reset(map, n);
    let mut move_to = vec![0; n];
    let mut target = vec![NONE; n];
    let mut via = vec![false; n];
    let mut coast: Vec<Option<String>> = vec![None; n];
    for (u, unit) in state.units.iter().enumerate() {
        r.power[u] = unit.power;
        r.prov[u] = map.prov_of(unit.loc);
        r.unit_at[r.prov[u] as usize] = u as u8;
        let Some(o) = &by_unit[u] else { continue };
        if o.invalid.is_some() {
            continue;
        }
        match &o.does {
            Does::Move { to, via: v } => {
                r.act[u] = Act::Move;
                r.dst[u] = map.prov_of(*to);
                move_to[u] = *to;
                via[u] = *v;
            }
            Does::SupportHold { target: t } => {
                r.act[u] = Act::Support;
                target[u] = *t as u8;
            }
            Does::SupportMove {
                target: t,
                to,
                coast: c,
            } => {
                r.act[u] = Act::Support;
                r.support_move[u] = true;
                r.dst[u] = *to;
                target[u] = *t as u8;
                coast[u] = c.clone();
            }
            Does::Convoy { target: t, to } => {
                r.act[u] = Act::Convoy;
                r.dst[u] = *to;
                target[u] = *t as u8;
            }
            _ => {}
        }
    }
    // By convoy or over land (DATC 4.A.3).
    let edition = state.options.edition;
    #[allow(clippy::needless_range_loop)]
    for u in 0..n {
        if r.act[u] != Act::Move || state.units[u].kind != Kind::Army {
            continue;
        }
        let adjacent = map.army[r.prov[u] as usize] & (1u128 << r.dst[u]) != 0;
        let (r_ref, target_ref) = (&r, &target);
        let convoys = |own: bool| {
            let r = r_ref;
            let target = target_ref;
            (0..n).filter(move |&f| {
                r.act[f] == Act::Convoy
                    && target[f] as usize == u
                    && r.dst[f] == r.dst[u]
                    && (!own || r.power[f] == r.power[u])
            })
        };
        r.convoy[u] = !adjacent
            || match edition {
                Edition::E2023 | Edition::E1982 => via[u] || convoys(true).next().is_some(),
                Edition::Dptg => via[u],
                Edition::E1971 => {
                    let j = r.unit_at[r.dst[u] as usize];
                    let opposite = j != NONE
                        && r.act[j as usize] == Act::Move
                        && r.dst[j as usize] == r.prov[u];
                    let fleets = convoys(false).fold(0u128, |s, f| s | (1u128 << r.prov[f]));
                    let attacked =
                        (0..n).any(|k| r.act[k] == Act::Move && fleets & (1u128 << r.dst[k]) != 0);
                    opposite && !attacked && convoy::route_exists(map, fleets, r.prov[u], r.dst[u])
                }
            };
    }
    let mut matched = vec![false; n];
    for u in 0..n {
        let t = target[u];
        if t == NONE {
            continue;
        }
        let t = t as usize;
        matched[u] = match r.act[u] {
            Act::Support if !r.support_move[u] => r.act[t] != Act::Move,
            Act::Support => {
                r.act[t] == Act::Move
                    && r.dst[t] == r.dst[u]
                    && coast[u]
                        .as_ref()
                        .is_none_or(|c| map.coast_of(move_to[t]) == c)
            }
            Act::Convoy => r.act[t] == Act::Move && r.dst[t] == r.dst[u] && r.convoy[t],
            _ => false,
        };
    }
    r.link(&target, &matched);
    Prepared {
        resolver: r,
        orders: by_unit,
        other,
        move_to,
        target,
        matched,
    }
}

fn movement(state: &State, orders: Vec<Order>, report: &mut Report) -> State {
    let map = state.map();
    let n = state.units.len();
    let mut p = prepare(state, orders, report);
    p.resolver.run();
    let r = &mut p.resolver;
    let mut next = state.clone();
    next.units.clear();
    next.dislodged.clear();
    let mut by: Vec<Option<usize>> = vec![None; n];
    for (u, slot) in by.iter_mut().enumerate() {
        *slot = r.dislodged_by(u);
    }
    // Where each unit ends.
    let mut occupied: u128 = 0;
    for (u, unit) in state.units.iter().enumerate() {
        if by[u].is_some() {
            continue;
        }
        let loc = if r.act[u] == Act::Move && r.answer(u) {
            p.move_to[u]
        } else {
            unit.loc
        };
        occupied |= 1u128 << map.prov_of(loc);
        next.units.push(Unit { loc, ..*unit });
    }
    // Stand-offs (DATC 4.A.6 and 6.F.7, 6.H.9): an empty province a move bounced from.
    let mut contested: u128 = 0;
    for u in 0..n {
        if r.act[u] != Act::Move || r.answer(u) {
            continue;
        }
        let d = r.dst[u];
        if occupied & (1u128 << d) != 0 {
            continue;
        }
        if r.convoy[u] && !r.answer(n + u) {
            continue;
        }
        if let Some(j) = r.head_to_head(u) {
            if r.answer(j) {
                continue;
            }
        }
        contested |= 1u128 << d;
    }
    for (u, unit) in state.units.iter().enumerate() {
        let Some(k) = by[u] else { continue };
        let from = r.prov[k];
        let by_convoy = r.convoy[k];
        let candidates: Vec<Loc> = match unit.kind {
            Kind::Army => bits(map.army[r.prov[u] as usize]).collect(),
            Kind::Fleet => bits(map.fleet[unit.loc as usize]).collect(),
        };
        let retreats: Vec<Loc> = candidates
            .into_iter()
            .filter(|&l| {
                let q = map.prov_of(l);
                (by_convoy || q != from)
                    && occupied & (1u128 << q) == 0
                    && contested & (1u128 << q) == 0
            })
            .collect();
        if retreats.is_empty() {
            report.events.push(format!(
                "{} is dislodged and has nowhere to retreat: disbanded.",
                unit.text(map)
            ));
            report.destroyed.push(*unit);
            continue;
        }
        next.dislodged.push(Dislodged {
            unit: *unit,
            attacker_from: from,
            by_convoy,
            retreats,
        });
    }
    next.units.sort();
    // Results.
    let mut draw: BTreeSet<u8> = BTreeSet::new();
    for o in &p.other {
        let r = match (&o.invalid, &o.does) {
            (Some(e), _) => result(o, Outcome::Invalid, false, e.clone()),
            (None, Does::Draw) => {
                draw.insert(o.power);
                result(o, Outcome::Succeeds, false, "votes for a draw".into())
            }
            (None, _) => result(o, Outcome::Invalid, false, "not a movement order".into()),
        };
        report.results.push(r);
    }
    for (u, unit) in state.units.iter().enumerate() {
        let dislodged = by[u].is_some();
        let Some(o) = &p.orders[u] else {
            report.results.push(OrderResult {
                power: Some(unit.power),
                order: format!("{} H", unit.text(map)),
                outcome: if dislodged {
                    Outcome::Fails
                } else {
                    Outcome::Succeeds
                },
                dislodged,
                detail: format!("no order: holds{}", dislodged_detail(map, r, by[u])),
                default: true,
            });
            continue;
        };
        if let Some(e) = &o.invalid {
            report.results.push(result(
                o,
                Outcome::Invalid,
                dislodged,
                format!("{e}; holds{}", dislodged_detail(map, r, by[u])),
            ));
            continue;
        }
        let (ok, detail) = match r.act[u] {
            Act::Move => move_detail(map, r, u),
            Act::Support => {
                let t = p.target[u] as usize;
                if !p.matched[u] {
                    (
                        false,
                        format!("{} does not do that", state.units[t].text(map)),
                    )
                } else if r.answer(u) {
                    (true, String::new())
                } else {
                    (false, "cut".to_string())
                }
            }
            Act::Convoy => {
                if !p.matched[u] {
                    let t = p.target[u] as usize;
                    (
                        false,
                        format!("{} does not move there by convoy", state.units[t].text(map)),
                    )
                } else if dislodged {
                    (false, "the fleet is dislodged".into())
                } else {
                    (true, String::new())
                }
            }
            Act::Hold => (!dislodged, String::new()),
        };
        let detail = format!("{detail}{}", dislodged_detail(map, r, by[u]));
        let detail = detail.trim_start_matches("; ").to_string();
        report.results.push(result(
            o,
            if ok {
                Outcome::Succeeds
            } else {
                Outcome::Fails
            },
            dislodged,
            detail,
        ));
    }
    let alive: Vec<u8> = (0..map.powers.len() as u8)
        .filter(|&q| state.alive(q))
        .collect();
    if !alive.is_empty() && alive.iter().all(|q| draw.contains(q)) {
        // The fall's centres change hands all the same: the final standings count them.
        if state.phase.season == Season::Fall {
            take_centres(&mut next, report);
        }
        next.over = true;
        next.winners = alive.clone();
        report.events.push(format!(
            "The game ends in a draw shared by {}: every surviving power voted DRAW.",
            alive
                .iter()
                .map(|&q| map.power_id(q))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return next;
    }
    if next.dislodged.is_empty() {
        end_of_season(&mut next, report);
    } else {
        next.phase = state.phase.retreats();
    }
    next
}

fn dislodged_detail(map: &Map, r: &Resolver, by: Option<usize>) -> String {
    match by {
        Some(k) => format!(
            "; dislodged from {}{}",
            map.prov_id(r.prov[k]),
            if r.convoy[k] { " (by convoy)" } else { "" }
        ),
        None => String::new(),
    }
}

fn move_detail(map: &Map, r: &mut Resolver, u: usize) -> (bool, String) {
    let n = r.n;
    let ok = r.answer(u);
    if r.convoy[u] && !r.answer(n + u) {
        return (false, "no convoy route".into());
    }
    let a = r.attack(u);
    if ok {
        return (
            true,
            if r.convoy[u] {
                "by convoy".into()
            } else {
                String::new()
            },
        );
    }
    if let Some(j) = r.head_to_head(u) {
        let d = r.defend(j);
        if a <= d {
            return (
                false,
                format!(
                    "lost the head-to-head battle with {} ({a} vs {d})",
                    map.prov_id(r.prov[j])
                ),
            );
        }
    } else {
        let h = r.hold(r.dst[u] as usize);
        if a <= h || a == 0 {
            let j = r.unit_at[r.dst[u] as usize];
            let who = if j == NONE {
                String::new()
            } else {
                format!(" {}", map.prov_id(r.prov[j as usize]))
            };
            return (false, format!("the unit in{who} stays ({a} vs {h})"));
        }
    }
    let mut k = r.first_in[r.dst[u] as usize];
    while k != NONE {
        let kk = k as usize;
        if kk != u {
            let pv = r.prevent(kk);
            if a <= pv {
                return (
                    false,
                    format!("bounced with {} ({a} vs {pv})", map.prov_id(r.prov[kk])),
                );
            }
        }
        k = r.next_in[kk];
    }
    (false, String::new())
}

/// The fall's centre changes: each unit standing on a supply centre owns it.
fn take_centres(s: &mut State, report: &mut Report) {
    let map = s.map();
    for u in &s.units {
        let p = map.prov_of(u.loc);
        if map.is_centre(p) && s.owners[p as usize] != Some(u.power) {
            report.events.push(format!(
                "{} takes {}{}",
                map.power_id(u.power),
                map.provinces[p as usize].name,
                match s.owners[p as usize] {
                    Some(o) => format!(" from {}", map.power_id(o)),
                    None => String::new(),
                }
            ));
            s.owners[p as usize] = Some(u.power);
        }
    }
}

/// After the season's movement and retreats: the fall's centre changes, victory,
/// the winter (skipped when nobody has anything to adjust).
pub(super) fn end_of_season(s: &mut State, report: &mut Report) {
    let map = s.map();
    if s.phase.season == Season::Fall {
        take_centres(s, report);
        let v = s.options.victory_centers as usize;
        if v > 0 {
            if let Some(w) = (0..map.powers.len() as u8).find(|&q| s.centres_of(q) >= v) {
                s.over = true;
                s.winners = vec![w];
                report.events.push(format!(
                    "{} wins with {} supply centres.",
                    map.power_id(w),
                    s.centres_of(w)
                ));
                s.phase = s.phase.after_season();
                return;
            }
        }
        if s.options.last_year > 0 && u32::from(s.phase.year) >= s.options.last_year {
            s.over = true;
            s.winners = (0..map.powers.len() as u8)
                .filter(|&q| s.alive(q))
                .collect();
            report.events.push(format!(
                "The game ends after {}: a draw shared by {}.",
                s.phase.year,
                s.winners
                    .iter()
                    .map(|&q| map.power_id(q))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            s.phase = s.phase.after_season();
            return;
        }
        for q in 0..map.powers.len() as u8 {
            if s.centres_of(q) == 0 && s.units_of(q) > 0 {
                report.events.push(format!(
                    "{} has no supply centre left: it must remove all its units",
                    map.power_id(q)
                ));
            }
        }
    }
    s.phase = s.phase.after_season();
    if s.phase.step == Step::Adjustment && owing_adjustments(s).is_empty() {
        report
            .events
            .push(format!("No adjustments in winter {}.", s.phase.year));
        s.phase = s.phase.after_season();
    }
}

/// The phase after the current one is adjudicated with no orders at all (for tests).
pub fn phase_after(state: &State) -> Phase {
    adjudicate(state, &[]).0.phase
}
