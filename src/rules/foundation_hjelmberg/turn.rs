//! Turns by mail (H4): a phase is one round of turns in seating order (`round` pace) or
//! one player's turn (`turn` pace); a turn carries out her lines in the order written,
//! with alternatives, the order limit, fallbacks and settings (H4.3–H4.5).

use std::collections::BTreeMap;

use super::data::{bits, Data};
use super::order::{free_text, line_text, order_text, Line};
use super::outcome::{LineResult, Log, Outcome};
use super::state::{Core, Pace, Phase, State, NONE};
use super::syntax::parse_line;
use super::{actions, empire, goals};
use crate::dice::Dice;

/// Where random draws come from (H11.1): the scenario's forced draws first, then the
/// dice stream of the turn.
#[derive(Clone, Debug)]
pub struct Drawer {
    seed: u64,
    dice: Dice,
    forced: Vec<String>,
    at: usize,
    /// A forced draw that was not in its pile (a damaged scenario).
    pub error: Option<String>,
}

impl Drawer {
    pub fn new(seed: u64, forced: Vec<String>) -> Drawer {
        Drawer {
            seed,
            dice: Dice::for_phase(seed, 0, "play"),
            forced,
            at: 0,
            error: None,
        }
    }

    /// Each turn draws from its own stream of the phase, (seed, round, `play <player>`),
    /// so a round played at once draws as the same turns played one by one.
    pub fn start_turn(&mut self, round: u32, player: &str) {
        self.dice = Dice::for_phase(self.seed, round, &format!("play {player}"));
    }

    /// One tile from a pile given as counts by kind (canonical order); the kind drawn.
    pub fn draw(
        &mut self,
        counts: &[u8],
        name: impl Fn(usize) -> String,
        pile: &str,
    ) -> Option<usize> {
        let total: u64 = counts.iter().map(|&n| u64::from(n)).sum();
        if total == 0 {
            return None;
        }
        if let Some(id) = self.forced.get(self.at).cloned() {
            self.at += 1;
            if let Some(k) = (0..counts.len()).find(|&k| counts[k] > 0 && name(k) == id) {
                return Some(k);
            }
            if self.error.is_none() {
                self.error = Some(format!(
                    "draws: {id:?} is not in the pile {pile} when drawn"
                ));
            }
        }
        let mut r = self.dice.below(total);
        for (k, &n) in counts.iter().enumerate() {
            if r < u64::from(n) {
                return Some(k);
            }
            r -= u64::from(n);
        }
        None
    }
}

/// A phase being played: the data, the seating, the position changing, the reports.
pub struct Ctx<'a> {
    pub data: &'a Data,
    pub names: &'a [String],
    pub core: Core,
    pub log: Log,
    pub draws: Drawer,
    /// A receipt's trial run: no draws, no victory, nothing secret said.
    pub dry: bool,
    /// What each `EMPIRE` line did (H7.5), by seat and line, known from the phase's
    /// start ([`standing_response`]).
    pub empire_lines: BTreeMap<(u8, u32), String>,
    /// Ships sent back to their owners' supply in this phase (H7.2), in order.
    pub lost: Vec<Lost>,
    /// The line of her submission that last put a ship on a gate in this phase, by seat
    /// and gate (a receipt names it when that ship is lost later, H7.2).
    pub placed: BTreeMap<(u8, u8), u32>,
}

/// A ship an Empire ship sent back to her supply (H7.2): whose, from which gate, at the
/// end of whose turn, and why she did not battle (`she yields`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lost {
    pub seat: u8,
    pub gate: u8,
    pub turn: u8,
    pub why: &'static str,
}

impl<'a> Ctx<'a> {
    /// A phase (or a trial of one) on `core`, nothing reported yet.
    pub fn new(
        data: &'a Data,
        names: &'a [String],
        core: Core,
        draws: Drawer,
        dry: bool,
    ) -> Ctx<'a> {
        Ctx {
            data,
            names,
            core,
            log: Log::default(),
            draws,
            dry,
            empire_lines: BTreeMap::new(),
            lost: Vec::new(),
            placed: BTreeMap::new(),
        }
    }
}

