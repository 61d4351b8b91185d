//! A game of any rule set, as the judge stores and drives it.
//!
//! [`Play`] is what the judge may ask of a game, whatever its rules: who owes orders,
//! how a submission reads, the adjudication, and what a given [`Viewer`] may see of the
//! position and of a phase's results. Each rule set implements it in its own folder
//! (`play.rs`); [`Game`] is the closed, stored enum of them and hands every call to
//! [`Game::play`]. The judge never looks inside a game's state.
//!
//! Per-power views are built here once for every game: a mail to a player, a BOARD
//! reply, HISTORY and `results.json` all go through [`Play::results_for`],
//! [`Play::board_text`] and [`Play::position_json`] with that player's viewer. Games
//! with nothing hidden keep the defaults (everybody sees everything).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battles_galactic_empire as bfge;
use super::foundation_empire::stored::StoredState;
use super::foundation_hjelmberg as fh;
use super::godsfire as gf;
use super::war_imperialism as war;
use super::{LineCheck, PhaseLabel, RuleSetId};

/// Who looks at a game: what a mail, a BOARD reply or `results.json` may show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer<'a> {
    /// A moderator, the store, `pbem adjudicate` and `game show`: everything.
    Moderator,
    /// The player of one power (by id): what that power may know.
    Power(&'a str),
    /// Anyone else (an observer): what every power may know.
    Public,
}

/// The results of one phase: the JSON of `pbem adjudicate` (the mail's
/// `results.json`) and the view model of the mail templates (`results`, `events`,
/// `systems`, …). Stored whole, as a moderator sees it; cut per viewer on the way out.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseResults {
    pub json: serde_json::Value,
    pub view: serde_json::Value,
}

/// What one adjudication gives the judge.
#[derive(Debug, Clone)]
pub struct Adjudicated {
    pub game: Game,
    pub results: PhaseResults,
}

/// A game's rules as the judge drives them, on the game's current state. Every method
/// is pure (no I/O, no clock, no global randomness).
pub trait Play {
    fn rules(&self) -> RuleSetId;
    fn label(&self) -> PhaseLabel;
    /// The powers that owe orders in the current phase (may be none: the judge then
    /// adjudicates at once).
    fn owing(&self) -> Vec<String>;
    /// The powers of the game that a player may hold.
    fn powers(&self) -> Vec<String>;
    /// The powers the judge itself plays (a solo game's opponent): in no player's hands.
    fn judge_powers(&self) -> Vec<String> {
        Vec::new()
    }
    fn winners(&self) -> Vec<String>;
    /// One power's submission read against the position, line by line.
    fn check(&self, power: &str, text: &str) -> Vec<LineCheck>;
    /// Adjudicates the current phase: orders by power, as written; missing powers get
    /// the rules' defaults. The results are whole (a moderator's view).
    fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated;
    /// The board as text, as `viewer` may see it.
    fn board_text(&self, viewer: Viewer) -> String;
    /// The position in the shape of `pbem adjudicate`'s output, as `viewer` may see it.
    fn position_json(&self, viewer: Viewer) -> serde_json::Value;
    /// Whether any viewer sees less than a moderator. When false, one rendering of a
    /// mail serves everyone.
    fn hidden_information(&self) -> bool {
        false
    }
    /// What results mails and BOARD replies call the list of owned places (the view's
    /// `systems`); empty when the board already lists them under each power, so the
    /// mails leave the list out.
    fn owned_label(&self) -> &'static str {
        "Systems owned"
    }
    /// The owned places as BOARD replies list them under [`Play::owned_label`]:
    /// (place, owner), as `viewer` may see them. By default the `systems` of
    /// [`Play::position_json`] (owners by id); a game whose results mails name the
    /// owners otherwise gives the same here, so both mails read alike.
    fn systems_owned(&self, viewer: Viewer) -> Vec<(String, String)> {
        self.position_json(viewer)["systems"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                    .collect()
            })
            .unwrap_or_default()
    }
    /// What the current phase asks of the players, as `viewer` may see it, one line
    /// each (the fleets that must retreat and where they may go, the new fleets to
    /// place, …): BOARD replies show it under the board, as results mails show it
    /// among their events when the phase begins. Empty by default.
    fn phase_asks(&self, _viewer: Viewer) -> Vec<String> {
        Vec::new()
    }
    /// What a receipt says under the orders standing for `power` (`orders`: its whole
    /// submission as kept, empty when it sent none), one line each: how far those
    /// orders go towards what the phase asks of it, and what the deadline's defaults do
    /// with the rest (Diplomacy's winter: the builds or removals owed, how many the
    /// orders give, the builds waived or units removed by civil disorder without more).
    /// Asked only of a power owing orders now. Empty by default.
    fn receipt_notes(&self, _power: &str, _orders: &str) -> Vec<String> {
        Vec::new()
    }
    /// What `viewer` may see of a phase's results (stored whole). Games with hidden
    /// information cut both the JSON and the view from one per-power view, so the text
    /// and `results.json` cannot disagree.
    fn results_for(&self, results: &PhaseResults, _viewer: Viewer) -> PhaseResults {
        results.clone()
    }
    /// Lines that sum up the race after a phase (a solo game's systems count, …); shown
    /// in results mails and, as the final standing, in the game-over mail.
    fn standing(&self) -> Vec<String> {
        Vec::new()
    }
    /// The standing as results and welcome mails show it, under the board: by default
    /// [`Play::standing`]. A game whose board already tells all of it while the game
    /// goes on leaves out what would be said twice.
    fn standing_under_board(&self) -> Vec<String> {
        self.standing()
    }
    /// The board as a picture, as `viewer` may see it (see [`crate::picture`]); with
    /// `results` (already cut for `viewer`), the phase just adjudicated drawn on it:
    /// moves as arrows and the like. Results mails and BOARD replies carry it as
    /// `board.png`, shown inline by their HTML version. `None` (the default): this game
    /// draws no picture, and its mails stay as they were.
    fn picture(
        &self,
        _viewer: Viewer,
        _results: Option<&PhaseResults>,
    ) -> Option<crate::picture::Svg> {
        None
    }
    /// The ids of the game's phases, in the order a turn plays them (for the welcome
    /// mail's list of phase lengths). Empty: only the current phase is listed.
    fn phases(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// The phases that last 24 h, not 48 h, when games.toml gives them no length: the
    /// short ones, where few players owe orders or the choices are few.
    fn short_phases(&self) -> &'static [&'static str] {
        &["retreat", "placement"]
    }
    /// Whether the game rolls dice or draws at random (the welcome mail speaks of the
    /// dice only then).
    fn has_dice(&self) -> bool {
        true
    }
    /// How mails name a phase of this game, mid-sentence: `turn 3, movement phase`
    /// (the default, from the turn and the phase id), or the game's own words
    /// (Diplomacy: `Spring 1901 movement`). Any turn and phase of the game, not only
    /// the current one: results and history name past phases by it too.
    fn phase_title(&self, turn: u32, phase: &str) -> String {
        format!(
            "turn {turn}, {}",
            crate::report::phase_name(phase.to_string())
        )
    }
    /// How mails name a turn of this game, mid-sentence: `turn 3` (the default), or
    /// the game's own words (Diplomacy: the year, `1901`).
    fn turn_title(&self, turn: u32) -> String {
        format!("turn {turn}")
    }
    /// The order syntax of this game, for HELP.
    fn order_help(&self) -> &'static str;
    /// An example of an orders mail body for `power` in the current phase (welcome
    /// mails, HELP).
    fn example_orders(&self, power: &str) -> String;
}

