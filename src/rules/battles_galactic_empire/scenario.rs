//! BFGE scenario files: TOML in, JSON out (`../shared/specs/bfge-scenario.md`,
//! followed exactly; extra output fields: `private` on result lines shown to their
//! writer only, B13.3).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::check::owing;
use super::outcome::Log;
use super::rng::Rng;
use super::setup;
use super::state::{
    Common, Options, Phase, Region, Scenario as Which, Side, State, Switcheroo, Unit,
};
use super::types::{region_index, total, Chit, Chits, Fleets, Kind, Power, REGIONS};
use crate::rules::RuleSet;

/// Guards against absurd files (not rules): the most of anything one entry may count.
pub const MAX_COUNT: i64 = 200;
/// The largest RP, value or turn a file may give.
pub const MAX_NUMBER: i64 = 10_000;
/// The largest Chaos Index, either way.
pub const MAX_CHAOS: i64 = 100_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[allow(dead_code)]
    rules: String,
    phase: String,
    turn: Option<i64>,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    dice: Vec<i64>,
    #[serde(default)]
    draws: Vec<String>,
    chaos: Option<i64>,
    #[serde(default)]
    options: OptionsFile,
    #[serde(default)]
    region: Vec<RegionFile>,
    #[serde(default)]
    power: Vec<PowerFile>,
    #[serde(default)]
    common: CommonFile,
    #[serde(default)]
    fleet: Vec<FleetFile>,
    #[serde(default)]
    orders: BTreeMap<String, String>,
}

