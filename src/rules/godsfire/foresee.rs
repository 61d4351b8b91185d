//! What a receipt can know for certain about the interphase before it is adjudicated:
//! whether the steps before an order (G6–G7) could change what the order needs. Each
//! answer errs toward "it could", so a receipt never refuses an order that might still
//! be carried out; the adjudication decides.

use super::map::RegionAt;
use super::placement::WAR_REACH;
use super::state::State;

/// Why a `SUBVERT` by `power` on `at` is known to fail at G8.1, if it is: the region's
/// owner is at war with the power (either side's list), the power has no system within
/// 3 of the target's to pay from, and nothing before G8.1 can change that (G7.6 gives
/// the power no system within 3, and neither the target's system nor its owner's
/// National Government's system can go over to another owner).
pub fn subvert_fails(state: &State, power: usize, at: RegionAt) -> Option<String> {
    let me = &state.powers[power].id;
    let owner = state.owner(at);
    let them = state.power(owner)?;
    if !state.at_war_either(me, &them.id) {
        return None;
    }
    let target = state.systems[at.system].at;
    let near = |s: usize| state.systems[s].at.distance(target) <= WAR_REACH;
    if (0..state.systems.len()).any(|s| near(s) && &state.systems[s].owner == me) {
        return None;
    }
    // A system within reach that the power could take at G7.6, as the only power
    // holding stakes there once G7.3 has removed those on their last circle.
    if (0..state.systems.len()).any(|s| near(s) && may_fall_to(state, s, me)) {
        return None;
    }
    // The target's owner could change at G7.6 (the system going neutral or to the one
    // power with stakes there), or the owner be put out with its NG's system (G10.1):
    // the stake might then be paid from the treasury.
    let ng = state.system_index(&them.ng);
    if may_all_revolt(state, at.system)
        || ng.is_none_or(|s| state.systems[s].owner != them.id || may_all_revolt(state, s))
    {
        return None;
    }
    Some(format!(
        "you are at war with {owner}, so a stake on {} is paid from the bank of one of \
         your systems at most {WAR_REACH} from {} (G8.1), and you have none there (nor \
         can you gain one before the stakes are placed, G7.6)",
        state.region_name(at),
        state.systems[at.system].name
    ))
}

/// Whether system `s` could pass to `me` at G7.6: `me` is the only power other than
/// its owner with a stake there still on its track after G7.3, and every region of it
/// could be in revolt.
fn may_fall_to(state: &State, s: usize, me: &str) -> bool {
    let owner = &state.systems[s].owner;
    if owner == me {
        return false;
    }
    let mut holders = state
        .stakes
        .iter()
        .filter(|k| k.circle >= 2 && &k.power != owner)
        .filter(|k| state.region_at(&k.region).is_some_and(|r| r.system == s))
        .map(|k| k.power.as_str());
    let Some(first) = holders.next() else {
        return false;
    };
    first == me && holders.all(|h| h == me) && may_all_revolt(state, s)
}

/// Whether every region of system `s` could be in revolt at G7.6, whatever the orders
/// and dice. Before G7.6 a region loses allegiance only to extortion (G6.1), a missed
/// instalment (G6.2), a failed party change at allegiance 2 (G7.1, −2), a stake
/// (G7.3), a revolt on its planet (G7.4) and jealousy (G7.4, at most 5, enough for any
/// region). Jealousy spares the region the most is spent on, so with spending one
/// region at least must fall without it; without spending, all must. A neutral system
/// has no orders: no extortion, party change or spending.
pub fn may_all_revolt(state: &State, s: usize) -> bool {
    let regions: Vec<RegionAt> = state.system_regions(s).collect();
    if regions.is_empty() {
        return false;
    }
    let owner = state.power(&state.systems[s].owner).filter(|p| !p.out);
    let missed = owner.is_some_and(|p| {
        p.loans
            .iter()
            .fold(0u32, |a, l| a.saturating_add(l.instalment))
            > p.treasury
    });
    let falls_alone = |at: RegionAt| {
        let a = state.region(at).allegiance;
        if a == 0 {
            return true;
        }
        let id = state.region_name(at);
        let ordered = u8::from(owner.is_some());
        let low = a.saturating_sub(ordered + u8::from(missed));
        // Allegiance 2 at G7.1, reached by extortion and a missed instalment, or by one
        // LOYALTY (G6.5): a failed party change puts it in revolt.
        if owner.is_some() && low <= 2 && 2 <= a.saturating_add(1).min(5) {
            return true;
        }
        let staked = state
            .stakes
            .iter()
            .any(|k| k.region.eq_ignore_ascii_case(&id))
            && !state
                .counters
                .iter()
                .any(|c| c.region.eq_ignore_ascii_case(&id));
        let planet = state.systems[s].planets[at.planet].len() > 1;
        low <= u8::from(staked) + u8::from(planet)
    };
    if owner.is_none() {
        return regions.iter().all(|&r| falls_alone(r));
    }
    regions.iter().all(|&r| state.region(r).allegiance == 0)
        || regions
            .iter()
            .any(|&r| state.region(r).allegiance > 0 && falls_alone(r))
}
