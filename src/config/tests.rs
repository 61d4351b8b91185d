//! `games.toml` read and checked: errors worded with the game and key they are about,
//! includes, phase lengths.

#[test]
fn a_wrong_value_is_told_with_its_game_and_key() {
    let base = "[judge]\naddress = \"j@example.test\"\nstore = \"s\"\n[transport]\nkind = \"maildir\"\ninbox = \"i\"\noutbox = \"o\"\n";
    let e = super::Config::parse(
        &format!("{base}[[game]]\nid = \"andromeda\"\nrules = \"godsfire\"\nseed = \"x\"\n"),
        std::path::Path::new("."),
    )
    .err()
    .unwrap();
    assert_eq!(
        e,
        "game andromeda: seed: expected an integer, found string \"x\""
    );
    let e = super::Config::parse(
        &format!("{base}[[game]]\nid = \"andromeda\"\nrules = \"godsfire\"\ncolour = 1\n"),
        std::path::Path::new("."),
    )
    .err()
    .unwrap();
    assert!(e.starts_with("game andromeda: unknown key `colour`"), "{e}");
    let e = super::Config::parse(
        &format!("{base}[[game]]\nid = \"a\"\nrules = \"foundation-empire\"\nphases = {{ retreats = \"12h\" }}\n"),
        std::path::Path::new("."),
    )
    .err()
    .unwrap();
    assert_eq!(
        e,
        "game a: phases.retreats: not a phase of this game (setup, movement, retreat, placement)"
    );
    let e = super::Config::parse(
        &format!("{base}poll_seconds = \"often\"\n")
            .replace("[transport]", "poll_seconds = \"often\"\n[transport]"),
        std::path::Path::new("."),
    )
    .err()
    .unwrap();
    assert!(e.contains("poll_seconds: expected an integer"), "{e}");
}

use super::*;

#[test]
fn durations_read_like_a_person_writes_them() {
    assert_eq!(parse_duration("48h"), Some(Duration::hours(48)));
    assert_eq!(parse_duration("+2d"), Some(Duration::days(2)));
    assert_eq!(
        parse_duration("1d12h30m"),
        Some(Duration::minutes(36 * 60 + 30))
    );
    for bad in ["", "h", "48", "4x", "-2h", "2d 3h"] {
        assert_eq!(parse_duration(bad), None, "{bad:?}");
    }
}

/// One game of Godsfire, as an included file holds it.
fn game(id: &str) -> String {
    format!("[[game]]\nid = \"{id}\"\nrules = \"godsfire\"\n")
}

#[test]
fn games_come_from_an_included_folder_and_files_in_name_order() {
    let dir = tempfile::tempdir().unwrap();
    let head = "include = [\"games.d\", \"more.toml\"]\n[judge]\naddress = \"j@example.test\"\nstore = \"s\"\n[transport]\nkind = \"maildir\"\ninbox = \"i\"\noutbox = \"o\"\n";
    std::fs::create_dir(dir.path().join("games.d")).unwrap();
    std::fs::write(dir.path().join("games.d/2.toml"), game("b") + &game("c")).unwrap();
    std::fs::write(dir.path().join("games.d/1.toml"), game("a")).unwrap();
    // Not a `.toml` file: not read.
    std::fs::write(dir.path().join("games.d/notes.txt"), "not toml at all [").unwrap();
    std::fs::write(dir.path().join("more.toml"), game("d")).unwrap();
    let config = Config::parse(&format!("{head}{}", game("main")), dir.path()).unwrap();
    let ids: Vec<&str> = config.games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["main", "a", "b", "c", "d"]);
    assert!(config.game("c").is_some());

    // A game listed twice across files is refused, naming it.
    std::fs::write(dir.path().join("more.toml"), game("a")).unwrap();
    let e = Config::parse(head, dir.path()).err().unwrap();
    assert_eq!(e, "game a: listed twice");

    // An included file that does not read is named with its path.
    std::fs::write(dir.path().join("more.toml"), "[[game]]\nid = ").unwrap();
    let e = Config::parse(head, dir.path()).err().unwrap();
    assert!(e.contains("more.toml"), "{e}");

    // An include that names nothing is told.
    std::fs::remove_file(dir.path().join("more.toml")).unwrap();
    let e = Config::parse(head, dir.path()).err().unwrap();
    assert!(e.contains("more.toml: no such file or folder"), "{e}");

    // An included file holds games only.
    std::fs::write(
        dir.path().join("more.toml"),
        "[judge]\naddress = \"x@example.test\"\n",
    )
    .unwrap();
    let e = Config::parse(head, dir.path()).err().unwrap();
    assert!(e.contains("more.toml") && e.contains("judge"), "{e}");
}
