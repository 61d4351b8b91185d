//! A mail the judge sends: built here, stored in the outbox, handed to a transport.

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
    /// Where replies go (press: back through the judge to the sender's power).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
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
        let message = match &self.attachment {
            None => builder.singlepart(text),
            Some((name, content)) => builder.multipart(
                MultiPart::mixed().singlepart(text).singlepart(
                    Attachment::new(name.clone())
                        .body(content.clone(), "application/json".parse().expect("mime")),
                ),
            ),
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
