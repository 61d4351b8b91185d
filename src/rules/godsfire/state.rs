//! A Godsfire position between two phases (G1.3–G1.4, G2), in the shape of the
//! scenario files (`../shared/specs/godsfire-scenario.md`): the same structs are read
//! from a scenario, written in `pbem adjudicate`'s output and stored by the judge.

use std::collections::HashMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::map::{region_id, split_region_id, Cell, Economy, Party, RegionAt, UnitType, Units};

/// The owner of a neutral system, and the power id of neutral units.
pub const NEUTRAL: &str = "neutral";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Movement,
    Combat,
    Interphase,
    Defence,
    Over,
}

impl Phase {
    pub fn id(self) -> &'static str {
        match self {
            Phase::Movement => "movement",
            Phase::Combat => "combat",
            Phase::Interphase => "interphase",
            Phase::Defence => "defence",
            Phase::Over => "over",
        }
    }

    /// The phase as a sentence names it: "the movement phase", but "the interphase".
    pub fn name(self) -> &'static str {
        match self {
            Phase::Movement => "movement phase",
            Phase::Combat => "combat phase",
            Phase::Interphase => "interphase",
            Phase::Defence => "defence phase",
            Phase::Over => "game over",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// The scenario's last turn (G10.2).
    pub last_turn: u32,
    /// Share of all systems a power must own to win (G10.2).
    pub victory_share: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            last_turn: 20,
            victory_share: 0.5,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapInfo {
    pub width: u8,
    pub height: u16,
    #[serde(default)]
    pub nebula: Vec<Cell>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    pub economy: Economy,
    pub party: Party,
    /// 1–5, or 0: in revolt (G1.3).
    pub allegiance: u8,
}

impl Region {
    pub fn in_revolt(&self) -> bool {
        self.allegiance == 0
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct System {
    pub name: String,
    pub at: Cell,
    /// A power id, or [`NEUTRAL`].
    pub owner: String,
    pub bank: u32,
    pub planets: Vec<Vec<Region>>,
    /// The neutral force a neutral system goes back to (G5.5); `None` while owned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garrison: Option<Units>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loyalty {
    #[serde(rename = "R")]
    pub r: u8,
    #[serde(rename = "M")]
    pub m: u8,
    #[serde(rename = "E")]
    pub e: u8,
}

impl Default for Loyalty {
    fn default() -> Loyalty {
        Loyalty { r: 5, m: 5, e: 5 }
    }
}

impl Loyalty {
    pub fn get_mut(&mut self, party: Party) -> &mut u8 {
        match party {
            Party::R => &mut self.r,
            Party::M => &mut self.m,
            Party::E => &mut self.e,
        }
    }

    pub fn all(&self) -> [u8; 3] {
        [self.r, self.m, self.e]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loan {
    /// Instalments still to pay.
    pub left: u32,
    pub instalment: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Power {
    pub id: String,
    /// The system holding the National Government.
    pub ng: String,
    pub treasury: u32,
    pub loyalty: Loyalty,
    pub at_war: Vec<String>,
    pub ministers_changed: bool,
    pub loans: Vec<Loan>,
    pub blocked_from_borrowing: bool,
    /// Out of the game (G10.1).
    #[serde(default)]
    pub out: bool,
    /// Wars declared (G8.2), in force from the next movement phase.
    #[serde(default)]
    pub declared_war: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stack {
    pub power: String,
    /// A cell (`D5`) or a region id.
    pub at: String,
    pub units: Units,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stake {
    pub power: String,
    pub region: String,
    /// 3 = placed last interphase, then 2, then 1 (G7.3).
    pub circle: u8,
    pub placed_turn: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Counter {
    pub region: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transit {
    pub power: String,
    pub amount: u32,
    /// A system name or `NG`.
    pub to: String,
    pub arrives_turn: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Purchase {
    pub power: String,
    pub region: String,
    pub units: Units,
}

/// One die as reported (G11.2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Roll {
    pub step: String,
    pub die: String,
    pub roll: u32,
    #[serde(rename = "for")]
    pub subject: String,
}

impl Roll {
    /// Throws `die` (`1d6` or `2d6`) for `subject` at rule `step`.
    pub fn throw(
        dice: &mut super::dice::PhaseDice,
        step: &str,
        die: &'static str,
        subject: String,
    ) -> Roll {
        let roll = match die {
            "2d6" => u32::from(dice.d6()) + u32::from(dice.d6()),
            _ => u32::from(dice.d6()),
        };
        Roll {
            step: step.to_string(),
            die: die.to_string(),
            roll,
            subject,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub turn: u32,
    pub phase: Phase,
    pub options: Options,
    pub map: MapInfo,
    pub systems: Vec<System>,
    /// Read with the wars with a power out of the game ended (G10.1): a game saved
    /// before they were ended when the power went out still lists them.
    #[serde(deserialize_with = "powers_at_peace_with_the_out")]
    pub powers: Vec<Power>,
    pub stacks: Vec<Stack>,
    pub stakes: Vec<Stake>,
    pub counters: Vec<Counter>,
    pub transit: Vec<Transit>,
    pub purchases: Vec<Purchase>,
    pub winners: Vec<String>,
    /// Dice rolled when the game was set up (G1.5), reported with the first results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_dice: Vec<Roll>,
}

impl State {
    /// A copy of the state with no stacks (for a phase that writes them all anew).
    pub fn without_stacks(&self) -> State {
        State {
            turn: self.turn,
            phase: self.phase,
            options: self.options.clone(),
            map: self.map.clone(),
            systems: self.systems.clone(),
            powers: self.powers.clone(),
            stacks: Vec::new(),
            stakes: self.stakes.clone(),
            counters: self.counters.clone(),
            transit: self.transit.clone(),
            purchases: self.purchases.clone(),
            winners: self.winners.clone(),
            setup_dice: self.setup_dice.clone(),
        }
    }

    pub fn system_index(&self, name: &str) -> Option<usize> {
        self.systems
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Finds a region by id (case-insensitive).
    pub fn region_at(&self, id: &str) -> Option<RegionAt> {
        let (system, planet, region) = split_region_id(id)?;
        let s = self.system_index(system)?;
        self.systems[s].planets.get(planet)?.get(region)?;
        Some(RegionAt {
            system: s,
            planet,
            region,
        })
    }

    pub fn region(&self, at: RegionAt) -> &Region {
        &self.systems[at.system].planets[at.planet][at.region]
    }

    pub fn region_mut(&mut self, at: RegionAt) -> &mut Region {
        &mut self.systems[at.system].planets[at.planet][at.region]
    }

    /// The canonical id of a region.
    pub fn region_name(&self, at: RegionAt) -> String {
        region_id(&self.systems[at.system].name, at.planet, at.region)
    }

    /// Every region, system by system, planet by planet.
    pub fn regions(&self) -> impl Iterator<Item = RegionAt> + '_ {
        self.systems.iter().enumerate().flat_map(|(s, sys)| {
            sys.planets
                .iter()
                .enumerate()
                .flat_map(move |(p, regions)| {
                    (0..regions.len()).map(move |r| RegionAt {
                        system: s,
                        planet: p,
                        region: r,
                    })
                })
        })
    }

    pub fn system_regions(&self, system: usize) -> impl Iterator<Item = RegionAt> + '_ {
        self.regions().filter(move |r| r.system == system)
    }

    pub fn owner(&self, at: RegionAt) -> &str {
        &self.systems[at.system].owner
    }

    pub fn power_index(&self, id: &str) -> Option<usize> {
        self.powers
            .iter()
            .position(|p| p.id.eq_ignore_ascii_case(id))
    }

    /// A power's place in the game's order (the order of the scenario's powers), by
    /// which every list of powers is told; any other id (neutral) after them.
    pub fn rank(&self, id: &str) -> usize {
        self.power_index(id).unwrap_or(self.powers.len())
    }

    pub fn power(&self, id: &str) -> Option<&Power> {
        self.power_index(id).map(|i| &self.powers[i])
    }

    pub fn at_war(&self, a: &str, b: &str) -> bool {
        self.power(a)
            .is_some_and(|p| p.at_war.iter().any(|w| w == b))
    }

    /// At war in either direction (a war listed by one side binds both, G4–G5).
    pub fn at_war_either(&self, a: &str, b: &str) -> bool {
        self.at_war(a, b) || self.at_war(b, a)
    }

    /// Units of other powers than the owner in a region (G2.3).
    pub fn enemy_units_in_region(&self, at: RegionAt, index: &Index) -> bool {
        let owner = self.owner(at);
        index
            .stacks_at(&self.region_name(at).to_ascii_lowercase())
            .any(|k| self.stacks[k].power != owner && self.stacks[k].units.total() > 0)
    }

    /// Units of other powers than the owner in a system's cell (G2.3).
    pub fn enemy_units_in_cell(&self, system: usize, index: &Index) -> bool {
        let owner = &self.systems[system].owner;
        index
            .stacks_at(&self.systems[system].at.to_string().to_ascii_lowercase())
            .any(|k| &self.stacks[k].power != owner && self.stacks[k].units.total() > 0)
    }

    /// A power's units of one type in a system: its cell and all its regions.
    pub fn units_in_system(&self, power: &str, system: usize, kind: UnitType) -> u32 {
        let cell = self.systems[system].at.to_string();
        self.stacks
            .iter()
            .filter(|s| s.power == power)
            .filter(|s| {
                s.at.eq_ignore_ascii_case(&cell)
                    || self.region_at(&s.at).is_some_and(|r| r.system == system)
            })
            .map(|s| s.units.get(kind))
            .sum()
    }

    /// Adds units to a power's stack at a place, creating it if needed.
    pub fn add_units(&mut self, power: &str, at: &str, units: Units) {
        match self
            .stacks
            .iter_mut()
            .find(|s| s.power == power && s.at.eq_ignore_ascii_case(at))
        {
            Some(s) => s.units.add(units),
            None => self.stacks.push(Stack {
                power: power.to_string(),
                at: at.to_string(),
                units,
            }),
        }
    }

    pub fn systems_owned(&self, power: &str) -> usize {
        self.systems.iter().filter(|s| s.owner == power).count()
    }

    pub fn regions_owned(&self, power: &str) -> usize {
        self.regions().filter(|&r| self.owner(r) == power).count()
    }

    /// G10.1: a war with a power out of the game is over, whoever listed or declared
    /// it: taken off both sides' lists (the war and the declarations of G8.2).
    pub fn end_wars_with_the_out(&mut self) {
        end_wars_with_the_out(&mut self.powers);
    }

    /// Powers still in the game, in id order as listed.
    pub fn powers_in_play(&self) -> impl Iterator<Item = &Power> {
        self.powers.iter().filter(|p| !p.out)
    }
}

fn end_wars_with_the_out(powers: &mut [Power]) {
    let out: Vec<String> = powers
        .iter()
        .filter(|p| p.out)
        .map(|p| p.id.clone())
        .collect();
    for p in powers.iter_mut() {
        if p.out {
            p.at_war.clear();
            p.declared_war.clear();
        } else {
            p.at_war.retain(|w| !out.contains(w));
            p.declared_war.retain(|w| !out.contains(w));
        }
    }
}

fn powers_at_peace_with_the_out<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Power>, D::Error> {
    let mut powers = Vec::<Power>::deserialize(d)?;
    end_wars_with_the_out(&mut powers);
    Ok(powers)
}

/// Where the stacks are, by lower-case place, for quick lookups during a phase.
pub struct Index {
    stacks: HashMap<String, Vec<usize>>,
}

impl Index {
    pub fn new(state: &State) -> Index {
        let mut stacks: HashMap<String, Vec<usize>> = HashMap::new();
        for (k, s) in state.stacks.iter().enumerate() {
            stacks.entry(s.at.to_ascii_lowercase()).or_default().push(k);
        }
        Index { stacks }
    }

    pub fn empty() -> Index {
        Index {
            stacks: HashMap::new(),
        }
    }

    pub fn stacks_at<'a>(&'a self, place: &str) -> impl Iterator<Item = usize> + 'a {
        self.stacks.get(place).into_iter().flatten().copied()
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        let text = String::deserialize(d)?;
        Cell::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("{text:?} is not a cell like D5")))
    }
}
