//! War! Age of Imperialism as the judge drives it: the [`Play`] of a game and its
//! entry in the registry. Everything is public (W10.3) except the order of the pools,
//! which only a moderator sees.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::state::{Phase, State};
use super::{output, report, scenario, WarImperialism};
use crate::picture::Svg;
use crate::rules::game::{Adjudicated, Game, PhaseResults, Play, Viewer};
use crate::rules::{LineCheck, PhaseLabel, Registration, RuleSet, RuleSetId, ScenarioError};

pub static REGISTRATION: Registration = Registration {
    id: <WarImperialism as RuleSet>::ID,
    name: "War! Age of Imperialism",
    new_game,
    adjudicate_scenario,
};

fn adjudicate_scenario(text: &str, dir: &Path) -> Result<String, ScenarioError> {
    let s = scenario::Scenario::from_toml(text, dir).map_err(ScenarioError::Invalid)?;
    let (after, log) = super::adjudicate_with_dice(&s.state, &s.orders, s.seed, &s.dice);
    Ok(output::output_json(&s.state, &after, &log))
}

/// A new game on the standard map: `[game.options]` lists the `players` (3 to 6 ids)
/// and may set `last_turn`, `regions_each`, `start_pp`, `start_dp`.
fn new_game(
    options: &toml::Table,
    start: Option<&BTreeMap<String, Vec<String>>>,
    seed: u64,
) -> Result<Game, String> {
    if start.is_some() {
        return Err("[game.start] is not used by War! (regions are drafted, W3.1)".into());
    }
    let (ids, options) = scenario::game_options(options)?;
    Ok(Game::WarImperialism(scenario::new_game_state(
        ids, options, seed,
    )))
}

/// The pools' order hidden from players (W10.3): only their sizes are shown.
fn hide_pools(mut v: Value) -> Value {
    if let Some(pool) = v.get_mut("pool") {
        let count = |k: &str| {
            pool.get(k)
                .and_then(|x| x.as_array())
                .map_or(0, |a| a.len())
        };
        let (native, chits) = (count("native"), count("chits"));
        *pool = serde_json::json!({"native": native, "chits": chits, "hidden": true});
    }
    v
}

impl Play for State {
    /// None: the board lists each player's regions already.
    fn owned_label(&self) -> &'static str {
        ""
    }

    fn rules(&self) -> RuleSetId {
        RuleSetId::WarImperialism
    }

    fn label(&self) -> PhaseLabel {
        WarImperialism::phase(self)
    }

    fn owing(&self) -> Vec<String> {
        WarImperialism::owing(self)
    }

    fn powers(&self) -> Vec<String> {
        self.players.iter().map(|p| p.id.clone()).collect()
    }

    fn winners(&self) -> Vec<String> {
        self.winners.clone()
    }

    fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        WarImperialism::check(self, power, text)
    }

    /// In a production phase: what the power holds now, and what comes before its orders
    /// spend anything. Nothing more: what the orders may spend depends on other players'
    /// secret orders (GIVE, PEACE, whose trade paths it opens) and on the maintenance
    /// the income covers, known only at the deadline.
    fn receipt_notes(&self, power: &str, _orders: &str) -> Vec<String> {
        if self.phase != Phase::Production {
            return Vec::new();
        }
        let Some(p) = self.player_index(power) else {
            return Vec::new();
        };
        let held = &self.players[p];
        vec![format!(
            "You hold {} PP and {} DP now. At the deadline this phase's income comes first, then maintenance (1 PP a unit and fleet; W4.2, W4.3); gifts and DP bought (W4.4), native diplomacy (W4.5) and construction (W4.7) then spend what is left, in that order.",
            held.pp, held.dp
        )]
    }

    fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        let (after, log) = WarImperialism::adjudicate(self, orders, seed);
        Adjudicated {
            results: PhaseResults {
                json: output::output_value(self, &after, &log),
                view: serde_json::to_value(report::results_view(&after, &log))
                    .expect("view serialises"),
            },
            game: Game::WarImperialism(after),
        }
    }

    fn board_text(&self, _viewer: Viewer) -> String {
        report::board_text(self)
    }

    fn position_json(&self, viewer: Viewer) -> Value {
        let v = Value::Object(output::position(self));
        match viewer {
            Viewer::Moderator => v,
            _ => hide_pools(v),
        }
    }

    fn hidden_information(&self) -> bool {
        true
    }

    fn results_for(&self, results: &PhaseResults, viewer: Viewer) -> PhaseResults {
        match viewer {
            Viewer::Moderator => results.clone(),
            _ => PhaseResults {
                json: hide_pools(results.json.clone()),
                view: results.view.clone(),
            },
        }
    }

    fn standing(&self) -> Vec<String> {
        report::standing(self)
    }

    fn picture(&self, viewer: Viewer, results: Option<&PhaseResults>) -> Option<Svg> {
        self.draw_picture(viewer, results)
    }

    fn phases(&self) -> Vec<&'static str> {
        vec!["draft", "setup", "production", "movement-1", "movement-2"]
    }

    fn order_help(&self) -> &'static str {
        include_str!("help.txt")
    }

    fn example_orders(&self, power: &str) -> String {
        report::example_orders(self, power)
    }
}
