//! Orders as written (H10): one per line, any case, alternatives joined by `ELSE`.
//! A line reads into a [`Line`] or is invalid with its reason; what can never be
//! possible (a level that does not fit the planet, a gate of the wrong ring) is invalid
//! here, what depends on the position is decided when the line is carried out.

use super::data::{
    dynasty_name, dynasty_space, level_word, parse_action_words, parse_level, research_name,
    space_parts, Action, Data, CENTER, GOAL_SPACE, PERSONAL,
};
use super::order::{Act, Bump, Free, Kind, Line, Mods, Order};

/// The order lines of a submission (H10): blank lines, `#` comments and `>` quotes are
/// left out. Yields (line number from 1 over the lines kept, text).
pub fn lines(text: &str) -> impl Iterator<Item = (u32, &str)> {
    text.lines()
        .filter_map(|raw| {
            let line = raw.split('#').next().unwrap_or("").trim();
            (!line.is_empty() && !raw.trim_start().starts_with('>')).then_some(line)
        })
        .enumerate()
        .map(|(k, l)| (k as u32 + 1, l))
}

struct Words<'a> {
    w: Vec<&'a str>,
    at: usize,
}

impl<'a> Words<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.w.get(self.at).copied()
    }

    fn peek_up(&self) -> Option<String> {
        self.peek().map(|w| w.to_ascii_uppercase())
    }

    fn next(&mut self) -> Option<&'a str> {
        let w = self.peek();
        if w.is_some() {
            self.at += 1;
        }
        w
    }

    fn need(&mut self, what: &str) -> Result<&'a str, String> {
        self.next().ok_or_else(|| format!("{what} is missing"))
    }
}

struct Reader<'d> {
    data: &'d Data,
}

