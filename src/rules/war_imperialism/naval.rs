//! Naval battles (W6.8) and interception (W5.6).

use std::collections::BTreeMap;

use super::order::Intercept;
use super::outcome::{add_die, BattleReport, BattleRound, DrmPart, Event, Sides};
use super::run::Run;
use super::state::{Units, FLEET_PORTAGE};
use super::voyage::{Fate, Group};

/// A battle that no dice end in this many rounds is broken off by both sides.
pub const MAX_ROUNDS: u32 = 100;

impl Run {
    /// W5.6: before a moving group spends an MP in `sea`, players at war with its
    /// owner and allowed to attack him may intercept it with all their fleets there.
    pub fn intercept(&mut self, g: &mut Group, sea: usize) -> Fate {
        let p = g.player;
        let wants = |run: &Run, q: usize, n: u32| {
            let f = run.s.fleet(sea, q).n;
            q != p
                && !run.s.players[q].eliminated
                && f > 0
                && run.s.at_war(q, p)
                && run.s.may_attack(q, p)
                && match run.standing[q].intercept_for(sea) {
                    Intercept::Always => true,
                    Intercept::Never => false,
                    Intercept::Equal => f >= n,
                }
        };
        let candidates: Vec<usize> = (0..self.np()).filter(|&q| wants(self, q, g.n)).collect();
        if candidates.is_empty() {
            return Fate::GoesOn;
        }
        let order = if candidates.len() > 1 {
            // W5.6, W2.3: the draw and its dice, told in the mail too (W10.1).
            let purpose = format!("interception order in {}", self.sn(sea));
            let first = self.log.dice.len();
            let order = self.draw_order(candidates, &purpose);
            let drawn = self.order_with_rolls(&order, &self.log.dice[first..], &purpose);
            let text = format!(
                "{purpose} against {}'s {} FLT (1d6 each, ties roll again): {drawn}",
                self.pid(p),
                g.n
            );
            self.event(Event::new("W5.6", text));
            order
        } else {
            candidates
        };
        for q in order {
            if !wants(self, q, g.n) {
                continue;
            }
            let text = format!(
                "{} intercepts {}'s {} FLT in {}",
                self.pid(q),
                self.pid(p),
                g.n,
                self.sn(sea)
            );
            self.event(Event::new("W5.6", text).player(self.pid(q)));
            let fate = self.naval_battle(sea, g, q, "interception");
            if fate != Fate::GoesOn {
                return fate;
            }
        }
        Fate::GoesOn
    }

