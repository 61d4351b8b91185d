//! What players read (H11.2, H11.3): the board as text, the results view, and each
//! reader's cut of a phase's whole results (goal tiles, personal goals and the piles'
//! contents kept from those who may not see them).

use crate::rules::counted;
use serde_json::Value;

use super::data::{dynasty_name, research_name, Action, Data, CENTER, GOAL_SPACE, PERSONAL};
use super::state::{Pace, Phase, State, NONE};
use crate::report::wrap_groups;
use crate::rules::game::Viewer;
use crate::rules::{ResultLine, ResultsView};

pub const HIDDEN: &str = "hidden";

/// Whether a viewer sees the goal tile on GOAL n (1-3) of a position.
fn sees_goal(state: &State, viewer: Viewer, n: u8) -> bool {
    let c = &state.core;
    if c.revealed & (1 << (n - 1)) != 0 {
        return true;
    }
    match viewer {
        Viewer::Moderator => true,
        Viewer::Public => false,
        Viewer::Power(p) => state.seat_of(p).is_some_and(|s| {
            let pl = c.player(s);
            pl.seen & (1 << (n - 1)) != 0 || pl.has(GOAL_SPACE + usize::from(n - 1))
        }),
    }
}

fn sees_personal(state: &State, viewer: Viewer, seat: u8) -> bool {
    state.core.personal_revealed & (1 << seat) != 0
        || match viewer {
            Viewer::Moderator => true,
            Viewer::Public => false,
            Viewer::Power(p) => state.seat_of(p) == Some(seat),
        }
}

