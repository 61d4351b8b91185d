//! Reading order lines (B12.1), first stage: words to an [`Order`], whatever the
//! phase. Legality against the phase and the position is [`super::check`]'s.

use std::fmt::Write;

use super::types::{region_index, region_name, Chit, Fleets, Kind, Segment};

/// The most fleets one line may name (a guard against absurd lines, not a rule).
pub const MAX_COUNT: u32 = 100;

/// A standing `DISENGAGE` (B8.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disengage {
    Never,
    After(u32),
    Weaker,
}

/// A standing `GARRISON` (B8.8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GarrisonRule {
    Min,
    All,
    None,
    List(Fleets),
}

/// One order line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// `BUILD <fleets>`: the fleets one by one in the order written (B10.2).
    Build(Vec<Kind>),
    /// `PLACE <region> <fleets>` (B3.3).
    Place(u8, Fleets),
    /// `DEPLOY <region> <fleets>` or `<region> <fleets>` (B6.1).
    Deploy(u8, Fleets),
    /// `RESOLVE <region>` (B7.3).
    Resolve(u8),
    /// `DEPLOY TH <region> [<n>]` (B7.3); none: all on the display.
    DeployTh(u8, Option<u32>),
    PlayBuild,
    PlayMove {
        from: u8,
        to: u8,
        fleets: Option<Fleets>,
    },
    PlayTactical {
        region: u8,
        kind: Kind,
        segment: Option<Segment>,
    },
    PlayIlluminationTh(u8),
    PlayIlluminationChaos,
    /// `PLAY REPRESSION`: never allowed (B7.4), kept to say so.
    PlayRepression,
    /// `REPRESS <chit>` or `REPRESS ANY` (none) (B7.4).
    Repress(Option<Chit>),
    /// `TARGET <region>|ALL MILITARY|MORPH <types>` (B8.9); region none: ALL.
    Target {
        region: Option<u8>,
        segment: Segment,
        kinds: Vec<Kind>,
    },
    Disengage {
        region: Option<u8>,
        rule: Disengage,
    },
    Pursue {
        region: Option<u8>,
        yes: bool,
    },
    Garrison {
        region: Option<u8>,
        rule: GarrisonRule,
    },
    Losses(Vec<Kind>),
    Discard(Chit),
}

/// Why a line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    #[error("unknown order {0:?}: expected BUILD, PLACE, DEPLOY, RESOLVE, PLAY, REPRESS, TARGET, DISENGAGE, PURSUE, GARRISON, LOSSES or DISCARD")]
    UnknownVerb(String),
    #[error("unknown region {0:?}: regions are Tau, Alpha, Beta, Gamma, Delta, Omega or 1-6")]
    UnknownRegion(String),
    #[error("unknown fleet type {0:?}: types are SF CG AF IO WS TH")]
    UnknownType(String),
    #[error("unknown chit {0:?}: chits are BUILD MOVE TACTICAL ILLUMINATION REPRESSION")]
    UnknownChit(String),
    #[error("{0:?} is not a count of fleets")]
    BadCount(String),
    #[error("a count of {0} is more than a line may name ({MAX_COUNT})")]
    TooMany(u32),
    #[error("{what} is missing")]
    Missing { what: &'static str },
    #[error("unexpected {0:?} at the end")]
    Extra(String),
    #[error("{0}")]
    Other(String),
}

use SyntaxError as E;

