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

// ---------------------------------------------------------------------------------
// Movement and combat (G4, G5).

use pbem::rules::godsfire::map::{Cell, UnitType};
use pbem::rules::godsfire::place::{Place, Position};
use pbem::rules::godsfire::state::NEUTRAL;

/// The standard scenario at a movement phase, with wars and stacks strewn about: none
/// sharing a cell with hostile units.
fn random_war_state(seed: u64) -> State {
    let mut dice = Dice::for_phase(seed, 0, "war state");
    let mut s = standard(seed, Options::default());
    let ids: Vec<String> = s.powers.iter().map(|p| p.id.clone()).collect();
    for (k, a) in ids.iter().enumerate() {
        for b in &ids[k + 1..] {
            if dice.below(2) == 0 {
                let pa = s.power_index(a).unwrap();
                let pb = s.power_index(b).unwrap();
                s.powers[pa].at_war.push(b.clone());
                s.powers[pb].at_war.push(a.clone());
            }
        }
    }
    let regions: Vec<_> = s.regions().collect();
    for _ in 0..(20 + dice.below(50)) {
        let power = pick(&mut dice, &ids).clone();
        let units = Units {
            sqd: dice.below(3) as u32,
            ag: dice.below(4) as u32,
            pdf: dice.below(2) as u32,
        };
        let at = if dice.below(4) == 0 {
            // In its own, a neutral or an enemy's region (landed there before).
            let r = *pick(&mut dice, &regions);
            let owner = s.owner(r);
            if owner != power && owner != NEUTRAL && !s.at_war_either(&power, owner) {
                continue;
            }
            s.region_name(r)
        } else {
            // Most in the middle of the map, where the neutrals are.
            let (lo, span) = if dice.below(4) == 0 { (0, 15) } else { (3, 9) };
            let c = Cell {
                col: (lo + dice.below(span)) as u8,
                row: 1 + (lo + dice.below(span)) as u16,
            };
            c.to_string()
        };
        let units = if Cell::parse(&at).is_none() {
            Units { sqd: 0, ..units }
        } else {
            units
        };
        let pos = Position::new(&s);
        let side = pos.sides.of(&power).unwrap();
        let place = s.find_place(&at).unwrap();
        if place.cell().is_some() && pos.hostile_at(place, side) {
            continue;
        }
        s.add_units(&power, &at, units);
    }
    s
}

/// Random movement or combat orders, valid or not: moves along random walks (lift-offs
/// and landings included), stances, the NG, LOSSES; attacks and retreats.
fn random_war_orders(s: &State, dice: &mut Dice) -> BTreeMap<String, String> {
    let pos = Position::new(s);
    let mut orders = BTreeMap::new();
    for (me, p) in s.powers.iter().enumerate() {
        let mine: Vec<(Place, Units)> = pos
            .board
            .iter()
            .filter(|&(_, side, _)| side == me)
            .map(|(place, _, u)| (place, u))
            .collect();
        let mut lines = Vec::new();
        // Stacks with an enemy within two cells often take a stance.
        if s.phase == Phase::Movement {
            for &(place, _) in &mine {
                let Place::Cell(c) = place else { continue };
                let near = pos.board.iter().any(|(p, side, _)| {
                    pos.sides.at_war(me, side) && p.cell().is_some_and(|e| e.distance(c) <= 2)
                });
                if near && dice.below(2) == 0 {
                    let stance = if dice.below(2) == 0 {
                        "INTERCEPT"
                    } else {
                        "BLOCK"
                    };
                    lines.push(format!("{c} {stance}"));
                }
            }
        }
        if !mine.is_empty() {
            for _ in 0..dice.below(8) {
                let (place, units) = *pick(dice, &mine);
                let from = s.place_name(place);
                let line = match (s.phase, dice.below(10)) {
                    (Phase::Movement, 0..=5) => {
                        let mut text = from.clone();
                        if dice.below(2) == 0 {
                            for k in UnitType::ALL {
                                let n = dice.below(u64::from(units.get(k)) + 1);
                                if n > 0 {
                                    text += &format!(" {n}{}", k.name());
                                }
                            }
                        }
                        text += " ->";
                        let mut at = place;
                        for _ in 0..1 + dice.below(4) {
                            let next: Vec<Place> = match at {
                                Place::Cell(c) => {
                                    let mut n: Vec<Place> = pos
                                        .geo
                                        .neighbours(c)
                                        .into_iter()
                                        .map(Place::Cell)
                                        .collect();
                                    if let Some(sys) = pos.geo.system_at(c) {
                                        n.extend(
                                            pos.geo.regions(sys).into_iter().map(Place::Region),
                                        );
                                    }
                                    n
                                }
                                Place::Region(r) => {
                                    let mut n: Vec<Place> = pos
                                        .geo
                                        .planet_neighbours(r)
                                        .into_iter()
                                        .map(Place::Region)
                                        .collect();
                                    n.push(Place::Cell(pos.geo.cell_of(r)));
                                    n
                                }
                            };
                            // Half the time toward an enemy's units (a power at war), if
                            // any are next door.
                            let hostile: Vec<Place> = next
                                .iter()
                                .copied()
                                .filter(|&n| {
                                    pos.board.at(n).any(|(side, _)| pos.sides.at_war(me, side))
                                })
                                .collect();
                            at = if !hostile.is_empty() && dice.below(2) == 0 {
                                *pick(dice, &hostile)
                            } else {
                                *pick(dice, &next)
                            };
                            text += &format!(" {}", s.place_name(at));
                        }
                        text
                    }
                    (Phase::Movement, 6 | 7) => format!(
                        "{from} {}",
                        pick(dice, &["INTERCEPT", "BLOCK", "BLOCK E5", "INTERCEPT"])
                    ),
                    (Phase::Movement, 8) => format!(
                        "NG -> {}",
                        pos.geo
                            .neighbours(s.systems[s.system_index(&p.ng).unwrap()].at)
                            .first()
                            .map(|c| c.to_string())
                            .unwrap_or_default()
                    ),
                    (Phase::Combat, 0..=6) => {
                        let mut targets: Vec<Place> = pos
                            .contact_places(place)
                            .filter(|&t| pos.hostile_at(t, me))
                            .collect();
                        if targets.is_empty() || dice.below(5) == 0 {
                            targets = pos.contact_places(place).collect();
                        }
                        format!("{from} ATTACK {}", s.place_name(*pick(dice, &targets)))
                    }
                    (Phase::Combat, 7 | 8) => {
                        let to: Vec<Place> = pos.contact_places(place).collect();
                        format!("{from} RETREAT {}", s.place_name(*pick(dice, &to)))
                    }
                    _ => format!(
                        "LOSSES {}",
                        pick(dice, &["AG", "PDF SQD", "AG AG", "SQD AG PDF"])
                    ),
                };
                lines.push(line);
            }
        }
        orders.insert(p.id.clone(), lines.join("\n"));
    }
    orders
}

