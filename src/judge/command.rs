//! The commands of a mail (the mail interface of the specs): one per line, any case;
//! quoted lines (`>`), everything after a signature line (`-- `) and the message
//! answered, where a mail program copies it below without `>` marks, are ignored.
//! Every line is bounded ([`MAX_LINE_CHARS`]) and so is the number read ([`MAX_LINES`]).

/// A command other than GAME, PASSWORD and the orders block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ready,
    Wait,
    Board,
    History(Option<u32>),
    /// `HELP`, or `HELP <game>`.
    Help(Option<String>),
    /// `FORCE`, or `FORCE <turn> <phase>`: only if that is still the current phase.
    Force(Option<(u32, String)>),
    Deadline(String),
    Pause,
    Resume,
    Replace {
        power: String,
        address: String,
    },
    /// `PRESS [ANON] TO <power> …` … `END`, or `BROADCAST` … `END` (to every other
    /// power: `to` is empty).
    Press(Press),
    /// `HISTORY PRESS`, or `HISTORY PRESS <turn>`.
    HistoryPress(Option<u32>),
    /// `OBSERVE <game>`: anyone may watch a game's public results.
    Observe(String),
    /// `UNOBSERVE <game>`.
    Unobserve(String),
    /// `OBSERVERS` (moderator): the list.
    Observers,
    /// `REMOVE OBSERVER <address>` (moderator).
    RemoveObserver(String),
    /// `ABSENCE <from> <to>`: deadlines inside move to its end.
    Absence {
        from: String,
        to: String,
    },
    /// `ABSENCE CANCEL` (a player: their own), `ABSENCE CANCEL <power>` (moderator).
    CancelAbsence(Option<String>),
    /// `END GAME` (moderator): the game ends now, without a winner; the dice seed is
    /// revealed.
    EndGame,
}

/// A press message as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Press {
    /// The powers named (lower case); empty for `BROADCAST`.
    pub to: Vec<String>,
    pub broadcast: bool,
    /// `PRESS ANON TO …` (grey press).
    pub anonymous: bool,
    /// A reply to anonymous press: its recipient is not named to the sender.
    pub to_anonymous: bool,
    pub text: String,
}

/// A mail may hold at most this many press messages; the rest are not read.
pub const MAX_PRESS: usize = 10;
/// A press message has at most this many lines.
pub const MAX_PRESS_LINES: usize = 200;

/// What a block of lines (up to `END`) is.
enum Block {
    Orders,
    Press {
        to: Vec<String>,
        broadcast: bool,
        anonymous: bool,
    },
}

/// Only this many lines of a mail's text are read; the rest is ignored (and said so).
pub const MAX_LINES: usize = 2_000;
/// A line longer than this (in characters) is refused as too long, never read.
pub const MAX_LINE_CHARS: usize = 200;
/// An orders block has at most this many lines; the rest are not read (and said so).
pub const MAX_ORDER_LINES: usize = 300;
/// A refused over-long line is echoed cut to this many characters.
pub const ECHO_CHARS: usize = 60;

/// What a mail says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub game: Option<String>,
    /// The first `PASSWORD` line's secret (also written `Password: …`, and inside an
    /// orders block); a password line is a command or nothing, never an order.
    pub password: Option<String>,
    pub commands: Vec<Command>,
    /// The orders block (`ORDERS` … `END`), or the whole mail when it holds no command.
    pub orders: Option<String>,
    /// Whether the orders came in an `ORDERS` … `END` block (not as loose lines).
    pub orders_block: bool,
    /// The lines outside any block that are no command, in a mail with commands but no
    /// `ORDERS` block (orders and `READY` in one mail): a player's orders when the game
    /// reads one of them as an order; for a moderator, lines not understood.
    pub loose: Option<String>,
    /// Lines that are neither commands nor orders, with why.
    pub not_understood: Vec<(String, String)>,
    /// What the judge did with the mail's form (lines not read, passwords ignored).
    pub notes: Vec<String>,
}

/// A line cut to `ECHO_CHARS` characters for a reply, with `…` if cut.
pub fn echo(line: &str) -> String {
    if line.chars().count() <= ECHO_CHARS {
        return line.to_string();
    }
    let mut cut: String = line.chars().take(ECHO_CHARS).collect();
    cut.push('…');
    cut
}

