//! Reading order lines, second stage (B12.2): an order read by [`super::syntax`] is
//! checked against the phase and, for the lines that are invalid as a whole
//! (over-deployment B6.1, over-placement B3.3), against the position. What is allowed
//! but impossible when its turn comes is `failed`, decided later.

use std::collections::BTreeMap;

use super::outcome::{LineResult, Log, Outcome};
use super::state::{Phase, Scenario, State};
use super::syntax::{order_text, parse, GarrisonRule, Order, SyntaxError};
use super::types::{fleet_value, region_name, total, Chit, Fleets, Kind, Power};

/// Why a line is invalid (B12.2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    #[error("{0}")]
    Syntax(#[from] SyntaxError),
    #[error("{what} is an order of the {phase} phase, not of this {now} phase")]
    OtherPhase {
        what: &'static str,
        phase: &'static str,
        now: &'static str,
    },
    #[error("{0} owes no orders in this phase")]
    NothingOwed(Power),
    #[error("the Invasion's defender places his fleets (PLACE), he does not build")]
    DefenderBuilds,
    #[error("only the Invasion's defender places fleets; others BUILD")]
    NotDefender,
    #[error("REPRESSION is never played: write REPRESS <chit> or REPRESS ANY (B7.4)")]
    PlayRepression,
    #[error("a REPRESSION is never cancelled (B7.4)")]
    RepressRepression,
    #[error("a WS takes no Tactical chit (B2)")]
    TacticalWs,
    #[error("TH are never built (B10.2)")]
    BuildTh,
    #[error("only AF and IO move with a MOVE chit, not {0}")]
    MoveType(&'static str),
    #[error("a MOVE goes from one region to another")]
    MoveSameRegion,
    #[error("a garrison list is only for a named region (B8.9)")]
    GarrisonListForAll,
    #[error("only TH deploy in the Action phase: DEPLOY TH <region> [<n>]")]
    DeployNotTh,
    #[error("names {named} {kind} but {left} left on the display (B6.1)")]
    OverDeployment {
        named: u32,
        kind: &'static str,
        left: u32,
    },
    #[error("no TH left on the display")]
    NoThOnDisplay,
    #[error("names {named} {kind} but {left} left in the force pool (B3.3)")]
    OverPool {
        named: u32,
        kind: &'static str,
        left: u32,
    },
    #[error("would place value {value} in {region}, above its Combat + Resource {limit} (B3.3)")]
    OverPlacement {
        value: u32,
        region: &'static str,
        limit: u32,
    },
}

/// The order lines of a submission: blank lines, `#` comments and quoted reply lines
/// (`>`) are left out (B12.1).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|raw| {
        let line = raw.split('#').next().unwrap_or("").trim();
        (!line.is_empty() && !raw.trim_start().starts_with('>')).then_some(line)
    })
}

/// The powers that owe orders now (B4): both in setup, actions and build; in
/// deployment, each with a fleet on its display.
pub fn owing(state: &State) -> Vec<Power> {
    match state.phase {
        Phase::Over => Vec::new(),
        Phase::Deployment => Power::BOTH
            .into_iter()
            .filter(|&p| total(&state.side(p).base) > 0)
            .collect(),
        _ => Power::BOTH.to_vec(),
    }
}

/// An order taken: the line's index in the results, and the order.
#[derive(Clone, Debug)]
pub struct Entry {
    pub line: usize,
    pub order: Order,
}

