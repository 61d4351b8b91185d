//! The War! map as a picture (see [`crate::picture`]): a schematic of the map's regions
//! and seas, each a box at a fixed place (the standard map's from [`POSITIONS`], roughly
//! where it lies on the world; a region or sea of another map file that the table does
//! not know goes in rows under it), joined by thin lines where units or fleets may pass;
//! each region's box tinted with its controller's colour (white: natives); land units
//! as badges of their player's colour written as the text board writes them
//! (`2 INF CAV GEN`), fleets as `2 FLT` badges in their sea; the phase just adjudicated
//! drawn on it: moves and voyages as arrows along their path (dashed: failed), and
//! every battle's place crossed.
//!
//! Drawn from what the text board is made of: the game's `position_json(viewer)` and
//! the results the judge cut for that viewer (only the pools' order is hidden, and the
//! picture does not show the pools).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::map::{Map, Place};
use super::order::{Order, SailStep};
use super::state::{Kind, State, Units};
use super::syntax;
use super::{output, report, scenario};
use crate::picture::legend::{owned_swatch, paper_swatch};
use crate::picture::marks::{self, Arrow};
use crate::picture::palette::{self, tint, Colour, INK, OWNED, PAPER, RULE};
use crate::picture::{phase_name, Font, Key, Legend, Pt, Style, Svg};
use crate::rules::game::{PhaseResults, Play, Viewer};
use crate::rules::ScenarioError;

/// Where each region's and sea's box stands (its centre) on the standard map, before
/// [`ORIGIN`]: north up, Europe top left, Australia bottom right, boxes never
/// overlapping.
pub const POSITIONS: [(&str, f32, f32); 96] = [
    // Europe
    ("NorthAtlantic", 70.0, 110.0),
    ("Britain", 180.0, 150.0),
    ("NorthSea", 290.0, 100.0),
    ("Scandinavia", 400.0, 50.0),
    ("BalticSea", 480.0, 130.0),
    ("Russia", 620.0, 80.0),
    ("LowCountries", 280.0, 200.0),
    ("Germany", 390.0, 200.0),
    ("Poland", 500.0, 210.0),
    ("BayOfBiscay", 80.0, 250.0),
    ("France", 220.0, 270.0),
    ("Austria", 400.0, 280.0),
    ("Ukraine", 580.0, 270.0),
    ("Spain", 120.0, 340.0),
    ("Italy", 310.0, 350.0),
    ("Balkans", 490.0, 340.0),
    ("BlackSea", 620.0, 345.0),
    ("CentralAtlantic", 60.0, 450.0),
    ("WesternMed", 220.0, 420.0),
    ("EasternMed", 400.0, 430.0),
    ("Ottoman", 560.0, 430.0),
    ("Caucasus", 720.0, 320.0),
    // The Middle East and North Africa
    ("Morocco", 110.0, 520.0),
    ("Algeria", 220.0, 510.0),
    ("Libya", 330.0, 520.0),
    ("Egypt", 450.0, 520.0),
    ("Levant", 580.0, 520.0),
    ("Mesopotamia", 690.0, 460.0),
    ("Persia", 800.0, 400.0),
    ("Arabia", 650.0, 590.0),
    ("RedSea", 540.0, 600.0),
    ("ArabianSea", 790.0, 630.0),
    // Africa
    ("Sahara", 240.0, 600.0),
    ("WestAfrica", 80.0, 630.0),
    ("GoldCoast", 140.0, 700.0),
    ("Nigeria", 260.0, 690.0),
    ("Sudan", 390.0, 620.0),
    ("Ethiopia", 470.0, 690.0),
    ("GulfOfGuinea", 160.0, 780.0),
    ("Congo", 330.0, 770.0),
    ("EastAfrica", 460.0, 780.0),
    ("SouthAtlantic", 130.0, 880.0),
    ("Angola", 270.0, 860.0),
    ("Rhodesia", 380.0, 850.0),
    ("Mozambique", 490.0, 870.0),
    ("SouthAfrica", 340.0, 940.0),
    ("CapeSea", 190.0, 970.0),
    ("Madagascar", 600.0, 900.0),
    ("WestIndian", 640.0, 790.0),
    // Central Asia and India
    ("WestSiberia", 760.0, 80.0),
    ("Steppes", 760.0, 190.0),
    ("Turkestan", 860.0, 290.0),
    ("Afghanistan", 910.0, 390.0),
    ("Baluchistan", 880.0, 480.0),
    ("Punjab", 1010.0, 420.0),
    ("Hindustan", 1000.0, 520.0),
    ("Deccan", 950.0, 620.0),
    ("Bengal", 1070.0, 600.0),
    ("Ceylon", 1010.0, 720.0),
    ("Tibet", 1110.0, 470.0),
    ("IndianOcean", 870.0, 800.0),
    ("BayOfBengal", 1110.0, 700.0),
    // Eastern Asia
    ("EastSiberia", 1110.0, 70.0),
    ("Mongolia", 1000.0, 170.0),
    ("Sinkiang", 960.0, 280.0),
    ("Manchuria", 1160.0, 180.0),
    ("Korea", 1270.0, 250.0),
    ("Japan", 1390.0, 250.0),
    ("SeaOfJapan", 1340.0, 160.0),
    ("NorthPacific", 1460.0, 80.0),
    ("NorthChina", 1120.0, 290.0),
    ("YellowSea", 1240.0, 340.0),
    ("CentralChina", 1200.0, 400.0),
    ("EastChinaSea", 1340.0, 400.0),
    ("SouthChina", 1230.0, 500.0),
    ("Formosa", 1380.0, 490.0),
    // South-East Asia and Australia
    ("Burma", 1170.0, 570.0),
    ("Siam", 1190.0, 650.0),
    ("Indochina", 1290.0, 600.0),
    ("SouthChinaSea", 1360.0, 680.0),
    ("Malaya", 1170.0, 760.0),
    ("Philippines", 1460.0, 590.0),
    ("PhilippineSea", 1470.0, 700.0),
    ("Sumatra", 1060.0, 820.0),
    ("Borneo", 1290.0, 780.0),
    ("JavaSea", 1220.0, 860.0),
    ("Java", 1130.0, 910.0),
    ("NewGuinea", 1420.0, 820.0),
    ("ArafuraSea", 1340.0, 910.0),
    ("WestAustralia", 1180.0, 990.0),
    ("EastAustralia", 1320.0, 1010.0),
    ("SouthernOcean", 1060.0, 1040.0),
    ("CoralSea", 1460.0, 930.0),
    ("TasmanSea", 1400.0, 1070.0),
    ("NewZealand", 1490.0, 1130.0),
    ("SouthPacific", 1510.0, 1010.0),
];

