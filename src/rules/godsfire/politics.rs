//! The interphase's politics (G7): party changes, revolts, change of ministers,
//! subversion, allegiance losses, economic decline, and systems lost to revolt.

use std::collections::{BTreeMap, BTreeSet};

use super::check::{Checked, Step};
use super::map::{Economy, Party, RegionAt, UnitType};
use super::outcome::Event;
use super::run::Run;
use super::state::NEUTRAL;
use super::syntax::PartyCost;

/// G7.1: `PARTY <region> PAY|LOYALTY`, one die each.
pub fn party_changes(run: &mut Run) {
    let mut tried = BTreeSet::new();
    for e in run.step(Step::Party) {
        let Checked::Party {
            region: at,
            paid_by,
        } = run.entries[e].order
        else {
            continue;
        };
        let p = run.entries[e].power;
        let region = *run.state.region(at);
        if region.allegiance != 2 {
            run.failed(
                e,
                format!(
                    "a party changes only at allegiance 2; {} is at {}",
                    run.name(at),
                    region.allegiance
                ),
            );
            continue;
        }
        if !tried.insert(at) {
            run.failed(e, "one party change a region a turn");
            continue;
        }
        let paid = match paid_by {
            PartyCost::Pay => run.pay_treasury(p, 1).inspect(|_| run.spend_on(at, 1)),
            PartyCost::Loyalty => {
                let l = run.state.powers[p].loyalty.get_mut(region.party);
                if *l <= 1 {
                    Err(format!("national loyalty of {} is already 1", region.party))
                } else {
                    *l -= 1;
                    Ok(format!("national loyalty of {} -> {}", region.party, *l))
                }
            }
        };
        let paid = match paid {
            Ok(paid) => paid,
            Err(why) => {
                run.failed(e, why);
                continue;
            }
        };
        let id = run.name(at);
        let roll = run.roll("G7.1", &id);
        if roll <= 3 {
            run.event(
                Event::new(
                    "G7.1",
                    format!("1d6 = {roll} -> {id} revolts instead of changing party"),
                )
                .region(&id)
                .die("1d6", roll),
            );
            run.done(e, format!("{paid}; 1d6 = {roll}: revolt"));
            run.lower(at, 2, "G7.1", "failed party change");
            continue;
        }
        run.event(
            Event::new(
                "G7.1",
                format!("1d6 = {roll} -> {id} changes party from {}", region.party),
            )
            .region(&id)
            .die("1d6", roll),
        );
        let to = match region.party {
            Party::R | Party::E => Party::M,
            Party::M => {
                let second = run.roll("G7.1", &format!("{id} (M moves to E or R)"));
                let to = if second <= 3 { Party::E } else { Party::R };
                run.event(
                    Event::new(
                        "G7.1",
                        format!("1d6 = {second} -> {id} goes from M to {to} (1-3 E, 4-6 R)"),
                    )
                    .region(&id)
                    .die("1d6", second),
                );
                to
            }
        };
        run.state.region_mut(at).party = to;
        run.event(
            Event::new(
                "G7.1",
                format!("{id} changes party {} -> {to}", region.party),
            )
            .region(&id),
        );
        run.done(
            e,
            format!("{paid}; 1d6 = {roll}: party {} -> {to}", region.party),
        );
    }
}

/// G7.2: at most one of `NEGOTIATE`, `BRIBE`, `POLICE` for each region in revolt.
pub fn revolts(run: &mut Run) {
    let mut handled = BTreeSet::new();
    for e in run.step(Step::Revolt) {
        let order = run.entries[e].order.clone();
        let (Checked::Negotiate(at) | Checked::Bribe(at) | Checked::Police(at)) = order else {
            continue;
        };
        let id = run.name(at);
        if handled.contains(&at) {
            run.failed(e, format!("one attempt a turn on {id}'s revolt"));
            continue;
        }
        if !run.state.region(at).in_revolt() {
            run.failed(e, format!("{id} is not in revolt"));
            continue;
        }
        // An attempt that cannot be made (a bribe to a party that takes none, or with
        // no money in the bank) fails alone (G3) and leaves the region's one attempt.
        let (need, to, prefix) = match order {
            Checked::Negotiate(_) => (2, 3, String::new()),
            Checked::Bribe(_) => {
                if run.state.region(at).party != Party::R {
                    run.failed(
                        e,
                        format!(
                            "only a reactionary (R) revolt takes bribes; {id} is {}",
                            run.state.region(at).party
                        ),
                    );
                    continue;
                }
                match run.pay_bank(at.system, 2) {
                    Ok(paid) => (4, 2, format!("{paid}; ")),
                    Err(why) => {
                        run.failed(e, why);
                        continue;
                    }
                }
            }
            _ => {
                let owner = run.state.owner(at).to_string();
                let pdfs = run.state.units_in_system(&owner, at.system, UnitType::Pdf);
                (pdfs, 2, format!("{pdfs} PDF in the system; "))
            }
        };
        handled.insert(at);
        let roll = run.roll("G7.2", &id);
        if roll <= need {
            run.event(
                Event::new("G7.2", format!("1d6 = {roll} -> {id}: the revolt ends"))
                    .region(&id)
                    .die("1d6", roll),
            );
            run.raise_to(at, to, "G7.2", "revolt ended");
            run.done(
                e,
                format!("{prefix}1d6 = {roll}: revolt ends at allegiance {to}"),
            );
        } else {
            run.event(
                Event::new("G7.2", format!("1d6 = {roll} -> {id}: the revolt goes on"))
                    .region(&id)
                    .die("1d6", roll),
            );
            run.done(
                e,
                format!("{prefix}1d6 = {roll} (needed {need} or less): the revolt goes on"),
            );
        }
    }
}

