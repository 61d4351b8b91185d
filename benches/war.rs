//! One War! movement round: six players, about 200 units and fleets, wars between
//! neighbours, every player's scripted orders (attacks on natives and enemies,
//! explorers and parleys, sailings). See `pbem::rules::war_imperialism::generate`.
//!
//! Run: `cargo bench --bench war`. Target: the round under 2 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use pbem::rules::war_imperialism::adjudicate;
use pbem::rules::war_imperialism::generate::{count_units, movement_round};
use pbem::rules::war_imperialism::output::output_json;

fn war(c: &mut Criterion) {
    let (state, orders) = movement_round(7);
    eprintln!(
        "war_movement_round: {} units and fleets",
        count_units(&state)
    );
    c.bench_function("war_movement_round", |b| {
        b.iter(|| adjudicate(&state, &orders, 7))
    });
    // With the JSON of `pbem adjudicate` written (the results mail's attachment).
    c.bench_function("war_movement_round_with_json", |b| {
        b.iter(|| {
            let (after, log) = adjudicate(&state, &orders, 7);
            output_json(&state, &after, &log)
        })
    });
}

criterion_group!(benches, war);
criterion_main!(benches);
