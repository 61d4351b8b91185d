//! The end of a movement phase: victory points (W11.7), the end of the game and the
//! winner (W8.1), the next turn's movement order (W2.3).

use super::outcome::Event;
use super::run::Run;
use super::state::{Phase, State};

/// Every player's victory points (W11.7), by player index.
pub fn victory_points(s: &State) -> Vec<u32> {
    let np = s.np();
    let mut vp = vec![0u32; np];
    for (r, region) in s.regions.iter().enumerate() {
        let Some(o) = region.owner else {
            continue;
        };
        vp[o] += 1;
        if region.native.is_none() {
            vp[o] += 1;
        }
        vp[o] += region.buildings.list().iter().map(|b| b.vp()).sum::<u32>();
        if region.developed && region.chit.value() > 0 {
            vp[o] += 1;
        }
        if s.suez && s.map.canal_region() == Some(r) {
            vp[o] += 3;
        }
    }
    for z in 0..s.map.zones.len() {
        let mut count = vec![0u32; np];
        for (r, region) in s.regions.iter().enumerate() {
            if let (Some(o), true) = (region.owner, s.map.regions[r].zone == z) {
                count[o] += 1;
            }
        }
        let most = count.iter().copied().max().unwrap_or(0);
        if most == 0 {
            continue;
        }
        let top: Vec<usize> = (0..np).filter(|&p| count[p] == most).collect();
        let each = if top.len() == 1 { 3 } else { 1 };
        for p in top {
            vp[p] += each;
        }
    }
    vp
}

/// W8.1: most VP; ties: most regions, then most PP, then a shared win.
pub fn winners(s: &State) -> Vec<String> {
    let vp = victory_points(s);
    let key = |p: usize| (vp[p], s.region_count(p), s.players[p].pp);
    let best = (0..s.np()).map(key).max();
    match best {
        Some(b) => (0..s.np())
            .filter(|&p| key(p) == b)
            .map(|p| s.players[p].id.clone())
            .collect(),
        None => Vec::new(),
    }
}

/// W8.1's tie-breaks in words, when the most VP are tied: the regions of the players
/// tied on VP, then the PP of those tied on regions too ("tied on 5 VP; most regions:
/// red 3, blue 2"); `None` without a tie.
pub fn tie_break_words(s: &State) -> Option<String> {
    let vp = victory_points(s);
    let top = vp.iter().copied().max()?;
    let tied: Vec<usize> = (0..s.np()).filter(|&p| vp[p] == top).collect();
    if tied.len() < 2 {
        return None;
    }
    let listed = |players: &[usize], value: &dyn Fn(usize) -> u32| -> (Vec<usize>, String) {
        let mut rows = players.to_vec();
        rows.sort_by(|&a, &b| value(b).cmp(&value(a)).then(a.cmp(&b)));
        let best = value(rows[0]);
        let text = rows
            .iter()
            .map(|&p| format!("{} {}", s.players[p].id, value(p)))
            .collect::<Vec<_>>()
            .join(", ");
        (
            rows.into_iter().filter(|&p| value(p) == best).collect(),
            text,
        )
    };
    let (by_regions, regions) = listed(&tied, &|p| s.region_count(p) as u32);
    if by_regions.len() == 1 {
        return Some(format!("tied on {top} VP; most regions: {regions}"));
    }
    let (by_pp, pp) = listed(&by_regions, &|p| s.players[p].pp);
    if by_pp.len() == 1 {
        return Some(format!(
            "tied on {top} VP; regions: {regions}; most PP: {pp}"
        ));
    }
    Some(format!(
        "tied on {top} VP; regions: {regions}; PP: {pp}: a shared win"
    ))
}

impl Run {
    /// W8.1, W2.3: the game ends, or goes on to movement 2 or the next production.
    pub fn end_movement(&mut self, eliminated: bool) {
        let no_natives = self.s.regions.iter().all(|r| r.owner.is_some());
        let last = self.s.options.last_turn.is_some_and(|l| self.s.turn >= l)
            && self.s.phase == Phase::Movement2;
        if eliminated || no_natives || last {
            let why = if eliminated {
                "a player was eliminated"
            } else if no_natives {
                "no region is native-controlled"
            } else {
                "the last turn is played"
            };
            self.s.phase = Phase::Over;
            self.s.winners = winners(&self.s);
            let vp = victory_points(&self.s);
            let table: Vec<String> = (0..self.np())
                .map(|p| format!("{} {}", self.pid(p), vp[p]))
                .collect();
            let ties = tie_break_words(&self.s)
                .map(|t| format!(" ({t})"))
                .unwrap_or_default();
            let text = format!(
                "the game ends ({why}); VP: {}; winner: {}{ties}",
                table.join(", "),
                self.s.winners.join(" and ")
            );
            self.event(Event::new("W8.1", text));
            return;
        }
        if self.s.phase == Phase::Movement1 {
            self.s.phase = Phase::Movement2;
            return;
        }
        self.s.postures.clear();
        self.s.cedes.clear();
        let players: Vec<usize> = self.s.active().collect();
        let next = self.s.turn + 1;
        let purpose = format!("for the movement order of turn {next}");
        let order = self.draw_order(players, &purpose);
        self.s.order = order;
        let drawn = self.order_with_rolls(&self.s.order, &self.log.dice, &purpose);
        self.event(Event::new(
            "W2.3",
            format!("movement order of turn {next} (1d6 each, ties roll again): {drawn}"),
        ));
        self.s.turn = next;
        self.s.phase = Phase::Production;
    }
}