/// Rule options as a scenario's `[options]` or `games.toml`'s `[game.options]` write
/// them.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct OptionsFile {
    scenario: Option<String>,
    invader: Option<String>,
    hand_limit: Option<i64>,
    main_weapon: Option<bool>,
    no_moon: Option<bool>,
    switcheroo: Option<String>,
    upgrades: Option<bool>,
    mixed_values: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionFile {
    name: String,
    combat: Option<i64>,
    political: Option<i64>,
    resource: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerFile {
    id: String,
    #[serde(default)]
    rp: i64,
    #[serde(default)]
    hand: BTreeMap<String, i64>,
    #[serde(default)]
    chit_pool: BTreeMap<String, i64>,
    #[serde(default)]
    force_pool: BTreeMap<String, i64>,
    #[serde(default)]
    th_supply: i64,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct CommonFile {
    #[serde(default)]
    chits: BTreeMap<String, i64>,
    #[serde(default)]
    fleets: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FleetFile {
    power: String,
    #[serde(rename = "type")]
    kind: String,
    at: String,
    count: Option<i64>,
    #[serde(default)]
    garrison: bool,
}

/// A scenario read: the position, the orders, the seed, and the pinned dice and draws.
pub struct Scenario {
    pub state: State,
    pub orders: BTreeMap<String, String>,
    pub seed: u64,
    pub dice: Vec<u8>,
    pub draws: Vec<Chit>,
}

impl Scenario {
    /// The phase's streams with the file's pins.
    pub fn rng(&self) -> Rng {
        Rng::for_phase(self.seed, self.state.turn, self.state.phase.id())
            .pinned(self.dice.clone(), self.draws.clone())
    }
}

/// Reads the options of `games.toml`'s `[game.options]`.
pub fn options_from_table(table: &toml::Table) -> Result<Options, String> {
    let file: OptionsFile = table
        .clone()
        .try_into()
        .map_err(|e: toml::de::Error| e.message().trim().replace('\n', " "))?;
    options(&file)
}

fn options(file: &OptionsFile) -> Result<Options, String> {
    let mut o = Options::default();
    if let Some(s) = &file.scenario {
        o.scenario = match s.to_ascii_lowercase().as_str() {
            "civil-war" => Which::CivilWar,
            "invasion" => Which::Invasion,
            _ => return Err(format!("unknown scenario {s:?} (civil-war or invasion)")),
        };
    }
    if let Some(p) = &file.invader {
        o.invader = Power::from_id(p).ok_or_else(|| format!("unknown power {p:?} as invader"))?;
    }
    if let Some(n) = file.hand_limit {
        if !(0..=26).contains(&n) {
            return Err(format!("hand_limit {n} is not 0 to 26"));
        }
        o.hand_limit = n as u32;
    }
    if let Some(b) = file.main_weapon {
        o.main_weapon = b;
    }
    if let Some(b) = file.no_moon {
        o.no_moon = b;
    }
    if let Some(s) = &file.switcheroo {
        o.switcheroo = match s.to_ascii_lowercase().as_str() {
            "off" => Switcheroo::Off,
            "on" => Switcheroo::On,
            "more-chaos" => Switcheroo::MoreChaos,
            _ => return Err(format!("switcheroo {s:?} is not off, on or more-chaos")),
        };
    }
    if let Some(b) = file.upgrades {
        o.upgrades = b;
    }
    if let Some(b) = file.mixed_values {
        o.mixed_values = b;
    }
    Ok(o)
}

fn number(what: &str, n: i64, max: i64) -> Result<u32, String> {
    if n < 0 {
        return Err(format!("{what}: negative count {n}"));
    }
    if n > max {
        return Err(format!("{what}: {n} is above the limit {max}"));
    }
    Ok(n as u32)
}

fn chits(what: &str, map: &BTreeMap<String, i64>) -> Result<Chits, String> {
    let mut c = [0; 5];
    for (k, &n) in map {
        let chit = Chit::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(k))
            .ok_or_else(|| format!("{what}: unknown chit {k:?}"))?;
        c[chit.index()] = number(&format!("{what}.{k}"), n, MAX_COUNT)?;
    }
    Ok(c)
}

fn fleets(what: &str, map: &BTreeMap<String, i64>) -> Result<Fleets, String> {
    let mut f = [0; 6];
    for (k, &n) in map {
        let kind = Kind::from_name(k).ok_or_else(|| format!("{what}: unknown type {k:?}"))?;
        if kind == Kind::TH {
            return Err(format!(
                "{what}: TH are never in a pool here (a power's th_supply holds them)"
            ));
        }
        f[kind.index()] = number(&format!("{what}.{k}"), n, MAX_COUNT)?;
    }
    Ok(f)
}

impl Scenario {
    pub fn from_toml(text: &str) -> Result<Scenario, String> {
        let file: File = toml::from_str(text).map_err(|e| crate::toml_text::one_line(&e, text))?;
        let phase = Phase::from_id(&file.phase).ok_or_else(|| {
            format!(
                "unknown phase {:?} (setup, deployment, actions or build)",
                file.phase
            )
        })?;
        let turn = match file.turn {
            None if phase == Phase::Setup => 0,
            None => 1,
            Some(t) => number("turn", t, 1000)?,
        };
        if (phase == Phase::Setup) != (turn == 0) {
            return Err(format!(
                "turn {turn} with phase {}: setup is turn 0, every other phase turn 1 or later",
                phase.id()
            ));
        }
        let options = options(&file.options).map_err(|e| format!("options: {e}"))?;
        let chaos = file.chaos.unwrap_or(setup::START_CHAOS);
        if !(-MAX_CHAOS..=MAX_CHAOS).contains(&chaos) {
            return Err(format!("chaos {chaos} is beyond ±{MAX_CHAOS}"));
        }
        // Regions: all six, values given (setup: may be left out, then dealt).
        let mut regions = [Region::default(); 6];
        let mut seen = [false; 6];
        let mut to_deal = Vec::new();
        for r in &file.region {
            let i = region_index(&r.name)
                .filter(|_| r.name.parse::<u8>().is_err())
                .ok_or_else(|| format!("unknown region {:?}", r.name))?;
            if seen[usize::from(i)] {
                return Err(format!("region {} given twice", REGIONS[usize::from(i)]));
            }
            seen[usize::from(i)] = true;
            let name = REGIONS[usize::from(i)];
            match (r.combat, r.political, r.resource) {
                (Some(c), Some(p), Some(res)) => {
                    regions[usize::from(i)] = Region {
                        combat: number(&format!("{name}.combat"), c, MAX_NUMBER)?,
                        political: number(&format!("{name}.political"), p, MAX_NUMBER)?,
                        resource: number(&format!("{name}.resource"), res, MAX_NUMBER)?,
                        resolved: false,
                    }
                }
                (None, None, None) if phase == Phase::Setup => to_deal.push(i),
                _ if phase == Phase::Setup => {
                    return Err(format!(
                        "region {name}: give all three values or none (to be dealt)"
                    ))
                }
                _ => return Err(format!("region {name}: a value is missing")),
            }
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(format!("region {} is missing", REGIONS[i]));
        }
        // Powers: both.
        let mut sides = [None, None];
        for p in &file.power {
            let power = Power::from_id(&p.id).ok_or_else(|| format!("unknown power {:?}", p.id))?;
            if sides[power.index()].is_some() {
                return Err(format!("power {power} given twice"));
            }
            let id = power.id();
            sides[power.index()] = Some(Side {
                rp: number(&format!("{id}.rp"), p.rp, MAX_NUMBER)?,
                hand: chits(&format!("{id}.hand"), &p.hand)?,
                chit_pool: chits(&format!("{id}.chit_pool"), &p.chit_pool)?,
                force_pool: fleets(&format!("{id}.force_pool"), &p.force_pool)?,
                th_supply: number(&format!("{id}.th_supply"), p.th_supply, MAX_COUNT)?,
                base: [0; 6],
            });
        }
        let [Some(blue), Some(red)] = sides else {
            let p = if sides[0].is_none() { "blue" } else { "red" };
            return Err(format!("no [[power]] entry for {p}"));
        };
        let common = Common {
            chits: chits("common.chits", &file.common.chits)?,
            fleets: fleets("common.fleets", &file.common.fleets)?,
        };
        let mut state = State {
            turn,
            phase,
            chaos,
            options,
            regions,
            units: Vec::new(),
            powers: [blue, red],
            common,
            winner: None,
            dealt: Vec::new(),
        };
        for (k, f) in file.fleet.iter().enumerate() {
            let at = format!("fleet {}", k + 1);
            let power = Power::from_id(&f.power)
                .ok_or_else(|| format!("{at}: unknown power {:?}", f.power))?;
            let kind = Kind::from_name(&f.kind)
                .ok_or_else(|| format!("{at}: unknown type {:?}", f.kind))?;
            let count = number(&format!("{at}.count"), f.count.unwrap_or(1), MAX_COUNT)?;
            if f.at.eq_ignore_ascii_case("base") {
                if f.garrison {
                    return Err(format!("{at}: a garrison on the display (base)"));
                }
                state.side_mut(power).base[kind.index()] += count;
                continue;
            }
            let region = region_index(&f.at)
                .filter(|_| f.at.parse::<u8>().is_err())
                .ok_or_else(|| format!("{at}: unknown region {:?}", f.at))?;
            for _ in 0..count {
                state.units.push(Unit {
                    region,
                    power,
                    kind,
                    garrison: f.garrison,
                    marker: None,
                    hits: 0,
                });
            }
        }
        for r in 0..6u8 {
            let g = |p: Power| {
                state
                    .units
                    .iter()
                    .any(|u| u.region == r && u.power == p && u.garrison)
            };
            if g(Power::Blue) && g(Power::Red) {
                return Err(format!(
                    "garrisons of both powers in {}",
                    REGIONS[usize::from(r)]
                ));
            }
        }
        let total_units = state.units.len()
            + state
                .powers
                .iter()
                .map(|s| total(&s.base) as usize)
                .sum::<usize>();
        if total_units > 2000 {
            return Err(format!(
                "{total_units} fleets on the map and displays, above the limit 2000"
            ));
        }
        if !to_deal.is_empty() {
            let d = setup::deal(
                &mut Rng::for_phase(file.seed, 0, Phase::Setup.id()),
                options.mixed_values,
            );
            setup::apply_deal(&mut state, &d, &to_deal);
        }
        state.tidy();
        for p in file.orders.keys() {
            if Power::from_id(p).is_none() {
                return Err(format!("[orders]: unknown power {p:?}"));
            }
        }
        let orders = file
            .orders
            .into_iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), v))
            .collect();
        let dice = file
            .dice
            .iter()
            .map(|&d| {
                if (1..=6).contains(&d) {
                    Ok(d as u8)
                } else {
                    Err(format!("dice: {d} is not a roll of 1 to 6"))
                }
            })
            .collect::<Result<Vec<u8>, String>>()?;
        let draws = file
            .draws
            .iter()
            .map(|c| {
                Chit::ALL
                    .into_iter()
                    .find(|x| x.name().eq_ignore_ascii_case(c))
                    .ok_or_else(|| format!("draws: unknown chit {c:?}"))
            })
            .collect::<Result<Vec<Chit>, String>>()?;
        Ok(Scenario {
            state,
            orders,
            seed: file.seed,
            dice,
            draws,
        })
    }
}

