//! One phase being adjudicated: the position changing step by step, the orders taken,
//! the log and the dice, and what the rules share between steps: paying, native
//! strength falling (W1.4), regions reverting to the natives (W6.7), regions changing
//! hands (W5.8), elimination (W5.1) and the movement-order draw (W2.3).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::map::{Map, Place};
use super::order::{self, BattleLine, Intercept, Order, When};
use super::outcome::{Event, LineResult, Log, Outcome, Roller};
use super::state::{Kind, Phase, Roll, State, Units, FLEET_PORTAGE};
use super::syntax;

/// A taken (readable, allowed) order: whose, which line, where its result is.
#[derive(Clone, Debug)]
pub struct Taken {
    pub player: usize,
    pub line: u32,
    pub result: usize,
    pub order: Order,
}

/// A player's standing instructions for the phase (W6.9, W5.9).
#[derive(Clone, Debug, Default)]
pub struct Standing {
    pub battle: Vec<BattleLine>,
    pub losses: Vec<Kind>,
    pub naval_rounds: Option<u32>,
    pub intercept: Vec<(Option<usize>, Intercept)>,
}

impl Standing {
    /// The BATTLE line for a place: one naming it beats ALL; otherwise the last wins.
    pub fn battle_for(&self, at: Place) -> Option<&BattleLine> {
        self.battle
            .iter()
            .rev()
            .find(|b| b.at == Some(at))
            .or_else(|| self.battle.iter().rev().find(|b| b.at.is_none()))
    }

    pub fn intercept_for(&self, sea: usize) -> Intercept {
        self.intercept
            .iter()
            .rev()
            .find(|(s, _)| *s == Some(sea))
            .or_else(|| self.intercept.iter().rev().find(|(s, _)| s.is_none()))
            .map(|(_, m)| *m)
            .unwrap_or(Intercept::Equal)
    }

    pub fn loss_order(&self) -> Vec<Kind> {
        order::loss_order(&self.losses)
    }

    pub fn cargo_loss_order(&self) -> Vec<Kind> {
        order::cargo_loss_order(&self.losses)
    }
}

/// A battle the mover brought about this player turn, with the places his units came
/// from (W6.6), in order-line order.
#[derive(Clone, Debug)]
pub struct Pending {
    pub region: usize,
    pub origins: Vec<Place>,
}

/// What the movement phase remembers between orders.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Units that moved this phase, `[region * np + player]` (a part of `land`).
    pub moved: Vec<Units>,
    /// Units landed from fleets this phase (a part of `moved`).
    pub amph: Vec<Units>,
    /// Units that retreated in: they do not roll in the first round there (W6.6).
    pub idle: Vec<Units>,
    /// Fleets that moved or fought by order this phase, `[sea * np + player]`.
    pub fleet_moved: Vec<u32>,
    /// Cargo that moved this phase (it may not land again).
    pub cargo_moved: Vec<Units>,
    /// The mover's battles, in the order of the first order that entered each.
    pub pending: Vec<Pending>,
    /// Regions reinforced this player turn (one general each, W5.9).
    pub reinforced: Vec<usize>,
    /// REINFORCE orders (index into `orders`) that fired this phase.
    pub fired: Vec<usize>,
    /// (player, region) parleys this phase.
    pub parleys: Vec<(usize, usize)>,
    /// Prospects this phase, per region.
    pub prospects: Vec<u32>,
    /// The index in `pending` of the next battle to fight (regions from there on are
    /// "still to be fought", W6.6).
    pub next_battle: usize,
    /// The revolts in the mover's regions not yet fought this player turn (W5.1 step
    /// 3): they are "still to be fought" too (W6.6).
    pub revolts_left: Vec<usize>,
}

pub struct Run {
    pub s: State,
    pub map: Arc<Map>,
    pub log: Log,
    pub roller: Roller,
    /// The taken orders, by player (id order), then line.
    pub orders: Vec<Taken>,
    /// Players who sent orders this phase.
    pub sent: Vec<bool>,
    pub standing: Vec<Standing>,
    pub mv: Scratch,
}

