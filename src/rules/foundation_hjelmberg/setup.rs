//! Creation and setup (H3): the layout drawn from the game's seed, then every player's
//! first ship and cube.

use std::sync::Arc;

use super::data::{Data, MAX_PLANETS, MAX_SEATS, MAX_TILES};
use super::order::{line_text, Line};
use super::outcome::{Draw, LineResult, Log, Outcome};
use super::state::{Core, Options, Phase, Player, State, NONE};
use super::turn::{empire_detail, read_submission, standing_response, Ctx, Drawer, Written};
use crate::dice::Dice;

/// An empty position for `seats` players: nothing placed yet.
pub fn empty_core(seats: u8) -> Core {
    Core {
        players: [Player::default(); MAX_SEATS],
        seats,
        phase: Phase::Setup,
        round: 0,
        next: 0,
        empire_kin: seats.saturating_sub(1),
        empire: 0,
        planets: [NONE; MAX_PLANETS],
        stock: [0; MAX_PLANETS],
        colony: [NONE; MAX_PLANETS],
        core_tiles: [0; MAX_TILES],
        piles: [[0; MAX_TILES]; 3],
        goal_pile: 0,
        goals: [NONE; 3],
        revealed: 0,
        discard: [0; MAX_TILES],
        winner: NONE,
        personal_revealed: 0,
    }
}

fn pick(dice: &mut Dice, counts: &mut [u8]) -> usize {
    let total: u64 = counts.iter().map(|&n| u64::from(n)).sum();
    let mut r = dice.below(total);
    for (k, n) in counts.iter_mut().enumerate() {
        if r < u64::from(*n) {
            *n -= 1;
            return k;
        }
        r -= u64::from(*n);
    }
    unreachable!("r < total")
}

/// A new game (H3.1, H3.2): the layout drawn from the seed (or the standard layout's
/// planets and colony tiles), 1 cube on every planet, the Empire pairs.
pub fn create(
    data: Arc<Data>,
    seating: Vec<String>,
    options: Options,
    standard: bool,
    seed: u64,
) -> State {
    let d = &*data;
    let mut dice = Dice::for_phase(seed, 0, "creation");
    let mut core = empty_core(seating.len() as u8);
    let mut draws = Vec::new();
    let outer: Vec<u8> = (0..d.planets.len() as u8)
        .filter(|&p| d.planet_level[usize::from(p)] == 1)
        .collect();
    let middle: Vec<u8> = (0..d.planets.len() as u8)
        .filter(|&p| d.planet_level[usize::from(p)] == 2)
        .collect();
    let mut kinds: [Vec<u8>; 3] = Default::default();
    for (k, t) in d.tiles.iter().enumerate() {
        kinds[usize::from(t.level) - 1].push(k as u8);
    }
    if standard {
        for p in 0..d.planets.len() {
            if let Some(t) = d.standard.planets[p] {
                core.planets[p] = t;
            }
            if let Some(t) = d.standard.colonies[p] {
                core.colony[p] = t;
            }
        }
        for &t in &d.standard.core {
            core.core_tiles[usize::from(t)] += 1;
        }
        for (k, pile) in d.standard.piles.iter().enumerate() {
            for &t in pile {
                core.piles[k][usize::from(t)] += 1;
            }
        }
    } else {
        for (level, planets, pile) in [(1u8, &outer, "planet1"), (2, &middle, "planet2")] {
            let tiles: Vec<u8> = (0..d.planet_tiles.len() as u8)
                .filter(|&t| {
                    d.colour_level[usize::from(d.planet_tiles[usize::from(t)].colour)] == level
                })
                .collect();
            let mut counts = vec![1u8; tiles.len()];
            for &p in planets {
                let t = tiles[pick(&mut dice, &mut counts)];
                core.planets[usize::from(p)] = t;
                draws.push(Draw {
                    step: "H3.2",
                    pile,
                    drew: d.planet_tiles[usize::from(t)].id.clone(),
                    for_: d.planet_name(p).to_string(),
                    to: None,
                });
            }
        }
        let core_planet = [d.core; 3];
        for (level, spaces) in [
            (1usize, &outer[..]),
            (2, &middle[..]),
            (3, &core_planet[..]),
        ] {
            let mut counts = [0u8; MAX_TILES];
            for &k in &kinds[level - 1] {
                counts[usize::from(k)] = d.tiles[usize::from(k)].copies;
            }
            for &p in spaces {
                let t = pick(&mut dice, &mut counts[..d.tiles.len()]) as u8;
                if p == d.core {
                    core.core_tiles[usize::from(t)] += 1;
                } else {
                    core.colony[usize::from(p)] = t;
                }
                draws.push(Draw {
                    step: "H3.2",
                    pile: ["colony1", "colony2", "colony3"][level - 1],
                    drew: d.tiles[usize::from(t)].id.clone(),
                    for_: d.planet_name(p).to_string(),
                    to: None,
                });
            }
            core.piles[level - 1] = counts;
        }
    }
    // Goals: 3 face down on GOAL 1-3, the rest the goal pile.
    let mut counts = vec![1u8; d.goals.len()];
    for n in 0..3 {
        let g = pick(&mut dice, &mut counts);
        core.goals[n] = g as u8;
        draws.push(Draw {
            step: "H3.2",
            pile: "goals",
            drew: d.goal_ids[g].clone(),
            for_: format!("GOAL {}", n + 1),
            to: Some(Vec::new()),
        });
    }
    for (g, &n) in counts.iter().enumerate() {
        if n > 0 {
            core.goal_pile |= 1 << g;
        }
    }
    // One Empire pair per ring, on opposite gates.
    for (r, ring) in d.rings.iter().enumerate() {
        let k = dice.below((ring.len() / 2) as u64) as usize;
        let g = ring[k];
        core.empire |= (1 << g) | (1 << d.opposite[usize::from(g)]);
        draws.push(Draw {
            step: "H3.2",
            pile: "empire",
            drew: format!(
                "{} {}",
                d.gate_name(g),
                d.gate_name(d.opposite[usize::from(g)])
            ),
            for_: format!("ring {}", ["A", "B", "C"][r]),
            to: None,
        });
    }
    for p in 0..d.planets.len() {
        core.stock[p] = 1;
    }
    State {
        data,
        seating,
        options,
        core: Box::new(core),
        creation: draws,
    }
}

