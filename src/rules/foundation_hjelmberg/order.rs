//! Orders as the rules read them (H10): what a line says ([`Line`]: an order and its
//! alternatives, or a free action), and each in canonical form (`line_text` and the
//! rest), which `syntax` reads back to the same line. Reading what players write is
//! `syntax`'s.

use super::data::{
    dynasty_name, dynasty_space, level_word, research_name, space_parts, Action, Data, CENTER,
};

/// A sideways bump direction (H5.4): steps left or right, or stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bump {
    Left(u8),
    Right(u8),
    Stay,
}

impl Bump {
    /// A bump as written (`L`, `R2`, `0`), in any case.
    pub(super) fn parse(word: &str) -> Option<Bump> {
        Some(match word.to_ascii_uppercase().as_str() {
            "L" => Bump::Left(1),
            "R" => Bump::Right(1),
            "L2" => Bump::Left(2),
            "R2" => Bump::Right(2),
            "L3" => Bump::Left(3),
            "R3" => Bump::Right(3),
            "0" => Bump::Stay,
            _ => return None,
        })
    }

    pub fn word(self) -> String {
        match self {
            Bump::Left(1) => "L".into(),
            Bump::Right(1) => "R".into(),
            Bump::Left(n) => format!("L{n}"),
            Bump::Right(n) => format!("R{n}"),
            Bump::Stay => "0".into(),
        }
    }
}

/// The words an action order may end with (H10).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    /// The dynasty space the kin comes from, when not the order's own.
    pub from: Option<usize>,
    pub to: Option<Action>,
    pub down: bool,
    pub gain: Option<u8>,
    pub via: Option<u8>,
    pub wild: bool,
    pub pick: Vec<u8>,
    pub peek: Option<u8>,
    pub bump: Vec<Bump>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Travel {
        gate: u8,
        ship: Option<u8>,
    },
    Colonize {
        planet: u8,
        tile: Option<u8>,
    },
    Trade {
        planets: Vec<u8>,
    },
    Produce {
        planets: Vec<u8>,
        once: bool,
        using: Vec<u8>,
    },
    Research {
        space: usize,
        colour: Option<u8>,
    },
    Battle {
        gate: u8,
        take: Option<u8>,
    },
}

/// One action order (H6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Act {
    pub action: Action,
    pub level: u8,
    pub kind: Kind,
    pub mods: Mods,
}

impl Act {
    /// The dynasty space its kin comes from (H5.5).
    pub fn source(&self) -> usize {
        self.mods
            .from
            .unwrap_or_else(|| dynasty_space(self.action, self.level))
    }
}

/// An order (H4.4): a kin move or a retrieve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    Place {
        space: usize,
        bump: Vec<Bump>,
    },
    Raise {
        space: usize,
        bump: Vec<Bump>,
    },
    Retrieve {
        space: usize,
        mods: Mods,
    },
    /// One action, or up to 3 battles joined by `AND` (raid).
    Act(Vec<Act>),
}

/// A free action (H6.7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Free {
    Deposit(u8),
    Exchange(u8, u8),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Start(Vec<(u8, u8)>),
    Orders(Vec<Order>),
    Free(Vec<Free>),
    Reserve,
    Return(u8),
    Empire(bool),
    Declare,
}

fn mods_text(d: &Data, m: &Mods, out: &mut String) {
    if let Some(f) = m.from {
        out.push_str(" FROM ");
        out.push_str(if f == CENTER {
            "CENTER"
        } else {
            level_word(space_parts(f).1)
        });
    }
    if let Some(a) = m.to {
        out.push_str(" TO ");
        out.push_str(a.word());
    }
    if m.down {
        out.push_str(" DOWN");
    }
    if let Some(c) = m.gain {
        out.push_str(" GAIN ");
        out.push_str(d.colour_name(c));
    }
    if let Some(g) = m.via {
        out.push_str(" VIA ");
        out.push_str(d.gate_name(g));
    }
    if m.wild {
        out.push_str(" WILD");
    }
    if !m.pick.is_empty() {
        out.push_str(" PICK");
        for &t in &m.pick {
            out.push(' ');
            out.push_str(d.tile_name(t));
        }
    }
    if let Some(n) = m.peek {
        out.push_str(&format!(" PEEK {n}"));
    }
    bump_text(&m.bump, out);
}

