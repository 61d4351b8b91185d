//! What of a mail's text is not the writer's: the message answered, where a mail
//! program copies it below the answer without `>` marks, and the line it puts above a
//! quote.

/// Whether the message answered starts at line `n`, where a mail program copies it
/// below the answer without `>` marks (Outlook): `-----Original Message-----`, a rule
/// of underscores, or a `From:` line with `Sent:` or `Date:` among the three after it.
/// Nothing from there on is the writer's (a quoted results mail would otherwise be
/// read as orders).
pub(super) fn answered_from(lines: &[&str], n: usize) -> bool {
    let line = lines[n].trim();
    if line.starts_with("--")
        && line
            .trim_matches('-')
            .trim()
            .eq_ignore_ascii_case("original message")
    {
        return true;
    }
    if line.len() >= 10 && line.bytes().all(|b| b == b'_') {
        return true;
    }
    let header = |l: &str, name: &str| {
        l.trim_start()
            .get(..name.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(name))
    };
    header(line, "from:")
        && lines[n + 1..]
            .iter()
            .take(3)
            .any(|l| header(l, "sent:") || header(l, "date:"))
}

/// Whether line `n` is (part of) the line a mail program puts above a quote, `On Mon,
/// 23 Nov 2026, judge wrote:`, which may be wrapped onto two lines.
pub(super) fn attribution(lines: &[&str], n: usize) -> bool {
    let line = |k: usize| lines.get(k).map_or("", |l| l.trim());
    let (opens, closes) = (
        |l: &str| l.starts_with("On "),
        |l: &str| l.ends_with("wrote:"),
    );
    let here = line(n);
    (opens(here) && closes(here))
        || (opens(here) && closes(line(n + 1)) && !opens(line(n + 1)))
        || (n > 0 && closes(here) && opens(line(n - 1)) && !closes(line(n - 1)))
}
