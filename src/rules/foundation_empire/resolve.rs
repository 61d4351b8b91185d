//! Resolution of a movement phase (R4–R5), in time linear in the number of fleets.
//!
//! Supports are never cut (R3.5) and defence counts the fleets adjacent at the start
//! of the turn (R4.2), so every attack and defence power is known before anything
//! is resolved. What remains uncertain is only whether each move succeeds, and a
//! move's success depends on one other uncertain thing at most: whether the fleet
//! standing in its destination leaves. (A rival move into the same destination counts
//! for nothing when it lost a head-to-head with that leaving fleet, R5.3 — the same
//! question again.) So the moves form a functional graph, each pointing at most at
//! the move out of its destination. Chains are resolved from their ends; a cycle is a ring
//! (R5.4), which succeeds as a whole unless one of its moves fails even when its
//! destination is vacated, in which case the failure is propagated back around it.
//! Success is monotone in the success of the move depended on, which is what makes
//! this sound.

use super::board::{PowerId, Sector};
use super::position::{State, SupportMode, NO_FLEET};

/// What a fleet was ordered to do, after checking.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Act {
    Hold,
    Move(Sector),
    /// A support, with the move it names in targeted mode.
    Support(Option<(Sector, Sector)>),
}

/// The outcome of a movement phase, fleet by fleet (indexed like `state.fleets`).
/// It keeps the tables resolution was done on, so what stopped a move, or the
/// strongest rival a move beat, is worked out when a report asks, not stored for all.
pub struct Resolution<'a> {
    graph: Resolver<'a>,
    pub moved: Vec<bool>,
    /// For a dislodged fleet, the index of the fleet that dislodged it.
    pub dislodged_by: Vec<u32>,
    /// How many fleets were dislodged.
    pub dislodged: usize,
    /// Sectors left empty although a move into them failed (R6.1).
    pub standoffs: Vec<Sector>,
}

impl Resolution<'_> {
    /// Attack power of a moving fleet (R4.1); 0 for the others.
    pub fn attack(&self, i: usize) -> u32 {
        self.graph.attack(i)
    }

    /// Which fleet stands where at the start of the turn.
    pub fn occupancy(&self) -> &[u32] {
        &self.graph.pos.occ
    }

    /// The table of [`Resolution::occupancy`], for reuse; that method then gives
    /// an empty table.
    pub fn take_occupancy(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.graph.pos.occ)
    }

    /// Where fleet `i` stands at the start of the turn.
    pub fn at(&self, i: usize) -> Sector {
        self.graph.pos.at[i]
    }

    /// The power of fleet `i`.
    pub fn power(&self, i: usize) -> PowerId {
        self.graph.pos.power[i]
    }

    /// Each fleet's power.
    pub fn powers(&self) -> &[PowerId] {
        &self.graph.pos.power
    }

    /// Defence power of fleet `i` if it stays (R4.2): 1 + the fleets of its power
    /// adjacent to it at the start of the turn.
    pub fn defence(&self, i: usize) -> u32 {
        self.graph.defence(i)
    }

    /// What stopped move `i`, if it failed.
    pub fn obstacle(&self, i: usize) -> Option<Obstacle> {
        if self.moved[i] {
            return None;
        }
        let dep = self.graph.depends_on(i).is_some_and(|j| self.moved[j]);
        self.graph.obstacle(i, dep)
    }

    /// The move into `to` that succeeded, if any.
    pub fn arrival(&self, to: Sector) -> Option<usize> {
        self.graph.moves_into(to).find(|&k| self.moved[k])
    }

    /// The strongest other move into the destination of move `i`, if any (ties: the
    /// first origin in reading order).
    pub fn rival(&self, i: usize) -> Option<usize> {
        let to = self.graph.dest(i)?;
        self.graph
            .moves_into(to)
            .filter(|&k| k != i)
            .max_by_key(|&k| {
                (
                    self.graph.attack(k),
                    std::cmp::Reverse(self.graph.pos.at[k]),
                )
            })
    }
}

