//! Board and tile data (H1.6): read from a data file, checked, and turned into the
//! indices the rules use. The standard data file (`data.toml`, a copy of the rules of
//! record's `foundation-hjelmberg-data.toml`) is compiled in; a scenario may name
//! another, so a layout changes without code.
//!
//! Everything the rules count is an index into the lists here, in canonical order:
//! colours (level 1, 2, 3 as listed), gates (ring A, B, C as listed), planets (outer by
//! number, middle by number, CORE), planet tiles and colony tiles (as listed), goal tiles
//! (as listed). What the rules name (the six actions, the research board's spaces, the
//! goals, the colony tiles' effects) is fixed in code; the data says which exist, where,
//! and at what cost.
//!
//! The names the rules use are `names.rs` (re-exported here); reading and checking a data
//! file is `read.rs` ([`Data::parse`]).

mod names;
mod read;
#[cfg(test)]
mod tests;

use std::sync::{Arc, OnceLock};

pub use names::{
    dynasty_name, dynasty_space, level_word, parse_action_words, parse_dynasty, parse_level,
    parse_research, research_name, space_parts, Action, Effect, Goal, Use, CENTER, DYNASTY_SPACES,
    GOAL_SPACE, PERSONAL, RESEARCH_SPACES,
};

/// Upper bounds the fixed-size position relies on (the data is checked against them).
pub const MAX_COLOURS: usize = 16;
pub const MAX_PLANETS: usize = 32;
pub const MAX_GATES: usize = 64;
pub const MAX_TILES: usize = 32;
pub const MAX_GOALS: usize = 16;
/// Players at one table (H1.1: 2–5).
pub const MAX_SEATS: usize = 5;
/// Discs per player (H1.1).
pub const DISCS: u32 = 24;
/// Own kins per player (H1.1).
pub const OWN_KINS: u8 = 6;
/// Neutral kins in the game (H1.1).
pub const NEUTRAL_KINS: u8 = 6;
/// Empire ships in the game (H1.1).
pub const EMPIRE_SHIPS: u32 = 6;

/// The standard data file.
pub const STANDARD_TEXT: &str = include_str!("../data.toml");

/// The standard data, read once.
pub fn standard() -> Arc<Data> {
    static D: OnceLock<Arc<Data>> = OnceLock::new();
    D.get_or_init(|| Arc::new(Data::parse(STANDARD_TEXT).expect("the standard data file is valid")))
        .clone()
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlanetTile {
    pub id: String,
    pub colour: u8,
    pub input: u8,
    pub factory: Option<(u8, u8)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TileKind {
    pub id: String,
    pub level: u8,
    pub copies: u8,
    pub use_: Use,
    pub effect: Effect,
}

/// The standard layout (H3.2 `layout = "standard"`, and a scenario's defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Standard {
    /// Planet tile by planet (CORE: none).
    pub planets: Vec<Option<u8>>,
    /// Colony tile by outer and middle planet.
    pub colonies: Vec<Option<u8>>,
    pub core: Vec<u8>,
    pub piles: [Vec<u8>; 3],
    pub goal_pile: Vec<u8>,
    pub goals: [u8; 3],
    pub empire: Vec<u8>,
}

/// A data file, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    pub colours: Vec<String>,
    pub colour_level: Vec<u8>,
    pub count: Vec<u32>,
    /// Colours of each level (index 0 = level 1).
    pub levels: [Vec<u8>; 3],
    /// The level-3 colour (black): CORE's colour and the wild cube (H1.3).
    pub black: u8,
    pub gates: Vec<String>,
    /// 0 = ring A, 1 = B, 2 = C.
    pub ring: Vec<u8>,
    pub rings: [Vec<u8>; 3],
    pub clockwise: Vec<u8>,
    pub opposite: Vec<u8>,
    pub adjacent: Vec<u64>,
    /// Distances between gates (H2.2), `dist[a * n + b]`.
    pub dist: Vec<u8>,
    pub planets: Vec<String>,
    /// 1 outer, 2 middle, 3 CORE.
    pub planet_level: Vec<u8>,
    pub planet_gates: Vec<u64>,
    /// Planets adjacent to each gate, canonical order.
    pub gate_planets: Vec<Vec<u8>>,
    pub core: u8,
    pub planet_tiles: Vec<PlanetTile>,
    pub tiles: Vec<TileKind>,
    pub goals: Vec<Goal>,
    pub goal_ids: Vec<String>,
    /// Research cost by space (colours), and the spaces one of which must be researched.
    pub cost: Vec<Vec<u8>>,
    pub requires: Vec<Vec<usize>>,
    /// The dynasty ring (H2.7): the action to the right of each action, and to the left.
    pub right: [Action; 6],
    pub left: [Action; 6],
    pub standard: Standard,
}

impl Data {
    pub fn gate(&self, name: &str) -> Option<u8> {
        let up = name.to_ascii_uppercase();
        self.gates.iter().position(|g| *g == up).map(|i| i as u8)
    }

    pub fn planet(&self, name: &str) -> Option<u8> {
        let up = name.to_ascii_uppercase();
        self.planets.iter().position(|p| *p == up).map(|i| i as u8)
    }

    pub fn colour(&self, name: &str) -> Option<u8> {
        let low = name.to_ascii_lowercase();
        self.colours.iter().position(|c| *c == low).map(|i| i as u8)
    }

    pub fn tile(&self, id: &str) -> Option<u8> {
        let low = id.to_ascii_lowercase();
        self.tiles.iter().position(|t| t.id == low).map(|i| i as u8)
    }

    pub fn goal(&self, id: &str) -> Option<u8> {
        let low = id.to_ascii_lowercase();
        self.goal_ids
            .iter()
            .position(|g| *g == low)
            .map(|i| i as u8)
    }

    pub fn distance(&self, a: u8, b: u8) -> u8 {
        self.dist[usize::from(a) * self.gates.len() + usize::from(b)]
    }

    /// The first tile kind with this effect (and level, for the level-numbered ones).
    pub fn tile_with(&self, effect: Effect) -> impl Iterator<Item = u8> + '_ {
        self.tiles
            .iter()
            .enumerate()
            .filter(move |(_, t)| t.effect == effect)
            .map(|(k, _)| k as u8)
    }

    pub fn colour_name(&self, c: u8) -> &str {
        &self.colours[usize::from(c)]
    }

    pub fn gate_name(&self, g: u8) -> &str {
        &self.gates[usize::from(g)]
    }

    pub fn planet_name(&self, p: u8) -> &str {
        &self.planets[usize::from(p)]
    }

    pub fn tile_name(&self, t: u8) -> &str {
        &self.tiles[usize::from(t)].id
    }

    pub fn goal_name(&self, g: u8) -> &str {
        &self.goal_ids[usize::from(g)]
    }

    /// Names of the gates in a mask, canonical order.
    pub fn gate_list(&self, mask: u64) -> Vec<&str> {
        bits(mask).map(|g| self.gate_name(g)).collect()
    }
}

/// The set bits of a mask, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let b = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(b)
        }
    })
}
