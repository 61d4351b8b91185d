//! Battles for the Galactic Empire (rules of record B1–B14,
//! `../shared/rules/battles-for-the-galactic-empire.md`): the rule list and its
//! coverage, and the rules that read better as code than as a scenario file.

use crate::coverage::numbered_rules;

/// The numbered rules of the rules page, and B4 (the turn), which has no sub-rules.
/// Each maps to code (see `src/rules/battles_galactic_empire/mod.rs`) and to at least
/// one test named after it (`b8_4_…`): a case under `tests/cases/bfge/` or a `fn`.
pub const BFGE_RULES: &[&str] = &[
    "B1.1", "B1.2", "B1.3", "B1.4", "B1.5", "B2.1", "B2.2", "B2.3", "B3.1", "B3.2", "B3.3", "B3.4",
    "B4", "B5.1", "B5.2", "B5.3", "B5.4", "B6.1", "B6.2", "B6.3", "B6.4", "B7.1", "B7.2", "B7.3",
    "B7.4", "B8.1", "B8.2", "B8.3", "B8.4", "B8.5", "B8.6", "B8.7", "B8.8", "B8.9", "B9.1", "B9.2",
    "B10.1", "B10.2", "B10.3", "B10.4", "B10.5", "B10.6", "B11.1", "B11.2", "B11.3", "B11.4",
    "B11.5", "B12.1", "B12.2", "B13.1", "B13.2", "B13.3",
];

/// The list above is the rules page's list (and B4), when the page is beside the
/// project.
#[test]
fn bfge_rule_list_matches_the_rules_of_record() {
    let Some(mut numbered) = numbered_rules("battles-for-the-galactic-empire.md", 'B') else {
        return;
    };
    numbered.push("B4".into());
    numbered.sort();
    let mut ours: Vec<String> = BFGE_RULES.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(numbered, ours);
}
