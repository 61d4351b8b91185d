//! The actions (H6): an action order retrieves its kin and then acts. Each function
//! either changes the position and says what it did, or says why it is not possible
//! (the caller then undoes everything it did, H5.5).

use super::data::{bits, research_name, Effect, GOAL_SPACE, PERSONAL};
use super::kins;
use super::order::{Act, Free, Kind, Order};
use super::tiles;
use super::turn::Ctx;

/// One order (H4.4): a kin move or a retrieve.
pub fn order(ctx: &mut Ctx, seat: u8, o: &Order) -> Result<String, String> {
    match o {
        Order::Place { space, bump } => kins::place(ctx, seat, *space, bump),
        Order::Raise { space, bump } => kins::raise(ctx, seat, *space, bump),
        Order::Retrieve { space, mods } => {
            let d = kins::retrieve(ctx, seat, *space, mods)?;
            let base = format!("kin back from {}", super::data::dynasty_name(*space));
            Ok(if d.is_empty() {
                base
            } else {
                format!("{base}; {d}")
            })
        }
        Order::Act(acts) => {
            if acts.len() > 1 {
                match ctx.core.player(seat).tile(ctx.data, Effect::Raid) {
                    Some(k) => ctx.core.player_mut(seat).use_tile(k),
                    None => return Err("AND joins battles only with raid unused this turn".into()),
                }
            }
            let mut parts = Vec::new();
            for a in acts {
                parts.push(act(ctx, seat, a)?);
            }
            Ok(parts.join(" | "))
        }
    }
}

/// One action order: the kin is retrieved, the action done, the kin earned (H5.5, H5.6).
fn act(ctx: &mut Ctx, seat: u8, a: &Act) -> Result<String, String> {
    let retrieved = kins::retrieve(ctx, seat, a.source(), &a.mods)?;
    let via = flagship(ctx, seat, a)?;
    let done = match &a.kind {
        Kind::Travel { gate, ship } => travel(ctx, seat, a.level, *gate, *ship, via.0),
        Kind::Colonize { planet, tile } => colonize(ctx, seat, a, *planet, *tile, via.0),
        Kind::Trade { planets } => trade(ctx, seat, a.level, planets, via.0),
        Kind::Produce {
            planets,
            once,
            using,
        } => produce(ctx, seat, a.level, planets, *once, using, via.0),
        Kind::Research { space, colour } => research(ctx, seat, *space, *colour, a.mods.wild),
        Kind::Battle { gate, take } => battle(ctx, seat, *gate, *take, a.mods.via, via.0),
    }?;
    kins::earn(ctx, seat, a.level);
    let mut text = done;
    if let Some(note) = via.1 {
        text.push_str(&format!("; {note}"));
    }
    if !retrieved.is_empty() {
        text.push_str(&format!("; {retrieved}"));
    }
    Ok(text)
}

/// `VIA <gate>` (flagship, H8): the Empire ship there counts as hers for this order.
/// Gives the gate mask to count, and a note.
fn flagship(ctx: &mut Ctx, seat: u8, a: &Act) -> Result<(u64, Option<String>), String> {
    let Some(g) = a.mods.via else {
        return Ok((0, None));
    };
    let name = ctx.data.gate_name(g).to_string();
    if ctx.core.empire & (1 << g) == 0 {
        return Ok((
            0,
            Some(format!("VIA {name}: no Empire ship there, ignored")),
        ));
    }
    match ctx.core.player(seat).tile(ctx.data, Effect::Flagship) {
        Some(k) => {
            ctx.core.player_mut(seat).use_tile(k);
            Ok((
                1 << g,
                Some(format!(
                    "flagship: the Empire ship on {name} counts as hers"
                )),
            ))
        }
        None => Ok((
            0,
            Some(format!("VIA {name}: no flagship unused this turn, ignored")),
        )),
    }
}

