//! Reading order lines as players write them by mail, in the njudge/DPjudge habits:
//! `A PAR-BUR`, `A par - bur`, `Paris - Burgundy`, `F NTH C A LON-NWY`,
//! `A BUR S A PAR-MAR`, `F SPA/SC - MAO`, `F stp(nc) - bar`, `A lon-nth-nwy` (a
//! convoy route), `BUILD A PAR`, `REMOVE F NTH`, `WAIVE`, `DRAW`, an optional power
//! prefix (`FRA A par H`, `France: A par H`). This is syntax only: whether the unit is
//! there and the order possible is [`super::check`]'s business.

use super::map::{normal_name, Kind, Map, Prov};

/// A province as written, with the coast if one was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub prov: Prov,
    pub coast: Option<String>,
}

/// A unit as written: the kind is optional (`Paris - Burgundy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitSpec {
    pub kind: Option<Kind>,
    pub at: Place,
}

/// What a line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Hold,
    /// A move (in a retreat phase, a retreat); `via` for "by convoy".
    Move {
        to: Place,
        via: bool,
    },
    Support {
        target: UnitSpec,
        to: Option<Place>,
    },
    Convoy {
        target: UnitSpec,
        to: Place,
    },
    Retreat {
        to: Place,
    },
    Disband,
    Build,
}

/// One line read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Unit {
        power: Option<u8>,
        unit: UnitSpec,
        action: Action,
    },
    Waive {
        power: Option<u8>,
    },
    Draw {
        power: Option<u8>,
    },
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Place(Place),
    Dash,
    Word(String),
}

/// The line in lower case, with `-` (and `->`, `=>`, dashes) standing apart and the
/// other separators (`( ) / , : ; .`) as spaces: one pass, one allocation.
fn normalise(line: &str) -> String {
    let mut s = String::with_capacity(line.len() + 8);
    let mut prev = ' ';
    for c in line.chars() {
        match c {
            '-' | '\u{2013}' | '\u{2014}' | '\u{2192}' | '=' => s.push_str(" - "),
            '>' if prev == '-' || prev == '=' => {}
            '(' | ')' | '/' | ',' | ':' | ';' | '.' => s.push(' '),
            c => s.push(c.to_ascii_lowercase()),
        }
        prev = c;
    }
    if s.contains("mid - atlantic") {
        s = s.replace("mid - atlantic", "mid atlantic");
    }
    s
}

/// The coast written at `words[i..]`, and how many words it takes.
fn coast_at(words: &[&str], i: usize) -> Option<(&'static str, usize)> {
    let one = |w: &str| match w {
        "nc" => Some("nc"),
        "sc" => Some("sc"),
        "ec" => Some("ec"),
        _ => None,
    };
    let w0 = *words.get(i)?;
    if let Some(c) = one(w0) {
        return Some((c, 1));
    }
    let w1 = *words.get(i + 1)?;
    let c = match (w0, w1) {
        ("north", "coast") | ("n", "c") => "nc",
        ("south", "coast") | ("s", "c") => "sc",
        ("east", "coast") | ("e", "c") => "ec",
        _ => return None,
    };
    Some((c, 2))
}

fn tokens(map: &Map, line: &str) -> Vec<Tok> {
    let s = normalise(line);
    let words: Vec<&str> = s.split_whitespace().collect();
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        if words[i] == "-" {
            out.push(Tok::Dash);
            i += 1;
            continue;
        }
        // The longest province name starting here (a word that starts no longer name
        // is looked up as it is).
        let mut found = None;
        if map.multi_first.contains(words[i]) {
            let room = words[i..].iter().take_while(|w| **w != "-").count();
            for k in (1..=map.name_words.min(room)).rev() {
                let name = normal_name(&words[i..i + k].join(" "));
                if let Some(&p) = map.names.get(name.as_str()) {
                    found = Some((p, k));
                    break;
                }
            }
        } else if let Some(&p) = map.names.get(words[i]) {
            found = Some((p, 1));
        }
        match found {
            Some((p, k)) => {
                i += k;
                let mut coast = None;
                if let Some((c, n)) = coast_at(&words, i) {
                    coast = Some(c.to_string());
                    i += n;
                }
                out.push(Tok::Place(Place { prov: p, coast }));
            }
            None => {
                out.push(Tok::Word(words[i].to_string()));
                i += 1;
            }
        }
    }
    out
}

fn is(t: Option<&Tok>, words: &[&str]) -> bool {
    matches!(t, Some(Tok::Word(w)) if words.contains(&w.as_str()))
}

fn kind_of(t: Option<&Tok>) -> Option<Kind> {
    match t {
        Some(Tok::Word(w)) => match w.as_str() {
            "a" | "army" => Some(Kind::Army),
            "f" | "fleet" => Some(Kind::Fleet),
            _ => None,
        },
        _ => None,
    }
}

