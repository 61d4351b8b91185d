//! Stage one of reading orders: text to the shape of an order, with no look at the
//! position. Keywords in any case; region ids and system names are kept as written
//! and checked in stage two ([`super::check`]).

use std::fmt;

use super::map::{split_region_id, UnitType};

/// An order as written (G6–G9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
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
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnknownKeyword(w) => write!(
                f,
                "{w:?} is not an order (known: EXTORT, BORROW, TRANSFER, BUY, LOYALTY, ECON, \
                 PARTY, NEGOTIATE, BRIBE, POLICE, DEMOTE, CHANGE MINISTERS, SUBVERT, WAR, \
                 PEACE, DESUBVERT, COUNTER)"
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
        }
    }
}

/// Reads one order line.
pub fn parse(line: &str) -> Result<Order, SyntaxError> {
    let mut words = Words(line.split_whitespace());
    let keyword = words.need("an order")?.to_ascii_uppercase();
    let order = match keyword.as_str() {
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
        _ => return Err(SyntaxError::UnknownKeyword(keyword)),
    };
    match words.0.next() {
        Some(extra) => Err(SyntaxError::Extra(extra.into())),
        None => Ok(order),
    }
}

struct Words<'a>(std::str::SplitWhitespace<'a>);

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

    fn place(&mut self) -> Result<Place, SyntaxError> {
        let word = self.need("a system or NG")?;
        Ok(if word.eq_ignore_ascii_case("NG") {
            Place::Ng
        } else {
            Place::System(word.to_string())
        })
    }
}
