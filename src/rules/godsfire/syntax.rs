//! Stage one of reading orders: text to the shape of an order, with no look at the
//! position. Keywords in any case; region ids and system names are kept as written
//! and checked in stage two ([`super::check`]).

use std::fmt;

use super::map::{split_region_id, UnitType};

/// An order as written (G4–G9); the places of the movement and combat orders are
/// borrowed from the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order<'a> {
    Extort(String),
    Borrow(u32),
    Transfer {
        amount: u32,
        from: Place,
        to: Place,
    },
    Buy {
        region: String,
        count: u32,
        kind: UnitType,
    },
    Loyalty {
        region: String,
        amount: u32,
    },
    Econ(String),
    Party {
        region: String,
        paid_by: PartyCost,
    },
    Negotiate(String),
    Bribe(String),
    Police(String),
    Demote(String),
    ChangeMinisters,
    Subvert(String),
    War(String),
    Peace(String),
    Desubvert(String),
    Counter(String),
    /// `<from> [<units>] -> <place> …` (G4.1): units as written (type, count), or
    /// none for "what is left".
    Move {
        from: &'a str,
        units: Option<Vec<(UnitType, u32)>>,
        path: Vec<&'a str>,
    },
    /// `NG -> <cell> …` (G4.5).
    NgMove(Vec<&'a str>),
    /// `<cell> INTERCEPT` (G4.3).
    Intercept(&'a str),
    /// `<cell> BLOCK [<cell>]` (G4.3).
    Block {
        at: &'a str,
        to: Option<&'a str>,
    },
    /// `LOSSES AG SQD PDF` (G5.6).
    Losses(Vec<UnitType>),
    /// `<place> ATTACK <target>` (G5.1).
    Attack {
        from: &'a str,
        target: &'a str,
    },
    /// `<place> RETREAT <place>` (G5.7).
    Retreat {
        from: &'a str,
        to: &'a str,
    },
}

/// Where money is moved from or to (G6.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Ng,
    System(String),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Ng => f.write_str("NG"),
            Place::System(s) => f.write_str(s),
        }
    }
}

/// How a party change is paid for (G7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartyCost {
    Pay,
    Loyalty,
}

/// Why a line is not an order, naming the smallest bad part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    UnknownKeyword(String),
    Missing(&'static str),
    NotANumber(String),
    OutOfRange {
        what: &'static str,
        value: String,
    },
    NotARegion(String),
    NotAUnit(String),
    Expected {
        expected: &'static str,
        found: String,
    },
    Extra(String),
    Twice(String),
    /// A place order's keyword written first, with no place before it (`ATTACK`,
    /// `RETREAT E4`): the keyword and what it needs.
    Needs {
        keyword: &'static str,
        needs: &'static str,
    },
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnknownKeyword(w) => write!(
                f,
                "{w:?} is not an order (known: a move like F4 2AG -> F5, NG ->, INTERCEPT, \
                 BLOCK, ATTACK, RETREAT, LOSSES, EXTORT, BORROW, TRANSFER, BUY, LOYALTY, \
                 ECON, PARTY, NEGOTIATE, BRIBE, POLICE, DEMOTE, CHANGE MINISTERS, SUBVERT, \
                 WAR, PEACE, DESUBVERT, COUNTER)"
            ),
            SyntaxError::Missing(what) => write!(f, "{what} is missing"),
            SyntaxError::NotANumber(w) => write!(f, "{w:?} is not a number"),
            SyntaxError::OutOfRange { what, value } => write!(f, "{value} is out of range: {what}"),
            SyntaxError::NotARegion(w) => {
                write!(f, "{w:?} is not a region id like Sirius-2b")
            }
            SyntaxError::NotAUnit(w) => write!(f, "{w:?} is not a unit type (SQD, AG or PDF)"),
            SyntaxError::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found:?}")
            }
            SyntaxError::Extra(w) => write!(f, "unexpected {w:?} after the order"),
            SyntaxError::Twice(w) => write!(f, "{w} is written twice"),
            SyntaxError::Needs { keyword, needs } => write!(f, "{keyword} needs {needs}"),
        }
    }
}

