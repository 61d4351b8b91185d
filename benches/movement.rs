//! One movement phase of Foundation and Empire on generated boards with 1k, 10k and
//! 100k fleets (see [`generated_phase`] for the mix of orders).
//!
//! Run: `cargo bench --bench movement`. Target: 100k fleets under 100 ms, and 10× the
//! fleets costing at most 12× the time. `scripts/bench-instructions` counts the
//! instructions of one phase at each size (valgrind), a measure free of machine noise.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pbem::rules::foundation_empire::adjudicate;
use pbem::rules::foundation_empire::generate::generated_phase;

/// Cold: each iteration adjudicates the next of several distinct phases, about 100k
/// fleets in all, so no size runs from a cache warmed by the previous iteration; this
/// is how the judge meets a phase (once). Warm: the same phase again and again.
fn movement(c: &mut Criterion) {
    for (group_name, rotate) in [("movement_phase", true), ("movement_phase_warm", false)] {
        let mut group = c.benchmark_group(group_name);
        for fleets in [1_000usize, 10_000, 100_000] {
            let count = if rotate { (100_000 / fleets).max(1) } else { 1 };
            let phases: Vec<_> = (0..count as u64)
                .map(|seed| generated_phase(fleets, 42 + seed))
                .collect();
            group.throughput(Throughput::Elements(fleets as u64));
            group.sample_size(if fleets >= 100_000 { 20 } else { 50 });
            let mut k = 0;
            group.bench_with_input(BenchmarkId::from_parameter(fleets), &fleets, |b, _| {
                b.iter(|| {
                    let (state, orders) = &phases[k % phases.len()];
                    k += 1;
                    adjudicate(state, orders, 7)
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, movement);
criterion_main!(benches);
