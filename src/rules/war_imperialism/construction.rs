//! Construction (W4.7–W4.8): BUILD and DEVELOP in written order, shared with setup
//! (W3.3).

use super::order::{Build, Order};
use super::outcome::Event;
use super::run::Run;
use super::state::{Building, Kind, Units, FLEET_COST};

impl Run {
    /// W4.7–W4.8 (and W3.3 with `setup`): BUILD and DEVELOP in written order.
    pub fn construction(&mut self, setup: bool) {
        let nr = self.s.regions.len();
        let mut built = vec![Units::default(); nr];
        let mut fleet_ports: Vec<usize> = Vec::new();
        let mut projects = vec![0u32; nr];
        let mut eng_used = vec![0u32; nr];
        let mut new_cities: Vec<usize> = Vec::new();
        for t in self.step_orders(|o| matches!(o, Order::Build(_) | Order::Develop(_))) {
            let p = self.orders[t].player;
            let order = self.orders[t].order.clone();
            let project_region = match &order {
                Order::Build(Build::Building { region, .. })
                | Order::Build(Build::Suez { region })
                | Order::Develop(region) => Some(*region),
                _ => None,
            };
            // Own region, not in revolt.
            let region = match &order {
                Order::Build(Build::Units { region, .. }) => Some(*region),
                Order::Build(Build::Fleet { at, .. }) => *at,
                _ => project_region,
            };
            if let Some(r) = region {
                if !self.s.owns(p, r) {
                    self.invalid(t, format!("{} is not yours", self.rn(r)));
                    continue;
                }
                if self.s.regions[r].revolt {
                    self.failed(
                        t,
                        format!("{} is in revolt: nothing is built there", self.rn(r)),
                    );
                    continue;
                }
            }
            let mut cost;
            let mut discounted = false;
            if let Some(r) = project_region {
                if let Err(why) = self.project_rules(&order, r, setup, &new_cities) {
                    self.invalid(t, why);
                    continue;
                }
                let engineers = self.s.units(r, p).get(Kind::Eng);
                if !setup && engineers == 0 && projects[r] >= 1 {
                    self.invalid(
                        t,
                        format!(
                            "one project per region per phase in {} without an engineer there",
                            self.rn(r)
                        ),
                    );
                    continue;
                }
                cost = match &order {
                    Order::Build(Build::Building { kind, .. }) => kind.cost(),
                    Order::Build(Build::Suez { .. }) => 60,
                    _ => 15,
                };
                if !setup && eng_used[r] < engineers {
                    cost = (cost * 2).div_ceil(3);
                    discounted = true;
                }
            } else {
                cost = 0;
            }
            match order {
                Order::Build(Build::Units { n, kind, region: r }) => {
                    if !setup {
                        let already = built[r].get(kind);
                        if already + n > kind.limit() {
                            self.invalid(
                                t,
                                format!(
                                    "over the limit of {} {} per region per phase ({already} built in {})",
                                    kind.limit(),
                                    kind.name(),
                                    self.rn(r)
                                ),
                            );
                            continue;
                        }
                        let needs = match kind {
                            Kind::Cav | Kind::Eng => Some(Building::City),
                            Kind::Art => Some(Building::Factory),
                            Kind::Gen => Some(Building::School),
                            _ => None,
                        };
                        if let Some(b) = needs {
                            if !self.s.regions[r].buildings.has(b) {
                                self.invalid(
                                    t,
                                    format!(
                                        "{} is built in a region with a {}",
                                        kind.name(),
                                        b.name()
                                    ),
                                );
                                continue;
                            }
                        }
                    }
                    let cost = kind.cost() * n;
                    match self.pay_pp(p, cost) {
                        Ok(()) => {
                            built[r].add_kind(kind, n);
                            self.s.units_mut(r, p).add_kind(kind, n);
                            self.done(t, format!("built for {cost} PP"));
                        }
                        Err(why) => self.failed(t, why),
                    }
                }
                Order::Build(Build::Fleet { sea, at }) => {
                    let port = match self.fleet_port(p, sea, at, setup, &fleet_ports) {
                        Ok(r) => r,
                        Err(why) => {
                            self.invalid(t, why);
                            continue;
                        }
                    };
                    match self.pay_pp(p, FLEET_COST) {
                        Ok(()) => {
                            if !setup {
                                fleet_ports.push(port);
                            }
                            self.s.fleet_mut(sea, p).n += 1;
                            self.done(t, format!("built at {} for {FLEET_COST} PP", self.rn(port)));
                        }
                        Err(why) => self.failed(t, why),
                    }
                }
                Order::Build(Build::Building { kind, region: r }) => match self.pay_pp(p, cost) {
                    Ok(()) => {
                        self.s.regions[r].buildings.put(kind);
                        if kind == Building::City {
                            new_cities.push(r);
                        }
                        projects[r] += 1;
                        if discounted {
                            eng_used[r] += 1;
                        }
                        let how = if discounted { " (engineer)" } else { "" };
                        self.done(t, format!("built for {cost} PP{how}"));
                    }
                    Err(why) => self.failed(t, why),
                },
                Order::Build(Build::Suez { region: r }) => match self.pay_pp(p, cost) {
                    Ok(()) => {
                        self.s.suez = true;
                        projects[r] += 1;
                        if discounted {
                            eng_used[r] += 1;
                        }
                        self.done(t, format!("built for {cost} PP"));
                        let text = format!(
                            "{} builds the Suez Canal in {}: the canal is open from movement 1",
                            self.pid(p),
                            self.rn(r)
                        );
                        self.event(Event::new("W4.8", text).player(self.pid(p)));
                    }
                    Err(why) => self.failed(t, why),
                },
                Order::Develop(r) => match self.pay_pp(p, cost) {
                    Ok(()) => {
                        self.s.regions[r].developed = true;
                        projects[r] += 1;
                        if discounted {
                            eng_used[r] += 1;
                        }
                        let how = if discounted { " (engineer)" } else { "" };
                        self.done(
                            t,
                            format!("{} developed for {cost} PP{how}", self.s.regions[r].chit),
                        );
                    }
                    Err(why) => self.failed(t, why),
                },
                _ => {}
            }
        }
    }

