//! Standing battle instructions (B8.9) and Repression (B7.4), as a power wrote them
//! among its actions, with their defaults (B13.1).

use super::check::Entry;
use super::outcome::{Log, Outcome};
use super::syntax::{Disengage, GarrisonRule, Order};
use super::types::{Chit, Kind, Segment};

/// Index of the `ALL` line in the per-region tables.
const ALL: usize = 6;

/// A standing instruction and the line that set it.
type Set<T> = Option<(usize, T)>;

/// One power's standing instructions. Each slot holds the line that set it.
#[derive(Clone, Debug, Default)]
pub struct Instructions {
    target: [[Set<Vec<Kind>>; 2]; 7],
    disengage: [Set<Disengage>; 7],
    pursue: [Set<bool>; 7],
    garrison: [Set<GarrisonRule>; 7],
    losses: Set<Vec<Kind>>,
    /// `REPRESS` lines: the line and the chit (none: ANY).
    pub represses: Vec<(usize, Option<Chit>)>,
}

fn slot(region: Option<u8>) -> usize {
    region.map(usize::from).unwrap_or(ALL)
}

/// Sets a slot; the line it held before is replaced (B8.9).
fn set<T>(log: &mut Log, place: &mut Option<(usize, T)>, line: usize, value: T) {
    if let Some((old, _)) = place.replace((line, value)) {
        log.settle(old, Outcome::Noted, "replaced by a later line");
    }
    log.settle(line, Outcome::Noted, "standing instruction");
}

impl Instructions {
    /// The standing instructions and REPRESS lines among a power's orders (its
    /// actions are left to the caller).
    pub fn read(entries: &[Entry], log: &mut Log) -> Instructions {
        let mut s = Instructions::default();
        for e in entries {
            match &e.order {
                Order::Target {
                    region,
                    segment,
                    kinds,
                } => set(
                    log,
                    &mut s.target[slot(*region)][segment.index()],
                    e.line,
                    kinds.clone(),
                ),
                Order::Disengage { region, rule } => {
                    set(log, &mut s.disengage[slot(*region)], e.line, *rule)
                }
                Order::Pursue { region, yes } => {
                    set(log, &mut s.pursue[slot(*region)], e.line, *yes)
                }
                Order::Garrison { region, rule } => {
                    set(log, &mut s.garrison[slot(*region)], e.line, rule.clone())
                }
                Order::Losses(kinds) => set(log, &mut s.losses, e.line, kinds.clone()),
                Order::Repress(c) => {
                    s.represses.push((e.line, *c));
                    log.settle(e.line, Outcome::Noted, "cancelled nothing");
                }
                _ => {}
            }
        }
        s
    }

    fn pick<T: Clone>(table: &[Option<(usize, T)>; 7], region: u8) -> Option<T> {
        table[usize::from(region)]
            .as_ref()
            .or(table[ALL].as_ref())
            .map(|(_, v)| v.clone())
    }

    /// The target priority for a segment in a region: the listed types first, the
    /// rest in the default order.
    pub fn target_order(&self, region: u8, segment: Segment) -> Vec<Kind> {
        let listed = self.target[usize::from(region)][segment.index()]
            .as_ref()
            .or(self.target[ALL][segment.index()].as_ref())
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let default = match segment {
            Segment::Military => Kind::TARGET_MILITARY,
            Segment::Morph => Kind::TARGET_MORPH,
        };
        complete(listed, &default)
    }

    pub fn disengage(&self, region: u8) -> Disengage {
        Self::pick(&self.disengage, region).unwrap_or(Disengage::Never)
    }

    pub fn pursue(&self, region: u8) -> bool {
        Self::pick(&self.pursue, region).unwrap_or(true)
    }

    pub fn garrison(&self, region: u8) -> GarrisonRule {
        Self::pick(&self.garrison, region).unwrap_or(GarrisonRule::Min)
    }

    /// The order of losses to pursuit fire: listed types first, the rest in the
    /// default order (B8.7).
    pub fn losses(&self) -> Vec<Kind> {
        let listed = self
            .losses
            .as_ref()
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        complete(listed, &Kind::LOSSES)
    }
}

fn complete(mut listed: Vec<Kind>, default: &[Kind; 6]) -> Vec<Kind> {
    for k in default {
        if !listed.contains(k) {
            listed.push(*k);
        }
    }
    listed
}
