//! Foundation and Empire as the judge drives it: the [`Play`] of a stored game and its
//! entry in the registry.

use std::collections::BTreeMap;
use std::path::Path;

use super::stored::StoredState;
use super::{board, outcome, position, report, scenario, FoundationEmpire};
use crate::picture::Svg;
use crate::rules::game::{keep_keys, Adjudicated, Game, PhaseResults, Play, Viewer};
use crate::rules::{LineCheck, PhaseLabel, Registration, RuleSet, RuleSetId, ScenarioError};

pub static REGISTRATION: Registration = Registration {
    id: <FoundationEmpire as RuleSet>::ID,
    name: "Foundation and Empire",
    new_game,
    adjudicate_scenario,
};

fn adjudicate_scenario(text: &str, dir: &Path) -> Result<String, ScenarioError> {
    let s = scenario::Scenario::from_toml(text, dir)?;
    let (after, report) = super::adjudicate(&s.state, &s.orders, s.seed);
    Ok(scenario::output_json(&s.state, &after, &report))
}

/// A new game; with `start`, the setup phase is played from those positions (R7.2).
fn new_game(
    options: &toml::Table,
    start: Option<&BTreeMap<String, Vec<String>>>,
    _seed: u64,
) -> Result<Game, String> {
    let options = scenario::options_from_table(options)?;
    let mut state = position::State::new(board::Board::standard(), options);
    state.give_the_imperium_its_quadrants();
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
        let (next, report) = super::adjudicate(&state, &lines, 0);
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

impl StoredState {
    fn state(&self) -> position::State {
        self.to_state().expect("a stored game reads back")
    }
}

const POSITION_KEYS: &[&str] = &["fleets", "dislodged", "systems", "placements_due", "winner"];

impl Play for StoredState {
    fn rules(&self) -> RuleSetId {
        RuleSetId::FoundationEmpire
    }

    fn label(&self) -> PhaseLabel {
        FoundationEmpire::phase(&self.state())
    }

    fn owing(&self) -> Vec<String> {
        FoundationEmpire::owing(&self.state())
    }

    fn powers(&self) -> Vec<String> {
        let state = self.state();
        state
            .powers_in_play()
            .into_iter()
            .filter(|&p| Some(p) != state.judge_power())
            .map(|p| state.board.power(p).id.clone())
            .collect()
    }

    fn judge_powers(&self) -> Vec<String> {
        let state = self.state();
        state
            .judge_power()
            .map(|p| state.board.power(p).id.clone())
            .into_iter()
            .collect()
    }

    fn winners(&self) -> Vec<String> {
        self.winners.clone()
    }

    /// Only the solo game rolls dice (the judge's Imperium, R10); four players roll none.
    fn has_dice(&self) -> bool {
        self.state().judge_power().is_some()
    }

    fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        FoundationEmpire::check(&self.state(), power, text)
    }

    fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        let before = self.state();
        let (after, mut report) = FoundationEmpire::adjudicate(&before, orders, seed);
        // An order replaced by a later one for the same fleet (R3.1) is the writer's
        // business: their receipt says so; the results everyone reads leave it out.
        report.results.retain(|r| {
            !matches!(&r.detail, outcome::Detail::Invalid(why) if **why == outcome::Invalid::Replaced)
        });
        Adjudicated {
            results: PhaseResults {
                json: scenario::output_value(&before, &after, &report),
                view: serde_json::to_value(report::results_view(&after, &report))
                    .expect("view serialises"),
            },
            game: Game::FoundationEmpire(StoredState::from_state(&after, None)),
        }
    }

    /// In a placement phase: the new fleets due, how many the orders place, and where
    /// the deadline places the others (R8.4).
    fn receipt_notes(&self, power: &str, orders: &str) -> Vec<String> {
        let state = self.state();
        match state.board.power_by_id(power) {
            Some(p) => super::placement::receipt_notes(&state, p, orders),
            None => Vec::new(),
        }
    }

    fn board_text(&self, _viewer: Viewer) -> String {
        report::board_text(&self.state())
    }

    fn position_json(&self, _viewer: Viewer) -> serde_json::Value {
        let state = self.state();
        let empty = outcome::Report::default();
        keep_keys(
            scenario::output_value(&state, &state, &empty),
            POSITION_KEYS,
        )
    }

    fn systems_owned(&self, _viewer: Viewer) -> Vec<(String, String)> {
        report::systems_owned(&self.state())
    }

    fn phase_asks(&self, _viewer: Viewer) -> Vec<String> {
        report::phase_asks(&self.state())
    }

    fn standing(&self) -> Vec<String> {
        report::standing(&self.state())
    }

    fn picture(&self, viewer: Viewer, results: Option<&PhaseResults>) -> Option<Svg> {
        self.draw_picture(viewer, results)
    }

    fn phases(&self) -> Vec<&'static str> {
        vec!["setup", "movement", "retreat", "placement"]
    }

    fn order_help(&self) -> &'static str {
        include_str!("help.txt")
    }

    fn example_orders(&self, power: &str) -> String {
        report::example_orders(&self.state(), power)
    }
}
