//! Rendering mails from view models with minijinja (strict undefined: a template that
//! names a missing value is an error, not an empty string). Templates are read from the
//! configured folder when present there, else the ones built into the program (the
//! same files as `templates/`).

use std::path::{Path, PathBuf};

use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

const BUILT_IN: &[(&str, &str)] = &[
    ("receipt.txt", include_str!("../templates/receipt.txt")),
    ("results.txt", include_str!("../templates/results.txt")),
    ("reminder.txt", include_str!("../templates/reminder.txt")),
    ("board.txt", include_str!("../templates/board.txt")),
    ("history.txt", include_str!("../templates/history.txt")),
    ("help.txt", include_str!("../templates/help.txt")),
    ("refusal.txt", include_str!("../templates/refusal.txt")),
    ("notice.txt", include_str!("../templates/notice.txt")),
    ("game_over.txt", include_str!("../templates/game_over.txt")),
    // The HTML versions of results mails and BOARD replies (with the map inline):
    // escaped as HTML, since their names end in `.html`.
    (
        "mail_layout.html",
        include_str!("../templates/mail_layout.html"),
    ),
    (
        "mail_parts.html",
        include_str!("../templates/mail_parts.html"),
    ),
    ("results.html", include_str!("../templates/results.html")),
    ("board.html", include_str!("../templates/board.html")),
    ("welcome.txt", include_str!("../templates/welcome.txt")),
    ("press.txt", include_str!("../templates/press.txt")),
];

pub struct Templates {
    env: Environment<'static>,
}

#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("template {name}: {source}")]
    Render {
        name: String,
        source: minijinja::Error,
    },
    #[error("template {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Names as a sentence lists them: `a`, `a and b`, `a, b and c`.
pub fn and_list(names: Vec<String>) -> String {
    crate::rules::words::and_list(&names)
}

impl Templates {
    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_keep_trailing_newline(true);
        env.add_filter("wrap", wrap_short_groups);
        env.add_filter("phase", phase_name);
        env.add_filter("and_list", and_list);
        env.add_filter("lines", |text: String| -> Vec<String> {
            text.lines().map(str::to_string).collect()
        });
        for (name, text) in BUILT_IN {
            let custom = dir.map(|d| d.join(name)).filter(|p| p.is_file());
            let source = match custom {
                Some(path) => std::fs::read_to_string(&path)
                    .map_err(|source| TemplateError::Read { path, source })?,
                None => text.to_string(),
            };
            env.add_template_owned(name.to_string(), source)
                .map_err(|source| TemplateError::Render {
                    name: name.to_string(),
                    source,
                })?;
        }
        Ok(Templates { env })
    }

    pub fn render<S: Serialize>(&self, name: &str, view: &S) -> Result<String, TemplateError> {
        let _t = crate::timing::span("render (templates)");
        self.env
            .get_template(name)
            .and_then(|t| t.render(view))
            .map_err(|source| TemplateError::Render {
                name: name.into(),
                source,
            })
    }
}

/// The `phase` filter: a phase id as a reader names it, "movement" as "movement phase",
/// and an id that says "phase" already (Godsfire's "interphase") as it is.
pub fn phase_name(id: String) -> String {
    if id.ends_with("phase") {
        id
    } else {
        format!("{id} phase")
    }
}

/// A text with its first letter upper case, to begin a sentence ("turn 3, movement
/// phase" → "Turn 3, movement phase").
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The `wrap(width, indent)` filter: folds a line at spaces so no line is longer than
/// `width`, continuing with `indent` spaces.
pub fn wrap(text: String, width: usize, indent: usize) -> String {
    // A line that fits comes back as it is (no break can fall in it).
    if text.len() <= width {
        return text;
    }
    fold(&text, width, indent)
}

/// As [`wrap`], but a line breaks only at a space outside parentheses: a group such as
/// "(earned 3, neutral 0)" stays on one line, unless it alone is longer than a
/// continued line has room for; then it breaks at its own spaces.
pub fn wrap_groups(text: String, width: usize, indent: usize) -> String {
    let room = width.saturating_sub(indent);
    wrap_grouped(text, width, indent, room)
}

/// The longest parenthesised group the templates' `wrap` filter keeps whole.
pub const SHORT_GROUP: usize = 24;