/// Reads one line (already trimmed, not blank, not a comment).
pub fn parse(line: &str) -> Result<Order, SyntaxError> {
    let upper = line.replace(',', " ").to_ascii_uppercase();
    let words: Vec<&str> = upper.split_whitespace().collect();
    let Some((&verb, rest)) = words.split_first() else {
        return Err(E::Missing { what: "an order" });
    };
    match verb {
        "BUILD" => {
            let kinds = fleet_list(rest)?;
            if kinds.is_empty() {
                return Err(E::Missing {
                    what: "the list of fleets",
                });
            }
            Ok(Order::Build(kinds))
        }
        "PLACE" => {
            let (r, rest) = region_first(rest)?;
            Ok(Order::Place(r, fleets_nonempty(rest)?))
        }
        "DEPLOY" => match rest.first() {
            Some(&"TH") if rest.get(1).is_some_and(|w| region_index(w).is_some()) => {
                let r = region_index(rest[1]).expect("checked");
                let n = match rest.get(2) {
                    None => None,
                    Some(w) => Some(count(w)?),
                };
                end(&rest[2 + usize::from(n.is_some())..])?;
                Ok(Order::DeployTh(r, n))
            }
            _ => {
                let (r, rest) = region_first(rest)?;
                Ok(Order::Deploy(r, fleets_nonempty(rest)?))
            }
        },
        "RESOLVE" => {
            let (r, rest) = region_first(rest)?;
            end(rest)?;
            Ok(Order::Resolve(r))
        }
        "PLAY" => play(rest),
        "REPRESS" => {
            let w = rest.first().ok_or(E::Missing {
                what: "the chit to repress (or ANY)",
            })?;
            end(&rest[1..])?;
            if *w == "ANY" {
                Ok(Order::Repress(None))
            } else {
                Ok(Order::Repress(Some(chit(w)?)))
            }
        }
        "TARGET" => {
            let (region, rest) = region_or_all(rest)?;
            let w = rest.first().ok_or(E::Missing {
                what: "the segment (MILITARY or MORPH)",
            })?;
            let segment = Segment::from_word(w)
                .ok_or_else(|| E::Other(format!("{w:?} is not MILITARY or MORPH")))?;
            let kinds = type_list(&rest[1..])?;
            if kinds.is_empty() {
                return Err(E::Missing {
                    what: "the list of fleet types",
                });
            }
            Ok(Order::Target {
                region,
                segment,
                kinds,
            })
        }
        "DISENGAGE" => {
            let (region, rest) = region_or_all(rest)?;
            let rule = match rest {
                ["NEVER"] => Disengage::Never,
                ["WEAKER"] => Disengage::Weaker,
                ["AFTER", n] => {
                    let n = count(n)?;
                    Disengage::After(n)
                }
                ["AFTER"] => return Err(E::Missing { what: "the round" }),
                [] => {
                    return Err(E::Missing {
                        what: "NEVER, AFTER <n> or WEAKER",
                    })
                }
                [w, ..] => {
                    return Err(E::Other(format!("{w:?} is not NEVER, AFTER <n> or WEAKER")))
                }
            };
            Ok(Order::Disengage { region, rule })
        }
        "PURSUE" => {
            let (region, rest) = region_or_all(rest)?;
            let yes = match rest {
                ["YES"] => true,
                ["NO"] => false,
                [] => return Err(E::Missing { what: "YES or NO" }),
                [w, ..] => return Err(E::Other(format!("{w:?} is not YES or NO"))),
            };
            Ok(Order::Pursue { region, yes })
        }
        "GARRISON" => {
            let (region, rest) = region_or_all(rest)?;
            let rule = match rest {
                ["MIN"] => GarrisonRule::Min,
                ["ALL"] => GarrisonRule::All,
                ["NONE"] => GarrisonRule::None,
                [] => {
                    return Err(E::Missing {
                        what: "MIN, ALL, NONE or the fleets",
                    })
                }
                words => GarrisonRule::List(fleets_nonempty(words)?),
            };
            Ok(Order::Garrison { region, rule })
        }
        "LOSSES" => {
            let kinds = type_list(rest)?;
            if kinds.is_empty() {
                return Err(E::Missing {
                    what: "the list of fleet types",
                });
            }
            Ok(Order::Losses(kinds))
        }
        "DISCARD" => {
            let w = rest.first().ok_or(E::Missing { what: "the chit" })?;
            end(&rest[1..])?;
            Ok(Order::Discard(chit(w)?))
        }
        _ => {
            // `<region> <fleets>`: a deployment without its verb (B6.1).
            if region_index(verb).is_some() {
                let (r, rest) = region_first(&words)?;
                return Ok(Order::Deploy(r, fleets_nonempty(rest)?));
            }
            Err(E::UnknownVerb(verb.to_string()))
        }
    }
}

