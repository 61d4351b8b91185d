//! Diplomacy property tests on random games: any order of the order lines gives the
//! same output, byte for byte; every unit ends where it may stand, one per province;
//! a phase replayed from its stored inputs gives the same state and output.

use std::collections::{BTreeMap, BTreeSet};

use pbem::rules::diplomacy::generate::{random_game, Rng};
use pbem::rules::diplomacy::given;
use pbem::rules::diplomacy::phase::adjudicate;
use pbem::rules::diplomacy::scenario::{as_given, output_value};
use pbem::rules::diplomacy::state::State;
use proptest::prelude::*;

fn output(s: &State, lines: &[(Option<u8>, String)]) -> String {
    let (after, report) = adjudicate(s, &as_given(lines));
    serde_json::to_string(&output_value(s, &after, &report)).unwrap()
}

/// A random game of up to 30 phases: its states and orders.
fn game(seed: u64) -> Vec<(State, BTreeMap<String, String>)> {
    random_game(seed, 30)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, .. ProptestConfig::default() })]

    #[test]
    fn permuting_the_order_lines_gives_byte_identical_output(seed in any::<u64>(), shuffle in any::<u64>()) {
        for (s, orders) in game(seed) {
            let lines = given(&s, &orders);
            let mut permuted = lines.clone();
            let mut rng = Rng::new(shuffle);
            for k in (1..permuted.len()).rev() {
                permuted.swap(k, rng.below(k + 1));
            }
            // A mail's lines given as one text per power, in another order, too.
            prop_assert_eq!(output(&s, &lines), output(&s, &permuted), "{}", s.phase.code());
        }
    }

    #[test]
    fn every_unit_ends_on_a_province_it_may_stand_on(seed in any::<u64>()) {
        for (s, orders) in game(seed) {
            let (after, _) = adjudicate(&s, &as_given(&given(&s, &orders)));
            let map = after.map();
            let mut seen = BTreeSet::new();
            for u in &after.units {
                prop_assert!(map.can_stand(u.kind, u.loc), "{}", u.text(map));
                prop_assert!(seen.insert(map.prov_of(u.loc)), "two units in {}", map.loc_id(u.loc));
            }
            for d in &after.dislodged {
                prop_assert!(!d.retreats.is_empty());
                for &r in &d.retreats {
                    prop_assert!(map.can_stand(d.unit.kind, r));
                    prop_assert!(!seen.contains(&map.prov_of(r)), "a retreat into an occupied province");
                }
            }
            // Every power's units never outnumber its centres after an adjustment.
            if s.phase.step == pbem::rules::diplomacy::state::Step::Adjustment {
                for q in 0..7u8 {
                    prop_assert!(after.units_of(q) <= after.centres_of(q).max(s.units_of(q)));
                    if s.adjustment(q) < 0 {
                        prop_assert_eq!(after.units_of(q), after.centres_of(q));
                    }
                }
            }
        }
    }

    #[test]
    fn a_phase_replayed_from_its_stored_inputs_gives_the_same_state(seed in any::<u64>()) {
        for (s, orders) in game(seed) {
            // Stored as the judge stores it (JSON), read back, adjudicated again.
            let stored = serde_json::to_string(&s).unwrap();
            let back: State = serde_json::from_str(&stored).unwrap();
            prop_assert_eq!(&back, &s);
            let lines = given(&s, &orders);
            let (a, ra) = adjudicate(&s, &as_given(&lines));
            let (b, rb) = adjudicate(&back, &as_given(&lines));
            prop_assert_eq!(&a, &b);
            prop_assert_eq!(
                output_value(&s, &a, &ra).to_string(),
                output_value(&back, &b, &rb).to_string()
            );
        }
    }
}
