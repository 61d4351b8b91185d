//! Scripted players for tests and benchmarks: each writes the orders of her next turn
//! from what she may see (the public position, her own goals), by trying candidate
//! orders on a copy of the position and keeping the best two, with the next best as
//! `ELSE` alternatives and fallback lines.

use super::data::{
    bits, dynasty_space, space_parts, Action, Data, Goal, CENTER, GOAL_SPACE, PERSONAL,
};
use super::goals;
use super::order::{order_text, Act, Kind, Mods, Order};
use super::state::{Core, Phase, State, NONE};
use super::turn::{Ctx, Drawer};
use super::{actions, kins};

/// How a scripted player plays: 0 a builder, 1 a fighter (battles, yields never), 2 a
/// researcher, 3 a trader; any other value mixes them.
pub type Style = u8;

fn ctx<'a>(state: &'a State, core: Core) -> Ctx<'a> {
    Ctx::new(
        &state.data,
        &state.seating,
        core,
        Drawer::new(0, Vec::new()),
        true,
    )
}

fn act_from(action: Action, level: u8, kind: Kind, from: usize) -> Order {
    let mut mods = Mods::default();
    if from != dynasty_space(action, level) {
        mods.from = Some(from);
    }
    Order::Act(vec![Act {
        action,
        level,
        kind,
        mods,
    }])
}

/// The orders worth trying for a seat now.
pub fn candidates(d: &Data, c: &Core, seat: u8) -> Vec<Order> {
    let p = c.player(seat);
    let mut out = Vec::new();
    if p.kins > 0 {
        for a in Action::ALL {
            let max = kins::research_level(d, p, a);
            for l in 1..=max {
                out.push(Order::Place {
                    space: dynasty_space(a, l),
                    bump: Vec::new(),
                });
            }
        }
    }
    let reach = c.reach(d, seat, 0);
    let planets = |level: u8| -> Vec<u8> {
        (0..d.planets.len() as u8)
            .filter(|&q| d.planet_level[usize::from(q)] == level && reach & (1 << q) != 0)
            .collect()
    };
    // The spaces holding her kins, and what each may do.
    for space in 0..=CENTER {
        if p.on(space) == 0 {
            continue;
        }
        if space != CENTER {
            out.push(Order::Raise {
                space,
                bump: Vec::new(),
            });
        }
        let options: Vec<(Action, u8)> = if space == CENTER {
            Action::ALL.iter().map(|&a| (a, 3)).collect()
        } else {
            let (a, l) = space_parts(space);
            vec![(a, l)]
        };
        for (a, l) in options {
            match a {
                Action::Travel => {
                    let from = p.ships;
                    for g in 0..d.gates.len() as u8 {
                        let occupied = (c.all_ships() | c.empire) & (1 << g) != 0;
                        if occupied {
                            continue;
                        }
                        let ok = if from == 0 {
                            d.ring[usize::from(g)] == 0
                        } else {
                            bits(from).any(|h| d.distance(h, g) <= l)
                        };
                        if ok {
                            out.push(act_from(
                                a,
                                l,
                                Kind::Travel {
                                    gate: g,
                                    ship: None,
                                },
                                space,
                            ));
                        }
                    }
                }
                Action::Colonize => {
                    for q in planets(l) {
                        let tile = (q == d.core)
                            .then(|| {
                                (0..d.tiles.len())
                                    .find(|&k| c.core_tiles[k] > 0)
                                    .map(|k| k as u8)
                            })
                            .flatten();
                        if q == d.core && tile.is_none() {
                            continue;
                        }
                        out.push(act_from(a, l, Kind::Colonize { planet: q, tile }, space));
                    }
                }
                Action::Trade => {
                    if l == 3 {
                        let mids = planets(2);
                        if reach & (1 << d.core) != 0 {
                            for i in 0..mids.len() {
                                for j in i + 1..mids.len() {
                                    out.push(act_from(
                                        a,
                                        3,
                                        Kind::Trade {
                                            planets: vec![mids[i], mids[j], d.core],
                                        },
                                        space,
                                    ));
                                }
                            }
                        }
                    } else {
                        let ps = planets(l);
                        for i in 0..ps.len() {
                            for j in i + 1..ps.len() {
                                let (x, y) = (ps[i], ps[j]);
                                if c.planet_colour(d, x) == c.planet_input(d, y)
                                    && c.planet_colour(d, y) == c.planet_input(d, x)
                                {
                                    out.push(act_from(
                                        a,
                                        l,
                                        Kind::Trade {
                                            planets: vec![x, y],
                                        },
                                        space,
                                    ));
                                }
                            }
                        }
                    }
                }
                Action::Produce => {
                    for q in planets(l) {
                        out.push(act_from(
                            a,
                            l,
                            Kind::Produce {
                                planets: vec![q],
                                once: false,
                                using: Vec::new(),
                            },
                            space,
                        ));
                    }
                }
                Action::Research => {
                    let range = match l {
                        1 => 0..6,
                        2 => 6..12,
                        _ => GOAL_SPACE..PERSONAL + 1,
                    };
                    for s in range {
                        if !p.has(s) {
                            out.push(act_from(
                                a,
                                l,
                                Kind::Research {
                                    space: s,
                                    colour: None,
                                },
                                space,
                            ));
                        }
                    }
                }
                Action::Battle => {
                    let mine = p.ships;
                    for g in bits(c.empire) {
                        if d.ring[usize::from(g)] + 1 > l {
                            continue;
                        }
                        if mine & ((1 << g) | d.adjacent[usize::from(g)]) != 0 {
                            out.push(act_from(
                                a,
                                l,
                                Kind::Battle {
                                    gate: g,
                                    take: None,
                                },
                                space,
                            ));
                        }
                    }
                }
            }
        }
    }
    out
}

