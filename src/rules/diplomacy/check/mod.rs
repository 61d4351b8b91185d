//! Orders read against the position: which unit a line orders, whether the order is
//! possible at all (DATC 4.E.1: an impossible order is ignored, the unit holds), and
//! its canonical text (`FRA A par - bur`).

mod later_phases;

use super::convoy::{fleets_at_sea, necessary_fleets, route_exists};
use super::map::{Kind, Loc, Map, Prov, Terrain};
use super::state::{Edition, State, Step, Unit};
use super::syntax::{self, Action, Line, Place, UnitSpec};

/// What a checked order does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Does {
    Hold,
    Move {
        to: Loc,
        via: bool,
    },
    SupportHold {
        target: usize,
    },
    /// `coast`: the coast the support names, if any (DATC 6.B.9).
    SupportMove {
        target: usize,
        to: Prov,
        coast: Option<String>,
    },
    Convoy {
        target: usize,
        to: Prov,
    },
    Retreat {
        to: Loc,
    },
    Disband,
    Build {
        unit: Unit,
    },
    Waive,
    Draw,
}

/// One order line, read and checked.
#[derive(Clone, Debug)]
pub struct Order {
    pub power: u8,
    /// The unit ordered: an index into `State::units` (movement, adjustments) or
    /// `State::dislodged` (retreats).
    pub unit: Option<usize>,
    pub does: Does,
    /// Canonical text.
    pub text: String,
    /// Why the order cannot be carried out (the unit then holds).
    pub invalid: Option<String>,
    /// What the writer may not expect of an order carried out: the ordered unit's coast
    /// written wrongly (`the fleet is on spa/sc, not spa/nc`: the order stands for it,
    /// DATC 6.B.10). Receipts show it; an invalid order's reason starts with it.
    pub note: Option<String>,
}

/// The order lines of a submission: blank lines, `#` comments and quoted reply lines
/// (`>`) are left out.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    lines_as_written(text).map(|(_, line)| line)
}

/// [`lines`] with each line as written (trimmed, its comment kept) beside it.
pub fn lines_as_written(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.lines().filter_map(|raw| {
        let line = raw.split('#').next().unwrap_or("").trim();
        (!line.is_empty() && !raw.trim_start().starts_with('>')).then_some((raw.trim(), line))
    })
}

fn place_text(map: &Map, p: &Place) -> String {
    match &p.coast {
        Some(c) if !map.provinces[p.prov as usize].coasts.is_empty() => {
            format!("{}/{c}", map.prov_id(p.prov))
        }
        _ => map.prov_id(p.prov).to_string(),
    }
}

/// When the line names the unit's province with another coast than the one it is on:
/// `the fleet is on stp/nc, not stp/sc`. The coast of the ordered unit does not matter
/// (DATC 4.B.5, 6.B.10): the order stands for the unit there, and says so.
fn wrong_coast(map: &Map, spec: &UnitSpec, unit: &Unit) -> Option<String> {
    let written = spec.at.coast.as_deref()?;
    let prov = spec.at.prov;
    if map.provinces[prov as usize].coasts.is_empty() || map.coast_of(unit.loc) == written {
        return None;
    }
    Some(format!(
        "the {} is on {}, not {}/{written}",
        match unit.kind {
            Kind::Army => "army",
            Kind::Fleet => "fleet",
        },
        map.loc_id(unit.loc),
        map.prov_id(prov)
    ))
}

/// An invalid order's reason, after the note on the unit's coast if there is one.
fn with_note(note: Option<String>, reason: String) -> String {
    match note {
        Some(n) => format!("{n}; {reason}"),
        None => reason,
    }
}

/// Where a unit's move or retreat arrives, as the canonical order names it: a fleet's
/// coast even when the line left it out because only one could be meant (`F bla - bul`
/// is `F bla - bul/ec`); an army's destination as written.
fn arrival_text(map: &Map, unit: &Unit, loc: Loc, written: &Place) -> String {
    match unit.kind {
        Kind::Fleet => map.loc_id(loc).to_string(),
        Kind::Army => place_text(map, written),
    }
}

fn spec_text(map: &Map, u: &UnitSpec, actual: Option<&Unit>) -> String {
    let kind = u
        .kind
        .or(actual.map(|a| a.kind))
        .map(|k| k.letter())
        .unwrap_or("?");
    let at = match actual {
        Some(a) => map.loc_id(a.loc).to_string(),
        None => place_text(map, &u.at),
    };
    format!("{kind} {at}")
}

