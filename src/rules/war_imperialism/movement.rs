//! The movement phase (W5): peace, then each player's turn in movement order: his
//! moves (MOVE, SAIL, ATTACK in written order; fleets at sea are `voyage`'s),
//! reinforcement by the others, his battles, his parleys and prospects, his
//! declarations of war.

use super::map::Place;
use super::order::Order;
use super::outcome::Event;
use super::run::{Pending, Run, Scratch};
use super::state::{Building, Kind, Units};

/// How units enter a region (W5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// An own region: go on.
    Own,
    /// Explorers alone in a native region: they may go on.
    Pass,
    /// A battle (native or enemy region): the units stop.
    Battle,
    /// A region ceded to the mover: the brigade stops and takes it over.
    Ceded,
}

impl Run {
    pub fn movement(&mut self) {
        let (nr, ns, np) = (self.s.regions.len(), self.map.seas.len(), self.np());
        self.mv = Scratch {
            moved: vec![Units::default(); nr * np],
            amph: vec![Units::default(); nr * np],
            idle: vec![Units::default(); nr * np],
            fleet_moved: vec![0; ns * np],
            cargo_moved: vec![Units::default(); ns * np],
            prospects: vec![0; nr],
            ..Scratch::default()
        };
        self.standing_orders();
        self.postures_and_cedes();
        self.peace("W5.1");
        // A player eliminated in this turn's production (W5.1) ends the game after
        // this phase, as one eliminated in it would (W8.1): an eliminated player in a
        // game still going was eliminated since the last movement phase.
        let mut eliminated = self.eliminate() || self.s.players.iter().any(|x| x.eliminated);
        for p in self.s.order.clone() {
            if self.s.players[p].eliminated {
                continue;
            }
            self.player_turn(p);
            eliminated |= self.eliminate();
        }
        for p in self.s.active().collect::<Vec<_>>() {
            if !self.sent[p] {
                let text = format!(
                    "{} sent no movement orders: no moves, battles with the default instructions, no reinforcement",
                    self.pid(p)
                );
                self.event(Event::new("W9.1", text).player(self.pid(p)));
            }
        }
        self.end_movement(eliminated);
    }

    /// W6.9: BATTLE, LOSSES, NAVAL ROUNDS and INTERCEPT lines, standing for the phase.
    fn standing_orders(&mut self) {
        for t in 0..self.orders.len() {
            let p = self.orders[t].player;
            match self.orders[t].order.clone() {
                Order::Battle(b) => self.standing[p].battle.push(b),
                Order::Losses(list) => self.standing[p].losses = list,
                Order::NavalRounds(n) => self.standing[p].naval_rounds = Some(n),
                Order::Intercept { sea, mode } => self.standing[p].intercept.push((sea, mode)),
                _ => {}
            }
        }
    }

    fn player_turn(&mut self, p: usize) {
        self.mv.pending.clear();
        self.mv.reinforced.clear();
        for t in self.orders_of(p, |o| {
            matches!(
                o,
                Order::Move { .. } | Order::Sail { .. } | Order::Attack { .. }
            )
        }) {
            if self.s.players[p].eliminated {
                break;
            }
            match self.orders[t].order.clone() {
                Order::Move { units, from, path } => self.exec_move(t, p, units, from, path),
                Order::Sail { n, sea, steps } => self.exec_sail(t, p, n, sea, steps),
                Order::Attack { player, sea } => self.exec_attack(t, p, player, sea),
                _ => {}
            }
        }
        self.reinforcement(p);
        let revolts: Vec<usize> = self
            .map
            .regions_by_id
            .iter()
            .copied()
            .filter(|&r| self.s.owns(p, r) && self.s.regions[r].revolt)
            .collect();
        self.mv.revolts_left = revolts.clone();
        for r in revolts {
            self.mv.revolts_left.retain(|&x| x != r);
            if self.s.owns(p, r) && self.s.regions[r].revolt {
                self.revolt_battle(r);
            }
        }
        let mut k = 0;
        while k < self.mv.pending.len() {
            let r = self.mv.pending[k].region;
            self.entered_battle(p, r, k);
            k += 1;
        }
        self.mv.pending.clear();
        for t in self.orders_of(p, |o| {
            matches!(o, Order::Parley { .. } | Order::Prospect(_))
        }) {
            match self.orders[t].order.clone() {
                Order::Parley { region, dp } => self.exec_parley(t, p, region, dp),
                Order::Prospect(r) => self.exec_prospect(t, p, r),
                _ => {}
            }
        }
        for t in self.orders_of(p, |o| matches!(o, Order::DeclareWar(_))) {
            if let Order::DeclareWar(q) = self.orders[t].order {
                self.exec_war(t, p, q);
            }
        }
    }

