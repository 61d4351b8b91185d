//! Order parsing, stage 1: text to syntax (R3.2), without looking at the board.
//!
//! A line is read as words; sector words stay as written (`c4`, `Rossem`) for stage 2
//! ([`super::check`]) to find on the board. A syntax error names the smallest fragment
//! that could not be read and what was expected there.

/// One order line as written, reduced to its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Syntax<'a> {
    Hold {
        fleet: &'a str,
    },
    Move {
        fleet: &'a str,
        to: &'a str,
    },
    Support {
        fleet: &'a str,
        /// The move named after `S` (`C1 S B2 - C3`), if any.
        target: Option<(&'a str, &'a str)>,
    },
    Retreat {
        fleet: &'a str,
        to: &'a str,
    },
    Disband {
        fleet: &'a str,
    },
    /// `PLACE Terminus` (setup), `PLACE D3` or `PLACE Rossem D3` (placement).
    Place {
        system: Option<&'a str>,
        at: &'a str,
    },
}

/// One non-blank line of a submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// Where and what was written.
    pub written: Written<'a>,
    pub syntax: Result<Syntax<'a>, String>,
}

/// A line as written: its number in the submission (from 1) and its text, trimmed and
/// without its comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written<'a> {
    pub number: u32,
    pub text: &'a str,
}

/// The order lines of a submission: blank lines, `#` comments and quoted reply lines
/// (`>`) are left out (R3.2).
pub fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.lines().enumerate().filter_map(|(k, raw)| {
        let uncommented = match raw.bytes().position(|b| b == b'#') {
            Some(k) => &raw[..k],
            None => raw,
        };
        let line = uncommented.trim();
        if line.is_empty() || raw.trim_start().starts_with('>') {
            return None;
        }
        Some(Line {
            written: Written {
                number: k as u32 + 1,
                text: line,
            },
            syntax: parse(line),
        })
    })
}

/// The keywords of the order language (R3.2), in any case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Hold,
    /// `-`, `->`, `M`, `MOVES`, `TO`: a move between two sectors.
    Arrow,
    /// `MOVE`: a move, before the fleet (`MOVE B2 C3`) or between (`B2 MOVE C3`).
    Move,
    Support,
    Retreat,
    Disband,
    Place,
    Fleet,
}

/// The keyword a word is, if any; classified once per word, without allocating.
fn keyword(word: &str) -> Option<Keyword> {
    let bytes = word.as_bytes();
    if bytes.len() > 8 {
        return None;
    }
    let mut buf = [0u8; 8];
    for (slot, b) in buf.iter_mut().zip(bytes) {
        *slot = b.to_ascii_uppercase();
    }
    Some(match &buf[..bytes.len()] {
        b"H" | b"HOLD" | b"HOLDS" => Keyword::Hold,
        b"-" | b"->" | b"M" | b"MOVES" | b"TO" => Keyword::Arrow,
        b"MOVE" => Keyword::Move,
        b"S" | b"SUPPORT" | b"SUPPORTS" => Keyword::Support,
        b"R" | b"RETREAT" | b"RETREATS" => Keyword::Retreat,
        b"D" | b"DISBAND" | b"DISBANDS" => Keyword::Disband,
        b"PLACE" | b"START" | b"BUILD" => Keyword::Place,
        b"F" | b"FLEET" => Keyword::Fleet,
        _ => return None,
    })
}

fn is_arrow(word: &str) -> bool {
    matches!(keyword(word), Some(Keyword::Arrow | Keyword::Move))
}

/// The most words an order has (`FLEET C1 SUPPORT FLEET B2 - C3`).
const MAX_WORDS: usize = 8;

/// Up to [`MAX_WORDS`] words of a line, without allocating.
struct Words<'a> {
    items: [&'a str; MAX_WORDS],
    len: usize,
    /// The first word that did not fit, if any.
    overflow: Option<&'a str>,
}

impl<'a> Words<'a> {
    fn push(&mut self, word: &'a str) {
        if self.len < MAX_WORDS {
            self.items[self.len] = word;
            self.len += 1;
        } else if self.overflow.is_none() {
            self.overflow = Some(word);
        }
    }
}

/// Splits a line into words, with `-` and `->` as words of their own.
fn words(line: &str) -> Words<'_> {
    let mut out = Words {
        items: [""; MAX_WORDS],
        len: 0,
        overflow: None,
    };
    // Words end at white space; `-` and `->` are words of their own.
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if b == b'-' {
            let len = if bytes.get(i + 1) == Some(&b'>') {
                2
            } else {
                1
            };
            out.push(&line[i..i + len]);
            i += len;
        } else {
            let start = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'-' {
                i += 1;
            }
            out.push(&line[start..i]);
        }
    }
    out
}

