//! What a land battle leaves behind: the losing side's retreat (W6.6), onto fleets too
//! with the enemy's extra round; a conquest, and a revolt the natives win (W6.7).

use super::battle::{Army, Side, IDLE, OTHER};
use super::map::Place;
use std::collections::BTreeMap;

use super::outcome::{all_rolls, drm_total, BattleReport, BattleRound, Event, SatOut};
use super::run::Run;
use super::state::{Units, BRIGADES};

impl Run {
    /// Where an attacker's side retreats (W6.6): the named origin, else the first
    /// origin still his (a sea: his fleets with room). Beside it, when the BATTLE
    /// line's RETREAT place is passed over, why.
    pub(super) fn attacker_retreat(
        &self,
        x: usize,
        r: usize,
        origins: &[Place],
        units: &Units,
    ) -> (Option<Place>, Option<String>) {
        let why_not = |p: Place| -> Option<String> {
            let name = self.pn(p);
            match p {
                _ if !origins.contains(&p) => {
                    Some(format!("{}'s units did not come from {name}", self.pid(x)))
                }
                Place::Region(o) if !self.s.owns(x, o) => {
                    Some(format!("{name} is no longer {}'s", self.pid(x)))
                }
                Place::Region(_) => None,
                Place::Sea(s) => {
                    let f = self.s.fleet(s, x);
                    if f.n == 0 {
                        Some(format!("{} has no fleet left in {name}", self.pid(x)))
                    } else if f.room() < units.portage() {
                        Some(format!(
                            "{}'s fleets in {name} have no room for {}",
                            self.pid(x),
                            units.text()
                        ))
                    } else {
                        None
                    }
                }
            }
        };
        let named = self.standing[x]
            .battle_for(Place::Region(r))
            .and_then(|b| b.retreat);
        if let Some(p) = named {
            match why_not(p) {
                None => return (Some(p), None),
                Some(why) => {
                    let place = origins.iter().copied().find(|&o| why_not(o).is_none());
                    return (place, Some(self.passed_over(x, r, p, &why)));
                }
            }
        }
        let place = origins.iter().copied().find(|&o| why_not(o).is_none());
        (place, None)
    }

    /// Where a defender's side retreats (W6.6): the named adjacent own region, else
    /// the adjacent own region with most brigades (ties by id); never fleets. Beside
    /// it, when the BATTLE line's RETREAT place is passed over, why.
    pub(super) fn defender_retreat(&self, y: usize, r: usize) -> (Option<Place>, Option<String>) {
        let own: Vec<usize> = self.map.regions[r]
            .land
            .iter()
            .copied()
            .filter(|&a| self.s.owns(y, a))
            .collect();
        let named = self.standing[y]
            .battle_for(Place::Region(r))
            .and_then(|b| b.retreat);
        let mut passed_over = None;
        if let Some(p) = named {
            let why = match p {
                Place::Sea(_) => Some("a defender never retreats onto fleets".to_string()),
                Place::Region(a) if !self.map.land_adjacent(a, r) => {
                    Some(format!("{} is not next to {}", self.rn(a), self.rn(r)))
                }
                Place::Region(a) if !own.contains(&a) => {
                    Some(format!("{} is not {}'s", self.rn(a), self.pid(y)))
                }
                Place::Region(_) => None,
            };
            match why {
                None => return (Some(p), None),
                Some(why) => passed_over = Some(self.passed_over(y, r, p, &why)),
            }
        }
        let place = own
            .iter()
            .copied()
            .max_by(|&a, &b| {
                let (ba, bb) = (self.s.units(a, y).brigades(), self.s.units(b, y).brigades());
                ba.cmp(&bb).then_with(|| {
                    self.map.regions[b]
                        .id
                        .to_ascii_lowercase()
                        .cmp(&self.map.regions[a].id.to_ascii_lowercase())
                })
            })
            .map(Place::Region);
        (place, passed_over)
    }

    /// W6.6: a RETREAT place that cannot be used, in words for the results.
    fn passed_over(&self, x: usize, r: usize, named: Place, why: &str) -> String {
        format!(
            "{}'s RETREAT {} cannot be used at {}: {why} (W6.6)",
            self.pid(x),
            self.pn(named),
            self.rn(r)
        )
    }

