//! The Foundation (Hjelmberg) board as a picture (see [`crate::picture`]): the three
//! rings of star gates (A outer, B, C inner) with the links between them, the planets
//! as discs of their planet tile's colour — outer planets outside ring A, middle ones
//! between rings A and B, CORE in the centre — with their tile (`blue<green`), stock
//! and colony tile, the players' ships as tokens of their colour and letter on their
//! gates, the Empire's ships as black `E` tokens, and the Empire's moves of the phase
//! as arrows.
//!
//! The public board only: drawn from `position_json(Viewer::Public)` and the results
//! cut for the public, whoever reads the mail, so no goal tile, personal goal, hand or
//! pile's content can reach a picture.

use std::collections::BTreeMap;
use std::f32::consts::PI;
use std::path::Path;

use serde_json::Value;

use super::data::{bits, Data};
use super::report;
use super::state::State;
use crate::picture::marks::{self, Arrow};
use crate::picture::palette::{self, ink_on, Colour, INK, PAPER, RULE};
use crate::picture::{phase_name, Font, Key, Legend, Pt, Style, Svg};
use crate::rules::game::{PhaseResults, Play, Viewer};
use crate::rules::ScenarioError;

const WIDTH: f32 = 900.0;
/// The board's centre.
pub const CENTRE: Pt = Pt::new(450.0, 450.0);
/// The rings' radii (A, B, C).
pub const RINGS: [f32; 3] = [300.0, 190.0, 92.0];
/// A gate's radius, a planet's, a ship token's.
pub const GATE: f32 = 14.0;
pub const PLANET: f32 = 30.0;
pub const TOKEN: f32 = 10.0;
const BOARD_BOTTOM: f32 = CENTRE.y + RINGS[0] + 2.0 * PLANET + 40.0;
/// The Empire's ships.
pub const EMPIRE: Colour = Colour::rgb(0x1A, 0x1A, 0x1A);

/// A planet tile's colour as the picture paints it (the game's resource colours; the
/// tile's name is written on it too).
pub fn resource_colour(name: &str) -> Colour {
    match name {
        "blue" => palette::BLUE,
        "green" => palette::BLUISH_GREEN,
        "red" => palette::VERMILLION,
        "yellow" => palette::YELLOW,
        "orange" => palette::ORANGE,
        "purple" => Colour::rgb(0x7E, 0x4F, 0xA3),
        "teal" => Colour::rgb(0x00, 0x80, 0x80),
        "brown" => Colour::rgb(0x8B, 0x5A, 0x2B),
        "gray" | "grey" => palette::NEUTRAL,
        "white" => palette::WHITE,
        "black" => Colour::rgb(0x33, 0x33, 0x33),
        _ => PAPER,
    }
}

/// Where the gates and planets of a data file stand: tests compute pixels from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    gates: BTreeMap<String, Pt>,
    planets: BTreeMap<String, Pt>,
}

fn polar(angle: f32, radius: f32) -> Pt {
    Pt::new(
        CENTRE.x + radius * angle.cos(),
        CENTRE.y + radius * angle.sin(),
    )
}

impl Layout {
    /// Ring A's gates evenly round, the first at the top right of north (so the first
    /// outer planet, between the last gate and the first, is at the top); a gate of an
    /// inner ring at the angle of the gate of the next ring out it links to (evenly
    /// round its ring if it links to none); a planet at the middle of its gates, an
    /// outer one pushed out beyond ring A, CORE in the centre.
    pub fn new(d: &Data) -> Layout {
        let mut angle: Vec<Option<f32>> = vec![None; d.gates.len()];
        for (ring, gates) in d.rings.iter().enumerate() {
            let n = gates.len().max(1) as f32;
            for (k, &g) in gates.iter().enumerate() {
                let outer = (ring > 0)
                    .then(|| {
                        bits(d.adjacent[usize::from(g)])
                            .find(|&o| usize::from(d.ring[usize::from(o)]) == ring - 1)
                            .and_then(|o| angle[usize::from(o)])
                    })
                    .flatten();
                let even = -PI / 2.0 + (k as f32 + 0.5) * 2.0 * PI / n;
                angle[usize::from(g)] = Some(outer.unwrap_or(even));
            }
        }
        let gates: BTreeMap<String, Pt> = d
            .gates
            .iter()
            .enumerate()
            .map(|(g, name)| {
                let ring = usize::from(d.ring[g]).min(2);
                (
                    name.to_ascii_uppercase(),
                    polar(angle[g].unwrap_or(0.0), RINGS[ring]),
                )
            })
            .collect();
        let mut planets = BTreeMap::new();
        for (p, name) in d.planets.iter().enumerate() {
            let around: Vec<Pt> = bits(d.planet_gates[p])
                .map(|g| gates[&d.gates[usize::from(g)].to_ascii_uppercase()])
                .collect();
            let n = around.len().max(1) as f32;
            let mid = Pt::new(
                around.iter().map(|q| q.x).sum::<f32>() / n,
                around.iter().map(|q| q.y).sum::<f32>() / n,
            );
            let at = match d.planet_level[p] {
                1 => {
                    let a = (mid.y - CENTRE.y).atan2(mid.x - CENTRE.x);
                    polar(a, RINGS[0] + PLANET + 22.0)
                }
                3 => CENTRE,
                _ => mid,
            };
            planets.insert(name.to_ascii_uppercase(), at);
        }
        Layout { gates, planets }
    }

