//! The seed's two tables, row by row as the rules of record print them: the combat
//! results table (G5.3) with its odds columns (G5.2), and the transit attack table
//! (G5.4) with its strength-difference columns.

use std::fmt;

use super::strength::Strength;

/// A combat result (G5.3): A the attacking side, D the defending side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CombatResult {
    /// Every attacking unit taking part is eliminated.
    AE,
    /// The attacking side loses this many units, picked by the defenders.
    A(u32),
    /// The attacking side retreats.
    Ar,
    /// No effect.
    Ne,
    /// The defending side retreats.
    Dr,
    /// The defending side loses this many units, picked by the attackers.
    D(u32),
    /// Every defending unit taking part is eliminated.
    DE,
}

impl CombatResult {
    pub fn name(self) -> &'static str {
        match self {
            CombatResult::AE => "AE",
            CombatResult::A(1) => "A-1",
            CombatResult::A(_) => "A-2",
            CombatResult::Ar => "Ar",
            CombatResult::Ne => "ne",
            CombatResult::Dr => "Dr",
            CombatResult::D(1) => "D-1",
            CombatResult::D(_) => "D-2",
            CombatResult::DE => "DE",
        }
    }
}

impl fmt::Display for CombatResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The odds columns, weakest first.
pub const ODDS: [&str; 6] = ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1"];

/// G5.3, `CRT[roll - 1][column]`.
pub const CRT: [[CombatResult; 6]; 6] = {
    use CombatResult::*;
    [
        [Ar, Dr, D(1), DE, DE, DE],
        [Ar, Ne, Dr, D(2), DE, DE],
        [A(2), Ne, Dr, D(1), D(2), DE],
        [AE, Ar, Ne, Dr, D(1), DE],
        [AE, AE, Ar, Ne, D(1), D(2)],
        [AE, AE, A(1), Ar, Dr, D(2)],
    ]
};

/// The odds column of attack A against defence D (G5.2), rounded in the attacker's
/// favour; `None` below 1-3 (D ≥ 4 × A): the attack is not made.
pub fn odds(attack: Strength, defence: Strength) -> Option<usize> {
    let (a, d) = (u64::from(attack.halves()), u64::from(defence.halves()));
    if a >= d {
        if d == 0 {
            return Some(5);
        }
        let n = a.div_ceil(d).min(4);
        Some(1 + n as usize)
    } else if d >= 4 * a {
        None
    } else {
        // 1-n with n = D/A rounded down: 1 → 1-1, 2 → 1-2, 3 → 1-3.
        Some(3 - (d / a) as usize)
    }
}

/// The CRT's result for a column and a roll (1–6).
pub fn combat_result(column: usize, roll: u32) -> CombatResult {
    CRT[(roll.clamp(1, 6) - 1) as usize][column.min(5)]
}

/// A transit attack result (G5.4): M the mover, S the intercepting stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransitResult {
    /// The attacked unit is eliminated.
    ME,
    /// The attacked unit is eliminated (every unit being one counter, as ME).
    M1,
    /// The mover stops in the place from which it entered the cell.
    Ms,
    /// No effect.
    Ne,
    /// The intercepting stack loses one unit at the end of the phase.
    S1,
}

impl TransitResult {
    pub fn name(self) -> &'static str {
        match self {
            TransitResult::ME => "ME",
            TransitResult::M1 => "M-1",
            TransitResult::Ms => "Ms",
            TransitResult::Ne => "ne",
            TransitResult::S1 => "S-1",
        }
    }
}

impl fmt::Display for TransitResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The transit table's columns, as printed.
pub const TRANSIT_COLUMNS: [i8; 3] = [-2, -1, 0];

/// G5.4, `TRANSIT[roll - 1][column index]` (columns -2, -1, 0).
pub const TRANSIT: [[TransitResult; 3]; 6] = {
    use TransitResult::*;
    [
        [ME, ME, ME],
        [ME, ME, M1],
        [ME, M1, Ms],
        [ME, Ms, Ne],
        [Ms, Ne, Ne],
        [Ne, Ne, S1],
    ]
};

/// The column of a transit attack: the attacked unit's defence d minus the
/// interceptor's attack A: 0 or more → 0; from −1 to below 0 → −1; below −1 → −2.
pub fn transit_column(defence: Strength, attack: Strength) -> i8 {
    let diff = i64::from(defence.halves()) - i64::from(attack.halves());
    if diff >= 0 {
        0
    } else if diff >= -2 {
        -1
    } else {
        -2
    }
}

pub fn transit_result(column: i8, roll: u32) -> TransitResult {
    let c = (column.clamp(-2, 0) + 2) as usize;
    TRANSIT[(roll.clamp(1, 6) - 1) as usize][c]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(whole: f64) -> Strength {
        Strength((whole * 2.0) as u32)
    }

    /// The examples of G5.2.
    #[test]
    fn g5_2_odds_round_in_the_attackers_favour() {
        let col = |a, d| odds(s(a), s(d)).map(|c| ODDS[c]);
        assert_eq!(col(4.0, 3.0), Some("2-1"));
        assert_eq!(col(7.0, 3.0), Some("3-1"));
        assert_eq!(col(2.0, 3.0), Some("1-1"));
        assert_eq!(col(2.0, 5.0), Some("1-2"));
        assert_eq!(col(1.0, 3.0), Some("1-3"));
        assert_eq!(col(1.0, 4.0), None);
        assert_eq!(col(1.5, 1.0), Some("2-1"));
        assert_eq!(col(9.0, 2.0), Some("4-1"));
        assert_eq!(col(0.0, 1.0), None);
    }

    #[test]
    fn g5_4_columns_read_in_the_interceptors_favour() {
        assert_eq!(transit_column(s(2.0), s(2.0)), 0);
        assert_eq!(transit_column(s(1.0), s(2.0)), -1);
        assert_eq!(transit_column(s(1.0), s(1.5)), -1);
        assert_eq!(transit_column(s(1.0), s(2.5)), -2);
        assert_eq!(transit_column(s(0.0), s(4.0)), -2);
    }
}
