//! Positions and orders for the benchmark and the tests: a scripted player who writes
//! sensible orders from the position ([`scripted_orders`]), random orders of every
//! kind with some garbage ([`random_orders`]), and the benchmark's movement round with
//! six players and about 200 units ([`movement_round`]).

use std::collections::BTreeMap;

use super::map::Place;
use super::state::{Building, Kind, Phase, State, Units, KINDS};
use crate::dice::Dice;

/// How a scripted player plays.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Draft wishes, in order (region ids); the rest by default.
    pub picks: Vec<String>,
    /// Players to declare war on in this (turn, movement).
    pub war: Vec<(u32, u8, String)>,
    /// Players to make peace with from this turn on (ordered in every phase).
    pub peace: Vec<(u32, String)>,
}

fn region_ids(s: &State, p: usize) -> Vec<usize> {
    s.regions_of(p).collect()
}

fn name(s: &State, r: usize) -> &str {
    s.rname(r)
}

/// Orders a sensible player writes for the current phase.
pub fn scripted_orders(s: &State, p: usize, plan: &Plan) -> String {
    let mut lines: Vec<String> = Vec::new();
    let me = &s.players[p];
    let own = region_ids(s, p);
    let movement = s.phase.movement();
    for (from, q) in &plan.peace {
        if let Some(qi) = s.player_index(q) {
            if s.turn >= *from && s.at_war(p, qi) && s.phase != Phase::Draft {
                lines.push(format!("PEACE {q}"));
            }
        }
    }
    match s.phase {
        Phase::Draft => {
            if !plan.picks.is_empty() {
                lines.push(format!("PICK {}", plan.picks.join(" ")));
            }
        }
        Phase::Setup => {
            // A city, an explorer, and infantry where the natives are weakest.
            let mut pp = me.pp;
            if let Some(&first) = own.first() {
                lines.push(format!("BUILD city {}", name(s, first)));
                lines.push(format!("BUILD EXP {}", name(s, first)));
                pp = pp.saturating_sub(40);
            }
            if let Some(&coast) = own
                .iter()
                .skip(1)
                .find(|&&r| !s.map.regions[r].sea.is_empty())
            {
                if pp >= 90 {
                    let sea = s.map.regions[coast].sea[0];
                    lines.push(format!("BUILD port {}", name(s, coast)));
                    lines.push(format!("BUILD FLT {} AT {}", s.sname(sea), name(s, coast)));
                    pp -= 50;
                }
            }
            let fronts = frontier(s, p);
            let mut k = 0;
            while pp >= 10 && !fronts.is_empty() {
                lines.push(format!("BUILD INF {}", name(s, fronts[k % fronts.len()])));
                pp -= 10;
                k += 1;
            }
        }
        Phase::Production => {
            // What will be there to spend: PP, plus income, less upkeep (W4.2-W4.3).
            let income: u32 = own
                .iter()
                .filter(|&&r| !s.regions[r].revolt)
                .map(|&r| {
                    let b = s.regions[r].buildings;
                    let land = if s.regions[r].native.is_some() { 1 } else { 3 };
                    land + 10 * u32::from(b.has(Building::City))
                        + 10 * u32::from(b.has(Building::Factory))
                        + 2 * u32::from(b.has(Building::Railroad))
                })
                .sum();
            let upkeep: u32 = (0..s.regions.len())
                .map(|r| s.units(r, p).total())
                .chain((0..s.map.seas.len()).map(|k| s.fleet(k, p).n + s.fleet(k, p).cargo.total()))
                .sum();
            let mut pp = (me.pp + income).saturating_sub(upkeep);
            let cities = own
                .iter()
                .filter(|&&r| s.regions[r].buildings.has(Building::City) && !s.regions[r].revolt)
                .count() as u32;
            if me.dp < 3 && cities > 0 && pp >= 30 {
                lines.push("BUY 1 DP".into());
                pp -= 10;
            }
            // Infantry on the frontier, where the weakest natives or enemies are.
            for r in frontier(s, p).into_iter().take(2) {
                let n = ((pp.saturating_sub(20)) / 10).min(3);
                if n > 0 {
                    lines.push(format!("BUILD {n} INF {}", name(s, r)));
                    pp -= 10 * n;
                }
            }
            for &r in &own {
                let region = &s.regions[r];
                if region.revolt {
                    continue;
                }
                if !region.developed && region.chit.value() > 0 && pp >= 30 {
                    lines.push(format!("DEVELOP {}", name(s, r)));
                    pp -= 15;
                    continue;
                }
                let b = region.buildings;
                if !b.list().iter().any(|x| x.exclusive()) && pp >= 60 {
                    lines.push(format!("BUILD city {}", name(s, r)));
                    pp -= 30;
                    continue;
                }
                if b.has(Building::City) && !b.has(Building::School) && pp >= 60 {
                    lines.push(format!("BUILD school {}", name(s, r)));
                    pp -= 30;
                    continue;
                }
            }
            if let Some(&r) = own.iter().find(|&&r| {
                s.regions[r].buildings.has(Building::City) && s.units(r, p).get(Kind::Exp) == 0
            }) {
                if pp >= 20 && s.turn % 2 == 0 {
                    lines.push(format!("BUILD EXP {}", name(s, r)));
                }
            }
        }
        Phase::Movement1 | Phase::Movement2 => {
            lines.push("BATTLE ALL ROUNDS 3".into());
            lines.push("INTERCEPT ALL EQUAL".into());
            let m = movement.unwrap_or(1);
            for (t, mv, q) in &plan.war {
                if let Some(qi) = s.player_index(q) {
                    if *t == s.turn && *mv == m && !s.at_war(p, qi) && me.dp >= 1 {
                        lines.push(format!("DECLARE WAR {q}"));
                    }
                }
            }
            let mut targeted: Vec<usize> = Vec::new();
            for &r in &own {
                let u = *s.units(r, p);
                let brigades = u.brigades();
                if s.regions[r].revolt {
                    continue;
                }
                // Explorers look for natives to talk to.
                if u.get(Kind::Exp) > 0 {
                    if let Some(&a) = s.map.regions[r]
                        .land
                        .iter()
                        .find(|&&a| s.regions[a].owner.is_none())
                    {
                        lines.push(format!("MOVE EXP {} - {}", name(s, r), name(s, a)));
                        lines.push(format!(
                            "PARLEY {}{}",
                            name(s, a),
                            if me.dp > 4 { " DP" } else { "" }
                        ));
                    }
                }
                if brigades < 2 {
                    continue;
                }
                // The weakest neighbour worth attacking: natives, or an enemy at war.
                let mut best: Option<(u32, usize)> = None;
                for &a in &s.map.regions[r].land {
                    if targeted.contains(&a) {
                        continue;
                    }
                    let strength = match s.regions[a].owner {
                        None => s.regions[a].native.map(|m| m.ns).unwrap_or(99),
                        Some(o) if o != p && s.may_attack(p, o) && !s.regions[a].revolt => {
                            s.units(a, o).brigades() + 1
                        }
                        _ => continue,
                    };
                    if best.is_none_or(|(b, _)| strength < b) {
                        best = Some((strength, a));
                    }
                }
                if let Some((strength, a)) = best {
                    let send = brigades - 1;
                    if send * 3 >= strength * 2 {
                        let mut units = Units::default();
                        let mut left = send;
                        for k in [Kind::Art, Kind::Cav, Kind::Inf] {
                            let n = u.get(k).min(left);
                            units.add_kind(k, n);
                            left -= n;
                        }
                        if u.get(Kind::Gen) > 0 {
                            units.add_kind(Kind::Gen, 1);
                        }
                        targeted.push(a);
                        lines.push(format!(
                            "MOVE {} {} - {}",
                            units.text(),
                            name(s, r),
                            name(s, a)
                        ));
                    }
                }
            }
        }
        Phase::Over => {}
    }
    lines.join("\n")
}

