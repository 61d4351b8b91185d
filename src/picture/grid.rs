//! Board geometries: a square grid ([`SquareGrid`]), a hex grid ([`HexGrid`]) and a
//! map of named regions with their outlines ([`RegionMap`]). Each turns a game's places
//! into picture points, so a game draws with places, not pixels.

use super::palette::{Colour, INK};
use super::svg::{Font, Pt, Style, Svg};

/// A grid of square cells, `cols` × `rows`, its top-left corner at `origin`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SquareGrid {
    pub origin: Pt,
    pub cell: f32,
    pub cols: u32,
    pub rows: u32,
}

impl SquareGrid {
    pub fn width(&self) -> f32 {
        self.cell * self.cols as f32
    }

    pub fn height(&self) -> f32 {
        self.cell * self.rows as f32
    }

    /// The top-left corner of a cell (zero-based column and row).
    pub fn corner(&self, col: u32, row: u32) -> Pt {
        self.origin
            .offset(col as f32 * self.cell, row as f32 * self.cell)
    }

    /// The centre of a cell.
    pub fn centre(&self, col: u32, row: u32) -> Pt {
        self.corner(col, row)
            .offset(self.cell / 2.0, self.cell / 2.0)
    }

    /// Fills one cell.
    pub fn fill(&self, svg: &mut Svg, col: u32, row: u32, colour: Colour) {
        svg.rect(
            self.corner(col, row),
            self.cell,
            self.cell,
            Style::fill(colour),
        );
    }

    /// Fills the cells of a rectangle of cells, inclusive.
    pub fn fill_block(&self, svg: &mut Svg, from: (u32, u32), to: (u32, u32), colour: Colour) {
        let (c0, c1) = (from.0.min(to.0), from.0.max(to.0));
        let (r0, r1) = (from.1.min(to.1), from.1.max(to.1));
        svg.rect(
            self.corner(c0, r0),
            (c1 - c0 + 1) as f32 * self.cell,
            (r1 - r0 + 1) as f32 * self.cell,
            Style::fill(colour),
        );
    }

    /// The grid lines and a frame around the whole grid.
    pub fn lines(&self, svg: &mut Svg, colour: Colour, width: f32) {
        let style = Style::stroke(colour, width);
        for c in 1..self.cols {
            let x = self.origin.x + c as f32 * self.cell;
            svg.line(
                Pt::new(x, self.origin.y),
                Pt::new(x, self.origin.y + self.height()),
                style,
            );
        }
        for r in 1..self.rows {
            let y = self.origin.y + r as f32 * self.cell;
            svg.line(
                Pt::new(self.origin.x, y),
                Pt::new(self.origin.x + self.width(), y),
                style,
            );
        }
        svg.rect(
            self.origin,
            self.width(),
            self.height(),
            Style::stroke(INK, width * 2.0),
        );
    }

    /// Column names above the grid and row names to its left.
    pub fn labels(
        &self,
        svg: &mut Svg,
        font: Font,
        col_name: impl Fn(u32) -> String,
        row_name: impl Fn(u32) -> String,
    ) {
        for c in 0..self.cols {
            let at = self.centre(c, 0);
            svg.text(
                Pt::new(at.x, self.origin.y - font.size * 0.5),
                &col_name(c),
                font.middle(),
            );
        }
        for r in 0..self.rows {
            let at = self.centre(0, r);
            svg.text(
                Pt::new(self.origin.x - font.size * 0.5, at.y + font.size * 0.35),
                &row_name(r),
                font.end(),
            );
        }
    }
}

/// Which way hexes point, and which rows (or columns) are pushed half a hex along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexLayout {
    /// Rows of hexes with a point up; odd rows (1, 3, …) pushed half a hex right.
    PointyOddRows,
    /// Columns of hexes with a flat top; odd columns pushed half a hex down.
    FlatOddColumns,
}

/// A grid of hexes in offset coordinates (column, row from 0), as printed maps number
/// them. `size` is the distance from a hex's centre to its corners.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HexGrid {
    pub origin: Pt,
    pub size: f32,
    pub cols: u32,
    pub rows: u32,
    pub layout: HexLayout,
}

impl HexGrid {
    const SQRT3: f32 = 1.732_050_8;

    /// The centre of a hex.
    pub fn centre(&self, col: u32, row: u32) -> Pt {
        let s = self.size;
        let (c, r) = (col as f32, row as f32);
        match self.layout {
            HexLayout::PointyOddRows => {
                let w = Self::SQRT3 * s;
                let shift = if row % 2 == 1 { w / 2.0 } else { 0.0 };
                self.origin.offset(w / 2.0 + c * w + shift, s + r * 1.5 * s)
            }
            HexLayout::FlatOddColumns => {
                let h = Self::SQRT3 * s;
                let shift = if col % 2 == 1 { h / 2.0 } else { 0.0 };
                self.origin.offset(s + c * 1.5 * s, h / 2.0 + r * h + shift)
            }
        }
    }

    /// The six corners of a hex, clockwise.
    pub fn corners(&self, col: u32, row: u32) -> [Pt; 6] {
        let c = self.centre(col, row);
        let start = match self.layout {
            HexLayout::PointyOddRows => -90.0f32,
            HexLayout::FlatOddColumns => 0.0,
        };
        std::array::from_fn(|k| {
            let a = (start + 60.0 * k as f32).to_radians();
            Pt::new(c.x + self.size * a.cos(), c.y + self.size * a.sin())
        })
    }

