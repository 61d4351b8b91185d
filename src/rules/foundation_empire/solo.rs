//! The solo game's Imperium (R10.2): the judge writes its movement orders with dice.

use super::board::{PowerId, Sector};
use super::outcome::Roll;
use super::position::State;
use super::resolve::Act;
use crate::dice::Dice;

/// The kinds of target of the action table, in their cyclic order (R10.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    FoundationOwned,
    ImperiumOwned,
    Unowned,
}

impl Target {
    fn next(self) -> Target {
        match self {
            Target::FoundationOwned => Target::ImperiumOwned,
            Target::ImperiumOwned => Target::Unowned,
            Target::Unowned => Target::FoundationOwned,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Target::FoundationOwned => "the nearest Foundation-owned system",
            Target::ImperiumOwned => "the nearest Imperium-owned system",
            Target::Unowned => "the nearest system owned by nobody",
        }
    }
}

/// The action table: (moving fleets, target) for a roll of 1d6.
fn table(roll: u8) -> (usize, Target) {
    match roll {
        1 | 2 => (1, Target::FoundationOwned),
        3 | 4 => (2, Target::ImperiumOwned),
        _ => (3, Target::Unowned),
    }
}

/// The Imperium's orders for this movement phase, as (fleet index, act), and every
/// roll made, appended to `rolls`.
pub fn imperium_orders(
    state: &State,
    imperium: PowerId,
    dice: &mut Dice,
    rolls: &mut Vec<Roll>,
) -> Vec<(usize, Act)> {
    let board = &state.board;
    let foundation = state.human();
    let mut orders = Vec::new();
    let mut free = Vec::new();
    // Fleets occupying a system not yet the Imperium's hold (fleets are in reading order).
    for (i, f) in state.fleets.iter().enumerate() {
        if f.power != imperium {
            continue;
        }
        let occupying = board
            .system_at(f.at)
            .is_some_and(|s| state.owners[s.0 as usize] != Some(imperium))
            && f.stay < state.options.occupation_turns;
        if occupying {
            orders.push((i, Act::Hold));
        } else {
            free.push(i);
        }
    }
    let targets_of = |kind: Target| -> Vec<Sector> {
        board
            .systems()
            .filter(|(id, _)| {
                let owner = state.owners[id.0 as usize];
                match kind {
                    Target::FoundationOwned => owner.is_some() && owner == foundation,
                    Target::ImperiumOwned => owner == Some(imperium),
                    Target::Unowned => owner.is_none(),
                }
            })
            .map(|(_, s)| s.at)
            .collect()
    };
    let distance = |from: Sector, targets: &[Sector]| {
        targets
            .iter()
            .map(|&t| board.distance(from, t))
            .min()
            .unwrap_or(u32::MAX)
    };
    // Movers with the targets of their group.
    let mut movers: Vec<(usize, Vec<Sector>)> = Vec::new();
    for (g, group) in free.chunks(3).enumerate() {
        let roll = dice.d6();
        let (moving, first) = table(roll);
        let mut kind = first;
        let mut targets = targets_of(kind);
        for _ in 0..2 {
            if !targets.is_empty() {
                break;
            }
            kind = kind.next();
            targets = targets_of(kind);
        }
        let moving = moving.min(group.len());
        let mut ranked: Vec<usize> = group.to_vec();
        ranked.sort_by_key(|&i| (distance(state.fleets[i].at, &targets), state.fleets[i].at));
        let supporting = group.len() - moving;
        for &i in &ranked[moving..] {
            orders.push((i, Act::Support(None)));
        }
        rolls.push(Roll {
            group: g as u32 + 1,
            roll,
            fleets: group.iter().map(|&i| state.fleets[i].at).collect(),
            action: format!(
                "{moving} moving toward {}, {supporting} supporting",
                kind.describe()
            ),
        });
        for &i in &ranked[..moving] {
            movers.push((i, targets.clone()));
        }
    }
    // All movers in reading order, each one step nearer its group's targets.
    movers.sort_by_key(|(i, _)| state.fleets[*i].at);
    let mut chosen: Vec<Sector> = Vec::new();
    for (i, targets) in movers {
        let at = state.fleets[i].at;
        let here = distance(at, &targets);
        let step = board
            .neighbours(at)
            .into_iter()
            .filter(|s| !holds_imperium(state, imperium, *s) && !chosen.contains(s))
            .min_by_key(|&s| (distance(s, &targets), s))
            .filter(|&s| distance(s, &targets) < here);
        match step {
            Some(to) => {
                chosen.push(to);
                orders.push((i, Act::Move(to)));
            }
            None => orders.push((i, Act::Hold)),
        }
    }
    orders
}

fn holds_imperium(state: &State, imperium: PowerId, sector: Sector) -> bool {
    state
        .fleets
        .binary_search_by_key(&sector, |f| f.at)
        .is_ok_and(|k| state.fleets[k].power == imperium)
}
