//! A game of any rule set, as the judge stores and drives it: a closed enum that
//! delegates to each rule set, so the judge never looks inside a game's state.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::foundation_empire::{self as fe, stored::StoredState, FoundationEmpire};
use super::{LineCheck, PhaseLabel, RuleSet, RuleSetId};

/// The stored state of one game, tagged with its rule set.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "rules", content = "state")]
pub enum Game {
    #[serde(rename = "foundation-empire")]
    FoundationEmpire(StoredState),
}

/// What one adjudication gives the judge.
#[derive(Debug, Clone)]
pub struct Adjudicated {
    pub game: Game,
    /// The JSON of `pbem adjudicate` for this phase (the mail's `results.json`).
    pub json: serde_json::Value,
    /// The results for the mail templates.
    pub view: serde_json::Value,
}

impl Game {
    /// A new game from its configuration: rule options as in a scenario's `[options]`,
    /// and optionally fixed start positions (power → systems, R7.2).
    pub fn new(
        rules: RuleSetId,
        options: &toml::Table,
        start: Option<&BTreeMap<String, Vec<String>>>,
    ) -> Result<Game, String> {
        match rules {
            RuleSetId::FoundationEmpire => {
                let options = fe::scenario::options_from_table(options)?;
                let mut state = fe::position::State::new(fe::board::Board::standard(), options);
                if let Some(start) = start {
                    let lines: BTreeMap<_, _> = start
                        .iter()
                        .map(|(power, systems)| {
                            let power = state
                                .board
                                .power_by_id(power)
                                .ok_or_else(|| format!("unknown power {power:?} in start"))?;
                            let text: Vec<String> =
                                systems.iter().map(|s| format!("PLACE {s}")).collect();
                            Ok((power, text.join("\n")))
                        })
                        .collect::<Result<_, String>>()?;
                    let (next, report) = fe::adjudicate(&state, &lines, 0);
                    if let Some(bad) = report.results.iter().find(|r| r.outcome.id() == "invalid") {
                        return Err(format!(
                            "start position {:?}: {}",
                            bad.order_text(&state.board),
                            bad.detail_text(&state.board)
                        ));
                    }
                    state = next;
                }
                Ok(Game::FoundationEmpire(StoredState::from_state(
                    &state, None,
                )))
            }
        }
    }

    fn fe(&self) -> fe::position::State {
        match self {
            Game::FoundationEmpire(s) => s.to_state().expect("a stored game reads back"),
        }
    }

    pub fn rules(&self) -> RuleSetId {
        match self {
            Game::FoundationEmpire(_) => RuleSetId::FoundationEmpire,
        }
    }

    pub fn label(&self) -> PhaseLabel {
        FoundationEmpire::phase(&self.fe())
    }

    /// The powers that owe orders in the current phase.
    pub fn owing(&self) -> Vec<String> {
        FoundationEmpire::owing(&self.fe())
    }

    /// The powers of the game (those a player may hold).
    pub fn powers(&self) -> Vec<String> {
        let state = self.fe();
        state
            .powers_in_play()
            .into_iter()
            .filter(|&p| Some(p) != state.judge_power())
            .map(|p| state.board.power(p).id.clone())
            .collect()
    }

    pub fn winners(&self) -> Vec<String> {
        match self {
            Game::FoundationEmpire(s) => s.winners.clone(),
        }
    }

    pub fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        FoundationEmpire::check(&self.fe(), power, text)
    }

    pub fn board_text(&self) -> String {
        fe::report::board_text(&self.fe())
    }

    /// The position in the shape of `pbem adjudicate`'s output: `fleets`, `systems`.
    pub fn position_json(&self) -> serde_json::Value {
        let state = self.fe();
        let empty = fe::outcome::Report::default();
        let mut v = fe::scenario::output_value(&state, &state, &empty);
        let keep = ["fleets", "dislodged", "systems", "placements_due", "winner"];
        if let serde_json::Value::Object(map) = &mut v {
            map.retain(|k, _| keep.contains(&k.as_str()));
        }
        v
    }

    pub fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        let before = self.fe();
        let (after, report) = FoundationEmpire::adjudicate(&before, orders, seed);
        Adjudicated {
            json: fe::scenario::output_value(&before, &after, &report),
            view: serde_json::to_value(fe::report::results_view(&after, &report))
                .expect("view serialises"),
            game: Game::FoundationEmpire(StoredState::from_state(&after, None)),
        }
    }

    /// The order syntax of this game, for HELP.
    pub fn order_help(&self) -> &'static str {
        match self {
            Game::FoundationEmpire(_) => include_str!("foundation_empire/help.txt"),
        }
    }
}
