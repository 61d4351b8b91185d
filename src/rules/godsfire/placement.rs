//! The interphase's last step (G8): subversion placement, war and peace.

use std::collections::BTreeSet;

use super::check::{Checked, Step};
use super::outcome::Event;
use super::run::Run;
use super::state::Stake;

/// How far subversion money may be carried toward a power at war (G8.1).
pub const WAR_REACH: u32 = 3;

/// G8.1: `SUBVERT`. Toward a power at war (a war listed by either side binds both),
/// the stake is paid from the nearest own bank within reach that holds enough (ties:
/// the system listed first); otherwise from the treasury.
pub fn subvert(run: &mut Run) {
    for e in run.step(Step::Subvert) {
        let Checked::Subvert(at) = run.entries[e].order else {
            continue;
        };
        let p = run.entries[e].power;
        if run.state.powers[p].out {
            // Put out earlier in this interphase (G10.1): it places nothing more.
            run.failed(e, "your power is out of the game");
            continue;
        }
        let me = run.state.powers[p].id.clone();
        let id = run.name(at);
        let owner = run.state.owner(at).to_string();
        if owner == me {
            run.failed(e, format!("{id} is now your own region"));
            continue;
        }
        if run
            .state
            .stakes
            .iter()
            .any(|k| k.power == me && k.region.eq_ignore_ascii_case(&id))
        {
            run.failed(e, format!("you already have a stake on {id}"));
            continue;
        }
        let cost = run.economy(at).subversion_cost();
        let paid = if run.state.at_war_either(&me, &owner) {
            let target = run.state.systems[at.system].at;
            let bank = (0..run.state.systems.len())
                .filter(|&s| run.state.systems[s].owner == me)
                .filter(|&s| run.state.systems[s].at.distance(target) <= WAR_REACH)
                .filter(|&s| run.state.systems[s].bank >= cost)
                .min_by_key(|&s| run.state.systems[s].at.distance(target));
            match bank {
                Some(s) => run.pay_bank(s, cost),
                None => Err(format!(
                    "at war with {owner}: needs {cost} in the bank of one of your systems within {WAR_REACH} of {}",
                    run.state.systems[at.system].name
                )),
            }
        } else {
            run.pay_treasury(p, cost)
        };
        match paid {
            Err(why) => run.failed(e, why),
            Ok(paid) => {
                run.state.stakes.push(Stake {
                    power: me.clone(),
                    region: id.clone(),
                    circle: 3,
                    placed_turn: run.state.turn,
                });
                run.event(
                    Event::new(
                        "G8.1",
                        format!("{me} places a subversion stake on {id} ({owner})"),
                    )
                    .region(&id)
                    .power(&me),
                );
                run.done(e, paid);
            }
        }
    }
}

/// G8.2: `WAR` is declared for the next movement phase; `PEACE` ends a war when both
/// sides order it in the same interphase.
pub fn war_and_peace(run: &mut Run) {
    let steps = run.step(Step::WarPeace);
    // The wars as the step begins, listed by either side (a war binds both): a peace
    // made earlier in the step does not fail the other side's PEACE.
    let n = run.state.powers.len();
    let wars: BTreeSet<(usize, usize)> = (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .filter(|&(a, b)| {
            run.state
                .at_war_either(&run.state.powers[a].id, &run.state.powers[b].id)
        })
        .collect();
    let peace: BTreeSet<(usize, usize)> = steps
        .iter()
        .filter_map(|&e| match run.entries[e].order {
            Checked::Peace(q) => Some((run.entries[e].power, q)),
            _ => None,
        })
        .collect();
    for e in steps {
        let p = run.entries[e].power;
        let me = run.state.powers[p].id.clone();
        if run.state.powers[p].out {
            // Put out earlier in this interphase (G10.1): it has no war left to make
            // or end.
            run.failed(e, "your power is out of the game");
            continue;
        }
        match run.entries[e].order {
            Checked::War(q) => {
                let them = run.state.powers[q].id.clone();
                if run.state.powers[q].out {
                    run.failed(e, format!("{them} is out of the game"));
                } else if wars.contains(&(p, q)) {
                    run.failed(e, format!("already at war with {them}"));
                } else if run.state.powers[p].declared_war.contains(&them) {
                    run.failed(e, format!("war on {them} is declared already"));
                } else {
                    run.state.powers[p].declared_war.push(them.clone());
                    run.event(
                        Event::new(
                            "G8.2",
                            format!("{me} declares war on {them}, from the next movement phase"),
                        )
                        .power(&me),
                    );
                    run.done(e, "declared; in force from the next movement phase");
                }
            }
            Checked::Peace(q) => {
                let them = run.state.powers[q].id.clone();
                if run.state.powers[q].out {
                    run.failed(e, format!("{them} is out of the game"));
                } else if !wars.contains(&(p, q)) {
                    run.failed(e, format!("not at war with {them}"));
                } else if !peace.contains(&(q, p)) {
                    run.failed(e, format!("{them} did not order PEACE with {me}"));
                } else {
                    // Both sides' lists: a war listed by one side only ends too.
                    run.state.powers[p].at_war.retain(|w| *w != them);
                    run.state.powers[q].at_war.retain(|w| *w != me);
                    if p < q {
                        run.event(
                            Event::new("G8.2", format!("{me} and {them} make peace")).power(&me),
                        );
                    }
                    run.done(e, format!("peace with {them}"));
                }
            }
            _ => {}
        }
    }
}
