//! The board as a picture: drawn in-process as SVG, rasterised to PNG with `resvg`
//! (tiny-skia) and a font bundled in the program (its letters drawn by [`text`]), so
//! the same position gives the same PNG bytes on every machine, with nothing installed
//! and no network.
//!
//! # Drawing a game's board
//!
//! A rule set draws its board by implementing [`Play::picture`] (it returns `None` by
//! default: no picture, the mails stay text only). Put the drawing in `picture.rs` in
//! the game's folder and draw from what the viewer may see — the game's
//! `position_json(viewer)` and the `results` passed in, which the judge has already cut
//! for that viewer — so a picture can never show more than the text does.
//!
//! The toolkit:
//!
//! - [`Svg`]: the picture being drawn (rectangles, circles, lines, polygons, text,
//!   escaped), with [`Pt`] points, [`Style`]s and [`Font`]s.
//! - [`grid`]: board geometries — [`SquareGrid`] (cells, centres, lines, row and column
//!   labels), [`HexGrid`] (offset coordinates, pointy or flat), [`RegionMap`] (named
//!   outlines with anchors for provinces).
//! - [`marks`]: unit tokens in a power's colour with its letter, ghost tokens
//!   (dislodged), arrows (dashed for a failed move), crosses (stand-offs), badges
//!   (stacks), stars (systems).
//! - [`legend`]: the powers' colours and names, and what the symbols mean.
//! - [`palette`]: the colour-blind-safe Okabe–Ito colours, [`palette::assign`] to give
//!   each power one, and [`palette::tint`] for owned areas.
//!
//! A sketch (see `rules/foundation_empire/picture.rs` for a whole board):
//!
//! ```ignore
//! fn picture(&self, viewer: Viewer, results: Option<&PhaseResults>) -> Option<Svg> {
//!     let grid = SquareGrid { origin: Pt::new(30.0, 50.0), cell: 60.0, cols: 8, rows: 8 };
//!     let mut svg = Svg::new(540, 600, palette::PAPER);
//!     grid.lines(&mut svg, palette::RULE, 1.0);
//!     marks::token(&mut svg, grid.centre(2, 3), 18.0, palette::BLUE, "F");
//!     Some(svg)
//! }
//! ```
//!
//! Tests check pictures by their pixels: decode the PNG ([`decode`]) and look at the
//! colour at places computed from the same geometry (`tests/picture.rs`).
//!
//! [`Play::picture`]: crate::rules::game::Play::picture

pub mod grid;
pub mod legend;
pub mod mail;
pub mod marks;
pub mod palette;
pub mod scenario;
pub mod svg;
mod text;

pub use grid::{HexGrid, HexLayout, RegionMap, SquareGrid};
pub use legend::{Key, Legend};
pub use marks::Arrow;
pub use palette::Colour;
pub use svg::{Anchor, Font, Pt, Style, Svg};

use std::collections::HashMap;

use resvg::{tiny_skia, usvg};

/// The family of the bundled font: every text of every picture is written in it.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Why a picture could not be made. Pictures are drawn by this program, so this is a
/// bug when it happens; callers leave the picture out and say so, they do not stop.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("the drawing is not valid SVG: {0}")]
    Svg(String),
    #[error("the picture is too large to draw ({0}×{1})")]
    Size(u32, u32),
    #[error("the picture cannot be written as PNG: {0}")]
    Png(String),
}

/// The largest picture drawn (a bigger one is refused, not allocated).
const MAX_PIXELS: u64 = 16_000_000;

impl Svg {
    /// The picture as PNG bytes: the same drawing always gives the same bytes.
    pub fn to_png(&self) -> Result<Vec<u8>, PictureError> {
        encode(&self.to_pixels()?)
    }

    /// The picture rasterised: RGB pixels.
    pub fn to_pixels(&self) -> Result<Pixels, PictureError> {
        let (w, h) = (self.width(), self.height());
        if u64::from(w) * u64::from(h) > MAX_PIXELS {
            return Err(PictureError::Size(w, h));
        }
        let tree = usvg::Tree::from_str(&self.shapes_text(), &usvg::Options::default())
            .map_err(|e| PictureError::Svg(e.to_string()))?;
        let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PictureError::Size(w, h))?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        text::draw(&mut pixmap, self.texts());
        let mut rgb = vec![0u8; w as usize * h as usize * 3];
        for (out, p) in rgb.chunks_exact_mut(3).zip(pixmap.data().chunks_exact(4)) {
            out.copy_from_slice(&p[..3]);
        }
        Ok(Pixels {
            width: w,
            height: h,
            rgb,
        })
    }
}

/// How many colours a PNG's palette holds.
const PALETTE: usize = 256;