fn list<T: AsRef<str>>(items: &[T]) -> String {
    if items.is_empty() {
        "none".into()
    } else {
        items
            .iter()
            .map(|s| s.as_ref())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The research board (H2.6, H6.5): what each space costs and which spaces it follows
/// (one of them researched first), from the data file; a row per action (its II and
/// III space), one per GOAL space, and PERSONAL.
fn research_costs(d: &Data) -> Vec<String> {
    let colours = |space: usize| -> String {
        d.cost[space]
            .iter()
            .map(|&c| d.colour_name(c))
            .collect::<Vec<_>>()
            .join("/")
    };
    let after = |space: usize| -> Vec<String> {
        d.requires[space]
            .iter()
            .map(|&r| research_name(r))
            .collect()
    };
    let width = (0..6).map(|s| colours(s).len()).max().unwrap_or(0);
    let mut out = vec!["Research costs (a/b: one of; WILD: black instead):".to_string()];
    for (k, a) in Action::ALL.iter().enumerate() {
        out.push(format!(
            "  {:<9} II {:<width$}  III {} after {}",
            a.word(),
            colours(k),
            colours(6 + k),
            after(6 + k).join("/")
        ));
    }
    for space in GOAL_SPACE..PERSONAL {
        let mut needs = after(space);
        needs.push("any GOAL".into());
        out.push(format!(
            "  {:<9} {} after {}",
            research_name(space),
            colours(space),
            needs.join("/")
        ));
    }
    out.push(format!(
        "  {:<9} {} after one II and one III space (with a personal goal)",
        research_name(PERSONAL),
        d.colour_name(d.black)
    ));
    out
}

/// The position as text, as `viewer` may see it (at most 72 columns).
pub fn board_text(state: &State, viewer: Viewer) -> String {
    let d = &*state.data;
    let c = &state.core;
    let mut out: Vec<String> = Vec::new();
    // A break never falls inside "(earned 3, neutral 0)" or "(supply 7)".
    let mut push = |s: String, indent: usize| out.push(wrap_groups(s, 72, indent));
    let pace = match state.options.pace {
        Pace::Round => "round",
        Pace::Turn => "turn",
    };
    let head = match c.phase {
        Phase::Setup => "Foundation (Hjelmberg): setup".to_string(),
        Phase::Play => format!(
            "Foundation (Hjelmberg): round {} of at most {} ({pace} pace); next: {}",
            c.round,
            state.options.round_limit,
            state.name(c.next)
        ),
        Phase::Over => format!(
            "Foundation (Hjelmberg): the game is over after round {}",
            c.round
        ),
    };
    push(head, 2);
    push(
        format!(
            "Seating: {}. Empire kin: {}. Empire ships: {}",
            state.seating.join(", "),
            state.name(c.empire_kin),
            list(&d.gate_list(c.empire))
        ),
        2,
    );
    push("Planets (colour<input, stock, colony tile):".into(), 2);
    let mut row = Vec::new();
    for p in 0..d.planets.len() {
        let text = if p == usize::from(d.core) {
            let tiles: Vec<&str> = (0..d.tiles.len())
                .flat_map(|k| {
                    std::iter::repeat_n(d.tile_name(k as u8), usize::from(c.core_tiles[k]))
                })
                .collect();
            format!(
                "CORE {}<2 of level 2 {} [{}]",
                d.colour_name(d.black),
                c.stock[p],
                tiles.join(" ")
            )
        } else {
            let t = &d.planet_tiles[usize::from(c.planets[p])];
            let tile = if c.colony[p] == NONE {
                "-".to_string()
            } else {
                d.tile_name(c.colony[p]).to_string()
            };
            format!(
                "{:<4} {}<{} {} {}",
                d.planets[p],
                d.colour_name(t.colour),
                d.colour_name(t.input),
                c.stock[p],
                tile
            )
        };
        row.push(text);
        if row.len() == 2
            || p + 1 == d.planets.len()
            || d.planet_level[p] != d.planet_level.get(p + 1).copied().unwrap_or(0)
        {
            push(
                format!(
                    "  {}",
                    row.iter()
                        .map(|s| format!("{s:<34}"))
                        .collect::<String>()
                        .trim_end()
                ),
                4,
            );
            row.clear();
        }
    }
    let goals: Vec<String> = (1..=3u8)
        .map(|n| {
            if sees_goal(state, viewer, n) {
                format!("GOAL {n} {}", d.goal_name(c.goals[usize::from(n - 1)]))
            } else {
                format!("GOAL {n} face down")
            }
        })
        .collect();
    push(format!("Goals: {}", goals.join(", ")), 2);
    for line in research_costs(d) {
        push(line, 4);
    }
    let piles = if viewer == Viewer::Moderator {
        let content = |k: usize| {
            let t: Vec<&str> = (0..d.tiles.len())
                .flat_map(|t| std::iter::repeat_n(d.tile_name(t as u8), usize::from(c.piles[k][t])))
                .collect();
            format!("colony{} [{}]", k + 1, t.join(" "))
        };
        let g: Vec<&str> = (0..d.goals.len())
            .filter(|&g| c.goal_pile & (1 << g) != 0)
            .map(|g| d.goal_ids[g].as_str())
            .collect();
        format!(
            "Piles: {}, {}, {}, goals [{}]",
            content(0),
            content(1),
            content(2),
            g.join(" ")
        )
    } else {
        format!(
            "Piles (face down): colony1 {}, colony2 {}, colony3 {}, goals {}",
            c.pile_size(0),
            c.pile_size(1),
            c.pile_size(2),
            c.goal_pile.count_ones()
        )
    };
    push(piles, 2);
    let supply: Vec<String> = (0..d.colours.len() as u8)
        .map(|k| format!("{} {}", d.colour_name(k), c.supply(d, k)))
        .collect();
    push(format!("Supply: {}", supply.join(", ")), 2);
    for s in c.seats() {
        let p = c.player(s);
        let hand: Vec<String> = (0..d.colours.len())
            .filter(|&k| p.hand[k] > 0)
            .map(|k| format!("{} {}", d.colours[k], p.hand[k]))
            .collect();
        push(
            format!(
                "{}: hand {}; kins in hand {} (earned {}, neutral {})",
                state.name(s),
                if hand.is_empty() {
                    "empty".into()
                } else {
                    hand.join(", ")
                },
                p.kins,
                p.earned,
                p.neutral
            ),
            4,
        );
        let dynasty: Vec<String> = (0..=CENTER)
            .filter(|&k| p.dynasty[k] > 0)
            .map(|k| {
                if p.dynasty[k] > 1 {
                    format!("{} x{}", dynasty_name(k), p.dynasty[k])
                } else {
                    dynasty_name(k)
                }
            })
            .collect();
        push(
            format!(
                "  dynasty: {}",
                if dynasty.is_empty() {
                    "empty".into()
                } else {
                    dynasty.join(", ")
                }
            ),
            4,
        );
        push(
            format!(
                "  ships: {} (supply {})",
                list(&d.gate_list(p.ships)),
                p.supply()
            ),
            4,
        );
        let research: Vec<String> = (0..=PERSONAL)
            .filter(|&k| p.has(k))
            .map(research_name)
            .collect();
        push(
            format!(
                "  research: {}",
                if research.is_empty() {
                    "none".into()
                } else {
                    research.join(", ")
                }
            ),
            4,
        );
        let tiles: Vec<String> = (0..d.tiles.len())
            .flat_map(|k| std::iter::repeat_n(d.tiles[k].id.clone(), usize::from(p.colonies[k])))
            .collect();
        push(
            format!(
                "  colonies: {}{}",
                list(&tiles),
                if p.reserve > 0 {
                    format!("; reserve markers {}", p.reserve)
                } else {
                    String::new()
                }
            ),
            4,
        );
        let personal = if p.personal == NONE {
            "none".to_string()
        } else if sees_personal(state, viewer, s) {
            d.goal_name(p.personal).to_string()
        } else {
            "one, face down".to_string()
        };
        let seen: Vec<String> = (0..3)
            .filter(|n| p.seen & (1 << n) != 0)
            .map(|n| format!("GOAL {}", n + 1))
            .collect();
        push(
            format!(
                "  Empire ships held: {} due, {} new; response {}; goals seen: {}; personal goal: {personal}",
                p.due,
                p.new,
                if p.battle { "battle" } else { "yield" },
                list(&seen)
            ),
            4,
        );
    }
    out.join("\n")
}

/// Lines that sum up the game after a phase.
pub fn standing(state: &State) -> Vec<String> {
    let c = &state.core;
    let mut out = vec![match c.phase {
        Phase::Over if c.winner != NONE => {
            format!("{} won in round {}.", state.name(c.winner), c.round)
        }
        Phase::Over => format!("The game ended drawn after round {}.", c.round),
        _ => format!(
            "Round {} of at most {}; next to play: {}; Empire kin: {}.",
            c.round.max(1),
            state.options.round_limit,
            state.name(c.next),
            state.name(c.empire_kin)
        ),
    }];
    for s in c.seats() {
        let p = c.player(s);
        let tiles: u32 = p.colonies.iter().map(|&n| u32::from(n)).sum();
        out.push(format!(
            "{}: {}, {}, {} researched, {}, {}",
            state.name(s),
            counted(u32::from(p.earned) + u32::from(p.neutral), "kin", "kins"),
            counted(p.ships.count_ones(), "ship", "ships"),
            p.research.count_ones(),
            counted(tiles, "colony", "colonies"),
            counted(
                u32::from(p.due) + u32::from(p.new),
                "Empire ship",
                "Empire ships"
            )
        ));
    }
    out
}

/// Cuts a phase's whole results JSON for one viewer (H11.3).
pub fn cut_json(json: &Value, viewer: Viewer) -> Value {
    if viewer == Viewer::Moderator {
        return json.clone();
    }
    let me = match viewer {
        Viewer::Power(p) => Some(p),
        _ => None,
    };
    let allowed = |v: &Value| -> bool {
        v.get("secret_to")
            .and_then(|t| t.as_array())
            .is_some_and(|t| me.is_some_and(|p| t.iter().any(|x| x == p)))
    };
    let mut out = json.clone();
    let Some(m) = out.as_object_mut() else {
        return out;
    };
    for (key, full, public) in [
        ("results", "detail", "public_detail"),
        ("events", "text", "public_text"),
    ] {
        if let Some(Value::Array(items)) = m.get_mut(key) {
            for it in items.iter_mut() {
                if it.get("secret_to").is_some() && !allowed(it) {
                    let p = it.get(public).cloned().unwrap_or(Value::from(""));
                    it[full] = p;
                }
                if let Some(o) = it.as_object_mut() {
                    o.remove(public);
                    o.remove("secret_to");
                }
            }
        }
    }
    if let Some(Value::Array(items)) = m.get_mut("draws") {
        for it in items.iter_mut() {
            if it.get("secret_to").is_some() && !allowed(it) {
                it["drew"] = Value::from(HIDDEN);
            }
            if let Some(o) = it.as_object_mut() {
                o.remove("secret_to");
            }
        }
    }
    // What the viewer has seen, from the position after the phase.
    let mut seen = [false; 3];
    if let Some(Value::Array(rev)) = m.get("revealed") {
        for n in rev.iter().filter_map(|n| n.as_u64()) {
            if (1..=3).contains(&n) {
                seen[n as usize - 1] = true;
            }
        }
    }
    if let (Some(p), Some(Value::Array(players))) = (me, m.get("players")) {
        if let Some(pl) = players.iter().find(|x| x["id"] == p) {
            for n in pl["seen"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|n| n.as_u64())
            {
                if (1..=3).contains(&n) {
                    seen[n as usize - 1] = true;
                }
            }
            for r in pl["research"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|r| r.as_str())
            {
                for n in 1..=3 {
                    if r == format!("GOAL {n}") {
                        seen[n - 1] = true;
                    }
                }
            }
        }
    }
    if let Some(Value::Array(goals)) = m.get_mut("goals") {
        for (k, g) in goals.iter_mut().enumerate() {
            if !seen.get(k).copied().unwrap_or(false) {
                *g = Value::from(HIDDEN);
            }
        }
    }
    if let Some(Value::Array(players)) = m.get_mut("players") {
        for pl in players.iter_mut() {
            let mine = me.is_some_and(|p| pl["id"] == p);
            let revealed = pl["personal_revealed"] == Value::Bool(true);
            let has = pl["personal"].as_str().is_some_and(|s| !s.is_empty());
            if has && !mine && !revealed {
                pl["personal"] = Value::from(HIDDEN);
            }
        }
    }
    if let Some(Value::Object(piles)) = m.get_mut("piles") {
        for (_, v) in piles.iter_mut() {
            if let Value::Array(items) = v {
                for it in items.iter_mut() {
                    *it = Value::from(HIDDEN);
                }
            }
        }
    }
    out
}

/// The mail templates' view of a (cut) results JSON: results, events, and the colony
/// tiles held as "systems".
pub fn view_of(json: &Value) -> Value {
    let results: Vec<ResultLine> = json["results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| ResultLine {
            power: r["power"].as_str().unwrap_or("").to_string(),
            order: r["order"].as_str().unwrap_or("").to_string(),
            outcome: match r["outcome"].as_str() {
                Some("done") => "done",
                Some("failed") => "failed",
                Some("invalid") => "invalid",
                _ => "unused",
            },
            detail: r["detail"].as_str().unwrap_or("").to_string(),
        })
        .collect();
    // A player who sent no orders (H4.5): the judge's mails name her (`No orders from
    // cat: the rules' defaults were played.`), results and HISTORY alike.
    let events: Vec<String> = json["events"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| {
            !(e["step"] == "H4.5"
                && e["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("no orders from ")))
        })
        .map(|e| {
            format!(
                "[{}] {}",
                e["step"].as_str().unwrap_or(""),
                e["text"].as_str().unwrap_or("")
            )
        })
        .collect();
    let mut systems = Vec::new();
    for p in json["players"].as_array().into_iter().flatten() {
        for t in p["colonies"].as_array().into_iter().flatten() {
            systems.push((
                t.as_str().unwrap_or("").to_string(),
                p["id"].as_str().unwrap_or("").to_string(),
            ));
        }
    }
    serde_json::to_value(ResultsView {
        results,
        events,
        systems,
    })
    .expect("view serialises")
}

/// An example orders mail for the current phase.
pub fn example_orders(state: &State, power: &str) -> String {
    let d = &*state.data;
    let c = &state.core;
    if c.phase == Phase::Setup {
        let free: Vec<&str> = d.rings[0]
            .iter()
            .copied()
            .filter(|&g| (c.all_ships() | c.empire) & (1 << g) == 0)
            .take(2)
            .map(|g| d.gate_name(g))
            .collect();
        return format!(
            "START {} {} ELSE START {} {}\nEMPIRE BATTLE\n",
            free.first().copied().unwrap_or("A1"),
            d.colour_name(d.levels[0][0]),
            free.get(1).copied().unwrap_or("A2"),
            d.colour_name(d.levels[0][1]),
        );
    }
    let _ = power;
    // Two orders a turn (H4.4): a kin placed, then the action it allows.
    format!(
        "PLACE {a} I\n{a} I {g} ELSE RETRIEVE {a} I\nEMPIRE BATTLE\n",
        a = Action::Travel.word(),
        g = d.gate_name(d.rings[0][0]),
    )
}
