//! What adjudication says happened: one result per order line and per fleet, the
//! reasons an order was refused (a closed set, told in plain words), and the report.

use std::fmt;

use super::board::{Board, PowerId, Sector, SystemId};
use std::num::NonZeroU32;

use super::resolve::Act;

/// What became of an order (the `outcome` of the scenario output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    Moved,
    Held,
    Supported,
    Bounced,
    Dislodged,
    Retreated,
    Destroyed,
    Placed,
    Invalid,
}

impl Outcome {
    pub fn id(self) -> &'static str {
        match self {
            Outcome::Moved => "moved",
            Outcome::Held => "held",
            Outcome::Supported => "supported",
            Outcome::Bounced => "bounced",
            Outcome::Dislodged => "dislodged",
            Outcome::Retreated => "retreated",
            Outcome::Destroyed => "destroyed",
            Outcome::Placed => "placed",
            Outcome::Invalid => "invalid",
        }
    }
}

/// Why an order line was not accepted (R3.3). Sector and system names are kept as the
/// player will read them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Invalid {
    /// The line does not read as an order; the text says what was expected.
    Unparseable(String),
    /// The line has an order's shape, but its first word is neither an order word nor a
    /// sector or system of the board: chatter (`Thanks - Preem`), not an order.
    NotAnOrder(String),
    UnknownSector(String),
    OffBoard(String),
    NoFleet(String),
    ForeignFleet {
        at: String,
        owner: String,
    },
    NotAdjacent {
        from: String,
        to: String,
    },
    SameSector(String),
    /// An order of another phase's kind, e.g. a retreat during movement.
    WrongPhase {
        order: &'static str,
        phase: &'static str,
    },
    /// A later valid order for the same fleet or system took its place (R3.1).
    Replaced,
    /// In a solo game the judge writes the Imperium's orders (R10.2).
    JudgePlays,
    /// This power owes no orders in this phase.
    NothingOwed {
        phase: &'static str,
    },
    NotDislodged(String),
    RetreatOccupied(String),
    RetreatToAttackerOrigin(String),
    RetreatToStandoff(String),
    NotMajorSystem(String),
    NotInHomeQuadrant(String),
    AlreadyChosen(String),
    TooManyFleets(u32),
    NoPendingPlacement(String),
    /// A bare sector next to no system that owes the power a fleet; `systems` are
    /// those that do (R8.4).
    NotNearPending {
        at: String,
        systems: Vec<String>,
    },
    NotNextToSystem {
        at: String,
        system: String,
    },
    /// A placement naming, as its sector, the system that owes the fleet (R8.4: the
    /// fleet goes next to it); `example` is an empty sector next to it, if any.
    PlaceOnTheSystem {
        system: String,
        at: String,
        example: Option<String>,
    },
    SectorOccupied(String),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Unparseable(why) => write!(f, "not understood: {why}"),
            Invalid::NotAnOrder(t) => {
                write!(f, "{t:?} is not a sector, a major system or an order word")
            }
            Invalid::UnknownSector(t) => {
                write!(f, "{t:?} is neither a sector nor a major system")
            }
            Invalid::OffBoard(t) => write!(f, "{t} is off the board"),
            Invalid::NoFleet(s) => write!(f, "there is no fleet in {s}"),
            Invalid::ForeignFleet { at, owner } => {
                write!(f, "the fleet in {at} belongs to {owner}")
            }
            Invalid::NotAdjacent { from, to } => {
                write!(
                    f,
                    "{to} is not next to {from}: fleets move one sector a turn"
                )
            }
            Invalid::SameSector(s) => write!(f, "a fleet in {s} cannot move to {s}"),
            Invalid::WrongPhase { order, phase } => {
                write!(f, "{order} orders are not taken in the {phase} phase")
            }
            Invalid::Replaced => write!(f, "replaced by a later order for the same fleet"),
            Invalid::JudgePlays => {
                write!(f, "in a solo game the judge gives the Imperium's orders")
            }
            Invalid::NothingOwed { phase } => {
                write!(f, "your power has no orders to give in the {phase} phase")
            }
            Invalid::NotDislodged(s) => write!(f, "no fleet of yours was dislodged from {s}"),
            Invalid::RetreatOccupied(s) => write!(f, "{s} is occupied"),
            Invalid::RetreatToAttackerOrigin(s) => {
                write!(f, "{s} is where the attacker came from")
            }
            Invalid::RetreatToStandoff(s) => {
                write!(f, "{s} was left empty by a stand-off this turn")
            }
            Invalid::NotMajorSystem(s) => write!(f, "{s} is not a major system"),
            Invalid::NotInHomeQuadrant(s) => write!(f, "{s} is not in your home quadrant"),
            Invalid::AlreadyChosen(s) => write!(f, "{s} is already chosen"),
            Invalid::TooManyFleets(n) => write!(f, "you have only {n} fleets to place"),
            Invalid::NoPendingPlacement(s) => {
                write!(f, "{s} owes you no new fleet this turn")
            }
            Invalid::NotNearPending { at, systems } if systems.is_empty() => {
                write!(f, "{at}: your power has no new fleet to place")
            }
            Invalid::NotNearPending { at, systems } => write!(
                f,
                "{at} is next to no system that owes you a new fleet; place next to {}",
                systems.join(" or ")
            ),
            Invalid::NotNextToSystem { at, system } => {
                write!(f, "{at} is not next to {system}")
            }
            Invalid::PlaceOnTheSystem {
                system,
                at,
                example,
            } => {
                write!(
                    f,
                    "{system} ({at}) is the system itself: its new fleet goes on an empty sector next to it"
                )?;
                match example {
                    Some(e) => write!(f, ", e.g. PLACE {system} {e}"),
                    None => write!(f, " (none is empty)"),
                }
            }
            Invalid::SectorOccupied(s) => write!(f, "{s} is occupied"),
        }
    }
}

