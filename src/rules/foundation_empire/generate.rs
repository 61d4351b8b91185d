//! Generated movement phases of any size, for benchmarks (`cargo bench`, `pbem bench`).
//!
//! Half the sectors of a board about 4:3 hold a fleet of a random power; orders are a
//! mix of moves to a random neighbour (55 %), supports (20 %) and holds (25 %), written
//! as text, so parsing is measured too. Powers side by side at random make many
//! contested sectors, stand-offs, dislodgements and rings.

use std::sync::Arc;

use super::board::{Board, PowerId, Sector};
use super::position::{Fleet, Options, Phase, State};
use super::Submissions;
use crate::dice::Dice;

/// A movement phase with `fleets` fleets (at least 1), and its orders.
pub fn generated_phase(fleets: usize, seed: u64) -> (State, Submissions) {
    // A board of twice as many sectors as fleets, about 4:3.
    let fleets = fleets.max(1);
    let sectors = fleets * 2;
    let width = ((sectors as f64 * 4.0 / 3.0).sqrt().ceil() as u32).clamp(8, 702);
    let height = (sectors as u32).div_ceil(width);
    let board = Arc::new(Board::generated(width, height, 4));
    let mut dice = Dice::for_phase(seed, 0, "bench");
    let mut all: Vec<Sector> = (0..board.len() as u32).map(Sector).collect();
    dice.shuffle(&mut all);
    all.truncate(fleets);
    all.sort();
    let mut state = State::new(board.clone(), Options::default());
    state.phase = Phase::Movement;
    state.turn = 1;
    for at in all {
        state.fleets.push(Fleet {
            power: PowerId(dice.below(4) as u8),
            at,
            stay: 1,
            produced_by: None,
        });
    }
    let mut texts: Vec<String> = vec![String::new(); 4];
    for f in &state.fleets {
        let name = board.name(f.at);
        let near = board.neighbours(f.at);
        let line = match dice.below(20) {
            0..=10 => {
                let to = near.as_slice()[dice.below(near.as_slice().len() as u64) as usize];
                format!("{name} - {}\n", board.name(to))
            }
            11..=14 => format!("{name} S\n"),
            _ => format!("{name} H\n"),
        };
        texts[f.power.0 as usize].push_str(&line);
    }
    let orders = texts
        .into_iter()
        .enumerate()
        .map(|(p, t)| (PowerId(p as u8), t))
        .collect();
    (state, orders)
}
