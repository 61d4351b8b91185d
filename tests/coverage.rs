//! Every numbered rule of the rules of record has at least one test named after it
//! (`r6_3_…`): a case file under `tests/cases/` or a test function.

use std::path::Path;

/// The numbered rules of `../shared/rules/foundation-and-empire.md`.
const RULES: &[&str] = &[
    "R1.1", "R1.2", "R1.3", "R1.4", "R1.5", "R3.1", "R3.2", "R3.3", "R3.4", "R3.5", "R4.1", "R4.2",
    "R4.3", "R5.1", "R5.2", "R5.3", "R5.4", "R5.5", "R5.6", "R6.1", "R6.2", "R6.3", "R6.4", "R7.1",
    "R7.2", "R7.3", "R8.1", "R8.2", "R8.3", "R8.4", "R8.5", "R8.6", "R9.1", "R9.2", "R9.3",
    "R10.1", "R10.2", "R10.3", "R10.4", "R10.5", "R10.6",
];

/// The numbered rules of `../shared/rules/godsfire.md`, and G3, which has no sub-rules.
const GODSFIRE_RULES: &[&str] = &[
    "G1.1", "G1.2", "G1.3", "G1.4", "G1.5", "G2.1", "G2.2", "G2.3", "G3", "G4.1", "G4.2", "G4.3",
    "G4.4", "G4.5", "G4.6", "G4.7", "G4.8", "G5.1", "G5.2", "G5.3", "G5.4", "G5.5", "G5.6", "G5.7",
    "G5.8", "G5.9", "G6.1", "G6.2", "G6.3", "G6.4", "G6.5", "G7.1", "G7.2", "G7.3", "G7.4", "G7.5",
    "G7.6", "G7.7", "G8.1", "G8.2", "G9.1", "G9.2", "G9.3", "G10.1", "G10.2", "G11.1", "G11.2",
    "G11.3",
];

pub fn test_names(root: &Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![root.join("tests"), root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                names.push(path.file_stem().unwrap().to_string_lossy().into_owned());
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for line in text.lines() {
                    if let Some(rest) = line.trim_start().strip_prefix("fn ") {
                        names.push(rest.split('(').next().unwrap().to_string());
                    }
                }
            }
        }
    }
    names
}

#[test]
fn every_numbered_rule_has_a_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names = test_names(root);
    let missing: Vec<&str> = RULES
        .iter()
        .chain(GODSFIRE_RULES)
        .copied()
        .filter(|rule| {
            let prefix = format!("{}_", rule.to_lowercase().replace('.', "_"));
            !names.iter().any(|n| n.starts_with(&prefix))
        })
        .collect();
    assert!(missing.is_empty(), "rules without a test: {missing:?}");
}

/// The numbered rules (`- R6.3 …`) of a rules page beside the project, if it is there.
pub fn numbered_rules(page: &str, letter: char) -> Option<Vec<String>> {
    let page = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/rules")
        .join(page);
    let Ok(text) = std::fs::read_to_string(&page) else {
        eprintln!("{page:?} not found: list not compared");
        return None;
    };
    let mut numbered: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with(letter) && w[1..].contains('.'))
        .map(str::to_string)
        .collect();
    numbered.sort();
    Some(numbered)
}

/// The list above is the rules page's list, when the page is beside the project.
#[test]
fn rule_list_matches_the_rules_of_record() {
    let Some(numbered) = numbered_rules("foundation-and-empire.md", 'R') else {
        return;
    };
    let mut ours: Vec<String> = RULES.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(numbered, ours);
}

#[test]
fn the_six_examples_of_section_11_are_cases() {
    let names = test_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    for k in 1..=6 {
        let prefix = format!("ex11_{k}_");
        assert!(names.iter().any(|n| n.starts_with(&prefix)), "example {k}");
    }
}

/// The Godsfire list above is the rules page's list, G4 and G5 included.
#[test]
fn godsfire_rule_list_matches_the_rules_of_record() {
    let Some(mut numbered) = numbered_rules("godsfire.md", 'G') else {
        return;
    };
    numbered.push("G3".into());
    numbered.sort();
    let mut ours: Vec<String> = GODSFIRE_RULES.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(numbered, ours);
}