/// Reads every power's submission: a result for each line (invalid ones settled now,
/// the others `unused` until the phase decides), and the orders taken, by power.
pub fn read(
    state: &State,
    orders: &BTreeMap<String, String>,
    log: &mut Log,
) -> [Option<Vec<Entry>>; 2] {
    let owing = owing(state);
    let mut out: [Option<Vec<Entry>>; 2] = [None, None];
    for power in Power::BOTH {
        let Some(text) = orders.get(power.id()) else {
            continue;
        };
        let mut reader = Reader::new(state, power);
        let mut entries = Vec::new();
        for line in lines(text) {
            let taken = if owing.contains(&power) {
                reader.line(line)
            } else {
                Err(Invalid::NothingOwed(power))
            };
            let private = private_line(line);
            match taken {
                Ok(order) => {
                    log.results.push(LineResult {
                        power,
                        order: order_text(&order),
                        outcome: Outcome::Unused,
                        detail: "not reached".into(),
                        private,
                    });
                    entries.push(Entry {
                        line: log.results.len() - 1,
                        order,
                    });
                }
                // A refused line is no order: its writer's alone, as in the receipt.
                Err(why) => log.results.push(LineResult {
                    power,
                    order: line.to_string(),
                    outcome: Outcome::Invalid,
                    detail: why.to_string(),
                    private: true,
                }),
            }
        }
        if owing.contains(&power) {
            out[power.index()] = Some(entries);
        }
    }
    out
}

/// `DISCARD` and `REPRESS` lines are their writer's alone unless a REPRESS cancels
/// something (B13.3); so is every invalid line (see [`read`]).
fn private_line(line: &str) -> bool {
    let verb = line
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    verb == "DISCARD" || verb == "REPRESS"
}

/// One power's lines read in order, with what the earlier lines took (B6.1, B3.3).
pub struct Reader<'a> {
    state: &'a State,
    power: Power,
    /// What is left on the display (deployment) or in the force pool (placement).
    left: Fleets,
    /// Value placed in each region so far (B3.3).
    placed: [u32; 6],
}

