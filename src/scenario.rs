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
/// The text is read as a mail's is (`mail::incoming::normalise`: Unicode spaces and
/// dashes, arrows written `→`), so orders copied from a mail or a web page read the
/// same in a scenario as in the mail.
pub fn adjudicate_text(text: &str, dir: &Path) -> Result<String, ScenarioError> {
    let text = &crate::mail::incoming::normalise(text);
    let table: toml::Table = toml::from_str(text)
        .map_err(|e| ScenarioError::Toml(crate::toml_text::one_line(&e, text)))?;
    let rules = match table.get("rules").and_then(|v| v.as_str()) {
        Some(r) => r,
        None => match RuleSetId::for_untagged_scenario(&table) {
            Some(r) => r.id(),
            None => return Err(ScenarioError::NoRules),
        },
    };
    let rules =
        RuleSetId::from_id(rules).ok_or_else(|| ScenarioError::UnknownRules(rules.into()))?;
    // The file is valid TOML (read above): what a rule set's reader says of it is about
    // its content (an unknown key, a wrong value), not its syntax.
    // As the judge adjudicates (`Game::adjudicate`): large blocks on huge pages.
    crate::memory::large_pages(|| (rules.registration().adjudicate_scenario)(text, dir)).map_err(
        |e| match e {
            ScenarioError::Toml(message) => ScenarioError::Invalid(message),
            other => other,
        },
    )
}
