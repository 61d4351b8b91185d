//! Scenarios and set-up (B3): the standard mix, the deal of the value chits (B1.3),
//! and the setup phase (turn 0): builds (B3.2), the Invasion defender's placement
//! (B3.3), their defaults (B3.4), then the draw of turn 1.

use super::build;
use super::check::Entry;
use super::draw;
use super::outcome::Outcome;
use super::rng::Rng;
use super::state::{Common, Options, Phase, Region, Scenario, Side, State, Unit};
use super::syntax::Order;
use super::types::{fleet_value, fleets_text, region_name, Fleets, Kind, Power, Slot};
use super::{Plans, Run};

/// The standard force pool of each power (B3): 8 SF, 6 CG, 3 AF, 2 IO, 1 WS.
pub const FORCE_POOL: Fleets = [8, 6, 3, 2, 1, 0];
/// The standard TH supply (B3).
pub const TH_SUPPLY: u32 = 2;
/// Each power's 13 action chits (B3): 3 BUILD, 3 MOVE, 3 TACTICAL, 2 ILLUMINATION,
/// 2 REPRESSION.
pub const CHITS: [u32; 5] = [3, 3, 3, 2, 2];
/// The start RP of a builder (B3).
pub const START_RP: u32 = 30;
/// The Chaos Index at the start (B1.4).
pub const START_CHAOS: i64 = 50;

/// The values of the 18 slots, region by region (Combat, Political, Resource), each
/// with the name of the chit standing in it.
pub type Deal = [[(u32, String); 3]; 6];

/// Deals the value chits at random from the draw stream (B1.3): each group to the
/// slots of its kind in region order, or, with `mixed_values`, all 18 to all 18 slots.
pub fn deal(rng: &mut Rng, mixed: bool) -> Deal {
    let mut out: Deal = Default::default();
    let chit = |slot: Slot, v: u32| (v, format!("{}{v}", slot.letter()));
    if mixed {
        let mut all: Vec<(u32, String)> = Slot::ALL
            .iter()
            .flat_map(|&s| (1..=6).map(move |v| chit(s, v)))
            .collect();
        rng.draw_stream().shuffle(&mut all);
        for (k, c) in all.into_iter().enumerate() {
            out[k / 3][k % 3] = c;
        }
    } else {
        for (i, &slot) in Slot::ALL.iter().enumerate() {
            let mut values: Vec<u32> = (1..=6).collect();
            rng.draw_stream().shuffle(&mut values);
            for (r, v) in values.into_iter().enumerate() {
                out[r][i] = chit(slot, v);
            }
        }
    }
    out
}

/// Writes a deal into the regions named (all, for a new game), and remembers it to
/// report with the setup's results.
pub fn apply_deal(state: &mut State, deal: &Deal, regions: &[u8]) {
    for &r in regions {
        for (i, slot) in Slot::ALL.into_iter().enumerate() {
            let (v, name) = &deal[usize::from(r)][i];
            *state.regions[usize::from(r)].value_mut(slot) = *v;
            state.dealt.push((r, i as u8, name.clone()));
        }
    }
}

/// A new game of the chosen scenario (B3), its value chits dealt from the seed (B1.3).
pub fn new_game(options: Options, seed: u64) -> State {
    let chits_own = options.scenario == Scenario::CivilWar;
    let side = |p: Power| Side {
        rp: match options.defender() {
            Some(d) if d == p => 0,
            _ => START_RP,
        },
        hand: [0; 5],
        chit_pool: if chits_own { CHITS } else { [0; 5] },
        force_pool: FORCE_POOL,
        th_supply: TH_SUPPLY,
        base: [0; 6],
    };
    let mut state = State {
        turn: 0,
        phase: Phase::Setup,
        chaos: START_CHAOS,
        options,
        regions: [Region::default(); 6],
        units: Vec::new(),
        powers: [side(Power::Blue), side(Power::Red)],
        common: Common {
            chits: if chits_own {
                [0; 5]
            } else {
                CHITS.map(|n| 2 * n)
            },
            fleets: [0; 6],
        },
        winner: None,
        dealt: Vec::new(),
    };
    let d = deal(
        &mut Rng::for_phase(seed, 0, Phase::Setup.id()),
        options.mixed_values,
    );
    apply_deal(&mut state, &d, &[0, 1, 2, 3, 4, 5]);
    state
}

