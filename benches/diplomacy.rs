//! Diplomacy movement phases, side by side: this rule set, the Rust `diplomacy` crate
//! 0.2.0, and (when `scripts/diplomacy-differential` has made its virtual environment)
//! the Python `diplomacy` package, all on the same recorded phases
//! (`tests/cases/diplomacy/bench-phases.jsonl`: 200 movement phases of random games,
//! made by `cargo run --example diplomacy-phases -- 200 11`).
//!
//! Criterion measures each Rust adjudicator; then one timing pass of each (and of the
//! Python package, through its script) prints the ratios the README states.
//!
//!     cargo bench --bench diplomacy -- --quick

use std::time::Instant;

use criterion::{criterion_group, Criterion};
use diplomacy::geo::{standard_map, Map as CrateMap};
use diplomacy::judge::{MappedMainOrder, Rulebook, Submission};
use pbem::rules::diplomacy::check;
use pbem::rules::diplomacy::phase::{adjudicate, prepare, Report};
use pbem::rules::diplomacy::state::{Options, State, Unit};

struct Recorded {
    state: State,
    lines: Vec<(Option<u8>, String)>,
    crate_orders: Vec<MappedMainOrder>,
}

fn path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cases/diplomacy/bench-phases.jsonl")
}

/// `AUS A vie - tyr` in the crate's words: `AUS: A vie -> tyr`.
fn crate_order(line: &str) -> String {
    let w: Vec<&str> = line.split_whitespace().collect();
    let loc = |s: &str| match s.split_once('/') {
        Some((p, c)) => format!("{p}({c})"),
        None => s.to_string(),
    };
    let mut out = vec![format!("{}:", w[0]), w[1].to_string(), loc(w[2])];
    let mut k = 3;
    while k < w.len() {
        out.push(match w[k] {
            "H" => "holds".into(),
            "-" => "->".into(),
            "S" => "supports".into(),
            "C" => "convoys".into(),
            "VIA" => "via convoy".into(),
            x if x.len() > 1 => loc(x),
            x => x.to_string(),
        });
        k += 1;
    }
    out.join(" ")
}

fn load() -> Vec<Recorded> {
    let text = std::fs::read_to_string(path()).expect("the recorded phases");
    let map = pbem::rules::diplomacy::map::Map::standard();
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let mut state = State::standard(Options::default());
            state.units = v["units"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| Unit::parse(map, u.as_str().unwrap()).unwrap())
                .collect();
            state.units.sort();
            let mut lines = Vec::new();
            let mut crate_orders = Vec::new();
            for (power, list) in v["orders"].as_object().unwrap() {
                let p = map.power_by_id(power);
                for line in list.as_array().unwrap() {
                    let line = line.as_str().unwrap();
                    lines.push((p, line.to_string()));
                    crate_orders.push(
                        crate_order(line)
                            .parse()
                            .unwrap_or_else(|e| panic!("{line}: {e:?}")),
                    );
                }
            }
            Recorded {
                state,
                lines,
                crate_orders,
            }
        })
        .collect()
}

fn ours(r: &Recorded) -> usize {
    let (after, _) = adjudicate(
        &r.state,
        &pbem::rules::diplomacy::scenario::as_given(&r.lines),
    );
    after.units.len()
}

/// The resolver alone, on orders already read and checked.
fn ours_resolver(prepared: &[pbem::rules::diplomacy::resolve::Resolver]) -> usize {
    let mut n = 0;
    for r in prepared {
        let mut r = r.clone();
        r.run();
        n += (0..r.n).filter(|&u| r.answer(u)).count();
    }
    n
}

fn theirs(map: &CrateMap, r: &Recorded) -> usize {
    let s = Submission::with_inferred_state(map, r.crate_orders.clone());
    let outcome = s.adjudicate(Rulebook::default());
    r.crate_orders
        .iter()
        .filter(|o| outcome.get(o).is_some())
        .count()
}

fn prepared(phases: &[Recorded]) -> Vec<pbem::rules::diplomacy::resolve::Resolver> {
    phases
        .iter()
        .map(|r| {
            let orders = r
                .lines
                .iter()
                .filter_map(|(p, l)| check::read(&r.state, *p, l).ok())
                .collect();
            prepare(&r.state, orders, &mut Report::default()).resolver
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let phases = load();
    let map = standard_map();
    let ready = prepared(&phases);
    let mut g = c.benchmark_group("diplomacy-200-movement-phases");
    g.bench_function("pbem (orders read from text, resolved, next state)", |b| {
        b.iter(|| phases.iter().map(ours).sum::<usize>())
    });
    g.bench_function("pbem resolver alone", |b| b.iter(|| ours_resolver(&ready)));
    g.bench_function("diplomacy crate 0.2.0 (parsed orders)", |b| {
        b.iter(|| phases.iter().map(|r| theirs(map, r)).sum::<usize>())
    });
    g.finish();
}

/// Seconds per phase, the best of `passes` passes over every phase.
fn per_phase(passes: usize, phases: usize, mut f: impl FnMut()) -> f64 {
    (0..passes)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
        / phases as f64
}

fn ratios() {
    let phases = load();
    let map = standard_map();
    let ready = prepared(&phases);
    let n = phases.len();
    let pbem = per_phase(20, n, || {
        std::hint::black_box(phases.iter().map(ours).sum::<usize>());
    });
    let resolver = per_phase(20, n, || {
        std::hint::black_box(ours_resolver(&ready));
    });
    let krate = per_phase(20, n, || {
        std::hint::black_box(phases.iter().map(|r| theirs(map, r)).sum::<usize>());
    });
    println!("\nper standard movement phase, same {n} recorded phases:");
    println!("  pbem (text in, next state out) {:>9.1} us", pbem * 1e6);
    println!(
        "  pbem resolver alone            {:>9.1} us",
        resolver * 1e6
    );
    println!(
        "  diplomacy crate 0.2.0          {:>9.1} us  ({:.1}x pbem)",
        krate * 1e6,
        krate / pbem
    );
    let venv =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/diplomacy-venv/bin/python");
    if venv.exists() {
        let out = std::process::Command::new(&venv)
            .arg(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("scripts/diplomacy_compare.py"),
            )
            .arg("bench")
            .arg(path())
            .arg("2")
            .output()
            .expect("python runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if let Some(py) = v["seconds_per_phase"].as_f64() {
            println!(
                "  python diplomacy 1.1.2         {:>9.1} us  ({:.0}x pbem)",
                py * 1e6,
                py / pbem
            );
        } else {
            println!(
                "  python diplomacy: no answer ({})",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    } else {
        println!("  python diplomacy: skipped (run scripts/diplomacy-differential once to make its virtualenv)");
    }
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    ratios();
}
