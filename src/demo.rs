//! `pbem demo`: a short scripted 4-player game through the whole judge (mails written
//! into a Maildir inbox → judge → replies in the outbox), in a temporary folder.

use std::fmt::Write;
use std::path::Path;

use crate::config::Config;
use crate::judge::clock::SystemClock;
use crate::judge::Judge;
use crate::mail::maildir;

const PLAYERS: [(&str, &str, &str); 4] = [
    ("foundation", "hari@example.test", "psychohistory"),
    ("imperium", "cleon@example.test", "trantor"),
    ("union", "mule@example.test", "conversion"),
    ("tazenda", "preem@example.test", "second"),
];

/// A `games.toml` for the demo game, with fixed starting positions.
pub fn demo_config(hashes: &[String]) -> String {
    let mut s = String::from(
        "[judge]\naddress = \"judge@example.test\"\nname = \"pbem demo judge\"\nstore = \"judge.sled\"\n\n\
         [transport]\nkind = \"maildir\"\ninbox = \"mail/inbox\"\noutbox = \"mail/outbox\"\n\n\
         [[game]]\nid = \"demo\"\nrules = \"foundation-empire\"\nseed = 7\ntime_zone = \"Europe/London\"\n\
         phases = { movement = \"48h\", retreat = \"24h\", placement = \"24h\" }\nreminders = [\"24h\"]\n\
         [game.start]\nfoundation = [\"Terminus\", \"Anacreon\", \"Smyrno\"]\n\
         imperium = [\"Trantor\", \"Neotrantor\", \"Siwenna\"]\n\
         union = [\"Kalgan\", \"Haven\", \"Radole\"]\ntazenda = [\"Tazenda\", \"Rossem\", \"Gentri\"]\n",
    );
    for ((power, address, _), hash) in PLAYERS.iter().zip(hashes) {
        let _ = write!(
            s,
            "[[game.player]]\npower = \"{power}\"\naddress = \"{address}\"\npassword = \"{hash}\"\n"
        );
    }
    s
}

/// Writes a player's mail into the inbox.
pub fn send(inbox: &Path, n: usize, from: &str, subject: &str, body: &str) -> std::io::Result<()> {
    let text = format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: {subject}\r\nMessage-ID: <demo-{n}@example.test>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    );
    maildir::deliver(inbox, &format!("{n:04}.demo"), text.as_bytes())
}

/// The mails in an outbox, as (to, subject, text body), oldest first.
pub fn outbox(dir: &Path) -> Vec<(String, String, String)> {
    maildir::waiting(dir)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|raw| {
            let m = mail_parser::MessageParser::default().parse(&raw[..]);
            let m = m.as_ref();
            let to = m
                .and_then(|m| m.to())
                .and_then(|a| a.first())
                .and_then(|a| a.address())
                .unwrap_or("")
                .to_string();
            let subject = m.and_then(|m| m.subject()).unwrap_or("").to_string();
            let body = m
                .and_then(|m| m.body_text(0))
                .map(|b| b.into_owned())
                .unwrap_or_default();
            (to, subject, body)
        })
        .collect()
}

