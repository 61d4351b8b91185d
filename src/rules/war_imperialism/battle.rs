//! Land battles (W6.1–W6.7): conquests, battles between players at war, revolts;
//! rounds with side and unit DRMs, transfer, aimed hits and loss orders. What a battle
//! leaves (retreats, conquest, a lost revolt) is in `aftermath.rs`.

use std::collections::BTreeMap;

use super::map::Place;
use super::order::Transfer;
use super::outcome::{
    add_die, all_rolls, drm_total, BattleReport, BattleRound, DrmPart, Event, KindDice, SatOut,
    Sides,
};
use super::run::Run;
use super::state::{Building, Kind, State, Units, BRIGADES};

/// A battle that no dice end in this many rounds ends with the attacker withdrawing.
pub const MAX_ROUNDS: u32 = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Player(usize),
    Natives,
}

/// Brigade classes within a kind, in the order losses take them: units that retreated
/// in (sitting out the first round), units landed this phase, the others.
pub(super) const IDLE: usize = 0;
const LANDED: usize = 1;
pub(super) const OTHER: usize = 2;

/// One side's forces in a battle: brigades by kind (INF, CAV, ART) and class, and the
/// parties.
#[derive(Clone, Debug)]
pub(super) struct Army {
    pub(super) side: Side,
    pub(super) brig: [[u32; 3]; 3],
    pub(super) parties: Units,
}

impl Army {
    pub(super) fn new(side: Side) -> Army {
        Army {
            side,
            brig: [[0; 3]; 3],
            parties: Units::default(),
        }
    }

    fn brigades(&self) -> u32 {
        self.brig.iter().flatten().sum()
    }

    fn has(&self, k: Kind) -> bool {
        if k.is_brigade() {
            self.brig[k.index()].iter().sum::<u32>() > 0
        } else {
            self.parties.get(k) > 0
        }
    }

    fn remove_one(&mut self, k: Kind) {
        if k.is_brigade() {
            if let Some(c) = self.brig[k.index()].iter_mut().find(|c| **c > 0) {
                *c -= 1;
            }
        } else {
            self.parties.sub(&Units::one(k));
        }
    }

    pub(super) fn units(&self) -> Units {
        let mut u = self.parties;
        for k in BRIGADES {
            u.add_kind(k, self.brig[k.index()].iter().sum());
        }
        u
    }

    fn amph(&self) -> Units {
        let mut u = Units::default();
        for k in BRIGADES {
            u.add_kind(k, self.brig[k.index()][LANDED]);
        }
        u
    }

    /// The brigades that do not roll in `round` (W6.6): those that retreated in sit
    /// out the first round.
    fn sitting_out(&self, round: u32) -> Option<SatOut> {
        let units: BTreeMap<&'static str, u32> = BRIGADES
            .into_iter()
            .map(|k| (k.name(), self.brig[k.index()][IDLE]))
            .filter(|&(_, n)| n > 0 && round == 1)
            .collect();
        (!units.is_empty()).then_some(SatOut {
            units,
            why: "retreated_in",
        })
    }

    fn general(&self) -> bool {
        self.side != Side::Natives && self.parties.get(Kind::Gen) > 0
    }
}

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Won {
    Attacker,
    Defender,
    /// Two players' sides without brigades and no defending party: the region
    /// reverts to the natives (W6.5).
    Nobody,
}

impl Run {
    fn side_name(&self, s: Side) -> String {
        match s {
            Side::Player(p) => self.pid(p),
            Side::Natives => "natives".into(),
        }
    }

    fn army(&self, side: Side, r: usize) -> Army {
        let mut army = Army::new(side);
        match side {
            Side::Natives => {
                let m = self.s.regions[r]
                    .native
                    .unwrap_or(self.map.regions[r].native);
                let [inf, cav, art] = State::native_army(m);
                army.brig[Kind::Inf.index()][OTHER] = inf;
                army.brig[Kind::Cav.index()][OTHER] = cav;
                army.brig[Kind::Art.index()][OTHER] = art;
            }
            Side::Player(x) => {
                let k = r * self.np() + x;
                let all = self.s.land[k];
                let (amph, idle) = if self.mv.moved.is_empty() {
                    (Units::default(), Units::default())
                } else {
                    (self.mv.amph[k], self.mv.idle[k])
                };
                for kind in BRIGADES {
                    let c = all.get(kind);
                    let i = idle.get(kind).min(c);
                    let a = amph.get(kind).min(c - i);
                    army.brig[kind.index()] = [i, a, c - i - a];
                }
                army.parties = all;
                for kind in BRIGADES {
                    army.parties.set(kind, 0);
                }
            }
        }
        army
    }

