//! Receipts (H4.4): each line of a submission previewed against the position it will
//! meet when it is carried out, as far as that is known when the mail comes in.
//!
//! Her turn comes after the turns of the players before her in the phase (round pace),
//! or her start after theirs (setup). Their orders are not known (nor shown), so their
//! turns are played here with no lines: what happens anyway (the Empire's move at the
//! end of the kin holder's turn, the collisions it makes, the default returns) is in
//! the position her lines meet. What their orders could still change is not promised:
//! a line that reads the shared board (gates, stocks, colony tiles, the supply, the
//! Empire's ships) after such turns, or that comes after such a line, is "checked
//! when carried out" (marked `later`; `unused` or `WARNING` when, as far as known now,
//! it would not be carried out or would fail), with what it would do as far as known
//! now. So is what follows a draw the receipt does not make, and her own kins and hand
//! when an out-of-turn battle before her turn could take one of her kins. Everything
//! else keeps its plain verdict ("if played now", marked `ok`; "not carried out as
//! things stand", `unused`; "not possible as things stand", `WARNING`). The turns after
//! hers in the phase are played with no lines too: a ship of hers the Empire's move
//! would send back to her supply after her lines (H7.2) makes a `WARNING`.

use super::data::{dynasty_space, Action, CENTER};
use super::order::{Kind, Line, Order};
use super::outcome::{LineResult, Outcome};
use super::state::{Pace, Phase, State};
use super::turn::{
    play_turn, read_submission, standing_response, unused_lines, Ctx, Drawer, Lost, Written,
};
use crate::rules::words::and_list;

/// A dry run's detail for a draw it leaves to the adjudication (draft, prophecy).
pub const AT_ADJUDICATION: &str = "at adjudication";

/// One line previewed: its result on the position as far as known, and whether
/// orders not yet known (or a draw not yet made) may still change it.
#[derive(Clone, Debug)]
pub struct Preview {
    pub result: LineResult,
    pub open: bool,
    /// Her ships the Empire's move would send back to her supply after her lines
    /// (H7.2), said on this line: `then her ship on B3 returns …`.
    pub lost_after: Vec<String>,
}

/// A submission previewed: one [`Preview`] per line, and what comes before her lines
/// that the receipt cannot know (`after red's turn …`), empty when nothing does.
#[derive(Clone, Debug, Default)]
pub struct Trial {
    pub lines: Vec<Preview>,
    pub after: String,
}

/// "after red's turn (the Empire moves at its end)", "after the starts of green and blue".
fn after_text(names: &[String], what: &str, movers: &[String]) -> String {
    let mut text = match names {
        [one] => format!("after {one}'s {what}"),
        _ => format!("after the {what}s of {}", and_list(names)),
    };
    match movers {
        [] => {}
        [m] if names.len() == 1 && names[0] == *m => {
            text.push_str(" (the Empire moves at its end)");
        }
        _ => {
            let ms: Vec<String> = movers.iter().map(|m| format!("{m}'s")).collect();
            text.push_str(&format!(
                " (the Empire moves at the end of {})",
                and_list(&ms)
            ));
        }
    }
    text
}

/// Whether an order reads the shared board: gates, stocks, colony tiles, the Empire's
/// ships. Kin moves and Research read only her own board and hand (a dividend's cube
/// comes from the supply, but whether the order is carried out does not depend on it).
fn shared_order(o: &Order) -> bool {
    match o {
        Order::Place { .. } | Order::Raise { .. } | Order::Retrieve { .. } => false,
        Order::Act(acts) => acts
            .iter()
            .any(|a| a.mods.via.is_some() || !matches!(a.kind, Kind::Research { .. })),
    }
}

/// Whether an out-of-turn battle (H7.2) could take one of her kins before her turn:
/// the Empire moves first, she has a ship on the board, battles, and has a kin on a
/// space that can battle.
fn kins_at_stake(ctx: &Ctx, seat: u8) -> bool {
    let p = ctx.core.player(seat);
    p.ships != 0
        && p.battle
        && (1..=3)
            .map(|l| dynasty_space(Action::Battle, l))
            .chain([CENTER])
            .any(|sp| p.on(sp) > 0)
}

