//! Godsfire scenario files: TOML in, JSON out (`../shared/specs/godsfire-scenario.md`,
//! followed exactly; extra output fields: `rules`, `turn`, `phase`, `next_turn`, and
//! `line` on each result). The standard scenario of G1.5 is a scenario file too,
//! compiled in ([`standard`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::dice::PhaseDice;
use super::map::{Cell, Economy, Party, Units};
use super::outcome::{Event, LineResult};
use super::state::{
    Counter, Loan, Loyalty, MapInfo, Options, Phase, Power, Purchase, Region, Roll, Stack, Stake,
    State, System, Transit, NEUTRAL,
};
use super::Log;
use crate::dice::Dice;

/// The standard 4-power scenario (G1.5).
pub const STANDARD: &str = include_str!("standard-scenario.toml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    #[allow(dead_code)]
    rules: String,
    phase: String,
    #[serde(default = "one")]
    turn: u32,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    dice: Vec<i64>,
    #[serde(default)]
    options: OptionsFile,
    map: MapInfo,
    #[serde(default)]
    system: Vec<SystemFile>,
    #[serde(default)]
    power: Vec<PowerFile>,
    #[serde(default)]
    stack: Vec<Stack>,
    #[serde(default)]
    stake: Vec<Stake>,
    #[serde(default)]
    counter: Vec<Counter>,
    #[serde(default)]
    transit: Vec<Transit>,
    #[serde(default)]
    purchase: Vec<Purchase>,
    #[serde(default)]
    orders: BTreeMap<String, String>,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct OptionsFile {
    last_turn: Option<u32>,
    victory_share: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SystemFile {
    name: String,
    at: Cell,
    owner: String,
    #[serde(default)]
    bank: u32,
    planets: Vec<Vec<RegionFile>>,
    garrison: Option<Units>,
}

/// A region as written: any value may be left open, to be rolled (G1.5).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionFile {
    economy: Option<Economy>,
    party: Option<Party>,
    allegiance: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PowerFile {
    id: String,
    ng: String,
    #[serde(default)]
    treasury: u32,
    #[serde(default)]
    loyalty: Loyalty,
    #[serde(default)]
    at_war: Vec<String>,
    #[serde(default)]
    ministers_changed: bool,
    #[serde(default)]
    loans: Vec<Loan>,
    #[serde(default)]
    blocked_from_borrowing: bool,
    #[serde(default)]
    out: bool,
    #[serde(default)]
    declared_war: Vec<String>,
}

/// A scenario read: the position, the orders, the seed, the dice pinned.
pub struct Scenario {
    pub state: State,
    pub orders: BTreeMap<String, String>,
    pub seed: u64,
    pub dice: Vec<u8>,
}

/// Reads rule options (`last_turn`, `victory_share`) from a table, as `games.toml`'s
/// `[game.options]` writes them.
pub fn options_from_table(table: &toml::Table) -> Result<Options, String> {
    let file: OptionsFile = table
        .clone()
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())?;
    options(&file)
}

fn options(file: &OptionsFile) -> Result<Options, String> {
    let mut o = Options::default();
    if let Some(t) = file.last_turn {
        o.last_turn = t;
    }
    if let Some(v) = file.victory_share {
        if !(v > 0.0 && v <= 1.0) {
            return Err(format!("victory_share {v} is not in (0, 1]"));
        }
        o.victory_share = v;
    }
    Ok(o)
}

impl Scenario {
    pub fn from_toml(text: &str) -> Result<Scenario, String> {
        let file: ScenarioFile =
            toml::from_str(text).map_err(|e| crate::toml_text::one_line(&e, text))?;
        let orders = file.orders.clone();
        let seed = file.seed;
        let dice = file
            .dice
            .iter()
            .map(|&d| {
                u8::try_from(d)
                    .ok()
                    .filter(|d| (1..=6).contains(d))
                    .ok_or_else(|| format!("pinned die {d} is not 1 to 6"))
            })
            .collect::<Result<Vec<u8>, String>>()?;
        let state = build(file)?;
        for power in orders.keys() {
            if state.power_index(power).is_none() {
                return Err(format!("orders for unknown power {power:?}"));
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

/// The standard scenario, for a new game with this seed and these options.
pub fn standard(seed: u64, options: Options) -> State {
    let mut file: ScenarioFile = toml::from_str(STANDARD).expect("the standard scenario reads");
    file.seed = seed;
    let mut state = build(file).expect("the standard scenario is valid");
    state.options = options;
    state
}

fn build(file: ScenarioFile) -> Result<State, String> {
    let phase = match file.phase.as_str() {
        "movement" => Phase::Movement,
        "combat" => Phase::Combat,
        "interphase" => Phase::Interphase,
        "defence" => Phase::Defence,
        other => {
            return Err(format!(
                "unknown phase {other:?}: movement, combat, interphase or defence"
            ))
        }
    };
    let map = file.map;
    if !(1..=26).contains(&map.width) || map.height == 0 {
        return Err("the map is 1 to 26 columns wide and at least 1 row high".into());
    }
    let inside = |c: Cell| c.col < map.width && c.row <= map.height;
    if let Some(c) = map.nebula.iter().find(|&&c| !inside(c)) {
        return Err(format!("nebula cell {c} is off the map"));
    }
    let mut dice = PhaseDice::seeded(Dice::for_phase(file.seed, 0, "setup"));
    let mut rolls = Vec::new();
    let mut systems = Vec::new();
    for s in file.system {
        if !inside(s.at) {
            return Err(format!("system {} at {} is off the map", s.name, s.at));
        }
        if s.name.is_empty() || s.name.contains(char::is_whitespace) {
            return Err(format!("system name {:?} must be one word", s.name));
        }
        if systems
            .iter()
            .any(|x: &System| x.name.eq_ignore_ascii_case(&s.name))
        {
            return Err(format!("two systems are named {}", s.name));
        }
        if let Some(x) = systems.iter().find(|x: &&System| x.at == s.at) {
            return Err(format!("{} and {} are both at {}", x.name, s.name, s.at));
        }
        if !(1..=3).contains(&s.planets.len()) {
            return Err(format!(
                "{} has {} planets (1 to 3, G1.2)",
                s.name,
                s.planets.len()
            ));
        }
        let mut planets = Vec::new();
        for (p, regions) in s.planets.into_iter().enumerate() {
            if !(1..=4).contains(&regions.len()) {
                return Err(format!(
                    "{} planet {} has {} regions (1 to 4, G1.2)",
                    s.name,
                    p + 1,
                    regions.len()
                ));
            }
            let mut out = Vec::new();
            for (r, region) in regions.into_iter().enumerate() {
                let id = super::map::region_id(&s.name, p, r);
                out.push(roll_open(&id, region, &mut dice, &mut rolls)?);
            }
            planets.push(out);
        }
        let owner = s.owner.to_ascii_lowercase();
        // G5.5: a system neutral at the start goes back to 3 SQD, 3 AG, 3 PDF.
        let garrison = match (s.garrison, owner == NEUTRAL) {
            (Some(g), true) => {
                if g.sqd > 3 || g.ag > 3 || g.pdf > 3 {
                    return Err(format!(
                        "{}: a garrison stands in a cell, at most 3 of each type (G2.2)",
                        s.name
                    ));
                }
                Some(g)
            }
            (None, true) => Some(Units {
                sqd: 3,
                ag: 3,
                pdf: 3,
            }),
            (Some(_), false) => {
                return Err(format!(
                    "{}: only a neutral system has a garrison (G5.5)",
                    s.name
                ))
            }
            (None, false) => None,
        };
        systems.push(System {
            name: s.name,
            at: s.at,
            owner,
            bank: s.bank,
            planets,
            garrison,
        });
    }
    let mut state = State {
        turn: file.turn,
        phase,
        options: options(&file.options)?,
        map,
        systems,
        powers: Vec::new(),
        stacks: Vec::new(),
        stakes: Vec::new(),
        counters: Vec::new(),
        transit: Vec::new(),
        purchases: Vec::new(),
        winners: Vec::new(),
        setup_dice: rolls,
    };
    for p in file.power {
        let id = p.id.to_ascii_lowercase();
        if id == NEUTRAL || id.is_empty() || state.power_index(&id).is_some() {
            return Err(format!("power id {:?} is taken, empty or reserved", p.id));
        }
        let ng = state
            .system_index(&p.ng)
            .ok_or_else(|| format!("power {id}: no system {} for its NG", p.ng))?;
        if state.systems[ng].owner != id && !p.out {
            return Err(format!("power {id}: its NG system {} is not its own", p.ng));
        }
        if let Some(l) = p.loyalty.all().iter().find(|l| !(1..=5).contains(*l)) {
            return Err(format!("power {id}: national loyalty {l} is not 1 to 5"));
        }
        state.powers.push(Power {
            id,
            ng: state.systems[ng].name.clone(),
            treasury: p.treasury,
            loyalty: p.loyalty,
            at_war: p.at_war.iter().map(|w| w.to_ascii_lowercase()).collect(),
            ministers_changed: p.ministers_changed,
            loans: p.loans,
            blocked_from_borrowing: p.blocked_from_borrowing,
            out: p.out,
            declared_war: p
                .declared_war
                .iter()
                .map(|w| w.to_ascii_lowercase())
                .collect(),
        });
    }
    validate_references(
        &mut state,
        file.stack,
        file.stake,
        file.counter,
        file.transit,
        file.purchase,
    )?;
    within_limits(&state)?;
    // A war with a power out of the game is over (G10.1), as in a game read.
    state.end_wars_with_the_out();
    Ok(state)
}

/// Rolls what a region leaves open (G1.5): party 2d6, allegiance 1d6, economy 1d6.
fn roll_open(
    id: &str,
    r: RegionFile,
    dice: &mut PhaseDice,
    rolls: &mut Vec<Roll>,
) -> Result<Region, String> {
    let mut roll = |what: &str, two: bool| {
        let die = if two { "2d6" } else { "1d6" };
        let thrown = Roll::throw(dice, "G1.5", die, format!("{id} {what}"));
        let n = thrown.roll;
        rolls.push(thrown);
        n
    };
    let party = match r.party {
        Some(p) => p,
        None => match roll("party", true) {
            2..=5 => Party::R,
            6..=8 => Party::M,
            _ => Party::E,
        },
    };
    let allegiance = match r.allegiance {
        Some(a) if a <= 5 => a,
        Some(a) => return Err(format!("{id}: allegiance {a} is not 0 to 5")),
        None => match roll("allegiance", false) {
            1 => 2,
            2 | 3 => 3,
            4 => 4,
            _ if party == Party::M => 5,
            _ => 4,
        },
    };
    let economy = match r.economy {
        Some(e) => e,
        None => match roll("economy", false) {
            1 | 2 => Economy::S,
            3 | 4 => Economy::A1,
            _ => Economy::A2,
        },
    };
    Ok(Region {
        economy,
        party,
        allegiance,
    })
}

/// The most money or units any one number of a scenario may hold: far above any game,
/// and far from overflowing as a game adds to it.
pub const LIMIT: u32 = 1_000_000;

fn within_limits(state: &State) -> Result<(), String> {
    let too_big = |what: String, n: u32| {
        if n > LIMIT {
            Err(format!("{what}: {n} is above the limit of {LIMIT}"))
        } else {
            Ok(())
        }
    };
    let units = |u: &Units| u.sqd.max(u.ag).max(u.pdf);
    for s in &state.systems {
        too_big(format!("bank of {}", s.name), s.bank)?;
    }
    for p in &state.powers {
        too_big(format!("treasury of {}", p.id), p.treasury)?;
        for l in &p.loans {
            too_big(format!("loan of {}", p.id), l.left.max(l.instalment))?;
            // A loan with nothing left to pay would still be charged at G6.2 and keep
            // its power from winning (G10): it is no loan at all.
            if l.left == 0 {
                return Err(format!(
                    "loan of {}: left = 0 instalments is no loan; leave it out",
                    p.id
                ));
            }
        }
    }
    for t in &state.transit {
        too_big(format!("transit of {}", t.power), t.amount)?;
    }
    for s in &state.stacks {
        too_big(format!("stack at {}", s.at), units(&s.units))?;
    }
    for p in &state.purchases {
        too_big(format!("purchase at {}", p.region), units(&p.units))?;
    }
    Ok(())
}

fn validate_references(
    state: &mut State,
    stacks: Vec<Stack>,
    stakes: Vec<Stake>,
    counters: Vec<Counter>,
    transit: Vec<Transit>,
    purchases: Vec<Purchase>,
) -> Result<(), String> {
    let power_or_neutral = |state: &State, p: &str| -> Result<String, String> {
        let p = p.to_ascii_lowercase();
        if p == NEUTRAL || state.power_index(&p).is_some() {
            Ok(p)
        } else {
            Err(format!("unknown power {p:?}"))
        }
    };
    let region = |state: &State, id: &str| -> Result<String, String> {
        state
            .region_at(id)
            .map(|r| state.region_name(r))
            .ok_or_else(|| format!("unknown region {id}"))
    };
    for s in &state.systems {
        power_or_neutral(state, &s.owner).map_err(|e| format!("system {}: {e}", s.name))?;
    }
    for p in &state.powers {
        for w in p.at_war.iter().chain(&p.declared_war) {
            if state.power_index(w).is_none() || *w == p.id {
                return Err(format!("power {}: cannot be at war with {w:?}", p.id));
            }
        }
    }
    for mut s in stacks {
        s.power = power_or_neutral(state, &s.power)?;
        s.at = match Cell::parse(&s.at) {
            Some(c) if c.col < state.map.width && c.row <= state.map.height => c.to_string(),
            Some(c) => return Err(format!("stack at {c} is off the map")),
            None => {
                if s.units.sqd > 0 {
                    return Err(format!(
                        "stack at {}: a SQD never stands in a region (G2)",
                        s.at
                    ));
                }
                region(state, &s.at)?
            }
        };
        state.add_units(&s.power.clone(), &s.at.clone(), s.units);
    }
    for mut k in stakes {
        k.power = power_or_neutral(state, &k.power)?;
        k.region = region(state, &k.region)?;
        if !(1..=3).contains(&k.circle) {
            return Err(format!(
                "stake on {}: circle {} is not 1 to 3",
                k.region, k.circle
            ));
        }
        let at = state.region_at(&k.region).expect("found above");
        if state.owner(at) == k.power {
            return Err(format!(
                "stake of {} on its own region {}",
                k.power, k.region
            ));
        }
        state.stakes.push(k);
    }
    for mut c in counters {
        c.region = region(state, &c.region)?;
        state.counters.push(c);
    }
    for mut t in transit {
        t.power = power_or_neutral(state, &t.power)?;
        if !t.to.eq_ignore_ascii_case("NG") {
            let s = state
                .system_index(&t.to)
                .ok_or_else(|| format!("transit to unknown system {}", t.to))?;
            t.to = state.systems[s].name.clone();
        } else {
            t.to = "NG".into();
        }
        state.transit.push(t);
    }
    if !purchases.is_empty() && state.phase != Phase::Defence {
        return Err("purchases are given only in a defence phase".into());
    }
    for mut p in purchases {
        p.power = power_or_neutral(state, &p.power)?;
        p.region = region(state, &p.region)?;
        state.purchases.push(p);
    }
    Ok(())
}

#[derive(Serialize)]
struct Output<'a> {
    rules: &'static str,
    turn: u32,
    phase: &'static str,
    results: &'a [LineResult],
    events: &'a [Event],
    systems: &'a [System],
    powers: &'a [Power],
    stacks: Vec<&'a Stack>,
    stakes: &'a [Stake],
    counters: &'a [Counter],
    transit: &'a [Transit],
    purchases: &'a [Purchase],
    dice: &'a [Roll],
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    war: Option<&'a super::outcome::WarLog>,
    next_phase: &'static str,
    next_turn: u32,
    winner: serde_json::Value,
}

/// The JSON value of `pbem adjudicate` for one phase.
pub fn output_value(before: &State, after: &State, log: &Log) -> serde_json::Value {
    let winner = match after.winners.as_slice() {
        [] => serde_json::Value::Null,
        [one] => serde_json::Value::String(one.clone()),
        many => many
            .iter()
            .map(|p| serde_json::Value::String(p.clone()))
            .collect(),
    };
    let output = Output {
        rules: "godsfire",
        turn: before.turn,
        phase: before.phase.id(),
        results: &log.results,
        events: &log.events,
        systems: &after.systems,
        powers: &after.powers,
        stacks: after
            .stacks
            .iter()
            .filter(|s| s.units != Units::default())
            .collect(),
        stakes: &after.stakes,
        counters: &after.counters,
        transit: &after.transit,
        purchases: &after.purchases,
        dice: &log.dice,
        war: log.war.as_ref(),
        next_phase: after.phase.id(),
        next_turn: after.turn,
        winner,
    };
    serde_json::to_value(output).expect("output serialises")
}

pub fn output_json(before: &State, after: &State, log: &Log) -> String {
    let mut text = serde_json::to_string_pretty(&output_value(before, after, log)).expect("json");
    text.push('\n');
    text
}
