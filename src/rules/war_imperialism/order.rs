//! Orders as the rules read them (W2.4, W3–W7, W6.9): what each order says, when it
//! may be given, its canonical text ([`Order::text`], which `syntax` reads back to the
//! same order), and the orders units are lost in (W6.4, W6.8). Reading the lines players
//! write is `syntax`'s.

use super::map::{Map, Place};
use super::state::{Building, Kind, Units, KINDS};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transfer {
    All,
    None,
    Auto,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intercept {
    Always,
    Never,
    Equal,
}

/// What a `BUILD` builds (W4.7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Build {
    Units { n: u32, kind: Kind, region: usize },
    Fleet { sea: usize, at: Option<usize> },
    Building { kind: Building, region: usize },
    Suez { region: usize },
}

/// One step of a `SAIL` (W5.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SailStep {
    Sea(usize),
    Load(Units, usize),
    /// `None`: ALL.
    Land(Option<Units>, usize),
    Attack(usize),
}

/// A `BATTLE` line (W6.9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleLine {
    /// `None`: ALL.
    pub at: Option<Place>,
    pub rounds: Option<u32>,
    pub retreat: Option<Place>,
    pub target: Option<Kind>,
    pub transfer: Option<Transfer>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    Pick(Vec<usize>),
    Build(Build),
    Develop(usize),
    Disband {
        units: Units,
        fleets: u32,
        at: Place,
    },
    Give {
        pp: u32,
        to: usize,
    },
    BuyDp(u32),
    RemoveSphere {
        of: usize,
        region: usize,
    },
    Westernize(usize),
    Incite {
        region: usize,
        bribe: bool,
        sphere: bool,
    },
    Posture {
        region: usize,
        support: bool,
    },
    Peace(usize),
    Cede {
        region: usize,
        to: usize,
    },
    Move {
        units: Units,
        from: usize,
        path: Vec<Place>,
    },
    Sail {
        n: u32,
        sea: usize,
        steps: Vec<SailStep>,
    },
    Attack {
        player: usize,
        sea: usize,
    },
    Reinforce {
        target: usize,
        origin: usize,
        with: Option<Vec<Kind>>,
    },
    Battle(BattleLine),
    Losses(Vec<Kind>),
    NavalRounds(u32),
    Intercept {
        sea: Option<usize>,
        mode: Intercept,
    },
    Parley {
        region: usize,
        dp: bool,
    },
    Prospect(usize),
    DeclareWar(usize),
}

/// The phases an order belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    Draft,
    Setup,
    Production,
    Movement,
}

impl Order {
    pub fn allowed(&self, when: When) -> bool {
        use Order::*;
        match self {
            Pick(_) => when == When::Draft,
            Build(_) => matches!(when, When::Setup | When::Production),
            Develop(_)
            | Disband { .. }
            | Give { .. }
            | BuyDp(_)
            | RemoveSphere { .. }
            | Westernize(_)
            | Incite { .. } => when == When::Production,
            Posture { .. } | Peace(_) | Cede { .. } => {
                matches!(when, When::Production | When::Movement)
            }
            Move { .. }
            | Sail { .. }
            | Attack { .. }
            | Reinforce { .. }
            | Battle(_)
            | Losses(_)
            | NavalRounds(_)
            | Intercept { .. }
            | Parley { .. }
            | Prospect(_)
            | DeclareWar(_) => when == When::Movement,
        }
    }

    /// Standing instructions and lists: `noted` rather than carried out (W2.4).
    pub fn is_noted(&self) -> bool {
        matches!(
            self,
            Order::Pick(_)
                | Order::Posture { .. }
                | Order::Cede { .. }
                | Order::Reinforce { .. }
                | Order::Battle(_)
                | Order::Losses(_)
                | Order::NavalRounds(_)
                | Order::Intercept { .. }
        )
    }

