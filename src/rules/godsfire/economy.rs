//! The interphase's economy (G6): tax, loans, transfers, purchases, loyalty and
//! economic growth, in that order.

use std::collections::{BTreeSet, HashMap};

use super::check::{Checked, Source, Step};
use super::map::{RegionAt, Units};
use super::outcome::Event;
use super::run::Run;
use super::state::{Loan, Purchase, Transit};

/// G6.1: every taxable region pays into its system's bank, plus 1 a planet; then the
/// `EXTORT` orders.
pub fn tax(run: &mut Run) {
    let mut taxed = BTreeSet::new();
    for s in 0..run.state.systems.len() {
        let owner = run.state.systems[s].owner.clone();
        if run.state.power(&owner).is_none_or(|p| p.out) {
            continue;
        }
        let mut total = 0;
        let mut planets = 0;
        for p in 0..run.state.systems[s].planets.len() {
            let mut any = false;
            for r in 0..run.state.systems[s].planets[p].len() {
                let at = RegionAt {
                    system: s,
                    planet: p,
                    region: r,
                };
                let region = run.state.region(at);
                if region.in_revolt() || run.state.enemy_units_in_region(at, &run.index) {
                    continue;
                }
                any = true;
                taxed.insert(at);
                total += region.economy.tax();
            }
            if any {
                planets += 1;
                total += 1;
            }
        }
        if total > 0 {
            let system = &mut run.state.systems[s];
            system.bank = system.bank.saturating_add(total);
            let text = format!(
                "{} pays {total} in tax into its bank ({planets} planet{} paying; bank now {})",
                system.name,
                if planets == 1 { "" } else { "s" },
                system.bank
            );
            let name = system.name.clone();
            run.event(Event::new("G6.1", text).system(name).power(owner));
        }
    }
    let mut extorted = BTreeSet::new();
    for e in run.step(Step::Extort) {
        let Checked::Extort(at) = run.entries[e].order else {
            continue;
        };
        if !taxed.contains(&at) {
            run.failed(e, format!("{} paid no tax this turn", run.name(at)));
            continue;
        }
        if !extorted.insert(at) {
            run.failed(e, "one extortion a region a turn");
            continue;
        }
        run.state.systems[at.system].bank = run.state.systems[at.system].bank.saturating_add(1);
        let detail = format!(
            "1 more into the bank of {}",
            run.state.systems[at.system].name
        );
        run.done(e, detail);
        run.lower(at, 1, "G6.1", "extortion");
    }
}

