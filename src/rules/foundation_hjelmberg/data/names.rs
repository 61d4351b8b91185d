//! What the rules name, fixed in code (H5.1, H2.6, H2.7, H8, H9.1): the six actions and
//! their levels, the research board's and the dynasty board's spaces, the colony tiles'
//! uses and effects, the goal tiles; each with its words as players write them.

/// The six actions, in the seed's order (the research board's order, H2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    Travel,
    Colonize,
    Trade,
    Produce,
    Research,
    Battle,
}

impl Action {
    pub const ALL: [Action; 6] = [
        Action::Travel,
        Action::Colonize,
        Action::Trade,
        Action::Produce,
        Action::Research,
        Action::Battle,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The order word (H5.1).
    pub fn word(self) -> &'static str {
        match self {
            Action::Travel => "TRAVEL",
            Action::Colonize => "COLONIZE",
            Action::Trade => "TRADE",
            Action::Produce => "PRODUCE",
            Action::Research => "RESEARCH",
            Action::Battle => "BATTLE",
        }
    }

    /// An order word or alias (H5.1), any case.
    pub fn parse(word: &str) -> Option<Action> {
        Some(match word.to_ascii_uppercase().as_str() {
            "TRAVEL" | "SPACE-TRAVEL" | "ST" => Action::Travel,
            "COLONIZE" | "COLONISE" | "CO" => Action::Colonize,
            "TRADE" | "TR" => Action::Trade,
            "PRODUCE" | "PR" => Action::Produce,
            "RESEARCH" | "RE" => Action::Research,
            "BATTLE" | "BA" => Action::Battle,
            _ => return None,
        })
    }
}

/// A level word: `I`, `II`, `III` or `1`–`3` (H5.1).
pub fn parse_level(word: &str) -> Option<u8> {
    match word.to_ascii_uppercase().as_str() {
        "I" | "1" => Some(1),
        "II" | "2" => Some(2),
        "III" | "3" => Some(3),
        _ => None,
    }
}

pub fn level_word(level: u8) -> &'static str {
    match level {
        1 => "I",
        2 => "II",
        _ => "III",
    }
}

/// How a colony tile is used (H8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    Once,
    Turn,
    Always,
    Markers,
}

/// What a colony tile does (H8); the level-numbered kinds take their level from the
/// data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Riches,
    Kin,
    Dividend,
    Sidestep,
    Escort,
    Draft,
    Recall,
    Warp,
    Settle,
    Barter,
    Industry,
    Insight,
    Raid,
    Reserve,
    Glide,
    Cloak,
    Fallback,
    Exchange,
    Oracle,
    Prophecy,
    Flagship,
    Ascend,
}

impl Effect {
    pub(super) fn from_id(id: &str) -> Option<Effect> {
        let base = match id.rsplit_once('-') {
            Some((b, n)) if n.parse::<u8>().is_ok() => b,
            _ => id,
        };
        Some(match base {
            "riches" => Effect::Riches,
            "kin" => Effect::Kin,
            "dividend" => Effect::Dividend,
            "draft" => Effect::Draft,
            _ => match id {
                "sidestep" => Effect::Sidestep,
                "escort" => Effect::Escort,
                "recall" => Effect::Recall,
                "warp" => Effect::Warp,
                "settle" => Effect::Settle,
                "barter" => Effect::Barter,
                "industry" => Effect::Industry,
                "insight" => Effect::Insight,
                "raid" => Effect::Raid,
                "reserve" => Effect::Reserve,
                "glide" => Effect::Glide,
                "cloak" => Effect::Cloak,
                "fallback" => Effect::Fallback,
                "exchange" => Effect::Exchange,
                "oracle" => Effect::Oracle,
                "prophecy" => Effect::Prophecy,
                "flagship" => Effect::Flagship,
                "ascend" => Effect::Ascend,
                _ => return None,
            },
        })
    }
}

/// The goal tiles (H9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    OuterShips,
    Colonies,
    Black3,
    Variety,
    ResearchIv,
    Empire2,
    AllActions,
    AllLevels,
    MiddleShips,
}

impl Goal {
    pub(super) fn from_id(id: &str) -> Option<Goal> {
        Some(match id {
            "outer-ships" => Goal::OuterShips,
            "colonies" => Goal::Colonies,
            "black-3" => Goal::Black3,
            "variety" => Goal::Variety,
            "research-iv" => Goal::ResearchIv,
            "empire-2" => Goal::Empire2,
            "all-actions" => Goal::AllActions,
            "all-levels" => Goal::AllLevels,
            "middle-ships" => Goal::MiddleShips,
            _ => return None,
        })
    }
}

/// The research board (H2.6): `<action> II` (0–5), `<action> III` (6–11), `GOAL 1`–`3`
/// (12–14), in the seed's action order; [`PERSONAL`] is a player's personal goal (H6.5).
pub const RESEARCH_SPACES: usize = 15;
pub const PERSONAL: usize = 15;
pub const GOAL_SPACE: usize = 12;

pub fn research_name(space: usize) -> String {
    match space {
        0..=5 => format!("{} II", Action::ALL[space].word()),
        6..=11 => format!("{} III", Action::ALL[space - 6].word()),
        12..=14 => format!("GOAL {}", space - 11),
        _ => "PERSONAL".into(),
    }
}

/// A research space by name (`TRADE II`, `trade-ii`, `GOAL 2`, `PERSONAL`), from its
/// words.
pub fn parse_research(words: &[&str]) -> Option<usize> {
    let joined = words.join(" ").to_ascii_uppercase().replace('-', " ");
    let w: Vec<&str> = joined.split_whitespace().collect();
    match w.as_slice() {
        ["PERSONAL"] => Some(PERSONAL),
        ["GOAL", n] => match *n {
            "1" => Some(12),
            "2" => Some(13),
            "3" => Some(14),
            _ => None,
        },
        [a @ .., l] => {
            let action = parse_action_words(a)?;
            match parse_level(l)? {
                2 => Some(action.index()),
                3 => Some(6 + action.index()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An action from one word, or from `SPACE TRAVEL` split at its hyphen.
pub fn parse_action_words(words: &[&str]) -> Option<Action> {
    match words {
        [w] => Action::parse(w),
        [a, b] => Action::parse(&format!("{a}-{b}")),
        _ => None,
    }
}

/// A dynasty space (H2.7): `<action> <level>` (index action × 3 + level − 1) or
/// [`CENTER`].
pub const CENTER: usize = 18;
pub const DYNASTY_SPACES: usize = 19;

pub fn dynasty_space(action: Action, level: u8) -> usize {
    action.index() * 3 + usize::from(level) - 1
}

pub fn dynasty_name(space: usize) -> String {
    if space == CENTER {
        "CENTER".into()
    } else {
        format!(
            "{} {}",
            Action::ALL[space / 3].word(),
            level_word(space as u8 % 3 + 1)
        )
    }
}

/// The action and level of a dynasty space (not CENTER).
pub fn space_parts(space: usize) -> (Action, u8) {
    (Action::ALL[space / 3], space as u8 % 3 + 1)
}

/// A dynasty space by name (`TRADE II`, `TRADE-II`, `CENTER`, `CENTRE`).
pub fn parse_dynasty(words: &[&str]) -> Option<usize> {
    let joined = words.join(" ").to_ascii_uppercase().replace('-', " ");
    let w: Vec<&str> = joined.split_whitespace().collect();
    match w.as_slice() {
        ["CENTER"] | ["CENTRE"] => Some(CENTER),
        [a @ .., l] => Some(dynasty_space(parse_action_words(a)?, parse_level(l)?)),
        _ => None,
    }
}
