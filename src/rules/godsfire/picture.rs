//! The Godsfire map as a picture (see [`crate::picture`]): the grid of cells with the
//! nebula hatched, each star system on a cell tinted with its owner's colour (grey for
//! the neutrals) with its name and a star — ringed where a power's National Government
//! sits — and the units in each cell as badges of their power's colour
//! (`S2 A1 P3`: squadrons, army groups, planetary defence forces), units in a system's
//! regions counted with the system's cell. With the results of the phase just
//! adjudicated: its moves as arrows along their paths (solid as far as the units went,
//! dashed beyond) and the retreats of blocking stacks, where a fight was
//! (interceptions, blocks, combats) crossed, and in a combat phase the attacks from
//! neighbouring cells and the retreats as arrows.
//!
//! Drawn from what the viewer may see: the game's `position_json(viewer)`; the map
//! (size, nebula) is public.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::map::{split_region_id, Cell, Units};
use super::state::{State, NEUTRAL};
use super::{report, scenario};
use crate::picture::legend::owned_swatch;
use crate::picture::marks::{self, Arrow};
use crate::picture::palette::{self, tint, Colour, INK, OWNED, PAPER, RULE, VOID};
use crate::picture::{phase_name, Font, Key, Legend, Pt, SquareGrid, Style, Svg};
use crate::rules::game::{PhaseResults, Play, Viewer};
use crate::rules::ScenarioError;

/// Maps with more cells are not drawn (their mails stay text only).
pub const MAX_CELLS: usize = 4096;

const CELL: f32 = 60.0;
const BADGE_FONT: f32 = 9.0;
const BADGE_HEIGHT: f32 = BADGE_FONT * 1.35;

/// Where things are drawn: tests compute pixels from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub grid: SquareGrid,
    width: u32,
}

impl Layout {
    pub fn new(state: &State) -> Layout {
        let (cols, rows) = (u32::from(state.map.width), u32::from(state.map.height));
        let cell = (CELL * 15.0 / cols.max(rows).max(1) as f32).clamp(24.0, CELL);
        let grid = SquareGrid {
            origin: Pt::new(36.0, 62.0),
            cell,
            cols,
            rows,
        };
        let width = (grid.origin.x + grid.width() + 18.0).max(480.0).ceil() as u32;
        Layout { grid, width }
    }

    fn corner(&self, cell: Cell) -> Pt {
        self.grid
            .corner(u32::from(cell.col), u32::from(cell.row).saturating_sub(1))
    }

    /// A point of a system's cell that shows its owner's tint (clear of its name, star
    /// and units).
    pub fn system_probe(&self, cell: Cell) -> Pt {
        self.corner(cell).offset(3.0, self.grid.cell * 0.4)
    }

    /// Where a cell's arrows start and end: below its star, above its badges.
    pub fn anchor(&self, cell: Cell) -> Pt {
        self.corner(cell)
            .offset(self.grid.cell * 0.5, self.grid.cell * 0.62)
    }

    /// The size of a system's name.
    fn name_size(&self) -> f32 {
        9.0 * (self.grid.cell / CELL).max(0.8)
    }

    /// Whether a point is in the top of a system's cell, where its name, star and
    /// ring are drawn (over any arrow).
    pub fn under_system(&self, cell: Cell, p: Pt) -> bool {
        let c = self.corner(cell);
        let g = self.grid.cell;
        p.x >= c.x && p.x <= c.x + g && p.y >= c.y - 1.0 && p.y <= c.y + g * 0.6
    }

    /// Where a fight in a cell is crossed: its top right corner, clear of the name.
    pub fn fight(&self, cell: Cell) -> Pt {
        self.corner(cell)
            .offset(self.grid.cell * 0.84, self.grid.cell * 0.3)
    }

    /// A point of a nebula cell's fill between its hatch lines.
    pub fn nebula_probe(&self, cell: Cell) -> Pt {
        self.corner(cell)
            .offset(self.grid.cell * 0.25, self.grid.cell * 0.08)
    }
}

/// The units of one power in one cell (its space and, for a system's cell, the
/// system's regions), and where their badge is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct StackMark {
    pub cell: Cell,
    pub power: String,
    pub units: Units,
    /// The badge's top-left corner.
    pub at: Pt,
    pub width: f32,
}

impl StackMark {
    /// A point inside the badge that its text leaves in the power's colour.
    pub fn probe(&self) -> Pt {
        self.at.offset(2.5, BADGE_HEIGHT / 2.0)
    }

    fn text(&self) -> String {
        let u = self.units;
        let parts: Vec<String> = [("S", u.sqd), ("A", u.ag), ("P", u.pdf)]
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(t, n)| format!("{t}{n}"))
            .collect();
        parts.join(" ")
    }
}

