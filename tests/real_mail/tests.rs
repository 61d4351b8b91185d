//! The judge against real mail servers: players write with an SMTP client, `pbem serve`
//! reads the judge's mailbox over IMAP and answers over SMTP; players' mailboxes are
//! read back over IMAP.

use std::process::{Child, Command};

use crate::mailserver::{subjects, MailServer};
use crate::world::{hashes, FIXED_START, MODERATOR, PLAYERS};

/// A running `pbem serve`, with its log collected line by line.
struct Serve {
    child: Child,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Serve {
    /// Starts `pbem serve`; with `crash`, it dies at that point (`PBEM_CRASH`).
    fn start(config: &std::path::Path, crash: Option<&str>) -> Serve {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pbem"));
        command
            .args(["serve", "--config"])
            .arg(config)
            .env("RUST_LOG", "warn")
            .stderr(std::process::Stdio::piped());
        if let Some(spec) = crash {
            command.env("PBEM_CRASH", spec);
        }
        let mut child = command.spawn().unwrap();
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let stderr = child.stderr.take().unwrap();
        let sink = log.clone();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                sink.lock().unwrap().push(line);
            }
        });
        Serve { child, log }
    }

    /// Waits until the daemon has logged a line containing `text`.
    fn wait_log(&self, text: &str) {
        let start = std::time::Instant::now();
        while !self.log.lock().unwrap().iter().any(|l| l.contains(text)) {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "the judge never logged {text:?}: {:?}",
                self.log.lock().unwrap()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// Waits up to `limit` for the process to end by itself; true if it did.
    fn ended_within(&mut self, limit: std::time::Duration) -> bool {
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if !self.running() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        false
    }

    /// SIGKILL.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn user(address: &str) -> &str {
    address.split('@').next().unwrap()
}

/// Mail servers with the judge's and the players' mailboxes.
fn servers() -> MailServer {
    let mut users = vec![("judge", "judge-pw")];
    users.extend(PLAYERS.iter().map(|(_, a, p)| (user(a), *p)));
    users.push((user(MODERATOR.0), MODERATOR.1));
    MailServer::start(&users)
}

/// `pbem serve` on those servers, with game `g1`; returns the folder and the process.
fn serve(server: &MailServer) -> (tempfile::TempDir, Serve) {
    let dir = write_config(server, &["g1"], 256);
    let serve = Serve::start(&dir.path().join("games.toml"), None);
    (dir, serve)
}

/// A judge's folder with `games.toml` for these games on those servers.
fn write_config(server: &MailServer, games: &[&str], batch: usize) -> tempfile::TempDir {
    write_config_tls(server, games, batch, false)
}

/// As [`write_config`]; with `implicit`, over IMAPS and SMTPS (TLS from the first byte)
/// instead of STARTTLS.
fn write_config_tls(
    server: &MailServer,
    games: &[&str],
    batch: usize,
    implicit: bool,
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let (imap_port, smtp_port, tls) = if implicit {
        (server.port("IMAPS_PORT"), server.port("SMTPS_PORT"), "tls")
    } else {
        (
            server.port("IMAP_PORT"),
            server.port("SMTP_PORT"),
            "starttls",
        )
    };
    std::fs::write(dir.path().join("judge.pw"), "judge-pw\n").unwrap();
    let mut config = format!(
        "[judge]\naddress = \"judge@example.test\"\nstore = \"judge.sled\"\npoll_seconds = 1\nbatch = {batch}\n\n\
         [transport]\nkind = \"imap\"\n\
         [transport.imap]\nhost = \"127.0.0.1\"\nport = {imap_port}\ntls = \"{tls}\"\nuser = \"judge\"\npassword_file = \"judge.pw\"\nca_file = \"{ca}\"\n\
         [transport.smtp]\nhost = \"127.0.0.1\"\nport = {smtp_port}\ntls = \"{tls}\"\nca_file = \"{ca}\"\n\n",
        ca = server.ca(),
    );
    for game in games {
        config +=
            &format!("[[game]]\nid = \"{game}\"\nrules = \"foundation-empire\"\n{FIXED_START}");
        for (power, address, pw) in PLAYERS {
            config += &format!(
                "[[game.player]]\npower = \"{power}\"\naddress = \"{address}\"\npassword = \"{}\"\n",
                hashes()[pw]
            );
        }
        config += &format!(
            "[[game.moderator]]\naddress = \"{}\"\npassword = \"{}\"\n",
            MODERATOR.0,
            hashes()[MODERATOR.1]
        );
    }
    std::fs::write(dir.path().join("games.toml"), config).unwrap();
    dir
}

pub fn a_turn_over_imap_and_smtp_with_force_and_a_deadline() {
    let server = servers();
    let (_dir, _serve) = serve(&server);

    // A turn where all four submit.
    let orders = ["B2 - C2\nA1 S", "F2 - E2", "E4 - D3", "C4 - C3"];
    for (k, ((_, address, pw), o)) in PLAYERS.iter().zip(orders).enumerate() {
        server.send(
            address,
            "judge@example.test",
            "[g1] orders",
            &format!("PASSWORD {pw}\n{o}"),
            &format!("t1-{k}@example.test"),
        );
    }
    for (_, address, pw) in PLAYERS {
        server.wait_for(user(address), pw, "turn 1 results", |m| {
            let s = subjects(m);
            s.iter().any(|s| s.contains("Orders received"))
                && s.iter().any(|s| s == "[g1] Turn 1 movement results")
        });
    }
    let mails = server.mailbox("hari", PLAYERS[0].2);
    let results = mails
        .iter()
        .filter_map(|raw| mail_parser::MessageParser::default().parse(&raw[..]))
        .find(|m| m.subject() == Some("[g1] Turn 1 movement results"))
        .unwrap();
    use mail_parser::MimeHeaders;
    let json = results
        .attachments()
        .find(|a| a.attachment_name() == Some("results.json"))
        .expect("results.json attached");
    let v: serde_json::Value = serde_json::from_slice(json.contents()).unwrap();
    assert_eq!(
        (v["game"].as_str(), v["turn"].as_u64()),
        (Some("g1"), Some(1))
    );

    // A moderator FORCE: turn 2 with no orders.
    let moderator = user(MODERATOR.0);
    server.send(
        MODERATOR.0,
        "judge@example.test",
        "[g1]",
        &format!("PASSWORD {}\nFORCE 2 movement", MODERATOR.1),
        "force@example.test",
    );
    server.wait_for("hari", PLAYERS[0].2, "turn 2 results", |m| {
        subjects(m)
            .iter()
            .any(|s| s == "[g1] Turn 2 movement results")
    });
    server.wait_for(moderator, MODERATOR.1, "the FORCE notice", |m| {
        subjects(m).iter().any(|s| s == "[g1] Moderator commands")
    });

    // A deadline-driven turn: the moderator sets the deadline a few seconds ahead
    // (far enough that it is still ahead when the judge reads the mail: a deadline
    // already past is refused).
    let when = (chrono::Utc::now() + chrono::Duration::seconds(8))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    server.send(
        MODERATOR.0,
        "judge@example.test",
        "[g1]",
        &format!("PASSWORD {}\nDEADLINE {when}", MODERATOR.1),
        "deadline@example.test",
    );
    server.wait_for("mule", PLAYERS[2].2, "turn 3 results", |m| {
        subjects(m)
            .iter()
            .any(|s| s == "[g1] Turn 3 movement results")
    });
    // Every mail was answered once: one receipt per order mail in each mailbox.
    for (_, address, pw) in PLAYERS {
        let s = subjects(&server.mailbox(user(address), pw));
        assert_eq!(
            s.iter().filter(|s| s.contains("Orders received")).count(),
            1,
            "{address}: {s:?}"
        );
        assert_eq!(
            s.iter()
                .filter(|s| s.contains("Turn 1 movement results"))
                .count(),
            1
        );
    }
}

/// The judge reads a mail as of when it reached the mailbox (a mail that came after a
/// deadline counts for the next phase, however late the pass that reads it): over
/// IMAP that is the mail's INTERNALDATE, which Dovecot takes from its Maildir file.
pub fn imap_tells_when_each_mail_reached_the_mailbox() {
    use pbem::mail::transport::Inbox;
    let server = servers();
    let dir = write_config(&server, &["g1"], 256);
    let config = pbem::config::Config::load(&dir.path().join("games.toml")).unwrap();
    let pbem::config::Transport::Imap { imap, mailbox, .. } = &config.transport else {
        panic!("an IMAP configuration");
    };
    let name = "1767322800.M1P1.late";
    server.drop_into(
        "judge",
        name,
        &raw_mail(PLAYERS[0].1, "late@example.test", "hi"),
    );
    let file = server.dir.path().join("mail/judge/Maildir/new").join(name);
    let delivered = chrono::DateTime::parse_from_rfc3339("2026-01-02T03:04:05Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(delivered.into())
        .unwrap();
    let store = pbem::store::Store::open(&dir.path().join("inbox.sled")).unwrap();
    let mut inbox = pbem::mail::imap::ImapInbox::new((**imap).clone(), mailbox.clone());
    let waiting = inbox.fetch(&store).unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].received, Some(delivered));
}

