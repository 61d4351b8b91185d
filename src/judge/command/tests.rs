//! Unit tests of reading a mail's commands.

use super::*;

#[test]
fn a_mail_of_orders_alone_is_an_orders_block() {
    let p = parse("GAME andromeda\nPASSWORD s3cret\nB2 - C3\nA1 S\n\n-- \nAlice\nB2 H\n");
    assert_eq!(p.game.as_deref(), Some("andromeda"));
    assert_eq!(p.password.as_deref(), Some("s3cret"));
    assert_eq!(p.orders.as_deref(), Some("B2 - C3\nA1 S"));
    assert!(p.commands.is_empty());
}

#[test]
fn commands_blocks_quotes_and_strays() {
    let p = parse(
        "game Andromeda\n> ORDERS\nORDERS\nB2 - C3\nend\nREADY\nhistory 3\nFORCE 2 retreat\nREPLACE Tazenda bob@example.test\nwhat is this\n",
    );
    assert_eq!(p.orders.as_deref(), Some("B2 - C3"));
    assert_eq!(
        p.commands,
        [
            Command::Ready,
            Command::History(Some(3)),
            Command::Force(Some((2, "retreat".into()))),
            Command::Replace {
                power: "tazenda".into(),
                address: "bob@example.test".into()
            }
        ]
    );
    assert_eq!(p.not_understood.len(), 1);
    assert_eq!(p.not_understood[0].0, "what is this");
}

#[test]
fn the_message_answered_is_not_read() {
    // Outlook copies the mail answered below the answer, without `>` marks.
    for separator in [
        "-----Original Message-----",
        "________________________________",
        "From: pbem judge <judge@example.test>\nSent: Monday, November 23, 2026 10:00 PM",
        "From: pbem judge <judge@example.test>\nTo: franz@example.test\nDate: Mon, 23 Nov 2026",
    ] {
        let p = parse(&format!(
            "PASSWORD pw\nB2 - C3\n\n{separator}\nSubject: [g1] results\n\nA1 S\nPASSWORD other\n"
        ));
        assert_eq!(p.orders.as_deref(), Some("B2 - C3"), "{separator}");
        assert!(p.notes.is_empty(), "{separator}: {:?}", p.notes);
    }
    // A `>` quote under its attribution line: both left out, the answer read.
    let p =
        parse("On Mon, 23 Nov 2026 at 22:00, judge <judge@example.test> wrote:\n> A1 S\nB2 H\n");
    assert_eq!(p.orders.as_deref(), Some("B2 H"));
    // Wrapped onto two lines, as Gmail does with a long one.
    let p = parse(
        "B2 H\nOn Mon, 23 Nov 2026 at 22:00, pbem judge <\njudge@example.test> wrote:\n> A1 S\n",
    );
    assert_eq!(p.orders.as_deref(), Some("B2 H"));
    assert!(p.not_understood.is_empty(), "{:?}", p.not_understood);
    // A From: line alone (press text, say) is read as written.
    let p = parse("PRESS TO union\nFrom: the Foundation, with love\nEND\nB2 H\n");
    assert!(matches!(&p.commands[0], Command::Press(x) if x.text.starts_with("From:")));
    assert_eq!(p.loose.as_deref(), Some("B2 H"));
}

#[test]
fn loose_lines_beside_commands_are_kept_apart() {
    // No ORDERS block: the loose lines are kept for the player's game to read.
    let p = parse("PASSWORD pw\nB2 - C3\nREADY\nA1 S\n");
    assert_eq!(p.commands, [Command::Ready]);
    assert_eq!(p.orders, None);
    assert_eq!(p.loose.as_deref(), Some("B2 - C3\nA1 S"));
    assert!(p.not_understood.is_empty(), "{:?}", p.not_understood);
    // Beside an ORDERS block they are strays, as before.
    let p = parse("ORDERS\nB2 H\nEND\nREADY\nA1 S\n");
    assert_eq!(p.orders.as_deref(), Some("B2 H"));
    assert_eq!(p.loose, None);
    assert_eq!(p.not_understood.len(), 1);
    // The secret is scrubbed from them too.
    let mut p = parse("READY\nB2 H hunter22\n");
    scrub(&mut p, "hunter22");
    assert_eq!(p.loose.as_deref(), Some("B2 H [password]"));
}