pub fn run() -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("pbem-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let hashes: Vec<String> = PLAYERS
        .iter()
        .map(|(_, _, pw)| crate::password::hash(pw))
        .collect();
    let config_path = dir.join("games.toml");
    std::fs::write(&config_path, demo_config(&hashes)).map_err(|e| e.to_string())?;
    let config = Config::load(&config_path).map_err(|e| e.to_string())?;
    let judge = Judge::open(&config, &SystemClock).map_err(|e| e.to_string())?;
    let inbox = dir.join("mail/inbox");
    let outbox_dir = dir.join("mail/outbox");
    let mails = [
        (
            "hari@example.test",
            "[demo] turn 1",
            "PASSWORD psychohistory\nB2 - C2\nA1 S\nC1 - C9\n",
        ),
        (
            "cleon@example.test",
            "orders",
            "GAME demo\nPASSWORD trantor\nORDERS\nF2 - E2\nE1 S\nG1 S\nEND\n",
        ),
        (
            "mule@example.test",
            "[demo]",
            "PASSWORD conversion\nE4 - D3\nG4 H\nF5 - F4\n",
        ),
        (
            "hari@example.test",
            "[demo] corrected",
            "PASSWORD psychohistory\nB2 - C2\nA1 S\nC1 S\n",
        ),
        (
            "preem@example.test",
            "[demo]",
            "PASSWORD second\nC4 - C3\nA4 S\nB5 S\n",
        ),
        (
            "hari@example.test",
            "[demo] board",
            "PASSWORD psychohistory\nBOARD\n",
        ),
    ];
    let mut out = format!("pbem demo in {}\n", dir.display());
    for (n, (from, subject, body)) in mails.iter().enumerate() {
        send(&inbox, n, from, subject, body).map_err(|e| e.to_string())?;
        let _ = writeln!(
            out,
            "\n>>> {from} sends \"{subject}\":\n{}",
            body.trim_end()
        );
    }
    let pass = judge.poll_once().map_err(|e| e.to_string())?;
    let _ = writeln!(
        out,
        "\n=== the judge read {} mails, adjudicated {} phase(s), sent {} replies ===",
        pass.mails_read, pass.phases_adjudicated, pass.replies_sent
    );
    let mut results_shown = false;
    for (to, subject, body) in outbox(&outbox_dir) {
        // Results go to all four players: show them once.
        if subject.contains("results") {
            if results_shown {
                let _ = writeln!(out, "\n<<< to {to}: {subject} (the same results)");
                continue;
            }
            results_shown = true;
        }
        let _ = writeln!(out, "\n<<< to {to}: {subject}\n{}", body.trim_end());
    }
    let written = write_pictures(&outbox_dir, &dir.join("pictures")).map_err(|e| e.to_string())?;
    if !written.is_empty() {
        let _ = writeln!(out, "\n=== the pictures mailed (board.png) ===");
    }
    for (path, mails) in &written {
        let _ = writeln!(out, "{}\n    in {}", path.display(), mails.join(", "));
    }
    let _ = writeln!(
        out,
        "\nThe demo's folder (games.toml, mail/, pictures/, judge.sled) is left in {}.",
        dir.display()
    );
    Ok(out)
}

/// The pictures the mails in an outbox carry, as (recipient, subject, PNG), oldest
/// mail first.
pub fn pictures(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    use mail_parser::MimeHeaders;
    let mut out = Vec::new();
    for raw in maildir::waiting(dir)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
    {
        let Some(m) = mail_parser::MessageParser::default().parse(&raw[..]) else {
            continue;
        };
        let to = m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or("")
            .to_string();
        let subject = m.subject().unwrap_or("").to_string();
        for part in m.attachments() {
            if part.attachment_name() == Some(crate::picture::mail::FILE_NAME) {
                out.push((to.clone(), subject.clone(), part.contents().to_vec()));
            }
        }
    }
    out
}

/// Writes each distinct picture the outbox's mails carry into `into`, named after the
/// first mail that carried it. Returns each file and the mails (to: subject) that
/// carried it.
pub fn write_pictures(
    outbox: &Path,
    into: &Path,
) -> std::io::Result<Vec<(std::path::PathBuf, Vec<String>)>> {
    let mut written: Vec<(Vec<u8>, std::path::PathBuf, Vec<String>)> = Vec::new();
    for (to, subject, png) in pictures(outbox) {
        let mail = format!("{to}: {subject}");
        if let Some(w) = written.iter_mut().find(|w| w.0 == png) {
            w.2.push(mail);
            continue;
        }
        std::fs::create_dir_all(into)?;
        let slug: String = subject
            .to_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect::<String>()
            .split('-')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        let path = into.join(format!("{:02}-{slug}.png", written.len() + 1));
        std::fs::write(&path, &png)?;
        written.push((png, path, vec![mail]));
    }
    Ok(written.into_iter().map(|(_, p, m)| (p, m)).collect())
}
