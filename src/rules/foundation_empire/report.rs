//! What players read of a Foundation and Empire game: the board drawn as text, and the
//! results of a phase as a view model for the mail templates.

use super::board::Sector;
use super::outcome::Report;
use super::position::State;

/// The board as text: one cell per sector, 7 characters wide, so the standard 8×6
/// board is 69 columns. A cell shows the system (first three letters) and its owner's
/// tag (`.` for nobody) on its first line; on its second, the fleet's tag and, when
/// the fleet is occupying a system it does not own, its progress (`2/4`, R8.1–R8.2).
pub fn board_text(state: &State) -> String {
    let b = &state.board;
    let (width, height) = (b.width(), b.height());
    let occupancy = state.occupancy();
    let mut out = String::from("    ");
    for col in 0..width {
        let name = b.name(Sector(col));
        let letters = name.trim_end_matches(|c: char| c.is_ascii_digit());
        out += &format!("   {letters:<5}");
    }
    out.push('\n');
    let rule = format!("    +{}\n", "-------+".repeat(width as usize));
    out += &rule;
    for row in 0..height {
        let mut top = format!("{:>3} |", row + 1);
        let mut bottom = String::from("    |");
        for col in 0..width {
            let s = Sector(row * width + col);
            let system = b.system_at(s);
            let first = match system {
                Some(id) => {
                    let name: String = b.system(id).name.chars().take(3).collect();
                    let owner = state.owners[id.0 as usize]
                        .map(|p| b.power(p).tag.clone())
                        .unwrap_or_else(|| ".".into());
                    format!("{name:<3} {owner:<2}")
                }
                None => String::new(),
            };
            let fleet = occupancy[s.0 as usize];
            let second = if fleet == u32::MAX {
                String::new()
            } else {
                let f = &state.fleets[fleet as usize];
                let tag = &b.power(f.power).tag;
                let occupying =
                    system.is_some_and(|id| state.owners[id.0 as usize] != Some(f.power));
                if occupying {
                    let needed = state.options.occupation_turns;
                    format!("[{tag}] {}/{needed}", f.stay.min(needed))
                } else {
                    format!("[{tag}]")
                }
            };
            top += &format!("{first:<7}|");
            bottom += &format!("{second:<7}|");
        }
        out += &top;
        out.push('\n');
        out += &bottom;
        out.push('\n');
        out += &rule;
    }
    out += &legend(state);
    out
}

/// What the board's marks mean, under it, one mark a line: a system with its owner
/// and with none, a fleet, a fleet occupying a system (R8.2); then the tag of every
/// power in play.
fn legend(state: &State) -> String {
    let b = &state.board;
    let powers = state.powers_in_play();
    let tag = powers.first().map_or("F", |&p| b.power(p).tag.as_str());
    let system: String = b
        .systems()
        .next()
        .map_or("Ter".into(), |(_, s)| s.name.chars().take(3).collect());
    let needed = state.options.occupation_turns;
    let mut out = String::new();
    for (mark, meaning) in [
        (
            format!("{system} {tag}"),
            "a system (first letters of its name) and its owner".to_string(),
        ),
        (format!("{system} ."), "a system owned by nobody".into()),
        (format!("[{tag}]"), format!("a fleet of {tag}")),
        (
            format!("[{tag}] 1/{needed}"),
            format!("a fleet occupying: 1 turn of the {needed} that take a system"),
        ),
    ] {
        out += &crate::report::wrap(format!("    {mark:<8} {meaning}"), 72, 13);
        out.push('\n');
    }
    let names: Vec<String> = powers
        .iter()
        .map(|&p| format!("{} {}", b.power(p).tag, b.power(p).name))
        .collect();
    out += &crate::report::wrap(format!("    {}", names.join(", ")), 72, 4);
    out.push('\n');
    out
}

pub use crate::rules::{ResultLine, ResultsView};

