//! The commands that run the judge (`serve`, `poll-once`, `game show`,
//! `hash-password`): configuration read, judge opened, errors as one line.

use std::io::BufRead;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use crate::config::Config;
use crate::judge::clock::{Clock, OffsetClock, SystemClock};
use crate::judge::record::{game_key, Record};
use crate::judge::{snapshot_dir, Judge};
use crate::store::Store;

fn load(path: &Path) -> Result<Config, String> {
    Config::load(path).map_err(|e| e.to_string())
}

/// The judge's clock: the real time, or, with `PBEM_NOW` set to a time (RFC 3339, e.g.
/// `2026-11-22T12:00:00Z`), the real time moved so that it starts at that time and runs
/// on from there. For tests that run the binary on games whose deadlines a test clock
/// set, and for a drill of what the judge does at a given time (on a copy of the store).
fn clock() -> Result<&'static dyn Clock, String> {
    static CLOCK: OnceLock<Result<OffsetClock, String>> = OnceLock::new();
    let Some(start) = std::env::var_os("PBEM_NOW") else {
        return Ok(&SystemClock);
    };
    let clock = CLOCK.get_or_init(|| {
        let text = start.to_string_lossy();
        chrono::DateTime::parse_from_rfc3339(&text)
            .map(|t| OffsetClock::starting_at(t.with_timezone(&chrono::Utc)))
            .map_err(|e| {
                format!("PBEM_NOW: {text:?} is not a time like 2026-11-22T12:00:00Z ({e})")
            })
    });
    match clock {
        Ok(clock) => Ok(clock),
        Err(e) => Err(e.clone()),
    }
}

/// Opens the judge for a command, saying plainly when a running judge holds the store.
fn open_judge<'c>(config: &'c Config) -> Result<Judge<'c>, String> {
    Judge::open(config, clock()?).map_err(|e| match &e {
        crate::judge::JudgeError::Store(s) if Store::is_locked(s) => format!(
            "the judge is running (pbem serve) and holds {}: it does this work itself",
            config.judge.store.display()
        ),
        _ => e.to_string(),
    })
}

/// One pass. Exits non-zero (1) when part of the work could not be done (a mailbox
/// out of reach, a password variable unset, replies refused), so cron and systemd
/// notice; the errors are printed one a line.
pub fn poll_once(path: &Path) -> Result<bool, String> {
    let config = load(path)?;
    let judge = open_judge(&config)?;
    let pass = judge.poll_once().map_err(|e| e.to_string())?;
    let count =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    println!(
        "read {}, adjudicated {}, sent {}",
        count(pass.mails_read, "mail", "mails"),
        count(pass.phases_adjudicated, "phase", "phases"),
        count(pass.replies_sent, "reply", "replies")
    );
    for e in &pass.errors {
        eprintln!("pbem: {e}");
    }
    Ok(pass.errors.is_empty())
}

/// Polls for ever. A failed pass is logged and retried after the pause: the daemon
/// does not exit on a mail or store error.
pub fn serve(path: &Path) -> Result<(), String> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        // Colour only for a person at a terminal: a log file or journal gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    // SIGHUP (or `pbem reload`) reads games.toml again: the judge is opened anew on
    // the new configuration between passes; a file that does not read is refused
    // with its reason and the running configuration kept.
    let hangup = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGHUP, hangup.clone())
        .map_err(|e| format!("cannot listen for SIGHUP: {e}"))?;
    let busy = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(0));
    let mut config = load(path)?;
    let mut first = true;
    loop {
        let mut judge = open_judge(&config)?;
        judge.report_busy_to(busy.clone());
        if first {
            // A test hook: die at a given point, as if killed there (see CrashPoint).
            if let Ok(spec) = std::env::var("PBEM_CRASH") {
                let (point, n) = spec.split_once(':').unwrap_or((&spec, "0"));
                let point = crate::judge::CrashPoint::from_id(point)
                    .ok_or_else(|| format!("PBEM_CRASH: unknown point {point:?}"))?;
                judge.abort_at(
                    point,
                    n.parse()
                        .map_err(|_| format!("PBEM_CRASH: {n:?} is not a count"))?,
                );
            }
            watchdog(&judge, config.judge.budget_seconds);
            first = false;
        }
        match judge.archive_removed() {
            Ok(archived) => {
                for (id, file) in archived {
                    tracing::info!(game = %id, file = %file.display(), "game no longer in games.toml: archived");
                }
            }
            Err(e) => tracing::warn!(error = %e, "archiving removed games"),
        }
        tracing::info!(
            games = config.games.len(),
            address = %config.judge.address,
            poll_seconds = config.judge.poll_seconds,
            "serving"
        );
        let new = run(&judge, &config, path, &hangup);
        drop(judge);
        config = new;
    }
}

