//! The judge's allocator (`pbem::memory`): a large phase adjudicated with its large
//! blocks on huge pages comes out exactly as on the system allocator.

use pbem::memory::{large_pages, on_large_pages};
use pbem::rules::foundation_empire::stored::StoredState;
use pbem::rules::foundation_empire::{adjudicate, generate::generated_phase};

#[test]
fn a_large_phase_adjudicated_on_huge_pages_comes_out_as_on_the_system_allocator() {
    // 40,000 fleets: the results alone (56 bytes a fleet) are a large block. Three
    // phases in a row, so the later ones run on the blocks the earlier ones freed.
    for seed in 1..=3 {
        let (state, orders) = generated_phase(40_000, seed);
        let plain = adjudicate(&state, &orders, seed);
        let paged = large_pages(|| adjudicate(&state, &orders, seed));
        assert!(
            on_large_pages(paged.1.results.as_ptr().cast()),
            "the results are a block of huge pages"
        );
        assert!(!on_large_pages(plain.1.results.as_ptr().cast()));
        assert_eq!(
            StoredState::from_state(&paged.0, None),
            StoredState::from_state(&plain.0, None),
            "the position after the phase (seed {seed})"
        );
        assert_eq!(paged.1, plain.1, "the report (seed {seed})");
        // Grown outside the scope, a block moves to the system allocator intact.
        let mut results = paged.1.results;
        let before = results.len();
        results.extend(plain.1.results);
        assert!(!on_large_pages(results.as_ptr().cast()));
        assert_eq!(results[..before], results[before..]);
    }
}
