//! Text on the pictures, drawn with the bundled font and no one else's: each glyph's
//! outline (read with `ttf-parser`) is rasterised once per size, weight, halo and
//! quarter-pixel position into a coverage mask, kept, and laid onto the picture where
//! the text needs it. A board's few hundred letters then cost little, where laying out
//! and filling every glyph's outline anew for every picture was most of the time a
//! picture took.
//!
//! Layout is simple and fixed: advances from the font, no kerning, no shaping (Latin
//! text); a glyph the font lacks is drawn as its empty box. The same text always gives
//! the same pixels.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use resvg::tiny_skia;

use super::palette::Colour;
use super::svg::{Anchor, Font, Pt};

/// DejaVu Sans and DejaVu Sans Bold, cut down to Latin-1 and a few symbols
/// (`scripts/subset-font` tells how; licence in `fonts/LICENSE-DejaVu.txt`).
const REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans.subset.ttf");
const BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.subset.ttf");

fn face(bold: bool) -> &'static ttf_parser::Face<'static> {
    static FACES: OnceLock<[ttf_parser::Face<'static>; 2]> = OnceLock::new();
    let faces = FACES.get_or_init(|| {
        [
            ttf_parser::Face::parse(REGULAR, 0).expect("the bundled font reads"),
            ttf_parser::Face::parse(BOLD, 0).expect("the bundled font reads"),
        ]
    });
    &faces[usize::from(bold)]
}

/// The advance of `text` in pixels at `size`.
pub fn width(text: &str, size: f32, bold: bool) -> f32 {
    let face = face(bold);
    let scale = size / f32::from(face.units_per_em());
    text.chars()
        .map(|c| {
            let g = face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
            f32::from(face.glyph_hor_advance(g).unwrap_or(0)) * scale
        })
        .sum()
}

/// A text to lay onto the picture (after its shapes).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Item {
    pub at: Pt,
    pub text: String,
    pub font: Font,
}

/// One glyph rasterised: coverage (0–255) row by row, and where its top-left pixel
/// goes relative to the pen (on the baseline).
struct Mask {
    left: i32,
    top: i32,
    width: usize,
    height: usize,
    coverage: Vec<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    glyph: u16,
    bold: bool,
    /// Size in hundredths of a pixel.
    size: u32,
    /// Halo width in hundredths of a pixel (0: the glyph itself).
    halo: u32,
    /// The pen's position within its pixel, in quarters.
    quarter: u8,
}

/// Masks made so far (a board's glyphs: a few hundred). Emptied if it ever grows past
/// this many, so no picture can make it grow without bound.
const CACHE_LIMIT: usize = 20_000;

fn cache() -> &'static Mutex<HashMap<Key, Arc<Mask>>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Arc<Mask>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

struct Outline(tiny_skia::PathBuilder);

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.0.close();
    }
}

fn rasterise(key: Key) -> Mask {
    let empty = Mask {
        left: 0,
        top: 0,
        width: 0,
        height: 0,
        coverage: Vec::new(),
    };
    let face = face(key.bold);
    let size = key.size as f32 / 100.0;
    let halo = key.halo as f32 / 100.0;
    let scale = size / f32::from(face.units_per_em());
    let mut outline = Outline(tiny_skia::PathBuilder::new());
    let Some(bbox) = face.outline_glyph(ttf_parser::GlyphId(key.glyph), &mut outline) else {
        return empty; // a space
    };
    let Some(path) = outline.0.finish() else {
        return empty;
    };
    let pad = (halo / 2.0).ceil() as i32 + 1;
    let shift = f32::from(key.quarter) / 4.0;
    let left = (f32::from(bbox.x_min) * scale + shift).floor() as i32 - pad;
    let right = (f32::from(bbox.x_max) * scale + shift).ceil() as i32 + pad;
    let top = -(f32::from(bbox.y_max) * scale).ceil() as i32 - pad;
    let bottom = -(f32::from(bbox.y_min) * scale).floor() as i32 + pad;
    let (width, height) = ((right - left).max(1) as u32, (bottom - top).max(1) as u32);
    let Some(mut pixmap) = tiny_skia::Pixmap::new(width, height) else {
        return empty;
    };
    // Font units, y up, to the mask's pixels, y down, the pen at (-left + shift, -top).
    let transform =
        tiny_skia::Transform::from_row(scale, 0.0, 0.0, -scale, -left as f32 + shift, -top as f32);
    let mut paint = tiny_skia::Paint::default();
    paint.set_color_rgba8(0, 0, 0, 255);
    paint.anti_alias = true;
    if halo > 0.0 {
        let stroke = tiny_skia::Stroke {
            width: halo / scale,
            line_join: tiny_skia::LineJoin::Round,
            ..tiny_skia::Stroke::default()
        };
        pixmap.stroke_path(&path, &paint, &stroke, transform, None);
    }
    pixmap.fill_path(&path, &paint, tiny_skia::FillRule::Winding, transform, None);
    Mask {
        left,
        top,
        width: width as usize,
        height: height as usize,
        coverage: pixmap.data().chunks_exact(4).map(|p| p[3]).collect(),
    }
}

