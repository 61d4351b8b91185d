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
        let line = raw.split('#').next().unwrap_or("").trim();
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

fn is(word: &str, keywords: &[&str]) -> bool {
    keywords.iter().any(|k| word.eq_ignore_ascii_case(k))
}

const HOLD: &[&str] = &["H", "HOLD", "HOLDS"];
const MOVE: &[&str] = &["-", "M", "MOVE", "MOVES", "TO"];
const SUPPORT: &[&str] = &["S", "SUPPORT", "SUPPORTS"];
const RETREAT: &[&str] = &["R", "RETREAT", "RETREATS"];
const DISBAND: &[&str] = &["D", "DISBAND", "DISBANDS"];
const PLACE: &[&str] = &["PLACE", "START", "BUILD"];
const FLEET: &[&str] = &["F", "FLEET"];

/// Splits a line into words, with `-` and `->` as words of their own.
fn words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for chunk in line.split_whitespace() {
        let mut rest = chunk;
        while !rest.is_empty() {
            match rest.find('-') {
                Some(0) => {
                    let len = if rest[1..].starts_with('>') { 2 } else { 1 };
                    out.push("-");
                    rest = &rest[len..];
                }
                Some(i) => {
                    out.push(&rest[..i]);
                    rest = &rest[i..];
                }
                None => {
                    out.push(rest);
                    rest = "";
                }
            }
        }
    }
    out
}

/// Parses one order line (already trimmed, not blank).
pub fn parse(line: &str) -> Result<Syntax<'_>, String> {
    let all = words(line);
    let mut w: &[&str] = &all;
    // An optional leading `F` / `FLEET`, as Diplomacy players write.
    if w.len() > 1 && is(w[0], FLEET) {
        w = &w[1..];
    }
    let Some(&first) = w.first() else {
        return Err("empty order".into());
    };
    if is(first, PLACE) {
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
    if first.eq_ignore_ascii_case("MOVE") {
        return match w[1..] {
            [fleet, to] | [fleet, "-", to] => Ok(Syntax::Move { fleet, to }),
            _ => Err("MOVE is written `MOVE B2 C3`".into()),
        };
    }
    if is(first, MOVE) {
        return Err(format!("{first:?} needs a fleet's sector before it"));
    }
    let fleet = first;
    let Some(&verb) = w.get(1) else {
        return Err(format!(
            "an order is expected after {fleet}: H, - <sector>, S, or R <sector>"
        ));
    };
    let rest = &w[2..];
    if is(verb, HOLD) {
        return match rest {
            [] => Ok(Syntax::Hold { fleet }),
            [extra, ..] => Err(format!("{extra:?} after {verb} is not understood")),
        };
    }
    if is(verb, MOVE) {
        return match rest {
            [to] => Ok(Syntax::Move { fleet, to }),
            [] => Err(format!("a destination is expected after {verb}")),
            [_, extra, ..] => Err(format!("{extra:?} after the destination is not understood")),
        };
    }
    if is(verb, RETREAT) {
        return match rest {
            [to] => Ok(Syntax::Retreat { fleet, to }),
            [] => Err(format!("a destination is expected after {verb}")),
            [_, extra, ..] => Err(format!("{extra:?} after the destination is not understood")),
        };
    }
    if is(verb, DISBAND) {
        return match rest {
            [] => Ok(Syntax::Disband { fleet }),
            [extra, ..] => Err(format!("{extra:?} after {verb} is not understood")),
        };
    }
    if is(verb, SUPPORT) {
        let mut t = rest;
        if t.len() > 1 && is(t[0], FLEET) {
            t = &t[1..];
        }
        return match t {
            [] => Ok(Syntax::Support {
                fleet,
                target: None,
            }),
            [from, m, to] if is(m, MOVE) => Ok(Syntax::Support {
                fleet,
                target: Some((from, to)),
            }),
            _ => Err("a support is written `C1 S` or `C1 S B2 - C3`".into()),
        };
    }
    Err(format!(
        "{verb:?} is not an order: write H, - <sector>, S, or R <sector>"
    ))
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
