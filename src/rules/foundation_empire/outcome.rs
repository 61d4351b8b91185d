//! What adjudication says happened: one result per order line and per fleet, the
//! reasons an order was refused (a closed set, told in plain words), and the report.

use std::fmt;

use super::board::{PowerId, Sector, SystemId};

/// What became of an order (the `outcome` of the scenario output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Moved,
    Held,
    Supported,
    Bounced,
    Dislodged,
    Retreated,
    Destroyed,
    Placed,
    Invalid,
}

impl Outcome {
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Moved => "moved",
            Outcome::Held => "held",
            Outcome::Supported => "supported",
            Outcome::Bounced => "bounced",
            Outcome::Dislodged => "dislodged",
            Outcome::Retreated => "retreated",
            Outcome::Destroyed => "destroyed",
            Outcome::Placed => "placed",
            Outcome::Invalid => "invalid",
        }
    }
}

/// Why an order line was not accepted (R3.3). Sector and system names are kept as the
/// player will read them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Invalid {
    /// The line does not read as an order; the text says what was expected.
    Unparseable(String),
    UnknownSector(String),
    OffBoard(String),
    NoFleet(String),
    ForeignFleet {
        at: String,
        owner: String,
    },
    NotAdjacent {
        from: String,
        to: String,
    },
    SameSector(String),
    /// An order of another phase's kind, e.g. a retreat during movement.
    WrongPhase {
        order: &'static str,
        phase: &'static str,
    },
    /// A later valid order for the same fleet or system took its place (R3.1).
    Replaced,
    /// In a solo game the judge writes the Imperium's orders (R10.2).
    JudgePlays,
    /// This power owes no orders in this phase.
    NothingOwed {
        phase: &'static str,
    },
    NotDislodged(String),
    RetreatOccupied(String),
    RetreatToAttackerOrigin(String),
    RetreatToStandoff(String),
    NotMajorSystem(String),
    NotInHomeQuadrant(String),
    AlreadyChosen(String),
    TooManyFleets(u32),
    NoPendingPlacement(String),
    NotNextToSystem {
        at: String,
        system: String,
    },
    SectorOccupied(String),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Unparseable(why) => write!(f, "not understood: {why}"),
            Invalid::UnknownSector(t) => {
                write!(f, "{t:?} is neither a sector nor a major system")
            }
            Invalid::OffBoard(t) => write!(f, "{t} is off the board"),
            Invalid::NoFleet(s) => write!(f, "there is no fleet in {s}"),
            Invalid::ForeignFleet { at, owner } => {
                write!(f, "the fleet in {at} belongs to {owner}")
            }
            Invalid::NotAdjacent { from, to } => {
                write!(
                    f,
                    "{to} is not next to {from}: fleets move one sector a turn"
                )
            }
            Invalid::SameSector(s) => write!(f, "a fleet in {s} cannot move to {s}"),
            Invalid::WrongPhase { order, phase } => {
                write!(f, "{order} orders are not taken in the {phase} phase")
            }
            Invalid::Replaced => write!(f, "replaced by a later order for the same fleet"),
            Invalid::JudgePlays => {
                write!(f, "in a solo game the judge gives the Imperium's orders")
            }
            Invalid::NothingOwed { phase } => {
                write!(f, "your power has no orders to give in the {phase} phase")
            }
            Invalid::NotDislodged(s) => write!(f, "no fleet of yours was dislodged from {s}"),
            Invalid::RetreatOccupied(s) => write!(f, "{s} is occupied"),
            Invalid::RetreatToAttackerOrigin(s) => {
                write!(f, "{s} is where the attacker came from")
            }
            Invalid::RetreatToStandoff(s) => {
                write!(f, "{s} was left empty by a stand-off this turn")
            }
            Invalid::NotMajorSystem(s) => write!(f, "{s} is not a major system"),
            Invalid::NotInHomeQuadrant(s) => write!(f, "{s} is not in your home quadrant"),
            Invalid::AlreadyChosen(s) => write!(f, "{s} is already chosen"),
            Invalid::TooManyFleets(n) => write!(f, "you have only {n} fleets to place"),
            Invalid::NoPendingPlacement(s) => {
                write!(f, "{s} owes you no new fleet this turn")
            }
            Invalid::NotNextToSystem { at, system } => {
                write!(f, "{at} is not next to {system}")
            }
            Invalid::SectorOccupied(s) => write!(f, "{s} is occupied"),
        }
    }
}

/// The result of one order line, or of one fleet's default order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderResult {
    pub power: PowerId,
    /// The sector the order concerns, when known: results are listed by it.
    pub sector: Option<Sector>,
    /// The order in canonical form, or the line as written when it was not understood.
    pub order: String,
    pub outcome: Outcome,
    pub detail: String,
    /// True when the judge supplied the order (no order, invalid order, NMR, solo).
    pub default: bool,
    /// The number of the line the order was written on, if it was written.
    pub line: Option<u32>,
}

impl OrderResult {
    /// Sort key making the list independent of the order lines were written in.
    fn key(&self) -> (PowerId, Option<Sector>, bool, &str, Outcome, &str) {
        (
            self.power,
            self.sector,
            self.default,
            &self.order,
            self.outcome,
            &self.detail,
        )
    }
}

/// A fleet removed from the game.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Destroyed {
    pub power: PowerId,
    pub at: Sector,
    pub why: String,
}

/// A system changing hands at the end of a turn (R8.2).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Capture {
    pub system: SystemId,
    pub power: PowerId,
    pub from: Option<PowerId>,
}

/// A new fleet that could not be placed (R8.4, R8.6).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LostPlacement {
    pub power: PowerId,
    pub system: SystemId,
    pub why: String,
}

/// One roll of the judge's dice (R10.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roll {
    pub group: u32,
    pub roll: u8,
    pub fleets: Vec<Sector>,
    pub action: String,
}

/// Everything a phase's adjudication reports besides the new state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub results: Vec<OrderResult>,
    pub destroyed: Vec<Destroyed>,
    pub captures: Vec<Capture>,
    pub lost_placements: Vec<LostPlacement>,
    pub eliminated: Vec<PowerId>,
    pub dice: Vec<Roll>,
}

impl Report {
    /// Puts every list in a canonical order, so the report does not depend on the order
    /// in which orders or fleets were given.
    pub fn canonicalise(&mut self) {
        self.results.sort_by(|a, b| a.key().cmp(&b.key()));
        self.destroyed.sort();
        self.captures.sort();
        self.lost_placements.sort();
        self.eliminated.sort();
    }
}