impl Reader<'_> {
    fn gate(&self, w: &str) -> Result<u8, String> {
        self.data
            .gate(w)
            .ok_or_else(|| format!("{w:?} is not a gate (A1-A12, B1-B6, C1-C6)"))
    }

    fn planet(&self, w: &str) -> Result<u8, String> {
        self.data
            .planet(w)
            .ok_or_else(|| format!("{w:?} is not a planet (O1-O12, M1-M6, CORE)"))
    }

    fn colour(&self, w: &str) -> Result<u8, String> {
        self.data
            .colour(w)
            .ok_or_else(|| format!("{w:?} is not a colour"))
    }

    fn level(&self, w: &str) -> Result<u8, String> {
        parse_level(w).ok_or_else(|| format!("{w:?} is not a level (I, II, III)"))
    }

    /// A dynasty space: `TRADE II`, `TRADE-II`, `SPACE-TRAVEL I`, `CENTER`.
    fn dynasty(&self, ws: &mut Words) -> Result<usize, String> {
        let w = ws.need("the space")?;
        let up = w.to_ascii_uppercase();
        if up == "CENTER" || up == "CENTRE" {
            return Ok(CENTER);
        }
        if let Some(a) = parse_action_words(&[w]) {
            let l = self.level(ws.need("the level")?)?;
            return Ok(dynasty_space(a, l));
        }
        if let Some((a, l)) = w.rsplit_once('-') {
            if let (Some(a), Some(l)) = (Action::parse(a), parse_level(l)) {
                return Ok(dynasty_space(a, l));
            }
        }
        Err(format!("{w:?} is not a space of the dynasty board"))
    }

    fn bumps(&self, ws: &mut Words) -> Result<Vec<Bump>, String> {
        let mut out = Vec::new();
        while let Some(b) = ws.peek().and_then(Bump::parse) {
            out.push(b);
            ws.next();
        }
        if out.is_empty() {
            return Err("BUMP needs directions (L, R, L2, R2, L3, R3, 0)".into());
        }
        Ok(out)
    }

    fn line(&self, text: &str, setup: bool) -> Result<Line, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut alts: Vec<Vec<&str>> = vec![Vec::new()];
        for w in words {
            if w.eq_ignore_ascii_case("ELSE") {
                alts.push(Vec::new());
            } else {
                alts.last_mut().expect("one").push(w);
            }
        }
        if alts.iter().any(|a| a.is_empty()) {
            return Err("ELSE needs an alternative on each side".into());
        }
        let head = |a: &[&str]| a[0].to_ascii_uppercase();
        let heads: Vec<String> = alts.iter().map(|a| head(a)).collect();
        let single = |h: &str| -> Result<(), String> {
            if alts.len() > 1 {
                Err(format!("{h} cannot have alternatives (ELSE)"))
            } else {
                Ok(())
            }
        };
        if setup {
            if heads.iter().all(|h| h == "START") {
                let mut starts = Vec::new();
                for a in &alts {
                    starts.push(self.start(a)?);
                }
                return Ok(Line::Start(starts));
            }
            match heads[0].as_str() {
                "EMPIRE" | "DECLARE" => {}
                _ => {
                    return Err(
                        "the setup phase takes START lines (START <outer gate> <colour>)".into(),
                    )
                }
            }
        }
        match heads[0].as_str() {
            "START" if !setup => {
                return Err("START is for the setup phase".into());
            }
            "RESERVE" => {
                single("RESERVE")?;
                return match alts[0].len() {
                    1 => Ok(Line::Reserve),
                    _ => Err(format!("{:?} does not belong to RESERVE", alts[0][1])),
                };
            }
            "RETURN" => {
                single("RETURN")?;
                return match alts[0].as_slice() {
                    [_, g] => Ok(Line::Return(self.gate(g)?)),
                    [_] => Err("RETURN needs a gate".into()),
                    [_, _, w, ..] => Err(format!("{w:?} does not belong to RETURN")),
                    [] => unreachable!("not empty"),
                };
            }
            "EMPIRE" => {
                single("EMPIRE")?;
                return match alts[0].as_slice() {
                    [_, r] if r.eq_ignore_ascii_case("BATTLE") => Ok(Line::Empire(true)),
                    [_, r] if r.eq_ignore_ascii_case("YIELD") => Ok(Line::Empire(false)),
                    _ => Err("EMPIRE BATTLE or EMPIRE YIELD".into()),
                };
            }
            "DECLARE" => {
                single("DECLARE")?;
                return match alts[0].len() {
                    1 => Ok(Line::Declare),
                    _ => Err(format!("{:?} does not belong to DECLARE", alts[0][1])),
                };
            }
            _ => {}
        }
        let free = |h: &str| h == "DEPOSIT" || h == "EXCHANGE";
        if heads.iter().all(|h| free(h)) {
            let mut out = Vec::new();
            for a in &alts {
                out.push(self.free(a)?);
            }
            return Ok(Line::Free(out));
        }
        if let Some(h) = heads.iter().find(|h| {
            free(h) || ["START", "RESERVE", "RETURN", "EMPIRE", "DECLARE"].contains(&h.as_str())
        }) {
            return Err(format!("{h} cannot be an alternative of an order"));
        }
        let mut out = Vec::new();
        for a in &alts {
            out.push(self.order(a)?);
        }
        Ok(Line::Orders(out))
    }

    fn start(&self, a: &[&str]) -> Result<(u8, u8), String> {
        let [_, g, c] = a else {
            return Err("START <outer gate> <level-1 colour>".into());
        };
        let g = self.gate(g)?;
        if self.data.ring[usize::from(g)] != 0 {
            return Err(format!(
                "{} is not an outer gate (A1-A12)",
                self.data.gate_name(g)
            ));
        }
        let c = self.colour(c)?;
        if self.data.colour_level[usize::from(c)] != 1 {
            return Err(format!(
                "{} is not a level-1 colour",
                self.data.colour_name(c)
            ));
        }
        Ok((g, c))
    }

    fn free(&self, a: &[&str]) -> Result<Free, String> {
        match a {
            [d, p] if d.eq_ignore_ascii_case("DEPOSIT") => Ok(Free::Deposit(self.planet(p)?)),
            [e, c, f, d] if e.eq_ignore_ascii_case("EXCHANGE") && f.eq_ignore_ascii_case("FOR") => {
                let (c, d) = (self.colour(c)?, self.colour(d)?);
                let lv = |c: u8| self.data.colour_level[usize::from(c)];
                if c == d {
                    return Err("EXCHANGE needs two different colours".into());
                }
                if lv(c) != lv(d) {
                    return Err(format!(
                        "{} and {} are not of the same level",
                        self.data.colour_name(c),
                        self.data.colour_name(d)
                    ));
                }
                Ok(Free::Exchange(c, d))
            }
            [d, ..] if d.eq_ignore_ascii_case("DEPOSIT") => Err("DEPOSIT <planet>".into()),
            _ => Err("EXCHANGE <colour> FOR <colour>".into()),
        }
    }

    fn order(&self, a: &[&str]) -> Result<Order, String> {
        let mut ws = Words {
            w: a.to_vec(),
            at: 1,
        };
        let head = a[0].to_ascii_uppercase();
        match head.as_str() {
            "PLACE" | "RAISE" => {
                let space = self.dynasty(&mut ws)?;
                if space == CENTER {
                    return Err(format!("{head} names an action space, not CENTER"));
                }
                let mut bump = Vec::new();
                while let Some(w) = ws.next() {
                    if w.eq_ignore_ascii_case("BUMP") && bump.is_empty() {
                        bump = self.bumps(&mut ws)?;
                    } else {
                        return Err(format!("{w:?} does not belong to {head}"));
                    }
                }
                Ok(if head == "PLACE" {
                    Order::Place { space, bump }
                } else {
                    Order::Raise { space, bump }
                })
            }
            "RETRIEVE" => {
                let space = self.dynasty(&mut ws)?;
                let mods = self.mods(&mut ws, "RETRIEVE", None)?;
                if ws.peek().is_some() {
                    return Err("AND joins battles only".into());
                }
                if mods.from.is_some() {
                    return Err("FROM does not belong to RETRIEVE (it names its space)".into());
                }
                check_retrieve_mods(&mods, space, "RETRIEVE")?;
                Ok(Order::Retrieve { space, mods })
            }
            _ => {
                let mut acts = vec![self.act(&mut ws, a[0])?];
                while let Some(w) = ws.next() {
                    // `AND` was left for us by `mods`.
                    debug_assert!(w.eq_ignore_ascii_case("AND"));
                    if acts[0].action != Action::Battle {
                        return Err("AND joins battles only".into());
                    }
                    let h = ws.need("the battle after AND")?;
                    let next = self.act(&mut ws, h)?;
                    if next.action != Action::Battle {
                        return Err("AND joins battles only".into());
                    }
                    acts.push(next);
                    if acts.len() > 3 {
                        return Err("a raid joins at most 3 battles".into());
                    }
                }
                Ok(Order::Act(acts))
            }
        }
    }

    fn act(&self, ws: &mut Words, head: &str) -> Result<Act, String> {
        // `TRADE II` or `TRADE-II`.
        let (action, level) = match Action::parse(head) {
            Some(a) => (a, self.level(ws.need("the level")?)?),
            None => match head.rsplit_once('-') {
                Some((a, l)) => match (Action::parse(a), parse_level(l)) {
                    (Some(a), Some(l)) => (a, l),
                    _ => return Err(format!("{head:?} is not an order")),
                },
                None => return Err(format!("{head:?} is not an order")),
            },
        };
        let d = self.data;
        let lv = |p: u8| d.planet_level[usize::from(p)];
        let name = format!("{} {}", action.word(), level_word(level));
        let kind = match action {
            Action::Travel => {
                let gate = self.gate(ws.need("the gate")?)?;
                let mut ship = None;
                if ws.peek_up().as_deref() == Some("SHIP") {
                    ws.next();
                    ship = Some(self.gate(ws.need("the gate after SHIP")?)?);
                }
                Kind::Travel { gate, ship }
            }
            Action::Colonize => {
                let planet = self.planet(ws.need("the planet")?)?;
                if lv(planet) != level {
                    return Err(format!(
                        "{name} colonizes {} planets; {} is not one",
                        ["outer", "middle", "the CORE"][usize::from(level) - 1],
                        d.planet_name(planet)
                    ));
                }
                let mut tile = None;
                if let Some(t) = ws.peek().and_then(|w| d.tile(w)) {
                    if planet != d.core {
                        return Err("a colony tile is named only for CORE".into());
                    }
                    ws.next();
                    tile = Some(t);
                }
                Kind::Colonize { planet, tile }
            }
            Action::Trade => {
                let mut planets = Vec::new();
                while let Some(p) = ws.peek().and_then(|w| d.planet(w)) {
                    ws.next();
                    planets.push(p);
                }
                let levels: Vec<u8> = planets.iter().map(|&p| lv(p)).collect();
                match level {
                    1 if (planets.len() == 2 || planets.len() == 4)
                        && levels.iter().all(|&l| l == 1) =>
                    {
                        if planets[0] == planets[1]
                            || (planets.len() == 4 && planets[2] == planets[3])
                        {
                            return Err("a trade is between two different planets".into());
                        }
                    }
                    1 => return Err("TRADE I names two outer planets (four with barter)".into()),
                    2 if planets.len() == 2 && levels == [2, 2] && planets[0] != planets[1] => {}
                    2 => return Err("TRADE II names two middle planets".into()),
                    _ => {
                        let middles: Vec<u8> =
                            planets.iter().copied().filter(|&p| lv(p) == 2).collect();
                        if !(planets.len() == 3
                            && middles.len() == 2
                            && middles[0] != middles[1]
                            && planets.contains(&d.core))
                        {
                            return Err("TRADE III names two middle planets and CORE".into());
                        }
                    }
                }
                Kind::Trade { planets }
            }
            Action::Produce => {
                let mut planets = Vec::new();
                while let Some(p) = ws.peek().and_then(|w| d.planet(w)) {
                    ws.next();
                    planets.push(p);
                }
                let mut once = false;
                let mut using = Vec::new();
                loop {
                    match ws.peek_up().as_deref() {
                        Some("ONCE") if !once => {
                            ws.next();
                            once = true;
                        }
                        Some("USING") if using.is_empty() => {
                            ws.next();
                            while let Some(p) = ws.peek().and_then(|w| d.planet(w)) {
                                ws.next();
                                using.push(p);
                            }
                            if using.is_empty() {
                                return Err("USING needs planets".into());
                            }
                        }
                        _ => break,
                    }
                }
                let ok = match level {
                    1 => {
                        (planets.len() == 1 || planets.len() == 2)
                            && planets.iter().all(|&p| lv(p) == 1)
                    }
                    2 => planets.len() == 1 && lv(planets[0]) == 2,
                    _ => planets == [d.core],
                };
                if !ok {
                    return Err(match level {
                        1 => "PRODUCE I names an outer planet (two with industry)",
                        2 => "PRODUCE II names a middle planet",
                        _ => "PRODUCE III names CORE",
                    }
                    .into());
                }
                if planets.len() == 2 && planets[0] == planets[1] {
                    return Err("industry produces on two different planets".into());
                }
                Kind::Produce {
                    planets,
                    once,
                    using,
                }
            }
            Action::Research => {
                let w = ws.need("the space to research")?;
                let up = w.to_ascii_uppercase();
                let space = if up == "PERSONAL" {
                    PERSONAL
                } else if up == "GOAL" {
                    match ws.need("the GOAL number")? {
                        "1" => GOAL_SPACE,
                        "2" => GOAL_SPACE + 1,
                        "3" => GOAL_SPACE + 2,
                        n => return Err(format!("GOAL {n}: there are GOAL 1, 2 and 3")),
                    }
                } else if let Some(a) = Action::parse(w) {
                    match self.level(ws.need("the level")?)? {
                        2 => a.index(),
                        3 => 6 + a.index(),
                        _ => return Err("level I spaces are not researched".into()),
                    }
                } else {
                    match w
                        .rsplit_once('-')
                        .map(|(a, l)| (Action::parse(a), parse_level(l)))
                    {
                        Some((Some(a), Some(2))) => a.index(),
                        Some((Some(a), Some(3))) => 6 + a.index(),
                        Some((Some(_), Some(_))) => {
                            return Err("level I spaces are not researched".into())
                        }
                        _ => return Err(format!("{w:?} is not a research space")),
                    }
                };
                let want = match space {
                    0..=5 => 1,
                    6..=11 => 2,
                    _ => 3,
                };
                if want != level {
                    return Err(format!(
                        "{name} researches {}; {} is not one",
                        [
                            "a level-II space",
                            "a level-III space",
                            "a GOAL space or PERSONAL"
                        ][usize::from(level) - 1],
                        research_name(space)
                    ));
                }
                let mut colour = None;
                if let Some(c) = ws.peek().and_then(|w| d.colour(w)) {
                    if level != 1 {
                        return Err(format!("{name} pays a fixed colour; name none"));
                    }
                    if !d.cost[space].contains(&c) {
                        return Err(format!(
                            "{} is not a colour of {}",
                            d.colour_name(c),
                            research_name(space)
                        ));
                    }
                    ws.next();
                    colour = Some(c);
                }
                Kind::Research { space, colour }
            }
            Action::Battle => {
                let gate = self.gate(ws.need("the gate")?)?;
                let ring = d.ring[usize::from(gate)];
                if ring + 1 > level {
                    return Err(format!(
                        "{name} reaches {}; {} is in ring {}",
                        ["ring A", "rings A and B", "any ring"][usize::from(level) - 1],
                        d.gate_name(gate),
                        ["A", "B", "C"][usize::from(ring)]
                    ));
                }
                let mut take = None;
                if ws.peek_up().as_deref() == Some("TAKE") {
                    ws.next();
                    let p = self.planet(ws.need("the planet after TAKE")?)?;
                    if d.planet_gates[usize::from(p)] & (1 << gate) == 0 {
                        return Err(format!(
                            "{} is not next to {}",
                            d.planet_name(p),
                            d.gate_name(gate)
                        ));
                    }
                    take = Some(p);
                }
                Kind::Battle { gate, take }
            }
        };
        let mods = self.mods(ws, &name, Some(action))?;
        let act = Act {
            action,
            level,
            kind,
            mods,
        };
        // FROM a higher space of the same action, or CENTER (H5.5).
        if let Some(from) = act.mods.from {
            if from != CENTER {
                let (_, l) = space_parts(from);
                if l < level {
                    return Err(format!(
                        "FROM {}: a kin acts from its own level or higher",
                        level_word(l)
                    ));
                }
            }
        }
        let wild_ok = matches!(action, Action::Colonize | Action::Research);
        if act.mods.wild && !wild_ok {
            return Err(format!("WILD does not belong to {name} (it pays no cube)"));
        }
        if (!act.mods.pick.is_empty() || act.mods.peek.is_some()) && action != Action::Colonize {
            return Err(format!("PICK and PEEK belong to COLONIZE, not {name}"));
        }
        if act.mods.via.is_some() && action == Action::Research {
            return Err("VIA does not belong to RESEARCH (it needs no ship)".into());
        }
        check_retrieve_mods(&act.mods, act.source(), &name)?;
        Ok(act)
    }

    /// The words an order may end with, in any order; stops at `AND`.
    fn mods(&self, ws: &mut Words, name: &str, action: Option<Action>) -> Result<Mods, String> {
        let d = self.data;
        let mut m = Mods::default();
        let mut seen: Vec<String> = Vec::new();
        while let Some(w) = ws.peek() {
            let up = w.to_ascii_uppercase();
            if up == "AND" {
                break;
            }
            ws.next();
            if seen.contains(&up) {
                return Err(format!("{up} is written twice"));
            }
            seen.push(up.clone());
            match up.as_str() {
                "FROM" if action.is_some() => {
                    let v = ws.need("the level after FROM")?;
                    let vu = v.to_ascii_uppercase();
                    m.from = Some(if vu == "CENTER" || vu == "CENTRE" {
                        CENTER
                    } else {
                        dynasty_space(
                            action.expect("checked"),
                            parse_level(v)
                                .ok_or_else(|| format!("FROM {v}: a level (II, III) or CENTER"))?,
                        )
                    });
                }
                "TO" => {
                    let v = ws.need("the action after TO")?;
                    m.to = Some(Action::parse(v).ok_or_else(|| format!("TO {v}: not an action"))?);
                }
                "DOWN" => m.down = true,
                "GAIN" => m.gain = Some(self.colour(ws.need("the colour after GAIN")?)?),
                "VIA" if action.is_some() => {
                    m.via = Some(self.gate(ws.need("the gate after VIA")?)?)
                }
                "WILD" => m.wild = true,
                "PICK" => {
                    while let Some(t) = ws.peek().and_then(|w| d.tile(w)) {
                        ws.next();
                        m.pick.push(t);
                    }
                    if m.pick.is_empty() {
                        return Err("PICK needs colony tile ids".into());
                    }
                }
                "PEEK" => {
                    let v = ws.need("the GOAL number after PEEK")?;
                    m.peek = Some(match v {
                        "1" => 1,
                        "2" => 2,
                        "3" => 3,
                        _ => return Err(format!("PEEK {v}: there are GOAL 1, 2 and 3")),
                    });
                }
                "BUMP" => m.bump = self.bumps(ws)?,
                _ => return Err(format!("{w:?} does not belong to {name}")),
            }
        }
        if m.wild && action.is_none() {
            return Err("WILD does not belong to RETRIEVE".into());
        }
        if (!m.pick.is_empty() || m.peek.is_some()) && action.is_none() {
            return Err("PICK and PEEK belong to COLONIZE".into());
        }
        Ok(m)
    }

    fn parse(&self, text: &str, setup: bool) -> Result<Line, String> {
        self.line(text, setup)
    }
}

