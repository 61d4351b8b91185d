//! Busy phases of the standard scenario for the benchmark and the tests: a full
//! interphase (every power about a dozen orders of every kind), a movement phase with
//! 200 stacks moving, a combat phase with 50 combats.

use std::collections::BTreeMap;

use super::map::{Cell, Units};
use super::scenario::standard;
use super::state::{Options, Phase, State};
/// The standard scenario at its first interphase, and four powers' orders.
pub fn standard_interphase(seed: u64) -> (State, BTreeMap<String, String>) {
    let mut state = standard(seed, Options::default());
    state.phase = Phase::Interphase;
    let mut orders = BTreeMap::new();
    let homes: Vec<String> = state.powers.iter().map(|p| p.ng.clone()).collect();
    for (k, p) in state.powers.iter().enumerate() {
        let home = &p.ng;
        let next = &homes[(k + 1) % homes.len()];
        let text = format!(
            "EXTORT {home}-1a\n\
             BORROW 4\n\
             TRANSFER 2 FROM {home} TO NG\n\
             BUY {home}-1a 2 AG\n\
             BUY {home}-3a 1 PDF\n\
             LOYALTY {home}-2c 1\n\
             LOYALTY {home}-1b 1\n\
             ECON {home}-2b\n\
             DEMOTE {home}-2c\n\
             SUBVERT {next}-1a\n\
             SUBVERT {next}-2c\n\
             SUBVERT Polaris-1a\n\
             WAR {}\n",
            state.powers[(k + 2) % 4].id
        );
        orders.insert(p.id.clone(), text);
    }
    (state, orders)
}

/// The standard scenario at war (red and blue against green and yellow), with stacks
/// strewn over the map: red and blue in the west (columns A–G), green and yellow in
/// the east (I–O), one stack a cell, none on the neutral systems.
fn at_war(seed: u64, phase: Phase) -> State {
    let mut state = standard(seed, Options::default());
    state.phase = phase;
    for p in &mut state.powers {
        p.at_war = match p.id.as_str() {
            "red" | "blue" => vec!["green".into(), "yellow".into()],
            _ => vec!["red".into(), "blue".into()],
        };
    }
    // The neutral garrisons stay; the powers' units are placed anew.
    state.stacks.retain(|k| k.power == super::state::NEUTRAL);
    state
}

fn add(state: &mut State, power: &str, col: u8, row: u16, units: Units) {
    state.add_units(power, &Cell { col, row }.to_string(), units);
}

fn free(state: &State, col: u8, row: u16) -> bool {
    let c = Cell { col, row };
    !state.systems.iter().any(|s| s.at == c)
}

/// A movement phase of the standard scenario with 200 stacks moving: 50 a power, each
/// two cells toward the other side, through a line of red and green stacks standing in
/// column H with stances (INTERCEPT and BLOCK by turns), for the benchmark and the tests.
pub fn standard_movement(seed: u64) -> (State, BTreeMap<String, String>) {
    let mut state = at_war(seed, Phase::Movement);
    let mut orders: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for row in 1..=15u16 {
        for col in 0..15u8 {
            if !free(&state, col, row) || col == 7 {
                continue;
            }
            let west = col < 7;
            // Allies share cells: a stack of each of the side's two powers.
            let powers = if west {
                ["red", "blue"]
            } else {
                ["green", "yellow"]
            };
            for power in powers {
                let n = count.entry(power).or_default();
                if *n >= 50 || (*n + usize::from(col + row as u8)) % 4 == 0 {
                    continue;
                }
                *n += 1;
                let units = Units {
                    sqd: 1 + u32::from(row % 2),
                    ag: 1 + u32::from(col % 3 == 0),
                    pdf: 0,
                };
                add(&mut state, power, col, row, units);
                let step = |k: i16| Cell {
                    col: (i16::from(col) + if west { k } else { -k }).clamp(0, 14) as u8,
                    row,
                };
                orders.entry(power.into()).or_default().push(format!(
                    "{} -> {} {}",
                    Cell { col, row },
                    step(1),
                    step(2)
                ));
            }
        }
    }
    // The line in column H.
    for row in 1..=15u16 {
        if !free(&state, 7, row) {
            continue;
        }
        let power = if row % 2 == 0 { "red" } else { "green" };
        add(
            &mut state,
            power,
            7,
            row,
            Units {
                sqd: 1,
                ag: 2,
                pdf: 0,
            },
        );
        let stance = if row % 4 < 2 { "INTERCEPT" } else { "BLOCK" };
        orders
            .entry(power.into())
            .or_default()
            .push(format!("H{row} {stance}"));
    }
    let orders = orders
        .into_iter()
        .map(|(p, lines)| (p, lines.join("\n")))
        .collect();
    (state, orders)
}

/// A combat phase of the standard scenario with 50 combats: pairs of hostile stacks
/// side by side, the western one attacking, and a few attacks on the ground.
pub fn standard_combat(seed: u64) -> (State, BTreeMap<String, String>) {
    let mut state = at_war(seed, Phase::Combat);
    let mut orders: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut combats = 0;
    'rows: for row in 1..=15u16 {
        for col in [0u8, 3, 6, 9, 12] {
            if combats == 50 {
                break 'rows;
            }
            if !free(&state, col, row) || !free(&state, col + 1, row) {
                continue;
            }
            let (attacker, defender) = match (row + u16::from(col)) % 4 {
                0 => ("red", "green"),
                1 => ("blue", "yellow"),
                2 => ("green", "red"),
                _ => ("yellow", "blue"),
            };
            add(
                &mut state,
                attacker,
                col,
                row,
                Units {
                    sqd: 2,
                    ag: 1 + u32::from(row % 3),
                    pdf: 0,
                },
            );
            add(
                &mut state,
                defender,
                col + 1,
                row,
                Units {
                    sqd: 1,
                    ag: 1,
                    pdf: 0,
                },
            );
            let (a, d) = (Cell { col, row }, Cell { col: col + 1, row });
            orders
                .entry(attacker.into())
                .or_default()
                .push(format!("{a} ATTACK {d}"));
            combats += 1;
        }
    }
    for lines in orders.values_mut() {
        lines.push("LOSSES AG SQD".into());
    }
    let orders = orders
        .into_iter()
        .map(|(p, lines)| (p, lines.join("\n")))
        .collect();
    (state, orders)
}
