//! `pbem bench`: times the adjudication of generated movement phases on this machine.
//!
//! Each phase is distinct and adjudicated once (cold, as the judge meets a phase), and
//! timed alone; the median per size is reported with the growth from the size before.
//! Phases are timed on the wall clock and, on Linux, in the CPU time of the thread
//! (`CLOCK_THREAD_CPUTIME_ID`): on a shared machine
//! the wall clock also counts the time other processes held the CPU, the CPU time does
//! not, so growth is read from it. `cargo bench` measures the same with criterion's
//! statistics.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::judge::clock::SystemClock;
use crate::judge::Judge;
use crate::rules::foundation_empire::generate::generated_phase;
use crate::rules::foundation_empire::outcome::{
    grouped, Detail, OrderResult, OrderText, Outcome, Report,
};
use crate::rules::foundation_empire::position::{Fleet, State};
use crate::rules::foundation_empire::resolve::Act;
use crate::rules::foundation_empire::{adjudicate, adjudicate_marked, Submissions};

/// The timing of one size.
#[derive(Debug, Clone)]
pub struct Timing {
    pub fleets: usize,
    pub phases: usize,
    /// Median wall-clock time of a phase.
    pub median: Duration,
    /// Median CPU time of a phase, where the system tells it.
    pub cpu: Option<Duration>,
    /// Median minor page faults of a phase (memory first touched), where known.
    pub faults: Option<u64>,
    /// With `--stages`: each stage of a phase and its mean CPU time, in the order the
    /// stages end.
    pub stages: Vec<(&'static str, Duration)>,
    /// With `--floor`: the median CPU time of the same phases' floor ([`floor_phase`]).
    pub floor: Option<Duration>,
    /// The mean CPU time of a phase in each round, round by round (empty where the
    /// system tells no CPU time): the growth from one size to the next is also read
    /// round by round ([`round_growth`]), each size against the one before in the same
    /// few seconds of the host.
    pub rounds: Vec<Duration>,
}

impl Timing {
    /// The CPU time where known, else the wall-clock time.
    pub fn best(&self) -> Duration {
        self.cpu.unwrap_or(self.median)
    }
}

/// The CPU time this thread has run: the C library's thread CPU clock, which the
/// kernel keeps to the nanosecond (the scheduler statistics under `/proc` move by
/// whole clock ticks). Linux on 64-bit targets only; elsewhere `None`.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu_time() -> Option<Duration> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `struct timespec` (two 64-bit fields on
    // 64-bit Linux) through a pointer to a live, properly aligned value of that layout.
    let ok = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    (ok && t.tv_sec >= 0 && t.tv_nsec >= 0)
        .then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu_time() -> Option<Duration> {
    None
}

/// The minor page faults this thread has taken (`getrusage(RUSAGE_THREAD)`): pages the
/// kernel had to map, and zero, on first touch. Linux on 64-bit targets only.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_page_faults() -> Option<u64> {
    #[repr(C)]
    struct Rusage {
        utime: [i64; 2],
        stime: [i64; 2],
        // ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ... (14 longs).
        counts: [i64; 14],
    }
    extern "C" {
        fn getrusage(who: i32, usage: *mut Rusage) -> i32;
    }
    const RUSAGE_THREAD: i32 = 1;
    let mut u = Rusage {
        utime: [0; 2],
        stime: [0; 2],
        counts: [0; 14],
    };
    // SAFETY: `getrusage` writes one `struct rusage` (two `struct timeval` and 14
    // longs on 64-bit Linux) through a pointer to a live, aligned value of that layout.
    let ok = unsafe { getrusage(RUSAGE_THREAD, &mut u) } == 0;
    (ok && u.counts[4] >= 0).then_some(u.counts[4] as u64)
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_page_faults() -> Option<u64> {
    None
}

/// What reading the CPU time twice in a row costs (median of a few tries), taken off
/// every CPU timing.
fn cpu_clock_cost() -> Duration {
    let mut tries: Vec<Duration> = (0..15)
        .filter_map(|_| {
            let a = thread_cpu_time()?;
            let b = thread_cpu_time()?;
            Some(b.saturating_sub(a))
        })
        .collect();
    tries.sort();
    tries.get(tries.len() / 2).copied().unwrap_or_default()
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// How many phases of `size` a round adjudicates: as many fleets as one phase of the
/// largest size (at most 1,000 phases).
fn per_round(size: usize, largest: usize) -> usize {
    (largest / size.max(1)).clamp(1, 1000)
}

/// Adjudicates generated phases of each size and returns the median time per phase.
///
/// The sizes are measured in rounds, side by side: in each round every size
/// adjudicates about as many fleets (one phase of the largest, ten of a size ten times
/// smaller), so a busy spell of the shared host falls on all sizes alike instead of on
/// whichever was being measured then, and the growth from size to size compares like
/// with like. `rounds` is the number of phases of the largest size (0: only generates
/// one phase of each size, for instruction counting). With `stages`, the CPU time of
/// each stage of a phase is taken too (a clock read as each stage ends). With `floor`,
/// each phase is generated a second time and its [`floor_phase`] timed as well.
pub fn movement(sizes: &[usize], rounds: Option<usize>, stages: bool, floor: bool) -> Vec<Timing> {
    let clock_cost = cpu_clock_cost();
    let largest = sizes.iter().copied().max().unwrap_or(1).max(1);
    let rounds = rounds.unwrap_or_else(|| (3_000_000 / largest).clamp(31, 300));
    if rounds == 0 {
        for &fleets in sizes {
            std::hint::black_box(generated_phase(fleets, 0));
        }
    }
    struct Samples {
        wall: Vec<Duration>,
        cpu: Vec<Duration>,
        faults: Vec<u64>,
        stages: Vec<(&'static str, Duration)>,
        floor: Vec<Duration>,
        seed: u64,
    }
    let mut samples: Vec<Samples> = sizes
        .iter()
        .map(|&fleets| {
            let count = rounds * per_round(fleets, largest);
            Samples {
                wall: Vec::with_capacity(count),
                cpu: Vec::with_capacity(count),
                faults: Vec::with_capacity(count),
                stages: Vec::new(),
                floor: Vec::with_capacity(if floor { count } else { 0 }),
                seed: 0,
            }
        })
        .collect();
    for _ in 0..rounds {
        for (&fleets, s) in sizes.iter().zip(&mut samples) {
            for _ in 0..per_round(fleets, largest) {
                let seed = s.seed;
                s.seed += 1;
                let (state, orders) = generated_phase(fleets, seed);
                let faults_start = thread_page_faults();
                let cpu_start = thread_cpu_time();
                let start = Instant::now();
                // As the judge adjudicates (`Game::adjudicate`): large blocks on huge pages.
                let out = crate::memory::large_pages(|| {
                    if stages {
                        let mut last = cpu_start;
                        let totals = &mut s.stages;
                        adjudicate_marked(&state, &orders, seed, &mut |name| {
                            let now = thread_cpu_time();
                            if let (Some(a), Some(b)) = (last, now) {
                                let spent = b.saturating_sub(a);
                                match totals.iter_mut().find(|(n, _)| *n == name) {
                                    Some((_, total)) => *total += spent,
                                    None => totals.push((name, spent)),
                                }
                            }
                            last = now;
                        })
                    } else {
                        adjudicate(&state, &orders, seed)
                    }
                });
                s.wall.push(start.elapsed());
                if let (Some(a), Some(b)) = (cpu_start, thread_cpu_time()) {
                    s.cpu.push(b.saturating_sub(a).saturating_sub(clock_cost));
                }
                if let (Some(a), Some(b)) = (faults_start, thread_page_faults()) {
                    s.faults.push(b.saturating_sub(a));
                }
                drop(std::hint::black_box(out));
                if floor {
                    // The same phase again, freshly generated as the one adjudicated
                    // was: the floor meets its records as the adjudication did.
                    let (state, orders) = generated_phase(fleets, seed);
                    let start = thread_cpu_time();
                    let out = floor_phase(&state, &orders);
                    if let (Some(a), Some(b)) = (start, thread_cpu_time()) {
                        s.floor.push(b.saturating_sub(a).saturating_sub(clock_cost));
                    }
                    drop(std::hint::black_box(out));
                }
            }
        }
    }
    sizes
        .iter()
        .zip(samples)
        .map(|(&fleets, s)| {
            let count = s.wall.len();
            Timing {
                fleets,
                phases: count,
                median: median(s.wall),
                cpu: (count > 0 && s.cpu.len() == count).then(|| median(s.cpu.clone())),
                faults: (count > 0 && s.faults.len() == count).then(|| {
                    let mut f = s.faults;
                    f.sort_unstable();
                    f[count / 2]
                }),
                stages: s
                    .stages
                    .into_iter()
                    .map(|(name, total)| (name, total / count.max(1) as u32))
                    .collect(),
                floor: (count > 0 && s.floor.len() == count).then(|| median(s.floor)),
                rounds: if count > 0 && s.cpu.len() == count {
                    let each = per_round(fleets, largest);
                    s.cpu
                        .chunks(each)
                        .map(|round| round.iter().sum::<Duration>() / round.len() as u32)
                        .collect()
                } else {
                    Vec::new()
                },
            }
        })
        .collect()
}

/// The table `pbem bench` prints: per phase and per fleet in CPU time where known
/// (wall-clock time beside it), the growth from the size before, and the page faults
/// of a phase (memory the kernel maps on first touch, counted in the CPU time).
pub fn table(timings: &[Timing]) -> String {
    let cpu = timings.iter().all(|t| t.cpu.is_some());
    let faults = timings.iter().all(|t| t.faults.is_some());
    let mut out = if cpu {
        String::from(
            "fleets     phases   CPU/phase     per fleet   growth                      wall/phase",
        )
    } else {
        String::from("fleets     phases   median/phase   per fleet   growth")
    };
    if faults {
        out += "  faults/phase";
    }
    out.push('\n');
    let mut previous: Option<&Timing> = None;
    for t in timings {
        let time = t.best();
        let per_fleet = time.as_secs_f64() * 1e9 / t.fleets.max(1) as f64;
        let growth = match previous {
            Some(p) if p.best() > Duration::ZERO => format!(
                "{:.2}× time for {:.0}× fleets",
                time.as_secs_f64() / p.best().as_secs_f64(),
                t.fleets as f64 / p.fleets as f64
            ),
            _ => String::new(),
        };
        out += &format!(
            "{:<10} {:<8} {:>10.3} ms   {:>6.0} ns   {growth:<27}",
            t.fleets,
            t.phases,
            time.as_secs_f64() * 1e3,
            per_fleet
        );
        if cpu {
            out += &format!(" {:>8.3} ms", t.median.as_secs_f64() * 1e3);
        }
        if let (true, Some(n)) = (faults, t.faults) {
            out += &format!(" {n:>13}");
        }
        out = out.trim_end().to_string();
        out.push('\n');
        previous = Some(t);
    }
    out + &round_table(timings) + &stage_table(timings) + &floor_table(timings)
}

/// The growth from `before` to `after` read round by round: in each round, the mean
/// phase time of `after` over that of `before` (measured within the same few seconds),
/// then the lower quartile, the median and the upper quartile of those ratios. A busy
/// spell of the shared host that lasts a round falls on both sides of its ratio, so
/// the spread tells how far this machine's noise moves the growth, run to run.
pub fn round_growth(before: &Timing, after: &Timing) -> Option<(f64, f64, f64)> {
    if before.rounds.is_empty() || before.rounds.len() != after.rounds.len() {
        return None;
    }
    let mut ratios: Vec<f64> = before
        .rounds
        .iter()
        .zip(&after.rounds)
        .filter(|(b, _)| !b.is_zero())
        .map(|(b, a)| a.as_secs_f64() / b.as_secs_f64())
        .collect();
    if ratios.is_empty() {
        return None;
    }
    ratios.sort_by(f64::total_cmp);
    let at = |q: usize| ratios[(ratios.len() - 1) * q / 4];
    Some((at(1), at(2), at(3)))
}

/// The growth read round by round ([`round_growth`]), a line a step; empty when the
/// CPU time was not told.
fn round_table(timings: &[Timing]) -> String {
    let mut out = String::new();
    for pair in timings.windows(2) {
        if let Some((low, mid, high)) = round_growth(&pair[0], &pair[1]) {
            if out.is_empty() {
                out += "\ngrowth read round by round (each round's phases against the size \
                        before's in the same round):\n";
            }
            out += &format!(
                "{:<10} -> {:<10} median {mid:.2}×, middle half {low:.2}× – {high:.2}× ({} rounds)\n",
                pair[0].fleets,
                pair[1].fleets,
                pair[1].rounds.len()
            );
        }
    }
    out
}

/// What a movement phase costs at the least, whatever its adjudication does: its
/// records read and the records it makes written, and nothing else. Every byte of the
/// orders is read, every fleet's record read, and one result a fleet (as a movement
/// phase makes them, each power's in a block) and one fleet record a fleet written.
/// Timed beside the phases, it shows how much of a phase's growth with size its
/// records alone bring, on this machine: the memory a phase reads and writes once.
pub fn floor_phase(state: &State, orders: &Submissions) -> (State, Report) {
    let bytes = orders
        .values()
        .flat_map(|text| text.bytes())
        .fold(0u64, |sum, b| sum.wrapping_add(u64::from(b)));
    std::hint::black_box(bytes);
    let results = grouped(
        state.fleets.len(),
        state.board.powers().len(),
        |i| state.fleets[i].power.0 as usize,
        |i| {
            let fleet = state.fleets[i];
            OrderResult {
                power: fleet.power,
                sector: Some(fleet.at),
                order: OrderText::Fleet(fleet.at, Act::Hold),
                outcome: Outcome::Held,
                detail: Detail::Held {
                    defence: 1,
                    no_order: false,
                },
                default: false,
                line: None,
            }
        },
        0,
    );
    let mut next = state.without_fleets();
    next.fleets.extend(state.fleets.iter().map(|f| Fleet {
        stay: f.stay.saturating_add(1),
        ..*f
    }));
    let report = Report {
        results,
        ..Report::default()
    };
    (next, report)
}

/// With `--floor`: the floor's time a fleet at each size, and for each step the lowest
/// growth an adjudication that reads and writes these records can show here - its own
/// time at the smaller size, plus what the floor gains a fleet from one size to the
/// next (the rest of a phase is assumed to cost no more a fleet at the larger size).
fn floor_table(timings: &[Timing]) -> String {
    if timings.is_empty() || timings.iter().any(|t| t.floor.is_none()) {
        return String::new();
    }
    let per_fleet = |d: Duration, t: &Timing| d.as_secs_f64() * 1e9 / t.fleets.max(1) as f64;
    let mut out = String::from(
        "\nthe floor: orders and fleets read, results and fleets written, nothing adjudicated \
         (median CPU time):\n",
    );
    let mut previous: Option<&Timing> = None;
    for t in timings {
        let floor = per_fleet(t.floor.unwrap_or_default(), t);
        out += &format!("{:<10} {floor:>6.1} ns a fleet", t.fleets);
        if let Some(p) = previous {
            let phase = per_fleet(p.best(), p);
            let lowest = (phase + floor - per_fleet(p.floor.unwrap_or_default(), p)) / phase
                * (t.fleets as f64 / p.fleets.max(1) as f64);
            out += &format!(
                "   lowest growth of a phase from {}: {lowest:.2}×",
                p.fleets
            );
        }
        out.push('\n');
        previous = Some(t);
    }
    out
}

/// Where a phase's time goes, stage by stage (mean CPU time, nanoseconds a fleet), a
/// column a size; empty when the stages were not timed.
fn stage_table(timings: &[Timing]) -> String {
    let Some(first) = timings.iter().find(|t| !t.stages.is_empty()) else {
        return String::new();
    };
    let mut out = String::from("\nwhere a phase's time goes (mean CPU time, ns a fleet):\n");
    out += &format!("{:<26}", "stage");
    for t in timings {
        out += &format!(" {:>9}", t.fleets);
    }
    out.push('\n');
    for (name, _) in &first.stages {
        out += &format!("{name:<26}");
        for t in timings {
            match t.stages.iter().find(|(n, _)| n == name) {
                Some((_, d)) => {
                    out += &format!(" {:>9.1}", d.as_nanos() as f64 / t.fleets.max(1) as f64)
                }
                None => out += &format!(" {:>9}", "-"),
            }
        }
        out.push('\n');
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
    /// The filesystem alone, in the same run: files written, their size, the time.
    pub files: Option<(usize, u64, Duration)>,
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
             the judge's thread on a CPU {:.2} s: {:.0} mails per CPU-second\n",
            self.mails,
            self.elapsed.as_secs_f64(),
            n / self.elapsed.as_secs_f64(),
            self.replies,
            self.cpu.as_secs_f64(),
            n / self.cpu.as_secs_f64().max(1e-9),
        );
        if let Some((count, size, took)) = self.files {
            let alone = count as f64 / took.as_secs_f64().max(1e-9);
            let _ = writeln!(
                out,
                "the filesystem alone (same run): {count} files of {size} bytes written the \
                 Maildir way (tmp/, then new/) in {:.2} s: {alone:.0} files/s; the judge \
                 answered at {:.2} of that rate",
                took.as_secs_f64(),
                (n / self.elapsed.as_secs_f64()) / alone,
            );
        }
        out += "where a mail's time goes (µs a mail):\n";
        let mut stages = self.stages.clone();
        stages.sort_by_key(|s| std::cmp::Reverse(s.1));
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
    let files = files_alone(&dir, pass.replies_sent);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(MailTiming {
        mails: pass.mails_read,
        elapsed,
        cpu,
        replies: pass.replies_sent,
        stages,
        files,
    })
}

/// The baseline of the same run: the filesystem alone taking as many files as the
/// judge wrote receipts, of their average size, the Maildir way (written into `tmp/`,
/// renamed into `new/`), on as many threads as the judge writes with. A Maildir judge
/// can answer no faster than its disk creates files.
fn files_alone(dir: &std::path::Path, count: usize) -> Option<(usize, u64, Duration)> {
    let outbox = dir.join("mail/outbox/new");
    let sizes: Vec<u64> = std::fs::read_dir(&outbox)
        .ok()?
        .filter_map(|e| e.ok()?.metadata().ok().map(|m| m.len()))
        .collect();
    if sizes.is_empty() || count == 0 {
        return None;
    }
    let size = sizes.iter().sum::<u64>() / sizes.len() as u64;
    let alone = dir.join("alone");
    crate::mail::maildir::create(&alone).ok()?;
    let bytes = vec![b'x'; size as usize];
    let names: Vec<String> = (0..count).map(|k| format!("{k}.baseline")).collect();
    let start = Instant::now();
    let written = crate::parallel::map(&names, |name| {
        crate::mail::maildir::deliver(&alone, name, &bytes).is_ok()
    });
    let took = start.elapsed();
    written.iter().all(|&ok| ok).then_some((count, size, took))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The floor reads every fleet and writes one result and one fleet record for each,
    /// the results in the canonical order of a movement phase (power, then sector).
    #[test]
    fn the_floor_writes_a_result_and_a_fleet_a_fleet() {
        let (state, orders) = generated_phase(500, 3);
        let (next, report) = floor_phase(&state, &orders);
        assert_eq!(next.fleets.len(), state.fleets.len());
        assert!(next
            .fleets
            .iter()
            .zip(&state.fleets)
            .all(|(a, b)| a.at == b.at && a.stay == b.stay + 1));
        assert_eq!(report.results.len(), state.fleets.len());
        let keys: Vec<_> = report.results.iter().map(|r| (r.power, r.sector)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }

    fn timing(fleets: usize, rounds: &[u64]) -> Timing {
        Timing {
            fleets,
            phases: rounds.len(),
            median: Duration::ZERO,
            cpu: None,
            faults: None,
            stages: Vec::new(),
            floor: None,
            rounds: rounds.iter().map(|&us| Duration::from_micros(us)).collect(),
        }
    }

    /// The growth read round by round pairs each round with the same round of the size
    /// before: a slow round on both sides (a busy spell of the host) gives the same
    /// ratio as a quiet one.
    #[test]
    fn the_growth_is_read_round_by_round() {
        let small = timing(10, &[100, 300, 100, 100, 100]);
        let big = timing(100, &[1000, 3000, 1100, 1050, 1200]);
        let (low, mid, high) = round_growth(&small, &big).expect("five rounds each");
        assert!((mid - 10.5).abs() < 1e-9, "{mid}");
        assert!((low - 10.0).abs() < 1e-9, "{low}");
        assert!((high - 11.0).abs() < 1e-9, "{high}");
        assert_eq!(round_growth(&small, &timing(100, &[1000])), None);
        let text = round_table(&[small, big]);
        assert!(
            text.contains(
                "10         -> 100        median 10.50×, middle half 10.00× – 11.00× (5 rounds)"
            ),
            "{text}"
        );
    }
}
