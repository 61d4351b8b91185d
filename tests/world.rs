//! A judge in a temporary folder for the tests: `games.toml`, Maildir inbox and outbox,
//! a real sled store, and a clock that moves only when told to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::{DateTime, Duration, TimeZone, Utc};
use pbem::config::Config;
use pbem::judge::clock::{Clock, FixedClock};
use pbem::judge::record::Record;
use pbem::judge::{CrashPoint, Judge, JudgeError, PassReport};
use pbem::mail::maildir;

pub const PLAYERS: [(&str, &str, &str); 4] = [
    ("foundation", "hari@example.test", "pw-hari-77"),
    ("imperium", "cleon@example.test", "pw-cleon-88"),
    ("union", "mule@example.test", "pw-mule-99"),
    ("tazenda", "preem@example.test", "pw-preem-66"),
];
pub const MODERATOR: (&str, &str) = ("mod@example.test", "pw-moderator-55");

/// The same players holding the four powers of Godsfire's standard scenario.
pub const GODSFIRE_PLAYERS: [(&str, &str, &str); 4] = [
    ("red", "hari@example.test", "pw-hari-77"),
    ("blue", "cleon@example.test", "pw-cleon-88"),
    ("green", "mule@example.test", "pw-mule-99"),
    ("yellow", "preem@example.test", "pw-preem-66"),
];

/// The password hashes, made once for all tests (Argon2 is slow on purpose).
pub fn hashes() -> &'static BTreeMap<&'static str, String> {
    static H: OnceLock<BTreeMap<&'static str, String>> = OnceLock::new();
    H.get_or_init(|| {
        PLAYERS
            .iter()
            .map(|(_, _, pw)| *pw)
            .chain([MODERATOR.1])
            .map(|pw| (pw, hash_of(pw)))
            .collect()
    })
}

/// The hash of any password, made once per password for all tests.
pub fn hash_of(pw: &str) -> String {
    static H: OnceLock<std::sync::Mutex<BTreeMap<String, String>>> = OnceLock::new();
    let cache = H.get_or_init(Default::default);
    if let Some(h) = cache.lock().unwrap().get(pw) {
        return h.clone();
    }
    let h = pbem::password::hash(pw);
    cache.lock().unwrap().insert(pw.to_string(), h.clone());
    h
}

/// Every password a test world has used, so no mail may hold any of them.
fn known_passwords() -> &'static std::sync::Mutex<Vec<(String, String)>> {
    static P: OnceLock<std::sync::Mutex<Vec<(String, String)>>> = OnceLock::new();
    P.get_or_init(|| {
        std::sync::Mutex::new(
            PLAYERS
                .iter()
                .map(|(_, a, p)| (a.to_string(), p.to_string()))
                .collect(),
        )
    })
}

/// The password of a registered address (of any test world's players).
pub fn password_of(address: &str) -> String {
    known_passwords()
        .lock()
        .unwrap()
        .iter()
        .find(|(a, _)| a == address)
        .map(|(_, p)| p.clone())
        .unwrap_or_else(|| MODERATOR.1.to_string())
}

/// One mail the judge sent, read back.
#[derive(Debug, Clone)]
pub struct Sent {
    pub to: String,
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<String>,
    pub attachment: Option<(String, String)>,
    /// The HTML version, if the mail has one.
    pub html: Option<String>,
    /// `board.png`, if the mail carries the board's picture.
    pub picture: Option<Vec<u8>>,
    pub raw: String,
}

impl Sent {
    /// Every line of the mail's text fits 72 columns.
    pub fn assert_fits_72(&self) {
        for line in self.body.lines() {
            assert!(
                line.chars().count() <= 72,
                "{} to {}: a line of {} columns:\n{line}",
                self.subject,
                self.to,
                line.chars().count()
            );
        }
    }
}

/// A stored phase's orders, by power, as its results list them (a line each).
pub fn orders_in_results(json: &serde_json::Value) -> BTreeMap<String, String> {
    let mut orders: BTreeMap<String, String> = BTreeMap::new();
    for r in json["results"].as_array().unwrap() {
        let text = orders
            .entry(r["power"].as_str().unwrap().to_string())
            .or_default();
        text.push_str(r["order"].as_str().unwrap());
        text.push('\n');
    }
    orders
}

pub struct World {
    pub dir: tempfile::TempDir,
    pub config: Config,
    pub clock: FixedClock,
    sent_seen: usize,
    next_mail: usize,
}

pub fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap()
}

impl World {
    /// A world with one game `g1` of four players and a moderator; `game_extra` is
    /// appended to the game's table (options, start, phases …).
    pub fn new(game_extra: &str) -> World {
        World::with_players(game_extra, &PLAYERS)
    }

    pub fn with_players(game_extra: &str, players: &[(&str, &str, &str)]) -> World {
        World::with_rules("foundation-empire", game_extra, players)
    }

