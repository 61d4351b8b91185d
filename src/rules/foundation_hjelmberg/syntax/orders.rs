//! Starts (H3.3), free actions (H6.7), kin moves and retrieves (H5.2–H5.5), and the
//! action orders a line joins with `AND` (raid, H8).

use super::{check_retrieve_mods, Reader, Words};
use crate::rules::foundation_hjelmberg::data::{Action, CENTER};
use crate::rules::foundation_hjelmberg::order::{Free, Order};

impl Reader<'_> {
    pub(super) fn start(&self, a: &[&str]) -> Result<(u8, u8), String> {
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

    pub(super) fn free(&self, a: &[&str]) -> Result<Free, String> {
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

    pub(super) fn order(&self, a: &[&str]) -> Result<Order, String> {
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
}