/// H6.1.
fn travel(
    ctx: &mut Ctx,
    seat: u8,
    level: u8,
    gate: u8,
    ship: Option<u8>,
    via: u64,
) -> Result<String, String> {
    let d = ctx.data;
    let gn = d.gate_name(gate).to_string();
    let bit = 1u64 << gate;
    let p = *ctx.core.player(seat);
    if p.ships & bit != 0 {
        return Err(format!("her own ship is on {gn}"));
    }
    if ctx.core.others_ships(seat) & bit != 0 && !p.holds(d, Effect::Escort) {
        return Err(format!("{gn} holds another player's ship (escort needed)"));
    }
    if ctx.core.empire & bit != 0 && !p.holds(d, Effect::Cloak) {
        return Err(format!("{gn} holds an Empire ship (cloak needed)"));
    }
    let mut notes = Vec::new();
    if p.supply() == 0 {
        match ship {
            None => return Err("no ship left in her supply: name one to move with SHIP".into()),
            Some(s) if p.ships & (1 << s) == 0 => {
                return Err(format!("no ship of hers on {} to move", d.gate_name(s)))
            }
            Some(s) => {
                ctx.core.player_mut(seat).ships &= !(1 << s);
                notes.push(format!("moved from {}", d.gate_name(s)));
            }
        }
    } else if let Some(s) = ship {
        notes.push(format!(
            "SHIP {} not needed: her supply has ships",
            d.gate_name(s)
        ));
    }
    let from = ctx.core.player(seat).ships | via;
    if from == 0 {
        if d.ring[usize::from(gate)] != 0 {
            return Err(format!(
                "with no ship on the board, a ship goes to an outer gate; {gn} is not one"
            ));
        }
    } else {
        let dist = bits(from)
            .map(|g| d.distance(g, gate))
            .min()
            .unwrap_or(u8::MAX);
        if dist > level {
            match ctx.core.player(seat).tile(d, Effect::Warp) {
                Some(k) if u16::from(dist) <= 2 * u16::from(level) => {
                    ctx.core.player_mut(seat).use_tile(k);
                    notes.push(format!("warp: {dist} gates"));
                }
                _ => {
                    return Err(format!(
                        "{gn} is {dist} gates from her nearest ship; TRAVEL {} reaches {level}",
                        super::data::level_word(level)
                    ))
                }
            }
        }
    }
    ctx.core.player_mut(seat).ships |= bit;
    let mut text = format!("ship to {gn}");
    if !notes.is_empty() {
        text.push_str(&format!(" ({})", notes.join("; ")));
    }
    Ok(text)
}

fn in_reach(ctx: &Ctx, seat: u8, planet: u8, via: u64) -> Result<(), String> {
    if ctx.core.reach(ctx.data, seat, via) & (1 << planet) == 0 {
        Err(format!(
            "{} is not in reach (no ship of hers next to it)",
            ctx.data.planet_name(planet)
        ))
    } else {
        Ok(())
    }
}

/// H6.2.
fn colonize(
    ctx: &mut Ctx,
    seat: u8,
    a: &Act,
    planet: u8,
    named: Option<u8>,
    via: u64,
) -> Result<String, String> {
    let d = ctx.data;
    in_reach(ctx, seat, planet, via)?;
    let pn = d.planet_name(planet).to_string();
    let tile = if planet == d.core {
        let t = match named {
            Some(t) => t,
            None => (0..d.tiles.len())
                .find(|&k| ctx.core.core_tiles[k] > 0)
                .map(|k| k as u8)
                .ok_or("no colony tile is left on CORE")?,
        };
        if ctx.core.core_tiles[usize::from(t)] == 0 {
            return Err(format!("{} is not among CORE's tiles", d.tile_name(t)));
        }
        t
    } else {
        let t = ctx.core.colony[usize::from(planet)];
        if t == super::state::NONE {
            return Err(format!("{pn}'s colony tile was taken"));
        }
        t
    };
    // Payment.
    let paid;
    let settle = if a.level == 1 {
        ctx.core.player(seat).tile(d, Effect::Settle)
    } else {
        None
    };
    if let Some(k) = settle {
        ctx.core.player_mut(seat).use_tile(k);
        paid = "paid nothing (settle)".to_string();
    } else {
        let c = if a.mods.wild {
            d.black
        } else {
            ctx.core.planet_input(d, planet)
        };
        let p = ctx.core.player_mut(seat);
        if p.hand[usize::from(c)] == 0 {
            return Err(format!(
                "needs 1 {} in her hand{}",
                d.colour_name(c),
                if a.mods.wild { " (WILD)" } else { "" }
            ));
        }
        p.hand[usize::from(c)] -= 1;
        paid = format!("paid 1 {}", d.colour_name(c));
    }
    if planet == d.core {
        ctx.core.core_tiles[usize::from(tile)] -= 1;
    } else {
        ctx.core.colony[usize::from(planet)] = super::state::NONE;
    }
    let effect = tiles::take(ctx, seat, tile, planet, &a.mods, 0);
    Ok(format!("colony on {pn}, {paid}: {effect}"))
}