/// G6.2: instalments due, defaults, then `BORROW`.
pub fn loans(run: &mut Run) {
    let mut defaulted = vec![false; run.state.powers.len()];
    let demotes: Vec<(usize, RegionAt, usize)> = run
        .step(Step::Demote)
        .into_iter()
        .filter_map(|e| match run.entries[e].order {
            Checked::Demote(at) => Some((run.entries[e].power, at, e)),
            _ => None,
        })
        .collect();
    for (p, defaulted) in defaulted.iter_mut().enumerate() {
        if run.state.powers[p].out || run.state.powers[p].loans.is_empty() {
            continue;
        }
        let due = run.state.powers[p]
            .loans
            .iter()
            .fold(0u32, |a, l| a.saturating_add(l.instalment));
        let power = &mut run.state.powers[p];
        let paid = due.min(power.treasury);
        power.treasury -= paid;
        for loan in &mut power.loans {
            loan.left = loan.left.saturating_sub(1);
        }
        power.loans.retain(|l| l.left > 0);
        let id = power.id.clone();
        let short = due - paid;
        let text = if short == 0 {
            format!(
                "{id} pays {paid} in loan instalments (treasury now {})",
                power.treasury
            )
        } else {
            format!("{id} owes {due} in loan instalments and pays only {paid}: short by {short}")
        };
        run.event(Event::new("G6.2", text).power(&id));
        if short == 0 {
            continue;
        }
        *defaulted = true;
        run.state.powers[p].blocked_from_borrowing = true;
        let loyalty = &mut run.state.powers[p].loyalty;
        for party in [
            super::map::Party::R,
            super::map::Party::M,
            super::map::Party::E,
        ] {
            let l = loyalty.get_mut(party);
            *l = l.saturating_sub(1).max(1);
        }
        let text = format!(
            "{id} defaults: national loyalties now R {} M {} E {}; no borrowing until every allegiance and loyalty is 3 or more",
            loyalty.r, loyalty.m, loyalty.e
        );
        run.event(Event::new("G6.2", text).power(&id));
        let regions: Vec<RegionAt> = run
            .state
            .regions()
            .filter(|&r| run.state.owner(r) == id)
            .collect();
        for &at in &regions {
            run.lower(at, 1, "G6.2", "loan default");
        }
        if short > 4 {
            // Regions named by DEMOTE first, then lowest allegiance, ties by id; one
            // level each, round after round, until `short` levels are lost.
            let mut order: Vec<RegionAt> = Vec::new();
            for &(q, at, e) in &demotes {
                if q == p && !order.contains(&at) {
                    order.push(at);
                    run.done(e, "used for the loan default's lost economic levels");
                }
            }
            let mut rest: Vec<RegionAt> = regions
                .iter()
                .copied()
                .filter(|r| !order.contains(r))
                .collect();
            rest.sort_by_key(|&r| {
                (
                    run.state.region(r).allegiance,
                    run.name(r).to_ascii_lowercase(),
                )
            });
            order.extend(rest);
            let mut lost = 0;
            while lost < short {
                let before = lost;
                for &at in &order {
                    if lost < short && run.decline(at, "G6.2", "loan default of more than 4") {
                        lost += 1;
                    }
                }
                if lost == before {
                    break;
                }
            }
        }
    }
    // Borrowing is open again once every allegiance and loyalty is 3 or more.
    for (p, &defaulted) in defaulted.iter().enumerate() {
        let power = &run.state.powers[p];
        if defaulted || !power.blocked_from_borrowing {
            continue;
        }
        let id = power.id.clone();
        let all_high = power.loyalty.all().iter().all(|&l| l >= 3)
            && run
                .state
                .regions()
                .filter(|&r| run.state.owner(r) == id)
                .all(|r| run.state.region(r).allegiance >= 3);
        if all_high {
            run.state.powers[p].blocked_from_borrowing = false;
            run.event(Event::new("G6.2", format!("{id} may borrow again")).power(id));
        }
    }
    let mut borrowed = vec![false; run.state.powers.len()];
    for e in run.step(Step::Borrow) {
        let Checked::Borrow(amount) = run.entries[e].order else {
            continue;
        };
        let p = run.entries[e].power;
        if defaulted[p] {
            run.failed(e, "no borrowing in a turn with a missed instalment");
        } else if run.state.powers[p].blocked_from_borrowing {
            run.failed(
                e,
                "no borrowing until every allegiance and loyalty is 3 or more",
            );
        } else if borrowed[p] {
            run.failed(e, "one loan a turn");
        } else {
            borrowed[p] = true;
            let instalment = amount.div_ceil(2);
            let power = &mut run.state.powers[p];
            power.treasury = power.treasury.saturating_add(amount);
            power.loans.push(Loan {
                left: 3,
                instalment,
            });
            run.done(
                e,
                format!("{amount} into the treasury; 3 instalments of {instalment} from the next interphase"),
            );
        }
    }
}

