//! Diplomacy as the judge drives it: the [`Play`] of a game and its entry in the
//! registry.

use std::collections::BTreeMap;
use std::path::Path;

use super::phase::Report;
use super::state::{Options, Phase, State};
use super::{report, scenario, Diplomacy};
use crate::picture::Svg;
use crate::rules::game::{keep_keys, Adjudicated, Game, PhaseResults, Play, Viewer};
use crate::rules::{LineCheck, PhaseLabel, Registration, RuleSet, RuleSetId, ScenarioError};

pub static REGISTRATION: Registration = Registration {
    id: <Diplomacy as RuleSet>::ID,
    name: "Diplomacy",
    new_game,
    adjudicate_scenario,
};

fn adjudicate_scenario(text: &str, _dir: &Path) -> Result<String, ScenarioError> {
    scenario::adjudicate_text(text).map_err(ScenarioError::Invalid)
}

/// A new game from the standard 1901 position.
fn new_game(
    options: &toml::Table,
    start: Option<&BTreeMap<String, Vec<String>>>,
    _seed: u64,
) -> Result<Game, String> {
    if start.is_some() {
        return Err("[game.start] is not used by Diplomacy: every game starts in 1901".into());
    }
    Ok(Game::Diplomacy(State::standard(Options::from_table(
        options,
    )?)))
}

const POSITION_KEYS: &[&str] = &[
    "units",
    "dislodged",
    "supply_centers",
    "centres",
    "next_phase",
    "over",
    "winner",
    "draw",
];

impl Play for State {
    /// Empty: the board lists each power's centres (and the neutral ones) already.
    fn owned_label(&self) -> &'static str {
        ""
    }

    fn rules(&self) -> RuleSetId {
        RuleSetId::Diplomacy
    }

    fn label(&self) -> PhaseLabel {
        Diplomacy::phase(self)
    }

    fn owing(&self) -> Vec<String> {
        Diplomacy::owing(self)
    }

    fn powers(&self) -> Vec<String> {
        self.map().powers.iter().map(|(id, _)| id.clone()).collect()
    }

    fn winners(&self) -> Vec<String> {
        self.winners
            .iter()
            .map(|&q| self.map().power_id(q).to_string())
            .collect()
    }

    fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        Diplomacy::check(self, power, text)
    }

    fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        let (after, mut log) = Diplomacy::adjudicate(self, orders, seed);
        // An order replaced by a later one for the same unit is the writer's business:
        // the results everyone reads leave it out.
        log.results.retain(|r| {
            !(r.outcome == super::phase::Outcome::Invalid && r.detail == super::phase::REPLACED)
        });
        Adjudicated {
            results: PhaseResults {
                json: scenario::output_value(self, &after, &log),
                view: serde_json::to_value(report::results_view(&after, &log))
                    .expect("view serialises"),
            },
            game: Game::Diplomacy(after),
        }
    }

    /// In winter: the builds or removals owed, how many the orders give, and what the
    /// deadline does with the rest. In a retreat phase: the dislodged units, how many
    /// the orders retreat or disband, and those the deadline disbands for want of one.
    fn receipt_notes(&self, power: &str, orders: &str) -> Vec<String> {
        match self.phase.step {
            super::state::Step::Retreat => super::retreat::receipt_notes(self, power, orders),
            _ => super::adjustments::receipt_notes(self, power, orders),
        }
    }

    fn board_text(&self, _viewer: Viewer) -> String {
        report::board_text(self)
    }

    fn position_json(&self, _viewer: Viewer) -> serde_json::Value {
        keep_keys(
            scenario::output_value(self, self, &Report::default()),
            POSITION_KEYS,
        )
    }

    fn standing(&self) -> Vec<String> {
        report::standing(self)
    }

    fn picture(&self, viewer: Viewer, results: Option<&PhaseResults>) -> Option<Svg> {
        self.draw_picture(viewer, results)
    }

    fn phases(&self) -> Vec<&'static str> {
        vec![
            "spring",
            "spring-retreats",
            "fall",
            "fall-retreats",
            "winter",
        ]
    }

    fn short_phases(&self) -> &'static [&'static str] {
        &["spring-retreats", "fall-retreats", "winter"]
    }

    fn has_dice(&self) -> bool {
        false
    }

    /// The turn is the year: "1901".
    fn turn_title(&self, turn: u32) -> String {
        turn.to_string()
    }

    /// "Spring 1901 movement", "Fall 1901 retreats", "Winter 1901 adjustments": the
    /// turn is the year.
    fn phase_title(&self, turn: u32, phase: &str) -> String {
        match u16::try_from(turn)
            .ok()
            .and_then(|year| Phase::from_id(year, phase))
        {
            Some(p) => p.words(),
            None => format!("{phase} {turn}"),
        }
    }

    fn order_help(&self) -> &'static str {
        include_str!("help.txt")
    }

    fn example_orders(&self, power: &str) -> String {
        report::example_orders(self, power)
    }
}
