//! A phase's dice (G11.2): the game's seeded stream, with a scenario's pinned dice in
//! front of it (`dice = [...]`, `../shared/specs/godsfire-scenario.md`).
//!
//! A pinned die replaces the die the stream would have given at that place; the
//! stream is drawn all the same, so once the list runs out every die is the one the
//! seed would have given without a list (die 5 after 3 pinned is the stream's die 5).

use crate::dice::Dice;

#[derive(Clone, Debug)]
pub struct PhaseDice {
    dice: Dice,
    pinned: Vec<u8>,
    next: usize,
}

impl PhaseDice {
    pub fn new(dice: Dice, pinned: Vec<u8>) -> PhaseDice {
        PhaseDice {
            dice,
            pinned,
            next: 0,
        }
    }

    /// The stream alone, nothing pinned.
    pub fn seeded(dice: Dice) -> PhaseDice {
        PhaseDice::new(dice, Vec::new())
    }

    /// One d6: the next pinned die, or the stream's.
    pub fn d6(&mut self) -> u8 {
        let thrown = self.dice.d6();
        match self.pinned.get(self.next) {
            Some(&pinned) => {
                self.next += 1;
                pinned
            }
            None => thrown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_dice_come_first_then_the_stream_as_if_none_were_pinned() {
        let stream: Vec<u8> = {
            let mut d = PhaseDice::seeded(Dice::for_phase(4, 2, "combat"));
            (0..6).map(|_| d.d6()).collect()
        };
        let mut d = PhaseDice::new(Dice::for_phase(4, 2, "combat"), vec![6, 6, 6]);
        let got: Vec<u8> = (0..6).map(|_| d.d6()).collect();
        assert_eq!(&got[..3], &[6, 6, 6]);
        assert_eq!(&got[3..], &stream[3..]);
    }
}
