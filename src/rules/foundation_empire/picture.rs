//! The Foundation and Empire board as a picture (see [`crate::picture`]): the grid with
//! each power's home quadrant faintly tinted, every major system on a plate tinted with
//! its owner's colour and marked with the owner's letter, fleets as tokens of their
//! power's colour and letter with their occupation progress (`2/4`), and the phase
//! just adjudicated drawn on it: moves and retreats as arrows (dashed when they
//! failed), stand-offs as crosses, dislodged fleets beside the sector they must leave.
//!
//! Drawn from what the viewer may see: the game's `position_json(viewer)` and the
//! results the judge cut for that viewer; the board itself (grid, quadrants, systems)
//! is public.

use std::path::Path;

use serde_json::Value;

use super::board::{column_name, Board, PowerId, Sector};
use super::position::State;
use super::stored::StoredState;
use super::{report, scenario, syntax};
use crate::picture::legend::{owned_swatch, paper_swatch};
use crate::picture::marks::{self, Arrow};
use crate::picture::palette::{self, tint, Colour, HOME, INK, OWNED, PAPER, RULE};
use crate::picture::{phase_name, Font, Key, Legend, Pt, SquareGrid, Style, Svg};
use crate::rules::game::{PhaseResults, Play, Viewer};
use crate::rules::ScenarioError;

/// Where things are drawn on a board's picture: tests compute pixels from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub grid: SquareGrid,
    width: u32,
}

/// Boards with more sectors are not drawn (a picture of them would not be a mail
/// attachment); their mails stay text only.
pub const MAX_SECTORS: usize = 4096;

/// A sector's side in pixels.
const CELL: f32 = 100.0;
/// A fleet token's radius.
pub const TOKEN: f32 = 20.0;
const PLATE_INSET: f32 = 4.0;
const PLATE_HEIGHT: f32 = 22.0;

impl Layout {
    pub fn new(board: &Board) -> Layout {
        // Large boards get smaller sectors, so the picture stays a mail attachment.
        let cell = (CELL * 8.0 / board.width().max(board.height()) as f32).clamp(16.0, CELL);
        let grid = SquareGrid {
            origin: Pt::new(36.0, 62.0),
            cell,
            cols: board.width(),
            rows: board.height(),
        };
        let width = (grid.origin.x + grid.width() + 18.0).max(480.0).ceil() as u32;
        Layout { grid, width }
    }

    fn scale(&self) -> f32 {
        self.grid.cell / CELL
    }

    fn col_row(&self, board: &Board, s: Sector) -> (u32, u32) {
        board.col_row(s)
    }

    /// Where a sector's fleet token stands (and its arrows start and end).
    pub fn centre(&self, board: &Board, s: Sector) -> Pt {
        let (c, r) = self.col_row(board, s);
        self.grid.centre(c, r)
    }

    /// A point inside a fleet token that its letter leaves in the power's colour.
    pub fn token_probe(&self, board: &Board, s: Sector) -> Pt {
        self.centre(board, s)
            .offset(-(TOKEN - 5.0) * self.scale(), 0.0)
    }

    /// A point of a system's plate that shows its owner's tint: clear of its text and
    /// of any arrow through the sector.
    pub fn plate_probe(&self, board: &Board, s: Sector) -> Pt {
        let (c, r) = self.col_row(board, s);
        self.grid
            .corner(c, r)
            .offset(28.0 * self.scale(), (PLATE_INSET + 3.0) * self.scale())
    }

    /// A point of a home quadrant's tint: the bottom-left of a sector.
    pub fn home_probe(&self, board: &Board, s: Sector) -> Pt {
        let (c, r) = self.col_row(board, s);
        self.grid
            .corner(c, r)
            .offset(5.0 * self.scale(), self.grid.cell - 5.0 * self.scale())
    }
}

