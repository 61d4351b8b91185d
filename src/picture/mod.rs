//! The board as a picture: drawn in-process as SVG, rasterised to PNG with `resvg`
//! (tiny-skia) and a font bundled in the program (its letters drawn by `text.rs`), so
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
        let pixmap = self.rasterise()?;
        Ok(encode_raster(&Raster {
            data: pixmap.data(),
            width: pixmap.width() as usize,
            height: pixmap.height() as usize,
            bpp: 4,
        }))
    }

    fn rasterise(&self) -> Result<tiny_skia::Pixmap, PictureError> {
        let (w, h) = (self.width(), self.height());
        if u64::from(w) * u64::from(h) > MAX_PIXELS {
            return Err(PictureError::Size(w, h));
        }
        let tree = usvg::Tree::from_str(&self.shapes_text(), &usvg::Options::default())
            .map_err(|e| PictureError::Svg(e.to_string()))?;
        let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(PictureError::Size(w, h))?;
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        text::draw(&mut pixmap, self.texts());
        Ok(pixmap)
    }

    /// The picture rasterised: RGB pixels.
    pub fn to_pixels(&self) -> Result<Pixels, PictureError> {
        let pixmap = self.rasterise()?;
        let (w, h) = (pixmap.width(), pixmap.height());
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
/// A picture whose fast compression is larger than this is compressed again, harder:
/// the big maps (Diplomacy's, War!'s) lose a third of their bytes for some 20 ms more,
/// so their mails stay small; the others stay fast.
const COMPRESS_HARDER_OVER: usize = 80 * 1024;
/// Pixels compared at once with the same pixels of the row above.
const BLOCK: usize = 32;

/// Pixels as the encoder reads them: rows of `bpp` bytes a pixel (RGB or RGBA, the
/// alpha ignored: pictures are opaque).
struct Raster<'a> {
    data: &'a [u8],
    width: usize,
    height: usize,
    bpp: usize,
}

impl Raster<'_> {
    fn colour(&self, i: usize) -> u32 {
        u32::from(self.data[i]) << 16
            | u32::from(self.data[i + 1]) << 8
            | u32::from(self.data[i + 2])
    }

    /// Calls `f(offset, bytes)` for every block of a row that differs from the same
    /// block of the row above (all of the first row), and `same(offset, bytes)` for
    /// the others. Comparing blocks is one `memcmp`, cheap even unoptimised: a board's
    /// blank and flat areas repeat row after row.
    fn blocks(&self, mut f: impl FnMut(usize, usize), mut same: impl FnMut(usize, usize)) {
        let stride = self.width * self.bpp;
        for y in 0..self.height {
            let mut x = 0;
            while x < self.width {
                let n = BLOCK.min(self.width - x);
                let (a, bytes) = (y * stride + x * self.bpp, n * self.bpp);
                if y > 0 && self.data[a..a + bytes] == self.data[a - stride..a - stride + bytes] {
                    same(a, bytes);
                } else {
                    f(a, bytes);
                }
                x += n;
            }
        }
    }
}

/// The colours of a picture for its PNG palette, and each pixel's index into it.
///
/// A board is flat colours and the anti-aliased edges between them, so a few hundred
/// colours cover nearly every pixel. Colours are counted in runs over the blocks of
/// each row that differ from the row above (a flat area counts once per edge, not per
/// pixel: a measure of how much a colour is drawn, cheap to take); the palette is the
/// 256 most counted colours (ties by colour value, so the same pixels always give the
/// same palette), and a pixel of a rarer colour — an edge's blend — takes the nearest
/// of them. A picture of at most 256 colours is kept exactly; otherwise only edge
/// pixels move, a little. Every flat colour is exact, which the pixel tests rely on.
fn quantise(r: &Raster) -> (Vec<[u8; 3]>, Vec<u8>) {
    let mut counts: HashMap<u32, u64> = HashMap::new();
    r.blocks(
        |a, bytes| {
            let mut i = a;
            while i < a + bytes {
                let c = r.colour(i);
                let mut j = i + r.bpp;
                while j < a + bytes && r.data[j..j + 3] == r.data[i..i + 3] {
                    j += r.bpp;
                }
                *counts.entry(c).or_insert(0) += 1;
                i = j;
            }
        },
        |_, _| {},
    );
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
        let [cr, cg, cb] = rgb(c);
        let distance = |&(_, &p): &(usize, &u32)| {
            let [pr, pg, pb] = rgb(p);
            let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2);
            (d(cr, pr) + d(cg, pg) + d(cb, pb), p)
        };
        let nearest = palette
            .iter()
            .enumerate()
            .min_by_key(distance)
            .map_or(0, |(k, _)| k);
        index.insert(c, nearest as u8);
    }
    let mut out = vec![0u8; r.width * r.height];
    let mut last: Option<(u32, u8)> = None;
    // Blocks equal to the block above take the row above's indices.
    let mut copies: Vec<usize> = Vec::new();
    r.blocks(
        |a, bytes| {
            let mut i = a;
            while i < a + bytes {
                let c = r.colour(i);
                let k = match last {
                    Some((lc, k)) if lc == c => k,
                    _ => index.get(&c).copied().unwrap_or(0),
                };
                last = Some((c, k));
                out[i / r.bpp] = k;
                i += r.bpp;
            }
        },
        |a, bytes| copies.push(a / r.bpp * (BLOCK + 1) + bytes / r.bpp),
    );
    // Done in order, top to bottom: each copy's source row is already filled.
    for packed in copies {
        let (p, n) = (packed / (BLOCK + 1), packed % (BLOCK + 1));
        out.copy_within(p - r.width..p - r.width + n, p);
    }
    (palette.into_iter().map(rgb).collect(), out)
}

