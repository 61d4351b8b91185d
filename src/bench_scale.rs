//! `pbem bench --games N`: a judge hosting many games, measured.
//!
//! For each game count: how long `games.toml` takes to read (games in a folder of
//! files of 1,000, and all in one file); the first pass (which
//! creates every game and mails its welcome); an idle `pbem serve` (a pass every
//! second) for some seconds, its CPU time and resident memory read from `/proc`; and
//! passes of 1,000 order mails, to a single game and spread over 1,000 games (three of
//! each; the median counts), as time per mail (a judge that has checked the players'
//! passwords once, as a running judge has), with where a mail's time goes. Everything
//! runs in a temporary folder (`TMPDIR`) with the Maildir transport; the figures go to
//! the README.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::judge::clock::SystemClock;
use crate::judge::Judge;

const PLAYERS: [(&str, &str, &str); 4] = [
    ("foundation", "hari@example.test", "psychohistory"),
    ("imperium", "cleon@example.test", "trantor"),
    ("union", "mule@example.test", "conversion"),
    ("tazenda", "preem@example.test", "second"),
];

const START: &str = "[game.start]\nfoundation = [\"Terminus\", \"Anacreon\", \"Smyrno\"]\nimperium = [\"Trantor\", \"Neotrantor\", \"Siwenna\"]\nunion = [\"Kalgan\", \"Haven\", \"Radole\"]\ntazenda = [\"Tazenda\", \"Rossem\", \"Gentri\"]\n";

/// What was measured for one game count.
#[derive(Debug, Clone)]
pub struct Scale {
    pub games: usize,
    /// `games.toml` with its games in `games.d/` (1,000 a file), and all in one file.
    pub config_read: Duration,
    pub config_read_one_file: Duration,
    pub first_pass: Duration,
    pub idle_seconds: u64,
    pub idle_cpu: Duration,
    pub resident_kb: u64,
    /// Time per mail: 1,000 mails to one game, and spread over 1,000 games.
    pub one_game: Duration,
    pub spread: Duration,
    /// Where those passes' time went (own time, entries, by stage).
    pub one_stages: Stages,
    pub spread_stages: Stages,
}

