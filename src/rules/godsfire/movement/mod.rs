//! The movement phase (G4): movers walk their paths one at a time (power by power in
//! the game's order, each power's orders as written), meeting only the standing
//! stacks' stances: transit attacks (G5.4) and blocks (G4.3). Then the end steps of
//! G4.7 in their order: end positions settled in rounds (G4.6), the interceptors'
//! S-1 losses, the blockers' retreats, the excess above the stacking limit
//! disbanded, powers whose NG was destroyed put out, and the combat phase's end steps
//! if nobody owes it (G5.9).

mod end_steps;

use super::check::{Checked, Step};
use super::map::{Cell, UnitType, Units};
use super::outcome::{Event, MoveReport, TransitReport, TransitRoll, WarLog};
use super::place::{FastMap, Place, Position, Side};
use super::run::Run;
use super::state::Phase;
use super::strength::{able, attack_of, defence, Strength, Target};
use super::tables::{transit_column, transit_result, TransitResult};
use super::{conquest, end};

/// How a mover's walk ended (G4.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Arrived,
    /// Ms: stopped short of the cell where it was attacked.
    Stopped(Cell),
    /// Stopped by a blocking stack in this cell.
    Blocked(Cell),
    /// Eliminated by a transit attack in this cell.
    Eliminated(Cell),
}

struct Mover {
    entry: usize,
    power: Side,
    from: Place,
    /// The NG's move: the system it goes to.
    ng: Option<usize>,
    units: Units,
    set_out: Units,
    path: Vec<Place>,
    /// How many places of the path it has walked (0: still at `from`).
    step: usize,
    fate: Fate,
    /// Stepped back (G4.6): from which cell first.
    bounced: Option<Cell>,
    lost: Units,
}

impl Mover {
    fn place(&self) -> Place {
        match self.step {
            0 => self.from,
            k => self.path[k - 1],
        }
    }

    fn alive(&self) -> bool {
        !matches!(self.fate, Fate::Eliminated(_)) && (self.ng.is_some() || !self.units.is_empty())
    }
}

struct Stance {
    entry: usize,
    power: Side,
    cell: Cell,
    block: bool,
    to: Option<Cell>,
    /// The standing units of the start of the phase (G4.4), less S-1 losses.
    units: Units,
    attacks: usize,
    /// Movers stopped: their power, the place they entered the cell from (no retreat
    /// there, G4.7) and where they started (the report's `from`, as for transit attacks).
    stopped: Vec<(Side, Place, Place)>,
}

/// Strings joined (reports write many; cheaper than the formatting machinery).
fn cat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

/// Each side's order of picks this phase (G5.6): its `LOSSES` order, or SQD, AG, PDF.
pub fn picks(run: &mut Run, sides: usize) -> Vec<[UnitType; 3]> {
    let mut picks = vec![UnitType::ALL; sides];
    for e in run.step(Step::Losses) {
        if let Checked::Losses { order, .. } = run.entries[e].order {
            picks[run.entries[e].power] = order;
            let names: Vec<&str> = order.iter().map(|k| k.name()).collect();
            run.done(e, format!("picks this phase: {}", names.join(", ")));
        }
    }
    picks
}

/// The units a side would lose or have attacked first, one by one, in a pick order.
fn in_order(units: Units, order: [UnitType; 3]) -> impl Iterator<Item = UnitType> {
    order
        .into_iter()
        .flat_map(move |k| std::iter::repeat_n(k, units.get(k) as usize))
}

