//! Unit strengths (G2): by type and by where the unit stands (an open cell, a system's
//! cell, a region), halved in nebula (G5.2). Strengths are counted in half points so
//! that halves add up exactly; [`Strength`] writes them as numbers (`4`, `1.5`).

use std::fmt;

use serde::{Serialize, Serializer};

use super::map::{UnitType, Units};

/// Where a unit stands, as G2's table distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// A cell that is not a system's cell.
    Open,
    /// A system's cell.
    SystemCell,
    /// A region (on a planet; never in nebula).
    Region,
}

/// What a unit attacks (G5.1): a cell (space combat, an interception, or a system's
/// cell from the ground) or a region (from its system's cell, or within it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Cell,
    Region,
}

/// A strength in half points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Strength(pub u32);

impl Strength {
    pub fn halves(self) -> u32 {
        self.0
    }
}

impl std::ops::Add for Strength {
    type Output = Strength;
    fn add(self, other: Strength) -> Strength {
        Strength(self.0.saturating_add(other.0))
    }
}

impl std::iter::Sum for Strength {
    fn sum<I: Iterator<Item = Strength>>(iter: I) -> Strength {
        iter.fold(Strength(0), |a, b| a + b)
    }
}

impl fmt::Display for Strength {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

impl Serialize for Strength {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % 2 == 0 {
            s.serialize_u32(self.0 / 2)
        } else {
            s.serialize_f64(f64::from(self.0) / 2.0)
        }
    }
}

/// Whole points to half points, halved again in nebula.
fn points(whole: u32, nebula: bool) -> Strength {
    Strength(if nebula { whole } else { whole * 2 })
}

/// A unit's defence where it stands (G2): SQD 2 in a cell, AG 1 in an open cell and 2
/// in a system's cell or a region, PDF 1 everywhere.
pub fn defence(kind: UnitType, ground: Ground, nebula: bool) -> Strength {
    let whole = match (kind, ground) {
        (UnitType::Sqd, Ground::Region) => 0,
        (UnitType::Sqd, _) => 2,
        (UnitType::Ag, Ground::Open) => 1,
        (UnitType::Ag, _) => 2,
        (UnitType::Pdf, _) => 1,
    };
    points(whole, nebula)
}

/// A unit's attack on a target from where it stands (G2, G5.1–G5.2): 0 when it cannot
/// attack it. SQDs have no effect on a planet; PDFs attack only from a system's cell or
/// a region, and only AGs attack a region from space or a system's cell from the
/// ground.
pub fn attack(kind: UnitType, ground: Ground, target: Target, nebula: bool) -> Strength {
    let whole = match (kind, ground, target) {
        (UnitType::Sqd, Ground::Region, _) | (UnitType::Sqd, _, Target::Region) => 0,
        (UnitType::Sqd, _, Target::Cell) => 2,
        (UnitType::Ag, Ground::Open, Target::Cell) => 1,
        (UnitType::Ag, Ground::Open, Target::Region) => 0,
        (UnitType::Ag, _, _) => 2,
        (UnitType::Pdf, Ground::SystemCell, Target::Cell) => 1,
        (UnitType::Pdf, Ground::Region, Target::Region) => 1,
        (UnitType::Pdf, _, _) => 0,
    };
    points(whole, nebula)
}

/// The summed defence of some units standing together.
pub fn defence_of(units: Units, ground: Ground, nebula: bool) -> Strength {
    UnitType::ALL
        .into_iter()
        .map(|k| Strength(defence(k, ground, nebula).0 * units.get(k)))
        .sum()
}

/// The summed attack of some units standing together on a target.
pub fn attack_of(units: Units, ground: Ground, target: Target, nebula: bool) -> Strength {
    UnitType::ALL
        .into_iter()
        .map(|k| Strength(attack(k, ground, target, nebula).0 * units.get(k)))
        .sum()
}

/// The units (of some standing together) that can attack the target at all.
pub fn able(units: Units, ground: Ground, target: Target) -> Units {
    let mut out = Units::default();
    for k in UnitType::ALL {
        if attack(k, ground, target, false).0 > 0 {
            *out.get_mut(k) = units.get(k);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g2_table_by_place() {
        use Ground::*;
        use UnitType::*;
        let d = |k, g| defence(k, g, false).to_string();
        assert_eq!(
            [
                d(Sqd, Open),
                d(Sqd, SystemCell),
                d(Ag, Open),
                d(Ag, SystemCell)
            ],
            ["2", "2", "1", "2"]
        );
        assert_eq!(
            [d(Ag, Region), d(Pdf, Open), d(Pdf, Region)],
            ["2", "1", "1"]
        );
        let a = |k, g, t| attack(k, g, t, false).to_string();
        assert_eq!(
            a(Pdf, Open, Target::Cell),
            "0",
            "a PDF defends only in space"
        );
        assert_eq!(a(Pdf, SystemCell, Target::Cell), "1");
        assert_eq!(
            a(Sqd, SystemCell, Target::Region),
            "0",
            "no effect on a planet"
        );
        assert_eq!(a(Ag, SystemCell, Target::Region), "2");
        assert_eq!(a(Pdf, SystemCell, Target::Region), "0", "AGs only");
        assert_eq!(a(Ag, Region, Target::Cell), "2");
        assert_eq!(a(Pdf, Region, Target::Cell), "0", "AGs only");
        assert_eq!(defence(Ag, Open, true).to_string(), "0.5");
        assert_eq!(serde_json::to_string(&Strength(3)).unwrap(), "1.5");
        assert_eq!(serde_json::to_string(&Strength(8)).unwrap(), "4");
    }
}
