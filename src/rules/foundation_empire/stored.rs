//! The stored form of a [`State`]: names, not indices (sectors as `C4`, systems and
//! powers by name), so a stored game stays readable and survives a change of how the
//! program numbers things. The board is `None` for the standard board, or the text of
//! its board file.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::board::{Board, PowerId, Sector, SystemId};
use super::position::{Dislodged, Fleet, Options, PendingPlacement, Phase, State, SupportMode};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct StoredState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    pub options: StoredOptions,
    pub turn: u32,
    pub phase: String,
    pub owners: BTreeMap<String, String>,
    pub fleets: Vec<StoredFleet>,
    #[serde(default)]
    pub dislodged: Vec<StoredDislodged>,
    #[serde(default)]
    pub standoffs: Vec<String>,
    #[serde(default)]
    pub pending: Vec<StoredPending>,
    #[serde(default)]
    pub winners: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct StoredOptions {
    pub support: String,
    pub occupation_turns: u32,
    pub victory_systems: u32,
    pub turn_limit: Option<u32>,
    pub solo: bool,
    pub start_fleets: u32,
    pub solo_imperium_fleets: u32,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct StoredFleet {
    pub power: String,
    pub at: String,
    pub stay: u32,
    pub produced_by: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct StoredDislodged {
    pub fleet: StoredFleet,
    pub attacker_from: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct StoredPending {
    pub power: String,
    pub system: String,
}

impl StoredState {
    pub fn from_state(state: &State, board_text: Option<&str>) -> StoredState {
        let b = &state.board;
        let fleet = |f: &Fleet| StoredFleet {
            power: b.power(f.power).id.clone(),
            at: b.name(f.at),
            stay: f.stay,
            produced_by: f.produced_by.map(|s| b.system(s).name.clone()),
        };
        let o = &state.options;
        StoredState {
            board: board_text.map(str::to_string),
            options: StoredOptions {
                support: match o.support {
                    SupportMode::Pooled => "pooled".into(),
                    SupportMode::Targeted => "targeted".into(),
                },
                occupation_turns: o.occupation_turns,
                victory_systems: o.victory_systems,
                turn_limit: o.turn_limit,
                solo: o.solo,
                start_fleets: o.start_fleets,
                solo_imperium_fleets: o.solo_imperium_fleets,
            },
            turn: state.turn,
            phase: state.phase.id().into(),
            owners: b
                .systems()
                .filter_map(|(id, s)| {
                    let owner = state.owners[id.0 as usize]?;
                    Some((s.name.clone(), b.power(owner).id.clone()))
                })
                .collect(),
            fleets: state.fleets.iter().map(fleet).collect(),
            dislodged: state
                .dislodged
                .iter()
                .map(|d| StoredDislodged {
                    fleet: fleet(&d.fleet),
                    attacker_from: b.name(d.attacker_from),
                })
                .collect(),
            standoffs: state.standoffs.iter().map(|&s| b.name(s)).collect(),
            pending: state
                .pending
                .iter()
                .map(|p| StoredPending {
                    power: b.power(p.power).id.clone(),
                    system: b.system(p.system).name.clone(),
                })
                .collect(),
            winners: state
                .winners
                .iter()
                .map(|&p| b.power(p).id.clone())
                .collect(),
        }
    }

    /// The state again; an error names the first thing that does not fit the board.
    pub fn to_state(&self) -> Result<State, String> {
        let board = match &self.board {
            None => Board::standard(),
            Some(text) => Arc::new(Board::from_toml(text).map_err(|e| e.to_string())?),
        };
        let power = |id: &str| -> Result<PowerId, String> {
            board
                .power_by_id(id)
                .ok_or_else(|| format!("unknown power {id:?}"))
        };
        let sector = |s: &str| -> Result<Sector, String> {
            board
                .sector(s)
                .ok_or_else(|| format!("unknown sector {s:?}"))
        };
        let system = |s: &str| -> Result<SystemId, String> {
            board
                .system_by_name(s)
                .ok_or_else(|| format!("unknown system {s:?}"))
        };
        let fleet = |f: &StoredFleet| -> Result<Fleet, String> {
            Ok(Fleet {
                power: power(&f.power)?,
                at: sector(&f.at)?,
                stay: f.stay,
                produced_by: f.produced_by.as_deref().map(system).transpose()?,
            })
        };
        let o = &self.options;
        let options = Options {
            support: if o.support == "targeted" {
                SupportMode::Targeted
            } else {
                SupportMode::Pooled
            },
            occupation_turns: o.occupation_turns.max(1),
            victory_systems: o.victory_systems,
            turn_limit: o.turn_limit,
            solo: o.solo,
            start_fleets: o.start_fleets,
            solo_imperium_fleets: o.solo_imperium_fleets,
        };
        let mut state = State::new(board.clone(), options);
        state.turn = self.turn;
        state.phase =
            Phase::from_id(&self.phase).ok_or_else(|| format!("unknown phase {:?}", self.phase))?;
        for (name, owner) in &self.owners {
            state.owners[system(name)?.0 as usize] = Some(power(owner)?);
        }
        state.fleets = self.fleets.iter().map(fleet).collect::<Result<_, _>>()?;
        state.sort_fleets();
        for d in &self.dislodged {
            state.dislodged.push(Dislodged {
                fleet: fleet(&d.fleet)?,
                attacker_from: sector(&d.attacker_from)?,
            });
        }
        state.standoffs = self
            .standoffs
            .iter()
            .map(|s| sector(s))
            .collect::<Result<_, _>>()?;
        for p in &self.pending {
            state.pending.push(PendingPlacement {
                power: power(&p.power)?,
                system: system(&p.system)?,
            });
        }
        state.winners = self
            .winners
            .iter()
            .map(|p| power(p))
            .collect::<Result<_, _>>()?;
        Ok(state)
    }
}