/// The result of one order line, or of one fleet's default order.
///
/// Results are structured (sectors, powers, strengths, reasons); their text is
/// rendered at the edge by [`OrderResult::order_text`] and [`OrderResult::detail_text`],
/// so adjudication itself builds no strings for the fleets it resolves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderResult {
    pub power: PowerId,
    /// The sector the order concerns, when known: results are listed by it.
    pub sector: Option<Sector>,
    /// The order in canonical form, or the line as written when it was not understood.
    pub order: OrderText,
    pub outcome: Outcome,
    pub detail: Detail,
    /// True when the judge supplied the order (no order, invalid order, NMR, solo).
    pub default: bool,
    /// The number of the line the order was written on (from 1), if it was written.
    /// Not zero, so that the option takes 4 bytes, not 8: a result is 56 bytes, and a
    /// movement phase keeps one for every fleet.
    pub line: Option<NonZeroU32>,
}

/// The number of a line as [`OrderResult::line`] keeps it (line numbers start at 1).
pub fn line_number(number: u32) -> Option<NonZeroU32> {
    NonZeroU32::new(number)
}

/// An order as a result shows it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OrderText {
    /// A fleet's movement order, in canonical form when rendered (`B2 - C3`).
    Fleet(Sector, Act),
    /// Any other order, in canonical form or as written. Boxed twice, so that the
    /// pointer is a thin one and an order is 16 bytes, not 24: a movement phase keeps
    /// one for every fleet.
    Text(Box<Box<str>>),
}

impl OrderText {
    /// An order as text.
    pub fn text(text: impl Into<Box<str>>) -> OrderText {
        OrderText::Text(Box::new(text.into()))
    }
}

/// Why an order turned out as it did.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    Text(Box<str>),
    Invalid(Box<Invalid>),
    /// A fleet that stayed: its defence (R4.2).
    Held {
        defence: u32,
        no_order: bool,
    },
    /// A pooled support: +1 to every move of the power (R3.4); `named` when the line
    /// named a move anyway.
    PooledSupport {
        power: PowerId,
        named: bool,
    },
    /// A targeted support naming no move.
    SupportNamesNothing,
    /// A targeted support of `from - to`, and whether that move was ordered.
    TargetedSupport {
        from: Sector,
        to: Sector,
        counted: bool,
    },
    Moved {
        attack: u32,
        against: Against,
        /// The strongest other move into the same sector, if any: its power and origin.
        rival: Option<(u32, Sector)>,
    },
    Bounced {
        attack: u32,
        why: Bounce,
    },
    Dislodged {
        by: Sector,
        attack: u32,
        /// The dislodged fleet's defence, or its attack in a head-to-head.
        against: u32,
        head_to_head: bool,
    },
}

/// What a successful move overcame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Against {
    Empty,
    Vacated,
    Defence(u32),
    HeadToHead(u32),
}