fn play(rest: &[&str]) -> Result<Order, SyntaxError> {
    let w = rest.first().ok_or(E::Missing { what: "the chit" })?;
    let rest = &rest[1..];
    match chit(w)? {
        Chit::Build => {
            end(rest)?;
            Ok(Order::PlayBuild)
        }
        Chit::Repression => Ok(Order::PlayRepression),
        Chit::Move => {
            let (from, rest) = region_first(rest)?;
            let (to, rest) = region_first(rest)?;
            let fleets = if rest.is_empty() {
                None
            } else {
                Some(fleets_nonempty(rest)?)
            };
            Ok(Order::PlayMove { from, to, fleets })
        }
        Chit::Tactical => {
            let (region, rest) = region_first(rest)?;
            let w = rest.first().ok_or(E::Missing {
                what: "the fleet type",
            })?;
            let kind = Kind::from_name(w).ok_or_else(|| E::UnknownType(w.to_string()))?;
            let segment = match rest.get(1) {
                None => None,
                Some(s) => Some(
                    Segment::from_word(s)
                        .ok_or_else(|| E::Other(format!("{s:?} is not MILITARY or MORPH")))?,
                ),
            };
            end(&rest[1 + usize::from(segment.is_some())..])?;
            Ok(Order::PlayTactical {
                region,
                kind,
                segment,
            })
        }
        Chit::Illumination => match rest {
            ["CHAOS"] => Ok(Order::PlayIlluminationChaos),
            ["TH", r] => Ok(Order::PlayIlluminationTh(region(r)?)),
            ["TH"] => Err(E::Missing { what: "the region" }),
            ["TH", _, extra, ..] | ["CHAOS", extra, ..] => Err(E::Extra(extra.to_string())),
            _ => Err(E::Other(
                "PLAY ILLUMINATION takes TH <region> or CHAOS".into(),
            )),
        },
    }
}

fn end(rest: &[&str]) -> Result<(), SyntaxError> {
    match rest.first() {
        None => Ok(()),
        Some(w) => Err(E::Extra(w.to_string())),
    }
}

fn region(w: &str) -> Result<u8, SyntaxError> {
    region_index(w).ok_or_else(|| E::UnknownRegion(w.to_string()))
}

