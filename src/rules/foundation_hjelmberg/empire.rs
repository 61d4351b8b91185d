//! The Empire (H7): its ships move at the end of the Empire kin holder's turn, players
//! hit battle out of turn or lose their ships, the kin passes on, and taken ships come
//! back one a turn.

use super::data::{bits, dynasty_name, dynasty_space, Action, Effect, CENTER};
use super::kins;
use super::outcome::Outcome;
use super::turn::{Ctx, Lost};

/// H7.1–H7.3, at the end of the Empire kin holder's turn.
pub fn end_of_turn(ctx: &mut Ctx, seat: u8) {
    let d = ctx.data;
    // H7.1: every Empire ship one gate clockwise.
    let before = ctx.core.empire;
    let mut after = 0u64;
    let mut moves = Vec::new();
    for g in bits(before) {
        let to = d.clockwise[usize::from(g)];
        after |= 1 << to;
        moves.push(format!("{}->{}", d.gate_name(g), d.gate_name(to)));
    }
    ctx.core.empire = after;
    if !moves.is_empty() {
        ctx.log
            .event("H7.1", format!("Empire ships move: {}", moves.join(" ")));
    }
    collisions(ctx, seat);
    // H7.3: the kin to the player to the right (the one seated before).
    let n = ctx.core.seats;
    let to = (seat + n - 1) % n;
    ctx.core.empire_kin = to;
    let (from_name, to_name) = (ctx.name(seat).to_string(), ctx.name(to).to_string());
    ctx.log.event(
        "H7.3",
        format!("the Empire kin passes from {from_name} to {to_name}"),
    );
}

/// H7.2: each gate where an Empire ship now meets players' ships, at the end of
/// `turn`'s turn.
pub fn collisions(ctx: &mut Ctx, turn: u8) {
    let d = ctx.data;
    for g in bits(ctx.core.empire) {
        let gn = d.gate_name(g).to_string();
        let ring = d.ring[usize::from(g)];
        let here: Vec<u8> = ctx.core.ships_at(g).collect();
        for s in here {
            let name = ctx.name(s).to_string();
            if ctx.core.empire & (1 << g) == 0 {
                break; // taken by an earlier player: the gate is safe
            }
            let p = *ctx.core.player(s);
            let space = p.battle.then(|| {
                (ring + 1..=3)
                    .map(|l| dynasty_space(Action::Battle, l))
                    .chain([CENTER])
                    .find(|&sp| p.on(sp) > 0)
            });
            if let Some(Some(sp)) = space {
                let pm = ctx.core.player_mut(s);
                pm.dynasty[sp] -= 1;
                pm.kins += 1;
                pm.new += 1;
                ctx.core.empire &= !(1 << g);
                ctx.log.event(
                    "H7.2",
                    format!(
                        "{name} battles out of turn at {gn} from {}: takes the Empire ship",
                        dynasty_name(sp)
                    ),
                );
                let level = if sp == CENTER {
                    3
                } else {
                    super::data::space_parts(sp).1
                };
                kins::earn(ctx, s, level);
            } else if p.holds(d, Effect::Cloak) {
                ctx.log.event(
                    "H7.2",
                    format!("{name}'s ship on {gn} stays beside the Empire ship (cloak)"),
                );
            } else {
                ctx.core.player_mut(s).ships &= !(1 << g);
                let why = if p.battle {
                    "no kin to battle with"
                } else {
                    "she yields"
                };
                ctx.lost.push(Lost {
                    seat: s,
                    gate: g,
                    turn,
                    why,
                });
                ctx.log.event(
                    "H7.2",
                    format!("{name}'s ship on {gn} returns to her supply ({why})"),
                );
            }
        }
    }
}

/// The gates an Empire ship may be returned to (H7.4), canonical order.
pub fn legal_returns(ctx: &Ctx) -> u64 {
    let d = ctx.data;
    let mut mask = 0u64;
    for ring in 0..3 {
        let on = ctx.core.empire_in_ring(d, ring);
        match on.as_slice() {
            [] => {
                for &g in &d.rings[ring] {
                    mask |= 1 << g;
                }
            }
            [one] => mask |= 1 << d.opposite[usize::from(*one)],
            _ => {}
        }
    }
    mask
}

/// H7.4: with a ship due she returns one, to the first legal gate of her `RETURN`
/// lines, else the first legal gate. Gives each `RETURN` line's outcome.
pub fn return_ship(ctx: &mut Ctx, seat: u8, prefs: &[(usize, u8)]) -> Vec<(Outcome, String)> {
    let d = ctx.data;
    let name = ctx.name(seat).to_string();
    if ctx.core.player(seat).due == 0 {
        return prefs
            .iter()
            .map(|_| (Outcome::Unused, "no Empire ship due".to_string()))
            .collect();
    }
    let legal = legal_returns(ctx);
    let mut out = Vec::new();
    let mut chosen = None;
    for &(_, g) in prefs {
        if chosen.is_some() {
            out.push((Outcome::Unused, "a ship was returned already".into()));
        } else if legal & (1 << g) != 0 {
            chosen = Some(g);
            out.push((
                Outcome::Done,
                format!("Empire ship returned to {}", d.gate_name(g)),
            ));
        } else {
            out.push((Outcome::Failed, why_not(ctx, g)));
        }
    }
    let g = match chosen.or_else(|| bits(legal).next()) {
        Some(g) => g,
        None => return out, // cannot happen with at most 6 Empire ships
    };
    ctx.core.player_mut(seat).due -= 1;
    ctx.core.empire |= 1 << g;
    let how = if chosen.is_some() {
        "as she asked"
    } else {
        "the first legal gate"
    };
    ctx.log.event(
        "H7.4",
        format!(
            "{name} returns an Empire ship to {} ({how})",
            d.gate_name(g)
        ),
    );
    out
}

fn why_not(ctx: &Ctx, g: u8) -> String {
    let d = ctx.data;
    let ring = usize::from(d.ring[usize::from(g)]);
    let on = ctx.core.empire_in_ring(d, ring);
    let ring_name = ["A", "B", "C"][ring];
    match on.as_slice() {
        [one] => format!(
            "not legal: the ship must go opposite the Empire ship on {} ({})",
            d.gate_name(*one),
            d.gate_name(d.opposite[usize::from(*one)])
        ),
        _ => format!("not legal: ring {ring_name} holds 2 Empire ships"),
    }
}