pub type Stages = Vec<(&'static str, Duration, u64)>;

const HEAD: &str = "[judge]\naddress = \"judge@example.test\"\nstore = \"judge.sled\"\npoll_seconds = 1\n\n[transport]\nkind = \"maildir\"\ninbox = \"mail/inbox\"\noutbox = \"mail/outbox\"\n";

/// A judge folder with `games` games of Foundation and Empire, 1,000 to a file under
/// `games.d/` (the same four players in each, fixed start positions); and the same
/// games in one file, `one-file.toml`.
fn folder(games: usize) -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("pbem-bench-scale-{}-{games}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("games.d")).map_err(|e| e.to_string())?;
    let hashes: Vec<String> = PLAYERS
        .iter()
        .map(|(_, _, pw)| crate::password::hash(pw))
        .collect();
    std::fs::write(
        dir.join("games.toml"),
        format!("include = [\"games.d\"]\n\n{HEAD}"),
    )
    .map_err(|e| e.to_string())?;
    let mut one_file = HEAD.to_string();
    for (file, chunk) in (0..games).collect::<Vec<_>>().chunks(1000).enumerate() {
        let mut text = String::new();
        for k in chunk {
            let _ = write!(
                text,
                "[[game]]\nid = \"g{k}\"\nrules = \"foundation-empire\"\nseed = {k}\nreminders = [\"24h\"]\n{START}"
            );
            for ((power, address, _), hash) in PLAYERS.iter().zip(&hashes) {
                let _ = write!(
                    text,
                    "[[game.player]]\npower = \"{power}\"\naddress = \"{address}\"\npassword = \"{hash}\"\n"
                );
            }
        }
        std::fs::write(dir.join(format!("games.d/{file:04}.toml")), &text)
            .map_err(|e| e.to_string())?;
        one_file += &text;
    }
    std::fs::write(dir.join("one-file.toml"), one_file).map_err(|e| e.to_string())?;
    Ok(dir)
}

/// Writes 1,000 order mails: all to game `g0`, or to games `g<first>`…`g<first+999>`.
fn mails(dir: &Path, spread: Option<usize>, tag: &str) -> Result<(), String> {
    let inbox = dir.join("mail/inbox");
    crate::mail::maildir::create(&inbox).map_err(|e| e.to_string())?;
    let orders = [
        "B2 - C2\nA1 S\nC1 H",
        "F2 - E2\nE1 S\nG1 S",
        "E4 - D3\nG4 H\nF5 - F4",
    ];
    for n in 0..1000 {
        let k = n % 3;
        let (_, from, pw) = PLAYERS[k];
        let game = spread.map_or(0, |first| first + n);
        let text = format!(
            "From: {from}\r\nTo: judge@example.test\r\nSubject: [g{game}] orders\r\nMessage-ID: <{tag}-{n}@example.test>\r\n\r\nPASSWORD {pw}\r\n{}\r\n",
            orders[k].replace('\n', "\r\n")
        );
        crate::mail::maildir::deliver(&inbox, &format!("{tag}{n:04}"), text.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// CPU time (user + system) and peak resident memory of a running process.
fn usage(pid: u32) -> Option<(Duration, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(") ")?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    // USER_HZ is 100 on Linux.
    Some((Duration::from_millis(ticks * 10), rss))
}

/// Measures a judge hosting `games` games; `idle` seconds of an idle `pbem serve`.
pub fn scale(games: usize, idle: u64) -> Result<Scale, String> {
    let dir = folder(games)?;
    let config_path = dir.join("games.toml");
    let start = Instant::now();
    let config = Config::load(&config_path).map_err(|e| e.to_string())?;
    let config_read = start.elapsed();
    let start = Instant::now();
    let one = Config::load(&dir.join("one-file.toml")).map_err(|e| e.to_string())?;
    let config_read_one_file = start.elapsed();
    if one.games.len() != config.games.len() {
        return Err("one-file.toml reads other games".into());
    }
    drop(one);
    let start = Instant::now();
    {
        let judge = Judge::open(&config, &SystemClock).map_err(|e| e.to_string())?;
        judge.poll_once().map_err(|e| e.to_string())?;
    }
    let first_pass = start.elapsed();
    // The welcome mails are not part of what is measured next.
    let _ = std::fs::remove_dir_all(dir.join("mail/outbox"));

    let mut serve = std::process::Command::new(std::env::current_exe().map_err(|e| e.to_string())?)
        .args(["serve", "--config"])
        .arg(&config_path)
        .env("RUST_LOG", "pbem=debug")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    // Its first pass (opening the store, the index) is not idle time: the idle time is
    // counted from the end of the first pass with nothing to do.
    let log = serve.stderr.take().ok_or("no log of serve")?;
    let serve = KillOnDrop(serve);
    let (first, passes) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(log).lines() {
            let Ok(line) = line else { break };
            if line.contains("nothing to do") {
                let _ = first.send(());
            }
        }
    });
    passes
        .recv_timeout(Duration::from_secs(120))
        .map_err(|_| "serve did not finish its first pass in 120 s")?;
    let (cpu0, _) = usage(serve.0.id()).ok_or("cannot read /proc")?;
    let idle_start = Instant::now();
    let mut idle_passes = 0;
    while idle_start.elapsed() < Duration::from_secs(idle) {
        let left = Duration::from_secs(idle).saturating_sub(idle_start.elapsed());
        if passes.recv_timeout(left).is_ok() {
            idle_passes += 1;
        }
    }
    let (cpu1, resident_kb) = usage(serve.0.id()).ok_or("cannot read /proc")?;
    let mut serve = serve;
    let _ = serve.0.kill();
    let _ = serve.0.wait();
    drop(serve);
    if idle_passes + 1 < idle as usize / 2 {
        return Err(format!("serve made only {idle_passes} passes in {idle} s"));
    }

    // One judge for the three batches: passwords are remembered by the judge after
    // their first (Argon2) check, so a first batch warms them.
    let judge = Judge::open(&config, &SystemClock).map_err(|e| e.to_string())?;
    let per_mail = |spread: Option<usize>, tag: &str| -> Result<(Duration, Stages), String> {
        mails(&dir, spread, tag)?;
        crate::timing::start();
        let start = Instant::now();
        let pass = judge.poll_once().map_err(|e| e.to_string())?;
        let took = start.elapsed();
        let stages = crate::timing::finish();
        if pass.mails_read != 1000 {
            return Err(format!("read {} mails of 1000", pass.mails_read));
        }
        Ok((took / 1000, stages))
    };
    let _ = per_mail(None, "warm")?;
    // Three passes of each (the host's pace moves from one pass to the next), the
    // one-game passes first (a spread pass leaves the store work to do that would
    // slow the pass after it); each spread pass to 1,000 games not mailed before where
    // there are enough. The median pass of each counts, with its breakdown.
    let mut one_rounds = Vec::new();
    let mut spread_rounds = Vec::new();
    for round in 0..3 {
        one_rounds.push(per_mail(None, &format!("one{round}"))?);
    }
    for round in 0..3 {
        if games >= 1000 {
            let first = if games >= (round + 1) * 1000 {
                round * 1000
            } else {
                0
            };
            spread_rounds.push(per_mail(Some(first), &format!("spread{round}"))?);
        }
    }
    let median = |mut rounds: Vec<(Duration, Stages)>| {
        rounds.sort_by_key(|r| r.0);
        let n = rounds.len();
        if n == 0 {
            (Duration::ZERO, Vec::new())
        } else {
            rounds.swap_remove(n / 2)
        }
    };
    let (one_game, one_stages) = median(one_rounds);
    let (spread, spread_stages) = median(spread_rounds);
    drop(judge);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(Scale {
        games,
        config_read,
        config_read_one_file,
        first_pass,
        idle_seconds: idle,
        idle_cpu: cpu1.saturating_sub(cpu0),
        resident_kb,
        one_game,
        spread,
        one_stages,
        spread_stages,
    })
}

struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn table(rows: &[Scale]) -> String {
    let mut out = String::from(
        "games    config read (files/one)   first pass   idle CPU          peak RSS   per mail: one game   spread over 1,000\n",
    );
    for r in rows {
        let spread = if r.spread.is_zero() {
            "-".to_string()
        } else {
            format!(
                "{:.0} µs ({:.2}× one game's speed)",
                r.spread.as_secs_f64() * 1e6,
                r.one_game.as_secs_f64() / r.spread.as_secs_f64()
            )
        };
        let _ = writeln!(
            out,
            "{:<8} {:>6.0} ms / {:>6.0} ms   {:>8.2} s   {:>5.2} CPU-s/{} s   {:>5.0} MB   {:>8.0} µs          {spread}",
            r.games,
            r.config_read.as_secs_f64() * 1e3,
            r.config_read_one_file.as_secs_f64() * 1e3,
            r.first_pass.as_secs_f64(),
            r.idle_cpu.as_secs_f64(),
            r.idle_seconds,
            r.resident_kb as f64 / 1024.0,
            r.one_game.as_secs_f64() * 1e6,
        );
    }
    for r in rows.iter().filter(|r| !r.spread_stages.is_empty()) {
        let _ = writeln!(
            out,
            "\n{} games: where a mail's time goes (µs a mail), one game / spread over 1,000:",
            r.games
        );
        let mut names: Vec<&str> = r.spread_stages.iter().map(|s| s.0).collect();
        for s in &r.one_stages {
            if !names.contains(&s.0) {
                names.push(s.0);
            }
        }
        let of = |stages: &Stages, name: &str| {
            stages
                .iter()
                .find(|s| s.0 == name)
                .map(|s| s.1.as_secs_f64() * 1e6 / 1000.0)
                .unwrap_or(0.0)
        };
        names.sort_by(|a, b| of(&r.spread_stages, b).total_cmp(&of(&r.spread_stages, a)));
        for name in names {
            let (one, spread) = (of(&r.one_stages, name), of(&r.spread_stages, name));
            if one + spread >= 0.5 {
                let _ = writeln!(out, "  {one:>7.1} {spread:>7.1}  {name}");
            }
        }
    }
    out
}
