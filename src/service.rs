//! The commands that run the judge (`serve`, `poll-once`, `game show`,
//! `hash-password`): configuration read, judge opened, errors as one line.

use std::io::BufRead;
use std::path::Path;
use std::time::Duration;

use crate::config::Config;
use crate::judge::clock::SystemClock;
use crate::judge::record::{game_key, Record};
use crate::judge::{snapshot_dir, Judge};
use crate::store::Store;

fn load(path: &Path) -> Result<Config, String> {
    Config::load(path).map_err(|e| e.to_string())
}

pub fn poll_once(path: &Path) -> Result<(), String> {
    let config = load(path)?;
    let judge = Judge::open(&config, &SystemClock).map_err(|e| e.to_string())?;
    let pass = judge.poll_once().map_err(|e| e.to_string())?;
    println!(
        "read {} mails, adjudicated {} phases, sent {} replies",
        pass.mails_read, pass.phases_adjudicated, pass.replies_sent
    );
    for e in &pass.errors {
        eprintln!("pbem: {e}");
    }
    Ok(())
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
        .init();
    let config = load(path)?;
    let mut judge = Judge::open(&config, &SystemClock).map_err(|e| e.to_string())?;
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
    tracing::info!(
        games = config.games.len(),
        address = %config.judge.address,
        poll_seconds = config.judge.poll_seconds,
        "serving"
    );
    loop {
        let mut busy = false;
        match judge.poll_once() {
            Ok(p) if !p.errors.is_empty() => {
                for e in &p.errors {
                    tracing::warn!(error = %e, "pass went on without it");
                }
            }
            Ok(p) if p.mails_read + p.phases_adjudicated + p.replies_sent > 0 => {
                busy = p.mails_read > 0;
                tracing::info!(
                    mails = p.mails_read,
                    phases = p.phases_adjudicated,
                    replies = p.replies_sent,
                    "pass"
                )
            }
            Ok(_) => tracing::debug!("pass: nothing to do"),
            Err(e) => tracing::warn!(error = %e, "pass failed, will retry"),
        }
        // After a pass that read mail, look again at once; otherwise wait for new
        // mail (IDLE) or the next deadline check.
        if !busy {
            if let Err(e) = judge.wait(Duration::from_secs(config.judge.poll_seconds)) {
                tracing::warn!(error = %e, "waiting for mail");
            }
        }
    }
}

/// A game's record: from the store, or, while a running judge holds the store, from
/// the snapshot it writes after every change.
fn read_record(config: &Config, id: &str) -> Result<Record, String> {
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
            let submitted: Vec<&String> = record.submissions.keys().collect();
            map.insert("submitted".into(), serde_json::json!(submitted));
        }
        crate::output::emit(&format!(
            "{}\n",
            serde_json::to_string_pretty(&v).expect("JSON")
        ));
    } else {
        let mut out = format!("Game {id}, turn {}, {} phase\n", label.turn, label.phase);
        out += &match record.deadline {
            Some(d) => format!("Deadline: {}\n", d.format("%Y-%m-%d %H:%M UTC")),
            None if record.paused.is_some() => "Paused\n".to_string(),
            None => format!("Over: {}\n", record.game.winners().join(", ")),
        };
        let submitted: Vec<&str> = record.submissions.keys().map(String::as_str).collect();
        out += &format!(
            "Submitted: {}\n\n",
            if submitted.is_empty() {
                "nobody".to_string()
            } else {
                submitted.join(", ")
            }
        );
        out += &record.game.board_text();
        crate::output::emit(&out);
    }
    Ok(())
}

/// `pbem outbox`: what waits to be sent and what was set aside; with `resend`, the
/// replies set aside go back to be sent on the judge's next pass.
pub fn outbox(path: &Path, resend: bool) -> Result<(), String> {
    let config = load(path)?;
    let store = match Store::open_waiting(&config.judge.store, Duration::from_millis(200)) {
        Ok(store) => store,
        Err(e) if Store::is_locked(&e) => {
            return Err(format!(
                "the judge is running and holds {}: stop it to look at its outbox",
                config.judge.store.display()
            ))
        }
        Err(e) => return Err(e.to_string()),
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
