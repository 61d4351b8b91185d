//! The commands of a mail (`../shared/specs/mail-interface.md`): one per line, any case;
//! quoted lines (`>`) and everything after a signature line (`-- `) are ignored.

/// A command other than GAME, PASSWORD and the orders block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Ready,
    Wait,
    Board,
    History(Option<u32>),
    Help,
    /// `FORCE`, or `FORCE <turn> <phase>`: only if that is still the current phase.
    Force(Option<(u32, String)>),
    Deadline(String),
    Pause,
    Resume,
    Replace {
        power: String,
        address: String,
    },
}

/// What a mail says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub game: Option<String>,
    pub password: Option<String>,
    pub commands: Vec<Command>,
    /// The orders block (`ORDERS` … `END`), or the whole mail when it holds no command.
    pub orders: Option<String>,
    /// Lines that are neither commands nor orders, with why.
    pub not_understood: Vec<(String, String)>,
}

/// Reads the text of a mail.
pub fn parse(body: &str) -> Parsed {
    let mut p = Parsed::default();
    let mut block: Option<Vec<&str>> = None;
    let mut loose: Vec<&str> = Vec::new();
    for raw in body.lines() {
        if raw == "-- " || raw == "--" {
            break;
        }
        let line = raw.trim();
        if line.starts_with('>') {
            continue;
        }
        if let Some(lines) = &mut block {
            if line.eq_ignore_ascii_case("END") {
                p.orders = Some(lines.join("\n"));
                block = None;
            } else {
                lines.push(raw);
            }
            continue;
        }
        if line.is_empty() {
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
            ("PASSWORD", [secret]) => {
                p.password = Some(secret.to_string());
                continue;
            }
            ("ORDERS", []) => {
                block = Some(Vec::new());
                continue;
            }
            ("READY", []) => Command::Ready,
            ("WAIT", []) => Command::Wait,
            ("BOARD", []) => Command::Board,
            ("HELP", []) => Command::Help,
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
                "GAME" | "PASSWORD" | "ORDERS" | "READY" | "WAIT" | "BOARD" | "HELP" | "PAUSE"
                | "RESUME" | "HISTORY" | "FORCE" | "DEADLINE" | "REPLACE",
                _,
            ) => {
                p.not_understood.push((
                    line.into(),
                    format!("{word} is not written that way; send HELP"),
                ));
                continue;
            }
            _ => {
                loose.push(raw);
                continue;
            }
        };
        p.commands.push(command);
    }
    if let Some(lines) = block {
        // An ORDERS block with no END runs to the end of the mail.
        p.orders = Some(lines.join("\n"));
    }
    if p.orders.is_none() && p.commands.is_empty() && !loose.is_empty() {
        p.orders = Some(loose.join("\n"));
    } else {
        for line in loose {
            p.not_understood.push((
                line.trim().into(),
                "not a command; orders go between ORDERS and END".into(),
            ));
        }
    }
    p
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
            Command::Help => "HELP",
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
}