/// How good a position is for a seat, as she can judge it.
pub fn score(d: &Data, c: &Core, seat: u8, style: Style) -> f64 {
    let p = c.player(seat);
    if c.winner == seat {
        return 1.0e6;
    }
    let mut s = 0.0;
    let w = |k: Style| if style == k || style > 3 { 1.5 } else { 1.0 };
    s += f64::from(p.research.count_ones()) * 12.0 * w(2);
    s += f64::from((p.research >> GOAL_SPACE).count_ones()) * 30.0 * w(2);
    // Cubes that pay for a research she may make next are worth more.
    for space in 0..PERSONAL {
        if p.has(space) {
            continue;
        }
        let open = space < 6
            || d.requires[space].iter().any(|&r| p.has(r))
            || (space >= GOAL_SPACE && p.research >> GOAL_SPACE != 0);
        if open && d.cost[space].iter().any(|&c| p.hand[usize::from(c)] > 0) {
            s += if space >= GOAL_SPACE { 8.0 } else { 3.0 };
        }
    }
    s += f64::from(p.earned) * 5.0;
    s += f64::from(p.neutral) * 3.0;
    let tiles: u32 = p.colonies.iter().map(|&n| u32::from(n)).sum();
    s += f64::from(tiles) * 5.0 * w(0);
    for (k, &n) in p.hand.iter().enumerate().take(d.colours.len()) {
        let lv = d.colour_level[k];
        let value = match lv {
            1 => 1.0,
            2 => 2.5,
            _ => 5.0,
        };
        s += f64::from(n.min(3)) * value * w(3);
    }
    s += p.hand.iter().filter(|&&n| n > 0).count() as f64 * 0.7;
    let reach = c.reach(d, seat, 0);
    s += f64::from(p.ships.count_ones().min(8)) * 3.0;
    s += f64::from(reach.count_ones()) * 1.0;
    let middles = (0..d.planets.len())
        .filter(|&q| d.planet_level[q] == 2 && reach & (1 << q) != 0)
        .count();
    s += middles as f64 * 2.0;
    if reach & (1 << d.core) != 0 {
        s += 6.0;
    }
    s += f64::from(u32::from(p.due) + u32::from(p.new)) * 4.0 * w(1);
    for sp in 0..CENTER {
        if p.dynasty[sp] == 0 {
            continue;
        }
        let (a, l) = space_parts(sp);
        s += f64::from(l) * 0.8 + ready(d, c, seat, a, l);
    }
    s += f64::from(p.dynasty[CENTER]) * 2.5;
    // Her known goals: those researched count most, those seen guide her.
    for n in 0..3u8 {
        let g = c.goals[usize::from(n)];
        if g == NONE {
            continue;
        }
        let researched = p.has(GOAL_SPACE + usize::from(n));
        if !researched && p.seen & (1 << n) == 0 {
            continue;
        }
        let weight = if researched { 3.0 } else { 1.0 };
        s += weight * progress(d, c, seat, g);
    }
    if p.personal != NONE {
        s += if p.has(PERSONAL) { 3.0 } else { 1.0 } * progress(d, c, seat, p.personal);
    }
    for (_, g) in goals::goals_of(c, seat) {
        if goals::fulfilled(d, c, seat, g) {
            s += 1.0e5;
        }
    }
    s
}

