//! The map's vocabulary (G1.1–G1.3, G2): cells, economic levels, parties, unit types,
//! and region ids.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A grid cell (G1.1): column `A`–`Z`, row from 1; `A1` is the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    pub col: u8,
    pub row: u16,
}

impl Cell {
    /// Reads `D5` (case-insensitive).
    pub fn parse(text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 4 {
            return None;
        }
        let row: u16 = digits.parse().ok()?;
        (row >= 1).then_some(Cell {
            col: letter as u8 - b'A',
            row,
        })
    }

    /// The cell's name, `D5` (as its `Display`, without the formatting machinery).
    pub fn name(self) -> String {
        let mut out = String::with_capacity(6);
        out.push((b'A' + self.col) as char);
        let mut digits = [0u8; 5];
        let mut n = self.row;
        let mut k = digits.len();
        loop {
            k -= 1;
            digits[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &digits[k..] {
            out.push(d as char);
        }
        out
    }

    /// Chebyshev distance: king moves on the grid (G1.1).
    pub fn distance(self, other: Cell) -> u32 {
        let dc = (i32::from(self.col) - i32::from(other.col)).unsigned_abs();
        let dr = (i32::from(self.row) - i32::from(other.row)).unsigned_abs();
        dc.max(dr)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col) as char, self.row)
    }
}

/// Economic level of a region (G1.3), lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Economy {
    #[serde(rename = "S")]
    S,
    #[serde(rename = "A-1")]
    A1,
    #[serde(rename = "A-2")]
    A2,
    #[serde(rename = "I-1")]
    I1,
    #[serde(rename = "I-2")]
    I2,
}

impl Economy {
    pub const ALL: [Economy; 5] = [
        Economy::S,
        Economy::A1,
        Economy::A2,
        Economy::I1,
        Economy::I2,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Economy::S => "S",
            Economy::A1 => "A-1",
            Economy::A2 => "A-2",
            Economy::I1 => "I-1",
            Economy::I2 => "I-2",
        }
    }

    pub fn up(self) -> Option<Economy> {
        Economy::ALL.get(self as usize + 1).copied()
    }

    pub fn down(self) -> Option<Economy> {
        (self as usize).checked_sub(1).map(|i| Economy::ALL[i])
    }

    /// Tax a region at this level pays (G6.1).
    pub fn tax(self) -> u32 {
        match self {
            Economy::I2 => 2,
            Economy::I1 | Economy::A2 => 1,
            Economy::A1 | Economy::S => 0,
        }
    }

    /// What raising a region from this level costs (G6.5); `None` at the top.
    pub fn raise_cost(self) -> Option<u32> {
        match self {
            Economy::S => Some(2),
            Economy::A1 => Some(3),
            Economy::A2 => Some(4),
            Economy::I1 => Some(5),
            Economy::I2 => None,
        }
    }

    /// Units a region at this level may buy in a turn (G6.4).
    pub fn purchase_cap(self) -> u32 {
        match self {
            Economy::I2 => 6,
            Economy::I1 => 4,
            _ => 0,
        }
    }

    /// Cost of a subversion stake on a region at this level (G8.1).
    pub fn subversion_cost(self) -> u32 {
        match self {
            Economy::A2 | Economy::I2 => 2,
            _ => 1,
        }
    }
}

impl fmt::Display for Economy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A region's party (G1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Party {
    R,
    M,
    E,
}

impl Party {
    pub fn name(self) -> &'static str {
        match self {
            Party::R => "R",
            Party::M => "M",
            Party::E => "E",
        }
    }

    /// The unit type the party wants bought (G6.4).
    pub fn wants(self) -> UnitType {
        match self {
            Party::R => UnitType::Pdf,
            Party::M => UnitType::Ag,
            Party::E => UnitType::Sqd,
        }
    }
}

impl fmt::Display for Party {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A unit type (G2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitType {
    Sqd,
    Ag,
    Pdf,
}

impl UnitType {
    /// Every type, in the default order of picks (G5.6) and of canonical orders (G4.1).
    pub const ALL: [UnitType; 3] = [UnitType::Sqd, UnitType::Ag, UnitType::Pdf];

    pub fn parse(text: &str) -> Option<UnitType> {
        match text.to_ascii_uppercase().as_str() {
            "SQD" => Some(UnitType::Sqd),
            "AG" => Some(UnitType::Ag),
            "PDF" => Some(UnitType::Pdf),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            UnitType::Sqd => "SQD",
            UnitType::Ag => "AG",
            UnitType::Pdf => "PDF",
        }
    }
}

/// Units of each type in one stack (G2.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Units {
    #[serde(rename = "SQD", default)]
    pub sqd: u32,
    #[serde(rename = "AG", default)]
    pub ag: u32,
    #[serde(rename = "PDF", default)]
    pub pdf: u32,
}

impl Units {
    pub fn of(kind: UnitType, n: u32) -> Units {
        let mut u = Units::default();
        *u.get_mut(kind) = n;
        u
    }

    pub fn get(&self, kind: UnitType) -> u32 {
        match kind {
            UnitType::Sqd => self.sqd,
            UnitType::Ag => self.ag,
            UnitType::Pdf => self.pdf,
        }
    }

    pub fn get_mut(&mut self, kind: UnitType) -> &mut u32 {
        match kind {
            UnitType::Sqd => &mut self.sqd,
            UnitType::Ag => &mut self.ag,
            UnitType::Pdf => &mut self.pdf,
        }
    }

    pub fn total(&self) -> u32 {
        self.sqd.saturating_add(self.ag).saturating_add(self.pdf)
    }

    pub fn add(&mut self, other: Units) {
        self.sqd = self.sqd.saturating_add(other.sqd);
        self.ag = self.ag.saturating_add(other.ag);
        self.pdf = self.pdf.saturating_add(other.pdf);
    }

    /// Takes `other` away, never below 0 of a type.
    pub fn sub(&mut self, other: Units) {
        self.sqd = self.sqd.saturating_sub(other.sqd);
        self.ag = self.ag.saturating_sub(other.ag);
        self.pdf = self.pdf.saturating_sub(other.pdf);
    }

    /// Type by type, the smaller count.
    pub fn min(self, other: Units) -> Units {
        Units {
            sqd: self.sqd.min(other.sqd),
            ag: self.ag.min(other.ag),
            pdf: self.pdf.min(other.pdf),
        }
    }

    /// Type by type, at least as many as `other`.
    pub fn holds(&self, other: Units) -> bool {
        self.sqd >= other.sqd && self.ag >= other.ag && self.pdf >= other.pdf
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }
}

/// Where a region is: system index, planet index, region index on the planet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegionAt {
    pub system: usize,
    pub planet: usize,
    pub region: usize,
}

/// A region's id, `<System>-<planet><letter>` (G1.2): `Sirius-2b`.
pub fn region_id(system: &str, planet: usize, region: usize) -> String {
    format!("{system}-{}{}", planet + 1, (b'a' + region as u8) as char)
}

/// Splits a region id into system name, planet index and region index, if it has the
/// shape of one (whether the region exists is the state's business).
pub fn split_region_id(text: &str) -> Option<(&str, usize, usize)> {
    let (system, rest) = text.rsplit_once('-')?;
    let letter = rest.chars().last()?.to_ascii_lowercase();
    let digits = &rest[..rest.len() - letter.len_utf8()];
    if system.is_empty() || !letter.is_ascii_lowercase() || digits.is_empty() {
        return None;
    }
    let planet: usize = digits.parse().ok()?;
    (planet >= 1).then(|| (system, planet - 1, (letter as u8 - b'a') as usize))
}
