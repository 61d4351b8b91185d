//! A full interphase of the standard scenario, every power busy (about a dozen orders
//! each, of every kind), for the benchmark and the tests.

use std::collections::BTreeMap;

use super::scenario::standard;
use super::state::{Options, State};

/// The standard scenario at its first interphase, and four powers' orders.
pub fn standard_interphase(seed: u64) -> (State, BTreeMap<String, String>) {
    let mut state = standard(seed, Options::default());
    state.phase = super::state::Phase::Interphase;
    let mut orders = BTreeMap::new();
    let homes: Vec<String> = state.powers.iter().map(|p| p.ng.clone()).collect();
    for (k, p) in state.powers.iter().enumerate() {
        let home = &p.ng;
        let next = &homes[(k + 1) % homes.len()];
        let text = format!(
            "EXTORT {home}-1a\n\
             BORROW 4\n\
             TRANSFER 2 FROM {home} TO NG\n\
             BUY {home}-1a 2 AG\n\
             BUY {home}-3a 1 PDF\n\
             LOYALTY {home}-2c 1\n\
             LOYALTY {home}-1b 1\n\
             ECON {home}-2b\n\
             DEMOTE {home}-2c\n\
             SUBVERT {next}-1a\n\
             SUBVERT {next}-2c\n\
             SUBVERT Polaris-1a\n\
             WAR {}\n",
            state.powers[(k + 2) % 4].id
        );
        orders.insert(p.id.clone(), text);
    }
    (state, orders)
}
