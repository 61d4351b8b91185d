//! Godsfire phases of the standard scenario (see `pbem::rules::godsfire::generate`): a
//! movement phase with 200 stacks moving through a line of stances, a combat phase with
//! 50 combats, an interphase with all four powers' orders, and the defence phase after
//! it.
//!
//! Run: `cargo bench --bench godsfire`. Targets: each phase under 1 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use pbem::rules::godsfire::adjudicate;
use pbem::rules::godsfire::generate::{standard_combat, standard_interphase, standard_movement};

fn godsfire(c: &mut Criterion) {
    let (state, orders) = standard_movement(7);
    c.bench_function("godsfire_movement_200_stacks", |b| {
        b.iter(|| adjudicate(&state, &orders, 7))
    });
    let (state, orders) = standard_combat(7);
    c.bench_function("godsfire_combat_50_combats", |b| {
        b.iter(|| adjudicate(&state, &orders, 7))
    });
    let (state, orders) = standard_interphase(7);
    c.bench_function("godsfire_interphase", |b| {
        b.iter(|| adjudicate(&state, &orders, 7))
    });
    // With the JSON of `pbem adjudicate` written (the results mail's attachment).
    c.bench_function("godsfire_interphase_with_json", |b| {
        b.iter(|| {
            let (after, log) = adjudicate(&state, &orders, 7);
            pbem::rules::godsfire::scenario::output_json(&state, &after, &log)
        })
    });
    let (defence, _) = adjudicate(&state, &orders, 7);
    let counter: std::collections::BTreeMap<String, String> = defence
        .powers
        .iter()
        .map(|p| {
            (
                p.id.clone(),
                format!("COUNTER {}-1a\nDESUBVERT {}-2c\n", p.ng, p.ng),
            )
        })
        .collect();
    c.bench_function("godsfire_defence", |b| {
        b.iter(|| adjudicate(&defence, &counter, 7))
    });
}

criterion_group!(benches, godsfire);
criterion_main!(benches);
