//! Orders as players write them (W2.4, W3–W7, W6.9), read into [`Order`]s (see
//! `order`, whose canonical form, [`Order::text`], reads back to the same order).
//!
//! Words are compared without regard to case. Place names may be written as the map
//! names them, with spaces (`Low Countries`), in common spellings (`Turkey`) or as an
//! unambiguous beginning (`Meso`); unit kinds as `INF`, `infantry`, `cavalry`, plurals
//! too. `->`, `-` and dashes all separate the steps of a path.

mod clauses;
mod reader;
#[cfg(test)]
mod tests;

use super::map::{Map, Place};
use super::order::{Intercept, Order};
use clauses::{battle, build, sail};
use reader::{tokens, Reader};

/// The words an order starts with ([`parse`] knows no other).
pub const ORDER_WORDS: [&str; 27] = [
    "PICK",
    "BUILD",
    "DEVELOP",
    "DISBAND",
    "GIVE",
    "BUY",
    "REMOVE",
    "WESTERNIZE",
    "WESTERNISE",
    "INCITE",
    "SUPPORT",
    "SUPPRESS",
    "PEACE",
    "CEDE",
    "MOVE",
    "SAIL",
    "ATTACK",
    "REINFORCE",
    "BATTLE",
    "LOSSES",
    "LOSS",
    "NAVAL",
    "INTERCEPT",
    "PARLEY",
    "PROSPECT",
    "DECLARE",
    "WAR",
];

