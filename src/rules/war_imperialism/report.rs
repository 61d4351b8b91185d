//! What players read: the position by power (regions, units, fleets, buildings, PP and
//! DP), the native regions, the wars; the results view the mail templates render, with
//! every battle round by round; the VP table and the next movement order.

use std::fmt::Write;

use super::end::victory_points;
use super::outcome::{BattleReport, DrmPart, KindDice, Log, SatOut};
use super::state::{Building, Kind, Phase, State};

pub use crate::rules::{ResultLine, ResultsView};

/// Words joined into lines of at most `width` columns, each after the first indented.
fn wrap(words: &[String], first: &str, indent: usize, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = first.to_string();
    for w in words {
        if cur.len() + 1 + w.len() > width && cur.trim().len() > first.trim().len() {
            lines.push(cur);
            cur = " ".repeat(indent);
            cur.push_str(w);
        } else {
            if !cur.ends_with(' ') && !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(w);
        }
    }
    lines.push(cur);
    lines
}

fn war_text(s: &State) -> String {
    if s.wars.is_empty() {
        return "none".into();
    }
    s.wars
        .iter()
        .map(|w| {
            format!(
                "{}-{} (declared by {}, turn {} movement {})",
                s.pid(w.players.0),
                s.pid(w.players.1),
                s.pid(w.declared_by),
                w.turn,
                w.movement
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The position as text, player by player, then the native regions.
pub fn board_text(s: &State) -> String {
    let mut out = String::new();
    let order: Vec<&str> = s
        .order
        .iter()
        .filter(|&&p| !s.players[p].eliminated)
        .map(|&p| s.pid(p))
        .collect();
    // The turn and phase are in every mail's first line (the judge's templates).
    if s.phase != Phase::Over {
        let _ = writeln!(
            out,
            "Movement order of turn {}: {}.",
            s.turn.max(1),
            order.join(", ")
        );
    }
    for line in wrap(
        &war_text(s)
            .split(' ')
            .map(str::to_string)
            .collect::<Vec<_>>(),
        "Wars:",
        2,
        72,
    ) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "Suez Canal: {}.",
        if s.suez { "built, open" } else { "not built" }
    );
    let vp = victory_points(s);
    for (p, pl) in s.players.iter().enumerate() {
        out.push('\n');
        if pl.eliminated {
            let _ = writeln!(out, "{}: eliminated", pl.id);
            continue;
        }
        let _ = writeln!(out, "{}: {} PP, {} DP, {} VP", pl.id, pl.pp, pl.dp, vp[p]);
        for r in s.regions_of(p) {
            let region = &s.regions[r];
            let mut text = match region.native {
                Some(m) => format!("NS {m}, "),
                None => "westernized, ".into(),
            };
            text += &region.chit.to_string();
            if region.developed {
                text += " developed";
            }
            text += ";";
            for b in region.buildings.names() {
                text += " ";
                text += b;
            }
            text += " ";
            text += &s.units(r, p).text();
            let spheres: Vec<String> = region
                .spheres
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(q, n)| format!("{}:{n}", s.pid(q)))
                .collect();
            if !spheres.is_empty() {
                text += &format!("; spheres {}", spheres.join(" "));
            }
            if region.revolt {
                text += "; IN REVOLT";
            }
            let words: Vec<String> = text.split(' ').map(str::to_string).collect();
            for line in wrap(&words, &format!("  {:<14}", s.rname(r)), 17, 72) {
                let _ = writeln!(out, "{line}");
            }
        }
        for r in 0..s.regions.len() {
            if s.owns(p, r) {
                continue;
            }
            let u = s.units(r, p);
            if !u.is_empty() {
                let _ = writeln!(out, "  {:<14}{} (not controlled)", s.rname(r), u.text());
            }
        }
        for k in 0..s.map.seas.len() {
            let f = s.fleet(k, p);
            if f.n > 0 || !f.cargo.is_empty() {
                let cargo = if f.cargo.is_empty() {
                    String::new()
                } else {
                    format!(" carrying {}", f.cargo.text())
                };
                let _ = writeln!(out, "  {:<14} {} FLT{cargo}", s.sname(k), f.n);
            }
        }
    }
    let natives: Vec<String> = (0..s.regions.len())
        .filter(|&r| s.regions[r].owner.is_none())
        .map(|r| {
            let region = &s.regions[r];
            let m = region.native.map(|m| m.to_string()).unwrap_or_default();
            let spheres: Vec<String> = region
                .spheres
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(q, n)| format!("{}:{n}", s.pid(q)))
                .collect();
            if spheres.is_empty() {
                format!("{} {m} {},", s.rname(r), region.chit)
            } else {
                format!(
                    "{} {m} {} [{}],",
                    s.rname(r),
                    region.chit,
                    spheres.join(" ")
                )
            }
        })
        .collect();
    out.push('\n');
    let head = format!("Native regions ({}):", natives.len());
    for line in wrap(&natives, &head, 2, 72) {
        let _ = writeln!(out, "{}", line.trim_end_matches(','));
    }
    out
}

/// A side's dice in a round as the mail shows them, enough to check its hits (W6.2,
/// W11.4): the side's DRM, then each kind with its unit DRMs and its dice, e.g.
/// `DRM +1; INF 3, 5; CAV+1 landed-2 6; ART+2 4`.
fn side_dice(drm: i32, dice: &[KindDice]) -> String {
    let mut parts = vec![format!("DRM {drm:+}")];
    for g in dice {
        let mut kind = g.kind.to_string();
        if g.unit_drm != 0 {
            let _ = write!(kind, "{:+}", g.unit_drm);
        }
        if let Some(l) = g.landed_drm {
            let _ = write!(kind, " landed{l:+}");
        }
        let rolls: Vec<String> = g.rolls.iter().map(|d| d.to_string()).collect();
        parts.push(format!("{kind} {}", rolls.join(", ")));
    }
    if dice.is_empty() {
        parts.push("no dice".into());
    }
    parts.join("; ")
}

/// A side's DRM part by part, in words (W6.3, W11.4, W6.8), e.g. `DRM +1 (general +1,
/// 4 schools +2, transfer -2)`; `other` is the other side's name. None for a DRM with
/// nothing in it.
fn drm_words(drm: i32, parts: &[DrmPart], other: &str) -> Option<String> {
    if parts.is_empty() {
        return None;
    }
    let words: Vec<String> = parts
        .iter()
        .map(|p| {
            let what = match (p.part, p.count) {
                ("schools", Some(n)) => crate::rules::counted(n, "school", "schools"),
                ("set_to_0", _) => "set to 0".into(),
                ("from_other_side", _) => format!("gained from {other}"),
                (part, _) => part.into(),
            };
            format!("{what} {:+}", p.drm)
        })
        .collect();
    Some(format!("DRM {drm:+} ({})", words.join(", ")))
}

/// A side's brigades that did not roll in a round, and why, in plain words (W6.6), e.g.
/// `2 INF sit out, having retreated here before this battle: no roll in its first
/// round (W6.6)`.
fn sat_out_words(s: &SatOut) -> String {
    let mut kinds = Vec::new();
    let mut n = 0;
    for k in ["INF", "CAV", "ART"] {
        match s.units.get(k).copied().unwrap_or(0) {
            0 => {}
            1 => kinds.push(k.to_string()),
            m => kinds.push(format!("{m} {k}")),
        }
        n += s.units.get(k).copied().unwrap_or(0);
    }
    let units = kinds.join(" ");
    let one = n == 1;
    match s.why {
        "retreated_in" => format!(
            "{units} {}, having retreated here before this battle: no roll in its first round (W6.6)",
            if one { "sits out" } else { "sit out" }
        ),
        "retreating_onto_fleets" => format!(
            "{units} {} roll, retreating onto the fleets: in the extra round only the enemy rolls (W6.6)",
            if one { "does not" } else { "do not" }
        ),
        why => format!("{units} {} ({why})", if one { "sits out" } else { "sit out" }),
    }
}

/// A battle, round by round, as lines for the mail: each side's DRM part by part (when
/// anything is in it), the brigades that sit the round out and why, its DRM and dice by
/// kind with the hits they make, then both sides' losses.
pub fn battle_lines(b: &BattleReport) -> Vec<String> {
    let mut lines = vec![format!(
        "Battle at {} ({}{}): {} attacks {}",
        b.at,
        b.kind,
        if b.revolt { ", revolt" } else { "" },
        b.attacker,
        b.defender
    )];
    let losses = |m: &std::collections::BTreeMap<&'static str, u32>| {
        if m.is_empty() {
            "none".to_string()
        } else {
            let fleets = m.get("FLT").into_iter().map(|n| ("FLT", n));
            let others = m.iter().filter(|(k, _)| **k != "FLT").map(|(k, n)| (*k, n));
            fleets
                .chain(others)
                .map(|(k, n)| {
                    if *n == 1 {
                        k.to_string()
                    } else {
                        format!("{n} {k}")
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    let hits = |n: u32| {
        if n == 1 {
            "1 hit".to_string()
        } else {
            format!("{n} hits")
        }
    };
    for (k, r) in b.rounds.iter().enumerate() {
        let label = if r.extra {
            "extra round".to_string()
        } else {
            format!("round {}", k + 1)
        };
        let sides = [
            (
                &b.attacker,
                &b.defender,
                r.drm.attacker,
                &r.drm_parts.attacker,
                &r.by_kind.attacker,
                r.hits.attacker,
                &r.sat_out.attacker,
            ),
            (
                &b.defender,
                &b.attacker,
                r.drm.defender,
                &r.drm_parts.defender,
                &r.by_kind.defender,
                r.hits.defender,
                &r.sat_out.defender,
            ),
        ];
        for (name, other, drm, parts, dice, n, sat_out) in sides {
            // In the extra round only the enemy of the side retreating onto its
            // fleets rolls (W6.6): the side's line says so, without dice.
            let rolls = !(r.extra && dice.is_empty());
            if let Some(words) = drm_words(drm, parts, other).filter(|_| rolls) {
                lines.push(format!("{label}, {name}: {words}"));
            }
            if let Some(s) = sat_out {
                lines.push(format!("{label}, {name}: {}", sat_out_words(s)));
            }
            if !rolls {
                continue;
            }
            lines.push(format!(
                "{label}, {name}: {} -> {}",
                side_dice(drm, dice),
                hits(n)
            ));
        }
        lines.push(format!(
            "{label}, lost: {} {}, {} {}",
            b.attacker,
            losses(&r.losses.attacker),
            b.defender,
            losses(&r.losses.defender)
        ));
    }
    lines.push(if b.winner == "none" {
        format!("{}; no winner", b.end)
    } else {
        format!("{}; winner: {}", b.end, b.winner)
    });
    lines
}

pub fn results_view(after: &State, log: &Log) -> ResultsView {
    let results = log
        .results
        .iter()
        .map(|r| ResultLine {
            power: r.player.clone(),
            order: r.order.clone(),
            outcome: r.outcome.id(),
            detail: r.detail.clone(),
        })
        .collect();
    // Each battle's rounds right after its own event, before what followed from it,
    // indented under the battle's first line.
    let told = |b: &BattleReport| {
        battle_lines(b)
            .into_iter()
            .enumerate()
            .map(|(k, l)| if k == 0 { l } else { format!("  {l}") })
            .collect::<Vec<_>>()
    };
    let mut events: Vec<String> = Vec::new();
    let mut battles: Vec<&BattleReport> = log.battles.iter().collect();
    battles.sort_by_key(|b| b.event);
    let mut battles = battles.into_iter().peekable();
    // An event of a player's that says again what one of its result lines says (a
    // parley: `parley at Siam: T = 9 (…): nothing happens`, the line `PARLEY Siam` done
    // `T = 9 (…): nothing happens`) is left out of the mail; `results.json` keeps it.
    let repeats = |e: &super::outcome::Event| {
        let told = e
            .text
            .split_once(": ")
            .map_or(e.text.as_str(), |(_, rest)| rest);
        e.player.as_ref().is_some_and(|who| {
            log.results.iter().any(|r| {
                &r.player == who && !r.detail.is_empty() && (r.detail == told || r.detail == e.text)
            })
        })
    };
    for (i, e) in log.events.iter().enumerate() {
        if !repeats(e) {
            events.push(format!("[{}] {}", e.step, e.text));
        }
        while let Some(b) = battles.next_if(|b| b.event <= i) {
            events.extend(told(b));
        }
    }
    for b in battles {
        events.extend(told(b));
    }
    let systems = (0..after.regions.len())
        .filter_map(|r| {
            after.regions[r]
                .owner
                .map(|o| (after.rname(r).to_string(), after.pid(o).to_string()))
        })
        .collect();
    ResultsView {
        results,
        events,
        systems,
    }
}

/// The VP table (results and game-over mails; the board says the movement order).
pub fn standing(s: &State) -> Vec<String> {
    let vp = victory_points(s);
    let mut rows: Vec<usize> = (0..s.np()).collect();
    rows.sort_by(|&a, &b| vp[b].cmp(&vp[a]).then(a.cmp(&b)));
    let mut out = vec!["Victory points (W11.7):".to_string()];
    for p in rows {
        out.push(format!(
            "  {:<12} {:>3} VP  {:>2} regions  {:>4} PP  {:>3} DP{}",
            s.pid(p),
            vp[p],
            s.region_count(p),
            s.players[p].pp,
            s.players[p].dp,
            if s.players[p].eliminated {
                "  (eliminated)"
            } else {
                ""
            }
        ));
    }
    out
}

/// An example orders mail for a player in the current phase.
pub fn example_orders(s: &State, power: &str) -> String {
    let Some(p) = s.player_index(power) else {
        return String::new();
    };
    let own: Vec<usize> = s.regions_of(p).collect();
    match s.phase {
        Phase::Draft => {
            // Up to 8 wishes, as many as fit a mail's line (72 columns, indented 2).
            let mut line = "PICK".to_string();
            for r in (0..s.regions.len())
                .filter(|&r| s.regions[r].owner.is_none())
                .take(8)
            {
                let name = s.rname(r);
                if line.len() + 1 + name.len() > 70 {
                    break;
                }
                line.push(' ');
                line.push_str(name);
            }
            line
        }
        Phase::Setup => match own.first() {
            Some(&r) => format!("BUILD 2 INF {0}\nBUILD city {0}\nBUILD EXP {0}", s.rname(r)),
            None => String::new(),
        },
        // Each example is an order that would be carried out as things stand.
        Phase::Production => {
            let mut lines = Vec::new();
            let pp = s.players[p].pp;
            if let Some(&r) = own.iter().find(|&&r| !s.regions[r].revolt) {
                if pp >= Kind::Inf.cost() {
                    lines.push(format!("BUILD INF {}", s.rname(r)));
                }
            }
            let city = own
                .iter()
                .any(|&r| !s.regions[r].revolt && s.regions[r].buildings.has(Building::City));
            if city && pp >= Kind::Inf.cost() + 10 {
                lines.push("BUY 1 DP".to_string());
            }
            lines.join("\n")
        }
        Phase::Movement1 | Phase::Movement2 => {
            let mut lines = vec![
                "BATTLE ALL ROUNDS 4".to_string(),
                "LOSSES INF CAV ART".to_string(),
            ];
            // An INF that may leave (a brigade stays behind, no revolt to hold down)
            // into an own region or a native one (no war needed to fight natives).
            let step = own
                .iter()
                .filter(|&&r| {
                    let u = s.units(r, p);
                    !s.regions[r].revolt && u.get(Kind::Inf) > 0 && u.brigades() > 1
                })
                .find_map(|&r| {
                    s.map.regions[r]
                        .land
                        .iter()
                        .find(|&&a| s.regions[a].owner.is_none_or(|o| o == p))
                        .map(|&a| (r, a))
                });
            if let Some((r, a)) = step {
                lines.push(format!("MOVE INF {} - {}", s.rname(r), s.rname(a)));
            }
            lines.join("\n")
        }
        Phase::Over => String::new(),
    }
}
