//! A small SVG writer: the shapes the pictures need, numbers written with two decimals
//! at most (so the same drawing is always the same text), text escaped.

use std::fmt::Write;

use super::palette::{Colour, INK};

/// A point in picture units (1 unit = 1 pixel of the PNG).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    pub x: f32,
    pub y: f32,
}

impl Pt {
    pub const fn new(x: f32, y: f32) -> Pt {
        Pt { x, y }
    }

    /// The point halfway to `other`.
    pub fn mid(self, other: Pt) -> Pt {
        self.lerp(other, 0.5)
    }

    /// The point `t` of the way to `other` (0 here, 1 there).
    pub fn lerp(self, other: Pt, t: f32) -> Pt {
        Pt::new(
            self.x + (other.x - self.x) * t,
            self.y + (other.y - self.y) * t,
        )
    }

    pub fn distance(self, other: Pt) -> f32 {
        (other.x - self.x).hypot(other.y - self.y)
    }

    pub fn offset(self, dx: f32, dy: f32) -> Pt {
        Pt::new(self.x + dx, self.y + dy)
    }
}

/// How a shape is painted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub fill: Option<Colour>,
    pub stroke: Option<Colour>,
    pub stroke_width: f32,
    /// Dash and gap lengths of the stroke, if dashed.
    pub dash: Option<(f32, f32)>,
}

impl Style {
    /// Filled, no outline.
    pub fn fill(c: Colour) -> Style {
        Style {
            fill: Some(c),
            stroke: None,
            stroke_width: 0.0,
            dash: None,
        }
    }

    /// Outlined, not filled.
    pub fn stroke(c: Colour, width: f32) -> Style {
        Style {
            fill: None,
            stroke: Some(c),
            stroke_width: width,
            dash: None,
        }
    }

    /// Filled and outlined.
    pub fn both(fill: Colour, stroke: Colour, width: f32) -> Style {
        Style {
            fill: Some(fill),
            stroke: Some(stroke),
            stroke_width: width,
            dash: None,
        }
    }

    pub fn dashed(mut self, dash: f32, gap: f32) -> Style {
        self.dash = Some((dash, gap));
        self
    }

    fn write(&self, out: &mut String) {
        match self.fill {
            Some(c) => {
                let _ = write!(out, " fill=\"{c}\"");
            }
            None => out.push_str(" fill=\"none\""),
        }
        if let Some(c) = self.stroke {
            let _ = write!(
                out,
                " stroke=\"{c}\" stroke-width=\"{}\" stroke-linejoin=\"round\"",
                num(self.stroke_width)
            );
            if let Some((d, g)) = self.dash {
                let _ = write!(out, " stroke-dasharray=\"{} {}\"", num(d), num(g));
            }
        }
    }
}

/// Where a text's `x` is: its start, middle or end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// How a text is written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Font {
    pub size: f32,
    pub bold: bool,
    pub anchor: Anchor,
    pub colour: Colour,
    /// An outline of this colour and width behind the letters, so the text stays
    /// readable over arrows and lines.
    pub halo: Option<(Colour, f32)>,
}

impl Font {
    pub fn new(size: f32) -> Font {
        Font {
            size,
            bold: false,
            anchor: Anchor::Start,
            colour: INK,
            halo: None,
        }
    }

    pub fn halo(mut self, c: Colour, width: f32) -> Font {
        self.halo = Some((c, width));
        self
    }

    pub fn bold(mut self) -> Font {
        self.bold = true;
        self
    }

    pub fn middle(mut self) -> Font {
        self.anchor = Anchor::Middle;
        self
    }

    pub fn end(mut self) -> Font {
        self.anchor = Anchor::End;
        self
    }

    pub fn colour(mut self, c: Colour) -> Font {
        self.colour = c;
        self
    }

    /// A text's width in this font (the bundled font's advances), for layout.
    pub fn width_of(&self, text: &str) -> f32 {
        super::text::width(text, self.size, self.bold)
    }
}

/// A picture being drawn: its size and its shapes, back to front.
#[derive(Clone, Debug, PartialEq)]
pub struct Svg {
    width: u32,
    height: u32,
    /// The shapes, back to front.
    body: String,
    /// The texts, drawn over every shape, in order.
    texts: Vec<super::text::Item>,
}

