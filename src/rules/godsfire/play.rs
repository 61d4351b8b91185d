//! Godsfire as the judge drives it: the [`Play`] of a game and its entry in the
//! registry.

use std::collections::BTreeMap;
use std::path::Path;

use super::state::State;
use super::{outcome, report, scenario, Godsfire};
use crate::picture::Svg;
use crate::rules::game::{keep_keys, Adjudicated, Game, PhaseResults, Play, Viewer};
use crate::rules::{LineCheck, PhaseLabel, Registration, RuleSet, RuleSetId, ScenarioError};

pub static REGISTRATION: Registration = Registration {
    id: <Godsfire as RuleSet>::ID,
    name: "Godsfire",
    new_game,
    adjudicate_scenario,
};

fn adjudicate_scenario(text: &str, _dir: &Path) -> Result<String, ScenarioError> {
    let s = scenario::Scenario::from_toml(text).map_err(ScenarioError::Invalid)?;
    let (after, log) = super::adjudicate_with_dice(&s.state, &s.orders, s.seed, &s.dice);
    Ok(scenario::output_json(&s.state, &after, &log))
}

/// A new game of the standard scenario; the seed rolls the region values it leaves
/// open (G1.5).
fn new_game(
    options: &toml::Table,
    start: Option<&BTreeMap<String, Vec<String>>>,
    seed: u64,
) -> Result<Game, String> {
    if start.is_some() {
        return Err("[game.start] is not used by Godsfire".into());
    }
    let options = scenario::options_from_table(options)?;
    Ok(Game::Godsfire(scenario::standard(seed, options)))
}

const POSITION_KEYS: &[&str] = &[
    "systems",
    "powers",
    "stacks",
    "stakes",
    "counters",
    "transit",
    "purchases",
    "winner",
];

impl Play for State {
    fn rules(&self) -> RuleSetId {
        RuleSetId::Godsfire
    }

    /// None: the board lists each power's systems already.
    fn owned_label(&self) -> &'static str {
        ""
    }

    fn label(&self) -> PhaseLabel {
        Godsfire::phase(self)
    }

    fn owing(&self) -> Vec<String> {
        Godsfire::owing(self)
    }

    fn powers(&self) -> Vec<String> {
        self.powers.iter().map(|p| p.id.clone()).collect()
    }

    fn winners(&self) -> Vec<String> {
        self.winners.clone()
    }

    fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        Godsfire::check(self, power, text)
    }

    fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        let (after, log) = Godsfire::adjudicate(self, orders, seed);
        Adjudicated {
            results: PhaseResults {
                json: scenario::output_value(self, &after, &log),
                view: serde_json::to_value(report::results_view(&after, &log))
                    .expect("view serialises"),
            },
            game: Game::Godsfire(after),
        }
    }

    fn board_text(&self, _viewer: Viewer) -> String {
        report::board_text(self)
    }

    fn position_json(&self, _viewer: Viewer) -> serde_json::Value {
        keep_keys(
            scenario::output_value(self, self, &outcome::Log::default()),
            POSITION_KEYS,
        )
    }

    fn phase_asks(&self, _viewer: Viewer) -> Vec<String> {
        report::phase_asks(self)
    }

    fn standing(&self) -> Vec<String> {
        report::standing(self)
    }

    fn picture(&self, viewer: Viewer, results: Option<&PhaseResults>) -> Option<Svg> {
        self.draw_picture(viewer, results)
    }

    fn phases(&self) -> Vec<&'static str> {
        vec!["movement", "combat", "interphase", "defence"]
    }

    fn order_help(&self) -> &'static str {
        include_str!("help.txt")
    }

    fn example_orders(&self, power: &str) -> String {
        report::example_orders(self, power)
    }
}
