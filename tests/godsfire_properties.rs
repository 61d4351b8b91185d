//! Godsfire properties over random positions and random orders: money never below
//! zero, allegiance 0-5, revolts pay no tax, no purchase above its region's cap,
//! byte-identical output, and replay from stored orders.

use std::collections::BTreeMap;

use pbem::dice::Dice;
use pbem::rules::godsfire::map::{Economy, Party, Units};
use pbem::rules::godsfire::scenario::{output_json, standard};
use pbem::rules::godsfire::state::{Loan, Options, Phase, Stake, State};
use pbem::rules::godsfire::{self as gf};
use proptest::prelude::*;

const LEVELS: [Economy; 5] = [
    Economy::S,
    Economy::A1,
    Economy::A2,
    Economy::I1,
    Economy::I2,
];
const PARTIES: [Party; 3] = [Party::R, Party::M, Party::E];

fn pick<'a, T>(dice: &mut Dice, items: &'a [T]) -> &'a T {
    &items[dice.below(items.len() as u64) as usize]
}

/// The standard scenario with everything stirred: values, money, loans, wars, stakes,
/// counters, foreign units.
fn random_state(seed: u64) -> State {
    let mut dice = Dice::for_phase(seed, 0, "random state");
    let mut s = standard(seed, Options::default());
    let regions: Vec<_> = s.regions().collect();
    for &r in &regions {
        let region = s.region_mut(r);
        region.economy = *pick(&mut dice, &LEVELS);
        region.party = *pick(&mut dice, &PARTIES);
        region.allegiance = dice.below(6) as u8;
    }
    for sys in &mut s.systems {
        sys.bank = dice.below(12) as u32;
    }
    let ids: Vec<String> = s.powers.iter().map(|p| p.id.clone()).collect();
    for p in &mut s.powers {
        p.treasury = dice.below(16) as u32;
        p.blocked_from_borrowing = dice.below(4) == 0;
        p.ministers_changed = dice.below(3) == 0;
        for _ in 0..dice.below(3) {
            p.loans.push(Loan {
                left: 1 + dice.below(3) as u32,
                instalment: 1 + dice.below(6) as u32,
            });
        }
    }
    for (k, a) in ids.iter().enumerate() {
        for b in &ids[k + 1..] {
            if dice.below(3) == 0 {
                let pa = s.power_index(a).unwrap();
                let pb = s.power_index(b).unwrap();
                s.powers[pa].at_war.push(b.clone());
                s.powers[pb].at_war.push(a.clone());
            }
        }
    }
    for _ in 0..dice.below(25) {
        let r = *pick(&mut dice, &regions);
        let power = pick(&mut dice, &ids).clone();
        let id = s.region_name(r);
        if s.owner(r) != power && !s.stakes.iter().any(|k| k.power == power && k.region == id) {
            s.stakes.push(Stake {
                power,
                region: id,
                circle: 1 + dice.below(3) as u8,
                placed_turn: 0,
            });
        }
    }
    for _ in 0..dice.below(6) {
        let r = *pick(&mut dice, &regions);
        let power = pick(&mut dice, &ids).clone();
        let at = s.region_name(r);
        s.add_units(
            &power,
            &at,
            Units::of(pbem::rules::godsfire::map::UnitType::Ag, 1),
        );
    }
    s
}

/// Random order lines, valid or not.
fn random_orders(s: &State, dice: &mut Dice) -> BTreeMap<String, String> {
    let regions: Vec<String> = s.regions().map(|r| s.region_name(r)).collect();
    let systems: Vec<String> = s.systems.iter().map(|x| x.name.clone()).collect();
    let powers: Vec<String> = s.powers.iter().map(|p| p.id.clone()).collect();
    let mut orders = BTreeMap::new();
    for p in &powers {
        let own: Vec<String> = s
            .regions()
            .filter(|&r| s.owner(r) == p)
            .map(|r| s.region_name(r))
            .collect();
        let mut lines = Vec::new();
        for _ in 0..dice.below(12) {
            // Half the orders name the power's own regions, where most orders are legal.
            let r = if !own.is_empty() && dice.below(2) == 0 {
                pick(dice, &own).clone()
            } else {
                pick(dice, &regions).clone()
            };
            let wanted = s
                .region_at(&r)
                .map(|at| s.region(at).party.wants().name())
                .unwrap_or("AG");
            let sys = pick(dice, &systems).clone();
            let other = pick(dice, &powers).clone();
            let n = dice.below(9);
            let line = match dice.below(19) {
                0 => format!("EXTORT {r}"),
                1 => format!("BORROW {}", n + 1),
                2 => format!("TRANSFER {n} FROM {sys} TO NG"),
                3 => format!("TRANSFER {n} FROM NG TO {sys}"),
                4 => format!(
                    "BUY {r} {n} {}",
                    pick(dice, &["SQD", "AG", "PDF", wanted, wanted])
                ),
                5 => format!("LOYALTY {r} {n}"),
                6 => format!("ECON {r}"),
                7 => format!("PARTY {r} {}", pick(dice, &["PAY", "LOYALTY"])),
                8 => format!("NEGOTIATE {r}"),
                9 => format!("BRIBE {r}"),
                10 => format!("POLICE {r}"),
                11 => format!("DEMOTE {r}"),
                12 => "CHANGE MINISTERS".to_string(),
                13 => format!("SUBVERT {r}"),
                14 => format!("WAR {other}"),
                15 => format!("PEACE {other}"),
                16 => format!("DESUBVERT {r}"),
                17 => format!("COUNTER {r}"),
                _ => format!("{} {r}", pick(dice, &["FLY", "BUY", "", "TRANSFER 3 FROM"])),
            };
            lines.push(line);
        }
        orders.insert(p.clone(), lines.join("\n"));
    }
    orders
}

