//! Dice anyone can check. A game without a fixed seed gets a secret when the judge
//! creates it: 32 random bytes. Everyone is mailed its commitment, the SHA-256 of the
//! secret's bytes, in the welcome mail; the secret itself is revealed in the game-over
//! mail, with the game's whole history (`history.json`: every phase's orders and
//! results). The dice seed is the first 8 bytes (big-endian) of
//! SHA-256(`"pbem dice seed\n"` ‖ secret bytes), and every die of a phase comes from
//! `pbem::dice::Dice::for_phase(seed, turn, phase)` (SplitMix64, written out in
//! `src/dice.rs`). `pbem verify-dice history.json` checks the commitment, then plays
//! the game again from its start with the recorded orders and compares every phase's
//! results, every die among them, with the recorded ones.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::rules::game::Game;
use crate::rules::RuleSetId;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A new secret (hex) and its commitment (hex).
pub fn new_secret() -> (String, String) {
    use rand_core::RngCore;
    let mut bytes = [0u8; 32];
    rand_core::OsRng.fill_bytes(&mut bytes);
    let secret = hex(&bytes);
    let commitment = commitment(&secret).expect("a fresh secret is hex");
    (secret, commitment)
}

/// The SHA-256 of a secret's bytes, as hex.
pub fn commitment(secret: &str) -> Option<String> {
    Some(hex(&Sha256::digest(unhex(secret)?)))
}

/// The dice seed a secret gives.
pub fn seed(secret: &str) -> Option<u64> {
    let mut h = Sha256::new();
    h.update(b"pbem dice seed\n");
    h.update(unhex(secret)?);
    let digest = h.finalize();
    Some(u64::from_be_bytes(digest[..8].try_into().expect("8 bytes")))
}

/// A game's whole history, as the game-over mail attaches it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct History {
    pub game: String,
    pub rules: String,
    /// The rule options, as in `games.toml` (JSON form of its TOML table).
    pub options: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<BTreeMap<String, Vec<String>>>,
    /// The SHA-256 mailed when the game began, and the secret revealed at its end; for
    /// a game with a fixed seed, the seed instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed_seed: Option<u64>,
    /// Set in a player's copy of a game with hidden information: whose view of the
    /// game it is (others' orders and secrets left out, so it cannot be played again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view_of: Option<String>,
    pub phases: Vec<HistoryPhase>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct HistoryPhase {
    pub turn: u32,
    pub phase: String,
    pub orders: BTreeMap<String, String>,
    /// The pbem that adjudicated the phase ([`crate::BUILD`]), when it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The game as it stood before the phase (its stored state, as JSON), kept where
    /// the build changed: the first phase a build adjudicated in a game that had played
    /// before. `verify-dice` takes the game up from it when the phases before it were
    /// another build's and do not play again here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<serde_json::Value>,
    /// The phase's results as `pbem adjudicate` prints them (plus `game`, `turn`,
    /// `phase`), whole.
    pub results: serde_json::Value,
}

/// Checks a history: the commitment, then every phase played again. The report of
/// what was checked, or the first thing that does not hold, or (when some phases were
/// recorded by other builds and do not play again here) what this build verified and
/// what it leaves to the builds that recorded the rest.
pub fn verify(h: &History) -> Result<String, String> {
    verify_as(h, crate::BUILD)
}

/// What became of one phase of a history played again.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Done {
    /// Played again as recorded.
    Played,
    /// Recorded by another build and not played again here (it played otherwise, or
    /// the phases before it were not played here).
    Left,
}