/// Reads one order line.
pub fn parse(line: &str) -> Result<Order<'_>, SyntaxError> {
    // `F4->F5->G6`: the arrow may be joined to the places.
    let tokens = tokens(line);
    let first = tokens.first().copied().unwrap_or("");
    let mut words = Words(tokens.into_iter());
    let word = words.need("an order")?;
    let keyword = KEYWORDS
        .iter()
        .copied()
        .find(|k| k.eq_ignore_ascii_case(word))
        .unwrap_or("");
    let order = match keyword {
        "MOVE" => {
            let from = words.need("the place units move from")?;
            move_order(from, &mut words)?
        }
        "NG" => {
            let arrow = words.need("->")?;
            if !is_arrow(arrow) {
                return Err(SyntaxError::Expected {
                    expected: "-> after NG",
                    found: arrow.into(),
                });
            }
            Order::NgMove(words.path()?)
        }
        "LOSSES" => {
            let mut kinds = Vec::new();
            for word in words.0.by_ref() {
                let kind =
                    UnitType::parse(word).ok_or_else(|| SyntaxError::NotAUnit(word.into()))?;
                if kinds.contains(&kind) {
                    return Err(SyntaxError::Twice(kind.name().into()));
                }
                kinds.push(kind);
            }
            if kinds.is_empty() {
                return Err(SyntaxError::Missing(
                    "the list of unit types (as in LOSSES AG SQD PDF)",
                ));
            }
            Order::Losses(kinds)
        }
        "EXTORT" => Order::Extort(words.region()?),
        "BORROW" => {
            let amount = words.number("the amount")?;
            if !(1..=10).contains(&amount) {
                return Err(SyntaxError::OutOfRange {
                    what: "a loan is 1 to 10",
                    value: amount.to_string(),
                });
            }
            Order::Borrow(amount)
        }
        "TRANSFER" => {
            let amount = words.positive("the amount")?;
            words.keyword("FROM")?;
            let from = words.place()?;
            words.keyword("TO")?;
            let to = words.place()?;
            Order::Transfer { amount, from, to }
        }
        "BUY" => {
            let region = words.region()?;
            let count = words.positive("the number of units")?;
            let word = words.need("the unit type")?;
            let kind = UnitType::parse(word).ok_or_else(|| SyntaxError::NotAUnit(word.into()))?;
            Order::Buy {
                region,
                count,
                kind,
            }
        }
        "LOYALTY" => {
            let region = words.region()?;
            let amount = words.positive("the amount")?;
            Order::Loyalty { region, amount }
        }
        "ECON" => Order::Econ(words.region()?),
        "PARTY" => {
            let region = words.region()?;
            let word = words.need("PAY or LOYALTY")?;
            let paid_by = match word.to_ascii_uppercase().as_str() {
                "PAY" => PartyCost::Pay,
                "LOYALTY" => PartyCost::Loyalty,
                _ => {
                    return Err(SyntaxError::Expected {
                        expected: "PAY or LOYALTY",
                        found: word.into(),
                    })
                }
            };
            Order::Party { region, paid_by }
        }
        "NEGOTIATE" => Order::Negotiate(words.region()?),
        "BRIBE" => Order::Bribe(words.region()?),
        "POLICE" => Order::Police(words.region()?),
        "DEMOTE" => Order::Demote(words.region()?),
        "CHANGE" => {
            words.keyword("MINISTERS")?;
            Order::ChangeMinisters
        }
        "SUBVERT" => Order::Subvert(words.region()?),
        "WAR" => Order::War(words.need("the power")?.to_ascii_lowercase()),
        "PEACE" => Order::Peace(words.need("the power")?.to_ascii_lowercase()),
        "DESUBVERT" => Order::Desubvert(words.region()?),
        "COUNTER" => Order::Counter(words.region()?),
        _ => {
            // A place first: a move, a stance, an attack or a retreat.
            let second = words.0.clone().next().unwrap_or("");
            if !looks_like_place(first) && !starts_place_order(second) {
                if let Some(e) = place_keyword_first(first) {
                    return Err(e);
                }
                return Err(SyntaxError::UnknownKeyword(word.to_ascii_uppercase()));
            }
            place_order(first, &mut words)?
        }
    };
    match words.0.next() {
        Some(extra) => Err(SyntaxError::Extra(extra.into())),
        None => Ok(order),
    }
}