/// G6.3: money in transit arrives, then `TRANSFER`.
pub fn transfers(run: &mut Run) {
    let turn = run.state.turn;
    let (arriving, staying): (Vec<Transit>, Vec<Transit>) = std::mem::take(&mut run.state.transit)
        .into_iter()
        .partition(|t| t.arrives_turn <= turn);
    run.state.transit = staying;
    for t in arriving {
        let Some(p) = run.state.power_index(&t.power) else {
            continue;
        };
        let to = if t.to.eq_ignore_ascii_case("NG") {
            None
        } else {
            run.state
                .system_index(&t.to)
                .filter(|&s| run.state.systems[s].owner == t.power)
        };
        // Money sent by TRANSFER in an earlier interphase (not units).
        let sent = format!("{}'s transfer of {}", t.power, t.amount);
        let text = match to {
            Some(s) => {
                let system = &mut run.state.systems[s];
                system.bank = system.bank.saturating_add(t.amount);
                format!(
                    "{sent} arrives in the bank of {} (bank now {})",
                    system.name, system.bank
                )
            }
            None => {
                let power = &mut run.state.powers[p];
                power.treasury = power.treasury.saturating_add(t.amount);
                if t.to.eq_ignore_ascii_case("NG") {
                    format!("{sent} arrives at the NG (treasury now {})", power.treasury)
                } else {
                    format!(
                        "{sent} for {} (lost meanwhile) arrives at the NG instead (treasury now {})",
                        t.to, power.treasury
                    )
                }
            }
        };
        run.event(Event::new("G6.3", text).power(t.power.clone()));
    }
    for e in run.step(Step::Transfer) {
        let Checked::Transfer { amount, from, to } = run.entries[e].order else {
            continue;
        };
        let p = run.entries[e].power;
        if from == to {
            run.failed(e, "the money is already there");
            continue;
        }
        let cell = |run: &Run, s: Source| match s {
            Source::Bank(k) => Some(run.state.systems[k].at),
            Source::Ng => run
                .state
                .system_index(&run.state.powers[p].ng)
                .map(|k| run.state.systems[k].at),
        };
        let (Some(a), Some(b)) = (cell(run, from), cell(run, to)) else {
            run.failed(e, "the National Government has no system");
            continue;
        };
        let paid = match from {
            Source::Bank(k) => run.pay_bank(k, amount),
            Source::Ng => run.pay_treasury(p, amount),
        };
        if let Err(why) = paid {
            run.failed(e, why);
            continue;
        }
        let turns = a.distance(b).div_ceil(3);
        if turns == 0 {
            match to {
                Source::Bank(k) => {
                    run.state.systems[k].bank = run.state.systems[k].bank.saturating_add(amount)
                }
                Source::Ng => {
                    run.state.powers[p].treasury =
                        run.state.powers[p].treasury.saturating_add(amount)
                }
            }
            run.done(e, format!("{amount} moved at once"));
        } else {
            let name = match to {
                Source::Bank(k) => run.state.systems[k].name.clone(),
                Source::Ng => "NG".to_string(),
            };
            run.state.transit.push(Transit {
                power: run.state.powers[p].id.clone(),
                amount,
                to: name,
                arrives_turn: turn.saturating_add(turns),
            });
            run.done(
                e,
                format!(
                    "{amount} in transit, distance {}: arrives in turn {}",
                    a.distance(b),
                    turn.saturating_add(turns)
                ),
            );
        }
    }
}

/// G6.4: `BUY`; the units appear in the defence phase (G9.3).
pub fn purchases(run: &mut Run) {
    let mut bought: HashMap<RegionAt, u32> = HashMap::new();
    for e in run.step(Step::Buy) {
        let Checked::Buy {
            region: at,
            count,
            kind,
        } = run.entries[e].order
        else {
            continue;
        };
        let region = *run.state.region(at);
        let cap = region.economy.purchase_cap();
        let already = bought.get(&at).copied().unwrap_or(0);
        let why = if region.in_revolt() {
            Some(format!("{} is in revolt", run.name(at)))
        } else if run.state.enemy_units_in_region(at, &run.index) {
            Some(format!("enemy units are in {}", run.name(at)))
        } else if cap == 0 {
            // (the level fell at G6.2; the party cannot have changed yet: see check)
            Some(format!(
                "an {} region builds nothing (only I-2 and I-1 do)",
                region.economy
            ))
        } else if already.saturating_add(count) > cap {
            Some(format!(
                "at most {cap} units a turn in an {} region ({already} bought already)",
                region.economy
            ))
        } else if kind == super::map::UnitType::Sqd
            && run.state.enemy_units_in_cell(at.system, &run.index)
        {
            Some("no SQD while enemy units are in the system's cell".to_string())
        } else {
            None
        };
        if let Some(why) = why {
            run.failed(e, why);
            continue;
        }
        match run.pay_bank(at.system, count) {
            Err(why) => run.failed(e, why),
            Ok(paid) => {
                *bought.entry(at).or_default() += count;
                run.spend_on(at, count);
                let power = run.power_id(e);
                let id = run.name(at);
                match run
                    .state
                    .purchases
                    .iter_mut()
                    .find(|x| x.power == power && x.region.eq_ignore_ascii_case(&id))
                {
                    Some(x) => x.units.add(Units::of(kind, count)),
                    None => run.state.purchases.push(Purchase {
                        power,
                        region: id,
                        units: Units::of(kind, count),
                    }),
                }
                run.done(e, format!("{paid}; placed in the defence phase"));
            }
        }
    }
}