/// The tax each owned system should receive at G6.1, from the position alone.
fn expected_tax(s: &State) -> BTreeMap<String, u32> {
    let mut tax = BTreeMap::new();
    for (k, sys) in s.systems.iter().enumerate() {
        if s.power(&sys.owner).is_none_or(|p| p.out) {
            continue;
        }
        let mut total = 0;
        for planet in 0..sys.planets.len() {
            let mut any = false;
            for at in s.system_regions(k).filter(|r| r.planet == planet) {
                let region = s.region(at);
                let id = s.region_name(at);
                let enemy = s
                    .stacks
                    .iter()
                    .any(|st| st.at == id && st.power != sys.owner && st.units.total() > 0);
                if region.allegiance > 0 && !enemy {
                    any = true;
                    total += region.economy.tax();
                }
            }
            total += u32::from(any);
        }
        if total > 0 {
            tax.insert(sys.name.clone(), total);
        }
    }
    tax
}

fn check_invariants(s: &State) {
    for r in s.regions() {
        let region = s.region(r);
        assert!(
            region.allegiance <= 5,
            "{}: allegiance {}",
            s.region_name(r),
            region.allegiance
        );
        assert!(Economy::S <= region.economy && region.economy <= Economy::I2);
    }
    for p in &s.powers {
        for l in p.loyalty.all() {
            assert!((1..=5).contains(&l), "{} loyalty {l}", p.id);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_keep_the_invariants(seed in any::<u64>(), phases in 1usize..6) {
        let mut s = random_state(seed);
        let mut dice = Dice::for_phase(seed, 1, "orders");
        let mut history = Vec::new();
        for _ in 0..phases {
            if s.phase == Phase::Over {
                break;
            }
            let orders = random_orders(&s, &mut dice);
            let (next, log) = gf::adjudicate(&s, &orders, seed);
            // Byte-identical output for the same input.
            let (again, log2) = gf::adjudicate(&s, &orders, seed);
            prop_assert_eq!(output_json(&s, &next, &log), output_json(&s, &again, &log2));
            check_invariants(&next);
            if s.phase == Phase::Interphase {
                // A region in revolt (or with enemy units) pays no tax: each system's
                // tax is exactly what its paying regions owe.
                let paid: BTreeMap<String, u32> = log
                    .events
                    .iter()
                    .filter(|e| e.step == "G6.1" && e.text.contains(" in tax "))
                    .map(|e| {
                        let mut w = e.text.split_whitespace();
                        let name = w.next().unwrap().to_string();
                        let n: u32 = w.nth(1).unwrap().parse().unwrap();
                        (name, n)
                    })
                    .collect();
                prop_assert_eq!(paid, expected_tax(&s));
                // No purchase above its region's cap.
                for p in &next.purchases {
                    let at = s.region_at(&p.region).unwrap();
                    prop_assert!(p.units.total() <= s.region(at).economy.purchase_cap(),
                        "{} bought {} at {}", p.power, p.units.total(), p.region);
                }
            }
            // Every line has a result.
            let lines: usize = orders.values().map(|t| gf::lines(t).count()).sum();
            prop_assert_eq!(log.results.len(), lines);
            history.push(orders);
            s = next;
        }
        // Replayed from the stored orders and the seed: the same game.
        let mut replay = random_state(seed);
        for orders in &history {
            replay = gf::adjudicate(&replay, orders, seed).0;
        }
        prop_assert_eq!(replay, s);
    }
}
