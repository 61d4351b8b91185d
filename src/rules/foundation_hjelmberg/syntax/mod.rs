//! Orders as written (H10): one per line, any case, alternatives joined by `ELSE`.
//! A line reads into a [`Line`] or is invalid with its reason; what can never be
//! possible (a level that does not fit the planet, a gate of the wrong ring) is invalid
//! here, what depends on the position is decided when the line is carried out.
//!
//! Here: the lines of a submission, the words every order uses, and a line's shape
//! (settings, alternatives); `orders.rs` reads starts, free actions, kin moves and
//! retrieves, `act.rs` the action orders (H6) and the words they may end with.

mod act;
mod orders;
#[cfg(test)]
mod tests;

use super::data::{
    dynasty_name, dynasty_space, parse_action_words, parse_level, space_parts, Action, Data, CENTER,
};
use super::order::{Bump, Line, Mods};

/// The order lines of a submission (H10): blank lines, `#` comments and `>` quotes are
/// left out. Yields (line number from 1 over the lines kept, text).
pub fn lines(text: &str) -> impl Iterator<Item = (u32, &str)> {
    text.lines()
        .filter_map(|raw| {
            let line = raw.split('#').next().unwrap_or("").trim();
            (!line.is_empty() && !raw.trim_start().starts_with('>')).then_some(line)
        })
        .enumerate()
        .map(|(k, l)| (k as u32 + 1, l))
}

struct Words<'a> {
    w: Vec<&'a str>,
    at: usize,
}

impl<'a> Words<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.w.get(self.at).copied()
    }

    fn peek_up(&self) -> Option<String> {
        self.peek().map(|w| w.to_ascii_uppercase())
    }

    fn next(&mut self) -> Option<&'a str> {
        let w = self.peek();
        if w.is_some() {
            self.at += 1;
        }
        w
    }

    fn need(&mut self, what: &str) -> Result<&'a str, String> {
        self.next().ok_or_else(|| format!("{what} is missing"))
    }
}

struct Reader<'d> {
    data: &'d Data,
}