/// Where [`POSITIONS`]' origin lies on the picture (room for the title).
pub const ORIGIN: Pt = Pt::new(0.0, 36.0);
/// A box's half width and half height.
pub const HALF_W: f32 = 46.0;
pub const HALF_H: f32 = 22.0;
const WIDTH: f32 = 1570.0;
pub const BADGE_FONT: f32 = 8.5;
pub const BADGE_HEIGHT: f32 = BADGE_FONT * 1.35;
/// How far before its box's centre a move's arrow ends.
const ARROW_END: f32 = 14.0;
/// Seas' fill.
pub const SEA: Colour = Colour::rgb(0xE4, 0xEF, 0xF6);

/// Where the boxes of a map stand: tests compute pixels from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    places: BTreeMap<String, Pt>,
    bottom: f32,
}

impl Layout {
    /// The standard map's boxes at their places; a region or sea the table does not
    /// know (another map file's) goes in rows below.
    pub fn new(map: &Map) -> Layout {
        let ids = map
            .regions
            .iter()
            .map(|r| r.id.as_str())
            .chain(map.seas.iter().map(|s| s.id.as_str()));
        let mut places = BTreeMap::new();
        let mut bottom = ORIGIN.y;
        let mut extra = 0usize;
        let per_row = (WIDTH / (2.0 * HALF_W + 12.0)) as usize;
        let table_bottom = ORIGIN.y + 1130.0 + HALF_H;
        for id in ids {
            let at = match POSITIONS
                .iter()
                .find(|(p, _, _)| p.eq_ignore_ascii_case(id))
            {
                Some(&(_, x, y)) => Pt::new(ORIGIN.x + x, ORIGIN.y + y),
                None => {
                    let (col, row) = (extra % per_row, extra / per_row);
                    extra += 1;
                    Pt::new(
                        16.0 + HALF_W + col as f32 * (2.0 * HALF_W + 12.0),
                        table_bottom + 20.0 + HALF_H + row as f32 * (2.0 * HALF_H + 12.0),
                    )
                }
            };
            bottom = bottom.max(at.y + HALF_H);
            places.insert(id.to_ascii_lowercase(), at);
        }
        Layout { places, bottom }
    }

