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

impl<'a> Written<'a> {
    /// Where this line's text starts in `submission` (which it is part of).
    pub fn start_in(&self, submission: &str) -> u32 {
        (self.text.as_ptr() as usize).wrapping_sub(submission.as_ptr() as usize) as u32
    }

    /// The line of `submission` whose text starts at `start` (from [`Written::start_in`]),
    /// as [`lines`] gave it; an empty text if `start` is no such place.
    pub fn at(submission: &'a str, number: u32, start: u32) -> Written<'a> {
        let start = start as usize;
        let text = match submission.get(start..) {
            Some(_) => trim(&submission[start..find_newline_or_hash(submission.as_bytes(), start)]),
            None => "",
        };
        Written { number, text }
    }
}

/// The order lines of a submission: blank lines, `#` comments and quoted reply lines
/// (`>`) are left out (R3.2).
///
/// One pass over the text finds each line's end and its comment together, eight bytes
/// at a time; a line is trimmed of white space (Unicode's, as `str::trim`).
pub fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut number = 0u32;
    std::iter::from_fn(move || loop {
        if start >= bytes.len() {
            return None;
        }
        number += 1;
        let stop = find_newline_or_hash(bytes, start);
        let (content_end, next) = if bytes.get(stop) == Some(&b'#') {
            let end = find_newline(bytes, stop);
            (stop, end + 1)
        } else {
            (stop, stop + 1)
        };
        let line = trim(&text[start..content_end]);
        start = next;
        if line.is_empty() || line.starts_with('>') {
            continue;
        }
        return Some(Line {
            written: Written { number, text: line },
            syntax: parse(line),
        });
    })
}

/// `str::trim`, with ASCII white space taken off without decoding characters.
fn trim(s: &str) -> &str {
    let t = s.trim_ascii();
    match (t.as_bytes().first(), t.as_bytes().last()) {
        (Some(a), Some(b)) if !a.is_ascii() || !b.is_ascii() => t.trim(),
        _ => t,
    }
}

const ONES: u64 = u64::from_ne_bytes([1; 8]);
const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);