/// What stopped a move (R5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bounce {
    StandOff { from: Sector },
    Beaten { from: Sector, power: u32 },
    OwnSwap { at: Sector },
    HeadToHead { at: Sector, power: u32 },
    OwnFleet { at: Sector },
    Defence { at: Sector, power: u32 },
}

impl OrderResult {
    /// Sort key making the list independent of the order lines were written in.
    fn key(&self) -> (PowerId, Option<Sector>, bool, &OrderText, Outcome, &Detail) {
        (
            self.power,
            self.sector,
            self.default,
            &self.order,
            self.outcome,
            &self.detail,
        )
    }

    /// An empty result, to be overwritten (it allocates nothing).
    pub fn placeholder() -> OrderResult {
        OrderResult {
            power: PowerId(0),
            sector: None,
            order: OrderText::text(""),
            outcome: Outcome::Held,
            detail: Detail::Text(Box::default()),
            default: false,
            line: None,
        }
    }

    /// The order as the player reads it.
    pub fn order_text(&self, board: &Board) -> String {
        match &self.order {
            OrderText::Text(t) => t.to_string(),
            OrderText::Fleet(at, act) => {
                let at = board.label(*at);
                match *act {
                    Act::Hold => format!("{at} H"),
                    Act::Move(to) => format!("{at} - {}", board.label(to)),
                    Act::Support(None) => format!("{at} S"),
                    Act::Support(Some((from, to))) => {
                        format!("{at} S {} - {}", board.label(from), board.label(to))
                    }
                }
            }
        }
    }

    /// What happened, in plain words.
    pub fn detail_text(&self, board: &Board) -> String {
        let l = |s: Sector| board.label(s);
        match &self.detail {
            Detail::Text(t) => t.to_string(),
            Detail::Invalid(why) => why.to_string(),
            Detail::Held { defence, no_order } => {
                let note = if *no_order {
                    "no valid order: holds; "
                } else {
                    ""
                };
                format!("{note}defence {defence}")
            }
            Detail::PooledSupport { power, named } => {
                let name = &board.power(*power).name;
                let note = if *named {
                    " (pooled support: the named move has no effect)"
                } else {
                    ""
                };
                format!("+1 to every move of {name}{note}")
            }
            Detail::SupportNamesNothing => "names no move: no effect".into(),
            Detail::TargetedSupport { from, to, counted } => {
                if *counted {
                    format!("+1 to {} - {}", l(*from), l(*to))
                } else {
                    format!("{} - {} was not ordered: no effect", l(*from), l(*to))
                }
            }
            Detail::Moved {
                attack,
                against,
                rival,
            } => {
                let beaten = match rival {
                    // A stronger or equal rival that did not stop this move lost its
                    // head-to-head and has no effect here (R5.3): not "beaten".
                    Some((power, from)) if *power >= *attack => format!(
                        "; the move from {} ({power}) lost its head-to-head and has no effect here",
                        l(*from)
                    ),
                    Some((power, from)) => format!(", beating {power} from {}", l(*from)),
                    None => String::new(),
                };
                match against {
                    Against::Empty => format!("attack {attack} into an empty sector{beaten}"),
                    Against::Vacated => format!("attack {attack} into a vacated sector{beaten}"),
                    Against::Defence(d) => format!("attack {attack} vs defence {d}{beaten}"),
                    Against::HeadToHead(a) => format!("head-to-head, {attack} vs {a}{beaten}"),
                }
            }
            Detail::Bounced { attack, why } => match *why {
                Bounce::StandOff { from } => {
                    format!("stand-off with {}, {attack} vs {attack}", l(from))
                }
                Bounce::Beaten { from, power } => {
                    format!("beaten by {}, {attack} vs {power}", l(from))
                }
                Bounce::OwnSwap { at } => format!("own fleet in {} moving the other way", l(at)),
                Bounce::HeadToHead { at, power } => {
                    format!("head-to-head with {}, {attack} vs {power}", l(at))
                }
                Bounce::OwnFleet { at } => format!("own fleet stays in {}", l(at)),
                Bounce::Defence { at, power } => {
                    format!("attack {attack} vs defence {power} of {}", l(at))
                }
            },
            Detail::Dislodged {
                by,
                attack,
                against,
                head_to_head,
            } => {
                if *head_to_head {
                    format!(
                        "dislodged by {} in a head-to-head, {attack} vs {against}",
                        l(*by)
                    )
                } else {
                    format!(
                        "dislodged by {}, attack {attack} vs defence {against}",
                        l(*by)
                    )
                }
            }
        }
    }
}

