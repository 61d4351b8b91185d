//! Battles for the Galactic Empire as the judge drives it: the [`Play`] of a game,
//! with a view per power (B13.3), and its entry in the registry.

use std::collections::BTreeMap;
use std::path::Path;

use super::outcome::Log;
use super::state::{Phase, State};
use super::types::{region_name, total, Kind, Power};
use super::{check, scenario, setup, view, Bfge};
use crate::picture::Svg;
use crate::rules::game::{keep_keys, Adjudicated, Game, PhaseResults, Play, Viewer};
use crate::rules::{LineCheck, PhaseLabel, Registration, RuleSet, RuleSetId, ScenarioError};

pub static REGISTRATION: Registration = Registration {
    id: <Bfge as RuleSet>::ID,
    name: "Battles for the Galactic Empire",
    new_game,
    adjudicate_scenario,
};

fn adjudicate_scenario(text: &str, _dir: &Path) -> Result<String, ScenarioError> {
    let s = scenario::Scenario::from_toml(text).map_err(ScenarioError::Invalid)?;
    let (after, log) = super::adjudicate_with(&s.state, &s.orders, s.rng());
    Ok(scenario::output_json(&s.state, &after, &log))
}

/// A new game: options as in a scenario's `[options]`; the seed deals the value chits
/// (B1.3) and rolls every die after.
fn new_game(
    options: &toml::Table,
    start: Option<&BTreeMap<String, Vec<String>>>,
    seed: u64,
) -> Result<Game, String> {
    if start.is_some() {
        return Err("[game.start] is not used by Battles for the Galactic Empire".into());
    }
    let options = scenario::options_from_table(options)?;
    Ok(Game::BattlesGalacticEmpire(setup::new_game(options, seed)))
}

const POSITION_KEYS: &[&str] = &[
    "options", "chaos", "regions", "fleets", "powers", "common", "winner",
];

impl Play for State {
    /// The board's `control` column and the standing's "Regions held" say who holds
    /// what: no third list.
    fn owned_label(&self) -> &'static str {
        ""
    }

    fn rules(&self) -> RuleSetId {
        RuleSetId::BattlesGalacticEmpire
    }

    fn label(&self) -> PhaseLabel {
        Bfge::phase(self)
    }

    fn owing(&self) -> Vec<String> {
        Bfge::owing(self)
    }

    fn powers(&self) -> Vec<String> {
        Power::BOTH.iter().map(|p| p.id().to_string()).collect()
    }

    fn winners(&self) -> Vec<String> {
        self.winner.iter().map(|p| p.id().to_string()).collect()
    }

    fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        Bfge::check(self, power, text)
    }

    fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        let (after, log) = super::adjudicate(self, orders, seed);
        let json = scenario::output_value(self, &after, &log);
        Adjudicated {
            results: PhaseResults {
                view: view::results_view(&json),
                json,
            },
            game: Game::BattlesGalacticEmpire(after),
        }
    }

    fn board_text(&self, viewer: Viewer) -> String {
        view::board_text(&self.position_json(viewer), self.turn, self.phase.id())
    }

    fn position_json(&self, viewer: Viewer) -> serde_json::Value {
        let whole = keep_keys(
            scenario::output_value(self, self, &Log::default()),
            POSITION_KEYS,
        );
        view::cut(&whole, viewer)
    }

    fn hidden_information(&self) -> bool {
        true
    }

    fn results_for(&self, results: &PhaseResults, viewer: Viewer) -> PhaseResults {
        if viewer == Viewer::Moderator {
            return results.clone();
        }
        let json = view::cut(&results.json, viewer);
        PhaseResults {
            view: view::results_view(&json),
            json,
        }
    }

    fn standing(&self) -> Vec<String> {
        view::standing(self)
    }

    /// The board tells the Chaos Index and who holds each region (its `control`
    /// column): under it, the standing is said only when the game is won (why, B9.2).
    fn standing_under_board(&self) -> Vec<String> {
        if self.phase == super::state::Phase::Over {
            view::standing(self)
        } else {
            Vec::new()
        }
    }

    fn picture(&self, viewer: Viewer, results: Option<&PhaseResults>) -> Option<Svg> {
        self.draw_picture(viewer, results)
    }

    fn phases(&self) -> Vec<&'static str> {
        vec!["setup", "deployment", "actions", "build"]
    }

    fn order_help(&self) -> &'static str {
        include_str!("help.txt")
    }

    fn example_orders(&self, power: &str) -> String {
        example_orders(self, power)
    }
}

/// An example orders mail body for a power in the current phase.
pub fn example_orders(s: &State, power: &str) -> String {
    let Some(p) = Power::from_id(power) else {
        return String::new();
    };
    match s.phase {
        Phase::Setup if s.options.defender() == Some(p) => {
            let r = &s.regions[0];
            format!(
                "# Tau holds value {} at most (Combat + Resource)\nPLACE Tau 1SF\n",
                r.combat + r.resource
            )
        }
        Phase::Setup => "BUILD 4SF 3CG 2AF 1IO 1WS\n".into(),
        Phase::Deployment => {
            let base = s.side(p).base;
            let mut lines = String::new();
            for (k, kind) in Kind::ALL.iter().enumerate() {
                if base[kind.index()] > 0 && *kind != Kind::TH {
                    lines += &format!(
                        "DEPLOY {} {}{}\n",
                        region_name((k % 6) as u8),
                        base[kind.index()],
                        kind.name()
                    );
                }
            }
            if lines.is_empty() {
                lines = "# nothing on your display to deploy\n".into();
            }
            lines
        }
        Phase::Actions => "RESOLVE Tau\nPLAY BUILD\nRESOLVE Omega\nDISENGAGE ALL WEAKER\nTARGET ALL MORPH CG\nGARRISON ALL MIN\n".into(),
        Phase::Build => {
            let mut lines = String::from("BUILD 2SF 1CG\n");
            if total(&s.side(p).hand) > 0 {
                lines += "# DISCARD <chit> sets a chit aside before the draw\n";
            }
            lines
        }
        Phase::Over => String::new(),
    }
}

/// The powers that owe orders now, by id (for tests and tools).
pub fn owing_ids(s: &State) -> Vec<&'static str> {
    check::owing(s).into_iter().map(Power::id).collect()
}