/// [`verify`] by the pbem named `build`: the phases it recorded itself must play
/// again as recorded. A phase another build recorded that plays otherwise is left to
/// that build (the rules may have changed between them), and so are the phases after
/// it, up to the next phase that kept the position it started from (the first phase a
/// build adjudicated after an upgrade, [`HistoryPhase::position`]): from there the game
/// is played again from that position. Where the phases before such a position were
/// played here, the position they reach must be the recorded one, so the builds' parts
/// join up.
pub fn verify_as(h: &History, build: &str) -> Result<String, String> {
    let seed = match (&h.secret, &h.commitment, h.fixed_seed) {
        (Some(secret), Some(commitment), _) => {
            let computed = commitment_of(secret)?;
            if &computed != commitment {
                return Err(format!(
                    "the commitment does not match the secret: SHA-256 of the secret is {computed}, the welcome mail said {commitment}"
                ));
            }
            seed(secret).ok_or("the secret is not hex")?
        }
        (None, _, Some(seed)) => seed,
        _ => {
            return Err(
                "the history has neither a revealed secret with its commitment nor a fixed seed"
                    .into(),
            )
        }
    };
    if let Some(who) = &h.view_of {
        return Ok(format!(
            "{}; this is {who}'s view of a game with hidden information, so its {} phases cannot be played again here: the moderator's copy can",
            if h.secret.is_some() {
                "the commitment matches the revealed secret"
            } else {
                "the game had a fixed seed"
            },
            h.phases.len()
        ));
    }
    let rules =
        RuleSetId::from_id(&h.rules).ok_or_else(|| format!("unknown rules {:?}", h.rules))?;
    let options: toml::Table = serde_json::from_value::<toml::Table>(h.options.clone())
        .map_err(|e| format!("options: {e}"))?;
    let mut game = Some(Game::new(rules, &options, h.start.as_ref(), seed)?);
    let mut dice = 0usize;
    let (mut worded, mut first_worded) = (0usize, None::<String>);
    let mut done: Vec<Done> = Vec::with_capacity(h.phases.len());
    // Notes told where a part of the report starts: why phases were left, or the
    // recorded position the game was taken up from.
    let mut notes: BTreeMap<usize, String> = BTreeMap::new();
    // The recorded positions that the phases before them reached here.
    let mut joined: Vec<usize> = Vec::new();
    for (k, p) in h.phases.iter().enumerate() {
        let recorder = p.by.as_deref().unwrap_or(UNNAMED);
        if let Some(position) = &p.position {
            match &game {
                Some(g) => {
                    let here = serde_json::to_value(g).map_err(|e| format!("position: {e}"))?;
                    if let Some(d) = position_difference(&here, position) {
                        return Err(format!(
                            "turn {} {}: the position recorded before this phase (by {recorder}) is \
                             not the one the phases before it reach when played again here \
                             (first at {d}): the history was changed after it was recorded",
                            p.turn, p.phase
                        ));
                    }
                    joined.push(k);
                }
                None => {
                    game = serde_json::from_value::<Game>(position.clone())
                        .ok()
                        .filter(|g| g.rules() == rules);
                    if game.is_some() {
                        notes.insert(
                            k,
                            format!(
                                "from the position {recorder} recorded before turn {} {} (not \
                                 checked: the phases before it were not played here)",
                                p.turn, p.phase
                            ),
                        );
                    }
                }
            }
        }
        let Some(g) = game.take() else {
            done.push(Done::Left);
            continue;
        };
        let label = g.label();
        let differs = if label.turn != p.turn || label.phase != p.phase {
            Some(format!(
                "phase {}: the history has turn {} {}, the game is at turn {} {}",
                k + 1,
                p.turn,
                p.phase,
                label.turn,
                label.phase
            ))
        } else {
            let adj = g.adjudicate(&p.orders, seed);
            let mut json = adj.results.json;
            if let serde_json::Value::Object(map) = &mut json {
                map.insert("game".into(), h.game.clone().into());
                map.insert("turn".into(), p.turn.into());
                map.insert("phase".into(), p.phase.clone().into());
            }
            let mut here = Vec::new();
            match first_difference(&json, &p.results, &mut here) {
                Some(d) => Some(format!(
                    "turn {} {}: the results played again differ from the recorded ones (first at {d})",
                    p.turn, p.phase
                )),
                None => {
                    if let (None, Some(first)) = (&first_worded, here.first()) {
                        first_worded = Some(format!("turn {} {}, {first}", p.turn, p.phase));
                    }
                    worded += here.len();
                    dice += count_dice(&json);
                    game = Some(adj.game);
                    None
                }
            }
        };
        match differs {
            None => done.push(Done::Played),
            Some(what) if p.by.as_deref() == Some(build) => {
                return Err(format!("{what}{}", builds_told(p.by.as_deref(), build)));
            }
            Some(what) => {
                notes.insert(k, format!("{what}{}", builds_told(p.by.as_deref(), build)));
                done.push(Done::Left);
            }
        }
    }
    if done.contains(&Done::Left) {
        return Err(parts_told(h, build, &done, &notes, &joined));
    }
    let mut report = format!(
        "verified: {} phases played again from the {}, {dice} dice among their results, all as recorded",
        h.phases.len(),
        if h.secret.is_some() {
            "revealed secret (its SHA-256 matches the commitment)"
        } else {
            "fixed seed"
        }
    );
    let mut recorders: Vec<&str> = Vec::new();
    for by in h.phases.iter().map(|p| p.by.as_deref().unwrap_or(UNNAMED)) {
        if !recorders.contains(&by) {
            recorders.push(by);
        }
    }
    if recorders.iter().any(|&by| by != build) {
        report += &format!(
            "; recorded by {}, played again by {build}",
            recorders.join(" then "),
        );
    }
    match joined.len() {
        0 => {}
        1 => report += "; the position recorded where the build changed is the one reached here",
        n => {
            report += &format!(
                "; the {n} positions recorded where the build changed are the ones reached here"
            )
        }
    }
    if let Some(first) = first_worded {
        report += &format!(
            "; {worded} {} worded otherwise by this pbem than by the one that recorded the \
             game (first at {first}): words only, every die, order, outcome and position is \
             as recorded",
            if worded == 1 { "text is" } else { "texts are" }
        );
    }
    Ok(report)
}