/// Serves with one judge until a reload gives a new configuration.
fn run(
    judge: &Judge,
    config: &Config,
    path: &Path,
    hangup: &std::sync::atomic::AtomicBool,
) -> Config {
    use std::sync::atomic::Ordering;
    // After a burst of mail, the mailbox is looked at again every 100 ms for a while
    // before going back to waiting (IDLE): mail that arrives just after a pass does not
    // wait for the server's IDLE notice (about 0.5 s with Dovecot).
    const BURST_TAIL: Duration = Duration::from_secs(2);
    const BURST_POLL: Duration = Duration::from_millis(100);
    let mut last_mail: Option<std::time::Instant> = None;
    loop {
        judge.handle_requests();
        if judge.take_reload() | hangup.swap(false, Ordering::Relaxed) {
            match load(path) {
                Ok(new) => {
                    tracing::info!(file = %path.display(), "games.toml read again");
                    return new;
                }
                Err(e) => tracing::warn!(
                    error = %e,
                    "games.toml not reloaded: the running configuration stays"
                ),
            }
        }
        match judge.scheduled_backup() {
            Ok(Some(path)) => tracing::info!(file = %path.display(), "scheduled backup"),
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "scheduled backup failed"),
        }
        let mut busy = false;
        let mut due_again = false;
        match judge.poll_once() {
            Ok(p) => {
                due_again = p.due_again;
                for e in &p.errors {
                    tracing::warn!(error = %e, "pass went on without it");
                }
                if p.mails_read > 0 {
                    busy = true;
                    last_mail = Some(std::time::Instant::now());
                }
                if p.mails_read + p.phases_adjudicated + p.replies_sent > 0 {
                    tracing::info!(
                        mails = p.mails_read,
                        phases = p.phases_adjudicated,
                        replies = p.replies_sent,
                        games_due = p.games_due,
                        "pass"
                    );
                } else {
                    tracing::debug!("pass: nothing to do");
                }
            }
            Err(e) => tracing::warn!(error = %e, "pass failed, will retry"),
        }
        if busy || due_again || hangup.load(Ordering::Relaxed) {
            // Look again at once.
        } else if last_mail.is_some_and(|t| t.elapsed() < BURST_TAIL) {
            std::thread::sleep(BURST_POLL);
        } else if let Err(e) = judge.wait(Duration::from_secs(config.judge.poll_seconds)) {
            tracing::warn!(error = %e, "waiting for mail");
        }
    }
}

/// Ends the process when one mail or one game's deadline has been worked on longer
/// than `budget` seconds: a pass stuck there would never end. The supervisor (systemd's
/// `Restart=`, see `deploy/`) starts the judge again; the attempt counts in the store
/// set that mail or game aside after three tries, and the rest goes on.
fn watchdog(judge: &Judge, budget: u64) {
    let busy = judge.busy_since();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(250));
        let since = busy.load(std::sync::atomic::Ordering::Relaxed);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        if since > 0 && now - since > budget as i64 {
            tracing::error!(
                budget_seconds = budget,
                "one mail or game took longer than its budget: ending the process so a \
                 supervisor restarts the judge (it is set aside after three attempts)"
            );
            std::process::exit(75);
        }
    });
}

