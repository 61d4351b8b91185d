//! The production phase (W4): peace, income with trade paths, maintenance, gifts and
//! DP, native diplomacy, construction. Construction is shared with setup (W3.3).
//! Steps run in the rules' order; within a step, players in movement order, each in
//! written order.

use std::collections::VecDeque;

use super::map::Place;
use super::outcome::Event;
use super::run::Run;
use super::state::{Building, Cede, Kind, Phase, Posture, Units, FLEET_COST, FLEET_PORTAGE};
use super::syntax::{Build, Order};

/// Automatic westernizing counts these buildings (W4.5b).
const WESTERNIZING: [Building; 5] = [
    Building::City,
    Building::Factory,
    Building::Railroad,
    Building::Port,
    Building::School,
];

impl Run {
    pub fn production(&mut self) {
        self.postures_and_cedes();
        self.peace("W4.1");
        self.income();
        self.maintenance();
        self.gifts();
        self.remove_spheres();
        self.westernize();
        self.incite();
        self.construction(false);
        for p in self.s.active().collect::<Vec<_>>() {
            if !self.sent[p] {
                let text = format!(
                    "{} sent no production orders: income, maintenance and automatic westernizing only",
                    self.pid(p)
                );
                self.event(Event::new("W9.1", text).player(self.pid(p)));
            }
        }
        self.s.phase = Phase::Movement1;
    }

    /// W4.6, W4.9, W5.8: postures and cessions, standing for the rest of the turn.
    pub fn postures_and_cedes(&mut self) {
        let list = self.step_orders(|o| matches!(o, Order::Posture { .. } | Order::Cede { .. }));
        for t in list {
            let p = self.orders[t].player;
            match self.orders[t].order.clone() {
                Order::Posture { region, support } => {
                    self.s
                        .postures
                        .retain(|x| !(x.player == p && x.region == region));
                    self.s.postures.push(Posture {
                        player: p,
                        region,
                        support,
                    });
                    let what = if support { "supports" } else { "suppresses" };
                    self.note(
                        t,
                        format!(
                            "{what} revolts in {} until the end of the turn",
                            self.rn(region)
                        ),
                    );
                }
                Order::Cede { region, to } => {
                    if !self.s.owns(p, region) {
                        self.invalid(t, format!("{} is not yours", self.rn(region)));
                        continue;
                    }
                    self.s.cedes.retain(|c| c.region != region);
                    self.s.cedes.push(Cede { region, to });
                    self.note(
                        t,
                        format!(
                            "{} may take {} over this turn by moving a brigade in",
                            self.pid(to),
                            self.rn(region)
                        ),
                    );
                }
                _ => {}
            }
        }
    }

    /// W4.1 (and W5.1): a war ends when both players order peace in the phase.
    pub fn peace(&mut self, step: &'static str) {
        let list = self.step_orders(|o| matches!(o, Order::Peace(_)));
        let asked: Vec<(usize, usize)> = list
            .iter()
            .map(|&t| match self.orders[t].order {
                Order::Peace(q) => (self.orders[t].player, q),
                _ => unreachable!(),
            })
            .collect();
        let mut ended: Vec<(usize, usize)> = Vec::new();
        for (k, &t) in list.iter().enumerate() {
            let (p, q) = asked[k];
            let key = (p.min(q), p.max(q));
            if ended.contains(&key) {
                self.done(t, format!("peace with {}", self.pid(q)));
                continue;
            }
            if !self.s.at_war(p, q) {
                self.failed(t, format!("not at war with {}", self.pid(q)));
                continue;
            }
            if !asked.contains(&(q, p)) {
                self.failed(t, format!("{} did not order peace", self.pid(q)));
                continue;
            }
            self.s.wars.retain(|w| w.players != key);
            ended.push(key);
            self.done(t, format!("peace with {}", self.pid(q)));
            let text = format!("peace between {} and {}", self.pid(key.0), self.pid(key.1));
            self.event(Event::new(step, text));
        }
    }