    pub fn gate(&self, name: &str) -> Option<Pt> {
        self.gates.get(&name.to_ascii_uppercase()).copied()
    }

    pub fn planet(&self, name: &str) -> Option<Pt> {
        self.planets.get(&name.to_ascii_uppercase()).copied()
    }

    /// Where the k-th of n ship tokens on a gate stands.
    pub fn ship(&self, gate: &str, k: usize, n: usize) -> Option<Pt> {
        let spread = 2.0 * TOKEN + 2.0;
        self.gate(gate)
            .map(|g| g.offset((k as f32 - (n as f32 - 1.0) / 2.0) * spread, 0.0))
    }

    /// A point inside a ship token that its letter leaves in its colour.
    pub fn token_probe(at: Pt) -> Pt {
        at.offset(-(TOKEN - 3.0), 0.0)
    }

    /// A point of a planet's disc that shows its tile's colour (clear of its texts).
    pub fn planet_probe(&self, name: &str) -> Option<Pt> {
        self.planet(name).map(|p| p.offset(-PLANET + 4.0, -1.0))
    }
}

/// The players' colours by id, in seating order.
pub fn colours(position: &Value) -> BTreeMap<String, Colour> {
    let ids: Vec<&str> = position["seating"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p.as_str())
        .collect();
    ids.iter()
        .zip(palette::assign(&ids))
        .map(|(id, c)| (id.to_string(), c))
        .collect()
}

/// The ships on each gate: (owner, colour letter), the Empire's as `("Empire", "E")`.
pub fn ships(position: &Value) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for p in position["players"].as_array().into_iter().flatten() {
        let Some(id) = p["id"].as_str() else {
            continue;
        };
        let letter: String = id.chars().take(1).collect::<String>().to_uppercase();
        for g in p["ships"].as_array().into_iter().flatten() {
            if let Some(g) = g.as_str() {
                out.entry(g.to_ascii_uppercase())
                    .or_default()
                    .push((id.to_string(), letter.clone()));
            }
        }
    }
    for g in position["empire"].as_array().into_iter().flatten() {
        if let Some(g) = g.as_str() {
            out.entry(g.to_ascii_uppercase())
                .or_default()
                .push(("Empire".into(), "E".into()));
        }
    }
    out
}

/// The Empire's moves in a phase's (public) events: `Empire ships move: A3->A4 B2->B3`.
pub fn empire_moves(results: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in results["events"].as_array().into_iter().flatten() {
        let Some(text) = e["text"].as_str() else {
            continue;
        };
        let Some(list) = text.strip_prefix("Empire ships move:") else {
            continue;
        };
        for step in list.split_whitespace() {
            if let Some((a, b)) = step.split_once("->") {
                out.push((a.to_ascii_uppercase(), b.to_ascii_uppercase()));
            }
        }
    }
    out
}

impl State {
    /// The hook of [`Play::picture`]: the public board, whoever the reader.
    pub(super) fn draw_picture(
        &self,
        _viewer: Viewer,
        results: Option<&PhaseResults>,
    ) -> Option<Svg> {
        let public = results.map(|r| report::cut_json(&r.json, Viewer::Public));
        Some(draw(
            &self.data,
            &self.position_json(Viewer::Public),
            public.as_ref(),
        ))
    }
}