/// TO, DOWN and BUMP after a retrieve (H8 recall, fallback).
fn check_retrieve_mods(m: &Mods, source: usize, name: &str) -> Result<(), String> {
    if m.to.is_some() && m.down {
        return Err("TO and DOWN cannot both be written".into());
    }
    if m.down && (source == CENTER || space_parts(source).1 == 1) {
        return Err(format!(
            "DOWN moves a kin one level down: not from {}",
            dynasty_name(source)
        ));
    }
    if !m.bump.is_empty() && !m.down {
        return Err(format!("BUMP belongs to {name} only with DOWN"));
    }
    Ok(())
}

/// Reads one line (setup: START lines and settings only).
pub fn parse_line(data: &Data, text: &str, setup: bool) -> Result<Line, String> {
    Reader { data }.parse(text, setup)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::foundation_hjelmberg::data::standard;
    use crate::rules::foundation_hjelmberg::order::line_text;

    fn canon(text: &str) -> String {
        let d = standard();
        line_text(&d, &parse_line(&d, text, false).unwrap())
    }

    fn refused(text: &str) -> String {
        let d = standard();
        parse_line(&d, text, false).unwrap_err()
    }

    #[test]
    fn h10_lines_read_in_any_case_and_print_canonically() {
        assert_eq!(
            canon("place trade ii bump l r2"),
            "PLACE TRADE II BUMP L R2"
        );
        assert_eq!(canon("RAISE tr 1"), "RAISE TRADE I");
        assert_eq!(canon("retrieve trade-ii"), "RETRIEVE TRADE II");
        assert_eq!(canon("st ii b1 ship a4"), "TRAVEL II B1 SHIP A4");
        assert_eq!(canon("colonise i o5 wild"), "COLONIZE I O5 WILD");
        assert_eq!(canon("colonize 3 core KIN-3"), "COLONIZE III CORE kin-3");
        assert_eq!(canon("trade iii m1 m2 core"), "TRADE III M1 M2 CORE");
        assert_eq!(
            canon("produce ii m2 once using o1 o4"),
            "PRODUCE II M2 ONCE USING O1 O4"
        );
        assert_eq!(
            canon("research i trade ii BLUE"),
            "RESEARCH I TRADE II blue"
        );
        assert_eq!(canon("research iii personal"), "RESEARCH III PERSONAL");
        assert_eq!(canon("research 3 goal 2"), "RESEARCH III GOAL 2");
        assert_eq!(
            canon("battle ii b2 take m3 and battle i a4"),
            "BATTLE II B2 TAKE M3 AND BATTLE I A4"
        );
        assert_eq!(canon("deposit o3"), "DEPOSIT O3");
        assert_eq!(canon("exchange red for blue"), "EXCHANGE red FOR blue");
        assert_eq!(canon("return a3"), "RETURN A3");
        assert_eq!(canon("empire yield"), "EMPIRE YIELD");
        assert_eq!(
            canon("trade i o1 o3 else trade i o5 o7"),
            "TRADE I O1 O3 ELSE TRADE I O5 O7"
        );
        assert_eq!(
            canon("trade i o1 o3 bump l down from iii gain red"),
            "TRADE I O1 O3 FROM III DOWN GAIN red BUMP L"
        );
        assert_eq!(canon("place space-travel ii"), "PLACE TRAVEL II");
        assert_eq!(
            canon("retrieve centre to battle"),
            "RETRIEVE CENTER TO BATTLE"
        );
    }

    #[test]
    fn h10_a_word_that_does_not_belong_makes_the_line_invalid() {
        assert!(refused("PLACE TRADE II NOW").contains("does not belong"));
        assert!(refused("COLONIZE I M3").contains("outer"));
        assert!(refused("BATTLE I B2").contains("ring A"));
        assert!(refused("TRADE I O1 M2").contains("two outer"));
        assert!(refused("RESEARCH I TRADE III").contains("level-II"));
        assert!(refused("RESEARCH I TRADE II black").contains("not a colour of"));
        assert!(refused("TRAVEL II B1 WILD").contains("WILD"));
        assert!(refused("START A1 blue").contains("setup"));
        assert!(refused("RETURN A3 ELSE RETURN A4").contains("alternatives"));
        assert!(refused("TRADE I O1 O3 ELSE DEPOSIT O3").contains("alternative"));
        assert!(refused("RETRIEVE TRADE I DOWN").contains("DOWN"));
        assert!(refused("BATTLE I A4 TAKE O9").contains("not next to"));
        assert!(refused("FLY A1").contains("not an order"));
        assert!(refused("TRADE I O1 O3 FROM I FROM II").contains("twice"));
        let d = standard();
        assert!(parse_line(&d, "PLACE TRADE I", true).is_err());
        assert!(parse_line(&d, "START A5 blue ELSE START A7 green", true).is_ok());
        assert!(parse_line(&d, "START B1 blue", true).is_err());
    }

    #[test]
    fn h10_comments_blank_and_quoted_lines_are_left_out() {
        let got: Vec<(u32, &str)> =
            lines("# c\nPLACE TRADE I\n\n> quoted\nRAISE TRADE I # why\n").collect();
        assert_eq!(got, vec![(1, "PLACE TRADE I"), (2, "RAISE TRADE I")]);
    }
}
