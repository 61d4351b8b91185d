//! Battles for the Galactic Empire properties over random positions and random (valid
//! and invalid) orders: every fleet and chit is somewhere, exactly once; RP never
//! negative nor carried above 10; the position after an Action phase is whole;
//! byte-identical output for the same input; a game replayed from its orders and seed
//! ends the same; and no scenario text, however damaged, makes `adjudicate` panic.

use std::collections::BTreeMap;

use pbem::dice::Dice;
use pbem::rules::battles_galactic_empire::state::{
    Options, Phase, Scenario, State, Switcheroo, Unit,
};
use pbem::rules::battles_galactic_empire::types::{
    fleet_value, region_name, Chit, Kind, Power, Slot,
};
use pbem::rules::battles_galactic_empire::{self as bfge, scenario, setup};
use proptest::prelude::*;

fn pick<'a, T>(d: &mut Dice, items: &'a [T]) -> &'a T {
    &items[d.below(items.len() as u64) as usize]
}

fn random_options(d: &mut Dice) -> Options {
    Options {
        scenario: *pick(d, &[Scenario::CivilWar, Scenario::Invasion]),
        invader: *pick(d, &Power::BOTH),
        hand_limit: d.below(7) as u32,
        main_weapon: d.below(2) == 0,
        no_moon: d.below(2) == 0,
        switcheroo: *pick(d, &[Switcheroo::Off, Switcheroo::On, Switcheroo::MoreChaos]),
        upgrades: d.below(2) == 0,
        mixed_values: d.below(2) == 0,
    }
}

/// A position of any phase: the standard counters scattered over every place they
/// may be (regions, garrisons, displays, pools, the common pools, TH supplies), chits
/// over hands and pools, values, Index and RP stirred.
fn random_state(seed: u64) -> State {
    let mut d = Dice::for_phase(seed, 0, "random bfge state");
    let options = random_options(&mut d);
    let mut s = setup::new_game(options, seed);
    s.dealt.clear();
    s.phase = *pick(
        &mut d,
        &[
            Phase::Setup,
            Phase::Deployment,
            Phase::Actions,
            Phase::Build,
        ],
    );
    s.turn = if s.phase == Phase::Setup {
        0
    } else {
        1 + d.below(10) as u32
    };
    s.chaos = d.below(120) as i64 - 10;
    for r in &mut s.regions {
        for slot in Slot::ALL {
            *r.value_mut(slot) = 1 + d.below(7) as u32;
        }
    }
    if s.phase == Phase::Setup {
        return s;
    }
    for p in Power::BOTH {
        let mut pool = s.side(p).force_pool;
        s.side_mut(p).force_pool = [0; 6];
        s.side_mut(p).rp = d.below(15) as u32;
        for k in Kind::ALL {
            let n = if k == Kind::TH {
                s.side_mut(p).th_supply
            } else {
                pool[k.index()]
            };
            let mut left = [0u32; 3];
            for _ in 0..n {
                match d.below(5) {
                    0 | 1 => {
                        let region = d.below(6) as u8;
                        let garrison = s.phase == Phase::Actions
                            && d.below(3) == 0
                            && !s
                                .units
                                .iter()
                                .any(|u| u.region == region && u.power != p && u.garrison);
                        s.units.push(Unit {
                            region,
                            power: p,
                            kind: k,
                            garrison,
                            marker: None,
                            hits: 0,
                        });
                    }
                    2 => s.side_mut(p).base[k.index()] += 1,
                    3 if k != Kind::TH => s.common.fleets[k.index()] += 1,
                    _ => left[0] += 1,
                }
            }
            if k == Kind::TH {
                s.side_mut(p).th_supply = left[0];
            } else {
                pool[k.index()] = left[0];
            }
        }
        s.side_mut(p).force_pool = pool;
    }
    // The 26 chits over hands, own pools and the common pool.
    let mut all: Vec<(Power, Chit)> = Vec::new();
    for p in Power::BOTH {
        for c in Chit::ALL {
            let n = s.side(p).chit_pool[c.index()] + s.common.chits[c.index()] / 2;
            for _ in 0..n {
                all.push((p, c));
            }
        }
        s.side_mut(p).chit_pool = [0; 5];
    }
    s.common.chits = [0; 5];
    for (p, c) in all {
        match d.below(3) {
            0 if s.hand_size(p) < 7 => s.side_mut(p).hand[c.index()] += 1,
            1 => s.side_mut(p).chit_pool[c.index()] += 1,
            _ => s.common.chits[c.index()] += 1,
        }
    }
    s.tidy();
    s
}

const GARBAGE: [&str; 10] = [
    "",
    "PLAY",
    "RESOLVE Vega",
    "BUILD -1SF",
    "DEPLOY Tau 200SF",
    "\u{2603} \u{1f680}",
    "TARGET ALL",
    "DISENGAGE Tau AFTER x",
    "GARRISON ALL 2SF",
    "PLAY MOVE Tau Tau",
];