    fn battle_rounds_limit(&self, side: Side, r: usize) -> Option<u32> {
        match side {
            Side::Player(x) => self.standing[x]
                .battle_for(Place::Region(r))
                .and_then(|b| b.rounds),
            Side::Natives => None,
        }
    }

    pub(super) fn target(&self, side: Side, r: usize) -> Option<Kind> {
        match side {
            Side::Player(x) => self.standing[x]
                .battle_for(Place::Region(r))
                .and_then(|b| b.target),
            Side::Natives => None,
        }
    }

    /// W6.3, W11.4: the raw side DRM's parts: general, schools, fort.
    fn raw_drm(&self, army: &Army, attacking: bool, fort: bool) -> Vec<DrmPart> {
        let mut parts = Vec::new();
        if let Side::Player(x) = army.side {
            if army.general() {
                parts.push(DrmPart::new("general", 1));
            }
            let schools = self.s.schools(x);
            let d = (schools / 2).min(2) as i32;
            if d > 0 {
                parts.push(DrmPart {
                    count: Some(schools),
                    ..DrmPart::new("schools", d)
                });
            }
        }
        if attacking && fort {
            parts.push(DrmPart::new("fort", -2));
        }
        parts
    }

    /// W6.3: both sides' DRMs for a round part by part: the raw parts, a side below 0
    /// set to 0 and the other side gaining as much, then the general's transfer. Each
    /// side's DRM is the sum of its parts (`drm_total`).
    pub(super) fn drm_parts(
        &self,
        r: usize,
        a: &Army,
        d: &Army,
        fort: bool,
    ) -> Sides<Vec<DrmPart>> {
        let (mut pa, mut pd) = (self.raw_drm(a, true, fort), self.raw_drm(d, false, fort));
        let floor = |low: &mut Vec<DrmPart>, other: &mut Vec<DrmPart>| {
            let below = drm_total(low);
            if below < 0 {
                low.push(DrmPart::new("set_to_0", -below));
                other.push(DrmPart::new("from_other_side", -below));
            }
        };
        floor(&mut pa, &mut pd);
        floor(&mut pd, &mut pa);
        let (ga, gd) = (a.general(), d.general());
        if ga != gd {
            let (with, other) = if ga { (a, d) } else { (d, a) };
            let setting = match with.side {
                Side::Player(x) => self.standing[x]
                    .battle_for(Place::Region(r))
                    .and_then(|b| b.transfer)
                    .unwrap_or(Transfer::Auto),
                Side::Natives => Transfer::None,
            };
            let most = drm_total(&pa).min(drm_total(&pd));
            let t = match setting {
                Transfer::All => most,
                Transfer::None => 0,
                Transfer::Auto if with.brigades() < other.brigades() => most,
                Transfer::Auto => 0,
            };
            if t != 0 {
                pa.push(DrmPart::new("transfer", -t));
                pd.push(DrmPart::new("transfer", -t));
            }
        }
        Sides {
            attacker: pa,
            defender: pd,
        }
    }

    /// W6.2: every brigade rolls (INF, CAV, ART; landed ones after the others of their
    /// kind); units that retreated in sit out the first round. The dice go to `dice` by
    /// kind with their unit DRMs (W11.4).
    pub(super) fn roll_army(
        &mut self,
        army: &Army,
        drm: i32,
        round: u32,
        r: usize,
        dice: &mut Vec<KindDice>,
    ) -> u32 {
        let who = self.side_name(army.side);
        let at = self.rn(r);
        let mut hits = 0;
        for kind in BRIGADES {
            let [idle, landed, other] = army.brig[kind.index()];
            let others = other + if round == 1 { 0 } else { idle };
            for (n, is_landed) in [(others, false), (landed, true)] {
                let tag = if is_landed { " (landed)" } else { "" };
                let unit = match kind {
                    Kind::Cav => 1,
                    Kind::Art => 2,
                    _ => 0,
                };
                let amph = match (is_landed, round) {
                    (true, 1) => Some(-2),
                    (true, 2) => Some(-1),
                    _ => None,
                };
                for _ in 0..n {
                    let d = self.d6(
                        "W6.2",
                        format!("{who} {}{tag} at {at}, round {round}", kind.name()),
                    );
                    add_die(dice, kind.name(), unit, amph, d);
                    let total = d as i32 + drm + unit + amph.unwrap_or(0);
                    hits += if total >= 10 {
                        2
                    } else if total >= 6 {
                        1
                    } else {
                        0
                    };
                }
            }
        }
        hits
    }

