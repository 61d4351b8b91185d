//! A position between two phases: players and their points, every region's control,
//! marker, chit, buildings, spheres and revolt, every stack of units and fleets, the
//! wars, the standing cessions and postures of the turn, the pools and the movement
//! order (W1–W2). Stored by the judge as JSON (serde); the scenario format reads and
//! writes its own shape of it (`scenario.rs`).

use serde::{Deserialize, Serialize};

use super::map::{Chit, MapHandle, Marker, Place};

/// A land unit kind (W1.7, W11.2): brigades INF CAV ART, parties GEN EXP ENG.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Inf,
    Cav,
    Art,
    Gen,
    Exp,
    Eng,
}

pub const KINDS: [Kind; 6] = [
    Kind::Inf,
    Kind::Cav,
    Kind::Art,
    Kind::Gen,
    Kind::Exp,
    Kind::Eng,
];
pub const BRIGADES: [Kind; 3] = [Kind::Inf, Kind::Cav, Kind::Art];

/// Fleet characteristics (W11.2).
pub const FLEET_COST: u32 = 25;
pub const FLEET_MP: u32 = 4;
pub const FLEET_PORTAGE: u32 = 8;

impl Kind {
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Inf => "INF",
            Kind::Cav => "CAV",
            Kind::Art => "ART",
            Kind::Gen => "GEN",
            Kind::Exp => "EXP",
            Kind::Eng => "ENG",
        }
    }

    pub fn parse(word: &str) -> Option<Kind> {
        let w = word.to_ascii_uppercase();
        let w = w.strip_suffix('S').filter(|r| r.len() >= 3).unwrap_or(&w);
        Some(match w {
            "INF" | "INFANTRY" | "INFANTRIE" => Kind::Inf,
            "CAV" | "CAVALRY" | "CAVALRIE" => Kind::Cav,
            "ART" | "ARTILLERY" | "ARTY" | "ARTILLERIE" => Kind::Art,
            "GEN" | "GENERAL" => Kind::Gen,
            "EXP" | "EXPLORER" => Kind::Exp,
            "ENG" | "ENGINEER" => Kind::Eng,
            _ => return None,
        })
    }

    pub fn is_brigade(self) -> bool {
        matches!(self, Kind::Inf | Kind::Cav | Kind::Art)
    }

    /// Cost in PP (W11.2).
    pub fn cost(self) -> u32 {
        match self {
            Kind::Inf => 10,
            Kind::Cav => 15,
            Kind::Art => 20,
            Kind::Gen => 40,
            Kind::Exp => 10,
            Kind::Eng => 15,
        }
    }

    /// Movement points (W11.2).
    pub fn mp(self) -> u32 {
        match self {
            Kind::Inf | Kind::Art | Kind::Eng => 1,
            Kind::Cav | Kind::Gen | Kind::Exp => 2,
        }
    }

    /// Portage points (W5.4).
    pub fn portage(self) -> u32 {
        if self.is_brigade() {
            2
        } else {
            1
        }
    }

    /// How many may be built in one region in one production phase (W11.2).
    pub fn limit(self) -> u32 {
        match self {
            Kind::Inf => 3,
            Kind::Cav | Kind::Art => 2,
            Kind::Gen | Kind::Exp | Kind::Eng => 1,
        }
    }

    /// Reinforcement cost in RP (W5.9).
    pub fn rp(self) -> u32 {
        match self {
            Kind::Cav => 1,
            Kind::Inf => 2,
            Kind::Art => 3,
            _ => 0,
        }
    }
}

/// Counts of land units by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Units(pub [u32; 6]);

impl Units {
    pub fn get(&self, k: Kind) -> u32 {
        self.0[k.index()]
    }

    pub fn set(&mut self, k: Kind, n: u32) {
        self.0[k.index()] = n;
    }

    pub fn add_kind(&mut self, k: Kind, n: u32) {
        self.0[k.index()] = self.0[k.index()].saturating_add(n);
    }

    pub fn one(k: Kind) -> Units {
        let mut u = Units::default();
        u.set(k, 1);
        u
    }

    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    pub fn brigades(&self) -> u32 {
        BRIGADES.iter().map(|&k| self.get(k)).sum()
    }