struct Cursor<'a> {
    toks: &'a [Tok],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }
    fn next(&mut self) -> Option<&Tok> {
        let t = self.toks.get(self.i);
        self.i += 1;
        t
    }
    fn done(&self) -> bool {
        self.i >= self.toks.len()
    }
    fn skip(&mut self, words: &[&str]) -> bool {
        if is(self.peek(), words) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn place(&mut self, what: &str) -> Result<Place, String> {
        match self.next() {
            Some(Tok::Place(p)) => Ok(p.clone()),
            Some(Tok::Word(w)) => Err(format!("{w:?} is not a province ({what} expected)")),
            Some(Tok::Dash) => Err(format!("a province expected after '-' ({what})")),
            None => Err(format!("the order ends where {what} was expected")),
        }
    }
    fn unit(&mut self) -> Result<UnitSpec, String> {
        let kind = kind_of(self.peek());
        // `?` (the DATC files' unit of unknown kind) leaves the kind unsaid.
        if kind.is_some() || is(self.peek(), &["?"]) {
            self.i += 1;
        }
        Ok(UnitSpec {
            kind,
            at: self.place("a unit's province")?,
        })
    }
    /// `- dst`, `to dst`, `move dst`, or nothing.
    fn destination(&mut self) -> Result<Option<Place>, String> {
        if matches!(self.peek(), Some(Tok::Dash)) || is(self.peek(), &["to", "m", "move", "moves"])
        {
            self.i += 1;
            return Ok(Some(self.place("a destination")?));
        }
        Ok(None)
    }
}

const WORDS_HOLD: [&str; 5] = ["h", "hold", "holds", "stand", "stands"];
const WORDS_SUPPORT: [&str; 3] = ["s", "support", "supports"];
const WORDS_CONVOY: [&str; 4] = ["c", "convoy", "convoys", "transport"];
const WORDS_DISBAND: [&str; 5] = ["d", "disband", "disbands", "remove", "removes"];

/// Reads one line. `power` is the prefix if one was written.
pub fn parse(map: &Map, line: &str) -> Result<Line, String> {
    let toks = tokens(map, line);
    if toks.is_empty() {
        return Err("an empty order".into());
    }
    // A power prefix: its id or name, when what follows still reads as an order.
    let first_word = match &toks[0] {
        Tok::Word(w) => Some(w.clone()),
        Tok::Place(p) if p.coast.is_none() => Some(map.prov_id(p.prov).to_string()),
        _ => None,
    };
    if let Some(w) = first_word {
        if let Some(power) = map.power_by_id(&w) {
            if toks.len() > 1 {
                if let Ok(l) = parse_body(&toks[1..], Some(power)) {
                    return Ok(l);
                }
            }
        }
    }
    parse_body(&toks, None)
}

fn parse_body(toks: &[Tok], power: Option<u8>) -> Result<Line, String> {
    let mut c = Cursor { toks, i: 0 };
    if c.skip(&["waive", "waives"]) {
        c.skip(&["build", "builds", "b"]);
        return end(&c, Line::Waive { power });
    }
    if c.skip(&["draw"]) {
        return end(&c, Line::Draw { power });
    }
    if c.skip(&["build", "builds", "b"]) {
        let unit = c.unit()?;
        return end(
            &c,
            Line::Unit {
                power,
                unit,
                action: Action::Build,
            },
        );
    }
    if c.skip(&["remove", "removes", "disband", "disbands", "d"]) {
        let unit = c.unit()?;
        return end(
            &c,
            Line::Unit {
                power,
                unit,
                action: Action::Disband,
            },
        );
    }
    let unit = match c.peek() {
        Some(Tok::Word(w)) if kind_of(c.peek()).is_none() && w != "?" => {
            return Err(format!("{w:?} is not a unit, a province or an order word"))
        }
        Some(Tok::Dash) => return Err("the order starts with '-'".into()),
        _ => c.unit()?,
    };
    if c.done() {
        return Err("no order for the unit (H, -, S, C, R, D or B)".into());
    }
    let action = if c.skip(&WORDS_HOLD) {
        Action::Hold
    } else if c.skip(&WORDS_SUPPORT) {
        let target = c.unit()?;
        let to = c.destination()?;
        c.skip(&WORDS_HOLD);
        Action::Support { target, to }
    } else if c.skip(&WORDS_CONVOY) {
        let target = c.unit()?;
        let to = c
            .destination()?
            .ok_or("a convoy names the army's destination: F nth C A lon - nwy")?;
        Action::Convoy { target, to }
    } else if c.skip(&["retreat", "retreats", "r"]) {
        c.skip(&["to"]);
        if matches!(c.peek(), Some(Tok::Dash)) {
            c.i += 1;
        }
        Action::Retreat {
            to: c.place("the retreat's destination")?,
        }
    } else if c.skip(&WORDS_DISBAND) {
        Action::Disband
    } else if c.skip(&["b", "build", "builds"]) {
        Action::Build
    } else if let Some(to) = c.destination()? {
        // A route of several steps (`A lon-nth-nwy`) is a move by convoy.
        let mut to = to;
        let mut via = false;
        while matches!(c.peek(), Some(Tok::Dash)) {
            c.i += 1;
            to = c.place("a destination")?;
            via = true;
        }
        if c.skip(&["via", "by"]) {
            c.skip(&["convoy", "c"]);
            via = true;
        }
        Action::Move { to, via }
    } else {
        return Err(match c.peek() {
            Some(Tok::Word(w)) => format!("{w:?} is not an order (H, -, S, C, R, D or B)"),
            _ => "no order for the unit (H, -, S, C, R, D or B)".into(),
        });
    };
    end(
        &c,
        Line::Unit {
            power,
            unit,
            action,
        },
    )
}