/// A player's regions by the weakness of their weakest neighbour worth attacking
/// (natives by NS, enemies at war by brigades), weakest first.
fn frontier(s: &State, p: usize) -> Vec<usize> {
    let mut scored: Vec<(u32, usize)> = s
        .regions_of(p)
        .filter(|&r| !s.regions[r].revolt)
        .filter_map(|r| {
            s.map.regions[r]
                .land
                .iter()
                .filter_map(|&a| match s.regions[a].owner {
                    None => s.regions[a].native.map(|m| m.ns),
                    Some(o) if o != p && s.at_war(p, o) => Some(s.units(a, o).brigades() + 1),
                    _ => None,
                })
                .min()
                .map(|w| (w, r))
        })
        .collect();
    scored.sort();
    scored.into_iter().map(|(_, r)| r).collect()
}

fn pick<T: Copy>(d: &mut Dice, items: &[T]) -> Option<T> {
    if items.is_empty() {
        None
    } else {
        Some(items[d.below(items.len() as u64) as usize])
    }
}

/// Random orders of every kind for the current phase, some of them nonsense.
pub fn random_orders(s: &State, p: usize, d: &mut Dice) -> String {
    let ids: Vec<&str> = s.players.iter().map(|x| x.id.as_str()).collect();
    let own: Vec<usize> = region_ids(s, p);
    let all_regions: Vec<usize> = (0..s.regions.len()).collect();
    let seas: Vec<usize> = (0..s.map.seas.len()).collect();
    let mut lines = Vec::new();
    let n = 1 + d.below(8);
    for _ in 0..n {
        let r = pick(d, &own).or_else(|| pick(d, &all_regions)).unwrap_or(0);
        let any = pick(d, &all_regions).unwrap_or(0);
        let adj = pick(d, &s.map.regions[r].land).unwrap_or(any);
        let sea = pick(d, &s.map.regions[r].sea)
            .or_else(|| pick(d, &seas))
            .unwrap_or(0);
        let other = pick(d, &ids).unwrap_or("red");
        let kind = KINDS[d.below(6) as usize].name();
        let k = d.below(32);
        let line = match (s.phase, k) {
            (_, 0) => "FROB the natives".to_string(),
            (_, 1) => format!("MOVE 2 TANK {} - {}", name(s, r), name(s, adj)),
            (Phase::Draft, _) => format!("PICK {} {} {}", name(s, any), name(s, adj), name(s, r)),
            (Phase::Setup, 2..=14) => format!("BUILD {} {kind} {}", 1 + d.below(3), name(s, r)),
            (Phase::Setup, _) => format!("BUILD FLT {} AT {}", s.sname(sea), name(s, r)),
            (Phase::Production, 2..=5) => format!("BUILD {} {kind} {}", 1 + d.below(3), name(s, r)),
            (Phase::Production, 6) => format!("BUILD FLT {}", s.sname(sea)),
            (Phase::Production, 7) => {
                let b = [
                    "city", "factory", "port", "railroad", "fort", "school", "suez",
                ];
                format!("BUILD {} {}", pick(d, &b).unwrap_or("city"), name(s, r))
            }
            (Phase::Production, 8) => format!("DEVELOP {}", name(s, r)),
            (Phase::Production, 9) => format!("GIVE {} PP TO {other}", 1 + d.below(60)),
            (Phase::Production, 10) => format!("BUY {} DP", 1 + d.below(2)),
            (Phase::Production, 11) => format!("REMOVE SPHERE {other} {}", name(s, any)),
            (Phase::Production, 12) => format!("WESTERNIZE {}", name(s, r)),
            (Phase::Production, 13) => format!(
                "INCITE {}{}",
                name(s, any),
                if d.below(2) == 0 { " BRIBE" } else { "" }
            ),
            (Phase::Production, 14) => format!("DISBAND {kind} {}", name(s, r)),
            (Phase::Production, 15) => format!("SUPPORT {}", name(s, any)),
            (Phase::Production, _) => format!("PEACE {other}"),
            (_, 2..=9) => {
                let u = s.units(r, p);
                let mut units = Units::default();
                for k in KINDS {
                    if u.get(k) > 0 && d.below(2) == 0 {
                        units.add_kind(k, 1 + d.below(u.get(k) as u64) as u32);
                    }
                }
                if units.is_empty() {
                    units.add_kind(Kind::Inf, 1);
                }
                let mut path = vec![name(s, adj).to_string()];
                if d.below(3) == 0 {
                    let next = pick(d, &s.map.regions[adj].land).unwrap_or(adj);
                    path.push(name(s, next).to_string());
                }
                if d.below(5) == 0 {
                    path = vec![s.sname(sea).to_string()];
                }
                format!(
                    "MOVE {} {} - {}",
                    units.text(),
                    name(s, r),
                    path.join(" - ")
                )
            }
            (_, 10..=13) => {
                let mut fleet_seas: Vec<usize> = seas
                    .iter()
                    .copied()
                    .filter(|&k| s.fleet(k, p).n > 0)
                    .collect();
                fleet_seas.push(sea);
                let from = pick(d, &fleet_seas).unwrap_or(sea);
                let mut steps = Vec::new();
                let mut cur = from;
                for _ in 0..1 + d.below(3) {
                    match d.below(4) {
                        0 => {
                            let c = pick(d, &s.map.seas[cur].coast).unwrap_or(r);
                            steps.push(format!("LOAD INF {}", name(s, c)));
                        }
                        1 => {
                            let c = pick(d, &s.map.seas[cur].coast).unwrap_or(r);
                            steps.push(format!("LAND ALL {}", name(s, c)));
                        }
                        2 => steps.push(format!("ATTACK {other}")),
                        _ => {
                            cur = pick(d, &s.map.seas[cur].adjacent).unwrap_or(cur);
                            steps.push(s.sname(cur).to_string());
                        }
                    }
                }
                format!(
                    "SAIL {} FLT {} - {}",
                    1 + d.below(2),
                    s.sname(from),
                    steps.join(" - ")
                )
            }
            (_, 14) => format!("ATTACK {other} {}", s.sname(sea)),
            (_, 15) => format!("DECLARE WAR {other}"),
            (_, 16) => format!("PEACE {other}"),
            (_, 17) => format!(
                "PARLEY {}{}",
                name(s, adj),
                if d.below(2) == 0 { " DP" } else { "" }
            ),
            (_, 18) => format!("PROSPECT {}", name(s, r)),
            (_, 19) => format!("REINFORCE {} FROM {}", name(s, r), name(s, adj)),
            (_, 20) => format!(
                "BATTLE {} ROUNDS {} TARGET CAV",
                name(s, adj),
                1 + d.below(3)
            ),
            (_, 21) => "BATTLE ALL RETREAT Egypt TRANSFER ALL".to_string(),
            (_, 22) => "LOSSES ART EXP".to_string(),
            (_, 23) => format!("NAVAL ROUNDS {}", 1 + d.below(3)),
            (_, 24) => format!("INTERCEPT {} ALWAYS", s.sname(sea)),
            (_, 25) => format!("CEDE {} TO {other}", name(s, r)),
            (_, 26) => format!("SUPPRESS {}", name(s, any)),
            _ => format!("MOVE INF {} - {}", name(s, r), name(s, adj)),
        };
        lines.push(line);
    }
    lines.join("\n")
}