/// H6.3.
fn trade(ctx: &mut Ctx, seat: u8, level: u8, planets: &[u8], via: u64) -> Result<String, String> {
    let d = ctx.data;
    for &p in planets {
        in_reach(ctx, seat, p, via)?;
    }
    if planets.len() == 4 {
        match ctx.core.player(seat).tile(d, Effect::Barter) {
            Some(k) => ctx.core.player_mut(seat).use_tile(k),
            None => return Err("four planets need barter unused this turn".into()),
        }
    }
    let groups: Vec<&[u8]> = if level == 3 {
        vec![planets]
    } else {
        planets.chunks(2).collect()
    };
    let mut got = Vec::new();
    for g in groups {
        if level < 3 {
            let (p, q) = (g[0], g[1]);
            let partners = ctx.core.planet_colour(d, p) == ctx.core.planet_input(d, q)
                && ctx.core.planet_colour(d, q) == ctx.core.planet_input(d, p);
            if !partners {
                return Err(format!(
                    "{} and {} are not trade partners",
                    d.planet_name(p),
                    d.planet_name(q)
                ));
            }
        }
        for &p in g {
            if ctx.core.stock[usize::from(p)] == 0 {
                return Err(format!("{} has no stock to trade", d.planet_name(p)));
            }
        }
        for &p in g {
            let c = ctx.core.planet_colour(d, p);
            ctx.core.stock[usize::from(p)] -= 1;
            ctx.core.player_mut(seat).hand[usize::from(c)] += 1;
            got.push(format!("{} from {}", d.colour_name(c), d.planet_name(p)));
        }
    }
    let mut text = format!("took {}", got.join(", "));
    if planets.len() == 4 {
        text.push_str(" (barter)");
    }
    Ok(text)
}

/// H6.4.
fn produce(
    ctx: &mut Ctx,
    seat: u8,
    level: u8,
    planets: &[u8],
    once: bool,
    using: &[u8],
    via: u64,
) -> Result<String, String> {
    let d = ctx.data;
    for &p in planets.iter().chain(using) {
        in_reach(ctx, seat, p, via)?;
    }
    if planets.len() == 2 {
        match ctx.core.player(seat).tile(d, Effect::Industry) {
            Some(k) => ctx.core.player_mut(seat).use_tile(k),
            None => return Err("two planets need industry unused this turn".into()),
        }
    }
    let reach = ctx.core.reach(d, seat, via);
    // Inputs: the USING planets as named, then canonical order, in reach.
    let mut order: Vec<u8> = using.to_vec();
    for p in 0..d.planets.len() as u8 {
        if reach & (1 << p) != 0 && !order.contains(&p) {
            order.push(p);
        }
    }
    let mut parts = Vec::new();
    for &planet in planets {
        parts.push(produce_on(ctx, seat, level, planet, once, &order)?);
    }
    Ok(parts.join("; "))
}

fn produce_on(
    ctx: &mut Ctx,
    seat: u8,
    level: u8,
    planet: u8,
    once: bool,
    order: &[u8],
) -> Result<String, String> {
    let d = ctx.data;
    let pn = d.planet_name(planet).to_string();
    if ctx.core.stock[usize::from(planet)] > 1 {
        return Err(format!("{pn}'s output boxes are full"));
    }
    let colour = ctx.core.planet_colour(d, planet);
    let mut made = 0;
    let mut inputs: Vec<String> = Vec::new();
    let mut why = String::new();
    while ctx.core.stock[usize::from(planet)] <= 1 {
        let holding = |c: u8, not: Option<u8>| {
            order.iter().copied().find(|&q| {
                Some(q) != not
                    && ctx.core.stock[usize::from(q)] > 0
                    && ctx.core.planet_colour(d, q) == c
            })
        };
        let need: Vec<u8> = match level {
            1 => Vec::new(),
            2 => {
                let tile = &d.planet_tiles[usize::from(ctx.core.planets[usize::from(planet)])];
                let (a, b) = tile.factory.expect("a middle planet's tile has a factory");
                match (holding(a, None), holding(b, None)) {
                    (Some(x), Some(y)) => vec![x, y],
                    _ => {
                        why = format!(
                            "no {} and {} in reach to use",
                            d.colour_name(a),
                            d.colour_name(b)
                        );
                        break;
                    }
                }
            }
            _ => {
                let l2 = |q: u8| d.colour_level[usize::from(ctx.core.planet_colour(d, q))] == 2;
                let first = order
                    .iter()
                    .copied()
                    .find(|&q| l2(q) && ctx.core.stock[usize::from(q)] > 0);
                let second = first.and_then(|f| {
                    let fc = ctx.core.planet_colour(d, f);
                    order.iter().copied().find(|&q| {
                        l2(q)
                            && ctx.core.stock[usize::from(q)] > 0
                            && ctx.core.planet_colour(d, q) != fc
                    })
                });
                match (first, second) {
                    (Some(x), Some(y)) => vec![x, y],
                    _ => {
                        why = "no two different level-2 cubes in reach to use".into();
                        break;
                    }
                }
            }
        };
        if ctx.core.supply(d, colour) < 2 {
            why = format!("the supply has fewer than 2 {}", d.colour_name(colour));
            break;
        }
        for &q in &need {
            ctx.core.stock[usize::from(q)] -= 1;
            inputs.push(format!(
                "{} from {}",
                d.colour_name(ctx.core.planet_colour(d, q)),
                d.planet_name(q)
            ));
        }
        ctx.core.stock[usize::from(planet)] += 1;
        ctx.core.player_mut(seat).hand[usize::from(colour)] += 1;
        made += 1;
        if once {
            break;
        }
    }
    if made == 0 {
        return Err(format!("nothing produced on {pn}: {why}"));
    }
    let mut text = format!(
        "produced on {pn} {made} time{}: +{made} {} to her hand and {pn}",
        if made > 1 { "s" } else { "" },
        d.colour_name(colour)
    );
    if !inputs.is_empty() {
        text.push_str(&format!(" (used {})", inputs.join(", ")));
    }
    Ok(text)
}