/// The powers' colours by id (neutral: grey).
pub fn colours(state: &State) -> BTreeMap<String, Colour> {
    let ids: Vec<&str> = state.powers.iter().map(|p| p.id.as_str()).collect();
    let mut out: BTreeMap<String, Colour> = ids
        .iter()
        .zip(palette::assign(&ids))
        .map(|(id, c)| (id.to_string(), c))
        .collect();
    out.insert(NEUTRAL.to_string(), palette::NEUTRAL);
    out
}

impl State {
    /// The hook of [`Play::picture`].
    pub(super) fn draw_picture(
        &self,
        viewer: Viewer,
        results: Option<&PhaseResults>,
    ) -> Option<Svg> {
        let cells = usize::from(self.map.width) * usize::from(self.map.height);
        if cells > MAX_CELLS {
            return None;
        }
        Some(draw(self, &self.position_json(viewer), results))
    }
}

/// `pbem adjudicate SCENARIO --png`: the scenario's phase adjudicated, drawn as a
/// moderator sees it.
pub fn scenario_picture(text: &str, _dir: &Path) -> Result<Svg, ScenarioError> {
    let s = scenario::Scenario::from_toml(text).map_err(ScenarioError::Invalid)?;
    if usize::from(s.state.map.width) * usize::from(s.state.map.height) > MAX_CELLS {
        return Err(ScenarioError::Invalid(format!(
            "maps of more than {MAX_CELLS} cells are not drawn"
        )));
    }
    let (after, log) = super::adjudicate(&s.state, &s.orders, s.seed);
    let results = PhaseResults {
        json: scenario::output_value(&s.state, &after, &log),
        view: serde_json::to_value(report::results_view(&after, &log)).unwrap_or_default(),
    };
    Ok(draw(
        &after,
        &after.position_json(Viewer::Moderator),
        Some(&results),
    ))
}

/// A system as the picture needs it, read from the position's JSON.
struct SystemMark {
    name: String,
    at: Cell,
    owner: String,
}

fn systems(position: &Value) -> Vec<SystemMark> {
    position["systems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| {
            Some(SystemMark {
                name: s["name"].as_str()?.to_string(),
                at: Cell::parse(s["at"].as_str()?)?,
                owner: s["owner"].as_str().unwrap_or(NEUTRAL).to_string(),
            })
        })
        .collect()
}

/// The cell of a place: a cell (`F4`) or a system's region (`Sirius-1a`).
fn place_cell(systems: &[SystemMark], at: &str) -> Option<Cell> {
    Cell::parse(at).or_else(|| {
        let (system, _, _) = split_region_id(at)?;
        systems
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(system))
            .map(|m| m.at)
    })
}

/// A move, an attack or a retreat of the phase as the picture draws it: an arrow of
/// its power's colour through these cells (each cell once; a move inside one cell,
/// such as a landing, is none), solid over its first `went` steps, dashed beyond.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveMark {
    pub power: String,
    pub cells: Vec<Cell>,
    pub went: usize,
}

impl MoveMark {
    fn new(
        systems: &[SystemMark],
        power: &str,
        places: &[&str],
        reached: Option<&str>,
    ) -> Option<MoveMark> {
        let mut cells: Vec<Cell> = Vec::new();
        let mut went = None;
        for (k, place) in places.iter().enumerate() {
            let cell = place_cell(systems, place)?;
            if cells.last() != Some(&cell) {
                cells.push(cell);
            }
            if went.is_none() && k > 0 && reached.is_some_and(|r| r.eq_ignore_ascii_case(place)) {
                went = Some(cells.len() - 1);
            }
        }
        // Where the units ended is not on the path (or nowhere): nothing of it is sure.
        let went = went.unwrap_or(0);
        (cells.len() > 1).then(|| MoveMark {
            power: power.to_string(),
            cells,
            went,
        })
    }

    /// The points of its arrow.
    pub fn points(&self, layout: &Layout) -> Vec<Pt> {
        self.cells.iter().map(|&c| layout.anchor(c)).collect()
    }
}