/// The benchmark's movement round: six players at turn 4, movement 1, with about 200
/// units and fleets in all, four of them at war two by two, and every player's
/// scripted orders (attacks on natives and enemies, explorers, a few sailings).
pub fn movement_round(seed: u64) -> (State, BTreeMap<String, String>) {
    let ids: Vec<String> = ["black", "blue", "green", "red", "white", "yellow"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut s = super::scenario::new_game_state(ids, Default::default(), seed);
    let empty = BTreeMap::new();
    s = super::adjudicate(&s, &empty, seed).0; // draft by default
    s.phase = Phase::Movement1;
    s.turn = 4;
    let np = s.np();
    let mut d = Dice::for_phase(seed, 0, "benchmark");
    // Each player's four regions get brigades and parties: 32 or 33 units each.
    for p in 0..np {
        let own: Vec<usize> = s.regions_of(p).collect();
        for (k, &r) in own.iter().enumerate() {
            let mut u = Units::default();
            u.add_kind(Kind::Inf, 4 + d.below(3) as u32);
            u.add_kind(Kind::Cav, 1 + d.below(2) as u32);
            u.add_kind(Kind::Art, d.below(2) as u32);
            if k == 0 {
                u.add_kind(Kind::Gen, 1);
                u.add_kind(Kind::Exp, 1);
                s.regions[r].buildings.put(Building::City);
                s.regions[r].buildings.put(Building::School);
            }
            *s.units_mut(r, p) = u;
        }
        if let Some(&coast) = own.iter().find(|&&r| !s.map.regions[r].sea.is_empty()) {
            let sea = s.map.regions[coast].sea[0];
            s.fleet_mut(sea, p).n = 2;
            s.fleet_mut(sea, p).cargo.add_kind(Kind::Inf, 2);
        }
        s.players[p].pp = 80;
        s.players[p].dp = 6;
    }
    // Wars between neighbours, declared last turn.
    let mut wars = Vec::new();
    for a in 0..np {
        for b in a + 1..np {
            let touch = s.regions_of(a).any(|r| {
                s.map.regions[r]
                    .land
                    .iter()
                    .any(|&x| s.regions[x].owner == Some(b))
            });
            if touch && wars.len() < 3 {
                wars.push(super::state::War {
                    players: (a, b),
                    declared_by: a,
                    turn: 3,
                    movement: 2,
                });
            }
        }
    }
    s.wars = wars;
    let plan = Plan::default();
    let mut orders = BTreeMap::new();
    for p in 0..np {
        let mut text = scripted_orders(&s, p, &plan);
        // A sailing each: the fleets carry their INF one sea on.
        for k in 0..s.map.seas.len() {
            if s.fleet(k, p).n > 0 {
                if let Some(&next) = s.map.seas[k].adjacent.first() {
                    text += &format!("\nSAIL 2 FLT {} - {}", s.sname(k), s.sname(next));
                }
            }
        }
        orders.insert(s.players[p].id.clone(), text);
    }
    (s, orders)
}

/// Units and fleets in a position (for the benchmark's count).
pub fn count_units(s: &State) -> u32 {
    let land: u32 = s.land.iter().map(|u| u.total()).sum();
    let sea: u32 = s.fleets.iter().map(|f| f.n + f.cargo.total()).sum();
    land + sea
}

/// The place names of a position's stacks, for tests: land units outside regions or
/// fleets outside seas would be a bug.
pub fn stack_places(s: &State) -> Vec<Place> {
    let np = s.np();
    let mut out = Vec::new();
    for (k, u) in s.land.iter().enumerate() {
        if !u.is_empty() {
            out.push(Place::Region(k / np));
        }
    }
    for (k, f) in s.fleets.iter().enumerate() {
        if f.n > 0 || !f.cargo.is_empty() {
            out.push(Place::Sea(k / np));
        }
    }
    out
}
