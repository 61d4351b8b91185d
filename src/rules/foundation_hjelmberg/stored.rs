//! What the judge stores of a game between phases: the position in the scenario's
//! shape ([`ScenarioFile`]) and the creation draws still to report.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::file::{to_file, ScenarioFile};
use super::outcome::Draw;
use super::state::State;

/// What the judge stores of a game: the position in the scenario's shape, and the
/// creation draws still to report.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stored {
    pub position: ScenarioFile,
    #[serde(default)]
    pub creation: Vec<StoredDraw>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredDraw {
    pub step: String,
    pub pile: String,
    pub drew: String,
    #[serde(rename = "for")]
    pub for_: String,
    pub secret: bool,
}

fn static_str(s: &str) -> &'static str {
    const KNOWN: [&str; 10] = [
        "H3.2", "H8", "planet1", "planet2", "colony1", "colony2", "colony3", "goals", "empire",
        "H11.1",
    ];
    KNOWN.into_iter().find(|k| *k == s).unwrap_or("?")
}

impl From<State> for Stored {
    fn from(s: State) -> Stored {
        Stored {
            position: to_file(&s),
            creation: s
                .creation
                .iter()
                .map(|x| StoredDraw {
                    step: x.step.into(),
                    pile: x.pile.into(),
                    drew: x.drew.clone(),
                    for_: x.for_.clone(),
                    secret: x.to.is_some(),
                })
                .collect(),
        }
    }
}

impl TryFrom<Stored> for State {
    type Error = String;
    fn try_from(s: Stored) -> Result<State, String> {
        let mut state = s.position.build(super::data::standard())?.state;
        state.creation = s
            .creation
            .into_iter()
            .map(|x| Draw {
                step: static_str(&x.step),
                pile: static_str(&x.pile),
                drew: x.drew,
                for_: x.for_,
                to: x.secret.then(Vec::new),
            })
            .collect();
        Ok(state)
    }
}

impl Serialize for State {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Stored::from(self.clone()).serialize(s)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<State, D::Error> {
        let stored = Stored::deserialize(d)?;
        State::try_from(stored).map_err(serde::de::Error::custom)
    }
}