/// Reads one line of `sender` (none in a scenario list: the prefix or the unit's
/// owner decides). `Err` is a line that does not read as an order at all.
pub fn read(state: &State, sender: Option<u8>, line: &str) -> Result<Order, String> {
    let map = state.map();
    let parsed = syntax::parse(map, line)?;
    let (prefix, unit_spec, action) = match parsed {
        Line::Waive { power } => {
            let power = power.or(sender).ok_or("WAIVE needs a power: FRA WAIVE")?;
            return Ok(simple(state, sender, power, Does::Waive, "WAIVE"));
        }
        Line::Draw { power } => {
            let power = power.or(sender).ok_or("DRAW needs a power: FRA DRAW")?;
            return Ok(simple(state, sender, power, Does::Draw, "DRAW"));
        }
        Line::Unit {
            power,
            unit,
            action,
        } => (power, unit, action),
    };
    if let (Some(p), Some(s)) = (prefix, sender) {
        if p != s {
            return Err(format!(
                "you play {}, not {}",
                map.power_id(s),
                map.power_id(p)
            ));
        }
    }
    match state.phase.step {
        Step::Movement => Ok(movement(state, prefix.or(sender), &unit_spec, action)),
        Step::Retreat => Ok(later_phases::retreat(
            state,
            prefix.or(sender),
            &unit_spec,
            action,
        )),
        Step::Adjustment => Ok(later_phases::adjustment(
            state,
            prefix.or(sender),
            &unit_spec,
            action,
        )),
    }
}

fn simple(state: &State, _sender: Option<u8>, power: u8, does: Does, word: &str) -> Order {
    let map = state.map();
    let invalid = match (&does, state.phase.step) {
        (Does::Waive, Step::Adjustment) => None,
        (Does::Waive, _) => Some("WAIVE is an adjustment order".to_string()),
        (Does::Draw, Step::Movement) => None,
        (Does::Draw, _) => Some("DRAW is voted in movement phases".to_string()),
        _ => None,
    };
    Order {
        power,
        unit: None,
        does,
        text: format!("{} {word}", map.power_id(power)),
        invalid,
        note: None,
    }
}

fn unknown(map: &Map, power: Option<u8>, text: String, why: String) -> Order {
    let _ = map;
    Order {
        power: power.unwrap_or(u8::MAX),
        unit: None,
        does: Does::Hold,
        text,
        invalid: Some(why),
        note: None,
    }
}

fn prefix(map: &Map, power: Option<u8>) -> String {
    power
        .map(|p| format!("{} ", map.power_id(p)))
        .unwrap_or_default()
}

/// Finds the unit a spec names among `units`: by province (the coast written does not
/// matter, DATC 4.B.5), checked for power and kind.
fn find(
    map: &Map,
    units: &[Unit],
    power: Option<u8>,
    spec: &UnitSpec,
) -> Result<(usize, u8), String> {
    let k = units
        .iter()
        .position(|u| map.prov_of(u.loc) == spec.at.prov)
        .ok_or_else(|| format!("there is no unit in {}", map.prov_id(spec.at.prov)))?;
    let u = &units[k];
    if let Some(kind) = spec.kind {
        if kind != u.kind {
            return Err(format!(
                "the unit in {} is {}",
                map.prov_id(spec.at.prov),
                if u.kind == Kind::Army {
                    "an army"
                } else {
                    "a fleet"
                }
            ));
        }
    }
    if let Some(p) = power {
        if p != u.power {
            return Err(format!(
                "the unit in {} is {}'s, not {}'s",
                map.prov_id(spec.at.prov),
                map.power_id(u.power),
                map.power_id(p)
            ));
        }
    }
    Ok((k, u.power))
}

/// The location a unit of `kind` at `from` reaches in province `to` (with the coast
/// written, if any), or why not (DATC 4.B.1–4.B.3, 4.B.6).
pub fn destination(map: &Map, kind: Kind, from: Loc, to: &Place) -> Result<Loc, String> {
    let p = to.prov;
    match kind {
        Kind::Army => {
            if map.terrain(p) == Terrain::Sea {
                return Err(format!("an army cannot go to sea ({})", map.prov_id(p)));
            }
            Ok(p)
        }
        Kind::Fleet => {
            if map.terrain(p) == Terrain::Land {
                return Err(format!("a fleet cannot go inland ({})", map.prov_id(p)));
            }
            let coasts = &map.provinces[p as usize].coasts;
            if coasts.is_empty() {
                return Ok(p);
            }
            let reachable: Vec<Loc> = coasts
                .iter()
                .copied()
                .filter(|&c| map.fleet[from as usize] & (1u128 << c) != 0)
                .collect();
            match &to.coast {
                Some(c) => {
                    let loc = map
                        .coast_loc(p, c)
                        .ok_or_else(|| format!("{} has no coast {c}", map.prov_id(p)))?;
                    Ok(loc)
                }
                None => match reachable.as_slice() {
                    [one] => Ok(*one),
                    [] => Ok(coasts[0]),
                    _ => Err(format!(
                        "say which coast of {}: {}",
                        map.prov_id(p),
                        coasts
                            .iter()
                            .map(|&c| map.loc_id(c).to_string())
                            .collect::<Vec<_>>()
                            .join(" or ")
                    )),
                },
            }
        }
    }
}