fn totals(s: &State) -> BTreeMap<String, u32> {
    let mut t = BTreeMap::new();
    for k in &s.stacks {
        *t.entry(k.power.clone()).or_default() += k.units.total();
    }
    t
}

fn sum_units(v: &serde_json::Value) -> u32 {
    ["SQD", "AG", "PDF"]
        .iter()
        .map(|k| v[k].as_u64().unwrap_or(0) as u32)
        .sum()
}

/// Every unit a power lost in the phase, as the output records it.
fn recorded_losses(out: &serde_json::Value) -> BTreeMap<String, u32> {
    let mut lost: BTreeMap<String, u32> = BTreeMap::new();
    let mut add = |power: &serde_json::Value, units: &serde_json::Value| {
        *lost.entry(power.as_str().unwrap().to_string()).or_default() += sum_units(units);
    };
    for m in out["moves"].as_array().unwrap() {
        add(&m["power"], &m["lost"]);
    }
    for t in out["transit_attacks"].as_array().unwrap() {
        add(&t["power"], &t["interceptor_lost"]);
    }
    for b in out["blocks"].as_array().unwrap() {
        add(&b["power"], &b["lost"]);
    }
    for d in out["disbanded"].as_array().unwrap() {
        add(&d["power"], &d["units"]);
    }
    for c in out["combats"].as_array().unwrap() {
        for l in c["losses"].as_array().unwrap() {
            add(&l["power"], &l["units"]);
        }
    }
    lost
}