    /// The building rules a project must meet (W4.7, W4.8, W3.3).
    fn project_rules(
        &self,
        order: &Order,
        r: usize,
        setup: bool,
        new_cities: &[usize],
    ) -> Result<(), String> {
        let b = self.s.regions[r].buildings;
        let name = self.rn(r);
        match order {
            Order::Build(Build::Building { kind, .. }) => {
                if b.has(*kind) {
                    return Err(format!("{name} has a {} already", kind.name()));
                }
                if kind.exclusive() {
                    if let Some(x) = b.list().into_iter().find(|x| x.exclusive()) {
                        return Err(format!(
                            "one of city, factory, port, railroad per region: {name} has a {}",
                            x.name()
                        ));
                    }
                }
                if *kind == Building::Port && self.map.regions[r].sea.is_empty() {
                    return Err(format!("{name} is not coastal"));
                }
                if *kind == Building::School {
                    if !b.has(Building::City) {
                        return Err(format!("a school needs a city: {name} has none"));
                    }
                    if !setup && new_cities.contains(&r) {
                        return Err(format!(
                            "a school needs a city not built this phase ({name})"
                        ));
                    }
                }
                Ok(())
            }
            Order::Build(Build::Suez { .. }) => {
                if self.map.canal_region() != Some(r) {
                    return Err(match self.map.canal_region() {
                        Some(c) => format!("the canal is built in {}", self.rn(c)),
                        None => "this map has no canal".into(),
                    });
                }
                if self.s.suez {
                    return Err("the Suez Canal is built already (once per game)".into());
                }
                Ok(())
            }
            Order::Develop(_) => {
                let region = &self.s.regions[r];
                if region.chit.value() == 0 {
                    return Err(format!("{name} has a dot: nothing to develop"));
                }
                if region.developed {
                    return Err(format!("{name}'s {} is developed already", region.chit));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The region a fleet is built at (W4.7; in setup any own coastal region, W3.3).
    fn fleet_port(
        &self,
        p: usize,
        sea: usize,
        at: Option<usize>,
        setup: bool,
        used: &[usize],
    ) -> Result<usize, String> {
        let fits = |r: usize| -> Result<(), String> {
            let name = self.rn(r);
            if !self.s.owns(p, r) {
                return Err(format!("{name} is not yours"));
            }
            if !self.map.coastal(r, sea) {
                return Err(format!("{name} is not on the coast of {}", self.sn(sea)));
            }
            if self.s.regions[r].revolt {
                return Err(format!("{name} is in revolt"));
            }
            if !setup {
                if !self.s.regions[r].buildings.has(Building::Port) {
                    return Err(format!("{name} has no port"));
                }
                if used.contains(&r) {
                    return Err(format!("the port of {name} has built a fleet this phase"));
                }
            }
            Ok(())
        };
        match at {
            Some(r) => fits(r).map(|_| r),
            None => {
                let mut coast = self.map.seas[sea].coast.clone();
                coast.sort_by_key(|&r| self.map.regions[r].id.to_ascii_lowercase());
                coast.into_iter().find(|&r| fits(r).is_ok()).ok_or_else(|| {
                    if setup {
                        format!("no region of yours on the coast of {}", self.sn(sea))
                    } else {
                        format!(
                            "no port of yours on {} that has not built a fleet this phase",
                            self.sn(sea)
                        )
                    }
                })
            }
        }
    }
}
