//! Colours of the pictures: the Okabe–Ito palette, chosen because its eight colours stay
//! distinct for people with the common forms of colour blindness (protanopia,
//! deuteranopia, tritanopia) and in greyscale print better than most.
//!
//! | name | hex | used for |
//! |---|---|---|
//! | blue | `#0072B2` | 1st power (Foundation), any power called `blue` |
//! | vermillion | `#D55E00` | 2nd power (Imperium), any power called `red` or `vermillion` |
//! | bluish green | `#009E73` | 3rd power (Union of Worlds), any power called `green` |
//! | orange | `#E69F00` | 4th power (Tazenda), any power called `orange` |
//! | reddish purple | `#CC79A7` | 5th power, any power called `purple`, `pink` or `magenta` |
//! | sky blue | `#56B4E9` | 6th power, any power called `sky` or `cyan` |
//! | yellow | `#F0E442` | 7th power, any power called `yellow` |
//! | black | `#000000` | ink: outlines, text, arrow casings |
//!
//! Neutral things are grey ([`NEUTRAL`]). A power's colour is never the only sign of
//! it: unit markers carry the power's letter, owned systems their owner's letter, and
//! the legend names every colour. Areas a power owns are *tinted*: its colour mixed with
//! white ([`tint`]), strongly for an owned system ([`OWNED`]), faintly for a home area
//! ([`HOME`]), so markers in full colour stand out on them.

use std::fmt;

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

impl Colour {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Colour {
        Colour { r, g, b }
    }

    /// Relative luminance (WCAG 2), 0 for black to 1 for white.
    pub fn luminance(self) -> f32 {
        fn channel(c: u8) -> f32 {
            let c = f32::from(c) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        }
        0.2126 * channel(self.r) + 0.7152 * channel(self.g) + 0.0722 * channel(self.b)
    }
}

/// `#RRGGBB`, as SVG reads it.
impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02X}{:02X}{:02X}", self.r, self.g, self.b)
    }
}

pub const BLUE: Colour = Colour::rgb(0x00, 0x72, 0xB2);
pub const VERMILLION: Colour = Colour::rgb(0xD5, 0x5E, 0x00);
pub const BLUISH_GREEN: Colour = Colour::rgb(0x00, 0x9E, 0x73);
pub const ORANGE: Colour = Colour::rgb(0xE6, 0x9F, 0x00);
pub const REDDISH_PURPLE: Colour = Colour::rgb(0xCC, 0x79, 0xA7);
pub const SKY_BLUE: Colour = Colour::rgb(0x56, 0xB4, 0xE9);
pub const YELLOW: Colour = Colour::rgb(0xF0, 0xE4, 0x42);
pub const BLACK: Colour = Colour::rgb(0x00, 0x00, 0x00);
pub const WHITE: Colour = Colour::rgb(0xFF, 0xFF, 0xFF);

/// Things nobody owns: neutral systems and units.
pub const NEUTRAL: Colour = Colour::rgb(0x99, 0x99, 0x99);
/// The picture's background.
pub const PAPER: Colour = Colour::rgb(0xFF, 0xFF, 0xFF);
/// Grid lines and faint marks.
pub const RULE: Colour = Colour::rgb(0x88, 0x88, 0x88);
/// Text and outlines.
pub const INK: Colour = Colour::rgb(0x1A, 0x1A, 0x1A);
/// Regions out of play (nebulae, voids).
pub const VOID: Colour = Colour::rgb(0xD9, 0xD4, 0xE6);

/// The power colours in the order they are handed out.
pub const POWERS: [Colour; 7] = [
    BLUE,
    VERMILLION,
    BLUISH_GREEN,
    ORANGE,
    REDDISH_PURPLE,
    SKY_BLUE,
    YELLOW,
];

/// How much of a power's colour an owned system's tint keeps.
pub const OWNED: f32 = 0.45;
/// How much of a power's colour its home area's tint keeps.
pub const HOME: f32 = 0.14;

/// `colour` mixed with white: `amount` 1 is the colour itself, 0 is white. Rounded the
/// same way everywhere, so a test can compute the exact pixel a tint gives.
pub fn tint(colour: Colour, amount: f32) -> Colour {
    let mix = |c: u8| -> u8 {
        let v = f32::from(c) * amount + 255.0 * (1.0 - amount);
        v.round().clamp(0.0, 255.0) as u8
    };
    Colour::rgb(mix(colour.r), mix(colour.g), mix(colour.b))
}

/// Black or white, whichever reads better on `background`.
pub fn ink_on(background: Colour) -> Colour {
    // Contrast against black vs against white (WCAG): pick the larger.
    let l = background.luminance();
    if (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) {
        BLACK
    } else {
        WHITE
    }
}

/// The palette colour a power's id names, if it names one (`red`, `blue`, …).
fn named(id: &str) -> Option<Colour> {
    Some(match id.to_ascii_lowercase().as_str() {
        "blue" => BLUE,
        "red" | "vermillion" => VERMILLION,
        "green" => BLUISH_GREEN,
        "orange" => ORANGE,
        "purple" | "pink" | "magenta" => REDDISH_PURPLE,
        "sky" | "cyan" => SKY_BLUE,
        "yellow" => YELLOW,
        "neutral" => NEUTRAL,
        _ => return None,
    })
}

/// A colour for each power, in the order given: a power whose id names a colour gets
/// that colour; the others get the unused palette colours in palette order. Past seven
/// powers colours repeat (the letters on the markers still tell them apart).
pub fn assign<S: AsRef<str>>(ids: &[S]) -> Vec<Colour> {
    let wanted: Vec<Option<Colour>> = ids.iter().map(|id| named(id.as_ref())).collect();
    let mut free = POWERS
        .iter()
        .copied()
        .filter(|c| !wanted.contains(&Some(*c)))
        .collect::<Vec<_>>()
        .into_iter()
        .cycle();
    wanted
        .into_iter()
        .map(|w| w.unwrap_or_else(|| free.next().unwrap_or(NEUTRAL)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_powers_get_their_colour_and_others_the_rest_in_order() {
        assert_eq!(
            assign(&["red", "blue", "green", "yellow"]),
            vec![VERMILLION, BLUE, BLUISH_GREEN, YELLOW]
        );
        assert_eq!(
            assign(&["foundation", "imperium", "union", "tazenda"]),
            vec![BLUE, VERMILLION, BLUISH_GREEN, ORANGE]
        );
        // A name takes its colour away from the others.
        assert_eq!(assign(&["x", "blue"]), vec![VERMILLION, BLUE]);
        assert_eq!(assign::<&str>(&[]), Vec::<Colour>::new());
        assert_eq!(assign(&["a"; 9])[7], BLUE);
    }

    #[test]
    fn tints_mix_with_white_and_text_contrasts() {
        assert_eq!(tint(BLUE, 1.0), BLUE);
        assert_eq!(tint(BLUE, 0.0), WHITE);
        assert_eq!(
            tint(Colour::rgb(0, 100, 200), 0.5),
            Colour::rgb(128, 178, 228)
        );
        assert_eq!(ink_on(YELLOW), BLACK);
        assert_eq!(ink_on(BLUE), WHITE);
        assert_eq!(ink_on(WHITE), BLACK);
        assert_eq!(BLUE.to_string(), "#0072B2");
    }
}
