//! What an adjudication reports (W10): a result for every order line, every event with
//! its rule, every battle round by round, every die with its purpose and source, and
//! the draft's picks. [`Roller`] throws the dice: a scenario's listed rolls first, then
//! the game's seed.

use std::collections::BTreeMap;

use serde::Serialize;

use super::state::Roll;
use crate::dice::Dice;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Done,
    Failed,
    Invalid,
    Noted,
}

impl Outcome {
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Done => "done",
            Outcome::Failed => "failed",
            Outcome::Invalid => "invalid",
            Outcome::Noted => "noted",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineResult {
    pub player: String,
    pub line: u32,
    pub order: String,
    pub outcome: Outcome,
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub step: &'static str,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

impl Event {
    pub fn new(step: &'static str, text: impl Into<String>) -> Event {
        Event {
            step,
            text: text.into(),
            player: None,
            region: None,
        }
    }

    pub fn player(mut self, p: impl Into<String>) -> Event {
        self.player = Some(p.into());
        self
    }

    pub fn region(mut self, r: impl Into<String>) -> Event {
        self.region = Some(r.into());
        self
    }
}

/// Two sides' values.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sides<T> {
    pub attacker: T,
    pub defender: T,
}

impl<T> Sides<Option<T>> {
    /// Neither side has one.
    pub fn neither(&self) -> bool {
        self.attacker.is_none() && self.defender.is_none()
    }
}

/// A side's brigades that do not roll in a round, and why (W6.6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SatOut {
    /// By kind, e.g. `{"INF": 2}`.
    pub units: BTreeMap<&'static str, u32>,
    /// `retreated_in`: they retreated into the region this phase, before its battle,
    /// and sit out its first round; `retreating_onto_fleets`: they are retreating onto
    /// their fleets, and in this extra round only the enemy rolls.
    pub why: &'static str,
}

/// The dice of one side's brigades of a kind in a round (its fleets in a naval
/// battle), with the unit DRMs they rolled with (W6.2, W11.4): each die adds the side's
/// DRM, `unit_drm` and `landed_drm`. Brigades landed from fleets this phase are a group
/// of their own while the landing counts (rounds 1 and 2).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KindDice {
    pub kind: &'static str,
    /// The kind's own DRM: CAV +1, ART +2, else 0.
    pub unit_drm: i32,
    /// Landed from fleets this phase: -2 in round 1, -1 in round 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub landed_drm: Option<i32>,
    pub rolls: Vec<u32>,
}

/// Adds a die to the last group if it is of the same kind and DRMs, else starts one.
pub fn add_die(
    groups: &mut Vec<KindDice>,
    kind: &'static str,
    unit_drm: i32,
    landed_drm: Option<i32>,
    die: u32,
) {
    match groups.last_mut() {
        Some(g) if g.kind == kind && g.unit_drm == unit_drm && g.landed_drm == landed_drm => {
            g.rolls.push(die)
        }
        _ => groups.push(KindDice {
            kind,
            unit_drm,
            landed_drm,
            rolls: vec![die],
        }),
    }
}

/// The dice of a side's groups, in the order they were rolled.
pub fn all_rolls(groups: &[KindDice]) -> Vec<u32> {
    groups
        .iter()
        .flat_map(|g| g.rolls.iter().copied())
        .collect()
}

/// One part of a side's DRM in a round (W6.3, W11.4; W6.8 at sea): the side's DRM is
/// the sum of its parts, so a player can check it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrmPart {
    /// What adds it: `general` (+1), `schools` (+1 per two, at most +2), `fort`
    /// (attacking one, -2), `set_to_0` (the side was below 0), `from_other_side` (the
    /// other side was below 0 and was set to 0: this side gains as much), `transfer`
    /// (the only general's, W6.3); at sea `port` (+1).
    pub part: &'static str,
    pub drm: i32,
    /// For `schools`: how many schools the side's player controls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
}

impl DrmPart {
    pub fn new(part: &'static str, drm: i32) -> DrmPart {
        DrmPart {
            part,
            drm,
            count: None,
        }
    }
}

/// A side's DRM: the sum of its parts.
pub fn drm_total(parts: &[DrmPart]) -> i32 {
    parts.iter().map(|p| p.drm).sum()
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BattleRound {
    pub drm: Sides<i32>,
    /// Each side's DRM part by part (none for a DRM of 0 with nothing in it); the
    /// parts add up to `drm`.
    pub drm_parts: Sides<Vec<DrmPart>>,
    pub hits: Sides<u32>,
    pub losses: Sides<BTreeMap<&'static str, u32>>,
    /// Every die of the round, side by side (modified rolls are in `dice`).
    pub rolls: Sides<Vec<u32>>,
    /// The same dice by kind, with each kind's unit DRMs: what a player needs to
    /// check the hits.
    pub by_kind: Sides<Vec<KindDice>>,
    /// Each side's brigades that did not roll in the round, and why (W6.6); left out
    /// when every brigade rolled.
    #[serde(skip_serializing_if = "Sides::neither")]
    pub sat_out: Sides<Option<SatOut>>,
    /// An extra round on units retreating onto fleets: only one side rolls (W6.6).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub extra: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BattleReport {
    pub kind: &'static str,
    pub at: String,
    pub attacker: String,
    pub defender: String,
    pub revolt: bool,
    pub rounds: Vec<BattleRound>,
    pub winner: String,
    /// How it ended, in words (retreats, break-offs).
    pub end: String,
    /// The index in the log's events of the battle's own event: the mails tell its
    /// rounds right after it, before what followed from it (retreats, conquest).
    #[serde(skip)]
    pub event: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pick {
    pub player: String,
    pub region: String,
    pub round: u32,
    pub how: &'static str,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Log {
    pub results: Vec<LineResult>,
    pub events: Vec<Event>,
    pub battles: Vec<BattleReport>,
    pub dice: Vec<Roll>,
    pub picks: Vec<Pick>,
}

impl Log {
    pub fn event(&mut self, e: Event) {
        self.events.push(e);
    }
}

/// The dice of one phase: the listed rolls first (a scenario's `dice`), then the
/// seed's stream for the phase (W10.1).
pub struct Roller {
    dice: Dice,
    listed: Vec<u32>,
    next: usize,
}

impl Roller {
    pub fn new(seed: u64, turn: u32, label: &str, listed: &[u32]) -> Roller {
        Roller {
            dice: Dice::for_phase(seed, turn, label),
            listed: listed.to_vec(),
            next: 0,
        }
    }

    /// One die, recorded with its rule and purpose.
    pub fn d6(&mut self, log: &mut Log, step: &'static str, subject: impl Into<String>) -> u32 {
        let (roll, source) = if self.next < self.listed.len() {
            self.next += 1;
            (self.listed[self.next - 1], "list")
        } else {
            (u32::from(self.dice.d6()), "seed")
        };
        log.dice.push(Roll {
            step: step.to_string(),
            subject: subject.into(),
            roll,
            source: source.to_string(),
        });
        roll
    }

    /// 1d3: 1d6 halved, rounded up (W10.1).
    pub fn d3(&mut self, log: &mut Log, step: &'static str, subject: impl Into<String>) -> u32 {
        self.d6(log, step, subject).div_ceil(2)
    }
}