/// The powers' colours, in board order.
pub fn colours(board: &Board) -> Vec<Colour> {
    let ids: Vec<&str> = board.powers().map(|(_, p)| p.id.as_str()).collect();
    palette::assign(&ids)
}

impl StoredState {
    /// The hook of [`Play::picture`].
    pub(super) fn draw_picture(
        &self,
        viewer: Viewer,
        results: Option<&PhaseResults>,
    ) -> Option<Svg> {
        let state = self.to_state().ok()?;
        if state.board.len() > MAX_SECTORS {
            return None;
        }
        Some(draw(&state, &self.position_json(viewer), results))
    }
}

/// `pbem adjudicate SCENARIO --png`: the scenario's phase adjudicated, drawn as a
/// moderator sees it.
pub fn scenario_picture(text: &str, dir: &Path) -> Result<Svg, ScenarioError> {
    let s = scenario::Scenario::from_toml(text, dir)?;
    if s.state.board.len() > MAX_SECTORS {
        return Err(ScenarioError::Invalid(format!(
            "boards of more than {MAX_SECTORS} sectors are not drawn"
        )));
    }
    let (after, report) = super::adjudicate(&s.state, &s.orders, s.seed);
    let results = PhaseResults {
        json: scenario::output_value(&s.state, &after, &report),
        view: serde_json::to_value(report::results_view(&after, &report)).unwrap_or_default(),
    };
    // The scenario's output holds the position after the phase, in the shape of
    // `position_json`.
    Ok(draw(&after, &results.json, Some(&results)))
}

fn power_of(board: &Board, id: &str) -> Option<PowerId> {
    board.power_by_id(id)
}

fn sector_of(board: &Board, v: &Value) -> Option<Sector> {
    board.sector(v.as_str()?)
}

