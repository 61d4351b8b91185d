//! Foundation (Hjelmberg) properties over random positions and orders: cubes, kins,
//! ships, discs and tiles conserved, no negative stock, byte-identical output, replay
//! from orders and seed (and through the stored shape), in `round` pace no player's
//! turn depends on what later seats wrote, a receipt's plain verdicts hold whatever the
//! others write, and no damaged scenario or data file panics.

use std::collections::BTreeMap;
use std::path::Path;

use pbem::dice::Dice;
use pbem::rules::foundation_hjelmberg::data::{self, Action, CENTER, DISCS};
use pbem::rules::foundation_hjelmberg::outcome::Outcome;
use pbem::rules::foundation_hjelmberg::state::{Options, Pace, Phase, State, NONE};
use pbem::rules::foundation_hjelmberg::{self as fh, generate, output, setup};
use pbem::rules::LineCheck;
use proptest::prelude::*;

fn ids(n: usize) -> Vec<String> {
    ["ann", "bob", "cat", "dan", "eve"][..n]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// A random line: a mix of real orders, odd ones and garbage.
fn random_line(d: &data::Data, dice: &mut Dice) -> String {
    let pick = |dice: &mut Dice, n: usize| dice.below(n as u64) as usize;
    let action = Action::ALL[pick(dice, 6)].word();
    let level = ["I", "II", "III"][pick(dice, 3)];
    let gate = d.gates[pick(dice, d.gates.len())].clone();
    let planet = d.planets[pick(dice, d.planets.len())].clone();
    let planet2 = d.planets[pick(dice, d.planets.len())].clone();
    let colour = d.colours[pick(dice, d.colours.len())].clone();
    let tile = d.tiles[pick(dice, d.tiles.len())].id.clone();
    let bump = ["L", "R", "L2", "R2", "L3", "R3", "0"][pick(dice, 7)];
    match pick(dice, 22) {
        0 => format!("PLACE {action} {level} BUMP {bump} {bump}"),
        1 => format!("RAISE {action} {level}"),
        2 => format!("RETRIEVE {action} {level}"),
        3 => format!("TRAVEL {level} {gate}"),
        4 => format!("COLONIZE {level} {planet}"),
        5 => format!("TRADE {level} {planet} {planet2}"),
        6 => format!("PRODUCE {level} {planet}"),
        7 => format!("RESEARCH I {action} II {colour}"),
        8 => format!("BATTLE {level} {gate}"),
        9 => format!("DEPOSIT {planet}"),
        10 => format!(
            "EXCHANGE {colour} FOR {}",
            d.colours[pick(dice, d.colours.len())]
        ),
        11 => "RESERVE".into(),
        12 => format!("RETURN {gate}"),
        13 => ["EMPIRE YIELD", "EMPIRE BATTLE", "DECLARE"][pick(dice, 3)].into(),
        14 => format!("{action} {level} {planet} FROM CENTER"),
        15 => format!("COLONIZE III CORE {tile} WILD PICK {tile}"),
        16 => format!("TRADE I {planet} {planet2} {planet} {planet2} VIA {gate}"),
        17 => format!(
            "BATTLE {level} {gate} AND BATTLE {level} {}",
            d.gates[pick(dice, d.gates.len())]
        ),
        18 => format!("RETRIEVE {action} {level} TO {action} GAIN {colour}"),
        19 => format!("TRADE {level} {planet} {planet2} FROM II DOWN BUMP {bump}"),
        20 => format!("RESEARCH III GOAL {}", 1 + pick(dice, 3)),
        _ => [
            "FLY",
            "PLACE",
            "TRAVEL IV A1",
            "ELSE",
            "COLONIZE I O1 ELSE",
            "RESEARCH III PERSONAL",
        ][pick(dice, 6)]
        .into(),
    }
}

/// Orders for every seat: the scripted player's lines, some random lines, or nothing.
fn random_orders(s: &State, dice: &mut Dice) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for seat in s.core.seats() {
        let text = match dice.below(5) {
            0 => continue,
            1 | 2 => generate::policy(s, seat, dice.below(5) as u8),
            _ => {
                let mut t = generate::policy(s, seat, 4);
                for _ in 0..dice.below(6) {
                    let line = random_line(&s.data, dice);
                    let at = dice.below(3);
                    t = if at == 0 {
                        format!("{line}\n{t}")
                    } else {
                        format!("{t}{line}\n")
                    };
                }
                t
            }
        };
        out.insert(s.name(seat).to_string(), text);
    }
    out
}