    /// The centre of a region's or sea's box (ids compared without case).
    pub fn anchor(&self, id: &str) -> Option<Pt> {
        self.places.get(&id.to_ascii_lowercase()).copied()
    }

    /// The point between the name and the badges where arrows start and end.
    pub fn centre(&self, id: &str) -> Option<Pt> {
        self.anchor(id).map(|a| a.offset(0.0, -2.0))
    }

    /// Where the n-th badge (from the top) of a box is centred.
    pub fn badge(&self, id: &str, n: usize) -> Option<Pt> {
        self.anchor(id)
            .map(|a| a.offset(0.0, 10.0 + n as f32 * (BADGE_HEIGHT + 1.0)))
    }

    /// A point inside the n-th badge that its text leaves in the player's colour, for
    /// a badge of `text`.
    pub fn badge_probe(&self, id: &str, n: usize, text: &str) -> Option<Pt> {
        let w = marks::badge_width(text, BADGE_FONT);
        self.badge(id, n).map(|c| c.offset(-w / 2.0 + 2.5, 0.0))
    }

    /// The n-th badge's box (top-left corner, width, height) for a badge of `text`.
    pub fn badge_rect(&self, id: &str, n: usize, text: &str) -> Option<(Pt, f32, f32)> {
        let w = marks::badge_width(text, BADGE_FONT);
        self.badge(id, n)
            .map(|c| (c.offset(-w / 2.0, -BADGE_HEIGHT / 2.0), w, BADGE_HEIGHT))
    }

    /// Points of a box that show its fill (clear of its name and badges); an arrow may
    /// cross one of them, never all.
    pub fn fill_probes(&self, id: &str) -> Vec<Pt> {
        let Some(a) = self.anchor(id) else {
            return Vec::new();
        };
        vec![
            a.offset(-HALF_W + 4.0, HALF_H - 4.0),
            a.offset(HALF_W - 4.0, HALF_H - 4.0),
            a.offset(-HALF_W + 4.0, -HALF_H + 4.0),
            a.offset(HALF_W - 4.0, -HALF_H + 4.0),
        ]
    }
}

/// The players' colours by id, in the position's order of players.
pub fn colours(position: &Value) -> BTreeMap<String, Colour> {
    let ids: Vec<&str> = position["players"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["id"].as_str())
        .collect();
    ids.iter()
        .zip(palette::assign(&ids))
        .map(|(id, c)| (id.to_string(), c))
        .collect()
}

/// Land units from the JSON the position writes (`{"INF": 2, "GEN": 1}`).
fn units_of(v: &Value) -> Units {
    let mut u = Units::default();
    for (k, n) in v.as_object().into_iter().flatten() {
        if let (Some(kind), Some(n)) = (Kind::parse(k), n.as_u64()) {
            u.set(kind, u32::try_from(n).unwrap_or(u32::MAX));
        }
    }
    u
}

/// A box's badges, top to bottom: (player, text), as the text board writes the units.
pub fn badges(position: &Value) -> BTreeMap<String, Vec<(String, String)>> {
    let mut out: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for u in position["units"].as_array().into_iter().flatten() {
        let (Some(player), Some(at)) = (u["player"].as_str(), u["at"].as_str()) else {
            continue;
        };
        let units = units_of(&u["units"]);
        if units.is_empty() {
            continue;
        }
        out.entry(at.to_ascii_lowercase())
            .or_default()
            .push((player.to_string(), units.text()));
    }
    for f in position["fleets"].as_array().into_iter().flatten() {
        let (Some(player), Some(at)) = (f["player"].as_str(), f["at"].as_str()) else {
            continue;
        };
        let n = f["n"].as_u64().unwrap_or(0);
        let cargo = units_of(&f["cargo"]);
        let mut text = match n {
            0 => String::new(),
            1 => "FLT".to_string(),
            n => format!("{n} FLT"),
        };
        if !cargo.is_empty() {
            text = format!("{text} + {}", cargo.text()).trim().to_string();
        }
        if !text.is_empty() {
            out.entry(at.to_ascii_lowercase())
                .or_default()
                .push((player.to_string(), text));
        }
    }
    out
}