impl Ctx<'_> {
    pub fn name(&self, seat: u8) -> &str {
        &self.names[usize::from(seat)]
    }

    /// Tries alternatives in order on copies; the first that works is kept. On failure
    /// everything it did is undone and each alternative's reason is returned.
    pub fn first_possible<T>(
        &mut self,
        alts: &[T],
        mut f: impl FnMut(&mut Self, &T) -> Result<String, String>,
    ) -> Result<(usize, String), Vec<String>> {
        let mut reasons = Vec::new();
        for (k, a) in alts.iter().enumerate() {
            let core = self.core;
            let mark = self.log.mark();
            let draws = self.draws.clone();
            match f(self, a) {
                Ok(detail) => return Ok((k, detail)),
                Err(reason) => {
                    self.core = core;
                    self.log.truncate(mark);
                    self.draws = draws;
                    reasons.push(reason);
                }
            }
        }
        Err(reasons)
    }
}

/// One line of a submission as read.
pub struct Written {
    pub line: u32,
    pub text: String,
    pub read: Result<Line, String>,
}

pub fn read_submission(data: &Data, text: &str, setup: bool) -> Vec<Written> {
    super::syntax::lines(text)
        .map(|(line, t)| Written {
            line,
            text: t.to_string(),
            read: parse_line(data, t, setup),
        })
        .collect()
}

fn canonical(data: &Data, w: &Written) -> String {
    match &w.read {
        Ok(l) => line_text(data, l),
        Err(_) => w.text.clone(),
    }
}

/// Each alternative's reason, for a failed line.
fn reasons_text(data: &Data, line: &Line, reasons: &[String]) -> String {
    let names: Vec<String> = match line {
        Line::Orders(alts) => alts.iter().map(|o| order_text(data, o)).collect(),
        Line::Free(alts) => alts.iter().map(|f| free_text(data, f)).collect(),
        _ => Vec::new(),
    };
    if reasons.len() == 1 || names.len() != reasons.len() {
        return reasons.join("; ");
    }
    names
        .iter()
        .zip(reasons)
        .map(|(n, r)| format!("{n}: {r}"))
        .collect::<Vec<_>>()
        .join("; ")
}

fn result(seat: u8, w: &Written, order: String, outcome: Outcome, detail: String) -> LineResult {
    LineResult {
        seat,
        line: w.line,
        order,
        outcome,
        detail,
        secret: None,
    }
}

/// The lines of a player who takes no turn (the game ended first): all unused.
pub fn unused_lines(ctx: &mut Ctx, seat: u8, sub: &[Written], why: &str) {
    for w in sub {
        let (outcome, detail) = match (&w.read, why) {
            (Err(e), _) => (Outcome::Invalid, e.clone()),
            (Ok(Line::Empire(_)), _) => (Outcome::Done, empire_detail(ctx, seat, w)),
            _ => (Outcome::Unused, why.to_string()),
        };
        let order = canonical(ctx.data, w);
        ctx.log
            .results
            .push(result(seat, w, order, outcome, detail));
    }
}