/// Whether a kin on `action` `level` has something to do now (a rough look ahead).
fn ready(d: &Data, c: &Core, seat: u8, action: Action, level: u8) -> f64 {
    let p = c.player(seat);
    let reach = c.reach(d, seat, 0);
    let in_reach = |q: usize| reach & (1 << q) != 0;
    match action {
        Action::Research => {
            let spaces = match level {
                1 => 0..6,
                2 => 6..12,
                _ => GOAL_SPACE..PERSONAL,
            };
            let payable = spaces.clone().any(|sp| {
                !p.has(sp)
                    && (sp < 6
                        || d.requires[sp].iter().any(|&r| p.has(r))
                        || (sp >= GOAL_SPACE && p.research >> GOAL_SPACE != 0))
                    && d.cost[sp].iter().any(|&col| p.hand[usize::from(col)] > 0)
            });
            if payable {
                8.0 * f64::from(level)
            } else {
                0.0
            }
        }
        Action::Colonize => {
            let ok = (0..d.planets.len()).any(|q| {
                d.planet_level[q] == level
                    && in_reach(q)
                    && (c.colony[q] != NONE
                        || (q == usize::from(d.core) && c.core_tiles.iter().any(|&n| n > 0)))
                    && p.hand[usize::from(c.planet_input(d, q as u8))] > 0
            });
            if ok {
                6.0
            } else {
                0.0
            }
        }
        Action::Battle => {
            let ok = bits(c.empire).any(|g| {
                d.ring[usize::from(g)] < level
                    && p.ships & ((1 << g) | d.adjacent[usize::from(g)]) != 0
            });
            if ok {
                5.0
            } else {
                0.0
            }
        }
        Action::Produce => {
            let ok = (0..d.planets.len())
                .any(|q| d.planet_level[q] == level && in_reach(q) && c.stock[q] <= 1);
            if ok {
                2.0 * f64::from(level)
            } else {
                0.0
            }
        }
        Action::Trade => {
            let ok = (0..d.planets.len())
                .any(|q| d.planet_level[q] == level.min(2) && in_reach(q) && c.stock[q] > 0);
            if ok {
                2.0 * f64::from(level)
            } else {
                0.0
            }
        }
        Action::Travel => 1.5,
    }
}

/// Progress towards one goal, 0 to about 30.
fn progress(d: &Data, c: &Core, seat: u8, goal: u8) -> f64 {
    let p = c.player(seat);
    let reach = c.reach(d, seat, 0);
    match d.goals[usize::from(goal)] {
        Goal::Black3 => f64::from(p.hand[usize::from(d.black)].min(3)) * 10.0,
        Goal::Variety => p.hand.iter().filter(|&&n| n > 0).count() as f64 * 3.0,
        Goal::Empire2 => f64::from((u32::from(p.due) + u32::from(p.new)).min(2)) * 14.0,
        Goal::Colonies => {
            (1..=3)
                .filter(|&l| {
                    d.tiles
                        .iter()
                        .enumerate()
                        .any(|(k, t)| t.level == l && p.colonies[k] > 0)
                })
                .count() as f64
                * 10.0
        }
        Goal::ResearchIv => f64::from((p.research >> GOAL_SPACE & 0b111).count_ones()) * 14.0,
        Goal::MiddleShips => {
            (0..d.planets.len())
                .filter(|&q| d.planet_level[q] == 2 && reach & (1 << q) != 0)
                .count() as f64
                * 5.0
        }
        Goal::OuterShips => {
            (0..d.planets.len())
                .filter(|&q| d.planet_level[q] == 1 && reach & (1 << q) != 0)
                .count() as f64
                * 2.5
        }
        Goal::AllActions => {
            (1..=3)
                .map(|l| {
                    Action::ALL
                        .iter()
                        .filter(|&&a| p.on(dynasty_space(a, l)) > 0)
                        .count()
                })
                .max()
                .unwrap_or(0) as f64
                * 5.0
        }
        Goal::AllLevels => {
            Action::ALL
                .iter()
                .map(|&a| (1..=3).filter(|&l| p.on(dynasty_space(a, l)) > 0).count())
                .max()
                .unwrap_or(0) as f64
                * 10.0
        }
    }
}