fn is_arrow(word: &str) -> bool {
    word == "->" || word == "-"
}

/// A cell like `F4` or a region id like `Sirius-1a` (a system's name cannot be told
/// from a misspelt keyword by its shape).
fn looks_like_place(word: &str) -> bool {
    super::map::Cell::parse(word).is_some() || split_region_id(word).is_some()
}

fn starts_place_order(word: &str) -> bool {
    is_arrow(word)
        || unit_word(word).is_some()
        || word.bytes().all(|b| b.is_ascii_digit()) && !word.is_empty()
        || ["INTERCEPT", "BLOCK", "ATTACK", "ATT", "RETREAT"]
            .iter()
            .any(|k| word.eq_ignore_ascii_case(k))
}

/// A stance's, an attack's or a retreat's keyword written first (G4.3, G5.1, G5.7): an
/// order short of its place, told what it needs, not a word that is no order.
fn place_keyword_first(word: &str) -> Option<SyntaxError> {
    let is = |k: &str| word.eq_ignore_ascii_case(k);
    let (keyword, needs) = if is("ATTACK") || is("ATT") {
        (
            "ATTACK",
            "the place of the attacking stack before it and the target after it, \
             like F4 ATTACK F5",
        )
    } else if is("RETREAT") {
        (
            "RETREAT",
            "the place of the stack before it and where it retreats to after it, \
             like F5 RETREAT E4",
        )
    } else if is("INTERCEPT") {
        (
            "INTERCEPT",
            "the cell of the standing stack before it, like G7 INTERCEPT",
        )
    } else if is("BLOCK") {
        (
            "BLOCK",
            "the cell of the standing stack before it, like H8 BLOCK or H8 BLOCK H9",
        )
    } else {
        return None;
    };
    Some(SyntaxError::Needs { keyword, needs })
}

/// `2AG` as one word.
fn unit_word(word: &str) -> Option<(u32, UnitType)> {
    let split = word.find(|c: char| !c.is_ascii_digit())?;
    if split == 0 {
        return None;
    }
    let n = word[..split].parse().ok()?;
    Some((n, UnitType::parse(&word[split..])?))
}

/// What follows a place: `INTERCEPT`, `BLOCK [cell]`, `ATTACK target`, `RETREAT place`,
/// or units and a path.
fn place_order<'a>(from: &'a str, words: &mut Words<'a>) -> Result<Order<'a>, SyntaxError> {
    let Some(next) = words.0.clone().next() else {
        return Err(SyntaxError::Missing(
            "what the units do: -> and a path, INTERCEPT, BLOCK, ATTACK or RETREAT",
        ));
    };
    let is = |k: &str| next.eq_ignore_ascii_case(k);
    let next = if is("INTERCEPT") {
        "INTERCEPT"
    } else if is("BLOCK") {
        "BLOCK"
    } else if is("ATTACK") || is("ATT") {
        "ATTACK"
    } else if is("RETREAT") {
        "RETREAT"
    } else {
        ""
    };
    Ok(match next {
        "INTERCEPT" => {
            words.0.next();
            Order::Intercept(from)
        }
        "BLOCK" => {
            words.0.next();
            Order::Block {
                at: from,
                to: words.0.next(),
            }
        }
        "ATTACK" => {
            words.0.next();
            Order::Attack {
                from,
                target: words.need("the target")?,
            }
        }
        "RETREAT" => {
            words.0.next();
            Order::Retreat {
                from,
                to: words.need("the place to retreat to")?,
            }
        }
        _ => move_order(from, words)?,
    })
}

