//! Orders as players write them (W2.4, W3–W7, W6.9), read into [`Order`]s (see
//! `order`, whose canonical form, [`Order::text`], reads back to the same order).
//!
//! Words are compared without regard to case. Place names may be written as the map
//! names them, with spaces (`Low Countries`), in common spellings (`Turkey`) or as an
//! unambiguous beginning (`Meso`); unit kinds as `INF`, `infantry`, `cavalry`, plurals
//! too. `->`, `-` and dashes all separate the steps of a path.

use super::map::{Map, Place};
use super::order::{BattleLine, Build, Intercept, Order, SailStep, Transfer};
use super::state::{Building, Kind, Units};

/// Words that end a place name.
const STOP: &[&str] = &[
    "-", "TO", "FROM", "WITH", "AT", "ROUNDS", "RETREAT", "TARGET", "TRANSFER", "DP", "BRIBE",
    "SPHERE", "LOAD", "LAND", "ATTACK", "ALWAYS", "NEVER", "EQUAL", "ALL", "ON", "PP",
];

struct Reader<'a> {
    toks: Vec<String>,
    i: usize,
    map: &'a Map,
    players: &'a [String],
}

/// Splits a line into words: `->` and dashes become a `-` word, commas spaces.
fn tokens(line: &str) -> Vec<String> {
    let t = line
        .replace("->", " - ")
        .replace(['–', '—', '-', '>'], " - ")
        .replace([',', ';'], " ");
    t.split_whitespace().map(str::to_string).collect()
}

impl Reader<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.i).map(String::as_str)
    }

    fn is(&self, word: &str) -> bool {
        self.peek().is_some_and(|t| t.eq_ignore_ascii_case(word))
    }

    fn kw(&mut self, word: &str) -> bool {
        if self.is(word) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, word: &str) -> Result<(), String> {
        if self.kw(word) {
            Ok(())
        } else {
            Err(match self.peek() {
                Some(t) => format!("expected {word}, found \"{t}\""),
                None => format!("expected {word} at the end"),
            })
        }
    }

    fn end(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(format!("unexpected word \"{t}\"")),
        }
    }

    fn number(&mut self) -> Option<u32> {
        let n = self.peek()?.parse::<u32>().ok()?;
        self.i += 1;
        Some(n)
    }

    fn count(&mut self, what: &str) -> Result<u32, String> {
        match self.peek() {
            None => Err(format!("{what}: a number is missing")),
            Some(t) => match t.parse::<u32>() {
                Ok(n) if n <= 1_000_000 => {
                    self.i += 1;
                    Ok(n)
                }
                _ => Err(format!("{what}: \"{t}\" is not a number")),
            },
        }
    }

    fn is_stop(t: &str) -> bool {
        STOP.iter().any(|s| s.eq_ignore_ascii_case(t))
    }

    /// A place name of one to four words.
    fn place(&mut self, what: &str) -> Result<Place, String> {
        let mut run = 0;
        while self.i + run < self.toks.len() && run < 4 && !Self::is_stop(&self.toks[self.i + run])
        {
            run += 1;
        }
        if run == 0 {
            return Err(match self.peek() {
                Some(t) => format!("expected a {what}, found \"{t}\""),
                None => format!("a {what} is missing"),
            });
        }
        for k in (1..=run).rev() {
            let joined = self.toks[self.i..self.i + k].join(" ");
            if let Some(p) = self.map.find(&joined) {
                self.i += k;
                return Ok(p);
            }
        }
        Err(format!("unknown {what} \"{}\"", self.toks[self.i]))
    }

    fn region(&mut self) -> Result<usize, String> {
        let at = self.peek().unwrap_or("").to_string();
        match self.place("region")? {
            Place::Region(k) => Ok(k),
            Place::Sea(k) => Err(format!(
                "\"{at}\" is the sea area {}, not a region",
                self.map.seas[k].id
            )),
        }
    }

    fn sea(&mut self) -> Result<usize, String> {
        let at = self.peek().unwrap_or("").to_string();
        match self.place("sea area")? {
            Place::Sea(k) => Ok(k),
            Place::Region(k) => Err(format!(
                "\"{at}\" is the region {}, not a sea area",
                self.map.regions[k].id
            )),
        }
    }

    fn player(&mut self) -> Result<usize, String> {
        let Some(t) = self.peek() else {
            return Err("a player is missing".into());
        };
        let found = self.players.iter().position(|p| p.eq_ignore_ascii_case(t));
        match found {
            Some(k) => {
                self.i += 1;
                Ok(k)
            }
            None => Err(format!("unknown player \"{t}\"")),
        }
    }

    fn kind_here(&self) -> Option<Kind> {
        self.peek().and_then(Kind::parse)
    }

    fn is_flt(t: &str) -> bool {
        matches!(
            t.to_ascii_uppercase().as_str(),
            "FLT" | "FLTS" | "FLEET" | "FLEETS"
        )
    }

    /// `[n] KIND [n] KIND …`: land units, and fleets if allowed.
    fn units(&mut self, fleets_ok: bool) -> Result<(Units, u32), String> {
        let mut u = Units::default();
        let mut f = 0u32;
        let mut any = false;
        loop {
            let start = self.i;
            let n = self.number();
            if n == Some(0) {
                return Err("a count of 0".into());
            }
            let n = n.unwrap_or(1);
            if let Some(k) = self.kind_here() {
                self.i += 1;
                u.add_kind(k, n);
                any = true;
            } else if self.peek().is_some_and(Self::is_flt) {
                if !fleets_ok {
                    return Err("fleets are not land units".into());
                }
                self.i += 1;
                f = f.saturating_add(n);
                any = true;
            } else {
                if self.i != start {
                    return Err(match self.peek() {
                        Some(t) => format!("unknown unit kind \"{t}\""),
                        None => "a unit kind is missing".into(),
                    });
                }
                break;
            }
        }
        if !any {
            return Err(match self.peek() {
                Some(t) => format!("expected units, found \"{t}\""),
                None => "units are missing".into(),
            });
        }
        Ok((u, f))
    }

    fn land_units(&mut self) -> Result<Units, String> {
        Ok(self.units(false)?.0)
    }

    fn kind_list(&mut self) -> Result<Vec<Kind>, String> {
        let mut list = Vec::new();
        while let Some(t) = self.peek() {
            let Some(k) = Kind::parse(t) else {
                return Err(format!("unknown unit kind \"{t}\""));
            };
            if list.contains(&k) {
                return Err(format!("{} is listed twice", k.name()));
            }
            list.push(k);
            self.i += 1;
        }
        if list.is_empty() {
            return Err("no unit kinds listed".into());
        }
        Ok(list)
    }
}

