//! Stage two of reading orders: the shape of an order against the position. What is
//! decided here cannot change during the phase (whose region it is, which phase the
//! order belongs to); what can (money, allegiance) is decided when the order is
//! carried out, and reported as a failure.

use std::fmt;

use super::map::{Cell, Economy, Party, RegionAt, UnitType, Units};
use super::place::{FastMap, FastSet, Place as Where, Position};
use super::state::{Phase, State};
use super::strength::{self, Target};
use super::syntax::{self, Order, PartyCost, Place, SyntaxError};

/// An order made concrete: regions and systems found, powers known.
#[derive(Clone, Debug, PartialEq)]
pub enum Checked {
    Extort(RegionAt),
    Borrow(u32),
    Transfer {
        amount: u32,
        from: Source,
        to: Source,
    },
    Buy {
        region: RegionAt,
        count: u32,
        kind: UnitType,
    },
    Loyalty {
        region: RegionAt,
        amount: u32,
    },
    Econ(RegionAt),
    Party {
        region: RegionAt,
        paid_by: PartyCost,
    },
    Negotiate(RegionAt),
    Bribe(RegionAt),
    Police(RegionAt),
    Demote(RegionAt),
    ChangeMinisters,
    Subvert(RegionAt),
    War(usize),
    Peace(usize),
    Desubvert(RegionAt),
    Counter(RegionAt),
    /// A move (G4.1): the units set out (as resolved), whether the order named them,
    /// and the path.
    Move {
        from: Where,
        units: Units,
        written: bool,
        path: Vec<Where>,
    },
    /// The NG's move (G4.5) along cells to the system `to`.
    NgMove {
        path: Vec<Cell>,
        to: usize,
    },
    /// A stance (G4.3): `INTERCEPT`, or `BLOCK` with the cell named, if any.
    Stance {
        at: Cell,
        block: bool,
        to: Option<Cell>,
    },
    /// `LOSSES` (G5.6): the types as written, and the whole order of picks.
    Losses {
        written: Vec<UnitType>,
        order: [UnitType; 3],
    },
    Attack {
        from: Where,
        target: Where,
    },
    Retreat {
        from: Where,
        to: Where,
    },
}

/// The treasury at the National Government, or a system's bank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Ng,
    Bank(usize),
}

/// The rule step an order belongs to, in the order steps are carried out (G3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Extort,
    Borrow,
    Transfer,
    Buy,
    LoyaltyEcon,
    Party,
    Revolt,
    Ministers,
    Demote,
    Subvert,
    WarPeace,
    Desubvert,
    Counter,
    Losses,
    Move,
    Stance,
    Attack,
    Retreat,
}

impl Checked {
    pub fn step(&self) -> Step {
        match self {
            Checked::Extort(_) => Step::Extort,
            Checked::Borrow(_) => Step::Borrow,
            Checked::Transfer { .. } => Step::Transfer,
            Checked::Buy { .. } => Step::Buy,
            Checked::Loyalty { .. } | Checked::Econ(_) => Step::LoyaltyEcon,
            Checked::Party { .. } => Step::Party,
            Checked::Negotiate(_) | Checked::Bribe(_) | Checked::Police(_) => Step::Revolt,
            Checked::ChangeMinisters => Step::Ministers,
            Checked::Demote(_) => Step::Demote,
            Checked::Subvert(_) => Step::Subvert,
            Checked::War(_) | Checked::Peace(_) => Step::WarPeace,
            Checked::Desubvert(_) => Step::Desubvert,
            Checked::Counter(_) => Step::Counter,
            Checked::Move { .. } | Checked::NgMove { .. } => Step::Move,
            Checked::Stance { .. } => Step::Stance,
            Checked::Losses { .. } => Step::Losses,
            Checked::Attack { .. } => Step::Attack,
            Checked::Retreat { .. } => Step::Retreat,
        }
    }
}

/// Whether an order (as written) is given in a phase: LOSSES in movement and combat,
/// the others in one phase each (G4–G9).
fn given_in(order: &Order, phase: Phase) -> bool {
    let wanted: &[Phase] = match order {
        Order::Move { .. } | Order::NgMove(_) | Order::Intercept(_) | Order::Block { .. } => {
            &[Phase::Movement]
        }
        Order::Losses(_) => &[Phase::Movement, Phase::Combat],
        Order::Attack { .. } | Order::Retreat { .. } => &[Phase::Combat],
        Order::Desubvert(_) | Order::Counter(_) => &[Phase::Defence],
        _ => &[Phase::Interphase],
    };
    wanted.contains(&phase)
}