/// The report of a history verified in part: each run of phases played again as
/// recorded, or left to the builds that recorded them, a line each.
fn parts_told(
    h: &History,
    build: &str,
    done: &[Done],
    notes: &BTreeMap<usize, String>,
    joined: &[usize],
) -> String {
    let played = done.iter().filter(|&&d| d == Done::Played).count();
    let mut out = format!(
        "not verified whole by {build}: {played} of {} phases played again as recorded, \
         the others recorded by other builds and left to them",
        h.phases.len()
    );
    let label = |k: usize| format!("turn {} {}", h.phases[k].turn, h.phases[k].phase);
    let mut k = 0;
    while k < done.len() {
        // A run: the same outcome, not broken where a recorded position was taken up.
        let mut end = k + 1;
        while end < done.len()
            && done[end] == done[k]
            && !(done[k] == Done::Played && notes.contains_key(&end))
        {
            end += 1;
        }
        let span = if end - k == 1 {
            label(k)
        } else {
            format!("{} to {}", label(k), label(end - 1))
        };
        let count = if end - k == 1 {
            "1 phase".to_string()
        } else {
            format!("{} phases", end - k)
        };
        match done[k] {
            Done::Played => {
                let from = notes
                    .get(&k)
                    .cloned()
                    .unwrap_or_else(|| "from the game's start".into());
                out += &format!("\n- {span}: {count} played again as recorded, {from}");
                if let Some(&j) = joined.iter().find(|&&j| j > k && j <= end) {
                    out += &format!(
                        "; they reach the position {} recorded before {}",
                        h.phases[j].by.as_deref().unwrap_or(UNNAMED),
                        label(j)
                    );
                }
            }
            Done::Left => {
                let mut by: Vec<&str> = Vec::new();
                for p in &h.phases[k..end] {
                    let b = p.by.as_deref().unwrap_or(UNNAMED);
                    if !by.contains(&b) {
                        by.push(b);
                    }
                }
                out += &format!(
                    "\n- {span}: {count} recorded by {}, not played again here: {}",
                    by.join(" then "),
                    notes.get(&k).cloned().unwrap_or_else(|| {
                        "the phases before them were not played here, and no position was \
                         recorded where they begin"
                            .into()
                    })
                );
            }
        }
        k = end;
    }
    out
}

