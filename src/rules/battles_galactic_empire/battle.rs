//! Region resolution (B8): combat rounds of a Military and a Morph segment, fire and
//! its results (B8.2–B8.5, B11.2), disengagement (B8.6), pursuit (B8.7) and the
//! garrison segment (B8.8).

use super::instructions::Instructions;
use super::outcome::{segment_id, Battle, Shot};
use super::state::Unit;
use super::syntax::{Disengage, GarrisonRule};
use super::types::{
    fleet_value, fleet_values, fleets_text, region_name, verb, Fleets, Kind, Power, Segment,
};
use super::Run;

/// A battle still on after this many rounds ends as if both disengaged (B8.6).
pub const MAX_ROUNDS: u32 = 20;

/// A fleet in a region being resolved.
#[derive(Clone, Copy, Debug)]
struct Fighter {
    power: Power,
    kind: Kind,
    marker: Option<Segment>,
    hits: u8,
}

/// What happens to a fleet hit in a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Eliminated,
    Converted,
    Returned,
}

impl Fate {
    fn id(self) -> &'static str {
        match self {
            Fate::Eliminated => "eliminated",
            Fate::Converted => "converted",
            Fate::Returned => "returned",
        }
    }
}

/// A region being resolved: its fleets, taken out of the state until the end.
struct Field<'a> {
    run: &'a mut Run,
    region: u8,
    name: &'static str,
    fighters: Vec<Fighter>,
    battle: Battle,
}

/// Resolves one unresolved region (B8) and says how it ended.
pub fn resolve(run: &mut Run, region: u8, instructions: &[Instructions; 2]) -> String {
    let name = region_name(region);
    let mut fighters = Vec::new();
    run.state.units.retain(|u| {
        if u.region == region {
            fighters.push(Fighter {
                power: u.power,
                kind: u.kind,
                marker: u.marker,
                hits: 0,
            });
            false
        } else {
            true
        }
    });
    run.state.regions[usize::from(region)].resolved = true;
    let mut field = Field {
        run,
        region,
        name,
        fighters,
        battle: Battle {
            region: name,
            rounds: 0,
            shots: Vec::new(),
        },
    };
    let present = |f: &Field, p: Power| f.fighters.iter().any(|x| x.power == p);
    let (blue, red) = (present(&field, Power::Blue), present(&field, Power::Red));
    let summary = if !blue && !red {
        let text = format!("{name}: no fleets there, resolved uncontrolled");
        field.run.log.event("B8.1", text.clone());
        text
    } else if blue != red {
        let p = if blue { Power::Blue } else { Power::Red };
        field.run.log.event(
            "B8.1",
            format!("{name}: only {p} has fleets there: straight to the garrison segment"),
        );
        field.garrison(p, &instructions[p.index()])
    } else {
        let text = field.fight(instructions);
        let battle = std::mem::replace(
            &mut field.battle,
            Battle {
                region: name,
                rounds: 0,
                shots: Vec::new(),
            },
        );
        field.run.log.battles.push(battle);
        text
    };
    summary
}