/// A game's record: from the store, or, while a running judge holds the store, from
/// the snapshot it writes after every change.
fn read_record(config: &Config, id: &str) -> Result<Record, String> {
    // Nothing is created: no store yet is an answer, not a new empty store.
    if !config.judge.store.exists() {
        return Err(format!(
            "no store at {} yet: the judge has not run (pbem poll-once or pbem serve)",
            config.judge.store.display()
        ));
    }
    match Store::open_waiting(&config.judge.store, Duration::from_millis(200)) {
        Ok(store) => store
            .get(&game_key(id))
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no game {id:?} in the store (has the judge run?)")),
        Err(e) if Store::is_locked(&e) => {
            let path = snapshot_dir(&config.judge.store).join(format!("{id}.json"));
            let text = std::fs::read(&path).map_err(|e| {
                format!(
                    "the judge is running and {} cannot be read: {e}",
                    path.display()
                )
            })?;
            serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", path.display()))
        }
        Err(e) => Err(e.to_string()),
    }
}

pub fn show(path: &Path, id: &str, json: bool, png: Option<&Path>) -> Result<(), String> {
    let config = load(path)?;
    if config.game(id).is_none() {
        return Err(format!("{}: no game {id:?}", path.display()));
    }
    let record = read_record(&config, id)?;
    if let Some(file) = png {
        crate::picture::write_game_png(&record.game, file)?;
    }
    let label = record.game.label();
    if json {
        let mut v = record.game.position_json();
        if let serde_json::Value::Object(map) = &mut v {
            map.insert("game".into(), id.into());
            map.insert("rules".into(), record.game.rules().id().into());
            map.insert("turn".into(), label.turn.into());
            map.insert("phase".into(), label.phase.into());
            map.insert(
                "deadline".into(),
                record.deadline.map(|d| d.to_rfc3339()).into(),
            );
            map.insert("paused".into(), record.paused.is_some().into());
            map.insert("over".into(), record.over_summary().into());
            let submitted: Vec<&String> = record.submissions.keys().collect();
            map.insert("submitted".into(), serde_json::json!(submitted));
        }
        crate::output::emit(&format!(
            "{}\n",
            serde_json::to_string_pretty(&v).expect("JSON")
        ));
    } else {
        let over = record.over_summary();
        let mut out = match over {
            // Its last phase is not being played: said as the one it ended in.
            Some(_) => format!(
                "Game {id} is over (its last phase: turn {}, {})\n",
                label.turn, label.phase
            ),
            None => format!("Game {id}, turn {}, {} phase\n", label.turn, label.phase),
        };
        out += &match (&over, record.deadline) {
            (Some(over), _) => format!("Over: {over}\n"),
            (None, Some(d)) => format!("Deadline: {}\n", d.format("%Y-%m-%d %H:%M UTC")),
            // A suspended game's clock is stopped too: the suspension says more.
            (None, None) => match (&record.suspended, record.paused) {
                (Some(why), _) => format!("Suspended: {why}\n"),
                (None, Some(_)) => "Paused\n".to_string(),
                (None, None) => "Deadline: none\n".to_string(),
            },
        };
        let submitted: Vec<&str> = record.submissions.keys().map(String::as_str).collect();
        if over.is_none() {
            out += &format!(
                "Submitted: {}\n",
                if submitted.is_empty() {
                    "nobody".to_string()
                } else {
                    submitted.join(", ")
                }
            );
        }
        out += "\n";
        out += &record.game.board_text();
        crate::output::emit(&out);
    }
    Ok(())
}

/// `pbem outbox`: what waits to be sent and what was set aside; with `resend`, the
/// replies set aside go back to be sent on the judge's next pass.
pub fn outbox(path: &Path, resend: bool) -> Result<(), String> {
    let config = load(path)?;
    let Some(store) = free_store(&config, false)? else {
        return Err(format!(
            "the judge is running and holds {}: stop it to look at its outbox",
            config.judge.store.display()
        ));
    };
    if resend {
        let n = crate::judge::outbox::resend_failed(&store).map_err(|e| e.to_string())?;
        println!(
            "{n} {} put back in the outbox: the judge sends {} on its next pass",
            if n == 1 { "reply" } else { "replies" },
            if n == 1 { "it" } else { "them" }
        );
        return Ok(());
    }
    let report = crate::judge::outbox::report(&store).map_err(|e| e.to_string())?;
    crate::output::emit(&report.text());
    Ok(())
}

