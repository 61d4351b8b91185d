//! Scenario files of Foundation and Empire: TOML in, JSON out
//! (`../shared/specs/scenario-format.md`, followed exactly; extra output fields are
//! `rules`, `turn`, `phase`, `next_turn`, `standoffs`, `captures`, `lost_placements`,
//! `eliminated`, and `default` on each result).
//!
//! Two input keys go beyond the spec: `board = "file.toml"` loads another board (R1.5;
//! the path is relative to the scenario file), and `[options] turn_limit`,
//! `start_fleets` and `solo_imperium_fleets` set the rule options of R9.3, R7.1, R10.1
//! (a solo game's `turn_limit` is 30 unless given, R10.4).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};

use super::board::{Board, PowerId, Sector, SystemId};
use super::movement::retreats;
use super::outcome::Report;
use super::position::{
    Dislodged, Fleet, Options, PendingPlacement, Phase, State, SupportMode, SOLO_TURN_LIMIT,
};
use super::turn::placement_sectors;
use super::Submissions;
use crate::rules::ScenarioError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    rules: String,
    phase: String,
    #[serde(default = "one")]
    turn: u32,
    #[serde(default)]
    seed: u64,
    board: Option<String>,
    #[serde(default)]
    options: OptionsFile,
    #[serde(default)]
    systems: BTreeMap<String, String>,
    #[serde(default)]
    fleet: Vec<FleetFile>,
    #[serde(default)]
    dislodged: Vec<DislodgedFile>,
    #[serde(default)]
    retreat: RetreatFile,
    #[serde(default)]
    pending_placement: Vec<PendingFile>,
    #[serde(default)]
    orders: BTreeMap<String, String>,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct OptionsFile {
    support: Option<String>,
    occupation_turns: Option<u32>,
    victory_systems: Option<u32>,
    turn_limit: Option<u32>,
    solo: Option<bool>,
    start_fleets: Option<u32>,
    solo_imperium_fleets: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FleetFile {
    power: String,
    at: String,
    #[serde(default = "one")]
    stay: u32,
    produced_by: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DislodgedFile {
    power: String,
    at: String,
    attacker_from: String,
    #[serde(default = "one")]
    stay: u32,
    produced_by: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RetreatFile {
    #[serde(default)]
    standoffs: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PendingFile {
    power: String,
    system: String,
}

/// A scenario read and checked: the state, the orders and the seed.
pub struct Scenario {
    pub state: State,
    pub orders: Submissions,
    pub seed: u64,
}

fn invalid(msg: impl Into<String>) -> ScenarioError {
    ScenarioError::Invalid(msg.into())
}

impl Scenario {
    /// Reads a scenario; `dir` is where a `board` file is looked for.
    pub fn from_toml(text: &str, dir: &Path) -> Result<Scenario, ScenarioError> {
        let file: ScenarioFile = toml::from_str(text)
            .map_err(|e| ScenarioError::Toml(crate::toml_text::one_line(&e, text)))?;
        let id = <super::FoundationEmpire as crate::rules::RuleSet>::ID;
        if file.rules != id {
            return Err(invalid(format!("rules {:?} is not {id:?}", file.rules)));
        }
        let board = match &file.board {
            None => Board::standard(),
            Some(path) => {
                let full = dir.join(path);
                let text = std::fs::read_to_string(&full).map_err(|e| {
                    invalid(format!("cannot read board file {}: {e}", full.display()))
                })?;
                Arc::new(
                    Board::from_toml(&text)
                        .map_err(|e| invalid(format!("board file {path}: {e}")))?,
                )
            }
        };
        let phase = Phase::from_id(&file.phase)
            .filter(|p| *p != Phase::Over)
            .ok_or_else(|| {
                invalid(format!(
                    "unknown phase {:?} (setup, movement, retreat or placement)",
                    file.phase
                ))
            })?;
        let options = options(&file.options)?;
        let solo = options.solo;
        let mut state = State::new(board.clone(), options);
        state.turn = file.turn;
        state.phase = phase;
        let power = |id: &str, what: &str| {
            board
                .power_by_id(id)
                .filter(|p| !solo || is_solo_power(&board, *p))
                .ok_or_else(|| invalid(format!("unknown power {id:?} in {what}")))
        };
        let sector = |s: &str, what: &str| {
            board
                .sector(s)
                .ok_or_else(|| invalid(format!("unknown sector {s:?} in {what}")))
        };
        let system = |s: &str, what: &str| {
            board
                .system_by_name(s)
                .or_else(|| board.sector(s).and_then(|at| board.system_at(at)))
                .ok_or_else(|| invalid(format!("unknown system {s:?} in {what}")))
        };
        if state.options.solo
            && (board.power_by_id("foundation").is_none()
                || board.power_by_id("imperium").is_none())
        {
            return Err(invalid(
                "solo play needs a board with the powers foundation and imperium",
            ));
        }
        for (name, owner) in &file.systems {
            let s = system(name, "[systems]")?;
            state.owners[s.0 as usize] = Some(power(owner, &format!("[systems] {name}"))?);
        }
        let mut seen = HashSet::new();
        for (k, f) in file.fleet.iter().enumerate() {
            let what = format!("fleet {} ({})", k + 1, f.at);
            let at = sector(&f.at, &what)?;
            if !seen.insert(at) {
                return Err(invalid(format!("two fleets in sector {}", board.name(at))));
            }
            state.fleets.push(Fleet {
                power: power(&f.power, &what)?,
                at,
                stay: f.stay,
                produced_by: f
                    .produced_by
                    .as_deref()
                    .map(|s| system(s, &what))
                    .transpose()?,
            });
        }
        if phase == Phase::Setup && !state.fleets.is_empty() {
            return Err(invalid("a setup phase starts with no fleets on the board"));
        }
        let mut seen_dislodged = HashSet::new();
        for (k, d) in file.dislodged.iter().enumerate() {
            let what = format!("dislodged {} ({})", k + 1, d.at);
            let at = sector(&d.at, &what)?;
            if !seen_dislodged.insert(at) {
                return Err(invalid(format!(
                    "two dislodged fleets in sector {}",
                    board.name(at)
                )));
            }
            let attacker_from = sector(&d.attacker_from, &what)?;
            state.dislodged.push(Dislodged {
                fleet: Fleet {
                    power: power(&d.power, &what)?,
                    at,
                    stay: d.stay,
                    produced_by: d
                        .produced_by
                        .as_deref()
                        .map(|s| system(s, &what))
                        .transpose()?,
                },
                attacker_from,
            });
        }
        for s in &file.retreat.standoffs {
            state.standoffs.push(sector(s, "[retreat] standoffs")?);
        }
        for (k, p) in file.pending_placement.iter().enumerate() {
            let what = format!("pending_placement {}", k + 1);
            state.pending.push(PendingPlacement {
                power: power(&p.power, &what)?,
                system: system(&p.system, &what)?,
            });
        }
        check_phase_fits(&state)?;
        state.sort_fleets();
        state.dislodged.sort_by_key(|d| d.fleet.at);
        state.standoffs.sort();
        state.standoffs.dedup();
        state.pending.sort();
        state.pending.dedup();
        let mut orders = Submissions::new();
        for (p, text) in &file.orders {
            orders.insert(power(p, "[orders]")?, text.clone());
        }
        Ok(Scenario {
            state,
            orders,
            seed: file.seed,
        })
    }
}

fn is_solo_power(board: &Board, p: PowerId) -> bool {
    let id = &board.power(p).id;
    id == "foundation" || id == "imperium"
}

/// Rule options from a table of `games.toml` (the keys of a scenario's `[options]`).
pub fn options_from_table(table: &toml::Table) -> Result<Options, String> {
    let file: OptionsFile = toml::Value::Table(table.clone())
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())?;
    options(&file).map_err(|e| e.to_string())
}

fn options(file: &OptionsFile) -> Result<Options, ScenarioError> {
    let d = Options::default();
    let support = match file.support.as_deref() {
        None | Some("pooled") => SupportMode::Pooled,
        Some("targeted") => SupportMode::Targeted,
        Some(other) => {
            return Err(invalid(format!(
                "unknown support mode {other:?} (pooled or targeted)"
            )))
        }
    };
    let solo = file.solo.unwrap_or(d.solo);
    let o = Options {
        support,
        occupation_turns: file.occupation_turns.unwrap_or(d.occupation_turns),
        victory_systems: file.victory_systems.unwrap_or(d.victory_systems),
        turn_limit: file.turn_limit.or(solo.then_some(SOLO_TURN_LIMIT)),
        solo,
        start_fleets: file.start_fleets.unwrap_or(d.start_fleets),
        solo_imperium_fleets: file.solo_imperium_fleets.unwrap_or(d.solo_imperium_fleets),
    };
    if o.occupation_turns == 0 {
        return Err(invalid("options.occupation_turns must be at least 1"));
    }
    // Zero would end a game before it began (won by owning nothing, or over after
    // turn 0), or leave the powers without fleets.
    if o.victory_systems == 0 {
        return Err(invalid("options.victory_systems must be at least 1"));
    }
    if o.turn_limit == Some(0) {
        return Err(invalid(
            "options.turn_limit must be at least 1 (leave it out for no limit)",
        ));
    }
    if o.start_fleets == 0 {
        return Err(invalid("options.start_fleets must be at least 1"));
    }
    Ok(o)
}

/// Entries that belong to one phase only, and the position they need.
fn check_phase_fits(state: &State) -> Result<(), ScenarioError> {
    let board = &state.board;
    if state.phase != Phase::Retreat && !(state.dislodged.is_empty() && state.standoffs.is_empty())
    {
        return Err(invalid(
            "[[dislodged]] and [retreat] belong to a retreat phase",
        ));
    }
    if state.phase != Phase::Placement && !state.pending.is_empty() {
        return Err(invalid(
            "[[pending_placement]] belongs to a placement phase",
        ));
    }
    for d in &state.dislodged {
        if !board.adjacent(d.fleet.at, d.attacker_from) {
            return Err(invalid(format!(
                "dislodged fleet in {}: attacker_from {} is not next to it",
                board.name(d.fleet.at),
                board.name(d.attacker_from)
            )));
        }
    }
    for p in &state.pending {
        if state.owners[p.system.0 as usize] != Some(p.power) {
            return Err(invalid(format!(
                "pending placement for {} at {}, which it does not own in [systems]",
                board.power(p.power).id,
                board.system(p.system).name
            )));
        }
    }
    Ok(())
}

/// The JSON printed by `pbem adjudicate`.
pub fn output_json(before: &State, after: &State, report: &Report) -> String {
    let mut text = serde_json::to_string_pretty(&output_value(before, after, report))
        .expect("output serialises");
    text.push('\n');
    text
}

/// The output of `pbem adjudicate` as a JSON value (the judge's `results.json`).
pub fn output_value(before: &State, after: &State, report: &Report) -> serde_json::Value {
    serde_json::to_value(Output::new(before, after, report)).expect("output serialises")
}

#[derive(Serialize)]
struct Output {
    rules: &'static str,
    turn: u32,
    phase: &'static str,
    results: Vec<ResultOut>,
    fleets: Vec<FleetOut>,
    dislodged: Vec<DislodgedOut>,
    destroyed: Vec<DestroyedOut>,
    systems: SystemsOut,
    placements_due: Vec<PlacementOut>,
    standoffs: Vec<String>,
    captures: Vec<CaptureOut>,
    lost_placements: Vec<LostOut>,
    eliminated: Vec<String>,
    next_phase: &'static str,
    next_turn: u32,
    winner: serde_json::Value,
    dice: Vec<RollOut>,
}

#[derive(Serialize)]
struct ResultOut {
    power: String,
    order: String,
    outcome: &'static str,
    detail: String,
    default: bool,
}

#[derive(Serialize)]
struct FleetOut {
    power: String,
    at: String,
    stay: u32,
    produced_by: Option<String>,
}

#[derive(Serialize)]
struct DislodgedOut {
    power: String,
    at: String,
    attacker_from: String,
    retreats: Vec<String>,
}

#[derive(Serialize)]
struct DestroyedOut {
    power: String,
    at: String,
    why: String,
}

#[derive(Serialize)]
struct PlacementOut {
    power: String,
    system: String,
    sectors: Vec<String>,
}

#[derive(Serialize)]
struct CaptureOut {
    system: String,
    power: String,
    from: Option<String>,
}

#[derive(Serialize)]
struct LostOut {
    power: String,
    system: String,
    why: String,
}

#[derive(Serialize)]
struct RollOut {
    group: u32,
    roll: u8,
    fleets: Vec<String>,
    action: String,
}

/// Owned systems in the board's (reading) order.
struct SystemsOut(Vec<(String, String)>);

impl Serialize for SystemsOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Output {
    fn new(before: &State, after: &State, report: &Report) -> Output {
        let board = &after.board;
        let pid = |p: PowerId| board.power(p).id.clone();
        let sec = |s: Sector| board.name(s);
        let sys = |s: SystemId| board.system(s).name.clone();
        let occupancy = after.occupancy();
        let winner = match after.winners.as_slice() {
            [] => serde_json::Value::Null,
            [one] => serde_json::Value::String(pid(*one)),
            many => many
                .iter()
                .map(|p| serde_json::Value::String(pid(*p)))
                .collect(),
        };
        Output {
            rules: <super::FoundationEmpire as crate::rules::RuleSet>::ID,
            turn: before.turn,
            phase: before.phase.id(),
            results: report
                .results
                .iter()
                .map(|r| ResultOut {
                    power: pid(r.power),
                    order: r.order_text(board),
                    outcome: r.outcome.id(),
                    detail: r.detail_text(board),
                    default: r.default,
                })
                .collect(),
            fleets: after
                .fleets
                .iter()
                .map(|f| FleetOut {
                    power: pid(f.power),
                    at: sec(f.at),
                    stay: f.stay,
                    produced_by: f.produced_by.map(sys),
                })
                .collect(),
            dislodged: after
                .dislodged
                .iter()
                .map(|d| DislodgedOut {
                    power: pid(d.fleet.power),
                    at: sec(d.fleet.at),
                    attacker_from: sec(d.attacker_from),
                    retreats: retreats(after, &occupancy, d)
                        .into_iter()
                        .map(sec)
                        .collect(),
                })
                .collect(),
            destroyed: report
                .destroyed
                .iter()
                .map(|d| DestroyedOut {
                    power: pid(d.power),
                    at: sec(d.at),
                    why: d.why.text(board),
                })
                .collect(),
            systems: SystemsOut(
                board
                    .systems()
                    .filter_map(|(id, s)| Some((s.name.clone(), pid(after.owners[id.0 as usize]?))))
                    .collect(),
            ),
            placements_due: after
                .pending
                .iter()
                .map(|p| PlacementOut {
                    power: pid(p.power),
                    system: sys(p.system),
                    sectors: placement_sectors(after, &occupancy, p.system)
                        .into_iter()
                        .map(sec)
                        .collect(),
                })
                .collect(),
            standoffs: after.standoffs.iter().map(|&s| sec(s)).collect(),
            captures: report
                .captures
                .iter()
                .map(|c| CaptureOut {
                    system: sys(c.system),
                    power: pid(c.power),
                    from: c.from.map(pid),
                })
                .collect(),
            lost_placements: report
                .lost_placements
                .iter()
                .map(|l| LostOut {
                    power: pid(l.power),
                    system: sys(l.system),
                    why: l.why.text(board, l.system),
                })
                .collect(),
            eliminated: report.eliminated.iter().map(|&p| pid(p)).collect(),
            next_phase: after.phase.id(),
            next_turn: after.turn,
            winner,
            dice: report
                .dice
                .iter()
                .map(|r| RollOut {
                    group: r.group,
                    roll: r.roll,
                    fleets: r.fleets.iter().map(|&s| sec(s)).collect(),
                    action: r.action.clone(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::options_from_table;

    fn read(text: &str) -> Result<super::Options, String> {
        options_from_table(&text.parse::<toml::Table>().unwrap())
    }

    #[test]
    fn options_that_would_end_a_game_before_it_began_are_refused() {
        for (text, word) in [
            ("victory_systems = 0", "victory_systems"),
            ("turn_limit = 0", "turn_limit"),
            ("start_fleets = 0", "start_fleets"),
            ("occupation_turns = 0", "occupation_turns"),
        ] {
            let e = read(text).expect_err(text);
            assert!(e.contains(word) && e.contains("at least 1"), "{text}: {e}");
        }
        let o = read("victory_systems = 1\nturn_limit = 1\nstart_fleets = 1").unwrap();
        assert_eq!(
            (o.victory_systems, o.turn_limit, o.start_fleets),
            (1, Some(1), 1)
        );
    }
}