/// Numbers as SVG text: at most two decimals, no trailing zeros, no `-0`.
pub fn num(v: f32) -> String {
    let v = (v * 100.0).round() / 100.0;
    if v == 0.0 {
        return "0".into();
    }
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Text made safe for XML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

impl Svg {
    /// An empty picture of `width` × `height` pixels on `background`.
    pub fn new(width: u32, height: u32, background: Colour) -> Svg {
        let mut svg = Svg {
            width: width.max(1),
            height: height.max(1),
            body: String::with_capacity(16 * 1024),
            texts: Vec::new(),
        };
        svg.rect(
            Pt::new(0.0, 0.0),
            width as f32,
            height as f32,
            Style::fill(background),
        );
        svg
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    pub fn rect(&mut self, at: Pt, w: f32, h: f32, style: Style) {
        self.rounded_rect(at, w, h, 0.0, style);
    }

    pub fn rounded_rect(&mut self, at: Pt, w: f32, h: f32, radius: f32, style: Style) {
        let _ = write!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            num(at.x),
            num(at.y),
            num(w.max(0.0)),
            num(h.max(0.0))
        );
        if radius > 0.0 {
            let _ = write!(self.body, " rx=\"{}\"", num(radius));
        } else {
            // Square corners need no anti-aliasing (sharper, and much cheaper).
            self.body.push_str(" shape-rendering=\"crispEdges\"");
        }
        style.write(&mut self.body);
        self.body.push_str("/>\n");
    }

    pub fn circle(&mut self, centre: Pt, r: f32, style: Style) {
        let _ = write!(
            self.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"",
            num(centre.x),
            num(centre.y),
            num(r.max(0.0))
        );
        style.write(&mut self.body);
        self.body.push_str("/>\n");
    }

    pub fn line(&mut self, from: Pt, to: Pt, style: Style) {
        let _ = write!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke-linecap=\"butt\"",
            num(from.x),
            num(from.y),
            num(to.x),
            num(to.y)
        );
        if from.x == to.x || from.y == to.y {
            self.body.push_str(" shape-rendering=\"crispEdges\"");
        }
        style.write(&mut self.body);
        self.body.push_str("/>\n");
    }

    /// A thin line drawn without anti-aliasing: cheaper to store in a PNG (a map's
    /// many border lines), a little jagged.
    pub fn crisp_line(&mut self, from: Pt, to: Pt, style: Style) {
        let _ = write!(
            self.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" shape-rendering=\"crispEdges\"",
            num(from.x),
            num(from.y),
            num(to.x),
            num(to.y)
        );
        style.write(&mut self.body);
        self.body.push_str("/>\n");
    }

    /// A closed shape through `points`.
    pub fn polygon(&mut self, points: &[Pt], style: Style) {
        self.body.push_str("<polygon points=\"");
        for (k, p) in points.iter().enumerate() {
            if k > 0 {
                self.body.push(' ');
            }
            let _ = write!(self.body, "{},{}", num(p.x), num(p.y));
        }
        self.body.push('"');
        style.write(&mut self.body);
        self.body.push_str("/>\n");
    }

    /// An open line through `points`.
    pub fn polyline(&mut self, points: &[Pt], style: Style) {
        self.body.push_str("<polyline points=\"");
        for (k, p) in points.iter().enumerate() {
            if k > 0 {
                self.body.push(' ');
            }
            let _ = write!(self.body, "{},{}", num(p.x), num(p.y));
        }
        self.body.push('"');
        style.write(&mut self.body);
        self.body.push_str(" stroke-linecap=\"round\"/>\n");
    }

    /// Text with its baseline at `at.y`. Texts are drawn over every shape, in the order
    /// given (labels stay readable whatever is drawn after them).
    pub fn text(&mut self, at: Pt, text: &str, font: Font) {
        self.texts.push(super::text::Item {
            at,
            text: text.to_string(),
            font,
        });
    }

    pub(super) fn texts(&self) -> &[super::text::Item] {
        &self.texts
    }

    fn write_text(out: &mut String, item: &super::text::Item) {
        let font = item.font;
        let anchor = match font.anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let halo = match font.halo {
            Some((c, w)) => format!(
                " stroke=\"{c}\" stroke-width=\"{}\" stroke-linejoin=\"round\" paint-order=\"stroke\"",
                num(w)
            ),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\" fill=\"{}\"{}{halo}>{}</text>",
            num(item.at.x),
            num(item.at.y),
            num(font.size),
            font.colour,
            if font.bold { " font-weight=\"bold\"" } else { "" },
            escape(&item.text)
        );
    }

    /// A `<title>` for the whole picture (screen readers, tooltips).
    pub fn title(&mut self, text: &str) {
        let _ = writeln!(self.body, "<title>{}</title>", escape(text));
    }

    /// The SVG document: the shapes, then the texts over them (as the PNG draws them).
    pub fn to_text(&self) -> String {
        let mut texts = String::new();
        for item in &self.texts {
            Self::write_text(&mut texts, item);
        }
        self.document(&texts)
    }

    /// The SVG document of the shapes alone (the PNG's texts are laid on after).
    pub(super) fn shapes_text(&self) -> String {
        self.document("")
    }

    fn document(&self, texts: &str) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{family}\">\n{}{texts}</svg>\n",
            self.body,
            w = self.width,
            h = self.height,
            family = super::FONT_FAMILY,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.5), "1.5");
        assert_eq!(num(1.005_1), "1.01");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.345_6), "12.35");
    }

    #[test]
    fn text_is_escaped() {
        let mut s = Svg::new(10, 10, INK);
        s.text(Pt::new(1.0, 2.0), "<b>&\"x\"</b>\u{1}", Font::new(10.0));
        let t = s.to_text();
        assert!(
            t.contains("&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt; </text>"),
            "{t}"
        );
    }
}
