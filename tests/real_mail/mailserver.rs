//! Real mail servers for a test: Postfix (SMTP) delivering into Dovecot (IMAP), started
//! by `scripts/mail-server` on free loopback ports in a temporary folder, stopped when
//! dropped.
//!
//! Whether they can run here is decided once, by the harness (`main.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct MailServer {
    pub dir: tempfile::TempDir,
    pub env: BTreeMap<String, String>,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/mail-server")
}

/// Whether the servers can run here: installed, and this process is root (Postfix's
/// master must start as root). The reason when not.
pub fn availability() -> Result<(), String> {
    let installed = ["postfix", "dovecot"].iter().all(|tool| {
        Command::new("sh")
            .args(["-c", &format!("PATH=$PATH:/usr/sbin command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !installed {
        return Err("Postfix and Dovecot are not installed".into());
    }
    let root = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|u| u == "0"))
        })
        .unwrap_or(false);
    if !root {
        return Err("Postfix must be started as root, and this is not root".into());
    }
    Ok(())
}

impl MailServer {
    /// Starts a server with these IMAP users (`user:password`); the harness has
    /// checked that the servers can run ([`availability`]).
    pub fn start(users: &[(&str, &str)]) -> MailServer {
        MailServer::start_in(Path::new("/tmp"), users)
    }

    /// The same, with the servers' folder (spool, mailboxes) made in `base`.
    pub fn start_in(base: &Path, users: &[(&str, &str)]) -> MailServer {
        let users: Vec<String> = users.iter().map(|(u, p)| format!("{u}:{p}")).collect();
        // The script picks free ports at random, but tests start servers side by side:
        // another one may take a port between the pick and the bind. The script then
        // stops what it started and says so; a fresh folder picks fresh ports.
        let mut attempt = 0;
        loop {
            attempt += 1;
            let dir = tempfile::Builder::new()
                .prefix("ms")
                .tempdir_in(base)
                .unwrap();
            let out = Command::new(script())
                .arg("start")
                .arg(dir.path())
                .envs([
                    ("IMAP_PORT", "auto"),
                    ("IMAPS_PORT", "auto"),
                    ("SMTP_PORT", "auto"),
                    ("SMTPS_PORT", "auto"),
                ])
                .env("MAIL_USERS", users.join(" "))
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            if !out.status.success() && stderr.contains("already in use") && attempt < 5 {
                eprintln!("mail-server start (attempt {attempt}): {stderr}; again on other ports");
                continue;
            }
            assert!(out.status.success(), "mail-server start: {stderr}");
            let env = String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            return MailServer { dir, env };
        }
    }

    pub fn port(&self, name: &str) -> u16 {
        self.env[name].parse().unwrap()
    }

    pub fn ca(&self) -> &str {
        &self.env["MAIL_CA"]
    }

    /// Sends a mail with an ordinary SMTP client (lettre), as a player would.
    pub fn send(&self, from: &str, to: &str, subject: &str, body: &str, id: &str) {
        use lettre::Transport;
        let message = lettre::Message::builder()
            .from(from.parse().unwrap())
            .to(to.parse().unwrap())
            .subject(subject)
            .message_id(Some(format!("<{id}>")))
            .body(body.to_string())
            .unwrap();
        let smtp = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.port("SMTP_PORT"))
            .build();
        smtp.send(&message).unwrap();
    }

    /// Sends raw bytes as they are (for malformed mail).
    pub fn send_raw(&self, from: &str, to: &str, raw: &[u8]) {
        use lettre::Transport;
        let envelope =
            lettre::address::Envelope::new(Some(from.parse().unwrap()), vec![to.parse().unwrap()])
                .unwrap();
        let smtp = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.port("SMTP_PORT"))
            .build();
        smtp.send_raw(&envelope, raw).unwrap();
    }

    /// Every mail in a user's INBOX, read over IMAP without marking it seen.
    pub fn mailbox(&self, user: &str, password: &str) -> Vec<Vec<u8>> {
        let stream = std::net::TcpStream::connect(("127.0.0.1", self.port("IMAP_PORT"))).unwrap();
        let mut client = imap::Client::new(stream);
        client.read_greeting().unwrap();
        let mut session = client.login(user, password).map_err(|(e, _)| e).unwrap();
        let mailbox = session.select("INBOX").unwrap();
        let mut out = Vec::new();
        if mailbox.exists > 0 {
            for f in session.fetch("1:*", "BODY.PEEK[]").unwrap().iter() {
                out.push(f.body().unwrap_or_default().to_vec());
            }
        }
        let _ = session.logout();
        out
    }

    /// Waits until `check` holds of a user's mailbox (or fails after a minute).
    pub fn wait_for(
        &self,
        user: &str,
        password: &str,
        what: &str,
        check: impl Fn(&[Vec<u8>]) -> bool,
    ) {
        let start = Instant::now();
        loop {
            if check(&self.mailbox(user, password)) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "{user}: {what} never arrived"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl MailServer {
    /// Runs `scripts/mail-server <command> DIR [arg]`.
    pub fn control(&self, command: &str, arg: Option<&str>) {
        let mut c = Command::new(script());
        c.arg(command).arg(self.dir.path());
        if let Some(a) = arg {
            c.arg(a);
        }
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "mail-server {command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Puts a mail straight into a user's Maildir, as a local delivery would (works
    /// while SMTP is down).
    pub fn drop_into(&self, user: &str, name: &str, raw: &str) {
        let dir = self.dir.path().join("mail").join(user).join("Maildir");
        for sub in ["tmp", "new", "cur"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        std::fs::write(dir.join("tmp").join(name), raw).unwrap();
        std::fs::rename(dir.join("tmp").join(name), dir.join("new").join(name)).unwrap();
        // Dovecot reads and writes mail as the `mail` user.
        let owner = Command::new("chown")
            .args(["-R", "mail:mail"])
            .arg(self.dir.path().join("mail").join(user))
            .status()
            .unwrap();
        assert!(owner.success());
    }
}

impl Drop for MailServer {
    fn drop(&mut self) {
        let _ = Command::new(script())
            .arg("stop")
            .arg(self.dir.path())
            .output();
    }
}

/// Subjects of raw mails.
pub fn subjects(mails: &[Vec<u8>]) -> Vec<String> {
    mails
        .iter()
        .filter_map(|raw| {
            mail_parser::MessageParser::default()
                .parse(&raw[..])
                .and_then(|m| m.subject().map(str::to_string))
        })
        .collect()
}