/// Whether the unit can make this move at all, given the position: a border, or for
/// an army a chain of fleets at sea (not counting `without`, DATC 6.D.31).
fn move_possible(
    state: &State,
    unit: &Unit,
    to: &Place,
    via: bool,
    without: u128,
) -> Result<Loc, String> {
    let map = state.map();
    let from = map.prov_of(unit.loc);
    if to.prov == from {
        return Err("a unit cannot move to its own province".into());
    }
    let loc = destination(map, unit.kind, unit.loc, to)?;
    match unit.kind {
        Kind::Fleet => {
            if via {
                return Err("only armies are convoyed".into());
            }
            if map.fleet[unit.loc as usize] & (1u128 << loc) == 0 {
                return Err(format!(
                    "{} does not border {}",
                    map.loc_id(unit.loc),
                    map.loc_id(loc)
                ));
            }
            Ok(loc)
        }
        Kind::Army => {
            let adjacent = map.army[from as usize] & (1u128 << to.prov) != 0;
            if adjacent && !via {
                return Ok(loc);
            }
            let coastal = |p: Prov| map.terrain(p) == Terrain::Coast;
            if coastal(from)
                && coastal(to.prov)
                && route_exists(map, fleets_at_sea(state) & !without, from, to.prov)
            {
                return Ok(loc);
            }
            Err(format!(
                "{} does not border {}{}",
                map.prov_id(from),
                map.prov_id(to.prov),
                if adjacent {
                    " by a convoy route"
                } else {
                    ", and no fleets at sea could convoy it"
                }
            ))
        }
    }
}

fn movement(state: &State, power: Option<u8>, spec: &UnitSpec, action: Action) -> Order {
    let map = state.map();
    let found = find(map, &state.units, power, spec);
    let actual = found.as_ref().ok().map(|&(k, _)| &state.units[k]);
    let head = format!(
        "{}{}",
        prefix(map, power.or(actual.map(|u| u.power))),
        spec_text(map, spec, actual)
    );
    let (text, does): (String, Result<Does, String>) = match &action {
        Action::Hold => (format!("{head} H"), Ok(Does::Hold)),
        Action::Move { to, via } => {
            let does = match actual {
                Some(u) => move_possible(state, u, to, *via, 0)
                    .map(|loc| Does::Move { to: loc, via: *via }),
                None => Err(String::new()),
            };
            let to = match (&does, actual) {
                (Ok(Does::Move { to: loc, .. }), Some(u)) => arrival_text(map, u, *loc, to),
                _ => place_text(map, to),
            };
            (
                format!("{head} - {to}{}", if *via { " VIA" } else { "" }),
                does,
            )
        }
        Action::Support { target, to } => {
            let t = find(map, &state.units, None, target);
            let tu = t.as_ref().ok().map(|&(k, _)| &state.units[k]);
            let mut text = format!("{head} S {}", spec_text(map, target, tu));
            if let Some(to) = to {
                text += &format!(" - {}", place_text(map, to));
            }
            let does = match (actual, t) {
                (None, _) => Err(String::new()),
                (_, Err(e)) => Err(e),
                (Some(u), Ok((k, _))) => support(state, u, k, to.as_ref()),
            };
            (text, does)
        }
        Action::Convoy { target, to } => {
            let t = find(map, &state.units, None, target);
            let tu = t.as_ref().ok().map(|&(k, _)| &state.units[k]);
            let text = format!(
                "{head} C {} - {}",
                spec_text(map, target, tu),
                place_text(map, to)
            );
            let does = match (actual, t) {
                (None, _) => Err(String::new()),
                (_, Err(e)) => Err(e),
                (Some(u), Ok((k, _))) => convoy(state, u, k, to),
            };
            (text, does)
        }
        Action::Retreat { to } => (
            format!("{head} R {}", place_text(map, to)),
            Err("retreats are ordered in retreat phases".into()),
        ),
        Action::Disband => (
            format!("{head} D"),
            Err("disbanding is ordered in retreat and adjustment phases".into()),
        ),
        Action::Build => (
            format!("{head} B"),
            Err("builds are ordered in adjustment phases".into()),
        ),
    };
    let (unit, owner) = match &found {
        Ok((k, p)) => (Some(*k), Some(*p)),
        Err(_) => (None, None),
    };
    let note = actual.and_then(|u| wrong_coast(map, spec, u));
    match (found, does) {
        (Err(e), _) => unknown(map, power.or(owner), text, e),
        (Ok(_), Ok(does)) => Order {
            power: power.or(owner).unwrap_or(u8::MAX),
            unit,
            does,
            text,
            invalid: None,
            note,
        },
        (Ok(_), Err(e)) => Order {
            power: power.or(owner).unwrap_or(u8::MAX),
            unit,
            does: Does::Hold,
            text,
            invalid: Some(with_note(note, e)),
            note: None,
        },
    }
}

