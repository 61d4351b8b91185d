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
    let legend: Vec<String> = b
        .powers()
        .map(|(_, p)| format!("{} {}", p.tag, p.name))
        .collect();
    out += &format!("    {}\n", legend.join(", "));
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
            d.why
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
            l.why
        ));
    }
    for p in &report.eliminated {
        events.push(format!("{} is eliminated", b.power(*p).name));
    }
    let systems = b
        .systems()
        .filter_map(|(id, s)| {
            let owner = after.owners[id.0 as usize]?;
            Some((s.name.clone(), b.power(owner).name.clone()))
        })
        .collect();
    ResultsView {
        results,
        events,
        systems,
    }
}