/// Whether a line is an attempt at an order, right or wrong: its first word is an
/// order word. Anything else (chatter, a greeting, a signature) is no order at all:
/// the judge keeps it out of the orders and shows it to its sender only.
pub fn is_order_attempt(line: &str) -> bool {
    tokens(line)
        .first()
        .is_some_and(|w| ORDER_WORDS.iter().any(|o| o.eq_ignore_ascii_case(w)))
}
/// Reads one order line. The error says why in plain words.
pub fn parse(line: &str, map: &Map, players: &[String]) -> Result<Order, String> {
    let mut r = Reader {
        toks: tokens(line),
        i: 0,
        map,
        players,
    };
    let Some(first) = r.peek().map(|t| t.to_ascii_uppercase()) else {
        return Err("empty order".into());
    };
    r.i += 1;
    let order = match first.as_str() {
        "PICK" => {
            let mut list = Vec::new();
            while r.peek().is_some() {
                let k = r.region()?;
                if !list.contains(&k) {
                    list.push(k);
                }
            }
            if list.is_empty() {
                return Err("PICK names no region".into());
            }
            Order::Pick(list)
        }
        "BUILD" => build(&mut r)?,
        "DEVELOP" => Order::Develop(r.region()?),
        "DISBAND" => {
            let (units, fleets) = r.units(true)?;
            let at = r.place("place")?;
            if fleets > 0 && matches!(at, Place::Region(_)) {
                return Err("fleets are at sea, not in a region".into());
            }
            Order::Disband { units, fleets, at }
        }
        "GIVE" => {
            let pp = r.count("GIVE")?;
            r.kw("PP");
            r.expect("TO")?;
            if pp == 0 {
                return Err("GIVE 0 PP gives nothing".into());
            }
            Order::Give {
                pp,
                to: r.player()?,
            }
        }
        "BUY" => {
            let n = r.count("BUY")?;
            r.expect("DP")?;
            if n == 0 {
                return Err("BUY 0 DP buys nothing".into());
            }
            Order::BuyDp(n)
        }
        "REMOVE" => {
            r.expect("SPHERE")?;
            let of = r.player()?;
            r.kw("IN");
            Order::RemoveSphere {
                of,
                region: r.region()?,
            }
        }
        "WESTERNIZE" | "WESTERNISE" => Order::Westernize(r.region()?),
        "INCITE" => {
            let region = r.region()?;
            let (mut bribe, mut sphere) = (false, false);
            while let Some(t) = r.peek() {
                if t.eq_ignore_ascii_case("BRIBE") && !bribe {
                    bribe = true;
                } else if t.eq_ignore_ascii_case("SPHERE") && !sphere {
                    sphere = true;
                } else {
                    return Err(format!("unexpected word \"{t}\" (BRIBE or SPHERE)"));
                }
                r.i += 1;
            }
            Order::Incite {
                region,
                bribe,
                sphere,
            }
        }
        "SUPPORT" => Order::Posture {
            region: r.region()?,
            support: true,
        },
        "SUPPRESS" => Order::Posture {
            region: r.region()?,
            support: false,
        },
        "PEACE" => {
            r.kw("WITH");
            Order::Peace(r.player()?)
        }
        "CEDE" => {
            let region = r.region()?;
            r.expect("TO")?;
            Order::Cede {
                region,
                to: r.player()?,
            }
        }
        "MOVE" => {
            let units = r.land_units()?;
            let from = r.region()?;
            let mut path = Vec::new();
            while r.kw("-") {
                path.push(r.place("place")?);
            }
            if path.is_empty() {
                return Err("MOVE needs a path: MOVE <units> <region> - <place>".into());
            }
            Order::Move { units, from, path }
        }
        "SAIL" => sail(&mut r)?,
        "ATTACK" => {
            let player = r.player()?;
            r.kw("IN");
            Order::Attack {
                player,
                sea: r.sea()?,
            }
        }
        "REINFORCE" => {
            let target = r.region()?;
            r.expect("FROM")?;
            let origin = r.region()?;
            let with = if r.kw("WITH") {
                let mut list = Vec::new();
                while r.peek().is_some() {
                    let n = r.number().unwrap_or(1);
                    let Some(k) = r.kind_here() else {
                        return Err(match r.peek() {
                            Some(t) => format!("unknown unit kind \"{t}\""),
                            None => "a unit kind is missing".into(),
                        });
                    };
                    if !k.is_brigade() {
                        return Err(format!("{} is not a brigade", k.name()));
                    }
                    if n == 0 || n > 1000 {
                        return Err(format!("a count of {n}"));
                    }
                    r.i += 1;
                    list.extend(std::iter::repeat_n(k, n as usize));
                }
                if list.is_empty() {
                    return Err("WITH names no brigades".into());
                }
                Some(list)
            } else {
                None
            };
            Order::Reinforce {
                target,
                origin,
                with,
            }
        }
        "BATTLE" => battle(&mut r)?,
        "LOSSES" | "LOSS" => Order::Losses(r.kind_list()?),
        "NAVAL" => {
            r.expect("ROUNDS")?;
            let n = r.count("NAVAL ROUNDS")?;
            if n == 0 {
                return Err("NAVAL ROUNDS 0: at least one round is fought".into());
            }
            Order::NavalRounds(n)
        }
        "INTERCEPT" => {
            let sea = if r.kw("ALL") { None } else { Some(r.sea()?) };
            let mode = if r.kw("ALWAYS") {
                Intercept::Always
            } else if r.kw("NEVER") {
                Intercept::Never
            } else if r.kw("EQUAL") {
                Intercept::Equal
            } else {
                return Err("INTERCEPT <sea|ALL> ALWAYS, NEVER or EQUAL".into());
            };
            Order::Intercept { sea, mode }
        }
        "PARLEY" => {
            let region = r.region()?;
            let dp = r.kw("DP");
            Order::Parley { region, dp }
        }
        "PROSPECT" => Order::Prospect(r.region()?),
        "DECLARE" => {
            r.expect("WAR")?;
            r.kw("ON");
            Order::DeclareWar(r.player()?)
        }
        "WAR" => {
            r.kw("ON");
            Order::DeclareWar(r.player()?)
        }
        _ => return Err(format!("unknown order \"{}\"", r.toks[0])),
    };
    r.end()?;
    Ok(order)
}
