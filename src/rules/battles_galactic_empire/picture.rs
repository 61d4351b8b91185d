//! The Battles for the Galactic Empire board as a picture (see [`crate::picture`]): the
//! Chaos Index on its track with the bands and this turn's victory levels, the six
//! regions as panels (their Combat, Political and Resource values; tinted with the
//! controlling power's colour; fleets as badges of their power's colour, garrisons
//! apart), each power's display (the fleets at its base, RP, chits and TH supply as
//! counts), and the phase just adjudicated: deployments and moves as arrows (dashed:
//! not carried out: cancelled, failed or unused).
//!
//! Drawn from what the text board is made of: the game's `position_json(viewer)` (each
//! power's view, B13.3) and the results the judge cut for that viewer. A hand or a
//! chit pool is never drawn, not even the reader's own, nor a line shown to its writer
//! only (a refused line, B12.2; a `DISCARD`): the picture shows the public board, the
//! same for every reader.

use std::collections::BTreeMap;

use serde_json::Value;

use super::state::State;
use super::syntax::{self, Order};
use super::types::{region_name, Band, REGIONS};
use super::{scenario, view};
use crate::picture::legend::{owned_swatch, paper_swatch};
use crate::picture::marks::{self, Arrow};
use crate::picture::palette::{self, tint, Colour, INK, OWNED, PAPER, RULE};
use crate::picture::{phase_name, Font, Key, Legend, Pt, Style, Svg};
use crate::rules::game::{PhaseResults, Play, Viewer};
use crate::rules::ScenarioError;

const WIDTH: f32 = 900.0;
const MARGIN: f32 = 30.0;
/// The Chaos Index track: its left end and length (0 to 100).
const TRACK: (f32, f32) = (MARGIN + 10.0, WIDTH - 2.0 * MARGIN - 20.0);
const TRACK_Y: f32 = 70.0;
const TRACK_H: f32 = 18.0;
/// A region's panel.
pub const PANEL_W: f32 = 260.0;
pub const PANEL_H: f32 = 150.0;
const GAP: f32 = 20.0;
const PANELS_TOP: f32 = 130.0;
const DISPLAY_H: f32 = 96.0;
const BADGE_FONT: f32 = 11.0;
const BADGE_HEIGHT: f32 = BADGE_FONT * 1.35;

/// The two powers' colours: blue (Imperial) and red (Rebel).
pub fn colour(power: &str) -> Colour {
    match power {
        "blue" => palette::BLUE,
        "red" => palette::VERMILLION,
        _ => palette::NEUTRAL,
    }
}

/// Where things are drawn: tests compute pixels from it.
pub struct Layout;

impl Layout {
    /// A region panel's top-left corner (regions 0–5: two rows of three).
    pub fn panel(region: usize) -> Pt {
        let (col, row) = (region % 3, region / 3);
        Pt::new(
            MARGIN + col as f32 * (PANEL_W + GAP),
            PANELS_TOP + row as f32 * (PANEL_H + GAP),
        )
    }

    /// A region's panel by name (case-insensitive).
    pub fn region(name: &str) -> Option<Pt> {
        REGIONS
            .iter()
            .position(|r| r.eq_ignore_ascii_case(name))
            .map(Self::panel)
    }

    /// A power's display panel (blue left, red right).
    pub fn display(power: &str) -> Pt {
        let y = PANELS_TOP + 2.0 * (PANEL_H + GAP);
        let x = if power == "red" {
            MARGIN + (WIDTH - 2.0 * MARGIN + GAP) / 2.0
        } else {
            MARGIN
        };
        Pt::new(x, y)
    }

    fn display_w() -> f32 {
        (WIDTH - 2.0 * MARGIN - GAP) / 2.0
    }

    /// Where arrows of a region or display start and end: a display's centre, a
    /// region panel's lower middle (under three rows of badges).
    pub fn centre(place: &str) -> Option<Pt> {
        if place == "blue" || place == "red" {
            let d = Self::display(place);
            return Some(d.offset(Self::display_w() / 2.0, DISPLAY_H / 2.0));
        }
        Self::region(place).map(|p| p.offset(PANEL_W / 2.0, PANEL_H - 24.0))
    }

