//! Marks drawn on a board: unit tokens, move arrows, stand-offs, badges, stars. Each
//! is drawn so it reads on any tint: full colour with a dark outline.

use super::palette::{ink_on, Colour, INK, PAPER};
use super::svg::{Font, Pt, Style, Svg};

/// A unit token: a disc of its power's colour with a dark rim and the power's letter
/// (so the colour is never the only sign of the owner).
pub fn token(svg: &mut Svg, centre: Pt, r: f32, colour: Colour, letter: &str) {
    svg.circle(centre, r, Style::both(colour, INK, 2.0));
    if !letter.is_empty() {
        let size = r * 0.95;
        svg.text(
            centre.offset(0.0, size * 0.36),
            letter,
            Font::new(size).bold().middle().colour(ink_on(colour)),
        );
    }
}

/// A square unit token (a second kind of unit, a fleet beside armies): a rounded
/// square of its power's colour with a dark rim and the power's letter.
pub fn square_token(svg: &mut Svg, centre: Pt, r: f32, colour: Colour, letter: &str) {
    svg.rounded_rect(
        centre.offset(-r, -r),
        2.0 * r,
        2.0 * r,
        r * 0.3,
        Style::both(colour, INK, 2.0),
    );
    if !letter.is_empty() {
        let size = r * 0.95;
        svg.text(
            centre.offset(0.0, size * 0.36),
            letter,
            Font::new(size).bold().middle().colour(ink_on(colour)),
        );
    }
}

/// A token out of its place (a dislodged fleet waiting to retreat): smaller, with a
/// dashed rim.
pub fn ghost_token(svg: &mut Svg, centre: Pt, r: f32, colour: Colour, letter: &str) {
    svg.circle(
        centre,
        r + 2.5,
        Style::both(PAPER, INK, 1.5).dashed(3.0, 2.0),
    );
    token(svg, centre, r, colour, letter);
}

/// How an arrow looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrow {
    /// The shaft's width (the dark casing adds 1.5 on each side).
    pub width: f32,
    /// A failed move: dashed.
    pub dashed: bool,
    /// Left free at the start and at the end (to clear the tokens there).
    pub trim_start: f32,
    pub trim_end: f32,
}

impl Arrow {
    pub fn new(width: f32) -> Arrow {
        Arrow {
            width,
            dashed: false,
            trim_start: 0.0,
            trim_end: 0.0,
        }
    }

    pub fn dashed(mut self) -> Arrow {
        self.dashed = true;
        self
    }

    pub fn trim(mut self, start: f32, end: f32) -> Arrow {
        self.trim_start = start;
        self.trim_end = end;
        self
    }
}

/// An arrow from `from` to `to` in `colour`, with a dark casing so it reads on any
/// tint. The straight line between the two points is covered, trims aside: its middle
/// always is, as long as the trims leave it.
pub fn arrow(svg: &mut Svg, from: Pt, to: Pt, colour: Colour, a: Arrow) {
    arrow_shaft(svg, from, to, colour, a);
    arrow_head(svg, from, to, colour, a);
}

/// Where an arrow's parts go: start of the shaft, its end (a little into the head, so
/// no seam shows), and the head's three corners.
fn arrow_geometry(from: Pt, to: Pt, a: Arrow) -> Option<(Pt, Pt, [Pt; 3])> {
    let length = from.distance(to);
    if length <= a.trim_start + a.trim_end + 1.0 {
        return None;
    }
    let start = from.lerp(to, a.trim_start / length);
    let tip = from.lerp(to, 1.0 - a.trim_end / length);
    let head = (a.width * 3.2).min((length - a.trim_start - a.trim_end) * 0.5);
    let base = tip.lerp(start, head / tip.distance(start));
    let (ux, uy) = ((to.x - from.x) / length, (to.y - from.y) / length);
    let half = head * 0.6;
    let wings = [
        tip,
        Pt::new(base.x - uy * half, base.y + ux * half),
        Pt::new(base.x + uy * half, base.y - ux * half),
    ];
    Some((start, base.lerp(tip, 0.3), wings))
}