pub fn results_view(after: &State, report: &Report) -> ResultsView {
    let b = &after.board;
    let results = report
        .results
        .iter()
        .map(|r| ResultLine {
            power: b.power(r.power).id.clone(),
            order: r.order_text(b),
            outcome: r.outcome.id(),
            detail: r.detail_text(b),
        })
        .collect();
    let mut events = Vec::new();
    for d in &report.dice {
        let fleets: Vec<String> = d.fleets.iter().map(|&s| b.name(s)).collect();
        events.push(format!(
            "Imperium group {} ({}): rolled {}, {}",
            d.group,
            fleets.join(" "),
            d.roll,
            d.action
        ));
    }
    for d in &report.destroyed {
        events.push(format!(
            "{} fleet in {} destroyed: {}",
            b.power(d.power).name,
            b.name(d.at),
            d.why.text(b)
        ));
    }
    for c in &report.captures {
        let from = c
            .from
            .map(|p| format!(" from {}", b.power(p).name))
            .unwrap_or_default();
        events.push(format!(
            "{} takes {}{from}",
            b.power(c.power).name,
            b.system(c.system).name
        ));
    }
    for l in &report.lost_placements {
        events.push(format!(
            "{} loses the new fleet of {}: {}",
            b.power(l.power).name,
            b.system(l.system).name,
            l.why.text(b, l.system)
        ));
    }
    for p in &report.eliminated {
        events.push(format!("{} is eliminated", b.power(*p).name));
    }
    // What the next phase asks, where every player can read it (not only in
    // results.json).
    events.extend(phase_asks(after));
    ResultsView {
        results,
        events,
        systems: systems_owned(after),
    }
}

/// What the phase asks, one line each: the dislodged fleets' legal retreats (R6.1)
/// and where each new fleet may be placed (R8.4). Results mails tell it when the
/// phase begins, BOARD replies while it lasts.
pub fn phase_asks(state: &State) -> Vec<String> {
    let b = &state.board;
    let mut out = Vec::new();
    if state.dislodged.is_empty() && state.pending.is_empty() {
        return out;
    }
    let occupancy = state.occupancy();
    let names = |sectors: Vec<Sector>| {
        let names: Vec<String> = sectors.into_iter().map(|s| b.name(s)).collect();
        names.join(" ")
    };
    for d in &state.dislodged {
        let to = super::movement::retreats(state, &occupancy, d);
        out.push(if to.is_empty() {
            format!(
                "{} fleet in {} is dislodged and has no retreat",
                b.power(d.fleet.power).name,
                b.name(d.fleet.at)
            )
        } else {
            format!(
                "{} fleet in {} is dislodged; it may retreat to {} (or DISBAND)",
                b.power(d.fleet.power).name,
                b.name(d.fleet.at),
                names(to)
            )
        });
    }
    for p in &state.pending {
        let to = super::turn::placement_sectors(state, &occupancy, p.system);
        out.push(format!(
            "{} places a new fleet for {} in one of: {}",
            b.power(p.power).name,
            b.system(p.system).name,
            if to.is_empty() {
                "(no free sector)".to_string()
            } else {
                names(to)
            }
        ));
    }
    out
}

/// The systems owned and their owners' names, in the board's order of systems.
pub fn systems_owned(state: &State) -> Vec<(String, String)> {
    let b = &state.board;
    b.systems()
        .filter_map(|(id, s)| {
            let owner = state.owners[id.0 as usize]?;
            Some((s.name.clone(), b.power(owner).name.clone()))
        })
        .collect()
}

/// An example orders mail body for `power` in the current phase, from the position
/// itself (welcome mails and HELP).
pub fn example_orders(state: &State, power: &str) -> String {
    use super::position::Phase;
    let b = &state.board;
    let Some(p) = b.power_by_id(power) else {
        return String::new();
    };
    let mut lines = Vec::new();
    match state.phase {
        Phase::Setup => {
            for s in b.home_sectors(p).filter_map(|s| b.system_at(s)).take(3) {
                lines.push(format!("PLACE {}", b.system(s).name));
            }
        }
        Phase::Movement => {
            for (k, f) in state
                .fleets
                .iter()
                .filter(|f| f.power == p)
                .take(3)
                .enumerate()
            {
                let next = b.neighbours(f.at).as_slice().first().copied();
                match next {
                    Some(to) if k % 2 == 1 => {
                        lines.push(format!("{} - {}", b.name(f.at), b.name(to)))
                    }
                    _ => lines.push(format!("{} H", b.name(f.at))),
                }
            }
        }
        Phase::Retreat => {
            for d in state.dislodged.iter().filter(|d| d.fleet.power == p) {
                lines.push(format!("{} DISBAND", b.name(d.fleet.at)));
            }
        }
        Phase::Placement => {
            for pending in state.pending.iter().filter(|x| x.power == p) {
                lines.push(format!("PLACE {}", b.system(pending.system).name));
            }
        }
        Phase::Over => {}
    }
    lines.join("\n")
}