fn chit_map(c: &Chits) -> Value {
    let mut m = Map::new();
    for k in Chit::ALL {
        if c[k.index()] > 0 {
            m.insert(k.name().into(), c[k.index()].into());
        }
    }
    Value::Object(m)
}

fn fleet_map(f: &Fleets) -> Value {
    let mut m = Map::new();
    for k in Kind::ALL {
        if f[k.index()] > 0 {
            m.insert(k.name().into(), f[k.index()].into());
        }
    }
    Value::Object(m)
}

/// The position in the output's shape: `chaos`, `regions`, `fleets`, `powers`,
/// `common`.
pub fn position_value(s: &State) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("chaos".into(), s.chaos.into());
    let regions: Vec<Value> = (0..6u8)
        .map(|r| {
            let reg = &s.regions[usize::from(r)];
            json!({
                "name": REGIONS[usize::from(r)],
                "combat": reg.combat,
                "political": reg.political,
                "resource": reg.resource,
                "resolved": reg.resolved,
                "control": s.control(r).map(Power::id),
            })
        })
        .collect();
    out.insert("regions".into(), regions.into());
    let mut fleets = Vec::new();
    for r in 0..6u8 {
        for p in Power::BOTH {
            for garrison in [true, false] {
                for k in Kind::ALL {
                    let n = s
                        .units
                        .iter()
                        .filter(|u| {
                            u.region == r && u.power == p && u.kind == k && u.garrison == garrison
                        })
                        .count();
                    if n > 0 {
                        fleets.push(json!({
                            "power": p.id(), "type": k.name(), "at": REGIONS[usize::from(r)],
                            "garrison": garrison, "count": n,
                        }));
                    }
                }
            }
        }
    }
    for p in Power::BOTH {
        for k in Kind::ALL {
            let n = s.side(p).base[k.index()];
            if n > 0 {
                fleets.push(json!({
                    "power": p.id(), "type": k.name(), "at": "base", "garrison": false, "count": n,
                }));
            }
        }
    }
    out.insert("fleets".into(), fleets.into());
    let powers: Vec<Value> = Power::BOTH
        .iter()
        .map(|&p| {
            let side = s.side(p);
            json!({
                "id": p.id(),
                "rp": side.rp,
                "hand": chit_map(&side.hand),
                "chit_pool": chit_map(&side.chit_pool),
                "force_pool": fleet_map(&side.force_pool),
                "th_supply": side.th_supply,
                "hand_size": total(&side.hand),
                "chit_pool_size": total(&side.chit_pool),
            })
        })
        .collect();
    out.insert("powers".into(), powers.into());
    out.insert(
        "common".into(),
        json!({
            "chits": chit_map(&s.common.chits),
            "fleets": fleet_map(&s.common.fleets),
            "chits_size": total(&s.common.chits),
        }),
    );
    out
}