/// The stored state of one game, tagged with its rule set.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "rules", content = "state")]
pub enum Game {
    #[serde(rename = "foundation-empire")]
    FoundationEmpire(StoredState),
    #[serde(rename = "godsfire")]
    Godsfire(gf::state::State),
    #[serde(rename = "diplomacy")]
    Diplomacy(super::diplomacy::state::State),
    #[serde(rename = "battles-galactic-empire")]
    BattlesGalacticEmpire(bfge::state::State),
    #[serde(rename = "war-imperialism")]
    WarImperialism(war::state::State),
    #[serde(rename = "foundation-hjelmberg")]
    FoundationHjelmberg(fh::state::State),
}

impl Game {
    /// A new game from its configuration: rule options as in a scenario's `[options]`,
    /// optionally fixed start positions (power → places), and the game's seed.
    pub fn new(
        rules: RuleSetId,
        options: &toml::Table,
        start: Option<&BTreeMap<String, Vec<String>>>,
        seed: u64,
    ) -> Result<Game, String> {
        (rules.registration().new_game)(options, start, seed)
    }

    /// The game's rules, on its state.
    pub fn play(&self) -> &dyn Play {
        match self {
            Game::FoundationEmpire(s) => s,
            Game::Godsfire(s) => s,
            Game::Diplomacy(s) => s,
            Game::BattlesGalacticEmpire(s) => s,
            Game::WarImperialism(s) => s,
            Game::FoundationHjelmberg(s) => s,
        }
    }

    pub fn rules(&self) -> RuleSetId {
        self.play().rules()
    }

    pub fn label(&self) -> PhaseLabel {
        self.play().label()
    }

    pub fn owing(&self) -> Vec<String> {
        self.play().owing()
    }

    pub fn powers(&self) -> Vec<String> {
        self.play().powers()
    }

    pub fn winners(&self) -> Vec<String> {
        self.play().winners()
    }

    pub fn check(&self, power: &str, text: &str) -> Vec<LineCheck> {
        self.play().check(power, text)
    }

    /// Adjudicates the phase; its large blocks, if any (a phase of many thousands of
    /// fleets), on huge pages ([`crate::memory`]).
    pub fn adjudicate(&self, orders: &BTreeMap<String, String>, seed: u64) -> Adjudicated {
        crate::memory::large_pages(|| self.play().adjudicate(orders, seed))
    }

    /// The board as text, as a moderator sees it.
    pub fn board_text(&self) -> String {
        self.play().board_text(Viewer::Moderator)
    }

    /// The position as JSON, as a moderator sees it.
    pub fn position_json(&self) -> serde_json::Value {
        self.play().position_json(Viewer::Moderator)
    }

    pub fn order_help(&self) -> &'static str {
        self.play().order_help()
    }
}

/// Keeps only the named keys of a JSON object (the position part of an output).
pub fn keep_keys(mut v: serde_json::Value, keep: &[&str]) -> serde_json::Value {
    if let serde_json::Value::Object(map) = &mut v {
        map.retain(|k, _| keep.contains(&k.as_str()));
    }
    v
}
