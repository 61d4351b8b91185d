//! Convoy routes (DATC 6.F, 6.G): whether a chain of fleets at sea leads from one coast
//! to another, and which fleets such a route needs.

use super::map::{bits, Kind, Map, Prov};
use super::state::State;

/// Whether a chain of fleets at sea (in `fleets`, a set of sea provinces) leads from
/// province `from` to province `to`.
pub fn route_exists(map: &Map, fleets: u128, from: Prov, to: Prov) -> bool {
    chain_reaches(map.seas_around(from), map.seas_around(to), fleets, |s| {
        map.fleet_prov[s as usize]
    })
}

/// Whether a chain of `fleets` (a set of sea provinces) leads from a sea in `start` to
/// one in `goal`, a fleet passing on to the provinces `next` gives for its sea.
pub fn chain_reaches(start: u128, goal: u128, fleets: u128, next: impl Fn(u8) -> u128) -> bool {
    let mut frontier = start & fleets;
    let mut seen = frontier;
    while frontier != 0 {
        if frontier & goal != 0 {
            return true;
        }
        let mut reached = 0;
        for s in bits(frontier) {
            reached |= next(s) & fleets;
        }
        frontier = reached & !seen;
        seen |= reached;
    }
    false
}

/// The sea provinces that lie on some convoy route from `from` to `to` through
/// `fleets` in which every fleet is needed (no shortcut: DATC 6.G.19).
pub fn necessary_fleets(map: &Map, fleets: u128, from: Prov, to: Prov) -> u128 {
    #[allow(clippy::too_many_arguments)]
    fn walk(
        map: &Map,
        fleets: u128,
        start_adj: u128,
        goal_adj: u128,
        path: u128,
        forbidden: u128,
        last: Prov,
        out: &mut u128,
    ) {
        if goal_adj & (1u128 << last) != 0 {
            *out |= path;
            return;
        }
        let around = map.fleet_prov[last as usize] & map.seas;
        for y in bits(around & fleets & !path & !forbidden & !start_adj) {
            walk(
                map,
                fleets,
                start_adj,
                goal_adj,
                path | (1u128 << y),
                forbidden | around,
                y,
                out,
            );
        }
    }
    let start_adj = map.seas_around(from);
    let goal_adj = map.seas_around(to);
    let mut out = 0;
    for s in bits(start_adj & fleets) {
        walk(map, fleets, start_adj, goal_adj, 1u128 << s, 0, s, &mut out);
    }
    out
}

/// The sea provinces holding a fleet.
pub fn fleets_at_sea(state: &State) -> u128 {
    let map = state.map();
    state
        .units
        .iter()
        .filter(|u| u.kind == Kind::Fleet && map.is_sea(map.prov_of(u.loc)))
        .fold(0, |s, u| s | (1u128 << map.prov_of(u.loc)))
}