pub fn run(run: &mut Run, mut pos: Position) {
    let mut war = WarLog::default();
    let anyone = run.state.powers.iter().enumerate().any(|(k, p)| {
        !p.out
            && (run.state.systems_owned(&p.id) >= 2
                || pos
                    .board
                    .iter()
                    .any(|(_, side, u)| side == k && !u.is_empty()))
    });
    if !anyone {
        run.event(Event::new(
            "G3",
            "nobody owes the movement phase (no power has units or two systems): it is \
             skipped, its end steps carried out",
        ));
    }
    let picks = picks(run, pos.sides.ids.len());
    let mut movers = set_out(run, &mut pos);
    let mut stances = Vec::new();
    let mut by_cell: FastMap<Cell, Vec<usize>> = FastMap::default();
    for e in run.step(Step::Stance) {
        let Checked::Stance { at, block, to } = run.entries[e].order else {
            continue;
        };
        let power = run.entries[e].power;
        by_cell.entry(at).or_default().push(stances.len());
        stances.push(Stance {
            entry: e,
            power,
            cell: at,
            block,
            to,
            units: pos.board.get(Place::Cell(at), power),
            attacks: 0,
            stopped: Vec::new(),
        });
    }
    // S-1 results: the stance, the mover's power, the transit attack's report.
    let mut s1 = Vec::new();
    for mover in &mut movers {
        walk(
            run,
            &pos,
            mover,
            &mut stances,
            &by_cell,
            &picks,
            &mut war,
            &mut s1,
        );
    }
    end_positions(run, &pos, &mut movers, &stances);
    for m in movers.iter().filter(|m| m.ng.is_none() && m.alive()) {
        pos.board.add(m.place(), m.power, m.units);
    }
    let destroyed = report_moves(run, &pos, &movers, &mut war);
    end_steps::losses_of_interceptors(run, &mut pos, &mut stances, &s1, &picks, &mut war);
    end_steps::retreat_blockers(run, &mut pos, &stances, &mut war);
    end_steps::settle_stances(run, &stances);
    end_steps::disband(run, &mut pos, &mut war);
    pos.write(&mut run.state);
    let all_there = destroyed.is_empty();
    let owed = if all_there {
        super::owing_combat_at(&run.state, &pos)
    } else {
        for p in destroyed {
            end::put_out(
                run,
                p,
                "has lost its National Government, destroyed while moving",
            );
        }
        super::owing_combat(&run.state)
    };
    if owed.is_empty() {
        run.event(Event::new(
            "G5.9",
            "the combat phase is skipped: no stack is in contact with hostile units",
        ));
        let pos = all_there.then_some(&pos);
        conquest::end_steps(run, pos, &Default::default(), &mut war);
        run.state.phase = Phase::Interphase;
    } else {
        run.state.phase = Phase::Combat;
    }
    run.log.war = Some(war);
}

/// The movers, each with its units taken from where they stood.
fn set_out(run: &Run, pos: &mut Position) -> Vec<Mover> {
    let mut movers = Vec::new();
    for e in run.step(Step::Move) {
        let power = run.entries[e].power;
        let mover = match &run.entries[e].order {
            Checked::Move {
                from, units, path, ..
            } => {
                pos.board.sub(*from, power, *units);
                Mover {
                    entry: e,
                    power,
                    from: *from,
                    ng: None,
                    units: *units,
                    set_out: *units,
                    path: path.clone(),
                    step: 0,
                    fate: Fate::Arrived,
                    bounced: None,
                    lost: Units::default(),
                }
            }
            Checked::NgMove { path, to } => {
                let home = run
                    .state
                    .system_index(&run.state.powers[power].ng)
                    .map(|s| run.state.systems[s].at)
                    .unwrap_or(path[0]);
                Mover {
                    entry: e,
                    power,
                    from: Place::Cell(home),
                    ng: Some(*to),
                    units: Units::default(),
                    set_out: Units::default(),
                    path: path.iter().map(|&c| Place::Cell(c)).collect(),
                    step: 0,
                    fate: Fate::Arrived,
                    bounced: None,
                    lost: Units::default(),
                }
            }
            _ => continue,
        };
        movers.push(mover);
    }
    movers
}

/// G4.4: one mover walks its path, meeting the stances of powers at war with it.
#[allow(clippy::too_many_arguments)]
fn walk(
    run: &mut Run,
    pos: &Position,
    mover: &mut Mover,
    stances: &mut [Stance],
    by_cell: &FastMap<Cell, Vec<usize>>,
    picks: &[[UnitType; 3]],
    war: &mut WarLog,
    s1: &mut Vec<(usize, Side, usize)>,
) {
    for k in 0..mover.path.len() {
        mover.step = k + 1;
        let Place::Cell(cell) = mover.path[k] else {
            continue;
        };
        let Some(here) = by_cell.get(&cell) else {
            continue;
        };
        for &s in here {
            if stances[s].block || !pos.sides.at_war(stances[s].power, mover.power) {
                continue;
            }
            let stopped = transit_attack(run, pos, s, &mut stances[s], mover, picks, war, s1);
            if !mover.alive() {
                mover.fate = Fate::Eliminated(cell);
                return;
            }
            if stopped {
                mover.step = k;
                mover.fate = Fate::Stopped(cell);
                return;
            }
        }
        for &s in here {
            if stances[s].block && pos.sides.at_war(stances[s].power, mover.power) {
                let entered_from = if k == 0 {
                    mover.from
                } else {
                    mover.path[k - 1]
                };
                stances[s]
                    .stopped
                    .push((mover.power, entered_from, mover.from));
                mover.fate = Fate::Blocked(cell);
                let text = format!(
                    "{}'s blocking stack at {cell} stops {} from {}",
                    pos.sides.id(stances[s].power),
                    mover_name(run, pos, mover),
                    run.state.place_name(mover.from)
                );
                run.event(Event::new("G4.3", text).power(pos.sides.id(stances[s].power)));
                return;
            }
        }
    }
}

