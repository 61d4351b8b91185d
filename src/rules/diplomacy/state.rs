//! The position between two phases: units, dislodged units waiting to retreat, supply
//! centre owners, the phase, the options; stored by the judge as JSON with names, not
//! indices.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::map::{Kind, Loc, Map, Prov};

/// A season of a game year.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Season {
    Spring,
    Fall,
    Winter,
}

/// What is ordered in a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Movement,
    Retreat,
    Adjustment,
}

/// One phase: `S1901M`, `F1901R`, `W1901A`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Phase {
    pub year: u16,
    pub season: Season,
    pub step: Step,
}

impl Phase {
    pub fn first() -> Phase {
        Phase {
            year: 1901,
            season: Season::Spring,
            step: Step::Movement,
        }
    }

    /// Reads `S1901M`; `F1901A` (the DATC files' name) is `W1901A`.
    pub fn parse(s: &str) -> Option<Phase> {
        let s = s.trim().to_ascii_uppercase();
        if s.len() != 6 || !s.is_ascii() {
            return None;
        }
        let year: u16 = s[1..5].parse().ok()?;
        let step = match &s[5..] {
            "M" => Step::Movement,
            "R" => Step::Retreat,
            "A" | "B" => Step::Adjustment,
            _ => return None,
        };
        let season = match (&s[..1], step) {
            (_, Step::Adjustment) => Season::Winter,
            ("S", _) => Season::Spring,
            ("F", _) => Season::Fall,
            _ => return None,
        };
        if !matches!(&s[..1], "S" | "F" | "W") {
            return None;
        }
        Some(Phase { year, season, step })
    }

    /// `S1901M`.
    pub fn code(&self) -> String {
        let s = match self.season {
            Season::Spring => "S",
            Season::Fall => "F",
            Season::Winter => "W",
        };
        let t = match self.step {
            Step::Movement => "M",
            Step::Retreat => "R",
            Step::Adjustment => "A",
        };
        format!("{s}{}{t}", self.year)
    }

    /// The judge's phase id (phase lengths in `games.toml` are given by it).
    pub fn id(&self) -> &'static str {
        match (self.season, self.step) {
            (Season::Spring, Step::Movement) => "spring",
            (Season::Spring, _) => "spring-retreats",
            (Season::Fall, Step::Movement) => "fall",
            (Season::Fall, _) => "fall-retreats",
            (Season::Winter, _) => "winter",
        }
    }

    /// The phase of `year` that the judge's phase id names (see [`Phase::id`]).
    pub fn from_id(year: u16, id: &str) -> Option<Phase> {
        let (season, step) = match id {
            "spring" => (Season::Spring, Step::Movement),
            "spring-retreats" => (Season::Spring, Step::Retreat),
            "fall" => (Season::Fall, Step::Movement),
            "fall-retreats" => (Season::Fall, Step::Retreat),
            "winter" => (Season::Winter, Step::Adjustment),
            _ => return None,
        };
        Some(Phase { year, season, step })
    }

    /// For people: "Spring 1901 movement".
    pub fn words(&self) -> String {
        let s = match self.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        };
        let t = match self.step {
            Step::Movement => "movement",
            Step::Retreat => "retreats",
            Step::Adjustment => "adjustments",
        };
        format!("{s} {} {t}", self.year)
    }

    /// The retreat phase after this movement phase.
    pub fn retreats(&self) -> Phase {
        Phase {
            step: Step::Retreat,
            ..*self
        }
    }

    /// The movement or adjustment phase that follows this season's movement and
    /// retreats.
    pub fn after_season(&self) -> Phase {
        match self.season {
            Season::Spring => Phase {
                year: self.year,
                season: Season::Fall,
                step: Step::Movement,
            },
            Season::Fall => Phase {
                year: self.year,
                season: Season::Winter,
                step: Step::Adjustment,
            },
            Season::Winter => Phase {
                year: self.year + 1,
                season: Season::Spring,
                step: Step::Movement,
            },
        }
    }
}

/// Which rulebook's answers the adjudicator gives where the DATC offers choices
/// (DATC 4.A.3 convoys to adjacent provinces, 4.D.9 civil disorder distances).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Edition {
    #[serde(rename = "1971")]
    E1971,
    #[serde(rename = "1982")]
    E1982,
    #[default]
    #[serde(rename = "2023")]
    E2023,
    #[serde(rename = "dptg")]
    Dptg,
}

impl Edition {
    pub fn parse(s: &str) -> Option<Edition> {
        Some(match s {
            "1971" => Edition::E1971,
            "1982" => Edition::E1982,
            "2000" | "2023" => Edition::E2023,
            "dptg" | "DPTG" => Edition::Dptg,
            _ => return None,
        })
    }
}

