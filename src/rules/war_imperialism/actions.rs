//! Other actions of a player turn (W7): native diplomacy by explorers, prospecting by
//! engineers, declarations of war.

use super::outcome::Event;
use super::run::Run;
use super::state::{Kind, War};

impl Run {
    /// W7.1, W11.5: `PARLEY <region> [DP]`.
    pub fn exec_parley(&mut self, t: usize, p: usize, r: usize, dp: bool) {
        let name = self.rn(r);
        let Some(m) = self.s.regions[r]
            .native
            .filter(|_| self.s.regions[r].owner.is_none())
        else {
            return self.failed(t, format!("{name} is not native-controlled"));
        };
        if self.s.units(r, p).get(Kind::Exp) == 0 {
            return self.failed(t, format!("no explorer of yours in {name}"));
        }
        if self.mv.parleys.contains(&(p, r)) {
            return self.invalid(t, format!("one parley per region per phase in {name}"));
        }
        if dp {
            if let Err(why) = self.pay_dp(p, 1) {
                return self.failed(t, format!("{why}: no roll"));
            }
        }
        self.mv.parleys.push((p, r));
        let n = if dp { 3 } else { 2 };
        let mut dice = Vec::new();
        for _ in 0..n {
            dice.push(self.d6("W7.1", format!("{} parley at {name}", self.pid(p))));
        }
        let spheres = self.s.regions[r].spheres[p].min(3) as i32;
        let beside = i32::from(self.map.regions[r].land.iter().any(|&a| self.s.owns(p, a)));
        let mark = -(m.plus as i32);
        let sum: u32 = dice.iter().sum();
        let total = sum as i32 + spheres + beside + mark;
        let diff = total - m.ns as i32;
        let rolled: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
        // The total first, then its parts: `T = 9 (2d6 4+5, +0 spheres, +1 beside, -1
        // mark); T - NS = 9 - 10 = -1 (W11.5)`.
        let how = format!(
            "T = {total} ({} {}, {spheres:+} spheres, {beside:+} beside, {mark:+} mark); \
             T - NS = {total} - {} = {diff:+} (W11.5)",
            if dp { "3d6" } else { "2d6" },
            rolled.join("+"),
            m.ns,
        );
        let who = self.pid(p);
        let result = if diff >= 3 {
            self.s.regions[r].owner = Some(p);
            self.s.units_mut(r, p).add_kind(Kind::Inf, 1);
            let np = self.np();
            self.mv.moved[r * np + p].add_kind(Kind::Inf, 1);
            self.trim_spheres(r, "W7.1");
            format!("{name} becomes {who}'s colony with a free INF")
        } else if diff >= 0 {
            let total_spheres = self.s.regions[r].sphere_total();
            if total_spheres < m.ns {
                self.s.regions[r].spheres[p] += 1;
                format!("{who} places a sphere in {name}")
            } else {
                let spheres = &self.s.regions[r].spheres;
                let other = (0..spheres.len())
                    .filter(|&q| q != p && spheres[q] > 0)
                    .max_by_key(|&q| (spheres[q], std::cmp::Reverse(q)));
                match other {
                    Some(q) => {
                        self.s.regions[r].spheres[q] -= 1;
                        format!(
                            "{name} is at its cap of {} spheres: one of {} removed",
                            m.ns,
                            self.pid(q)
                        )
                    }
                    None => format!("{name} is at its cap of {} spheres: no sphere placed", m.ns),
                }
            }
        } else if diff >= -3 {
            "nothing happens".to_string()
        } else {
            self.s
                .units_mut(r, p)
                .sub(&super::state::Units::one(Kind::Exp));
            self.clamp(r, p);
            format!("{who}'s explorer in {name} is killed")
        };
        self.event(
            Event::new("W7.1", format!("parley at {name}: {how}: {result}"))
                .player(&who)
                .region(&name),
        );
        self.done(t, format!("{how}: {result}"));
    }

    /// W7.2: `PROSPECT <region>`.
    pub fn exec_prospect(&mut self, t: usize, p: usize, r: usize) {
        let name = self.rn(r);
        if !self.s.owns(p, r) {
            return self.failed(t, format!("{name} is not yours"));
        }
        if self.s.regions[r].revolt {
            return self.failed(t, format!("{name} is in revolt"));
        }
        if self.s.regions[r].developed {
            return self.failed(t, format!("{name}'s resource is developed"));
        }
        let engineers = self.s.units(r, p).get(Kind::Eng);
        if engineers <= self.mv.prospects[r] {
            return self.failed(
                t,
                format!("no engineer of yours in {name} left to prospect this phase"),
            );
        }
        if self.s.pool_chits.is_empty() {
            return self.failed(t, "the chit pool is empty");
        }
        if let Err(why) = self.pay_pp(p, 5) {
            return self.failed(t, why);
        }
        self.mv.prospects[r] += 1;
        let k = (self.s.schools(p) / 2).max(1) as usize;
        let k = k.min(self.s.pool_chits.len());
        let drawn: Vec<_> = self.s.pool_chits.drain(..k).collect();
        let mut best = 0;
        for (i, c) in drawn.iter().enumerate() {
            if c.value() > drawn[best].value() {
                best = i;
            }
        }
        let old = std::mem::replace(&mut self.s.regions[r].chit, drawn[best].clone());
        self.s.pool_chits.push(old.clone());
        for (i, c) in drawn.iter().enumerate() {
            if i != best {
                self.s.pool_chits.push(c.clone());
            }
        }
        let names: Vec<String> = drawn.iter().map(|c| c.to_string()).collect();
        // The old chit, then the others drawn, in drawn order, go to the pool's end.
        let back: Vec<String> = std::iter::once(old.to_string())
            .chain(
                drawn
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != best)
                    .map(|(_, c)| c.to_string()),
            )
            .collect();
        let text = format!(
            "{} prospects in {name} for 5 PP: draws {}, keeps {}; {} returned to the pool",
            self.pid(p),
            names.join(", "),
            drawn[best],
            back.join(", ")
        );
        self.event(
            Event::new("W7.2", text.clone())
                .player(self.pid(p))
                .region(&name),
        );
        self.done(
            t,
            format!("draws {}, keeps {}", names.join(", "), drawn[best]),
        );
    }

    /// W7.3: `DECLARE WAR <player>`, 1 DP; in force at the end of the player turn (this
    /// is its last step).
    pub fn exec_war(&mut self, t: usize, p: usize, q: usize) {
        if self.s.players[q].eliminated {
            return self.failed(t, format!("{} is out of the game", self.pid(q)));
        }
        if self.s.at_war(p, q) {
            return self.failed(t, format!("already at war with {}", self.pid(q)));
        }
        if let Err(why) = self.pay_dp(p, 1) {
            return self.failed(t, why);
        }
        let movement = self.s.phase.movement().unwrap_or(1);
        self.s.wars.push(War {
            players: (p.min(q), p.max(q)),
            declared_by: p,
            turn: self.s.turn,
            movement,
        });
        self.s.wars.sort_by_key(|w| w.players);
        let text = format!(
            "{} declares war on {} (1 DP): {} may attack at once, {} from the next movement phase",
            self.pid(p),
            self.pid(q),
            self.pid(q),
            self.pid(p)
        );
        self.event(Event::new("W7.3", text).player(self.pid(p)));
        self.done(t, format!("at war with {}", self.pid(q)));
    }
}