fn mover_name(run: &Run, pos: &Position, mover: &Mover) -> String {
    let _ = run;
    match mover.ng {
        Some(_) => format!("{}'s National Government", pos.sides.id(mover.power)),
        None => format!("{}'s units", pos.sides.id(mover.power)),
    }
}

/// G5.4: an intercepting stack's transit attack on a mover entering its cell. Returns
/// whether the mover is stopped (Ms).
#[allow(clippy::too_many_arguments)]
fn transit_attack(
    run: &mut Run,
    pos: &Position,
    index: usize,
    stance: &mut Stance,
    mover: &mut Mover,
    picks: &[[UnitType; 3]],
    war: &mut WarLog,
    s1: &mut Vec<(usize, Side, usize)>,
) -> bool {
    let cell = stance.cell;
    let ground = pos.geo.ground(Place::Cell(cell));
    let nebula = pos.geo.nebula(cell);
    let attack = attack_of(stance.units, ground, Target::Cell, nebula);
    let capable = able(stance.units, ground, Target::Cell).total();
    let count = if mover.ng.is_some() {
        1
    } else {
        mover.units.total()
    };
    let k = count.min(capable) as usize;
    let targets: Vec<Option<UnitType>> = match mover.ng {
        Some(_) => vec![None],
        None => in_order(mover.units, picks[stance.power])
            .take(k)
            .map(Some)
            .collect(),
    };
    if k == 0 {
        return false;
    }
    stance.attacks += 1;
    let (me, them) = (pos.sides.id(stance.power), pos.sides.id(mover.power));
    let from = run.state.place_name(mover.from);
    let mut stopped = false;
    let mut rolls = Vec::new();
    for target in targets.into_iter().take(k) {
        let d = target.map_or(Strength(0), |t| defence(t, ground, nebula));
        let unit = target.map_or("NG", UnitType::name);
        let column = transit_column(d, attack);
        let subject = format!("{cell}: {me} intercepts {them}'s {unit} from {from}");
        let roll = run.roll("G5.4", &subject);
        let result = transit_result(column, roll);
        let effect = match result {
            TransitResult::ME | TransitResult::M1 => match target {
                Some(t) => {
                    mover.units.sub(Units::of(t, 1));
                    mover.lost.add(Units::of(t, 1));
                    format!("{them}'s {unit} is eliminated")
                }
                None => {
                    mover.fate = Fate::Eliminated(cell);
                    format!("{them}'s National Government is destroyed")
                }
            },
            TransitResult::Ms => {
                stopped = true;
                format!("{them}'s units stop short of {cell}")
            }
            TransitResult::Ne => "no effect".to_string(),
            TransitResult::S1 => {
                s1.push((index, mover.power, war.transit_attacks.len()));
                format!("{me}'s stack at {cell} will lose a unit picked by {them}")
            }
        };
        let text = format!(
            "1d6 = {roll} -> {result}: {me} at {cell} intercepts {them}'s {unit} from {from} \
             (defence {d} against attack {attack}, column {column}): {effect}"
        );
        run.event(Event::new("G5.4", text).power(me).die("1d6", roll));
        rolls.push(TransitRoll {
            unit,
            defence: d,
            column,
            roll,
            result: result.name(),
        });
    }
    war.transit_attacks.push(TransitReport {
        cell: cell.to_string(),
        power: me.to_string(),
        mover: them.to_string(),
        from,
        attack,
        rolls,
        interceptor_lost: Units::default(),
    });
    stopped
}