/// One player's turn (H4.3). Returns false when the game ended in it.
pub fn play_turn(
    ctx: &mut Ctx,
    seat: u8,
    sub: &[Written],
    submitted: bool,
    limit_round: u32,
) -> bool {
    let name = ctx.name(seat).to_string();
    let round = ctx.core.round;
    ctx.draws.start_turn(round, &name);
    ctx.log
        .event("H4.3", format!("{name}'s turn (round {round})"));
    if !submitted {
        ctx.log.event(
            "H4.5",
            format!("no orders from {name}: her turn is played with no lines"),
        );
    }
    // 1. Start.
    {
        let p = ctx.core.player_mut(seat);
        p.used = [0; super::data::MAX_TILES];
        p.reserve_used = false;
        if p.new > 0 {
            p.due += p.new;
            p.new = 0;
        }
    }
    let mut won = !ctx.dry && goals::victory(ctx, seat);
    // 2. Her lines.
    let mut out: Vec<Option<LineResult>> = Vec::with_capacity(sub.len());
    let mut returns: Vec<(usize, u8)> = Vec::new();
    let mut count = 0u8;
    let mut limit = 2u8;
    for (k, w) in sub.iter().enumerate() {
        let order = canonical(ctx.data, w);
        if won {
            let r = match &w.read {
                Err(e) => result(seat, w, order, Outcome::Invalid, e.clone()),
                Ok(Line::Empire(_)) => {
                    let detail = empire_detail(ctx, seat, w);
                    result(seat, w, order, Outcome::Done, detail)
                }
                Ok(_) => result(seat, w, order, Outcome::Unused, "the game is over".into()),
            };
            out.push(Some(r));
            continue;
        }
        let line = match &w.read {
            Err(e) => {
                out.push(Some(result(seat, w, order, Outcome::Invalid, e.clone())));
                continue;
            }
            Ok(l) => l,
        };
        let mut secret = None;
        let ships = ctx.core.player(seat).ships;
        let (outcome, detail) = match line {
            Line::Start(_) => (Outcome::Invalid, "START is for the setup phase".into()),
            Line::Empire(_) => (Outcome::Done, empire_detail(ctx, seat, w)),
            Line::Declare => (
                Outcome::Done,
                "nothing to do: the judge declares every victory (H9.4)".into(),
            ),
            Line::Return(g) => {
                returns.push((k, *g));
                out.push(None);
                continue;
            }
            Line::Reserve => match actions::reserve(ctx, seat, limit) {
                Ok(d) => {
                    limit = 3;
                    (Outcome::Done, d)
                }
                Err(e) => (Outcome::Failed, e),
            },
            Line::Free(alts) => match ctx.first_possible(alts, |c, f| actions::free(c, seat, f)) {
                Ok((i, d)) => (Outcome::Done, with_alternative(i, d)),
                Err(reasons) => (Outcome::Failed, reasons_text(ctx.data, line, &reasons)),
            },
            Line::Orders(alts) => {
                if count >= limit {
                    (
                        Outcome::Unused,
                        format!("{limit} orders were carried out already"),
                    )
                } else {
                    let mark = ctx.log.events.len();
                    match ctx.first_possible(alts, |c, o| actions::order(c, seat, o)) {
                        Ok((i, d)) => {
                            count += 1;
                            secret = take_secret(ctx, mark);
                            (Outcome::Done, with_alternative(i, d))
                        }
                        Err(reasons) => {
                            let mut detail = reasons_text(ctx.data, line, &reasons);
                            let lost = lost_ships_needed(ctx, seat, alts);
                            if !lost.is_empty() {
                                // A receipt says so on the line; the results by an event,
                                // so a round reads as its turns played one by one.
                                let (will, did) = lost_text(ctx, &lost);
                                if ctx.dry {
                                    detail.push_str(&format!(": {will} (H7.2)"));
                                } else {
                                    ctx.log.event(
                                        "H7.2",
                                        format!(
                                            "{name}'s line {} ({order}) failed because {did}",
                                            w.line
                                        ),
                                    );
                                }
                            }
                            (Outcome::Failed, detail)
                        }
                    }
                }
            }
        };
        for g in bits(ctx.core.player(seat).ships & !ships) {
            ctx.placed.insert((seat, g), w.line);
        }
        let mut r = result(seat, w, order, outcome, detail);
        r.secret = secret;
        out.push(Some(r));
        if outcome == Outcome::Done && !ctx.dry && goals::victory(ctx, seat) {
            won = true;
        }
    }
    // 3. End.
    let mut over = won;
    if !won {
        if ctx.core.empire_kin == seat {
            empire::end_of_turn(ctx, seat);
        }
        let used = empire::return_ship(ctx, seat, &returns);
        for ((k, _), (outcome, detail)) in returns.iter().zip(used) {
            let w = &sub[*k];
            out[*k] = Some(result(seat, w, canonical(ctx.data, w), outcome, detail));
        }
        if !ctx.dry && goals::victory(ctx, seat) {
            over = true;
        } else {
            ctx.log.event("H4.3", format!("{name}'s turn ends"));
        }
    } else {
        for (k, _) in &returns {
            let w = &sub[*k];
            out[*k] = Some(result(
                seat,
                w,
                canonical(ctx.data, w),
                Outcome::Unused,
                "the game is over".into(),
            ));
        }
    }
    let mut out: Vec<LineResult> = out.into_iter().map(|r| r.expect("every line")).collect();
    name_fallbacks(sub, &mut out);
    ctx.log.results.extend(out);
    if over {
        return false;
    }
    // The next player; a new round after the last seat (H4.3), or the end (H4.6).
    let n = ctx.core.seats;
    ctx.core.next = (seat + 1) % n;
    if seat + 1 == n {
        if ctx.core.round >= limit_round {
            ctx.core.phase = Phase::Over;
            ctx.core.winner = NONE;
            ctx.log.event(
                "H4.6",
                format!(
                    "round {} was the last (round limit): the game is over, drawn",
                    ctx.core.round
                ),
            );
            return false;
        }
        ctx.core.round += 1;
    }
    true
}

