//! The end of a power and of the game (G10), and the end of a turn.

use super::map::{UnitType, Units};
use super::outcome::Event;
use super::run::Run;
use super::state::{Phase, NEUTRAL};

/// G10.1: a power whose National Government's system is no longer its own (taken,
/// or gone neutral) is out of the game.
pub fn eliminate(run: &mut Run) {
    for p in 0..run.state.powers.len() {
        let power = &run.state.powers[p];
        if power.out {
            continue;
        }
        let holds_ng = run
            .state
            .system_index(&power.ng)
            .is_some_and(|s| run.state.systems[s].owner == power.id);
        if !holds_ng {
            put_out(run, p, "has lost its National Government's system");
        }
    }
}

/// G10.1: a power out of the game: its units are removed from the map and each of its
/// systems goes neutral with a garrison of 1 PDF; its stakes, money in transit and
/// purchases go too (nobody is left to use them), its loans (nobody is left to pay
/// them, and no interphase charges a power out), and its wars (on both sides).
pub fn put_out(run: &mut Run, p: usize, why: &str) {
    if run.state.powers[p].out {
        return;
    }
    run.state.powers[p].out = true;
    let id = run.state.powers[p].id.clone();
    run.event(Event::new("G10.1", format!("{id} {why} and is out of the game")).power(&id));
    let mut removed = Units::default();
    run.state.stacks.retain(|k| {
        if k.power == id {
            removed.add(k.units);
        }
        k.power != id
    });
    if !removed.is_empty() {
        run.event(
            Event::new(
                "G10.1",
                format!(
                    "{id}'s units are removed from the map: {}",
                    super::defence::units_text(removed)
                ),
            )
            .power(&id),
        );
    }
    for s in 0..run.state.systems.len() {
        if run.state.systems[s].owner == id {
            go_neutral(run, s);
            let name = run.state.systems[s].name.clone();
            run.event(
                Event::new(
                    "G10.1",
                    format!("{name} goes neutral, with a garrison of 1 PDF"),
                )
                .system(name),
            );
        }
    }
    run.state.stakes.retain(|k| k.power != id);
    run.state.purchases.retain(|k| k.power != id);
    run.state.transit.retain(|k| k.power != id);
    run.state.powers[p].loans.clear();
    // Nothing is left to fight with: its wars are over, on both sides (G8.2's
    // declarations too, so none comes into force at the end of the turn).
    run.state.end_wars_with_the_out();
    run.index = super::state::Index::new(&run.state);
    run.restack = true;
}

/// A system going neutral after the start (G7.6, G10.1): its garrison is 1 PDF, placed
/// in its cell at once (G5.5).
pub fn go_neutral(run: &mut Run, s: usize) {
    let garrison = Units::of(UnitType::Pdf, 1);
    let system = &mut run.state.systems[s];
    system.owner = NEUTRAL.to_string();
    system.garrison = Some(garrison);
    let cell = system.at.to_string();
    run.state.add_units(NEUTRAL, &cell, garrison);
}

/// G10.2, at the end of an interphase: a power owning at least the victory share of
/// all systems, with no loan outstanding, wins.
pub fn victory(run: &mut Run) -> bool {
    let total = run.state.systems.len() as f64;
    let need = run.state.options.victory_share * total;
    let winners: Vec<String> = run
        .state
        .powers_in_play()
        .filter(|p| p.loans.is_empty())
        .filter(|p| run.state.systems_owned(&p.id) as f64 >= need)
        .map(|p| p.id.clone())
        .collect();
    if winners.is_empty() {
        return false;
    }
    let text = format!(
        "{} own{} at least {} of {} systems with no loan outstanding: victory",
        crate::report::and_list(winners.clone()),
        if winners.len() == 1 { "s" } else { "" },
        need.ceil(),
        total
    );
    run.event(Event::new("G10.2", text));
    run.state.winners = winners;
    run.state.phase = Phase::Over;
    true
}

/// `1 system and 5 regions`.
fn counted(a: usize, a_name: &str, b: usize, b_name: &str) -> String {
    let s = |n: usize| if n == 1 { "" } else { "s" };
    format!("{a} {a_name}{} and {b} {b_name}{}", s(a), s(b))
}

/// The end of a turn, after the defence phase: the last turn ends the game (most
/// systems, then most regions, else shared); otherwise wars declared come into force
/// and the next turn's movement phase follows (G3, G8.2).
pub fn end_turn(run: &mut Run) {
    if run.state.turn >= run.state.options.last_turn {
        let score = |id: &str| (run.state.systems_owned(id), run.state.regions_owned(id));
        let best = run.state.powers_in_play().map(|p| score(&p.id)).max();
        let winners: Vec<String> = run
            .state
            .powers_in_play()
            .filter(|p| Some(score(&p.id)) == best)
            .map(|p| p.id.clone())
            .collect();
        let text = match best {
            Some((systems, regions)) => format!(
                "the last turn is over: {} with {}{}",
                crate::report::and_list(winners.clone()),
                counted(systems, "system", regions, "region"),
                if winners.len() > 1 { " each" } else { "" }
            ),
            None => "the last turn is over; no power is left".to_string(),
        };
        run.event(Event::new("G10.2", text));
        run.state.winners = winners;
        run.state.phase = Phase::Over;
        return;
    }
    for p in 0..run.state.powers.len() {
        for them in std::mem::take(&mut run.state.powers[p].declared_war) {
            let me = run.state.powers[p].id.clone();
            // Both sides declaring make one war, told once.
            let new = !run.state.at_war_either(&me, &them);
            if !run.state.at_war(&me, &them) {
                run.state.powers[p].at_war.push(them.clone());
            }
            if let Some(q) = run.state.power_index(&them) {
                if !run.state.powers[q].at_war.contains(&me) {
                    run.state.powers[q].at_war.push(me.clone());
                }
            }
            if new {
                run.event(Event::new("G8.2", format!("{me} and {them} are now at war")).power(me));
            }
        }
    }
    run.state.turn = run.state.turn.saturating_add(1);
    run.state.phase = Phase::Movement;
}
