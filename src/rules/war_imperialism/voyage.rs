//! Fleets at sea in the movement phase (W5.5–W5.7): groups of fleets and their cargo,
//! SAIL checked whole and carried out step by step (with interception and naval battles
//! on the way, `naval`), and fleets attacking fleets.

use super::map::Place;
use super::movement::Entry;
use super::order::SailStep;
use super::outcome::Event;
use super::run::Run;
use super::state::{Kind, Units, FLEET_MP, FLEET_PORTAGE};

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
    pub(super) fn exec_sail(
        &mut self,
        t: usize,
        p: usize,
        n: u32,
        sea: usize,
        steps: Vec<SailStep>,
    ) {
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
    pub(super) fn exec_attack(&mut self, t: usize, p: usize, q: usize, sea: usize) {
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
}