impl Field<'_> {
    fn has(&self, p: Power) -> bool {
        self.fighters.iter().any(|f| f.power == p)
    }

    fn value_of(&self, p: Power) -> u32 {
        let chaos = self.run.state.chaos;
        self.fighters
            .iter()
            .filter(|f| f.power == p)
            .map(|f| fleet_value(f.kind, f.power, chaos))
            .sum()
    }

    /// Combat rounds until at most one power has fleets here (B8.1), then the
    /// garrison segment or the end of the battle.
    fn fight(&mut self, instructions: &[Instructions; 2]) -> String {
        let name = self.name;
        for round in 1..=MAX_ROUNDS {
            self.battle.rounds = round;
            for seg in [Segment::Military, Segment::Morph] {
                self.segment(round, seg, instructions);
                if !(self.has(Power::Blue) && self.has(Power::Red)) {
                    return self.after_battle(instructions, round);
                }
            }
            // Disengagement (B8.6).
            let leaves = Power::BOTH.map(|p| {
                let other = self.value_of(p.other());
                match instructions[p.index()].disengage(self.region) {
                    Disengage::Never => false,
                    Disengage::After(n) => round >= n,
                    Disengage::Weaker => self.value_of(p) < other,
                }
            });
            match leaves {
                [true, true] => {
                    self.run.log.event(
                        "B8.6",
                        format!("{name}: both disengage after round {round}: every fleet returns to its display, the region is uncontrolled"),
                    );
                    self.all_home();
                    return format!("both disengaged after round {round}; uncontrolled");
                }
                [false, false] => {}
                _ => {
                    let d = if leaves[0] { Power::Blue } else { Power::Red };
                    return self.disengage(d, round, instructions);
                }
            }
        }
        self.run.log.event(
            "B8.6",
            format!("{name}: the battle is still on after round {MAX_ROUNDS}: it ends as if both disengaged; uncontrolled"),
        );
        self.all_home();
        format!("still on after round {MAX_ROUNDS}; every fleet home, uncontrolled")
    }

    fn after_battle(&mut self, instructions: &[Instructions; 2], round: u32) -> String {
        let name = self.name;
        match Power::BOTH.into_iter().find(|&p| self.has(p)) {
            Some(p) => {
                self.run.log.event(
                    "B8.1",
                    format!("{name}: the battle ends in round {round}; only {p} has fleets left"),
                );
                let g = self.garrison(p, &instructions[p.index()]);
                format!(
                    "battle of {}; {g}",
                    crate::rules::counted(round, "round", "rounds")
                )
            }
            None => {
                self.run.log.event(
                    "B8.1",
                    format!("{name}: the battle ends in round {round} with no fleets left: uncontrolled"),
                );
                format!(
                    "battle of {}; no fleets left, uncontrolled",
                    crate::rules::counted(round, "round", "rounds")
                )
            }
        }
    }

    /// Dice a fleet rolls in a segment (B8.2): its value there, +1 with a Tactical
    /// marker for it.
    fn dice(&self, f: &Fighter, seg: Segment) -> u32 {
        let (m, p) = fleet_values(f.kind, f.power, self.run.state.chaos);
        let base = match seg {
            Segment::Military => m,
            Segment::Morph => p,
        };
        base + u32::from(f.marker == Some(seg))
    }

    /// One segment (B8.2–B8.5): blue's firers roll, then red's; results apply after.
    fn segment(&mut self, round: u32, seg: Segment, instructions: &[Instructions; 2]) {
        let no_moon = self.run.state.options.no_moon;
        let main_weapon = self.run.state.options.main_weapon;
        let n = self.fighters.len();
        // Per target: sixes scored against it, and whether any 5 was.
        let mut sixes = vec![0u32; n];
        let mut fives = vec![false; n];
        for p in Power::BOTH {
            let mut firers: Vec<usize> = (0..n)
                .filter(|&i| self.fighters[i].power == p && self.dice(&self.fighters[i], seg) > 0)
                .collect();
            firers.sort_by_key(|&i| {
                let f = &self.fighters[i];
                (rank(&Kind::FIRING, f.kind), f.marker != Some(seg), i)
            });
            let order = instructions[p.index()].target_order(self.region, seg);
            let mut targets: Vec<usize> = (0..n).filter(|&i| self.fighters[i].power != p).collect();
            targets.sort_by_key(|&i| {
                let f = &self.fighters[i];
                (
                    rank(&order, f.kind),
                    f.marker.is_none(),
                    std::cmp::Reverse(f.hits),
                    i,
                )
            });
            if targets.is_empty() {
                continue;
            }
            for (k, &i) in firers.iter().enumerate() {
                let t = targets[k % targets.len()];
                let (firer, target) = (self.fighters[i], self.fighters[t]);
                let single = firer.kind == Kind::WS && main_weapon;
                let count = if single { 1 } else { self.dice(&firer, seg) };
                let what = format!(
                    "{} {} at {} {}",
                    firer.power,
                    firer.kind.name(),
                    target.power,
                    target.kind.name()
                );
                let step = if single { "B8.5" } else { "B8.4" };
                let mut rolls = Vec::with_capacity(count as usize);
                for _ in 0..count {
                    rolls.push(self.run.rng.d6(&mut self.run.log, step, what.clone()));
                }
                // A single shot: a 6 on 2–6, a 5 on 1 (B8.5).
                let (six, five) = if single {
                    (u32::from(rolls[0] >= 2), rolls[0] == 1)
                } else {
                    (
                        rolls.iter().filter(|&&d| d == 6).count() as u32,
                        rolls.contains(&5),
                    )
                };
                sixes[t] += six;
                fives[t] |= five;
                let moonlike = no_moon && target.kind == Kind::WS;
                let result = if moonlike {
                    if six > 0 {
                        "hit"
                    } else {
                        "none"
                    }
                } else if six > 0 {
                    fate_of_six(seg, target.kind).id()
                } else if five {
                    "returned"
                } else {
                    "none"
                };
                self.run.log.event(
                    step,
                    format!(
                        "{}, round {round}, {}: {what}: {}{} -> {result}",
                        self.name,
                        seg.name(),
                        rolls
                            .iter()
                            .map(u8::to_string)
                            .collect::<Vec<_>>()
                            .join(" "),
                        if single { " (single shot)" } else { "" }
                    ),
                );
                self.battle.shots.push(Shot {
                    round,
                    segment: segment_id(Some(seg)),
                    power: firer.power,
                    firer: firer.kind,
                    dice: rolls,
                    target: Some(target.kind),
                    result,
                });
            }
        }
        // Results apply after both powers have rolled (B8.4).
        let mut fates: Vec<Option<Fate>> = vec![None; n];
        for i in 0..n {
            let f = &mut self.fighters[i];
            if no_moon && f.kind == Kind::WS {
                if sixes[i] > 0 {
                    f.hits = f.hits.saturating_add(sixes[i].min(3) as u8);
                    if f.hits >= 3 {
                        fates[i] = Some(Fate::Eliminated);
                    } else {
                        let text = format!(
                            "{}, round {round}, {}: {} WS takes {} hit(s), {} of 3",
                            self.name,
                            seg.name(),
                            f.power,
                            sixes[i],
                            f.hits
                        );
                        self.run.log.event("B11.2", text);
                    }
                }
            } else if sixes[i] > 0 {
                fates[i] = Some(fate_of_six(seg, f.kind));
            } else if fives[i] {
                fates[i] = Some(Fate::Returned);
            }
        }
        self.apply(&fates, &format!("round {round}, {}", seg.name()));
    }

    /// Applies the fates of a segment or of pursuit fire, and reports them.
    fn apply(&mut self, fates: &[Option<Fate>], when: &str) {
        let mut kept = Vec::with_capacity(self.fighters.len());
        let mut told: Vec<String> = Vec::new();
        for (i, f) in self.fighters.clone().into_iter().enumerate() {
            match fates.get(i).copied().flatten() {
                None => kept.push(f),
                Some(fate) => {
                    told.push(match fate {
                        Fate::Converted => format!(
                            "{} {} converted to {}",
                            f.power,
                            f.kind.name(),
                            f.power.other()
                        ),
                        _ => format!("{} {} {}", f.power, f.kind.name(), fate.id()),
                    });
                    match fate {
                        Fate::Eliminated => self.eliminate(f),
                        Fate::Returned => self.home(f),
                        Fate::Converted => kept.push(Fighter {
                            power: f.power.other(),
                            kind: f.kind,
                            marker: None,
                            hits: 0,
                        }),
                    }
                }
            }
        }
        self.fighters = kept;
        if !told.is_empty() {
            let step = if when == "pursuit" { "B8.7" } else { "B8.4" };
            self.run
                .log
                .event(step, format!("{}, {when}: {}", self.name, told.join(", ")));
        }
    }

    /// To the common fleet pool; a TH to its power's TH supply (B8.4).
    fn eliminate(&mut self, f: Fighter) {
        if f.kind == Kind::TH {
            self.run.state.side_mut(f.power).th_supply += 1;
        } else {
            self.run.state.common.fleets[f.kind.index()] += 1;
        }
    }

    /// To its power's display.
    fn home(&mut self, f: Fighter) {
        self.run.state.side_mut(f.power).base[f.kind.index()] += 1;
    }

    fn all_home(&mut self) {
        for f in std::mem::take(&mut self.fighters) {
            self.home(f);
        }
    }

    /// One power disengages (B8.6); the other may pursue (B8.7); then the
    /// disengaging fleets go home and the other goes on to the garrison segment.
    fn disengage(&mut self, d: Power, round: u32, instructions: &[Instructions; 2]) -> String {
        let s = d.other();
        let name = self.name;
        let has_af = |f: &Field, p: Power| {
            f.fighters
                .iter()
                .any(|x| x.power == p && x.kind == Kind::AF)
        };
        self.run.log.event(
            "B8.6",
            format!("{name}: {d} disengages after round {round}"),
        );
        let pursues = instructions[s.index()].pursue(self.region) && has_af(self, s);
        if pursues {
            let mut sixes = [0u32; 2];
            for p in Power::BOTH {
                let afs: Vec<Fighter> = self
                    .fighters
                    .iter()
                    .filter(|x| x.power == p && x.kind == Kind::AF)
                    .copied()
                    .collect();
                for af in afs {
                    let n = 3 + u32::from(af.marker.is_some());
                    let what = format!("{p} AF pursuit fire");
                    let rolls: Vec<u8> = (0..n)
                        .map(|_| self.run.rng.d6(&mut self.run.log, "B8.7", what.clone()))
                        .collect();
                    let six = rolls.iter().filter(|&&x| x == 6).count() as u32;
                    sixes[p.index()] += six;
                    self.run.log.event(
                        "B8.7",
                        format!(
                            "{name}, pursuit: {what}: {} -> {}",
                            rolls
                                .iter()
                                .map(u8::to_string)
                                .collect::<Vec<_>>()
                                .join(" "),
                            match six {
                                0 => "no 6".to_string(),
                                1 => "one 6".to_string(),
                                n => format!("{n} sixes"),
                            }
                        ),
                    );
                    self.battle.shots.push(Shot {
                        round,
                        segment: segment_id(None),
                        power: p,
                        firer: Kind::AF,
                        dice: rolls,
                        target: None,
                        result: if six > 0 { "eliminated" } else { "none" },
                    });
                }
            }
            // Each 6 takes one opposing fleet in its owner's LOSSES order.
            let no_moon = self.run.state.options.no_moon;
            let mut fates: Vec<Option<Fate>> = vec![None; self.fighters.len()];
            for p in Power::BOTH {
                let loser = p.other();
                let order = instructions[loser.index()].losses();
                let mut victims: Vec<usize> = (0..self.fighters.len())
                    .filter(|&i| self.fighters[i].power == loser)
                    .collect();
                victims.sort_by_key(|&i| {
                    let f = &self.fighters[i];
                    (rank(&order, f.kind), f.marker.is_some(), i)
                });
                let mut next = victims.into_iter();
                let mut current = next.next();
                for _ in 0..sixes[p.index()] {
                    let Some(i) = current else { break };
                    let f = &mut self.fighters[i];
                    if no_moon && f.kind == Kind::WS {
                        f.hits += 1;
                        if f.hits >= 3 {
                            fates[i] = Some(Fate::Eliminated);
                            current = next.next();
                        }
                    } else {
                        fates[i] = Some(Fate::Eliminated);
                        current = next.next();
                    }
                }
            }
            self.apply(&fates, "pursuit");
        } else {
            self.run.log.event(
                "B8.7",
                format!(
                    "{name}: {s} does not pursue ({})",
                    if has_af(self, s) {
                        "PURSUE NO"
                    } else {
                        "no AF there"
                    }
                ),
            );
        }
        let leaving: Vec<Fighter> = self
            .fighters
            .iter()
            .filter(|f| f.power == d)
            .copied()
            .collect();
        self.fighters.retain(|f| f.power != d);
        let mut gone: Fleets = [0; 6];
        for f in leaving {
            gone[f.kind.index()] += 1;
            self.home(f);
        }
        // Pursuit may have left none of the leaving fleets to return.
        let returned = if gone.iter().all(|&n| n == 0) {
            format!("{name}: none of {d}'s leaving fleets is left to return to its display")
        } else {
            format!(
                "{name}: {d}'s {} {} to its display",
                fleets_text(&gone),
                verb(&gone, "returns", "return")
            )
        };
        self.run.log.event("B8.7", returned);
        if self.has(s) {
            let g = self.garrison(s, &instructions[s.index()]);
            format!("{d} disengaged after round {round}; {g}")
        } else {
            format!("{d} disengaged after round {round}; no fleets left, uncontrolled")
        }
    }

    /// The garrison segment (B8.8) for the one power with fleets here.
    fn garrison(&mut self, p: Power, instr: &Instructions) -> String {
        let name = self.name;
        let combat = self.run.state.regions[usize::from(self.region)].combat;
        let chaos = self.run.state.chaos;
        let mine: Vec<usize> = (0..self.fighters.len())
            .filter(|&i| self.fighters[i].power == p)
            .collect();
        let value = |i: &usize| fleet_value(self.fighters[*i].kind, p, chaos);
        let all_value: u32 = mine.iter().map(value).sum();
        let min = || -> Option<Vec<usize>> {
            let mut by: Vec<usize> = mine.clone();
            by.sort_by_key(|i| {
                (
                    std::cmp::Reverse(value(i)),
                    rank(&Kind::GARRISON_TIES, self.fighters[*i].kind),
                    *i,
                )
            });
            let mut sum = 0;
            let mut out = Vec::new();
            for i in by {
                if sum > combat {
                    break;
                }
                sum += value(&i);
                out.push(i);
            }
            (sum > combat).then_some(out)
        };
        let chosen: Option<Vec<usize>> = match instr.garrison(self.region) {
            GarrisonRule::Min => min(),
            GarrisonRule::All => (all_value > combat).then(|| mine.clone()),
            GarrisonRule::None => None,
            GarrisonRule::List(list) => {
                let mut want = list;
                let mut picked = Vec::new();
                for &i in &mine {
                    let k = self.fighters[i].kind.index();
                    if want[k] > 0 {
                        want[k] -= 1;
                        picked.push(i);
                    }
                }
                let v: u32 = picked.iter().map(value).sum();
                if want.iter().all(|&n| n == 0) && v > combat {
                    Some(picked)
                } else {
                    self.run.log.event(
                        "B8.8",
                        format!(
                            "{name}: {p}'s garrison list is {}: MIN instead",
                            if want.iter().any(|&n| n > 0) {
                                "not all there"
                            } else {
                                "not enough value"
                            }
                        ),
                    );
                    min()
                }
            }
        };
        let chosen = chosen.unwrap_or_default();
        let mut stays: Fleets = [0; 6];
        let mut home: Fleets = [0; 6];
        let mut stay_value = 0;
        for (i, f) in std::mem::take(&mut self.fighters).into_iter().enumerate() {
            if chosen.contains(&i) {
                stays[f.kind.index()] += 1;
                stay_value += fleet_value(f.kind, p, chaos);
                self.run.state.units.push(Unit {
                    region: self.region,
                    power: f.power,
                    kind: f.kind,
                    garrison: true,
                    marker: f.marker,
                    hits: 0,
                });
            } else {
                home[f.kind.index()] += 1;
                self.home(f);
            }
        }
        let back = if home.iter().any(|&n| n > 0) {
            format!(
                "; {} {} to its display",
                fleets_text(&home),
                verb(&home, "returns", "return")
            )
        } else {
            String::new()
        };
        let text = if chosen.is_empty() {
            format!(
                "{p} forms no garrison (value {all_value}, Combat {combat}): uncontrolled{back}"
            )
        } else {
            format!(
                "{p} garrisons {} (value {stay_value} > Combat {combat}){back}",
                fleets_text(&stays)
            )
        };
        self.run.log.event("B8.8", format!("{name}: {text}"));
        text
    }
}

/// The result of a 6 (B8.4): eliminated in the Military segment; in the Morph
/// segment converted, an IO returned instead.
fn fate_of_six(seg: Segment, target: Kind) -> Fate {
    match (seg, target) {
        (Segment::Military, _) => Fate::Eliminated,
        (Segment::Morph, Kind::IO) => Fate::Returned,
        (Segment::Morph, _) => Fate::Converted,
    }
}

fn rank(order: &[Kind], k: Kind) -> usize {
    order.iter().position(|&x| x == k).unwrap_or(order.len())
}