    /// W4.2: a trade path from a port: a chain of seas free of enemy control, to a
    /// trade sea or to the coast of another port of the owner or of a player not at
    /// war with him.
    pub fn trade_path(&self, p: usize, port: usize) -> bool {
        let np = self.np();
        let open = |sea: usize| {
            let own = self.s.fleet(sea, p).n;
            let enemy: u32 = (0..np)
                .filter(|&q| self.s.at_war(p, q))
                .map(|q| self.s.fleet(sea, q).n)
                .sum();
            enemy == 0 || own > enemy
        };
        let goal = |sea: usize| {
            self.map.seas[sea].trade
                || self.map.seas[sea].coast.iter().any(|&r| {
                    r != port
                        && self.s.regions[r].buildings.has(Building::Port)
                        && self.s.regions[r]
                            .owner
                            .is_some_and(|o| o == p || !self.s.at_war(o, p))
                })
        };
        let mut seen = vec![false; self.map.seas.len()];
        let mut queue: VecDeque<usize> = VecDeque::new();
        for &sea in &self.map.regions[port].sea {
            if open(sea) && !seen[sea] {
                seen[sea] = true;
                queue.push_back(sea);
            }
        }
        while let Some(sea) = queue.pop_front() {
            if goal(sea) {
                return true;
            }
            for next in self.s.sea_neighbours(p, sea) {
                if !seen[next] && open(next) {
                    seen[next] = true;
                    queue.push_back(next);
                }
            }
        }
        false
    }

    /// W4.2: income of every player, in movement order.
    pub fn income(&mut self) {
        for p in self.s.order.clone() {
            if self.s.players[p].eliminated {
                continue;
            }
            let (mut land, mut built, mut ports, mut res, mut dp) = (0, 0, 0, 0, 1);
            let mut blocked = Vec::new();
            let regions: Vec<usize> = self.s.regions_of(p).collect();
            for &r in &regions {
                let region = &self.s.regions[r];
                if region.revolt {
                    continue;
                }
                land += if region.native.is_some() { 1 } else { 3 };
                let b = region.buildings;
                if b.has(Building::City) {
                    built += 10;
                    dp += 1;
                }
                if b.has(Building::Factory) {
                    built += 10;
                }
                if b.has(Building::Railroad) {
                    built += 2;
                }
                if b.has(Building::Port) {
                    if self.trade_path(p, r) {
                        ports += 8;
                    } else {
                        blocked.push(self.rn(r));
                    }
                }
                if region.developed && region.chit.value() > 0 {
                    let zone = self.map.regions[r].zone;
                    let factory = regions.iter().any(|&x| {
                        self.map.regions[x].zone == zone
                            && self.s.regions[x].buildings.has(Building::Factory)
                    });
                    res += region.chit.value() + u32::from(factory);
                }
            }
            let pp = land + built + ports + res;
            self.gain_pp(p, pp);
            self.gain_dp(p, dp);
            let mut text = format!(
                "{} collects {pp} PP (regions {land}, buildings {built}, ports {ports}, resources {res}) and {dp} DP",
                self.pid(p)
            );
            if !blocked.is_empty() {
                text += &format!("; no trade path from {}", blocked.join(", "));
            }
            self.event(Event::new("W4.2", text).player(self.pid(p)));
        }
    }

    /// W4.3: DISBAND orders, then 1 PP per unit and fleet; what cannot be paid is
    /// removed, cheapest first.
    pub fn maintenance(&mut self) {
        for t in self.step_orders(|o| matches!(o, Order::Disband { .. })) {
            let p = self.orders[t].player;
            let Order::Disband { units, fleets, at } = self.orders[t].order.clone() else {
                continue;
            };
            match at {
                Place::Region(r) => {
                    let have = *self.s.units(r, p);
                    if !have.contains(&units) {
                        self.failed(t, format!("you have {} in {}", have.text(), self.rn(r)));
                        continue;
                    }
                    if self.s.owns(p, r)
                        && units.brigades() > 0
                        && have.brigades() == units.brigades()
                    {
                        self.invalid(t, format!("{} would be left without a brigade", self.rn(r)));
                        continue;
                    }
                    self.s.units_mut(r, p).sub(&units);
                }
                Place::Sea(k) => {
                    let f = *self.s.fleet(k, p);
                    let mut left = f.cargo;
                    left.sub(&units);
                    if f.n < fleets || !f.cargo.contains(&units) {
                        self.failed(
                            t,
                            format!(
                                "you have {} FLT carrying {} in {}",
                                f.n,
                                f.cargo.text(),
                                self.sn(k)
                            ),
                        );
                        continue;
                    }
                    if left.portage() > (f.n - fleets) * FLEET_PORTAGE {
                        self.invalid(t, "the cargo left would not fit the fleets left");
                        continue;
                    }
                    let fl = self.s.fleet_mut(k, p);
                    fl.n -= fleets;
                    fl.cargo = left;
                }
            }
            self.done(t, "disbanded");
        }
        for p in self.s.order.clone() {
            if self.s.players[p].eliminated {
                continue;
            }
            let np = self.np();
            let mut count: u32 = 0;
            for r in 0..self.s.regions.len() {
                count += self.s.land[r * np + p].total();
            }
            for k in 0..self.map.seas.len() {
                let f = &self.s.fleets[k * np + p];
                count += f.n + f.cargo.total();
            }
            let have = self.s.players[p].pp;
            let paid = count.min(have);
            self.s.players[p].pp = have - paid;
            let short = count - paid;
            let mut text = format!(
                "{} pays {paid} PP for {count} units and fleets",
                self.pid(p)
            );
            if short > 0 {
                let removed = self.remove_unpaid(p, short);
                text += &format!("; {short} unpaid removed: {removed}");
            }
            self.event(Event::new("W4.3", text).player(self.pid(p)));
        }
        self.revert_empty("W4.3");
    }