/// A receipt's trial: her lines played as her turn (her start, in the setup) on the
/// position as it will stand then, as far as known, with nothing drawn and nothing
/// secret said. One preview per line.
pub fn trial(state: &State, seat: u8, text: &str) -> Trial {
    let data = &*state.data;
    let setup = state.core.phase == Phase::Setup;
    let sub = read_submission(data, text, setup);
    let mut ctx = Ctx::new(
        data,
        &state.seating,
        *state.core,
        Drawer::new(0, Vec::new()),
        true,
    );
    let n = state.core.seats;
    if setup {
        // H3.3: the Empire kin holder first, then backwards through the seating. The
        // starts before hers are not known: her lines meet the position as it stands.
        let first = state.core.empire_kin;
        let names: Vec<String> = (0..n)
            .map(|k| (first + n - k) % n)
            .take_while(|&s| s != seat)
            .map(|s| state.name(s).to_string())
            .collect();
        super::setup::start_lines(&mut ctx, seat, &sub);
        let after = if names.is_empty() {
            String::new()
        } else {
            after_text(&names, "start", &[])
        };
        let lines = previews(&ctx, seat, &sub, !after.is_empty(), false, false);
        return Trial { lines, after };
    }
    // H7.5: her standing response counts from the start of the phase.
    standing_response(&mut ctx, seat, &sub, " from the start of the phase");
    // The turns before hers (H4.1), played with no lines.
    let next = state.core.next;
    let before: Vec<u8> = (0..n)
        .map(|k| (next + k) % n)
        .take_while(|&s| s != seat)
        .collect();
    let mut names = Vec::new();
    let mut movers = Vec::new();
    let mut kins_open = false;
    let mut going = true;
    for &s in &before {
        names.push(state.name(s).to_string());
        if ctx.core.empire_kin == s {
            movers.push(state.name(s).to_string());
            kins_open |= kins_at_stake(&ctx, seat);
        }
        going = play_turn(&mut ctx, s, &[], true, state.options.round_limit);
        if !going {
            break;
        }
    }
    if !going {
        // The round limit ends the game before her turn, whatever anyone writes.
        unused_lines(&mut ctx, seat, &sub, "the game is over");
        let lines = previews(&ctx, seat, &sub, false, false, false);
        return Trial {
            lines,
            after: String::new(),
        };
    }
    // The Empire moves at the end of her own turn: the collisions then depend on the
    // others' standing responses, so where her ship may be returned does too.
    let returns_open = ctx.core.empire_kin == seat && ctx.core.others_ships(seat) != 0;
    let mark = ctx.lost.len();
    play_turn(&mut ctx, seat, &sub, true, u32::MAX);
    // Whose ships shared a gate with hers when the Empire moved at the end of her turn:
    // their responses, which their orders may change, decide whether she loses hers.
    let shared_gates = ctx.core.others_ships(seat)
        | ctx.lost[mark..]
            .iter()
            .filter(|l| l.seat != seat)
            .fold(0u64, |m, l| m | 1 << l.gate);
    // The turns after hers in the phase, played with no lines as those before: the
    // Empire's move at the end of the kin holder's turn may still take a ship of hers.
    if state.options.pace == Pace::Round {
        let later = (0..n)
            .map(|k| (next + k) % n)
            .skip_while(|&s| s != seat)
            .skip(1);
        for s in later {
            if !play_turn(&mut ctx, s, &[], true, state.options.round_limit) {
                break;
            }
        }
    }
    let shared_open = !before.is_empty();
    let after = if shared_open {
        after_text(&names, "turn", &movers)
    } else {
        String::new()
    };
    let mut lines = previews(&ctx, seat, &sub, shared_open, kins_open, returns_open);
    let lost: Vec<Lost> = ctx.lost[mark..]
        .iter()
        .filter(|l| l.seat == seat)
        .copied()
        .collect();
    // Sure: at the end of her own turn, with no turn before hers, no draw left to the
    // adjudication (a draft may give her cloak), and nobody else's ship on that gate.
    let drew = lines
        .iter()
        .any(|p| p.result.outcome == Outcome::Done && p.result.detail.contains(AT_ADJUDICATION));
    let sure =
        |l: &Lost| l.turn == seat && !shared_open && !drew && shared_gates & (1 << l.gate) == 0;
    lost_after_lines(&ctx, seat, &lost, sure, &mut lines);
    Trial { lines, after }
}

/// H7.2: her ships lost when the Empire moves after her lines, said on the line that
/// put the ship on its gate (`then her ship on B3 returns …`), else on her last line
/// (`after her lines, …`); `as far as known now` unless `sure` of each (the line's
/// note says so already when it is checked when carried out).
fn lost_after_lines(
    ctx: &Ctx,
    seat: u8,
    lost: &[Lost],
    sure: impl Fn(&Lost) -> bool,
    lines: &mut [Preview],
) {
    let last = lines
        .iter()
        .rposition(|p| p.result.outcome != Outcome::Invalid);
    let clause = |l: &Lost| {
        let turn = if l.turn == seat {
            "her turn".to_string()
        } else {
            format!("{}'s turn", ctx.name(l.turn))
        };
        format!(
            "her ship on {} returns to her supply at the end of {turn}, when the Empire moves ({}) (H7.2)",
            ctx.data.gate_name(l.gate),
            l.why
        )
    };
    for (k, p) in lines.iter_mut().enumerate() {
        let line = p.result.line;
        let groups: [(&str, Vec<&Lost>); 2] = [
            (
                "then",
                lost.iter()
                    .filter(|l| ctx.placed.get(&(seat, l.gate)) == Some(&line))
                    .collect(),
            ),
            (
                "after her lines,",
                lost.iter()
                    .filter(|l| Some(k) == last && !ctx.placed.contains_key(&(seat, l.gate)))
                    .collect(),
            ),
        ];
        for (head, group) in groups {
            if group.is_empty() {
                continue;
            }
            let unsure = !p.open && !group.iter().all(|l| sure(l));
            let said: Vec<String> = group.iter().map(|l| clause(l)).collect();
            p.lost_after.push(format!(
                "{head} {}{}",
                if unsure { "as far as known now, " } else { "" },
                said.join(" and ")
            ));
        }
    }
}