    pub fn unmoved(&self, r: usize, p: usize) -> Units {
        let k = r * self.np() + p;
        let mut u = self.s.land[k];
        u.sub(&self.mv.moved[k]);
        u
    }

    fn pending_has(&self, r: usize) -> bool {
        self.mv.pending.iter().any(|x| x.region == r)
    }

    /// Whether `units` may enter region `r` (W5.3); `with_brigade`: a brigade of the
    /// same order entered it already.
    pub(super) fn entry(
        &self,
        p: usize,
        r: usize,
        units: &Units,
        with_brigade: bool,
    ) -> Result<Entry, String> {
        let name = self.rn(r);
        let brigades = units.brigades() > 0 || with_brigade;
        match self.s.regions[r].owner {
            Some(o) if o == p => Ok(Entry::Own),
            None => {
                if units.brigades() > 0 {
                    Ok(Entry::Battle)
                } else if units.only_explorers() {
                    Ok(Entry::Pass)
                } else if brigades || self.pending_has(r) {
                    Ok(Entry::Battle)
                } else {
                    Err(format!(
                        "parties enter native {name} only with a brigade (explorers alone may)"
                    ))
                }
            }
            Some(o) => {
                let them = self.pid(o);
                if self.s.regions[r].revolt && self.s.at_war(p, o) {
                    return Err(format!(
                        "{name} is in revolt: closed to players at war with {them}"
                    ));
                }
                if self.s.cedes.iter().any(|c| c.region == r && c.to == p) {
                    return if units.brigades() > 0 {
                        Ok(Entry::Ceded)
                    } else {
                        Err(format!("{name} is ceded to you: a brigade takes it over"))
                    };
                }
                if !self.s.at_war(p, o) {
                    return Err(format!("{name} belongs to {them}: you are not at war"));
                }
                if !self.s.may_attack(p, o) {
                    return Err(format!(
                        "you declared war on {them} this phase: you attack from your next movement phase"
                    ));
                }
                if brigades || self.pending_has(r) {
                    Ok(Entry::Battle)
                } else {
                    Err(format!("parties enter {them}'s {name} only with a brigade"))
                }
            }
        }
    }

