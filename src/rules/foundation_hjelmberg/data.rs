//! Board and tile data (H1.6): read from a data file, checked, and turned into the
//! indices the rules use. The standard data file (`data.toml`, a copy of the rules of
//! record's `foundation-hjelmberg-data.toml`) is compiled in; a scenario may name
//! another, so a layout changes without code.
//!
//! Everything the rules count is an index into the lists here, in canonical order:
//! colours (level 1, 2, 3 as listed), gates (ring A, B, C as listed), planets (outer by
//! number, middle by number, CORE), planet tiles and colony tiles (as listed), goal tiles
//! (as listed). What the rules name (the six actions, the research board's spaces, the
//! goals, the colony tiles' effects) is fixed in code; the data says which exist, where,
//! and at what cost.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde::Deserialize;

/// Upper bounds the fixed-size position relies on (the data is checked against them).
pub const MAX_COLOURS: usize = 16;
pub const MAX_PLANETS: usize = 32;
pub const MAX_GATES: usize = 64;
pub const MAX_TILES: usize = 32;
pub const MAX_GOALS: usize = 16;
/// Players at one table (H1.1: 2–5).
pub const MAX_SEATS: usize = 5;
/// Discs per player (H1.1).
pub const DISCS: u32 = 24;
/// Own kins per player (H1.1).
pub const OWN_KINS: u8 = 6;
/// Neutral kins in the game (H1.1).
pub const NEUTRAL_KINS: u8 = 6;
/// Empire ships in the game (H1.1).
pub const EMPIRE_SHIPS: u32 = 6;

/// The standard data file.
pub const STANDARD_TEXT: &str = include_str!("data.toml");

/// The standard data, read once.
pub fn standard() -> Arc<Data> {
    static D: OnceLock<Arc<Data>> = OnceLock::new();
    D.get_or_init(|| Arc::new(Data::parse(STANDARD_TEXT).expect("the standard data file is valid")))
        .clone()
}

/// The six actions, in the seed's order (the research board's order, H2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    Travel,
    Colonize,
    Trade,
    Produce,
    Research,
    Battle,
}

impl Action {
    pub const ALL: [Action; 6] = [
        Action::Travel,
        Action::Colonize,
        Action::Trade,
        Action::Produce,
        Action::Research,
        Action::Battle,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The order word (H5.1).
    pub fn word(self) -> &'static str {
        match self {
            Action::Travel => "TRAVEL",
            Action::Colonize => "COLONIZE",
            Action::Trade => "TRADE",
            Action::Produce => "PRODUCE",
            Action::Research => "RESEARCH",
            Action::Battle => "BATTLE",
        }
    }

    /// An order word or alias (H5.1), any case.
    pub fn parse(word: &str) -> Option<Action> {
        Some(match word.to_ascii_uppercase().as_str() {
            "TRAVEL" | "SPACE-TRAVEL" | "ST" => Action::Travel,
            "COLONIZE" | "COLONISE" | "CO" => Action::Colonize,
            "TRADE" | "TR" => Action::Trade,
            "PRODUCE" | "PR" => Action::Produce,
            "RESEARCH" | "RE" => Action::Research,
            "BATTLE" | "BA" => Action::Battle,
            _ => return None,
        })
    }
}

/// A level word: `I`, `II`, `III` or `1`–`3` (H5.1).
pub fn parse_level(word: &str) -> Option<u8> {
    match word.to_ascii_uppercase().as_str() {
        "I" | "1" => Some(1),
        "II" | "2" => Some(2),
        "III" | "3" => Some(3),
        _ => None,
    }
}

pub fn level_word(level: u8) -> &'static str {
    match level {
        1 => "I",
        2 => "II",
        _ => "III",
    }
}

/// How a colony tile is used (H8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    Once,
    Turn,
    Always,
    Markers,
}

/// What a colony tile does (H8); the level-numbered kinds take their level from the
/// data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Riches,
    Kin,
    Dividend,
    Sidestep,
    Escort,
    Draft,
    Recall,
    Warp,
    Settle,
    Barter,
    Industry,
    Insight,
    Raid,
    Reserve,
    Glide,
    Cloak,
    Fallback,
    Exchange,
    Oracle,
    Prophecy,
    Flagship,
    Ascend,
}

