//! Boards as data (R1): sectors on a grid, quadrants of the powers, major systems.
//!
//! The standard 8×6 board ships inside the program ([`Board::standard`]); other sizes
//! and layouts load from a TOML file of the same shape ([`Board::from_toml`], R1.5).
//! Columns are named like a spreadsheet's (`A`…`Z`, `AA`…`ZZ`), so large boards keep
//! readable sector names.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

/// A sector, as its index in reading order (`A1`, `B1`, … then the next row).
/// Comparing two sectors compares their places in reading order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sector(pub u32);

/// A power, as its index in the board's list of powers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PowerId(pub u8);

/// A major system, as its index in the board's list (which is in reading order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SystemId(pub u32);

/// One power's entry on the board.
#[derive(Clone, Debug)]
pub struct PowerDef {
    pub id: String,
    pub tag: String,
    pub name: String,
    /// The home quadrant: columns and rows, inclusive (R1.3).
    home: Rect,
}

#[derive(Clone, Copy, Debug)]
struct Rect {
    col0: u32,
    row0: u32,
    col1: u32,
    row1: u32,
}

impl Rect {
    fn contains(&self, col: u32, row: u32) -> bool {
        (self.col0..=self.col1).contains(&col) && (self.row0..=self.row1).contains(&row)
    }
}

/// One major system (R1.4).
#[derive(Clone, Debug)]
pub struct SystemDef {
    pub name: String,
    pub at: Sector,
}

/// A board: the grid, the powers with their quadrants, and the major systems.
#[derive(Debug)]
pub struct Board {
    pub name: String,
    width: u32,
    height: u32,
    powers: Vec<PowerDef>,
    systems: Vec<SystemDef>,
    system_at: Vec<Option<SystemId>>,
    by_name: HashMap<String, SystemId>,
}

