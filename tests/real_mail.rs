//! The judge against real mail servers: players write with an SMTP client, `pbem serve`
//! reads the judge's mailbox over IMAP and answers over SMTP; players' mailboxes are
//! read back over IMAP.

use std::process::{Child, Command};

use crate::mailserver::{subjects, MailServer};
use crate::world::{hashes, FIXED_START, MODERATOR, PLAYERS};

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn user(address: &str) -> &str {
    address.split('@').next().unwrap()
}

#[test]
fn a_turn_over_imap_and_smtp_with_force_and_a_deadline() {
    let mut users = vec![("judge", "judge-pw")];
    users.extend(PLAYERS.iter().map(|(_, a, p)| (user(a), *p)));
    users.push((user(MODERATOR.0), MODERATOR.1));
    let Some(server) = MailServer::start(&users) else {
        return;
    };
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
    let _serve = Serve(
        Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["serve", "--config"])
            .arg(dir.path().join("games.toml"))
            .spawn()
            .unwrap(),
    );

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