impl Effect {
    fn from_id(id: &str) -> Option<Effect> {
        let base = match id.rsplit_once('-') {
            Some((b, n)) if n.parse::<u8>().is_ok() => b,
            _ => id,
        };
        Some(match base {
            "riches" => Effect::Riches,
            "kin" => Effect::Kin,
            "dividend" => Effect::Dividend,
            "draft" => Effect::Draft,
            _ => match id {
                "sidestep" => Effect::Sidestep,
                "escort" => Effect::Escort,
                "recall" => Effect::Recall,
                "warp" => Effect::Warp,
                "settle" => Effect::Settle,
                "barter" => Effect::Barter,
                "industry" => Effect::Industry,
                "insight" => Effect::Insight,
                "raid" => Effect::Raid,
                "reserve" => Effect::Reserve,
                "glide" => Effect::Glide,
                "cloak" => Effect::Cloak,
                "fallback" => Effect::Fallback,
                "exchange" => Effect::Exchange,
                "oracle" => Effect::Oracle,
                "prophecy" => Effect::Prophecy,
                "flagship" => Effect::Flagship,
                "ascend" => Effect::Ascend,
                _ => return None,
            },
        })
    }
}

/// The goal tiles (H9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    OuterShips,
    Colonies,
    Black3,
    Variety,
    ResearchIv,
    Empire2,
    AllActions,
    AllLevels,
    MiddleShips,
}

impl Goal {
    fn from_id(id: &str) -> Option<Goal> {
        Some(match id {
            "outer-ships" => Goal::OuterShips,
            "colonies" => Goal::Colonies,
            "black-3" => Goal::Black3,
            "variety" => Goal::Variety,
            "research-iv" => Goal::ResearchIv,
            "empire-2" => Goal::Empire2,
            "all-actions" => Goal::AllActions,
            "all-levels" => Goal::AllLevels,
            "middle-ships" => Goal::MiddleShips,
            _ => return None,
        })
    }
}

/// The research board (H2.6): `<action> II` (0–5), `<action> III` (6–11), `GOAL 1`–`3`
/// (12–14), in the seed's action order; [`PERSONAL`] is a player's personal goal (H6.5).
pub const RESEARCH_SPACES: usize = 15;
pub const PERSONAL: usize = 15;
pub const GOAL_SPACE: usize = 12;

pub fn research_name(space: usize) -> String {
    match space {
        0..=5 => format!("{} II", Action::ALL[space].word()),
        6..=11 => format!("{} III", Action::ALL[space - 6].word()),
        12..=14 => format!("GOAL {}", space - 11),
        _ => "PERSONAL".into(),
    }
}