/// Cells where units of sides hostile to each other stand.
fn hostile_cells(s: &State) -> Vec<String> {
    let pos = Position::new(s);
    let mut out = Vec::new();
    let cells: std::collections::BTreeSet<Place> = pos
        .board
        .iter()
        .filter(|(p, _, _)| p.cell().is_some())
        .map(|(p, _, _)| p)
        .collect();
    for place in cells {
        let sides: Vec<usize> = pos.board.at(place).map(|(side, _)| side).collect();
        if sides
            .iter()
            .any(|&a| sides.iter().any(|&b| pos.sides.hostile(a, b)))
        {
            out.push(s.place_name(place));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Movement and combat over random positions and orders: units conserved but for
    /// the losses and disbands the output records; no stack ends movement in a cell with
    /// hostile units (but those standing there before) nor above the stacking limit;
    /// byte-identical output; the same game again from its orders and seed.
    #[test]
    fn random_wars_keep_the_invariants(seed in any::<u64>()) {
        let mut s = random_war_state(seed);
        let mut dice = Dice::for_phase(seed, 2, "war orders");
        let mut history = Vec::new();
        let start = s.clone();
        for _ in 0..6 {
            if s.phase == Phase::Over {
                break;
            }
            if !matches!(s.phase, Phase::Movement | Phase::Combat) {
                let (next, _) = gf::adjudicate(&s, &BTreeMap::new(), seed);
                history.push(BTreeMap::new());
                s = next;
                continue;
            }
            let orders = random_war_orders(&s, &mut dice);
            let (next, log) = gf::adjudicate(&s, &orders, seed);
            let (again, log2) = gf::adjudicate(&s, &orders, seed);
            let out = output_json(&s, &next, &log);
            prop_assert_eq!(&out, &output_json(&s, &again, &log2));
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            // Conservation, power by power (a power put out loses everything).
            let (before, after, lost) = (totals(&s), totals(&next), recorded_losses(&v));
            for p in next.powers.iter().filter(|p| !p.out) {
                let b = before.get(&p.id).copied().unwrap_or(0);
                let a = after.get(&p.id).copied().unwrap_or(0);
                prop_assert_eq!(b, a + lost.get(&p.id).copied().unwrap_or(0),
                    "{} in {:?}: {} before, {} after, {:?} recorded", p.id, s.phase, b, a, lost);
            }
            if s.phase == Phase::Movement {
                let was: Vec<String> = hostile_cells(&s);
                let newly_out = next.powers.iter().zip(&s.powers).any(|(a, b)| a.out && !b.out);
                for cell in hostile_cells(&next) {
                    prop_assert!(was.contains(&cell) || newly_out,
                        "hostile units end movement together at {}", cell);
                }
                for k in &next.stacks {
                    let limit = if Cell::parse(&k.at).is_some() { 3 } else { 6 };
                    prop_assert!(k.units.sqd <= limit && k.units.ag <= limit && k.units.pdf <= limit,
                        "{}@{} above the limit after movement", k.power, k.at);
                }
            }
            let lines: usize = orders.values().map(|t| gf::lines(t).count()).sum();
            prop_assert_eq!(log.results.len(), lines);
            history.push(orders);
            s = next;
        }
        let mut replay = start;
        for orders in &history {
            replay = gf::adjudicate(&replay, orders, seed).0;
        }
        prop_assert_eq!(replay, s);
    }

    /// Permuting a power's independent move orders (each from its own place, with its
    /// units named) changes nothing when every die is the same.
    #[test]
    fn g4_4_the_order_of_independent_moves_changes_nothing(seed in any::<u64>(), die in 1u8..=6) {
        let s = random_war_state(seed);
        let mut dice = Dice::for_phase(seed, 3, "independent");
        let pos = Position::new(&s);
        let mut orders = BTreeMap::new();
        let mut shuffled = BTreeMap::new();
        for (me, p) in s.powers.iter().enumerate() {
            let mut lines = Vec::new();
            for (place, _, units) in pos.board.iter().filter(|&(_, side, _)| side == me) {
                let Place::Cell(c) = place else { continue };
                let next = *pick(&mut dice, &pos.geo.neighbours(c));
                let then = *pick(&mut dice, &pos.geo.neighbours(next));
                let mut text = s.place_name(place);
                for k in UnitType::ALL {
                    if units.get(k) > 0 {
                        text += &format!(" {}{}", units.get(k), k.name());
                    }
                }
                lines.push(format!("{text} -> {next} {then}"));
            }
            let mut other = lines.clone();
            dice.shuffle(&mut other);
            orders.insert(p.id.clone(), lines.join("\n"));
            shuffled.insert(p.id.clone(), other.join("\n"));
        }
        let pinned = vec![die; 400];
        let (a, la) = gf::adjudicate_with_dice(&s, &orders, seed, &pinned);
        let (b, lb) = gf::adjudicate_with_dice(&s, &shuffled, seed, &pinned);
        prop_assert_eq!(&a, &b);
        let sorted = |l: &gf::outcome::Log| {
            let mut r: Vec<(String, String, &str, String)> = l
                .results
                .iter()
                .map(|r| (r.power.clone(), r.order.clone(), r.outcome.id(), r.detail.clone()))
                .collect();
            r.sort();
            r
        };
        prop_assert_eq!(sorted(&la), sorted(&lb));
    }
}

/// The random wars above are wars: over a few seeds their phases move units, intercept,
/// block, fight in space and on the ground, and disband.
#[test]
fn random_wars_reach_every_kind_of_event() {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..40u64 {
        let mut s = random_war_state(seed);
        let mut dice = Dice::for_phase(seed, 2, "war orders");
        for _ in 0..2 {
            let orders = random_war_orders(&s, &mut dice);
            let (next, log) = gf::adjudicate(&s, &orders, seed);
            let v: serde_json::Value = serde_json::from_str(&output_json(&s, &next, &log)).unwrap();
            for key in [
                "moves",
                "transit_attacks",
                "blocks",
                "disbanded",
                "conquests",
            ] {
                *seen.entry(key).or_default() += v[key].as_array().map_or(0, Vec::len);
            }
            for c in v["combats"].as_array().into_iter().flatten() {
                let key = match (
                    c["roll"].is_null(),
                    c["target"].as_str().unwrap().contains('-'),
                ) {
                    (true, _) => "combats not made",
                    (false, true) => "ground combats",
                    (false, false) => "space combats",
                };
                *seen.entry(key).or_default() += 1;
            }
            s = next;
            if s.phase != Phase::Combat {
                break;
            }
        }
    }
    for key in [
        "moves",
        "transit_attacks",
        "blocks",
        "disbanded",
        "space combats",
        "ground combats",
    ] {
        assert!(
            seen.get(key).copied().unwrap_or(0) > 0,
            "no {key}: {seen:?}"
        );
    }
}