/// Tiles, cubes, kins and research stirred into a created game, every count kept.
fn stir(s: &mut State, dice: &mut Dice) {
    let d = s.data.clone();
    let n = s.core.seats;
    for seat in 0..n {
        // Colony tiles from the board to her.
        for _ in 0..dice.below(4) {
            let p = dice.below(d.planets.len() as u64) as usize;
            let t = s.core.colony[p];
            if t != NONE {
                s.core.colony[p] = NONE;
                s.core.player_mut(seat).colonies[usize::from(t)] += 1;
                if d.tiles[usize::from(t)].id == "reserve" {
                    s.core.player_mut(seat).reserve += 3;
                }
            }
        }
        // Cubes from the supply.
        for _ in 0..dice.below(8) {
            let c = dice.below(d.colours.len() as u64) as u8;
            if s.core.supply(&d, c) > 0 {
                s.core.player_mut(seat).hand[usize::from(c)] += 1;
            }
        }
        // Kins from her hand to the dynasty board.
        for _ in 0..dice.below(3) {
            let space = dice.below(19) as usize;
            let p = s.core.player_mut(seat);
            if p.kins > 0 && (space == CENTER || p.dynasty[space] == 0) {
                p.kins -= 1;
                p.dynasty[space] += 1;
            }
        }
        // Research.
        for _ in 0..dice.below(4) {
            let sp = dice.below(15) as usize;
            let p = s.core.player_mut(seat);
            if p.ships.count_ones() + p.research.count_ones() < DISCS {
                p.research |= 1 << sp;
            }
        }
    }
    // An Empire ship held.
    if dice.below(2) == 0 {
        if let Some(g) = data::bits(s.core.empire).next() {
            s.core.empire &= !(1 << g);
            let seat = dice.below(u64::from(n)) as u8;
            s.core.player_mut(seat).new += 1;
        }
    }
}

/// A game after its setup and a few rounds, maybe stirred.
fn random_state(seed: u64, seats: usize, rounds: u32, pace: Pace, stirred: bool) -> State {
    let mut dice = Dice::for_phase(seed, 0, "random state");
    let options = Options {
        pace,
        round_limit: 60,
    };
    let mut s = setup::create(data::standard(), ids(seats), options, seed % 3 == 0, seed);
    let starts: BTreeMap<String, String> = s
        .core
        .seats()
        .map(|k| (s.name(k).to_string(), generate::policy(&s, k, 0)))
        .collect();
    s = fh::adjudicate(&s, &starts, seed).0;
    if stirred {
        stir(&mut s, &mut dice);
    }
    for _ in 0..rounds {
        if s.core.phase == Phase::Over {
            break;
        }
        let orders = random_orders(&s, &mut dice);
        s = fh::adjudicate(&s, &orders, seed).0;
    }
    s
}