    pub fn parties(&self) -> u32 {
        self.total() - self.brigades()
    }

    pub fn portage(&self) -> u32 {
        KINDS.iter().map(|&k| self.get(k) * k.portage()).sum()
    }

    /// The least MP of the kinds present (None if empty).
    pub fn min_mp(&self) -> Option<u32> {
        KINDS
            .iter()
            .filter(|&&k| self.get(k) > 0)
            .map(|k| k.mp())
            .min()
    }

    pub fn contains(&self, other: &Units) -> bool {
        (0..6).all(|i| self.0[i] >= other.0[i])
    }

    pub fn add(&mut self, other: &Units) {
        for i in 0..6 {
            self.0[i] = self.0[i].saturating_add(other.0[i]);
        }
    }

    /// Takes `other` away; what is not there is ignored.
    pub fn sub(&mut self, other: &Units) {
        for i in 0..6 {
            self.0[i] = self.0[i].saturating_sub(other.0[i]);
        }
    }

    pub fn min(&self, other: &Units) -> Units {
        let mut u = Units::default();
        for i in 0..6 {
            u.0[i] = self.0[i].min(other.0[i]);
        }
        u
    }

    /// Only the brigades.
    pub fn brigades_only(&self) -> Units {
        let mut u = *self;
        for k in [Kind::Gen, Kind::Exp, Kind::Eng] {
            u.set(k, 0);
        }
        u
    }

    pub fn only_explorers(&self) -> bool {
        self.total() > 0 && self.get(Kind::Exp) == self.total()
    }

    /// `2 INF CAV GEN` (no number for one); `nothing` when empty.
    pub fn text(&self) -> String {
        let parts: Vec<String> = KINDS
            .iter()
            .filter(|&&k| self.get(k) > 0)
            .map(|&k| match self.get(k) {
                1 => k.name().to_string(),
                n => format!("{n} {}", k.name()),
            })
            .collect();
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(" ")
        }
    }

    /// As the scenario writes it: kinds with their counts, zero counts left out.
    pub fn to_json(&self) -> serde_json::Value {
        let mut m = serde_json::Map::new();
        for k in KINDS {
            if self.get(k) > 0 {
                m.insert(k.name().into(), self.get(k).into());
            }
        }
        serde_json::Value::Object(m)
    }
}

/// Buildings (W1.7, W11.3); the Suez Canal is a top-level flag, not a building.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Building {
    City,
    Factory,
    Port,
    Railroad,
    Fort,
    School,
}

pub const BUILDINGS: [Building; 6] = [
    Building::City,
    Building::Factory,
    Building::Port,
    Building::Railroad,
    Building::Fort,
    Building::School,
];

