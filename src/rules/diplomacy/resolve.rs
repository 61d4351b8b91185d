//! The movement resolver: Kruijswijk's guess-and-check algorithm (DATC section 5 and
//! "The Math of Adjudication") over dense arrays, with no allocation while it runs.
//!
//! Decisions are numbered: `u` is the decision of unit `u`'s own order (a move
//! succeeds; a support is given), `n + u` is the path decision of a move by convoy
//! (a route of undislodged convoying fleets exists). [`Resolver::resolve`] answers a
//! decision, guessing when it meets a decision already being answered. When both
//! guesses of a cycle give different answers, the backup rule decides: a cycle with
//! a convoy path in it is a convoy paradox, settled by the Szykman rule (DATC 4.A.2:
//! the convoyed armies of the paradox do not move and cut no support); a cycle of
//! moves alone is circular movement, and every move in it succeeds.

use super::convoy::chain_reaches;
use super::map::Map;

pub const NONE: u8 = u8::MAX;

/// What a unit does in the resolver's eyes (impossible orders are holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Hold,
    Move,
    Support,
    Convoy,
}

const UNRESOLVED: u8 = 0;
const GUESSING: u8 = 1;
const RESOLVED: u8 = 2;

/// A movement phase prepared for resolution: one entry per unit.
#[derive(Clone, Debug, Default)]
pub struct Resolver {
    pub n: usize,
    pub power: Vec<u8>,
    pub prov: Vec<u8>,
    pub act: Vec<Act>,
    /// Move: destination province. Support of a move: its destination.
    pub dst: Vec<u8>,
    /// Support to move: true; support to hold: false.
    pub support_move: Vec<bool>,
    /// Move by convoy.
    pub convoy: Vec<bool>,
    /// Unit standing in each province.
    pub unit_at: Vec<u8>,
    /// Moves into each province: a list through `next_in`.
    pub first_in: Vec<u8>,
    pub next_in: Vec<u8>,
    /// Matched supports of each unit: a list through `next_sup`.
    pub first_sup: Vec<u8>,
    pub next_sup: Vec<u8>,
    /// Matched convoys of each army: a list through `next_cv`.
    pub first_cv: Vec<u8>,
    pub next_cv: Vec<u8>,
    state: Vec<u8>,
    result: Vec<bool>,
    deps: Vec<u16>,
    /// Sea-to-sea borders by province (for convoy routes).
    sea_adj: Vec<u128>,
    seas_near: Vec<u128>,
}

impl Resolver {
    /// Empties the resolver for a phase of `n` units on `map`, keeping its buffers.
    pub fn reset(&mut self, map: &Map, n: usize) {
        let np = map.provinces.len();
        self.n = n;
        for v in [
            &mut self.power,
            &mut self.prov,
            &mut self.dst,
            &mut self.next_in,
            &mut self.first_sup,
            &mut self.next_sup,
            &mut self.first_cv,
            &mut self.next_cv,
        ] {
            v.clear();
            v.resize(n, NONE);
        }
        self.act.clear();
        self.act.resize(n, Act::Hold);
        self.support_move.clear();
        self.support_move.resize(n, false);
        self.convoy.clear();
        self.convoy.resize(n, false);
        self.unit_at.clear();
        self.unit_at.resize(np, NONE);
        self.first_in.clear();
        self.first_in.resize(np, NONE);
        self.state.clear();
        self.state.resize(2 * n, UNRESOLVED);
        self.result.clear();
        self.result.resize(2 * n, false);
        self.deps.clear();
        self.deps.reserve(16 * n);
        if self.sea_adj.len() != np {
            self.sea_adj = map.sea_adj.clone();
            self.seas_near = map.seas_near.clone();
        }
    }

