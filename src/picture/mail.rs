//! The picture in a mail: the HTML version of a results mail or BOARD reply, rendered
//! from its template with the same view as the text, and the board's PNG it shows
//! inline (`cid:`). The judge asks for it where a game's pictures are on
//! (`pictures = false` in a game's `games.toml` entry turns them off).

use serde::Serialize;

use super::Svg;
use crate::mail::outgoing::{Inline, Outgoing};
use crate::report::{TemplateError, Templates};

/// The file name of the picture in mails.
pub const FILE_NAME: &str = "board.png";

/// What a mail carries besides its text: the HTML version, and the picture in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rich {
    pub html: String,
    pub picture: Option<Inline>,
}

/// What the HTML templates know of the picture (`picture` in the view: none when the
/// game draws none).
#[derive(Serialize)]
struct PictureView<'a> {
    cid: &'a str,
    width: u32,
    height: u32,
}

impl Rich {
    /// Renders template `name` (HTML) with `view` — the view of the text version — and
    /// the picture, made into a PNG here. A picture that cannot be made is left out
    /// (and logged): the mail goes without it rather than not at all.
    pub fn render<S: Serialize>(
        templates: &Templates,
        name: &str,
        view: &S,
        picture: Option<Svg>,
    ) -> Result<Rich, TemplateError> {
        let picture = picture.and_then(|svg| match svg.to_png() {
            Ok(png) => Some((svg.width(), svg.height(), png)),
            Err(e) => {
                tracing::error!(error = %e, "the board picture was left out of a mail");
                None
            }
        });
        let inline = picture.map(|(width, height, png)| {
            (
                width,
                height,
                Inline {
                    content_id: content_id(&png),
                    name: FILE_NAME.into(),
                    png,
                },
            )
        });
        let picture_view = inline.as_ref().map(|(width, height, i)| PictureView {
            cid: &i.content_id,
            width: *width,
            height: *height,
        });
        let context = minijinja::context! {
            picture => picture_view,
            ..minijinja::Value::from_serialize(view)
        };
        let html = templates.render(name, &context)?;
        Ok(Rich {
            html,
            picture: inline.map(|(_, _, i)| i),
        })
    }

    /// Puts the HTML version and the picture into a mail.
    pub fn dress(&self, mail: &mut Outgoing) {
        mail.html = Some(self.html.clone());
        mail.picture = self.picture.clone();
    }
}

/// A Content-ID for a picture, from its bytes (FNV-1a): the same picture, the same id;
/// different pictures, different ids, whatever mail they travel in.
pub fn content_id(png: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in png {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("board-{h:016x}@pbem")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_html_is_escaped_and_shows_the_picture_by_its_content_id() {
        let templates = Templates::load(None).unwrap();
        let view = serde_json::json!({
            "game": "g<1>",
            "turn": 1,
            "phase": "movement",
            "when": "turn 1, movement phase",
            "results": [{"power": "foundation", "order": "<b>C1</b> & \"x\"",
                         "outcome": "failed", "detail": "<script>alert(1)</script>"}],
            "events": ["a < b"],
            "systems": [],
            "owned_label": "Supply centres",
            "board": "+---+\n| <A> |",
            "standing": [],
            "over": false,
            "winners": [],
            "next_turn": 2,
            "next_phase": "movement",
            "next_when": "turn 2, movement phase",
            "owing": [],
            "deadline_utc": "",
            "deadline_local": "",
        });
        let mut svg = Svg::new(20, 10, super::super::palette::PAPER);
        svg.title("t");
        let rich = Rich::render(&templates, "results.html", &view, Some(svg)).unwrap();
        let html = &rich.html;
        assert!(
            html.contains("&lt;b&gt;C1&lt;&#x2f;b&gt; &amp; &quot;x&quot;"),
            "{html}"
        );
        assert!(!html.contains("<b>C1</b>") && !html.contains("<script>"));
        assert!(html.contains("a &lt; b") && html.contains("| &lt;A&gt; |"));
        assert!(html.contains("Supply centres"));
        let picture = rich.picture.unwrap();
        assert!(html.contains(&format!("src=\"cid:{}\"", picture.content_id)));
        assert_eq!(picture.name, "board.png");
        assert!(picture.png.starts_with(b"\x89PNG"));
        // Without a picture: no image, the rest the same.
        let plain = Rich::render(&templates, "results.html", &view, None).unwrap();
        assert!(!plain.html.contains("<img") && plain.picture.is_none());
    }
}