/// The templates' `wrap` filter (every mail of every game): as [`wrap_groups`] for
/// groups of at most [`SHORT_GROUP`] characters ("(1 vs 2)", "(value 6 > Combat 5)",
/// a deadline's "(2026-11-26 08:10 EST)"); a longer group is prose and breaks at its
/// spaces, so a narrow column is not left ragged by it.
pub fn wrap_short_groups(text: String, width: usize, indent: usize) -> String {
    let room = width.saturating_sub(indent);
    wrap_grouped(text, width, indent, room.min(SHORT_GROUP))
}

/// Folds `text` at spaces outside parentheses; a group longer than `longest`
/// characters breaks at its own spaces.
fn wrap_grouped(text: String, width: usize, indent: usize, longest: usize) -> String {
    if text.len() <= width {
        return text;
    }
    let body = text.trim_start_matches(' ');
    let prefix = &text[..text.len() - body.len()];
    // Split at the spaces outside parentheses (a stray ")" closes nothing).
    let mut units = vec![String::new()];
    let mut depth = 0usize;
    for ch in body.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        match units.last_mut() {
            Some(unit) if ch != ' ' || depth > 0 => unit.push(ch),
            _ => units.push(String::new()),
        }
    }
    let words: Vec<&str> = units
        .iter()
        .flat_map(|u| {
            if u.chars().count() > longest {
                u.split(' ').collect::<Vec<_>>()
            } else {
                vec![u.as_str()]
            }
        })
        .collect();
    fold_words(prefix, words.into_iter(), width, indent)
}

fn fold(text: &str, width: usize, indent: usize) -> String {
    let body = text.trim_start_matches(' ');
    let prefix = text.len() - body.len();
    fold_words(&text[..prefix], body.split(' '), width, indent)
}