/// A move or voyage of the phase: its path of place ids, its player, done or not.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub player: String,
    pub path: Vec<String>,
    pub done: bool,
}

/// The moves and voyages of a phase's results (their order lines read again).
pub fn moves(map: &Map, results: &Value) -> Vec<Move> {
    let players: Vec<String> = results["players"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["id"].as_str().map(str::to_string))
        .collect();
    let mut out = Vec::new();
    for r in results["results"].as_array().into_iter().flatten() {
        let (Some(order), Some(player)) = (r["order"].as_str(), r["player"].as_str()) else {
            continue;
        };
        let path: Vec<String> = match syntax::parse(order, map, &players) {
            Ok(Order::Move { from, path, .. }) => std::iter::once(Place::Region(from))
                .chain(path)
                .map(|p| map.place_id(p).to_string())
                .collect(),
            Ok(Order::Sail { sea, steps, .. }) => std::iter::once(map.place_id(Place::Sea(sea)))
                .chain(steps.iter().filter_map(|s| match s {
                    SailStep::Sea(k) => Some(map.place_id(Place::Sea(*k))),
                    SailStep::Land(_, k) => Some(map.place_id(Place::Region(*k))),
                    SailStep::Load(..) | SailStep::Attack(_) => None,
                }))
                .map(str::to_string)
                .collect(),
            _ => continue,
        };
        if path.len() < 2 {
            continue;
        }
        out.push(Move {
            player: player.to_string(),
            path,
            done: r["outcome"].as_str() == Some("done"),
        });
    }
    out
}

