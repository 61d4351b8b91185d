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
    fn start(config: &std::path::Path) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["serve", "--config"])
            .arg(config)
            .env("RUST_LOG", "warn")
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
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
fn servers() -> Option<MailServer> {
    let mut users = vec![("judge", "judge-pw")];
    users.extend(PLAYERS.iter().map(|(_, a, p)| (user(a), *p)));
    users.push((user(MODERATOR.0), MODERATOR.1));
    MailServer::start(&users)
}

/// `pbem serve` on those servers, with game `g1`; returns the folder and the process.
fn serve(server: &MailServer) -> (tempfile::TempDir, Serve) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("judge.pw"), "judge-pw\n").unwrap();
    let mut config = format!(
        "[judge]\naddress = \"judge@example.test\"\nstore = \"judge.sled\"\npoll_seconds = 1\n\n\
         [transport]\nkind = \"imap\"\n\
         [transport.imap]\nhost = \"127.0.0.1\"\nport = {}\ntls = \"starttls\"\nuser = \"judge\"\npassword_file = \"judge.pw\"\nca_file = \"{ca}\"\n\
         [transport.smtp]\nhost = \"127.0.0.1\"\nport = {}\ntls = \"starttls\"\nca_file = \"{ca}\"\n\n\
         [[game]]\nid = \"g1\"\nrules = \"foundation-empire\"\n{FIXED_START}",
        server.port("IMAP_PORT"),
        server.port("SMTP_PORT"),
        ca = server.ca(),
    );
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
    std::fs::write(dir.path().join("games.toml"), config).unwrap();
    let serve = Serve::start(&dir.path().join("games.toml"));
    (dir, serve)
}

#[test]
fn a_turn_over_imap_and_smtp_with_force_and_a_deadline() {
    let Some(server) = servers() else {
        return;
    };
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

    // A deadline-driven turn: the moderator sets the deadline a few seconds ahead.
    let when = (chrono::Utc::now() + chrono::Duration::seconds(3))
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

fn raw_mail(from: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: [g1] orders\r\nMessage-ID: <{id}>\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    )
}

#[test]
fn replies_wait_out_an_smtp_outage_and_mail_waits_out_an_imap_outage() {
    let Some(server) = servers() else {
        return;
    };
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
    server.wait_for("hari", hari_pw, "the receipt after SMTP came back", |m| {
        subjects(m).iter().any(|s| s.contains("Orders received"))
    });

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
    server.wait_for("cleon", cleon_pw, "the receipt after IMAP came back", |m| {
        subjects(m).iter().any(|s| s.contains("Orders received"))
    });
    assert!(judge.running(), "the daemon never exits on a network error");
}