    /// Links the lists (moves into provinces, supports, convoys) once `act`, `dst`,
    /// `prov` and the targets are set. `target[u]` is the unit a support or convoy is
    /// for; `matched[u]` whether that unit does what the order says.
    pub fn link(&mut self, target: &[u8], matched: &[bool]) {
        for u in (0..self.n).rev() {
            self.unit_at[self.prov[u] as usize] = u as u8;
            match self.act[u] {
                Act::Move => {
                    let d = self.dst[u] as usize;
                    self.next_in[u] = self.first_in[d];
                    self.first_in[d] = u as u8;
                }
                Act::Support if matched[u] => {
                    let t = target[u] as usize;
                    self.next_sup[u] = self.first_sup[t];
                    self.first_sup[t] = u as u8;
                }
                Act::Convoy if matched[u] => {
                    let t = target[u] as usize;
                    self.next_cv[u] = self.first_cv[t];
                    self.first_cv[t] = u as u8;
                }
                _ => {}
            }
        }
    }

    /// Resolves every decision.
    pub fn run(&mut self) {
        for u in 0..self.n {
            match self.act[u] {
                Act::Move => {
                    self.resolve(u);
                    if self.convoy[u] {
                        self.resolve(self.n + u);
                    }
                }
                Act::Support => {
                    self.resolve(u);
                }
                _ => {}
            }
        }
    }

    /// The answer of a decision (after [`Resolver::run`]).
    pub fn answer(&self, d: usize) -> bool {
        self.result[d]
    }

    pub fn resolve(&mut self, d: usize) -> bool {
        match self.state[d] {
            RESOLVED => return self.result[d],
            GUESSING => {
                // Every use of a guess is a dependency, even of a guess already in
                // the list: the caller must know it leans on it.
                self.deps.push(d as u16);
                return self.result[d];
            }
            _ => {}
        }
        let old = self.deps.len();
        self.result[d] = false;
        self.state[d] = GUESSING;
        let first = self.adjudicate(d);
        if self.deps.len() == old {
            // Independent of any guess.
            if self.state[d] != RESOLVED {
                self.result[d] = first;
                self.state[d] = RESOLVED;
            }
            return first;
        }
        if self.deps[old] != d as u16 {
            // Depends on another decision's guess: part of a larger cycle.
            self.deps.push(d as u16);
            self.result[d] = first;
            return first;
        }
        // Depends on its own guess: try the other one.
        for k in old..self.deps.len() {
            let x = self.deps[k] as usize;
            self.state[x] = UNRESOLVED;
        }
        self.deps.truncate(old);
        self.result[d] = true;
        self.state[d] = GUESSING;
        let second = self.adjudicate(d);
        if first == second {
            for k in old..self.deps.len() {
                let x = self.deps[k] as usize;
                self.state[x] = UNRESOLVED;
            }
            self.deps.truncate(old);
            self.result[d] = first;
            self.state[d] = RESOLVED;
            return first;
        }
        self.backup(old);
        self.resolve(d)
    }

    fn backup(&mut self, old: usize) {
        let n = self.n;
        let paradox = self.deps[old..].iter().any(|&x| x as usize >= n);
        for k in old..self.deps.len() {
            let x = self.deps[k] as usize;
            if paradox {
                // Szykman: the convoyed armies of the paradox fail.
                if x >= n {
                    self.state[x] = RESOLVED;
                    self.result[x] = false;
                } else {
                    self.state[x] = UNRESOLVED;
                }
            } else if self.act[x] == Act::Move {
                // Circular movement: every move of the cycle succeeds.
                self.state[x] = RESOLVED;
                self.result[x] = true;
            } else {
                self.state[x] = UNRESOLVED;
            }
        }
        self.deps.truncate(old);
    }

    fn adjudicate(&mut self, d: usize) -> bool {
        if d >= self.n {
            return self.path(d - self.n);
        }
        match self.act[d] {
            Act::Move => self.adjudicate_move(d),
            Act::Support => self.adjudicate_support(d),
            _ => true,
        }
    }

    /// The unit `u` is in a head-to-head battle with (both moving over land into each
    /// other's province).
    pub fn head_to_head(&self, u: usize) -> Option<usize> {
        if self.act[u] != Act::Move || self.convoy[u] {
            return None;
        }
        let j = self.unit_at[self.dst[u] as usize];
        if j == NONE {
            return None;
        }
        let j = j as usize;
        (self.act[j] == Act::Move && self.dst[j] == self.prov[u] && !self.convoy[j]).then_some(j)
    }

