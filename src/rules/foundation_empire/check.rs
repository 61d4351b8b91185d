//! Order parsing, stage 2: syntax checked against the board and the position (R3.3).

use std::num::NonZeroU32;

use super::board::{Locate, PowerId, Sector};
use super::outcome::{line_number, Detail, Invalid, OrderResult, OrderText, Outcome};
use super::position::{State, NO_FLEET};
use super::syntax::{self, Syntax, Written};
use super::Submissions;

/// Looks words of an order up on the board and in the position.
pub struct Checker<'s> {
    pub state: &'s State,
    /// Fleet index by sector, as returned by [`State::occupancy`].
    pub occupancy: &'s [u32],
}

impl Checker<'_> {
    /// The sector a word names.
    pub fn sector(&self, token: &str) -> Result<Sector, Invalid> {
        match self.state.board.locate(token) {
            Locate::Sector(s) => Ok(s),
            Locate::OffBoard => Err(Invalid::OffBoard(token.to_uppercase())),
            Locate::Unknown => Err(Invalid::UnknownSector(token.to_string())),
        }
    }

    /// The index of the fleet of `power` in the sector a word names, and the sector.
    /// `owner` gives the power of each sector's fleet plus one (0: empty), a byte a
    /// sector ([`super::resolve::Positions`]): a check reads it, not the fleets' records.
    pub fn own_fleet(
        &self,
        owner: &[u8],
        power: PowerId,
        token: &str,
    ) -> Result<(usize, Sector), Invalid> {
        let at = self.sector(token)?;
        let i = self.occupancy[at.0 as usize];
        if i == NO_FLEET {
            return Err(Invalid::NoFleet(self.name(at)));
        }
        if owner[at.0 as usize] != power.0.wrapping_add(1) {
            let theirs = self.state.fleets[i as usize].power;
            return Err(Invalid::ForeignFleet {
                at: self.name(at),
                owner: self.state.board.power(theirs).name.clone(),
            });
        }
        Ok((i as usize, at))
    }

    /// A move's destination: on the board, not the origin, adjacent (R3.3).
    pub fn destination(&self, from: Sector, token: &str) -> Result<Sector, Invalid> {
        let to = self.sector(token)?;
        if to == from {
            return Err(Invalid::SameSector(self.name(from)));
        }
        if !self.state.board.adjacent(from, to) {
            return Err(Invalid::NotAdjacent {
                from: self.name(from),
                to: self.name(to),
            });
        }
        Ok(to)
    }

    pub fn name(&self, sector: Sector) -> String {
        self.state.board.name(sector)
    }
}

/// Where a line accepted for a slot was written: its number and where its text starts
/// in its power's submission (8 bytes, where the line's text itself would take 16: a
/// movement phase keeps one for every fleet). A slot is always one power's (its fleet,
/// its dislodged fleet, its placement), so the submission is that power's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineAt {
    pub number: NonZeroU32,
    start: u32,
}

impl LineAt {
    fn written<'t>(&self, submission: &'t str) -> Written<'t> {
        Written::at(submission, self.number.get(), self.start)
    }
}

/// A line accepted for a slot (a fleet, a dislodged fleet, a pending placement): what
/// it asks for, and where it was written.
pub type Chosen<T> = Option<(T, LineAt)>;

