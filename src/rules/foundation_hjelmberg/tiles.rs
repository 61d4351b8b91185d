//! Colony tiles taken (H8): the tile joins her colonies and its once-effect happens:
//! riches, kins, draft (with its draw, H11.1), reserve markers, oracle and prophecy.
//! The per-turn and lasting effects are applied where they change an order (kins,
//! actions, the Empire).

use super::data::{Effect, Use};
use super::order::Mods;
use super::outcome::Draw;
use super::receipt::AT_ADJUDICATION;
use super::state::NONE;
use super::turn::Ctx;

const PILES: [&str; 3] = ["colony1", "colony2", "colony3"];

/// She takes colony tile `tile` from `planet`; returns what it did.
pub fn take(ctx: &mut Ctx, seat: u8, tile: u8, planet: u8, mods: &Mods, depth: u8) -> String {
    let d = ctx.data;
    let kind = &d.tiles[usize::from(tile)];
    let tn = kind.id.clone();
    if kind.effect == Effect::Draft {
        return draft(ctx, seat, tile, planet, mods, depth);
    }
    ctx.core.player_mut(seat).colonies[usize::from(tile)] += 1;
    let what = match kind.effect {
        Effect::Riches => {
            let c = ctx.core.planet_colour(d, planet);
            let n = ctx.core.supply(d, c).min(3) as u8;
            ctx.core.player_mut(seat).hand[usize::from(c)] += n;
            format!("+{n} {} from the supply", d.colour_name(c))
        }
        Effect::Kin => {
            let n = kind.level.min(ctx.core.neutral_left());
            let p = ctx.core.player_mut(seat);
            p.neutral += n;
            p.kins += n;
            format!("+{n} neutral kin(s) to her hand")
        }
        Effect::Reserve => {
            ctx.core.player_mut(seat).reserve += 3;
            "3 reserve markers".into()
        }
        Effect::Oracle => peek(ctx, seat, mods),
        Effect::Prophecy => {
            let seen = peek(ctx, seat, mods);
            format!("{seen}; {}", personal(ctx, seat))
        }
        _ => match kind.use_ {
            Use::Turn => "usable once a turn".into(),
            _ => "in effect from now on".into(),
        },
    };
    format!("took {tn} ({what})")
}

/// Oracle and prophecy: see one goal tile, `PEEK n` or the lowest not seen yet.
fn peek(ctx: &mut Ctx, seat: u8, mods: &Mods) -> String {
    let d = ctx.data;
    let seen = ctx.core.player(seat).seen;
    let lowest = (0..3u8).find(|n| seen & (1 << n) == 0);
    let mut note = String::new();
    let n = match mods.peek {
        Some(n) if seen & (1 << (n - 1)) == 0 => Some(n - 1),
        Some(n) => {
            note = format!(" (GOAL {n} seen already)");
            lowest
        }
        None => lowest,
    };
    let Some(n) = n else {
        return format!("every goal tile seen already{note}");
    };
    ctx.core.player_mut(seat).seen |= 1 << n;
    let name = ctx.name(seat).to_string();
    let tile = ctx.core.goals[usize::from(n)];
    if !ctx.dry {
        ctx.log.secret_event(
            "H8",
            format!("{name} sees the goal tile on GOAL {}", n + 1),
            vec![seat],
            format!(
                "{name} sees the goal tile on GOAL {}: {}",
                n + 1,
                d.goal_name(tile)
            ),
        );
    }
    format!("sees the goal tile on GOAL {}{note}", n + 1)
}

