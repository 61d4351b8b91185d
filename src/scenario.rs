//! `pbem adjudicate`: a scenario file in, the phase's results as JSON out
//! (`../shared/specs/scenario-format.md`). The file's `rules` key picks the rule set.

use std::path::Path;

use crate::rules::foundation_empire::{self, scenario::Scenario};
use crate::rules::godsfire;
use crate::rules::RuleSetId;

/// Why a scenario could not be adjudicated. Invalid *orders* are never errors: they
/// are results.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
    #[error("not valid TOML: {0}")]
    Toml(String),
    #[error("no `rules` key naming the rule set")]
    NoRules,
    #[error("unknown rule set {0:?} (known: {known})", known = known_rules())]
    UnknownRules(String),
    #[error("{0}")]
    Invalid(String),
}

fn known_rules() -> String {
    RuleSetId::ALL.map(|r| r.id()).join(", ")
}

/// Adjudicates the scenario in a file and returns the JSON to print.
pub fn adjudicate_file(path: &Path) -> Result<String, ScenarioError> {
    let text = std::fs::read_to_string(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    adjudicate_text(&text, dir)
}

/// Adjudicates a scenario given as text; `dir` is where files it names are found.
pub fn adjudicate_text(text: &str, dir: &Path) -> Result<String, ScenarioError> {
    let table: toml::Table = toml::from_str(text)
        .map_err(|e| ScenarioError::Toml(crate::toml_text::one_line(&e, text)))?;
    let rules = table
        .get("rules")
        .and_then(|v| v.as_str())
        .ok_or(ScenarioError::NoRules)?;
    match RuleSetId::from_id(rules).ok_or_else(|| ScenarioError::UnknownRules(rules.into()))? {
        RuleSetId::FoundationEmpire => {
            let s = Scenario::from_toml(text, dir)?;
            let (after, report) = foundation_empire::adjudicate(&s.state, &s.orders, s.seed);
            Ok(foundation_empire::scenario::output_json(
                &s.state, &after, &report,
            ))
        }
        RuleSetId::Godsfire => {
            let s =
                godsfire::scenario::Scenario::from_toml(text).map_err(ScenarioError::Invalid)?;
            let (after, log) = godsfire::adjudicate(&s.state, &s.orders, s.seed);
            Ok(godsfire::scenario::output_json(&s.state, &after, &log))
        }
    }
}
