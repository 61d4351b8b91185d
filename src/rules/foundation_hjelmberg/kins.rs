//! Kins and the dynasty board (H5): placing, raising, bump chains, retrieving (with
//! recall, fallback and dividends, H8) and earning kins.

use super::data::{
    dynasty_name, dynasty_space, level_word, space_parts, Action, Data, Effect, CENTER,
};
use super::order::{Bump, Mods};
use super::state::Player;
use super::turn::Ctx;

/// The highest level she may PLACE on in an action (H5.2).
pub fn research_level(data: &Data, p: &Player, action: Action) -> u8 {
    let base = if p.has(6 + action.index()) {
        3
    } else if p.has(action.index()) {
        2
    } else {
        1
    };
    if base < 2 && p.holds(data, Effect::Ascend) {
        2
    } else {
        base
    }
}

/// `PLACE <action> <level>` (H5.2).
pub fn place(ctx: &mut Ctx, seat: u8, space: usize, bump: &[Bump]) -> Result<String, String> {
    let (action, level) = space_parts(space);
    let p = ctx.core.player(seat);
    if p.kins == 0 {
        return Err("no kin in her hand".into());
    }
    let max = research_level(ctx.data, p, action);
    if level > max {
        return Err(format!(
            "{} {} is above her research level in {} ({})",
            action.word(),
            level_word(level),
            action.word(),
            level_word(max)
        ));
    }
    ctx.core.player_mut(seat).kins -= 1;
    let moves = settle(ctx, seat, space, bump);
    Ok(format!("kin to {}{moves}", dynasty_name(space)))
}

/// `RAISE <action> <level>` (H5.3).
pub fn raise(ctx: &mut Ctx, seat: u8, space: usize, bump: &[Bump]) -> Result<String, String> {
    if ctx.core.player(seat).on(space) == 0 {
        return Err(format!("no kin of hers on {}", dynasty_name(space)));
    }
    let up = next_up(space);
    ctx.core.player_mut(seat).dynasty[space] -= 1;
    let moves = settle(ctx, seat, up, bump);
    Ok(format!(
        "{} -> {}{moves}",
        dynasty_name(space),
        dynasty_name(up)
    ))
}

fn next_up(space: usize) -> usize {
    if space == CENTER || space_parts(space).1 == 3 {
        CENTER
    } else {
        space + 1
    }
}

/// A kin arrives on a space; bumps settle at once (H5.4). Returns the bumps as text
/// (empty when none), and reports them as an event.
pub fn settle(ctx: &mut Ctx, seat: u8, space: usize, bump: &[Bump]) -> String {
    let mut moves = Vec::new();
    let mut notes = Vec::new();
    let mut tokens = bump.iter();
    arrive(ctx, seat, space, &mut tokens, &mut moves, &mut notes);
    if moves.is_empty() {
        return String::new();
    }
    let mut text = moves.join("; ");
    if !notes.is_empty() {
        text.push_str(&format!(" ({})", notes.join("; ")));
    }
    let name = ctx.name(seat).to_string();
    ctx.log.event("H5.4", format!("{name} bumps: {text}"));
    format!("; bumps: {text}")
}

fn arrive(
    ctx: &mut Ctx,
    seat: u8,
    space: usize,
    tokens: &mut std::slice::Iter<Bump>,
    moves: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    let p = ctx.core.player_mut(seat);
    p.dynasty[space] += 1;
    if space == CENTER || p.dynasty[space] < 2 {
        return;
    }
    p.dynasty[space] -= 2;
    let (action, level) = space_parts(space);
    let up = next_up(space);
    let token = tokens.next().copied().unwrap_or(Bump::Right(1));
    let (right, steps) = sideways(ctx, seat, token, notes);
    let mut a = action;
    for _ in 0..steps {
        a = if right {
            ctx.data.right[a.index()]
        } else {
            ctx.data.left[a.index()]
        };
    }
    let side = dynasty_space(a, level);
    moves.push(format!(
        "{} -> {}, {}",
        dynasty_name(space),
        dynasty_name(up),
        dynasty_name(side)
    ));
    arrive(ctx, seat, up, tokens, moves, notes);
    arrive(ctx, seat, side, tokens, moves, notes);
}