/// Everything that must hold of any position of a game.
fn invariants(s: &State) -> Result<(), String> {
    let d = &*s.data;
    let c = &s.core;
    for col in 0..d.colours.len() as u8 {
        let used = c.used_cubes(d, col);
        if used > d.count[usize::from(col)] {
            return Err(format!(
                "{}: {used} cubes used of {}",
                d.colour_name(col),
                d.count[usize::from(col)]
            ));
        }
    }
    for p in 0..d.planets.len() {
        if c.stock[p] > 2 {
            return Err(format!("{} holds {}", d.planets[p], c.stock[p]));
        }
    }
    let mut neutral = 0;
    let mut held = 0;
    for seat in c.seats() {
        let p = c.player(seat);
        if u32::from(p.kins) + p.kins_on_board() != u32::from(p.earned) + u32::from(p.neutral) {
            return Err(format!("{}: kins do not add up", s.name(seat)));
        }
        if !(3..=6).contains(&p.earned) {
            return Err(format!("{}: earned {}", s.name(seat), p.earned));
        }
        if (0..CENTER).any(|k| p.dynasty[k] > 1) {
            return Err(format!("{}: two kins on a space", s.name(seat)));
        }
        if p.ships.count_ones() + p.research.count_ones() > DISCS {
            return Err(format!("{}: more than 24 discs", s.name(seat)));
        }
        neutral += u32::from(p.neutral);
        held += u32::from(p.due) + u32::from(p.new);
    }
    if neutral > 6 {
        return Err(format!("{neutral} neutral kins"));
    }
    if c.empire.count_ones() + held != 6 {
        return Err(format!(
            "{} Empire ships on the board, {held} held",
            c.empire.count_ones()
        ));
    }
    for ring in 0..3 {
        if c.empire_in_ring(d, ring).len() > 2 {
            return Err("3 Empire ships in a ring".into());
        }
    }
    let tiles = c.tile_total(d);
    for (k, t) in d.tiles.iter().enumerate() {
        if tiles[k] != u32::from(t.copies) {
            return Err(format!("{}: {} tiles, {} copies", t.id, tiles[k], t.copies));
        }
    }
    let mut goals = c.goal_pile.count_ones() + 3;
    for seat in c.seats() {
        if c.player(seat).personal != NONE {
            goals += 1;
        }
    }
    if goals != d.goals.len() as u32 {
        return Err(format!("{goals} goal tiles"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every count is kept and no stock goes below 0 or above 2, phase after phase, in
    /// both paces.
    #[test]
    fn counts_are_conserved(seed in 0u64..1_000_000, seats in 2usize..=5, turn_pace: bool, stirred: bool) {
        let pace = if turn_pace { Pace::Turn } else { Pace::Round };
        let mut s = random_state(seed, seats, 0, pace, stirred);
        invariants(&s).map_err(TestCaseError::fail)?;
        let mut dice = Dice::for_phase(seed, 1, "orders");
        for _ in 0..8 {
            if s.core.phase == Phase::Over { break; }
            let orders = random_orders(&s, &mut dice);
            s = fh::adjudicate(&s, &orders, seed).0;
            invariants(&s).map_err(TestCaseError::fail)?;
        }
    }

    /// The same input gives byte-identical output; the state survives its stored shape.
    #[test]
    fn output_is_deterministic_and_state_round_trips(seed in 0u64..1_000_000, rounds in 0u32..5) {
        let s = random_state(seed, 5, rounds, Pace::Round, seed % 2 == 0);
        let mut dice = Dice::for_phase(seed, 2, "orders");
        let orders = random_orders(&s, &mut dice);
        let (a, la) = fh::adjudicate(&s, &orders, seed);
        let (b, lb) = fh::adjudicate(&s, &orders, seed);
        let ja = serde_json::to_string(&output::output_value(&s, &a, &la)).unwrap();
        let jb = serde_json::to_string(&output::output_value(&s, &b, &lb)).unwrap();
        prop_assert_eq!(ja, jb);
        let stored = serde_json::to_string(&a).unwrap();
        let back: State = serde_json::from_str(&stored).unwrap();
        prop_assert_eq!(&back, &a);
        let stored_b = serde_json::to_string(&back).unwrap();
        prop_assert_eq!(stored, stored_b);
    }

    /// A game replayed from its orders and seed reaches the same state.
    #[test]
    fn replay_from_orders_and_seed_gives_the_same_game(seed in 0u64..1_000_000, turn_pace: bool) {
        let pace = if turn_pace { Pace::Turn } else { Pace::Round };
        let start = random_state(seed, 4, 0, pace, false);
        let mut s = start.clone();
        let mut history = Vec::new();
        let mut dice = Dice::for_phase(seed, 3, "orders");
        for _ in 0..10 {
            if s.core.phase == Phase::Over { break; }
            let orders = random_orders(&s, &mut dice);
            s = fh::adjudicate(&s, &orders, seed).0;
            history.push(orders);
        }
        let mut r = start;
        for orders in &history {
            r = fh::adjudicate(&r, orders, seed).0;
        }
        prop_assert_eq!(r, s);
    }

    /// In round pace a player's turn sees only what a table player at her seat would
    /// have seen: what later seats wrote (but for their standing Empire response, H7.5)
    /// changes nothing of it.
    #[test]
    fn round_pace_turns_do_not_see_later_seats(seed in 0u64..1_000_000, rounds in 0u32..4, seat in 0u8..4) {
        let s = random_state(seed, 5, rounds, Pace::Round, seed % 2 == 1);
        prop_assume!(s.core.phase == Phase::Play);
        let mut dice = Dice::for_phase(seed, 4, "orders");
        let strip = |t: &str| -> String {
            t.lines().filter(|l| !l.trim().to_ascii_uppercase().starts_with("EMPIRE")).collect::<Vec<_>>().join("\n")
        };
        let a: BTreeMap<String, String> = random_orders(&s, &mut dice).into_iter().map(|(k, v)| (k, strip(&v))).collect();
        let mut b = a.clone();
        for later in seat + 1..5 {
            let id = s.name(later).to_string();
            let mut text = String::new();
            for _ in 0..4 {
                text.push_str(&random_line(&s.data, &mut dice));
                text.push('\n');
            }
            b.insert(id, strip(&text));
        }
        let (_, la) = fh::adjudicate(&s, &a, seed);
        let (_, lb) = fh::adjudicate(&s, &b, seed);
        let upto = |l: &fh::outcome::Log| -> Vec<fh::outcome::LineResult> {
            l.results.iter().filter(|r| r.seat <= seat).cloned().collect()
        };
        prop_assert_eq!(upto(&la), upto(&lb));
        // The events up to the start of the next seat's turn alike.
        let cut = |l: &fh::outcome::Log| -> Vec<String> {
            let next = format!("{}'s turn", s.name(seat + 1));
            l.events.iter().map(|e| e.text.clone()).take_while(|t| !t.starts_with(&next)).collect()
        };
        prop_assert_eq!(cut(&la), cut(&lb));
    }

    /// A damaged scenario is an error (one line), never a panic.
    #[test]
    fn a_damaged_scenario_never_panics(seed in 0u64..1_000_000, edits in 1usize..6) {
        let base = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/foundation-hjelmberg-round.toml"),
        ).unwrap();
        let mut dice = Dice::for_phase(seed, 5, "damage");
        let mut text = base.clone();
        const JUNK: [&str; 16] = ["A13", "pink", "-1", "999999999999", "\"\"", "[", "]", "=", "O0",
            "\"TRADE IV\"", "{ x = 1 }", "3.5", "true", "CENTER", "\"CORE\"", "\n[[player]]\nid = \"zed\"\n"];
        for _ in 0..edits {
            let at = dice.below(text.len() as u64 + 1) as usize;
            let at = (0..=at).rev().find(|&k| text.is_char_boundary(k)).unwrap_or(0);
            match dice.below(3) {
                0 => text.insert_str(at, JUNK[dice.below(JUNK.len() as u64) as usize]),
                1 => {
                    let end = (at + 1 + dice.below(12) as usize).min(text.len());
                    let end = (end..=text.len()).find(|&k| text.is_char_boundary(k)).unwrap_or(text.len());
                    text.replace_range(at..end, "");
                }
                _ => {
                    let lines: Vec<&str> = text.lines().collect();
                    let k = dice.below(lines.len().max(1) as u64) as usize;
                    let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
                    if k < l.len() {
                        l[k] = format!("{} = {}", ["turn", "seed", "next", "stock", "kins", "ships", "hand", "earned", "empire"][dice.below(9) as usize], JUNK[dice.below(JUNK.len() as u64) as usize]);
                    }
                    text = l.join("\n");
                }
            }
        }
        if let Err(e) = pbem::scenario::adjudicate_text(&text, Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").as_path()) {
            prop_assert!(!e.to_string().contains('\n'), "{}", e);
        }
    }

    /// A damaged data file is an error (one line), never a panic; so is a scenario that
    /// names it.
    #[test]
    fn a_damaged_data_file_never_panics(seed in 0u64..1_000_000, edits in 1usize..4) {
        let mut text = data::STANDARD_TEXT.to_string();
        let mut dice = Dice::for_phase(seed, 6, "damage");
        const JUNK: [&str; 12] = ["\"A13\"", "\"pink\"", "-1", "0", "\"\"", "[]", "\"O1\"", "\"CORE\"", "\"riches-9\"", "\"GOAL 4\"", "\"TRADE\"", "99"];
        for _ in 0..edits {
            let quotes: Vec<usize> = text.match_indices('"').map(|(k, _)| k).collect();
            let k = dice.below(quotes.len() as u64 / 2) as usize * 2;
            let (a, b) = (quotes[k], quotes[k + 1] + 1);
            text.replace_range(a..b, JUNK[dice.below(JUNK.len() as u64) as usize]);
        }
        if let Err(e) = data::Data::parse(&text) {
            prop_assert!(!e.contains('\n'), "{}", e);
        } else if let Ok(d) = data::Data::parse(&text) {
            // Still readable: a game may be created and played on it without a panic.
            let d = std::sync::Arc::new(d);
            let s = setup::create(d, ids(3), Options::default(), seed % 2 == 0, seed);
            let _ = fh::adjudicate(&s, &BTreeMap::new(), seed);
        }
        let dir = std::env::temp_dir().join(format!("pbem-fh-data-{}-{seed}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("d.toml"), &text).unwrap();
        let scen = "rules = \"foundation-hjelmberg\"\ndata = \"d.toml\"\nseating = [\"a\", \"b\"]\n[[player]]\nid = \"a\"\n[[player]]\nid = \"b\"\n[orders]\na = \"PLACE TRADE I\"\n";
        if let Err(e) = pbem::scenario::adjudicate_text(scen, &dir) {
            prop_assert!(!e.to_string().contains('\n'), "{}", e);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

proptest! {
    // Many cases: a verdict goes wrong only where an earlier seat's turn matters.
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A receipt's plain verdict on a line ("if played now", "not possible as things
    /// stand", "not carried out as things stand") is what the line does, whatever the
    /// other players write; what they could change is said to wait for the
    /// adjudication. A victory ends what no receipt foresees (receipts never check one).
    #[test]
    fn a_receipts_plain_verdicts_hold_whatever_the_others_write(seed in 0u64..1_000_000, seats in 2usize..=5, rounds in 0u32..4, turn_pace: bool, in_setup: bool) {
        let pace = if turn_pace { Pace::Turn } else { Pace::Round };
        let s = if in_setup {
            let options = Options { pace, round_limit: 60 };
            setup::create(data::standard(), ids(seats), options, seed % 3 == 0, seed)
        } else {
            random_state(seed, seats, rounds, pace, seed % 2 == 1)
        };
        prop_assume!(s.core.phase != Phase::Over);
        let mut dice = Dice::for_phase(seed, 5, "orders");
        let orders = random_orders(&s, &mut dice);
        let (after, log) = fh::adjudicate(&s, &orders, seed);
        prop_assume!(after.core.winner == NONE);
        for who in fh::owing(&s) {
            let Some(text) = orders.get(&who) else { continue };
            let seat = s.seat_of(&who).unwrap();
            for (k, c) in fh::check(&s, &who, text).iter().enumerate() {
                let LineCheck::Noted { order, mark, note } = c else { continue };
                // A ship of hers lost after her lines makes a WARNING (H7.2).
                let lost = note.contains(" returns to her supply at the end of ");
                let said = if note.starts_with("if played now: ") {
                    prop_assert_eq!(*mark, if lost { "WARNING" } else { "ok" });
                    Outcome::Done
                } else if note.starts_with("not possible as things stand: ") {
                    prop_assert_eq!(*mark, "WARNING");
                    Outcome::Failed
                } else if note.starts_with("not carried out as things stand: ") {
                    prop_assert_eq!(*mark, if lost { "WARNING" } else { "unused" });
                    Outcome::Unused
                } else {
                    continue;
                };
                // A ship said to be lost after her lines, not "as far as known now", is.
                for seg in note.split("; ") {
                    let Some(rest) = seg
                        .strip_prefix("then ")
                        .or_else(|| seg.strip_prefix("after her lines, "))
                    else {
                        continue;
                    };
                    if rest.starts_with("as far as known now") {
                        continue;
                    }
                    for part in rest.split("her ship on ").skip(1) {
                        let gate = part.split(' ').next().unwrap_or_default();
                        let lost = format!("{who}'s ship on {gate} returns to her supply");
                        prop_assert!(
                            log.events.iter().any(|e| e.text.starts_with(&lost)),
                            "{} line {}: receipt {:?} -> {:?}\n{}",
                            who, k + 1, order, note, text
                        );
                    }
                }
                let line = k as u32 + 1;
                let got = log.results.iter().find(|r| r.seat == seat && r.line == line);
                prop_assert_eq!(
                    got.map(|r| r.outcome),
                    Some(said),
                    "{} line {}: receipt {:?} -> {:?}, result {:?}\n{}",
                    who, line, order, note, got, text
                );
            }
        }
    }
}

/// The stirred positions are real ones (a game after a few rounds with tiles in hand).
#[test]
fn random_states_are_played_positions() {
    let s = random_state(42, 5, 3, Pace::Round, true);
    invariants(&s).unwrap();
    assert!(s.core.round >= 2);
    let held: u32 = s
        .core
        .seats()
        .map(|k| {
            s.core
                .player(k)
                .colonies
                .iter()
                .map(|&n| u32::from(n))
                .sum::<u32>()
        })
        .sum();
    assert!(held > 0);
}