/// Why a board file could not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BoardError {
    #[error("{0}")]
    Toml(String),
    #[error("board size {width}×{height} is out of range (1–702 columns, 1–99999 rows)")]
    Size { width: u32, height: u32 },
    #[error("sector {0:?} is not on the board")]
    Sector(String),
    #[error("home {0:?} is not a range like \"A1:D3\" on the board")]
    Home(String),
    #[error("power id {0:?} must be lower-case letters, digits or '-'")]
    PowerId(String),
    #[error("power {0:?} is listed twice")]
    DuplicatePower(String),
    #[error("the homes of {0:?} and {1:?} overlap")]
    HomesOverlap(String, String),
    #[error("system name {0:?} must be letters, digits, ''' or '_', and not look like a sector")]
    SystemName(String),
    #[error("system {0:?} is listed twice")]
    DuplicateSystem(String),
    #[error("two systems stand in sector {0}")]
    SharedSector(String),
    #[error("a board needs between 1 and 255 powers")]
    PowerCount,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardFile {
    name: String,
    width: u32,
    height: u32,
    #[serde(rename = "power")]
    powers: Vec<PowerFile>,
    #[serde(rename = "system", default)]
    systems: Vec<SystemFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerFile {
    id: String,
    tag: Option<String>,
    name: Option<String>,
    home: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SystemFile {
    name: String,
    at: String,
}

/// The widest board whose columns still have one- or two-letter names.
const MAX_WIDTH: u32 = 26 + 26 * 26;
const MAX_HEIGHT: u32 = 99_999;

/// Splits a coordinate such as `C4` or `ab12` into zero-based (column, row), without
/// looking at any board. `None` if the token is not shaped like a coordinate.
pub fn parse_coordinate(token: &str) -> Option<(u32, u32)> {
    // A letter's value (A or a: 1), or 0. `| 0x20` makes an upper-case ASCII letter
    // lower-case and moves no other byte into `a..=z`.
    let letter = |c: u8| {
        let lower = c | 0x20;
        if lower.is_ascii_lowercase() {
            u32::from(lower - b'a') + 1
        } else {
            0
        }
    };
    // One or two letters, then one to five digits, the first not 0 (a third letter
    // fails as a digit).
    let (col, digits) = match token.as_bytes() {
        [a, b, rest @ ..] if letter(*a) > 0 && letter(*b) > 0 => {
            (letter(*a) * 26 + letter(*b), rest)
        }
        [a, rest @ ..] if letter(*a) > 0 => (letter(*a), rest),
        _ => return None,
    };
    if digits.is_empty() || digits.len() > 5 || digits[0] == b'0' {
        return None;
    }
    let mut row = 0u32;
    for &d in digits {
        let value = d.wrapping_sub(b'0');
        if value > 9 {
            return None;
        }
        row = row * 10 + u32::from(value);
    }
    Some((col - 1, row - 1))
}

/// The name of a zero-based column: 0 → `A`, 25 → `Z`, 26 → `AA`.
pub fn column_name(col: u32) -> String {
    let mut n = col + 1;
    let mut out = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        out.push(b'A' + rem as u8);
        n = (n - 1) / 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

impl Board {
    /// The standard board of R1, shared by every game that uses it.
    pub fn standard() -> Arc<Board> {
        static STANDARD: OnceLock<Arc<Board>> = OnceLock::new();
        STANDARD
            .get_or_init(|| {
                Arc::new(
                    Board::from_toml(include_str!("standard-board.toml"))
                        .expect("the shipped standard board is valid"),
                )
            })
            .clone()
    }

    /// Reads a board from the text of a board file.
    pub fn from_toml(text: &str) -> Result<Board, BoardError> {
        let file: BoardFile = toml::from_str(text)
            .map_err(|e| BoardError::Toml(crate::toml_text::one_line(&e, text)))?;
        Board::from_file(file)
    }

    fn from_file(file: BoardFile) -> Result<Board, BoardError> {
        let (width, height) = (file.width, file.height);
        if !(1..=MAX_WIDTH).contains(&width) || !(1..=MAX_HEIGHT).contains(&height) {
            return Err(BoardError::Size { width, height });
        }
        if file.powers.is_empty() || file.powers.len() > 255 {
            return Err(BoardError::PowerCount);
        }
        let mut board = Board {
            name: file.name,
            width,
            height,
            powers: Vec::new(),
            systems: Vec::new(),
            system_at: vec![None; (width as usize) * (height as usize)],
            by_name: HashMap::new(),
        };
        for p in file.powers {
            let valid_id = !p.id.is_empty()
                && p.id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !valid_id {
                return Err(BoardError::PowerId(p.id));
            }
            if board.powers.iter().any(|q| q.id == p.id) {
                return Err(BoardError::DuplicatePower(p.id));
            }
            let home = board.rect(&p.home)?;
            if let Some(q) = board.powers.iter().find(|q| overlap(&q.home, &home)) {
                return Err(BoardError::HomesOverlap(q.id.clone(), p.id));
            }
            let tag = p.tag.unwrap_or_else(|| p.id[..1].to_ascii_uppercase());
            let name = p.name.unwrap_or_else(|| p.id.clone());
            board.powers.push(PowerDef {
                id: p.id,
                tag,
                name,
                home,
            });
        }
        let mut systems = Vec::with_capacity(file.systems.len());
        for s in file.systems {
            let valid_name = !s.name.is_empty()
                && s.name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '\'' || c == '_')
                && parse_coordinate(&s.name).is_none();
            if !valid_name {
                return Err(BoardError::SystemName(s.name));
            }
            let at = board
                .sector(&s.at)
                .ok_or_else(|| BoardError::Sector(s.at.clone()))?;
            systems.push(SystemDef { name: s.name, at });
        }
        systems.sort_by_key(|s| s.at);
        for (i, s) in systems.iter().enumerate() {
            let id = SystemId(i as u32);
            let slot = &mut board.system_at[s.at.0 as usize];
            if slot.is_some() {
                return Err(BoardError::SharedSector(board_name(width, s.at)));
            }
            *slot = Some(id);
            if board.by_name.insert(s.name.to_lowercase(), id).is_some() {
                return Err(BoardError::DuplicateSystem(s.name.clone()));
            }
        }
        board.systems = systems;
        Ok(board)
    }

    /// A generated board of the given size for benchmarks and property tests: four
    /// powers (or fewer) in equal bands of columns, and a major system on every sector
    /// whose column and row are both even.
    pub fn generated(width: u32, height: u32, powers: u8) -> Board {
        let powers = powers.clamp(1, 4).min(width as u8);
        let ids = ["foundation", "imperium", "union", "tazenda"];
        let band = width / u32::from(powers);
        let mut file = BoardFile {
            name: format!("generated-{width}x{height}"),
            width,
            height,
            powers: Vec::new(),
            systems: Vec::new(),
        };
        for p in 0..u32::from(powers) {
            let col0 = p * band;
            let col1 = if p + 1 == u32::from(powers) {
                width - 1
            } else {
                col0 + band - 1
            };
            file.powers.push(PowerFile {
                id: ids[p as usize].to_string(),
                tag: None,
                name: None,
                home: format!("{}1:{}{}", column_name(col0), column_name(col1), height),
            });
        }
        for row in (0..height).step_by(2) {
            for col in (0..width).step_by(2) {
                file.systems.push(SystemFile {
                    name: format!("S{}_{}", column_name(col), row + 1),
                    at: format!("{}{}", column_name(col), row + 1),
                });
            }
        }
        Board::from_file(file).expect("generated boards are valid")
    }

    fn rect(&self, text: &str) -> Result<Rect, BoardError> {
        let bad = || BoardError::Home(text.to_string());
        let (a, b) = text.split_once(':').ok_or_else(bad)?;
        let (c0, r0) = parse_coordinate(a.trim()).ok_or_else(bad)?;
        let (c1, r1) = parse_coordinate(b.trim()).ok_or_else(bad)?;
        if c0 > c1 || r0 > r1 || c1 >= self.width || r1 >= self.height {
            return Err(bad());
        }
        Ok(Rect {
            col0: c0,
            row0: r0,
            col1: c1,
            row1: r1,
        })
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of sectors on the board.
    pub fn len(&self) -> usize {
        self.system_at.len()
    }

    pub fn is_empty(&self) -> bool {
        self.system_at.is_empty()
    }

    pub fn powers(&self) -> impl ExactSizeIterator<Item = (PowerId, &PowerDef)> {
        self.powers
            .iter()
            .enumerate()
            .map(|(i, p)| (PowerId(i as u8), p))
    }

    pub fn power(&self, id: PowerId) -> &PowerDef {
        &self.powers[id.0 as usize]
    }

    /// The power with this id (`foundation`, …), case-insensitive.
    pub fn power_by_id(&self, id: &str) -> Option<PowerId> {
        self.powers
            .iter()
            .position(|p| p.id.eq_ignore_ascii_case(id))
            .map(|i| PowerId(i as u8))
    }

    pub fn systems(&self) -> impl ExactSizeIterator<Item = (SystemId, &SystemDef)> {
        self.systems
            .iter()
            .enumerate()
            .map(|(i, s)| (SystemId(i as u32), s))
    }

    pub fn system(&self, id: SystemId) -> &SystemDef {
        &self.systems[id.0 as usize]
    }

    pub fn system_count(&self) -> usize {
        self.systems.len()
    }

    /// The major system in a sector, if any.
    pub fn system_at(&self, sector: Sector) -> Option<SystemId> {
        self.system_at[sector.0 as usize]
    }

    /// The system with this name, case-insensitive.
    pub fn system_by_name(&self, name: &str) -> Option<SystemId> {
        if name.bytes().all(|b| b.is_ascii_lowercase()) {
            return self.by_name.get(name).copied();
        }
        self.by_name.get(&name.to_lowercase()).copied()
    }

    /// The power whose home quadrant holds this sector (R1.3), if any.
    pub fn home_power(&self, sector: Sector) -> Option<PowerId> {
        let (col, row) = self.col_row(sector);
        self.powers
            .iter()
            .position(|p| p.home.contains(col, row))
            .map(|i| PowerId(i as u8))
    }

    /// The sectors of a power's home quadrant, in reading order.
    pub fn home_sectors(&self, power: PowerId) -> impl Iterator<Item = Sector> + '_ {
        let r = self.power(power).home;
        (r.row0..=r.row1).flat_map(move |row| (r.col0..=r.col1).map(move |col| self.at(col, row)))
    }

    /// Reads a sector token: a coordinate (`c4`) or a system name (`Rossem`).
    pub fn sector(&self, token: &str) -> Option<Sector> {
        match self.locate(token) {
            Locate::Sector(s) => Some(s),
            _ => None,
        }
    }

    /// Like [`Board::sector`], but tells an off-board coordinate from an unknown name.
    pub fn locate(&self, token: &str) -> Locate {
        if let Some((col, row)) = parse_coordinate(token) {
            if col < self.width && row < self.height {
                return Locate::Sector(self.at(col, row));
            }
            return Locate::OffBoard;
        }
        match self.system_by_name(token) {
            Some(id) => Locate::Sector(self.system(id).at),
            None => Locate::Unknown,
        }
    }

    fn at(&self, col: u32, row: u32) -> Sector {
        Sector(row * self.width + col)
    }

    pub fn col_row(&self, sector: Sector) -> (u32, u32) {
        (sector.0 % self.width, sector.0 / self.width)
    }

    /// The upper-case name of a sector, e.g. `C4`.
    pub fn name(&self, sector: Sector) -> String {
        self.label(sector).to_string()
    }

    /// The name of a sector as a value to format, without allocating.
    pub fn label(&self, sector: Sector) -> SectorName {
        SectorName {
            col: sector.0 % self.width,
            row: sector.0 / self.width,
        }
    }

    /// Whether two sectors touch (R1.2: 8-neighbourhood, no wrap-around).
    pub fn adjacent(&self, a: Sector, b: Sector) -> bool {
        a != b && self.distance(a, b) == 1
    }

    /// King-move (Chebyshev) distance between two sectors.
    pub fn distance(&self, a: Sector, b: Sector) -> u32 {
        let (ac, ar) = self.col_row(a);
        let (bc, br) = self.col_row(b);
        ac.abs_diff(bc).max(ar.abs_diff(br))
    }

    /// The sectors adjacent to `sector`, in reading order.
    pub fn neighbours(&self, sector: Sector) -> Neighbours {
        let (col, row) = self.col_row(sector);
        let (w, s) = (self.width, sector.0);
        if col > 0 && row > 0 && col + 1 < w && row + 1 < self.height {
            // Away from the edges: the eight around, by their offsets.
            return Neighbours {
                items: [
                    s - w - 1,
                    s - w,
                    s - w + 1,
                    s - 1,
                    s + 1,
                    s + w - 1,
                    s + w,
                    s + w + 1,
                ]
                .map(Sector),
                len: 8,
            };
        }
        let mut out = Neighbours {
            items: [Sector(0); 8],
            len: 0,
        };
        for dr in [-1i64, 0, 1] {
            for dc in [-1i64, 0, 1] {
                if dr == 0 && dc == 0 {
                    continue;
                }
                let (c, r) = (i64::from(col) + dc, i64::from(row) + dr);
                if c >= 0 && r >= 0 && c < i64::from(self.width) && r < i64::from(self.height) {
                    out.items[out.len] = self.at(c as u32, r as u32);
                    out.len += 1;
                }
            }
        }
        out
    }
}

/// What a sector token names on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locate {
    Sector(Sector),
    /// Shaped like a coordinate, but outside the board.
    OffBoard,
    /// Neither a coordinate nor a system name.
    Unknown,
}

/// Up to eight neighbouring sectors, in reading order, without allocating.
#[derive(Clone, Copy)]
pub struct Neighbours {
    items: [Sector; 8],
    len: usize,
}

impl Neighbours {
    pub fn as_slice(&self) -> &[Sector] {
        &self.items[..self.len]
    }
}

impl IntoIterator for Neighbours {
    type Item = Sector;
    type IntoIter = std::iter::Take<std::array::IntoIter<Sector, 8>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

fn board_name(width: u32, sector: Sector) -> String {
    SectorName {
        col: sector.0 % width,
        row: sector.0 / width,
    }
    .to_string()
}

/// A sector's name (`C4`, `AB12`), written when formatted.
#[derive(Clone, Copy, Debug)]
pub struct SectorName {
    col: u32,
    row: u32,
}

impl fmt::Display for SectorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        if self.col >= 26 {
            f.write_char(char::from(b'A' + (self.col / 26 - 1) as u8))?;
        }
        f.write_char(char::from(b'A' + (self.col % 26) as u8))?;
        write!(f, "{}", self.row + 1)
    }
}

