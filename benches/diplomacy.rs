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
use pbem::rules::diplomacy::phase::{adjudicate, adjudicate_read, prepare, read, Report};
use pbem::rules::diplomacy::state::{Options, State, Unit};

struct Recorded {
    state: State,
    lines: Vec<(Option<u8>, String)>,
    crate_lines: Vec<String>,
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
            let mut crate_lines = Vec::new();
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
                    crate_lines.push(crate_order(line));
                }
            }
            Recorded {
                state,
                lines,
                crate_lines,
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

/// From orders already read (parsed and checked against the position).
fn ours_read(r: &Recorded, read_orders: &[pbem::rules::diplomacy::check::Order]) -> usize {
    let (after, _) = adjudicate_read(&r.state, read_orders.to_vec(), Report::default());
    after.units.len()
}

/// The crate from order text: its parser, then its adjudication.
fn theirs_text(map: &CrateMap, r: &Recorded) -> usize {
    let orders: Vec<MappedMainOrder> = r.crate_lines.iter().map(|l| l.parse().unwrap()).collect();
    let s = Submission::with_inferred_state(map, orders);
    let outcome = s.adjudicate(Rulebook::default());
    r.crate_orders
        .iter()
        .filter(|o| outcome.get(o).is_some())
        .count()
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

fn read_all(phases: &[Recorded]) -> Vec<Vec<pbem::rules::diplomacy::check::Order>> {
    phases
        .iter()
        .map(|r| {
            read(
                &r.state,
                &pbem::rules::diplomacy::scenario::as_given(&r.lines),
            )
            .0
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let phases = load();
    let map = standard_map();
    let ready = prepared(&phases);
    let orders = read_all(&phases);
    let mut g = c.benchmark_group("diplomacy-200-movement-phases");
    g.bench_function("pbem from order text", |b| {
        b.iter(|| phases.iter().map(ours).sum::<usize>())
    });
    g.bench_function("diplomacy crate 0.2.0 from order text", |b| {
        b.iter(|| phases.iter().map(|r| theirs_text(map, r)).sum::<usize>())
    });
    g.bench_function("pbem from parsed orders", |b| {
        b.iter(|| {
            phases
                .iter()
                .zip(&orders)
                .map(|(r, o)| ours_read(r, o))
                .sum::<usize>()
        })
    });
    g.bench_function("diplomacy crate 0.2.0 from parsed orders", |b| {
        b.iter(|| phases.iter().map(|r| theirs(map, r)).sum::<usize>())
    });
    g.bench_function("pbem resolver alone", |b| b.iter(|| ours_resolver(&ready)));
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
    let orders = read_all(&phases);
    let n = phases.len();
    let passes = 20;
    let text = per_phase(passes, n, || {
        std::hint::black_box(phases.iter().map(ours).sum::<usize>());
    });
    let parsed = per_phase(passes, n, || {
        std::hint::black_box(
            phases
                .iter()
                .zip(&orders)
                .map(|(r, o)| ours_read(r, o))
                .sum::<usize>(),
        );
    });
    let resolver = per_phase(passes, n, || {
        std::hint::black_box(ours_resolver(&ready));
    });
    let krate_text = per_phase(passes, n, || {
        std::hint::black_box(phases.iter().map(|r| theirs_text(map, r)).sum::<usize>());
    });
    let krate = per_phase(passes, n, || {
        std::hint::black_box(phases.iter().map(|r| theirs(map, r)).sum::<usize>());
    });
    println!(
        "\nper standard movement phase, the same {n} recorded phases (best of {passes} passes):"
    );
    println!("  pbem from order text             {:>9.1} us", text * 1e6);
    println!(
        "  pbem from parsed orders          {:>9.1} us",
        parsed * 1e6
    );
    println!(
        "  pbem resolver alone              {:>9.1} us",
        resolver * 1e6
    );
    println!(
        "  diplomacy crate 0.2.0, text      {:>9.1} us  ({:.1}x pbem from text)",
        krate_text * 1e6,
        krate_text / text
    );
    println!(
        "  diplomacy crate 0.2.0, parsed    {:>9.1} us  ({:.1}x pbem from parsed orders)",
        krate * 1e6,
        krate / parsed
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = root.join("target/diplomacy-venv/bin/python");
    if venv.exists() {
        let out = std::process::Command::new(&venv)
            .arg(root.join("scripts/diplomacy_compare.py"))
            .arg("bench")
            .arg(path())
            .arg("2")
            .output()
            .expect("python runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if let Some(py) = v["seconds_per_phase"].as_f64() {
            println!(
                "  python diplomacy 1.1.2, text     {:>9.1} us  ({:.0}x pbem from text)",
                py * 1e6,
                py / text
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
