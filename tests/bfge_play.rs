//! Scripted BFGE players for the tests: each policy writes a power's orders for the
//! current phase from what that power may know (the public position and its own
//! hand).

use std::collections::BTreeMap;

use pbem::rules::battles_galactic_empire::state::{Phase, State};
use pbem::rules::battles_galactic_empire::types::{region_name, Chit, Kind, Power};

/// How a scripted player plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Concentrates on the regions of high Political value, plays every chit,
    /// represses anything, disengages when weaker, discards REPRESSIONs.
    Bold,
    /// Spreads over all regions in order, garrisons with everything, never
    /// disengages, keeps its chits for building and Tactical.
    Steady,
    /// Keeps to the three regions of least Political value, resolves them first,
    /// disengages after the first round, builds cheap fleets.
    Shy,
    /// Shy while the Chaos Index leans its way, bold otherwise.
    Canny,
}

impl Style {
    /// The style played now: Canny follows the Chaos Index.
    fn now(self, s: &State, p: Power) -> Style {
        let ahead = match p {
            Power::Blue => s.chaos > 52,
            Power::Red => s.chaos < 48,
        };
        match (self, ahead) {
            (Style::Canny, true) => Style::Shy,
            (Style::Canny, false) => Style::Bold,
            (other, _) => other,
        }
    }
}

/// Regions by Political value, highest first (ties in region order).
fn by_politics(s: &State) -> Vec<u8> {
    let mut r: Vec<u8> = (0..6).collect();
    r.sort_by_key(|&i| (std::cmp::Reverse(s.regions[usize::from(i)].political), i));
    r
}

/// A power's orders for the current phase, as that style writes them; none when it
/// owes nothing.
pub fn orders(s: &State, p: Power, style: Style) -> Option<String> {
    let style = style.now(s, p);
    let me = s.side(p);
    let mut lines: Vec<String> = Vec::new();
    match s.phase {
        Phase::Over => return None,
        Phase::Setup => {
            if s.options.defender() == Some(p) {
                // Two SFs where the limit allows, in region order.
                for r in 0..6u8 {
                    let reg = &s.regions[usize::from(r)];
                    if reg.combat + reg.resource >= 4 {
                        lines.push(format!("PLACE {} 2SF", region_name(r)));
                    }
                }
            } else {
                lines.push(match style {
                    Style::Bold => "BUILD 4SF 3CG 2AF 1IO 1WS".into(),
                    Style::Steady => "BUILD 6SF 5CG 1IO 2CG".into(),
                    _ => "BUILD 8SF 6CG".into(),
                });
            }
        }
        Phase::Deployment => {
            let targets: Vec<u8> = match style {
                Style::Bold => by_politics(s).into_iter().take(3).collect(),
                Style::Steady => (0..6).collect(),
                _ => by_politics(s).into_iter().skip(3).collect(),
            };
            let mut k = 0;
            for kind in Kind::ALL {
                if kind == Kind::TH {
                    continue;
                }
                for _ in 0..me.base[kind.index()] {
                    let r = targets[k % targets.len()];
                    lines.push(format!("DEPLOY {} {}", region_name(r), kind.name()));
                    k += 1;
                }
            }
            if me.base[Kind::TH.index()] > 0 && style == Style::Bold {
                lines.push(format!("DEPLOY {} 1TH", region_name(targets[0])));
            }
        }
        Phase::Actions => {
            let hand = |c: Chit| me.hand[c.index()];
            let order: Vec<u8> = match style {
                Style::Bold => by_politics(s),
                Style::Steady => (0..6).collect(),
                _ => by_politics(s).into_iter().rev().collect(),
            };
            if hand(Chit::Build) > 0 {
                lines.push("PLAY BUILD".into());
            }
            if hand(Chit::Tactical) > 0 {
                if let Some(u) = s.units.iter().find(|u| u.power == p && u.kind != Kind::WS) {
                    lines.push(format!(
                        "PLAY TACTICAL {} {}",
                        region_name(u.region),
                        u.kind.name()
                    ));
                }
            }
            if hand(Chit::Illumination) > 0 {
                lines.push(match style {
                    Style::Steady => format!("PLAY ILLUMINATION TH {}", region_name(order[0])),
                    _ => "PLAY ILLUMINATION CHAOS".into(),
                });
            }
            if hand(Chit::Move) > 0 && style == Style::Bold {
                if let Some(u) = s
                    .units
                    .iter()
                    .find(|u| u.power == p && !u.garrison && matches!(u.kind, Kind::AF | Kind::IO))
                {
                    let to = order.iter().find(|&&r| r != u.region).copied().unwrap_or(0);
                    lines.push(format!(
                        "PLAY MOVE {} {}",
                        region_name(u.region),
                        region_name(to)
                    ));
                }
            }
            if me.base[Kind::TH.index()] > 0 {
                lines.push(format!("DEPLOY TH {}", region_name(order[1])));
            }
            for r in &order {
                lines.push(format!("RESOLVE {}", region_name(*r)));
            }
            match style {
                Style::Bold => {
                    lines.push("REPRESS ANY".into());
                    lines.push("DISENGAGE ALL WEAKER".into());
                    lines.push("TARGET ALL MORPH CG".into());
                    lines.push("LOSSES CG SF".into());
                }
                Style::Steady => {
                    lines.push("REPRESS BUILD".into());
                    lines.push("GARRISON ALL ALL".into());
                    lines.push(format!("GARRISON {} MIN", region_name(order[5])));
                    lines.push("TARGET ALL MILITARY SF".into());
                    lines.push("PURSUE ALL NO".into());
                }
                _ => {
                    lines.push("DISENGAGE ALL AFTER 1".into());
                    lines.push("REPRESS ILLUMINATION".into());
                }
            }
        }
        Phase::Build => {
            lines.push(match style {
                Style::Bold => "BUILD AF SF CG IO WS SF".into(),
                Style::Steady => "BUILD 2SF 2CG AF".into(),
                _ => "BUILD 3SF 2CG".into(),
            });
            if style == Style::Bold && me.hand[Chit::Repression.index()] > 0 {
                lines.push("DISCARD REPRESSION".into());
            }
            if style == Style::Steady && s.turn % 3 == 0 {
                lines.push("DISCARD MOVE".into());
            }
        }
    }
    Some(lines.join("\n"))
}

/// Orders of both powers for the current phase: blue bold, red steady; a power in
/// `missing` sends nothing.
pub fn both(s: &State, missing: &[Power]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (p, style) in [(Power::Blue, Style::Bold), (Power::Red, Style::Steady)] {
        if missing.contains(&p) {
            continue;
        }
        if let Some(text) = orders(s, p, style) {
            out.insert(p.id().to_string(), text);
        }
    }
    out
}

/// When blue, in the long games of the tests, sends no orders: the Action phases of
/// turns 3 and 8, the deployment of turn 7 and the Build phase of turn 5.
pub fn misses(s: &State) -> bool {
    matches!(
        (s.turn, s.phase),
        (3, Phase::Actions) | (8, Phase::Actions) | (7, Phase::Deployment) | (5, Phase::Build)
    )
}