/// Why an order line is not taken.
#[derive(Clone, Debug, PartialEq)]
pub enum Invalid {
    Syntax(SyntaxError),
    UnknownRegion(String),
    UnknownSystem(String),
    UnknownPower(String),
    NotYours {
        what: String,
        owner: String,
    },
    OwnRegion(String),
    Yourself,
    WrongPhase {
        phase: Phase,
    },
    NothingOwed {
        phase: Phase,
    },
    Out,
    WrongUnit {
        party: Party,
        wants: UnitType,
    },
    BuildsNothing(String, Economy),
    /// More units than the region's level lets it build in a turn (G6.4).
    OverCap {
        region: String,
        economy: Economy,
        cap: u32,
    },
    UnknownPlace(String),
    NoUnitsAt(String),
    NotEnough {
        at: String,
        asked: Units,
        left: Units,
    },
    /// A move, stance, attack or retreat the rules do not allow, and why.
    Illegal(String),
    /// An order given once a phase (or once a stack, a cell), given again.
    Again(&'static str),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Syntax(e) => write!(f, "{e}"),
            Invalid::UnknownRegion(r) => write!(f, "there is no region {r}"),
            Invalid::UnknownSystem(s) => write!(f, "there is no system {s}"),
            Invalid::UnknownPower(p) => write!(f, "there is no power {p:?}"),
            Invalid::NotYours { what, owner } => {
                write!(f, "{what} is not yours (it belongs to {owner})")
            }
            Invalid::OwnRegion(r) => write!(f, "{r} is your own region"),
            Invalid::Yourself => f.write_str("a power cannot order that toward itself"),
            Invalid::WrongPhase { phase } => write!(
                f,
                "not an order of the {} (movement: moves, NG ->, INTERCEPT, BLOCK, \
                 LOSSES; combat: ATTACK, RETREAT, LOSSES; interphase: economy, politics, \
                 SUBVERT, WAR, PEACE; defence: DESUBVERT, COUNTER)",
                phase.name()
            ),
            Invalid::NothingOwed { phase } => {
                write!(f, "you have no orders to give in this {}", phase.name())
            }
            Invalid::Out => f.write_str("your power is out of the game"),
            Invalid::WrongUnit { party, wants } => {
                write!(f, "party {party} buys only {}", wants.name())
            }
            Invalid::BuildsNothing(region, economy) => write!(
                f,
                "{region} is {economy}: an {economy} region builds nothing (only I-2 and I-1 do)"
            ),
            Invalid::OverCap {
                region,
                economy,
                cap,
            } => write!(
                f,
                "{region} is {economy}: it builds at most {cap} units a turn"
            ),
            Invalid::UnknownPlace(p) => write!(
                f,
                "there is no place {p} (a cell on the map like F4, a system, or a region \
                 like Sirius-1a)"
            ),
            Invalid::NoUnitsAt(p) => write!(f, "you have no units at {p}"),
            Invalid::NotEnough { at, asked, left } => write!(
                f,
                "{} asked at {at}, but your earlier orders leave {}",
                super::defence::units_text(*asked),
                super::defence::units_text(*left)
            ),
            Invalid::Illegal(why) => f.write_str(why),
            Invalid::Again(what) => f.write_str(what),
        }
    }
}

/// What a power's earlier lines of one submission have taken (G4.1: a split stack;
/// orders given once a phase, a stack or a cell).
#[derive(Default)]
pub struct Context {
    /// Units set out by valid move orders, by place.
    pub moved: FastMap<Where, Units>,
    ng: bool,
    losses: bool,
    stances: FastSet<Cell>,
    attacks: FastSet<Where>,
    retreats: FastSet<Where>,
    /// Interphase and defence orders that can only act once a turn, by region.
    econ: FastSet<RegionAt>,
    demotes: FastSet<RegionAt>,
    ministers: bool,
    desubverts: FastSet<RegionAt>,
    counters: FastSet<RegionAt>,
    /// WAR (true) and PEACE (false) orders, by power.
    diplomacy: FastSet<(bool, usize)>,
}

/// Reads one line for `power` (an index into `state.powers`).
pub fn check_line(
    state: &State,
    pos: &Position,
    context: &mut Context,
    power: usize,
    line: &str,
) -> Result<Checked, Invalid> {
    let order = syntax::parse(line).map_err(Invalid::Syntax)?;
    if !given_in(&order, state.phase) {
        return Err(Invalid::WrongPhase { phase: state.phase });
    }
    match order {
        Order::Move { .. }
        | Order::NgMove(_)
        | Order::Intercept(_)
        | Order::Block { .. }
        | Order::Losses(_)
        | Order::Attack { .. }
        | Order::Retreat { .. } => super::orders::check(state, pos, context, power, order),
        _ => check(state, power, context, order),
    }
}