/// The colours of a picture for its PNG palette, and each pixel's index into it.
///
/// A board is flat colours and the anti-aliased edges between them, so a few hundred
/// colours cover nearly every pixel: the palette is the 256 most used colours (ties by
/// colour value, so the same pixels always give the same palette), and a pixel of a
/// rarer colour — an edge's blend — takes the nearest of them. A picture of at most 256
/// colours is kept exactly; otherwise only edge pixels move, a little (on the boards
/// drawn here, under 1 % of the pixels). Every flat colour is exact, which the pixel
/// tests rely on.
fn quantise(pixels: &Pixels) -> (Vec<[u8; 3]>, Vec<u8>) {
    let packed = |p: &[u8]| u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]);
    // Counted by runs: most rows are long runs of one colour.
    let mut counts: HashMap<u32, u64> = HashMap::new();
    let mut run: Option<(u32, u64)> = None;
    for p in pixels.rgb.chunks_exact(3) {
        let c = packed(p);
        match &mut run {
            Some((rc, n)) if *rc == c => *n += 1,
            _ => {
                if let Some((rc, n)) = run {
                    *counts.entry(rc).or_insert(0) += n;
                }
                run = Some((c, 1));
            }
        }
    }
    if let Some((rc, n)) = run {
        *counts.entry(rc).or_insert(0) += n;
    }
    let mut by_use: Vec<(u32, u64)> = counts.into_iter().collect();
    by_use.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<u32> = by_use.iter().take(PALETTE).map(|&(c, _)| c).collect();
    let rgb = |c: u32| [(c >> 16) as u8, (c >> 8) as u8, c as u8];
    let mut index: HashMap<u32, u8> = palette
        .iter()
        .enumerate()
        .map(|(k, &c)| (c, k as u8))
        .collect();
    for &(c, _) in by_use.iter().skip(PALETTE) {
        let [r, g, b] = rgb(c);
        let distance = |&(_, &p): &(usize, &u32)| {
            let [pr, pg, pb] = rgb(p);
            let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2);
            (d(r, pr) + d(g, pg) + d(b, pb), p)
        };
        let nearest = palette
            .iter()
            .enumerate()
            .min_by_key(distance)
            .map_or(0, |(k, _)| k);
        index.insert(c, nearest as u8);
    }
    let mut out = Vec::with_capacity(pixels.rgb.len() / 3);
    let mut last: Option<(u32, u8)> = None;
    for p in pixels.rgb.chunks_exact(3) {
        let c = packed(p);
        let k = match last {
            Some((lc, k)) if lc == c => k,
            _ => index.get(&c).copied().unwrap_or(0),
        };
        last = Some((c, k));
        out.push(k);
    }
    (palette.into_iter().map(rgb).collect(), out)
}

/// PNG of an opaque picture: 8-bit indexed colour, its palette made by [`quantise`],
/// rows unfiltered (what suits a palette picture best), compressed in one call at zlib
/// level 1. A third of the bytes of RGB for the same picture (the Diplomacy map: 90 kB
/// against 190 kB; Foundation and Empire's board: 36 kB against 72 kB), and no slower:
/// there is a third as much to compress. (Written here rather than with the `png`
/// crate's encoder, whose streaming through flate2 zeroes a 32 kB buffer twice a row.)
pub fn encode(pixels: &Pixels) -> Result<Vec<u8>, PictureError> {
    let (w, h) = (pixels.width as usize, pixels.height as usize);
    if pixels.rgb.len() != w * h * 3 || w == 0 || h == 0 {
        return Err(PictureError::Png(format!(
            "{} bytes for {w}×{h} RGB pixels",
            pixels.rgb.len()
        )));
    }
    let (palette, indices) = quantise(pixels);
    let mut rows = Vec::with_capacity((w + 1) * h);
    for row in indices.chunks_exact(w) {
        rows.push(0); // no filter
        rows.extend_from_slice(row);
    }
    let idat = miniz_oxide::deflate::compress_to_vec_zlib(&rows, 1);
    let mut out = Vec::with_capacity(idat.len() + 3 * palette.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&pixels.width.to_be_bytes());
    ihdr.extend_from_slice(&pixels.height.to_be_bytes());
    // 8 bits, colour type 3 (indexed), deflate, filtering method 0, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", &palette.concat());
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

/// One PNG chunk: length, type, data, CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// A phase's id as a title says it: `movement phase`, `interphase`.
pub fn phase_name(id: &str) -> String {
    if id.ends_with("phase") {
        id.to_string()
    } else {
        format!("{id} phase")
    }
}

/// Writes a game's board as a moderator sees it to a PNG file (`pbem game show
/// --png`).
pub fn write_game_png(
    game: &crate::rules::game::Game,
    file: &std::path::Path,
) -> Result<(), String> {
    let svg = game
        .play()
        .picture(crate::rules::game::Viewer::Moderator, None)
        .ok_or_else(|| format!("{} draws no picture", game.rules().name()))?;
    let bytes = svg.to_png().map_err(|e| e.to_string())?;
    std::fs::write(file, bytes).map_err(|e| format!("{}: {e}", file.display()))
}

/// A decoded picture: width, height and RGB pixels row by row (for tests and checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pixels {
    pub width: u32,
    pub height: u32,
    pub rgb: Vec<u8>,
}

impl Pixels {
    /// The colour at a pixel (the one covering the point `(x, y)`).
    pub fn at(&self, x: f32, y: f32) -> Option<Colour> {
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let (x, y) = (x.floor() as u32, y.floor() as u32);
        if x >= self.width || y >= self.height {
            return None;
        }
        let k = 3 * (y as usize * self.width as usize + x as usize);
        Some(Colour::rgb(self.rgb[k], self.rgb[k + 1], self.rgb[k + 2]))
    }
}

/// Decodes a PNG into RGB pixels (any colour type PNG allows, alpha dropped).
pub fn decode(png_bytes: &[u8]) -> Result<Pixels, PictureError> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder
        .read_info()
        .map_err(|e| PictureError::Png(e.to_string()))?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| PictureError::Png("image too large".into()))?;
    let mut buf = vec![0; size];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| PictureError::Png(e.to_string()))?;
    let channels = info.color_type.samples();
    let rgb = buf[..info.buffer_size()]
        .chunks_exact(channels)
        .flat_map(|p| match channels {
            1 | 2 => [p[0], p[0], p[0]],
            _ => [p[0], p[1], p[2]],
        })
        .collect();
    Ok(Pixels {
        width: info.width,
        height: info.height,
        rgb,
    })
}