/// Reads one order line. The error says why in plain words.
/// The words an order starts with ([`parse`] knows no other).
pub const ORDER_WORDS: [&str; 27] = [
    "PICK",
    "BUILD",
    "DEVELOP",
    "DISBAND",
    "GIVE",
    "BUY",
    "REMOVE",
    "WESTERNIZE",
    "WESTERNISE",
    "INCITE",
    "SUPPORT",
    "SUPPRESS",
    "PEACE",
    "CEDE",
    "MOVE",
    "SAIL",
    "ATTACK",
    "REINFORCE",
    "BATTLE",
    "LOSSES",
    "LOSS",
    "NAVAL",
    "INTERCEPT",
    "PARLEY",
    "PROSPECT",
    "DECLARE",
    "WAR",
];

/// Whether a line is an attempt at an order, right or wrong: its first word is an
/// order word. Anything else (chatter, a greeting, a signature) is no order at all:
/// the judge keeps it out of the orders and shows it to its sender only.
pub fn is_order_attempt(line: &str) -> bool {
    tokens(line)
        .first()
        .is_some_and(|w| ORDER_WORDS.iter().any(|o| o.eq_ignore_ascii_case(w)))
}

pub fn parse(line: &str, map: &Map, players: &[String]) -> Result<Order, String> {
    let mut r = Reader {
        toks: tokens(line),
        i: 0,
        map,
        players,
    };
    let Some(first) = r.peek().map(|t| t.to_ascii_uppercase()) else {
        return Err("empty order".into());
    };
    r.i += 1;
    let order = match first.as_str() {
        "PICK" => {
            let mut list = Vec::new();
            while r.peek().is_some() {
                let k = r.region()?;
                if !list.contains(&k) {
                    list.push(k);
                }
            }
            if list.is_empty() {
                return Err("PICK names no region".into());
            }
            Order::Pick(list)
        }
        "BUILD" => build(&mut r)?,
        "DEVELOP" => Order::Develop(r.region()?),
        "DISBAND" => {
            let (units, fleets) = r.units(true)?;
            let at = r.place("place")?;
            if fleets > 0 && matches!(at, Place::Region(_)) {
                return Err("fleets are at sea, not in a region".into());
            }
            Order::Disband { units, fleets, at }
        }
        "GIVE" => {
            let pp = r.count("GIVE")?;
            r.kw("PP");
            r.expect("TO")?;
            if pp == 0 {
                return Err("GIVE 0 PP gives nothing".into());
            }
            Order::Give {
                pp,
                to: r.player()?,
            }
        }
        "BUY" => {
            let n = r.count("BUY")?;
            r.expect("DP")?;
            if n == 0 {
                return Err("BUY 0 DP buys nothing".into());
            }
            Order::BuyDp(n)
        }
        "REMOVE" => {
            r.expect("SPHERE")?;
            let of = r.player()?;
            r.kw("IN");
            Order::RemoveSphere {
                of,
                region: r.region()?,
            }
        }
        "WESTERNIZE" | "WESTERNISE" => Order::Westernize(r.region()?),
        "INCITE" => {
            let region = r.region()?;
            let (mut bribe, mut sphere) = (false, false);
            while let Some(t) = r.peek() {
                if t.eq_ignore_ascii_case("BRIBE") && !bribe {
                    bribe = true;
                } else if t.eq_ignore_ascii_case("SPHERE") && !sphere {
                    sphere = true;
                } else {
                    return Err(format!("unexpected word \"{t}\" (BRIBE or SPHERE)"));
                }
                r.i += 1;
            }
            Order::Incite {
                region,
                bribe,
                sphere,
            }
        }
        "SUPPORT" => Order::Posture {
            region: r.region()?,
            support: true,
        },
        "SUPPRESS" => Order::Posture {
            region: r.region()?,
            support: false,
        },
        "PEACE" => {
            r.kw("WITH");
            Order::Peace(r.player()?)
        }
        "CEDE" => {
            let region = r.region()?;
            r.expect("TO")?;
            Order::Cede {
                region,
                to: r.player()?,
            }
        }
        "MOVE" => {
            let units = r.land_units()?;
            let from = r.region()?;
            let mut path = Vec::new();
            while r.kw("-") {
                path.push(r.place("place")?);
            }
            if path.is_empty() {
                return Err("MOVE needs a path: MOVE <units> <region> - <place>".into());
            }
            Order::Move { units, from, path }
        }
        "SAIL" => sail(&mut r)?,
        "ATTACK" => {
            let player = r.player()?;
            r.kw("IN");
            Order::Attack {
                player,
                sea: r.sea()?,
            }
        }
        "REINFORCE" => {
            let target = r.region()?;
            r.expect("FROM")?;
            let origin = r.region()?;
            let with = if r.kw("WITH") {
                let mut list = Vec::new();
                while r.peek().is_some() {
                    let n = r.number().unwrap_or(1);
                    let Some(k) = r.kind_here() else {
                        return Err(match r.peek() {
                            Some(t) => format!("unknown unit kind \"{t}\""),
                            None => "a unit kind is missing".into(),
                        });
                    };
                    if !k.is_brigade() {
                        return Err(format!("{} is not a brigade", k.name()));
                    }
                    if n == 0 || n > 1000 {
                        return Err(format!("a count of {n}"));
                    }
                    r.i += 1;
                    list.extend(std::iter::repeat_n(k, n as usize));
                }
                if list.is_empty() {
                    return Err("WITH names no brigades".into());
                }
                Some(list)
            } else {
                None
            };
            Order::Reinforce {
                target,
                origin,
                with,
            }
        }
        "BATTLE" => battle(&mut r)?,
        "LOSSES" | "LOSS" => Order::Losses(r.kind_list()?),
        "NAVAL" => {
            r.expect("ROUNDS")?;
            let n = r.count("NAVAL ROUNDS")?;
            if n == 0 {
                return Err("NAVAL ROUNDS 0: at least one round is fought".into());
            }
            Order::NavalRounds(n)
        }
        "INTERCEPT" => {
            let sea = if r.kw("ALL") { None } else { Some(r.sea()?) };
            let mode = if r.kw("ALWAYS") {
                Intercept::Always
            } else if r.kw("NEVER") {
                Intercept::Never
            } else if r.kw("EQUAL") {
                Intercept::Equal
            } else {
                return Err("INTERCEPT <sea|ALL> ALWAYS, NEVER or EQUAL".into());
            };
            Order::Intercept { sea, mode }
        }
        "PARLEY" => {
            let region = r.region()?;
            let dp = r.kw("DP");
            Order::Parley { region, dp }
        }
        "PROSPECT" => Order::Prospect(r.region()?),
        "DECLARE" => {
            r.expect("WAR")?;
            r.kw("ON");
            Order::DeclareWar(r.player()?)
        }
        "WAR" => {
            r.kw("ON");
            Order::DeclareWar(r.player()?)
        }
        _ => return Err(format!("unknown order \"{}\"", r.toks[0])),
    };
    r.end()?;
    Ok(order)
}