/// G6.5: `LOYALTY` and `ECON`, in the order written.
pub fn loyalty_and_economy(run: &mut Run) {
    let mut raised = BTreeSet::new();
    let mut grown = BTreeSet::new();
    for e in run.step(Step::LoyaltyEcon) {
        match run.entries[e].order {
            Checked::Loyalty { region: at, amount } => {
                if run.state.region(at).in_revolt() {
                    run.failed(
                        e,
                        format!("{} is in revolt (NEGOTIATE, BRIBE or POLICE)", run.name(at)),
                    );
                    continue;
                }
                match run.pay_bank(at.system, amount) {
                    Err(why) => run.failed(e, why),
                    Ok(paid) => {
                        run.spend_on(at, amount);
                        let before = run.state.region(at).allegiance;
                        let note = if before >= 5 {
                            "; allegiance already 5: counts for jealousy only".to_string()
                        } else if !raised.insert(at) {
                            "; allegiance rises once a turn: counts for jealousy only".to_string()
                        } else {
                            run.raise_to(at, before + 1, "G6.5", "LOYALTY");
                            format!("; allegiance {before} -> {}", before + 1)
                        };
                        run.done(e, format!("{paid}{note}"));
                    }
                }
            }
            Checked::Econ(at) => {
                let region = *run.state.region(at);
                let why = if region.party != super::map::Party::M {
                    Some(format!(
                        "only a moderate (M) region grows; {} is {}",
                        run.name(at),
                        region.party
                    ))
                } else if region.in_revolt() {
                    Some(format!("{} is in revolt", run.name(at)))
                } else if run.state.enemy_units_in_region(at, &run.index) {
                    Some(format!("enemy units are in {}", run.name(at)))
                } else if run.state.enemy_units_in_cell(at.system, &run.index) {
                    Some("enemy units are in the system's cell".to_string())
                } else if region.economy.raise_cost().is_none() {
                    Some("I-2 is the highest level".to_string())
                } else if grown.contains(&at) {
                    Some("one level a turn".to_string())
                } else {
                    None
                };
                if let Some(why) = why {
                    run.failed(e, why);
                    continue;
                }
                let cost = region.economy.raise_cost().unwrap_or(0);
                match run.pay_bank(at.system, cost) {
                    Err(why) => run.failed(e, why),
                    Ok(paid) => {
                        grown.insert(at);
                        run.spend_on(at, cost);
                        let up = region.economy.up().unwrap_or(region.economy);
                        run.state.region_mut(at).economy = up;
                        let id = run.name(at);
                        let system = run.state.systems[at.system].name.clone();
                        run.event(
                            Event::new(
                                "G6.5",
                                format!("{id}: economy {} -> {up} (ECON)", region.economy),
                            )
                            .region(id)
                            .system(system),
                        );
                        run.done(e, format!("{paid}; economy {} -> {up}", region.economy));
                    }
                }
            }
            _ => {}
        }
    }
}