fn region_first<'a>(rest: &'a [&'a str]) -> Result<(u8, &'a [&'a str]), SyntaxError> {
    let w = rest.first().ok_or(E::Missing { what: "the region" })?;
    Ok((region(w)?, &rest[1..]))
}

fn region_or_all<'a>(rest: &'a [&'a str]) -> Result<(Option<u8>, &'a [&'a str]), SyntaxError> {
    let w = rest.first().ok_or(E::Missing {
        what: "the region (or ALL)",
    })?;
    if *w == "ALL" {
        Ok((None, &rest[1..]))
    } else {
        Ok((Some(region(w)?), &rest[1..]))
    }
}

fn chit(w: &str) -> Result<Chit, SyntaxError> {
    Chit::from_word(w).ok_or_else(|| E::UnknownChit(w.to_string()))
}

fn count(w: &str) -> Result<u32, SyntaxError> {
    let n: u32 = w.parse().map_err(|_| E::BadCount(w.to_string()))?;
    if n == 0 {
        return Err(E::BadCount(w.to_string()));
    }
    if n > MAX_COUNT {
        return Err(E::TooMany(n));
    }
    Ok(n)
}

/// Fleets as written (B12.1): `2SF`, `2 SF`, `2xSF`, `SF`, in order, one entry per
/// fleet.
pub fn fleet_list(words: &[&str]) -> Result<Vec<Kind>, SyntaxError> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < words.len() {
        let w = words[k];
        let (n, kind) = if w.bytes().all(|b| b.is_ascii_digit()) {
            let n = count(w)?;
            if words.get(k + 1) == Some(&"X") {
                k += 1;
            }
            let t = words.get(k + 1).ok_or(E::Missing {
                what: "the fleet type",
            })?;
            k += 1;
            (
                n,
                t.strip_prefix('X').filter(|t| !t.is_empty()).unwrap_or(t),
            )
        } else {
            let digits = w.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                (1, w)
            } else {
                let n = count(&w[..digits])?;
                let t = &w[digits..];
                (n, t.strip_prefix('X').unwrap_or(t))
            }
        };
        let kind = Kind::from_name(kind).ok_or_else(|| E::UnknownType(kind.to_string()))?;
        let already = out.len() as u32;
        if already + n > MAX_COUNT {
            return Err(E::TooMany(already + n));
        }
        out.extend(std::iter::repeat_n(kind, n as usize));
        k += 1;
    }
    Ok(out)
}

fn fleets_nonempty(words: &[&str]) -> Result<Fleets, SyntaxError> {
    let list = fleet_list(words)?;
    if list.is_empty() {
        return Err(E::Missing {
            what: "the list of fleets",
        });
    }
    let mut f = [0; 6];
    for k in list {
        f[k.index()] += 1;
    }
    Ok(f)
}

/// Types without counts (TARGET, LOSSES), each once, in the order written.
fn type_list(words: &[&str]) -> Result<Vec<Kind>, SyntaxError> {
    let mut out = Vec::new();
    for w in words {
        let k = Kind::from_name(w).ok_or_else(|| E::UnknownType(w.to_string()))?;
        if !out.contains(&k) {
            out.push(k);
        }
    }
    Ok(out)
}

/// A fleet list in the order written, runs counted: `2SF 1CG 1SF`.
pub fn kinds_text(kinds: &[Kind]) -> String {
    let mut out = String::new();
    let mut k = 0;
    while k < kinds.len() {
        let run = kinds[k..].iter().take_while(|&&x| x == kinds[k]).count();
        if !out.is_empty() {
            out.push(' ');
        }
        let _ = write!(out, "{run}{}", kinds[k].name());
        k += run;
    }
    out
}

fn types_text(kinds: &[Kind]) -> String {
    kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(" ")
}

fn where_text(region: Option<u8>) -> &'static str {
    region.map(region_name).unwrap_or("ALL")
}