fn build(r: &mut Reader) -> Result<Order, String> {
    let n = r.number();
    if n == Some(0) {
        return Err("BUILD 0 builds nothing".into());
    }
    let Some(word) = r.peek().map(str::to_string) else {
        return Err("BUILD what?".into());
    };
    if Reader::is_flt(&word) {
        if n.is_some_and(|n| n > 1) {
            return Err("one fleet per BUILD order (one per port per phase)".into());
        }
        r.i += 1;
        let sea = r.sea()?;
        let at = if r.kw("AT") { Some(r.region()?) } else { None };
        return Ok(Order::Build(Build::Fleet { sea, at }));
    }
    if let Some(kind) = Kind::parse(&word) {
        r.i += 1;
        let n = n.unwrap_or(1);
        if n > 1000 {
            return Err(format!("BUILD {n}: too many"));
        }
        return Ok(Order::Build(Build::Units {
            n,
            kind,
            region: r.region()?,
        }));
    }
    if n.is_some() {
        return Err(format!("unknown unit kind \"{word}\""));
    }
    if word.eq_ignore_ascii_case("suez") || word.eq_ignore_ascii_case("canal") {
        r.i += 1;
        r.kw("canal");
        return Ok(Order::Build(Build::Suez {
            region: r.region()?,
        }));
    }
    if let Some(kind) = Building::parse(&word) {
        r.i += 1;
        return Ok(Order::Build(Build::Building {
            kind,
            region: r.region()?,
        }));
    }
    Err(format!("cannot build \"{word}\""))
}