/// The words that may follow a unit in an order: holds, supports, convoys, retreats,
/// disbands, builds and moves.
const WORDS_AFTER_UNIT: [&str; 29] = [
    "h",
    "hold",
    "holds",
    "stand",
    "stands",
    "s",
    "support",
    "supports",
    "c",
    "convoy",
    "convoys",
    "transport",
    "r",
    "retreat",
    "retreats",
    "d",
    "disband",
    "disbands",
    "remove",
    "removes",
    "b",
    "build",
    "builds",
    "to",
    "m",
    "move",
    "moves",
    "via",
    "by",
];

/// Whether a line is an attempt at an order, right or wrong: it starts with a power
/// prefix before an order, a province followed by an order's next word, a unit kind
/// before a province (or before a word and a `-`: a misspelt province), `BUILD` or
/// `REMOVE` before a unit, or is `WAIVE` or `DRAW` alone. Anything else (chatter, a
/// greeting, a signature) is no order at all: the judge keeps it out of the orders and
/// shows it to its sender only.
pub fn is_order_attempt(map: &Map, line: &str) -> bool {
    let toks = tokens(map, line);
    attempt(map, &toks, true)
}

fn attempt(map: &Map, toks: &[Tok], prefix_allowed: bool) -> bool {
    // After a unit: nothing, a '-', a province, or an order word.
    let after_unit = |rest: &[Tok]| match rest.first() {
        None | Some(Tok::Dash) | Some(Tok::Place(_)) => true,
        Some(Tok::Word(w)) => WORDS_AFTER_UNIT.contains(&w.as_str()),
    };
    let Some(first) = toks.first() else {
        return false;
    };
    if prefix_allowed && toks.len() > 1 {
        let id = match first {
            Tok::Word(w) => Some(w.clone()),
            Tok::Place(p) if p.coast.is_none() => Some(map.prov_id(p.prov).to_string()),
            _ => None,
        };
        if id.is_some_and(|id| map.power_by_id(&id).is_some()) && attempt(map, &toks[1..], false) {
            return true;
        }
    }
    match first {
        Tok::Place(_) => after_unit(&toks[1..]),
        Tok::Dash => false,
        Tok::Word(w) => match w.as_str() {
            "waive" | "waives" => {
                toks.len() == 1 || toks.len() == 2 && is(toks.get(1), &["build", "builds", "b"])
            }
            "draw" => toks.len() == 1,
            "build" | "builds" | "b" | "remove" | "removes" | "disband" | "disbands" | "d" => {
                matches!(toks.get(1), Some(Tok::Place(_)))
                    || (kind_of(toks.get(1)).is_some() || is(toks.get(1), &["?"]))
                        && matches!(toks.get(2), Some(Tok::Place(_)) | Some(Tok::Word(_)))
            }
            _ if kind_of(Some(first)).is_some() || w == "?" => match toks.get(1) {
                Some(Tok::Place(_)) => after_unit(&toks[2..]),
                Some(Tok::Word(_)) => matches!(toks.get(2), Some(Tok::Dash)),
                _ => false,
            },
            _ => false,
        },
    }
}