/// The race after a phase: each power's systems (and fleets), with what it needs to
/// win. In a solo game one line for both sides (R10.4): the turns played of the
/// limit, the Foundation's systems against the 13 it needs, and the Imperium's.
pub fn standing(state: &State) -> Vec<String> {
    use super::position::Phase;
    let b = &state.board;
    let counts = state.system_counts();
    // A dislodged fleet waiting for its retreat is still the power's (R6).
    let retreating = |p: super::board::PowerId| {
        state
            .dislodged
            .iter()
            .filter(|d| d.fleet.power == p)
            .count()
    };
    let fleets = |p: super::board::PowerId| {
        state.fleets.iter().filter(|f| f.power == p).count() + retreating(p)
    };
    let waiting = |p: super::board::PowerId| match retreating(p) {
        0 => String::new(),
        n => format!(" ({n} to retreat)"),
    };
    let goal = state.options.victory_systems;
    if state.options.solo {
        let (Some(human), Some(imperium)) = (state.human(), state.judge_power()) else {
            return Vec::new();
        };
        // Turns whose end has passed: a turn ends after its movement and retreats,
        // before its placement phase.
        let played = match state.phase {
            Phase::Setup => 0,
            Phase::Movement | Phase::Retreat => state.turn.saturating_sub(1),
            Phase::Placement | Phase::Over => state.turn,
        };
        let turns = match state.options.turn_limit {
            Some(limit) => format!("{played} of {limit} turns"),
            None if played == 1 => "1 turn".to_string(),
            None => format!("{played} turns"),
        };
        let side = |p: super::board::PowerId| {
            format!(
                "{} {}, {}{}",
                b.power(p).name,
                plural(counts[p.0 as usize] as usize, "system"),
                plural(fleets(p), "fleet"),
                waiting(p)
            )
        };
        let (aim, hold) = if state.phase == Phase::Over {
            (String::new(), String::new())
        } else {
            let hold = state
                .options
                .turn_limit
                .map(|t| format!(" (wins after turn {t})"))
                .unwrap_or_default();
            (format!(" ({goal} win)"), hold)
        };
        return vec![format!(
            "After {turns}: {}{aim}; {}{hold}.",
            side(human),
            side(imperium)
        )];
    }
    // Most systems first (ties in the board's order of powers), the names padded to
    // the longest so the numbers stand in columns.
    let mut powers = state.powers_in_play();
    powers.sort_by_key(|p| (std::cmp::Reverse(counts[p.0 as usize]), p.0));
    let width = powers
        .iter()
        .map(|&p| b.power(p).name.chars().count())
        .max()
        .unwrap_or(0);
    // R9.3: with a turn limit, the most systems after its last turn win as well.
    let limit = match state.options.turn_limit {
        Some(t) if state.phase != Phase::Over => format!(", or the most after turn {t}"),
        _ => String::new(),
    };
    let mut out = vec![format!("Systems owned ({goal} win{limit}):")];
    out.extend(powers.into_iter().map(|p| {
        let (n, f) = (counts[p.0 as usize] as usize, fleets(p));
        format!(
            "  {:<width$}  {n:>2} {:<8} {f:>2} {}{}",
            b.power(p).name,
            if n == 1 { "system" } else { "systems" },
            if f == 1 { "fleet" } else { "fleets" },
            waiting(p)
        )
    }));
    out
}

fn plural(n: usize, what: &str) -> String {
    crate::rules::counted(n as u64, what, &format!("{what}s"))
}