/// A password line: `PASSWORD x`, `Password: x`, `password:x`. Its secret, if any.
pub(crate) fn password_line(line: &str) -> Option<Option<&str>> {
    let head = line.get(..8)?;
    if !head.eq_ignore_ascii_case("password") {
        return None;
    }
    let rest = &line[8..];
    let rest = match rest.strip_prefix(':') {
        Some(r) => r,
        None if rest.is_empty() || rest.starts_with(' ') => rest,
        None => return None,
    };
    let mut words = rest.split_whitespace();
    Some(match (words.next(), words.next()) {
        (Some(secret), None) => Some(secret),
        _ => None,
    })
}

/// Whether the message answered starts at line `n`, where a mail program copies it
/// below the answer without `>` marks (Outlook): `-----Original Message-----`, a rule
/// of underscores, or a `From:` line with `Sent:` or `Date:` among the three after it.
/// Nothing from there on is the writer's (a quoted results mail would otherwise be
/// read as orders).
fn answered_from(lines: &[&str], n: usize) -> bool {
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
fn attribution(lines: &[&str], n: usize) -> bool {
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

/// Reads the text of a mail. Cost is linear in the text; at most [`MAX_LINES`] lines
/// are read.
pub fn parse(body: &str) -> Parsed {
    let mut p = Parsed::default();
    let mut block: Option<(Block, Vec<&str>)> = None;
    let mut presses = 0;
    let mut loose: Vec<&str> = Vec::new();
    let mut passwords = 0;
    // Order lines past MAX_ORDER_LINES, press lines past MAX_PRESS_LINES.
    let mut dropped = 0;
    let mut press_dropped = 0;
    let all: Vec<&str> = body.lines().take(MAX_LINES + 1).collect();
    for (n, &raw) in all.iter().enumerate() {
        if n == MAX_LINES {
            p.notes.push(format!(
                "Only the first {MAX_LINES} lines of a mail are read: the rest was ignored."
            ));
            break;
        }
        if raw == "-- " || raw == "--" || answered_from(&all, n) {
            break;
        }
        let line = raw.trim();
        if line.starts_with('>') || line.is_empty() || attribution(&all, n) {
            continue;
        }
        if line.chars().count() > MAX_LINE_CHARS {
            p.not_understood.push((
                echo(line),
                format!(
                    "too long ({} characters; a line may have {MAX_LINE_CHARS})",
                    line.chars().count()
                ),
            ));
            continue;
        }
        if let Some(secret) = password_line(line) {
            passwords += 1;
            match secret {
                Some(secret) if p.password.is_none() => p.password = Some(secret.to_string()),
                Some(_) => {}
                None => p
                    .notes
                    .push("A PASSWORD line takes one word: it was ignored.".into()),
            }
            continue;
        }
        if let Some((kind, lines)) = &mut block {
            let press = matches!(kind, Block::Press { .. });
            if line.eq_ignore_ascii_case("END") {
                let (kind, lines) = block.take().expect("in a block");
                close(&mut p, kind, lines, &mut presses);
            } else if press && line.eq_ignore_ascii_case("ORDERS") {
                // A press message whose END was forgotten ends where the orders
                // begin: the orders are not sent to other players as press.
                let (kind, lines) = block.take().expect("in a block");
                close(&mut p, kind, lines, &mut presses);
                p.notes.push(
                    "A PRESS or BROADCAST had no END before the ORDERS line: the message ended there, and the orders after it were read as orders.".into(),
                );
                block = Some((Block::Orders, Vec::new()));
            } else {
                let limit = if press {
                    MAX_PRESS_LINES
                } else {
                    MAX_ORDER_LINES
                };
                if lines.len() < limit {
                    lines.push(line);
                } else if press {
                    press_dropped += 1;
                } else {
                    dropped += 1;
                }
            }
            continue;
        }
        let mut words = line.split_whitespace();
        let word = words.next().unwrap_or("").to_ascii_uppercase();
        let rest: Vec<&str> = words.collect();
        let command = match (word.as_str(), rest.as_slice()) {
            ("GAME", [id]) => {
                p.game = Some(id.to_lowercase());
                continue;
            }
            ("ORDERS", []) => {
                block = Some((Block::Orders, Vec::new()));
                continue;
            }
            ("PRESS", rest) if !rest.is_empty() => {
                let (anonymous, rest) = match rest {
                    [anon, rest @ ..] if anon.eq_ignore_ascii_case("ANON") => (true, rest),
                    _ => (false, rest),
                };
                match rest {
                    [to, powers @ ..] if to.eq_ignore_ascii_case("TO") && !powers.is_empty() => {
                        let to = powers
                            .iter()
                            .flat_map(|w| w.split(','))
                            .filter(|w| !w.is_empty())
                            .map(str::to_lowercase)
                            .collect();
                        block = Some((
                            Block::Press {
                                to,
                                broadcast: false,
                                anonymous,
                            },
                            Vec::new(),
                        ));
                    }
                    _ => p.not_understood.push((
                        line.into(),
                        "press is written PRESS TO <power> [<power> ...] (or PRESS ANON TO ...), then its lines, then END".into(),
                    )),
                }
                continue;
            }
            ("BROADCAST", []) | ("BROADCAST", ["ANON" | "anon" | "Anon"]) => {
                block = Some((
                    Block::Press {
                        to: Vec::new(),
                        broadcast: true,
                        anonymous: !rest.is_empty(),
                    },
                    Vec::new(),
                ));
                continue;
            }
            ("HISTORY", [press]) if press.eq_ignore_ascii_case("PRESS") => {
                Command::HistoryPress(None)
            }
            ("HISTORY", [press, n]) if press.eq_ignore_ascii_case("PRESS") => match n.parse() {
                Ok(n) => Command::HistoryPress(Some(n)),
                Err(_) => {
                    p.not_understood
                        .push((line.into(), "HISTORY PRESS takes a turn number".into()));
                    continue;
                }
            },
            ("OBSERVE", [game]) => Command::Observe(game.to_lowercase()),
            ("UNOBSERVE", [game]) => Command::Unobserve(game.to_lowercase()),
            ("OBSERVERS", []) => Command::Observers,
            ("REMOVE", [observer, address]) if observer.eq_ignore_ascii_case("OBSERVER") => {
                Command::RemoveObserver(address.to_lowercase())
            }
            ("ABSENCE", [cancel]) if cancel.eq_ignore_ascii_case("CANCEL") => {
                Command::CancelAbsence(None)
            }
            ("ABSENCE", [cancel, power]) if cancel.eq_ignore_ascii_case("CANCEL") => {
                Command::CancelAbsence(Some(power.to_lowercase()))
            }
            ("ABSENCE", [from, to]) => Command::Absence {
                from: from.to_string(),
                to: to.to_string(),
            },
            ("END", [game]) if game.eq_ignore_ascii_case("GAME") => Command::EndGame,
            ("READY", []) => Command::Ready,
            ("WAIT", []) => Command::Wait,
            ("BOARD", []) => Command::Board,
            ("HELP", []) => Command::Help(None),
            ("HELP", [game]) => Command::Help(Some(game.to_lowercase())),
            ("PAUSE", []) => Command::Pause,
            ("RESUME", []) => Command::Resume,
            ("HISTORY", []) => Command::History(None),
            ("HISTORY", [n]) => match n.parse() {
                Ok(n) => Command::History(Some(n)),
                Err(_) => {
                    p.not_understood
                        .push((line.into(), "HISTORY takes a turn number".into()));
                    continue;
                }
            },
            ("FORCE", []) => Command::Force(None),
            ("FORCE", [turn, phase]) => match turn.parse() {
                Ok(t) => Command::Force(Some((t, phase.to_lowercase()))),
                Err(_) => {
                    p.not_understood.push((
                        line.into(),
                        "FORCE is written FORCE or FORCE <turn> <phase>".into(),
                    ));
                    continue;
                }
            },
            ("DEADLINE", [when]) => Command::Deadline(when.to_string()),
            ("REPLACE", [power, address]) => Command::Replace {
                power: power.to_lowercase(),
                address: address.to_lowercase(),
            },
            (
                "GAME" | "ORDERS" | "READY" | "WAIT" | "BOARD" | "HELP" | "PAUSE" | "RESUME"
                | "HISTORY" | "FORCE" | "DEADLINE" | "REPLACE" | "BROADCAST" | "OBSERVE"
                | "UNOBSERVE" | "OBSERVERS" | "ABSENCE",
                _,
            ) => {
                p.not_understood.push((
                    line.into(),
                    format!("{word} is not written that way; send HELP"),
                ));
                continue;
            }
            _ => {
                loose.push(line);
                continue;
            }
        };
        p.commands.push(command);
    }
    if passwords > 1 {
        p.notes.push(format!(
            "The mail has {passwords} PASSWORD lines: the first was used, the others ignored."
        ));
    }
    if let Some((kind, lines)) = block {
        // A block with no END runs to the end of the mail.
        close(&mut p, kind, lines, &mut presses);
    }
    if p.orders.is_none() && !loose.is_empty() {
        dropped += loose.len().saturating_sub(MAX_ORDER_LINES);
        loose.truncate(MAX_ORDER_LINES);
        let text = loose.join("\n");
        if p.commands.is_empty() {
            p.orders = Some(text);
        } else {
            p.loose = Some(text);
        }
    } else {
        for line in loose {
            p.not_understood.push((
                line.into(),
                "not a command; orders go between ORDERS and END".into(),
            ));
        }
    }
    if dropped > 0 {
        p.notes.push(format!(
            "Orders have at most {MAX_ORDER_LINES} lines: {dropped} more were not read."
        ));
    }
    if press_dropped > 0 {
        p.notes.push(format!(
            "A press message has at most {MAX_PRESS_LINES} lines: {press_dropped} more were not sent."
        ));
    }
    p
}

/// A block ended: orders kept, press added (up to [`MAX_PRESS`]).
fn close(p: &mut Parsed, kind: Block, lines: Vec<&str>, presses: &mut usize) {
    match kind {
        Block::Orders => {
            // A second block replaces the first whole, as a second mail would (the
            // player is told: orders split over two blocks are a common slip).
            const TWO_BLOCKS: &str = "The mail has more than one ORDERS block: only the last was kept, as each replaces the orders before it whole. Put all your orders in one block.";
            if p.orders_block && !p.notes.iter().any(|n| n == TWO_BLOCKS) {
                p.notes.push(TWO_BLOCKS.into());
            }
            p.orders = Some(lines.join("\n"));
            p.orders_block = true;
        }
        Block::Press {
            to,
            broadcast,
            anonymous,
        } => {
            *presses += 1;
            if *presses > MAX_PRESS {
                if *presses == MAX_PRESS + 1 {
                    p.notes.push(format!(
                        "A mail may carry {MAX_PRESS} press messages: the others were not read."
                    ));
                }
                return;
            }
            p.commands.push(Command::Press(Press {
                to,
                broadcast,
                anonymous,
                to_anonymous: false,
                text: lines.join("\n"),
            }));
        }
    }
}

/// Takes every trace of an authenticated `secret` out of what a mail said: lines that
/// are the bare secret go, and the secret as a word elsewhere becomes `[password]`.
/// A backstop: password lines never reach the orders in the first place.
pub fn scrub(p: &mut Parsed, secret: &str) {
    if secret.is_empty() {
        return;
    }
    let clean = |text: &str| -> Option<String> {
        let line = text.trim();
        if line == secret {
            return None;
        }
        if !line.contains(secret) {
            return Some(text.to_string());
        }
        let words: Vec<&str> = text
            .split(' ')
            .map(|w| if w == secret { "[password]" } else { w })
            .collect();
        let joined = words.join(" ");
        // A secret inside a longer word: cut it out there too.
        Some(joined.replace(secret, "[password]"))
    };
    for text in [&mut p.orders, &mut p.loose].into_iter().flatten() {
        let kept: Vec<String> = text.lines().filter_map(clean).collect();
        *text = kept.join("\n");
    }
    p.not_understood = std::mem::take(&mut p.not_understood)
        .into_iter()
        .filter_map(|(line, why)| Some((clean(&line)?, why)))
        .collect();
    for c in &mut p.commands {
        if let Command::Press(press) = c {
            let kept: Vec<String> = press.text.lines().filter_map(clean).collect();
            press.text = kept.join("\n");
        }
    }
}

impl Command {
    /// The command's keyword.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Force(_) => "FORCE",
            Command::Deadline(_) => "DEADLINE",
            Command::Pause => "PAUSE",
            Command::Resume => "RESUME",
            Command::Replace { .. } => "REPLACE",
            Command::Ready => "READY",
            Command::Wait => "WAIT",
            Command::Board => "BOARD",
            Command::History(_) => "HISTORY",
            Command::Help(_) => "HELP",
            Command::Press(p) if p.broadcast => "BROADCAST",
            Command::Press(_) => "PRESS",
            Command::HistoryPress(_) => "HISTORY PRESS",
            Command::Observe(_) => "OBSERVE",
            Command::Unobserve(_) => "UNOBSERVE",
            Command::Observers => "OBSERVERS",
            Command::RemoveObserver(_) => "REMOVE OBSERVER",
            Command::Absence { .. } => "ABSENCE",
            Command::CancelAbsence(_) => "ABSENCE CANCEL",
            Command::EndGame => "END GAME",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mail_of_orders_alone_is_an_orders_block() {
        let p = parse("GAME andromeda\nPASSWORD s3cret\nB2 - C3\nA1 S\n\n-- \nAlice\nB2 H\n");
        assert_eq!(p.game.as_deref(), Some("andromeda"));
        assert_eq!(p.password.as_deref(), Some("s3cret"));
        assert_eq!(p.orders.as_deref(), Some("B2 - C3\nA1 S"));
        assert!(p.commands.is_empty());
    }

    #[test]
    fn commands_blocks_quotes_and_strays() {
        let p = parse(
            "game Andromeda\n> ORDERS\nORDERS\nB2 - C3\nend\nREADY\nhistory 3\nFORCE 2 retreat\nREPLACE Tazenda bob@example.test\nwhat is this\n",
        );
        assert_eq!(p.orders.as_deref(), Some("B2 - C3"));
        assert_eq!(
            p.commands,
            [
                Command::Ready,
                Command::History(Some(3)),
                Command::Force(Some((2, "retreat".into()))),
                Command::Replace {
                    power: "tazenda".into(),
                    address: "bob@example.test".into()
                }
            ]
        );
        assert_eq!(p.not_understood.len(), 1);
        assert_eq!(p.not_understood[0].0, "what is this");
    }

    #[test]
    fn the_message_answered_is_not_read() {
        // Outlook copies the mail answered below the answer, without `>` marks.
        for separator in [
            "-----Original Message-----",
            "________________________________",
            "From: pbem judge <judge@example.test>\nSent: Monday, November 23, 2026 10:00 PM",
            "From: pbem judge <judge@example.test>\nTo: franz@example.test\nDate: Mon, 23 Nov 2026",
        ] {
            let p = parse(&format!(
                "PASSWORD pw\nB2 - C3\n\n{separator}\nSubject: [g1] results\n\nA1 S\nPASSWORD other\n"
            ));
            assert_eq!(p.orders.as_deref(), Some("B2 - C3"), "{separator}");
            assert!(p.notes.is_empty(), "{separator}: {:?}", p.notes);
        }
        // A `>` quote under its attribution line: both left out, the answer read.
        let p = parse(
            "On Mon, 23 Nov 2026 at 22:00, judge <judge@example.test> wrote:\n> A1 S\nB2 H\n",
        );
        assert_eq!(p.orders.as_deref(), Some("B2 H"));
        // Wrapped onto two lines, as Gmail does with a long one.
        let p = parse("B2 H\nOn Mon, 23 Nov 2026 at 22:00, pbem judge <\njudge@example.test> wrote:\n> A1 S\n");
        assert_eq!(p.orders.as_deref(), Some("B2 H"));
        assert!(p.not_understood.is_empty(), "{:?}", p.not_understood);
        // A From: line alone (press text, say) is read as written.
        let p = parse("PRESS TO union\nFrom: the Foundation, with love\nEND\nB2 H\n");
        assert!(matches!(&p.commands[0], Command::Press(x) if x.text.starts_with("From:")));
        assert_eq!(p.loose.as_deref(), Some("B2 H"));
    }

    #[test]
    fn loose_lines_beside_commands_are_kept_apart() {
        // No ORDERS block: the loose lines are kept for the player's game to read.
        let p = parse("PASSWORD pw\nB2 - C3\nREADY\nA1 S\n");
        assert_eq!(p.commands, [Command::Ready]);
        assert_eq!(p.orders, None);
        assert_eq!(p.loose.as_deref(), Some("B2 - C3\nA1 S"));
        assert!(p.not_understood.is_empty(), "{:?}", p.not_understood);
        // Beside an ORDERS block they are strays, as before.
        let p = parse("ORDERS\nB2 H\nEND\nREADY\nA1 S\n");
        assert_eq!(p.orders.as_deref(), Some("B2 H"));
        assert_eq!(p.loose, None);
        assert_eq!(p.not_understood.len(), 1);
        // The secret is scrubbed from them too.
        let mut p = parse("READY\nB2 H hunter22\n");
        scrub(&mut p, "hunter22");
        assert_eq!(p.loose.as_deref(), Some("B2 H [password]"));
    }

    #[test]
    fn password_lines_are_commands_never_orders() {
        let p = parse("ORDERS\nPASSWORD s3cret\nB2 - C3\nPassword: other\nEND\n");
        assert_eq!(p.password.as_deref(), Some("s3cret"));
        assert_eq!(p.orders.as_deref(), Some("B2 - C3"));
        assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
        let p = parse("password:abc\nB2 H\n");
        assert_eq!(p.password.as_deref(), Some("abc"));
        assert_eq!(p.orders.as_deref(), Some("B2 H"));
        // Not a password line: a word that merely starts so.
        assert_eq!(password_line("passwordless B2"), None);
    }

    #[test]
    fn the_bare_secret_and_the_secret_as_a_word_are_scrubbed() {
        let mut p = parse("B2 - C3\nhunter22\nmy pw is hunter22 ok\n");
        scrub(&mut p, "hunter22");
        assert_eq!(p.orders.as_deref(), Some("B2 - C3\nmy pw is [password] ok"));
    }

    #[test]
    fn a_press_without_end_ends_where_the_orders_begin() {
        let p = parse("PRESS TO tazenda\nSee you at Kalgan.\nORDERS\nB2 - C3\nC4 H\nEND\n");
        assert_eq!(
            p.commands,
            [Command::Press(Press {
                to: vec!["tazenda".into()],
                broadcast: false,
                anonymous: false,
                to_anonymous: false,
                text: "See you at Kalgan.".into()
            })]
        );
        assert_eq!(p.orders.as_deref(), Some("B2 - C3\nC4 H"));
        assert!(p.orders_block);
        assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
        assert!(p.notes[0].contains("had no END before the ORDERS line"));
        // Press lines past the limit are told as press, not as orders.
        let long = format!(
            "B2 H\nBROADCAST\n{}END\n",
            "blah\n".repeat(MAX_PRESS_LINES + 5)
        );
        let p = parse(&long);
        assert_eq!(
            p.notes,
            [format!(
                "A press message has at most {MAX_PRESS_LINES} lines: 5 more were not sent."
            )]
        );
    }

    #[test]
    fn press_blocks_and_the_new_commands() {
        let p = parse(
            "PRESS TO imperium, Union\nLet us ally.\n> quoted\nPASSWORD pw\nEND\nBROADCAST\nHello all\nEND\nPRESS ANON TO tazenda\nboo\nEND\nHISTORY PRESS 3\nOBSERVE G1\nABSENCE 2026-12-01 2026-12-05\nEND GAME\n",
        );
        assert_eq!(p.password.as_deref(), Some("pw"));
        assert_eq!(
            p.commands[0],
            Command::Press(Press {
                to: vec!["imperium".into(), "union".into()],
                broadcast: false,
                anonymous: false,
                to_anonymous: false,
                text: "Let us ally.".into()
            })
        );
        assert!(
            matches!(&p.commands[1], Command::Press(x) if x.broadcast && x.text == "Hello all")
        );
        assert!(matches!(&p.commands[2], Command::Press(x) if x.anonymous && x.to == ["tazenda"]));
        assert_eq!(p.commands[3], Command::HistoryPress(Some(3)));
        assert_eq!(p.commands[4], Command::Observe("g1".into()));
        assert!(matches!(p.commands[5], Command::Absence { .. }));
        assert_eq!(p.commands[6], Command::EndGame);
        assert!(p.orders.is_none());
        assert!(p.not_understood.is_empty(), "{:?}", p.not_understood);
    }

    #[test]
    fn a_second_orders_block_replaces_the_first_and_the_player_is_told_once() {
        let p = parse("ORDERS\nB2 - C3\nEND\nORDERS\nD4 H\nEND\nORDERS\nE5 H\nEND\n");
        assert_eq!(p.orders.as_deref(), Some("E5 H"));
        assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
        assert!(
            p.notes[0].contains("only the last was kept"),
            "{:?}",
            p.notes
        );
        // One block: no note.
        assert!(parse("ORDERS\nB2 - C3\nEND\n").notes.is_empty());
    }

    #[test]
    fn long_lines_and_long_mails_are_bounded() {
        let long = "x".repeat(MAX_LINE_CHARS + 1);
        let p = parse(&format!("B2 H\n{long}\n"));
        assert_eq!(p.orders.as_deref(), Some("B2 H"));
        assert_eq!(p.not_understood[0].0.chars().count(), ECHO_CHARS + 1);
        let many = "B2 H\n".repeat(MAX_LINES + 10);
        let p = parse(&many);
        assert_eq!(p.orders.unwrap().lines().count(), MAX_ORDER_LINES);
        assert_eq!(p.notes.len(), 2, "{:?}", p.notes);
    }
}