/// The rule options of a game (a scenario's `[options]`, a game's `[game.options]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    /// DATC 4.A.3 and 4.D.9: the rulebook (`2023` by default, the DATC's preference).
    pub edition: Edition,
    /// DATC 4.A.2: the convoy paradox rule; only `szykman` (the DATC's preference).
    pub paradox: String,
    /// Supply centres for a solo victory (0: none).
    pub victory_centers: u32,
    /// The game ends as a draw of the survivors after this game year's winter (0:
    /// never).
    pub last_year: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            edition: Edition::E2023,
            paradox: "szykman".into(),
            victory_centers: 18,
            last_year: 0,
        }
    }
}

impl Options {
    pub fn from_table(t: &toml::Table) -> Result<Options, String> {
        let mut t = t.clone();
        // The edition is written as a string; a bare number is accepted too.
        if let Some(toml::Value::Integer(n)) = t.get("edition") {
            let s = n.to_string();
            t.insert("edition".into(), toml::Value::String(s));
        }
        let o: Options = t.try_into().map_err(|e: toml::de::Error| {
            format!(
                "options: {}",
                e.message()
                    .replace('\n', " ")
                    .replace("unknown field", "unknown key")
            )
        })?;
        if o.paradox != "szykman" {
            return Err(format!(
                "options: paradox {:?} is not supported (only \"szykman\", the DATC's preference)",
                o.paradox
            ));
        }
        Ok(o)
    }
}

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Unit {
    pub power: u8,
    pub kind: Kind,
    pub loc: Loc,
}

impl Unit {
    /// `AUS A vie`.
    pub fn text(&self, map: &Map) -> String {
        format!(
            "{} {} {}",
            map.power_id(self.power),
            self.kind.letter(),
            map.loc_id(self.loc)
        )
    }

    /// Reads `AUS A vie` (strict: abbreviations; the unit must be able to stand there).
    pub fn parse(map: &Map, s: &str) -> Result<Unit, String> {
        let w: Vec<&str> = s.split_whitespace().collect();
        if w.len() != 3 {
            return Err(format!(
                "unit {s:?}: write POWER KIND PROVINCE, as \"AUS A vie\""
            ));
        }
        let power = map
            .power_by_id(w[0])
            .ok_or_else(|| format!("unit {s:?}: unknown power {:?}", w[0]))?;
        let kind = match w[1] {
            "A" | "a" => Kind::Army,
            "F" | "f" => Kind::Fleet,
            k => return Err(format!("unit {s:?}: unknown unit kind {k:?} (A or F)")),
        };
        let loc = map
            .loc_by_id(w[2])
            .ok_or_else(|| format!("unit {s:?}: unknown province {:?}", w[2]))?;
        if !map.can_stand(kind, loc) {
            return Err(format!(
                "unit {s:?}: {} cannot stand in {}{}",
                if kind == Kind::Army {
                    "an army"
                } else {
                    "a fleet"
                },
                map.loc_id(loc),
                if kind == Kind::Fleet
                    && !map.provinces[map.prov_of(loc) as usize].coasts.is_empty()
                {
                    " without a coast"
                } else {
                    ""
                }
            ));
        }
        Ok(Unit { power, kind, loc })
    }
}

/// A unit dislodged in the movement phase, waiting for its retreat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dislodged {
    pub unit: Unit,
    /// Where the attacker came from (none when it came by convoy: DATC 4.A.5, the
    /// 2023 rules let the unit retreat there).
    pub attacker_from: Prov,
    pub by_convoy: bool,
    /// The locations it may retreat to.
    pub retreats: Vec<Loc>,
}

/// Everything about a game between two phases.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Stored", try_from = "Stored")]
pub struct State {
    pub phase: Phase,
    /// Sorted.
    pub units: Vec<Unit>,
    pub dislodged: Vec<Dislodged>,
    /// Owner of each province (only supply centres are ever owned).
    pub owners: Vec<Option<u8>>,
    pub options: Options,
    /// Set when the game is over: the winner, or every power sharing a draw.
    pub winners: Vec<u8>,
    pub over: bool,
}

