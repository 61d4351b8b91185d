//! `pbem adjudicate SCENARIO --png FILE`: the picture of a scenario's phase, drawn as
//! the judge would draw it for a moderator after adjudicating it.
//!
//! Each rule set that draws pictures gives a `scenario_picture(text, dir)` in its
//! `picture.rs`; add its arm to [`picture`] below.

use std::path::Path;

use super::Svg;
use crate::rules::{RuleSetId, ScenarioError};

/// The picture of the scenario in a file, after its phase is adjudicated.
pub fn picture_of_file(path: &Path) -> Result<Svg, ScenarioError> {
    let text = std::fs::read_to_string(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    picture(&text, dir)
}

/// The picture of a scenario given as text (files it names are found in `dir`).
pub fn picture(text: &str, dir: &Path) -> Result<Svg, ScenarioError> {
    let table: toml::Table = toml::from_str(text)
        .map_err(|e| ScenarioError::Toml(crate::toml_text::one_line(&e, text)))?;
    let id = table
        .get("rules")
        .and_then(|v| v.as_str())
        .ok_or(ScenarioError::NoRules)?;
    let rules = RuleSetId::from_id(id).ok_or_else(|| ScenarioError::UnknownRules(id.into()))?;
    match rules {
        RuleSetId::FoundationEmpire => {
            crate::rules::foundation_empire::picture::scenario_picture(text, dir)
        }
        RuleSetId::Godsfire => crate::rules::godsfire::picture::scenario_picture(text, dir),
        RuleSetId::Diplomacy => crate::rules::diplomacy::picture::scenario_picture(text),
        RuleSetId::BattlesGalacticEmpire => {
            crate::rules::battles_galactic_empire::picture::scenario_picture(text)
        }
        RuleSetId::FoundationHjelmberg => {
            crate::rules::foundation_hjelmberg::picture::scenario_picture(text, dir)
        }
        RuleSetId::WarImperialism => {
            crate::rules::war_imperialism::picture::scenario_picture(text, dir)
        }
    }
}

/// Writes the picture of a scenario's phase to `png` (for `pbem adjudicate --png`).
pub fn write_png(scenario: &Path, png: &Path) -> Result<(), String> {
    let svg = picture_of_file(scenario).map_err(|e| format!("{}: {e}", scenario.display()))?;
    let bytes = svg.to_png().map_err(|e| e.to_string())?;
    std::fs::write(png, bytes).map_err(|e| format!("{}: {e}", png.display()))
}