impl Context {
    /// Marks a move's units as taken (after it was found valid).
    pub fn take(&mut self, from: Where, units: Units) {
        self.moved.entry(from).or_default().add(units);
    }

    /// Takes an order that may be given once (a phase, a stack, a cell), or says why
    /// not.
    pub fn once(&mut self, what: Once) -> Result<(), Invalid> {
        let fresh = match what {
            Once::Ng => !std::mem::replace(&mut self.ng, true),
            Once::Losses => !std::mem::replace(&mut self.losses, true),
            Once::Stance(c) => self.stances.insert(c),
            Once::Attack(p) => self.attacks.insert(p),
            Once::Retreat(p) => self.retreats.insert(p),
        };
        if fresh {
            return Ok(());
        }
        Err(Invalid::Again(match what {
            Once::Ng => "the NG moves once a phase",
            Once::Losses => "one LOSSES order a phase",
            Once::Stance(_) => "one stance a cell",
            Once::Attack(_) => "a stack makes one attack a phase (no splitting of forces)",
            Once::Retreat(_) => "one RETREAT order a stack",
        }))
    }
}

/// What may be ordered once.
#[derive(Clone, Copy)]
pub enum Once {
    Ng,
    Losses,
    Stance(Cell),
    Attack(Where),
    Retreat(Where),
}

/// The units that can attack a target from where they stand (G5.1–G5.2).
pub fn can_attack(pos: &Position, units: Units, from: Where, target: Where) -> Units {
    let t = match target {
        Where::Cell(_) => Target::Cell,
        Where::Region(_) => Target::Region,
    };
    strength::able(units, pos.geo.ground(from), t)
}

