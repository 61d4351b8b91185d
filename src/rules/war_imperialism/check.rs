//! What can be told of an order when it is read (for the receipt): the players it
//! names, and what it needs of the position as the phase starts that nothing in the
//! phase can change (units and fleets are only ever *added* to a place as moved units,
//! which no later order may move again). Everything that depends on the order in which
//! things happen is checked when the order is carried out.

use super::map::Place;
use super::order::{Build, Order, SailStep};
use super::state::{State, FLEET_PORTAGE};

fn other_player(s: &State, p: usize, q: usize, what: &str) -> Result<(), String> {
    if q == p {
        return Err(format!("{what} yourself"));
    }
    if s.players[q].eliminated {
        return Err(format!("{} is out of the game", s.players[q].id));
    }
    Ok(())
}

fn own(s: &State, p: usize, r: usize) -> Result<(), String> {
    if s.owns(p, r) {
        Ok(())
    } else {
        Err(format!("{} is not yours", s.rname(r)))
    }
}

/// W6.6: a side retreats from a land battle to a place next to it: the attacker to
/// where his units came from (a land-adjacent region, or his fleets on a coastal sea
/// they landed from), the defender to an adjacent own region. A naval battle has no
/// retreat (W6.8: a side breaks off and stays).
fn retreat_place(s: &State, at: Place, to: Place) -> Result<(), String> {
    let map = &s.map;
    let Place::Region(r) = at else {
        return Err(format!(
            "RETREAT {}: a naval battle has no retreat (W6.8: a side breaks off and stays)",
            map.place_id(to)
        ));
    };
    let next = match to {
        Place::Region(a) => map.land_adjacent(a, r),
        Place::Sea(k) => map.coastal(r, k),
    };
    if next {
        Ok(())
    } else {
        Err(format!(
            "RETREAT {}: {} is neither next to {} nor a sea on its coast (W6.6: a side retreats to a place next to the battle)",
            map.place_id(to),
            map.place_id(to),
            s.rname(r)
        ))
    }
}

/// W5.8: a cession stands for the rest of the game turn, so a region is ceded to one
/// player a turn: a later CEDE of it to another player does not count.
fn ceded_already(s: &State, r: usize, to: usize, when: &str) -> String {
    format!(
        "{} is ceded to {} {when}, and a cession stands for the rest of the turn (W5.8)",
        s.rname(r),
        s.players[to].id
    )
}

/// What an order's earlier lines in the same submission decide of it (`earlier`: the
/// orders read from them): a region ceded to one player is not ceded to another
/// (W5.8); fleets and cargo disbanded at sea are those the earlier `DISBAND` lines
/// leave (W4.3: they act in written order), and the cargo left must fit the fleets
/// left.
pub fn submission_check(
    s: &State,
    p: usize,
    order: &Order,
    earlier: &[Order],
) -> Result<(), String> {
    match order {
        Order::Cede { region, to } => {
            let before = earlier.iter().find_map(|o| match o {
                Order::Cede { region: r, to: q } if r == region && q != to => Some(*q),
                _ => None,
            });
            match before {
                Some(q) => Err(ceded_already(s, *region, q, "by an earlier line")),
                None => Ok(()),
            }
        }
        Order::Disband {
            units,
            fleets,
            at: Place::Sea(k),
        } => {
            let mut f = *s.fleet(*k, p);
            let mut after = "";
            for o in earlier {
                if let Order::Disband {
                    units: u,
                    fleets: n,
                    at: Place::Sea(x),
                } = o
                {
                    if x == k {
                        f.n = f.n.saturating_sub(*n);
                        f.cargo.sub(u);
                        after = " after your earlier DISBAND lines";
                    }
                }
            }
            if f.n < *fleets || !f.cargo.contains(units) {
                return Err(format!(
                    "you have {} FLT carrying {} in {}{after}",
                    f.n,
                    f.cargo.text(),
                    s.sname(*k)
                ));
            }
            let mut left = f.cargo;
            left.sub(units);
            if left.portage() > (f.n - fleets) * FLEET_PORTAGE {
                return Err(format!(
                    "the cargo left ({}) would not fit the fleets left{after}: disband it in the same line (W4.3)",
                    left.text()
                ));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

pub fn static_check(s: &State, p: usize, order: &Order) -> Result<(), String> {
    match order {
        Order::Give { to, .. } => other_player(s, p, *to, "GIVE to"),
        Order::Peace(q) => other_player(s, p, *q, "PEACE with"),
        Order::DeclareWar(q) => other_player(s, p, *q, "DECLARE WAR on"),
        Order::Attack { player, sea } => {
            other_player(s, p, *player, "ATTACK")?;
            if s.fleet(*sea, p).n == 0 {
                return Err(format!("you have no fleet in {}", s.sname(*sea)));
            }
            Ok(())
        }
        Order::Cede { region, to } => {
            other_player(s, p, *to, "CEDE to")?;
            own(s, p, *region)?;
            match s.cedes.iter().find(|c| c.region == *region && c.to != *to) {
                Some(c) => Err(ceded_already(s, *region, c.to, "this turn")),
                None => Ok(()),
            }
        }
        Order::Build(b) => match b {
            Build::Units { region, .. } | Build::Building { region, .. } => own(s, p, *region),
            Build::Suez { region } => own(s, p, *region),
            Build::Fleet { at: Some(a), .. } => own(s, p, *a),
            Build::Fleet { .. } => Ok(()),
        },
        Order::Develop(r) | Order::Westernize(r) => own(s, p, *r),
        Order::Incite { region, .. } => {
            if s.owns(p, *region) {
                Err(format!("{} is your own region", s.rname(*region)))
            } else {
                Ok(())
            }
        }
        Order::Move { units, from, .. } => {
            let have = s.units(*from, p);
            if !have.contains(units) {
                return Err(format!(
                    "you have {} in {}, not {}",
                    have.text(),
                    s.rname(*from),
                    units.text()
                ));
            }
            Ok(())
        }
        Order::Sail { n, sea, steps } => {
            let have = s.fleet(*sea, p).n;
            if have < *n {
                return Err(format!("you have {have} FLT in {}, not {n}", s.sname(*sea)));
            }
            for step in steps {
                if let SailStep::Attack(q) = step {
                    other_player(s, p, *q, "ATTACK")?;
                }
            }
            Ok(())
        }
        Order::Disband { units, at, .. } => match *at {
            Place::Region(r) => {
                let have = s.units(r, p);
                if !have.contains(units) {
                    return Err(format!(
                        "you have {} in {}, not {}",
                        have.text(),
                        s.rname(r),
                        units.text()
                    ));
                }
                Ok(())
            }
            // At sea: with the earlier lines (`submission_check`).
            Place::Sea(_) => Ok(()),
        },
        // W5.9: a reinforcement fires only from a region land-adjacent to its target;
        // the map does not change, so one from elsewhere could never fire, and the
        // player is told so in the receipt, not first when the target is attacked.
        Order::Reinforce { target, origin, .. } if !s.map.land_adjacent(*origin, *target) => {
            Err(format!(
                "{} is not next to {} by land: no reinforcement can come from there (W5.9)",
                s.rname(*origin),
                s.rname(*target)
            ))
        }
        Order::Battle(b) => match (b.at, b.retreat) {
            (Some(at), Some(to)) => retreat_place(s, at, to),
            _ => Ok(()),
        },
        Order::RemoveSphere { of, .. } => {
            if s.players[*of].eliminated {
                return Err(format!("{} is out of the game", s.players[*of].id));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