/// PNG of an opaque picture: 8-bit indexed colour, its palette made by `quantise`,
/// rows unfiltered (what suits a palette picture best), compressed in one call at zlib
/// level 1 (level 6 past `COMPRESS_HARDER_OVER`). A third of the bytes of RGB for the same picture (the Diplomacy map: 96 kB
/// against 189 kB; Foundation and Empire's board: 41 kB against 72 kB), and no slower:
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
    Ok(encode_raster(&Raster {
        data: &pixels.rgb,
        width: w,
        height: h,
        bpp: 3,
    }))
}

fn encode_raster(r: &Raster) -> Vec<u8> {
    let (palette, indices) = quantise(r);
    let mut rows = Vec::with_capacity((r.width + 1) * r.height);
    for row in indices.chunks_exact(r.width) {
        rows.push(0); // no filter
        rows.extend_from_slice(row);
    }
    let mut idat = miniz_oxide::deflate::compress_to_vec_zlib(&rows, 1);
    if idat.len() > COMPRESS_HARDER_OVER {
        idat = miniz_oxide::deflate::compress_to_vec_zlib(&rows, 6);
    }
    let mut out = Vec::with_capacity(idat.len() + 3 * palette.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&(r.width as u32).to_be_bytes());
    ihdr.extend_from_slice(&(r.height as u32).to_be_bytes());
    // 8 bits, colour type 3 (indexed), deflate, filtering method 0, no interlace.
    ihdr.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", &palette.concat());
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    out
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
#[cfg(test)]
mod tests {
    use super::*;

    fn picture(w: u32, h: u32, colour: impl Fn(u32, u32) -> [u8; 3]) -> Pixels {
        let mut rgb = Vec::new();
        for y in 0..h {
            for x in 0..w {
                rgb.extend_from_slice(&colour(x, y));
            }
        }
        Pixels {
            width: w,
            height: h,
            rgb,
        }
    }

    #[test]
    fn a_picture_of_few_colours_comes_back_exactly() {
        // Stripes, a block pattern repeating row after row, and a few odd pixels.
        let p = picture(100, 70, |x, y| match (x / 7 + y / 30) % 3 {
            _ if x == y => [1, 2, 3],
            0 => [255, 255, 255],
            1 => [0, 114, 178],
            _ => [213, 94, 0],
        });
        assert_eq!(decode(&encode(&p).unwrap()).unwrap(), p);
    }

    #[test]
    fn many_colours_keep_the_flat_ones_exact_and_the_rare_ones_take_the_nearest() {
        // A white picture with a blue band and a gradient of 400 rare colours.
        let p = picture(400, 60, |x, y| {
            if y == 30 {
                [(x % 200) as u8, 100, (x / 2) as u8]
            } else if y > 40 {
                [0, 114, 178]
            } else {
                [255, 255, 255]
            }
        });
        let back = decode(&encode(&p).unwrap()).unwrap();
        for (y, x) in [(0, 0), (39, 399), (41, 5), (59, 399)] {
            assert_eq!(back.at(x as f32, y as f32), p.at(x as f32, y as f32));
        }
        // The rare colours: each now the nearest colour of the palette (the colours
        // the decoded picture holds, at most 256).
        let mut palette: Vec<&[u8]> = back.rgb.chunks_exact(3).collect();
        palette.sort();
        palette.dedup();
        assert!(palette.len() <= 256);
        let d = |a: &[u8], b: &[u8]| -> i32 {
            a.iter()
                .zip(b)
                .map(|(&x, &y)| (i32::from(x) - i32::from(y)).pow(2))
                .sum()
        };
        for x in 0..400 {
            let k = 3 * (30 * 400 + x);
            let (was, now) = (&p.rgb[k..k + 3], &back.rgb[k..k + 3]);
            let best = palette.iter().map(|c| d(was, c)).min().unwrap();
            assert_eq!(d(was, now), best, "pixel {x}: {was:?} became {now:?}");
        }
        assert_eq!(encode(&p).unwrap(), encode(&p).unwrap());
    }
}