/// The picture of a position (`position`: the JSON of `position_json`), with the
/// results of the phase that led to it when given.
pub fn draw(state: &State, position: &Value, results: Option<&PhaseResults>) -> Svg {
    let board = &state.board;
    let layout = Layout::new(board);
    let grid = layout.grid;
    let k = layout.scale();
    let colours = colours(board);
    let colour = |p: PowerId| colours[p.0 as usize];

    let mut legend = Legend::new();
    let owners: Vec<(String, String)> = position["systems"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(s, o)| (s.clone(), o.as_str().unwrap_or("").to_string()))
                .collect()
        })
        .unwrap_or_default();
    for (p, def) in board.powers() {
        let n = owners.iter().filter(|(_, o)| *o == def.id).count();
        legend.power(
            colour(p),
            &def.tag,
            &format!("{} ({n} system{})", def.name, if n == 1 { "" } else { "s" }),
        );
    }
    let results_json = results.map(|r| &r.json);
    let moves = results_json.map(|j| moves(board, j)).unwrap_or_default();
    let standoffs: Vec<Sector> = results_json
        .and_then(|j| j["standoffs"].as_array())
        .map(|a| a.iter().filter_map(|v| sector_of(board, v)).collect())
        .unwrap_or_default();
    let dislodged = position["dislodged"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let due = position["placements_due"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    legend.item(
        owned_swatch(palette::NEUTRAL),
        "system: owner's tint and letter",
    );
    legend.item(paper_swatch(), "system nobody owns");
    legend.item(
        Key::Text("2/4".into()),
        &format!(
            "turns spent occupying a system ({} take it)",
            state.options.occupation_turns
        ),
    );
    if moves.iter().any(|m| m.done) {
        legend.item(Key::Arrow(INK, false), "move");
    }
    if moves.iter().any(|m| !m.done) {
        legend.item(Key::Arrow(INK, true), "failed move");
    }
    if !standoffs.is_empty() {
        legend.item(Key::Cross(palette::RULE), "stand-off: left empty");
    }
    if !dislodged.is_empty() {
        legend.item(
            Key::Ghost(palette::NEUTRAL, String::new()),
            "dislodged: retreats",
        );
    }
    if !due.is_empty() {
        legend.item(Key::Badge(palette::NEUTRAL, "+1".into()), "new fleet due");
    }

    let width = layout.width;
    let legend_top = grid.origin.y + grid.height() + 14.0;
    let legend_width = width as f32 - 2.0 * 16.0;
    let height = (legend_top + legend.height(legend_width) + 10.0).ceil() as u32;
    let mut svg = Svg::new(width, height, PAPER);

    // Title: the phase whose results these are, or the position's phase.
    let label = match results_json {
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
    let title = format!("Foundation and Empire — {label}");
    svg.title(&title);
    svg.text(Pt::new(16.0, 26.0), &title, Font::new(16.0).bold());

    // Home quadrants, faintly.
    for (p, _) in board.powers() {
        let home = tint(colour(p), HOME);
        for s in board.home_sectors(p) {
            let (c, r) = board.col_row(s);
            grid.fill(&mut svg, c, r, home);
        }
    }
    grid.lines(&mut svg, RULE, 1.0);
    grid.labels(&mut svg, Font::new(13.0).bold(), column_name, |r| {
        (r + 1).to_string()
    });

    // Systems: a plate with the name, tinted with the owner's colour, and the owner's
    // letter.
    let plate_font = Font::new(11.0 * k.max(0.7)).bold();
    let mut names: Vec<(Pt, String, Font)> = Vec::new();
    for (_, sys) in board.systems() {
        let (c, r) = board.col_row(sys.at);
        let corner = grid.corner(c, r);
        let owner = owners
            .iter()
            .find(|(s, _)| s.eq_ignore_ascii_case(&sys.name))
            .and_then(|(_, o)| power_of(board, o));
        let fill = owner.map(|p| tint(colour(p), OWNED)).unwrap_or(PAPER);
        svg.rect(
            corner.offset(PLATE_INSET * k, PLATE_INSET * k),
            grid.cell - 2.0 * PLATE_INSET * k,
            PLATE_HEIGHT * k,
            Style::both(fill, INK, 1.0),
        );
        let baseline = corner.y + (PLATE_INSET + 15.0) * k;
        // A halo keeps the name readable where an arrow crosses the plate (only there:
        // outlining text costs time).
        let crossed = moves.iter().any(|m| m.from == sys.at || m.to == sys.at);
        let font = if crossed {
            plate_font.halo(fill, 3.0)
        } else {
            plate_font
        };
        if k >= 0.6 {
            names.push((
                Pt::new(corner.x + (PLATE_INSET + 5.0) * k, baseline),
                sys.name.clone(),
                font,
            ));
        }
        if let Some(p) = owner {
            names.push((
                Pt::new(corner.x + grid.cell - (PLATE_INSET + 5.0) * k, baseline),
                board.power(p).tag.clone(),
                font.end(),
            ));
        }
    }

    // Stand-offs: crosses where moves met and nobody entered.
    for &s in &standoffs {
        marks::cross(&mut svg, layout.centre(board, s), 22.0 * k, palette::RULE);
    }

    // This phase's moves and retreats, solid when done, dashed when not; failed ones
    // first, so a move done is never hidden under one that failed. Over the plates,
    // under their names.
    let moves: Vec<Move> = moves
        .iter()
        .filter(|m| !m.done)
        .chain(moves.iter().filter(|m| m.done))
        .copied()
        .collect();
    for m in &moves {
        let a = Arrow::new(6.0 * k).trim((TOKEN + 2.0) * k, (TOKEN + 3.0) * k);
        let a = if m.done { a } else { a.dashed() };
        marks::arrow(
            &mut svg,
            layout.centre(board, m.from),
            layout.centre(board, m.to),
            colour(m.power),
            a,
        );
    }
    for (at, text, font) in &names {
        svg.text(*at, text, *font);
    }

    // Fleets, with their occupation progress on systems they do not own.
    let needed = state.options.occupation_turns;
    let mut progress = Vec::new();
    for f in position["fleets"].as_array().into_iter().flatten() {
        let (Some(p), Some(s)) = (
            f["power"].as_str().and_then(|id| power_of(board, id)),
            sector_of(board, &f["at"]),
        ) else {
            continue;
        };
        let centre = layout.centre(board, s);
        marks::token(&mut svg, centre, TOKEN * k, colour(p), &board.power(p).tag);
        let occupying = board.system_at(s).is_some_and(|id| {
            let name = &board.system(id).name;
            !owners
                .iter()
                .any(|(sys, o)| sys.eq_ignore_ascii_case(name) && *o == board.power(p).id)
        });
        if occupying {
            let stay = f["stay"].as_u64().unwrap_or(0).min(u64::from(needed));
            progress.push((s, format!("{stay}/{needed}")));
        }
    }

    // Dislodged fleets, beside the sector they must leave.
    for d in &dislodged {
        let (Some(p), Some(s)) = (
            d["power"].as_str().and_then(|id| power_of(board, id)),
            sector_of(board, &d["at"]),
        ) else {
            continue;
        };
        let at = layout.centre(board, s).offset(30.0 * k, 26.0 * k);
        marks::ghost_token(&mut svg, at, 11.0 * k, colour(p), &board.power(p).tag);
    }

    // New fleets due, on their systems.
    for d in &due {
        let (Some(p), Some(id)) = (
            d["power"].as_str().and_then(|id| power_of(board, id)),
            d["system"].as_str().and_then(|s| board.system_by_name(s)),
        ) else {
            continue;
        };
        let (c, r) = board.col_row(board.system(id).at);
        let at = grid.corner(c, r).offset(6.0 * k, grid.cell - 24.0 * k);
        marks::badge(&mut svg, at, "+1", colour(p), 11.0 * k.max(0.7));
    }

    // Occupation progress, in the sector's bottom-left corner: on top of all, so no
    // arrow hides it (and clear of the sector's edges, where arrows cross).
    for (s, text) in &progress {
        let (c, r) = board.col_row(*s);
        let font = Font::new(12.0 * k.max(0.7)).bold().middle();
        let w = font.width_of(text) + 6.0;
        let h = font.size + 4.0;
        let at = grid.corner(c, r).offset(6.0 * k, grid.cell - 6.0 * k - h);
        svg.rounded_rect(at, w, h, 3.0, Style::both(PAPER, RULE, 1.0));
        svg.text(Pt::new(at.x + w / 2.0, at.y + font.size), text, font);
    }

    legend.draw(&mut svg, Pt::new(16.0, legend_top), legend_width);
    svg
}

/// A move or retreat of the phase's results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub power: PowerId,
    pub from: Sector,
    pub to: Sector,
    /// It happened (moved, retreated); false: it failed.
    pub done: bool,
}

/// The moves and retreats of a phase's results (its JSON), read from their canonical
/// order text (`B2 - C3`, `C3 R D3`). Orders refused as invalid are left out.
pub fn moves(board: &Board, results: &Value) -> Vec<Move> {
    let mut out = Vec::new();
    for r in results["results"].as_array().into_iter().flatten() {
        let outcome = r["outcome"].as_str().unwrap_or("");
        if outcome == "invalid" {
            continue;
        }
        let Some(power) = r["power"].as_str().and_then(|id| power_of(board, id)) else {
            continue;
        };
        let Ok(syntax) = syntax::parse(r["order"].as_str().unwrap_or("")) else {
            continue;
        };
        let (from, to) = match syntax {
            syntax::Syntax::Move { fleet, to } | syntax::Syntax::Retreat { fleet, to } => {
                (fleet, to)
            }
            _ => continue,
        };
        let (Some(from), Some(to)) = (board.sector(from), board.sector(to)) else {
            continue;
        };
        out.push(Move {
            power,
            from,
            to,
            done: matches!(outcome, "moved" | "retreated"),
        });
    }
    out
}
