//! Reading a data file (H1.6): the TOML's shape, then every list checked and turned into
//! the indices of [`Data`], with one line naming the problem when it does not read.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{
    parse_research, research_name, Action, Data, Effect, Goal, PlanetTile, Standard, TileKind, Use,
    EMPIRE_SHIPS, GOAL_SPACE, MAX_COLOURS, MAX_GATES, MAX_GOALS, MAX_PLANETS, MAX_TILES,
    RESEARCH_SPACES,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawData {
    resources: RawResources,
    gates: RawGates,
    planets: BTreeMap<String, Vec<String>>,
    planet_tile: Vec<RawPlanetTile>,
    colony_tile: Vec<RawColonyTile>,
    goals: RawGoals,
    research: RawResearch,
    dynasty: RawDynasty,
    standard: RawStandard,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResources {
    level1: Vec<String>,
    level2: Vec<String>,
    level3: Vec<String>,
    count: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGates {
    #[serde(rename = "A")]
    a: Vec<String>,
    #[serde(rename = "B")]
    b: Vec<String>,
    #[serde(rename = "C")]
    c: Vec<String>,
    links: Vec<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlanetTile {
    id: String,
    colour: String,
    input: String,
    factory: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawColonyTile {
    id: String,
    level: i64,
    copies: Option<i64>,
    #[serde(rename = "use")]
    use_: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGoals {
    tiles: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResearch {
    cost: BTreeMap<String, Vec<String>>,
    requires: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDynasty {
    ring: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStandard {
    planets: BTreeMap<String, String>,
    colonies: BTreeMap<String, toml::Value>,
    piles: RawPiles,
    board: RawBoard,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPiles {
    colony1: Vec<String>,
    colony2: Vec<String>,
    colony3: Vec<String>,
    goals: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    goals: Vec<String>,
    empire: Vec<String>,
}

fn planet_order(name: &str) -> Option<(u8, u32)> {
    if name == "CORE" {
        return Some((3, 0));
    }
    let (level, rest) = if let Some(r) = name.strip_prefix('O') {
        (1, r)
    } else if let Some(r) = name.strip_prefix('M') {
        (2, r)
    } else {
        return None;
    };
    if rest.is_empty() || rest.starts_with('0') || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((level, rest.parse().ok()?))
}

impl Data {
    /// Reads and checks a data file; the error is one line naming the problem.
    pub fn parse(text: &str) -> Result<Data, String> {
        let raw: RawData =
            toml::from_str(text).map_err(|e| crate::toml_text::one_line(&e, text))?;
        Data::from_raw(raw)
    }

    fn from_raw(raw: RawData) -> Result<Data, String> {
        // Colours (H1.2).
        let r = &raw.resources;
        let mut colours = Vec::new();
        let mut colour_level = Vec::new();
        let mut levels: [Vec<u8>; 3] = Default::default();
        for (k, list) in [&r.level1, &r.level2, &r.level3].into_iter().enumerate() {
            if list.is_empty() {
                return Err(format!("resources: level{} lists no colour", k + 1));
            }
            for c in list {
                if colours.contains(c) {
                    return Err(format!("resources: colour {c:?} listed twice"));
                }
                if c.is_empty() || c.chars().any(|ch| !ch.is_ascii_lowercase()) {
                    return Err(format!("resources: colour {c:?} is not a lower-case word"));
                }
                levels[k].push(colours.len() as u8);
                colours.push(c.clone());
                colour_level.push(k as u8 + 1);
            }
        }
        if colours.len() > MAX_COLOURS {
            return Err(format!("resources: more than {MAX_COLOURS} colours"));
        }
        let colour = |what: &str, c: &str| -> Result<u8, String> {
            colours
                .iter()
                .position(|x| x == c)
                .map(|i| i as u8)
                .ok_or_else(|| format!("{what}: unknown colour {c:?}"))
        };
        let mut count = vec![0u32; colours.len()];
        for (c, n) in &r.count {
            let i = colour("resources.count", c)?;
            if !(0..=200).contains(n) {
                return Err(format!("resources.count.{c}: {n} is not 0..200"));
            }
            count[usize::from(i)] = *n as u32;
        }
        if let Some(c) = colours.iter().find(|c| !r.count.contains_key(*c)) {
            return Err(format!("resources.count: no count for {c:?}"));
        }
        let black = levels[2][0];

        // Gates (H2.1, H2.2).
        let mut gates = Vec::new();
        let mut ring = Vec::new();
        let mut rings: [Vec<u8>; 3] = Default::default();
        for (k, (name, list)) in [
            ("A", &raw.gates.a),
            ("B", &raw.gates.b),
            ("C", &raw.gates.c),
        ]
        .into_iter()
        .enumerate()
        {
            if list.len() < 2 || list.len() % 2 != 0 {
                return Err(format!(
                    "gates.{name}: a ring needs an even number of gates (at least 2)"
                ));
            }
            for g in list {
                if gates.contains(g) {
                    return Err(format!("gates: gate {g:?} listed twice"));
                }
                if !g.starts_with(name) {
                    return Err(format!(
                        "gates.{name}: gate {g:?} does not start with {name}"
                    ));
                }
                rings[k].push(gates.len() as u8);
                gates.push(g.clone());
                ring.push(k as u8);
            }
        }
        let n = gates.len();
        if n > MAX_GATES {
            return Err(format!("gates: more than {MAX_GATES} gates"));
        }
        let gate = |what: &str, g: &str| -> Result<u8, String> {
            gates
                .iter()
                .position(|x| x == g)
                .map(|i| i as u8)
                .ok_or_else(|| format!("{what}: unknown gate {g:?}"))
        };
        let mut clockwise = vec![0u8; n];
        let mut opposite = vec![0u8; n];
        let mut adjacent = vec![0u64; n];
        for list in &rings {
            let len = list.len();
            for (k, &g) in list.iter().enumerate() {
                let next = list[(k + 1) % len];
                clockwise[usize::from(g)] = next;
                opposite[usize::from(g)] = list[(k + len / 2) % len];
                adjacent[usize::from(g)] |= 1 << next;
                adjacent[usize::from(next)] |= 1 << g;
            }
        }
        for link in &raw.gates.links {
            let [a, b] = link.as_slice() else {
                return Err("gates.links: each link names two gates".into());
            };
            let (a, b) = (gate("gates.links", a)?, gate("gates.links", b)?);
            if a == b {
                return Err("gates.links: a gate linked to itself".into());
            }
            adjacent[usize::from(a)] |= 1 << b;
            adjacent[usize::from(b)] |= 1 << a;
        }
        let mut dist = vec![u8::MAX; n * n];
        for from in 0..n {
            dist[from * n + from] = 0;
            let mut frontier = vec![from];
            let mut d = 0u8;
            while !frontier.is_empty() {
                d += 1;
                let mut next = Vec::new();
                for &g in &frontier {
                    let mut m = adjacent[g];
                    while m != 0 {
                        let h = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if dist[from * n + h] == u8::MAX {
                            dist[from * n + h] = d;
                            next.push(h);
                        }
                    }
                }
                frontier = next;
            }
        }

        // Planets (H2.3).
        let mut named: Vec<(&String, &Vec<String>)> = raw.planets.iter().collect();
        for (p, _) in &named {
            if planet_order(p).is_none() {
                return Err(format!(
                    "planets: {p:?} is not a planet name (O<n>, M<n> or CORE)"
                ));
            }
        }
        named.sort_by_key(|(p, _)| planet_order(p));
        if named.len() > MAX_PLANETS {
            return Err(format!("planets: more than {MAX_PLANETS} planets"));
        }
        let core = named
            .iter()
            .position(|(p, _)| p.as_str() == "CORE")
            .ok_or("planets: no CORE")? as u8;
        let planets: Vec<String> = named.iter().map(|(p, _)| (*p).clone()).collect();
        let planet_level: Vec<u8> = planets
            .iter()
            .map(|p| planet_order(p).map_or(3, |o| o.0))
            .collect();
        let mut planet_gates = Vec::new();
        let mut gate_planets = vec![Vec::new(); n];
        for (k, (p, list)) in named.iter().enumerate() {
            let mut mask = 0u64;
            for g in *list {
                let g = gate(&format!("planets.{p}"), g)?;
                mask |= 1 << g;
                gate_planets[usize::from(g)].push(k as u8);
            }
            if mask == 0 {
                return Err(format!("planets.{p}: no adjacent gate"));
            }
            planet_gates.push(mask);
        }
        let planet = |what: &str, p: &str| -> Result<u8, String> {
            planets
                .iter()
                .position(|x| x == p)
                .map(|i| i as u8)
                .ok_or_else(|| format!("{what}: unknown planet {p:?}"))
        };

        // Planet tiles (H2.4).
        let mut planet_tiles: Vec<PlanetTile> = Vec::new();
        for t in &raw.planet_tile {
            if planet_tiles.iter().any(|x| x.id == t.id) {
                return Err(format!("planet_tile: id {:?} listed twice", t.id));
            }
            let what = format!("planet_tile {}", t.id);
            let c = colour(&what, &t.colour)?;
            let input = colour(&what, &t.input)?;
            let level = colour_level[usize::from(c)];
            if level == 3 {
                return Err(format!("{what}: CORE is printed on the board, not a tile"));
            }
            if colour_level[usize::from(input)] != level || input == c {
                return Err(format!(
                    "{what}: input must be another colour of the same level"
                ));
            }
            let factory = match (&t.factory, level) {
                (None, 1) => None,
                (Some(f), 2) => {
                    let [a, b] = f.as_slice() else {
                        return Err(format!("{what}: factory names two colours"));
                    };
                    let (a, b) = (colour(&what, a)?, colour(&what, b)?);
                    if a == b
                        || colour_level[usize::from(a)] != 1
                        || colour_level[usize::from(b)] != 1
                    {
                        return Err(format!("{what}: factory is two different level-1 colours"));
                    }
                    Some((a, b))
                }
                (Some(_), _) => return Err(format!("{what}: only level-2 tiles have a factory")),
                (None, _) => return Err(format!("{what}: a level-2 tile needs its factory")),
            };
            planet_tiles.push(PlanetTile {
                id: t.id.clone(),
                colour: c,
                input,
                factory,
            });
        }
        let tile_level = |t: &PlanetTile| colour_level[usize::from(t.colour)];
        for level in 1..=2u8 {
            let tiles = planet_tiles
                .iter()
                .filter(|t| tile_level(t) == level)
                .count();
            let spaces = planet_level.iter().filter(|&&l| l == level).count();
            if tiles < spaces {
                return Err(format!(
                    "planet_tile: {tiles} level-{level} tiles for {spaces} planets"
                ));
            }
        }

        // Colony tiles (H8).
        let mut tiles: Vec<TileKind> = Vec::new();
        for t in &raw.colony_tile {
            let what = format!("colony_tile {}", t.id);
            if tiles.iter().any(|x| x.id == t.id) {
                return Err(format!("colony_tile: id {:?} listed twice", t.id));
            }
            let effect = Effect::from_id(&t.id)
                .ok_or_else(|| format!("colony_tile: unknown tile {:?} (no such effect)", t.id))?;
            if !(1..=3).contains(&t.level) {
                return Err(format!("{what}: level {} is not 1..3", t.level));
            }
            let copies = t.copies.unwrap_or(1);
            if !(1..=20).contains(&copies) {
                return Err(format!("{what}: copies {copies} is not 1..20"));
            }
            let use_ = match t.use_.as_str() {
                "once" => Use::Once,
                "turn" => Use::Turn,
                "always" => Use::Always,
                "markers" => Use::Markers,
                other => return Err(format!("{what}: unknown use {other:?}")),
            };
            tiles.push(TileKind {
                id: t.id.clone(),
                level: t.level as u8,
                copies: copies as u8,
                use_,
                effect,
            });
        }
        if tiles.len() > MAX_TILES {
            return Err(format!("colony_tile: more than {MAX_TILES} kinds"));
        }
        let tile = |what: &str, id: &str| -> Result<u8, String> {
            tiles
                .iter()
                .position(|x| x.id == id)
                .map(|i| i as u8)
                .ok_or_else(|| format!("{what}: unknown tile {id:?}"))
        };
        for level in 1..=3u8 {
            let copies: u32 = tiles
                .iter()
                .filter(|t| t.level == level)
                .map(|t| u32::from(t.copies))
                .sum();
            let spaces = if level == 3 {
                3
            } else {
                planet_level.iter().filter(|&&l| l == level).count() as u32
            };
            if copies < spaces {
                return Err(format!(
                    "colony_tile: {copies} level-{level} tiles for {spaces} spaces"
                ));
            }
        }

        // Goals (H9.1).
        let mut goals = Vec::new();
        for g in &raw.goals.tiles {
            if raw.goals.tiles.iter().filter(|x| *x == g).count() > 1 {
                return Err(format!("goals.tiles: {g:?} listed twice"));
            }
            goals.push(Goal::from_id(g).ok_or_else(|| format!("goals.tiles: unknown goal {g:?}"))?);
        }
        if goals.len() < 3 || goals.len() > MAX_GOALS {
            return Err(format!("goals.tiles: 3..{MAX_GOALS} goals needed"));
        }
        let goal_ids = raw.goals.tiles.clone();
        let goal = |what: &str, id: &str| -> Result<u8, String> {
            goal_ids
                .iter()
                .position(|x| x == id)
                .map(|i| i as u8)
                .ok_or_else(|| format!("{what}: unknown goal {id:?}"))
        };

        // Research board (H2.6).
        let space = |what: &str, name: &str| -> Result<usize, String> {
            let words: Vec<&str> = name.split_whitespace().collect();
            match parse_research(&words) {
                Some(s) if s < RESEARCH_SPACES => Ok(s),
                _ => Err(format!("{what}: unknown space {name:?}")),
            }
        };
        let mut cost = vec![Vec::new(); RESEARCH_SPACES];
        for (name, list) in &raw.research.cost {
            let s = space("research.cost", name)?;
            let what = format!("research.cost.{name}");
            let want = match s {
                0..=5 => 1,
                6..=11 => 2,
                _ => 3,
            };
            for c in list {
                let c = colour(&what, c)?;
                if colour_level[usize::from(c)] != want {
                    return Err(format!("{what}: a level-{want} colour is needed"));
                }
                cost[s].push(c);
            }
            if cost[s].is_empty() {
                return Err(format!("{what}: no colour"));
            }
        }
        if let Some(s) = (0..RESEARCH_SPACES).find(|&s| cost[s].is_empty()) {
            return Err(format!("research.cost: no cost for {:?}", research_name(s)));
        }
        let mut requires = vec![Vec::new(); RESEARCH_SPACES];
        for (name, list) in &raw.research.requires {
            let s = space("research.requires", name)?;
            if s < 6 {
                return Err(format!(
                    "research.requires: {name:?} is a level-II space and requires nothing"
                ));
            }
            for r in list {
                let r = space(&format!("research.requires.{name}"), r)?;
                if r >= s || (s < GOAL_SPACE && r >= 6) || (s >= GOAL_SPACE && r < 6) {
                    return Err(format!(
                        "research.requires.{name}: {:?} is not on the level before",
                        research_name(r)
                    ));
                }
                requires[s].push(r);
            }
        }
        if let Some(s) = (6..RESEARCH_SPACES).find(|&s| requires[s].is_empty()) {
            return Err(format!(
                "research.requires: nothing listed for {:?}",
                research_name(s)
            ));
        }

        // Dynasty ring (H2.7).
        let mut order = Vec::new();
        for a in &raw.dynasty.ring {
            let action =
                Action::parse(a).ok_or_else(|| format!("dynasty.ring: unknown action {a:?}"))?;
            if order.contains(&action) {
                return Err(format!("dynasty.ring: {a:?} listed twice"));
            }
            order.push(action);
        }
        if order.len() != 6 {
            return Err("dynasty.ring: the six actions, each once".into());
        }
        let mut right = [Action::Travel; 6];
        let mut left = [Action::Travel; 6];
        for k in 0..6 {
            right[order[k].index()] = order[(k + 1) % 6];
            left[order[k].index()] = order[(k + 5) % 6];
        }

        // The standard layout (H3.2).
        let st = &raw.standard;
        let mut std_planets = vec![None; planets.len()];
        for (p, t) in &st.planets {
            let k = planet("standard.planets", p)?;
            let id = planet_tiles
                .iter()
                .position(|x| &x.id == t)
                .ok_or_else(|| format!("standard.planets.{p}: unknown planet tile {t:?}"))?;
            if planet_level[usize::from(k)] != tile_level(&planet_tiles[id]) {
                return Err(format!(
                    "standard.planets.{p}: tile {t:?} is of another level"
                ));
            }
            if std_planets.contains(&Some(id as u8)) {
                return Err(format!("standard.planets: tile {t:?} placed twice"));
            }
            std_planets[usize::from(k)] = Some(id as u8);
        }
        if let Some(k) =
            (0..planets.len()).find(|&k| k != usize::from(core) && std_planets[k].is_none())
        {
            return Err(format!("standard.planets: no tile for {}", planets[k]));
        }
        let mut std_colonies = vec![None; planets.len()];
        let mut std_core = Vec::new();
        for (p, v) in &st.colonies {
            let k = planet("standard.colonies", p)?;
            let what = format!("standard.colonies.{p}");
            match (k == core, v) {
                (false, toml::Value::String(t)) => {
                    std_colonies[usize::from(k)] = Some(tile(&what, t)?)
                }
                (true, toml::Value::Array(list)) => {
                    for t in list {
                        let t = t.as_str().ok_or_else(|| format!("{what}: tile ids"))?;
                        std_core.push(tile(&what, t)?);
                    }
                }
                _ => return Err(format!("{what}: a tile id (CORE: a list of them)")),
            }
        }
        if let Some(k) =
            (0..planets.len()).find(|&k| k != usize::from(core) && std_colonies[k].is_none())
        {
            return Err(format!("standard.colonies: no tile for {}", planets[k]));
        }
        let mut piles: [Vec<u8>; 3] = Default::default();
        for (k, list) in [&st.piles.colony1, &st.piles.colony2, &st.piles.colony3]
            .into_iter()
            .enumerate()
        {
            for t in list {
                piles[k].push(tile(&format!("standard.piles.colony{}", k + 1), t)?);
            }
        }
        let goal_pile = st
            .piles
            .goals
            .iter()
            .map(|g| goal("standard.piles.goals", g))
            .collect::<Result<Vec<_>, _>>()?;
        let board_goals: Vec<u8> = st
            .board
            .goals
            .iter()
            .map(|g| goal("standard.board.goals", g))
            .collect::<Result<_, _>>()?;
        let [g1, g2, g3] = board_goals.as_slice() else {
            return Err("standard.board.goals: three goals (GOAL 1, 2, 3)".into());
        };
        let empire = st
            .board
            .empire
            .iter()
            .map(|g| gate("standard.board.empire", g))
            .collect::<Result<Vec<_>, _>>()?;
        if empire.len() as u32 > EMPIRE_SHIPS {
            return Err("standard.board.empire: more than 6 Empire ships".into());
        }
        Ok(Data {
            colours,
            colour_level,
            count,
            levels,
            black,
            gates,
            ring,
            rings,
            clockwise,
            opposite,
            adjacent,
            dist,
            planets,
            planet_level,
            planet_gates,
            gate_planets,
            core,
            planet_tiles,
            tiles,
            goals,
            goal_ids,
            cost,
            requires,
            right,
            left,
            standard: Standard {
                planets: std_planets,
                colonies: std_colonies,
                core: std_core,
                piles,
                goal_pile,
                goals: [*g1, *g2, *g3],
                empire,
            },
        })
    }
}