const UNKNOWN: u8 = 0;
const ON_PATH: u8 = 1;
const SUCCEEDS: u8 = 2;
const FAILS: u8 = 3;
/// A fleet that does not move.
const STAYS: u8 = 4;

/// Where the fleets stand at the start of the turn and whose they are, in the compact
/// tables the sweeps of a movement phase read: a fleet's record is 20 bytes, of which a
/// sweep needs 5, and a phase of 100,000 fleets sweeps its fleets a dozen times.
pub struct Positions {
    /// The fleet in each sector ([`NO_FLEET`]: none), as [`State::occupancy`].
    pub occ: Vec<u32>,
    /// The power of the fleet in each sector, plus one (0: empty): a byte a sector,
    /// what the defence of R4.2 reads.
    pub owner: Vec<u8>,
    /// Each fleet's sector.
    pub at: Vec<Sector>,
    /// Each fleet's power.
    pub power: Vec<PowerId>,
}

impl Positions {
    /// The tables of a position, in one pass over its fleets.
    pub fn of(state: &State) -> Positions {
        let sectors = state.board.len();
        let n = state.fleets.len();
        let mut pos = Positions {
            occ: vec![NO_FLEET; sectors],
            owner: vec![0u8; sectors],
            at: Vec::with_capacity(n),
            power: Vec::with_capacity(n),
        };
        for (i, f) in state.fleets.iter().enumerate() {
            pos.occ[f.at.0 as usize] = i as u32;
            // At most 255 powers (a board's limit), so `power + 1` fits.
            pos.owner[f.at.0 as usize] = f.power.0.wrapping_add(1);
            pos.at.push(f.at);
            pos.power.push(f.power);
        }
        pos
    }
}

struct Resolver<'a> {
    state: &'a State,
    acts: &'a [Act],
    pos: Positions,
    /// Supports counted for each power's moves (pooled, R3.4), and for each move
    /// (targeted; empty when no power targets): attack powers are worked out from
    /// them when asked, not kept in a table of their own.
    pooled: Vec<u32>,
    targeted: Vec<u32>,
    /// Head of the list of moves into each sector, and the next link of each move.
    first_in: Vec<u32>,
    next_in: Vec<u32>,
    status: Vec<u8>,
}

/// Resolves a movement phase. `modes` gives each power's support mode (R3.4; the
/// Imperium of a solo game always pools, R10.2); `pos` is [`Positions::of`] the state.
pub fn resolve<'a>(
    state: &'a State,
    acts: &'a [Act],
    modes: &[SupportMode],
    pos: Positions,
) -> Resolution<'a> {
    let n = state.fleets.len();
    // One pass over the orders: supports counted, and the moves into each sector
    // linked.
    let mut pooled = vec![0u32; modes.len()];
    let any_targeted = modes.contains(&SupportMode::Targeted);
    let mut targeted = vec![0u32; if any_targeted { n } else { 0 }];
    // The per-fleet tables are written in this pass, not cleared first: at 100,000
    // fleets a table cleared before its pass is a second trip through memory.
    let mut first_in = vec![NO_FLEET; state.board.len()];
    let mut next_in = Vec::with_capacity(n);
    let mut status = Vec::with_capacity(n);
    for (i, (power, act)) in pos.power.iter().zip(acts).enumerate() {
        let (next, known) = match act {
            Act::Move(to) => {
                let next = first_in[to.0 as usize];
                first_in[to.0 as usize] = i as u32;
                (next, UNKNOWN)
            }
            _ => (NO_FLEET, STAYS),
        };
        next_in.push(next);
        status.push(known);
        match act {
            Act::Move(_) | Act::Hold => {}
            Act::Support(target) => match modes[power.0 as usize] {
                SupportMode::Pooled => pooled[power.0 as usize] += 1,
                SupportMode::Targeted => {
                    if let Some((from, to)) = target {
                        let j = pos.occ[from.0 as usize];
                        if j != NO_FLEET && acts[j as usize] == Act::Move(*to) {
                            targeted[j as usize] += 1;
                        }
                    }
                }
            },
        }
    }
    let mut r = Resolver {
        state,
        acts,
        pos,
        pooled,
        targeted,
        first_in,
        next_in,
        status,
    };
    let mut path = Vec::new();
    for i in 0..n {
        if r.status[i] == UNKNOWN {
            r.resolve_from(i, &mut path);
        }
    }
    r.finish()
}