/// `[<units>] -> <place> …` after the place units move from (G4.1).
fn move_order<'a>(from: &'a str, words: &mut Words<'a>) -> Result<Order<'a>, SyntaxError> {
    let mut units: Vec<(UnitType, u32)> = Vec::new();
    loop {
        let word = words.need("-> and the path")?;
        if is_arrow(word) {
            break;
        }
        let (count, kind) = match unit_word(word) {
            Some(u) => u,
            None => match word.parse::<u32>() {
                Ok(n) => {
                    let kind = words.need("the unit type")?;
                    (
                        n,
                        UnitType::parse(kind).ok_or_else(|| SyntaxError::NotAUnit(kind.into()))?,
                    )
                }
                Err(_) => {
                    return Err(SyntaxError::Expected {
                        expected: "units like 2AG, or -> and the path",
                        found: word.into(),
                    })
                }
            },
        };
        if count == 0 {
            return Err(SyntaxError::OutOfRange {
                what: "counts start from 1",
                value: format!("0 {}", kind.name()),
            });
        }
        if units.iter().any(|&(k, _)| k == kind) {
            return Err(SyntaxError::Twice(kind.name().into()));
        }
        units.push((kind, count));
    }
    Ok(Order::Move {
        from,
        units: (!units.is_empty()).then_some(units),
        path: words.path()?,
    })
}

/// The keywords that begin an order.
const KEYWORDS: [&str; 20] = [
    "MOVE",
    "NG",
    "LOSSES",
    "EXTORT",
    "BORROW",
    "TRANSFER",
    "BUY",
    "LOYALTY",
    "ECON",
    "PARTY",
    "NEGOTIATE",
    "BRIBE",
    "POLICE",
    "DEMOTE",
    "CHANGE",
    "SUBVERT",
    "WAR",
    "PEACE",
    "DESUBVERT",
    "COUNTER",
];

/// The words of a line, with `->` a word of its own even when joined to others.
fn tokens(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for word in line.split_whitespace() {
        let mut rest = word;
        while let Some(k) = rest.as_bytes().windows(2).position(|w| w == b"->") {
            if k > 0 {
                out.push(&rest[..k]);
            }
            out.push("->");
            rest = &rest[k + 2..];
        }
        if !rest.is_empty() {
            out.push(rest);
        }
    }
    out
}

struct Words<'a>(std::vec::IntoIter<&'a str>);

impl<'a> Words<'a> {
    fn need(&mut self, what: &'static str) -> Result<&'a str, SyntaxError> {
        self.0.next().ok_or(SyntaxError::Missing(what))
    }

    fn keyword(&mut self, word: &'static str) -> Result<(), SyntaxError> {
        let found = self.need(word)?;
        if found.eq_ignore_ascii_case(word) {
            Ok(())
        } else {
            Err(SyntaxError::Expected {
                expected: word,
                found: found.into(),
            })
        }
    }

    fn number(&mut self, what: &'static str) -> Result<u32, SyntaxError> {
        let word = self.need(what)?;
        word.parse()
            .map_err(|_| SyntaxError::NotANumber(word.into()))
    }

    fn positive(&mut self, what: &'static str) -> Result<u32, SyntaxError> {
        let n = self.number(what)?;
        if n == 0 {
            return Err(SyntaxError::OutOfRange {
                what: "at least 1",
                value: "0".into(),
            });
        }
        Ok(n)
    }

    fn region(&mut self) -> Result<String, SyntaxError> {
        let word = self.need("the region")?;
        split_region_id(word)
            .map(|_| word.to_string())
            .ok_or_else(|| SyntaxError::NotARegion(word.into()))
    }

    /// The places of a path, further arrows between them ignored; at least one.
    fn path(&mut self) -> Result<Vec<&'a str>, SyntaxError> {
        let places: Vec<&'a str> = self.0.by_ref().filter(|w| !is_arrow(w)).collect();
        if places.is_empty() {
            return Err(SyntaxError::Missing("the path (the places after ->)"));
        }
        Ok(places)
    }

    fn place(&mut self) -> Result<Place, SyntaxError> {
        let word = self.need("a system or NG")?;
        Ok(if word.eq_ignore_ascii_case("NG") {
            Place::Ng
        } else {
            Place::System(word.to_string())
        })
    }
}