/// Parses one order line (already trimmed, not blank).
pub fn parse<'a>(line: &'a str) -> Result<Syntax<'a>, String> {
    let all = words(line);
    if let Some(extra) = all.overflow {
        return Err(format!(
            "too many words: {extra:?} and after are not understood"
        ));
    }
    let mut w: &[&str] = &all.items[..all.len];
    // An optional leading `F` / `FLEET`, as Diplomacy players write.
    if w.len() > 1 && keyword(w[0]) == Some(Keyword::Fleet) {
        w = &w[1..];
    }
    let Some(&first) = w.first() else {
        return Err("empty order".into());
    };
    match keyword(first) {
        Some(Keyword::Place) => {
            return match w[1..] {
                [at] => Ok(Syntax::Place { system: None, at }),
                [system, at] => Ok(Syntax::Place {
                    system: Some(system),
                    at,
                }),
                [] => Err(format!("a sector or system is expected after {first}")),
                _ => Err(format!("too many words after {first}: {:?}", w[3])),
            };
        }
        Some(Keyword::Move) => {
            return match w[1..] {
                [fleet, to] => Ok(Syntax::Move { fleet, to }),
                [fleet, arrow, to] if is_arrow(arrow) => Ok(Syntax::Move { fleet, to }),
                _ => Err("MOVE is written `MOVE B2 C3`".into()),
            };
        }
        Some(Keyword::Arrow) => return Err(format!("{first:?} needs a fleet's sector before it")),
        _ => {}
    }
    let fleet = first;
    let Some(&verb) = w.get(1) else {
        return Err(format!(
            "an order is expected after {fleet}: H, - <sector>, S, or R <sector>"
        ));
    };
    let rest = &w[2..];
    let one_sector = |rest: &[&'a str]| match *rest {
        [to] => Ok(to),
        [] => Err(format!("a destination is expected after {verb}")),
        [_, extra, ..] => Err(format!("{extra:?} after the destination is not understood")),
    };
    let nothing_more = |rest: &[&str]| match rest {
        [] => Ok(()),
        [extra, ..] => Err(format!("{extra:?} after {verb} is not understood")),
    };
    match keyword(verb) {
        Some(Keyword::Hold) => nothing_more(rest).map(|()| Syntax::Hold { fleet }),
        Some(Keyword::Arrow | Keyword::Move) => {
            one_sector(rest).map(|to| Syntax::Move { fleet, to })
        }
        Some(Keyword::Retreat) => one_sector(rest).map(|to| Syntax::Retreat { fleet, to }),
        Some(Keyword::Disband) => nothing_more(rest).map(|()| Syntax::Disband { fleet }),
        Some(Keyword::Support) => {
            let mut t = rest;
            if t.len() > 1 && keyword(t[0]) == Some(Keyword::Fleet) {
                t = &t[1..];
            }
            match *t {
                [] => Ok(Syntax::Support {
                    fleet,
                    target: None,
                }),
                [from, arrow, to] if is_arrow(arrow) => Ok(Syntax::Support {
                    fleet,
                    target: Some((from, to)),
                }),
                _ => Err("a support is written `C1 S` or `C1 S B2 - C3`".into()),
            }
        }
        _ => Err(format!(
            "{verb:?} is not an order: write H, - <sector>, S, or R <sector>"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Syntax<'_> {
        parse(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    #[test]
    fn r3_2_every_accepted_spelling_reads() {
        for hold in ["B2 H", "b2 hold", "F B2 H", "FLEET B2 HOLD"] {
            assert!(
                matches!(ok(hold), Syntax::Hold { fleet } if fleet.eq_ignore_ascii_case("B2")),
                "{hold}"
            );
        }
        for mv in [
            "B2 - C3",
            "B2-C3",
            "B2 -> C3",
            "B2->C3",
            "B2 M C3",
            "MOVE B2 C3",
            "F B2 - C3",
        ] {
            assert_eq!(
                ok(mv),
                Syntax::Move {
                    fleet: "B2",
                    to: "C3"
                },
                "{mv}"
            );
        }
        assert_eq!(
            ok("C1 S"),
            Syntax::Support {
                fleet: "C1",
                target: None
            }
        );
        assert_eq!(
            ok("C1 SUPPORT"),
            Syntax::Support {
                fleet: "C1",
                target: None
            }
        );
        assert_eq!(
            ok("C1 S B2 - C3"),
            Syntax::Support {
                fleet: "C1",
                target: Some(("B2", "C3"))
            }
        );
        assert_eq!(
            ok("Terminus - Smyrno"),
            Syntax::Move {
                fleet: "Terminus",
                to: "Smyrno"
            }
        );
        assert_eq!(
            ok("C3 R D4"),
            Syntax::Retreat {
                fleet: "C3",
                to: "D4"
            }
        );
        assert_eq!(
            ok("PLACE Rossem D3"),
            Syntax::Place {
                system: Some("Rossem"),
                at: "D3"
            }
        );
        assert_eq!(
            ok("start terminus"),
            Syntax::Place {
                system: None,
                at: "terminus"
            }
        );
    }

    #[test]
    fn r3_2_blank_comment_and_quoted_lines_are_ignored() {
        let text = "\n# my orders\n> B2 - C3\n   \nB2 H # stay\n";
        let all: Vec<_> = lines(text).collect();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].written.text, "B2 H");
        assert_eq!(all[0].written.number, 5);
    }

    #[test]
    fn syntax_errors_name_the_bad_fragment() {
        assert!(parse("B2 X C3").unwrap_err().contains("\"X\""));
        assert!(parse("B2 - C3 D4").unwrap_err().contains("\"D4\""));
        assert!(parse("B2").unwrap_err().contains("after B2"));
        assert!(parse("- C3").is_err());
        assert!(parse("C1 S B2").is_err());
    }
}
