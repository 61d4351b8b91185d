//! Goals and victory (H9).

use super::data::{bits, dynasty_space, Action, Data, Goal, GOAL_SPACE, PERSONAL};
use super::state::{Core, Phase, NONE};
use super::turn::Ctx;

/// Whether `goal` (a goal index) is fulfilled for a seat (H9.1).
pub fn fulfilled(data: &Data, core: &Core, seat: u8, goal: u8) -> bool {
    let p = core.player(seat);
    let reach = core.reach(data, seat, 0);
    match data.goals[usize::from(goal)] {
        Goal::OuterShips => data.levels[0].iter().all(|&c| {
            bits(reach)
                .filter(|&pl| {
                    data.planet_level[usize::from(pl)] == 1 && core.planet_colour(data, pl) == c
                })
                .count()
                >= 2
        }),
        Goal::Colonies => (1..=3).all(|l| {
            data.tiles
                .iter()
                .enumerate()
                .any(|(k, t)| t.level == l && p.colonies[k] > 0)
        }),
        Goal::Black3 => p.hand[usize::from(data.black)] >= 3,
        Goal::Variety => p.hand.iter().filter(|&&n| n > 0).count() >= 9,
        Goal::ResearchIv => (p.research >> GOAL_SPACE & 0b111).count_ones() >= 2,
        Goal::Empire2 => u32::from(p.due) + u32::from(p.new) >= 2,
        Goal::AllActions => {
            (1..=3).any(|l| Action::ALL.iter().all(|&a| p.on(dynasty_space(a, l)) > 0))
        }
        Goal::AllLevels => Action::ALL
            .iter()
            .any(|&a| (1..=3).all(|l| p.on(dynasty_space(a, l)) > 0)),
        Goal::MiddleShips => (0..data.planets.len() as u8)
            .filter(|&pl| data.planet_level[usize::from(pl)] == 2)
            .all(|pl| reach & (1 << pl) != 0),
    }
}

/// Her goals (H9.2): the tiles on the GOAL spaces she researched, then her personal goal
/// if researched. Each as (GOAL number, 0 for personal; goal index).
pub fn goals_of(core: &Core, seat: u8) -> Vec<(u8, u8)> {
    let p = core.player(seat);
    let mut out: Vec<(u8, u8)> = (0..3u8)
        .filter(|&n| p.has(GOAL_SPACE + usize::from(n)) && core.goals[usize::from(n)] != NONE)
        .map(|n| (n + 1, core.goals[usize::from(n)]))
        .collect();
    if p.has(PERSONAL) && p.personal != NONE {
        out.push((0, p.personal));
    }
    out
}

/// H9.3: if one of the active player's goals is fulfilled she wins at once and the goal
/// is revealed to all.
pub fn victory(ctx: &mut Ctx, seat: u8) -> bool {
    let Some((n, g)) = goals_of(&ctx.core, seat)
        .into_iter()
        .find(|&(_, g)| fulfilled(ctx.data, &ctx.core, seat, g))
    else {
        return false;
    };
    ctx.core.winner = seat;
    ctx.core.phase = Phase::Over;
    let which = if n == 0 {
        ctx.core.personal_revealed |= 1 << seat;
        "her personal goal".to_string()
    } else {
        ctx.core.revealed |= 1 << (n - 1);
        format!("GOAL {n}")
    };
    let name = ctx.name(seat).to_string();
    ctx.log.event(
        "H9.3",
        format!(
            "{name} wins: {which} ({}) is fulfilled, revealed to all; the game is over",
            ctx.data.goal_name(g)
        ),
    );
    true
}
