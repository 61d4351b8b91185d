//! An incoming mail, read with mail-parser: who sent it, to whom, about what, its text
//! (HTML-only mail converted to text), and whether it was sent by a machine.

use mail_parser::{HeaderValue, Message, MessageParser, MimeHeaders, PartType};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// Identifies the mail for exactly-once processing: its Message-ID, or a hash of
    /// its bytes when it has none.
    pub key: String,
    pub message_id: Option<String>,
    /// The sender's address, lower-case (empty if none could be read).
    pub from: String,
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    /// Sent by a machine (auto-reply, bounce, list): never answered.
    pub automatic: bool,
    pub references: Vec<String>,
    /// When the mail reached the mailbox, if the inbox knows (set by the judge from
    /// [`crate::mail::transport::Waiting::received`]; parsing leaves it `None`).
    pub received: Option<chrono::DateTime<chrono::Utc>>,
    /// What the sender is told of the mail's form: text attachments, which are not
    /// read.
    pub notes: Vec<String>,
}

/// Only this much of a mail's text is read (the command reader reads at most 2,000
/// lines of it anyway).
pub const MAX_TEXT_BYTES: usize = 512 * 1024;

fn content_hash(raw: &[u8]) -> String {
    // FNV-1a, 64 bits twice with different offsets: stable across versions.
    let mut a: u64 = 0xcbf2_9ce4_8422_2325;
    let mut b: u64 = 0x84222325_cbf29ce4;
    for &x in raw {
        a = (a ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
        b = (b ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("sha-less-{a:016x}{b:016x}")
}

/// Only this much of a raw mail is parsed (its text is cut at [`MAX_TEXT_BYTES`]
/// anyway); the Message-ID, or the hash of the whole mail, still identifies it.
pub const MAX_RAW_BYTES: usize = 2 * 1024 * 1024;

/// Reads a raw mail. Never fails: what cannot be read is left empty. Cost is bounded:
/// at most [`MAX_RAW_BYTES`] are parsed.
pub fn parse(whole: &[u8]) -> Incoming {
    let raw = &whole[..whole.len().min(MAX_RAW_BYTES)];
    let Some(msg) = MessageParser::default().parse(raw) else {
        return Incoming {
            key: content_hash(whole),
            message_id: None,
            from: String::new(),
            to: Vec::new(),
            subject: String::new(),
            body: String::new(),
            automatic: true,
            references: Vec::new(),
            received: None,
            notes: Vec::new(),
        };
    };
    let first_address = |list: Option<&mail_parser::Address>| -> Vec<String> {
        list.map(|a| {
            a.iter()
                .filter_map(|addr| addr.address().map(|s| s.trim().to_lowercase()))
                .collect()
        })
        .unwrap_or_default()
    };
    let from = first_address(msg.from())
        .into_iter()
        .next()
        .unwrap_or_default();
    let mut to = first_address(msg.to());
    to.extend(first_address(msg.cc()));
    let message_id = msg.message_id().map(|s| s.to_string());
    let header_text = |name: &str| -> Option<String> {
        msg.header(name).and_then(|h| match h {
            HeaderValue::Text(t) => Some(t.to_string()),
            HeaderValue::TextList(l) => l.first().map(|t| t.to_string()),
            _ => None,
        })
    };
    let auto_submitted = header_text("Auto-Submitted")
        .map(|v| !v.trim().eq_ignore_ascii_case("no"))
        .unwrap_or(false);
    let precedence = header_text("Precedence")
        .map(|v| matches!(v.trim().to_lowercase().as_str(), "bulk" | "list" | "junk"))
        .unwrap_or(false);
    let return_path_empty = match msg.header("Return-Path") {
        Some(HeaderValue::Address(a)) => a
            .first()
            .and_then(|x| x.address())
            .is_none_or(|s| s.trim().is_empty()),
        Some(HeaderValue::Text(t)) => matches!(t.trim(), "" | "<>"),
        Some(HeaderValue::Empty) => true,
        Some(_) => false,
        None => false,
    };
    let local = from.split('@').next().unwrap_or("");
    let daemon =
        local.eq_ignore_ascii_case("mailer-daemon") || local.eq_ignore_ascii_case("postmaster");
    // The plain text parts; an HTML-only mail is converted here (mail-parser's own
    // conversion joins block elements such as <div> onto one line). A base64 text part
    // with junk after its base64, which mail-parser gives up on, is read up to the junk.
    let recovered = recovered_texts(&msg);
    let plain = msg
        .text_part(0)
        .filter(|p| !p.is_text_html() && !p.is_encoding_problem);
    let mut body = if plain.is_some() || !recovered.is_empty() {
        // Every inline plain text part and every recovered one, in the mail's order: a
        // mailer cuts the text around a picture pasted in it (Apple Mail) into several.
        let mut texts: Vec<(usize, &str)> = msg
            .text_body
            .iter()
            .filter_map(|&id| {
                let p = msg.parts.get(id as usize)?;
                match &p.body {
                    PartType::Text(t) if !p.is_encoding_problem => Some((id as usize, t.as_ref())),
                    _ => None,
                }
            })
            .chain(recovered.iter().map(|(id, t)| (*id, t.as_str())))
            .collect();
        // A part is either decoded or recovered (by `is_encoding_problem`), never both.
        texts.sort_by_key(|&(id, _)| id);
        texts
            .into_iter()
            .map(|(_, t)| t)
            .collect::<Vec<&str>>()
            .join("\n")
    } else {
        msg.body_html(0)
            .map(|h| html_to_text(&h))
            .unwrap_or_default()
    };
    let used: Vec<usize> = recovered.iter().map(|&(id, _)| id).collect();
    let notes = unread_attachments(&msg, &used).into_iter().collect();
    // Only the start of a huge text is read: nothing a player writes needs more.
    if body.len() > MAX_TEXT_BYTES {
        let mut cut = MAX_TEXT_BYTES;
        while !body.is_char_boundary(cut) {
            cut -= 1;
        }
        body.truncate(cut);
    }
    let mut references: Vec<String> = Vec::new();
    if let Some(HeaderValue::TextList(l)) = msg.header("References") {
        references.extend(l.iter().map(|s| s.to_string()));
    } else if let Some(HeaderValue::Text(t)) = msg.header("References") {
        references.push(t.to_string());
    }
    Incoming {
        key: message_id
            .as_deref()
            .map(|id| format!("id-{}", sanitise(id)))
            .unwrap_or_else(|| content_hash(whole)),
        message_id,
        from: from.clone(),
        to,
        subject: normalise(msg.subject().unwrap_or("")),
        body: normalise(&body),
        automatic: auto_submitted || precedence || return_path_empty || daemon || from.is_empty(),
        references,
        received: None,
        notes,
    }
}

/// The base64 `text/plain` parts (not attachments) that mail-parser could not decode, as
/// some mailers write them (a line of junk, or a stray `=`, after the base64): their
/// ids and their texts, decoded as far as the base64 goes.
fn recovered_texts(msg: &Message) -> Vec<(usize, String)> {
    msg.parts
        .iter()
        .enumerate()
        .filter_map(|(id, part)| {
            let base64 = part
                .content_transfer_encoding()
                .is_some_and(|e| e.trim().eq_ignore_ascii_case("base64"));
            let plain = part.content_type().is_none_or(|c| {
                c.ctype().eq_ignore_ascii_case("text")
                    && c.subtype().is_none_or(|s| s.eq_ignore_ascii_case("plain"))
            });
            let attached = part.attachment_name().is_some()
                || part
                    .content_disposition()
                    .is_some_and(|d| d.is_attachment());
            if !part.is_encoding_problem || !base64 || !plain || attached {
                return None;
            }
            let start = part.offset_body as usize;
            let end = (part.offset_end as usize).min(msg.raw_message.len());
            let encoded = msg.raw_message.get(start..end)?;
            let bytes = mail_parser::decoders::base64::base64_decode(&base64_up_to_junk(encoded))?;
            let charset = part
                .content_type()
                .and_then(|c| c.attribute("charset"))
                .and_then(|c| mail_parser::decoders::charsets::map::charset_decoder(c.as_bytes()));
            let text = match charset {
                Some(decode) => decode(&bytes),
                None => String::from_utf8_lossy(&bytes).into_owned(),
            };
            Some((id, text))
        })
        .collect()
}

/// The base64 of a part up to what follows it that is no base64: its lines as long
/// as each is made of base64 characters only, up to the first padding `=`; after the
/// first line, a longer line, or one whose length is no multiple of 4, is junk, and a
/// shorter one is the last (encoders fill every line but the last).
fn base64_up_to_junk(encoded: &[u8]) -> Vec<u8> {
    let mut kept = Vec::with_capacity(encoded.len());
    let mut first: Option<usize> = None;
    for line in encoded.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        let base64 = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=');
        if !line.iter().all(base64) {
            break;
        }
        if let Some(width) = first {
            if line.len() > width || line.len() % 4 != 0 {
                break;
            }
        }
        if let Some(pad) = line.iter().position(|&b| b == b'=') {
            kept.extend_from_slice(&line[..pad]);
            break;
        }
        kept.extend_from_slice(line);
        match first {
            Some(width) if line.len() < width => break,
            Some(_) => {}
            None => first = Some(line.len()),
        }
    }
    kept
}

/// The note for the text attachments of a mail (`orders.txt`), which the judge does
/// not read: orders and commands belong in the mail's own text. `used` is a part read
/// as the text all the same (see [`recovered_text`]).
fn unread_attachments(msg: &Message, used: &[usize]) -> Option<String> {
    let names: Vec<String> = msg
        .attachments
        .iter()
        .map(|&id| id as usize)
        .filter(|id| !used.contains(id))
        .filter_map(|id| msg.parts.get(id))
        .filter(|part| {
            let name = part.attachment_name().unwrap_or("");
            let text = part.content_type().is_none_or(|c| {
                c.ctype().eq_ignore_ascii_case("text")
                    && c.subtype().is_none_or(|s| s.eq_ignore_ascii_case("plain"))
            });
            text || name.to_ascii_lowercase().ends_with(".txt")
        })
        .map(|part| match part.attachment_name() {
            Some(name) => {
                let one_line: String = name
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                crate::judge::command::echo(one_line.trim())
            }
            None => "(unnamed)".to_string(),
        })
        .collect();
    match names.as_slice() {
        [] => None,
        [one] => Some(format!(
            "The attachment {one} was not read: the judge reads only the text of a mail. Write orders and commands in the mail itself."
        )),
        many => Some(format!(
            "The attachments {} were not read: the judge reads only the text of a mail. Write orders and commands in the mail itself.",
            many.join(", ")
        )),
    }
}

/// A Message-ID made safe as part of a store key.
fn sanitise(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '/' {
                c
            } else {
                '_'
            }
        })
        .take(200)
        .collect()
}

