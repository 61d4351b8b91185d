//! The defence phase (G9): de-subversion, counter-subversion, new units; then the
//! turn ends (G10.2's last turn, wars declared coming into force).

use std::collections::BTreeSet;

use super::check::{Checked, Step};
use super::map::{Economy, UnitType, Units};
use super::outcome::Event;
use super::run::Run;
use super::state::Counter;

/// G9.1: `DESUBVERT` removes every stake placed on the region this turn.
pub fn desubvert(run: &mut Run) {
    for e in run.step(Step::Desubvert) {
        let Checked::Desubvert(at) = run.entries[e].order else {
            continue;
        };
        let id = run.name(at);
        let turn = run.state.turn;
        let mut placed: Vec<String> = run
            .state
            .stakes
            .iter()
            .filter(|k| k.region.eq_ignore_ascii_case(&id) && k.placed_turn == turn)
            .map(|k| k.power.clone())
            .collect();
        placed.sort_by_key(|p| run.state.rank(p));
        if placed.is_empty() {
            run.failed(e, format!("no stake was placed on {id} this turn"));
            continue;
        }
        let cost = if run.economy(at) == Economy::S { 3 } else { 2 };
        match run.pay_bank(at.system, cost) {
            Err(why) => run.failed(e, why),
            Ok(paid) => {
                run.state
                    .stakes
                    .retain(|k| !(k.region.eq_ignore_ascii_case(&id) && k.placed_turn == turn));
                let who = placed.join(", ");
                run.event(
                    Event::new(
                        "G9.1",
                        format!("{id} de-subverted: the stakes of {who} are removed"),
                    )
                    .region(&id)
                    .power(run.power_id(e)),
                );
                run.done(e, format!("{paid}; removed the stakes of {who}"));
            }
        }
    }
}

/// G9.2: `COUNTER` protects a region at the next subversion step.
pub fn counter(run: &mut Run) {
    let mut placed = BTreeSet::new();
    for c in &run.state.counters {
        placed.insert(c.region.to_ascii_lowercase());
    }
    for e in run.step(Step::Counter) {
        let Checked::Counter(at) = run.entries[e].order else {
            continue;
        };
        let id = run.name(at);
        if !placed.insert(id.to_ascii_lowercase()) {
            run.failed(e, format!("{id} has counter-subversion already"));
            continue;
        }
        let cost = if run.economy(at) == Economy::S { 2 } else { 1 };
        match run.pay_bank(at.system, cost) {
            Err(why) => run.failed(e, why),
            Ok(paid) => {
                run.state.counters.push(Counter { region: id.clone() });
                run.event(
                    Event::new("G9.2", format!("counter-subversion placed in {id}"))
                        .region(&id)
                        .power(run.power_id(e)),
                );
                run.done(e, format!("{paid}; protects {id} at the next interphase"));
            }
        }
    }
}

/// G9.3: units bought this turn are placed, unless their region is in revolt, below
/// I-1, or no longer the buyer's (the money is lost). G2.2: overstacking is allowed
/// and reported.
pub fn place_units(run: &mut Run) {
    for purchase in std::mem::take(&mut run.state.purchases) {
        let Some(at) = run.state.region_at(&purchase.region) else {
            continue;
        };
        let id = run.name(at);
        let region = *run.state.region(at);
        let lost = if run.state.owner(at) != purchase.power {
            Some("the region is no longer theirs")
        } else if region.in_revolt() {
            Some("the region is in revolt")
        } else if region.economy < Economy::I1 {
            Some("the region is no longer industrial (below I-1)")
        } else {
            None
        };
        let what = units_text(purchase.units);
        if let Some(why) = lost {
            run.event(
                Event::new(
                    "G9.3",
                    format!(
                        "{what} bought by {} in {id} are lost: {why}",
                        purchase.power
                    ),
                )
                .region(&id)
                .power(purchase.power.clone()),
            );
            continue;
        }
        let cell = run.state.systems[at.system].at.to_string();
        let ground = Units {
            sqd: 0,
            ..purchase.units
        };
        if ground.total() > 0 {
            run.state.add_units(&purchase.power, &id, ground);
        }
        if purchase.units.sqd > 0 {
            run.state.add_units(
                &purchase.power,
                &cell,
                Units::of(UnitType::Sqd, purchase.units.sqd),
            );
        }
        run.event(
            Event::new(
                "G9.3",
                format!(
                    "{what} of {} placed at {id}{}",
                    purchase.power,
                    if purchase.units.sqd > 0 {
                        format!(" (SQD in the system cell {cell})")
                    } else {
                        String::new()
                    }
                ),
            )
            .region(&id)
            .power(purchase.power.clone()),
        );
        for (place, limit) in [(id.clone(), 6), (cell, 3)] {
            if let Some(stack) = run
                .state
                .stacks
                .iter()
                .find(|s| s.power == purchase.power && s.at.eq_ignore_ascii_case(&place))
            {
                let over: Vec<&str> = [UnitType::Sqd, UnitType::Ag, UnitType::Pdf]
                    .into_iter()
                    .filter(|&k| stack.units.get(k) > limit)
                    .map(UnitType::name)
                    .collect();
                if !over.is_empty() {
                    let text = format!(
                        "{} is overstacked at {place} ({} above {limit}): the excess must move off in the next movement phase",
                        purchase.power,
                        over.join(", ")
                    );
                    run.event(Event::new("G2.2", text).power(purchase.power.clone()));
                }
            }
        }
    }
}

/// How units read in reports: `2 AG, 1 PDF`.
pub fn units_text(u: Units) -> String {
    let mut out = String::with_capacity(24);
    push_units(&mut out, u);
    out
}

/// [`units_text`] onto a string (no formatting machinery: reports write many).
pub fn push_units(out: &mut String, u: Units) {
    let mut first = true;
    for k in [UnitType::Sqd, UnitType::Ag, UnitType::Pdf] {
        if u.get(k) == 0 {
            continue;
        }
        if !first {
            out.push_str(", ");
        }
        first = false;
        push_number(out, u.get(k));
        out.push(' ');
        out.push_str(k.name());
    }
    if first {
        out.push_str("no units");
    }
}

/// A number in decimal onto a string.
pub fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let (mut n, mut k) = (n, digits.len());
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[k..] {
        out.push(d as char);
    }
}
