//! `pbem adjudicate`: a scenario file in, the phase's results as JSON out
//! (`../shared/specs/scenario-format.md`). The file's `rules` key picks the rule set;
//! each rule set reads the rest of the file itself.

use std::path::Path;

use crate::rules::RuleSetId;
pub use crate::rules::ScenarioError;

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
    // A file without `rules` whose phase is written like Diplomacy's (`S1901M`), as the
    // DATC case files are, is a Diplomacy scenario (../shared/specs/diplomacy-scenario.md).
    let datc_phase = table
        .get("phase")
        .and_then(|v| v.as_str())
        .is_some_and(|p| crate::rules::diplomacy::state::Phase::parse(p).is_some());
    let rules = match table.get("rules").and_then(|v| v.as_str()) {
        Some(r) => r,
        None if datc_phase => "diplomacy",
        None => return Err(ScenarioError::NoRules),
    };
    let rules =
        RuleSetId::from_id(rules).ok_or_else(|| ScenarioError::UnknownRules(rules.into()))?;
    // The file is valid TOML (read above): what a rule set's reader says of it is about
    // its content (an unknown key, a wrong value), not its syntax.
    (rules.registration().adjudicate_scenario)(text, dir).map_err(|e| match e {
        ScenarioError::Toml(message) => ScenarioError::Invalid(message),
        other => other,
    })
}
