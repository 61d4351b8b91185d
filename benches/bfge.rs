//! One Battles for the Galactic Empire Action phase with all six regions contested
//! (see `pbem::rules::battles_galactic_empire::generate`): initiative, chits played
//! and repressed, six battles with standing instructions, politics.
//!
//! Run: `cargo bench --bench bfge`. Target: the Action phase under 1 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use pbem::rules::battles_galactic_empire::generate::contested_actions;
use pbem::rules::battles_galactic_empire::{adjudicate, scenario};

fn bfge(c: &mut Criterion) {
    let (state, orders) = contested_actions(7);
    c.bench_function("bfge_actions_six_contested", |b| {
        b.iter(|| adjudicate(&state, &orders, 7))
    });
    // With the JSON of `pbem adjudicate` written (the results mail's attachment).
    c.bench_function("bfge_actions_six_contested_with_json", |b| {
        b.iter(|| {
            let (after, log) = adjudicate(&state, &orders, 7);
            scenario::output_json(&state, &after, &log)
        })
    });
}

criterion_group!(benches, bfge);
criterion_main!(benches);