fn raw_mail(from: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: [g1] orders\r\nMessage-ID: <{id}>\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    )
}

pub fn replies_wait_out_an_smtp_outage_and_mail_waits_out_an_imap_outage() {
    let server = servers();
    let (dir, mut judge) = serve(&server);
    let (hari, hari_pw) = (PLAYERS[0].1, PLAYERS[0].2);

    // SMTP down: the judge reads the mail and cannot answer; it answers once SMTP is back.
    server.control("stop", Some("smtp"));
    server.drop_into(
        "judge",
        "1.eml",
        &raw_mail(
            hari,
            "outage-1@example.test",
            &format!("PASSWORD {hari_pw}\nB2 - C2"),
        ),
    );
    server.wait_for("judge", "judge-pw", "the mail read by the judge", |m| {
        m.len() == 1
    });
    // The judge has read it (it is marked seen) while no reply could leave.
    let start = std::time::Instant::now();
    loop {
        let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["game", "show", "g1", "--json", "--config"])
            .arg(dir.path().join("games.toml"))
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if v["submitted"] == serde_json::json!(["foundation"]) {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "orders never taken"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    judge.wait_log("sending replies");
    assert!(
        subjects(&server.mailbox("hari", hari_pw)).is_empty(),
        "nothing could be sent"
    );
    server.control("start", None);
    server.wait_for(
        "hari",
        hari_pw,
        "the receipt after SMTP came back",
        has_receipt,
    );

    // IMAP down: mail is queued by the SMTP server; the judge keeps running, reconnects
    // when IMAP is back, and answers.
    server.control("stop", Some("imap"));
    let (cleon, cleon_pw) = (PLAYERS[1].1, PLAYERS[1].2);
    server.send(
        cleon,
        "judge@example.test",
        "[g1] orders",
        &format!("PASSWORD {cleon_pw}\nF2 - E2"),
        "outage-2@example.test",
    );
    judge.wait_log("reading mail");
    server.control("start", None);
    server.wait_for(
        "cleon",
        cleon_pw,
        "the receipt after IMAP came back",
        has_receipt,
    );
    assert!(judge.running(), "the daemon never exits on a network error");
}

/// What the judge should do with a hostile mail.
enum Expect {
    /// A reply threaded to the mail, whose body holds this text.
    Reply(&'static str),
    /// No answer (documented: machine mail, or no sender to answer).
    Silence,
}

pub fn hostile_mail_gets_a_clear_reply_or_a_documented_silence() {
    let server = servers();
    let (_dir, mut judge) = serve(&server);
    let (hari, pw) = (PLAYERS[0].1, PLAYERS[0].2);
    let head = |id: &str, extra: &str| {
        format!("From: {hari}\r\nTo: judge@example.test\r\nMessage-ID: <{id}>\r\n{extra}")
    };
    let big_junk = "x".repeat(76);
    let ten_mb: String =
        std::iter::repeat_n(format!("{big_junk}\r\n"), 10 * 1024 * 1024 / 78).collect();
    let many_lines: String = (0..10_000).map(|k| format!("Z{k} H\r\n")).collect();
    let corpus: Vec<(&str, String, Expect)> = vec![
        ("multipart", format!(
            "{}Subject: [g1] orders\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nPASSWORD {pw}\r\nB2 - C2\r\n--b1\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"map.pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n--b1--\r\n",
            head("multipart@example.test", "")), Expect::Reply("ok       B2 - C2")),
        ("html-only", format!(
            "{}Subject: [g1] orders\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><p>PASSWORD {pw}</p><p>A1 S</p></body></html>\r\n",
            head("html@example.test", "")), Expect::Reply("ok       A1 S")),
        ("quoted-printable", format!(
            "{}Subject: [g1] orders\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nPASSWORD {pw}\r\nB2 =2D C3\r\n",
            head("qp@example.test", "")), Expect::Reply("ok       B2 - C3")),
        ("base64", format!(
            "{}Subject: [g1] orders\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
            head("b64@example.test", ""), base64_encode(format!("PASSWORD {pw}\nC1 H\n").as_bytes())), Expect::Reply("ok       C1 H")),
        ("latin-1", format!(
            "{}Subject: [g1] orders\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nPASSWORD {pw}\r\nCaf=E9 H\r\n",
            head("latin1@example.test", "")), Expect::Reply("Café")),
        ("encoded-subject", format!(
            "{}Subject: =?UTF-8?B?{}?=\r\n\r\nPASSWORD {pw}\r\nA1 H\r\n",
            head("subject@example.test", ""), base64_encode("[g1] Befehle für Runde 1".as_bytes())), Expect::Reply("ok       A1 H")),
        ("ten-megabytes", format!(
            "{}Subject: [g1] orders\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b2\"\r\n\r\n--b2\r\nContent-Type: text/plain\r\n\r\nPASSWORD {pw}\r\nB2 H\r\n--b2\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"junk.txt\"\r\n\r\n{ten_mb}--b2--\r\n",
            head("big@example.test", "")), Expect::Reply("ok       B2 H")),
        ("no-body", format!("{}Subject: [g1] nothing\r\n\r\n", head("empty@example.test", "")),
            Expect::Reply("no PASSWORD line")),
        ("ten-thousand-lines", format!(
            "{}Subject: [g1] orders\r\n\r\nPASSWORD {pw}\r\n{many_lines}",
            head("lines@example.test", "")), Expect::Reply("Only the first 2000 lines of a mail are read")),
        ("malformed-headers", format!(
            "{}Subject: [g1] orders\r\nContent-Type: text/plain; charset=\"\r\nX-Broken\r\n: no name\r\nDate: yesterday-ish\r\n\r\nPASSWORD {pw}\r\nA1 H\r\n",
            head("malformed@example.test", "")), Expect::Reply("ok       A1 H")),
        ("no-sender", "To: judge@example.test\r\nMessage-ID: <nofrom@example.test>\r\nSubject: [g1]\r\n\r\nB2 H\r\n".to_string(),
            Expect::Silence),
    ];
    for (_, raw, _) in &corpus {
        server.send_raw(hari, "judge@example.test", raw.as_bytes());
    }
    let replies = corpus
        .iter()
        .filter(|(_, _, e)| matches!(e, Expect::Reply(_)))
        .count();
    // Replies only (hari's mailbox also holds the game's welcome, which answers nothing).
    let answers = |inbox: &[Vec<u8>]| -> Vec<(String, String)> {
        inbox
            .iter()
            .filter_map(|raw| mail_parser::MessageParser::default().parse(&raw[..]))
            .map(|m| {
                (
                    m.in_reply_to().as_text().unwrap_or("").to_string(),
                    m.body_text(0)
                        .map(|b| b.replace("\r\n", "\n"))
                        .unwrap_or_default(),
                )
            })
            .filter(|(to, _)| !to.is_empty())
            .collect()
    };
    server.wait_for("hari", pw, "the replies", |m| answers(m).len() >= replies);
    let parsed = answers(&server.mailbox("hari", pw));
    assert_eq!(
        parsed.len(),
        replies,
        "one reply per mail that deserves one"
    );
    for (name, raw, expect) in &corpus {
        let id = raw
            .split("Message-ID: <")
            .nth(1)
            .and_then(|r| r.split('>').next())
            .unwrap();
        let reply = parsed.iter().find(|(to, _)| to == id);
        match expect {
            Expect::Reply(text) => {
                let (_, body) = reply.unwrap_or_else(|| panic!("{name}: no reply"));
                assert!(body.contains(text), "{name}: {text:?} not in\n{body}");
            }
            Expect::Silence => assert!(reply.is_none(), "{name}: answered"),
        }
    }
    assert!(judge.running(), "the daemon kept running");
}

fn base64_encode(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Headers of a raw mail: (Message-ID, In-Reply-To, subject).
fn ids(raw: &[u8]) -> (String, String, String) {
    let m = mail_parser::MessageParser::default().parse(raw).unwrap();
    (
        m.message_id().unwrap_or("").to_string(),
        m.in_reply_to().as_text().unwrap_or("").to_string(),
        m.subject().unwrap_or("").to_string(),
    )
}

pub fn killed_at_any_point_every_mail_counts_once_and_no_phase_twice() {
    let server = servers();
    let games = ["g1", "g2", "g3"];
    // Mail handled in groups of 4: a run killed at a point gets through a group or two.
    let dir = write_config(&server, &games, 4);
    let config = dir.path().join("games.toml");
    // 200 order mails across three games; each complete set of four adjudicates a turn.
    // They arrive in 8 waves of 25, one before each round of kills: with all 200
    // waiting at once, one run that gets far (a kill at a random moment, or a point
    // first reached after the whole intake) would leave the next rounds' points nothing
    // to reach, and how far a run gets depends on the servers' speed.
    let orders = [
        "B2 - C2\nA1 S",
        "F2 - E2",
        "E4 - D3",
        "C4 - C3",
        "B2 H",
        "E1 H",
        "G4 H",
        "A4 H",
    ];
    let mut sent_ids = Vec::new();
    // Each round: kill the judge at each of the four places (24 or more in all), then
    // once at a random moment, restarting it after each.
    let points = ["after-raw", "after-commit", "before-send", "after-send"];
    let (mut kills, mut at_points) = (0, 0);
    let mut dice = pbem::dice::Dice::for_phase(1, 0, "kills");
    for wave in 0..8 {
        for k in wave * 25..(wave + 1) * 25 {
            let (_, address, pw) = PLAYERS[k % 4];
            let game = games[(k / 4) % 3];
            let id = format!("crash-{k}@example.test");
            let body = format!("PASSWORD {pw}\n{}", orders[(k * 7 + k / 4) % orders.len()]);
            server.send(
                address,
                "judge@example.test",
                &format!("[{game}] orders"),
                &body,
                &id,
            );
            sent_ids.push((address, id));
        }
        let arrived = sent_ids.len();
        server.wait_for("judge", "judge-pw", "the wave of mails", |m| {
            m.len() == arrived
        });
        for point in points {
            // The first or second time the point is reached: each run does a little
            // work (a group of 4 mails, a few replies) and dies.
            let n = dice.below(2) as usize;
            let mut judge = Serve::start(&config, Some(&format!("{point}:{n}")));
            if judge.ended_within(std::time::Duration::from_secs(3)) {
                kills += 1;
                at_points += 1;
            } else {
                judge.kill(); // the point was not reached: killed where it stood
                kills += 1;
            }
        }
        let mut judge = Serve::start(&config, None);
        std::thread::sleep(std::time::Duration::from_millis(20 + dice.below(300)));
        judge.kill();
        kills += 1;
    }
    assert!(
        at_points >= 24,
        "only {at_points} kills at the chosen points"
    );
    // Then the judge runs to the end.
    let _judge = Serve::start(&config, None);
    // A mail the judge was killed on three times is set aside, by design (it could be
    // what kills the judge): it gets no receipt, its game's moderator is told once.
    let set_aside = || -> std::collections::BTreeSet<String> {
        server
            .mailbox(user(MODERATOR.0), MODERATOR.1)
            .iter()
            .filter_map(|raw| {
                let m = mail_parser::MessageParser::default().parse(&raw[..])?;
                let body = m.body_text(0)?.replace(['\r', '\n'], " ");
                let key = body.split("v1/poison/id-").nth(1)?;
                Some(key.split(')').next()?.trim().to_string())
            })
            .collect()
    };
    for (_, address, pw) in PLAYERS {
        let expected: std::collections::BTreeSet<String> = sent_ids
            .iter()
            .filter(|(a, _)| *a == address)
            .map(|(_, id)| id.clone())
            .collect();
        server.wait_for(
            address.split('@').next().unwrap(),
            pw,
            "a receipt for every mail (or its moderator told it was set aside)",
            |m| {
                let answered: std::collections::BTreeSet<String> = m
                    .iter()
                    .map(|raw| ids(raw).1)
                    .filter(|r| r.starts_with("crash-"))
                    .collect();
                let aside = set_aside();
                assert!(
                    answered.is_disjoint(&aside),
                    "{address}: answered and set aside: {:?}",
                    answered.intersection(&aside).collect::<Vec<_>>()
                );
                let aside_here = expected.intersection(&aside).count();
                answered.len() + aside_here == expected.len()
            },
        );
    }
    let aside = set_aside().len();
    assert!(
        aside * 3 <= kills,
        "{aside} mails set aside for {kills} kills (each needs three)"
    );
    // Exactly once: per order mail one receipt (a resend of the same reply, same
    // Message-ID, is the only duplicate allowed); per phase and player one results mail.
    let mut duplicates = 0;
    for (_, address, pw) in PLAYERS {
        let mails: Vec<(String, String, String)> = server
            .mailbox(address.split('@').next().unwrap(), pw)
            .iter()
            .map(|r| ids(r))
            .collect();
        let mut by_key: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
            std::collections::BTreeMap::new();
        for (id, reply_to, subject) in &mails {
            // Results and welcomes (one a game) by subject, receipts by the mail answered.
            let key = if subject.contains("results") || reply_to.is_empty() {
                subject.clone()
            } else {
                reply_to.clone()
            };
            by_key.entry(key).or_default().insert(id.clone());
        }
        for (key, ids) in &by_key {
            assert_eq!(
                ids.len(),
                1,
                "{address}: {key} answered by {} different mails",
                ids.len()
            );
        }
        duplicates += mails.len() - by_key.len();
    }
    // Each kill can leave unrecorded the acceptances since the last record (the judge
    // records them every 8: at most 7) and the replies in flight in its 4 SMTP
    // sessions: at most 11 a kill.
    assert!(
        duplicates <= kills * 11,
        "{duplicates} duplicates for {kills} kills"
    );
    eprintln!("{kills} kills ({at_points} at chosen points); {duplicates} replies delivered twice (accepted by SMTP, acceptance not recorded); {aside} mails set aside after three kills on them");
}

pub fn after_uidvalidity_changes_mail_is_recognised_by_message_id() {
    let server = servers();
    let (_dir, mut judge) = serve(&server);
    let (hari, pw) = (PLAYERS[0].1, PLAYERS[0].2);
    // Hari's mailbox also gets the game's welcome, in either order with the receipt:
    // the waits look for the replies themselves.
    let replies_to = |m: &[Vec<u8>], id: &str| m.iter().filter(|r| ids(r).1 == id).count();
    send_hari_orders(&server, "uv-a@example.test");
    server.wait_for("hari", pw, "the first receipt", |m| {
        replies_to(m, "uv-a@example.test") == 1
    });
    // The mailbox is rebuilt: Dovecot forgets its UIDs (a new UIDVALIDITY), and the mail
    // already answered is unseen again.
    server.control("stop", Some("imap"));
    let maildir = server.dir.path().join("mail/judge/Maildir");
    // Dovecot takes a new mailbox's UIDVALIDITY from the clock, in seconds: rebuilt in
    // the second it was made, the mailbox would keep the old one (and its UIDs would be
    // valid still). The old value is in a file's name.
    let mut old_validity = 0u64;
    for entry in std::fs::read_dir(&maildir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if let Some(hex) = name.strip_prefix("dovecot-uidvalidity.") {
            old_validity = old_validity.max(u64::from_str_radix(hex, 16).unwrap());
        }
        if name.starts_with("dovecot") {
            if path.is_dir() {
                std::fs::remove_dir_all(&path).unwrap();
            } else {
                std::fs::remove_file(&path).unwrap();
            }
        }
    }
    for entry in std::fs::read_dir(maildir.join("cur")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let base = name.split(":2,").next().unwrap().to_string();
        std::fs::rename(&path, maildir.join("new").join(base)).unwrap();
    }
    assert!(old_validity > 0, "no UIDVALIDITY file in {maildir:?}");
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    while now() <= old_validity {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    server.control("start", None);
    server.send(
        hari,
        "judge@example.test",
        "[g1] orders",
        &format!("PASSWORD {pw}\nB2 - C3"),
        "uv-b@example.test",
    );
    server.wait_for("hari", pw, "the second receipt", |m| {
        replies_to(m, "uv-b@example.test") >= 1
    });
    // The judge has now read both mails again under new UIDs: wait until it has marked
    // them seen, then check the old one was not answered twice.
    server.wait_for("judge", "judge-pw", "both mails handled", |m| m.len() == 2);
    let start = std::time::Instant::now();
    loop {
        let seen = std::fs::read_dir(maildir.join("cur"))
            .map(|r| {
                r.filter_map(|e| e.ok())
                    .filter(|e| e.file_name().to_string_lossy().contains(":2,S"))
                    .count()
            })
            .unwrap_or(0);
        if seen == 2 {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "mail never marked seen"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let replies: Vec<(String, String, String)> =
        server.mailbox("hari", pw).iter().map(|r| ids(r)).collect();
    let to_a = replies
        .iter()
        .filter(|(_, r, _)| r == "uv-a@example.test")
        .count();
    let to_b = replies
        .iter()
        .filter(|(_, r, _)| r == "uv-b@example.test")
        .count();
    assert_eq!((to_a, to_b), (1, 1), "{replies:?}");
    assert!(judge.running());
}

/// Makes the judge log in to SMTP (offered on the SMTPS port) with the password in
/// `smtp.pw`.
fn with_smtp_login(dir: &std::path::Path, password: &str) {
    let config = dir.join("games.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let text = text.replacen(
        "[transport.smtp]\n",
        "[transport.smtp]\nuser = \"judge\"\npassword_file = \"smtp.pw\"\n",
        1,
    );
    std::fs::write(config, text).unwrap();
    std::fs::write(dir.join("smtp.pw"), format!("{password}\n")).unwrap();
}

pub fn imaps_and_smtps_with_tls_from_the_first_byte() {
    let server = servers();
    let dir = write_config_tls(&server, &["g1"], 256, true);
    with_smtp_login(dir.path(), "judge-pw");
    let mut judge = Serve::start(&dir.path().join("games.toml"), None);
    let pw = PLAYERS[0].2;
    send_hari_orders(&server, "tls-a@example.test");
    server.wait_for("hari", pw, "the receipt over IMAPS and SMTPS", has_receipt);
    assert!(judge.running());
}

pub fn a_wrong_smtp_password_keeps_the_replies_until_it_is_put_right() {
    let server = servers();
    let dir = write_config_tls(&server, &["g1"], 256, true);
    with_smtp_login(dir.path(), "not-the-password");
    let config = dir.path().join("games.toml");
    let mut judge = Serve::start(&config, None);
    let pw = PLAYERS[0].2;
    send_hari_orders(&server, "smtp-auth@example.test");
    // The server refuses the login: a fault of the judge's settings, not of the reply.
    judge.wait_log("sending replies");
    assert!(judge.running(), "the daemon never exits on a refused login");
    assert!(subjects(&server.mailbox("hari", pw)).is_empty());
    judge.kill();
    // The moderator puts the password right: the reply, kept all along, goes out.
    std::fs::write(dir.path().join("smtp.pw"), "judge-pw\n").unwrap();
    let _judge = Serve::start(&config, None);
    server.wait_for("hari", pw, "the receipt once the login works", has_receipt);
}

/// `pbem outbox` on the judge's folder: its stdout, and whether it succeeded.
fn outbox_command(config: &std::path::Path, args: &[&str]) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("outbox")
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
        out.status.success(),
    )
}

pub fn a_reply_refused_for_good_is_set_aside_shown_and_sent_again_on_demand() {
    let server = servers();
    let dir = write_config(&server, &["g1"], 256);
    let config = dir.path().join("games.toml");
    let pw = PLAYERS[0].2;
    // A first pass creates the game and mails its welcomes while the server takes mail.
    let first = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["poll-once", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert!(first.status.success(), "{first:?}");
    server.wait_for("hari", pw, "the welcome", |m| m.len() == 1);
    send_hari_orders(&server, "refused@example.test");
    server.wait_for("judge", "judge-pw", "the order mail", |m| m.len() == 1);
    // From now on the SMTP server refuses every mail for good (550).
    server.control("smtp-fault", Some("reject"));
    let mut judge = Serve::start(&config, None);
    judge.wait_log("refused for good");
    assert!(judge.running(), "a refused reply does not stop the daemon");
    judge.kill();

    let (text, ok) = outbox_command(&config, &[]);
    assert!(ok, "{text}");
    assert!(
        text.starts_with("0 replies waiting to be sent, 1 refused for good and set aside\n"),
        "{text}"
    );
    assert!(text.contains("set aside hari@example.test"), "{text}");
    assert!(text.contains("tried 1 time"), "{text}");
    assert!(
        text.contains("last answer: SMTP: permanent error (550)"),
        "{text}"
    );
    assert!(!has_receipt(&server.mailbox("hari", pw)));

    // The server takes mail again; the moderator puts the reply back.
    server.control("smtp-fault", Some("none"));
    let (text, ok) = outbox_command(&config, &["--resend-failed"]);
    assert!(ok, "{text}");
    assert!(text.starts_with("1 reply put back in the outbox"), "{text}");
    let (text, _) = outbox_command(&config, &[]);
    assert!(
        text.starts_with("1 reply waiting to be sent, 0 refused for good and set aside\n"),
        "{text}"
    );
    let mut judge = Serve::start(&config, None);
    server.wait_for("hari", pw, "the receipt sent again", has_receipt);
    // While the judge runs it holds the store: the command says so, plainly.
    let (text, ok) = outbox_command(&config, &[]);
    assert!(!ok);
    assert!(text.contains("the judge is running"), "{text}");
    judge.kill();
    let (text, _) = outbox_command(&config, &[]);
    assert!(
        text.starts_with("0 replies waiting to be sent, 0 refused for good and set aside\n"),
        "{text}"
    );
}

/// hari's orders for `g1` (one fleet moving), mailed with this Message-ID.
fn send_hari_orders(server: &MailServer, id: &str) {
    let (hari, pw) = (PLAYERS[0].1, PLAYERS[0].2);
    server.send(
        hari,
        "judge@example.test",
        "[g1] orders",
        &format!("PASSWORD {pw}\nB2 - C2"),
        id,
    );
}

/// Whether a mailbox holds a receipt for orders.
fn has_receipt(mailbox: &[Vec<u8>]) -> bool {
    subjects(mailbox)
        .iter()
        .any(|s| s.contains("Orders received"))
}