/// The whole output of one phase (the judge's, a moderator's view).
pub fn output_value(before: &State, after: &State, log: &Log) -> Value {
    let mut out = Map::new();
    out.insert("rules".into(), <super::Bfge as RuleSet>::ID.into());
    out.insert("turn".into(), before.turn.into());
    out.insert("phase".into(), before.phase.id().into());
    out.insert("options".into(), options_value(&after.options));
    out.insert("next_phase".into(), after.phase.id().into());
    out.insert("next_turn".into(), after.turn.into());
    out.insert(
        "owing".into(),
        owing(after)
            .into_iter()
            .map(|p| Value::from(p.id()))
            .collect::<Vec<_>>()
            .into(),
    );
    out.insert("winner".into(), after.winner.map(Power::id).into());
    out.insert("initiative".into(), log.initiative.map(Power::id).into());
    out.insert(
        "results".into(),
        serde_json::to_value(&log.results).expect("JSON"),
    );
    out.insert(
        "actions".into(),
        serde_json::to_value(&log.actions).expect("JSON"),
    );
    out.insert(
        "battles".into(),
        serde_json::to_value(&log.battles).expect("JSON"),
    );
    out.extend(position_value(after));
    out.insert(
        "draws".into(),
        serde_json::to_value(&log.draws).expect("JSON"),
    );
    out.insert(
        "dice".into(),
        serde_json::to_value(&log.dice).expect("JSON"),
    );
    out.insert(
        "events".into(),
        serde_json::to_value(&log.events).expect("JSON"),
    );
    Value::Object(out)
}

fn options_value(o: &Options) -> Value {
    json!({
        "scenario": o.scenario.id(),
        "invader": o.invader.id(),
        "hand_limit": o.hand_limit,
        "main_weapon": o.main_weapon,
        "no_moon": o.no_moon,
        "switcheroo": o.switcheroo.id(),
        "upgrades": o.upgrades,
        "mixed_values": o.mixed_values,
    })
}

/// The output as pretty JSON text.
pub fn output_json(before: &State, after: &State, log: &Log) -> String {
    let mut s = serde_json::to_string_pretty(&output_value(before, after, log)).expect("JSON");
    s.push('\n');
    s
}