impl State {
    pub fn map(&self) -> &'static Map {
        Map::standard()
    }

    /// The standard 1901 position.
    pub fn standard(options: Options) -> State {
        let map = Map::standard();
        let mut owners = vec![None; map.provinces.len()];
        for (k, p) in map.provinces.iter().enumerate() {
            owners[k] = p.home;
        }
        let mut units: Vec<Unit> = map
            .start
            .iter()
            .map(|&(power, kind, loc)| Unit { power, kind, loc })
            .collect();
        units.sort();
        State {
            phase: Phase::first(),
            units,
            dislodged: Vec::new(),
            owners,
            options,
            winners: Vec::new(),
            over: false,
        }
    }

    pub fn centres_of(&self, power: u8) -> usize {
        self.owners.iter().filter(|o| **o == Some(power)).count()
    }

    pub fn units_of(&self, power: u8) -> usize {
        self.units.iter().filter(|u| u.power == power).count()
    }

    /// A power is in the game while it has a unit or a centre.
    pub fn alive(&self, power: u8) -> bool {
        self.units.iter().any(|u| u.power == power)
            || self.dislodged.iter().any(|d| d.unit.power == power)
            || self.owners.contains(&Some(power))
    }

    pub fn unit_in(&self, p: Prov) -> Option<&Unit> {
        let map = self.map();
        self.units.iter().find(|u| map.prov_of(u.loc) == p)
    }

    /// Builds (positive) or removals (negative) a power owes in an adjustment phase.
    pub fn adjustment(&self, power: u8) -> i32 {
        self.centres_of(power) as i32 - self.units_of(power) as i32
    }

    /// The home centres where `power` may build now: owned by it and empty.
    pub fn build_sites(&self, power: u8) -> Vec<Prov> {
        let map = self.map();
        map.home_centres(power)
            .filter(|&p| self.owners[p as usize] == Some(power) && self.unit_in(p).is_none())
            .collect()
    }
}

/// The stored form: names, not indices.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    map: String,
    phase: String,
    units: Vec<String>,
    #[serde(default)]
    dislodged: Vec<StoredDislodged>,
    supply_centers: BTreeMap<String, String>,
    options: Options,
    #[serde(default)]
    winners: Vec<String>,
    #[serde(default)]
    over: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredDislodged {
    unit: String,
    attacker_from: String,
    #[serde(default)]
    by_convoy: bool,
    retreats: Vec<String>,
}

impl From<State> for Stored {
    fn from(s: State) -> Stored {
        let map = Map::standard();
        Stored {
            map: "standard".into(),
            phase: s.phase.code(),
            units: s.units.iter().map(|u| u.text(map)).collect(),
            dislodged: s
                .dislodged
                .iter()
                .map(|d| StoredDislodged {
                    unit: d.unit.text(map),
                    attacker_from: map.prov_id(d.attacker_from).to_string(),
                    by_convoy: d.by_convoy,
                    retreats: d
                        .retreats
                        .iter()
                        .map(|&l| map.loc_id(l).to_string())
                        .collect(),
                })
                .collect(),
            supply_centers: owners_map(map, &s.owners),
            options: s.options,
            winners: s
                .winners
                .iter()
                .map(|&p| map.power_id(p).to_string())
                .collect(),
            over: s.over,
        }
    }
}

/// Owners as `{prov: POWER}`.
pub fn owners_map(map: &Map, owners: &[Option<u8>]) -> BTreeMap<String, String> {
    owners
        .iter()
        .enumerate()
        .filter_map(|(k, o)| {
            Some((
                map.prov_id(k as u8).to_string(),
                map.power_id((*o)?).to_string(),
            ))
        })
        .collect()
}

impl TryFrom<Stored> for State {
    type Error = String;
    fn try_from(s: Stored) -> Result<State, String> {
        let map = Map::standard();
        if s.map != "standard" {
            return Err(format!("unknown map {:?}", s.map));
        }
        let phase = Phase::parse(&s.phase).ok_or(format!("unknown phase {:?}", s.phase))?;
        let mut units = s
            .units
            .iter()
            .map(|u| Unit::parse(map, u))
            .collect::<Result<Vec<_>, _>>()?;
        units.sort();
        let mut dislodged = Vec::new();
        for d in &s.dislodged {
            dislodged.push(Dislodged {
                unit: Unit::parse(map, &d.unit)?,
                attacker_from: map
                    .prov_by_id(&d.attacker_from)
                    .ok_or(format!("unknown province {:?}", d.attacker_from))?,
                by_convoy: d.by_convoy,
                retreats: d
                    .retreats
                    .iter()
                    .map(|r| map.loc_by_id(r).ok_or(format!("unknown location {r:?}")))
                    .collect::<Result<_, _>>()?,
            });
        }
        let mut owners = vec![None; map.provinces.len()];
        for (p, o) in &s.supply_centers {
            let p = map.prov_by_id(p).ok_or(format!("unknown province {p:?}"))?;
            owners[p as usize] = Some(map.power_by_id(o).ok_or(format!("unknown power {o:?}"))?);
        }
        let winners = s
            .winners
            .iter()
            .map(|w| map.power_by_id(w).ok_or(format!("unknown power {w:?}")))
            .collect::<Result<_, _>>()?;
        Ok(State {
            phase,
            units,
            dislodged,
            owners,
            options: s.options,
            winners,
            over: s.over,
        })
    }
}