impl Building {
    pub fn name(self) -> &'static str {
        match self {
            Building::City => "city",
            Building::Factory => "factory",
            Building::Port => "port",
            Building::Railroad => "railroad",
            Building::Fort => "fort",
            Building::School => "school",
        }
    }

    pub fn parse(word: &str) -> Option<Building> {
        let w = word.to_ascii_lowercase();
        let w = w.strip_suffix('s').filter(|r| r.len() >= 3).unwrap_or(&w);
        Some(match w {
            "city" | "citie" => Building::City,
            "factory" | "factorie" => Building::Factory,
            "port" => Building::Port,
            "railroad" | "railway" | "rail" | "rr" => Building::Railroad,
            "fort" | "fortress" => Building::Fort,
            "school" => Building::School,
            _ => return None,
        })
    }

    pub fn cost(self) -> u32 {
        match self {
            Building::City | Building::Factory | Building::School => 30,
            Building::Port => 25,
            Building::Railroad | Building::Fort => 20,
        }
    }

    /// One of city, factory, port, railroad per region (W11.3).
    pub fn exclusive(self) -> bool {
        matches!(
            self,
            Building::City | Building::Factory | Building::Port | Building::Railroad
        )
    }

    /// VP (W11.7).
    pub fn vp(self) -> u32 {
        match self {
            Building::City | Building::Factory => 2,
            Building::Port | Building::Railroad | Building::School => 1,
            Building::Fort => 0,
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Buildings(pub u8);

impl Buildings {
    pub fn has(&self, b: Building) -> bool {
        self.0 & b.bit() != 0
    }

    pub fn put(&mut self, b: Building) {
        self.0 |= b.bit();
    }

    pub fn clear(&mut self) {
        self.0 = 0;
    }

    pub fn list(&self) -> Vec<Building> {
        BUILDINGS.iter().copied().filter(|&b| self.has(b)).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Names, sorted (as the scenario writes them).
    pub fn names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.list().iter().map(|b| b.name()).collect();
        v.sort();
        v
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Draft,
    Setup,
    Production,
    #[serde(rename = "movement-1")]
    Movement1,
    #[serde(rename = "movement-2")]
    Movement2,
    Over,
}

impl Phase {
    /// The phase's label: the judge's phase id and the dice label (W10.1).
    pub fn id(self) -> &'static str {
        match self {
            Phase::Draft => "draft",
            Phase::Setup => "setup",
            Phase::Production => "production",
            Phase::Movement1 => "movement-1",
            Phase::Movement2 => "movement-2",
            Phase::Over => "over",
        }
    }

    /// The scenario's `phase` word.
    pub fn kind(self) -> &'static str {
        match self {
            Phase::Movement1 | Phase::Movement2 => "movement",
            other => other.id(),
        }
    }

    pub fn movement(self) -> Option<u8> {
        match self {
            Phase::Movement1 => Some(1),
            Phase::Movement2 => Some(2),
            _ => None,
        }
    }

    pub fn is_movement(self) -> bool {
        self.movement().is_some()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub id: String,
    pub pp: u32,
    pub dp: u32,
    pub eliminated: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Region {
    /// The controlling player (index), or the natives.
    pub owner: Option<usize>,
    /// The native marker; none: westernized (W1.4).
    pub native: Option<Marker>,
    pub chit: Chit,
    pub developed: bool,
    pub buildings: Buildings,
    /// Spheres of influence by player index.
    pub spheres: Vec<u32>,
    pub revolt: bool,
    /// In revolt: the players whose spheres suppressed (W4.6).
    pub suppressors: Vec<usize>,
}

impl Region {
    pub fn sphere_total(&self) -> u32 {
        self.spheres.iter().sum()
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fleet {
    pub n: u32,
    pub cargo: Units,
}

impl Fleet {
    pub fn room(&self) -> u32 {
        (self.n * FLEET_PORTAGE).saturating_sub(self.cargo.portage())
    }
}

/// A war (W7.3): the two players (sorted by index), who declared it and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct War {
    pub players: (usize, usize),
    pub declared_by: usize,
    pub turn: u32,
    pub movement: u8,
}

/// A standing cession (W5.8), for the rest of the game turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cede {
    pub region: usize,
    pub to: usize,
}

/// A standing posture (W4.6), for the rest of the game turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posture {
    pub player: usize,
    pub region: usize,
    pub support: bool,
}

/// Rule options (W8.1, W11.1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    pub last_turn: Option<u32>,
    pub regions_each: Option<u32>,
    pub start_pp: Option<u32>,
    pub start_dp: Option<u32>,
}

/// One die as reported (W10.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub step: String,
    #[serde(rename = "for")]
    pub subject: String,
    pub roll: u32,
    pub source: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub map: MapHandle,
    pub phase: Phase,
    pub turn: u32,
    /// Sorted by id.
    pub players: Vec<Player>,
    /// This turn's movement order (the setup order in draft and setup), by index.
    pub order: Vec<usize>,
    pub regions: Vec<Region>,
    /// Land units, `[region * players + player]`.
    pub land: Vec<Units>,
    /// Fleets with their cargo, `[sea * players + player]`.
    pub fleets: Vec<Fleet>,
    pub wars: Vec<War>,
    pub cedes: Vec<Cede>,
    pub postures: Vec<Posture>,
    pub suez: bool,
    pub pool_native: Vec<Marker>,
    pub pool_chits: Vec<Chit>,
    pub options: Options,
    pub winners: Vec<String>,
    /// Dice rolled when the game was created (the setup order), reported with the
    /// draft's results.
    #[serde(default)]
    pub setup_dice: Vec<Roll>,
}

impl State {
    pub fn np(&self) -> usize {
        self.players.len()
    }