/// The canonical form of an order (B12.1), as receipts and results show it.
pub fn order_text(order: &Order) -> String {
    use super::types::fleets_text;
    match order {
        Order::Build(k) => format!("BUILD {}", kinds_text(k)),
        Order::Place(r, f) => format!("PLACE {} {}", region_name(*r), fleets_text(f)),
        Order::Deploy(r, f) => format!("DEPLOY {} {}", region_name(*r), fleets_text(f)),
        Order::Resolve(r) => format!("RESOLVE {}", region_name(*r)),
        Order::DeployTh(r, None) => format!("DEPLOY TH {}", region_name(*r)),
        Order::DeployTh(r, Some(n)) => format!("DEPLOY TH {} {n}", region_name(*r)),
        Order::PlayBuild => "PLAY BUILD".into(),
        Order::PlayMove { from, to, fleets } => format!(
            "PLAY MOVE {} {}{}",
            region_name(*from),
            region_name(*to),
            fleets
                .map(|f| format!(" {}", fleets_text(&f)))
                .unwrap_or_default()
        ),
        Order::PlayTactical {
            region,
            kind,
            segment,
        } => format!(
            "PLAY TACTICAL {} {}{}",
            region_name(*region),
            kind.name(),
            segment
                .map(|s| format!(" {}", s.name().to_ascii_uppercase()))
                .unwrap_or_default()
        ),
        Order::PlayIlluminationTh(r) => format!("PLAY ILLUMINATION TH {}", region_name(*r)),
        Order::PlayIlluminationChaos => "PLAY ILLUMINATION CHAOS".into(),
        Order::PlayRepression => "PLAY REPRESSION".into(),
        Order::Repress(c) => format!("REPRESS {}", c.map(|c| c.name()).unwrap_or("ANY")),
        Order::Target {
            region,
            segment,
            kinds,
        } => format!(
            "TARGET {} {} {}",
            where_text(*region),
            segment.name().to_ascii_uppercase(),
            types_text(kinds)
        ),
        Order::Disengage { region, rule } => format!(
            "DISENGAGE {} {}",
            where_text(*region),
            match rule {
                Disengage::Never => "NEVER".to_string(),
                Disengage::After(n) => format!("AFTER {n}"),
                Disengage::Weaker => "WEAKER".to_string(),
            }
        ),
        Order::Pursue { region, yes } => format!(
            "PURSUE {} {}",
            where_text(*region),
            if *yes { "YES" } else { "NO" }
        ),
        Order::Garrison { region, rule } => format!(
            "GARRISON {} {}",
            where_text(*region),
            match rule {
                GarrisonRule::Min => "MIN".to_string(),
                GarrisonRule::All => "ALL".to_string(),
                GarrisonRule::None => "NONE".to_string(),
                GarrisonRule::List(f) => fleets_text(f),
            }
        ),
        Order::Losses(k) => format!("LOSSES {}", types_text(k)),
        Order::Discard(c) => format!("DISCARD {}", c.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(line: &str) -> String {
        order_text(&parse(line).unwrap_or_else(|e| panic!("{line}: {e}")))
    }

    #[test]
    fn b12_1_fleets_in_every_written_form() {
        assert_eq!(
            canon("deploy tau 2sf, 1 cg 1xAF io"),
            "DEPLOY Tau 2SF 1CG 1AF 1IO"
        );
        assert_eq!(canon("3 2SF"), "DEPLOY Beta 2SF");
        assert_eq!(canon("BUILD 2SF CG sf"), "BUILD 2SF 1CG 1SF");
        assert_eq!(canon("build 2 x SF"), "BUILD 2SF");
        assert_eq!(
            canon("PLAY TAC 1 sf morphogenetic"),
            "PLAY TACTICAL Tau SF MORPH"
        );
        assert_eq!(canon("play ill th omega"), "PLAY ILLUMINATION TH Omega");
        assert_eq!(canon("DEPLOY TH gamma 2"), "DEPLOY TH Gamma 2");
        assert_eq!(canon("repress any"), "REPRESS ANY");
        assert_eq!(canon("garrison tau 2sf"), "GARRISON Tau 2SF");
        assert_eq!(canon("target all morph io"), "TARGET ALL MORPH IO");
    }

    #[test]
    fn b12_2_unreadable_lines_say_why() {
        for (line, says) in [
            ("DEPLOY Sol 2SF", "unknown region"),
            ("BUILD 2XX", "unknown fleet type"),
            ("PLAY FOO", "unknown chit"),
            ("HOLD Tau", "unknown order"),
            ("RESOLVE", "the region is missing"),
            ("LOSSES", "the list of fleet types is missing"),
            ("BUILD", "the list of fleets is missing"),
            ("RESOLVE Tau now", "unexpected"),
            ("BUILD 0SF", "not a count"),
            ("BUILD 1000SF", "more than a line"),
            ("DISENGAGE Tau SOON", "not NEVER"),
        ] {
            let e = parse(line).unwrap_err().to_string();
            assert!(e.contains(says), "{line}: {e}");
        }
    }
}