/// A fleet removed from the game.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Destroyed {
    pub power: PowerId,
    pub at: Sector,
    pub why: Loss,
}

/// Why a fleet left the game; worded by [`Loss::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Loss {
    /// Dislodged with no sector to retreat to (R6.2).
    NoRetreat,
    /// Disbanded by its retreat order.
    Disbanded,
    /// Retreated to this sector, as another fleet did: both destroyed (R6.3).
    SharedRetreat(Sector),
    /// Produced by this system, which was taken from its power (R8.3).
    SystemTaken(SystemId),
}

impl Loss {
    /// In words, as results and `results.json` give it.
    pub fn text(self, board: &Board) -> String {
        match self {
            Loss::NoRetreat => "dislodged with no retreat".into(),
            Loss::Disbanded => "disbanded".into(),
            Loss::SharedRetreat(to) => format!(
                "another fleet also retreated to {}: both destroyed",
                board.name(to)
            ),
            Loss::SystemTaken(system) => {
                format!("disbanded: {} was taken", board.system(system).name)
            }
        }
    }
}

/// A system changing hands at the end of a turn (R8.2).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Capture {
    pub system: SystemId,
    pub power: PowerId,
    pub from: Option<PowerId>,
}

/// A new fleet that could not be placed (R8.4, R8.6).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LostPlacement {
    pub power: PowerId,
    pub system: SystemId,
    pub why: NoPlace,
}

/// Why a new fleet could not be placed; worded by [`NoPlace::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoPlace {
    /// At the end of the turn, no sector next to its system is empty (R8.4).
    NoEmptySector,
    /// In the placement phase, no empty sector is left next to its system (R8.4).
    NoneLeft,
    /// Another power placed in this sector too: both fleets lost (R8.6).
    Contested(Sector),
}

impl NoPlace {
    /// In words, as results and `results.json` give it; `system` is the system whose
    /// fleet was lost.
    pub fn text(self, board: &Board, system: SystemId) -> String {
        let name = &board.system(system).name;
        match self {
            NoPlace::NoEmptySector => format!("no empty sector next to {name}"),
            NoPlace::NoneLeft => format!("no empty sector left next to {name}"),
            NoPlace::Contested(at) => {
                format!("another power placed in {} too: both lost", board.name(at))
            }
        }
    }
}

/// One roll of the judge's dice (R10.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roll {
    pub group: u32,
    pub roll: u8,
    pub fleets: Vec<Sector>,
    pub action: String,
}

/// Everything a phase's adjudication reports besides the new state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub results: Vec<OrderResult>,
    pub destroyed: Vec<Destroyed>,
    pub captures: Vec<Capture>,
    pub lost_placements: Vec<LostPlacement>,
    pub eliminated: Vec<PowerId>,
    pub dice: Vec<Roll>,
}

impl Report {
    /// Puts every list in a canonical order, so the report does not depend on the order
    /// in which orders or fleets were given.
    pub fn canonicalise(&mut self) {
        sort_results(&mut self.results);
        self.canonicalise_events();
    }

    /// Puts every list but the results in canonical order (for a phase that wrote its
    /// results in canonical order itself).
    pub fn canonicalise_events(&mut self) {
        self.destroyed.sort();
        self.captures.sort();
        self.lost_placements.sort();
        self.eliminated.sort();
    }
}

/// The values `make(i)` for `i` in `0..n`, grouped by `group(i)` (below `groups`):
/// group 0's first, each group's in the order of `i` - what a stable sort by group
/// would give, but each value made once, in order of `i`, and moved into its place at
/// once. (A movement phase makes its results so: in one pass over the fleets, in the
/// order of their sectors, each into its power's block; filling a vector of
/// placeholders first would write every result twice.) Room is kept for `extra` more.
pub fn grouped<T>(
    n: usize,
    groups: usize,
    group: impl Fn(usize) -> usize,
    mut make: impl FnMut(usize) -> T,
    extra: usize,
) -> Vec<T> {
    // Where each group's block starts, then where its next value goes.
    let mut next = vec![0usize; groups + 1];
    for i in 0..n {
        next[group(i) + 1] += 1;
    }
    for g in 1..=groups {
        next[g] += next[g - 1];
    }
    let ends: Vec<usize> = next[1..].to_vec();
    let mut out = Vec::with_capacity(n + extra);
    let room = &mut out.spare_capacity_mut()[..n];
    for i in 0..n {
        let at = &mut next[group(i)];
        room[*at].write(make(i));
        *at += 1;
    }
    // Every block filled from its start to its end (checked, not assumed: were `group`
    // to answer differently the second time, this stops before anything is read).
    assert!(
        next[..groups] == ends[..],
        "every group's block is filled exactly"
    );
    // SAFETY: the blocks [start, end) of the groups partition 0..n (the ends are the
    // running sums of the counts); each block was written in order from its start
    // (`next` began at the starts and moved one place a write), and the assertion shows
    // each reached its end, no further (the indexing into `room`, bounded by n, would
    // have stopped an overrun). So the first n elements are initialised. Were `make`
    // to panic, the vector's length would still be 0 and the values made leak, which
    // is safe.
    unsafe { out.set_len(n) };
    out
}