fn mask(key: Key) -> Arc<Mask> {
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(m) = cache.get(&key) {
        return m.clone();
    }
    if cache.len() >= CACHE_LIMIT {
        cache.clear();
    }
    let m = Arc::new(rasterise(key));
    cache.insert(key, m.clone());
    m
}

/// Lays `items` onto an opaque RGBA picture, in order.
pub(super) fn draw(pixmap: &mut tiny_skia::Pixmap, items: &[Item]) {
    for item in items {
        let font = item.font;
        let face = face(font.bold);
        let scale = font.size / f32::from(face.units_per_em());
        let advance = width(&item.text, font.size, font.bold);
        let mut pen = match font.anchor {
            Anchor::Start => item.at.x,
            Anchor::Middle => item.at.x - advance / 2.0,
            Anchor::End => item.at.x - advance,
        };
        let baseline = item.at.y.round() as i32;
        for c in item.text.chars() {
            let glyph = face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
            let whole = pen.floor();
            let quarter = (((pen - whole) * 4.0).round() as u8).min(3);
            let base = Key {
                glyph: glyph.0,
                bold: font.bold,
                size: (font.size * 100.0).round() as u32,
                halo: 0,
                quarter,
            };
            if let Some((colour, w)) = font.halo {
                let halo = mask(Key {
                    halo: (w * 100.0).round().max(1.0) as u32,
                    ..base
                });
                blend(pixmap, &halo, whole as i32, baseline, colour);
            }
            blend(pixmap, &mask(base), whole as i32, baseline, font.colour);
            pen += f32::from(face.glyph_hor_advance(glyph).unwrap_or(0)) * scale;
        }
    }
}

/// `colour` laid over the picture through a glyph's coverage, its pen at (x, y).
fn blend(pixmap: &mut tiny_skia::Pixmap, m: &Mask, x: i32, y: i32, colour: Colour) {
    let (pw, ph) = (pixmap.width() as i32, pixmap.height() as i32);
    let data = pixmap.data_mut();
    let src = [
        u32::from(colour.r),
        u32::from(colour.g),
        u32::from(colour.b),
    ];
    for row in 0..m.height {
        let py = y + m.top + row as i32;
        if py < 0 || py >= ph {
            continue;
        }
        for col in 0..m.width {
            let a = u32::from(m.coverage[row * m.width + col]);
            if a == 0 {
                continue;
            }
            let px = x + m.left + col as i32;
            if px < 0 || px >= pw {
                continue;
            }
            let k = 4 * (py as usize * pw as usize + px as usize);
            for (ch, &s) in src.iter().enumerate() {
                let d = u32::from(data[k + ch]);
                // d + (s - d) · a / 255, rounded, in integers.
                data[k + ch] = ((d * (255 - a) + s * a + 127) / 255) as u8;
            }
            data[k + 3] = 255;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_come_from_the_font() {
        let w = width("Terminus", 11.0, true);
        assert!(w > 45.0 && w < 65.0, "{w}");
        assert!(width("i", 12.0, false) < width("W", 12.0, false));
        assert_eq!(width("", 12.0, false), 0.0);
    }

    #[test]
    fn text_is_drawn_in_its_colour_where_it_stands() {
        let mut p = tiny_skia::Pixmap::new(60, 30).unwrap();
        p.fill(tiny_skia::Color::WHITE);
        let item = Item {
            at: Pt::new(5.0, 22.0),
            text: "III".into(),
            font: Font::new(20.0).bold().colour(Colour::rgb(0, 0, 255)),
        };
        draw(&mut p, &[item]);
        let blue = p
            .data()
            .chunks_exact(4)
            .filter(|c| c[..3] == [0, 0, 255])
            .count();
        assert!(blue > 50, "{blue} pixels of full colour");
        // Nothing right of the text or above its letters.
        let at = |x: usize, y: usize| &p.data()[4 * (y * 60 + x)..4 * (y * 60 + x) + 3];
        assert_eq!(at(58, 15), [255, 255, 255]);
        assert_eq!(at(10, 1), [255, 255, 255]);
    }
}