    /// W6.6: the whole side to one place; with none, it stays (parties that must
    /// retreat are eliminated). Onto fleets: one extra round for the enemy first, then
    /// enemy fleets may intercept.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn retreat(
        &mut self,
        x: usize,
        r: usize,
        units: Units,
        place: Option<Place>,
        enemy: &Army,
        fort: bool,
        report: &mut BattleReport,
    ) {
        let who = self.pid(x);
        let at = self.rn(r);
        let np = self.np();
        let Some(place) = place else {
            if units.brigades() == 0 {
                self.s.units_mut(r, x).sub(&units);
                self.clamp(r, x);
                let text = format!(
                    "{who}'s {} in {at} cannot retreat and are eliminated",
                    units.text()
                );
                self.event(Event::new("W6.6", text).player(&who).region(&at));
            }
            return;
        };
        self.s.units_mut(r, x).sub(&units);
        self.clamp(r, x);
        match place {
            Place::Region(o) => {
                self.s.units_mut(o, x).add(&units);
                if !self.mv.moved.is_empty() {
                    self.mv.moved[o * np + x].add(&units);
                    let later = self.mv.pending[self.mv.next_battle.min(self.mv.pending.len())..]
                        .iter()
                        .any(|p| p.region == o)
                        || self.mv.revolts_left.contains(&o);
                    if later {
                        self.mv.idle[o * np + x].add(&units);
                    }
                }
                let text = format!(
                    "{who}'s {} retreat from {at} to {}",
                    units.text(),
                    self.rn(o)
                );
                self.event(Event::new("W6.6", text).player(&who).region(&at));
            }
            Place::Sea(s) => {
                // One extra round: only the enemy rolls.
                let mut mine = Army::new(Side::Player(x));
                mine.parties = units;
                for k in BRIGADES {
                    mine.parties.set(k, 0);
                    mine.brig[k.index()][OTHER] = units.get(k);
                }
                let round = report.rounds.len() as u32 + 1;
                let enemy_attacks = report.attacker != who;
                let parts = if enemy_attacks {
                    self.drm_parts(r, enemy, &mine, fort).attacker
                } else {
                    self.drm_parts(r, &mine, enemy, fort).defender
                };
                let drm = drm_total(&parts);
                let mut dice = Vec::new();
                let mut e = enemy.clone();
                for b in &mut e.brig {
                    b[OTHER] += b[IDLE];
                    b[IDLE] = 0;
                }
                let hits = self.roll_army(&e, drm, round, r, &mut dice);
                let rolls = all_rolls(&dice);
                let target = self.target(enemy.side, r);
                let lost = self.take_losses(&mut mine, hits, target);
                // The side retreating onto its fleets does not roll.
                let brigades: BTreeMap<&'static str, u32> = BRIGADES
                    .into_iter()
                    .map(|k| (k.name(), units.get(k)))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                let sat_out = (!brigades.is_empty()).then_some(SatOut {
                    units: brigades,
                    why: "retreating_onto_fleets",
                });
                let mut rec = BattleRound {
                    extra: true,
                    ..Default::default()
                };
                if enemy_attacks {
                    rec.drm.attacker = drm;
                    rec.drm_parts.attacker = parts;
                    rec.rolls.attacker = rolls;
                    rec.by_kind.attacker = dice;
                    rec.hits.attacker = hits;
                    rec.losses.defender = lost;
                    rec.sat_out.defender = sat_out;
                } else {
                    rec.drm.defender = drm;
                    rec.drm_parts.defender = parts;
                    rec.rolls.defender = rolls;
                    rec.by_kind.defender = dice;
                    rec.hits.defender = hits;
                    rec.losses.attacker = lost;
                    rec.sat_out.attacker = sat_out;
                }
                report.rounds.push(rec);
                let left = mine.units();
                self.s.fleet_mut(s, x).cargo.add(&left);
                self.mv.cargo_moved[s * np + x].add(&left);
                let text = format!(
                    "{who}'s {} retreat from {at} onto their fleets in {} ({} after the extra round)",
                    units.text(),
                    self.sn(s),
                    left.text()
                );
                self.event(Event::new("W6.6", text).player(&who).region(&at));
                self.intercept_stack(x, s);
            }
        }
    }

    /// W6.7: the attacker controls the region with its buildings and resource; a
    /// conquest gives 1 DP; against natives NS -1d3.
    pub(super) fn conquer(&mut self, r: usize, p: usize, from: Side) {
        self.s.regions[r].owner = Some(p);
        self.s.regions[r].revolt = false;
        self.s.regions[r].suppressors.clear();
        self.s.cedes.retain(|c| c.region != r);
        self.gain_dp(p, 1);
        let text = format!(
            "{} conquers {} from {} (+1 DP)",
            self.pid(p),
            self.rn(r),
            match from {
                Side::Natives => "the natives".to_string(),
                Side::Player(q) => self.pid(q),
            }
        );
        self.event(
            Event::new("W6.7", text)
                .player(self.pid(p))
                .region(self.rn(r)),
        );
        if from == Side::Natives {
            let loss = self.d3("W6.7", format!("NS loss at {}", self.rn(r)));
            self.lower_ns(r, loss, "W6.7", &format!("conquest, 1d3 = {loss}"));
        }
        self.trim_spheres(r, "W6.7");
    }

    /// W6.7: the region reverts, the suppressors' spheres go, and the neighbouring
    /// controlled regions with a marker roll for revolt.
    pub(super) fn natives_win_revolt(&mut self, r: usize) {
        let suppressors = self.s.regions[r].suppressors.clone();
        for q in suppressors {
            self.s.regions[r].spheres[q] = 0;
        }
        self.revert(r, "W6.7", "the natives win the revolt");
        let around: Vec<usize> = self
            .map
            .regions_by_id
            .iter()
            .copied()
            .filter(|&a| {
                self.map.land_adjacent(r, a)
                    && self.s.regions[a].owner.is_some()
                    && self.s.regions[a].native.is_some()
                    && !self.s.regions[a].revolt
            })
            .collect();
        for a in around {
            self.revolt_roll(a, None, false, "W6.7");
        }
    }
}
