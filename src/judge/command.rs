//! The commands of a mail (the mail interface of the specs): one per line, any case;
//! quoted lines (`>`), everything after a signature line (`-- `) and the message
//! answered, where a mail program copies it below without `>` marks, are ignored.
//! Every line is bounded ([`MAX_LINE_CHARS`]) and so is the number read ([`MAX_LINES`]).

mod quoting;

use quoting::{answered_from, attribution};

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
mod tests;
