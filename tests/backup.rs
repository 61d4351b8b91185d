//! Games outlive the machine: backups taken while the judge runs, restored into a new
//! store; one game moved between judges; stores of older formats read.

use std::path::Path;
use std::process::{Child, Command};

use crate::world::{World, FIXED_START};

const HARI: &str = "hari@example.test";
const CLEON: &str = "cleon@example.test";
const MULE: &str = "mule@example.test";
const PREEM: &str = "preem@example.test";

fn pbem(args: &[&str], config: &Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(args)
        .arg("--config")
        .arg(config)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `pbem serve` on a world's configuration, polling every second.
struct Serve(Child);

impl Serve {
    /// `now`: the world's time, which the judge's clock starts at (`PBEM_NOW`), so that
    /// the deadlines the world's clock set are as far off as the world sees them.
    fn start(config: &Path, now: chrono::DateTime<chrono::Utc>) -> Serve {
        let text = std::fs::read_to_string(config).unwrap();
        if !text.contains("poll_seconds") {
            std::fs::write(
                config,
                text.replacen("[judge]\n", "[judge]\npoll_seconds = 1\n", 1),
            )
            .unwrap();
        }
        let child = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args(["serve", "--config"])
            .arg(config)
            .env("RUST_LOG", "warn")
            .env("PBEM_NOW", now.to_rfc3339())
            .spawn()
            .unwrap();
        let serve = Serve(child);
        // The store is held once the judge has opened it.
        let store = config.parent().unwrap().join("judge.sled");
        let start = std::time::Instant::now();
        while pbem::store::Store::open_waiting(&store, std::time::Duration::ZERO).is_ok() {
            assert!(start.elapsed().as_secs() < 30, "serve did not start");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        serve
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn turn(w: &mut World, orders: [&str; 4]) {
    for (from, o) in [HARI, CLEON, MULE, PREEM].into_iter().zip(orders) {
        w.orders(from, o);
    }
    w.pass();
}

#[test]
fn a_backup_taken_while_serve_runs_restores_a_game_that_goes_on_to_the_same_results() {
    let mut w = World::new(FIXED_START);
    w.pass();
    turn(&mut w, ["B2 - C2", "F2 - E2", "E4 - D3", "C4 - C3"]);
    let config = w.dir.path().join("games.toml");
    let backups = w.dir.path().join("backups");
    let file = {
        let _serve = Serve::start(&config, w.now());
        let (ok, out, err) = pbem(&["backup", backups.to_str().unwrap()], &config);
        assert!(ok, "{err}");
        assert!(out.contains("backup written"), "{out}");
        let files: Vec<_> = std::fs::read_dir(&backups).unwrap().collect();
        assert_eq!(files.len(), 1);
        files[0].as_ref().unwrap().path()
    };
    // Turn 2 as it happens without any loss.
    turn(&mut w, ["C2 H", "E2 - D2", "D3 H", "C3 - C2"]);
    let without_loss = w.record();
    let history_key = "v1/history/g1/00000002/movement";
    let history = |w: &World| {
        let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
        store.get_raw(history_key).unwrap()
    };
    let history_without_loss = history(&w).expect("turn 2 adjudicated");
    // The machine loses its store; the backup comes back into a new one.
    std::fs::remove_dir_all(&w.config.judge.store).unwrap();
    let (ok, out, err) = pbem(&["restore", file.to_str().unwrap()], &config);
    assert!(ok, "{err}");
    assert!(out.contains("restored"), "{out}");
    assert_eq!(w.record().game.label().turn, 2, "back at the backup's turn");
    // The turn-2 mails come again (the mail server still has them): same results.
    let cur = w.inbox().join("cur");
    for entry in std::fs::read_dir(&cur).unwrap() {
        let path = entry.unwrap().path();
        let raw = std::fs::read_to_string(&path).unwrap();
        if raw.contains("C2 H")
            || raw.contains("E2 - D2")
            || raw.contains("D3 H")
            || raw.contains("C3 - C2")
        {
            std::fs::rename(&path, w.inbox().join("new").join(path.file_name().unwrap())).unwrap();
        }
    }
    w.pass();
    assert_eq!(w.record().game, without_loss.game);
    assert_eq!(history(&w).unwrap(), history_without_loss);
    // A restore never overwrites a store that holds games.
    let (ok, _, err) = pbem(&["restore", file.to_str().unwrap()], &config);
    assert!(!ok);
    assert!(err.contains("not empty"), "{err}");
}

#[test]
fn a_game_exported_and_imported_shows_byte_identical() {
    let mut w = World::new(FIXED_START);
    w.pass();
    turn(&mut w, ["B2 - C2", "F2 - E2", "E4 - D3", "C4 - C3"]);
    let config = w.dir.path().join("games.toml");
    let export = w.dir.path().join("g1.export");
    let (ok, out, err) = pbem(
        &["game", "export", "g1", "--out", export.to_str().unwrap()],
        &config,
    );
    assert!(ok, "{err}");
    assert!(out.contains("exported"), "{out}");
    let (_, before, _) = pbem(&["game", "show", "g1", "--json"], &config);
    // Another judge, same games.toml, new store.
    let other = tempfile::tempdir().unwrap();
    let other_config = other.path().join("games.toml");
    std::fs::copy(&config, &other_config).unwrap();
    let (ok, out, err) = pbem(&["game", "import", export.to_str().unwrap()], &other_config);
    assert!(ok, "{err}");
    assert!(out.contains("game g1 imported"), "{out}");
    let (_, after, _) = pbem(&["game", "show", "g1", "--json"], &other_config);
    assert!(before.contains("\"turn\": 2"), "{before}");
    assert_eq!(before, after);
    // Importing twice is refused.
    let (ok, _, err) = pbem(&["game", "import", export.to_str().unwrap()], &other_config);
    assert!(!ok);
    assert!(err.contains("already in the store"), "{err}");
}

#[test]
fn a_store_written_by_an_earlier_pbem_is_read_and_migrated() {
    // tests/fixtures/store-format-1: the demo's store, written by pbem before stores
    // carried a format (the demo's game after its first turn).
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-format-1");
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixture, dir.path());
    let config = pbem::config::Config::load(&dir.path().join("games.toml")).unwrap();
    {
        // Read as it is (reading commands migrate nothing).
        let store = pbem::store::Store::open(&config.judge.store).unwrap();
        assert_eq!(store.format(), 1);
        assert!(store
            .get::<pbem::store::Meta>(pbem::store::FORMAT_KEY)
            .unwrap()
            .is_none());
    }
    let record: pbem::judge::record::Record = {
        let store = pbem::store::Store::open(&config.judge.store).unwrap();
        store.get("v1/game/demo").unwrap().unwrap()
    };
    assert_eq!(record.game.label().turn, 2);
    assert_eq!(record.game.label().phase, "movement");
    // The judge migrates it (format 2: the due-time index; 3: the index of
    // replacements) and plays on from it.
    let clock = pbem::judge::clock::FixedClock::at(crate::world::start());
    {
        let judge = pbem::judge::Judge::open(&config, &clock).unwrap();
        assert!(judge.poll_once().is_ok());
        assert_eq!(judge.record("demo").unwrap().unwrap().game, record.game);
    }
    let store = pbem::store::Store::open(&config.judge.store).unwrap();
    let meta: pbem::store::Meta = store.get(pbem::store::FORMAT_KEY).unwrap().unwrap();
    assert_eq!(meta.format, pbem::store::FORMAT);
    let due: String = store.get("v1/due-at/demo").unwrap().unwrap();
    assert!(due.starts_with("v1/due/"), "{due}");
    assert!(store.contains(&due).unwrap());
}

#[test]
fn a_store_of_a_newer_format_is_refused_not_misread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sled");
    {
        let store = pbem::store::Store::open(&path).unwrap();
        let newer = pbem::store::Meta {
            format: pbem::store::FORMAT + 1,
            written_by: "pbem 9".into(),
        };
        store.put_now(pbem::store::FORMAT_KEY, &newer).unwrap();
    }
    let e = pbem::store::Store::open(&path).err().expect("refused");
    assert!(e.to_string().contains("newer pbem"), "{e}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn scheduled_backups_come_when_due_and_only_the_newest_are_kept() {
    let mut w = World::new(FIXED_START);
    let path = w.dir.path().join("games.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen(
        "[transport]",
        "[judge.backup]\ndir = \"backups\"\nevery = \"6h\"\nkeep = 2\n\n[transport]",
        1,
    );
    std::fs::write(&path, text).unwrap();
    w.config = pbem::config::Config::load(&path).unwrap();
    w.pass();
    let mut taken = Vec::new();
    for _ in 0..3 {
        let judge = w.judge();
        taken.push(judge.scheduled_backup().unwrap().expect("due"));
        assert_eq!(
            judge.scheduled_backup().unwrap(),
            None,
            "not due again at once"
        );
        drop(judge);
        w.advance(chrono::Duration::hours(6));
    }
    let mut left: Vec<_> = std::fs::read_dir(w.dir.path().join("backups"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    left.sort();
    assert_eq!(left, taken[1..].to_vec(), "the newest two are kept");
}

/// The entries of a backup or export file, as stored (text or bytes).
fn entries_of(file: &Path) -> Vec<(String, Vec<u8>)> {
    use base64::Engine;
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let Some(k) = v["k"].as_str() else { continue };
        let bytes = match (v["s"].as_str(), v["b"].as_str()) {
            (Some(s), _) => s.as_bytes().to_vec(),
            (None, Some(b)) => base64::engine::general_purpose::STANDARD.decode(b).unwrap(),
            _ => panic!("an entry without a value: {line}"),
        };
        out.push((k.to_string(), bytes));
    }
    out
}

/// Every text a mail holds, decoded: its headers and each part's.
fn decoded(raw: &[u8]) -> String {
    let mut all = String::from_utf8_lossy(raw).into_owned();
    if let Some(m) = mail_parser::MessageParser::default().parse(raw) {
        for part in &m.parts {
            match &part.body {
                mail_parser::PartType::Text(t) | mail_parser::PartType::Html(t) => {
                    all.push_str(t);
                }
                mail_parser::PartType::Binary(b) | mail_parser::PartType::InlineBinary(b) => {
                    all.push_str(&String::from_utf8_lossy(b));
                }
                mail_parser::PartType::Message(inner) => {
                    all.push_str(&decoded(inner.raw_message()));
                }
                mail_parser::PartType::Multipart(_) => {}
            }
        }
    }
    all
}

#[cfg(unix)]
fn mode(file: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[test]
fn backups_and_exports_are_readable_by_their_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new(FIXED_START);
    w.pass();
    let config = w.dir.path().join("games.toml");
    let backups = w.dir.path().join("backups");
    let (ok, _, err) = pbem(&["backup", backups.to_str().unwrap()], &config);
    assert!(ok, "{err}");
    for f in std::fs::read_dir(&backups).unwrap() {
        assert_eq!(mode(&f.unwrap().path()), 0o600);
    }
    // An export over an older, world-readable file (and a left-over partial one).
    let export = w.dir.path().join("g1.export");
    for old in [&export, &export.with_extension("partial")] {
        std::fs::write(old, "old").unwrap();
        std::fs::set_permissions(old, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let (ok, _, err) = pbem(
        &["game", "export", "g1", "--out", export.to_str().unwrap()],
        &config,
    );
    assert!(ok, "{err}");
    assert_eq!(mode(&export), 0o600);
    // A backup written over an older file of the same name (taken by the judge).
    let store = pbem::store::Store::open(&w.config.judge.store).unwrap();
    let file = pbem::backup::file_name(&backups, w.now());
    std::fs::write(&file, "old").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (written, _) = pbem::backup::backup(&store, &backups, w.now(), None).unwrap();
    assert_eq!(written, file);
    assert_eq!(mode(&file), 0o600);
}

#[test]
fn a_game_is_exported_into_a_folder_that_does_not_exist_yet() {
    let w = World::new(FIXED_START);
    w.pass();
    let config = w.dir.path().join("games.toml");
    let export = w.dir.path().join("exports/2026/g1.export");
    let (ok, out, err) = pbem(
        &["game", "export", "g1", "--out", export.to_str().unwrap()],
        &config,
    );
    assert!(ok, "{err}");
    assert!(out.contains("exported"), "{out}");
    assert!(entries_of(&export).iter().any(|(k, _)| k == "v1/game/g1"));
}

/// Mails of every form the judge reads, each with a password line; returns the
/// passwords they carried (the players', the moderator's, a wrong guess).
fn mails_with_passwords(w: &mut World) -> Vec<String> {
    use base64::Engine;
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let head = |from: &str, id: &str, subject: &str| {
        format!(
            "From: {from}\r\nTo: judge@example.test\r\nSubject: {subject}\r\nMessage-ID: <{id}@example.test>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\n"
        )
    };
    let pw = |a: &str| crate::world::password_of(a);
    // Plain text.
    w.orders(HARI, "B2 - C2");
    // Quoted-printable, the password cut by a soft line break, and another player's
    // password line quoted below.
    let cleon = pw(CLEON);
    let (a, b) = cleon.split_at(4);
    w.deliver_raw(&format!(
        "{}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nPassword: {a}=\r\n{b}\r\nF2 =E2=80=93 E2\r\n\r\n> PASSWORD {}\r\n",
        head(CLEON, "qp", "[g1] orders"),
        pw(HARI)
    ));
    // Base64, with a forwarded mail attached that holds another password.
    w.deliver_raw(&format!(
        "{}Content-Type: multipart/mixed; boundary=\"Z\"\r\n\r\n--Z\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--Z\r\nContent-Type: message/rfc822\r\n\r\nFrom: {PREEM}\r\nSubject: old\r\n\r\nPASSWORD {}\r\nC4 - C3\r\n--Z--\r\n",
        head(MULE, "b64", "[g1] orders"),
        b64(&format!("PASSWORD {}\r\nE4 - D3\r\n", pw(MULE))),
        pw(PREEM)
    ));
    // HTML beside a base64 text part.
    w.deliver_raw(&format!(
        "{}Content-Type: multipart/alternative; boundary=\"A\"\r\n\r\n--A\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--A\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>PASSWORD {}</p><p>C4 - C3</p>\r\n--A--\r\n",
        head(PREEM, "html", "[g1] orders"),
        b64(&format!("PASSWORD {}\r\nC4 - C3\r\n", pw(PREEM))),
        pw(PREEM)
    ));
    // The moderator, and a wrong guess at the foundation's password.
    w.send(
        crate::world::MODERATOR.0,
        "[g1] observers",
        &format!("PASSWORD {}\nOBSERVERS", crate::world::MODERATOR.1),
    );
    w.send(HARI, "[g1] orders", "PASSWORD guess-hari-1234\nB2 - C2");
    vec![
        pw(HARI),
        pw(CLEON),
        pw(MULE),
        pw(PREEM),
        crate::world::MODERATOR.1.to_string(),
        "guess-hari-1234".to_string(),
    ]
}

#[test]
fn a_backup_holds_no_password_of_a_mail_acted_on_and_restores_a_judge_that_plays_on() {
    let mut w = World::new(FIXED_START);
    w.pass();
    let passwords = mails_with_passwords(&mut w);
    w.pass();
    assert_eq!(w.record().game.label().turn, 2, "every form was read");
    // A mail stored but not acted on yet (the judge was killed): kept as received.
    w.orders(HARI, "C2 H");
    assert!(w
        .crashing_pass(pbem::judge::CrashPoint::AfterRawStored, 0)
        .is_err());
    let config = w.dir.path().join("games.toml");
    let backups = w.dir.path().join("backups");
    let (ok, out, err) = pbem(&["backup", backups.to_str().unwrap()], &config);
    assert!(ok, "{err}");
    assert!(out.contains("backup written"), "{out}");
    let file = std::fs::read_dir(&backups)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let entries = entries_of(&file);
    let done: Vec<&str> = entries
        .iter()
        .filter_map(|(k, _)| k.strip_prefix("v1/done/"))
        .collect();
    let mut raws = 0;
    let mut waiting = Vec::new();
    for (k, v) in &entries {
        let text = decoded(v);
        if let Some(mail) = k.strip_prefix("v1/raw/") {
            if !done.contains(&mail) {
                waiting.push(text);
                continue;
            }
            raws += 1;
            assert!(text.contains("From: "), "{k}: the mail's headers are kept");
        }
        for pw in &passwords {
            assert!(!text.contains(pw.as_str()), "{k} holds {pw}:\n{text}");
        }
    }
    assert_eq!(raws, 6, "the mails acted on are in the backup");
    assert!(
        entries
            .iter()
            .any(|(_, v)| decoded(v).contains("[password]")),
        "password lines say a password was there"
    );
    assert_eq!(waiting.len(), 1, "the mail not acted on yet");
    assert!(waiting[0].contains(&format!("PASSWORD {}", passwords[0])));
    // The store is lost; the backup comes back and the judge plays on, the waiting
    // mail acted on as the mail server gives it again.
    std::fs::remove_dir_all(&w.config.judge.store).unwrap();
    let (ok, _, err) = pbem(&["restore", file.to_str().unwrap()], &config);
    assert!(ok, "{err}");
    // A minute later (the replies' names are made of the time and the store's counter,
    // which a new store starts again).
    w.advance(chrono::Duration::minutes(1));
    w.sent();
    w.pass();
    let sent = w.sent();
    assert!(
        sent.iter()
            .any(|m| m.to == HARI && m.subject.contains("Orders received")),
        "{:?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    turn(&mut w, ["C2 H", "E2 - D2", "D3 H", "C3 - C2"]);
    assert_eq!(w.record().game.label().turn, 3, "turn 2 adjudicated");
}

fn reply_to(m: &crate::world::Sent) -> String {
    let head = m.raw.split("\r\n\r\n").next().unwrap_or("");
    head.split("\r\n")
        .find_map(|l| l.strip_prefix("Reply-To: "))
        .unwrap()
        .trim()
        .to_string()
}

#[test]
fn a_game_moved_to_another_judge_keeps_its_press_its_anonymous_replies_and_observers() {
    const WATCHER: &str = "watcher@example.test";
    let extra = format!("press = \"grey\"\n{FIXED_START}");
    let mut w = World::new(&extra);
    w.pass();
    w.send(WATCHER, "observe", "OBSERVE g1");
    w.orders(HARI, "PRESS ANON TO imperium\nWatch the union.\nEND");
    w.orders(CLEON, "PRESS TO union\nAn open letter.\nEND");
    w.send(
        crate::world::MODERATOR.0,
        "[g1]",
        &format!(
            "PASSWORD {}\nREPLACE tazenda gaal@example.test",
            crate::world::MODERATOR.1
        ),
    );
    w.pass();
    let sent = w.sent();
    let anon = sent
        .iter()
        .find(|m| m.subject == "[g1] Press from anonymous")
        .expect("anonymous press relayed");
    let anon_reply_to = reply_to(anon);
    assert!(
        anon_reply_to.starts_with("judge+g1.anon"),
        "{anon_reply_to}"
    );
    let config = w.dir.path().join("games.toml");
    let export = w.dir.path().join("g1.export");
    let (ok, _, err) = pbem(
        &["game", "export", "g1", "--out", export.to_str().unwrap()],
        &config,
    );
    assert!(ok, "{err}");
    // Another judge, the same games.toml, a new store.
    let mut other = World::new(&extra);
    other.clock = pbem::judge::clock::FixedClock::at(w.now());
    let other_config = other.dir.path().join("games.toml");
    let (ok, out, err) = pbem(&["game", "import", export.to_str().unwrap()], &other_config);
    assert!(ok, "{err}");
    assert!(out.contains("game g1 imported"), "{out}");
    // The anonymous press's reply still finds its sender; HISTORY PRESS still lists
    // what was said.
    other.deliver_raw(&format!(
        "From: {CLEON}\r\nTo: {anon_reply_to}\r\nSubject: Re: press\r\nMessage-ID: <reply-moved@example.test>\r\n\r\nPASSWORD {}\r\nWho are you?\r\n",
        crate::world::password_of(CLEON)
    ));
    other.orders(MULE, "HISTORY PRESS");
    other.pass();
    let sent = other.sent();
    assert!(
        sent.iter().any(|m| m.to == HARI
            && m.subject.contains("Press")
            && m.body.contains("Who are you?")),
        "{:?}",
        sent.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
    );
    let history = sent
        .iter()
        .find(|m| m.to == MULE && m.subject == "[g1] Press")
        .expect("HISTORY PRESS answered");
    assert!(history.body.contains("An open letter."), "{}", history.body);
    // Press sent here is listed after the press the game brought.
    other.orders(HARI, "PRESS TO union\nA later letter.\nEND");
    other.pass();
    other.orders(MULE, "HISTORY PRESS");
    other.pass();
    let sent = other.sent();
    let history = sent
        .iter()
        .find(|m| m.to == MULE && m.subject == "[g1] Press")
        .expect("HISTORY PRESS answered");
    let (earlier, later) = (
        history.body.find("An open letter.").unwrap(),
        history
            .body
            .find("A later letter.")
            .expect("the later press"),
    );
    assert!(earlier < later, "{}", history.body);
    // The judge's indexes hold the moved game: its next deadline, and the address a
    // moderator's REPLACE gave a power.
    {
        let store = pbem::store::Store::open(&other.config.judge.store).unwrap();
        let due: String = store.get("v1/due-at/g1").unwrap().unwrap();
        assert!(store.contains(&due).unwrap(), "{due}");
        assert!(store.contains("v1/played-by/gaal@example.test/g1").unwrap());
    }
    // The observer gets the results.
    for (from, o) in [(HARI, "B2 - C2"), (CLEON, "F2 - E2"), (MULE, "E4 - D3")] {
        other.orders(from, o);
    }
    other.send(
        crate::world::MODERATOR.0,
        "[g1] force",
        &format!("PASSWORD {}\nFORCE", crate::world::MODERATOR.1),
    );
    other.pass();
    assert_eq!(other.record().game.label().turn, 2);
    let sent = other.sent();
    assert!(
        sent.iter()
            .any(|m| m.to == WATCHER && m.subject.contains("results")),
        "{:?}",
        sent.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
    );
}