/// The creation draws, reported with the setup phase (H3.2, H11.1).
fn report_creation(state: &State, log: &mut Log) {
    if state.creation.is_empty() {
        return;
    }
    let d = &*state.data;
    let c = &state.core;
    log.draws.extend(state.creation.iter().cloned());
    let planets: Vec<String> = (0..d.planets.len())
        .filter(|&p| c.planets[p] != NONE)
        .map(|p| {
            format!(
                "{} {}",
                d.planets[p],
                d.planet_tiles[usize::from(c.planets[p])].id
            )
        })
        .collect();
    log.event("H3.2", format!("planet tiles: {}", planets.join(", ")));
    let colonies: Vec<String> = (0..d.planets.len())
        .filter(|&p| c.colony[p] != NONE)
        .map(|p| format!("{} {}", d.planets[p], d.tile_name(c.colony[p])))
        .collect();
    let core_tiles: Vec<&str> = (0..d.tiles.len())
        .flat_map(|k| std::iter::repeat_n(d.tile_name(k as u8), usize::from(c.core_tiles[k])))
        .collect();
    log.event(
        "H3.2",
        format!(
            "colony tiles: {}, CORE {}",
            colonies.join(", "),
            core_tiles.join(" ")
        ),
    );
    log.event(
        "H3.2",
        format!(
            "face-down piles: colony1 {}, colony2 {}, colony3 {} tiles; 3 goal tiles face down on GOAL 1-3, {} in the goal pile",
            c.pile_size(0),
            c.pile_size(1),
            c.pile_size(2),
            c.goal_pile.count_ones()
        ),
    );
    log.event(
        "H3.2",
        format!("Empire ships: {}", Core::gate_names(d, c.empire)),
    );
}

