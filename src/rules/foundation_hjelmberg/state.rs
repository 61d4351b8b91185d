//! A position between two phases: the mutable part ([`Core`], fixed-size and `Copy`,
//! so trying an order on a copy costs nothing) and what stays (data, seating, options).
//! Stored by the judge in the scenario's own shape (see [`super::scenario`]).

use std::sync::Arc;

use super::data::{
    bits, Data, Effect, Use, CENTER, DISCS, DYNASTY_SPACES, MAX_COLOURS, MAX_PLANETS, MAX_SEATS,
    MAX_TILES, NEUTRAL_KINS,
};
use super::outcome::Draw;

/// "None" in a `u8` slot (a taken colony space, no personal goal, no winner).
pub const NONE: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Setup,
    Play,
    Over,
}

impl Phase {
    pub fn id(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// H4.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pace {
    Round,
    Turn,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Options {
    pub pace: Pace,
    /// H4.6.
    pub round_limit: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            pace: Pace::Round,
            round_limit: 60,
        }
    }
}

/// One player's part of the position (H1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    pub hand: [u8; MAX_COLOURS],
    /// Kins in her hand.
    pub kins: u8,
    /// Own kins in play, 3..6 (H5.6).
    pub earned: u8,
    /// Neutral kins she owns (H5.7).
    pub neutral: u8,
    /// Kins by dynasty space (see [`super::data::dynasty_space`]).
    pub dynasty: [u8; DYNASTY_SPACES],
    /// Researched spaces, bit per research space (bit 15: PERSONAL).
    pub research: u16,
    /// Colony tiles held, by kind.
    pub colonies: [u8; MAX_TILES],
    /// Once-per-turn tiles used this turn, by kind.
    pub used: [u8; MAX_TILES],
    pub reserve: u8,
    pub reserve_used: bool,
    pub ships: u64,
    pub due: u8,
    pub new: u8,
    /// GOAL spaces seen, bit n-1 for GOAL n.
    pub seen: u8,
    /// Her personal goal (a goal index), or [`NONE`].
    pub personal: u8,
    /// Standing Empire response (H7.5): battle (true) or yield.
    pub battle: bool,
}

impl Default for Player {
    fn default() -> Player {
        Player {
            hand: [0; MAX_COLOURS],
            kins: 3,
            earned: 3,
            neutral: 0,
            dynasty: [0; DYNASTY_SPACES],
            research: 0,
            colonies: [0; MAX_TILES],
            used: [0; MAX_TILES],
            reserve: 0,
            reserve_used: false,
            ships: 0,
            due: 0,
            new: 0,
            seen: 0,
            personal: NONE,
            battle: true,
        }
    }
}

impl Player {
    /// Her ship supply (H1.1): discs not on gates nor on research spaces.
    pub fn supply(&self) -> u32 {
        DISCS
            .saturating_sub(self.ships.count_ones())
            .saturating_sub(self.research.count_ones())
    }

    pub fn has(&self, space: usize) -> bool {
        self.research & (1 << space) != 0
    }

    /// Whether she holds a tile with this effect that is usable now: an always/markers
    /// tile held, or a turn tile not used this turn. Gives the kind.
    pub fn tile(&self, data: &Data, effect: Effect) -> Option<u8> {
        data.tile_with(effect).find(|&k| {
            let k = usize::from(k);
            self.colonies[k] > 0
                && (data.tiles[k].use_ != Use::Turn || self.used[k] < self.colonies[k])
        })
    }

    pub fn holds(&self, data: &Data, effect: Effect) -> bool {
        data.tile_with(effect)
            .any(|k| self.colonies[usize::from(k)] > 0)
    }

    pub fn use_tile(&mut self, kind: u8) {
        self.used[usize::from(kind)] += 1;
    }

    pub fn kins_on_board(&self) -> u32 {
        self.dynasty.iter().map(|&k| u32::from(k)).sum()
    }

    pub fn on(&self, space: usize) -> u8 {
        self.dynasty[space]
    }

    pub fn in_center(&self) -> u8 {
        self.dynasty[CENTER]
    }
}

/// Everything that changes during a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Core {
    pub players: [Player; MAX_SEATS],
    pub seats: u8,
    pub phase: Phase,
    pub round: u32,
    /// Seat whose turn is next.
    pub next: u8,
    pub empire_kin: u8,
    /// Gates holding an Empire ship.
    pub empire: u64,
    /// Planet tile by planet ([`NONE`] for CORE).
    pub planets: [u8; MAX_PLANETS],
    pub stock: [u8; MAX_PLANETS],
    /// Colony tile on each outer and middle planet's space, or [`NONE`].
    pub colony: [u8; MAX_PLANETS],
    /// CORE's remaining tiles, by kind.
    pub core_tiles: [u8; MAX_TILES],
    /// Face-down piles colony1–3, by kind.
    pub piles: [[u8; MAX_TILES]; 3],
    /// The goal pile, bit per goal.
    pub goal_pile: u16,
    /// Goals on GOAL 1–3.
    pub goals: [u8; 3],
    /// GOAL spaces revealed to all, bit n-1.
    pub revealed: u8,
    /// Colony tiles out of the game (draft tiles and unchosen draws), by kind.
    pub discard: [u8; MAX_TILES],
    pub winner: u8,
    /// Seats whose personal goal was revealed by their victory.
    pub personal_revealed: u8,
}