    /// A Godsfire game `g1` on the standard scenario.
    pub fn godsfire(game_extra: &str) -> World {
        World::with_rules("godsfire", game_extra, &GODSFIRE_PLAYERS)
    }

    pub fn with_rules(rules: &str, game_extra: &str, players: &[(&str, &str, &str)]) -> World {
        let dir = tempfile::tempdir().unwrap();
        let mut text = format!(
            "[judge]\naddress = \"judge@example.test\"\nstore = \"judge.sled\"\n\n[transport]\nkind = \"maildir\"\ninbox = \"in\"\noutbox = \"out\"\n\n[[game]]\nid = \"g1\"\nrules = \"{rules}\"\nseed = 3\ntime_zone = \"America/New_York\"\nreminders = [\"24h\", \"2h\"]\n",
        );
        text += game_extra;
        text += "\n";
        for (power, address, pw) in players {
            text += &format!(
                "[[game.player]]\npower = \"{power}\"\naddress = \"{address}\"\npassword = \"{}\"\n",
                hash_of(pw)
            );
            let mut known = known_passwords().lock().unwrap();
            if !known.iter().any(|(a, p)| a == address && p == pw) {
                assert!(
                    !known.iter().any(|(a, _)| a == address),
                    "{address} has two passwords across test worlds"
                );
                known.push((address.to_string(), pw.to_string()));
            }
        }
        text += &format!(
            "[[game.moderator]]\naddress = \"{}\"\npassword = \"{}\"\n",
            MODERATOR.0,
            hashes()[MODERATOR.1]
        );
        let path = dir.path().join("games.toml");
        std::fs::write(&path, text).unwrap();
        let config = Config::load(&path).unwrap();
        World {
            dir,
            config,
            clock: FixedClock::at(start()),
            sent_seen: 0,
            next_mail: 0,
        }
    }

    pub fn inbox(&self) -> PathBuf {
        self.dir.path().join("in")
    }

    pub fn outbox(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    /// Writes a raw mail into the inbox; returns its Message-ID.
    pub fn deliver_raw(&mut self, raw: &str) {
        maildir::create(&self.inbox()).unwrap();
        self.next_mail += 1;
        let name = format!("{:06}.test", self.next_mail);
        maildir::deliver(&self.inbox(), &name, raw.as_bytes()).unwrap();
        // Delivered now by the world's clock, as a mail server would stamp it.
        let file = std::fs::File::options()
            .write(true)
            .open(self.inbox().join("new").join(&name))
            .unwrap();
        file.set_modified(self.clock.now().into()).unwrap();
    }

    /// A player's (or anyone's) mail.
    pub fn send(&mut self, from: &str, subject: &str, body: &str) -> String {
        let id = format!(
            "m{}-{}@example.test",
            self.next_mail + 1,
            from.replace('@', ".")
        );
        let raw = format!(
            "From: {from}\r\nTo: judge@example.test\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\n\r\n{}\r\n",
            body.replace('\n', "\r\n")
        );
        self.deliver_raw(&raw);
        id
    }

    /// A mail from a registered address with its password and the game named.
    pub fn orders(&mut self, from: &str, body: &str) -> String {
        let pw = password_of(from);
        self.send(from, "[g1] orders", &format!("PASSWORD {pw}\n{body}"))
    }

    pub fn judge(&self) -> Judge<'_> {
        Judge::open(&self.config, &self.clock).unwrap()
    }

    /// One pass, committing mails two at a time (so groups of several mails and
    /// group boundaries are both exercised).
    pub fn pass(&self) -> PassReport {
        let mut judge = self.judge();
        judge.set_group_size(2);
        judge.poll_once().unwrap()
    }

    /// [`World::pass`] by a judge that names `build` in the history of the phases it
    /// adjudicates (a drill of an upgrade: the same store played on by two builds).
    pub fn pass_as(&self, build: &str) -> PassReport {
        let mut judge = self.judge();
        judge.set_group_size(2);
        judge.adjudicate_as(build);
        judge.poll_once().unwrap()
    }

    /// The moderator ends game g1 (`END GAME`); the next pass acts on it.
    pub fn end_game(&mut self) {
        self.send(
            MODERATOR.0,
            "[g1] end",
            &format!("PASSWORD {}\nEND GAME", MODERATOR.1),
        );
    }

    /// A pass that stops the `skip`+1-th time it reaches `at`, as if killed there.
    pub fn crashing_pass(&self, at: CrashPoint, skip: usize) -> Result<PassReport, JudgeError> {
        let mut judge = self.judge();
        judge.set_group_size(1);
        judge.crash_at(at, skip);
        judge.poll_once()
    }