/// The phase's moves (`moves`), the retreats of blocking stacks, the attacks of its
/// combats from other cells and the retreats after them, from the results' JSON (`pbem adjudicate`'s output).
pub fn moves(position: &Value, results: &Value) -> Vec<MoveMark> {
    let systems = systems(position);
    let list = |key: &str| results[key].as_array().into_iter().flatten();
    let mut out = Vec::new();
    for m in list("moves") {
        let Some(power) = m["power"].as_str() else {
            continue;
        };
        let places: Vec<&str> = std::iter::once(&m["from"])
            .chain(m["path"].as_array().into_iter().flatten())
            .filter_map(Value::as_str)
            .collect();
        out.extend(MoveMark::new(&systems, power, &places, m["to"].as_str()));
    }
    for b in list("blocks") {
        if let (Some(power), Some(from), Some(to)) = (
            b["power"].as_str(),
            b["cell"].as_str(),
            b["retreat"].as_str(),
        ) {
            out.extend(MoveMark::new(&systems, power, &[from, to], Some(to)));
        }
    }
    for c in list("combats") {
        let Some(target) = c["target"].as_str() else {
            continue;
        };
        for a in c["attackers"].as_array().into_iter().flatten() {
            if let (Some(power), Some(at)) = (a["power"].as_str(), a["at"].as_str()) {
                out.extend(MoveMark::new(&systems, power, &[at, target], Some(target)));
            }
        }
        for r in c["retreats"].as_array().into_iter().flatten() {
            if let (Some(power), Some(from), Some(to)) =
                (r["power"].as_str(), r["from"].as_str(), r["to"].as_str())
            {
                out.extend(MoveMark::new(&systems, power, &[from, to], Some(to)));
            }
        }
    }
    out
}