/// Where battles were fought in the phase.
pub fn battles(results: &Value) -> Vec<String> {
    let mut out: Vec<String> = results["battles"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["at"].as_str().map(str::to_ascii_lowercase))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The points an arrow of a move is drawn through: its boxes' centres.
pub fn points(layout: &Layout, m: &Move) -> Vec<Pt> {
    m.path.iter().filter_map(|p| layout.centre(p)).collect()
}

/// The segments an arrow of a move is drawn along: (from, to, with a head), from box
/// centre to box centre (the last one's head ends a little before it).
pub fn segments(layout: &Layout, m: &Move) -> Vec<(Pt, Pt, bool)> {
    let points = points(layout, m);
    let n = points.len();
    points
        .windows(2)
        .enumerate()
        .map(|(k, w)| (w[0], w[1], k + 2 == n))
        .collect()
}

impl State {
    /// The hook of [`Play::picture`].
    pub(super) fn draw_picture(
        &self,
        viewer: Viewer,
        results: Option<&PhaseResults>,
    ) -> Option<Svg> {
        let label = format!("turn {}, {}", self.turn, phase_name(self.phase.id()));
        Some(draw(
            &self.map,
            &label,
            &self.position_json(viewer),
            results,
        ))
    }
}

/// `pbem adjudicate SCENARIO --png`: the scenario's phase adjudicated, drawn as a
/// moderator sees it.
pub fn scenario_picture(text: &str, dir: &Path) -> Result<Svg, ScenarioError> {
    let s = scenario::Scenario::from_toml(text, dir).map_err(ScenarioError::Invalid)?;
    let (after, log) = super::adjudicate_with_dice(&s.state, &s.orders, s.seed, &s.dice);
    let results = PhaseResults {
        json: output::output_value(&s.state, &after, &log),
        view: serde_json::to_value(report::results_view(&after, &log)).unwrap_or_default(),
    };
    let label = format!("turn {}, {}", after.turn, phase_name(after.phase.id()));
    Ok(draw(
        &after.map,
        &label,
        &after.position_json(Viewer::Moderator),
        Some(&results),
    ))
}

/// The picture of a position (`position`: the JSON of `position_json`), with the
/// results of the phase that led to it when given. `label` says when the position is
/// (`turn 3, movement-1 phase`).
pub fn draw(map: &Map, label: &str, position: &Value, results: Option<&PhaseResults>) -> Svg {
    let layout = Layout::new(map);
    let colours = colours(position);
    let colour = |id: &str| colours.get(id).copied().unwrap_or(palette::NEUTRAL);
    let owners: BTreeMap<String, String> = position["regions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            Some((
                r["id"].as_str()?.to_ascii_lowercase(),
                r["owner"].as_str()?.to_string(),
            ))
        })
        .collect();
    let revolts: Vec<String> = position["regions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["revolt"].as_bool() == Some(true))
        .filter_map(|r| r["id"].as_str().map(str::to_ascii_lowercase))
        .collect();
    let badges = badges(position);
    let moves = results.map(|r| moves(map, &r.json)).unwrap_or_default();
    let battles = results.map(|r| battles(&r.json)).unwrap_or_default();

    let mut legend = Legend::new();
    for (id, c) in &colours {
        let n = owners.values().filter(|o| *o == id).count();
        let vp = position["vp"][id.as_str()].as_u64();
        let letter: String = id.chars().take(1).collect::<String>().to_uppercase();
        legend.power(
            *c,
            &letter,
            &format!(
                "{id} ({n} region{}{})",
                if n == 1 { "" } else { "s" },
                vp.map(|v| format!(", {v} VP")).unwrap_or_default()
            ),
        );
    }
    legend.new_row();
    legend.item(owned_swatch(palette::NEUTRAL), "region: controller's tint");
    legend.item(paper_swatch(), "natives' region");
    legend.item(Key::Swatch(SEA), "sea");
    legend.item(
        Key::Badge(palette::NEUTRAL, "2 INF GEN".into()),
        "land units",
    );
    legend.item(Key::Badge(palette::NEUTRAL, "2 FLT".into()), "fleets");
    if moves.iter().any(|m| m.done) {
        legend.item(Key::Arrow(INK, false), "move, voyage");
    }
    if moves.iter().any(|m| !m.done) {
        legend.item(Key::Arrow(INK, true), "failed move");
    }
    if !battles.is_empty() {
        legend.item(Key::Cross(INK), "battle");
    }
    if !revolts.is_empty() {
        legend.item(Key::Text("REVOLT".into()), "in revolt");
    }

    let width = WIDTH.ceil() as u32;
    let legend_top = layout.bottom + 14.0;
    let legend_width = WIDTH - 32.0;
    let height = (legend_top + legend.height(legend_width) + 10.0).ceil() as u32;
    let mut svg = Svg::new(width, height, PAPER);
    let title = match results.map(|r| &r.json) {
        Some(j) => format!(
            "War! Age of Imperialism — turn {}, {}: results",
            j["turn"].as_u64().unwrap_or(0),
            phase_name(&match (j["phase"].as_str(), j["movement"].as_u64()) {
                (Some("movement"), Some(n)) => format!("movement-{n}"),
                (Some(p), _) => p.to_string(),
                (None, _) => "?".to_string(),
            })
        ),
        None => format!("War! Age of Imperialism — {label}"),
    };
    svg.title(&title);
    svg.text(Pt::new(16.0, 26.0), &title, Font::new(16.0).bold());

    // Where units and fleets may pass: land borders, coasts, sea lanes.
    let line = |svg: &mut Svg, a: &str, b: &str| {
        if let (Some(p), Some(q)) = (layout.anchor(a), layout.anchor(b)) {
            svg.crisp_line(p, q, Style::stroke(RULE, 1.0));
        }
    };
    for (k, r) in map.regions.iter().enumerate() {
        for &o in r.land.iter().filter(|&&o| o > k) {
            line(&mut svg, &r.id, &map.regions[o].id);
        }
        for &s in &r.sea {
            line(&mut svg, &r.id, &map.seas[s].id);
        }
    }
    for (k, s) in map.seas.iter().enumerate() {
        for &o in s.adjacent.iter().filter(|&&o| o > k) {
            line(&mut svg, &s.id, &map.seas[o].id);
        }
    }
    for l in &map.links {
        line(&mut svg, &map.seas[l.seas.0].id, &map.seas[l.seas.1].id);
    }

    // Boxes.
    for r in &map.regions {
        let Some(a) = layout.anchor(&r.id) else {
            continue;
        };
        let fill = match owners.get(&r.id.to_ascii_lowercase()) {
            Some(o) if colours.contains_key(o) => tint(colour(o), OWNED),
            _ => PAPER,
        };
        svg.rounded_rect(
            a.offset(-HALF_W, -HALF_H),
            2.0 * HALF_W,
            2.0 * HALF_H,
            4.0,
            Style::both(fill, INK, 1.0),
        );
    }
    for s in &map.seas {
        let Some(a) = layout.anchor(&s.id) else {
            continue;
        };
        svg.rounded_rect(
            a.offset(-HALF_W, -HALF_H),
            2.0 * HALF_W,
            2.0 * HALF_H,
            12.0,
            Style::both(SEA, RULE, 1.0),
        );
    }

    // This phase's moves and voyages, failed ones first; over the boxes, under the
    // names and badges.
    let ordered = moves
        .iter()
        .filter(|m| !m.done)
        .chain(moves.iter().filter(|m| m.done));
    for m in ordered {
        let points = points(&layout, m);
        let solid = if m.done { points.len() } else { 0 };
        let a = Arrow::new(4.0).trim(0.0, ARROW_END);
        marks::path_arrow(&mut svg, &points, solid, colour(&m.player), a);
    }
    for b in &battles {
        if let Some(a) = layout.anchor(b) {
            marks::cross(&mut svg, a.offset(HALF_W - 9.0, -HALF_H + 9.0), 10.0, INK);
        }
    }

    // Names and badges.
    let name_font = Font::new(9.0).bold().middle();
    let names = map
        .regions
        .iter()
        .map(|r| (&r.id, &r.name))
        .chain(map.seas.iter().map(|s| (&s.id, &s.name)));
    for (id, name) in names {
        let Some(a) = layout.anchor(id) else {
            continue;
        };
        let crossed = moves
            .iter()
            .any(|m| m.path.iter().any(|p| p.eq_ignore_ascii_case(id)));
        let font = if crossed {
            name_font.halo(PAPER, 3.0)
        } else {
            name_font
        };
        svg.text(a.offset(0.0, -HALF_H + 12.0), name, font);
    }
    for (at, list) in &badges {
        for (n, (player, text)) in list.iter().enumerate() {
            if let Some(c) = layout.badge(at, n) {
                let w = marks::badge_width(text, BADGE_FONT);
                marks::badge(
                    &mut svg,
                    c.offset(-w / 2.0, -BADGE_HEIGHT / 2.0),
                    text,
                    colour(player),
                    BADGE_FONT,
                );
            }
        }
    }
    for r in &revolts {
        if let Some(a) = layout.anchor(r) {
            svg.text(
                a.offset(0.0, HALF_H - 3.0),
                "REVOLT",
                Font::new(8.0).bold().middle().colour(palette::VERMILLION),
            );
        }
    }
    legend.draw(&mut svg, Pt::new(16.0, legend_top), legend_width);
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_place_of_the_standard_map_has_a_box_and_no_two_overlap() {
        let map = Map::standard();
        let layout = Layout::new(&map);
        assert_eq!(map.regions.len() + map.seas.len(), POSITIONS.len());
        for (id, _, _) in POSITIONS {
            assert!(map.by_id(id).is_some(), "{id} is not on the map");
        }
        let all: Vec<Pt> = layout.places.values().copied().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(
                    (a.x - b.x).abs() >= 2.0 * HALF_W + 2.0
                        || (a.y - b.y).abs() >= 2.0 * HALF_H + 2.0,
                    "{a:?} and {b:?} overlap"
                );
            }
            assert!(a.x - HALF_W >= 0.0 && a.x + HALF_W <= WIDTH);
        }
    }

    #[test]
    fn moves_follow_their_paths() {
        let map = Map::standard();
        let json = serde_json::json!({
            "players": [{"id": "red"}, {"id": "blue"}],
            "results": [
                {"player": "red", "order": "MOVE 2 INF GEN Egypt - Libya", "outcome": "done"},
                {"player": "red", "order": "SAIL 2 FLT EasternMed - LAND ALL Levant", "outcome": "done"},
                {"player": "blue", "order": "BATTLE ALL ROUNDS 2", "outcome": "noted"},
            ],
        });
        let m = moves(&map, &json);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].path, ["Egypt", "Libya"]);
        assert_eq!(m[1].path, ["EasternMed", "Levant"]);
        assert!(m[0].done);
    }
}