    /// Points of a region's panel that show its tint (clear of its texts and badges);
    /// an arrow may cross one of them, never all.
    pub fn fill_probes(name: &str) -> Vec<Pt> {
        let Some(p) = Self::region(name) else {
            return Vec::new();
        };
        vec![
            p.offset(PANEL_W - 6.0, PANEL_H - 6.0),
            p.offset(6.0, PANEL_H - 6.0),
            p.offset(PANEL_W - 6.0, 44.0),
            p.offset(6.0, 6.0),
        ]
    }

    /// The top-left corner of the n-th badge of a panel whose top-left is `panel`.
    pub fn badge(panel: Pt, n: usize) -> Pt {
        panel.offset(10.0, 66.0 + n as f32 * (BADGE_HEIGHT + 4.0))
    }

    /// A point inside a badge (top-left `at`) that its text leaves in its colour.
    pub fn badge_probe(at: Pt) -> Pt {
        at.offset(2.5, BADGE_HEIGHT / 2.0)
    }

    /// Where the Chaos Index `value` lies on its track.
    pub fn chaos_x(value: i64) -> f32 {
        TRACK.0 + TRACK.1 * value.clamp(0, 100) as f32 / 100.0
    }
}

/// A panel's badges, top to bottom: (power, text), as the text board writes fleets
/// (`2SF 1TH`, garrisons apart). `at` is a region's name or `base`.
pub fn badges(position: &Value, at: &str, power_of_base: Option<&str>) -> Vec<(String, String)> {
    let fleets = position["fleets"].as_array().cloned().unwrap_or_default();
    let mut out = Vec::new();
    for p in ["blue", "red"] {
        if power_of_base.is_some_and(|b| b != p) {
            continue;
        }
        for garrison in [true, false] {
            let list: Vec<String> = fleets
                .iter()
                .filter(|f| {
                    f["at"].as_str() == Some(at)
                        && f["power"].as_str() == Some(p)
                        && f["garrison"].as_bool() == Some(garrison)
                })
                .map(|f| format!("{}{}", f["count"], f["type"].as_str().unwrap_or("")))
                .collect();
            if !list.is_empty() {
                let text = list.join(" ");
                out.push((
                    p.to_string(),
                    if garrison {
                        format!("garrison {text}")
                    } else {
                        text
                    },
                ));
            }
        }
    }
    out
}

/// A deployment or move of the phase: from and to (a region's name, or a power's id for
/// its display), its power, done or not.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub power: String,
    pub from: String,
    pub to: String,
    pub done: bool,
}

/// The public deployments and moves of a phase's results (their order lines read
/// again). A line its writer alone may read (`private`: a refused line, which is no
/// order, B12.2) is left out, so that a player's picture is the public one though her
/// results hold her own refused lines.
pub fn moves(results: &Value) -> Vec<Move> {
    let mut out = Vec::new();
    for r in results["results"].as_array().into_iter().flatten() {
        if r["private"].as_bool() == Some(true) {
            continue;
        }
        let (Some(order), Some(power)) = (r["order"].as_str(), r["power"].as_str()) else {
            continue;
        };
        let (from, to) = match syntax::parse(order) {
            Ok(Order::Deploy(to, _) | Order::DeployTh(to, _) | Order::PlayIlluminationTh(to)) => {
                (power.to_string(), region_name(to).to_string())
            }
            Ok(Order::PlayMove { from, to, .. }) => {
                (region_name(from).to_string(), region_name(to).to_string())
            }
            _ => continue,
        };
        out.push(Move {
            power: power.to_string(),
            from,
            to,
            done: r["outcome"].as_str() == Some("done"),
        });
    }
    out
}

impl State {
    /// The hook of [`Play::picture`].
    pub(super) fn draw_picture(
        &self,
        viewer: Viewer,
        results: Option<&PhaseResults>,
    ) -> Option<Svg> {
        Some(draw(
            self.turn,
            self.phase.id(),
            &self.position_json(viewer),
            results,
        ))
    }
}