/// A bump token's direction and steps, using sidestep or glide when it needs one
/// (H5.4); a token whose tile is missing or used counts as one space the same way.
fn sideways(ctx: &mut Ctx, seat: u8, token: Bump, notes: &mut Vec<String>) -> (bool, u8) {
    let data = ctx.data;
    let p = ctx.core.player_mut(seat);
    let (right, steps) = match token {
        Bump::Left(n) => (false, n),
        Bump::Right(n) => (true, n),
        Bump::Stay => (true, 0),
    };
    if steps == 1 {
        return (right, 1);
    }
    let tile = match steps {
        2 => p
            .tile(data, Effect::Sidestep)
            .or_else(|| p.tile(data, Effect::Glide)),
        _ => p.tile(data, Effect::Glide),
    };
    match tile {
        Some(k) => {
            p.use_tile(k);
            notes.push(format!("{} by {}", token.word(), data.tile_name(k)));
            (right, steps)
        }
        None => {
            let as_one = if right { "R" } else { "L" };
            notes.push(format!(
                "{} counts as {as_one}: no {} unused this turn",
                token.word(),
                if steps == 2 {
                    "sidestep or glide"
                } else {
                    "glide"
                }
            ));
            (right, 1)
        }
    }
}

/// A kin leaves a dynasty space as a retrieve (H5.5): to her hand, or by `TO` (recall) or
/// `DOWN` (fallback); a dividend tile of that level pays once a turn (H8). Returns what
/// happened, for the result.
pub fn retrieve(ctx: &mut Ctx, seat: u8, space: usize, mods: &Mods) -> Result<String, String> {
    let data = ctx.data;
    if ctx.core.player(seat).on(space) == 0 {
        return Err(format!("no kin of hers on {}", dynasty_name(space)));
    }
    ctx.core.player_mut(seat).dynasty[space] -= 1;
    let mut parts = Vec::new();
    let mut to_hand = true;
    if let Some(a) = mods.to {
        let target = dynasty_space(a, 1);
        let p = ctx.core.player(seat);
        match p.tile(data, Effect::Recall) {
            Some(k) if p.on(target) == 0 => {
                ctx.core.player_mut(seat).use_tile(k);
                ctx.core.player_mut(seat).dynasty[target] += 1;
                parts.push(format!("kin to {} (recall)", dynasty_name(target)));
                to_hand = false;
            }
            Some(_) => parts.push(format!(
                "TO {}: {} is not empty, kin to her hand",
                a.word(),
                dynasty_name(target)
            )),
            None => parts.push(format!(
                "TO {}: no recall unused this turn, kin to her hand",
                a.word()
            )),
        }
    } else if mods.down {
        match ctx.core.player(seat).tile(data, Effect::Fallback) {
            Some(k) => {
                ctx.core.player_mut(seat).use_tile(k);
                let below = space - 1;
                let moves = settle(ctx, seat, below, &mods.bump);
                parts.push(format!(
                    "kin down to {} (fallback){moves}",
                    dynasty_name(below)
                ));
                to_hand = false;
            }
            None => parts.push("DOWN: no fallback unused this turn, kin to her hand".into()),
        }
    }
    if to_hand {
        ctx.core.player_mut(seat).kins += 1;
    }
    // Dividends (H8): once a turn, on the first retrieve from that level.
    let level = if space == CENTER {
        3
    } else {
        space_parts(space).1
    };
    let kind = data.tile_with(Effect::Dividend).find(|&k| {
        let p = ctx.core.player(seat);
        data.tiles[usize::from(k)].level == level
            && p.colonies[usize::from(k)] > p.used[usize::from(k)]
    });
    if let Some(k) = kind {
        let colours = &data.levels[usize::from(level) - 1];
        let wanted = mods.gain.filter(|c| colours.contains(c));
        let pick = wanted
            .filter(|&c| ctx.core.supply(data, c) > 0)
            .or_else(|| {
                colours
                    .iter()
                    .copied()
                    .find(|&c| ctx.core.supply(data, c) > 0)
            });
        if let Some(c) = pick {
            let p = ctx.core.player_mut(seat);
            p.use_tile(k);
            p.hand[usize::from(c)] += 1;
            let mut note = format!("{}: +1 {}", data.tile_name(k), data.colour_name(c));
            if let Some(g) = mods.gain.filter(|&g| g != c) {
                note.push_str(&format!(" (GAIN {} not possible)", data.colour_name(g)));
            }
            parts.push(note);
        }
    }
    Ok(parts.join("; "))
}

/// H5.6: the 4th, 5th and 6th kins come with the first level-I, II, III actions, in
/// order.
pub fn earn(ctx: &mut Ctx, seat: u8, level: u8) {
    let p = ctx.core.player_mut(seat);
    let due = matches!((level, p.earned), (1, 3) | (2, 4) | (3, 5));
    if due {
        p.earned += 1;
        p.kins += 1;
        let n = p.earned;
        let name = ctx.name(seat).to_string();
        ctx.log.event(
            "H5.6",
            format!(
                "{name} earns her {} kin (a level-{} action)",
                ["4th", "5th", "6th"][usize::from(n - 4)],
                level_word(level)
            ),
        );
    }
}