fn check(
    state: &State,
    power: usize,
    context: &mut Context,
    order: Order,
) -> Result<Checked, Invalid> {
    let me = &state.powers[power].id;
    let region = |id: &str| {
        state
            .region_at(id)
            .ok_or_else(|| Invalid::UnknownRegion(id.into()))
    };
    let own = |id: &str| {
        let at = region(id)?;
        let owner = state.owner(at);
        if owner != me {
            return Err(Invalid::NotYours {
                what: state.region_name(at),
                owner: owner.to_string(),
            });
        }
        Ok(at)
    };
    let source = |place: &Place| match place {
        Place::Ng => Ok(Source::Ng),
        Place::System(name) => {
            let s = state
                .system_index(name)
                .ok_or_else(|| Invalid::UnknownSystem(name.clone()))?;
            if &state.systems[s].owner != me {
                return Err(Invalid::NotYours {
                    what: state.systems[s].name.clone(),
                    owner: state.systems[s].owner.clone(),
                });
            }
            Ok(Source::Bank(s))
        }
    };
    let other_power = |id: &str| {
        let p = state
            .power_index(id)
            .ok_or_else(|| Invalid::UnknownPower(id.into()))?;
        if p == power {
            return Err(Invalid::Yourself);
        }
        Ok(p)
    };
    Ok(match order {
        Order::Extort(r) => Checked::Extort(own(&r)?),
        Order::Borrow(n) => Checked::Borrow(n),
        Order::Transfer { amount, from, to } => Checked::Transfer {
            amount,
            from: source(&from)?,
            to: source(&to)?,
        },
        Order::Buy {
            region,
            count,
            kind,
        } => {
            // The party and the economic level cannot rise before purchases (G6.4):
            // a wrong type or a region that builds nothing is known from the position.
            let at = own(&region)?;
            let r = state.region(at);
            if r.party.wants() != kind {
                return Err(Invalid::WrongUnit {
                    party: r.party,
                    wants: r.party.wants(),
                });
            }
            let cap = r.economy.purchase_cap();
            if cap == 0 {
                return Err(Invalid::BuildsNothing(state.region_name(at), r.economy));
            }
            if count > cap {
                return Err(Invalid::OverCap {
                    region: state.region_name(at),
                    economy: r.economy,
                    cap,
                });
            }
            Checked::Buy {
                region: at,
                count,
                kind,
            }
        }
        Order::Loyalty { region, amount } => Checked::Loyalty {
            region: own(&region)?,
            amount,
        },
        Order::Econ(r) => {
            // A party changes only after ECON (G7.1 after G6.5): a region that is not
            // moderate now cannot grow this turn.
            let at = own(&r)?;
            let party = state.region(at).party;
            if party != Party::M {
                return Err(Invalid::Illegal(format!(
                    "only a moderate (M) region grows; {} is {party}",
                    state.region_name(at)
                )));
            }
            if state.region(at).economy.raise_cost().is_none() {
                top_level(state, power, at)?;
            }
            if !context.econ.insert(at) {
                return Err(Invalid::Again("ECON raises a region one level a turn"));
            }
            Checked::Econ(at)
        }
        Order::Party { region, paid_by } => Checked::Party {
            region: own(&region)?,
            paid_by,
        },
        Order::Negotiate(r) => Checked::Negotiate(own(&r)?),
        Order::Bribe(r) => {
            // Only an R revolt takes bribes (G7.2), and an E region can only become M
            // before it (G7.1): a bribe there is known to fail.
            let at = own(&r)?;
            if state.region(at).party == Party::E {
                return Err(Invalid::Illegal(format!(
                    "only a reactionary (R) revolt takes bribes; {} is E, and an E \
                     region changes only to M this turn (G7.1)",
                    state.region_name(at)
                )));
            }
            Checked::Bribe(at)
        }
        Order::Police(r) => Checked::Police(own(&r)?),
        Order::Demote(r) => {
            // A region named by DEMOTE declines one level at G7.5 however often it is
            // named, and G6.2 takes the regions named in turn: a repeat changes nothing.
            let at = own(&r)?;
            if !context.demotes.insert(at) {
                return Err(Invalid::Again(
                    "an earlier DEMOTE names this region already; a repeat changes nothing",
                ));
            }
            Checked::Demote(at)
        }
        Order::ChangeMinisters => {
            if state.powers[power].ministers_changed {
                return Err(Invalid::Illegal(
                    "ministers change once a game, and already did".into(),
                ));
            }
            if std::mem::replace(&mut context.ministers, true) {
                return Err(Invalid::Again("ministers change once a game"));
            }
            Checked::ChangeMinisters
        }
        Order::Subvert(r) => {
            let at = region(&r)?;
            if state.owner(at) == me {
                return Err(Invalid::OwnRegion(state.region_name(at)));
            }
            // At war, the stake is paid from a bank near the target (G8.1). No order
            // of the submission gains a system or changes the target's owner before
            // G8.1; only G7.6 could, and what it might do is known from the position.
            if let Some(why) = super::foresee::subvert_fails(state, power, at) {
                return Err(Invalid::Illegal(why));
            }
            Checked::Subvert(at)
        }
        // Wars change only at G8.2 and a power out stays out: known now.
        Order::War(p) => {
            let q = other_power(&p)?;
            let them = &state.powers[q].id;
            if state.powers[q].out {
                return Err(Invalid::Illegal(format!("{them} is out of the game")));
            }
            // A war listed by either side binds both (G8.2: a war is between two).
            if state.at_war_either(me, them) {
                return Err(Invalid::Illegal(format!("already at war with {them}")));
            }
            if !context.diplomacy.insert((true, q))
                || state.powers[power].declared_war.contains(them)
            {
                return Err(Invalid::Illegal(format!(
                    "war on {them} is declared already"
                )));
            }
            Checked::War(q)
        }
        Order::Peace(p) => {
            let q = other_power(&p)?;
            let them = &state.powers[q].id;
            if state.powers[q].out {
                return Err(Invalid::Illegal(format!("{them} is out of the game")));
            }
            if !state.at_war_either(me, them) {
                return Err(Invalid::Illegal(format!("not at war with {them}")));
            }
            if !context.diplomacy.insert((false, q)) {
                return Err(Invalid::Again("one PEACE a power"));
            }
            Checked::Peace(q)
        }
        Order::Desubvert(r) => {
            // The stakes of this turn are all placed by now (G8.1 before G9.1).
            let at = own(&r)?;
            let id = state.region_name(at);
            let placed = state
                .stakes
                .iter()
                .any(|k| k.region.eq_ignore_ascii_case(&id) && k.placed_turn == state.turn);
            if !placed {
                return Err(Invalid::Illegal(format!(
                    "no stake was placed on {id} this turn"
                )));
            }
            if !context.desubverts.insert(at) {
                return Err(Invalid::Again("one DESUBVERT a region"));
            }
            Checked::Desubvert(at)
        }
        Order::Counter(r) => {
            let at = own(&r)?;
            let id = state.region_name(at);
            if state
                .counters
                .iter()
                .any(|c| c.region.eq_ignore_ascii_case(&id))
            {
                return Err(Invalid::Illegal(format!(
                    "{id} has counter-subversion already"
                )));
            }
            if !context.counters.insert(at) {
                return Err(Invalid::Again("one COUNTER a region"));
            }
            Checked::Counter(at)
        }
        _ => return Err(Invalid::WrongPhase { phase: state.phase }),
    })
}

