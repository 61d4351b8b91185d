//! Action orders (H6): the action and level, what each action names, and the words an
//! order may end with (H10).

use super::{check_retrieve_mods, Reader, Words};
use crate::rules::foundation_hjelmberg::data::{
    dynasty_space, level_word, parse_level, research_name, space_parts, Action, CENTER, GOAL_SPACE,
    PERSONAL,
};
use crate::rules::foundation_hjelmberg::order::{Act, Kind, Mods};

impl Reader<'_> {
    pub(super) fn act(&self, ws: &mut Words, head: &str) -> Result<Act, String> {
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
    pub(super) fn mods(
        &self,
        ws: &mut Words,
        name: &str,
        action: Option<Action>,
    ) -> Result<Mods, String> {
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
}