/// H7.5: a submission's last `EMPIRE` line sets her standing response (`when`: from the
/// start of the phase); an earlier one does nothing. Sets it, and keeps what each
/// `EMPIRE` line did for its result.
pub fn standing_response(ctx: &mut Ctx, seat: u8, sub: &[Written], when: &str) {
    let lines: Vec<(u32, bool)> = sub
        .iter()
        .filter_map(|w| match w.read {
            Ok(Line::Empire(b)) => Some((w.line, b)),
            _ => None,
        })
        .collect();
    let Some(&(last, battle)) = lines.last() else {
        return;
    };
    let word = |b: bool| if b { "battle" } else { "yield" };
    let was = ctx.core.player(seat).battle;
    ctx.core.player_mut(seat).battle = battle;
    let last_text = line_text(ctx.data, &Line::Empire(battle));
    for &(line, _) in &lines {
        let detail = if line != last {
            format!(
                "no effect: her last EMPIRE line, line {last} ({last_text}), sets her standing response (H7.5)"
            )
        } else if battle == was {
            format!(
                "no change: her standing response was {} already",
                word(battle)
            )
        } else {
            format!(
                "standing response: {}{when} (it was {})",
                word(battle),
                word(was)
            )
        };
        ctx.empire_lines.insert((seat, line), detail);
    }
}

/// What an `EMPIRE` line did, as [`standing_response`] found.
pub fn empire_detail(ctx: &Ctx, seat: u8, w: &Written) -> String {
    ctx.empire_lines
        .get(&(seat, w.line))
        .cloned()
        .unwrap_or_default()
}

/// Her ships sent back to her supply earlier in the phase (H7.2) without which a failed
/// order line failed: with them back on their gates one of its alternatives would be
/// possible (tried on a copy; nothing of it is kept). Empty: the line failed anyway.
fn lost_ships_needed(ctx: &mut Ctx, seat: u8, alts: &[super::order::Order]) -> Vec<Lost> {
    let ships = ctx.core.player(seat).ships;
    let lost: Vec<Lost> = ctx
        .lost
        .iter()
        .filter(|l| l.seat == seat && ships & (1 << l.gate) == 0)
        .copied()
        .collect();
    if lost.is_empty() {
        return lost;
    }
    let (core, mark, draws) = (ctx.core, ctx.log.mark(), ctx.draws.clone());
    for l in &lost {
        ctx.core.player_mut(seat).ships |= 1 << l.gate;
    }
    let possible = ctx
        .first_possible(alts, |c, o| actions::order(c, seat, o))
        .is_ok();
    ctx.core = core;
    ctx.log.truncate(mark);
    ctx.draws = draws;
    if possible {
        lost
    } else {
        Vec::new()
    }
}