/// Merges `extra` into `sorted`, which is in canonical order already, so that the
/// whole is in canonical order: `extra` (a few lines) is sorted, then merged in place
/// from the back, each result moved once.
pub fn merge_results(sorted: &mut Vec<OrderResult>, mut extra: Vec<OrderResult>) {
    if extra.is_empty() {
        return;
    }
    sort_results(&mut extra);
    let n = sorted.len();
    sorted.resize_with(n + extra.len(), OrderResult::placeholder);
    // Positions i..k hold placeholders; from k on, the merged tail.
    let (mut i, mut k) = (n, sorted.len());
    while let Some(last) = extra.last() {
        if i > 0 && sorted[i - 1].key() > last.key() {
            sorted.swap(i - 1, k - 1);
            i -= 1;
        } else {
            sorted[k - 1] = extra.pop().expect("a last result");
        }
        k -= 1;
    }
}

/// Sorts results by their full key. Most results differ in (power, sector) already,
/// so the sort runs on a compact prefix and compares whole keys only within ties; the
/// results themselves are moved once. The key covers everything a result shows, so
/// the order is fully determined by the content.
fn sort_results(results: &mut [OrderResult]) {
    let prefix = |r: &OrderResult| -> u64 {
        let sector = r.sector.map_or(0, |s| u64::from(s.0) + 1);
        (u64::from(r.power.0) << 40) | sector
    };
    // A movement phase writes its results in order already: one look confirms it.
    if results.windows(2).all(|w| prefix(&w[0]) < prefix(&w[1])) {
        return;
    }
    let mut order: Vec<(u64, u32)> = results
        .iter()
        .enumerate()
        .map(|(i, r)| (prefix(r), i as u32))
        .collect();
    order.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| {
            results[a.1 as usize]
                .key()
                .cmp(&results[b.1 as usize].key())
        })
    });
    // Apply the permutation in place, cycle by cycle: position k receives the result
    // that was at source[k]; a position whose source is itself is done.
    let mut source: Vec<u32> = order.into_iter().map(|(_, i)| i).collect();
    for start in 0..source.len() {
        let mut k = start;
        while source[k] as usize != start {
            let from = source[k] as usize;
            results.swap(k, from);
            source[k] = k as u32;
            k = from;
        }
        source[k] = k as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn grouped_is_a_stable_sort_by_group_made_in_order() {
        let groups = [2usize, 0, 1, 2, 0, 0, 3, 1];
        let mut made = Vec::new();
        let out = grouped(
            groups.len(),
            4,
            |i| groups[i],
            |i| {
                made.push(i);
                format!("{}:{i}", groups[i])
            },
            3,
        );
        assert_eq!(made, (0..groups.len()).collect::<Vec<_>>());
        let mut expected: Vec<usize> = (0..groups.len()).collect();
        expected.sort_by_key(|&i| groups[i]);
        let expected: Vec<String> = expected
            .iter()
            .map(|&i| format!("{}:{i}", groups[i]))
            .collect();
        assert_eq!(out, expected);
        assert!(out.capacity() >= groups.len() + 3);
        assert!(grouped(0, 2, |_| 0, |_| 1u8, 0).is_empty());
    }

    #[test]
    #[should_panic(expected = "out of bounds")]
    fn grouped_stops_when_the_groups_change_between_passes() {
        let calls = std::cell::Cell::new(0);
        // Counted in group 0, then written to group 1: the block of group 1 is empty,
        // and the write lands past the end, which indexing refuses.
        grouped(
            2,
            2,
            |_| {
                calls.set(calls.get() + 1);
                usize::from(calls.get() > 2)
            },
            |i| i.to_string(),
            0,
        );
    }
}