    /// W5.2–W5.3: checked whole; any bad step and nothing moves.
    fn exec_move(&mut self, t: usize, p: usize, units: Units, from: usize, path: Vec<Place>) {
        let unmoved = self.unmoved(from, p);
        let have = *self.s.units(from, p);
        if !unmoved.contains(&units) {
            let why = if have.contains(&units) {
                format!(
                    "some of these units have moved this phase ({} unmoved in {})",
                    unmoved.text(),
                    self.rn(from)
                )
            } else {
                format!("you have {} in {}", have.text(), self.rn(from))
            };
            return self.invalid(t, why);
        }
        if let Err(why) = self.garrison(p, from, &units) {
            return self.invalid(t, why);
        }
        let min_mp = units.min_mp().unwrap_or(0);
        let mut cur = from;
        let mut cost = 0u32;
        let mut stop: Option<(usize, Entry)> = None;
        let mut dest = Place::Region(from);
        let mut origin = Place::Region(from);
        for (i, &step) in path.iter().enumerate() {
            if let Some((at, _)) = stop {
                return self.invalid(
                    t,
                    format!(
                        "the units stop in {}: {} cannot follow",
                        self.rn(at),
                        self.pn(step)
                    ),
                );
            }
            match step {
                Place::Sea(sea) => {
                    if i + 1 != path.len() {
                        return self.invalid(t, "boarding fleets ends the move");
                    }
                    if !self.map.coastal(cur, sea) {
                        return self.invalid(
                            t,
                            format!("{} is not on the coast of {}", self.sn(sea), self.rn(cur)),
                        );
                    }
                    cost += 1;
                    let f = self.s.fleet(sea, p);
                    if f.n == 0 {
                        return self.invalid(t, format!("no fleet of yours in {}", self.sn(sea)));
                    }
                    if f.room() < units.portage() {
                        return self.invalid(
                            t,
                            format!(
                                "no room aboard your fleets in {}: {} portage points free, {} needed",
                                self.sn(sea),
                                f.room(),
                                units.portage()
                            ),
                        );
                    }
                    origin = Place::Region(cur);
                    dest = step;
                }
                Place::Region(r) => {
                    if !self.map.land_adjacent(cur, r) {
                        return self.invalid(
                            t,
                            format!("{} is not land-adjacent to {}", self.rn(r), self.rn(cur)),
                        );
                    }
                    let rail = self.s.owns(p, cur)
                        && self.s.regions[cur].buildings.has(Building::Railroad);
                    cost += if rail { 0 } else { 1 };
                    let e = match self.entry(p, r, &units, false) {
                        Ok(e) => e,
                        Err(why) => return self.invalid(t, why),
                    };
                    if matches!(e, Entry::Battle | Entry::Ceded) {
                        stop = Some((r, e));
                    }
                    origin = Place::Region(cur);
                    cur = r;
                    dest = step;
                }
            }
        }
        if cost > min_mp {
            let slow = super::state::KINDS
                .iter()
                .find(|&&k| units.get(k) > 0 && k.mp() < cost)
                .map(|k| k.name())
                .unwrap_or("");
            return self.invalid(t, format!("{slow} has {min_mp} MP; the path costs {cost}"));
        }
        // Carry it out.
        let np = self.np();
        self.s.units_mut(from, p).sub(&units);
        self.clamp(from, p);
        let detail = match dest {
            Place::Sea(sea) => {
                self.s.fleet_mut(sea, p).cargo.add(&units);
                self.mv.cargo_moved[sea * np + p].add(&units);
                format!("aboard the fleets in {}", self.sn(sea))
            }
            Place::Region(r) => {
                self.s.units_mut(r, p).add(&units);
                self.mv.moved[r * np + p].add(&units);
                match stop {
                    Some((_, Entry::Battle)) => {
                        self.add_pending(r, origin);
                        format!("entered {} ({}): battle", self.rn(r), self.holder(r))
                    }
                    Some((_, Entry::Ceded)) => {
                        self.take_ceded(r, p);
                        format!("took over {}, ceded to you", self.rn(r))
                    }
                    _ if self.s.regions[r].owner.is_none() => {
                        format!("explorers in {} (natives)", self.rn(r))
                    }
                    _ => format!("to {}", self.rn(r)),
                }
            }
        };
        self.done(t, detail);
    }

    /// The side holding a region, in words.
    pub fn holder(&self, r: usize) -> String {
        match self.s.regions[r].owner {
            Some(o) => self.pid(o),
            None => "natives".into(),
        }
    }

    /// An order may not take the last brigade out of an own region, nor brigades out
    /// of a region in revolt below the native brigades there (W5.3).
    pub(super) fn garrison(&self, p: usize, from: usize, units: &Units) -> Result<(), String> {
        if !self.s.owns(p, from) || units.brigades() == 0 {
            return Ok(());
        }
        let left = self.s.units(from, p).brigades() - units.brigades();
        if left == 0 {
            return Err(format!(
                "may not take the last brigade out of {}",
                self.rn(from)
            ));
        }
        if self.s.regions[from].revolt {
            let ns = self.s.regions[from].native.map(|m| m.ns).unwrap_or(0);
            if left < ns {
                return Err(format!(
                    "{} is in revolt: {ns} brigades must stay (the native brigades there)",
                    self.rn(from)
                ));
            }
        }
        Ok(())
    }

    pub(super) fn add_pending(&mut self, r: usize, origin: Place) {
        match self.mv.pending.iter_mut().find(|x| x.region == r) {
            Some(x) => {
                if !x.origins.contains(&origin) {
                    x.origins.push(origin);
                }
            }
            None => self.mv.pending.push(Pending {
                region: r,
                origins: vec![origin],
            }),
        }
    }

    /// W5.8: the region changes hands; the old owner's units and any third player's
    /// go to their adjacent region with most brigades, else aboard, else are lost.
    pub fn take_ceded(&mut self, r: usize, p: usize) {
        let old = self.s.regions[r].owner;
        self.s.regions[r].owner = Some(p);
        self.s.cedes.retain(|c| c.region != r);
        let text = format!(
            "{} takes over {}, ceded by {}",
            self.pid(p),
            self.rn(r),
            old.map(|o| self.pid(o)).unwrap_or_default()
        );
        self.event(
            Event::new("W5.8", text)
                .player(self.pid(p))
                .region(self.rn(r)),
        );
        for x in 0..self.np() {
            if x == p {
                continue;
            }
            let u = *self.s.units(r, x);
            if !u.is_empty() {
                self.relocate(r, x, u, "W5.8", true);
            }
        }
        self.revert_empty("W5.8");
    }

