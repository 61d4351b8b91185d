//! The state of a Foundation and Empire game between two phases.

use std::sync::Arc;

use super::board::{Board, PowerId, Sector, SystemId};

/// A fleet on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fleet {
    pub power: PowerId,
    pub at: Sector,
    /// Consecutive turns this fleet has ended in its sector (R8.1). A fleet placed in
    /// a setup or placement phase has ended no turn yet: 0.
    pub stay: u32,
    /// The system that produced this fleet (R8.3), if it was earned by occupation.
    pub produced_by: Option<SystemId>,
}

/// A fleet pushed out of its sector, waiting for its retreat (R6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dislodged {
    pub fleet: Fleet,
    /// Where the fleet that dislodged it came from (not a legal retreat, R6.1).
    pub attacker_from: Sector,
}

/// A new fleet earned by occupation, waiting to be placed (R8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PendingPlacement {
    pub power: PowerId,
    pub system: SystemId,
}

/// The phases of a game (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    Setup,
    Movement,
    Retreat,
    Placement,
    Over,
}

impl Phase {
    pub fn id(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Movement => "movement",
            Phase::Retreat => "retreat",
            Phase::Placement => "placement",
            Phase::Over => "over",
        }
    }

    pub fn from_id(id: &str) -> Option<Phase> {
        [
            Phase::Setup,
            Phase::Movement,
            Phase::Retreat,
            Phase::Placement,
            Phase::Over,
        ]
        .into_iter()
        .find(|p| p.id().eq_ignore_ascii_case(id))
    }
}

/// How supports count (R3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupportMode {
    /// A support adds +1 to every move of its own power this turn (the seed's table).
    Pooled,
    /// A support names one move and adds +1 to that move only.
    Targeted,
}

/// The rule options of a game; the defaults are those of the rules page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub support: SupportMode,
    pub occupation_turns: u32,
    pub victory_systems: u32,
    pub turn_limit: Option<u32>,
    /// The judge plays the Imperium (R10).
    pub solo: bool,
    /// Fleets each power places in the setup phase (R7.1).
    pub start_fleets: u32,
    /// Fleets the Imperium starts with in a solo game (R10.1).
    pub solo_imperium_fleets: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            support: SupportMode::Pooled,
            occupation_turns: 4,
            victory_systems: 13,
            turn_limit: None,
            solo: false,
            start_fleets: 3,
            solo_imperium_fleets: 9,
        }
    }
}

/// R10.4: the turn limit of a solo game whose options name none.
pub const SOLO_TURN_LIMIT: u32 = 30;

impl Options {
    /// The options of a solo game (R10) with the defaults of the rules page.
    pub fn solo() -> Options {
        Options {
            solo: true,
            turn_limit: Some(SOLO_TURN_LIMIT),
            ..Options::default()
        }
    }
}

/// Who won (R9): nobody yet, or one or more powers (a shared win).
pub type Winners = Vec<PowerId>;

/// A whole game position: everything adjudication needs besides the orders and seed.
#[derive(Clone, Debug)]
pub struct State {
    pub board: Arc<Board>,
    pub options: Options,
    pub turn: u32,
    pub phase: Phase,
    /// Owner of each major system, indexed by [`SystemId`].
    pub owners: Vec<Option<PowerId>>,
    /// Fleets on the board, in reading order of their sectors.
    pub fleets: Vec<Fleet>,
    /// Fleets waiting to retreat (retreat phase only).
    pub dislodged: Vec<Dislodged>,
    /// Sectors left empty by a stand-off in the movement phase (R6.1).
    pub standoffs: Vec<Sector>,
    /// New fleets waiting to be placed (placement phase only).
    pub pending: Vec<PendingPlacement>,
    pub winners: Winners,
}

impl State {
    /// A new game on a board, before its setup phase.
    pub fn new(board: Arc<Board>, options: Options) -> State {
        let owners = vec![None; board.system_count()];
        State {
            board,
            options,
            turn: 0,
            phase: Phase::Setup,
            owners,
            fleets: Vec::new(),
            dislodged: Vec::new(),
            standoffs: Vec::new(),
            pending: Vec::new(),
            winners: Vec::new(),
        }
    }

    /// R10.1: in a solo game the Imperium owns the major systems of the three quadrants
    /// other than the Foundation's from the start, its setup included (its fleets are
    /// placed when the setup phase is played). A new game's state has them; a scenario
    /// names its owners itself.
    pub fn give_the_imperium_its_quadrants(&mut self) {
        let Some(imperium) = self.judge_power() else {
            return;
        };
        let human = self.human();
        for (p, _) in self.board.powers() {
            if Some(p) == human {
                continue;
            }
            for at in self.board.home_sectors(p) {
                if let Some(system) = self.board.system_at(at) {
                    self.owners[system.0 as usize] = Some(imperium);
                }
            }
        }
    }

    /// A copy of this state without its fleets (the caller places them anew).
    pub fn without_fleets(&self) -> State {
        State {
            board: self.board.clone(),
            options: self.options.clone(),
            turn: self.turn,
            phase: self.phase,
            owners: self.owners.clone(),
            fleets: Vec::with_capacity(self.fleets.len()),
            dislodged: self.dislodged.clone(),
            standoffs: self.standoffs.clone(),
            pending: self.pending.clone(),
            winners: self.winners.clone(),
        }
    }