impl<'a> Reader<'a> {
    pub fn new(state: &'a State, power: Power) -> Reader<'a> {
        let side = state.side(power);
        let left = match state.phase {
            Phase::Setup => side.force_pool,
            _ => side.base,
        };
        Reader {
            state,
            power,
            left,
            placed: [0; 6],
        }
    }

    /// One line: the order taken, or why it is invalid.
    pub fn line(&mut self, line: &str) -> Result<Order, Invalid> {
        let order = parse(line)?;
        self.allowed(order)
    }

    fn allowed(&mut self, order: Order) -> Result<Order, Invalid> {
        let phase = self.state.phase;
        let now = phase.id();
        let other =
            |what: &'static str, phase: &'static str| Err(Invalid::OtherPhase { what, phase, now });
        let defender = self.state.options.scenario == Scenario::Invasion
            && self.state.options.invader != self.power;
        match (&order, phase) {
            (Order::Build(kinds), Phase::Setup | Phase::Build) => {
                if phase == Phase::Setup && defender {
                    return Err(Invalid::DefenderBuilds);
                }
                if kinds.contains(&Kind::TH) {
                    return Err(Invalid::BuildTh);
                }
                Ok(order)
            }
            (Order::Build(_), _) => other("BUILD", "setup or build"),
            (Order::Place(r, f), Phase::Setup) => {
                if !defender {
                    return Err(Invalid::NotDefender);
                }
                self.take(f, true)?;
                let region = &self.state.regions[usize::from(*r)];
                let limit = region.combat.saturating_add(region.resource);
                let value = self.placed[usize::from(*r)] + value_of(f, self.power);
                if value > limit {
                    self.give_back(f);
                    return Err(Invalid::OverPlacement {
                        value,
                        region: region_name(*r),
                        limit,
                    });
                }
                self.placed[usize::from(*r)] = value;
                Ok(order)
            }
            (Order::Place(..), _) => other("PLACE", "setup"),
            (Order::Deploy(_, f), Phase::Deployment) => {
                self.take(f, false)?;
                Ok(order)
            }
            (Order::DeployTh(r, n), Phase::Deployment) => {
                let left = self.left[Kind::TH.index()];
                let n = n.unwrap_or(left);
                if n == 0 {
                    return Err(Invalid::NoThOnDisplay);
                }
                let mut f = [0; 6];
                f[Kind::TH.index()] = n;
                self.take(&f, false)?;
                Ok(Order::Deploy(*r, f))
            }
            (Order::Deploy(..), Phase::Actions) => Err(Invalid::DeployNotTh),
            (Order::Deploy(..), _) => other("DEPLOY", "deployment"),
            (Order::PlayRepression, _) => Err(Invalid::PlayRepression),
            (Order::Repress(Some(Chit::Repression)), _) => Err(Invalid::RepressRepression),
            (Order::PlayTactical { kind: Kind::WS, .. }, _) => Err(Invalid::TacticalWs),
            (Order::PlayMove { from, to, fleets }, Phase::Actions) => {
                if from == to {
                    return Err(Invalid::MoveSameRegion);
                }
                if let Some(f) = fleets {
                    if let Some(k) = Kind::ALL
                        .into_iter()
                        .find(|k| f[k.index()] > 0 && !matches!(k, Kind::AF | Kind::IO))
                    {
                        return Err(Invalid::MoveType(k.name()));
                    }
                }
                Ok(order)
            }
            (
                Order::Garrison {
                    region: None,
                    rule: GarrisonRule::List(_),
                },
                _,
            ) => Err(Invalid::GarrisonListForAll),
            (
                Order::Resolve(_)
                | Order::DeployTh(..)
                | Order::PlayBuild
                | Order::PlayTactical { .. }
                | Order::PlayIlluminationTh(_)
                | Order::PlayIlluminationChaos
                | Order::Repress(_)
                | Order::Target { .. }
                | Order::Disengage { .. }
                | Order::Pursue { .. }
                | Order::Garrison { .. }
                | Order::Losses(_),
                Phase::Actions,
            ) => Ok(order),
            (Order::Resolve(_), _) => other("RESOLVE", "actions"),
            (Order::DeployTh(..), _) => other("DEPLOY TH", "deployment or actions"),
            (
                Order::PlayBuild
                | Order::PlayMove { .. }
                | Order::PlayTactical { .. }
                | Order::PlayIlluminationTh(_)
                | Order::PlayIlluminationChaos,
                _,
            ) => other("PLAY", "actions"),
            (Order::Repress(_), _) => other("REPRESS", "actions"),
            (Order::Target { .. }, _) => other("TARGET", "actions"),
            (Order::Disengage { .. }, _) => other("DISENGAGE", "actions"),
            (Order::Pursue { .. }, _) => other("PURSUE", "actions"),
            (Order::Garrison { .. }, _) => other("GARRISON", "actions"),
            (Order::Losses(_), _) => other("LOSSES", "actions"),
            (Order::Discard(_), Phase::Build) => Ok(order),
            (Order::Discard(_), _) => other("DISCARD", "build"),
        }
    }

    /// Takes fleets from what is left, or says which type is short (the line is
    /// invalid as a whole).
    fn take(&mut self, f: &Fleets, pool: bool) -> Result<(), Invalid> {
        for k in Kind::ALL {
            let (named, left) = (f[k.index()], self.left[k.index()]);
            if named > left {
                return Err(if pool {
                    Invalid::OverPool {
                        named,
                        kind: k.name(),
                        left,
                    }
                } else {
                    Invalid::OverDeployment {
                        named,
                        kind: k.name(),
                        left,
                    }
                });
            }
        }
        for k in Kind::ALL {
            self.left[k.index()] -= f[k.index()];
        }
        Ok(())
    }

    fn give_back(&mut self, f: &Fleets) {
        for k in Kind::ALL {
            self.left[k.index()] += f[k.index()];
        }
    }
}

/// The value of fleets (no TH among them in a placement).
fn value_of(f: &Fleets, power: Power) -> u32 {
    Kind::ALL
        .iter()
        .map(|&k| f[k.index()] * fleet_value(k, power, 50))
        .sum()
}