fn support(
    state: &State,
    supporter: &Unit,
    target: usize,
    to: Option<&Place>,
) -> Result<Does, String> {
    let map = state.map();
    let t = &state.units[target];
    let me = map.prov_of(supporter.loc);
    let there = map.prov_of(t.loc);
    if there == me {
        return Err("a unit cannot support itself".into());
    }
    let reach = map.reach(supporter.kind, supporter.loc);
    match to {
        None => {
            if reach & (1u128 << there) == 0 {
                return Err(format!(
                    "{} cannot reach {}, so it cannot support a unit there",
                    map.loc_id(supporter.loc),
                    map.prov_id(there)
                ));
            }
            Ok(Does::SupportHold { target })
        }
        Some(dst) => {
            if reach & (1u128 << dst.prov) == 0 {
                return Err(format!(
                    "{} cannot reach {}, so it cannot support a move there",
                    map.loc_id(supporter.loc),
                    map.prov_id(dst.prov)
                ));
            }
            // The supported move must be possible by itself, without a convoy through
            // the supporter (DATC 6.A.5, 6.D.22–6.D.24, 6.D.31). The coast is not
            // needed (DATC 6.B.4, 6.B.7, 6.B.8).
            let place = Place {
                prov: dst.prov,
                coast: if t.kind == Kind::Fleet {
                    dst.coast.clone()
                } else {
                    None
                },
            };
            let without = if map.is_sea(me) { 1u128 << me } else { 0 };
            let possible = match (t.kind, &place.coast) {
                (Kind::Fleet, None) => {
                    dst.prov != there && map.fleet_prov[t.loc as usize] & (1u128 << dst.prov) != 0
                }
                _ => move_possible(state, t, &place, false, without).is_ok(),
            };
            if !possible {
                return Err(format!(
                    "the supported unit cannot move from {} to {}",
                    map.loc_id(t.loc),
                    place_text(map, dst)
                ));
            }
            Ok(Does::SupportMove {
                target,
                to: dst.prov,
                coast: if t.kind == Kind::Fleet {
                    dst.coast.clone()
                } else {
                    None
                },
            })
        }
    }
}

fn convoy(state: &State, fleet: &Unit, target: usize, to: &Place) -> Result<Does, String> {
    let map = state.map();
    let t = &state.units[target];
    let me = map.prov_of(fleet.loc);
    if fleet.kind != Kind::Fleet {
        return Err("only fleets convoy".into());
    }
    if !map.is_sea(me) {
        return Err("a fleet in a coastal province cannot convoy".into());
    }
    if t.kind != Kind::Army {
        return Err("only armies are convoyed".into());
    }
    let from = map.prov_of(t.loc);
    if from == to.prov {
        return Err("an army cannot be convoyed to its own province".into());
    }
    if map.terrain(to.prov) != Terrain::Coast || map.terrain(from) != Terrain::Coast {
        return Err("a convoy goes from one coastal province to another".into());
    }
    let fleets = fleets_at_sea(state);
    let on_route = match state.options.edition {
        Edition::E2023 => necessary_fleets(map, fleets, from, to.prov),
        _ => {
            if route_exists(map, fleets, from, to.prov) {
                fleets
            } else {
                0
            }
        }
    };
    if on_route & (1u128 << me) == 0 {
        return Err(format!(
            "{} is on no convoy route from {} to {} that needs it",
            map.prov_id(me),
            map.prov_id(from),
            map.prov_id(to.prov)
        ));
    }
    Ok(Does::Convoy {
        target,
        to: to.prov,
    })
}