    pub fn player_index(&self, id: &str) -> Option<usize> {
        self.players
            .iter()
            .position(|p| p.id.eq_ignore_ascii_case(id))
    }

    pub fn pid(&self, p: usize) -> &str {
        &self.players[p].id
    }

    pub fn units(&self, region: usize, p: usize) -> &Units {
        &self.land[region * self.np() + p]
    }

    pub fn units_mut(&mut self, region: usize, p: usize) -> &mut Units {
        let np = self.np();
        &mut self.land[region * np + p]
    }

    pub fn fleet(&self, sea: usize, p: usize) -> &Fleet {
        &self.fleets[sea * self.np() + p]
    }

    pub fn fleet_mut(&mut self, sea: usize, p: usize) -> &mut Fleet {
        let np = self.np();
        &mut self.fleets[sea * np + p]
    }

    pub fn owner(&self, region: usize) -> Option<usize> {
        self.regions[region].owner
    }

    pub fn owns(&self, p: usize, region: usize) -> bool {
        self.regions[region].owner == Some(p)
    }

    pub fn place_name(&self, place: Place) -> String {
        self.map.place_id(place).to_string()
    }

    pub fn rname(&self, region: usize) -> &str {
        &self.map.regions[region].id
    }

    pub fn sname(&self, sea: usize) -> &str {
        &self.map.seas[sea].id
    }

    /// The players still in the game, in id order.
    pub fn active(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.np()).filter(|&p| !self.players[p].eliminated)
    }

    pub fn regions_of(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.regions.len()).filter(move |&r| self.regions[r].owner == Some(p))
    }

    pub fn region_count(&self, p: usize) -> usize {
        self.regions_of(p).count()
    }

    /// Schools the player controls (W11.4).
    pub fn schools(&self, p: usize) -> u32 {
        self.regions_of(p)
            .filter(|&r| self.regions[r].buildings.has(Building::School))
            .count() as u32
    }

    pub fn war(&self, a: usize, b: usize) -> Option<&War> {
        let key = (a.min(b), a.max(b));
        self.wars.iter().find(|w| w.players == key)
    }

    pub fn at_war(&self, a: usize, b: usize) -> bool {
        a != b && self.war(a, b).is_some()
    }

    /// Whether `a` may attack `b` now (W7.3): at war, and if `a` declared it, from
    /// his next movement phase on.
    pub fn may_attack(&self, a: usize, b: usize) -> bool {
        let Some(w) = self.war(a, b) else {
            return false;
        };
        if w.declared_by != a {
            return true;
        }
        let now = (self.turn, self.phase.movement().unwrap_or(0));
        now > (w.turn, w.movement)
    }

    /// Whether a sea link is open to a player (W1.3).
    pub fn link_open(&self, p: usize, a: usize, b: usize) -> bool {
        if self.map.seas[a].adjacent.contains(&b) {
            return true;
        }
        let Some(link) = self.map.link(a, b) else {
            return false;
        };
        if link.kind == super::map::LinkKind::Canal && !self.suez {
            return false;
        }
        match self.regions[link.region].owner {
            Some(c) => !self.at_war(p, c),
            None => true,
        }
    }

    /// The seas a player may sail to from a sea (adjacent, and open links).
    pub fn sea_neighbours(&self, p: usize, sea: usize) -> Vec<usize> {
        let mut out = self.map.seas[sea].adjacent.clone();
        for l in &self.map.links {
            let other = if l.seas.0 == sea {
                l.seas.1
            } else if l.seas.1 == sea {
                l.seas.0
            } else {
                continue;
            };
            if self.link_open(p, sea, other) && !out.contains(&other) {
                out.push(other);
            }
        }
        out
    }

    /// Native brigades a marker fields (W6.1): INF, CAV, ART.
    pub fn native_army(m: Marker) -> [u32; 3] {
        let cav = if m.plus >= 1 { m.ns / 3 } else { 0 };
        let art = if m.plus >= 2 && m.ns > cav { 1 } else { 0 };
        [m.ns - cav - art, cav, art]
    }

    pub fn has_port_on(&self, p: usize, sea: usize) -> bool {
        self.map.seas[sea]
            .coast
            .iter()
            .any(|&r| self.owns(p, r) && self.regions[r].buildings.has(Building::Port))
    }
}
