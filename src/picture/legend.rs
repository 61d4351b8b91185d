//! The legend under a board: each power's colour, letter and name, then what the
//! symbols mean. Laid out in columns that fill the width given.

use super::marks::{self, Arrow};
use super::palette::{tint, Colour, INK, OWNED, PAPER, RULE};
use super::svg::{Font, Pt, Style, Svg};

/// What stands before a legend line.
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    /// A power's unit token: colour and letter.
    Token(Colour, String),
    /// A square unit token (another kind of unit): colour and letter.
    Square(Colour, String),
    /// A square of colour (an area's tint).
    Swatch(Colour),
    /// A move arrow: solid (done) or dashed (failed).
    Arrow(Colour, bool),
    /// A cross (stand-off).
    Cross(Colour),
    /// A token with a dashed ring (dislodged).
    Ghost(Colour, String),
    /// A star (a system).
    Star(Colour),
    /// A badge with a text (a stack).
    Badge(Colour, String),
    /// A short text as the board writes it (`2/4`).
    Text(String),
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legend {
    items: Vec<(Key, String)>,
    /// Item indices that start a new row (the first symbol after the powers, …).
    breaks: Vec<usize>,
}

const ROW: f32 = 24.0;
const FONT: f32 = 12.0;
const KEY_WIDTH: f32 = 34.0;

impl Legend {
    pub fn new() -> Legend {
        Legend::default()
    }

    /// A power: its token and its name.
    pub fn power(&mut self, colour: Colour, letter: &str, name: &str) -> &mut Legend {
        self.item(Key::Token(colour, letter.to_string()), name)
    }

    pub fn item(&mut self, key: Key, label: &str) -> &mut Legend {
        self.items.push((key, label.to_string()));
        self
    }

    /// The next item starts a new row.
    pub fn new_row(&mut self) -> &mut Legend {
        self.breaks.push(self.items.len());
        self
    }

    /// Where each item goes: (row, column), and the number of rows.
    fn places(&self, columns: usize) -> (Vec<(usize, usize)>, usize) {
        let (mut row, mut col) = (0, 0);
        let mut out = Vec::with_capacity(self.items.len());
        for k in 0..self.items.len() {
            if (col >= columns) || (col > 0 && self.breaks.contains(&k)) {
                row += 1;
                col = 0;
            }
            out.push((row, col));
            col += 1;
        }
        let rows = if self.items.is_empty() { 0 } else { row + 1 };
        (out, rows)
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The room a key takes before its label.
    fn key_width(key: &Key) -> f32 {
        match key {
            Key::Badge(_, text) => KEY_WIDTH.max(marks::badge_width(text, 10.0) + 4.0),
            Key::Text(text) => KEY_WIDTH.max(Font::new(FONT).bold().width_of(text) + 10.0),
            _ => KEY_WIDTH,
        }
    }

    fn column_width(&self, width: f32) -> (usize, f32) {
        let font = Font::new(FONT);
        let widest = self
            .items
            .iter()
            .map(|(k, l)| font.width_of(l) + Self::key_width(k))
            .fold(0.0f32, f32::max)
            + 16.0;
        let columns = ((width / widest).floor() as usize).clamp(1, self.items.len().max(1));
        (columns, width / columns as f32)
    }

    /// The height the legend takes in `width`.
    pub fn height(&self, width: f32) -> f32 {
        if self.items.is_empty() {
            return 0.0;
        }
        let (columns, _) = self.column_width(width);
        self.places(columns).1 as f32 * ROW + 8.0
    }

    /// Draws the legend with its top-left corner at `at`, row by row.
    pub fn draw(&self, svg: &mut Svg, at: Pt, width: f32) {
        let (columns, col_w) = self.column_width(width);
        let (places, _) = self.places(columns);
        for ((key, label), &(row, col)) in self.items.iter().zip(&places) {
            let origin = at.offset(col as f32 * col_w, 4.0 + row as f32 * ROW);
            let key_width = Self::key_width(key);
            let mid = origin.offset(key_width / 2.0, ROW / 2.0);
            match key {
                Key::Token(c, letter) => marks::token(svg, mid, 9.0, *c, letter),
                Key::Square(c, letter) => marks::square_token(svg, mid, 8.5, *c, letter),
                Key::Ghost(c, letter) => marks::ghost_token(svg, mid, 7.0, *c, letter),
                Key::Swatch(c) => svg.rect(
                    mid.offset(-11.0, -8.0),
                    22.0,
                    16.0,
                    Style::both(*c, RULE, 1.0),
                ),
                Key::Arrow(c, dashed) => {
                    let a = Arrow::new(3.0);
                    let a = if *dashed { a.dashed() } else { a };
                    marks::arrow(svg, mid.offset(-15.0, 0.0), mid.offset(15.0, 0.0), *c, a);
                }
                Key::Cross(c) => marks::cross(svg, mid, 12.0, *c),
                Key::Star(c) => marks::star(svg, mid, 9.0, Style::both(*c, INK, 1.0)),
                Key::Badge(c, text) => {
                    let w = marks::badge_width(text, 10.0);
                    marks::badge(svg, mid.offset(-w / 2.0, -7.0), text, *c, 10.0);
                }
                Key::Text(text) => {
                    let font = Font::new(FONT).bold().middle();
                    let w = font.width_of(text) + 6.0;
                    svg.rounded_rect(
                        mid.offset(-w / 2.0, -(FONT + 4.0) / 2.0),
                        w,
                        FONT + 4.0,
                        3.0,
                        Style::both(PAPER, RULE, 1.0),
                    );
                    svg.text(mid.offset(0.0, FONT * 0.36), text, font);
                }
            }
            svg.text(
                origin.offset(key_width + 6.0, ROW / 2.0 + FONT * 0.36),
                label,
                Font::new(FONT),
            );
        }
    }
}

/// The usual owned-area swatch of a power.
pub fn owned_swatch(colour: Colour) -> Key {
    Key::Swatch(tint(colour, OWNED))
}

/// A plain swatch of paper (unowned).
pub fn paper_swatch() -> Key {
    Key::Swatch(PAPER)
}