impl Reader<'_> {
    fn gate(&self, w: &str) -> Result<u8, String> {
        self.data
            .gate(w)
            .ok_or_else(|| format!("{w:?} is not a gate (A1-A12, B1-B6, C1-C6)"))
    }

    fn planet(&self, w: &str) -> Result<u8, String> {
        self.data
            .planet(w)
            .ok_or_else(|| format!("{w:?} is not a planet (O1-O12, M1-M6, CORE)"))
    }

    fn colour(&self, w: &str) -> Result<u8, String> {
        self.data
            .colour(w)
            .ok_or_else(|| format!("{w:?} is not a colour"))
    }

    fn level(&self, w: &str) -> Result<u8, String> {
        parse_level(w).ok_or_else(|| format!("{w:?} is not a level (I, II, III)"))
    }

    /// A dynasty space: `TRADE II`, `TRADE-II`, `SPACE-TRAVEL I`, `CENTER`.
    fn dynasty(&self, ws: &mut Words) -> Result<usize, String> {
        let w = ws.need("the space")?;
        let up = w.to_ascii_uppercase();
        if up == "CENTER" || up == "CENTRE" {
            return Ok(CENTER);
        }
        if let Some(a) = parse_action_words(&[w]) {
            let l = self.level(ws.need("the level")?)?;
            return Ok(dynasty_space(a, l));
        }
        if let Some((a, l)) = w.rsplit_once('-') {
            if let (Some(a), Some(l)) = (Action::parse(a), parse_level(l)) {
                return Ok(dynasty_space(a, l));
            }
        }
        Err(format!("{w:?} is not a space of the dynasty board"))
    }

    fn bumps(&self, ws: &mut Words) -> Result<Vec<Bump>, String> {
        let mut out = Vec::new();
        while let Some(b) = ws.peek().and_then(Bump::parse) {
            out.push(b);
            ws.next();
        }
        if out.is_empty() {
            return Err("BUMP needs directions (L, R, L2, R2, L3, R3, 0)".into());
        }
        Ok(out)
    }

    fn line(&self, text: &str, setup: bool) -> Result<Line, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut alts: Vec<Vec<&str>> = vec![Vec::new()];
        for w in words {
            if w.eq_ignore_ascii_case("ELSE") {
                alts.push(Vec::new());
            } else {
                alts.last_mut().expect("one").push(w);
            }
        }
        if alts.iter().any(|a| a.is_empty()) {
            return Err("ELSE needs an alternative on each side".into());
        }
        let head = |a: &[&str]| a[0].to_ascii_uppercase();
        let heads: Vec<String> = alts.iter().map(|a| head(a)).collect();
        let single = |h: &str| -> Result<(), String> {
            if alts.len() > 1 {
                Err(format!("{h} cannot have alternatives (ELSE)"))
            } else {
                Ok(())
            }
        };
        if setup {
            if heads.iter().all(|h| h == "START") {
                let mut starts = Vec::new();
                for a in &alts {
                    starts.push(self.start(a)?);
                }
                return Ok(Line::Start(starts));
            }
            match heads[0].as_str() {
                "EMPIRE" | "DECLARE" => {}
                _ => {
                    return Err(
                        "the setup phase takes START lines (START <outer gate> <colour>)".into(),
                    )
                }
            }
        }
        match heads[0].as_str() {
            "START" if !setup => {
                return Err("START is for the setup phase".into());
            }
            "RESERVE" => {
                single("RESERVE")?;
                return match alts[0].len() {
                    1 => Ok(Line::Reserve),
                    _ => Err(format!("{:?} does not belong to RESERVE", alts[0][1])),
                };
            }
            "RETURN" => {
                single("RETURN")?;
                return match alts[0].as_slice() {
                    [_, g] => Ok(Line::Return(self.gate(g)?)),
                    [_] => Err("RETURN needs a gate".into()),
                    [_, _, w, ..] => Err(format!("{w:?} does not belong to RETURN")),
                    [] => unreachable!("not empty"),
                };
            }
            "EMPIRE" => {
                single("EMPIRE")?;
                return match alts[0].as_slice() {
                    [_, r] if r.eq_ignore_ascii_case("BATTLE") => Ok(Line::Empire(true)),
                    [_, r] if r.eq_ignore_ascii_case("YIELD") => Ok(Line::Empire(false)),
                    _ => Err("EMPIRE BATTLE or EMPIRE YIELD".into()),
                };
            }
            "DECLARE" => {
                single("DECLARE")?;
                return match alts[0].len() {
                    1 => Ok(Line::Declare),
                    _ => Err(format!("{:?} does not belong to DECLARE", alts[0][1])),
                };
            }
            _ => {}
        }
        let free = |h: &str| h == "DEPOSIT" || h == "EXCHANGE";
        if heads.iter().all(|h| free(h)) {
            let mut out = Vec::new();
            for a in &alts {
                out.push(self.free(a)?);
            }
            return Ok(Line::Free(out));
        }
        if let Some(h) = heads.iter().find(|h| {
            free(h) || ["START", "RESERVE", "RETURN", "EMPIRE", "DECLARE"].contains(&h.as_str())
        }) {
            return Err(format!("{h} cannot be an alternative of an order"));
        }
        let mut out = Vec::new();
        for a in &alts {
            out.push(self.order(a)?);
        }
        Ok(Line::Orders(out))
    }

    fn parse(&self, text: &str, setup: bool) -> Result<Line, String> {
        self.line(text, setup)
    }
}

/// TO, DOWN and BUMP after a retrieve (H8 recall, fallback).
fn check_retrieve_mods(m: &Mods, source: usize, name: &str) -> Result<(), String> {
    if m.to.is_some() && m.down {
        return Err("TO and DOWN cannot both be written".into());
    }
    if m.down && (source == CENTER || space_parts(source).1 == 1) {
        return Err(format!(
            "DOWN moves a kin one level down: not from {}",
            dynasty_name(source)
        ));
    }
    if !m.bump.is_empty() && !m.down {
        return Err(format!("BUMP belongs to {name} only with DOWN"));
    }
    Ok(())
}

/// Reads one line (setup: START lines and settings only).
pub fn parse_line(data: &Data, text: &str, setup: bool) -> Result<Line, String> {
    Reader { data }.parse(text, setup)
}