/// The cells where the phase fought: interceptions, blocks and combats.
pub fn fights(position: &Value, results: &Value) -> Vec<Cell> {
    let systems = systems(position);
    let list = |key: &str| results[key].as_array().into_iter().flatten();
    let mut out: Vec<Cell> = list("transit_attacks")
        .chain(list("blocks"))
        .filter_map(|f| f["cell"].as_str())
        .chain(list("combats").filter_map(|c| c["target"].as_str()))
        .filter_map(|at| place_cell(&systems, at))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The units of the position by cell and power, with their badges laid out in the
/// cell: from the bottom up, one row per power.
pub fn stack_marks(state: &State, position: &Value) -> Vec<StackMark> {
    let layout = Layout::new(state);
    let systems = systems(position);
    let mut by_place: BTreeMap<(Cell, String), Units> = BTreeMap::new();
    for s in position["stacks"].as_array().into_iter().flatten() {
        let (Some(power), Some(at)) = (s["power"].as_str(), s["at"].as_str()) else {
            continue;
        };
        let Ok(units) = serde_json::from_value::<Units>(s["units"].clone()) else {
            continue;
        };
        let Some(cell) = place_cell(&systems, at) else {
            continue;
        };
        if units.total() == 0 {
            continue;
        }
        by_place
            .entry((cell, power.to_string()))
            .or_default()
            .add(units);
    }
    let mut rows_used: BTreeMap<Cell, u32> = BTreeMap::new();
    let mut out = Vec::new();
    for ((cell, power), units) in by_place {
        let row = rows_used.entry(cell).or_insert(0);
        let mut mark = StackMark {
            cell,
            power,
            units,
            at: Pt::new(0.0, 0.0),
            width: 0.0,
        };
        mark.width = marks::badge_width(&mark.text(), BADGE_FONT);
        let corner = layout.corner(cell);
        let cell_px = layout.grid.cell;
        mark.at = Pt::new(
            corner.x + (cell_px - mark.width) / 2.0,
            corner.y + cell_px - 2.0 - (*row + 1) as f32 * (BADGE_HEIGHT + 1.0),
        );
        *row += 1;
        out.push(mark);
    }
    out
}

/// The picture of a position (`position`: the JSON of `position_json`).
pub fn draw(state: &State, position: &Value, results: Option<&PhaseResults>) -> Svg {
    let layout = Layout::new(state);
    let grid = layout.grid;
    let colours = colours(state);
    let colour = |id: &str| colours.get(id).copied().unwrap_or(palette::NEUTRAL);
    let systems = systems(position);
    let marks = stack_marks(state, position);
    let capitals: Vec<String> = position["powers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| Some(p["ng"].as_str()?.to_ascii_lowercase()))
        .collect();

    let mut legend = Legend::new();
    for p in &state.powers {
        let n = systems.iter().filter(|s| s.owner == p.id).count();
        let letter: String = p.id.chars().take(1).collect::<String>().to_uppercase();
        legend.power(
            colour(&p.id),
            &letter,
            &format!(
                "{}{} ({n} system{})",
                p.id,
                if p.out { ", out" } else { "" },
                if n == 1 { "" } else { "s" }
            ),
        );
    }
    legend.new_row();
    legend.item(owned_swatch(palette::NEUTRAL), "neutral system");
    legend.item(
        Key::Star(palette::NEUTRAL),
        "star system (ringed: a capital)",
    );
    legend.item(Key::Swatch(VOID), "nebula");
    legend.item(
        Key::Badge(palette::NEUTRAL, "S2 A1 P3".into()),
        "units: squadrons, army groups, PDF",
    );
    legend.item(Key::Arrow(INK, false), "move, attack, retreat");
    legend.item(Key::Arrow(INK, true), "the rest of a move not made");
    legend.item(Key::Cross(INK), "a fight");

    let width = layout.width;
    let legend_top = grid.origin.y + grid.height() + 14.0;
    let legend_width = width as f32 - 32.0;
    let height = (legend_top + legend.height(legend_width) + 10.0).ceil() as u32;
    let mut svg = Svg::new(width, height, PAPER);

    let label = match results.map(|r| &r.json) {
        Some(j) => format!(
            "{}turn {}, {}: results",
            j["game"]
                .as_str()
                .map(|g| format!("Game {g}, "))
                .unwrap_or_default(),
            j["turn"].as_u64().unwrap_or(u64::from(state.turn)),
            phase_name(j["phase"].as_str().unwrap_or(state.phase.id()))
        ),
        None => format!("Turn {}, {}", state.turn, phase_name(state.phase.id())),
    };
    let title = format!("Godsfire — {label}");
    svg.title(&title);
    svg.text(Pt::new(16.0, 26.0), &title, Font::new(16.0).bold());

    // Nebula: filled and hatched.
    for &cell in &state.map.nebula {
        let corner = layout.corner(cell);
        if cell.col >= state.map.width || cell.row == 0 || cell.row > state.map.height {
            continue;
        }
        svg.rect(corner, grid.cell, grid.cell, Style::fill(VOID));
        let step = grid.cell / 4.0;
        for k in 1..4 {
            let d = k as f32 * step;
            svg.line(
                corner.offset(d, grid.cell),
                corner.offset(grid.cell, d),
                Style::stroke(RULE, 1.0),
            );
            svg.line(
                corner.offset(0.0, d),
                corner.offset(d, 0.0),
                Style::stroke(RULE, 1.0),
            );
        }
    }
    // Systems' cells in their owner's tint.
    for s in &systems {
        if s.at.col >= state.map.width || s.at.row == 0 || s.at.row > state.map.height {
            continue;
        }
        grid.fill(
            &mut svg,
            u32::from(s.at.col),
            u32::from(s.at.row) - 1,
            tint(colour(&s.owner), OWNED),
        );
    }
    grid.lines(&mut svg, RULE, 1.0);
    grid.labels(
        &mut svg,
        Font::new(13.0).bold(),
        |c| char::from(b'A' + (c % 26) as u8).to_string(),
        |r| (r + 1).to_string(),
    );
    // The phase's moves, dashed ones first; over the cells, under the stars, names
    // and badges (the heads too: a head ends in its cell's middle).
    if let Some(results) = results {
        let moves = moves(position, &results.json);
        let width = (grid.cell / 15.0).clamp(2.5, 4.0);
        let a = Arrow::new(width).trim(0.0, grid.cell * 0.12);
        let steps = |m: &MoveMark| m.cells.len() - 1;
        let ordered = moves
            .iter()
            .filter(|m| m.went < steps(m))
            .chain(moves.iter().filter(|m| m.went == steps(m)));
        for m in ordered {
            marks::path_arrow(&mut svg, &m.points(&layout), m.went, colour(&m.power), a);
        }
    }
    let name_font = Font::new(layout.name_size()).bold().middle();
    for s in &systems {
        if s.at.col >= state.map.width || s.at.row == 0 || s.at.row > state.map.height {
            continue;
        }
        let corner = layout.corner(s.at);
        let centre = corner.offset(grid.cell / 2.0, grid.cell * 0.37);
        if capitals.contains(&s.name.to_ascii_lowercase()) {
            svg.circle(centre, grid.cell * 0.2, Style::both(PAPER, INK, 1.5));
        }
        marks::star(
            &mut svg,
            centre,
            grid.cell * 0.15,
            Style::both(colour(&s.owner), INK, 1.0),
        );
        svg.text(
            corner.offset(grid.cell / 2.0, name_font.size + 1.0),
            &s.name,
            name_font,
        );
    }
    for m in &marks {
        marks::badge(&mut svg, m.at, &m.text(), colour(&m.power), BADGE_FONT);
    }
    if let Some(results) = results {
        for cell in fights(position, &results.json) {
            marks::cross(&mut svg, layout.fight(cell), grid.cell * 0.16, INK);
        }
    }
    legend.draw(&mut svg, Pt::new(16.0, legend_top), legend_width);
    svg
}