/// Where a position played again (`a`) and a recorded one (`b`) first disagree; a
/// field either build keeps and the other does not is no disagreement (one may be
/// newer), nor are words for people worded otherwise.
fn position_difference(a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    let ab = first_difference(a, b, &mut Vec::new());
    ab.as_ref()?;
    first_difference(b, a, &mut Vec::new()).and(ab)
}

/// How a phase recorded before builds were named is told.
const UNNAMED: &str = "a pbem that did not name its build";

/// For a phase that does not play again as recorded: which build recorded it and which
/// plays it again. A difference between two builds may be a change in the rules (a
/// fixed bug); between a build and itself it is a change in the history or the secret.
fn builds_told(recorded: Option<&str>, build: &str) -> String {
    match recorded {
        Some(by) if by == build => {
            format!("; the phase was recorded by this same build, {by}")
        }
        recorded => format!(
            "; the phase was recorded by {} and is played again by {build}: if the rules \
             changed between them, the recording build verifies it as it was played",
            recorded.unwrap_or(UNNAMED),
        ),
    }
}

fn commitment_of(secret: &str) -> Result<String, String> {
    commitment(secret).ok_or_else(|| "the secret is not hex".into())
}

/// The keys whose strings are words for people (a result's `detail`, an event's
/// `text`, why a fleet was destroyed, a list of event lines): a later pbem may word
/// them otherwise from the same dice, orders and outcomes.
const PROSE: &[&str] = &["detail", "text", "why", "reason", "events"];

/// Where the results played again (`a`) first disagree with the recorded ones (`b`),
/// as a path; `None` when every recorded value is played again alike. A field only
/// the results played again have is no disagreement: a later pbem may tell more of a
/// phase (War!'s dice by kind, for one) than the pbem that recorded it, from the same
/// dice. A recorded field the results played again lack is one. Strings under a
/// [`PROSE`] key that differ are no disagreement either: their paths go to `worded`.
fn first_difference(
    a: &serde_json::Value,
    b: &serde_json::Value,
    worded: &mut Vec<String>,
) -> Option<String> {
    differ(a, b, false, "", worded)
}

fn differ(
    a: &serde_json::Value,
    b: &serde_json::Value,
    prose: bool,
    path: &str,
    worded: &mut Vec<String>,
) -> Option<String> {
    use serde_json::Value;
    let at = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, w) in y {
                match x.get(k) {
                    None => return Some(at(k)),
                    Some(v) => {
                        let prose = PROSE.contains(&k.as_str());
                        if let Some(d) = differ(v, w, prose, &at(k), worded) {
                            return Some(d);
                        }
                    }
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                if let Some(d) = differ(v, w, prose, &at(&format!("[{i}]")), worded) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(|| at(&format!("[{}]", x.len().min(y.len()))))
        }
        (Value::String(x), Value::String(y)) if prose && x != y => {
            worded.push(path.to_string());
            None
        }
        _ => (a != b).then(|| at("here")),
    }
}