    /// Removes `n` units of a player: EXP, ENG, INF, CAV, ART, GEN, FLT, each kind
    /// from the places in id order (regions, then seas).
    fn remove_unpaid(&mut self, p: usize, mut n: u32) -> String {
        let mut removed: Vec<String> = Vec::new();
        let order = [
            Kind::Exp,
            Kind::Eng,
            Kind::Inf,
            Kind::Cav,
            Kind::Art,
            Kind::Gen,
        ];
        for k in order {
            for r in self.map.regions_by_id.clone() {
                let have = self.s.units(r, p).get(k);
                let take = have.min(n);
                if take > 0 {
                    self.s.units_mut(r, p).set(k, have - take);
                    n -= take;
                    removed.push(format!("{} {} in {}", take, k.name(), self.rn(r)));
                }
            }
            for sea in self.map.seas_by_id.clone() {
                let have = self.s.fleet(sea, p).cargo.get(k);
                let take = have.min(n);
                if take > 0 {
                    self.s.fleet_mut(sea, p).cargo.set(k, have - take);
                    n -= take;
                    removed.push(format!("{} {} aboard in {}", take, k.name(), self.sn(sea)));
                }
            }
        }
        for sea in self.map.seas_by_id.clone() {
            let have = self.s.fleet(sea, p).n;
            let take = have.min(n);
            if take > 0 {
                self.s.fleet_mut(sea, p).n -= take;
                n -= take;
                removed.push(format!("{take} FLT in {}", self.sn(sea)));
                self.drop_excess_cargo(sea, p, "W4.3");
            }
        }
        removed.join(", ")
    }

    /// W4.4: gifts of PP, DP bought.
    fn gifts(&mut self) {
        let mut bought = vec![0u32; self.np()];
        for t in self.step_orders(|o| matches!(o, Order::Give { .. } | Order::BuyDp(_))) {
            let p = self.orders[t].player;
            match self.orders[t].order.clone() {
                Order::Give { pp, to } => match self.pay_pp(p, pp) {
                    Ok(()) => {
                        self.gain_pp(to, pp);
                        self.done(t, format!("{} receives {pp} PP", self.pid(to)));
                    }
                    Err(why) => self.failed(t, why),
                },
                Order::BuyDp(n) => {
                    let cities = self
                        .s
                        .regions_of(p)
                        .filter(|&r| {
                            !self.s.regions[r].revolt
                                && self.s.regions[r].buildings.has(Building::City)
                        })
                        .count() as u32;
                    if bought[p] + n > cities {
                        self.invalid(
                            t,
                            format!(
                                "at most one DP per controlled city: {cities} cities, {} bought already",
                                bought[p]
                            ),
                        );
                        continue;
                    }
                    match self.pay_pp(p, 10 * n) {
                        Ok(()) => {
                            bought[p] += n;
                            self.gain_dp(p, n);
                            self.done(t, format!("{n} DP for {} PP", 10 * n));
                        }
                        Err(why) => self.failed(t, why),
                    }
                }
                _ => {}
            }
        }
    }