/// One player's START lines (H3.3): the first line with a possible alternative is
/// carried out, impossible ones before it fail, later ones are unused; none: the
/// default.
pub fn start_lines(ctx: &mut Ctx, seat: u8, sub: &[Written]) {
    let d = ctx.data;
    let mut done = false;
    let name = ctx.name(seat).to_string();
    // H7.5: her last EMPIRE line sets her standing response.
    standing_response(ctx, seat, sub, "");
    for w in sub {
        let order = match &w.read {
            Ok(l) => line_text(d, l),
            Err(_) => w.text.clone(),
        };
        let (outcome, detail) = match &w.read {
            Err(e) => (Outcome::Invalid, e.clone()),
            Ok(Line::Empire(_)) => (Outcome::Done, empire_detail(ctx, seat, w)),
            Ok(Line::Declare) => (
                Outcome::Done,
                "nothing to do: the judge declares every victory (H9.4)".into(),
            ),
            Ok(Line::Start(_)) if done => (Outcome::Unused, "her start was made already".into()),
            Ok(Line::Start(alts)) => {
                match ctx.first_possible(alts, |c, &(g, col)| start(c, seat, g, col)) {
                    Ok((k, detail)) => {
                        done = true;
                        (
                            Outcome::Done,
                            if k == 0 {
                                detail
                            } else {
                                format!("(alternative {}) {detail}", k + 1)
                            },
                        )
                    }
                    Err(reasons) => (Outcome::Failed, reasons.join("; ")),
                }
            }
            Ok(_) => (Outcome::Invalid, "the setup phase takes START lines".into()),
        };
        ctx.log.results.push(LineResult {
            seat,
            line: w.line,
            order,
            outcome,
            detail,
            secret: None,
        });
    }
    if !done {
        let gate = d.rings[0]
            .iter()
            .copied()
            .find(|&g| (ctx.core.all_ships() | ctx.core.empire) & (1 << g) == 0);
        let colour = d.levels[0]
            .iter()
            .copied()
            .find(|&c| ctx.core.supply(d, c) > 0);
        let mut parts = Vec::new();
        if let Some(g) = gate {
            ctx.core.player_mut(seat).ships |= 1 << g;
            parts.push(format!("a ship on {}", d.gate_name(g)));
        }
        if let Some(c) = colour {
            ctx.core.player_mut(seat).hand[usize::from(c)] += 1;
            parts.push(format!("1 {}", d.colour_name(c)));
        }
        ctx.log.event(
            "H3.3",
            format!("{name} starts by default: {}", parts.join(" and ")),
        );
    }
}

fn start(ctx: &mut Ctx, seat: u8, gate: u8, colour: u8) -> Result<String, String> {
    let d = ctx.data;
    if (ctx.core.all_ships() | ctx.core.empire) & (1 << gate) != 0 {
        return Err(format!("{} is not empty", d.gate_name(gate)));
    }
    if ctx.core.supply(d, colour) == 0 {
        return Err(format!("no {} left in the supply", d.colour_name(colour)));
    }
    let p = ctx.core.player_mut(seat);
    p.ships |= 1 << gate;
    p.hand[usize::from(colour)] += 1;
    Ok(format!(
        "a ship on {} and 1 {}",
        d.gate_name(gate),
        d.colour_name(colour)
    ))
}

/// The setup phase (H3.3): the Empire kin holder first, then counterclockwise.
pub fn run(state: &State, orders: &std::collections::BTreeMap<String, String>) -> (Core, Log) {
    let d = &*state.data;
    let mut ctx = Ctx::new(
        d,
        &state.seating,
        *state.core,
        Drawer::new(0, Vec::new()),
        false,
    );
    report_creation(state, &mut ctx.log);
    let n = state.core.seats;
    let first = state.core.empire_kin;
    for k in 0..n {
        let seat = (first + n - k) % n;
        let sub = orders
            .get(state.name(seat))
            .map(|t| read_submission(d, t, true))
            .unwrap_or_default();
        start_lines(&mut ctx, seat, &sub);
    }
    ctx.core.phase = Phase::Play;
    ctx.core.round = 1;
    ctx.core.next = 0;
    ctx.log
        .event("H3.3", "setup done: round 1 begins".to_string());
    (ctx.core, ctx.log)
}
