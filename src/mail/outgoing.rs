//! A mail the judge sends: built here, stored in the outbox, handed to a transport.
//!
//! A mail is its text, and may carry an HTML version with the board's picture inline
//! and `results.json`. Such a mail is built as
//!
//! ```text
//! multipart/mixed
//! ├── multipart/alternative
//! │   ├── text/plain                  the text, first: what plain-text readers see
//! │   └── multipart/related
//! │       ├── text/html               the same content, <img src="cid:…">
//! │       └── image/png               board.png, inline, with that Content-ID
//! └── application/json                results.json, attached
//! ```
//!
//! The picture is sent once: inline in the HTML and, by its file name, offered as the
//! attachment `board.png` (so a mail on a slow link does not carry it twice). A mail
//! without HTML is built as before: the text alone, or the text and `results.json`.

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::Message;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// The Message-ID the judge gives it (without angle brackets).
    pub message_id: String,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<String>,
    /// RFC 2822 date.
    pub date: String,
    /// `results.json`, when the mail carries results.
    pub attachment: Option<(String, String)>,
    /// The HTML version of the text (results mails and BOARD replies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// The picture the HTML shows inline (only with `html`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<Inline>,
    /// Where replies go (press: back through the judge to the sender's power).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
}

/// A picture shown inline by an HTML part and offered as an attachment by its name.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Inline {
    /// The Content-ID the HTML refers to (`cid:…`), without angle brackets.
    pub content_id: String,
    /// The file name (`board.png`).
    pub name: String,
    /// The PNG, stored as base64 in the outbox.
    #[serde(with = "base64_bytes")]
    pub png: Vec<u8>,
}

mod base64_bytes {
    use base64::Engine;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let text = String::deserialize(d)?;
        base64::engine::general_purpose::STANDARD
            .decode(text.as_bytes())
            .map_err(serde::de::Error::custom)
    }
}

impl Outgoing {
    /// The mail as bytes (RFC 5322), from the judge's address.
    pub fn to_bytes(&self, from_name: &str, from_address: &str) -> Vec<u8> {
        let from = Mailbox::new(
            Some(from_name.to_string()),
            from_address
                .parse()
                .expect("judge address checked at start"),
        );
        let to: Mailbox = match self.to.parse() {
            Ok(m) => m,
            Err(_) => Mailbox::new(None, from_address.parse().expect("checked")),
        };
        let mut builder = Message::builder()
            .from(from)
            .to(to)
            .subject(self.subject.clone())
            .message_id(Some(format!("<{}>", self.message_id)))
            .header(lettre::message::header::Date::new(httpdate_from(
                &self.date,
            )))
            .header(AutoSubmitted);
        if let Some(reply_to) = self.reply_to.as_deref().and_then(|a| a.parse().ok()) {
            builder = builder.reply_to(Mailbox::new(None, reply_to));
        }
        if let Some(parent) = &self.in_reply_to {
            builder = builder
                .in_reply_to(format!("<{parent}>"))
                .references(format!("<{parent}>"));
        }
        let text = SinglePart::builder()
            .header(ContentType::TEXT_PLAIN)
            .body(self.body.clone());
        let json = |(name, content): &(String, String)| {
            Attachment::new(name.clone())
                .body(content.clone(), "application/json".parse().expect("mime"))
        };
        let message = match (&self.html, &self.attachment) {
            (None, None) => builder.singlepart(text),
            (None, Some(a)) => {
                builder.multipart(MultiPart::mixed().singlepart(text).singlepart(json(a)))
            }
            (Some(html), attachment) => {
                let html = SinglePart::builder()
                    .header(ContentType::TEXT_HTML)
                    .body(html.clone());
                let alternative = MultiPart::alternative().singlepart(text);
                let alternative = match &self.picture {
                    None => alternative.singlepart(html),
                    Some(p) => alternative.multipart(
                        MultiPart::related().singlepart(html).singlepart(
                            Attachment::new_inline_with_name(p.content_id.clone(), p.name.clone())
                                .body(p.png.clone(), "image/png".parse().expect("mime")),
                        ),
                    ),
                };
                let mut mixed = MultiPart::mixed().multipart(alternative);
                if let Some(a) = attachment {
                    mixed = mixed.singlepart(json(a));
                }
                builder.multipart(mixed)
            }
        }
        .expect("a mail with from and to builds");
        message.formatted()
    }
}

fn httpdate_from(rfc2822: &str) -> std::time::SystemTime {
    chrono::DateTime::parse_from_rfc2822(rfc2822)
        .map(|d| d.with_timezone(&chrono::Utc).into())
        .unwrap_or(std::time::UNIX_EPOCH)
}

/// `Auto-Submitted: auto-replied`: the judge's mails are machine mail (RFC 3834), so
/// well-behaved auto-responders do not answer them.
#[derive(Clone)]
struct AutoSubmitted;

impl lettre::message::header::Header for AutoSubmitted {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("Auto-Submitted")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(AutoSubmitted)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "auto-replied".to_string())
    }
}