/// Folds `words` (split at single spaces: an empty word is one more space) after
/// `prefix`, breaking before a word that would pass `width`.
fn fold_words<'a>(
    prefix: &str,
    mut words: impl Iterator<Item = &'a str>,
    width: usize,
    indent: usize,
) -> String {
    let mut out = String::new();
    let mut line = prefix.to_string();
    line.push_str(words.next().unwrap_or(""));
    // Runs of spaces (column padding) are kept; lines break only before a word.
    for word in words {
        if word.is_empty() {
            line.push(' ');
            continue;
        }
        let used = line.chars().count();
        if used + 1 + word.chars().count() > width && !line.trim().is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
            line = " ".repeat(indent);
        } else {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn winners_are_listed_as_a_sentence_lists_them() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(super::and_list(names(&[])), "");
        assert_eq!(super::and_list(names(&["red"])), "red");
        assert_eq!(super::and_list(names(&["red", "blue"])), "red and blue");
        assert_eq!(
            super::and_list(names(&["red", "blue", "green", "yellow"])),
            "red, blue, green and yellow"
        );
        let t = super::Templates::load(None).unwrap();
        let over = |winners: &[&str]| {
            let view = serde_json::json!({
                "game": "g1", "ended_by": null, "turn_title": "turn 9",
                "winners": winners, "standing": [], "roster": [], "has_dice": false,
            });
            t.render("game_over.txt", &view).unwrap()
        };
        assert!(over(&["red", "blue", "green"]).contains("Winners: red, blue and green."));
        assert!(over(&["red"]).contains("Winner: red."));
        assert!(over(&[]).contains("No winner."));
    }

    #[test]
    fn wrap_folds_at_spaces_with_an_indent() {
        assert_eq!(wrap("a b c".into(), 72, 2), "a b c");
        assert_eq!(wrap("aaa bbb ccc".into(), 7, 2), "aaa bbb\n  ccc");
        assert_eq!(wrap("  x y".into(), 72, 4), "  x y");
        assert_eq!(wrap("   -> a b".into(), 8, 6), "   -> a\n      b");
        assert_eq!(wrap("x    y".into(), 72, 2), "x    y");
        // Fitting lines come back whole, spaces and all (the fast path agrees).
        for text in ["  x  y", "x ", "", "   ", "é é é", "a  b c"] {
            assert_eq!(wrap(text.into(), 72, 2), text);
            assert_eq!(super::fold(text, 72, 2), text);
            assert_eq!(super::fold(text, text.len(), 2), text);
        }
    }

    #[test]
    fn wrap_groups_breaks_only_outside_parentheses() {
        use super::wrap_groups;
        // Plain wrap breaks inside the group; wrap_groups before it.
        assert_eq!(wrap("aa bb (2 RP)".into(), 8, 1), "aa bb (2\n RP)");
        assert_eq!(wrap_groups("aa bb (2 RP)".into(), 8, 1), "aa bb\n (2 RP)");
        // Nested groups and words after a group.
        assert_eq!(
            wrap_groups("x (a (b c) d) y z".into(), 14, 2),
            "x (a (b c) d)\n  y z"
        );
        // A group longer than a continued line breaks at its own spaces.
        assert_eq!(
            wrap_groups("x (aaa bbb ccc ddd)".into(), 10, 2),
            "x (aaa bbb\n  ccc ddd)"
        );
        // Fitting lines, padding and stray parentheses as wrap has them.
        assert_eq!(wrap_groups("a  (b c)".into(), 72, 2), "a  (b c)");
        assert_eq!(wrap_groups("aa  bb cc".into(), 6, 2), "aa  bb\n  cc");
        assert_eq!(wrap_groups("a) bb cc".into(), 5, 2), "a) bb\n  cc");
        assert_eq!(wrap_groups("(a bb cc".into(), 5, 2), "(a bb\n  cc");
    }

    /// The templates' `wrap` filter keeps a short parenthesised group on one line, in
    /// every mail: "(attack 3 vs defence 4)" or a deadline's local time never breaks in
    /// its middle; a long one is prose and breaks at its spaces.
    #[test]
    fn mails_never_break_inside_short_parentheses() {
        let templates = super::Templates::load(None).unwrap();
        let detail = "bounced from Sirius-1a (attack 3 vs defence 4)";
        let event = "blue gains 0 RP for the region it held at the start (one per region \
                     it controls, as the rules say)";
        let view = serde_json::json!({
            "game": "g1", "turn": 2, "phase": "movement", "when": "turn 2, movement phase",
            "results": [{"power": "red", "order": "A1 - A2", "outcome": "bounced",
                         "detail": detail}],
            "missing": [], "events": [event],
            "board": "", "owned_label": "Systems owned", "systems": [], "standing": [],
            "over": false, "winners": [], "next_turn": 3, "next_phase": "movement",
            "next_when": "turn 3, movement phase", "owing": ["red"],
            "deadline_utc": "2025-01-01 12:00 UTC", "deadline_local": "2025-01-01 13:00 CET",
        });
        let text = templates.render("results.txt", &view).unwrap();
        assert!(text.contains("(attack 3 vs defence 4)"), "{text}");
        // The plain fold would have broken that group.
        let row = format!("  red        A1 - A2          bounced: {detail}");
        assert!(super::wrap(row, 72, 30)
            .lines()
            .any(|l| l.matches('(').count() != l.matches(')').count()));
        // The long group fills the event's first line as the plain fold does.
        let folded = super::wrap(format!("  {event}"), 72, 4);
        assert!(text.contains(&folded), "{text}\n{folded}");
        assert!(
            folded.lines().next().unwrap().contains("(one per"),
            "{folded}"
        );
    }

    /// A results mail as a player reads it: an order too long for its column puts its
    /// outcome on the next line, in the column.
    #[test]
    fn results_keep_the_outcome_column_for_long_orders() {
        let templates = super::Templates::load(None).unwrap();
        let row = |order: &str, outcome: &str| serde_json::json!({"power": "red", "order": order, "outcome": outcome, "detail": ""});
        let view = serde_json::json!({
            "game": "g1", "turn": 2, "phase": "interphase", "when": "turn 2, interphase",
            "results": [
                row("BUY Sirius-1a 4 AG", "done"),
                row("TRANSFER 3 FROM Sirius-1a TO NG", "failed"),
            ],
            "missing": [], "events": [], "board": "", "owned_label": "Systems owned",
            "systems": [], "standing": [], "over": false, "winners": [],
            "next_turn": 2, "next_phase": "defence", "next_when": "turn 2, defence phase",
            "owing": ["red"],
            "deadline_utc": "2025-01-01 12:00 UTC", "deadline_local": "",
        });
        let text = templates.render("results.txt", &view).unwrap();
        assert!(
            text.starts_with("Game g1: results of turn 2, interphase.\n"),
            "{text}"
        );
        let lines: Vec<&str> = text.lines().collect();
        let short = lines.iter().find(|l| l.contains("BUY")).unwrap();
        let long = lines.iter().position(|l| l.contains("TRANSFER")).unwrap();
        assert_eq!(lines[long], "  red        TRANSFER 3 FROM Sirius-1a TO NG");
        let column = short.find("done").unwrap();
        assert_eq!(lines[long + 1].find("failed"), Some(column), "{text}");
        assert!(lines[long + 1][..column].trim().is_empty());
        assert!(text.contains("Next: turn 2, defence phase;"), "{text}");
    }
}