/// The canonical text of an order, as receipts and results show it.
pub fn order_text(state: &State, order: &Checked) -> String {
    let r = |at: &RegionAt| state.region_name(*at);
    let src = |s: &Source| match s {
        Source::Ng => "NG".to_string(),
        Source::Bank(k) => state.systems[*k].name.clone(),
    };
    let p = |k: &usize| state.powers[*k].id.clone();
    match order {
        Checked::Extort(a) => format!("EXTORT {}", r(a)),
        Checked::Borrow(n) => format!("BORROW {n}"),
        Checked::Transfer { amount, from, to } => {
            format!("TRANSFER {amount} FROM {} TO {}", src(from), src(to))
        }
        Checked::Buy {
            region,
            count,
            kind,
        } => format!("BUY {} {count} {}", r(region), kind.name()),
        Checked::Loyalty { region, amount } => format!("LOYALTY {} {amount}", r(region)),
        Checked::Econ(a) => format!("ECON {}", r(a)),
        Checked::Party { region, paid_by } => format!(
            "PARTY {} {}",
            r(region),
            match paid_by {
                PartyCost::Pay => "PAY",
                PartyCost::Loyalty => "LOYALTY",
            }
        ),
        Checked::Negotiate(a) => format!("NEGOTIATE {}", r(a)),
        Checked::Bribe(a) => format!("BRIBE {}", r(a)),
        Checked::Police(a) => format!("POLICE {}", r(a)),
        Checked::Demote(a) => format!("DEMOTE {}", r(a)),
        Checked::ChangeMinisters => "CHANGE MINISTERS".to_string(),
        Checked::Subvert(a) => format!("SUBVERT {}", r(a)),
        Checked::War(k) => format!("WAR {}", p(k)),
        Checked::Peace(k) => format!("PEACE {}", p(k)),
        Checked::Desubvert(a) => format!("DESUBVERT {}", r(a)),
        Checked::Counter(a) => format!("COUNTER {}", r(a)),
        Checked::Move {
            from,
            units,
            written,
            path,
        } => {
            let mut text = String::with_capacity(16 + 6 * path.len());
            state.push_place(&mut text, *from);
            if *written {
                for k in UnitType::ALL {
                    if units.get(k) > 0 {
                        text.push(' ');
                        super::defence::push_number(&mut text, units.get(k));
                        text.push_str(k.name());
                    }
                }
            }
            text.push_str(" ->");
            for p in path {
                text.push(' ');
                state.push_place(&mut text, *p);
            }
            text
        }
        Checked::NgMove { path, .. } => {
            let cells: Vec<String> = path.iter().map(Cell::to_string).collect();
            format!("NG -> {}", cells.join(" "))
        }
        Checked::Stance { at, block, to } => match (block, to) {
            (false, _) => format!("{at} INTERCEPT"),
            (true, None) => format!("{at} BLOCK"),
            (true, Some(to)) => format!("{at} BLOCK {to}"),
        },
        Checked::Losses { written, .. } => {
            let names: Vec<&str> = written.iter().map(|k| k.name()).collect();
            format!("LOSSES {}", names.join(" "))
        }
        Checked::Attack { from, target } => format!(
            "{} ATTACK {}",
            state.place_name(*from),
            state.place_name(*target)
        ),
        Checked::Retreat { from, to } => format!(
            "{} RETREAT {}",
            state.place_name(*from),
            state.place_name(*to)
        ),
    }
}

/// An `ECON` on a region at the highest level (I-2): known to fail unless a level is
/// lost before G6.5, which only a loan default short by more than 4 does (G6.2). What
/// the instalments take comes from the treasury as it stands (G6.1 pays into the banks,
/// G6.3 comes after), so the shortfall is known now.
fn top_level(state: &State, power: usize, at: RegionAt) -> Result<(), Invalid> {
    let p = &state.powers[power];
    let due = p
        .loans
        .iter()
        .fold(0u32, |a, l| a.saturating_add(l.instalment));
    let short = due.saturating_sub(p.treasury);
    if short > 4 {
        return Ok(());
    }
    let id = state.region_name(at);
    let economy = state.region(at).economy;
    let loans = if p.loans.is_empty() {
        "you have no loans".to_string()
    } else if short == 0 {
        format!("your treasury of {} pays the {due} due", p.treasury)
    } else {
        format!("the {due} due leaves you short by only {short}")
    };
    Err(Invalid::Illegal(format!(
        "{economy} is the highest level: ECON cannot raise {id} (G6.5); only a loan \
         default short by more than 4 could lower it first (G6.2), and {loans}"
    )))
}
