//! The IMAP client against a scripted server on loopback, for answers real servers
//! give rarely: the `imap` crate (3.0.0-alpha.15, like 2.x) panics on an untagged
//! `NO` to SELECT (Dovecot sends one when it cannot sync a mailbox). The judge
//! contains that: the pass reports the mailbox out of reach and goes on, and the next
//! call connects anew.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use pbem::config::{MailServer, TlsMode};
use pbem::mail::imap::ImapInbox;
use pbem::mail::transport::{Inbox, TransportError};
use pbem::store::Store;

/// Serves `sessions` connections: greeting, LOGIN accepted, SELECT answered with an
/// untagged NO before its OK. Returns the number of connections served.
fn scripted_server(sessions: usize) -> (u16, std::thread::JoinHandle<usize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = std::thread::spawn(move || {
        let mut served = 0;
        for stream in listener.incoming().take(sessions) {
            let mut stream = stream.unwrap();
            served += 1;
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            stream
                .write_all(b"* OK [CAPABILITY IMAP4rev1] ready\r\n")
                .unwrap();
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 0 {
                let mut words = line.split_whitespace();
                let tag = words.next().unwrap_or("*").to_string();
                let command = words.next().unwrap_or("").to_ascii_uppercase();
                let answer = match command.as_str() {
                    "LOGIN" => format!("{tag} OK logged in\r\n"),
                    "SELECT" | "EXAMINE" => format!(
                        "* NO [SERVERBUG] Internal error occurred\r\n* OK [UIDVALIDITY 7] ok\r\n{tag} OK [READ-WRITE] selected\r\n"
                    ),
                    "LOGOUT" => format!("* BYE\r\n{tag} OK bye\r\n"),
                    _ => format!("{tag} BAD unexpected\r\n"),
                };
                if stream.write_all(answer.as_bytes()).is_err() {
                    break;
                }
                line.clear();
            }
        }
        served
    });
    (port, handle)
}

#[test]
fn an_untagged_no_to_select_is_a_mailbox_out_of_reach_not_a_crash() {
    let (port, server) = scripted_server(2);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.sled")).unwrap();
    std::env::set_var("PBEM_TEST_IMAP_PW", "pw");
    let mut inbox = ImapInbox::new(
        MailServer {
            host: "127.0.0.1".into(),
            port,
            tls: TlsMode::None,
            user: "judge".into(),
            password_env: Some("PBEM_TEST_IMAP_PW".into()),
            password_file: None,
            ca_file: None,
        },
        "INBOX".into(),
    );
    for _ in 0..2 {
        match inbox.fetch(&store) {
            Err(TransportError::Transient(e)) => assert!(e.contains("IMAP"), "{e}"),
            other => panic!("expected the mailbox out of reach, got {other:?}"),
        }
    }
    drop(inbox);
    // The session was dropped after the bad answer: the second fetch connected anew.
    assert_eq!(server.join().unwrap(), 2);
}