fn bump_text(b: &[Bump], out: &mut String) {
    if !b.is_empty() {
        out.push_str(" BUMP");
        for x in b {
            out.push(' ');
            out.push_str(&x.word());
        }
    }
}

pub fn act_text(d: &Data, a: &Act) -> String {
    let mut s = format!("{} {}", a.action.word(), level_word(a.level));
    let planets = |ps: &[u8], s: &mut String| {
        for &p in ps {
            s.push(' ');
            s.push_str(d.planet_name(p));
        }
    };
    match &a.kind {
        Kind::Travel { gate, ship } => {
            s.push(' ');
            s.push_str(d.gate_name(*gate));
            if let Some(g) = ship {
                s.push_str(" SHIP ");
                s.push_str(d.gate_name(*g));
            }
        }
        Kind::Colonize { planet, tile } => {
            s.push(' ');
            s.push_str(d.planet_name(*planet));
            if let Some(t) = tile {
                s.push(' ');
                s.push_str(d.tile_name(*t));
            }
        }
        Kind::Trade { planets: ps } => planets(ps, &mut s),
        Kind::Produce {
            planets: ps,
            once,
            using,
        } => {
            planets(ps, &mut s);
            if *once {
                s.push_str(" ONCE");
            }
            if !using.is_empty() {
                s.push_str(" USING");
                planets(using, &mut s);
            }
        }
        Kind::Research { space, colour } => {
            s.push(' ');
            s.push_str(&research_name(*space));
            if let Some(c) = colour {
                s.push(' ');
                s.push_str(d.colour_name(*c));
            }
        }
        Kind::Battle { gate, take } => {
            s.push(' ');
            s.push_str(d.gate_name(*gate));
            if let Some(p) = take {
                s.push_str(" TAKE ");
                s.push_str(d.planet_name(*p));
            }
        }
    }
    mods_text(d, &a.mods, &mut s);
    s
}

pub fn order_text(d: &Data, o: &Order) -> String {
    match o {
        Order::Place { space, bump } | Order::Raise { space, bump } => {
            let mut s = format!(
                "{} {}",
                if matches!(o, Order::Place { .. }) {
                    "PLACE"
                } else {
                    "RAISE"
                },
                dynasty_name(*space)
            );
            bump_text(bump, &mut s);
            s
        }
        Order::Retrieve { space, mods } => {
            let mut s = format!("RETRIEVE {}", dynasty_name(*space));
            mods_text(d, mods, &mut s);
            s
        }
        Order::Act(acts) => acts
            .iter()
            .map(|a| act_text(d, a))
            .collect::<Vec<_>>()
            .join(" AND "),
    }
}

pub fn free_text(d: &Data, f: &Free) -> String {
    match f {
        Free::Deposit(p) => format!("DEPOSIT {}", d.planet_name(*p)),
        Free::Exchange(c, e) => format!("EXCHANGE {} FOR {}", d.colour_name(*c), d.colour_name(*e)),
    }
}

/// The canonical form of a line (H10).
pub fn line_text(d: &Data, l: &Line) -> String {
    match l {
        Line::Start(alts) => alts
            .iter()
            .map(|(g, c)| format!("START {} {}", d.gate_name(*g), d.colour_name(*c)))
            .collect::<Vec<_>>()
            .join(" ELSE "),
        Line::Orders(alts) => alts
            .iter()
            .map(|o| order_text(d, o))
            .collect::<Vec<_>>()
            .join(" ELSE "),
        Line::Free(alts) => alts
            .iter()
            .map(|f| free_text(d, f))
            .collect::<Vec<_>>()
            .join(" ELSE "),
        Line::Reserve => "RESERVE".into(),
        Line::Return(g) => format!("RETURN {}", d.gate_name(*g)),
        Line::Empire(true) => "EMPIRE BATTLE".into(),
        Line::Empire(false) => "EMPIRE YIELD".into(),
        Line::Declare => "DECLARE".into(),
    }
}