#[test]
fn password_lines_are_commands_never_orders() {
    let p = parse("ORDERS\nPASSWORD s3cret\nB2 - C3\nPassword: other\nEND\n");
    assert_eq!(p.password.as_deref(), Some("s3cret"));
    assert_eq!(p.orders.as_deref(), Some("B2 - C3"));
    assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
    let p = parse("password:abc\nB2 H\n");
    assert_eq!(p.password.as_deref(), Some("abc"));
    assert_eq!(p.orders.as_deref(), Some("B2 H"));
    // Not a password line: a word that merely starts so.
    assert_eq!(password_line("passwordless B2"), None);
}

#[test]
fn the_bare_secret_and_the_secret_as_a_word_are_scrubbed() {
    let mut p = parse("B2 - C3\nhunter22\nmy pw is hunter22 ok\n");
    scrub(&mut p, "hunter22");
    assert_eq!(p.orders.as_deref(), Some("B2 - C3\nmy pw is [password] ok"));
}

#[test]
fn a_press_without_end_ends_where_the_orders_begin() {
    let p = parse("PRESS TO tazenda\nSee you at Kalgan.\nORDERS\nB2 - C3\nC4 H\nEND\n");
    assert_eq!(
        p.commands,
        [Command::Press(Press {
            to: vec!["tazenda".into()],
            broadcast: false,
            anonymous: false,
            to_anonymous: false,
            text: "See you at Kalgan.".into()
        })]
    );
    assert_eq!(p.orders.as_deref(), Some("B2 - C3\nC4 H"));
    assert!(p.orders_block);
    assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
    assert!(p.notes[0].contains("had no END before the ORDERS line"));
    // Press lines past the limit are told as press, not as orders.
    let long = format!(
        "B2 H\nBROADCAST\n{}END\n",
        "blah\n".repeat(MAX_PRESS_LINES + 5)
    );
    let p = parse(&long);
    assert_eq!(
        p.notes,
        [format!(
            "A press message has at most {MAX_PRESS_LINES} lines: 5 more were not sent."
        )]
    );
}

#[test]
fn press_blocks_and_the_new_commands() {
    let p = parse(
        "PRESS TO imperium, Union\nLet us ally.\n> quoted\nPASSWORD pw\nEND\nBROADCAST\nHello all\nEND\nPRESS ANON TO tazenda\nboo\nEND\nHISTORY PRESS 3\nOBSERVE G1\nABSENCE 2026-12-01 2026-12-05\nEND GAME\n",
    );
    assert_eq!(p.password.as_deref(), Some("pw"));
    assert_eq!(
        p.commands[0],
        Command::Press(Press {
            to: vec!["imperium".into(), "union".into()],
            broadcast: false,
            anonymous: false,
            to_anonymous: false,
            text: "Let us ally.".into()
        })
    );
    assert!(matches!(&p.commands[1], Command::Press(x) if x.broadcast && x.text == "Hello all"));
    assert!(matches!(&p.commands[2], Command::Press(x) if x.anonymous && x.to == ["tazenda"]));
    assert_eq!(p.commands[3], Command::HistoryPress(Some(3)));
    assert_eq!(p.commands[4], Command::Observe("g1".into()));
    assert!(matches!(p.commands[5], Command::Absence { .. }));
    assert_eq!(p.commands[6], Command::EndGame);
    assert!(p.orders.is_none());
    assert!(p.not_understood.is_empty(), "{:?}", p.not_understood);
}

#[test]
fn a_second_orders_block_replaces_the_first_and_the_player_is_told_once() {
    let p = parse("ORDERS\nB2 - C3\nEND\nORDERS\nD4 H\nEND\nORDERS\nE5 H\nEND\n");
    assert_eq!(p.orders.as_deref(), Some("E5 H"));
    assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
    assert!(
        p.notes[0].contains("only the last was kept"),
        "{:?}",
        p.notes
    );
    // One block: no note.
    assert!(parse("ORDERS\nB2 - C3\nEND\n").notes.is_empty());
}

#[test]
fn long_lines_and_long_mails_are_bounded() {
    let long = "x".repeat(MAX_LINE_CHARS + 1);
    let p = parse(&format!("B2 H\n{long}\n"));
    assert_eq!(p.orders.as_deref(), Some("B2 H"));
    assert_eq!(p.not_understood[0].0.chars().count(), ECHO_CHARS + 1);
    let many = "B2 H\n".repeat(MAX_LINES + 10);
    let p = parse(&many);
    assert_eq!(p.orders.unwrap().lines().count(), MAX_ORDER_LINES);
    assert_eq!(p.notes.len(), 2, "{:?}", p.notes);
}