impl Core {
    pub fn player(&self, seat: u8) -> &Player {
        &self.players[usize::from(seat)]
    }

    pub fn player_mut(&mut self, seat: u8) -> &mut Player {
        &mut self.players[usize::from(seat)]
    }

    pub fn seats(&self) -> impl Iterator<Item = u8> {
        0..self.seats
    }

    /// Cubes of a colour on planets and in hands.
    pub fn used_cubes(&self, data: &Data, colour: u8) -> u32 {
        let on_planets: u32 = (0..data.planets.len())
            .filter(|&p| self.planet_colour(data, p as u8) == colour)
            .map(|p| u32::from(self.stock[p]))
            .sum();
        let in_hands: u32 = self
            .seats()
            .map(|s| u32::from(self.player(s).hand[usize::from(colour)]))
            .sum();
        on_planets + in_hands
    }

    /// The supply of a colour (H1.2): derived, never stored.
    pub fn supply(&self, data: &Data, colour: u8) -> u32 {
        data.count[usize::from(colour)].saturating_sub(self.used_cubes(data, colour))
    }

    pub fn planet_colour(&self, data: &Data, planet: u8) -> u8 {
        if planet == data.core {
            data.black
        } else {
            data.planet_tiles[usize::from(self.planets[usize::from(planet)])].colour
        }
    }

    /// The colony (and trade) input of a planet (H2.4); CORE: black.
    pub fn planet_input(&self, data: &Data, planet: u8) -> u8 {
        if planet == data.core {
            data.black
        } else {
            data.planet_tiles[usize::from(self.planets[usize::from(planet)])].input
        }
    }

    /// Planets in reach of a seat (H2.3), as a mask over planets; `extra` are more gates
    /// counted as hers (flagship).
    pub fn reach(&self, data: &Data, seat: u8, extra: u64) -> u64 {
        let ships = self.player(seat).ships | extra;
        let mut mask = 0u64;
        for (p, &g) in data.planet_gates.iter().enumerate() {
            if g & ships != 0 {
                mask |= 1 << p;
            }
        }
        mask
    }

    /// All players' ships, as a gate mask.
    pub fn all_ships(&self) -> u64 {
        self.seats().fold(0, |m, s| m | self.player(s).ships)
    }

    pub fn neutral_left(&self) -> u8 {
        let owned: u8 = self.seats().map(|s| self.player(s).neutral).sum();
        NEUTRAL_KINS.saturating_sub(owned)
    }

    pub fn empire_in_ring(&self, data: &Data, ring: usize) -> Vec<u8> {
        data.rings[ring]
            .iter()
            .copied()
            .filter(|&g| self.empire & (1 << g) != 0)
            .collect()
    }

    pub fn empire_held(&self) -> u32 {
        self.seats()
            .map(|s| u32::from(self.player(s).due) + u32::from(self.player(s).new))
            .sum()
    }

    pub fn pile_size(&self, pile: usize) -> u32 {
        self.piles[pile].iter().map(|&n| u32::from(n)).sum()
    }

    /// Colony tiles everywhere, by kind (board, CORE, piles, hands, discard): constant.
    pub fn tile_total(&self, data: &Data) -> Vec<u32> {
        (0..data.tiles.len())
            .map(|k| {
                let board = (0..data.planets.len())
                    .filter(|&p| self.colony[p] == k as u8)
                    .count() as u32;
                board
                    + u32::from(self.core_tiles[k])
                    + self.piles.iter().map(|p| u32::from(p[k])).sum::<u32>()
                    + self
                        .seats()
                        .map(|s| u32::from(self.player(s).colonies[k]))
                        .sum::<u32>()
                    + u32::from(self.discard[k])
            })
            .collect()
    }

    /// Gates holding another player's ship (not `seat`'s).
    pub fn others_ships(&self, seat: u8) -> u64 {
        self.seats()
            .filter(|&s| s != seat)
            .fold(0, |m, s| m | self.player(s).ships)
    }

    pub fn ships_at(&self, gate: u8) -> impl Iterator<Item = u8> + '_ {
        self.seats()
            .filter(move |&s| self.player(s).ships & (1 << gate) != 0)
    }

    /// Names of the gates in a mask.
    pub fn gate_names(data: &Data, mask: u64) -> String {
        bits(mask)
            .map(|g| data.gate_name(g))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A game of Foundation (Hjelmberg) between two phases.
#[derive(Clone, Debug)]
pub struct State {
    pub data: Arc<Data>,
    pub seating: Vec<String>,
    pub options: Options,
    pub core: Box<Core>,
    /// The draws made at creation (H3.2), reported with the setup phase's results.
    pub creation: Vec<Draw>,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        (Arc::ptr_eq(&self.data, &other.data) || self.data == other.data)
            && self.seating == other.seating
            && self.options == other.options
            && self.core == other.core
            && self.creation == other.creation
    }
}

impl State {
    pub fn seat_of(&self, id: &str) -> Option<u8> {
        self.seating.iter().position(|s| s == id).map(|k| k as u8)
    }

    pub fn name(&self, seat: u8) -> &str {
        &self.seating[usize::from(seat)]
    }
}