/// Prophecy: her personal goal from the goal pile (H11.1); the draw is hers alone.
fn personal(ctx: &mut Ctx, seat: u8) -> String {
    let d = ctx.data;
    if ctx.core.player(seat).personal != NONE {
        return "she has a personal goal already".into();
    }
    if ctx.dry {
        return format!("draws a personal goal {AT_ADJUDICATION}");
    }
    let counts: Vec<u8> = (0..d.goals.len())
        .map(|g| u8::from(ctx.core.goal_pile & (1 << g) != 0))
        .collect();
    let Some(g) = ctx.draws.draw(&counts, |k| d.goal_ids[k].clone(), "goals") else {
        return "the goal pile is empty: no personal goal".into();
    };
    ctx.core.goal_pile &= !(1 << g);
    ctx.core.player_mut(seat).personal = g as u8;
    let name = ctx.name(seat).to_string();
    ctx.log.draws.push(Draw {
        step: "H8",
        pile: "goals",
        drew: d.goal_ids[g].clone(),
        for_: name.clone(),
        to: Some(vec![seat]),
    });
    ctx.log.secret_event(
        "H11.1",
        format!("prophecy ({name}): drew a personal goal from the goal pile"),
        vec![seat],
        format!(
            "prophecy ({name}): drew the personal goal {}",
            d.goal_ids[g]
        ),
    );
    "drew a personal goal".into()
}

/// Draft: two tiles drawn from the pile of its level; the first drawn named by `PICK`
/// is kept (else the first drawn in tile order) and takes effect as if just colonized;
/// the draft tile and the other one are discarded.
fn draft(ctx: &mut Ctx, seat: u8, tile: u8, planet: u8, mods: &Mods, depth: u8) -> String {
    let d = ctx.data;
    let level = d.tiles[usize::from(tile)].level;
    let pile = usize::from(level) - 1;
    let tn = d.tile_name(tile).to_string();
    ctx.core.discard[usize::from(tile)] += 1;
    if ctx.dry {
        return format!(
            "took {tn}: 2 tiles drawn from {} {AT_ADJUDICATION}",
            PILES[pile]
        );
    }
    let name = ctx.name(seat).to_string();
    let mut drawn: Vec<u8> = Vec::new();
    for _ in 0..2 {
        let counts = ctx.core.piles[pile];
        let Some(k) = ctx.draws.draw(
            &counts[..d.tiles.len()],
            |k| d.tiles[k].id.clone(),
            PILES[pile],
        ) else {
            break;
        };
        ctx.core.piles[pile][k] -= 1;
        drawn.push(k as u8);
        ctx.log.draws.push(Draw {
            step: "H8",
            pile: PILES[pile],
            drew: d.tiles[k].id.clone(),
            for_: name.clone(),
            to: None,
        });
    }
    let names: Vec<&str> = drawn.iter().map(|&k| d.tile_name(k)).collect();
    if drawn.is_empty() {
        ctx.log.event(
            "H11.1",
            format!(
                "{tn} ({name}, {}): the pile {} is empty",
                d.planet_name(planet),
                PILES[pile]
            ),
        );
        return format!("took {tn}: {} is empty, nothing drawn", PILES[pile]);
    }
    // The first drawn that PICK names, else the first drawn in tile order.
    let keep = drawn
        .iter()
        .copied()
        .find(|t| mods.pick.contains(t))
        .unwrap_or_else(|| *drawn.iter().min().expect("not empty"));
    let mut discarded = drawn.clone();
    let at = discarded.iter().position(|&t| t == keep).expect("drawn");
    discarded.remove(at);
    for &t in &discarded {
        ctx.core.discard[usize::from(t)] += 1;
    }
    ctx.log.event(
        "H11.1",
        format!(
            "{tn} ({name}, {}): drew {}; kept {}",
            d.planet_name(planet),
            names.join(", "),
            d.tile_name(keep)
        ),
    );
    let effect = if depth < 4 {
        take(ctx, seat, keep, planet, mods, depth + 1)
    } else {
        ctx.core.player_mut(seat).colonies[usize::from(keep)] += 1;
        format!("took {}", d.tile_name(keep))
    };
    format!(
        "{tn}: drew {}, kept {}; {effect}",
        names.join(", "),
        d.tile_name(keep)
    )
}