fn overlap(a: &Rect, b: &Rect) -> bool {
    a.col0 <= b.col1 && b.col0 <= a.col1 && a.row0 <= b.row1 && b.row0 <= a.row1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_read_like_a_spreadsheet() {
        assert_eq!(parse_coordinate("A1"), Some((0, 0)));
        assert_eq!(parse_coordinate("c4"), Some((2, 3)));
        assert_eq!(parse_coordinate("AA10"), Some((26, 9)));
        assert_eq!(parse_coordinate("A0"), None);
        assert_eq!(parse_coordinate("Terminus"), None);
    }

    /// The reading of coordinates as it was first written, letter by letter.
    fn parse_coordinate_plainly(token: &str) -> Option<(u32, u32)> {
        let bytes = token.as_bytes();
        let mut letters = 0;
        let mut col = 0u32;
        while letters < 3 && letters < bytes.len() && bytes[letters].is_ascii_alphabetic() {
            col = col * 26 + u32::from(bytes[letters].to_ascii_uppercase() - b'A') + 1;
            letters += 1;
        }
        if letters == 0 || letters > 2 || letters == bytes.len() {
            return None;
        }
        let digits = &bytes[letters..];
        if digits.len() > 5 || digits[0] == b'0' {
            return None;
        }
        let mut row = 0u32;
        for &d in digits {
            if !d.is_ascii_digit() {
                return None;
            }
            row = row * 10 + u32::from(d - b'0');
        }
        Some((col - 1, row - 1))
    }

    #[test]
    fn coordinates_read_as_the_plain_reading_does() {
        // Every string of up to four bytes from an alphabet of letters, digits, the
        // bytes next to them and a non-ASCII byte, and some longer ones.
        let alphabet = b"aAzZ09@[`{/:5m\xc3";
        let mut tokens: Vec<Vec<u8>> = vec![Vec::new()];
        let mut all = vec![Vec::new()];
        for _ in 0..4 {
            tokens = tokens
                .iter()
                .flat_map(|t| {
                    alphabet.iter().map(move |&c| {
                        let mut t = t.clone();
                        t.push(c);
                        t
                    })
                })
                .collect();
            all.extend(tokens.iter().cloned());
        }
        for long in [
            "AB12345", "AB123456", "ZZ99999", "abc1", "A1B", "Ab012", "é1",
        ] {
            all.push(long.as_bytes().to_vec());
        }
        for t in &all {
            let token = String::from_utf8_lossy(t);
            assert_eq!(
                parse_coordinate(&token),
                parse_coordinate_plainly(&token),
                "{token:?}"
            );
        }
        assert_eq!(parse_coordinate("12"), None);
        assert_eq!(column_name(0), "A");
        assert_eq!(column_name(25), "Z");
        assert_eq!(column_name(26), "AA");
        assert_eq!(column_name(701), "ZZ");
        for col in 0..MAX_WIDTH {
            let name = format!("{}7", column_name(col));
            assert_eq!(parse_coordinate(&name), Some((col, 6)));
            assert_eq!(SectorName { col, row: 6 }.to_string(), name);
        }
    }

    #[test]
    fn r1_2_neighbours_are_the_eight_around_in_reading_order() {
        let b = Board::generated(9, 7, 4);
        for s in 0..b.len() as u32 {
            let (col, row) = b.col_row(Sector(s));
            let expected: Vec<Sector> = (0..b.len() as u32)
                .map(Sector)
                .filter(|&t| t != Sector(s))
                .filter(|&t| {
                    let (c, r) = b.col_row(t);
                    c.abs_diff(col) <= 1 && r.abs_diff(row) <= 1
                })
                .collect();
            assert_eq!(b.neighbours(Sector(s)).as_slice(), expected, "{s}");
        }
    }

    #[test]
    fn generated_boards_are_valid() {
        let b = Board::generated(400, 250, 4);
        assert_eq!(b.len(), 100_000);
        assert_eq!(b.powers().len(), 4);
        assert!(b.system_count() > 20_000);
    }
}
