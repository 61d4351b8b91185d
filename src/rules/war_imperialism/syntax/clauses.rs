//! The orders with clauses of their own: `BUILD` (units, a fleet, a building or the
//! canal), `SAIL` (its steps) and `BATTLE` (its instructions, W6.9).

use super::reader::Reader;
use crate::rules::war_imperialism::order::{BattleLine, Build, Order, SailStep, Transfer};
use crate::rules::war_imperialism::state::{Building, Kind};

pub(super) fn build(r: &mut Reader) -> Result<Order, String> {
    let n = r.number();
    if n == Some(0) {
        return Err("BUILD 0 builds nothing".into());
    }
    let Some(word) = r.peek().map(str::to_string) else {
        return Err("BUILD what?".into());
    };
    if Reader::is_flt(&word) {
        if n.is_some_and(|n| n > 1) {
            return Err("one fleet per BUILD order (one per port per phase)".into());
        }
        r.i += 1;
        let sea = r.sea()?;
        let at = if r.kw("AT") { Some(r.region()?) } else { None };
        return Ok(Order::Build(Build::Fleet { sea, at }));
    }
    if let Some(kind) = Kind::parse(&word) {
        r.i += 1;
        let n = n.unwrap_or(1);
        if n > 1000 {
            return Err(format!("BUILD {n}: too many"));
        }
        return Ok(Order::Build(Build::Units {
            n,
            kind,
            region: r.region()?,
        }));
    }
    if n.is_some() {
        return Err(format!("unknown unit kind \"{word}\""));
    }
    if word.eq_ignore_ascii_case("suez") || word.eq_ignore_ascii_case("canal") {
        r.i += 1;
        r.kw("canal");
        return Ok(Order::Build(Build::Suez {
            region: r.region()?,
        }));
    }
    if let Some(kind) = Building::parse(&word) {
        r.i += 1;
        return Ok(Order::Build(Build::Building {
            kind,
            region: r.region()?,
        }));
    }
    Err(format!("cannot build \"{word}\""))
}

pub(super) fn sail(r: &mut Reader) -> Result<Order, String> {
    let n = r.number().unwrap_or(1);
    if n == 0 {
        return Err("SAIL 0 FLT moves nothing".into());
    }
    if !r.peek().is_some_and(Reader::is_flt) {
        return Err("SAIL [<n>] FLT <sea> - <step> …".into());
    }
    r.i += 1;
    let sea = r.sea()?;
    let mut steps = Vec::new();
    while r.kw("-") {
        if r.kw("LOAD") {
            let u = r.land_units()?;
            steps.push(SailStep::Load(u, r.region()?));
        } else if r.kw("LAND") {
            let u = if r.kw("ALL") {
                None
            } else {
                Some(r.land_units()?)
            };
            steps.push(SailStep::Land(u, r.region()?));
        } else if r.kw("ATTACK") {
            steps.push(SailStep::Attack(r.player()?));
        } else {
            steps.push(SailStep::Sea(r.sea()?));
        }
    }
    if steps.is_empty() {
        return Err("SAIL needs steps: SAIL FLT <sea> - <sea|LOAD|LAND|ATTACK> …".into());
    }
    Ok(Order::Sail { n, sea, steps })
}

pub(super) fn battle(r: &mut Reader) -> Result<Order, String> {
    let at = if r.kw("ALL") {
        None
    } else {
        Some(r.place("region or sea")?)
    };
    let mut b = BattleLine {
        at,
        rounds: None,
        retreat: None,
        target: None,
        transfer: None,
    };
    while let Some(t) = r.peek().map(str::to_ascii_uppercase) {
        r.i += 1;
        match t.as_str() {
            "ROUNDS" if b.rounds.is_none() => {
                let n = r.count("ROUNDS")?;
                if n == 0 {
                    return Err("ROUNDS 0: at least one round is fought".into());
                }
                b.rounds = Some(n);
            }
            "RETREAT" if b.retreat.is_none() => {
                r.kw("TO");
                b.retreat = Some(r.place("place")?);
            }
            "TARGET" if b.target.is_none() => {
                let k = r
                    .kind_here()
                    .filter(|k| k.is_brigade())
                    .ok_or_else(|| "TARGET names a brigade kind: INF, CAV or ART".to_string())?;
                r.i += 1;
                b.target = Some(k);
            }
            "TRANSFER" if b.transfer.is_none() => {
                b.transfer = Some(if r.kw("ALL") {
                    Transfer::All
                } else if r.kw("NONE") {
                    Transfer::None
                } else if r.kw("AUTO") {
                    Transfer::Auto
                } else {
                    return Err("TRANSFER ALL, NONE or AUTO".into());
                });
            }
            _ => {
                return Err(format!(
                    "unexpected word \"{}\" (ROUNDS, RETREAT, TARGET, TRANSFER)",
                    r.toks[r.i - 1]
                ))
            }
        }
    }
    Ok(Order::Battle(b))
}
