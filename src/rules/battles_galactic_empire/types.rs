//! The game's vocabulary: powers (B1.1), regions (B1.2), value slots (B1.3), fleet
//! types and their values (B2, B2.1), action chits (B2.3), combat segments, and counts
//! of fleets and chits.

use serde::{Deserialize, Serialize};

/// The two powers (B1.1): blue, the Imperial player, pushes the Chaos Index up; red,
/// the Rebel player, pushes it down.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Power {
    Blue,
    Red,
}

impl Power {
    /// Blue before red: the order of results, rolls and draws.
    pub const BOTH: [Power; 2] = [Power::Blue, Power::Red];

    pub fn id(self) -> &'static str {
        match self {
            Power::Blue => "blue",
            Power::Red => "red",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Power {
        match self {
            Power::Blue => Power::Red,
            Power::Red => Power::Blue,
        }
    }

    pub fn from_id(s: &str) -> Option<Power> {
        match s.to_ascii_lowercase().as_str() {
            "blue" => Some(Power::Blue),
            "red" => Some(Power::Red),
            _ => None,
        }
    }
}

impl std::fmt::Display for Power {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// The six regions in region order (B1.2); a region is its index 0–5 here and its
/// number 1–6 in orders.
pub const REGIONS: [&str; 6] = ["Tau", "Alpha", "Beta", "Gamma", "Delta", "Omega"];

/// A region's index from its name or number (1–6), case-insensitive (B1.2).
pub fn region_index(word: &str) -> Option<u8> {
    if let Ok(n) = word.parse::<u8>() {
        return (1..=6).contains(&n).then(|| n - 1);
    }
    REGIONS
        .iter()
        .position(|r| r.eq_ignore_ascii_case(word))
        .map(|i| i as u8)
}

pub fn region_name(r: u8) -> &'static str {
    REGIONS[usize::from(r)]
}

/// A region's three value slots (B1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Combat,
    Political,
    Resource,
}

impl Slot {
    pub const ALL: [Slot; 3] = [Slot::Combat, Slot::Political, Slot::Resource];

    pub fn name(self) -> &'static str {
        match self {
            Slot::Combat => "Combat",
            Slot::Political => "Political",
            Slot::Resource => "Resource",
        }
    }

    /// The letter of the value chits of this kind (C1–C6, P1–P6, R1–R6).
    pub fn letter(self) -> char {
        match self {
            Slot::Combat => 'C',
            Slot::Political => 'P',
            Slot::Resource => 'R',
        }
    }

    /// The slot a 1d6 names (B11.3): 1–2 Combat, 3–4 Political, 5–6 Resource.
    pub fn from_die(d: u8) -> Slot {
        match d {
            1 | 2 => Slot::Combat,
            3 | 4 => Slot::Political,
            _ => Slot::Resource,
        }
    }
}

/// Fleet types (B2), in the table's order.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    SF,
    CG,
    AF,
    IO,
    WS,
    TH,
}

impl Kind {
    pub const ALL: [Kind; 6] = [Kind::SF, Kind::CG, Kind::AF, Kind::IO, Kind::WS, Kind::TH];
    /// The types a force pool holds and a power may build (B10.2: never TH).
    pub const BUILT: [Kind; 5] = [Kind::SF, Kind::CG, Kind::AF, Kind::IO, Kind::WS];
    /// Firing order within a power (B8.2).
    pub const FIRING: [Kind; 6] = [Kind::WS, Kind::AF, Kind::IO, Kind::TH, Kind::SF, Kind::CG];
    /// Default target priority, Military segment (B8.9).
    pub const TARGET_MILITARY: [Kind; 6] =
        [Kind::WS, Kind::IO, Kind::AF, Kind::TH, Kind::SF, Kind::CG];
    /// Default target priority, Morph segment (B8.9).
    pub const TARGET_MORPH: [Kind; 6] =
        [Kind::WS, Kind::AF, Kind::TH, Kind::SF, Kind::CG, Kind::IO];
    /// Default order of losses to pursuit fire (B8.7).
    pub const LOSSES: [Kind; 6] = [Kind::SF, Kind::CG, Kind::AF, Kind::TH, Kind::IO, Kind::WS];
    /// Tie order of the garrison's `MIN` (B8.8).
    pub const GARRISON_TIES: [Kind; 6] =
        [Kind::WS, Kind::IO, Kind::AF, Kind::TH, Kind::SF, Kind::CG];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::SF => "SF",
            Kind::CG => "CG",
            Kind::AF => "AF",
            Kind::IO => "IO",
            Kind::WS => "WS",
            Kind::TH => "TH",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
    }

    /// Military and Morph values (B2, B2.1); a TH's depend on its power and the Chaos
    /// Index ([`th_value`]).
    pub fn values(self) -> (u32, u32) {
        match self {
            Kind::SF => (2, 0),
            Kind::CG => (0, 2),
            Kind::AF => (3, 0),
            Kind::IO => (2, 2),
            Kind::WS => (3, 3),
            Kind::TH => (0, 0),
        }
    }

    /// The cost to build (B2.1: Military + Morph); TH are never built.
    pub fn cost(self) -> u32 {
        let (m, p) = self.values();
        m + p
    }
}

/// The Chaos Index band (B1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    Low,
    Middle,
    High,
}