/// Reads every power's lines into slots (R3.1). `check` maps a line to its slot and
/// what it asks for, or to the reason it is refused; a later valid line for a slot
/// replaces the earlier one, which is reported as refused. An invalid line replaces
/// nothing. Refused lines go to `results`; `at` is the sector a slot is listed under.
/// (A phase that keeps what a line asks for elsewhere, written by `check` when it
/// accepts the line, uses `T = ()`: a later valid line is accepted later, so what it
/// writes stands.)
pub fn read_into_slots<'t, T>(
    checker: &Checker,
    orders: &'t Submissions,
    chosen: &mut [Chosen<T>],
    at: impl Fn(usize) -> Sector,
    mut check: impl FnMut(
        PowerId,
        &Result<Syntax<'t>, String>,
        &[Chosen<T>],
    ) -> Result<(usize, T), Invalid>,
    results: &mut Vec<OrderResult>,
) {
    for (&power, text) in orders {
        for line in syntax::lines(text) {
            match check(power, &line.syntax, chosen) {
                Ok((slot, value)) => {
                    if let Some((_, earlier)) = &chosen[slot] {
                        let earlier = earlier.written(text);
                        results.push(refused(power, Some(at(slot)), earlier, &Invalid::Replaced));
                    }
                    let line_at = LineAt {
                        // Lines are numbered from 1.
                        number: line_number(line.written.number).unwrap_or(NonZeroU32::MIN),
                        start: line.written.start_in(text),
                    };
                    chosen[slot] = Some((value, line_at));
                }
                Err(why) => {
                    let why = chatter(checker, &line).unwrap_or(why);
                    let sector = line_sector(checker, &line.syntax);
                    results.push(refused(power, sector, line.written, &why));
                }
            }
        }
    }
}

/// Why a refused line is no order at all, if it is none: it has an order's shape
/// (`Thanks - Preem`, `Ok - bye`, `Cheers -> Mule`), but its first word is neither an
/// order word nor a sector or system of the board (a coordinate off the board, `Z9`,
/// still looks like a sector). Such a line is chatter, its writer's own business: the
/// receipt shows it to its writer only and the judge never keeps it as an order. A
/// line that begins like an order (`B2 - Z9`, `Trantor - Nowhere`, `PLACE Nowhere`)
/// stays refused, as what it says. Asked only of refused lines, so an order that is
/// taken costs nothing more. (A line that does not read at all is
/// [`Invalid::Unparseable`] already.)
pub fn chatter(checker: &Checker, line: &syntax::Line) -> Option<Invalid> {
    let first = match line.syntax.as_ref().ok()? {
        Syntax::Hold { fleet }
        | Syntax::Move { fleet, .. }
        | Syntax::Support { fleet, .. }
        | Syntax::Retreat { fleet, .. }
        | Syntax::Disband { fleet } => *fleet,
        Syntax::Place { .. } => return None,
    };
    // The fleet's word is the line's first only when no order word (`F`, `MOVE`) came
    // before it: the line is trimmed, and the words are slices of it.
    if first.as_ptr() != line.written.text.as_ptr() {
        return None;
    }
    (checker.state.board.locate(first) == Locate::Unknown)
        .then(|| Invalid::NotAnOrder(first.to_string()))
}

/// The kind of an order, for "not taken in this phase" answers.
pub fn kind(syntax: &Syntax) -> &'static str {
    match syntax {
        Syntax::Hold { .. } | Syntax::Move { .. } | Syntax::Support { .. } => "movement",
        Syntax::Retreat { .. } | Syntax::Disband { .. } => "retreat",
        Syntax::Place { .. } => "placement",
    }
}

/// The result of a line that was refused.
pub fn refused(
    power: PowerId,
    sector: Option<Sector>,
    line: Written,
    why: &Invalid,
) -> OrderResult {
    OrderResult {
        power,
        sector,
        order: OrderText::text(line.text),
        outcome: Outcome::Invalid,
        detail: Detail::Invalid(Box::new(why.clone())),
        default: false,
        line: line_number(line.number),
    }
}

/// The sector a line's first word names, if it names one: used to list a refused
/// line next to the fleet it was meant for.
pub fn line_sector(checker: &Checker, syntax: &Result<Syntax, String>) -> Option<Sector> {
    let word = match syntax.as_ref().ok()? {
        Syntax::Hold { fleet }
        | Syntax::Move { fleet, .. }
        | Syntax::Support { fleet, .. }
        | Syntax::Retreat { fleet, .. }
        | Syntax::Disband { fleet } => fleet,
        Syntax::Place { at, .. } => at,
    };
    checker.sector(word).ok()
}