/// The order lines of a submission: blank lines, `#` comments and quoted lines (`>`)
/// are left out. Yields (line number among order lines, text).
pub fn lines(text: &str) -> impl Iterator<Item = (u32, &str)> {
    lines_as_written(text).map(|(k, _, l)| (k, l))
}

/// [`lines`] with each line as written (trimmed, its comment kept) beside it.
pub fn lines_as_written(text: &str) -> impl Iterator<Item = (u32, &str, &str)> {
    text.lines()
        .filter(|raw| !raw.trim_start().starts_with('>'))
        .map(|raw| (raw.trim(), raw.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .enumerate()
        .map(|(k, (raw, l))| (k as u32 + 1, raw, l))
}

pub fn when(phase: Phase) -> Option<When> {
    match phase {
        Phase::Draft => Some(When::Draft),
        Phase::Setup => Some(When::Setup),
        Phase::Production => Some(When::Production),
        Phase::Movement1 | Phase::Movement2 => Some(When::Movement),
        Phase::Over => None,
    }
}

/// The players who owe orders now: every player still in the game.
pub fn owing(s: &State) -> Vec<String> {
    if s.phase == Phase::Over {
        return Vec::new();
    }
    s.active().map(|p| s.players[p].id.clone()).collect()
}

/// An order's result until it is carried out: what is left so is told why, if it is
/// ever known (an eliminated player's, W5.1).
const NOT_CARRIED_OUT: &str = "not carried out";

/// Reads one line against the position: the order, or why not (W2.4).
pub fn read_line(s: &State, p: usize, line: &str) -> Result<Order, String> {
    if s.players[p].eliminated {
        return Err("you are out of the game (W5.1)".into());
    }
    let ids: Vec<String> = s.players.iter().map(|x| x.id.clone()).collect();
    let order = syntax::parse(line, &s.map, &ids)?;
    let Some(w) = when(s.phase) else {
        return Err("the game is over".into());
    };
    if !order.allowed(w) {
        return Err(format!("not an order of the {} phase", s.phase.kind()));
    }
    super::check::static_check(s, p, &order)?;
    Ok(order)
}

/// [`read_line`] after the orders read from the submission's earlier lines (W5.8: one
/// cession of a region a turn).
pub fn read_line_after(
    s: &State,
    p: usize,
    line: &str,
    earlier: &[Order],
) -> Result<Order, String> {
    let order = read_line(s, p, line)?;
    super::check::submission_check(s, p, &order, earlier)?;
    Ok(order)
}

impl Run {
    pub fn new(s: State, orders: &BTreeMap<String, String>, seed: u64, listed: &[u32]) -> Run {
        let map = s.map.0.clone();
        let np = s.np();
        let roller = Roller::new(seed, s.turn, s.phase.id(), listed);
        let mut run = Run {
            map,
            log: Log::default(),
            roller,
            orders: Vec::new(),
            sent: vec![false; np],
            standing: vec![Standing::default(); np],
            mv: Scratch::default(),
            s,
        };
        run.read(orders);
        run
    }

    fn read(&mut self, orders: &BTreeMap<String, String>) {
        let mut by_player: Vec<(usize, &String)> = orders
            .iter()
            .filter_map(|(id, text)| Some((self.s.player_index(id)?, text)))
            .collect();
        by_player.sort_by_key(|(p, _)| *p);
        for (p, text) in by_player {
            if self.s.players[p].eliminated {
                continue;
            }
            // A submission without an order line (comments only) is no orders.
            self.sent[p] = lines(text).next().is_some();
            let mut earlier: Vec<Order> = Vec::new();
            for (line, raw) in lines(text) {
                let result = self.log.results.len();
                let read = read_line_after(&self.s, p, raw, &earlier);
                if let Ok(order) = &read {
                    earlier.push(order.clone());
                }
                let (order_text, outcome, detail, taken) = match read {
                    Ok(order) => {
                        let text = order.text(&self.map, &self.ids());
                        if order.is_noted() {
                            let detail = match order {
                                Order::Reinforce { .. } => "standing for this phase: not needed",
                                _ => "standing for this phase",
                            };
                            (text, Outcome::Noted, detail.to_string(), Some(order))
                        } else {
                            (
                                text,
                                Outcome::Failed,
                                NOT_CARRIED_OUT.to_string(),
                                Some(order),
                            )
                        }
                    }
                    Err(why) => (raw.to_string(), Outcome::Invalid, why, None),
                };
                self.log.results.push(LineResult {
                    player: self.s.players[p].id.clone(),
                    line,
                    order: order_text,
                    outcome,
                    detail,
                });
                if let Some(order) = taken {
                    self.orders.push(Taken {
                        player: p,
                        line,
                        result,
                        order,
                    });
                }
            }
        }
    }

    pub fn ids(&self) -> Vec<String> {
        self.s.players.iter().map(|p| p.id.clone()).collect()
    }

    pub fn np(&self) -> usize {
        self.s.np()
    }

    pub fn pid(&self, p: usize) -> String {
        self.s.players[p].id.clone()
    }

    pub fn rn(&self, r: usize) -> String {
        self.map.regions[r].id.clone()
    }

    pub fn sn(&self, s: usize) -> String {
        self.map.seas[s].id.clone()
    }

    pub fn pn(&self, p: Place) -> String {
        self.map.place_id(p).to_string()
    }

    fn settle(&mut self, t: usize, outcome: Outcome, detail: String) {
        let r = &mut self.log.results[self.orders[t].result];
        r.outcome = outcome;
        r.detail = detail;
    }

    pub fn done(&mut self, t: usize, detail: impl Into<String>) {
        self.settle(t, Outcome::Done, detail.into());
    }

    pub fn failed(&mut self, t: usize, detail: impl Into<String>) {
        self.settle(t, Outcome::Failed, detail.into());
    }

    pub fn invalid(&mut self, t: usize, detail: impl Into<String>) {
        self.settle(t, Outcome::Invalid, detail.into());
    }

    /// Keeps a standing order `noted`, with a detail.
    pub fn note(&mut self, t: usize, detail: impl Into<String>) {
        self.settle(t, Outcome::Noted, detail.into());
    }

    /// The taken orders of one player, in written order, that `pick` selects.
    pub fn orders_of(&self, p: usize, pick: impl Fn(&Order) -> bool) -> Vec<usize> {
        (0..self.orders.len())
            .filter(|&t| self.orders[t].player == p && pick(&self.orders[t].order))
            .collect()
    }

    /// The taken orders that `pick` selects, players in movement order, each in
    /// written order (W4: "within a step").
    pub fn step_orders(&self, pick: impl Fn(&Order) -> bool) -> Vec<usize> {
        let mut out = Vec::new();
        for &p in &self.s.order {
            out.extend(self.orders_of(p, &pick));
        }
        out
    }

    pub fn event(&mut self, e: Event) {
        self.log.event(e);
    }

    pub fn d6(&mut self, step: &'static str, what: impl Into<String>) -> u32 {
        self.roller.d6(&mut self.log, step, what)
    }

    pub fn d3(&mut self, step: &'static str, what: impl Into<String>) -> u32 {
        self.roller.d3(&mut self.log, step, what)
    }

    /// Takes PP if there are enough.
    pub fn pay_pp(&mut self, p: usize, n: u32) -> Result<(), String> {
        let have = self.s.players[p].pp;
        if have < n {
            return Err(format!("{n} PP needed, {have} held"));
        }
        self.s.players[p].pp = have - n;
        Ok(())
    }

    pub fn pay_dp(&mut self, p: usize, n: u32) -> Result<(), String> {
        let have = self.s.players[p].dp;
        if have < n {
            return Err(format!("{n} DP needed, {have} held"));
        }
        self.s.players[p].dp = have - n;
        Ok(())
    }

    pub fn gain_pp(&mut self, p: usize, n: u32) {
        let x = &mut self.s.players[p].pp;
        *x = x.saturating_add(n);
    }

    pub fn gain_dp(&mut self, p: usize, n: u32) {
        let x = &mut self.s.players[p].dp;
        *x = x.saturating_add(n);
    }

    /// Lowers a region's native strength (W1.4): below 4 the marker and every sphere
    /// go (westernized); spheres above NS go, other players' first.
    pub fn lower_ns(&mut self, r: usize, by: u32, step: &'static str, cause: &str) {
        let Some(m) = self.s.regions[r].native else {
            return;
        };
        if by == 0 {
            return;
        }
        let ns = m.ns.saturating_sub(by);
        let name = self.rn(r);
        if ns < 4 && self.s.regions[r].owner.is_some() {
            self.s.regions[r].native = None;
            let had = self.s.regions[r].sphere_total();
            self.s.regions[r].spheres.iter_mut().for_each(|x| *x = 0);
            self.event(
                Event::new(
                    step,
                    format!(
                        "{name}: NS {m} -> {} ({cause}): westernized, the marker{} removed",
                        super::map::Marker { ns, plus: m.plus },
                        if had > 0 { " and every sphere" } else { "" }
                    ),
                )
                .region(&name),
            );
            return;
        }
        // A native region keeps its marker (at least 1): only controlled regions are
        // westernized.
        let ns = ns.max(1);
        let after = super::map::Marker { ns, plus: m.plus };
        self.s.regions[r].native = Some(after);
        self.event(Event::new(step, format!("{name}: NS {m} -> {after} ({cause})")).region(&name));
        self.trim_spheres(r, step);
    }

    /// W1.4: spheres above NS go, other players' first (the most numerous first, ties
    /// by id).
    pub fn trim_spheres(&mut self, r: usize, step: &'static str) {
        let cap = match self.s.regions[r].native {
            Some(m) => m.ns,
            None => 0,
        };
        let owner = self.s.regions[r].owner;
        while self.s.regions[r].sphere_total() > cap {
            let spheres = &self.s.regions[r].spheres;
            let others = (0..spheres.len()).filter(|&p| Some(p) != owner && spheres[p] > 0);
            let pick = others
                .max_by_key(|&p| (spheres[p], std::cmp::Reverse(p)))
                .or(owner.filter(|&o| spheres[o] > 0));
            let Some(p) = pick else {
                break;
            };
            self.s.regions[r].spheres[p] -= 1;
            let text = format!(
                "{}: a sphere of {} removed (more spheres than NS {cap})",
                self.rn(r),
                self.pid(p)
            );
            self.event(Event::new(step, text).region(self.rn(r)));
        }
    }

    /// The region reverts to the natives (W6.7): buildings removed, resource
    /// undeveloped, spheres kept, marker kept or drawn from the pool. The former
    /// owner's parties other than explorers leave as a defender would (W6.6).
    pub fn revert(&mut self, r: usize, step: &'static str, why: &str) {
        let Some(old) = self.s.regions[r].owner else {
            return;
        };
        let name = self.rn(r);
        let region = &mut self.s.regions[r];
        region.owner = None;
        let lost = region.buildings.names();
        region.buildings.clear();
        region.developed = false;
        region.revolt = false;
        region.suppressors.clear();
        let marker = match region.native {
            Some(m) => format!("marker {m} kept"),
            None => {
                let m = if self.s.pool_native.is_empty() {
                    self.map.regions[r].native
                } else {
                    self.s.pool_native.remove(0)
                };
                self.s.regions[r].native = Some(m);
                format!("marker {m} drawn")
            }
        };
        let mut text = format!("{name} reverts to the natives ({why}); {marker}");
        if !lost.is_empty() {
            text += &format!("; {} removed", lost.join(", "));
        }
        self.event(Event::new(step, text).region(&name).player(self.pid(old)));
        self.trim_spheres(r, step);
        // Parties other than explorers may not stay in a native region.
        let mut left = *self.s.units(r, old);
        left.set(Kind::Exp, 0);
        if !left.is_empty() {
            self.relocate(r, old, left, step, false);
        }
    }

    /// Reverts every controlled region left without a brigade of its owner (W6.7).
    pub fn revert_empty(&mut self, step: &'static str) {
        for r in 0..self.s.regions.len() {
            if let Some(o) = self.s.regions[r].owner {
                if self.s.units(r, o).brigades() == 0 {
                    self.revert(r, step, "no brigade left");
                }
            }
        }
    }

    /// Moves a player's units out of a region (W5.8): to his adjacent region with the
    /// most brigades (ties by id), else aboard his fleets on a coastal sea (if
    /// `fleets_ok`), else they are eliminated.
    pub fn relocate(
        &mut self,
        r: usize,
        p: usize,
        units: Units,
        step: &'static str,
        fleets_ok: bool,
    ) {
        let np = self.np();
        let mut best: Option<usize> = None;
        for &a in &self.map.regions[r].land {
            if !self.s.owns(p, a) {
                continue;
            }
            let b = self.s.units(a, p).brigades();
            best = match best {
                Some(x) => {
                    let bx = self.s.units(x, p).brigades();
                    if b > bx
                        || (b == bx
                            && self.map.regions[a].id.to_ascii_lowercase()
                                < self.map.regions[x].id.to_ascii_lowercase())
                    {
                        Some(a)
                    } else {
                        Some(x)
                    }
                }
                None => Some(a),
            };
        }
        self.s.units_mut(r, p).sub(&units);
        self.clamp(r, p);
        let (who, name) = (self.pid(p), self.rn(r));
        if let Some(a) = best {
            self.s.units_mut(a, p).add(&units);
            if !self.mv.moved.is_empty() {
                self.mv.moved[a * np + p].add(&units);
            }
            let text = format!("{who}'s {} leave {name} for {}", units.text(), self.rn(a));
            self.event(Event::new(step, text).player(&who).region(&name));
            return;
        }
        if fleets_ok {
            let mut seas = self.map.regions[r].sea.clone();
            seas.sort_by_key(|&s| self.map.seas[s].id.to_ascii_lowercase());
            for s in seas {
                if self.s.fleet(s, p).n > 0 && self.s.fleet(s, p).room() >= units.portage() {
                    self.s.fleet_mut(s, p).cargo.add(&units);
                    if !self.mv.cargo_moved.is_empty() {
                        self.mv.cargo_moved[s * np + p].add(&units);
                    }
                    let text = format!(
                        "{who}'s {} leave {name} aboard their fleets in {}",
                        units.text(),
                        self.sn(s)
                    );
                    self.event(Event::new(step, text).player(&who).region(&name));
                    return;
                }
            }
        }
        let text = format!(
            "{who}'s {} in {name} have nowhere to go: eliminated",
            units.text()
        );
        self.event(Event::new(step, text).player(&who).region(&name));
    }

    /// Keeps the phase's notes of a stack within the stack.
    pub fn clamp(&mut self, r: usize, p: usize) {
        if self.mv.moved.is_empty() {
            return;
        }
        let k = r * self.np() + p;
        let all = self.s.land[k];
        self.mv.moved[k] = self.mv.moved[k].min(&all);
        self.mv.amph[k] = self.mv.amph[k].min(&self.mv.moved[k]);
        self.mv.idle[k] = self.mv.idle[k].min(&all);
    }

    pub fn clamp_cargo(&mut self, sea: usize, p: usize) {
        if self.mv.cargo_moved.is_empty() {
            return;
        }
        let k = sea * self.np() + p;
        self.mv.cargo_moved[k] = self.mv.cargo_moved[k].min(&self.s.fleets[k].cargo);
    }

    /// Cargo beyond the fleets' portage is lost, in the owner's loss order (W6.8).
    pub fn drop_excess_cargo(&mut self, sea: usize, p: usize, step: &'static str) -> Units {
        let order = self.standing[p].cargo_loss_order();
        let mut lost = Units::default();
        loop {
            let f = *self.s.fleet(sea, p);
            if f.cargo.portage() <= f.n * FLEET_PORTAGE {
                break;
            }
            let Some(&k) = order.iter().find(|&&k| f.cargo.get(k) > 0) else {
                break;
            };
            self.s.fleet_mut(sea, p).cargo.sub(&Units::one(k));
            lost.add(&Units::one(k));
        }
        if !lost.is_empty() {
            let text = format!(
                "{}'s {} aboard in {} lost: no room on the fleets left",
                self.pid(p),
                lost.text(),
                self.sn(sea)
            );
            self.event(Event::new(step, text).player(self.pid(p)));
            self.clamp_cargo(sea, p);
        }
        lost
    }

    /// W2.3: each player (in id order) rolls 1d6, highest first; tied players roll
    /// again, in id order, among themselves.
    pub fn draw_order(&mut self, mut players: Vec<usize>, purpose: &str) -> Vec<usize> {
        players.sort();
        let mut out = Vec::new();
        self.draw_into(players, purpose, &mut out);
        out
    }

    /// A drawn order as the mails tell it, each player with the rolls of the draw
    /// (W10.1: every roll is reported): `blue (5), red (3, 4), green (3, 2)`, from the
    /// rolls logged in `dice` for `purpose`.
    pub fn order_with_rolls(&self, order: &[usize], dice: &[Roll], purpose: &str) -> String {
        order
            .iter()
            .map(|&p| {
                let name = self.pid(p);
                let subject = format!("{name} {purpose}");
                let rolls: Vec<String> = dice
                    .iter()
                    .filter(|d| d.step == "W2.3" && d.subject == subject)
                    .map(|d| d.roll.to_string())
                    .collect();
                if rolls.is_empty() {
                    name
                } else {
                    format!("{name} ({})", rolls.join(", "))
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn draw_into(&mut self, players: Vec<usize>, purpose: &str, out: &mut Vec<usize>) {
        if players.len() <= 1 {
            out.extend(players);
            return;
        }
        let mut rolls: Vec<(u32, usize)> = Vec::new();
        for p in players {
            let d = self.d6("W2.3", format!("{} {purpose}", self.pid(p)));
            rolls.push((d, p));
        }
        let mut values: Vec<u32> = rolls.iter().map(|x| x.0).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        for v in values {
            let group: Vec<usize> = rolls.iter().filter(|x| x.0 == v).map(|x| x.1).collect();
            self.draw_into(group, purpose, out);
        }
    }

    /// Players left with no region are eliminated (W5.1): every unit and fleet of
    /// theirs is removed.
    pub fn eliminate(&mut self) -> bool {
        let mut any = false;
        for p in 0..self.np() {
            if self.s.players[p].eliminated || self.s.region_count(p) > 0 {
                continue;
            }
            self.s.players[p].eliminated = true;
            any = true;
            let np = self.np();
            for r in 0..self.s.regions.len() {
                self.s.land[r * np + p] = Units::default();
                self.clamp(r, p);
            }
            for s in 0..self.map.seas.len() {
                self.s.fleets[s * np + p] = Default::default();
                self.clamp_cargo(s, p);
            }
            self.s.cedes.retain(|c| c.to != p);
            // His wars end with him: nobody can fight him any more.
            self.s.wars.retain(|w| w.players.0 != p && w.players.1 != p);
            let text = format!("{} holds no region and is eliminated", self.pid(p));
            self.event(Event::new("W5.1", text).player(self.pid(p)));
            // His orders not carried out yet never will be: they say why.
            for t in self.orders_of(p, |_| true) {
                let r = &self.log.results[self.orders[t].result];
                if r.outcome == Outcome::Failed && r.detail == NOT_CARRIED_OUT {
                    let why = format!(
                        "not carried out: {} holds no region and is out of the game (W5.1)",
                        self.pid(p)
                    );
                    self.failed(t, why);
                }
            }
        }
        any
    }
}