impl Band {
    pub fn of(chaos: i64) -> Band {
        if chaos <= 30 {
            Band::Low
        } else if chaos <= 70 {
            Band::Middle
        } else {
            Band::High
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Band::Low => "low",
            Band::Middle => "middle",
            Band::High => "high",
        }
    }
}

/// A TH's value t, Military and Morph alike, for its power at this Chaos Index (B2).
pub fn th_value(power: Power, chaos: i64) -> u32 {
    match (power, Band::of(chaos)) {
        (_, Band::Middle) => 2,
        (Power::Red, Band::Low) | (Power::Blue, Band::High) => 3,
        (Power::Red, Band::High) | (Power::Blue, Band::Low) => 1,
    }
}

/// A fleet's Military and Morph values (TH by band).
pub fn fleet_values(kind: Kind, power: Power, chaos: i64) -> (u32, u32) {
    if kind == Kind::TH {
        let t = th_value(power, chaos);
        (t, t)
    } else {
        kind.values()
    }
}

/// A fleet's value: Military + Morph (B2.1; TH: 2t).
pub fn fleet_value(kind: Kind, power: Power, chaos: i64) -> u32 {
    let (m, p) = fleet_values(kind, power, chaos);
    m + p
}

/// Action chits (B2.3).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "UPPERCASE")]
pub enum Chit {
    Build,
    Move,
    Tactical,
    Illumination,
    Repression,
}

impl Chit {
    pub const ALL: [Chit; 5] = [
        Chit::Build,
        Chit::Move,
        Chit::Tactical,
        Chit::Illumination,
        Chit::Repression,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Chit::Build => "BUILD",
            Chit::Move => "MOVE",
            Chit::Tactical => "TACTICAL",
            Chit::Illumination => "ILLUMINATION",
            Chit::Repression => "REPRESSION",
        }
    }

    /// A chit by its name or its first three letters or more (B12.1), any case.
    pub fn from_word(word: &str) -> Option<Chit> {
        let w = word.to_ascii_uppercase();
        if w.len() < 3 {
            return None;
        }
        Chit::ALL.into_iter().find(|c| c.name().starts_with(&w))
    }
}

/// A combat segment (B8.1); also the segment a Tactical marker adds a die to.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Segment {
    Military,
    Morph,
}

impl Segment {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Segment::Military => "military",
            Segment::Morph => "morph",
        }
    }

    /// `MILITARY`, `MORPH` or `MORPHOGENETIC` (B12.1), any case.
    pub fn from_word(word: &str) -> Option<Segment> {
        match word.to_ascii_uppercase().as_str() {
            "MILITARY" | "MIL" => Some(Segment::Military),
            "MORPH" | "MORPHOGENETIC" => Some(Segment::Morph),
            _ => None,
        }
    }
}

/// Fleets by type, indexed by [`Kind::index`].
pub type Fleets = [u32; 6];
/// Chits by kind, indexed by [`Chit::index`].
pub type Chits = [u32; 5];

pub fn total<const N: usize>(counts: &[u32; N]) -> u32 {
    counts.iter().fold(0u32, |a, &b| a.saturating_add(b))
}

/// Fleets as players write them: `2SF 1CG` in type order, `nothing` for none.
pub fn fleets_text(f: &Fleets) -> String {
    let parts: Vec<String> = Kind::ALL
        .iter()
        .filter(|k| f[k.index()] > 0)
        .map(|k| format!("{}{}", f[k.index()], k.name()))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(" ")
    }
}

/// The verb after a fleet list: `one` after a single fleet ("1SF returns"), `many`
/// after more ("1SF 2CG return").
pub fn verb(f: &Fleets, one: &'static str, many: &'static str) -> &'static str {
    if f.iter().sum::<u32>() == 1 {
        one
    } else {
        many
    }
}

/// Chits as a count list: `BUILD 1, MOVE 2`, `none` for none.
pub fn chits_text(c: &Chits) -> String {
    let parts: Vec<String> = Chit::ALL
        .iter()
        .filter(|k| c[k.index()] > 0)
        .map(|k| format!("{} {}", k.name(), c[k.index()]))
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b2_1_costs_are_military_plus_morph() {
        let costs: Vec<u32> = Kind::BUILT.iter().map(|k| k.cost()).collect();
        assert_eq!(costs, [2, 2, 3, 4, 6]);
    }

    #[test]
    fn b2_th_value_by_band() {
        assert_eq!(th_value(Power::Red, 30), 3);
        assert_eq!(th_value(Power::Red, 31), 2);
        assert_eq!(th_value(Power::Red, 71), 1);
        assert_eq!(th_value(Power::Blue, -5), 1);
        assert_eq!(th_value(Power::Blue, 70), 2);
        assert_eq!(th_value(Power::Blue, 200), 3);
    }

    #[test]
    fn b1_2_regions_by_name_or_number() {
        assert_eq!(region_index("omega"), Some(5));
        assert_eq!(region_index("1"), Some(0));
        assert_eq!(region_index("7"), None);
        assert_eq!(region_index("0"), None);
        assert_eq!(region_index("Sol"), None);
    }

    #[test]
    fn b12_1_chits_by_first_three_letters() {
        assert_eq!(Chit::from_word("ill"), Some(Chit::Illumination));
        assert_eq!(Chit::from_word("Repression"), Some(Chit::Repression));
        assert_eq!(Chit::from_word("RE"), None);
        assert_eq!(Chit::from_word("MOVES"), None);
    }
}
