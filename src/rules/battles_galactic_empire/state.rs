//! The position between two phases: regions and their value slots (B1.3), the Chaos
//! Index (B1.4), fleets where they stand (B2.2), each power's RP, hand, chit pool,
//! force pool, TH supply and display, the common pools (B2.3), and the options (B11).

use serde::{Deserialize, Serialize};

use super::types::{fleet_value, total, Chit, Chits, Fleets, Kind, Power, Segment, Slot};

/// The phase the game waits in (B4; setup is turn 0, B3.2).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Setup,
    Deployment,
    Actions,
    Build,
    Over,
}

impl Phase {
    pub fn id(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Deployment => "deployment",
            Phase::Actions => "actions",
            Phase::Build => "build",
            Phase::Over => "over",
        }
    }

    pub fn from_id(s: &str) -> Option<Phase> {
        match s.to_ascii_lowercase().as_str() {
            "setup" => Some(Phase::Setup),
            "deployment" => Some(Phase::Deployment),
            "actions" => Some(Phase::Actions),
            "build" => Some(Phase::Build),
            _ => None,
        }
    }
}

/// The two scenarios (B3).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    #[default]
    CivilWar,
    Invasion,
}

impl Scenario {
    pub fn id(self) -> &'static str {
        match self {
            Scenario::CivilWar => "civil-war",
            Scenario::Invasion => "invasion",
        }
    }
}

/// Option `switcheroo` (B11.3).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Switcheroo {
    #[default]
    Off,
    On,
    MoreChaos,
}

impl Switcheroo {
    pub fn id(self) -> &'static str {
        match self {
            Switcheroo::Off => "off",
            Switcheroo::On => "on",
            Switcheroo::MoreChaos => "more-chaos",
        }
    }
}

/// The game's options (B3.1, B3 hand limit, B11).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub scenario: Scenario,
    pub invader: Power,
    pub hand_limit: u32,
    pub main_weapon: bool,
    pub no_moon: bool,
    pub switcheroo: Switcheroo,
    pub upgrades: bool,
    pub mixed_values: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            scenario: Scenario::CivilWar,
            invader: Power::Red,
            hand_limit: 5,
            main_weapon: true,
            no_moon: false,
            switcheroo: Switcheroo::Off,
            upgrades: false,
            mixed_values: false,
        }
    }
}

impl Options {
    /// The Invasion's defender, if this is an Invasion (B3.1).
    pub fn defender(&self) -> Option<Power> {
        (self.scenario == Scenario::Invasion).then(|| self.invader.other())
    }
}

/// A region's value slots and whether it is resolved this Action phase.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Region {
    pub combat: u32,
    pub political: u32,
    pub resource: u32,
    #[serde(default)]
    pub resolved: bool,
}

impl Region {
    pub fn value(&self, slot: Slot) -> u32 {
        match slot {
            Slot::Combat => self.combat,
            Slot::Political => self.political,
            Slot::Resource => self.resource,
        }
    }

    pub fn value_mut(&mut self, slot: Slot) -> &mut u32 {
        match slot {
            Slot::Combat => &mut self.combat,
            Slot::Political => &mut self.political,
            Slot::Resource => &mut self.resource,
        }
    }
}

/// One fleet in a region (B2.2): garrison or not, its Tactical marker and its hits
/// (B11.2) while the Action phase lasts.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unit {
    pub region: u8,
    pub power: Power,
    pub kind: Kind,
    #[serde(default)]
    pub garrison: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<Segment>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hits: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// What a power holds off the map.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Side {
    /// RP held: carried over plus Build chits played this turn (B10.1).
    pub rp: u32,
    pub hand: Chits,
    pub chit_pool: Chits,
    /// Fleets not yet built (never TH).
    pub force_pool: Fleets,
    pub th_supply: u32,
    /// The power's display (`base`).
    pub base: Fleets,
}

/// The common pools (B2.2, B2.3).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Common {
    pub chits: Chits,
    /// Eliminated fleets, owned by nobody.
    pub fleets: Fleets,
}

/// Everything about a game between two phases.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub turn: u32,
    pub phase: Phase,
    pub chaos: i64,
    pub options: Options,
    pub regions: [Region; 6],
    /// Fleets in regions, kept in a canonical order ([`State::tidy`]).
    pub units: Vec<Unit>,
    /// Blue's, then red's.
    pub powers: [Side; 2],
    pub common: Common,
    pub winner: Option<Power>,
    /// The value chits dealt when the game was created (B1.3), as
    /// `(region, slot index, chit name)`, reported with the setup's results.
    #[serde(default)]
    pub dealt: Vec<(u8, u8, String)>,
}

impl State {
    pub fn side(&self, p: Power) -> &Side {
        &self.powers[p.index()]
    }

    pub fn side_mut(&mut self, p: Power) -> &mut Side {
        &mut self.powers[p.index()]
    }

    /// The fleets of a power in a region.
    pub fn units_of(&self, region: u8, power: Power) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.region == region && u.power == power)
    }

    /// Who controls a region: the power whose garrison stands there (B1.5).
    pub fn control(&self, region: u8) -> Option<Power> {
        self.units
            .iter()
            .find(|u| u.region == region && u.garrison)
            .map(|u| u.power)
    }

    /// The regions a power controls, in region order.
    pub fn controlled(&self, power: Power) -> impl Iterator<Item = u8> + '_ {
        (0..6u8).filter(move |&r| self.control(r) == Some(power))
    }

    /// The value of a power's fleets in a region (B2.1), Tactical markers not counted.
    pub fn value_in(&self, region: u8, power: Power) -> u32 {
        self.units_of(region, power)
            .map(|u| fleet_value(u.kind, u.power, self.chaos))
            .sum()
    }

    /// A power's fleets in a region by type.
    pub fn fleets_in(&self, region: u8, power: Power) -> Fleets {
        let mut f = [0; 6];
        for u in self.units_of(region, power) {
            f[u.kind.index()] += 1;
        }
        f
    }

    /// Puts the fleets in regions in their canonical order, so that equal positions
    /// are equal values.
    pub fn tidy(&mut self) {
        self.units.sort();
    }

    /// Every fleet of a type, wherever it is (B2.2): in regions, on displays, in force
    /// pools, in the common fleet pool, in TH supplies.
    pub fn fleet_total(&self, kind: Kind) -> u32 {
        let mut n = self.units.iter().filter(|u| u.kind == kind).count() as u32;
        for s in &self.powers {
            n += s.base[kind.index()] + s.force_pool[kind.index()];
            if kind == Kind::TH {
                n += s.th_supply;
            }
        }
        n + self.common.fleets[kind.index()]
    }

    /// Every action chit of a kind, wherever it is.
    pub fn chit_total(&self, chit: Chit) -> u32 {
        let i = chit.index();
        self.powers
            .iter()
            .map(|s| s.hand[i] + s.chit_pool[i])
            .sum::<u32>()
            + self.common.chits[i]
    }

    pub fn hand_size(&self, p: Power) -> u32 {
        total(&self.side(p).hand)
    }

    /// The victory levels at the end of a turn (B9.2): red wins at or below the
    /// first, blue at or above the second.
    pub fn victory_levels(turn: u32) -> (i64, i64) {
        const RED: [i64; 10] = [0, 5, 10, 15, 20, 25, 30, 35, 40, 50];
        const BLUE: [i64; 10] = [101, 96, 91, 86, 81, 76, 71, 66, 61, 51];
        let k = (turn.clamp(1, 10) - 1) as usize;
        (RED[k], BLUE[k])
    }
}
