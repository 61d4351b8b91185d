//! A game of any rule set, as the judge stores and drives it: a closed enum that
//! delegates to each rule set, so the judge never looks inside a game's state.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::foundation_empire::{self as fe, stored::StoredState, FoundationEmpire};
use super::godsfire::{self as gf, Godsfire};
use super::{LineCheck, PhaseLabel, RuleSet, RuleSetId};

/// The stored state of one game, tagged with its rule set.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "rules", content = "state")]
pub enum Game {
    #[serde(rename = "foundation-empire")]
    FoundationEmpire(StoredState),
    #[serde(rename = "godsfire")]
    Godsfire(gf::state::State),
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
    /// optionally fixed start positions (Foundation and Empire: power → systems, R7.2),
    /// and the game's seed (Godsfire rolls the region values its scenario leaves open).
    pub fn new(
        rules: RuleSetId,
        options: &toml::Table,
        start: Option<&BTreeMap<String, Vec<String>>>,
        seed: u64,
    ) -> Result<Game, String> {
        match rules {
            RuleSetId::FoundationEmpire => fe_new(options, start),
            RuleSetId::Godsfire => {
                if start.is_some() {
                    return Err("[game.start] is for Foundation and Empire only".into());
                }
                let options = gf::scenario::options_from_table(options)?;
                Ok(Game::Godsfire(gf::scenario::standard(seed, options)))
            }
        }
    }

    fn fe(&self) -> fe::position::State {
        match self {
            Game::FoundationEmpire(s) => s.to_state().expect("a stored game reads back"),
            Game::Godsfire(_) => unreachable!("fe() on a Godsfire game"),
        }
    }

    pub fn rules(&self) -> RuleSetId {
        match self {
            Game::FoundationEmpire(_) => RuleSetId::FoundationEmpire,
            Game::Godsfire(_) => RuleSetId::Godsfire,
        }
    }

    pub fn label(&self) -> PhaseLabel {
        match self {
            Game::FoundationEmpire(_) => FoundationEmpire::phase(&self.fe()),
            Game::Godsfire(s) => Godsfire::phase(s),
        }
    }

    /// The powers that owe orders in the current phase.
    pub fn owing(&self) -> Vec<String> {
        match self {
            Game::FoundationEmpire(_) => FoundationEmpire::owing(&self.fe()),
            Game::Godsfire(s) => Godsfire::owing(s),
        }
    }

    /// The powers of the game (those a player may hold).
    pub fn powers(&self) -> Vec<String> {
        match self {
            Game::FoundationEmpire(_) => {
                let state = self.fe();
                state
                    .powers_in_play()
                    .into_iter()
                    .filter(|&p| Some(p) != state.judge_power())
                    .map(|p| state.board.power(p).id.clone())
                    .collect()
            }
            Game::Godsfire(s) => s.powers.iter().map(|p| p.id.clone()).collect(),
        }
    }

    pub fn winners(&self) -> Vec<String> {
        match self {
            Game::FoundationEmpire(s) => s.winners.clone(),
            Game::Godsfire(s) => s.winners.clone(),
        }
    }

    pub fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        match self {
            Game::FoundationEmpire(_) => FoundationEmpire::check(&self.fe(), power, text),
            Game::Godsfire(s) => Godsfire::check(s, power, text),
        }
    }

    pub fn board_text(&self) -> String {
        match self {
            Game::FoundationEmpire(_) => fe::report::board_text(&self.fe()),
            Game::Godsfire(s) => gf::report::board_text(s),
        }
    }

    /// The position in the shape of `pbem adjudicate`'s output (Foundation and Empire:
    /// `fleets`, `systems`; Godsfire: `systems`, `powers`, `stacks`, `stakes` …).
    pub fn position_json(&self) -> serde_json::Value {
        let (mut v, keep): (_, &[&str]) = match self {
            Game::FoundationEmpire(_) => {
                let state = self.fe();
                let empty = fe::outcome::Report::default();
                (
                    fe::scenario::output_value(&state, &state, &empty),
                    &["fleets", "dislodged", "systems", "placements_due", "winner"],
                )
            }
            Game::Godsfire(s) => (
                gf::scenario::output_value(s, s, &gf::outcome::Log::default()),
                &[
                    "systems",
                    "powers",
                    "stacks",
                    "stakes",
                    "counters",
                    "transit",
                    "purchases",
                    "winner",
                ],
            ),
        };
        if let serde_json::Value::Object(map) = &mut v {
            map.retain(|k, _| keep.contains(&k.as_str()));
        }
        v
    }

    pub fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        match self {
            Game::FoundationEmpire(_) => {
                let before = self.fe();
                let (after, report) = FoundationEmpire::adjudicate(&before, orders, seed);
                Adjudicated {
                    json: fe::scenario::output_value(&before, &after, &report),
                    view: serde_json::to_value(fe::report::results_view(&after, &report))
                        .expect("view serialises"),
                    game: Game::FoundationEmpire(StoredState::from_state(&after, None)),
                }
            }
            Game::Godsfire(before) => {
                let (after, log) = Godsfire::adjudicate(before, orders, seed);
                Adjudicated {
                    json: gf::scenario::output_value(before, &after, &log),
                    view: serde_json::to_value(gf::report::results_view(&after, &log))
                        .expect("view serialises"),
                    game: Game::Godsfire(after),
                }
            }
        }
    }

    /// The order syntax of this game, for HELP.
    pub fn order_help(&self) -> &'static str {
        match self {
            Game::FoundationEmpire(_) => include_str!("foundation_empire/help.txt"),
            Game::Godsfire(_) => include_str!("godsfire/help.txt"),
        }
    }
}

fn fe_new(
    options: &toml::Table,
    start: Option<&BTreeMap<String, Vec<String>>>,
) -> Result<Game, String> {
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
                let text: Vec<String> = systems.iter().map(|s| format!("PLACE {s}")).collect();
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
