//! One phase being adjudicated: the position changing step by step, the orders still
//! to carry out, the log, and the money spent on each region this turn (for G7.4).

use std::collections::HashMap;

use super::check::{order_text, Checked, Step};
use super::dice::PhaseDice as Dice;
use super::map::{Economy, RegionAt};
use super::outcome::{Event, Log, Outcome};
use super::state::{Index, State};

/// A taken order: whose, where its result goes, what it says.
pub struct Entry {
    pub power: usize,
    pub result: usize,
    pub order: Checked,
}

pub struct Run {
    pub state: State,
    pub log: Log,
    pub dice: Dice,
    pub entries: Vec<Entry>,
    /// Money spent on each region this turn that counts for jealousy (G7.4).
    pub spent: HashMap<RegionAt, u32>,
    pub index: Index,
    /// Stacks were added or removed outside a [`super::place::Position`] (a power put
    /// out, a garrison set back): they are listed in order again at the end.
    pub restack: bool,
    settled: Vec<bool>,
}

impl Run {
    pub fn new(state: State, log: Log, dice: Dice, entries: Vec<Entry>) -> Run {
        // Only the interphase and the defence phase look stacks up by place name.
        let index = match state.phase {
            super::state::Phase::Movement | super::state::Phase::Combat => Index::empty(),
            _ => Index::new(&state),
        };
        let settled = vec![false; entries.len()];
        Run {
            settled,
            state,
            log,
            dice,
            entries,
            spent: HashMap::new(),
            index,
            restack: false,
        }
    }

    /// The orders of one step: power by power as listed, each in the order written.
    pub fn step(&self, step: Step) -> Vec<usize> {
        let mut found: Vec<usize> = (0..self.entries.len())
            .filter(|&k| self.entries[k].order.step() == step)
            .collect();
        found.sort_by_key(|&k| {
            (
                self.entries[k].power,
                self.log.results[self.entries[k].result].line,
            )
        });
        found
    }

    pub fn done(&mut self, entry: usize, detail: impl Into<String>) {
        self.settle(entry, Outcome::Done, detail.into());
    }

    pub fn failed(&mut self, entry: usize, reason: impl Into<String>) {
        self.settle(entry, Outcome::Failed, reason.into());
    }

    /// Whether an order has its result already.
    pub fn is_settled(&self, entry: usize) -> bool {
        self.settled[entry]
    }

    fn settle(&mut self, entry: usize, outcome: Outcome, detail: String) {
        self.settled[entry] = true;
        let r = &mut self.log.results[self.entries[entry].result];
        r.outcome = outcome;
        r.detail = detail;
    }

    pub fn power_id(&self, entry: usize) -> String {
        self.state.powers[self.entries[entry].power].id.clone()
    }

    pub fn order_text(&self, entry: usize) -> String {
        order_text(&self.state, &self.entries[entry].order)
    }

    pub fn name(&self, at: RegionAt) -> String {
        self.state.region_name(at)
    }

    pub fn roll(&mut self, step: &'static str, subject: &str) -> u32 {
        self.log.roll(&mut self.dice, step, "1d6", subject)
    }

    pub fn event(&mut self, event: Event) {
        self.log.event(event);
    }

    /// Takes money from a system's bank, if it holds enough.
    pub fn pay_bank(&mut self, system: usize, amount: u32) -> Result<String, String> {
        let s = &mut self.state.systems[system];
        if s.bank < amount {
            return Err(format!(
                "the bank of {} holds {}, {amount} needed",
                s.name, s.bank
            ));
        }
        s.bank -= amount;
        Ok(format!("paid {amount} from {}", s.name))
    }

    /// Takes money from a power's treasury, if it holds enough.
    pub fn pay_treasury(&mut self, power: usize, amount: u32) -> Result<String, String> {
        let p = &mut self.state.powers[power];
        if p.treasury < amount {
            return Err(format!(
                "the treasury holds {}, {amount} needed",
                p.treasury
            ));
        }
        p.treasury -= amount;
        Ok(format!("paid {amount} from the treasury"))
    }

    pub fn spend_on(&mut self, at: RegionAt, amount: u32) {
        *self.spent.entry(at).or_default() += amount;
    }

    /// Lowers a region's allegiance (never below 0); at 0 it is in revolt (G7.6).
    pub fn lower(&mut self, at: RegionAt, by: u8, step: &'static str, cause: &str) {
        let before = self.state.region(at).allegiance;
        if before == 0 || by == 0 {
            return;
        }
        let after = before.saturating_sub(by);
        self.state.region_mut(at).allegiance = after;
        let id = self.name(at);
        let system = self.state.systems[at.system].name.clone();
        self.event(
            Event::new(
                step,
                format!("{id}: allegiance {before} -> {after} ({cause})"),
            )
            .region(&id)
            .system(&system),
        );
        if after == 0 {
            self.event(
                Event::new("G7.6", format!("{id} is in revolt"))
                    .region(&id)
                    .system(system),
            );
        }
    }

    /// Sets or raises a region's allegiance to `to` (at most 5).
    pub fn raise_to(&mut self, at: RegionAt, to: u8, step: &'static str, cause: &str) {
        let before = self.state.region(at).allegiance;
        let after = to.min(5);
        if after <= before {
            return;
        }
        self.state.region_mut(at).allegiance = after;
        let id = self.name(at);
        let text = if before == 0 {
            format!("{id}: revolt ends, allegiance {after} ({cause})")
        } else {
            format!("{id}: allegiance {before} -> {after} ({cause})")
        };
        let system = self.state.systems[at.system].name.clone();
        self.event(Event::new(step, text).region(id).system(system));
    }

    /// Lowers a region's economic level by one, never below S.
    pub fn decline(&mut self, at: RegionAt, step: &'static str, cause: &str) -> bool {
        let before = self.state.region(at).economy;
        let Some(after) = before.down() else {
            return false;
        };
        self.state.region_mut(at).economy = after;
        let id = self.name(at);
        let system = self.state.systems[at.system].name.clone();
        self.event(
            Event::new(step, format!("{id}: economy {before} -> {after} ({cause})"))
                .region(id)
                .system(system),
        );
        true
    }

    pub fn economy(&self, at: RegionAt) -> Economy {
        self.state.region(at).economy
    }
}