    pub fn advance(&self, by: Duration) {
        self.clock.advance(by);
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    pub fn record(&self) -> Record {
        self.judge().record("g1").unwrap().unwrap()
    }

    /// Every mail in the outbox, oldest first.
    pub fn all_sent(&self) -> Vec<Sent> {
        read_outbox(&self.outbox())
    }

    /// The mails sent since the last call.
    pub fn sent(&mut self) -> Vec<Sent> {
        let all = self.all_sent();
        let new = all[self.sent_seen.min(all.len())..].to_vec();
        self.sent_seen = all.len();
        new
    }

    /// No mail the judge ever sent holds a password.
    pub fn assert_no_password_leaks(&self) {
        let known = known_passwords().lock().unwrap().clone();
        for mail in self.all_sent() {
            for (_, pw) in &known {
                assert!(
                    !mail.raw.contains(pw.as_str()),
                    "a mail to {} holds a password",
                    mail.to
                );
            }
            assert!(!mail.raw.contains(MODERATOR.1));
        }
    }
}

pub fn read_outbox(dir: &Path) -> Vec<Sent> {
    maildir::waiting(dir)
        .unwrap_or_default()
        .iter()
        .map(|p| {
            let raw = std::fs::read(p).unwrap();
            let m = mail_parser::MessageParser::default()
                .parse(&raw[..])
                .unwrap();
            use mail_parser::MimeHeaders;
            // The picture is an attachment too (inline, board.png): the data attachment
            // is the first that is not an image.
            let attachment = m
                .attachments()
                .find(|a| a.content_type().is_none_or(|c| c.ctype() != "image"))
                .map(|a| {
                    (
                        a.attachment_name().unwrap_or("").to_string(),
                        String::from_utf8_lossy(a.contents()).into_owned(),
                    )
                });
            let picture = m
                .attachments()
                .find(|a| a.attachment_name() == Some("board.png"))
                .map(|a| a.contents().to_vec());
            // Only a real text/html part (mail-parser makes HTML of a text body too).
            let html = m.html_part(0).and_then(|p| match &p.body {
                mail_parser::PartType::Html(h) => Some(h.to_string()),
                _ => None,
            });
            Sent {
                to: m
                    .to()
                    .and_then(|a| a.first())
                    .and_then(|a| a.address())
                    .unwrap_or("")
                    .to_string(),
                subject: m.subject().unwrap_or("").to_string(),
                body: m
                    .body_text(0)
                    .map(|b| b.replace("\r\n", "\n"))
                    .unwrap_or_default(),
                in_reply_to: m.in_reply_to().as_text().map(str::to_string),
                attachment,
                html,
                picture,
                raw: String::from_utf8_lossy(&raw).into_owned(),
            }
        })
        .collect()
}

/// Fixed starting positions for the four powers.
pub const FIXED_START: &str = "[game.start]\nfoundation = [\"Terminus\", \"Anacreon\", \"Smyrno\"]\nimperium = [\"Trantor\", \"Neotrantor\", \"Siwenna\"]\nunion = [\"Kalgan\", \"Haven\", \"Radole\"]\ntazenda = [\"Tazenda\", \"Rossem\", \"Gentri\"]\n";

/// Starting positions from which the Foundation can dislodge Tazenda's fleet in C4 in
/// turn 1 ([`World::dislodge_in_c4`]).
pub const DISLODGING_START: &str = "[game.start]\nfoundation = [\"Daribow\", \"Askone\", \"Smyrno\"]\nimperium = [\"Trantor\", \"Neotrantor\", \"Siwenna\"]\nunion = [\"Kalgan\", \"Haven\", \"Radole\"]\ntazenda = [\"Rossem\", \"Tazenda\", \"Sark\"]\n";

impl World {
    /// Turn 1 from [`DISLODGING_START`]: every power orders, and the Foundation, two
    /// supports pooled, dislodges Tazenda's fleet in C4; the game is then in its retreat
    /// phase.
    pub fn dislodge_in_c4(&mut self) {
        let [hari, cleon, mule, preem] = PLAYERS.map(|(_, address, _)| address);
        self.orders(hari, "C3 - C4\nD2 S\nB2 S");
        self.orders(cleon, "E1 H");
        self.orders(mule, "E4 H");
        self.orders(preem, "C4 H");
        self.pass();
    }
}

/// Every test's world checks, at its end, that no mail sent held a password.
impl Drop for World {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            self.assert_no_password_leaks();
        }
    }
}

/// A text with every run of white space one space (wrapped lines joined).
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Lines that are not orders (`chatter`) are told back in `sender`'s receipt and in no
/// other mail (nor any attachment).
pub fn assert_chatter_only_in_the_receipt(all: &[Sent], chatter: &[&str], sender: &str) {
    for m in all {
        let text = squash(&m.body)
            + &m.attachment
                .as_ref()
                .map(|a| a.1.clone())
                .unwrap_or_default();
        let is_receipt = m.to == sender && m.subject.contains("Orders received");
        for c in chatter {
            assert_eq!(
                text.contains(c),
                is_receipt,
                "{c:?} in {} to {}:\n{}",
                m.subject,
                m.to,
                m.body
            );
        }
    }
}