/// `pbem adjudicate SCENARIO --png`: the scenario's phase adjudicated, its public board
/// drawn.
pub fn scenario_picture(text: &str, dir: &Path) -> Result<Svg, ScenarioError> {
    let s = super::scenario::read(text, dir).map_err(ScenarioError::Invalid)?;
    let (after, log, error) = super::adjudicate_with(&s.state, &s.orders, s.seed, s.draws);
    if let Some(e) = error {
        return Err(ScenarioError::Invalid(e));
    }
    let json = super::output::output_value(&s.state, &after, &log);
    let public = report::cut_json(&json, Viewer::Public);
    Ok(draw(
        &after.data,
        &after.position_json(Viewer::Public),
        Some(&public),
    ))
}

/// The picture of a public position (`position`: `position_json(Viewer::Public)`), with
/// the public results of the phase that led to it when given.
pub fn draw(d: &Data, position: &Value, results: Option<&Value>) -> Svg {
    let layout = Layout::new(d);
    let colours = colours(position);
    let colour = |id: &str| {
        if id == "Empire" {
            EMPIRE
        } else {
            colours.get(id).copied().unwrap_or(palette::NEUTRAL)
        }
    };
    let ships = ships(position);
    let moves = results.map(empire_moves).unwrap_or_default();

    let mut legend = Legend::new();
    let kin = position["empire_kin"].as_str().unwrap_or("");
    let next = position["next"].as_str().unwrap_or("");
    for (id, c) in &colours {
        let letter: String = id.chars().take(1).collect::<String>().to_uppercase();
        let mut notes = Vec::new();
        if id == next {
            notes.push("next");
        }
        if id == kin {
            notes.push("Empire kin");
        }
        let label = if notes.is_empty() {
            id.clone()
        } else {
            format!("{id} ({})", notes.join(", "))
        };
        legend.power(*c, &letter, &label);
    }
    legend.power(EMPIRE, "E", "the Empire's ships");
    legend.new_row();
    legend.item(
        Key::Text("O3".into()),
        "planet: tile colour<input, stock, colony tile",
    );
    if !moves.is_empty() {
        legend.item(Key::Arrow(INK, false), "the Empire's ships moved");
    }

    let legend_top = BOARD_BOTTOM;
    let legend_width = WIDTH - 32.0;
    let height = (legend_top + legend.height(legend_width) + 10.0).ceil() as u32;
    let mut svg = Svg::new(WIDTH as u32, height, PAPER);
    let when = match results {
        Some(j) => format!(
            "turn {}, {}: results",
            j["turn"].as_u64().unwrap_or(0),
            phase_name(j["phase"].as_str().unwrap_or("play"))
        ),
        None => format!(
            "round {}, {}",
            position["round"].as_u64().unwrap_or(0),
            phase_name(
                position["next_phase"]
                    .as_str()
                    .unwrap_or(position["phase"].as_str().unwrap_or("play"))
            )
        ),
    };
    let title = format!("Foundation (Hjelmberg) — {when}");
    svg.title(&title);
    svg.text(Pt::new(16.0, 26.0), &title, Font::new(16.0).bold());

    // Rings and the links between them.
    for r in RINGS {
        svg.circle(CENTRE, r, Style::stroke(RULE, 2.0));
    }
    for (g, name) in d.gates.iter().enumerate() {
        let Some(a) = layout.gate(name) else { continue };
        for o in bits(d.adjacent[g]) {
            if usize::from(o) > g && d.ring[usize::from(o)] != d.ring[g] {
                if let Some(b) = layout.gate(&d.gates[usize::from(o)]) {
                    svg.line(a, b, Style::stroke(RULE, 2.0));
                }
            }
        }
    }

    // Planets: the disc in its tile's colour, its name and tile, its stock and colony
    // tile.
    let planets = position["planets"].as_object();
    for name in &d.planets {
        let Some(at) = layout.planet(name) else {
            continue;
        };
        let tile = planets
            .and_then(|p| p.get(name.as_str()))
            .and_then(|t| t.as_str())
            .unwrap_or("");
        let (colour_name, input) = match tile.split_once('-') {
            Some((c, i)) => (c.to_string(), Some(i.to_string())),
            None if name == "CORE" => ("black".to_string(), None),
            None => (tile.to_string(), None),
        };
        let fill = resource_colour(&colour_name);
        let r = if name == "CORE" { PLANET * 1.6 } else { PLANET };
        svg.circle(at, r, Style::both(fill, INK, 1.5));
        let ink = ink_on(fill);
        svg.text(
            at.offset(0.0, -8.0),
            name,
            Font::new(10.0).bold().middle().colour(ink),
        );
        let caption = match &input {
            Some(i) => format!("{colour_name}<{i}"),
            None => colour_name.clone(),
        };
        svg.text(
            at.offset(0.0, 7.0),
            &caption,
            Font::new(8.0).middle().colour(ink),
        );
        let stock = position["stock"][name.as_str()].as_u64().unwrap_or(0);
        marks::badge(
            &mut svg,
            at.offset(r * 0.55, -r - 4.0),
            &stock.to_string(),
            PAPER,
            8.0,
        );
        let colony = match &position["colony_board"][name.as_str()] {
            Value::String(s) => s.clone(),
            Value::Array(list) => list
                .iter()
                .filter_map(|v| v.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            _ => String::new(),
        };
        if !colony.is_empty() {
            svg.text(
                at.offset(0.0, r + 10.0),
                &colony,
                Font::new(8.0).middle().halo(PAPER, 3.0),
            );
        }
    }

    // Gates.
    for name in &d.gates {
        if let Some(at) = layout.gate(name) {
            svg.circle(at, GATE, Style::both(PAPER, INK, 1.5));
        }
    }
    // The Empire's moves.
    for (from, to) in &moves {
        if let (Some(a), Some(b)) = (layout.gate(from), layout.gate(to)) {
            let arrow = Arrow::new(5.0).trim(GATE + 1.0, GATE + 2.0);
            marks::arrow(&mut svg, a, b, EMPIRE, arrow);
        }
    }
    // Gate names, and the ships on them.
    for name in &d.gates {
        let Some(at) = layout.gate(name) else {
            continue;
        };
        let here = ships.get(&name.to_ascii_uppercase());
        match here {
            Some(list) => {
                for (k, (owner, letter)) in list.iter().enumerate() {
                    if let Some(t) = layout.ship(name, k, list.len()) {
                        marks::token(&mut svg, t, TOKEN, colour(owner), letter);
                    }
                }
                svg.text(
                    at.offset(0.0, GATE + 11.0),
                    name,
                    Font::new(9.0).bold().middle().halo(PAPER, 3.0),
                );
            }
            None => svg.text(at.offset(0.0, 3.5), name, Font::new(9.0).bold().middle()),
        }
    }
    legend.draw(&mut svg, Pt::new(16.0, legend_top), legend_width);
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gates_sit_on_their_rings_and_planets_between_their_gates() {
        let d = super::super::data::standard();
        let l = Layout::new(&d);
        for (g, name) in d.gates.iter().enumerate() {
            let r = RINGS[usize::from(d.ring[g])];
            assert!((l.gate(name).unwrap().distance(CENTRE) - r).abs() < 0.01);
        }
        // B1 links to A2: the same angle.
        let (a2, b1) = (l.gate("A2").unwrap(), l.gate("B1").unwrap());
        let angle = |p: Pt| (p.y - CENTRE.y).atan2(p.x - CENTRE.x);
        assert!((angle(a2) - angle(b1)).abs() < 1e-4);
        assert_eq!(l.planet("CORE"), Some(CENTRE));
        // O1 lies between A12 and A1, outside ring A; no two planets overlap.
        assert!(l.planet("O1").unwrap().distance(CENTRE) > RINGS[0] + PLANET);
        let all: Vec<Pt> = d.planets.iter().map(|p| l.planet(p).unwrap()).collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(a.distance(*b) > 2.0 * PLANET, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn the_empire_moves_are_read_from_the_events() {
        let j = serde_json::json!({"events": [
            {"step": "H7.1", "text": "Empire ships move: A3->A4 B2->B3"},
            {"step": "H4.3", "text": "red's turn ends"},
        ]});
        assert_eq!(
            empire_moves(&j),
            [("A3".into(), "A4".into()), ("B2".into(), "B3".into())]
        );
    }
}