/// Random order lines for a power: many of them plausible in the phase, some of
/// another phase, some garbage.
fn random_orders(s: &State, p: Power, d: &mut Dice) -> String {
    let mut lines = Vec::new();
    let r = |d: &mut Dice| region_name(d.below(6) as u8);
    let k = |d: &mut Dice| pick(d, &Kind::ALL).name();
    let c = |d: &mut Dice| pick(d, &Chit::ALL).name();
    for _ in 0..d.below(12) {
        let line = match d.below(22) {
            0 => format!("BUILD {}{} {}", 1 + d.below(3), k(d), k(d)),
            1 => format!("PLACE {} {}{}", r(d), 1 + d.below(3), k(d)),
            2 => format!("DEPLOY {} {}{}", r(d), 1 + d.below(3), k(d)),
            3 => format!("{} {}", r(d), k(d)),
            4 | 5 => format!("RESOLVE {}", r(d)),
            6 => format!("DEPLOY TH {}", r(d)),
            7 => "PLAY BUILD".into(),
            8 => format!("PLAY MOVE {} {}", r(d), r(d)),
            9 => format!(
                "PLAY TACTICAL {} {} {}",
                r(d),
                k(d),
                pick(d, &["", "MORPH", "MILITARY"])
            ),
            10 => format!("PLAY ILLUMINATION TH {}", r(d)),
            11 => "PLAY ILLUMINATION CHAOS".into(),
            12 => format!(
                "REPRESS {}",
                pick(d, &["ANY", "BUILD", "MOVE", "TACTICAL", "ILLUMINATION"])
            ),
            13 => format!(
                "TARGET {} {} {} {}",
                pick(d, &["ALL", "Tau", "Omega"]),
                pick(d, &["MILITARY", "MORPH"]),
                k(d),
                k(d)
            ),
            14 => format!(
                "DISENGAGE {} {}",
                pick(d, &["ALL", "Beta"]),
                pick(d, &["NEVER", "WEAKER", "AFTER 1", "AFTER 3"])
            ),
            15 => format!("PURSUE ALL {}", pick(d, &["YES", "NO"])),
            16 => format!(
                "GARRISON {} {}",
                r(d),
                pick(d, &["MIN", "ALL", "NONE", "2SF", "1WS 1IO"])
            ),
            17 => format!("LOSSES {} {}", k(d), k(d)),
            18 => format!("DISCARD {}", c(d)),
            19 => format!("PLAY {}", c(d)),
            _ => pick(d, &GARBAGE).to_string(),
        };
        lines.push(line);
    }
    let _ = (s, p);
    lines.join("\n")
}

fn random_orders_all(s: &State, d: &mut Dice) -> BTreeMap<String, String> {
    let mut orders = BTreeMap::new();
    for p in Power::BOTH {
        if d.below(5) > 0 {
            orders.insert(p.id().to_string(), random_orders(s, p, d));
        }
    }
    orders
}

fn fleets(s: &State) -> Vec<u32> {
    Kind::ALL.iter().map(|&k| s.fleet_total(k)).collect()
}

fn chits(s: &State) -> Vec<u32> {
    Chit::ALL.iter().map(|&c| s.chit_total(c)).collect()
}

