//! The movement phase (W5): peace, then each player's turn in movement order: his
//! moves (MOVE, SAIL, ATTACK in written order), reinforcement by the others, his
//! battles, his parleys and prospects, his declarations of war.

use super::map::Place;
use super::order::{Order, SailStep};
use super::outcome::Event;
use super::run::{Pending, Run, Scratch};
use super::state::{Building, Kind, Units, FLEET_MP, FLEET_PORTAGE};

/// How units enter a region (W5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// An own region: go on.
    Own,
    /// Explorers alone in a native region: they may go on.
    Pass,
    /// A battle (native or enemy region): the units stop.
    Battle,
    /// A region ceded to the mover: the brigade stops and takes it over.
    Ceded,
}

/// A group of fleets on the move, with its cargo.
#[derive(Clone, Debug)]
pub struct Group {
    pub player: usize,
    pub n: u32,
    pub cargo: Units,
    /// The part of the cargo that may land in this order.
    pub landable: Units,
}

impl Group {
    pub fn room(&self) -> u32 {
        (self.n * FLEET_PORTAGE).saturating_sub(self.cargo.portage())
    }
}

/// What became of a group in naval battles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    GoesOn,
    /// It broke off: it stops where it is.
    Stopped,
    Sunk,
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
        let mut eliminated = self.eliminate();
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
        for r in revolts {
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
    fn entry(
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
    fn garrison(&self, p: usize, from: usize, units: &Units) -> Result<(), String> {
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

    fn add_pending(&mut self, r: usize, origin: Place) {
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

    /// Takes a group of `n` unmoved fleets out of a stack, with its cargo (W5.5): all
    /// if it fits, else ART, CAV, INF, GEN, ENG, EXP while it fits; what stays must fit
    /// the staying fleets.
    fn take_group(&self, p: usize, sea: usize, n: u32) -> Result<Group, String> {
        let k = sea * self.np() + p;
        let f = self.s.fleets[k];
        let unmoved = f.n - self.mv.fleet_moved[k].min(f.n);
        if unmoved < n {
            return Err(format!(
                "you have {unmoved} unmoved FLT in {}, not {n}",
                self.sn(sea)
            ));
        }
        let cap = n * FLEET_PORTAGE;
        let mut taken = Units::default();
        if f.cargo.portage() <= cap {
            taken = f.cargo;
        } else {
            let mut left = cap;
            for kind in [
                Kind::Art,
                Kind::Cav,
                Kind::Inf,
                Kind::Gen,
                Kind::Eng,
                Kind::Exp,
            ] {
                let fit = (left / kind.portage()).min(f.cargo.get(kind));
                taken.add_kind(kind, fit);
                left -= fit * kind.portage();
            }
        }
        let mut stays = f.cargo;
        stays.sub(&taken);
        if stays.portage() > (f.n - n) * FLEET_PORTAGE {
            return Err(format!(
                "the cargo left behind in {} ({}) does not fit the staying fleets",
                self.sn(sea),
                stays.text()
            ));
        }
        // Units that moved this phase may not land again.
        let mut settled = f.cargo;
        settled.sub(&self.mv.cargo_moved[k]);
        Ok(Group {
            player: p,
            n,
            cargo: taken,
            landable: taken.min(&settled),
        })
    }

    /// Puts a group back into the stack where it is; its fleets and cargo have moved.
    fn merge_group(&mut self, g: &Group, sea: usize) {
        let k = sea * self.np() + g.player;
        self.s.fleets[k].n += g.n;
        self.s.fleets[k].cargo.add(&g.cargo);
        self.mv.fleet_moved[k] += g.n;
        self.mv.cargo_moved[k].add(&g.cargo);
    }

    fn remove_group(&mut self, g: &Group, sea: usize) {
        let k = sea * self.np() + g.player;
        self.s.fleets[k].n -= g.n;
        self.s.fleets[k].cargo.sub(&g.cargo);
        self.clamp_cargo(sea, g.player);
    }

    /// W5.5: checked whole when it starts, then carried out step by step with
    /// interception before each MP (W5.6).
    fn exec_sail(&mut self, t: usize, p: usize, n: u32, sea: usize, steps: Vec<SailStep>) {
        let group = match self.take_group(p, sea, n) {
            Ok(g) => g,
            Err(why) => return self.invalid(t, why),
        };
        if let Err(why) = self.check_sail(p, &group, sea, &steps) {
            return self.invalid(t, why);
        }
        let mut g = group;
        self.remove_group(&g, sea);
        let mut cur = sea;
        let mut notes: Vec<String> = Vec::new();
        let mut landed_with_brigades: Vec<usize> = Vec::new();
        let mut complete = true;
        let np = self.np();
        for step in &steps {
            let spends = matches!(step, SailStep::Sea(_) | SailStep::Land(..));
            if spends {
                match self.intercept(&mut g, cur) {
                    Fate::GoesOn => {}
                    Fate::Stopped => {
                        notes.push(format!("broke off in {}: the rest is void", self.sn(cur)));
                        complete = false;
                        break;
                    }
                    Fate::Sunk => {
                        notes.push(format!("sunk in {}", self.sn(cur)));
                        complete = false;
                        break;
                    }
                }
            }
            match step {
                SailStep::Sea(s2) => {
                    cur = *s2;
                    notes.push(format!("to {}", self.sn(cur)));
                }
                SailStep::Load(u, r) => {
                    self.s.units_mut(*r, p).sub(u);
                    self.clamp(*r, p);
                    g.cargo.add(u);
                    g.landable.add(u);
                    notes.push(format!("loaded {} at {}", u.text(), self.rn(*r)));
                }
                SailStep::Land(u, r) => {
                    let want = u.unwrap_or(g.landable);
                    let units = want.min(&g.landable).min(&g.cargo);
                    if units.is_empty() {
                        notes.push(format!("nothing left to land at {}", self.rn(*r)));
                        complete = false;
                        continue;
                    }
                    let e = match self.entry(p, *r, &units, landed_with_brigades.contains(r)) {
                        Ok(e) => e,
                        Err(why) => {
                            notes.push(format!("could not land at {}: {why}", self.rn(*r)));
                            complete = false;
                            continue;
                        }
                    };
                    g.cargo.sub(&units);
                    g.landable.sub(&units);
                    self.s.units_mut(*r, p).add(&units);
                    self.mv.moved[*r * np + p].add(&units);
                    self.mv.amph[*r * np + p].add(&units);
                    if units.brigades() > 0 {
                        landed_with_brigades.push(*r);
                    }
                    match e {
                        Entry::Battle => {
                            self.add_pending(*r, Place::Sea(cur));
                            notes.push(format!(
                                "landed {} in {} ({}): battle",
                                units.text(),
                                self.rn(*r),
                                self.holder(*r)
                            ));
                        }
                        Entry::Ceded => {
                            self.take_ceded(*r, p);
                            notes.push(format!(
                                "landed {} in {}, ceded to you",
                                units.text(),
                                self.rn(*r)
                            ));
                        }
                        _ => notes.push(format!("landed {} in {}", units.text(), self.rn(*r))),
                    }
                }
                SailStep::Attack(q) => {
                    if self.s.fleet(cur, *q).n == 0 {
                        notes.push(format!(
                            "no fleet of {} in {} to attack",
                            self.pid(*q),
                            self.sn(cur)
                        ));
                        continue;
                    }
                    let end = self.naval_battle(cur, &mut g, *q, "attack");
                    if g.n == 0 {
                        notes.push(format!(
                            "sunk attacking {} in {}",
                            self.pid(*q),
                            self.sn(cur)
                        ));
                        complete = false;
                        break;
                    }
                    if end == Fate::Stopped {
                        notes.push(format!(
                            "broke off against {} in {}: the rest is void",
                            self.pid(*q),
                            self.sn(cur)
                        ));
                        complete = false;
                        break;
                    }
                    notes.push(format!("attacked {} in {}", self.pid(*q), self.sn(cur)));
                }
            }
        }
        if g.n > 0 {
            self.merge_group(&g, cur);
        } else if !g.cargo.is_empty() {
            let text = format!(
                "{}'s {} aboard lost with the fleets in {}",
                self.pid(p),
                g.cargo.text(),
                self.sn(cur)
            );
            self.event(Event::new("W5.6", text).player(self.pid(p)));
        }
        let detail = notes.join("; ");
        if complete {
            self.done(t, detail);
        } else {
            self.failed(t, detail);
        }
    }

    /// The whole SAIL order against the position when it starts (W5.5).
    fn check_sail(
        &self,
        p: usize,
        group: &Group,
        sea: usize,
        steps: &[SailStep],
    ) -> Result<(), String> {
        let mut cur = sea;
        let mut mp = 0;
        let mut cargo = group.cargo;
        let mut landable = group.landable;
        let mut loaded: Vec<(usize, Units)> = Vec::new();
        let mut landed_with_brigades: Vec<usize> = Vec::new();
        for step in steps {
            match step {
                SailStep::Sea(s2) => {
                    if !self.s.sea_neighbours(p, cur).contains(s2) {
                        let why = match self.map.link(cur, *s2) {
                            Some(l) if l.kind == super::map::LinkKind::Canal && !self.s.suez => {
                                "the Suez Canal is not built".to_string()
                            }
                            Some(l) => format!(
                                "the link is closed to you: you are at war with {}'s controller",
                                self.rn(l.region)
                            ),
                            None => "not adjacent".to_string(),
                        };
                        return Err(format!("{} - {}: {why}", self.sn(cur), self.sn(*s2)));
                    }
                    mp += 1;
                    cur = *s2;
                }
                SailStep::Load(u, r) => {
                    if !self.s.owns(p, *r) {
                        return Err(format!("LOAD: {} is not yours", self.rn(*r)));
                    }
                    if !self.map.coastal(*r, cur) {
                        return Err(format!(
                            "LOAD: {} is not on the coast of {}",
                            self.rn(*r),
                            self.sn(cur)
                        ));
                    }
                    let mut all = Units::default();
                    for (x, v) in &loaded {
                        if x == r {
                            all.add(v);
                        }
                    }
                    all.add(u);
                    if !self.unmoved(*r, p).contains(&all) {
                        return Err(format!(
                            "LOAD: you have {} unmoved in {}",
                            self.unmoved(*r, p).text(),
                            self.rn(*r)
                        ));
                    }
                    self.garrison(p, *r, &all)
                        .map_err(|e| format!("LOAD: {e}"))?;
                    let room = (group.n * FLEET_PORTAGE).saturating_sub(cargo.portage());
                    if room < u.portage() {
                        return Err(format!(
                            "LOAD: {} portage points free aboard, {} needed",
                            room,
                            u.portage()
                        ));
                    }
                    cargo.add(u);
                    landable.add(u);
                    loaded.push((*r, *u));
                }
                SailStep::Land(u, r) => {
                    if !self.map.coastal(*r, cur) {
                        return Err(format!(
                            "LAND: {} is not on the coast of {}",
                            self.rn(*r),
                            self.sn(cur)
                        ));
                    }
                    let units = u.unwrap_or(landable);
                    if units.is_empty() {
                        return Err(format!("LAND: nothing aboard may land at {}", self.rn(*r)));
                    }
                    if !landable.contains(&units) {
                        return Err(format!(
                            "LAND: aboard and free to land are {} (units moved this phase may not land)",
                            landable.text()
                        ));
                    }
                    self.entry(p, *r, &units, landed_with_brigades.contains(r))
                        .map_err(|e| format!("LAND: {e}"))?;
                    if units.brigades() > 0 {
                        landed_with_brigades.push(*r);
                    }
                    cargo.sub(&units);
                    landable.sub(&units);
                    mp += 1;
                }
                SailStep::Attack(q) => {
                    if !self.s.at_war(p, *q) {
                        return Err(format!("ATTACK: not at war with {}", self.pid(*q)));
                    }
                    if !self.s.may_attack(p, *q) {
                        return Err(format!(
                            "ATTACK: you declared war on {} this phase: you attack from your next movement phase",
                            self.pid(*q)
                        ));
                    }
                    if self.s.fleet(cur, *q).n == 0 {
                        return Err(format!(
                            "ATTACK: {} has no fleet in {}",
                            self.pid(*q),
                            self.sn(cur)
                        ));
                    }
                }
            }
        }
        if mp > FLEET_MP {
            return Err(format!("fleets have {FLEET_MP} MP; the order needs {mp}"));
        }
        Ok(())
    }

    /// W5.7: the mover's unmoved fleets in a sea attack another player's fleets there.
    fn exec_attack(&mut self, t: usize, p: usize, q: usize, sea: usize) {
        if !self.s.at_war(p, q) {
            return self.invalid(t, format!("not at war with {}", self.pid(q)));
        }
        if !self.s.may_attack(p, q) {
            return self.invalid(
                t,
                format!(
                    "you declared war on {} this phase: you attack from your next movement phase",
                    self.pid(q)
                ),
            );
        }
        if self.s.fleet(sea, q).n == 0 {
            return self.failed(
                t,
                format!("{} has no fleet in {}", self.pid(q), self.sn(sea)),
            );
        }
        let k = sea * self.np() + p;
        let n = self.s.fleets[k].n - self.mv.fleet_moved[k].min(self.s.fleets[k].n);
        if n == 0 {
            return self.invalid(t, format!("no unmoved fleet of yours in {}", self.sn(sea)));
        }
        let mut g = match self.take_group(p, sea, n) {
            Ok(g) => g,
            Err(why) => return self.invalid(t, why),
        };
        self.remove_group(&g, sea);
        self.naval_battle(sea, &mut g, q, "attack");
        let detail = format!(
            "{} FLT attacked {} in {}; {} left",
            n,
            self.pid(q),
            self.sn(sea),
            g.n
        );
        if g.n > 0 {
            self.merge_group(&g, sea);
        } else if !g.cargo.is_empty() {
            let text = format!(
                "{}'s {} aboard lost with the fleets in {}",
                self.pid(p),
                g.cargo.text(),
                self.sn(sea)
            );
            self.event(Event::new("W6.8", text).player(self.pid(p)));
        }
        self.done(t, detail);
    }

    /// W5.9: after the mover's moves, each own region he entered to attack may be
    /// reinforced by one general, by the owner's first REINFORCE order that can fire.
    fn reinforcement(&mut self, mover: usize) {
        let np = self.np();
        let targets: Vec<usize> = self.mv.pending.iter().map(|x| x.region).collect();
        for r in targets.clone() {
            let Some(q) = self.s.regions[r].owner else {
                continue;
            };
            if q == mover || self.mv.reinforced.contains(&r) {
                continue;
            }
            let list = self.orders_of(
                q,
                |o| matches!(o, Order::Reinforce { target, .. } if *target == r),
            );
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
                let fits = self.map.land_adjacent(o, r)
                    && self.s.owns(q, o)
                    && !targets.contains(&o)
                    && self.unmoved(o, q).get(Kind::Gen) > 0;
                if !fits {
                    continue;
                }
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
                    "{} reinforces {} from {} with {} (RP {schools} schools + {die} = {rp})",
                    self.pid(q),
                    self.rn(r),
                    self.rn(o),
                    moving.text()
                );
                self.event(
                    Event::new("W5.9", text.clone())
                        .player(self.pid(q))
                        .region(self.rn(r)),
                );
                self.note(t, format!("fired: {}", text));
                break;
            }
        }
    }
}