fn sail(r: &mut Reader) -> Result<Order, String> {
    let n = r.number().unwrap_or(1);
    if n == 0 {
        return Err("SAIL 0 FLT moves nothing".into());
    }
    if !r.peek().is_some_and(Reader::is_flt) {
        return Err("SAIL [<n>] FLT <sea> - <step> …".into());
    }
    r.i += 1;
    let sea = r.sea()?;
    let mut steps = Vec::new();
    while r.kw("-") {
        if r.kw("LOAD") {
            let u = r.land_units()?;
            steps.push(SailStep::Load(u, r.region()?));
        } else if r.kw("LAND") {
            let u = if r.kw("ALL") {
                None
            } else {
                Some(r.land_units()?)
            };
            steps.push(SailStep::Land(u, r.region()?));
        } else if r.kw("ATTACK") {
            steps.push(SailStep::Attack(r.player()?));
        } else {
            steps.push(SailStep::Sea(r.sea()?));
        }
    }
    if steps.is_empty() {
        return Err("SAIL needs steps: SAIL FLT <sea> - <sea|LOAD|LAND|ATTACK> …".into());
    }
    Ok(Order::Sail { n, sea, steps })
}

fn battle(r: &mut Reader) -> Result<Order, String> {
    let at = if r.kw("ALL") {
        None
    } else {
        Some(r.place("region or sea")?)
    };
    let mut b = BattleLine {
        at,
        rounds: None,
        retreat: None,
        target: None,
        transfer: None,
    };
    while let Some(t) = r.peek().map(str::to_ascii_uppercase) {
        r.i += 1;
        match t.as_str() {
            "ROUNDS" if b.rounds.is_none() => {
                let n = r.count("ROUNDS")?;
                if n == 0 {
                    return Err("ROUNDS 0: at least one round is fought".into());
                }
                b.rounds = Some(n);
            }
            "RETREAT" if b.retreat.is_none() => {
                r.kw("TO");
                b.retreat = Some(r.place("place")?);
            }
            "TARGET" if b.target.is_none() => {
                let k = r
                    .kind_here()
                    .filter(|k| k.is_brigade())
                    .ok_or_else(|| "TARGET names a brigade kind: INF, CAV or ART".to_string())?;
                r.i += 1;
                b.target = Some(k);
            }
            "TRANSFER" if b.transfer.is_none() => {
                b.transfer = Some(if r.kw("ALL") {
                    Transfer::All
                } else if r.kw("NONE") {
                    Transfer::None
                } else if r.kw("AUTO") {
                    Transfer::Auto
                } else {
                    return Err("TRANSFER ALL, NONE or AUTO".into());
                });
            }
            _ => {
                return Err(format!(
                    "unexpected word \"{}\" (ROUNDS, RETREAT, TARGET, TRANSFER)",
                    r.toks[r.i - 1]
                ))
            }
        }
    }
    Ok(Order::Battle(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::war_imperialism::map::Map;

    fn players() -> Vec<String> {
        vec!["blue".into(), "red".into()]
    }

    #[test]
    fn a_line_is_an_order_attempt_exactly_when_parse_knows_its_first_word() {
        let map = Map::standard();
        let ids = players();
        for w in ORDER_WORDS {
            for line in [
                w.to_string(),
                w.to_lowercase(),
                format!("{w} something odd"),
            ] {
                assert!(is_order_attempt(&line), "{line}");
                let e = parse(&line, &map, &ids).err().unwrap_or_default();
                assert!(!e.starts_with("unknown order"), "{line}: {e}");
            }
        }
        for line in [
            "Hello neighbours, shall we share Africa?",
            "Thanks for the game",
            "Britain - France",
            "INF Egypt - Levant",
            "-- Cecil",
        ] {
            assert!(!is_order_attempt(line), "{line}");
            let e = parse(line, &map, &ids).unwrap_err();
            assert!(e.starts_with("unknown order"), "{line}: {e}");
        }
    }

    fn round_trip(line: &str) -> String {
        let m = Map::standard();
        let o = parse(line, &m, &players()).unwrap_or_else(|e| panic!("{line}: {e}"));
        let text = o.text(&m, &players());
        assert_eq!(parse(&text, &m, &players()).unwrap(), o, "{text}");
        text
    }

    #[test]
    fn w2_4_orders_read_in_any_case_and_echo_canonically() {
        assert_eq!(
            round_trip("move 2 infantry gen egypt -> libya"),
            "MOVE 2 INF GEN Egypt - Libya"
        );
        assert_eq!(
            round_trip("MOVE INF Low Countries - France"),
            "MOVE INF LowCountries - France"
        );
        assert_eq!(
            round_trip("sail 2 fleets E Med - load 2 inf egypt - western med - land all algeria - attack red"),
            "SAIL 2 FLT EasternMed - LOAD 2 INF Egypt - WesternMed - LAND ALL Algeria - ATTACK red"
        );
        assert_eq!(
            round_trip("battle libya rounds 2 retreat egypt target art transfer all"),
            "BATTLE Libya ROUNDS 2 RETREAT Egypt TARGET ART TRANSFER ALL"
        );
        assert_eq!(round_trip("build 2 cav britain"), "BUILD 2 CAV Britain");
        assert_eq!(
            round_trip("build fleet north sea at britain"),
            "BUILD FLT NorthSea AT Britain"
        );
        assert_eq!(
            round_trip("Build Railroad Germany"),
            "BUILD railroad Germany"
        );
        assert_eq!(round_trip("BUILD suez Egypt"), "BUILD suez Egypt");
        assert_eq!(round_trip("give 10 pp to Red"), "GIVE 10 PP TO red");
        assert_eq!(
            round_trip("reinforce egypt from levant with 2 inf art"),
            "REINFORCE Egypt FROM Levant WITH 2 INF ART"
        );
        assert_eq!(round_trip("intercept all never"), "INTERCEPT ALL NEVER");
        assert_eq!(round_trip("declare war on red"), "DECLARE WAR red");
        assert_eq!(
            round_trip("PICK Britain, France Low Countries"),
            "PICK Britain France LowCountries"
        );
        assert_eq!(
            round_trip("incite egypt sphere bribe"),
            "INCITE Egypt BRIBE SPHERE"
        );
        assert_eq!(
            round_trip("disband 2 flt inf north sea"),
            "DISBAND INF 2 FLT NorthSea"
        );
    }

    #[test]
    fn w2_4_bad_words_are_named() {
        let m = Map::standard();
        let e = |l: &str| parse(l, &m, &players()).unwrap_err();
        assert_eq!(e("MOVE INF Britian - France"), "unknown region \"Britian\"");
        assert_eq!(e("GIVE 5 PP TO green"), "unknown player \"green\"");
        assert_eq!(e("FROB Egypt"), "unknown order \"FROB\"");
        assert_eq!(e("MOVE 2 TANK Egypt - Libya"), "unknown unit kind \"TANK\"");
        assert!(e("BUILD FLT Egypt").contains("not a sea area"));
    }
}