/// How many dice a phase's results report (entries of any array named `dice` or
/// `rolls`), for the report.
fn count_dice(v: &serde_json::Value) -> usize {
    use serde_json::Value;
    match v {
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| match (k.as_str(), v) {
                ("dice" | "rolls", Value::Array(a)) => {
                    a.len() + a.iter().map(count_dice).sum::<usize>()
                }
                // The same dice again, grouped (War!'s battle rounds).
                ("by_kind", _) => 0,
                _ => count_dice(v),
            })
            .sum(),
        Value::Array(a) => a.iter().map(count_dice).sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_and_the_seed_follow_the_documented_functions() {
        let secret = "00".repeat(32);
        // SHA-256 of 32 zero bytes.
        assert_eq!(
            commitment(&secret).unwrap(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(seed(&secret), seed(&secret));
        assert_ne!(seed(&secret), seed(&"01".repeat(32)));
        let (s, c) = new_secret();
        assert_eq!(commitment(&s).unwrap(), c);
        assert_eq!(unhex("zz"), None);
    }

    #[test]
    fn results_played_again_may_tell_more_than_was_recorded_but_not_less_or_else() {
        let recorded = serde_json::json!({"rounds": [{"rolls": [3, 5], "hits": 1}]});
        let more = serde_json::json!(
            {"rounds": [{"rolls": [3, 5], "hits": 1, "by_kind": [{"rolls": [3, 5]}]}]}
        );
        let mut worded = Vec::new();
        let mut first_difference = |a: &serde_json::Value, b: &serde_json::Value| {
            super::first_difference(a, b, &mut worded)
        };
        assert_eq!(first_difference(&more, &recorded), None);
        let other = serde_json::json!({"rounds": [{"rolls": [3, 6], "hits": 1}]});
        assert_eq!(
            first_difference(&other, &recorded).as_deref(),
            Some("rounds.[0].rolls.[1].here")
        );
        let less = serde_json::json!({"rounds": [{"rolls": [3, 5]}]});
        assert_eq!(
            first_difference(&less, &recorded).as_deref(),
            Some("rounds.[0].hits")
        );
        let fewer = serde_json::json!({"rounds": []});
        assert_eq!(
            first_difference(&fewer, &recorded).as_deref(),
            Some("rounds.[0]")
        );
        // The grouped dice are not counted twice.
        assert_eq!(count_dice(&more), 2);
        assert!(worded.is_empty());
    }

    /// Words for people may change from one pbem to the next; the dice, orders,
    /// outcomes and positions may not. A recorded detail, event text or event line
    /// worded otherwise is told, not a failure; the same change to any other string
    /// (an outcome, a die's target) is a difference.
    #[test]
    fn results_worded_otherwise_still_verify_but_other_strings_do_not() {
        let recorded = serde_json::json!({
            "results": [{"outcome": "done", "detail": "1SF return to its display"}],
            "events": [{"step": "B8.7", "text": "red's 1SF return"}, "AUS leaves 1 build"],
            "dice": [{"die": 4, "target": "SF"}],
        });
        let again = serde_json::json!({
            "results": [{"outcome": "done", "detail": "1SF returns to its display"}],
            "events": [{"step": "B8.7", "text": "red's 1SF returns"}, "AUS leaves 1 build unused"],
            "dice": [{"die": 4, "target": "SF"}],
        });
        let mut worded = Vec::new();
        assert_eq!(first_difference(&again, &recorded, &mut worded), None);
        assert_eq!(
            worded,
            ["results.[0].detail", "events.[0].text", "events.[1]"]
        );
        let mut outcome = again.clone();
        outcome["results"][0]["outcome"] = "failed".into();
        assert_eq!(
            first_difference(&outcome, &recorded, &mut Vec::new()).as_deref(),
            Some("results.[0].outcome.here")
        );
        let mut target = again.clone();
        target["dice"][0]["target"] = "CG".into();
        assert_eq!(
            first_difference(&target, &recorded, &mut Vec::new()).as_deref(),
            Some("dice.[0].target.here")
        );
        let mut step = again;
        step["events"][0]["step"] = "B8.6".into();
        assert_eq!(
            first_difference(&step, &recorded, &mut Vec::new()).as_deref(),
            Some("events.[0].step.here")
        );
    }
}
