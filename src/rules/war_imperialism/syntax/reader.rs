//! The words of an order line ([`tokens`]) and a cursor over them ([`Reader`]) that
//! reads numbers, places, players and unit lists, each failing with the word it could
//! not read.

use crate::rules::war_imperialism::map::{Map, Place};
use crate::rules::war_imperialism::state::{Kind, Units};

/// Words that end a place name.
const STOP: &[&str] = &[
    "-", "TO", "FROM", "WITH", "AT", "ROUNDS", "RETREAT", "TARGET", "TRANSFER", "DP", "BRIBE",
    "SPHERE", "LOAD", "LAND", "ATTACK", "ALWAYS", "NEVER", "EQUAL", "ALL", "ON", "PP",
];

/// "A", "A or B", "A, B or C".
fn or_list(names: &[&str]) -> String {
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

pub(super) struct Reader<'a> {
    pub(super) toks: Vec<String>,
    pub(super) i: usize,
    pub(super) map: &'a Map,
    pub(super) players: &'a [String],
}

/// Splits a line into words: `->` and dashes become a `-` word, commas spaces.
pub(super) fn tokens(line: &str) -> Vec<String> {
    let t = line
        .replace("->", " - ")
        .replace(['–', '—', '-', '>'], " - ")
        .replace([',', ';'], " ");
    t.split_whitespace().map(str::to_string).collect()
}

impl Reader<'_> {
    pub(super) fn peek(&self) -> Option<&str> {
        self.toks.get(self.i).map(String::as_str)
    }

    fn is(&self, word: &str) -> bool {
        self.peek().is_some_and(|t| t.eq_ignore_ascii_case(word))
    }

    pub(super) fn kw(&mut self, word: &str) -> bool {
        if self.is(word) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, word: &str) -> Result<(), String> {
        if self.kw(word) {
            Ok(())
        } else {
            Err(match self.peek() {
                Some(t) => format!("expected {word}, found \"{t}\""),
                None => format!("expected {word} at the end"),
            })
        }
    }

    pub(super) fn end(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(format!("unexpected word \"{t}\"")),
        }
    }

    pub(super) fn number(&mut self) -> Option<u32> {
        let n = self.peek()?.parse::<u32>().ok()?;
        self.i += 1;
        Some(n)
    }

    pub(super) fn count(&mut self, what: &str) -> Result<u32, String> {
        match self.peek() {
            None => Err(format!("{what}: a number is missing")),
            Some(t) => match t.parse::<u32>() {
                Ok(n) if n <= 1_000_000 => {
                    self.i += 1;
                    Ok(n)
                }
                _ => Err(format!("{what}: \"{t}\" is not a number")),
            },
        }
    }

    fn is_stop(t: &str) -> bool {
        STOP.iter().any(|s| s.eq_ignore_ascii_case(t))
    }

    /// A place name of one to four words.
    pub(super) fn place(&mut self, what: &str) -> Result<Place, String> {
        let mut run = 0;
        while self.i + run < self.toks.len() && run < 4 && !Self::is_stop(&self.toks[self.i + run])
        {
            run += 1;
        }
        if run == 0 {
            return Err(match self.peek() {
                Some(t) => format!("expected a {what}, found \"{t}\""),
                None => format!("a {what} is missing"),
            });
        }
        for k in (1..=run).rev() {
            let joined = self.toks[self.i..self.i + k].join(" ");
            if let Some(p) = self.map.find(&joined) {
                self.i += k;
                return Ok(p);
            }
        }
        for k in (1..=run).rev() {
            let joined = self.toks[self.i..self.i + k].join(" ");
            let found = self.map.candidates(&joined);
            if found.len() > 1 {
                let names: Vec<&str> = found.iter().map(|&p| self.map.place_id(p)).collect();
                return Err(format!(
                    "\"{joined}\" is ambiguous: it could be {}",
                    or_list(&names)
                ));
            }
        }
        Err(format!("unknown {what} \"{}\"", self.toks[self.i]))
    }

    pub(super) fn region(&mut self) -> Result<usize, String> {
        let at = self.peek().unwrap_or("").to_string();
        match self.place("region")? {
            Place::Region(k) => Ok(k),
            Place::Sea(k) => Err(format!(
                "\"{at}\" is the sea area {}, not a region",
                self.map.seas[k].id
            )),
        }
    }

    pub(super) fn sea(&mut self) -> Result<usize, String> {
        let at = self.peek().unwrap_or("").to_string();
        match self.place("sea area")? {
            Place::Sea(k) => Ok(k),
            Place::Region(k) => Err(format!(
                "\"{at}\" is the region {}, not a sea area",
                self.map.regions[k].id
            )),
        }
    }

    pub(super) fn player(&mut self) -> Result<usize, String> {
        let Some(t) = self.peek() else {
            return Err("a player is missing".into());
        };
        let found = self.players.iter().position(|p| p.eq_ignore_ascii_case(t));
        match found {
            Some(k) => {
                self.i += 1;
                Ok(k)
            }
            None => Err(format!("unknown player \"{t}\"")),
        }
    }

    pub(super) fn kind_here(&self) -> Option<Kind> {
        self.peek().and_then(Kind::parse)
    }

    pub(super) fn is_flt(t: &str) -> bool {
        matches!(
            t.to_ascii_uppercase().as_str(),
            "FLT" | "FLTS" | "FLEET" | "FLEETS"
        )
    }

    /// `[n] KIND [n] KIND …`: land units, and fleets if allowed.
    pub(super) fn units(&mut self, fleets_ok: bool) -> Result<(Units, u32), String> {
        let mut u = Units::default();
        let mut f = 0u32;
        let mut any = false;
        loop {
            let start = self.i;
            let n = self.number();
            if n == Some(0) {
                return Err("a count of 0".into());
            }
            let n = n.unwrap_or(1);
            if let Some(k) = self.kind_here() {
                self.i += 1;
                u.add_kind(k, n);
                any = true;
            } else if self.peek().is_some_and(Self::is_flt) {
                if !fleets_ok {
                    return Err("fleets are not land units".into());
                }
                self.i += 1;
                f = f.saturating_add(n);
                any = true;
            } else {
                if self.i != start {
                    return Err(match self.peek() {
                        Some(t) => format!("unknown unit kind \"{t}\""),
                        None => "a unit kind is missing".into(),
                    });
                }
                break;
            }
        }
        if !any {
            return Err(match self.peek() {
                Some(t) => format!("expected units, found \"{t}\""),
                None => "units are missing".into(),
            });
        }
        Ok((u, f))
    }

    pub(super) fn land_units(&mut self) -> Result<Units, String> {
        Ok(self.units(false)?.0)
    }

    pub(super) fn kind_list(&mut self) -> Result<Vec<Kind>, String> {
        let mut list = Vec::new();
        while let Some(t) = self.peek() {
            let Some(k) = Kind::parse(t) else {
                return Err(format!("unknown unit kind \"{t}\""));
            };
            if list.contains(&k) {
                return Err(format!("{} is listed twice", k.name()));
            }
            list.push(k);
            self.i += 1;
        }
        if list.is_empty() {
            return Err("no unit kinds listed".into());
        }
        Ok(list)
    }
}