/// The setup phase (B3.2): builds, placement, then the draw of turn 1.
pub fn adjudicate(run: &mut Run, plans: Plans) {
    // The deal was the first use of this phase's draw stream (B1.3, B13.2): draw it
    // again so that the chit draws go on from where it stopped.
    let _ = deal(&mut run.rng, run.state.options.mixed_values);
    report_deal(run);
    let defender = run.state.options.defender();
    let mut builds: Plans = [None, None];
    for p in Power::BOTH {
        if Some(p) == defender {
            place(run, p, plans[p.index()].as_deref());
        } else {
            builds[p.index()] = Some(match &plans[p.index()] {
                Some(entries) => entries.clone(),
                None => Vec::new(),
            });
            if plans[p.index()].is_none() {
                default_builds(run, p);
            }
        }
    }
    build::build_all(run, &builds);
    build::carry_over(run);
    run.state.turn = 1;
    draw::draw(run, [[0; 5]; 2], defender);
    run.state.phase = Phase::Deployment;
}

fn report_deal(run: &mut Run) {
    if run.state.dealt.is_empty() {
        return;
    }
    let mut by_region: Vec<String> = Vec::new();
    for r in 0..6u8 {
        let chits: Vec<&str> = run
            .state
            .dealt
            .iter()
            .filter(|d| d.0 == r)
            .map(|d| d.2.as_str())
            .collect();
        if chits.is_empty() {
            continue;
        }
        let reg = run.state.regions[usize::from(r)];
        by_region.push(format!(
            "{} {} (Combat {}, Political {}, Resource {})",
            region_name(r),
            chits.join(" "),
            reg.combat,
            reg.political,
            reg.resource
        ));
    }
    run.log.event(
        "B1.3",
        format!("value chits dealt: {}", by_region.join("; ")),
    );
    run.state.dealt.clear();
}

/// B3.4 for a builder without orders: SF, CG, SF, CG … from the force pool (a type it
/// lacks skipped) until it can build neither.
fn default_builds(run: &mut Run, p: Power) {
    let mut built = [0u32; 6];
    let mut next = Kind::SF;
    loop {
        let side = run.state.side_mut(p);
        let can = |k: Kind| side.force_pool[k.index()] > 0 && side.rp >= k.cost();
        let kind = if can(next) {
            next
        } else {
            let other = if next == Kind::SF { Kind::CG } else { Kind::SF };
            if !can(other) {
                break;
            }
            other
        };
        side.force_pool[kind.index()] -= 1;
        side.base[kind.index()] += 1;
        side.rp -= kind.cost();
        built[kind.index()] += 1;
        next = if kind == Kind::SF { Kind::CG } else { Kind::SF };
    }
    let rp = run.state.side(p).rp;
    run.log.event(
        "B3.4",
        format!(
            "{p} builds by default: {}; {rp} RP left",
            fleets_text(&built)
        ),
    );
}

/// The Invasion defender's placement (B3.3), or its default (B3.4).
fn place(run: &mut Run, p: Power, entries: Option<&[Entry]>) {
    let mut placed = [[0u32; 6]; 6];
    match entries {
        Some(entries) => {
            for e in entries {
                if let Order::Place(r, f) = &e.order {
                    let side = run.state.side_mut(p);
                    for k in Kind::ALL {
                        side.force_pool[k.index()] -= f[k.index()];
                        placed[usize::from(*r)][k.index()] += f[k.index()];
                    }
                    run.log.settle(
                        e.line,
                        Outcome::Done,
                        format!("placed in {}", region_name(*r)),
                    );
                }
            }
        }
        None => {
            for (r, here) in placed.iter_mut().enumerate() {
                let limit = run.state.regions[r].combat + run.state.regions[r].resource;
                let mut value = 0;
                for k in [Kind::SF, Kind::CG] {
                    let side = run.state.side_mut(p);
                    while side.force_pool[k.index()] > 0 && value + k.cost() <= limit {
                        side.force_pool[k.index()] -= 1;
                        here[k.index()] += 1;
                        value += k.cost();
                    }
                }
            }
            run.log.event(
                "B3.4",
                format!("{p} places by default: SFs, then CGs, region by region"),
            );
        }
    }
    for (r, f) in placed.iter().enumerate() {
        let value: u32 = Kind::ALL
            .iter()
            .map(|&k| f[k.index()] * fleet_value(k, p, run.state.chaos))
            .sum();
        if value == 0 {
            continue;
        }
        let combat = run.state.regions[r].combat;
        let garrison = value > combat;
        for k in Kind::ALL {
            for _ in 0..f[k.index()] {
                run.state.units.push(Unit {
                    region: r as u8,
                    power: p,
                    kind: k,
                    garrison,
                    marker: None,
                    hits: 0,
                });
            }
        }
        run.log.event(
            "B3.3",
            format!(
                "{p} places {} in {} (value {value}){}",
                fleets_text(f),
                region_name(r as u8),
                if garrison {
                    format!(": its garrison, above Combat {combat}")
                } else {
                    format!(": not a garrison, Combat {combat} not exceeded")
                }
            ),
        );
    }
}