    /// The powers taking part: all of the board's, or in a solo game the Foundation
    /// (the player) and the Imperium (the judge).
    pub fn powers_in_play(&self) -> Vec<PowerId> {
        if self.options.solo {
            return [self.human(), self.judge_power()]
                .into_iter()
                .flatten()
                .collect();
        }
        self.board.powers().map(|(id, _)| id).collect()
    }

    /// The powers with anything on the board: fleets (dislodged ones too), systems, or
    /// new fleets due. A power that had something and has nothing left is eliminated
    /// (R9.2); one that never appears in a scenario simply takes no part.
    pub fn present_powers(&self) -> Vec<PowerId> {
        let all = self.board.powers().len();
        let mut present = vec![false; all];
        let mut found = 0;
        let powers = self
            .fleets
            .iter()
            .map(|f| f.power)
            .chain(self.dislodged.iter().map(|d| d.fleet.power))
            .chain(self.owners.iter().flatten().copied())
            .chain(self.pending.iter().map(|p| p.power));
        for p in powers {
            if !std::mem::replace(&mut present[p.0 as usize], true) {
                found += 1;
                if found == all {
                    break;
                }
            }
        }
        (0..present.len())
            .filter(|&i| present[i])
            .map(|i| PowerId(i as u8))
            .collect()
    }

    /// The power the judge plays in a solo game.
    pub fn judge_power(&self) -> Option<PowerId> {
        if self.options.solo {
            self.board.power_by_id("imperium")
        } else {
            None
        }
    }

    /// The human's power in a solo game.
    pub fn human(&self) -> Option<PowerId> {
        if self.options.solo {
            self.board.power_by_id("foundation")
        } else {
            None
        }
    }

    /// The number of systems each power owns, indexed by power.
    pub fn system_counts(&self) -> Vec<u32> {
        let mut counts = vec![0u32; self.board.powers().len()];
        for owner in self.owners.iter().flatten() {
            counts[owner.0 as usize] += 1;
        }
        counts
    }

    /// For each sector, the index in `fleets` of the fleet standing there.
    pub fn occupancy(&self) -> Vec<u32> {
        let mut occ = vec![NO_FLEET; self.board.len()];
        for (i, f) in self.fleets.iter().enumerate() {
            occ[f.at.0 as usize] = i as u32;
        }
        occ
    }

    /// Puts the fleets back in reading order of their sectors.
    ///
    /// After a movement phase the fleets are nearly in order (each moved one sector at
    /// most), and a comparison sort would be the one part of a phase growing faster
    /// than the number of fleets; so when the board is not much larger than the fleets,
    /// they are placed by sector in one pass over the board (linear). Sectors are
    /// unique, so either way the order is fully determined.
    pub fn sort_fleets(&mut self) {
        if self.fleets.is_sorted_by_key(|f| f.at) {
            return;
        }
        let n = self.fleets.len();
        let sectors = self.board.len();
        if n < 64 || sectors > 8 * n {
            self.fleets.sort_unstable_by_key(|f| f.at);
            return;
        }
        let mut by_sector = vec![NO_FLEET; sectors];
        for (i, f) in self.fleets.iter().enumerate() {
            if let Some(slot) = by_sector.get_mut(f.at.0 as usize) {
                *slot = i as u32;
            }
        }
        let mut sorted = Vec::with_capacity(n);
        for &i in &by_sector {
            if i != NO_FLEET {
                sorted.push(self.fleets[i as usize]);
            }
        }
        if sorted.len() == n {
            self.fleets = sorted;
        } else {
            // Two fleets in one sector (a damaged position): keep them all.
            self.fleets.sort_unstable_by_key(|f| f.at);
        }
    }
}

/// The value of an empty slot in an occupancy table.
pub const NO_FLEET: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;

    fn fleets_on(board: &Board, sectors: &[u32]) -> Vec<Fleet> {
        sectors
            .iter()
            .enumerate()
            .map(|(k, &s)| Fleet {
                power: PowerId((k % 4) as u8),
                at: Sector(s % board.len() as u32),
                stay: k as u32,
                produced_by: None,
            })
            .collect()
    }

    #[test]
    fn sort_fleets_in_one_pass_agrees_with_a_comparison_sort() {
        let board = Arc::new(Board::generated(20, 10, 4));
        let mut dice = Dice::for_phase(5, 0, "sort");
        let mut sectors: Vec<u32> = (0..200).collect();
        dice.shuffle(&mut sectors);
        sectors.truncate(120);
        let mut state = State::new(board.clone(), Options::default());
        state.fleets = fleets_on(&board, &sectors);
        let mut expected = state.fleets.clone();
        expected.sort_unstable_by_key(|f| f.at);
        state.sort_fleets();
        assert_eq!(state.fleets, expected);
        // Two fleets in one sector (a damaged store): none is lost.
        sectors[7] = sectors[3];
        state.fleets = fleets_on(&board, &sectors);
        state.sort_fleets();
        assert_eq!(state.fleets.len(), 120);
        assert!(state.fleets.is_sorted_by_key(|f| f.at));
    }
}