/// Each candidate tried on a copy of `core`; the possible ones with their score, best
/// first.
fn ranked(state: &State, core: &Core, seat: u8, style: Style) -> Vec<(f64, Order, Core)> {
    let d = &*state.data;
    let mut out = Vec::new();
    for o in candidates(d, core, seat) {
        let mut cx = ctx(state, *core);
        if actions::order(&mut cx, seat, &o).is_ok() {
            let mut v = score(d, &cx.core, seat, style);
            // A little variety between players and rounds.
            v += f64::from((order_text(d, &o).len() as u32 + u32::from(seat) * 7 + core.round) % 5)
                * 0.01;
            out.push((v, o, cx.core));
        }
    }
    out.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    out
}

/// The orders mail of a scripted player for the current phase (None: she sends
/// nothing).
pub fn policy(state: &State, seat: u8, style: Style) -> String {
    let d = &*state.data;
    let c = &*state.core;
    if c.phase == Phase::Setup {
        let gates: Vec<u8> = d.rings[0].to_vec();
        let n = gates.len();
        let k = usize::from(seat);
        let colour = d.levels[0][k % d.levels[0].len()];
        let first = gates[(k * n / usize::from(c.seats) + 1) % n];
        let second = gates[(k * n / usize::from(c.seats) + 2) % n];
        return format!(
            "START {} {} ELSE START {} {}\n",
            d.gate_name(first),
            d.colour_name(colour),
            d.gate_name(second),
            d.colour_name(colour)
        );
    }
    let mut lines = Vec::new();
    let mut core = *c;
    for _ in 0..2 {
        let ranked = ranked(state, &core, seat, style);
        let Some((_, best, after)) = ranked.first().cloned() else {
            break;
        };
        let mut line = order_text(d, &best);
        for (_, o, _) in ranked.iter().skip(1).take(2) {
            line.push_str(" ELSE ");
            line.push_str(&order_text(d, o));
        }
        lines.push(line);
        core = after;
    }
    // Fallback lines, carried out only if a line above fails.
    if let Some((_, o, _)) = ranked(state, &core, seat, style).first() {
        lines.push(order_text(d, o));
    }
    lines.push(format!(
        "PLACE {} I",
        Action::ALL[(usize::from(seat) + c.round as usize) % 6].word()
    ));
    // Free actions now and then: a cube back to a planet that may need it.
    if style == 3 && c.round % 3 == 0 {
        if let Some(q) = (0..d.planets.len() as u8).find(|&q| {
            c.stock[usize::from(q)] == 0
                && c.player(seat).hand[usize::from(c.planet_colour(d, q))] > 1
        }) {
            lines.push(format!("DEPOSIT {}", d.planet_name(q)));
        }
    }
    // Where her Empire ships go back: the inner ring first.
    for g in d.rings[2].iter().chain(&d.rings[1]).take(3) {
        lines.push(format!("RETURN {}", d.gate_name(*g)));
    }
    lines.push(if style == 2 && c.round % 4 == 1 {
        "EMPIRE YIELD".into()
    } else {
        "EMPIRE BATTLE".into()
    });
    if c.round % 7 == 3 {
        lines.push("# a comment the judge leaves out".into());
        lines.push("RESEARCH IV GOAL 9".into());
    }
    lines.join("\n") + "\n"
}

/// A 5-player game after its setup and `rounds` rounds of scripted play, and the
/// orders of the next round (every player's lines, with alternatives and fallbacks):
/// the benchmark's round and the tests'.
pub fn midgame_round(
    seed: u64,
    rounds: u32,
) -> (State, std::collections::BTreeMap<String, String>) {
    let seating: Vec<String> = ["ann", "bob", "cat", "dan", "eve"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut s = super::setup::create(
        super::data::standard(),
        seating,
        super::state::Options::default(),
        false,
        seed,
    );
    let orders_of = |s: &State| -> std::collections::BTreeMap<String, String> {
        s.core
            .seats()
            .map(|k| (s.name(k).to_string(), policy(s, k, k)))
            .collect()
    };
    for _ in 0..=rounds {
        if s.core.phase == Phase::Over {
            break;
        }
        let orders = orders_of(&s);
        s = super::adjudicate(&s, &orders, seed).0;
    }
    let orders = orders_of(&s);
    (s, orders)
}