/// The bytes of `word` equal to `byte` marked by their high bit; exact up to the first
/// match, which is all the callers read.
fn matches(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The index of the first `\n` or `#` at or after `from`, or the text's length.
fn find_newline_or_hash(bytes: &[u8], from: usize) -> usize {
    find(
        bytes,
        from,
        |w| matches(w, b'\n') | matches(w, b'#'),
        |b| b == b'\n' || b == b'#',
    )
}

/// The index of the first `\n` at or after `from`, or the text's length.
fn find_newline(bytes: &[u8], from: usize) -> usize {
    find(bytes, from, |w| matches(w, b'\n'), |b| b == b'\n')
}

fn find(bytes: &[u8], from: usize, word: impl Fn(u64) -> u64, byte: impl Fn(u8) -> bool) -> usize {
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let m = word(w);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && !byte(bytes[i]) {
        i += 1;
    }
    i
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

/// A word of up to eight bytes, upper-cased, as one number (first byte lowest).
const fn packed(word: &[u8]) -> u64 {
    let mut v = 0u64;
    let mut i = 0;
    while i < word.len() {
        v |= (word[i].to_ascii_uppercase() as u64) << (8 * i);
        i += 1;
    }
    v
}

/// The keyword a word is, if any; classified once per word, without allocating: the
/// word, upper-cased, is one number matched against the spellings' numbers. A word
/// with a digit (a sector such as `C4`) is no keyword.
fn keyword(word: &str) -> Option<Keyword> {
    let bytes = word.as_bytes();
    if bytes.is_empty() || bytes.len() > 8 || bytes.iter().any(u8::is_ascii_digit) {
        return None;
    }
    const H: u64 = packed(b"H");
    const HOLD: u64 = packed(b"HOLD");
    const HOLDS: u64 = packed(b"HOLDS");
    const DASH: u64 = packed(b"-");
    const ARROW: u64 = packed(b"->");
    const M: u64 = packed(b"M");
    const MOVES: u64 = packed(b"MOVES");
    const TO: u64 = packed(b"TO");
    const MOVE: u64 = packed(b"MOVE");
    const S: u64 = packed(b"S");
    const SUPPORT: u64 = packed(b"SUPPORT");
    const SUPPORTS: u64 = packed(b"SUPPORTS");
    const R: u64 = packed(b"R");
    const RETREAT: u64 = packed(b"RETREAT");
    const RETREATS: u64 = packed(b"RETREATS");
    const D: u64 = packed(b"D");
    const DISBAND: u64 = packed(b"DISBAND");
    const DISBANDS: u64 = packed(b"DISBANDS");
    const PLACE: u64 = packed(b"PLACE");
    const START: u64 = packed(b"START");
    const BUILD: u64 = packed(b"BUILD");
    const F: u64 = packed(b"F");
    const FLEET: u64 = packed(b"FLEET");
    Some(match packed(bytes) {
        H | HOLD | HOLDS => Keyword::Hold,
        DASH | ARROW | M | MOVES | TO => Keyword::Arrow,
        MOVE => Keyword::Move,
        S | SUPPORT | SUPPORTS => Keyword::Support,
        R | RETREAT | RETREATS => Keyword::Retreat,
        D | DISBAND | DISBANDS => Keyword::Disband,
        PLACE | START | BUILD => Keyword::Place,
        F | FLEET => Keyword::Fleet,
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
    match plain_movement(line) {
        Some(syntax) => Ok(syntax),
        None => parse_words(line),
    }
}

/// Parses one order line word by word: every spelling of R3.2.
fn parse_words<'a>(line: &'a str) -> Result<Syntax<'a>, String> {
    let all = words(line);
    if let Some(extra) = all.overflow {
        return Err(format!(
            "too many words: {extra:?} and after are not understood"
        ));
    }
    let mut w: &[&str] = &all.items[..all.len];
    let Some(&first) = w.first() else {
        return Err("empty order".into());
    };
    let mut first_keyword = keyword(first);
    // An optional leading `F` / `FLEET`, as Diplomacy players write.
    if w.len() > 1 && first_keyword == Some(Keyword::Fleet) {
        w = &w[1..];
        first_keyword = keyword(w[0]);
    }
    let first = w[0];
    match first_keyword {
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

/// The movement orders as most are written, `B2 H`, `B2 S`, `B2 - C3` (one space
/// between words, a fleet's sector with a digit, so no keyword), read without the
/// general machinery; the same as [`parse`] would read them. Anything else: `None`.
fn plain_movement(line: &str) -> Option<Syntax<'_>> {
    let bytes = line.as_bytes();
    let sector = |from: usize| -> usize {
        let len = bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let digit = bytes[from..from + len].iter().any(u8::is_ascii_digit);
        if digit {
            len
        } else {
            0
        }
    };
    let n = sector(0);
    if n == 0 || bytes.get(n) != Some(&b' ') {
        return None;
    }
    let fleet = &line[..n];
    match &bytes[n + 1..] {
        [b'H' | b'h'] => Some(Syntax::Hold { fleet }),
        [b'S' | b's'] => Some(Syntax::Support {
            fleet,
            target: None,
        }),
        [b'-', b' ', rest @ ..] if !rest.is_empty() => {
            let start = n + 3;
            (sector(start) == rest.len()).then(|| Syntax::Move {
                fleet,
                to: &line[start..],
            })
        }
        _ => None,
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

    /// The lines as `str::lines` and `str::trim` cut them (the definition).
    fn reference_lines(text: &str) -> Vec<(u32, &str)> {
        text.lines()
            .enumerate()
            .filter_map(|(k, raw)| {
                let uncommented = raw.split('#').next().unwrap_or("");
                let line = uncommented.trim();
                (!line.is_empty() && !raw.trim_start().starts_with('>'))
                    .then_some((k as u32 + 1, line))
            })
            .collect()
    }

    #[test]
    fn r3_2_lines_are_cut_as_str_lines_and_trim_cut_them() {
        let pieces = [
            "B2", " ", "-", "#", "\n", "\r\n", "\r", ">", "\u{a0}", "é", "C3 - D4", "H", "\t", "S",
            "# note\n", "\u{2003}",
        ];
        let mut dice = crate::dice::Dice::for_phase(11, 0, "lines");
        for _ in 0..5000 {
            let len = dice.below(24) as usize;
            let text: String = (0..len)
                .map(|_| pieces[dice.below(pieces.len() as u64) as usize])
                .collect();
            let got: Vec<(u32, &str)> = lines(&text)
                .map(|l| (l.written.number, l.written.text))
                .collect();
            assert_eq!(got, reference_lines(&text), "{text:?}");
        }
    }

    #[test]
    fn r3_2_keywords_in_any_case_and_nothing_else() {
        let spellings = [
            ("h hold holds", Keyword::Hold),
            ("- -> m moves to", Keyword::Arrow),
            ("move", Keyword::Move),
            ("s support supports", Keyword::Support),
            ("r retreat retreats", Keyword::Retreat),
            ("d disband disbands", Keyword::Disband),
            ("place start build", Keyword::Place),
            ("f fleet", Keyword::Fleet),
        ];
        for (words, kw) in spellings {
            for w in words.split(' ') {
                assert_eq!(keyword(w), Some(kw), "{w}");
                assert_eq!(keyword(&w.to_uppercase()), Some(kw), "{w}");
                assert_eq!(keyword(&format!("{w}x")), None, "{w}x");
            }
        }
        for w in [
            "",
            "C4",
            "H1",
            "Terminus",
            "supported",
            "DISBANDED",
            "Hé",
            "->>",
        ] {
            assert_eq!(keyword(w), None, "{w}");
        }
    }

    #[test]
    fn r3_2_plain_movement_orders_read_as_the_general_parser_reads_them() {
        let words = [
            "B2", "c3", "AB12", "H", "h", "S", "s", "-", "->", "x", "7", "F", "0", "HOLD",
            "\u{e9}9", "B2x", "M",
        ];
        let gaps = [" ", " ", " ", "  ", "-", " - ", "->", ""];
        let mut dice = crate::dice::Dice::for_phase(12, 0, "plain");
        let mut plain = 0;
        for _ in 0..20_000 {
            let mut line = String::new();
            for k in 0..1 + dice.below(4) {
                if k > 0 {
                    line += gaps[dice.below(gaps.len() as u64) as usize];
                }
                line += words[dice.below(words.len() as u64) as usize];
            }
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(quick) = plain_movement(line) {
                let general = parse_words(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
                plain += 1;
                assert_eq!(quick, general, "{line:?}");
            }
        }
        assert!(plain > 200, "{plain} plain lines drawn");
        assert_eq!(
            plain_movement("AB12 - AC13"),
            Some(Syntax::Move {
                fleet: "AB12",
                to: "AC13"
            })
        );
        for other in [
            "B2  H",
            "B2 HOLD",
            "F B2 H",
            "B2 - C3 D4",
            "B2 -C3",
            "Terminus H",
            "B2 - ",
            "B2",
        ] {
            assert_eq!(plain_movement(other), None, "{other:?}");
        }
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