    /// W4.5a: spheres removed.
    fn remove_spheres(&mut self) {
        let mut paid_in: Vec<usize> = Vec::new();
        for t in self.step_orders(|o| matches!(o, Order::RemoveSphere { .. })) {
            let p = self.orders[t].player;
            let Order::RemoveSphere { of, region: r } = self.orders[t].order.clone() else {
                continue;
            };
            if self.s.regions[r].spheres[of] == 0 {
                self.failed(
                    t,
                    format!("{} has no sphere in {}", self.pid(of), self.rn(r)),
                );
                continue;
            }
            if of == p {
                self.s.regions[r].spheres[p] -= 1;
                self.done(t, "own sphere removed");
                if self.s.owns(p, r) {
                    self.lower_ns(r, 1, "W4.5", "own sphere removed by the controller");
                }
                continue;
            }
            if !self.s.owns(p, r) {
                self.invalid(
                    t,
                    format!(
                        "only {}'s controller removes another player's sphere",
                        self.rn(r)
                    ),
                );
                continue;
            }
            if self.s.at_war(p, of) {
                self.s.regions[r].spheres[of] -= 1;
                self.done(t, format!("removed, free: at war with {}", self.pid(of)));
                continue;
            }
            if paid_in.contains(&r) {
                self.invalid(
                    t,
                    format!("one paid removal per region per phase in {}", self.rn(r)),
                );
                continue;
            }
            match self.pay_dp(p, 1) {
                Ok(()) => {
                    paid_in.push(r);
                    self.s.regions[r].spheres[of] -= 1;
                    self.done(t, "removed for 1 DP");
                }
                Err(why) => self.failed(t, why),
            }
        }
    }

    /// W4.5b: WESTERNIZE orders, then automatic westernizing.
    fn westernize(&mut self) {
        let mut done_in: Vec<usize> = Vec::new();
        for t in self.step_orders(|o| matches!(o, Order::Westernize(_))) {
            let p = self.orders[t].player;
            let Order::Westernize(r) = self.orders[t].order else {
                continue;
            };
            if !self.s.owns(p, r) {
                self.invalid(t, format!("{} is not yours", self.rn(r)));
                continue;
            }
            if self.s.regions[r].native.is_none() {
                self.failed(t, format!("{} is westernized already", self.rn(r)));
                continue;
            }
            if done_in.contains(&r) {
                self.invalid(t, "once per region per phase");
                continue;
            }
            match self.pay_dp(p, 1) {
                Ok(()) => {
                    done_in.push(r);
                    self.done(t, "NS -3 for 1 DP");
                    self.lower_ns(r, 3, "W4.5", "westernized for 1 DP");
                }
                Err(why) => self.failed(t, why),
            }
        }
        let np = self.np();
        for r in 0..self.s.regions.len() {
            if self.s.regions[r].owner.is_none() || self.s.regions[r].native.is_none() {
                continue;
            }
            let b = self.s.regions[r].buildings;
            let built = WESTERNIZING.iter().filter(|&&x| b.has(x)).count() as u32;
            let explorers: u32 = (0..np).map(|q| self.s.units(r, q).get(Kind::Exp)).sum();
            let by = built + explorers;
            if by > 0 {
                let cause = format!("automatic: {built} buildings, {explorers} explorers");
                self.lower_ns(r, by, "W4.5", &cause);
            }
        }
    }

