//! Setup (W3): the draft of regions by ranked lists, then one simultaneous purchase.

use super::order::Order;
use super::outcome::{Event, Pick};
use super::run::Run;
use super::state::{Kind, Phase, Units};

/// Regions each player drafts (W11.1).
pub fn regions_each(players: usize) -> u32 {
    match players {
        0..=3 => 7,
        4 => 6,
        5 => 5,
        _ => 4,
    }
}

pub const START_PP: u32 = 120;
pub const START_DP: u32 = 3;

impl Run {
    /// W3.1–W3.2: regions allotted round by round in setup order, each player the
    /// first free region of its list, else by default; then the setup PP and DP.
    pub fn draft(&mut self) {
        let np = self.np();
        let each = self
            .s
            .options
            .regions_each
            .unwrap_or_else(|| regions_each(self.s.active().count()));
        let mut lists: Vec<Vec<usize>> = vec![Vec::new(); np];
        for t in 0..self.orders.len() {
            if let Order::Pick(list) = &self.orders[t].order {
                let p = self.orders[t].player;
                for &r in list {
                    if !lists[p].contains(&r) {
                        lists[p].push(r);
                    }
                }
            }
        }
        let mut got: Vec<Vec<String>> = vec![Vec::new(); np];
        let order = self.s.order.clone();
        'rounds: for round in 1..=each {
            for &p in &order {
                if self.s.players[p].eliminated {
                    continue;
                }
                let free = |run: &Run, r: usize| run.s.regions[r].owner.is_none();
                let listed = lists[p].iter().copied().find(|&r| free(self, r));
                let (r, how) = match listed {
                    Some(r) => (r, "list"),
                    None => {
                        // The free region land-adjacent to most of his regions (ties:
                        // map order), else the first free one.
                        let best = (0..self.s.regions.len())
                            .filter(|&r| free(self, r))
                            .max_by_key(|&r| {
                                let n = self.map.regions[r]
                                    .land
                                    .iter()
                                    .filter(|&&a| self.s.owns(p, a))
                                    .count();
                                (n, std::cmp::Reverse(r))
                            });
                        match best {
                            Some(r) => (r, "default"),
                            None => {
                                self.event(Event::new(
                                    "W3.1",
                                    "no free region is left: the draft ends",
                                ));
                                break 'rounds;
                            }
                        }
                    }
                };
                let region = &mut self.s.regions[r];
                region.owner = Some(p);
                region.native = None;
                region.chit = super::map::Chit::Dot;
                region.developed = false;
                *self.s.units_mut(r, p) = Units::one(Kind::Inf);
                let (who, name) = (self.pid(p), self.rn(r));
                got[p].push(if how == "list" {
                    format!("{name} (round {round})")
                } else {
                    format!("{name} (round {round}, by default)")
                });
                self.log.picks.push(Pick {
                    player: who.clone(),
                    region: name.clone(),
                    round,
                    how,
                });
                let text = format!(
                    "round {round}: {who} picks {name} ({}) with a free INF",
                    if how == "list" {
                        "from its list"
                    } else {
                        "by default"
                    }
                );
                self.event(Event::new("W3.1", text).player(who).region(name));
            }
        }
        // The allotment is told once, on a player's first PICK line; his later lines
        // only added to that list.
        let mut told = vec![false; np];
        for t in 0..self.orders.len() {
            if matches!(self.orders[t].order, Order::Pick(_)) {
                let p = self.orders[t].player;
                let text = if std::mem::replace(&mut told[p], true) {
                    "added to the list of the first PICK line, where the allotment is told"
                        .to_string()
                } else if got[p].is_empty() {
                    "no region allotted".to_string()
                } else {
                    format!("allotted {}", got[p].join(", "))
                };
                self.note(t, text);
            }
        }
        let pp = self.s.options.start_pp.unwrap_or(START_PP);
        let dp = self.s.options.start_dp.unwrap_or(START_DP);
        for p in self.s.active().collect::<Vec<_>>() {
            self.gain_pp(p, pp);
            self.gain_dp(p, dp);
        }
        self.event(Event::new(
            "W3.2",
            format!("every player receives {pp} PP and {dp} DP"),
        ));
        for p in self.s.active().collect::<Vec<_>>() {
            if !self.sent[p] {
                let text = format!(
                    "{} sent no draft orders: every region picked by default (W3.1)",
                    self.pid(p)
                );
                self.event(Event::new("W9.1", text).player(self.pid(p)));
            }
        }
        self.s.phase = Phase::Setup;
    }

    /// W3.3: `BUILD` orders in written order, paid from the setup PP; unit limits and
    /// placement rules lifted, building rules standing.
    pub fn setup(&mut self) {
        self.construction(true);
        for p in self.s.active().collect::<Vec<_>>() {
            if !self.sent[p] {
                let text = format!(
                    "{} sent no setup orders: nothing bought (W3.3)",
                    self.pid(p)
                );
                self.event(Event::new("W9.1", text).player(self.pid(p)));
            }
        }
        self.s.phase = Phase::Movement1;
        self.s.turn = 1;
    }
}
