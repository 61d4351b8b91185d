//! Dice and draws (B13.2): every d6 from the game's seed (a stream for the phase),
//! every random draw (chits, the B1.3 deal) from a second stream of the same phase.
//! A scenario may pin the first rolls and draws; after the pins the streams go on from
//! their first value.

use super::outcome::{Log, Roll};
use super::types::{Chit, Chits};
use crate::dice::Dice;

pub struct Rng {
    dice: Dice,
    draws: Dice,
    pinned_dice: Vec<u8>,
    next_die: usize,
    pinned_draws: Vec<Chit>,
    next_draw: usize,
}

impl Rng {
    /// The streams of one phase of one game.
    pub fn for_phase(seed: u64, turn: u32, phase: &str) -> Rng {
        Rng {
            dice: Dice::for_phase(seed, turn, phase),
            draws: Dice::for_phase(seed, turn, &format!("{phase}/draws")),
            pinned_dice: Vec::new(),
            next_die: 0,
            pinned_draws: Vec::new(),
            next_draw: 0,
        }
    }

    /// The same streams with the first rolls and draws pinned (scenario files).
    pub fn pinned(mut self, dice: Vec<u8>, draws: Vec<Chit>) -> Rng {
        self.pinned_dice = dice;
        self.pinned_draws = draws;
        self
    }

    /// One d6, reported with the rule it is rolled for and what it is for.
    pub fn d6(&mut self, log: &mut Log, step: &'static str, for_: impl Into<String>) -> u8 {
        let roll = match self.pinned_dice.get(self.next_die) {
            Some(&d) => {
                self.next_die += 1;
                d
            }
            None => self.dice.d6(),
        };
        log.dice.push(Roll {
            step,
            die: "1d6",
            roll,
            for_: for_.into(),
        });
        roll
    }

    /// One chit from a pool, each chit in it equally likely (B5.2); none from an
    /// empty pool. A pinned draw the pool does not hold is a seeded draw.
    pub fn draw(&mut self, pool: &Chits) -> Option<Chit> {
        let size: u32 = pool.iter().sum();
        if size == 0 {
            return None;
        }
        if let Some(&c) = self.pinned_draws.get(self.next_draw) {
            self.next_draw += 1;
            if pool[c.index()] > 0 {
                return Some(c);
            }
        }
        let mut k = self.draws.below(u64::from(size)) as u32;
        for c in Chit::ALL {
            if k < pool[c.index()] {
                return Some(c);
            }
            k -= pool[c.index()];
        }
        unreachable!("k is below the pool's size")
    }

    /// The draw stream itself, for shuffles (the B1.3 deal).
    pub fn draw_stream(&mut self) -> &mut Dice {
        &mut self.draws
    }
}