    /// The size of the whole grid.
    pub fn extent(&self) -> (f32, f32) {
        let s = self.size;
        let (c, r) = (self.cols as f32, self.rows as f32);
        match self.layout {
            HexLayout::PointyOddRows => {
                let w = Self::SQRT3 * s;
                (w * c + w / 2.0, 1.5 * s * r + s / 2.0)
            }
            HexLayout::FlatOddColumns => {
                let h = Self::SQRT3 * s;
                (1.5 * s * c + s / 2.0, h * r + h / 2.0)
            }
        }
    }

    /// Draws every hex, filled by `fill` (none: paper left as it is).
    pub fn draw(&self, svg: &mut Svg, fill: impl Fn(u32, u32) -> Option<Colour>, line: Colour) {
        for row in 0..self.rows {
            for col in 0..self.cols {
                let style = match fill(col, row) {
                    Some(c) => Style::both(c, line, 1.0),
                    None => Style::stroke(line, 1.0),
                };
                svg.polygon(&self.corners(col, row), style);
            }
        }
    }
}

/// A map of named regions, each an outline (a polygon) with a point for its label and
/// its units — for boards of provinces rather than cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RegionMap {
    regions: Vec<(String, Vec<Pt>, Pt)>,
}

impl RegionMap {
    pub fn new() -> RegionMap {
        RegionMap::default()
    }

    /// Adds a region; its label point is the centroid of its outline.
    pub fn add(&mut self, name: &str, outline: Vec<Pt>) {
        let at = centroid(&outline);
        self.regions.push((name.to_string(), outline, at));
    }

    /// Adds a region whose label and units stand at a given point (for outlines whose
    /// centroid falls outside them).
    pub fn add_at(&mut self, name: &str, outline: Vec<Pt>, at: Pt) {
        self.regions.push((name.to_string(), outline, at));
    }

    /// Where a region's label and units stand (names compared without case).
    pub fn anchor(&self, name: &str) -> Option<Pt> {
        self.find(name).map(|r| r.2)
    }

    pub fn outline(&self, name: &str) -> Option<&[Pt]> {
        self.find(name).map(|r| r.1.as_slice())
    }

    fn find(&self, name: &str) -> Option<&(String, Vec<Pt>, Pt)> {
        self.regions.iter().find(|r| r.0.eq_ignore_ascii_case(name))
    }

    /// Draws every region, filled by `fill`, outlined in `line`.
    pub fn draw(&self, svg: &mut Svg, fill: impl Fn(&str) -> Colour, line: Colour) {
        for (name, outline, _) in &self.regions {
            svg.polygon(outline, Style::both(fill(name), line, 1.5));
        }
    }

    /// Writes each region's name at its anchor, `dy` below it.
    pub fn labels(&self, svg: &mut Svg, font: Font, dy: f32) {
        for (name, _, at) in &self.regions {
            svg.text(at.offset(0.0, dy), name, font.middle());
        }
    }
}

/// The centroid of a polygon (its vertices' mean for a degenerate one).
pub fn centroid(points: &[Pt]) -> Pt {
    if points.is_empty() {
        return Pt::new(0.0, 0.0);
    }
    let mut area = 0.0f32;
    let (mut cx, mut cy) = (0.0f32, 0.0f32);
    for k in 0..points.len() {
        let a = points[k];
        let b = points[(k + 1) % points.len()];
        let cross = a.x * b.y - b.x * a.y;
        area += cross;
        cx += (a.x + b.x) * cross;
        cy += (a.y + b.y) * cross;
    }
    if area.abs() < 1e-6 {
        let n = points.len() as f32;
        return Pt::new(
            points.iter().map(|p| p.x).sum::<f32>() / n,
            points.iter().map(|p| p.y).sum::<f32>() / n,
        );
    }
    Pt::new(cx / (3.0 * area), cy / (3.0 * area))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_cells_have_centres_and_corners() {
        let g = SquareGrid {
            origin: Pt::new(10.0, 20.0),
            cell: 50.0,
            cols: 8,
            rows: 6,
        };
        assert_eq!(g.corner(0, 0), Pt::new(10.0, 20.0));
        assert_eq!(g.centre(2, 1), Pt::new(135.0, 95.0));
        assert_eq!((g.width(), g.height()), (400.0, 300.0));
    }

    #[test]
    fn hexes_tile_without_gaps() {
        for layout in [HexLayout::PointyOddRows, HexLayout::FlatOddColumns] {
            let g = HexGrid {
                origin: Pt::new(0.0, 0.0),
                size: 10.0,
                cols: 4,
                rows: 4,
                layout,
            };
            // Neighbouring hexes are √3·size apart, centre to centre.
            let (a, b) = match layout {
                HexLayout::PointyOddRows => (g.centre(1, 1), g.centre(1, 2)),
                HexLayout::FlatOddColumns => (g.centre(1, 1), g.centre(2, 1)),
            };
            assert!((a.distance(b) - 17.320_5).abs() < 0.01, "{layout:?}");
            let (w, h) = g.extent();
            for row in 0..4 {
                for col in 0..4 {
                    for p in g.corners(col, row) {
                        assert!(p.x > -0.01 && p.y > -0.01 && p.x < w + 0.01 && p.y < h + 0.01);
                    }
                }
            }
        }
    }

    #[test]
    fn regions_are_found_by_name_at_their_centroid() {
        let mut m = RegionMap::new();
        m.add(
            "Paris",
            vec![
                Pt::new(0.0, 0.0),
                Pt::new(10.0, 0.0),
                Pt::new(10.0, 10.0),
                Pt::new(0.0, 10.0),
            ],
        );
        assert_eq!(m.anchor("paris"), Some(Pt::new(5.0, 5.0)));
        assert_eq!(m.anchor("Brest"), None);
    }
}
