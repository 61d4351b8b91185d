//! Scenario files (`../shared/specs/foundation-hjelmberg-scenario.md`): TOML read and the
//! position checked. The file's shape is `file`'s (it also stores a game between phases,
//! `stored`); JSON out is `output`'s.
//!
//! Beyond the spec, on input: `data = "file.toml"` (another data file, H1.6, found
//! beside the scenario), `phase = "over"`, `winner`, `discard` (tiles out of the game)
//! and a player's `personal_revealed`; on output: `rules`, `phase`, `turn`, `discard`,
//! `options`, a player's `personal_revealed`, and, on results, events and draws whose
//! text is secret to some players, `secret_to` (who may read it) with the public part.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::data::{
    dynasty_name, parse_dynasty, parse_research, research_name, Data, CENTER, DISCS, EMPIRE_SHIPS,
    MAX_SEATS, NEUTRAL_KINS, OWN_KINS,
};
use super::file::{OptionsFile, ScenarioFile, Space};
use super::setup::empty_core;
use super::state::{Options, Pace, Phase, State, NONE};

/// A scenario read: the position, the orders, the seed and the forced draws.
pub struct Scenario {
    pub state: State,
    pub orders: BTreeMap<String, String>,
    pub seed: u64,
    pub draws: Vec<String>,
}

fn lower_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

fn count(what: &str, v: i64, max: i64) -> Result<u8, String> {
    if (0..=max).contains(&v) {
        Ok(v as u8)
    } else {
        Err(format!("{what}: {v} is not 0..{max}"))
    }
}

/// Options from a scenario's `[options]` (and a game's, less `seating`/`layout`).
pub fn options(o: &OptionsFile) -> Result<Options, String> {
    let mut out = Options::default();
    if let Some(p) = &o.pace {
        out.pace = match p.as_str() {
            "round" => Pace::Round,
            "turn" => Pace::Turn,
            other => return Err(format!("options.pace: {other:?} is not round or turn")),
        };
    }
    if let Some(r) = o.round_limit {
        if !(1..=10_000).contains(&r) {
            return Err(format!("options.round_limit: {r} is not 1..10000"));
        }
        out.round_limit = r as u32;
    }
    Ok(out)
}