/// Text as a person reads it, whatever the mail client did to it: Unicode spaces
/// (no-break, thin, ideographic …) become spaces, zero-width characters and the byte
/// order mark go, dashes and minus signs become `-`, arrows become `->`, and line
/// breaks are `\n`.
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Runs of plain ASCII (the usual case) are copied whole.
    let bytes = text.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if (b' '..0x7f).contains(&b) || b == b'\n' {
            i += 1;
            continue;
        }
        out.push_str(&text[run..i]);
        let c = text[i..].chars().next().expect("a char starts here");
        i += c.len_utf8();
        run = i;
        match c {
            '\r' => {}
            '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\t' => out.push(' '),
            '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{00AD}' => {}
            '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => {
                out.push('-')
            }
            '\u{2192}' | '\u{27F6}' | '\u{2794}' | '\u{279C}' | '\u{27A1}' | '\u{21D2}' => {
                out.push_str("->")
            }
            '\u{2028}' | '\u{2029}' => out.push('\n'),
            // Other control characters (a NUL, a bell, an escape) are no part of any
            // order or message: they are dropped, so that no mail echoes them.
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push_str(&text[run..]);
    out
}

/// HTML to text, enough for orders: tags dropped, line breaks kept, entities decoded.
/// What a reader does not see as the writer's own text is left out: a quoted message
/// (`<blockquote>`, as mail programs quote the mail answered) and the content of
/// `<head>`, `<style>` and `<script>`, and comments (Outlook's conditional ones hold
/// settings).
pub fn html_to_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    let mut tag = String::new();
    // How deep inside elements whose content is left out.
    let mut hidden = 0usize;
    // The end of a comment being skipped.
    let mut skip_to = 0;
    for (at, c) in html.char_indices() {
        if at < skip_to {
            continue;
        }
        match (in_tag, c) {
            (false, '<') if html[at..].starts_with("<!--") => {
                skip_to = html[at + 4..]
                    .find("-->")
                    .map_or(html.len(), |end| at + 4 + end + 3);
            }
            (false, '<') => {
                in_tag = true;
                tag.clear();
            }
            (true, '>') => {
                in_tag = false;
                let closing = tag.starts_with('/');
                let name = tag
                    .trim_start_matches('/')
                    .split(|c: char| c.is_whitespace() || c == '/')
                    .next()
                    .unwrap_or("")
                    .to_lowercase();
                let self_closing = tag.ends_with('/');
                if matches!(
                    name.as_str(),
                    "blockquote" | "head" | "style" | "script" | "title"
                ) && !self_closing
                {
                    if closing {
                        hidden = hidden.saturating_sub(1);
                    } else {
                        hidden += 1;
                    }
                }
                if hidden == 0 && matches!(name.as_str(), "br" | "p" | "div" | "li" | "tr") {
                    out.push('\n');
                }
            }
            (true, c) => tag.push(c),
            (false, c) if hidden == 0 => out.push(c),
            (false, _) => {}
        }
    }
    decode_entities(&out)
}

