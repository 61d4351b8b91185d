//! Foundation (Hjelmberg) as the judge drives it: the [`Play`] of a game, with each
//! reader's view (H11.3), and its entry in the registry.

use std::collections::BTreeMap;
use std::path::Path;

use super::file::{self, OptionsFile};
use super::scenario;
use super::state::State;
use super::{output, report, setup, FoundationHjelmberg, ID};
use crate::picture::Svg;
use crate::rules::game::{keep_keys, Adjudicated, Game, PhaseResults, Play, Viewer};
use crate::rules::{LineCheck, PhaseLabel, Registration, RuleSet, RuleSetId, ScenarioError};

pub static REGISTRATION: Registration = Registration {
    id: ID,
    name: "Foundation (Hjelmberg)",
    new_game,
    adjudicate_scenario,
};

fn adjudicate_scenario(text: &str, dir: &Path) -> Result<String, ScenarioError> {
    let s = scenario::read(text, dir).map_err(ScenarioError::Invalid)?;
    let (after, log, error) = super::adjudicate_with(&s.state, &s.orders, s.seed, s.draws);
    if let Some(e) = error {
        return Err(ScenarioError::Invalid(e));
    }
    let json = output::output_value(&s.state, &after, &log);
    Ok(serde_json::to_string_pretty(&json).expect("JSON") + "\n")
}

/// The game options of `games.toml`: `seating` (the players' ids in seating order,
/// H3.1), `pace`, `round_limit`, `layout` ("random" or "standard", H3.2).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GameOptions {
    seating: Option<Vec<String>>,
    pace: Option<String>,
    round_limit: Option<i64>,
    layout: Option<String>,
}

/// A new game: the layout drawn from the seed (H3.2), the setup phase next.
fn new_game(
    options: &toml::Table,
    start: Option<&BTreeMap<String, Vec<String>>>,
    seed: u64,
) -> Result<Game, String> {
    if start.is_some() {
        return Err("[game.start] is not used by Foundation (Hjelmberg): START orders place the first ships".into());
    }
    let o: GameOptions = toml::Value::Table(options.clone())
        .try_into()
        .map_err(|e: toml::de::Error| e.message().trim().replace('\n', " "))?;
    let seating = o
        .seating
        .ok_or("seating: list the players' ids in seating order, e.g. seating = [\"red\", \"blue\", \"green\"]")?;
    let opts = scenario::options(&OptionsFile {
        pace: o.pace,
        round_limit: o.round_limit,
    })?;
    let standard = match o.layout.as_deref() {
        None | Some("random") => false,
        Some("standard") => true,
        Some(other) => return Err(format!("layout: {other:?} is not random or standard")),
    };
    // The seating is checked as a scenario's is.
    let file = file::ScenarioFile {
        rules: ID.into(),
        seating: seating.clone(),
        phase: Some("setup".into()),
        player: seating
            .iter()
            .map(|id| file::PlayerFile {
                id: id.clone(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    file.build(super::data::standard())?;
    Ok(Game::FoundationHjelmberg(setup::create(
        super::data::standard(),
        seating,
        opts,
        standard,
        seed,
    )))
}

const POSITION_KEYS: &[&str] = &[
    "players",
    "seating",
    "next",
    "round",
    "empire_kin",
    "empire",
    "planets",
    "stock",
    "colony_board",
    "piles",
    "goals",
    "revealed",
    "supply",
    "discard",
    "options",
    "winner",
];

impl Play for State {
    /// None: the board lists each player's colonies already.
    fn owned_label(&self) -> &'static str {
        ""
    }

    fn rules(&self) -> RuleSetId {
        RuleSetId::FoundationHjelmberg
    }

    fn label(&self) -> PhaseLabel {
        FoundationHjelmberg::phase(self)
    }

    fn owing(&self) -> Vec<String> {
        FoundationHjelmberg::owing(self)
    }

    fn powers(&self) -> Vec<String> {
        self.seating.clone()
    }

    fn winners(&self) -> Vec<String> {
        if self.core.winner == super::state::NONE {
            Vec::new()
        } else {
            vec![self.name(self.core.winner).to_string()]
        }
    }

    fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        FoundationHjelmberg::check(self, power, text)
    }

    fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        let (after, log) = FoundationHjelmberg::adjudicate(self, orders, seed);
        let json = output::output_value(self, &after, &log);
        Adjudicated {
            results: PhaseResults {
                view: report::view_of(&json),
                json,
            },
            game: Game::FoundationHjelmberg(after),
        }
    }

    fn board_text(&self, viewer: Viewer) -> String {
        report::board_text(self, viewer)
    }

    fn position_json(&self, viewer: Viewer) -> serde_json::Value {
        let whole = output::output_value(self, self, &super::outcome::Log::default());
        keep_keys(report::cut_json(&whole, viewer), POSITION_KEYS)
    }

    fn hidden_information(&self) -> bool {
        true
    }

    fn results_for(&self, results: &PhaseResults, viewer: Viewer) -> PhaseResults {
        if viewer == Viewer::Moderator {
            return results.clone();
        }
        let json = report::cut_json(&results.json, viewer);
        PhaseResults {
            view: report::view_of(&json),
            json,
        }
    }

    fn standing(&self) -> Vec<String> {
        report::standing(self)
    }

    fn picture(&self, viewer: Viewer, results: Option<&PhaseResults>) -> Option<Svg> {
        self.draw_picture(viewer, results)
    }

    fn phases(&self) -> Vec<&'static str> {
        vec!["setup", "play"]
    }

    fn order_help(&self) -> &'static str {
        include_str!("help.txt")
    }

    fn example_orders(&self, power: &str) -> String {
        report::example_orders(self, power)
    }
}