/// G4.6: movers ending in a cell they did not start in, where hostile units also end,
/// step back together one place along their paths, round after round.
fn end_positions(run: &mut Run, pos: &Position, movers: &mut [Mover], stances: &[Stance]) {
    let sides = pos.sides.ids.len();
    let mut ending: FastMap<Cell, Vec<u32>> = FastMap::default();
    for (place, side, units) in pos.board.iter() {
        if let Place::Cell(c) = place {
            ending.entry(c).or_insert_with(|| vec![0; sides])[side] += units.total();
        }
    }
    // A blocking stack that stopped a mover counts as gone from its cell.
    for s in stances.iter().filter(|s| !s.stopped.is_empty()) {
        if let Some(n) = ending.get_mut(&s.cell) {
            n[s.power] = n[s.power].saturating_sub(s.units.total());
        }
    }
    let moving = |m: &Mover| m.ng.is_none() && m.alive();
    for m in movers.iter().filter(|m| moving(m)) {
        if let Place::Cell(c) = m.place() {
            ending.entry(c).or_insert_with(|| vec![0; sides])[m.power] += m.units.total();
        }
    }
    loop {
        let found: Vec<usize> = (0..movers.len())
            .filter(|&k| {
                let m = &movers[k];
                if !moving(m) || m.step == 0 {
                    return false;
                }
                let Place::Cell(c) = m.place() else {
                    return false;
                };
                Place::Cell(c) != m.from
                    && ending.get(&c).is_some_and(|n| {
                        (0..sides).any(|s| n[s] > 0 && pos.sides.hostile(m.power, s))
                    })
            })
            .collect();
        if found.is_empty() {
            break;
        }
        for k in found {
            let m = &mut movers[k];
            let Place::Cell(c) = m.place() else { continue };
            if let Some(n) = ending.get_mut(&c) {
                n[m.power] = n[m.power].saturating_sub(m.units.total());
            }
            m.step -= 1;
            m.bounced.get_or_insert(c);
            let back = m.place();
            if let Place::Cell(b) = back {
                ending.entry(b).or_insert_with(|| vec![0; sides])[m.power] += m.units.total();
            }
            let (from, back, here) = (
                run.state.place_name(m.from),
                run.state.place_name(back),
                c.name(),
            );
            let text = cat(&[
                pos.sides.id(m.power),
                "'s units from ",
                &from,
                " step back from ",
                &here,
                " to ",
                &back,
                ": units hostile to them end in ",
                &here,
            ]);
            run.event(Event::new("G4.6", text).power(pos.sides.id(m.power)));
        }
    }
}

/// Results, events and the `moves` list; the NG's new seat. Returns the powers whose
/// NG was destroyed.
fn report_moves(run: &mut Run, pos: &Position, movers: &[Mover], war: &mut WarLog) -> Vec<Side> {
    let mut destroyed = Vec::new();
    for m in movers {
        let id = pos.sides.id(m.power).to_string();
        let name = |p: Place| run.state.place_name(p);
        let (here, home) = (name(m.place()), name(m.from));
        let (to, outcome, mut detail) = match m.ng {
            Some(system) => {
                let seat = run.state.powers[m.power].ng.clone();
                match m.fate {
                    Fate::Arrived => {
                        let there = run.state.systems[system].name.clone();
                        run.state.powers[m.power].ng = there.clone();
                        (
                            Some(here.clone()),
                            "arrived",
                            format!("the NG moved to {there} ({here})"),
                        )
                    }
                    Fate::Stopped(c) => (
                        Some(home.clone()),
                        "stopped",
                        format!("the NG was stopped at {c} and stays at {seat}"),
                    ),
                    Fate::Blocked(c) => (
                        Some(home.clone()),
                        "blocked",
                        format!("the NG was blocked at {c} and stays at {seat}"),
                    ),
                    Fate::Eliminated(c) => {
                        destroyed.push(m.power);
                        (
                            None,
                            "eliminated",
                            format!("the NG was destroyed at {c}: {id} is out of the game"),
                        )
                    }
                }
            }
            None => {
                let at = here;
                let mut detail = match m.fate {
                    Fate::Arrived => {
                        let mut d = String::with_capacity(32);
                        d.push_str("arrived at ");
                        d.push_str(&at);
                        d
                    }
                    Fate::Stopped(c) => format!("stopped at {at} by a transit attack at {c}"),
                    Fate::Blocked(c) => format!("blocked at {c}"),
                    Fate::Eliminated(c) => format!("eliminated by a transit attack at {c}"),
                };
                let mut outcome = match m.fate {
                    Fate::Arrived => "arrived",
                    Fate::Stopped(_) => "stopped",
                    Fate::Blocked(_) => "blocked",
                    Fate::Eliminated(_) => "eliminated",
                };
                if let (Some(c), true) = (m.bounced, m.alive()) {
                    outcome = "bounced";
                    let c = c.name();
                    detail = if m.fate == Fate::Arrived {
                        cat(&["stepped back from ", &c, " to ", &at])
                    } else {
                        cat(&[&detail, ", then stepped back from ", &c, " to ", &at])
                    };
                }
                let to = m.alive().then_some(at);
                (to, outcome, detail)
            }
        };
        if !m.lost.is_empty() {
            detail += &format!("; lost {} on the way", super::defence::units_text(m.lost));
        }
        // The result line (the order as its path, and the detail) reports the move;
        // the `moves` list of the JSON too.
        run.done(m.entry, detail);
        war.moves.push(MoveReport {
            power: id,
            from: home,
            ng: m.ng.is_some(),
            units: m.set_out,
            path: m.path.iter().map(|&p| run.state.place_name(p)).collect(),
            to,
            outcome,
            lost: m.lost,
        });
    }
    destroyed
}
