//! One round of Foundation (Hjelmberg) in round pace: five players' turns, each
//! player's lines written by the scripted players of
//! `pbem::rules::foundation_hjelmberg::generate` (orders with ELSE alternatives,
//! fallback lines, RETURN preferences, the Empire moving at the end of a turn).
//!
//! Run: `cargo bench --bench hjelmberg`. Target: a round under 1 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use pbem::rules::foundation_hjelmberg::generate::midgame_round;
use pbem::rules::foundation_hjelmberg::{adjudicate, output};

fn hjelmberg(c: &mut Criterion) {
    // Rounds early and late in a game, adjudicated in rotation.
    let rounds: Vec<_> = [(7, 3), (11, 8), (13, 15)]
        .into_iter()
        .map(|(seed, r)| (seed, midgame_round(seed, r)))
        .collect();
    let mut k = 0;
    c.bench_function("hjelmberg_round_of_5", |b| {
        b.iter(|| {
            k = (k + 1) % rounds.len();
            let (seed, (state, orders)) = &rounds[k];
            adjudicate(state, orders, *seed)
        })
    });
    // With the JSON of `pbem adjudicate` written (the results mail's attachment).
    c.bench_function("hjelmberg_round_of_5_with_json", |b| {
        b.iter(|| {
            k = (k + 1) % rounds.len();
            let (seed, (state, orders)) = &rounds[k];
            let (after, log) = adjudicate(state, orders, *seed);
            output::output_value(state, &after, &log)
        })
    });
}

criterion_group!(benches, hjelmberg);
criterion_main!(benches);