    /// The order in canonical form; it reads back to the same order.
    pub fn text(&self, map: &Map, players: &[String]) -> String {
        let r = |k: usize| map.regions[k].id.clone();
        let s = |k: usize| map.seas[k].id.clone();
        let pl = |k: usize| players[k].clone();
        let place = |p: Place| map.place_id(p).to_string();
        match self {
            Order::Pick(list) => {
                let mut t = "PICK".to_string();
                for &k in list {
                    t.push(' ');
                    t.push_str(&r(k));
                }
                t
            }
            Order::Build(b) => match b {
                Build::Units { n, kind, region } => {
                    if *n == 1 {
                        format!("BUILD {} {}", kind.name(), r(*region))
                    } else {
                        format!("BUILD {n} {} {}", kind.name(), r(*region))
                    }
                }
                Build::Fleet { sea, at } => match at {
                    Some(a) => format!("BUILD FLT {} AT {}", s(*sea), r(*a)),
                    None => format!("BUILD FLT {}", s(*sea)),
                },
                Build::Building { kind, region } => {
                    format!("BUILD {} {}", kind.name(), r(*region))
                }
                Build::Suez { region } => format!("BUILD suez {}", r(*region)),
            },
            Order::Develop(k) => format!("DEVELOP {}", r(*k)),
            Order::Disband { units, fleets, at } => {
                let mut what = Vec::new();
                if !units.is_empty() {
                    what.push(units.text());
                }
                match fleets {
                    0 => {}
                    1 => what.push("FLT".into()),
                    n => what.push(format!("{n} FLT")),
                }
                format!("DISBAND {} {}", what.join(" "), place(*at))
            }
            Order::Give { pp, to } => format!("GIVE {pp} PP TO {}", pl(*to)),
            Order::BuyDp(n) => format!("BUY {n} DP"),
            Order::RemoveSphere { of, region } => {
                format!("REMOVE SPHERE {} {}", pl(*of), r(*region))
            }
            Order::Westernize(k) => format!("WESTERNIZE {}", r(*k)),
            Order::Incite {
                region,
                bribe,
                sphere,
            } => {
                let mut t = format!("INCITE {}", r(*region));
                if *bribe {
                    t += " BRIBE";
                }
                if *sphere {
                    t += " SPHERE";
                }
                t
            }
            Order::Posture { region, support } => format!(
                "{} {}",
                if *support { "SUPPORT" } else { "SUPPRESS" },
                r(*region)
            ),
            Order::Peace(p) => format!("PEACE {}", pl(*p)),
            Order::Cede { region, to } => format!("CEDE {} TO {}", r(*region), pl(*to)),
            Order::Move { units, from, path } => {
                let mut t = format!("MOVE {} {}", units.text(), r(*from));
                for p in path {
                    t += " - ";
                    t += &place(*p);
                }
                t
            }
            Order::Sail { n, sea, steps } => {
                let mut t = if *n == 1 {
                    format!("SAIL FLT {}", s(*sea))
                } else {
                    format!("SAIL {n} FLT {}", s(*sea))
                };
                for step in steps {
                    t += " - ";
                    t += &match step {
                        SailStep::Sea(k) => s(*k),
                        SailStep::Load(u, k) => format!("LOAD {} {}", u.text(), r(*k)),
                        SailStep::Land(None, k) => format!("LAND ALL {}", r(*k)),
                        SailStep::Land(Some(u), k) => format!("LAND {} {}", u.text(), r(*k)),
                        SailStep::Attack(p) => format!("ATTACK {}", pl(*p)),
                    };
                }
                t
            }
            Order::Attack { player, sea } => format!("ATTACK {} {}", pl(*player), s(*sea)),
            Order::Reinforce {
                target,
                origin,
                with,
            } => {
                let mut t = format!("REINFORCE {} FROM {}", r(*target), r(*origin));
                if let Some(list) = with {
                    t += " WITH";
                    let mut k = 0;
                    while k < list.len() {
                        let mut n = 1;
                        while k + n < list.len() && list[k + n] == list[k] {
                            n += 1;
                        }
                        if n == 1 {
                            t += &format!(" {}", list[k].name());
                        } else {
                            t += &format!(" {n} {}", list[k].name());
                        }
                        k += n;
                    }
                }
                t
            }
            Order::Battle(b) => {
                let mut t = format!("BATTLE {}", b.at.map(place).unwrap_or_else(|| "ALL".into()));
                if let Some(n) = b.rounds {
                    t += &format!(" ROUNDS {n}");
                }
                if let Some(p) = b.retreat {
                    t += &format!(" RETREAT {}", place(p));
                }
                if let Some(k) = b.target {
                    t += &format!(" TARGET {}", k.name());
                }
                if let Some(x) = b.transfer {
                    t += match x {
                        Transfer::All => " TRANSFER ALL",
                        Transfer::None => " TRANSFER NONE",
                        Transfer::Auto => " TRANSFER AUTO",
                    };
                }
                t
            }
            Order::Losses(list) => {
                let names: Vec<&str> = list.iter().map(|k| k.name()).collect();
                format!("LOSSES {}", names.join(" "))
            }
            Order::NavalRounds(n) => format!("NAVAL ROUNDS {n}"),
            Order::Intercept { sea, mode } => format!(
                "INTERCEPT {} {}",
                sea.map(s).unwrap_or_else(|| "ALL".into()),
                match mode {
                    Intercept::Always => "ALWAYS",
                    Intercept::Never => "NEVER",
                    Intercept::Equal => "EQUAL",
                }
            ),
            Order::Parley { region, dp } => {
                if *dp {
                    format!("PARLEY {} DP", r(*region))
                } else {
                    format!("PARLEY {}", r(*region))
                }
            }
            Order::Prospect(k) => format!("PROSPECT {}", r(*k)),
            Order::DeclareWar(p) => format!("DECLARE WAR {}", pl(*p)),
        }
    }
}

/// The default order units are lost in (W6.4, W6.8): INF CAV ART EXP ENG GEN.
const LOSS_DEFAULT: [Kind; 6] = [
    Kind::Inf,
    Kind::Cav,
    Kind::Art,
    Kind::Exp,
    Kind::Eng,
    Kind::Gen,
];

/// The kinds in order, for loss orders: the listed ones first, then the rest in the
/// default order (W6.4): brigades INF CAV ART before parties EXP ENG GEN.
pub fn loss_order(listed: &[Kind]) -> Vec<Kind> {
    let mut out: Vec<Kind> = Vec::new();
    for brigade in [true, false] {
        for &k in listed.iter().chain(LOSS_DEFAULT.iter()) {
            if k.is_brigade() == brigade && !out.contains(&k) {
                out.push(k);
            }
        }
    }
    debug_assert_eq!(out.len(), KINDS.len());
    out
}

/// The order cargo is lost in when fleets sink (W6.8): the listed kinds first, then
/// the rest in the default order INF CAV ART EXP ENG GEN.
pub fn cargo_loss_order(listed: &[Kind]) -> Vec<Kind> {
    let mut out: Vec<Kind> = listed.to_vec();
    for k in LOSS_DEFAULT {
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}