fn end(c: &Cursor, line: Line) -> Result<Line, String> {
    match c.peek() {
        None => Ok(line),
        Some(Tok::Word(w)) => Err(format!("{w:?} after the end of the order")),
        Some(Tok::Place(_)) => Err("a province after the end of the order".into()),
        Some(Tok::Dash) => Err("a '-' after the end of the order".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Line {
        parse(Map::standard(), s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn njudge_habits_read() {
        let m = Map::standard();
        let par = m.prov_by_id("par").unwrap();
        let bur = m.prov_by_id("bur").unwrap();
        let mv = Line::Unit {
            power: None,
            unit: UnitSpec {
                kind: Some(Kind::Army),
                at: Place {
                    prov: par,
                    coast: None,
                },
            },
            action: Action::Move {
                to: Place {
                    prov: bur,
                    coast: None,
                },
                via: false,
            },
        };
        assert_eq!(p("A PAR-BUR"), mv);
        assert_eq!(p("A par - bur"), mv);
        assert_eq!(p("army paris -> burgundy"), mv);
        let Line::Unit { unit, .. } = p("Paris - Burgundy") else {
            panic!()
        };
        assert_eq!(unit.kind, None);
        let Line::Unit { power, .. } = p("FRA A par - bur") else {
            panic!()
        };
        assert_eq!(power, Some(2));
        let Line::Unit { power, .. } = p("France: A par - bur") else {
            panic!()
        };
        assert_eq!(power, Some(2));
        let Line::Unit { unit, .. } = p("ENG - NTH") else {
            panic!()
        };
        assert_eq!(m.prov_id(unit.at.prov), "eng");
        let Line::Unit { action, .. } = p("F SPA/SC - MAO") else {
            panic!()
        };
        assert!(matches!(action, Action::Move { .. }));
        let Line::Unit { unit, .. } = p("F stp(nc) - bar") else {
            panic!()
        };
        assert_eq!(unit.at.coast.as_deref(), Some("nc"));
        let Line::Unit { action, .. } = p("A lon-nth-nwy") else {
            panic!()
        };
        assert!(matches!(action, Action::Move { via: true, .. }));
        let Line::Unit { action, .. } = p("A lon - nwy via convoy") else {
            panic!()
        };
        assert!(matches!(action, Action::Move { via: true, .. }));
        let Line::Unit { action, .. } = p("F NTH C A LON-NWY") else {
            panic!()
        };
        assert!(matches!(action, Action::Convoy { .. }));
        let Line::Unit { action, .. } = p("A BUR S A PAR-MAR") else {
            panic!()
        };
        assert!(matches!(action, Action::Support { to: Some(_), .. }));
        let Line::Unit { action, .. } = p("A BUR S A PAR") else {
            panic!()
        };
        assert!(matches!(action, Action::Support { to: None, .. }));
        let Line::Unit { action, .. } = p("BUILD A PAR") else {
            panic!()
        };
        assert_eq!(action, Action::Build);
        let Line::Unit { action, .. } = p("REMOVE F NTH") else {
            panic!()
        };
        assert_eq!(action, Action::Disband);
        assert_eq!(p("WAIVE"), Line::Waive { power: None });
        assert_eq!(p("draw"), Line::Draw { power: None });
        let Line::Unit { unit, .. } = p("F Mid-Atlantic Ocean - Spain(nc)") else {
            panic!()
        };
        assert_eq!(m.prov_id(unit.at.prov), "mao");
        let Line::Unit { action, .. } = p("A St Petersburg - Moscow") else {
            panic!()
        };
        assert!(matches!(action, Action::Move { .. }));
    }

    #[test]
    fn orders_right_or_wrong_are_attempts_and_chatter_is_not() {
        let m = Map::standard();
        for line in [
            "A PAR-BUR",
            "Paris - Burgundy",
            "FRA A par - bur",
            "France: A par H",
            "A xyz - bur",
            "A par",
            "A par bur",
            "F NTH C A LON-NWY",
            "A bur S A par - mar",
            "ENG - NTH",
            "eng - nth",
            "BUILD A PAR",
            "build a xyz",
            "REMOVE F NTH",
            "WAIVE",
            "waive build",
            "DRAW",
            "A par R bur",
            "Paris",
        ] {
            assert!(is_order_attempt(m, line), "{line} is an order");
        }
        for line in [
            "hello world",
            "Hi all, thanks for the game",
            "A few thoughts on the alliance",
            "France is weak this year",
            "Paris is lovely in spring",
            "Moscow will fall!",
            "Draw me a sheep",
            "draw?",
            "-- Marianne",
            "Best regards,",
            "Build trust first",
        ] {
            assert!(!is_order_attempt(m, line), "{line} is chatter");
            assert!(parse(m, line).is_err(), "{line} reads as an order");
        }
    }

    #[test]
    fn nonsense_is_refused_with_a_reason() {
        let m = Map::standard();
        for line in [
            "",
            "A xyz - bur",
            "A par",
            "A par - ",
            "hello world",
            "A par - bur bur",
        ] {
            assert!(parse(m, line).is_err(), "{line}");
        }
    }
}