/// H6.5.
fn research(
    ctx: &mut Ctx,
    seat: u8,
    space: usize,
    colour: Option<u8>,
    wild: bool,
) -> Result<String, String> {
    let d = ctx.data;
    let sn = research_name(space);
    let p = *ctx.core.player(seat);
    if p.has(space) {
        return Err(format!("{sn} is researched already"));
    }
    let mut notes = Vec::new();
    let missing = if space == PERSONAL {
        if p.personal == super::state::NONE {
            return Err("she has no personal goal to research".into());
        }
        let l2 = p.research & 0b11_1111 != 0;
        let l3 = p.research & (0b11_1111 << 6) != 0;
        (!(l2 && l3)).then(|| "one level-II and one level-III space researched".to_string())
    } else if space >= 6 {
        let any_goal = space >= GOAL_SPACE && p.research & (0b111 << GOAL_SPACE) != 0;
        let ok = any_goal || d.requires[space].iter().any(|&r| p.has(r));
        (!ok).then(|| {
            let names: Vec<String> = d.requires[space]
                .iter()
                .map(|&r| research_name(r))
                .collect();
            format!(
                "{}{} researched",
                names.join(" or "),
                if space >= GOAL_SPACE {
                    " or a GOAL space"
                } else {
                    ""
                }
            )
        })
    } else {
        None
    };
    if let Some(m) = missing {
        match p.tile(d, Effect::Insight) {
            Some(k) => {
                ctx.core.player_mut(seat).use_tile(k);
                notes.push(format!("insight: needs {m}, ignored"));
            }
            None => return Err(format!("{sn} needs {m}")),
        }
    }
    // Payment (H6.5, H1.3).
    let pay = if wild {
        d.black
    } else if space < 6 {
        let options = &d.cost[space];
        match colour {
            Some(c) => c,
            None => options
                .iter()
                .copied()
                .find(|&c| p.hand[usize::from(c)] > 0)
                .unwrap_or(options[0]),
        }
    } else if space == PERSONAL {
        d.black
    } else {
        d.cost[space][0]
    };
    let pl = ctx.core.player_mut(seat);
    if pl.hand[usize::from(pay)] == 0 {
        return Err(format!(
            "needs 1 {} in her hand{}",
            d.colour_name(pay),
            if wild { " (WILD)" } else { "" }
        ));
    }
    pl.hand[usize::from(pay)] -= 1;
    // A disc from her ship supply; none left: her first ship leaves the board.
    if pl.supply() == 0 {
        if let Some(g) = bits(pl.ships).next() {
            pl.ships &= !(1 << g);
            notes.push(format!(
                "no disc left: her ship on {} left the board",
                d.gate_name(g)
            ));
        }
    }
    pl.research |= 1 << space;
    let mut text = format!("researched {sn}, paid 1 {}", d.colour_name(pay));
    if (GOAL_SPACE..PERSONAL).contains(&space) {
        let n = (space - GOAL_SPACE) as u8;
        pl.seen |= 1 << n;
        let tile = ctx.core.goals[usize::from(n)];
        text.push_str("; she sees its goal tile");
        let name = ctx.name(seat).to_string();
        if !ctx.dry {
            ctx.log.secret_event(
                "H6.5",
                format!("{name} sees the goal tile on GOAL {}", n + 1),
                vec![seat],
                format!(
                    "{name} sees the goal tile on GOAL {}: {}",
                    n + 1,
                    d.goal_name(tile)
                ),
            );
        }
    }
    if !notes.is_empty() {
        text.push_str(&format!(" ({})", notes.join("; ")));
    }
    Ok(text)
}