/// HTML character references: the common named ones and every numeric one.
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest[..rest.len().min(12)].find(';');
        let decoded = end.and_then(|end| {
            let name = &rest[1..end];
            let c = match name {
                "nbsp" => Some('\u{00A0}'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "amp" => Some('&'),
                "ndash" => Some('\u{2013}'),
                "mdash" => Some('\u{2014}'),
                "rarr" => Some('\u{2192}'),
                "minus" => Some('\u{2212}'),
                _ => {
                    let num = name.strip_prefix('#')?;
                    let code = match num.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => num.parse().ok()?,
                    };
                    char::from_u32(code)
                }
            }?;
            Some((c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sender_subject_body_and_machine_mail() {
        let raw = b"From: Alice <Alice@Example.test>\r\nTo: judge+andromeda@example.test\r\nSubject: [andromeda] orders\r\nMessage-ID: <1@example.test>\r\n\r\nB2 - C3\r\n";
        let m = parse(raw);
        assert_eq!(m.from, "alice@example.test");
        assert_eq!(m.to, ["judge+andromeda@example.test"]);
        assert_eq!(m.subject, "[andromeda] orders");
        assert_eq!(m.body.trim(), "B2 - C3");
        assert_eq!(m.key, "id-1@example.test");
        assert!(!m.automatic);
        let auto =
            b"From: alice@example.test\r\nAuto-Submitted: auto-replied\r\n\r\nOut of office\r\n";
        assert!(parse(auto).automatic);
        let bounce = b"From: MAILER-DAEMON@example.test\r\n\r\nfailed\r\n";
        assert!(parse(bounce).automatic);
        let list = b"From: a@example.test\r\nPrecedence: bulk\r\n\r\nx\r\n";
        assert!(parse(list).automatic);
        let no_id = b"From: a@example.test\r\n\r\nB2 H\r\n";
        assert_eq!(parse(no_id).key, parse(no_id).key);
        assert!(parse(no_id).key.starts_with("sha-less-"));
    }

    #[test]
    fn every_inline_text_part_is_read_in_order() {
        // Apple Mail with a picture pasted between two paragraphs: the text is cut
        // into two inline parts around it.
        let raw = "From: a@example.test\r\nSubject: orders\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=us-ascii\r\nContent-Disposition: inline\r\n\r\nORDERS\r\nB2 - C3\r\n--b1\r\nContent-Type: image/png; name=map.png\r\nContent-Disposition: inline; filename=map.png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--b1\r\nContent-Type: text/plain; charset=us-ascii\r\nContent-Disposition: inline\r\n\r\nC4 H\r\nEND\r\n--b1--\r\n";
        let m = parse(raw.as_bytes());
        assert_eq!(squash_lines(&m.body), ["ORDERS", "B2 - C3", "C4 H", "END"]);
        assert!(m.notes.is_empty(), "{:?}", m.notes);
        // Text and HTML alternatives of one text are read once, as text.
        let alt = "From: a@example.test\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b2\"\r\n\r\n--b2\r\nContent-Type: text/plain\r\n\r\nB2 - C3\r\n--b2\r\nContent-Type: text/html\r\n\r\n<p>B2 - C3</p>\r\n--b2--\r\n";
        assert_eq!(squash_lines(&parse(alt.as_bytes()).body), ["B2 - C3"]);
        // An attached text file is still not read (told in a note).
        let attached = "From: a@example.test\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b3\"\r\n\r\n--b3\r\nContent-Type: text/plain\r\n\r\nB2 - C3\r\n--b3\r\nContent-Type: text/plain; name=orders.txt\r\nContent-Disposition: attachment; filename=orders.txt\r\n\r\nC4 H\r\n--b3--\r\n";
        let m = parse(attached.as_bytes());
        assert_eq!(squash_lines(&m.body), ["B2 - C3"]);
        assert_eq!(m.notes.len(), 1);
        // So is a named text file shown inline.
        let inline = attached.replace("attachment; filename", "inline; filename");
        let m = parse(inline.as_bytes());
        assert_eq!(squash_lines(&m.body), ["B2 - C3"]);
        assert_eq!(m.notes.len(), 1, "{:?}", m.notes);
    }

    fn squash_lines(text: &str) -> Vec<&str> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect()
    }

    #[test]
    fn html_only_mail_becomes_text() {
        assert_eq!(
            html_to_text("<p>B2 - C3</p><p>C1 S<br>A1 H</p>").trim(),
            "B2 - C3\n\nC1 S\nA1 H"
        );
        assert_eq!(html_to_text("B2 -&gt; C3"), "B2 -> C3");
        assert_eq!(
            html_to_text("A1&#160;H &#x2192; &amp;x &bogus;"),
            "A1\u{a0}H \u{2192} &x &bogus;"
        );
    }

    #[test]
    fn html_quotes_styles_and_scripts_are_not_read() {
        let gmail = "<html><head><style>p { margin: 0 }</style><title>x</title></head><body>\
            <div dir=\"ltr\">A1 H<br>B2 - C3</div><br><div class=\"gmail_quote\">\
            <div>On Mon, judge wrote:<br></div>\
            <blockquote class=\"gmail_quote\"><div>A1 S</div><blockquote>C1 H</blockquote>\
            <div>C2 H</div></blockquote></div><script>var x = 1;</script></body></html>";
        let text = html_to_text(&format!(
            "<!--[if gte mso 9]><xml><o:PixelsPerInch>96</o:PixelsPerInch></xml><![endif]-->{gmail}<!-- unclosed"
        ));
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines, ["A1 H", "B2 - C3", "On Mon, judge wrote:"]);
        // A self-closing or unknown tag changes nothing; <br/> still breaks a line.
        assert_eq!(
            html_to_text("A1 H<br/>B2 H<blockquote/>C1 H").trim(),
            "A1 H\nB2 HC1 H"
        );
    }

    #[test]
    fn html_mail_with_entities() {
        let raw = "From: a@example.test\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<div>PASSWORD&nbsp;pw-1</div><div>A1&nbsp;H</div><div>B2 &ndash;&#x200B; C2</div>\r\n";
        let m = parse(raw.as_bytes());
        assert_eq!(
            m.body.trim(),
            "PASSWORD pw-1\n\nA1 H\n\nB2 - C2",
            "{:?}",
            m.body
        );
    }

    #[test]
    fn base64_text_with_junk_after_it_is_read_up_to_the_junk() {
        // "A1 H\r\nB2 - C3\r\n" in lines of 8, then what some mailers add.
        let lines = "QTEgSA0K\r\nQjIgLSBD\r\nMw0K\r\n";
        for junk in [
            "Sent from my phone!",
            "=",
            "Thanks",
            "QUJDREVGR0hJSktM",
            "\r\n%%%",
        ] {
            let kept = base64_up_to_junk(format!("{lines}{junk}\r\n").as_bytes());
            let text = mail_parser::decoders::base64::base64_decode(&kept).unwrap();
            assert_eq!(text, b"A1 H\r\nB2 - C3\r\n", "{junk:?}");
        }
        // Padding ends it, whatever follows.
        let kept = base64_up_to_junk(b"QjIgSA==\r\nQTEgSA0K\r\n");
        assert_eq!(kept, b"QjIgSA");
        // A mail whose text part is such: read, and no attachment told of.
        let raw = "From: a@example.test\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nQTEgSA0KQjIgLSBDMw0K\r\nSent from my phone!\r\n--b--\r\n";
        let m = parse(raw.as_bytes());
        assert_eq!(m.body, "A1 H\nB2 - C3\n");
        assert!(m.notes.is_empty(), "{:?}", m.notes);
    }

    #[test]
    fn every_text_part_with_junk_after_its_base64_is_read_in_its_place() {
        // Two such parts around a good one: all three read, in the mail's order, and no
        // attachment told of.
        let broken = |b64: &str| {
            format!("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{b64}\r\nSent from my phone!\r\n")
        };
        let raw = format!(
            "From: a@example.test\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\n{}--b\r\nContent-Type: text/plain\r\n\r\nB2 - C3\r\n--b\r\n{}--b--\r\n",
            broken("QTEgSA0K"),
            broken("QzQgSA0K"),
        );
        let m = parse(raw.as_bytes());
        assert_eq!(squash_lines(&m.body), ["A1 H", "B2 - C3", "C4 H"]);
        assert!(m.notes.is_empty(), "{:?}", m.notes);
    }

    #[test]
    fn text_attachments_are_told_of_and_not_read() {
        let raw = "From: a@example.test\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nPASSWORD pw\r\n--b\r\nContent-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n\r\nB2 - C3\r\n--b\r\nContent-Type: image/png; name=\"logo.png\"\r\nContent-Disposition: inline; filename=\"logo.png\"\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--b--\r\n";
        let m = parse(raw.as_bytes());
        assert_eq!(m.body.trim(), "PASSWORD pw");
        // The text attachment is told of; a picture (a signature's logo) is not.
        assert_eq!(
            m.notes,
            ["The attachment orders.txt was not read: the judge reads only the text of a mail. Write orders and commands in the mail itself."]
        );
    }

    #[test]
    fn unicode_spacing_and_punctuation_read_as_a_person_would() {
        assert_eq!(normalise("A1\u{a0}H"), "A1 H");
        assert_eq!(normalise("B2\u{2009}\u{2013}\u{200b}C3"), "B2 -C3");
        assert_eq!(normalise("B2 \u{2192} C3\r\n"), "B2 -> C3\n");
        assert_eq!(normalise("\u{feff}READY"), "READY");
        // Control characters are dropped; tabs are spaces, line ends kept.
        assert_eq!(
            normalise("B2\u{0} - C3\u{7}\u{1b}\tH\u{85}\r\n"),
            "B2 - C3 H\n"
        );
        assert_eq!(normalise("C1 \u{2014} C2"), "C1 - C2");
    }
}