/// `pbem adjudicate SCENARIO --png`: the scenario's phase adjudicated, drawn as a
/// moderator sees it.
pub fn scenario_picture(text: &str) -> Result<Svg, ScenarioError> {
    let s = scenario::Scenario::from_toml(text).map_err(ScenarioError::Invalid)?;
    let (after, log) = super::adjudicate_with(&s.state, &s.orders, s.rng());
    let json = scenario::output_value(&s.state, &after, &log);
    let results = PhaseResults {
        view: view::results_view(&json),
        json,
    };
    Ok(draw(
        after.turn,
        after.phase.id(),
        &after.position_json(Viewer::Moderator),
        Some(&results),
    ))
}

fn badge_row(svg: &mut Svg, panel: Pt, list: &[(String, String)]) {
    for (n, (power, text)) in list.iter().enumerate() {
        marks::badge(
            svg,
            Layout::badge(panel, n),
            text,
            colour(power),
            BADGE_FONT,
        );
    }
}

/// The picture of a position (`position`: the JSON of `position_json`) at `turn` and
/// `phase`, with the results of the phase that led to it when given.
pub fn draw(turn: u32, phase: &str, position: &Value, results: Option<&PhaseResults>) -> Svg {
    let chaos = position["chaos"].as_i64().unwrap_or(0);
    let regions: BTreeMap<String, &Value> = position["regions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| Some((r["name"].as_str()?.to_string(), r)))
        .collect();
    let moves = results.map(|r| moves(&r.json)).unwrap_or_default();
    let (title_turn, title_phase) = match results.map(|r| &r.json) {
        Some(j) => (
            j["turn"].as_u64().unwrap_or(u64::from(turn)),
            format!(
                "{}: results",
                phase_name(j["phase"].as_str().unwrap_or(phase))
            ),
        ),
        None => (u64::from(turn), phase_name(phase)),
    };
    // The victory check to come, as the text board tells it (`view::next_check`: the
    // position's, not the results' turn); once the game is over, the last one made.
    let check = view::next_check(turn, phase);
    let (low, high) = State::victory_levels(check.unwrap_or(turn.max(1)));

    let mut legend = Legend::new();
    for (p, side) in [("blue", "Imperial"), ("red", "Rebel")] {
        let n = regions
            .values()
            .filter(|r| r["control"].as_str() == Some(p))
            .count();
        legend.power(
            colour(p),
            &p[..1].to_uppercase(),
            &format!("{p} ({side}, {n} region{})", if n == 1 { "" } else { "s" }),
        );
    }
    legend.new_row();
    legend.item(owned_swatch(palette::NEUTRAL), "region: controller's tint");
    legend.item(paper_swatch(), "uncontrolled");
    legend.item(Key::Badge(palette::NEUTRAL, "2SF 1TH".into()), "fleets");
    if moves.iter().any(|m| m.done) {
        legend.item(Key::Arrow(INK, false), "deployment, move");
    }
    if moves.iter().any(|m| !m.done) {
        legend.item(Key::Arrow(INK, true), "not carried out");
    }

    let legend_top = Layout::display("blue").y + DISPLAY_H + 16.0;
    let legend_width = WIDTH - 2.0 * MARGIN;
    let height = (legend_top + legend.height(legend_width) + 10.0).ceil() as u32;
    let mut svg = Svg::new(WIDTH as u32, height, PAPER);
    let title = format!("Battles for the Galactic Empire — turn {title_turn}, {title_phase}");
    svg.title(&title);
    svg.text(Pt::new(16.0, 26.0), &title, Font::new(16.0).bold());

    // The Chaos Index: red wins at `low` or less, blue at `high` or more.
    let (x0, len) = TRACK;
    svg.text(
        Pt::new(x0, TRACK_Y - 10.0),
        &match check {
            Some(check) => format!(
                "Chaos Index {chaos} ({} band); at the end of turn {check}: red wins at {low} or less, blue at {high} or more",
                Band::of(chaos).name()
            ),
            None => format!(
                "Chaos Index {chaos} ({} band); the last check, at the end of turn {}: red at {low} or less, blue at {high} or more",
                Band::of(chaos).name(),
                turn.max(1)
            ),
        },
        Font::new(12.0),
    );
    svg.rect(
        Pt::new(x0, TRACK_Y),
        len,
        TRACK_H,
        Style::both(PAPER, INK, 1.0),
    );
    let zone = |svg: &mut Svg, from: i64, to: i64, c: Colour| {
        let (a, b) = (Layout::chaos_x(from), Layout::chaos_x(to));
        if b > a {
            svg.rect(
                Pt::new(a, TRACK_Y + 1.0),
                b - a,
                TRACK_H - 2.0,
                Style::fill(tint(c, OWNED)),
            );
        }
    };
    zone(&mut svg, 0, low, colour("red"));
    zone(&mut svg, high.min(101), 100, colour("blue"));
    for band in [30, 70] {
        let x = Layout::chaos_x(band);
        svg.line(
            Pt::new(x, TRACK_Y),
            Pt::new(x, TRACK_Y + TRACK_H),
            Style::stroke(RULE, 1.0),
        );
    }
    for v in [0, 30, 70, 100] {
        svg.text(
            Pt::new(Layout::chaos_x(v), TRACK_Y + TRACK_H + 12.0),
            &v.to_string(),
            Font::new(10.0).middle().colour(RULE),
        );
    }
    let cx = Layout::chaos_x(chaos);
    svg.polygon(
        &[
            Pt::new(cx, TRACK_Y + TRACK_H),
            Pt::new(cx - 7.0, TRACK_Y - 6.0),
            Pt::new(cx + 7.0, TRACK_Y - 6.0),
        ],
        Style::both(INK, PAPER, 1.0),
    );

    // The regions.
    for (k, name) in REGIONS.iter().enumerate() {
        let p = Layout::panel(k);
        let r = regions.get(*name);
        let control = r.and_then(|r| r["control"].as_str());
        let fill = control.map_or(PAPER, |c| tint(colour(c), OWNED));
        svg.rounded_rect(p, PANEL_W, PANEL_H, 8.0, Style::both(fill, INK, 1.5));
    }
    // The displays.
    for power in ["blue", "red"] {
        let d = Layout::display(power);
        svg.rounded_rect(
            d,
            Layout::display_w(),
            DISPLAY_H,
            8.0,
            Style::both(tint(colour(power), palette::HOME), colour(power), 2.0),
        );
    }

    // This phase's deployments and moves: cancelled ones first; over the panels,
    // under their texts and badges.
    let ordered = moves
        .iter()
        .filter(|m| !m.done)
        .chain(moves.iter().filter(|m| m.done));
    for m in ordered {
        let (Some(from), Some(to)) = (Layout::centre(&m.from), Layout::centre(&m.to)) else {
            continue;
        };
        let a = Arrow::new(6.0).trim(0.0, 18.0);
        let a = if m.done { a } else { a.dashed() };
        marks::arrow(&mut svg, from, to, colour(&m.power), a);
    }

    for (k, name) in REGIONS.iter().enumerate() {
        let p = Layout::panel(k);
        let r = regions.get(*name).copied().unwrap_or(&Value::Null);
        svg.text(p.offset(12.0, 24.0), name, Font::new(16.0).bold());
        svg.text(
            p.offset(12.0, 42.0),
            &format!(
                "Combat {}  Political {}  Resource {}",
                r["combat"], r["political"], r["resource"]
            ),
            Font::new(11.0),
        );
        let state = match (r["control"].as_str(), r["resolved"].as_bool()) {
            (Some(c), Some(true)) => format!("controlled by {c}, resolved"),
            (Some(c), _) => format!("controlled by {c}"),
            (None, Some(true)) => "uncontrolled, resolved".to_string(),
            (None, _) => "uncontrolled".to_string(),
        };
        svg.text(p.offset(12.0, 57.0), &state, Font::new(11.0).colour(INK));
        badge_row(&mut svg, p, &badges(position, name, None));
    }
    for pw in position["powers"].as_array().into_iter().flatten() {
        let Some(id) = pw["id"].as_str() else {
            continue;
        };
        if id != "blue" && id != "red" {
            continue;
        }
        let d = Layout::display(id);
        svg.text(
            d.offset(12.0, 22.0),
            &format!("{id}'s display"),
            Font::new(14.0).bold(),
        );
        let pool: Vec<String> = pw["force_pool"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, n)| format!("{n}{k}"))
            .collect();
        svg.text(
            d.offset(12.0, 40.0),
            &format!(
                "{} RP; {} in hand, {} in its chit pool; TH supply {}",
                pw["rp"],
                crate::rules::counted(pw["hand_size"].as_u64().unwrap_or(0), "chit", "chits"),
                pw["chit_pool_size"],
                pw["th_supply"]
            ),
            Font::new(11.0),
        );
        svg.text(
            d.offset(12.0, 55.0),
            &format!(
                "force pool: {}",
                if pool.is_empty() {
                    "nothing".to_string()
                } else {
                    pool.join(" ")
                }
            ),
            Font::new(11.0),
        );
        let base = badges(position, "base", Some(id));
        for (n, (power, text)) in base.iter().enumerate() {
            marks::badge(
                &mut svg,
                d.offset(12.0 + n as f32 * 120.0, 66.0),
                text,
                colour(power),
                BADGE_FONT,
            );
        }
    }
    legend.draw(&mut svg, Pt::new(MARGIN - 14.0, legend_top), legend_width);
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_deployments_are_read_from_the_orders() {
        let json = serde_json::json!({"results": [
            {"power": "blue", "order": "PLAY MOVE Omega Gamma", "outcome": "cancelled"},
            {"power": "red", "order": "DEPLOY Tau 2SF", "outcome": "done"},
            {"power": "red", "order": "RESOLVE Tau", "outcome": "done"},
            // Refused: its writer's alone, drawn in nobody's picture.
            {"power": "blue", "order": "DEPLOY Beta 9SF", "outcome": "invalid", "private": true},
        ]});
        let m = moves(&json);
        assert_eq!(m.len(), 2);
        assert_eq!(
            (m[0].from.as_str(), m[0].to.as_str(), m[0].done),
            ("Omega", "Gamma", false)
        );
        assert_eq!(
            (m[1].from.as_str(), m[1].to.as_str(), m[1].done),
            ("red", "Tau", true)
        );
    }

    /// The picture tells the victory check the text board tells (B9.2, README): after
    /// Politics (a build phase) the next turn's, not the turn of the results drawn.
    #[test]
    fn the_picture_tells_the_check_the_text_board_tells() {
        let position = serde_json::json!({"chaos": 0, "regions": [], "fleets": []});
        let results = PhaseResults {
            json: serde_json::json!({"turn": 2, "phase": "politics", "results": []}),
            view: serde_json::json!({}),
        };
        for (turn, phase, results) in [
            (2, "build", Some(&results)),
            (2, "build", None),
            (3, "deployment", None),
        ] {
            let check = view::next_check(turn, phase).unwrap();
            let (low, high) = State::victory_levels(check);
            let text = view::board_text(&position, turn, phase);
            let told = format!(
                "t the end of turn {check}: red wins at {low} or less, blue at {high} or more"
            );
            assert!(text.contains(&told), "{text}");
            let svg = draw(turn, phase, &position, results).to_text();
            assert!(svg.contains(&told), "{phase} {results:?}: {svg}");
        }
        assert_eq!(view::next_check(2, "build"), Some(3));
    }

    #[test]
    fn panels_do_not_overlap_and_fit() {
        for k in 0..6 {
            let p = Layout::panel(k);
            assert!(p.x + PANEL_W <= WIDTH - MARGIN + 0.5, "{k}");
        }
        let (b, r) = (Layout::display("blue"), Layout::display("red"));
        assert!(b.x + Layout::display_w() < r.x);
        assert!(Layout::panel(5).y + PANEL_H < b.y);
    }
}