/// H6.6.
fn battle(
    ctx: &mut Ctx,
    seat: u8,
    gate: u8,
    take: Option<u8>,
    via_gate: Option<u8>,
    via: u64,
) -> Result<String, String> {
    let d = ctx.data;
    let gn = d.gate_name(gate).to_string();
    if ctx.core.empire & (1 << gate) == 0 {
        return Err(format!("no Empire ship on {gn}"));
    }
    if via != 0 && via_gate == Some(gate) {
        return Err(format!(
            "the Empire ship on {gn} is her flagship for this order, not a target"
        ));
    }
    let mine = ctx.core.player(seat).ships | via;
    if mine & ((1 << gate) | d.adjacent[usize::from(gate)]) == 0 {
        return Err(format!("no ship of hers on or next to {gn}"));
    }
    ctx.core.empire &= !(1 << gate);
    ctx.core.player_mut(seat).new += 1;
    let near = &d.gate_planets[usize::from(gate)];
    let with_stock = |p: u8| ctx.core.stock[usize::from(p)] > 0;
    let mut note = String::new();
    let from = match take {
        Some(p) if with_stock(p) => Some(p),
        Some(p) => {
            note = format!(" (TAKE {}: no stock)", d.planet_name(p));
            near.iter().copied().find(|&q| with_stock(q))
        }
        None => near.iter().copied().find(|&q| with_stock(q)),
    };
    let cube = match from {
        Some(p) => {
            let c = ctx.core.planet_colour(d, p);
            ctx.core.stock[usize::from(p)] -= 1;
            ctx.core.player_mut(seat).hand[usize::from(c)] += 1;
            format!("took 1 {} from {}", d.colour_name(c), d.planet_name(p))
        }
        None => "no cube next to it".into(),
    };
    Ok(format!("took the Empire ship on {gn}, {cube}{note}"))
}

/// H6.7: free actions.
pub fn free(ctx: &mut Ctx, seat: u8, f: &Free) -> Result<String, String> {
    let d = ctx.data;
    match *f {
        Free::Deposit(planet) => {
            let pn = d.planet_name(planet);
            if ctx.core.stock[usize::from(planet)] > 1 {
                return Err(format!("{pn}'s output boxes are full"));
            }
            let c = ctx.core.planet_colour(d, planet);
            let p = ctx.core.player_mut(seat);
            if p.hand[usize::from(c)] == 0 {
                return Err(format!("needs 1 {} in her hand", d.colour_name(c)));
            }
            p.hand[usize::from(c)] -= 1;
            ctx.core.stock[usize::from(planet)] += 1;
            Ok(format!("1 {} from her hand to {pn}", d.colour_name(c)))
        }
        Free::Exchange(c, e) => {
            let Some(k) = ctx.core.player(seat).tile(d, Effect::Exchange) else {
                return Err("needs exchange unused this turn".into());
            };
            if ctx.core.player(seat).hand[usize::from(c)] == 0 {
                return Err(format!("needs 1 {} in her hand", d.colour_name(c)));
            }
            if ctx.core.supply(d, e) == 0 {
                return Err(format!("no {} in the supply", d.colour_name(e)));
            }
            let p = ctx.core.player_mut(seat);
            p.use_tile(k);
            p.hand[usize::from(c)] -= 1;
            p.hand[usize::from(e)] += 1;
            Ok(format!(
                "1 {} for 1 {} (exchange)",
                d.colour_name(c),
                d.colour_name(e)
            ))
        }
    }
}

/// `RESERVE` (H8 reserve): a marker spent, a 3rd order allowed this turn.
pub fn reserve(ctx: &mut Ctx, seat: u8, limit: u8) -> Result<String, String> {
    let d = ctx.data;
    let p = ctx.core.player_mut(seat);
    if !p.holds(d, Effect::Reserve) {
        return Err("she holds no reserve tile".into());
    }
    if p.reserve_used || limit > 2 {
        return Err("a reserve marker was spent this turn already".into());
    }
    if p.reserve == 0 {
        return Err("no marker left on her reserve tile".into());
    }
    p.reserve -= 1;
    p.reserve_used = true;
    Ok(format!(
        "a 3rd order this turn ({} marker(s) left)",
        p.reserve
    ))
}