    /// The sphere DRM of a revolt roll in a region (W4.5c, W4.6), and the players
    /// whose spheres suppress.
    pub fn sphere_drm(&self, r: usize, inciter: Option<usize>) -> (i32, Vec<usize>, String) {
        let owner = self.s.regions[r].owner;
        let mut drm = 0i32;
        let mut suppressors = Vec::new();
        let mut parts = Vec::new();
        for (q, &n) in self.s.regions[r].spheres.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let explicit = self
                .s
                .postures
                .iter()
                .find(|x| x.player == q && x.region == r)
                .map(|x| x.support);
            let support = explicit.unwrap_or_else(|| {
                Some(q) == inciter || owner.is_some_and(|o| self.s.at_war(q, o))
            });
            if support {
                drm -= n as i32;
                parts.push(format!("{} supports -{n}", self.pid(q)));
            } else {
                drm += n as i32;
                suppressors.push(q);
                parts.push(format!("{} suppresses +{n}", self.pid(q)));
            }
        }
        (drm, suppressors, parts.join(", "))
    }

    /// A revolt roll (W4.5c, W6.7): 2D6 + DRM ≤ NS starts a revolt. Returns whether
    /// it did.
    pub fn revolt_roll(
        &mut self,
        r: usize,
        inciter: Option<usize>,
        bribe: bool,
        step: &'static str,
    ) -> bool {
        let Some(m) = self.s.regions[r].native else {
            return false;
        };
        let name = self.rn(r);
        let a = self.d6(step, format!("revolt roll at {name}"));
        let b = self.d6(step, format!("revolt roll at {name}"));
        let (spheres, suppressors, parts) = self.sphere_drm(r, inciter);
        let drm = spheres - if bribe { 3 } else { 0 };
        let total = a as i32 + b as i32 + drm;
        let revolt = total <= m.ns as i32;
        let mut why = format!("{a}+{b}");
        if bribe {
            why += " -3 bribe";
        }
        if !parts.is_empty() {
            why += &format!(" ({parts})");
        }
        let text = if revolt {
            format!(
                "{name}: revolt roll {why} = {total} <= NS {}: the natives revolt",
                m.ns
            )
        } else {
            format!(
                "{name}: revolt roll {why} = {total} > NS {}: no revolt",
                m.ns
            )
        };
        self.event(Event::new(step, text).region(&name));
        if revolt {
            let region = &mut self.s.regions[r];
            region.revolt = true;
            region.suppressors = suppressors;
        }
        revolt
    }

    /// W4.5c: INCITE orders.
    fn incite(&mut self) {
        let mut tried: Vec<(usize, usize)> = Vec::new();
        for t in self.step_orders(|o| matches!(o, Order::Incite { .. })) {
            let p = self.orders[t].player;
            let Order::Incite {
                region: r,
                bribe,
                sphere,
            } = self.orders[t].order
            else {
                continue;
            };
            let Some(owner) = self.s.regions[r].owner else {
                self.failed(t, format!("{} is native-controlled", self.rn(r)));
                continue;
            };
            if owner == p {
                self.invalid(t, "your own region");
                continue;
            }
            if self.s.regions[r].native.is_none() {
                self.failed(
                    t,
                    format!("{} is westernized: no natives to incite", self.rn(r)),
                );
                continue;
            }
            if self.s.regions[r].revolt {
                self.failed(t, format!("{} is in revolt already", self.rn(r)));
                continue;
            }
            if let Some((_, q)) = tried.iter().find(|(x, _)| *x == r) {
                self.failed(
                    t,
                    format!(
                        "one attempt per region per phase: {} tried first",
                        self.pid(*q)
                    ),
                );
                continue;
            }
            let dp = u32::from(!sphere) + u32::from(bribe);
            if sphere && self.s.regions[r].spheres[p] == 0 {
                self.failed(t, format!("no sphere of yours in {}", self.rn(r)));
                continue;
            }
            if dp > 0 && (!sphere || bribe) {
                let land = self.map.regions[r]
                    .land
                    .iter()
                    .any(|&a| self.s.owns(p, a) && !self.s.regions[a].revolt);
                let sea = self.map.regions[r]
                    .sea
                    .iter()
                    .any(|&k| self.s.fleet(k, p).n > 0);
                if !land && !sea {
                    self.failed(
                        t,
                        "paying DP needs an own region beside it (not in revolt) or an own fleet on its coast",
                    );
                    continue;
                }
            }
            if let Err(why) = self.pay_dp(p, dp) {
                self.failed(t, why);
                continue;
            }
            if sphere {
                self.s.regions[r].spheres[p] -= 1;
            }
            tried.push((r, p));
            let revolt = self.revolt_roll(r, Some(p), bribe, "W4.5");
            let paid = if sphere {
                format!("one sphere{}", if bribe { " and 1 DP" } else { "" })
            } else {
                format!("{dp} DP")
            };
            self.done(
                t,
                if revolt {
                    format!("paid {paid}: revolt")
                } else {
                    format!("paid {paid}: no revolt")
                },
            );
        }
    }

    /// W4.7–W4.8 (and W3.3 with `setup`): BUILD and DEVELOP in written order.
    pub fn construction(&mut self, setup: bool) {
        let nr = self.s.regions.len();
        let mut built = vec![Units::default(); nr];
        let mut fleet_ports: Vec<usize> = Vec::new();
        let mut projects = vec![0u32; nr];
        let mut eng_used = vec![0u32; nr];
        let mut new_cities: Vec<usize> = Vec::new();
        for t in self.step_orders(|o| matches!(o, Order::Build(_) | Order::Develop(_))) {
            let p = self.orders[t].player;
            let order = self.orders[t].order.clone();
            let project_region = match &order {
                Order::Build(Build::Building { region, .. })
                | Order::Build(Build::Suez { region })
                | Order::Develop(region) => Some(*region),
                _ => None,
            };
            // Own region, not in revolt.
            let region = match &order {
                Order::Build(Build::Units { region, .. }) => Some(*region),
                Order::Build(Build::Fleet { at, .. }) => *at,
                _ => project_region,
            };
            if let Some(r) = region {
                if !self.s.owns(p, r) {
                    self.invalid(t, format!("{} is not yours", self.rn(r)));
                    continue;
                }
                if self.s.regions[r].revolt {
                    self.failed(
                        t,
                        format!("{} is in revolt: nothing is built there", self.rn(r)),
                    );
                    continue;
                }
            }
            let mut cost;
            let mut discounted = false;
            if let Some(r) = project_region {
                if let Err(why) = self.project_rules(&order, r, setup, &new_cities) {
                    self.invalid(t, why);
                    continue;
                }
                let engineers = self.s.units(r, p).get(Kind::Eng);
                if !setup && engineers == 0 && projects[r] >= 1 {
                    self.invalid(
                        t,
                        format!(
                            "one project per region per phase in {} without an engineer there",
                            self.rn(r)
                        ),
                    );
                    continue;
                }
                cost = match &order {
                    Order::Build(Build::Building { kind, .. }) => kind.cost(),
                    Order::Build(Build::Suez { .. }) => 60,
                    _ => 15,
                };
                if !setup && eng_used[r] < engineers {
                    cost = (cost * 2).div_ceil(3);
                    discounted = true;
                }
            } else {
                cost = 0;
            }
            match order {
                Order::Build(Build::Units { n, kind, region: r }) => {
                    if !setup {
                        let already = built[r].get(kind);
                        if already + n > kind.limit() {
                            self.invalid(
                                t,
                                format!(
                                    "over the limit of {} {} per region per phase ({already} built in {})",
                                    kind.limit(),
                                    kind.name(),
                                    self.rn(r)
                                ),
                            );
                            continue;
                        }
                        let needs = match kind {
                            Kind::Cav | Kind::Eng => Some(Building::City),
                            Kind::Art => Some(Building::Factory),
                            Kind::Gen => Some(Building::School),
                            _ => None,
                        };
                        if let Some(b) = needs {
                            if !self.s.regions[r].buildings.has(b) {
                                self.invalid(
                                    t,
                                    format!(
                                        "{} is built in a region with a {}",
                                        kind.name(),
                                        b.name()
                                    ),
                                );
                                continue;
                            }
                        }
                    }
                    let cost = kind.cost() * n;
                    match self.pay_pp(p, cost) {
                        Ok(()) => {
                            built[r].add_kind(kind, n);
                            self.s.units_mut(r, p).add_kind(kind, n);
                            self.done(t, format!("built for {cost} PP"));
                        }
                        Err(why) => self.failed(t, why),
                    }
                }
                Order::Build(Build::Fleet { sea, at }) => {
                    let port = match self.fleet_port(p, sea, at, setup, &fleet_ports) {
                        Ok(r) => r,
                        Err(why) => {
                            self.invalid(t, why);
                            continue;
                        }
                    };
                    match self.pay_pp(p, FLEET_COST) {
                        Ok(()) => {
                            if !setup {
                                fleet_ports.push(port);
                            }
                            self.s.fleet_mut(sea, p).n += 1;
                            self.done(t, format!("built at {} for {FLEET_COST} PP", self.rn(port)));
                        }
                        Err(why) => self.failed(t, why),
                    }
                }
                Order::Build(Build::Building { kind, region: r }) => match self.pay_pp(p, cost) {
                    Ok(()) => {
                        self.s.regions[r].buildings.put(kind);
                        if kind == Building::City {
                            new_cities.push(r);
                        }
                        projects[r] += 1;
                        if discounted {
                            eng_used[r] += 1;
                        }
                        let how = if discounted { " (engineer)" } else { "" };
                        self.done(t, format!("built for {cost} PP{how}"));
                    }
                    Err(why) => self.failed(t, why),
                },
                Order::Build(Build::Suez { region: r }) => match self.pay_pp(p, cost) {
                    Ok(()) => {
                        self.s.suez = true;
                        projects[r] += 1;
                        if discounted {
                            eng_used[r] += 1;
                        }
                        self.done(t, format!("built for {cost} PP"));
                        let text = format!(
                            "{} builds the Suez Canal in {}: the canal is open from movement 1",
                            self.pid(p),
                            self.rn(r)
                        );
                        self.event(Event::new("W4.8", text).player(self.pid(p)));
                    }
                    Err(why) => self.failed(t, why),
                },
                Order::Develop(r) => match self.pay_pp(p, cost) {
                    Ok(()) => {
                        self.s.regions[r].developed = true;
                        projects[r] += 1;
                        if discounted {
                            eng_used[r] += 1;
                        }
                        let how = if discounted { " (engineer)" } else { "" };
                        self.done(
                            t,
                            format!("{} developed for {cost} PP{how}", self.s.regions[r].chit),
                        );
                    }
                    Err(why) => self.failed(t, why),
                },
                _ => {}
            }
        }
    }

    /// The building rules a project must meet (W4.7, W4.8, W3.3).
    fn project_rules(
        &self,
        order: &Order,
        r: usize,
        setup: bool,
        new_cities: &[usize],
    ) -> Result<(), String> {
        let b = self.s.regions[r].buildings;
        let name = self.rn(r);
        match order {
            Order::Build(Build::Building { kind, .. }) => {
                if b.has(*kind) {
                    return Err(format!("{name} has a {} already", kind.name()));
                }
                if kind.exclusive() {
                    if let Some(x) = b.list().into_iter().find(|x| x.exclusive()) {
                        return Err(format!(
                            "one of city, factory, port, railroad per region: {name} has a {}",
                            x.name()
                        ));
                    }
                }
                if *kind == Building::Port && self.map.regions[r].sea.is_empty() {
                    return Err(format!("{name} is not coastal"));
                }
                if *kind == Building::School {
                    if !b.has(Building::City) {
                        return Err(format!("a school needs a city: {name} has none"));
                    }
                    if !setup && new_cities.contains(&r) {
                        return Err(format!(
                            "a school needs a city not built this phase ({name})"
                        ));
                    }
                }
                Ok(())
            }
            Order::Build(Build::Suez { .. }) => {
                if self.map.canal_region() != Some(r) {
                    return Err(match self.map.canal_region() {
                        Some(c) => format!("the canal is built in {}", self.rn(c)),
                        None => "this map has no canal".into(),
                    });
                }
                if self.s.suez {
                    return Err("the Suez Canal is built already (once per game)".into());
                }
                Ok(())
            }
            Order::Develop(_) => {
                let region = &self.s.regions[r];
                if region.chit.value() == 0 {
                    return Err(format!("{name} has a dot: nothing to develop"));
                }
                if region.developed {
                    return Err(format!("{name}'s {} is developed already", region.chit));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The region a fleet is built at (W4.7; in setup any own coastal region, W3.3).
    fn fleet_port(
        &self,
        p: usize,
        sea: usize,
        at: Option<usize>,
        setup: bool,
        used: &[usize],
    ) -> Result<usize, String> {
        let fits = |r: usize| -> Result<(), String> {
            let name = self.rn(r);
            if !self.s.owns(p, r) {
                return Err(format!("{name} is not yours"));
            }
            if !self.map.coastal(r, sea) {
                return Err(format!("{name} is not on the coast of {}", self.sn(sea)));
            }
            if self.s.regions[r].revolt {
                return Err(format!("{name} is in revolt"));
            }
            if !setup {
                if !self.s.regions[r].buildings.has(Building::Port) {
                    return Err(format!("{name} has no port"));
                }
                if used.contains(&r) {
                    return Err(format!("the port of {name} has built a fleet this phase"));
                }
            }
            Ok(())
        };
        match at {
            Some(r) => fits(r).map(|_| r),
            None => {
                let mut coast = self.map.seas[sea].coast.clone();
                coast.sort_by_key(|&r| self.map.regions[r].id.to_ascii_lowercase());
                coast.into_iter().find(|&r| fits(r).is_ok()).ok_or_else(|| {
                    if setup {
                        format!("no region of yours on the coast of {}", self.sn(sea))
                    } else {
                        format!(
                            "no port of yours on {} that has not built a fleet this phase",
                            self.sn(sea)
                        )
                    }
                })
            }
        }
    }
}