impl<'a> Resolver<'a> {
    /// Attack power of fleet `i` if it moves (R4.1): 1 + the supports counted for it;
    /// 0 for the others.
    fn attack(&self, i: usize) -> u32 {
        match self.acts[i] {
            Act::Move(_) => {
                1 + self.pooled[self.pos.power[i].0 as usize]
                    + self.targeted.get(i).copied().unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// Defence power of fleet `i` if it stays (R4.2).
    fn defence(&self, i: usize) -> u32 {
        let mine = self.pos.power[i].0.wrapping_add(1);
        let own = self
            .state
            .board
            .neighbours(self.pos.at[i])
            .as_slice()
            .iter()
            .filter(|s| self.pos.owner[s.0 as usize] == mine)
            .count();
        1 + own as u32
    }

    fn dest(&self, i: usize) -> Option<Sector> {
        match self.acts[i] {
            Act::Move(to) => Some(to),
            _ => None,
        }
    }

    fn power(&self, i: usize) -> PowerId {
        self.pos.power[i]
    }

    /// The fleet standing in the destination of move `i`, if any.
    fn occupant(&self, i: usize) -> Option<usize> {
        let to = self.dest(i)?;
        let j = self.pos.occ[to.0 as usize];
        (j != NO_FLEET).then_some(j as usize)
    }

    /// Whether move `i` and the move of the fleet in its destination are a swap.
    fn head_to_head(&self, i: usize) -> bool {
        self.occupant(i)
            .is_some_and(|j| self.dest(j) == Some(self.pos.at[i]))
    }

    /// The move whose success decides move `i`, if any.
    fn depends_on(&self, i: usize) -> Option<usize> {
        let j = self.occupant(i)?;
        (self.dest(j).is_some() && !self.head_to_head(i)).then_some(j)
    }

    fn moves_into(&self, to: Sector) -> impl Iterator<Item = usize> + '_ {
        let mut k = self.first_in[to.0 as usize];
        std::iter::from_fn(move || {
            (k != NO_FLEET).then(|| {
                let cur = k as usize;
                k = self.next_in[cur];
                cur
            })
        })
    }

    /// Whether move `i` succeeds, given whether the move it depends on succeeds
    /// (ignored when it depends on none).
    fn succeeds(&self, i: usize, dep_succeeds: bool) -> bool {
        self.obstacle(i, dep_succeeds).is_none()
    }

    /// What stops move `i`, if anything.
    fn obstacle(&self, i: usize, dep_succeeds: bool) -> Option<Obstacle> {
        let to = self.dest(i)?;
        let a = self.attack(i);
        let occupant = self.occupant(i);
        for k in self.moves_into(to) {
            if k == i {
                continue;
            }
            // A move that lost a head-to-head with the fleet leaving `to` was dislodged
            // by it and cannot cause a stand-off here (R5.3).
            let lost_swap =
                occupant.is_some_and(|j| self.dest(j) == Some(self.pos.at[k]) && dep_succeeds);
            let prevent = if lost_swap { 0 } else { self.attack(k) };
            if a <= prevent {
                return Some(Obstacle::Rival {
                    from: k,
                    power: prevent,
                });
            }
        }
        let j = occupant?;
        let same_power = self.power(j) == self.power(i);
        if self.head_to_head(i) {
            if same_power || a <= self.attack(j) {
                return Some(Obstacle::Swap { fleet: j });
            }
            return None;
        }
        if self.dest(j).is_some() && dep_succeeds {
            return None;
        }
        if same_power {
            return Some(Obstacle::OwnFleet { fleet: j });
        }
        let d = self.defence(j);
        (a <= d).then_some(Obstacle::Defence { fleet: j, power: d })
    }

    fn known(&self, i: usize) -> bool {
        self.status[i] == SUCCEEDS
    }

    /// Resolves move `start` and every unresolved move it depends on.
    fn resolve_from(&mut self, start: usize, path: &mut Vec<usize>) {
        path.clear();
        let mut cur = start;
        loop {
            match self.status[cur] {
                SUCCEEDS | FAILS | STAYS => break,
                ON_PATH => {
                    let at = path.iter().position(|&p| p == cur).expect("on the path");
                    self.resolve_ring(&path[at..]);
                    path.truncate(at);
                    break;
                }
                _ => {}
            }
            self.status[cur] = ON_PATH;
            path.push(cur);
            match self.depends_on(cur) {
                Some(next) => cur = next,
                None => break,
            }
        }
        while let Some(p) = path.pop() {
            let dep = self.depends_on(p).is_some_and(|j| self.known(j));
            self.status[p] = if self.succeeds(p, dep) {
                SUCCEEDS
            } else {
                FAILS
            };
        }
    }

    /// A cycle of moves, each into the sector the next one leaves (R5.4).
    fn resolve_ring(&mut self, ring: &[usize]) {
        // ring[k] depends on ring[k + 1], the last on the first.
        let len = ring.len();
        let broken = (0..len).find(|&k| !self.succeeds(ring[k], true));
        let Some(b) = broken else {
            for &m in ring {
                self.status[m] = SUCCEEDS;
            }
            return;
        };
        self.status[ring[b]] = FAILS;
        for step in 1..len {
            let k = (b + len - step) % len;
            let dep = self.known(ring[(k + 1) % len]);
            self.status[ring[k]] = if self.succeeds(ring[k], dep) {
                SUCCEEDS
            } else {
                FAILS
            };
        }
    }

    fn finish(self) -> Resolution<'a> {
        let n = self.state.fleets.len();
        // One pass: who moved and whom they dislodged.
        let mut moved = Vec::with_capacity(n);
        let mut dislodged_by = vec![NO_FLEET; n];
        let mut dislodged = 0;
        for i in 0..n {
            let succeeded = self.status[i] == SUCCEEDS;
            moved.push(succeeded);
            if succeeded {
                if let Some(j) = self.occupant(i) {
                    if self.status[j] != SUCCEEDS {
                        dislodged_by[j] = i as u32;
                        dislodged += 1;
                    }
                }
            }
        }
        // A failed move's destination left empty is a stand-off sector. It is held
        // after movement if the fleet there stays (or is dislodged: then its
        // dislodger holds it), or a move into it succeeded.
        let mut standoffs = Vec::new();
        for i in 0..n {
            let Some(to) = self.dest(i) else { continue };
            if moved[i] {
                continue;
            }
            let stays = self.occupant(i).is_some_and(|j| self.status[j] != SUCCEEDS);
            if stays || self.moves_into(to).any(|k| self.status[k] == SUCCEEDS) {
                continue;
            }
            // A move that lost a swap to the fleet from `to` does not count (R6.1).
            let lost_swap =
                dislodged_by[i] != NO_FLEET && self.pos.at[dislodged_by[i] as usize] == to;
            if !lost_swap {
                standoffs.push(to);
            }
        }
        standoffs.sort_unstable();
        standoffs.dedup();
        Resolution {
            graph: self,
            moved,
            dislodged_by,
            dislodged,
            standoffs,
        }
    }
}

/// What stopped a move, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Obstacle {
    /// Another move into the same sector, at least as strong.
    Rival { from: usize, power: u32 },
    /// The fleet in the destination moved the other way and was at least as strong, or
    /// was of the same power (R5.3).
    Swap { fleet: usize },
    /// A fleet of the same power stays in the destination (R5.2).
    OwnFleet { fleet: usize },
    /// The fleet in the destination stays, and its defence was at least the attack.
    Defence { fleet: usize, power: u32 },
}
