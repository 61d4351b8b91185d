//! The production phase (W4): peace, income with trade paths, maintenance, gifts and
//! DP, native diplomacy (`natives`), construction (`construction`, shared with setup,
//! W3.3).
//! Steps run in the rules' order; within a step, players in movement order, each in
//! written order.

use std::collections::VecDeque;

use super::map::Place;
use super::order::Order;
use super::outcome::Event;
use super::run::Run;
use super::state::{Building, Cede, Kind, Phase, Posture, FLEET_PORTAGE};
use crate::rules::counted;

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
        // W5.1: a player left with no region (his last brigades removed for upkeep) is
        // eliminated at the end of production; he owes no movement orders, and the
        // game ends after movement 1 (W8.1: after the movement phase that follows).
        let sent_no_orders: Vec<usize> = self.s.active().filter(|&p| !self.sent[p]).collect();
        if self.eliminate() {
            let text = "the game ends after movement 1 of this turn (a player was eliminated)";
            self.event(Event::new("W8.1", text));
        }
        for p in sent_no_orders {
            let text = format!(
                "{} sent no production orders: income, maintenance and automatic westernizing only",
                self.pid(p)
            );
            self.event(Event::new("W9.1", text).player(self.pid(p)));
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
            let (mut units, mut fleets): (u32, u32) = (0, 0);
            for r in 0..self.s.regions.len() {
                units += self.s.land[r * np + p].total();
            }
            for k in 0..self.map.seas.len() {
                let f = &self.s.fleets[k * np + p];
                units += f.cargo.total();
                fleets += f.n;
            }
            let count = units + fleets;
            let have = self.s.players[p].pp;
            let paid = count.min(have);
            self.s.players[p].pp = have - paid;
            let short = count - paid;
            let what = match (units, fleets) {
                (0, 0) => "no units or fleets".to_string(),
                (u, 0) => counted(u, "unit", "units"),
                (0, f) => counted(f, "fleet", "fleets"),
                (u, f) => format!(
                    "{} and {}",
                    counted(u, "unit", "units"),
                    counted(f, "fleet", "fleets")
                ),
            };
            let mut text = format!("{} pays {paid} PP for {what}", self.pid(p));
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
                                "at most one DP per controlled city: {}, {} bought already",
                                counted(cities, "city", "cities"),
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
}