/// G7.7: `CHANGE MINISTERS`, once a game, before subversion resolves.
pub fn change_ministers(run: &mut Run) {
    for e in run.step(Step::Ministers) {
        let p = run.entries[e].power;
        if run.state.powers[p].ministers_changed {
            run.failed(e, "ministers change once a game, and already did");
            continue;
        }
        run.state.powers[p].ministers_changed = true;
        let id = run.state.powers[p].id.clone();
        let regions: Vec<RegionAt> = run
            .state
            .regions()
            .filter(|&r| run.state.owner(r) == id && !run.state.region(r).in_revolt())
            .collect();
        let mut gained = 0;
        for &at in &regions {
            let a = run.state.region(at).allegiance;
            if a < 5 {
                gained += 1;
            }
            run.raise_to(at, a + 1, "G7.7", "change of ministers");
        }
        let at_most = regions.len() - gained;
        let detail = match (gained, at_most) {
            (1, 0) => "1 region gains 1 allegiance".to_string(),
            (n, 0) => format!("{n} regions gain 1 allegiance"),
            (1, m) => format!("1 region gains 1 allegiance ({m} already at 5)"),
            (n, m) => format!("{n} regions gain 1 allegiance ({m} already at 5)"),
        };
        run.done(e, detail);
    }
}

/// G7.3: stakes without counter-subversion lower allegiance; counters are removed;
/// stakes move down their track.
pub fn subversion(run: &mut Run) {
    let countered: BTreeSet<String> = run
        .state
        .counters
        .iter()
        .map(|c| c.region.to_ascii_lowercase())
        .collect();
    let mut by_region: BTreeMap<RegionAt, Vec<String>> = BTreeMap::new();
    for stake in &run.state.stakes {
        if let Some(at) = run.state.region_at(&stake.region) {
            by_region.entry(at).or_default().push(stake.power.clone());
        }
    }
    for (at, mut powers) in by_region {
        powers.sort_by_key(|p| run.state.rank(p));
        let id = run.name(at);
        if countered.contains(&id.to_ascii_lowercase()) {
            run.event(
                Event::new(
                    "G7.3",
                    format!(
                        "counter-subversion in {id} stops the stakes of {}",
                        powers.join(", ")
                    ),
                )
                .region(id),
            );
        } else {
            run.lower(
                at,
                1,
                "G7.3",
                &format!("subversion by {}", powers.join(", ")),
            );
        }
    }
    if !run.state.counters.is_empty() {
        run.state.counters.clear();
        run.event(Event::new("G7.3", "counter-subversion removed"));
    }
    let mut kept = Vec::new();
    for mut stake in std::mem::take(&mut run.state.stakes) {
        stake.circle = stake.circle.saturating_sub(1);
        if stake.circle == 0 {
            run.event(
                Event::new(
                    "G7.3",
                    format!(
                        "the stake of {} on {} has acted three times and is removed",
                        stake.power, stake.region
                    ),
                )
                .region(stake.region.clone())
                .power(stake.power.clone()),
            );
        } else {
            kept.push(stake);
        }
    }
    run.state.stakes = kept;
}

/// G7.4: losses next to revolts, then jealousy over uneven spending.
pub fn allegiance_losses(run: &mut Run) {
    let revolting_planets: BTreeSet<(usize, usize)> = run
        .state
        .regions()
        .filter(|&r| run.state.region(r).in_revolt())
        .map(|r| (r.system, r.planet))
        .collect();
    let near: Vec<RegionAt> = run
        .state
        .regions()
        .filter(|r| revolting_planets.contains(&(r.system, r.planet)))
        .filter(|&r| !run.state.region(r).in_revolt())
        .collect();
    for at in near {
        run.lower(at, 1, "G7.4", "a region of its planet is in revolt");
    }
    let mut systems: BTreeMap<usize, u32> = BTreeMap::new();
    for (&at, &amount) in &run.spent {
        let most = systems.entry(at.system).or_default();
        *most = (*most).max(amount);
    }
    for (system, most) in systems {
        let regions: Vec<RegionAt> = run.state.system_regions(system).collect();
        for at in regions {
            let spent = run.spent.get(&at).copied().unwrap_or(0);
            let short = most - spent;
            if short > 0 {
                let cause = format!("jealousy: {spent} spent here, {most} on another region");
                run.lower(at, short.min(5) as u8, "G7.4", &cause);
            }
        }
    }
}