/// The invariants of a position after a phase.
fn check_after(before: &State, after: &State) {
    assert_eq!(fleets(before), fleets(after), "every fleet somewhere, once");
    assert_eq!(chits(before), chits(after), "every chit somewhere, once");
    for r in 0..6u8 {
        let g: Vec<&Unit> = after
            .units
            .iter()
            .filter(|u| u.region == r && u.garrison)
            .collect();
        assert!(
            g.iter().all(|u| u.power == g[0].power),
            "garrisons of both powers in {}",
            region_name(r)
        );
    }
    assert!(after
        .units
        .iter()
        .all(|u| u.marker.is_none() || after.phase == Phase::Actions));
    match before.phase {
        Phase::Actions => {
            if after.phase == Phase::Build || after.phase == Phase::Over {
                assert!(
                    after.regions.iter().all(|r| r.resolved),
                    "a region unresolved"
                );
                // Only garrisons stay on the map, each above its region's Combat value
                // (a TH's value may have moved with the Index since).
                assert!(after.units.iter().all(|u| u.garrison));
                for r in 0..6u8 {
                    let units: Vec<&Unit> = after.units.iter().filter(|u| u.region == r).collect();
                    if !units.is_empty() && units.iter().all(|u| u.kind != Kind::TH) {
                        let v: u32 = units
                            .iter()
                            .map(|u| fleet_value(u.kind, u.power, after.chaos))
                            .sum();
                        assert!(v > after.regions[usize::from(r)].combat);
                    }
                }
            }
        }
        Phase::Build | Phase::Setup => {
            for p in Power::BOTH {
                assert!(after.side(p).rp <= 10, "more than 10 RP carried over");
                let limit = after.options.hand_limit;
                assert!(
                    after.hand_size(p) <= limit.max(before.hand_size(p)),
                    "a hand above its limit"
                );
            }
            assert_eq!(after.phase, Phase::Deployment);
            assert_eq!(after.turn, before.turn + 1);
        }
        Phase::Deployment => assert_eq!(after.phase, Phase::Actions),
        Phase::Over => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn bfge_random_phases_conserve_counters_and_rp(seed in any::<u64>(), phases in 1usize..8) {
        let mut s = random_state(seed);
        let mut d = Dice::for_phase(seed, 1, "random bfge orders");
        for _ in 0..phases {
            if s.phase == Phase::Over {
                break;
            }
            let orders = random_orders_all(&s, &mut d);
            let (after, log) = bfge::adjudicate(&s, &orders, seed);
            check_after(&s, &after);
            // Byte-identical output for the same input.
            let (again, log2) = bfge::adjudicate(&s, &orders, seed);
            prop_assert_eq!(scenario::output_json(&s, &after, &log), scenario::output_json(&s, &again, &log2));
            // A result for every order line written.
            let written: usize = orders.values().map(|t| bfge::check::lines(t).count()).sum();
            prop_assert_eq!(log.results.len(), written);
            let json = scenario::output_value(&s, &after, &log);
            for p in json["powers"].as_array().unwrap() {
                prop_assert!(p["rp"].as_i64().unwrap() >= 0);
            }
            s = after;
        }
    }

    #[test]
    fn bfge_a_game_replayed_from_its_orders_ends_the_same(seed in any::<u64>()) {
        let mut d = Dice::for_phase(seed, 0, "options");
        let options = random_options(&mut d);
        let play = |d: &mut Dice| {
            let mut s = setup::new_game(options, seed);
            let mut history = Vec::new();
            for _ in 0..40 {
                if s.phase == Phase::Over {
                    break;
                }
                let orders = random_orders_all(&s, d);
                let (next, log) = bfge::adjudicate(&s, &orders, seed);
                history.push((orders, scenario::output_json(&s, &next, &log)));
                s = next;
            }
            (s, history)
        };
        let (end, history) = play(&mut Dice::for_phase(seed, 1, "orders"));
        let mut s = setup::new_game(options, seed);
        for (orders, json) in &history {
            let (next, log) = bfge::adjudicate(&s, orders, seed);
            prop_assert_eq!(&scenario::output_json(&s, &next, &log), json);
            check_after(&s, &next);
            s = next;
        }
        prop_assert_eq!(s, end);
    }

    #[test]
    fn bfge_damaged_scenarios_never_panic(seed in any::<u64>(), edits in 1usize..6) {
        let mut d = Dice::for_phase(seed, 0, "damage");
        let paths = crate::bfge_cases::case_paths();
        let path = pick(&mut d, &paths).clone();
        let (text, _) = crate::bfge_cases::scenario_text(&path);
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        const BITS: [&str; 14] = ["-1", "99999999999", "\"", "[", "]]", "=", "x", "SF", "TH", "base", "0", "7", "garrison = true", "nope = 1"];
        for _ in 0..edits {
            if lines.is_empty() {
                break;
            }
            let k = d.below(lines.len() as u64) as usize;
            match d.below(4) {
                0 => {
                    lines.remove(k);
                }
                1 => {
                    let dup = lines[k].clone();
                    lines.insert(k, dup);
                }
                2 => {
                    let line = &mut lines[k];
                    let at = line.char_indices().map(|(i, _)| i).nth(d.below(line.chars().count() as u64 + 1) as usize).unwrap_or(line.len());
                    let bit: &&str = pick(&mut d, &BITS);
                    line.insert_str(at, bit);
                }
                _ => {
                    // A number replaced by another.
                    let line = &mut lines[k];
                    if let Some(pos) = line.find(|c: char| c.is_ascii_digit()) {
                        let n: &&str = pick(&mut d, &["-3", "0", "100000", "6", "9"]);
                        line.replace_range(pos..pos + 1, n);
                    }
                }
            }
        }
        let damaged = lines.join("\n");
        match pbem::scenario::adjudicate_text(&damaged, path.parent().unwrap()) {
            Ok(json) => {
                prop_assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok());
            }
            Err(e) => {
                let message = e.to_string();
                prop_assert!(!message.contains('\n'), "{}", message);
                prop_assert!(!message.is_empty());
            }
        }
    }
}

/// The random inputs above are not idle: they reach every outcome of B12.2, and the
/// damaged scenarios are sometimes read and sometimes refused.
#[test]
fn bfge_random_inputs_reach_every_outcome() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..300u64 {
        let s = random_state(seed);
        let mut d = Dice::for_phase(seed, 1, "random bfge orders");
        let orders = random_orders_all(&s, &mut d);
        let (_, log) = bfge::adjudicate(&s, &orders, seed);
        for r in &log.results {
            seen.insert(r.outcome.id());
        }
    }
    let all = [
        "done",
        "partial",
        "failed",
        "cancelled",
        "unused",
        "noted",
        "invalid",
    ];
    assert_eq!(seen.into_iter().collect::<Vec<_>>().len(), all.len());
}
