//! Places (G4.1) and the position as movement and combat see it: the map's geometry
//! (adjacency, nebula, which cell holds a system), the stacks by place and side, and
//! who is hostile to whom (G4 terms).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::map::{Cell, RegionAt, Units};
use super::state::{Stack, State, NEUTRAL};
use super::strength::Ground;

/// A small fast hasher for the maps of one phase (FxHash's mixing): keys are small
/// numbers, and nothing iterates these maps in an order that shows.
#[derive(Clone, Copy, Default)]
pub struct Fx(u64);

impl Fx {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.add(u64::from(x));
    }
    fn write_u16(&mut self, x: u16) {
        self.add(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.add(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
}

pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;
pub type FastSet<K> = HashSet<K, BuildHasherDefault<Fx>>;

/// A cell or a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    Cell(Cell),
    Region(RegionAt),
}

impl Place {
    pub fn cell(self) -> Option<Cell> {
        match self {
            Place::Cell(c) => Some(c),
            Place::Region(_) => None,
        }
    }

    pub fn region(self) -> Option<RegionAt> {
        match self {
            Place::Region(r) => Some(r),
            Place::Cell(_) => None,
        }
    }

    /// The order places are listed in: cells in reading order (row 1 first; in a row,
    /// column A first), then regions by system, planet and region.
    pub fn key(self) -> (u8, u32, u32, u32) {
        match self {
            Place::Cell(c) => (0, u32::from(c.row), u32::from(c.col), 0),
            Place::Region(r) => (1, r.system as u32, r.planet as u32, r.region as u32),
        }
    }
}

/// A cell's reading-order key (G4.7): row first, then column.
pub fn reading(c: Cell) -> (u16, u8) {
    (c.row, c.col)
}

/// The map's geometry, built once for a phase.
pub struct Geo {
    pub width: u8,
    pub height: u16,
    nebula: FastSet<Cell>,
    systems: FastMap<Cell, usize>,
    /// Each system's cell.
    pub cells: Vec<Cell>,
    /// Regions per planet, system by system.
    planets: Vec<Vec<usize>>,
}

impl Geo {
    pub fn new(state: &State) -> Geo {
        Geo {
            width: state.map.width,
            height: state.map.height,
            nebula: state.map.nebula.iter().copied().collect(),
            systems: state
                .systems
                .iter()
                .enumerate()
                .map(|(k, s)| (s.at, k))
                .collect(),
            cells: state.systems.iter().map(|s| s.at).collect(),
            planets: state
                .systems
                .iter()
                .map(|s| s.planets.iter().map(Vec::len).collect())
                .collect(),
        }
    }

    pub fn on_map(&self, c: Cell) -> bool {
        c.col < self.width && c.row >= 1 && c.row <= self.height
    }

    pub fn nebula(&self, c: Cell) -> bool {
        self.nebula.contains(&c)
    }

    /// Whether a unit standing at the place counts half (regions never do).
    pub fn halved(&self, place: Place) -> bool {
        place.cell().is_some_and(|c| self.nebula(c))
    }

    /// The system whose cell this is.
    pub fn system_at(&self, c: Cell) -> Option<usize> {
        self.systems.get(&c).copied()
    }

    pub fn ground(&self, place: Place) -> Ground {
        match place {
            Place::Region(_) => Ground::Region,
            Place::Cell(c) if self.systems.contains_key(&c) => Ground::SystemCell,
            Place::Cell(_) => Ground::Open,
        }
    }

    /// The cell of the system a region is on.
    pub fn cell_of(&self, r: RegionAt) -> Cell {
        self.cells[r.system]
    }

    /// The eight neighbours of a cell on the map, in reading order.
    pub fn neighbours(&self, c: Cell) -> Vec<Cell> {
        let mut out = Vec::with_capacity(8);
        for dr in -1i32..=1 {
            for dc in -1i32..=1 {
                if dr == 0 && dc == 0 {
                    continue;
                }
                let (row, col) = (i32::from(c.row) + dr, i32::from(c.col) + dc);
                if row < 1 || !(0..=25).contains(&col) || row > i32::from(u16::MAX) {
                    continue;
                }
                let n = Cell {
                    col: col as u8,
                    row: row as u16,
                };
                if self.on_map(n) {
                    out.push(n);
                }
            }
        }
        out
    }

    /// The other regions of a region's planet, in id order (G1.2).
    pub fn planet_neighbours(&self, r: RegionAt) -> Vec<RegionAt> {
        (0..self.planets[r.system][r.planet])
            .filter(|&k| k != r.region)
            .map(|k| RegionAt { region: k, ..r })
            .collect()
    }

    /// Every region of a system, in id order.
    pub fn regions(&self, system: usize) -> Vec<RegionAt> {
        let mut out = Vec::new();
        for (planet, &n) in self.planets[system].iter().enumerate() {
            for region in 0..n {
                out.push(RegionAt {
                    system,
                    planet,
                    region,
                });
            }
        }
        out
    }

    /// Adjacency of G4.2: cells by king moves, a system's cell and its regions, the
    /// regions of one planet.
    pub fn adjacent(&self, a: Place, b: Place) -> bool {
        match (a, b) {
            (Place::Cell(x), Place::Cell(y)) => x != y && x.distance(y) == 1 && self.on_map(y),
            (Place::Cell(x), Place::Region(r)) | (Place::Region(r), Place::Cell(x)) => {
                self.cells[r.system] == x
            }
            (Place::Region(x), Place::Region(y)) => {
                x.system == y.system && x.planet == y.planet && x.region != y.region
            }
        }
    }
}

impl State {
    /// A place as written in an order (G4.1): a cell on the map (`F4`), a system's name
    /// (its cell), or a region id, in any case.
    pub fn find_place(&self, text: &str) -> Option<Place> {
        if let Some(c) = Cell::parse(text) {
            let on = c.col < self.map.width && c.row <= self.map.height;
            return on.then_some(Place::Cell(c));
        }
        if let Some(r) = self.region_at(text) {
            return Some(Place::Region(r));
        }
        self.system_index(text)
            .map(|s| Place::Cell(self.systems[s].at))
    }

    /// [`State::place_name`] onto a string.
    pub fn push_place(&self, out: &mut String, place: Place) {
        match place {
            Place::Cell(c) => {
                out.push((b'A' + c.col) as char);
                super::defence::push_number(out, u32::from(c.row));
            }
            Place::Region(r) => {
                out.push_str(&self.systems[r.system].name);
                out.push('-');
                super::defence::push_number(out, r.planet as u32 + 1);
                out.push((b'a' + r.region as u8) as char);
            }
        }
    }

    /// The canonical name of a place: `F4`, `Sirius-1a`.
    pub fn place_name(&self, place: Place) -> String {
        match place {
            Place::Cell(c) => c.name(),
            Place::Region(r) => self.region_name(r),
        }
    }
}

/// A side: a power's index, or [`Sides::neutral`] for the neutrals.
pub type Side = usize;

/// The stacks by place and side.
#[derive(Clone, Debug, Default)]
pub struct Board {
    stacks: BTreeMap<(Place, Side), Units>,
}

impl Board {
    pub fn get(&self, place: Place, side: Side) -> Units {
        self.stacks.get(&(place, side)).copied().unwrap_or_default()
    }

    pub fn add(&mut self, place: Place, side: Side, units: Units) {
        if units.is_empty() {
            return;
        }
        self.stacks.entry((place, side)).or_default().add(units);
    }

    pub fn sub(&mut self, place: Place, side: Side, units: Units) {
        if let Some(u) = self.stacks.get_mut(&(place, side)) {
            u.sub(units);
            if u.is_empty() {
                self.stacks.remove(&(place, side));
            }
        }
    }

    pub fn set(&mut self, place: Place, side: Side, units: Units) {
        if units.is_empty() {
            self.stacks.remove(&(place, side));
        } else {
            self.stacks.insert((place, side), units);
        }
    }

    /// The sides with units at a place, by side.
    pub fn at(&self, place: Place) -> impl Iterator<Item = (Side, Units)> + '_ {
        self.stacks
            .range((place, 0)..=(place, Side::MAX))
            .map(|(&(_, side), &u)| (side, u))
    }

    /// Every stack, by place then side.
    pub fn iter(&self) -> impl Iterator<Item = (Place, Side, Units)> + '_ {
        self.stacks.iter().map(|(&(p, s), &u)| (p, s, u))
    }

    /// Removes every unit of a side.
    pub fn remove_side(&mut self, side: Side) {
        self.stacks.retain(|&(_, s), _| s != side);
    }
}