/// G7.5: economic decline, one level at most a region a turn, with every cause named.
pub fn decline(run: &mut Run) {
    let mut causes: BTreeMap<RegionAt, Vec<String>> = BTreeMap::new();
    for s in 0..run.state.systems.len() {
        let regions: Vec<RegionAt> = run.state.system_regions(s).collect();
        let of = |run: &Run, level: Economy| -> Vec<RegionAt> {
            regions
                .iter()
                .copied()
                .filter(|&r| run.economy(r) == level)
                .collect()
        };
        let mut a2 = of(run, Economy::A2);
        let mut a1 = of(run, Economy::A1);
        for at in of(run, Economy::I2) {
            if a2.is_empty() {
                causes
                    .entry(at)
                    .or_default()
                    .push("I-2 not fed by an A-2".into());
            } else {
                a2.remove(0);
            }
        }
        for at in of(run, Economy::I1) {
            if !a1.is_empty() {
                a1.remove(0);
            } else if !a2.is_empty() {
                a2.remove(0);
            } else {
                causes
                    .entry(at)
                    .or_default()
                    .push("I-1 not fed by an A-1 or A-2".into());
            }
        }
        for at in regions {
            if run.state.region(at).in_revolt() {
                causes.entry(at).or_default().push("in revolt".into());
            }
            if run.state.enemy_units_in_region(at, &run.index) {
                causes.entry(at).or_default().push("enemy units".into());
            }
        }
    }
    for e in run.step(Step::Demote) {
        if run.is_settled(e) {
            continue;
        }
        let Checked::Demote(at) = run.entries[e].order else {
            continue;
        };
        if run.economy(at) == Economy::S {
            run.failed(e, format!("{} is at S already", run.name(at)));
            continue;
        }
        causes.entry(at).or_default().push("DEMOTE".into());
        run.done(e, "one level lower");
    }
    for (at, why) in causes {
        run.decline(at, "G7.5", &why.join(", "));
    }
}

/// G7.6: systems all of whose regions are in revolt go neutral, or to the one power
/// holding stakes there on 1d6 1–3. Returns nothing; owners out of the game are
/// found by [`super::end::eliminate`].
pub fn systems_in_revolt(run: &mut Run) {
    for s in 0..run.state.systems.len() {
        let regions: Vec<RegionAt> = run.state.system_regions(s).collect();
        if regions.is_empty() || !regions.iter().all(|&r| run.state.region(r).in_revolt()) {
            continue;
        }
        let owner = run.state.systems[s].owner.clone();
        let name = run.state.systems[s].name.clone();
        let mut holders: Vec<String> = run
            .state
            .stakes
            .iter()
            .filter(|k| {
                run.state
                    .region_at(&k.region)
                    .is_some_and(|r| r.system == s)
            })
            .map(|k| k.power.clone())
            .filter(|p| *p != owner)
            .collect();
        holders.sort();
        holders.dedup();
        let mut new_owner = NEUTRAL.to_string();
        if let [only] = holders.as_slice() {
            let roll = run.roll("G7.6", &name);
            let text = if roll <= 3 {
                new_owner = only.clone();
                format!("1d6 = {roll} -> {name}, all in revolt, goes to {only}, the only power with stakes there")
            } else {
                format!("1d6 = {roll} -> {name}, all in revolt, does not go to {only}")
            };
            run.event(Event::new("G7.6", text).system(&name).die("1d6", roll));
        }
        if owner == new_owner {
            continue;
        }
        for &at in &regions {
            run.state.region_mut(at).allegiance = 2;
        }
        if new_owner == NEUTRAL {
            super::end::go_neutral(run, s);
        } else {
            run.state.systems[s].owner = new_owner.clone();
        }
        // A power holds no stakes on its own regions.
        let names: BTreeSet<String> = regions
            .iter()
            .map(|&r| run.name(r).to_ascii_lowercase())
            .collect();
        run.state
            .stakes
            .retain(|k| !(k.power == new_owner && names.contains(&k.region.to_ascii_lowercase())));
        let text = if new_owner == NEUTRAL {
            format!(
                "{name}: every region in revolt; it goes neutral (regions at allegiance 2, 1 PDF)"
            )
        } else {
            format!("{name} passes from {owner} to {new_owner} (regions at allegiance 2)")
        };
        run.event(Event::new("G7.6", text).system(name).power(new_owner));
        run.index = super::state::Index::new(&run.state);
    }
}