    /// W5.9: after the mover's moves, each own region he entered to attack may be
    /// reinforced by one general, by the owner's first REINFORCE order that can fire.
    fn reinforcement(&mut self, mover: usize) {
        let np = self.np();
        let targets: Vec<usize> = self.mv.pending.iter().map(|x| x.region).collect();
        for r in targets.clone() {
            let owner = self.s.regions[r].owner;
            // Other players' orders to reinforce the region: it is not theirs to defend.
            for x in (0..np).filter(|&x| Some(x) != owner) {
                let list = self.orders_of(
                    x,
                    |o| matches!(o, Order::Reinforce { target, .. } if *target == r),
                );
                for t in list {
                    if !self.mv.fired.contains(&t) {
                        let why = format!("{} is not {}'s", self.rn(r), self.pid(x));
                        self.cannot_reinforce(t, mover, r, &why);
                    }
                }
            }
            let Some(q) = owner else {
                continue;
            };
            if q == mover || self.mv.reinforced.contains(&r) {
                continue;
            }
            let list = self.orders_of(
                q,
                |o| matches!(o, Order::Reinforce { target, .. } if *target == r),
            );
            let mut fired: Option<usize> = None;
            for t in list {
                if self.mv.fired.contains(&t) {
                    continue;
                }
                let Order::Reinforce {
                    origin: o, with, ..
                } = self.orders[t].order.clone()
                else {
                    continue;
                };
                if let Some(o_fired) = fired {
                    // One general per region reinforced.
                    let why = format!(
                        "{} is reinforced from {} already",
                        self.rn(r),
                        self.rn(o_fired)
                    );
                    self.cannot_reinforce(t, mover, r, &why);
                    continue;
                }
                // An origin not land-adjacent to the target was refused when read
                // (`check::static_check`).
                let why = if !self.s.owns(q, o) {
                    Some(format!("{} is not {}'s", self.rn(o), self.pid(q)))
                } else if targets.contains(&o) {
                    Some(format!("{} is under attack too", self.rn(o)))
                } else if self.unmoved(o, q).get(Kind::Gen) == 0 {
                    Some(format!("no unused general in {}", self.rn(o)))
                } else {
                    None
                };
                if let Some(why) = why {
                    self.cannot_reinforce(t, mover, r, &why);
                    continue;
                }
                fired = Some(o);
                self.mv.fired.push(t);
                self.mv.reinforced.push(r);
                let schools = self.s.schools(q);
                let die = self.d6(
                    "W5.9",
                    format!("RP of {} reinforcing {}", self.pid(q), self.rn(r)),
                );
                let rp = schools + die;
                let candidates: Vec<Kind> = match with {
                    Some(list) => list,
                    None => {
                        let u = self.unmoved(o, q);
                        let mut v = Vec::new();
                        for k in [Kind::Art, Kind::Inf, Kind::Cav] {
                            v.extend(std::iter::repeat_n(k, u.get(k) as usize));
                        }
                        v
                    }
                };
                let mut moving = Units::one(Kind::Gen);
                let mut left = rp;
                for k in candidates {
                    let stays = self.s.units(o, q).brigades() - moving.brigades();
                    let free = self.unmoved(o, q).get(k) - moving.get(k);
                    if k.rp() <= left && free > 0 && stays > 1 {
                        moving.add_kind(k, 1);
                        left -= k.rp();
                    }
                }
                self.s.units_mut(o, q).sub(&moving);
                self.clamp(o, q);
                self.s.units_mut(r, q).add(&moving);
                self.mv.moved[r * np + q].add(&moving);
                let text = format!(
                    "{} reinforces {} from {} with {} (RP {} + {die} = {rp})",
                    self.pid(q),
                    self.rn(r),
                    self.rn(o),
                    moving.text(),
                    crate::rules::counted(schools, "school", "schools")
                );
                self.event(
                    Event::new("W5.9", text.clone())
                        .player(self.pid(q))
                        .region(self.rn(r)),
                );
                self.note(t, format!("fired: {}", text));
            }
        }
    }

    /// W5.9: a REINFORCE order for a region the mover attacked that could not fire,
    /// with the reason (an order that fires later in the phase says so instead).
    fn cannot_reinforce(&mut self, t: usize, mover: usize, r: usize, why: &str) {
        let text = format!(
            "could not fire when {} attacked {}: {why}",
            self.pid(mover),
            self.rn(r)
        );
        self.note(t, text);
    }
}