    fn supports(&mut self, u: usize, exclude: u8) -> u32 {
        let mut s = self.first_sup[u];
        let mut count = 0;
        while s != NONE {
            let k = s as usize;
            if self.power[k] != exclude && self.resolve(k) {
                count += 1;
            }
            s = self.next_sup[k];
        }
        count
    }

    pub fn attack(&mut self, u: usize) -> u32 {
        let j = self.unit_at[self.dst[u] as usize];
        if j == NONE {
            return 1 + self.supports(u, NONE);
        }
        let j = j as usize;
        if self.act[j] == Act::Move && self.head_to_head(u) != Some(j) && self.resolve(j) {
            return 1 + self.supports(u, NONE);
        }
        if self.power[j] == self.power[u] {
            return 0;
        }
        1 + self.supports(u, self.power[j])
    }

    pub fn defend(&mut self, j: usize) -> u32 {
        1 + self.supports(j, NONE)
    }

    pub fn hold(&mut self, p: usize) -> u32 {
        let j = self.unit_at[p];
        if j == NONE {
            return 0;
        }
        let j = j as usize;
        if self.act[j] == Act::Move {
            return if self.resolve(j) { 0 } else { 1 };
        }
        1 + self.supports(j, NONE)
    }

    pub fn prevent(&mut self, k: usize) -> u32 {
        if self.convoy[k] && !self.resolve(self.n + k) {
            return 0;
        }
        if let Some(j) = self.head_to_head(k) {
            if self.resolve(j) {
                return 0;
            }
        }
        1 + self.supports(k, NONE)
    }

    fn adjudicate_move(&mut self, u: usize) -> bool {
        if self.convoy[u] && !self.resolve(self.n + u) {
            return false;
        }
        let a = self.attack(u);
        match self.head_to_head(u) {
            Some(j) => {
                if a <= self.defend(j) {
                    return false;
                }
            }
            None => {
                if a <= self.hold(self.dst[u] as usize) {
                    return false;
                }
            }
        }
        let mut k = self.first_in[self.dst[u] as usize];
        while k != NONE {
            let kk = k as usize;
            if kk != u && a <= self.prevent(kk) {
                return false;
            }
            k = self.next_in[kk];
        }
        true
    }

    fn adjudicate_support(&mut self, s: usize) -> bool {
        let mut k = self.first_in[self.prov[s] as usize];
        while k != NONE {
            let kk = k as usize;
            if self.power[kk] != self.power[s] && (!self.convoy[kk] || self.resolve(self.n + kk)) {
                if self.support_move[s] && self.prov[kk] == self.dst[s] {
                    // From the province the support goes into: cuts only by
                    // dislodging the supporter.
                    if self.resolve(kk) {
                        return false;
                    }
                } else {
                    return false;
                }
            }
            k = self.next_in[kk];
        }
        true
    }

    /// Whether a unit that does not move is dislodged (some move into its province
    /// succeeds).
    pub fn dislodged_by(&mut self, u: usize) -> Option<usize> {
        if self.act[u] == Act::Move && self.resolve(u) {
            return None;
        }
        let mut k = self.first_in[self.prov[u] as usize];
        while k != NONE {
            let kk = k as usize;
            if kk != u && self.resolve(kk) {
                return Some(kk);
            }
            k = self.next_in[kk];
        }
        None
    }

    fn path(&mut self, u: usize) -> bool {
        let mut ok: u128 = 0;
        let mut f = self.first_cv[u];
        while f != NONE {
            let ff = f as usize;
            if self.dislodged_by(ff).is_none() {
                ok |= 1u128 << self.prov[ff];
            }
            f = self.next_cv[ff];
        }
        chain_reaches(
            self.seas_near[self.prov[u] as usize],
            self.seas_near[self.dst[u] as usize],
            ok,
            |s| self.sea_adj[s as usize],
        )
    }
}