    /// W6.4: aimed hits first (3 hits for one on the TARGET kind), the rest by the
    /// victim's loss order, brigades before parties.
    pub(super) fn take_losses(
        &self,
        victim: &mut Army,
        mut hits: u32,
        target: Option<Kind>,
    ) -> BTreeMap<&'static str, u32> {
        let mut lost: BTreeMap<&'static str, u32> = BTreeMap::new();
        if let Some(k) = target {
            while hits >= 3 && victim.has(k) {
                victim.remove_one(k);
                hits -= 3;
                *lost.entry(k.name()).or_default() += 1;
            }
        }
        let order = match victim.side {
            Side::Natives => vec![Kind::Inf, Kind::Cav, Kind::Art],
            Side::Player(x) => self.standing[x].loss_order(),
        };
        for k in order {
            while hits > 0 && victim.has(k) {
                victim.remove_one(k);
                hits -= 1;
                *lost.entry(k.name()).or_default() += 1;
            }
        }
        lost
    }

    /// A land battle in region `r`. The armies are the sides' units there (the
    /// natives' from the marker); survivors are written back, retreats carried out.
    pub fn land_battle(
        &mut self,
        r: usize,
        attacker: Side,
        defender: Side,
        revolt: bool,
        origins: &[Place],
    ) -> Won {
        let mut a = self.army(attacker, r);
        let mut d = self.army(defender, r);
        let fort =
            matches!(defender, Side::Player(_)) && self.s.regions[r].buildings.has(Building::Fort);
        let at = self.rn(r);
        let mut report = BattleReport {
            kind: "land",
            at: at.clone(),
            attacker: self.side_name(attacker),
            defender: self.side_name(defender),
            revolt,
            rounds: Vec::new(),
            winner: String::new(),
            end: String::new(),
            event: 0,
        };
        let mut round = 0;
        // (who retreats, where) after the loop.
        let mut a_retreat: Option<Option<Place>> = None;
        let mut d_retreat: Option<Option<Place>> = None;
        // Why a side's RETREAT place was passed over, told once (W6.6).
        let mut notes: [Option<String>; 2] = [None, None];
        let won;
        loop {
            round += 1;
            let parts = self.drm_parts(r, &a, &d, fort);
            let (da, dd) = (drm_total(&parts.attacker), drm_total(&parts.defender));
            let mut rec = BattleRound {
                drm: Sides {
                    attacker: da,
                    defender: dd,
                },
                drm_parts: parts,
                sat_out: Sides {
                    attacker: a.sitting_out(round),
                    defender: d.sitting_out(round),
                },
                ..Default::default()
            };
            let hits_a = self.roll_army(&a, da, round, r, &mut rec.by_kind.attacker);
            let hits_d = self.roll_army(&d, dd, round, r, &mut rec.by_kind.defender);
            rec.rolls = Sides {
                attacker: all_rolls(&rec.by_kind.attacker),
                defender: all_rolls(&rec.by_kind.defender),
            };
            rec.hits = Sides {
                attacker: hits_a,
                defender: hits_d,
            };
            let target_a = self.target(attacker, r);
            let target_d = self.target(defender, r);
            rec.losses.defender = self.take_losses(&mut d, hits_a, target_a);
            rec.losses.attacker = self.take_losses(&mut a, hits_d, target_d);
            report.rounds.push(rec);
            let (ab, db) = (a.brigades(), d.brigades());
            if ab == 0 && db == 0 {
                if attacker == Side::Natives || defender == Side::Natives {
                    if attacker == Side::Natives {
                        won = Won::Attacker;
                        d_retreat = Some(None);
                    } else {
                        won = Won::Defender;
                        a_retreat = Some(None);
                    }
                    report.end = format!(
                        "no brigades left on either side after round {round}: the natives win"
                    );
                } else {
                    a_retreat = Some(None);
                    let cheapest = [Kind::Exp, Kind::Eng, Kind::Gen]
                        .into_iter()
                        .find(|&k| d.parties.get(k) > 0);
                    match cheapest {
                        Some(k) => {
                            d.parties.sub(&Units::one(k));
                            d.brig[Kind::Inf.index()][OTHER] += 1;
                            won = Won::Defender;
                            report.end = format!(
                                "no brigades left on either side after round {round}: the defender's {} becomes an INF",
                                k.name()
                            );
                        }
                        None => {
                            won = Won::Nobody;
                            report.end =
                                format!("no brigades left on either side after round {round}");
                        }
                    }
                }
                break;
            }
            if ab == 0 {
                won = Won::Defender;
                a_retreat = Some(None);
                report.end = format!("the attacker has no brigade left after round {round}");
                break;
            }
            if db == 0 {
                won = Won::Attacker;
                d_retreat = Some(None);
                report.end = format!("the defender has no brigade left after round {round}");
                break;
            }
            if let Side::Player(x) = attacker {
                let limit = self.battle_rounds_limit(attacker, r);
                let forced = round >= MAX_ROUNDS;
                if forced || limit.is_some_and(|n| round >= n) {
                    let (place, note) = self.attacker_retreat(x, r, origins, &a.units());
                    notes[0] = notes[0].take().or(note);
                    if let Some(place) = place {
                        won = Won::Defender;
                        a_retreat = Some(Some(place));
                        report.end = format!(
                            "the attacker retreats to {} after round {round}",
                            self.pn(place)
                        );
                        break;
                    }
                    if forced {
                        won = Won::Defender;
                        a_retreat = Some(None);
                        report.end =
                            format!("the attacker cannot retreat after {MAX_ROUNDS} rounds");
                        break;
                    }
                }
            }
            if let Side::Player(y) = defender {
                let limit = self.battle_rounds_limit(defender, r);
                if limit.is_some_and(|n| round >= n) {
                    let (place, note) = self.defender_retreat(y, r);
                    notes[1] = notes[1].take().or(note);
                    if let Some(place) = place {
                        won = Won::Attacker;
                        d_retreat = Some(Some(place));
                        report.end = format!(
                            "the defender retreats to {} after round {round}",
                            self.pn(place)
                        );
                        break;
                    }
                }
            }
            if round >= MAX_ROUNDS {
                won = Won::Defender;
                a_retreat = Some(None);
                report.end = format!("the natives hold after {MAX_ROUNDS} rounds");
                break;
            }
        }
        report.winner = match won {
            Won::Attacker => self.side_name(attacker),
            Won::Defender => self.side_name(defender),
            Won::Nobody => "natives".into(),
        };
        // Survivors back on the map.
        self.write_back(r, &a);
        self.write_back(r, &d);
        // Retreats: the losing side, whole (W6.6). The battle's event goes before
        // theirs (it counts their extra round, so it is written after them).
        let event = self.log.events.len();
        let mut a_place = None;
        if let (Some(choice), Side::Player(x)) = (a_retreat, attacker) {
            if !a.units().is_empty() {
                a_place = Some((
                    x,
                    choice.or_else(|| {
                        let (place, note) = self.attacker_retreat(x, r, origins, &a.units());
                        notes[0] = notes[0].take().or(note);
                        place
                    }),
                ));
            }
        }
        let mut d_place = None;
        if let (Some(choice), Side::Player(y)) = (d_retreat, defender) {
            if !d.units().is_empty() {
                d_place = Some((
                    y,
                    choice.or_else(|| {
                        let (place, note) = self.defender_retreat(y, r);
                        notes[1] = notes[1].take().or(note);
                        place
                    }),
                ));
            }
        }
        for (note, side) in notes.into_iter().zip([attacker, defender]) {
            if let (Some(text), Side::Player(x)) = (note, side) {
                self.event(Event::new("W6.6", text).player(self.pid(x)).region(&at));
            }
        }
        if let Some((x, place)) = a_place {
            self.retreat(x, r, a.units(), place, &d, fort, &mut report);
        }
        if let Some((y, place)) = d_place {
            self.retreat(y, r, d.units(), place, &a, fort, &mut report);
        }
        let summary = format!(
            "battle at {at}{}: {} against {}, {}; {}; winner: {}",
            if revolt { " (revolt)" } else { "" },
            report.attacker,
            report.defender,
            fought(&report.rounds),
            report.end,
            report.winner
        );
        self.log
            .events
            .insert(event, Event::new("W6.5", summary).region(&at));
        // A naval battle fought during a retreat (interception) told its event after
        // this one's place: it moves one down.
        for b in &mut self.log.battles {
            if b.event >= event {
                b.event += 1;
            }
        }
        report.event = event;
        self.log.battles.push(report);
        won
    }

    fn write_back(&mut self, r: usize, army: &Army) {
        if let Side::Player(x) = army.side {
            let k = r * self.np() + x;
            self.s.land[k] = army.units();
            if !self.mv.moved.is_empty() {
                self.mv.idle[k] = Units::default();
                self.mv.amph[k] = army.amph();
                self.clamp(r, x);
            }
        }
    }

    /// The mover's battle in a region he entered (W5.1 step 3, W6.7).
    pub fn entered_battle(&mut self, p: usize, r: usize, k: usize) {
        self.mv.next_battle = k + 1;
        if self.s.owns(p, r) {
            return;
        }
        let units = *self.s.units(r, p);
        let origins = self.mv.pending[k].origins.clone();
        if units.brigades() == 0 {
            if units.is_empty() || units.only_explorers() && self.s.regions[r].owner.is_none() {
                return;
            }
            // Parties without a brigade lose at once (W6.5).
            let (place, note) = self.attacker_retreat(p, r, &origins, &units);
            let mut report = BattleReport {
                kind: "land",
                at: self.rn(r),
                attacker: self.pid(p),
                defender: self.holder(r),
                revolt: false,
                rounds: Vec::new(),
                winner: self.holder(r),
                end: "the attacker has no brigade".into(),
                event: 0,
            };
            let enemy = self.army(
                match self.s.regions[r].owner {
                    Some(o) => Side::Player(o),
                    None => Side::Natives,
                },
                r,
            );
            let mut parties = units;
            parties.set(
                Kind::Exp,
                if self.s.regions[r].owner.is_none() {
                    0
                } else {
                    units.get(Kind::Exp)
                },
            );
            if !parties.is_empty() {
                if let Some(text) = note {
                    self.event(
                        Event::new("W6.6", text)
                            .player(self.pid(p))
                            .region(self.rn(r)),
                    );
                }
                self.retreat(p, r, parties, place, &enemy, false, &mut report);
            }
            return;
        }
        let defender = match self.s.regions[r].owner {
            Some(o) => Side::Player(o),
            None => Side::Natives,
        };
        let won = self.land_battle(r, Side::Player(p), defender, false, &origins);
        match won {
            Won::Attacker => self.conquer(r, p, defender),
            Won::Nobody => self.revert(r, "W6.5", "both sides without brigades"),
            Won::Defender => {}
        }
    }

    /// A revolt in the mover's region (W6.1, W6.7): the natives attack, the player
    /// defends with his fort.
    pub fn revolt_battle(&mut self, r: usize) {
        let Some(p) = self.s.regions[r].owner else {
            return;
        };
        self.mv.next_battle = 0;
        if self.s.regions[r].native.is_none() {
            self.s.regions[r].revolt = false;
            return;
        }
        let won = self.land_battle(r, Side::Natives, Side::Player(p), true, &[]);
        match won {
            Won::Defender => {
                self.s.regions[r].revolt = false;
                self.s.regions[r].suppressors.clear();
                let loss = self.d3("W6.7", format!("NS loss at {}", self.rn(r)));
                let text = format!("{} puts down the revolt in {}", self.pid(p), self.rn(r));
                self.event(
                    Event::new("W6.7", text)
                        .player(self.pid(p))
                        .region(self.rn(r)),
                );
                self.lower_ns(r, loss, "W6.7", &format!("revolt put down, 1d3 = {loss}"));
            }
            _ => self.natives_win_revolt(r),
        }
    }
}

/// A land battle's rounds in words: "2 rounds", and the extra round on units
/// retreating onto fleets named apart ("1 round, and the extra round of W6.6").
fn fought(list: &[BattleRound]) -> String {
    let n = list.iter().filter(|r| !r.extra).count();
    if n < list.len() {
        format!("{}, and the extra round of W6.6", rounds(n))
    } else {
        rounds(n)
    }
}

/// "1 round", "3 rounds".
pub(super) fn rounds(n: usize) -> String {
    crate::rules::counted(n as u64, "round", "rounds")
}
