//! The shape of a scenario file (`../shared/specs/foundation-hjelmberg-scenario.md`),
//! which also stores a game between phases (`stored`) and underlies the JSON output
//! (`output`): the file's records, and a position written in that shape
//! ([`to_file`]). Reading a file and checking the position is `scenario`'s.

use std::collections::BTreeMap;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::data::{dynasty_name, research_name, Data, CENTER, PERSONAL};
use super::state::{Pace, State, NONE};

/// A map that keeps its keys in the order written (hands in colour order, …).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Ordered<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for V2<V> {
            type Value = Ordered<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, V>()? {
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V2(std::marker::PhantomData))
    }
}

/// A planet's colony space: one tile (`""` when taken), CORE a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Space {
    One(String),
    Many(Vec<String>),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionsFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round_limit: Option<i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PilesFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colony1: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colony2: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colony3: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goals: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerFile {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Ordered<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kins: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earned: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub neutral: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dynasty: Option<Ordered<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub research: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colonies: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserve: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ships: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empire_due: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empire_new: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen: Option<Vec<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub personal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub personal_revealed: Option<bool>,
}

/// A scenario file (and the stored position: the same shape).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub rules: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<i64>,
    pub seating: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empire_kin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empire: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goals: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revealed: Option<Vec<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<OptionsFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planets: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stock: Option<BTreeMap<String, i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colony_board: Option<BTreeMap<String, Space>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piles: Option<PilesFile>,
    #[serde(default)]
    pub player: Vec<PlayerFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orders: Option<BTreeMap<String, String>>,
}

/// The position in the file's shape, every field written.
pub fn to_file(state: &State) -> ScenarioFile {
    let d = &*state.data;
    let c = &state.core;
    let players = c
        .seats()
        .map(|s| {
            let p = c.player(s);
            PlayerFile {
                id: state.name(s).to_string(),
                hand: Some(Ordered(
                    (0..d.colours.len())
                        .filter(|&k| p.hand[k] > 0)
                        .map(|k| (d.colours[k].clone(), i64::from(p.hand[k])))
                        .collect(),
                )),
                kins: Some(i64::from(p.kins)),
                earned: Some(i64::from(p.earned)),
                neutral: Some(i64::from(p.neutral)),
                dynasty: Some(Ordered(
                    (0..=CENTER)
                        .filter(|&k| p.dynasty[k] > 0)
                        .map(|k| (dynasty_name(k), i64::from(p.dynasty[k])))
                        .collect(),
                )),
                research: Some(
                    (0..=PERSONAL)
                        .filter(|&k| p.has(k))
                        .map(research_name)
                        .collect(),
                ),
                colonies: Some(tile_list(d, &p.colonies)),
                reserve: Some(i64::from(p.reserve)),
                ships: Some(d.gate_list(p.ships).iter().map(|g| g.to_string()).collect()),
                empire_due: Some(i64::from(p.due)),
                empire_new: Some(i64::from(p.new)),
                seen: Some(
                    (0..3)
                        .filter(|n| p.seen & (1 << n) != 0)
                        .map(|n| n + 1)
                        .collect(),
                ),
                personal: Some(if p.personal == NONE {
                    String::new()
                } else {
                    d.goal_name(p.personal).to_string()
                }),
                response: Some(if p.battle { "battle" } else { "yield" }.into()),
                personal_revealed: Some(c.personal_revealed & (1 << s) != 0),
            }
        })
        .collect();
    ScenarioFile {
        rules: super::ID.into(),
        data: None,
        phase: Some(c.phase.id().into()),
        turn: Some(i64::from(c.round)),
        seed: None,
        seating: state.seating.clone(),
        next: Some(state.name(c.next).to_string()),
        empire_kin: Some(state.name(c.empire_kin).to_string()),
        empire: Some(
            d.gate_list(c.empire)
                .iter()
                .map(|g| g.to_string())
                .collect(),
        ),
        goals: Some(
            c.goals
                .iter()
                .map(|&g| d.goal_name(g).to_string())
                .collect(),
        ),
        revealed: Some(
            (0..3)
                .filter(|n| c.revealed & (1 << n) != 0)
                .map(|n| n + 1)
                .collect(),
        ),
        draws: None,
        winner: (c.winner != NONE).then(|| state.name(c.winner).to_string()),
        discard: Some(tile_list(d, &c.discard)),
        options: Some(OptionsFile {
            pace: Some(match state.options.pace {
                Pace::Round => "round".into(),
                Pace::Turn => "turn".into(),
            }),
            round_limit: Some(i64::from(state.options.round_limit)),
        }),
        planets: Some(
            (0..d.planets.len())
                .filter(|&p| c.planets[p] != NONE)
                .map(|p| {
                    (
                        d.planets[p].clone(),
                        d.planet_tiles[usize::from(c.planets[p])].id.clone(),
                    )
                })
                .collect(),
        ),
        stock: Some(
            (0..d.planets.len())
                .map(|p| (d.planets[p].clone(), i64::from(c.stock[p])))
                .collect(),
        ),
        colony_board: Some(
            (0..d.planets.len())
                .map(|p| {
                    let space = if p == usize::from(d.core) {
                        Space::Many(tile_list(d, &c.core_tiles))
                    } else if c.colony[p] == NONE {
                        Space::One(String::new())
                    } else {
                        Space::One(d.tile_name(c.colony[p]).to_string())
                    };
                    (d.planets[p].clone(), space)
                })
                .collect(),
        ),
        piles: Some(PilesFile {
            colony1: Some(tile_list(d, &c.piles[0])),
            colony2: Some(tile_list(d, &c.piles[1])),
            colony3: Some(tile_list(d, &c.piles[2])),
            goals: Some(
                (0..d.goals.len())
                    .filter(|&g| c.goal_pile & (1 << g) != 0)
                    .map(|g| d.goal_ids[g].clone())
                    .collect(),
            ),
        }),
        player: players,
        orders: None,
    }
}

pub(super) fn tile_list(d: &Data, counts: &[u8]) -> Vec<String> {
    (0..d.tiles.len())
        .flat_map(|k| std::iter::repeat_n(d.tiles[k].id.clone(), usize::from(counts[k])))
        .collect()
}