/// Who is who: the powers by index and the neutrals after them; who is at war.
#[derive(Clone, Debug)]
pub struct Sides {
    pub ids: Vec<String>,
    war: Vec<bool>,
}

impl Sides {
    pub fn new(state: &State) -> Sides {
        let n = state.powers.len();
        let mut war = vec![false; n * n];
        for (a, p) in state.powers.iter().enumerate() {
            for w in &p.at_war {
                if let Some(b) = state.power_index(w) {
                    war[a * n + b] = true;
                    war[b * n + a] = true;
                }
            }
        }
        let mut ids: Vec<String> = state.powers.iter().map(|p| p.id.clone()).collect();
        ids.push(NEUTRAL.to_string());
        Sides { ids, war }
    }

    pub fn neutral(&self) -> Side {
        self.ids.len() - 1
    }

    pub fn id(&self, side: Side) -> &str {
        &self.ids[side]
    }

    /// The side of a power id or `neutral`.
    pub fn of(&self, id: &str) -> Option<Side> {
        self.ids.iter().position(|x| x.eq_ignore_ascii_case(id))
    }

    /// Two powers at war (a war listed on either side binds both).
    pub fn at_war(&self, a: Side, b: Side) -> bool {
        let n = self.neutral();
        a < n && b < n && self.war[a * n + b]
    }