/// Her results in line order, each marked open or not: a line is open if it reads the
/// shared board while earlier turns or starts may change it, reads her own board while
/// an out-of-turn battle may change it, or comes after an open line (the order count
/// and her kins and hand then are open too) or after a draw left to the adjudication.
fn previews(
    ctx: &Ctx,
    seat: u8,
    sub: &[Written],
    shared_open: bool,
    kins_open: bool,
    returns_open: bool,
) -> Vec<Preview> {
    let mut results: Vec<LineResult> = ctx
        .log
        .results
        .iter()
        .filter(|r| r.seat == seat)
        .cloned()
        .collect();
    results.sort_by_key(|r| r.line);
    let mut tainted = kins_open;
    results
        .into_iter()
        .map(|result| {
            let read = sub
                .iter()
                .find(|w| w.line == result.line)
                .and_then(|w| w.read.as_ref().ok());
            let open = match read {
                None | Some(Line::Empire(_)) | Some(Line::Declare) => false,
                Some(Line::Return(_)) => shared_open || returns_open || tainted,
                Some(Line::Reserve) => tainted,
                Some(Line::Start(_)) | Some(Line::Free(_)) => shared_open || tainted,
                Some(Line::Orders(alts)) => {
                    tainted || (shared_open && alts.iter().any(shared_order))
                }
            };
            // What a line changes that later lines meet: her kins, hand, tiles and the
            // order count (settings change none of it).
            let acts = matches!(
                read,
                Some(Line::Orders(_) | Line::Free(_) | Line::Reserve | Line::Start(_))
            );
            let drew_later =
                result.outcome == Outcome::Done && result.detail.contains(AT_ADJUDICATION);
            if acts && (open || drew_later) {
                tainted = true;
            }
            Preview {
                result,
                open,
                lost_after: Vec::new(),
            }
        })
        .collect()
}

/// What a receipt says of an accepted line: the word in its first column and a note.
/// The note says what the line would do if her turn were played now, or why not; for an
/// open line, that it is checked when carried out (after `after`) and what it would do
/// as far as known now. The word is `ok` for a line that would do its work now, `later`
/// for an open line that would do it as far as known now, `unused` for a line that
/// would not be carried out (a fallback not needed, a `RETURN` with no ship due),
/// `WARNING` for a line that would fail (as things stand, or as far as known now), or
/// after which a ship of hers would be lost (H7.2), said at the end of the note.
pub fn note(p: &Preview, after: &str) -> (&'static str, String) {
    let (mark, text) = plain_note(p, after);
    if p.lost_after.is_empty() {
        return (mark, text);
    }
    ("WARNING", format!("{text}; {}", p.lost_after.join("; ")))
}

/// [`note`] without the ships lost after her lines.
fn plain_note(p: &Preview, after: &str) -> (&'static str, String) {
    let r = &p.result;
    let mark = match r.outcome {
        Outcome::Done if p.open => "later",
        Outcome::Done => "ok",
        // A fallback not needed, a RETURN with no ship due: as written, not a fault.
        Outcome::Unused => "unused",
        Outcome::Failed | Outcome::Invalid => "WARNING",
    };
    if p.open {
        let head = if after.is_empty() {
            "checked when carried out".to_string()
        } else {
            format!("checked when carried out {after}")
        };
        let text = match r.outcome {
            Outcome::Done => format!("{head}; as far as known now, it would do: {}", r.detail),
            Outcome::Failed => format!("{head}; as far as known now, not possible: {}", r.detail),
            Outcome::Unused => {
                format!("{head}; as far as known now, not carried out: {}", r.detail)
            }
            Outcome::Invalid => format!("refused when carried out: {}", r.detail),
        };
        return (mark, text);
    }
    let text = match r.outcome {
        Outcome::Done => format!("if played now: {}", r.detail),
        Outcome::Failed => format!("not possible as things stand: {}", r.detail),
        Outcome::Unused => format!("not carried out as things stand: {}", r.detail),
        Outcome::Invalid => format!("refused when carried out: {}", r.detail),
    };
    (mark, text)
}