pub fn hash_password() -> Result<(), String> {
    eprintln!("Password (one line):");
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let password = line.trim_end_matches(['\n', '\r']);
    if password.is_empty() {
        return Err("an empty password".into());
    }
    println!("{}", crate::password::hash(password));
    Ok(())
}

/// Opens the store of a configuration for a command, when no judge holds it: `None`
/// when the running judge does. A store that does not exist is an error (nothing is
/// created).
fn free_store(config: &Config, create: bool) -> Result<Option<Store>, String> {
    let path = &config.judge.store;
    if !path.exists() && !create {
        return Err(format!(
            "no store at {} (has the judge run? the path is judge.store in games.toml)",
            path.display()
        ));
    }
    match Store::open_waiting(path, Duration::from_millis(200)) {
        Ok(store) => Ok(Some(store)),
        Err(e) if Store::is_locked(&e) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// Does `request` on the store: directly when it is free, else through the running
/// judge.
fn on_store(config: &Config, request: crate::control::Request) -> Result<String, String> {
    let create = matches!(request, crate::control::Request::Import { .. });
    match free_store(config, create)? {
        Some(store) => crate::control::carry_out(&store, &request, clock()?.now()),
        None => {
            let wait = Duration::from_secs(config.judge.poll_seconds * 2 + 30);
            crate::control::ask(&config.judge.store, &request, wait)
        }
    }
}

/// An absolute path (requests go to a daemon that may run elsewhere).
fn absolute(path: &Path) -> Result<std::path::PathBuf, String> {
    std::path::absolute(path).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn backup(path: &Path, dir: &Path) -> Result<(), String> {
    let config = load(path)?;
    let dir = absolute(dir)?;
    println!(
        "{}",
        on_store(&config, crate::control::Request::Backup { dir })?
    );
    Ok(())
}

pub fn export(path: &Path, id: &str, out: &Path) -> Result<(), String> {
    let config = load(path)?;
    let file = absolute(out)?;
    let request = crate::control::Request::Export {
        game: id.to_string(),
        file,
    };
    println!("{}", on_store(&config, request)?);
    Ok(())
}

/// `pbem reload`: the running judge reads games.toml again. A file that does not read
/// is refused here, with its reason; the judge keeps its configuration.
pub fn reload(path: &Path) -> Result<(), String> {
    let config = load(path)?;
    let config_path = absolute(path)?;
    println!(
        "{}",
        on_store(
            &config,
            crate::control::Request::Reload {
                config: config_path
            }
        )?
    );
    Ok(())
}

/// `pbem verify-dice FILE`: a game-over mail's history.json checked.
pub fn verify_dice(file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let history: crate::verify::History =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    println!("{}", crate::verify::verify(&history)?);
    Ok(())
}

pub fn import(path: &Path, file: &Path) -> Result<(), String> {
    let config = load(path)?;
    let file = absolute(file)?;
    println!(
        "{}",
        on_store(&config, crate::control::Request::Import { file })?
    );
    Ok(())
}

/// `pbem restore FILE`: into the configured store, which must be new or empty.
pub fn restore(path: &Path, file: &Path) -> Result<(), String> {
    let config = load(path)?;
    let store = match Store::open_waiting(&config.judge.store, Duration::from_millis(200)) {
        Ok(store) => store,
        Err(e) if Store::is_locked(&e) => {
            return Err(format!(
                "the judge is running and holds {}: stop it before restoring",
                config.judge.store.display()
            ))
        }
        Err(e) => return Err(e.to_string()),
    };
    let n = crate::backup::restore(&store, file).map_err(|e| e.to_string())?;
    println!(
        "{n} entries restored into {}; start the judge again",
        config.judge.store.display()
    );
    Ok(())
}
