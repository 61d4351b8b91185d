//! `pbem bench`: times the adjudication of generated movement phases on this machine.
//!
//! Each phase is distinct and adjudicated once (cold, as the judge meets a phase), and
//! timed alone; the median per size is reported with the growth from the size before.
//! `cargo bench` measures the same with criterion's statistics.

use std::time::{Duration, Instant};

use crate::config::Config;
use crate::judge::clock::SystemClock;
use crate::judge::Judge;
use crate::rules::foundation_empire::adjudicate;
use crate::rules::foundation_empire::generate::generated_phase;

/// The timing of one size.
#[derive(Debug, Clone)]
pub struct Timing {
    pub fleets: usize,
    pub phases: usize,
    pub median: Duration,
}

/// Adjudicates `phases` generated phases of each size (0: only generates one, for
/// instruction counting) and returns the median time per phase.
pub fn movement(sizes: &[usize], phases: Option<usize>) -> Vec<Timing> {
    sizes
        .iter()
        .map(|&fleets| {
            let count = phases.unwrap_or_else(|| (300_000 / fleets.max(1)).clamp(5, 300));
            let mut times = Vec::with_capacity(count);
            if count == 0 {
                std::hint::black_box(generated_phase(fleets, 0));
            }
            for seed in 0..count as u64 {
                let (state, orders) = generated_phase(fleets, seed);
                let start = Instant::now();
                let out = adjudicate(&state, &orders, seed);
                times.push(start.elapsed());
                drop(std::hint::black_box(out));
            }
            times.sort();
            Timing {
                fleets,
                phases: count,
                median: times.get(count / 2).copied().unwrap_or_default(),
            }
        })
        .collect()
}

/// The table `pbem bench` prints.
pub fn table(timings: &[Timing]) -> String {
    let mut out = String::from("fleets     phases   median/phase   per fleet   growth\n");
    let mut previous: Option<&Timing> = None;
    for t in timings {
        let per_fleet = t.median.as_secs_f64() * 1e9 / t.fleets.max(1) as f64;
        let growth = match previous {
            Some(p) if p.median > Duration::ZERO => format!(
                "{:.1}× time for {:.0}× fleets",
                t.median.as_secs_f64() / p.median.as_secs_f64(),
                t.fleets as f64 / p.fleets as f64
            ),
            _ => String::new(),
        };
        out += &format!(
            "{:<10} {:<8} {:>10.3} ms   {:>6.0} ns   {growth}\n",
            t.fleets,
            t.phases,
            t.median.as_secs_f64() * 1e3,
            per_fleet
        );
        previous = Some(t);
    }
    out
}

/// The figures of one mail batch.
#[derive(Debug, Clone)]
pub struct MailTiming {
    pub mails: usize,
    pub elapsed: Duration,
    /// CPU time of the judge's thread in the pass (the machine may be shared).
    pub cpu: Duration,
    pub replies: usize,
    /// Where the pass's time went: own time and entries per stage.
    pub stages: Vec<(&'static str, Duration, u64)>,
}

/// CPU time of the calling thread so far (Linux; zero elsewhere).
pub fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .unwrap_or_default()
}

impl MailTiming {
    /// The lines `pbem bench --mail` prints.
    pub fn text(&self) -> String {
        let n = self.mails.max(1) as f64;
        let mut out = format!(
            "{} order mails in {:.2} s: {:.0} mails/s ({} receipts written); \
             the judge's thread on a CPU {:.2} s: {:.0} mails per CPU-second\n\
             where a mail's time goes (µs a mail):\n",
            self.mails,
            self.elapsed.as_secs_f64(),
            n / self.elapsed.as_secs_f64(),
            self.replies,
            self.cpu.as_secs_f64(),
            n / self.cpu.as_secs_f64().max(1e-9),
        );
        let mut stages = self.stages.clone();
        stages.sort_by(|a, b| b.1.cmp(&a.1));
        for (name, d, _) in stages {
            out += &format!("  {:>7.1}  {name}\n", d.as_secs_f64() * 1e6 / n);
        }
        out
    }
}

/// Processes `mails` order mails from a Maildir inbox in one pass of the judge (parse,
/// authenticate, store, check, render and write the receipt), in a temporary folder.
/// Three of the four powers write (each mail replaces its power's orders), so no
/// phase is adjudicated: this measures the mail path alone.
pub fn mail_batch(mails: usize) -> Result<MailTiming, String> {
    let dir = std::env::temp_dir().join(format!("pbem-bench-mail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let players = [
        ("hari@example.test", "psychohistory"),
        ("cleon@example.test", "trantor"),
        ("mule@example.test", "conversion"),
        ("preem@example.test", "second"),
    ];
    let hashes: Vec<String> = players
        .iter()
        .map(|(_, pw)| crate::password::hash(pw))
        .collect();
    let config_path = dir.join("games.toml");
    std::fs::write(&config_path, crate::demo::demo_config(&hashes)).map_err(|e| e.to_string())?;
    let config = Config::load(&config_path).map_err(|e| e.to_string())?;
    let inbox = dir.join("mail/inbox");
    crate::mail::maildir::create(&inbox).map_err(|e| e.to_string())?;
    let orders = [
        "B2 - C2\nA1 S\nC1 H",
        "F2 - E2\nE1 S\nG1 S",
        "E4 - D3\nG4 H\nF5 - F4",
    ];
    for n in 0..mails {
        let k = n % 3;
        let (from, pw) = players[k];
        crate::demo::send(
            &inbox,
            n,
            from,
            "[demo] orders",
            &format!("PASSWORD {pw}\n{}", orders[k]),
        )
        .map_err(|e| e.to_string())?;
    }
    let judge = Judge::open(&config, &SystemClock).map_err(|e| e.to_string())?;
    crate::timing::start();
    let cpu = thread_cpu();
    let start = Instant::now();
    let pass = judge.poll_once().map_err(|e| e.to_string())?;
    let elapsed = start.elapsed();
    let cpu = thread_cpu().saturating_sub(cpu);
    let stages = crate::timing::finish();
    drop(judge);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(MailTiming {
        mails: pass.mails_read,
        elapsed,
        cpu,
        replies: pass.replies_sent,
        stages,
    })
}
