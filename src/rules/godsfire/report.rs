//! What players read: the text report of every power's systems (regions with economy,
//! party, allegiance and revolt; banks; treasury; loans; stakes) and the results view
//! the mail templates render.

use std::fmt::Write;

use super::defence::units_text;
use super::outcome::Log;
use super::state::{State, NEUTRAL};

/// The text report of the position, power by power, then the neutrals.
pub fn board_text(state: &State) -> String {
    // The turn and phase are in every mail's first line (the judge's templates).
    let mut out = String::new();
    // The first stake shown, for the legend's example.
    let mut example: Option<(String, u8)> = None;
    let mut owners: Vec<String> = state.powers.iter().map(|p| p.id.clone()).collect();
    owners.push(NEUTRAL.to_string());
    for owner in owners {
        if !out.is_empty() {
            out.push('\n');
        }
        match state.power(&owner) {
            // A power out of the game has nothing left to tell (G10.1): no treasury to
            // spend, no loans to pay (a game saved before may still hold them), no war
            // to wage.
            Some(p) if p.out => {
                let _ = writeln!(out, "{}: out of the game", p.id);
            }
            Some(p) => {
                // Each loan as its instalments left, and what the next interphase
                // takes from the treasury (G6.2): enough to plan by.
                let mut loans: Vec<String> = p
                    .loans
                    .iter()
                    .filter(|l| l.left > 0)
                    .map(|l| {
                        let s = if l.left == 1 { "" } else { "s" };
                        format!("{} instalment{s} of {}", l.left, l.instalment)
                    })
                    .collect();
                if !loans.is_empty() {
                    let due: u32 = p
                        .loans
                        .iter()
                        .filter(|l| l.left > 0)
                        .map(|l| l.instalment)
                        .sum();
                    let last = loans.len() - 1;
                    loans[last] += &format!(" ({due} due at the next interphase)");
                }
                let _ = writeln!(
                    out,
                    "{}: NG at {}, treasury {}, loyalty R{} M{} E{}",
                    p.id, p.ng, p.treasury, p.loyalty.r, p.loyalty.m, p.loyalty.e
                );
                let _ = writeln!(
                    out,
                    "  loans: {}; at war with: {}{}{}",
                    if loans.is_empty() {
                        "none".to_string()
                    } else {
                        loans.join(", ")
                    },
                    match in_order(state, &p.at_war) {
                        wars if wars.is_empty() => "nobody".to_string(),
                        wars => wars,
                    },
                    match in_order(state, &p.declared_war) {
                        wars if wars.is_empty() => String::new(),
                        wars => format!(" (declared on {wars})"),
                    },
                    if p.ministers_changed {
                        "; ministers changed"
                    } else {
                        ""
                    }
                );
            }
            None => {
                let _ = writeln!(out, "neutral systems:");
            }
        }
        for (s, system) in state.systems.iter().enumerate() {
            if system.owner != owner {
                continue;
            }
            let _ = writeln!(
                out,
                "  {} at {}, bank {}{}",
                system.name,
                system.at,
                system.bank,
                match system.garrison {
                    Some(g) if system.owner == NEUTRAL => format!(", garrison {}", units_text(g)),
                    _ => String::new(),
                }
            );
            for at in state.system_regions(s) {
                let id = state.region_name(at);
                let r = state.region(at);
                let standing = if r.in_revolt() {
                    "IN REVOLT".to_string()
                } else {
                    format!("allegiance {}", r.allegiance)
                };
                let mut stakes: Vec<_> = state.stakes.iter().filter(|k| k.region == id).collect();
                stakes.sort_by_key(|k| state.rank(&k.power));
                if example.is_none() {
                    example = stakes.first().map(|k| (k.power.clone(), k.circle));
                }
                let stakes: Vec<String> = stakes
                    .iter()
                    .map(|k| format!("{}({})", k.power, k.circle))
                    .collect();
                let counter = state.counters.iter().any(|c| c.region == id);
                let _ = writeln!(
                    out,
                    "    {id:<14} {:<4} {}  {standing}{}{}",
                    r.economy.name(),
                    r.party,
                    if stakes.is_empty() {
                        String::new()
                    } else {
                        format!("  stakes: {}", stakes.join(" "))
                    },
                    if counter { "  counter" } else { "" }
                );
            }
        }
        // G2.1: the power's stacks, place by place.
        let stacks: Vec<String> = state
            .stacks
            .iter()
            .filter(|k| k.power == owner && k.units.total() > 0)
            .map(|k| format!("    {:<14} {}", k.at, units_text(k.units)))
            .collect();
        if !stacks.is_empty() {
            let _ = writeln!(
                out,
                "  {} units:",
                if owner == NEUTRAL { "neutral" } else { "its" }
            );
            for line in stacks {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    legend(state, example, &mut out);
    map_text(state, &mut out);
    if !state.transit.is_empty() {
        out += "\nMoney in transit:\n";
        for t in &state.transit {
            let to = if t.to.eq_ignore_ascii_case("NG") {
                "the NG"
            } else {
                &t.to
            };
            let _ = writeln!(
                out,
                "  {}'s transfer of {} to {to}, arrives in turn {}",
                t.power, t.amount, t.arrives_turn
            );
        }
    }
    if !state.purchases.is_empty() {
        out += "\nBought, placed in the defence phase:\n";
        for p in &state.purchases {
            let _ = writeln!(
                out,
                "  {} at {}: {}",
                p.power,
                p.region,
                units_text(p.units)
            );
        }
    }
    fit(&out, WIDTH)
}

/// What the region lines' `stakes: blue(3)` and `counter` mean (G7.3, G9.2), under the
/// systems when any is shown; `example` is the first stake shown.
fn legend(state: &State, example: Option<(String, u8)>, out: &mut String) {
    let shown = example.is_some();
    if let Some((power, n)) = example {
        let _ = writeln!(
            out,
            "\nstakes: {power}({n}) is {power}'s subversion stake; it acts at the next {n} \
             interphase{}, each time taking 1 allegiance from its region (once, however \
             many stakes) unless the region has counter-subversion (G7.3).",
            if n == 1 { "" } else { "s" }
        );
    }
    if !state.counters.is_empty() {
        let _ = writeln!(
            out,
            "{}counter: counter-subversion, which stops the region's stakes at the next \
             interphase, then is removed (G9.2, G7.3).",
            if shown { "" } else { "\n" }
        );
    }
}

/// Power ids in the game's order, joined with commas, those out of the game left out
/// (a war with one is over, G10.1: a state read or adjudicated lists none already).
fn in_order(state: &State, ids: &[String]) -> String {
    let mut ids: Vec<&str> = ids
        .iter()
        .map(String::as_str)
        .filter(|id| state.power(id).is_some_and(|p| !p.out))
        .collect();
    ids.sort_by_key(|id| state.rank(id));
    ids.join(", ")
}

/// The widest line of a mail.
const WIDTH: usize = 72;

/// `text` with every line longer than `width` broken at its last space that fits, the
/// rest indented four more than the line (a region with many stakes, a power with many
/// loans and wars).
fn fit(text: &str, width: usize) -> String {
    if text.lines().all(|l| l.chars().count() <= width) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len() + 4;
        let mut rest = line;
        let mut first = true;
        loop {
            let room = if first { width } else { width - indent };
            if !first {
                out.extend(std::iter::repeat_n(' ', indent));
            }
            if rest.chars().count() <= room {
                out.push_str(rest);
                out.push('\n');
                break;
            }
            let end = rest.char_indices().nth(room).map_or(rest.len(), |(i, _)| i);
            // The last space that fits, after the indentation; none: cut at the width.
            let lead = rest.len() - rest.trim_start().len();
            let cut = rest[..end].rfind(' ').filter(|&i| i > lead).unwrap_or(end);
            out.push_str(rest[..cut].trim_end());
            out.push('\n');
            rest = rest[cut..].trim_start();
            first = false;
            if rest.is_empty() {
                break;
            }
        }
    }
    out
}

/// A small map of the board, when it fits in 72 columns: `*` a system's cell, `~`
/// nebula, `.` open space, each followed by who has units there (a power's initial,
/// `n` the neutrals, `+` several).
fn map_text(state: &State, out: &mut String) {
    let width = usize::from(state.map.width);
    if width * 3 + 4 > WIDTH || state.map.height > 40 {
        return;
    }
    let initials: Vec<char> = state
        .powers
        .iter()
        .map(|p| p.id.chars().next().unwrap_or('?').to_ascii_uppercase())
        .collect();
    let unique = initials
        .iter()
        .enumerate()
        .all(|(k, c)| !initials[..k].contains(c) && *c != 'N');
    let mark = |k: usize| -> char {
        if unique {
            initials[k]
        } else {
            char::from_digit((k + 1) as u32 % 36, 36).unwrap_or('?')
        }
    };
    let mut who: std::collections::HashMap<String, Option<char>> = std::collections::HashMap::new();
    for k in state.stacks.iter().filter(|k| k.units.total() > 0) {
        let Some(cell) = super::map::Cell::parse(&k.at) else {
            continue;
        };
        let c = match state.power_index(&k.power) {
            Some(p) => mark(p),
            None => 'n',
        };
        let entry = who.entry(cell.to_string()).or_insert(Some(c));
        if *entry != Some(c) {
            *entry = None;
        }
    }
    out.push_str("\nMap (* system, ~ nebula; who has units there):\n    ");
    for col in 0..width {
        let _ = write!(out, " {} ", (b'A' + col as u8) as char);
    }
    out.push('\n');
    for row in 1..=state.map.height {
        let _ = write!(out, "{row:>3} ");
        for col in 0..width {
            let cell = super::map::Cell {
                col: col as u8,
                row,
            };
            let ground = if state.systems.iter().any(|s| s.at == cell) {
                '*'
            } else if state.map.nebula.contains(&cell) {
                '~'
            } else {
                '.'
            };
            let units = match who.get(&cell.to_string()) {
                None => ' ',
                Some(Some(c)) => *c,
                Some(None) => '+',
            };
            let _ = write!(out, " {ground}{units}");
        }
        // No trailing spaces.
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    let legend: Vec<String> = state
        .powers
        .iter()
        .enumerate()
        .map(|(k, p)| format!("{} {}", mark(k), p.id))
        .chain(["n neutral".to_string()])
        .collect();
    let _ = writeln!(out, "    {}", legend.join(", "));
}

pub use crate::rules::{ResultLine, ResultsView};

/// The mails' view of a phase: the results power by power in the game's order (each
/// power's lines as written), the events, the systems owned.
pub fn results_view(after: &State, log: &Log) -> ResultsView {
    let mut lines: Vec<&super::outcome::LineResult> = log.results.iter().collect();
    lines.sort_by_key(|r| after.rank(&r.power));
    let results = lines
        .into_iter()
        .map(|r| ResultLine {
            power: r.power.clone(),
            order: r.order.clone(),
            outcome: r.outcome.id(),
            detail: r.detail.clone(),
        })
        .collect();
    // The setup's rolls (G1.5: party 2d6, allegiance and economy 1d6), one line a
    // region: `[G1.5] Polaris-1a rolled: party 8, allegiance 3, economy 6`.
    let mut events: Vec<String> = Vec::new();
    let mut region_told: Option<&str> = None;
    for d in log.dice.iter().filter(|d| d.step == "G1.5") {
        let (region, what) = d.subject.rsplit_once(' ').unwrap_or((&d.subject, ""));
        let part = format!("{what} {}", d.roll);
        match events.last_mut() {
            Some(line) if region_told == Some(region) => {
                line.push_str(", ");
                line.push_str(&part);
            }
            _ => events.push(format!("[G1.5] {region} rolled: {part}")),
        }
        region_told = Some(region);
    }
    events.extend(
        log.events
            .iter()
            .map(|e| format!("[{}] {}", e.step, e.text)),
    );
    // What the next phase asks, in the BOARD's words, where every player reads it (not
    // only by asking BOARD): after a movement phase, the stacks in contact in the
    // combat phase that follows (G5.9).
    events.extend(
        phase_asks(after)
            .into_iter()
            .map(|a| format!("[G5.9] due in the combat phase: {a}")),
    );
    let systems = after
        .systems
        .iter()
        .filter(|s| s.owner != NEUTRAL)
        .map(|s| (s.name.clone(), s.owner.clone()))
        .collect();
    ResultsView {
        results,
        events,
        systems,
    }
}

/// What the combat phase asks (G5.9), one line a pair of hostile stacks in contact: in
/// the same place, in adjacent cells, or a system's cell and a region of it, where an
/// ATTACK may be given. Nothing in the other phases (their orders are the whole board's).
/// BOARD replies tell it while the phase lasts, the movement results when it begins.
pub fn phase_asks(state: &State) -> Vec<String> {
    use super::place::{Place, Position};
    use super::state::Phase;
    if state.phase != Phase::Combat {
        return Vec::new();
    }
    let pos = Position::new(state);
    let whose = |side: usize| match pos.sides.ids.get(side) {
        Some(id) if id != NEUTRAL => format!("{id}'s"),
        _ => "the neutral".to_string(),
    };
    // Each pair once, by its two (place, side) in order; the stacks' units beside.
    let mut pairs = std::collections::BTreeMap::new();
    for (a, s, units) in pos.board.iter() {
        if units.is_empty() {
            continue;
        }
        for b in pos.contact_places(a) {
            for (t, other) in pos.board.at(b) {
                if other.is_empty() || !pos.sides.hostile(s, t) {
                    continue;
                }
                if (a, s) <= (b, t) {
                    pairs.insert(((a, s), (b, t)), (units, other));
                } else {
                    pairs.insert(((b, t), (a, s)), (other, units));
                }
            }
        }
    }
    pairs
        .into_iter()
        .map(|(((a, s), (b, t)), (u, v))| {
            let at = |p: Place| state.place_name(p);
            if a == b {
                format!(
                    "{} {} and {} {} at {} are in contact",
                    whose(s),
                    units_text(u),
                    whose(t),
                    units_text(v),
                    at(a)
                )
            } else {
                format!(
                    "{} {} at {} and {} {} at {} are in contact",
                    whose(s),
                    units_text(u),
                    at(a),
                    whose(t),
                    units_text(v),
                    at(b)
                )
            }
        })
        .collect()
}

/// An example orders mail body for `power` in the current phase, from the position
/// itself (welcome mails and HELP).
pub fn example_orders(state: &State, power: &str) -> String {
    use super::place::{Place, Position};
    use super::state::Phase;
    let pos = Position::new(state);
    let Some(me) = state.power_index(power) else {
        return String::new();
    };
    let mine: Vec<(Place, super::map::Units)> = pos
        .board
        .iter()
        .filter(|&(_, side, u)| side == me && !u.is_empty())
        .map(|(p, _, u)| (p, u))
        .collect();
    match state.phase {
        Phase::Movement => {
            let mut lines = Vec::new();
            for &(place, units) in &mine {
                let Place::Cell(c) = place else { continue };
                let Some(kind) = super::map::UnitType::ALL
                    .into_iter()
                    .find(|&k| units.get(k) > 0)
                else {
                    continue;
                };
                let free = pos
                    .geo
                    .neighbours(c)
                    .into_iter()
                    .find(|&n| !pos.geo.nebula(n) && !pos.hostile_at(Place::Cell(n), me));
                if let Some(n) = free {
                    lines.push(format!("{c} 1{} -> {n}", kind.name()));
                    if units.total() > 1 {
                        lines.push(format!("{c} INTERCEPT"));
                    }
                    break;
                }
            }
            lines.push("LOSSES AG SQD PDF".into());
            lines.join("\n")
        }
        Phase::Combat => {
            let attack = mine.iter().find_map(|&(place, units)| {
                pos.contact_places(place)
                    .find(|&t| {
                        pos.hostile_at(t, me)
                            && !super::check::can_attack(&pos, units, place, t).is_empty()
                            && (t == place || pos.geo.adjacent(place, t))
                            && !matches!((place, t), (Place::Region(a), Place::Region(b)) if a != b)
                    })
                    .map(|t| format!("{} ATTACK {}", state.place_name(place), state.place_name(t)))
            });
            let mut lines: Vec<String> = attack.into_iter().collect();
            lines.push("LOSSES AG SQD PDF".into());
            lines.join("\n")
        }
        Phase::Defence => state
            .regions()
            .find(|&at| state.owner(at) == power)
            .map(|at| format!("COUNTER {}", state.region_name(at)))
            .unwrap_or_default(),
        Phase::Over => String::new(),
        Phase::Interphase => {
            let own: Vec<_> = state
                .regions()
                .filter(|&at| state.owner(at) == power)
                .collect();
            let Some(&first) = own.first() else {
                return String::new();
            };
            let mut lines = vec![format!("LOYALTY {} 1", state.region_name(first))];
            // ECON grows only a moderate region (G6.5).
            if let Some(&second) = own
                .iter()
                .skip(1)
                .find(|&&at| state.region(at).party == super::map::Party::M)
            {
                lines.push(format!("ECON {}", state.region_name(second)));
            }
            lines.join("\n")
        }
    }
}

/// Each power's systems and regions, most systems first.
pub fn standing(state: &State) -> Vec<String> {
    let mut lines: Vec<(usize, String)> = state
        .powers_in_play()
        .map(|p| {
            let n = state.systems_owned(&p.id);
            (
                n,
                format!(
                    "  {:<10} {n:>2} systems, {:>3} regions",
                    p.id,
                    state.regions_owned(&p.id)
                ),
            )
        })
        .collect();
    // Most systems first; ties in the game's order (powers_in_play keeps it).
    lines.sort_by_key(|l| std::cmp::Reverse(l.0));
    let mut out = vec!["Standing:".to_string()];
    out.extend(lines.into_iter().map(|(_, l)| l));
    out
}

#[cfg(test)]
mod tests {
    use super::fit;

    #[test]
    fn long_lines_break_at_a_space_and_indent_the_rest() {
        let line =
            "    Procyon-1a     A-2  M  allegiance 4  stakes: blue(3) green(3) yellow(3)  counter";
        let text = format!("short\n{line}\n");
        let out = fit(&text, 72);
        assert!(out.lines().all(|l| l.chars().count() <= 72), "{out}");
        let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(words(&out), words(&text));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "short");
        assert!(lines[2].starts_with("        ") && !lines[2].starts_with("         "));
        // Already short: unchanged. A word longer than the width is cut.
        assert_eq!(fit("a b\n", 72), "a b\n");
        let long = "x".repeat(100);
        let out = fit(&long, 72);
        assert!(out.lines().all(|l| l.chars().count() <= 72), "{out}");
        assert_eq!(out.replace([' ', '\n'], ""), long);
    }
}
