//! Native diplomacy in the production phase (W4.5): spheres removed, automatic
//! westernizing, and incitement to revolt with its die modifiers.

use super::order::Order;
use super::outcome::Event;
use super::run::Run;
use super::state::{Building, Kind};

/// Automatic westernizing counts these buildings (W4.5b).
const WESTERNIZING: [Building; 5] = [
    Building::City,
    Building::Factory,
    Building::Railroad,
    Building::Port,
    Building::School,
];

impl Run {
    /// W4.5a: spheres removed.
    pub(super) fn remove_spheres(&mut self) {
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
    pub(super) fn westernize(&mut self) {
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
                let parts: Vec<String> = [
                    (built, "building", "buildings"),
                    (explorers, "explorer", "explorers"),
                ]
                .into_iter()
                .filter(|&(n, _, _)| n > 0)
                .map(|(n, one, many)| crate::rules::counted(n, one, many))
                .collect();
                let cause = format!("automatic: {}", parts.join(", "));
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
    pub(super) fn incite(&mut self) {
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
}
