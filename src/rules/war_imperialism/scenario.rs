//! War! scenario files (`../shared/specs/war-scenario.md`, followed exactly): TOML in,
//! the position checked (the JSON out is [`super::output`]). A damaged file is one line
//! naming the problem; a damaged map file is named as such. New games start here too
//! ([`new_game_state`]).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::Deserialize;

use super::map::{Chit, Map, MapHandle, Marker, Place};
use super::state::{
    Building, Cede, Fleet, Kind, Options, Phase, Player, Posture, Region, State, Units, War,
    FLEET_PORTAGE,
};
use crate::dice::Dice;

/// The most PP, DP or any other number of a scenario: far above any game, far from
/// overflowing as a game adds to it.
pub const LIMIT: i64 = 1_000_000;

/// The most units or fleets in one stack of a scenario (a battle's dice grow with
/// them; no game comes near it).
pub const STACK_LIMIT: u32 = 1_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    #[allow(dead_code)]
    rules: String,
    phase: String,
    turn: Option<i64>,
    movement: Option<i64>,
    #[serde(default)]
    seed: i64,
    #[serde(default)]
    dice: Vec<i64>,
    map: Option<String>,
    #[serde(default)]
    order: Vec<String>,
    #[serde(default)]
    suez: bool,
    #[serde(default)]
    options: OptionsFile,
    #[serde(default)]
    player: Vec<PlayerFile>,
    #[serde(default)]
    war: Vec<WarFile>,
    #[serde(default)]
    region: Vec<RegionFile>,
    #[serde(default)]
    units: Vec<UnitsFile>,
    #[serde(default)]
    fleet: Vec<FleetFile>,
    #[serde(default)]
    cede: Vec<CedeFile>,
    #[serde(default)]
    posture: Vec<PostureFile>,
    pool: Option<PoolFile>,
    #[serde(default)]
    orders: BTreeMap<String, String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct OptionsFile {
    last_turn: Option<i64>,
    regions_each: Option<i64>,
    start_pp: Option<i64>,
    start_dp: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    id: String,
    #[serde(default)]
    pp: i64,
    #[serde(default)]
    dp: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WarFile {
    players: Vec<String>,
    declared_by: String,
    #[serde(default)]
    turn: i64,
    #[serde(default = "one")]
    movement: i64,
}

fn one() -> i64 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionFile {
    id: String,
    owner: Option<String>,
    native: Option<String>,
    chit: Option<String>,
    #[serde(default)]
    developed: bool,
    #[serde(default)]
    buildings: Vec<String>,
    #[serde(default)]
    spheres: BTreeMap<String, i64>,
    #[serde(default)]
    revolt: bool,
    #[serde(default)]
    suppressors: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitsFile {
    player: String,
    at: String,
    units: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FleetFile {
    player: String,
    at: String,
    n: i64,
    #[serde(default)]
    cargo: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CedeFile {
    region: String,
    to: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PostureFile {
    player: String,
    region: String,
    stance: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoolFile {
    #[serde(default)]
    native: Vec<String>,
    #[serde(default)]
    chits: Vec<String>,
}

/// A scenario read: the position, the orders, the seed, the listed dice.
pub struct Scenario {
    pub state: State,
    pub orders: BTreeMap<String, String>,
    pub seed: u64,
    pub dice: Vec<u32>,
}

fn count(what: &str, n: i64) -> Result<u32, String> {
    if n < 0 {
        return Err(format!("{what}: negative ({n})"));
    }
    if n > LIMIT {
        return Err(format!("{what}: {n} is above the limit of {LIMIT}"));
    }
    Ok(n as u32)
}

fn options(file: &OptionsFile) -> Result<Options, String> {
    let opt = |what: &str, v: Option<i64>| v.map(|n| count(what, n)).transpose();
    let o = Options {
        last_turn: opt("options.last_turn", file.last_turn)?,
        regions_each: opt("options.regions_each", file.regions_each)?,
        start_pp: opt("options.start_pp", file.start_pp)?,
        start_dp: opt("options.start_dp", file.start_dp)?,
    };
    if o.regions_each == Some(0) {
        return Err("options.regions_each: at least 1".into());
    }
    Ok(o)
}

/// A player id: lower-case letters and digits.
pub fn valid_player_id(id: &str) -> Result<(), String> {
    let ok = !id.is_empty()
        && id.len() <= 20
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && !["natives", "all", "none"].contains(&id);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "player id {id:?}: lower-case letters and digits, not natives, all or none"
        ))
    }
}

/// A position on a map before the draft: every region native with its printed marker
/// and chit, the pools as the map lists them.
pub fn blank_state(map: Arc<Map>, ids: Vec<String>, options: Options) -> State {
    let np = ids.len();
    let regions = map
        .regions
        .iter()
        .map(|r| Region {
            owner: None,
            native: Some(r.native),
            chit: r.chit.clone(),
            developed: false,
            buildings: Default::default(),
            spheres: vec![0; np],
            revolt: false,
            suppressors: Vec::new(),
        })
        .collect();
    State {
        phase: Phase::Draft,
        turn: 0,
        players: ids
            .into_iter()
            .map(|id| Player {
                id,
                pp: 0,
                dp: 0,
                eliminated: false,
            })
            .collect(),
        order: (0..np).collect(),
        regions,
        land: vec![Units::default(); map.regions.len() * np],
        fleets: vec![Fleet::default(); map.seas.len() * np],
        wars: Vec::new(),
        cedes: Vec::new(),
        postures: Vec::new(),
        suez: false,
        pool_native: map.pool_native.clone(),
        pool_chits: map.pool_chits.clone(),
        options,
        winners: Vec::new(),
        setup_dice: Vec::new(),
        map: MapHandle(map),
    }
}

/// A new game on the standard map: the pools shuffled with the seed once (W1.6), the
/// setup order drawn (W2.3), its dice kept to be reported with the draft.
pub fn new_game_state(ids: Vec<String>, options: Options, seed: u64) -> State {
    let mut s = blank_state(Map::standard(), ids, options);
    let mut shuffle = Dice::for_phase(seed, 0, "pools");
    shuffle.shuffle(&mut s.pool_native);
    shuffle.shuffle(&mut s.pool_chits);
    let orders = BTreeMap::new();
    let mut run = super::run::Run::new(s, &orders, seed, &[]);
    let all: Vec<usize> = (0..run.np()).collect();
    let order = run.draw_order(all, "for the setup order");
    run.s.order = order;
    let mut s = run.s;
    s.setup_dice = run.log.dice;
    s
}

/// The options of a new game from `games.toml`'s `[game.options]`: `players` (3 to 6
/// ids, required) and the scenario options.
pub fn game_options(table: &toml::Table) -> Result<(Vec<String>, Options), String> {
    let mut table = table.clone();
    let players = table.remove("players").ok_or(
        "players: list the 3 to 6 player ids, e.g. players = [\"red\", \"blue\", \"green\"]",
    )?;
    let players: Vec<String> = players
        .try_into()
        .map_err(|_| "players: a list of player ids".to_string())?;
    if !(3..=6).contains(&players.len()) {
        return Err(format!("players: 3 to 6 players, not {}", players.len()));
    }
    let mut ids = Vec::new();
    for p in players {
        valid_player_id(&p)?;
        if ids.contains(&p) {
            return Err(format!("players: {p} is listed twice"));
        }
        ids.push(p);
    }
    ids.sort();
    let file: OptionsFile = table
        .try_into()
        .map_err(|e: toml::de::Error| e.message().trim().replace('\n', " "))?;
    Ok((ids, options(&file)?))
}

fn units_from(what: &str, table: &BTreeMap<String, i64>) -> Result<Units, String> {
    let mut u = Units::default();
    for (k, &n) in table {
        let kind = Kind::parse(k)
            .filter(|kind| kind.name().eq_ignore_ascii_case(k))
            .ok_or_else(|| format!("{what}: unknown unit kind {k:?} (INF CAV ART GEN EXP ENG)"))?;
        u.add_kind(kind, count(&format!("{what} {k}"), n)?);
    }
    Ok(u)
}

impl Scenario {
    /// Reads a scenario; `dir` is where a named map file is found.
    pub fn from_toml(text: &str, dir: &Path) -> Result<Scenario, String> {
        let file: ScenarioFile =
            toml::from_str(text).map_err(|e| crate::toml_text::one_line(&e, text))?;
        let map = match file.map.as_deref() {
            None | Some("standard") => Map::standard(),
            Some(name) => {
                let path = dir.join(name);
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("map file {name}: cannot read it ({e})"))?;
                Arc::new(Map::from_toml(&text).map_err(|e| format!("map file {name}: {e}"))?)
            }
        };
        if file.seed < 0 {
            return Err(format!("seed: negative ({})", file.seed));
        }
        let mut dice = Vec::new();
        for &d in &file.dice {
            if !(1..=6).contains(&d) {
                return Err(format!("dice: {d} is not a roll of a die (1 to 6)"));
            }
            dice.push(d as u32);
        }
        let orders = file.orders.clone();
        let seed = file.seed as u64;
        let state = build(file, map)?;
        for p in orders.keys() {
            if state.player_index(p).is_none() || *p != p.to_ascii_lowercase() {
                return Err(format!("orders for unknown player {p:?}"));
            }
        }
        Ok(Scenario {
            state,
            orders,
            seed,
            dice,
        })
    }
}

fn build(file: ScenarioFile, map: Arc<Map>) -> Result<State, String> {
    let phase = match (file.phase.as_str(), file.movement) {
        ("draft", _) => Phase::Draft,
        ("setup", _) => Phase::Setup,
        ("production", _) => Phase::Production,
        ("movement", Some(1)) => Phase::Movement1,
        ("movement", Some(2)) => Phase::Movement2,
        ("movement", Some(m)) => return Err(format!("movement = {m}: 1 or 2 in a movement phase")),
        ("movement", None) => return Err("a movement phase needs movement = 1 or 2".into()),
        (other, _) => {
            return Err(format!(
                "unknown phase {other:?}: draft, setup, production or movement"
            ))
        }
    };
    let turn = match file.turn {
        Some(t) => count("turn", t)?,
        None if matches!(phase, Phase::Draft | Phase::Setup) => 0,
        None => 1,
    };
    let options = options(&file.options)?;
    if file.player.is_empty() {
        return Err("no [[player]]".into());
    }
    if file.player.len() > 6 {
        return Err(format!("{} players: at most 6", file.player.len()));
    }
    let mut ids: Vec<String> = Vec::new();
    for p in &file.player {
        valid_player_id(&p.id)?;
        if ids.contains(&p.id) {
            return Err(format!("player {} is listed twice", p.id));
        }
        ids.push(p.id.clone());
    }
    ids.sort();
    let mut s = blank_state(map.clone(), ids.clone(), options);
    s.phase = phase;
    s.turn = turn;
    s.suez = file.suez;
    for p in &file.player {
        let k = s.player_index(&p.id).expect("listed");
        s.players[k].pp = count(&format!("player {} pp", p.id), p.pp)?;
        s.players[k].dp = count(&format!("player {} dp", p.id), p.dp)?;
    }
    let player = |s: &State, id: &str, what: &str| -> Result<usize, String> {
        s.players
            .iter()
            .position(|p| p.id == id)
            .ok_or_else(|| format!("{what}: unknown player {id:?}"))
    };
    // The movement order: every player once.
    let mut order = Vec::new();
    for id in &file.order {
        let k = player(&s, id, "order")?;
        if order.contains(&k) {
            return Err(format!("order: {id} is listed twice"));
        }
        order.push(k);
    }
    if let Some(missing) = (0..s.np()).find(|k| !order.contains(k)) {
        return Err(format!(
            "order: player {} is missing",
            s.players[missing].id
        ));
    }
    s.order = order;
    for w in &file.war {
        if w.players.len() != 2 {
            return Err("war: `players` names two players".into());
        }
        let a = player(&s, &w.players[0], "war")?;
        let b = player(&s, &w.players[1], "war")?;
        if a == b {
            return Err("war: a player at war with himself".into());
        }
        let by = player(&s, &w.declared_by, "war declared_by")?;
        if by != a && by != b {
            return Err(format!(
                "war: declared_by {} is not one of its players",
                w.declared_by
            ));
        }
        let wturn = count("war turn", w.turn)?;
        if !(1..=2).contains(&w.movement) {
            return Err(format!("war: movement {} is not 1 or 2", w.movement));
        }
        if s.war(a, b).is_some() {
            return Err(format!(
                "war between {} and {} is listed twice",
                w.players[0], w.players[1]
            ));
        }
        s.wars.push(War {
            players: (a.min(b), a.max(b)),
            declared_by: by,
            turn: wturn,
            movement: w.movement as u8,
        });
    }
    s.wars.sort_by_key(|w| w.players);
    let region_id = |id: &str, what: &str| match map.by_id(id) {
        Some(Place::Region(k)) => Ok(k),
        Some(Place::Sea(_)) => Err(format!("{what}: {id} is a sea area, not a region")),
        None => Err(format!("{what}: unknown region {id:?}")),
    };
    let mut listed = Vec::new();
    for rf in &file.region {
        let r = region_id(&rf.id, "region")?;
        if listed.contains(&r) {
            return Err(format!("region {} is listed twice", rf.id));
        }
        listed.push(r);
        let name = map.regions[r].id.clone();
        let owner = match rf.owner.as_deref() {
            None | Some("natives") => None,
            Some(id) => Some(player(&s, id, &format!("region {name} owner"))?),
        };
        let native = match rf.native.as_deref() {
            None => Some(map.regions[r].native),
            Some("none") => None,
            Some(m) => Some(
                Marker::parse(m)
                    .ok_or_else(|| format!("region {name}: bad native marker {m:?}"))?,
            ),
        };
        if owner.is_none() && native.is_none() {
            return Err(format!("region {name}: a native region needs a marker"));
        }
        if let (Some(_), Some(m)) = (owner, native) {
            if m.ns < 4 {
                return Err(format!(
                    "region {name}: marker {m} below 4 in a controlled region (it is westernized: native = \"none\")"
                ));
            }
        }
        let chit = match rf.chit.as_deref() {
            None => map.regions[r].chit.clone(),
            Some(c) => Chit::parse(c).ok_or_else(|| format!("region {name}: bad chit {c:?}"))?,
        };
        if rf.developed && chit.value() == 0 {
            return Err(format!("region {name}: a dot cannot be developed"));
        }
        let mut buildings = super::state::Buildings::default();
        for b in &rf.buildings {
            let kind = Building::parse(b)
                .filter(|k| k.name() == b.to_ascii_lowercase())
                .ok_or_else(|| {
                    format!("region {name}: unknown building {b:?} (city factory port railroad fort school)")
                })?;
            if buildings.has(kind) {
                return Err(format!("region {name}: {b} listed twice"));
            }
            if kind.exclusive() && buildings.list().iter().any(|x| x.exclusive()) {
                return Err(format!(
                    "region {name}: at most one of city, factory, port, railroad"
                ));
            }
            buildings.put(kind);
        }
        if buildings.has(Building::School) && !buildings.has(Building::City) {
            return Err(format!("region {name}: a school needs a city"));
        }
        if buildings.has(Building::Port) && map.regions[r].sea.is_empty() {
            return Err(format!(
                "region {name}: a port in a region that is not coastal"
            ));
        }
        if owner.is_none() && (!buildings.is_empty() || rf.developed) {
            return Err(format!(
                "region {name}: buildings or a developed resource in a native region"
            ));
        }
        let mut spheres = vec![0u32; s.np()];
        for (id, &n) in &rf.spheres {
            let p = player(&s, id, &format!("region {name} spheres"))?;
            spheres[p] = count(&format!("region {name} spheres of {id}"), n)?;
        }
        if rf.revolt && (owner.is_none() || native.is_none()) {
            return Err(format!(
                "region {name}: only a controlled region with a marker revolts"
            ));
        }
        let mut suppressors = Vec::new();
        for id in &rf.suppressors {
            let p = player(&s, id, &format!("region {name} suppressors"))?;
            if !suppressors.contains(&p) {
                suppressors.push(p);
            }
        }
        suppressors.sort();
        s.regions[r] = Region {
            owner,
            native,
            chit,
            developed: rf.developed,
            buildings,
            spheres,
            revolt: rf.revolt,
            suppressors,
        };
    }
    for u in &file.units {
        let p = player(&s, &u.player, "units")?;
        let r = match map.by_id(&u.at) {
            Some(Place::Region(k)) => k,
            Some(Place::Sea(_)) => {
                return Err(format!(
                    "units: land units of {} on the sea area {}",
                    u.player, u.at
                ))
            }
            None => return Err(format!("units: unknown region {:?}", u.at)),
        };
        let units = units_from(&format!("units of {} at {}", u.player, u.at), &u.units)?;
        let others = units.total() - units.get(Kind::Exp);
        if others > 0 && s.regions[r].owner != Some(p) {
            return Err(format!(
                "units: {} has land units other than explorers in {}, which it does not control",
                u.player, map.regions[r].id
            ));
        }
        s.units_mut(r, p).add(&units);
        if s.units(r, p).total() > STACK_LIMIT {
            return Err(format!(
                "units of {} at {}: more than {STACK_LIMIT} in one stack",
                u.player, u.at
            ));
        }
    }
    for f in &file.fleet {
        let p = player(&s, &f.player, "fleet")?;
        let sea = match map.by_id(&f.at) {
            Some(Place::Sea(k)) => k,
            Some(Place::Region(_)) => {
                return Err(format!("fleet: a fleet of {} on land ({})", f.player, f.at))
            }
            None => return Err(format!("fleet: unknown sea {:?}", f.at)),
        };
        let n = count(&format!("fleet of {} at {} n", f.player, f.at), f.n)?;
        let cargo = units_from(&format!("cargo of {} at {}", f.player, f.at), &f.cargo)?;
        let fl = s.fleet_mut(sea, p);
        fl.n += n;
        fl.cargo.add(&cargo);
        if fl.cargo.portage() > fl.n * FLEET_PORTAGE {
            return Err(format!(
                "fleet of {} at {}: cargo over portage ({} points on {} FLT, {} each)",
                f.player,
                f.at,
                fl.cargo.portage(),
                fl.n,
                FLEET_PORTAGE
            ));
        }
        if fl.n > STACK_LIMIT || fl.cargo.total() > STACK_LIMIT {
            return Err(format!(
                "fleet of {} at {}: more than {STACK_LIMIT} in one stack",
                f.player, f.at
            ));
        }
    }
    for c in &file.cede {
        let r = region_id(&c.region, "cede")?;
        let to = player(&s, &c.to, "cede")?;
        if let Some(x) = s.cedes.iter().find(|x| x.region == r && x.to != to) {
            // W5.8: a cession stands for the rest of the turn; one player a turn.
            return Err(format!(
                "cede: {} is ceded to {} already (one cession of a region a turn)",
                c.region, s.players[x.to].id
            ));
        }
        s.cedes.retain(|x| x.region != r);
        s.cedes.push(Cede { region: r, to });
    }
    for x in &file.posture {
        let p = player(&s, &x.player, "posture")?;
        let r = region_id(&x.region, "posture")?;
        let support = match x.stance.as_str() {
            "support" => true,
            "suppress" => false,
            other => return Err(format!("posture: stance {other:?} (support or suppress)")),
        };
        s.postures.retain(|y| !(y.player == p && y.region == r));
        s.postures.push(Posture {
            player: p,
            region: r,
            support,
        });
    }
    if let Some(pool) = &file.pool {
        s.pool_native = pool
            .native
            .iter()
            .map(|m| Marker::parse(m).ok_or_else(|| format!("pool: bad native marker {m:?}")))
            .collect::<Result<_, _>>()?;
        s.pool_chits = pool
            .chits
            .iter()
            .map(|c| Chit::parse(c).ok_or_else(|| format!("pool: bad chit {c:?}")))
            .collect::<Result<_, _>>()?;
    }
    Ok(s)
}