    /// W6.8: the moving group against all of `q`'s fleets in `sea`, round by round.
    /// Returns what became of the group.
    pub fn naval_battle(&mut self, sea: usize, g: &mut Group, q: usize, what: &str) -> Fate {
        let p = g.player;
        let sname = self.sn(sea);
        let drm_a = i32::from(self.s.has_port_on(p, sea));
        let drm_b = i32::from(self.s.has_port_on(q, sea));
        let mut report = BattleReport {
            kind: "naval",
            at: sname.clone(),
            attacker: self.pid(p),
            defender: self.pid(q),
            revolt: false,
            rounds: Vec::new(),
            winner: String::new(),
            end: String::new(),
            event: 0,
        };
        let mut round = 0;
        let fate;
        loop {
            round += 1;
            // W11.4: +1 for a port coastal to the sea.
            let port = |drm: i32| {
                (drm > 0)
                    .then(|| DrmPart::new("port", drm))
                    .into_iter()
                    .collect()
            };
            let mut rec = BattleRound {
                drm: Sides {
                    attacker: drm_a,
                    defender: drm_b,
                },
                drm_parts: Sides {
                    attacker: port(drm_a),
                    defender: port(drm_b),
                },
                ..Default::default()
            };
            let mut hits_a = 0;
            for k in 0..g.n {
                let d = self.d6(
                    "W6.8",
                    format!(
                        "{} fleet {} at {sname} ({what}), round {round}",
                        self.pid(p),
                        k + 1
                    ),
                );
                rec.rolls.attacker.push(d);
                add_die(&mut rec.by_kind.attacker, "FLT", 0, None, d);
                if d as i32 + drm_a >= 5 {
                    hits_a += 1;
                }
            }
            let b_n = self.s.fleet(sea, q).n;
            let mut hits_b = 0;
            for k in 0..b_n {
                let d = self.d6(
                    "W6.8",
                    format!(
                        "{} fleet {} at {sname} ({what}), round {round}",
                        self.pid(q),
                        k + 1
                    ),
                );
                rec.rolls.defender.push(d);
                add_die(&mut rec.by_kind.defender, "FLT", 0, None, d);
                if d as i32 + drm_b >= 5 {
                    hits_b += 1;
                }
            }
            rec.hits.attacker = hits_a;
            rec.hits.defender = hits_b;
            // The group's losses: empty fleets first; cargo beyond portage lost.
            let lost_a = hits_b.min(g.n);
            g.n -= lost_a;
            let mut cargo_lost_a = Units::default();
            let order = self.standing[p].cargo_loss_order();
            while g.cargo.portage() > g.n * FLEET_PORTAGE {
                let Some(&k) = order.iter().find(|&&k| g.cargo.get(k) > 0) else {
                    break;
                };
                g.cargo.sub(&Units::one(k));
                cargo_lost_a.add(&Units::one(k));
            }
            g.landable = g.landable.min(&g.cargo);
            let lost_b = hits_a.min(b_n);
            self.s.fleet_mut(sea, q).n -= lost_b;
            let cargo_lost_b = if lost_b > 0 {
                self.drop_excess_cargo(sea, q, "W6.8")
            } else {
                Units::default()
            };
            rec.losses.attacker = losses_map(lost_a, &cargo_lost_a);
            rec.losses.defender = losses_map(lost_b, &cargo_lost_b);
            report.rounds.push(rec);
            let b_left = self.s.fleet(sea, q).n;
            if g.n == 0 && b_left == 0 {
                // Both sides sunk in the same round: nobody is left to have won.
                report.winner = "none".into();
                report.end = "both sides' fleets sunk".into();
                fate = Fate::Sunk;
                break;
            }
            if g.n == 0 {
                report.winner = self.pid(q);
                report.end = format!("{}'s fleets sunk", self.pid(p));
                fate = Fate::Sunk;
                break;
            }
            if b_left == 0 {
                report.winner = self.pid(p);
                report.end = format!("{}'s fleets sunk", self.pid(q));
                fate = Fate::GoesOn;
                break;
            }
            let limit_a = self.standing[p].naval_rounds;
            if g.n < b_left || limit_a.is_some_and(|n| round >= n) {
                report.winner = self.pid(q);
                report.end = format!("{} breaks off after round {round}", self.pid(p));
                fate = Fate::Stopped;
                break;
            }
            let limit_b = self.standing[q].naval_rounds;
            if b_left < g.n || limit_b.is_some_and(|n| round >= n) {
                report.winner = self.pid(p);
                report.end = format!("{} breaks off after round {round}", self.pid(q));
                fate = Fate::GoesOn;
                break;
            }
            if round >= MAX_ROUNDS {
                report.winner = "none".into();
                report.end = format!("both break off after {MAX_ROUNDS} rounds");
                fate = Fate::Stopped;
                break;
            }
        }
        let text = format!(
            "naval battle in {sname} ({what}): {} against {}, {}: {}",
            self.pid(p),
            self.pid(q),
            super::battle::rounds(report.rounds.len()),
            report.end
        );
        report.event = self.log.events.len();
        self.event(Event::new("W6.8", text).player(self.pid(p)));
        self.log.battles.push(report);
        fate
    }

    /// W6.6: enemy fleets may intercept units that retreated onto a player's fleets.
    pub fn intercept_stack(&mut self, p: usize, sea: usize) {
        let f = *self.s.fleet(sea, p);
        if f.n == 0 {
            return;
        }
        let mut g = Group {
            player: p,
            n: f.n,
            cargo: f.cargo,
            landable: Units::default(),
        };
        let k = sea * self.np() + p;
        let moved = self.mv.fleet_moved[k];
        self.s.fleets[k] = Default::default();
        self.intercept(&mut g, sea);
        self.s.fleets[k].n += g.n;
        self.s.fleets[k].cargo.add(&g.cargo);
        self.mv.fleet_moved[k] = moved.min(self.s.fleets[k].n);
        self.clamp_cargo(sea, p);
        if g.n == 0 && !g.cargo.is_empty() {
            let text = format!(
                "{}'s {} aboard lost with the fleets in {}",
                self.pid(p),
                g.cargo.text(),
                self.sn(sea)
            );
            self.event(Event::new("W6.6", text).player(self.pid(p)));
        }
    }
}

fn losses_map(fleets: u32, cargo: &Units) -> BTreeMap<&'static str, u32> {
    let mut m = BTreeMap::new();
    if fleets > 0 {
        m.insert("FLT", fleets);
    }
    for k in super::state::KINDS {
        if cargo.get(k) > 0 {
            m.insert(k.name(), cargo.get(k));
        }
    }
    m
}