/// A research space by name (`TRADE II`, `trade-ii`, `GOAL 2`, `PERSONAL`), from its
/// words.
pub fn parse_research(words: &[&str]) -> Option<usize> {
    let joined = words.join(" ").to_ascii_uppercase().replace('-', " ");
    let w: Vec<&str> = joined.split_whitespace().collect();
    match w.as_slice() {
        ["PERSONAL"] => Some(PERSONAL),
        ["GOAL", n] => match *n {
            "1" => Some(12),
            "2" => Some(13),
            "3" => Some(14),
            _ => None,
        },
        [a @ .., l] => {
            let action = parse_action_words(a)?;
            match parse_level(l)? {
                2 => Some(action.index()),
                3 => Some(6 + action.index()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An action from one word, or from `SPACE TRAVEL` split at its hyphen.
pub fn parse_action_words(words: &[&str]) -> Option<Action> {
    match words {
        [w] => Action::parse(w),
        [a, b] => Action::parse(&format!("{a}-{b}")),
        _ => None,
    }
}

/// A dynasty space (H2.7): `<action> <level>` (index action × 3 + level − 1) or
/// [`CENTER`].
pub const CENTER: usize = 18;
pub const DYNASTY_SPACES: usize = 19;

pub fn dynasty_space(action: Action, level: u8) -> usize {
    action.index() * 3 + usize::from(level) - 1
}

pub fn dynasty_name(space: usize) -> String {
    if space == CENTER {
        "CENTER".into()
    } else {
        format!(
            "{} {}",
            Action::ALL[space / 3].word(),
            level_word(space as u8 % 3 + 1)
        )
    }
}

/// The action and level of a dynasty space (not CENTER).
pub fn space_parts(space: usize) -> (Action, u8) {
    (Action::ALL[space / 3], space as u8 % 3 + 1)
}

/// A dynasty space by name (`TRADE II`, `TRADE-II`, `CENTER`, `CENTRE`).
pub fn parse_dynasty(words: &[&str]) -> Option<usize> {
    let joined = words.join(" ").to_ascii_uppercase().replace('-', " ");
    let w: Vec<&str> = joined.split_whitespace().collect();
    match w.as_slice() {
        ["CENTER"] | ["CENTRE"] => Some(CENTER),
        [a @ .., l] => Some(dynasty_space(parse_action_words(a)?, parse_level(l)?)),
        _ => None,
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlanetTile {
    pub id: String,
    pub colour: u8,
    pub input: u8,
    pub factory: Option<(u8, u8)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TileKind {
    pub id: String,
    pub level: u8,
    pub copies: u8,
    pub use_: Use,
    pub effect: Effect,
}

/// The standard layout (H3.2 `layout = "standard"`, and a scenario's defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Standard {
    /// Planet tile by planet (CORE: none).
    pub planets: Vec<Option<u8>>,
    /// Colony tile by outer and middle planet.
    pub colonies: Vec<Option<u8>>,
    pub core: Vec<u8>,
    pub piles: [Vec<u8>; 3],
    pub goal_pile: Vec<u8>,
    pub goals: [u8; 3],
    pub empire: Vec<u8>,
}

/// A data file, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    pub colours: Vec<String>,
    pub colour_level: Vec<u8>,
    pub count: Vec<u32>,
    /// Colours of each level (index 0 = level 1).
    pub levels: [Vec<u8>; 3],
    /// The level-3 colour (black): CORE's colour and the wild cube (H1.3).
    pub black: u8,
    pub gates: Vec<String>,
    /// 0 = ring A, 1 = B, 2 = C.
    pub ring: Vec<u8>,
    pub rings: [Vec<u8>; 3],
    pub clockwise: Vec<u8>,
    pub opposite: Vec<u8>,
    pub adjacent: Vec<u64>,
    /// Distances between gates (H2.2), `dist[a * n + b]`.
    pub dist: Vec<u8>,
    pub planets: Vec<String>,
    /// 1 outer, 2 middle, 3 CORE.
    pub planet_level: Vec<u8>,
    pub planet_gates: Vec<u64>,
    /// Planets adjacent to each gate, canonical order.
    pub gate_planets: Vec<Vec<u8>>,
    pub core: u8,
    pub planet_tiles: Vec<PlanetTile>,
    pub tiles: Vec<TileKind>,
    pub goals: Vec<Goal>,
    pub goal_ids: Vec<String>,
    /// Research cost by space (colours), and the spaces one of which must be researched.
    pub cost: Vec<Vec<u8>>,
    pub requires: Vec<Vec<usize>>,
    /// The dynasty ring (H2.7): the action to the right of each action, and to the left.
    pub right: [Action; 6],
    pub left: [Action; 6],
    pub standard: Standard,
}

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

    pub fn gate(&self, name: &str) -> Option<u8> {
        let up = name.to_ascii_uppercase();
        self.gates.iter().position(|g| *g == up).map(|i| i as u8)
    }

    pub fn planet(&self, name: &str) -> Option<u8> {
        let up = name.to_ascii_uppercase();
        self.planets.iter().position(|p| *p == up).map(|i| i as u8)
    }

    pub fn colour(&self, name: &str) -> Option<u8> {
        let low = name.to_ascii_lowercase();
        self.colours.iter().position(|c| *c == low).map(|i| i as u8)
    }

    pub fn tile(&self, id: &str) -> Option<u8> {
        let low = id.to_ascii_lowercase();
        self.tiles.iter().position(|t| t.id == low).map(|i| i as u8)
    }

    pub fn goal(&self, id: &str) -> Option<u8> {
        let low = id.to_ascii_lowercase();
        self.goal_ids
            .iter()
            .position(|g| *g == low)
            .map(|i| i as u8)
    }

    pub fn distance(&self, a: u8, b: u8) -> u8 {
        self.dist[usize::from(a) * self.gates.len() + usize::from(b)]
    }

    /// The first tile kind with this effect (and level, for the level-numbered ones).
    pub fn tile_with(&self, effect: Effect) -> impl Iterator<Item = u8> + '_ {
        self.tiles
            .iter()
            .enumerate()
            .filter(move |(_, t)| t.effect == effect)
            .map(|(k, _)| k as u8)
    }

    pub fn colour_name(&self, c: u8) -> &str {
        &self.colours[usize::from(c)]
    }

    pub fn gate_name(&self, g: u8) -> &str {
        &self.gates[usize::from(g)]
    }

    pub fn planet_name(&self, p: u8) -> &str {
        &self.planets[usize::from(p)]
    }

    pub fn tile_name(&self, t: u8) -> &str {
        &self.tiles[usize::from(t)].id
    }

    pub fn goal_name(&self, g: u8) -> &str {
        &self.goal_ids[usize::from(g)]
    }

    /// Names of the gates in a mask, canonical order.
    pub fn gate_list(&self, mask: u64) -> Vec<&str> {
        bits(mask).map(|g| self.gate_name(g)).collect()
    }
}

/// The set bits of a mask, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let b = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h1_6_the_standard_data_file_reads() {
        let d = standard();
        assert_eq!(d.colours.len(), 11);
        assert_eq!(d.gates.len(), 24);
        assert_eq!(d.planets.len(), 19);
        assert_eq!(d.planets[0], "O1");
        assert_eq!(d.planets[11], "O12");
        assert_eq!(d.planets[12], "M1");
        assert_eq!(d.planets[18], "CORE");
        assert_eq!(d.tiles.iter().map(|t| u32::from(t.copies)).sum::<u32>(), 33);
        assert_eq!(d.goals.len(), 9);
    }

    #[test]
    fn h2_2_distances_follow_rings_and_spokes() {
        let d = standard();
        let g = |n: &str| d.gate(n).unwrap();
        assert_eq!(d.distance(g("A1"), g("A2")), 1);
        assert_eq!(d.distance(g("A1"), g("B1")), 2);
        assert_eq!(d.distance(g("A1"), g("C1")), 3);
        assert_eq!(d.distance(g("A1"), g("A12")), 1);
        assert_eq!(d.gate_name(d.opposite[usize::from(g("A1"))]), "A7");
        assert_eq!(d.gate_name(d.opposite[usize::from(g("B2"))]), "B5");
        assert_eq!(d.gate_name(d.clockwise[usize::from(g("A12"))]), "A1");
        assert_eq!(d.gate_name(d.clockwise[usize::from(g("C6"))]), "C1");
    }

    #[test]
    fn h2_7_the_dynasty_ring_has_trade_between_travel_and_research() {
        let d = standard();
        assert_eq!(d.right[Action::Trade.index()], Action::Research);
        assert_eq!(d.left[Action::Trade.index()], Action::Travel);
        assert_eq!(d.right[Action::Battle.index()], Action::Travel);
    }

    #[test]
    fn a_damaged_data_file_is_an_error_not_a_panic() {
        let bad = STANDARD_TEXT.replace("\"A12\"]  # outer ring", "\"A13\"]  # outer ring");
        assert!(Data::parse(&bad).is_err());
        let bad = STANDARD_TEXT.replace("id = \"warp\"", "id = \"teleport\"");
        assert!(Data::parse(&bad).unwrap_err().contains("teleport"));
        assert!(Data::parse("x = 1").is_err());
    }
}
