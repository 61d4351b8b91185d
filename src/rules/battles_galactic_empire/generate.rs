//! Positions made for benchmarks and tests: an Action phase with all six regions
//! contested.

use std::collections::BTreeMap;

use super::setup;
use super::state::{Options, Phase, State, Unit};
use super::types::{Kind, Power};

/// Turn 3's Action phase of a Civil War game with all six regions contested: in each,
/// both powers have a mix of fleets (a garrison on one side in half of them), both
/// hold chits, and both wrote actions and standing instructions.
pub fn contested_actions(seed: u64) -> (State, BTreeMap<String, String>) {
    let mut s = setup::new_game(Options::default(), seed);
    s.dealt.clear();
    s.turn = 3;
    s.phase = Phase::Actions;
    let mixes: [[(Kind, u32); 4]; 6] = [
        [(Kind::SF, 2), (Kind::CG, 1), (Kind::AF, 1), (Kind::IO, 0)],
        [(Kind::SF, 1), (Kind::CG, 2), (Kind::AF, 0), (Kind::IO, 1)],
        [(Kind::SF, 1), (Kind::CG, 1), (Kind::AF, 1), (Kind::WS, 0)],
        [(Kind::SF, 2), (Kind::CG, 0), (Kind::AF, 0), (Kind::IO, 1)],
        [(Kind::SF, 1), (Kind::CG, 1), (Kind::AF, 0), (Kind::WS, 1)],
        [(Kind::SF, 1), (Kind::CG, 2), (Kind::AF, 1), (Kind::IO, 0)],
    ];
    for (r, mix) in mixes.iter().enumerate() {
        for (k, p) in Power::BOTH.into_iter().enumerate() {
            for &(kind, n) in mix {
                let n = if p == Power::Red {
                    n.max(u32::from(r % 2 == 0))
                } else {
                    n
                };
                for _ in 0..n {
                    s.units.push(Unit {
                        region: r as u8,
                        power: p,
                        kind,
                        garrison: k == r % 2 && kind == Kind::SF,
                        marker: None,
                        hits: 0,
                    });
                    let pool = &mut s.powers[p.index()].force_pool[kind.index()];
                    *pool = pool.saturating_sub(1);
                }
            }
        }
    }
    for side in &mut s.powers {
        side.hand = [1, 1, 1, 1, 1];
        side.chit_pool = [2, 2, 2, 1, 1];
    }
    s.tidy();
    let orders = BTreeMap::from([
        (
            "blue".to_string(),
            "PLAY TACTICAL Tau SF\nRESOLVE Tau\nPLAY BUILD\nRESOLVE Beta\nPLAY MOVE Alpha Omega\nRESOLVE Omega\nTARGET ALL MILITARY CG\nDISENGAGE Gamma AFTER 3\nGARRISON ALL MIN\n"
                .to_string(),
        ),
        (
            "red".to_string(),
            "PLAY ILLUMINATION TH Delta\nRESOLVE Delta\nPLAY TACTICAL Gamma IO MORPH\nRESOLVE Gamma\nRESOLVE Alpha\nREPRESS MOVE\nDISENGAGE ALL WEAKER\nTARGET ALL MORPH SF\nLOSSES CG SF\n"
                .to_string(),
        ),
    ]);
    (s, orders)
}
