//! Retreat and adjustment orders read against the position: a dislodged unit's retreat
//! or disbanding, and the winter's builds, removals and waivers.

use super::*;

pub(super) fn retreat(state: &State, power: Option<u8>, spec: &UnitSpec, action: Action) -> Order {
    let map = state.map();
    let units: Vec<Unit> = state.dislodged.iter().map(|d| d.unit).collect();
    let found = find(map, &units, power, spec);
    let actual = found.as_ref().ok().map(|&(k, _)| &units[k]);
    let head = format!(
        "{}{}",
        prefix(map, power.or(actual.map(|u| u.power))),
        spec_text(map, spec, actual)
    );
    let (text, does) = match &action {
        Action::Move { to, .. } | Action::Retreat { to } => {
            let does = actual.map(|u| {
                let k = found.as_ref().unwrap().0;
                let d = &state.dislodged[k];
                match destination(map, u.kind, u.loc, to) {
                    Ok(loc) if d.retreats.contains(&loc) => Ok(Does::Retreat { to: loc }),
                    Ok(_) | Err(_) => Err(format!(
                        "{} cannot retreat to {} (it may go to: {})",
                        map.loc_id(u.loc),
                        place_text(map, to),
                        if d.retreats.is_empty() {
                            "nowhere".to_string()
                        } else {
                            d.retreats
                                .iter()
                                .map(|&l| map.loc_id(l))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    )),
                }
            });
            let to = match (&does, actual) {
                (Some(Ok(Does::Retreat { to: loc })), Some(u)) => arrival_text(map, u, *loc, to),
                _ => place_text(map, to),
            };
            (format!("{head} R {to}"), does)
        }
        Action::Disband => (format!("{head} D"), Some(Ok(Does::Disband))),
        Action::Hold => (
            format!("{head} H"),
            Some(Err("a dislodged unit retreats or disbands".to_string())),
        ),
        Action::Support { .. } => (
            format!("{head} S"),
            Some(Err("no supports in a retreat phase".to_string())),
        ),
        Action::Convoy { .. } => (
            format!("{head} C"),
            Some(Err("no convoys in a retreat phase".to_string())),
        ),
        Action::Build => (
            format!("{head} B"),
            Some(Err("builds are ordered in adjustment phases".to_string())),
        ),
    };
    let found = found.map_err(|_| {
        if state
            .units
            .iter()
            .any(|u| map.prov_of(u.loc) == spec.at.prov)
        {
            format!(
                "the unit in {} was not dislodged",
                map.prov_id(spec.at.prov)
            )
        } else {
            format!(
                "there is no dislodged unit in {}",
                map.prov_id(spec.at.prov)
            )
        }
    });
    match found {
        Err(e) => unknown(map, power, text, e),
        Ok((k, owner)) => {
            let note = wrong_coast(map, spec, &units[k]);
            let (does, invalid, note) = match does.expect("unit found") {
                Ok(d) => (d, None, note),
                Err(e) => (Does::Disband, Some(with_note(note, e)), None),
            };
            Order {
                power: power.unwrap_or(owner),
                unit: Some(k),
                does,
                text,
                invalid,
                note,
            }
        }
    }
}

pub(super) fn adjustment(
    state: &State,
    power: Option<u8>,
    spec: &UnitSpec,
    action: Action,
) -> Order {
    let map = state.map();
    match action {
        Action::Build => {
            let power_b = power;
            let kind_text = spec.kind.map(|k| k.letter()).unwrap_or("?");
            let text = format!(
                "{}{kind_text} {} B",
                prefix(map, power_b),
                place_text(map, &spec.at)
            );
            let Some(power) = power_b else {
                return unknown(
                    map,
                    None,
                    text,
                    "a build needs a power: FRA BUILD A par".into(),
                );
            };
            let build = || -> Result<Unit, String> {
                let kind = spec.kind.ok_or("say A or F: BUILD A par")?;
                let p = spec.at.prov;
                let pr = &map.provinces[p as usize];
                if pr.home != Some(power) {
                    return Err(format!(
                        "{} is not a home centre of {}",
                        pr.id,
                        map.power_id(power)
                    ));
                }
                if state.owners[p as usize] != Some(power) {
                    return Err(format!("{} does not own {}", map.power_id(power), pr.id));
                }
                if state.unit_in(p).is_some() {
                    return Err(format!("{} is occupied", pr.id));
                }
                let loc = match (kind, &spec.at.coast) {
                    (Kind::Army, _) => p,
                    (Kind::Fleet, Some(c)) if !pr.coasts.is_empty() => map
                        .coast_loc(p, c)
                        .ok_or(format!("{} has no coast {c}", pr.id))?,
                    (Kind::Fleet, _) if !pr.coasts.is_empty() => {
                        return Err(format!(
                            "say which coast of {}: {}",
                            pr.id,
                            pr.coasts
                                .iter()
                                .map(|&c| map.loc_id(c))
                                .collect::<Vec<_>>()
                                .join(" or ")
                        ))
                    }
                    (Kind::Fleet, _) => p,
                };
                if !map.can_stand(kind, loc) {
                    return Err(format!("a fleet cannot be built in {}", pr.id));
                }
                Ok(Unit { power, kind, loc })
            };
            match build() {
                Ok(unit) => Order {
                    power,
                    unit: None,
                    does: Does::Build { unit },
                    text: format!(
                        "{} {} {} B",
                        map.power_id(power),
                        unit.kind.letter(),
                        map.loc_id(unit.loc)
                    ),
                    invalid: None,
                    note: None,
                },
                Err(e) => Order {
                    power,
                    unit: None,
                    does: Does::Waive,
                    text,
                    invalid: Some(e),
                    note: None,
                },
            }
        }
        Action::Disband => {
            let found = find(map, &state.units, power, spec);
            let actual = found.as_ref().ok().map(|&(k, _)| &state.units[k]);
            let text = format!(
                "{}{} D",
                prefix(map, power.or(actual.map(|u| u.power))),
                spec_text(map, spec, actual)
            );
            match found {
                Ok((k, owner)) => Order {
                    power: owner,
                    unit: Some(k),
                    does: Does::Disband,
                    text,
                    invalid: None,
                    note: wrong_coast(map, spec, &state.units[k]),
                },
                Err(e) => unknown(map, power, text, e),
            }
        }
        _ => {
            let found = find(map, &state.units, power, spec);
            let actual = found.as_ref().ok().map(|&(k, _)| &state.units[k]);
            let text = format!(
                "{}{}",
                prefix(map, power.or(actual.map(|u| u.power))),
                spec_text(map, spec, actual)
            );
            unknown(
                map,
                power.or(actual.map(|u| u.power)),
                text,
                "adjustment orders are BUILD, REMOVE and WAIVE".into(),
            )
        }
    }
}