    /// Units of `b` are hostile to `a` (G4 terms): `b` is at war with `a`, or either is
    /// neutral (never a side to itself).
    pub fn hostile(&self, a: Side, b: Side) -> bool {
        a != b && (a == self.neutral() || b == self.neutral() || self.at_war(a, b))
    }
}

/// How stacks are listed: by side, then place.
type PlaceKey = (Side, (u8, u32, u32, u32));

/// The position of a movement or combat phase: geometry, stacks, sides.
pub struct Position {
    pub geo: Geo,
    pub board: Board,
    pub sides: Sides,
}

impl Position {
    pub fn new(state: &State) -> Position {
        let sides = Sides::new(state);
        let mut board = Board::default();
        for s in &state.stacks {
            let (Some(side), Some(place)) = (sides.of(&s.power), state.find_place(&s.at)) else {
                continue;
            };
            board.add(place, side, s.units);
        }
        Position {
            geo: Geo::new(state),
            board,
            sides,
        }
    }

    /// Any units at the place hostile to `side`.
    pub fn hostile_at(&self, place: Place, side: Side) -> bool {
        self.board
            .at(place)
            .any(|(s, u)| !u.is_empty() && self.sides.hostile(side, s))
    }

    /// Writes the stacks back into the state: by side (powers in the game's order, the
    /// neutrals last), then by place (cells in reading order, then regions).
    pub fn write(&self, state: &mut State) {
        let mut stacks: Vec<(PlaceKey, Stack)> = self
            .board
            .iter()
            .filter(|(_, _, u)| !u.is_empty())
            .map(|(place, side, units)| {
                (
                    (side, place.key()),
                    Stack {
                        power: self.sides.id(side).to_string(),
                        at: state.place_name(place),
                        units,
                    },
                )
            })
            .collect();
        stacks.sort_by_key(|a| a.0);
        state.stacks = stacks.into_iter().map(|(_, s)| s).collect();
    }

    /// Whether a side's units anywhere are in contact with units hostile to them
    /// (G5.9): in the same place, in adjacent cells, or one in a system's cell and the
    /// other in a region of that system.
    pub fn in_contact(&self, side: Side) -> bool {
        self.contacts().get(side).copied().unwrap_or(false)
    }

    /// [`Position::in_contact`] for every side at once.
    pub fn contacts(&self) -> Vec<bool> {
        let n = self.sides.ids.len();
        let mut out = vec![false; n];
        let mut sides_at: FastMap<Place, Vec<Side>> = FastMap::default();
        for (place, side, units) in self.board.iter() {
            if !units.is_empty() {
                sides_at.entry(place).or_default().push(side);
            }
        }
        let mut places = Vec::with_capacity(16);
        for (&place, here) in &sides_at {
            if here.iter().all(|&a| out[a]) {
                continue;
            }
            places.clear();
            self.contact_places_into(place, &mut places);
            for other in &places {
                let Some(there) = sides_at.get(other) else {
                    continue;
                };
                for &a in here {
                    if !out[a] && there.iter().any(|&b| self.sides.hostile(a, b)) {
                        out[a] = true;
                    }
                }
            }
        }
        out
    }

    fn contact_places_into(&self, place: Place, out: &mut Vec<Place>) {
        out.push(place);
        match place {
            Place::Cell(c) => {
                for dr in -1i32..=1 {
                    for dc in -1i32..=1 {
                        let (row, col) = (i32::from(c.row) + dr, i32::from(c.col) + dc);
                        if (dr, dc) == (0, 0) || row < 1 || !(0..=25).contains(&col) {
                            continue;
                        }
                        let n = Cell {
                            col: col as u8,
                            row: row.min(i32::from(u16::MAX)) as u16,
                        };
                        if self.geo.on_map(n) {
                            out.push(Place::Cell(n));
                        }
                    }
                }
                if let Some(s) = self.geo.system_at(c) {
                    out.extend(self.geo.regions(s).into_iter().map(Place::Region));
                }
            }
            Place::Region(r) => out.push(Place::Cell(self.geo.cell_of(r))),
        }
    }

    /// The places in contact with a place: itself, the adjacent cells of a cell, a
    /// system cell's regions, a region's system cell.
    pub fn contact_places(&self, place: Place) -> impl Iterator<Item = Place> + '_ {
        let mut out = Vec::new();
        self.contact_places_into(place, &mut out);
        out.into_iter()
    }
}