/// Where her lost ships went, as a receipt foresees it ("her ship on A4 returns to her
/// supply at the end of red's turn") and as the results tell it ("... returned ...").
fn lost_text(ctx: &Ctx, lost: &[Lost]) -> (String, String) {
    let say = |verb: &str| {
        lost.iter()
            .map(|l| {
                format!(
                    "her ship on {} {verb} to her supply at the end of {}'s turn",
                    ctx.data.gate_name(l.gate),
                    ctx.name(l.turn)
                )
            })
            .collect::<Vec<_>>()
            .join(" and ")
    };
    (say("returns"), say("returned"))
}

fn with_alternative(k: usize, detail: String) -> String {
    if k == 0 {
        detail
    } else {
        format!("(alternative {}) {detail}", k + 1)
    }
}

/// A private part of an order's report (a goal tile seen) goes with its line, for its
/// owner only.
fn take_secret(ctx: &mut Ctx, mark: usize) -> Option<String> {
    let texts: Vec<String> = ctx.log.events[mark..]
        .iter()
        .filter_map(|e| e.secret.as_ref().map(|s| s.text.clone()))
        .collect();
    (!texts.is_empty()).then(|| texts.join("; "))
}

/// A failed order line does not count, so a later order line runs in its place: say
/// which (H4.4).
fn name_fallbacks(sub: &[Written], out: &mut [LineResult]) {
    let is_order = |k: usize| matches!(sub[k].read, Ok(Line::Orders(_)));
    let mut claimed = vec![false; out.len()];
    for k in 0..out.len() {
        if !is_order(k) || out[k].outcome != Outcome::Failed {
            continue;
        }
        let next = (k + 1..out.len())
            .find(|&j| is_order(j) && out[j].outcome == Outcome::Done && !claimed[j]);
        let tail = match next {
            Some(j) => {
                claimed[j] = true;
                format!(
                    " -> not counted; fallback: line {} ({}) ran",
                    out[j].line, out[j].order
                )
            }
            None => " -> not counted; no later order line ran in its place".into(),
        };
        out[k].detail.push_str(&tail);
    }
}

/// The play phase (H4.1): every submission read, the standing responses set (H7.5), and
/// the turns played.
pub fn play(
    state: &State,
    orders: &BTreeMap<String, String>,
    seed: u64,
    forced: Vec<String>,
) -> (Core, Log, Option<String>) {
    let data = &*state.data;
    let mut ctx = Ctx::new(
        data,
        &state.seating,
        *state.core,
        Drawer::new(seed, forced),
        false,
    );
    let n = state.core.seats;
    let subs: Vec<Option<Vec<Written>>> = (0..n)
        .map(|s| {
            orders
                .get(state.name(s))
                .map(|t| read_submission(data, t, false))
        })
        .collect();
    let turns: Vec<u8> = match state.options.pace {
        Pace::Round => (0..n).map(|k| (state.core.next + k) % n).collect(),
        Pace::Turn => vec![state.core.next],
    };
    // H7.5: a submission's last EMPIRE line counts from the start of the phase.
    for &s in &turns {
        if let Some(sub) = &subs[usize::from(s)] {
            standing_response(&mut ctx, s, sub, " from the start of the phase");
        }
    }
    let empty = Vec::new();
    let mut going = true;
    for &s in &turns {
        let sub = subs[usize::from(s)].as_ref();
        if going {
            going = play_turn(
                &mut ctx,
                s,
                sub.unwrap_or(&empty),
                sub.is_some(),
                state.options.round_limit,
            );
        } else {
            unused_lines(&mut ctx, s, sub.unwrap_or(&empty), "the game is over");
        }
    }
    let error = ctx.draws.error.take();
    (ctx.core, ctx.log, error)
}