/// An arrow's shaft alone (drawn under labels, say, with the head drawn later on
/// top by [`arrow_head`]).
pub fn arrow_shaft(svg: &mut Svg, from: Pt, to: Pt, colour: Colour, a: Arrow) {
    let Some((start, end, _)) = arrow_geometry(from, to, a) else {
        return;
    };
    let dash = |s: Style| {
        if a.dashed {
            s.dashed(a.width * 1.6, a.width * 1.1)
        } else {
            s
        }
    };
    svg.line(start, end, dash(Style::stroke(INK, a.width + 3.0)));
    svg.line(start, end, dash(Style::stroke(colour, a.width)));
}

/// An arrow's head alone.
pub fn arrow_head(svg: &mut Svg, from: Pt, to: Pt, colour: Colour, a: Arrow) {
    if let Some((_, _, wings)) = arrow_geometry(from, to, a) {
        svg.polygon(&wings, Style::both(colour, INK, 1.5));
    }
}

/// An arrow along a path (`points`, at least two): solid over its first `solid` steps
/// and dashed beyond (the rest of a move not made), its head at the last point (less
/// `a.trim_end`). One cased line, so the steps join without seams.
pub fn path_arrow(svg: &mut Svg, points: &[Pt], solid: usize, colour: Colour, a: Arrow) {
    let n = points.len();
    if n < 2 {
        return;
    }
    let last = Arrow {
        trim_start: 0.0,
        ..a
    };
    let Some((_, end, wings)) = arrow_geometry(points[n - 2], points[n - 1], last) else {
        return;
    };
    let mut line = points.to_vec();
    line[n - 1] = end;
    let solid = solid.min(n - 1);
    let parts = [(&line[..=solid], false), (&line[solid..], true)];
    let dash = |s: Style, dashed: bool| {
        if dashed {
            s.dashed(a.width * 1.6, a.width * 1.1)
        } else {
            s
        }
    };
    // The casing of every part first, so no part's casing covers another's colour.
    for (width, c) in [(a.width + 3.0, INK), (a.width, colour)] {
        for (part, dashed) in parts {
            if part.len() > 1 {
                svg.polyline(part, dash(Style::stroke(c, width), dashed));
            }
        }
    }
    svg.polygon(&wings, Style::both(colour, INK, 1.5));
}

/// A cross: a place left empty by a stand-off, or anything struck out.
pub fn cross(svg: &mut Svg, centre: Pt, size: f32, colour: Colour) {
    let h = size / 2.0;
    for (a, b) in [
        (centre.offset(-h, -h), centre.offset(h, h)),
        (centre.offset(-h, h), centre.offset(h, -h)),
    ] {
        svg.line(a, b, Style::stroke(INK, size * 0.22 + 2.0));
        svg.line(a, b, Style::stroke(colour, size * 0.22));
    }
}

/// A small labelled box of a power's colour (a stack's units, a count); `at` is its
/// top-left corner. Returns its width.
pub fn badge(svg: &mut Svg, at: Pt, text: &str, colour: Colour, size: f32) -> f32 {
    let font = Font::new(size).bold().middle().colour(ink_on(colour));
    let w = badge_width(text, size);
    let h = size * 1.35;
    svg.rounded_rect(at, w, h, size * 0.3, Style::both(colour, INK, 1.0));
    svg.text(at.offset(w / 2.0, h * 0.5 + size * 0.36), text, font);
    w
}

/// The width of a badge with `text` at font `size`: room on both sides of the text,
/// so a point 2.5 px inside its left edge is always clear of the text.
pub fn badge_width(text: &str, size: f32) -> f32 {
    Font::new(size).bold().width_of(text) + size * 1.4
}

/// A five-pointed star (a star system, a capital).
pub fn star(svg: &mut Svg, centre: Pt, r: f32, style: Style) {
    let points: Vec<Pt> = (0..10)
        .map(|k| {
            let radius = if k % 2 == 0 { r } else { r * 0.45 };
            let a = (-90.0 + 36.0 * k as f32).to_radians();
            Pt::new(centre.x + radius * a.cos(), centre.y + radius * a.sin())
        })
        .collect();
    svg.polygon(&points, style);
}