impl ScenarioFile {
    /// The position this file describes, checked (the spec's list of exit-2 causes).
    pub fn build(&self, data: Arc<Data>) -> Result<Scenario, String> {
        let d = &*data;
        // Seating.
        let n = self.seating.len();
        if !(2..=MAX_SEATS).contains(&n) {
            return Err(format!("seating: {n} players; 2 to 5 play"));
        }
        for (k, id) in self.seating.iter().enumerate() {
            if !lower_id(id) {
                return Err(format!("seating: {id:?} is not a lower-case id"));
            }
            if self.seating[..k].contains(id) {
                return Err(format!("seating: {id:?} is seated twice"));
            }
        }
        let seat = |what: &str, id: &str| -> Result<u8, String> {
            self.seating
                .iter()
                .position(|s| s == id)
                .map(|k| k as u8)
                .ok_or_else(|| format!("{what}: {id:?} is not seated"))
        };
        let mut core = empty_core(n as u8);
        core.phase = match self.phase.as_deref().unwrap_or("play") {
            "setup" => Phase::Setup,
            "play" => Phase::Play,
            "over" => Phase::Over,
            other => return Err(format!("phase: unknown phase {other:?} (setup or play)")),
        };
        let turn = self
            .turn
            .unwrap_or(if core.phase == Phase::Setup { 0 } else { 1 });
        if !(0..=1_000_000).contains(&turn) {
            return Err(format!("turn: {turn} is not 0..1000000"));
        }
        if core.phase == Phase::Setup && turn != 0 {
            return Err(format!("turn: {turn}; the setup phase is turn 0"));
        }
        if core.phase == Phase::Play && turn == 0 {
            return Err("turn: 0 is the setup phase; play begins with round 1".into());
        }
        core.round = turn as u32;
        let seed = self.seed.unwrap_or(0);
        if seed < 0 {
            return Err(format!("seed: {seed} is negative"));
        }
        if let Some(id) = &self.next {
            core.next = seat("next", id)?;
        }
        core.empire_kin = match &self.empire_kin {
            Some(id) => seat("empire_kin", id)?,
            None => n as u8 - 1,
        };
        if let Some(w) = &self.winner {
            core.winner = seat("winner", w)?;
        }
        let opts = options(self.options.as_ref().unwrap_or(&OptionsFile::default()))?;
        // Empire ships.
        let empire = self.empire.clone().unwrap_or_else(|| {
            d.standard
                .empire
                .iter()
                .map(|&g| d.gate_name(g).to_string())
                .collect()
        });
        for g in &empire {
            let k = d
                .gate(g)
                .filter(|_| g.to_ascii_uppercase() == *g)
                .ok_or_else(|| format!("empire: unknown gate {g:?}"))?;
            if core.empire & (1 << k) != 0 {
                return Err(format!("empire: two Empire ships on {g}"));
            }
            core.empire |= 1 << k;
        }
        // Goals.
        let goal = |what: &str, id: &str| -> Result<u8, String> {
            d.goal(id)
                .filter(|_| id.to_ascii_lowercase() == id)
                .ok_or_else(|| format!("{what}: unknown goal tile {id:?}"))
        };
        match &self.goals {
            Some(list) => {
                if list.len() != 3 {
                    return Err(format!(
                        "goals: {} tiles; GOAL 1, 2 and 3 hold one each",
                        list.len()
                    ));
                }
                for (k, g) in list.iter().enumerate() {
                    core.goals[k] = goal("goals", g)?;
                }
            }
            None => core.goals = d.standard.goals,
        }
        for &r in self.revealed.as_deref().unwrap_or(&[]) {
            if !(1..=3).contains(&r) {
                return Err(format!("revealed: {r} is not a GOAL space (1, 2, 3)"));
            }
            core.revealed |= 1 << (r - 1);
        }
        // Planets, stock, colony board.
        let planet = |what: &str, p: &str| -> Result<u8, String> {
            d.planet(p)
                .filter(|_| p.to_ascii_uppercase() == p)
                .ok_or_else(|| format!("{what}: unknown planet {p:?}"))
        };
        for p in 0..d.planets.len() {
            if let Some(t) = d.standard.planets[p] {
                core.planets[p] = t;
            }
            core.stock[p] = 1;
            if let Some(t) = d.standard.colonies[p] {
                core.colony[p] = t;
            }
        }
        for &t in &d.standard.core {
            core.core_tiles[usize::from(t)] += 1;
        }
        for (p, t) in self.planets.iter().flatten() {
            let k = planet("planets", p)?;
            if k == d.core {
                return Err("planets: CORE is printed on the board, it takes no tile".into());
            }
            let id = d
                .planet_tiles
                .iter()
                .position(|x| x.id == *t)
                .ok_or_else(|| format!("planets.{p}: unknown planet tile {t:?}"))?;
            let level = d.colour_level[usize::from(d.planet_tiles[id].colour)];
            if level != d.planet_level[usize::from(k)] {
                return Err(format!("planets.{p}: {t:?} is a level-{level} tile"));
            }
            core.planets[usize::from(k)] = id as u8;
        }
        for (p, &s) in self.stock.iter().flatten() {
            let k = planet("stock", p)?;
            if !(0..=2).contains(&s) {
                return Err(format!("stock.{p}: {s} is not 0..2"));
            }
            core.stock[usize::from(k)] = s as u8;
        }
        // Tile lists are short at any table; a longer one is a damaged file.
        let long = |what: &str, n: usize| -> Result<(), String> {
            if n > 60 {
                Err(format!("{what}: {n} tiles listed; at most 60"))
            } else {
                Ok(())
            }
        };
        for (k, list) in self
            .piles
            .iter()
            .flat_map(|p| [&p.colony1, &p.colony2, &p.colony3, &p.goals])
            .enumerate()
        {
            long(
                &format!("piles ({})", ["colony1", "colony2", "colony3", "goals"][k]),
                list.as_ref().map_or(0, |l| l.len()),
            )?;
        }
        for (p, sp) in self.colony_board.iter().flatten() {
            if let Space::Many(list) = sp {
                long(&format!("colony_board.{p}"), list.len())?;
            }
        }
        long("discard", self.discard.as_ref().map_or(0, |l| l.len()))?;
        for pf in &self.player {
            long(
                &format!("player {}: colonies", pf.id),
                pf.colonies.as_ref().map_or(0, |l| l.len()),
            )?;
        }
        let tile = |what: &str, id: &str| -> Result<u8, String> {
            d.tile(id)
                .filter(|_| id.to_ascii_lowercase() == id)
                .ok_or_else(|| format!("{what}: unknown tile {id:?}"))
        };
        for (p, s) in self.colony_board.iter().flatten() {
            let k = planet("colony_board", p)?;
            let what = format!("colony_board.{p}");
            match (k == d.core, s) {
                (false, Space::One(t)) if t.is_empty() => core.colony[usize::from(k)] = NONE,
                (false, Space::One(t)) => core.colony[usize::from(k)] = tile(&what, t)?,
                (true, Space::Many(list)) => {
                    core.core_tiles = [0; super::data::MAX_TILES];
                    for t in list {
                        core.core_tiles[usize::from(tile(&what, t)?)] += 1;
                    }
                }
                (false, _) => return Err(format!("{what}: one tile id (\"\" when taken)")),
                (true, _) => return Err(format!("{what}: a list of tile ids")),
            }
        }
        let piles = self.piles.clone().unwrap_or_default();
        for (k, list) in [&piles.colony1, &piles.colony2, &piles.colony3]
            .into_iter()
            .enumerate()
        {
            match list {
                Some(list) => {
                    for t in list {
                        core.piles[k][usize::from(tile(&format!("piles.colony{}", k + 1), t)?)] +=
                            1;
                    }
                }
                None => {
                    for &t in &d.standard.piles[k] {
                        core.piles[k][usize::from(t)] += 1;
                    }
                }
            }
        }
        match &piles.goals {
            Some(list) => {
                for g in list {
                    let g = goal("piles.goals", g)?;
                    if core.goal_pile & (1 << g) != 0 {
                        return Err(format!("piles.goals: {} listed twice", d.goal_name(g)));
                    }
                    core.goal_pile |= 1 << g;
                }
            }
            None => {
                for &g in &d.standard.goal_pile {
                    core.goal_pile |= 1 << g;
                }
            }
        }
        for t in self.discard.iter().flatten() {
            core.discard[usize::from(tile("discard", t)?)] += 1;
        }
        // Players.
        let mut given = vec![false; n];
        for pf in &self.player {
            let s = seat("player", &pf.id)?;
            if given[usize::from(s)] {
                return Err(format!("player: {:?} has two [[player]] tables", pf.id));
            }
            given[usize::from(s)] = true;
            let what = |k: &str| format!("player {}: {k}", pf.id);
            let p = core.player_mut(s);
            for &(ref c, v) in pf.hand.iter().flat_map(|h| h.0.iter()) {
                let k = d
                    .colour(c)
                    .filter(|_| c.to_ascii_lowercase() == *c)
                    .ok_or_else(|| format!("{}: unknown colour {c:?}", what("hand")))?;
                p.hand[usize::from(k)] = count(&what("hand"), v, 200)?;
            }
            p.earned = count(&what("earned"), pf.earned.unwrap_or(3), i64::from(OWN_KINS))?;
            if p.earned < 3 {
                return Err(format!("{}: {} is not 3..6", what("earned"), p.earned));
            }
            p.neutral = count(
                &what("neutral"),
                pf.neutral.unwrap_or(0),
                i64::from(NEUTRAL_KINS),
            )?;
            p.kins = count(&what("kins"), pf.kins.unwrap_or(3), 12)?;
            for &(ref sp, v) in pf.dynasty.iter().flat_map(|h| h.0.iter()) {
                let words: Vec<&str> = sp.split_whitespace().collect();
                let k = parse_dynasty(&words)
                    .filter(|&k| dynasty_name(k) == *sp)
                    .ok_or_else(|| format!("{}: unknown space {sp:?}", what("dynasty")))?;
                let v = count(&what("dynasty"), v, 12)?;
                if k != CENTER && v > 1 {
                    return Err(format!(
                        "{}: {v} kins on {sp}; at most 1 (CENTER excepted)",
                        what("dynasty")
                    ));
                }
                p.dynasty[k] = v;
            }
            let on_board: u32 = p.kins_on_board();
            if u32::from(p.kins) + on_board != u32::from(p.earned) + u32::from(p.neutral) {
                return Err(format!(
                    "player {}: kins {} + {} on the dynasty board is not earned {} + neutral {}",
                    pf.id, p.kins, on_board, p.earned, p.neutral
                ));
            }
            for r in pf.research.iter().flatten() {
                let words: Vec<&str> = r.split_whitespace().collect();
                let k = parse_research(&words)
                    .filter(|&k| research_name(k) == *r)
                    .ok_or_else(|| format!("{}: unknown space {r:?}", what("research")))?;
                if p.has(k) {
                    return Err(format!("{}: {r} listed twice", what("research")));
                }
                p.research |= 1 << k;
            }
            for t in pf.colonies.iter().flatten() {
                p.colonies[usize::from(tile(&what("colonies"), t)?)] += 1;
            }
            p.reserve = count(&what("reserve"), pf.reserve.unwrap_or(0), 60)?;
            for g in pf.ships.iter().flatten() {
                let k = d
                    .gate(g)
                    .filter(|_| g.to_ascii_uppercase() == *g)
                    .ok_or_else(|| format!("{}: unknown gate {g:?}", what("ships")))?;
                if p.ships & (1 << k) != 0 {
                    return Err(format!("{}: {g} listed twice", what("ships")));
                }
                p.ships |= 1 << k;
            }
            if p.ships.count_ones() + p.research.count_ones() > DISCS {
                return Err(format!(
                    "player {}: ships plus research discs above 24",
                    pf.id
                ));
            }
            p.due = count(&what("empire_due"), pf.empire_due.unwrap_or(0), 6)?;
            p.new = count(&what("empire_new"), pf.empire_new.unwrap_or(0), 6)?;
            for &n in pf.seen.iter().flatten() {
                if !(1..=3).contains(&n) {
                    return Err(format!(
                        "{}: {n} is not a GOAL space (1, 2, 3)",
                        what("seen")
                    ));
                }
                p.seen |= 1 << (n - 1);
            }
            p.personal = match pf.personal.as_deref() {
                None | Some("") => NONE,
                Some(g) => goal(&what("personal"), g)?,
            };
            p.battle = match pf.response.as_deref() {
                None | Some("battle") => true,
                Some("yield") => false,
                Some(other) => {
                    return Err(format!(
                        "{}: {other:?} is not battle or yield",
                        what("response")
                    ))
                }
            };
            if pf.personal_revealed == Some(true) {
                core.personal_revealed |= 1 << s;
            }
        }
        if let Some(k) = given.iter().position(|g| !g) {
            return Err(format!(
                "player: {:?} is seated without a [[player]] table",
                self.seating[k]
            ));
        }
        let neutral: u32 = core
            .seats()
            .map(|s| u32::from(core.player(s).neutral))
            .sum();
        if neutral > u32::from(NEUTRAL_KINS) {
            return Err(format!(
                "player: {neutral} neutral kins in all; there are 6"
            ));
        }
        if core.empire.count_ones() + core.empire_held() > EMPIRE_SHIPS {
            return Err("empire: more than 6 Empire ships on the board and held".into());
        }
        for c in 0..d.colours.len() as u8 {
            let used = core.used_cubes(d, c);
            if used > d.count[usize::from(c)] {
                return Err(format!(
                    "{}: {used} cubes on planets and in hands; there are {}",
                    d.colour_name(c),
                    d.count[usize::from(c)]
                ));
            }
        }
        let mut orders = BTreeMap::new();
        for (id, text) in self.orders.iter().flatten() {
            seat("orders", id)?;
            orders.insert(id.clone(), text.clone());
        }
        Ok(Scenario {
            state: State {
                data,
                seating: self.seating.clone(),
                options: opts,
                core: Box::new(core),
                creation: Vec::new(),
            },
            orders,
            seed: seed as u64,
            draws: self.draws.clone().unwrap_or_default(),
        })
    }
}

/// Reads a scenario; `dir` is where a named data file is found.
pub fn read(text: &str, dir: &std::path::Path) -> Result<Scenario, String> {
    let file: ScenarioFile =
        toml::from_str(text).map_err(|e| crate::toml_text::one_line(&e, text))?;
    let data = match &file.data {
        None => super::data::standard(),
        Some(name) => {
            let path = dir.join(name);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("data file {}: {e}", path.display()))?;
            Arc::new(Data::parse(&text).map_err(|e| format!("data file {}: {e}", path.display()))?)
        }
    };
    file.build(data)
}
