//! The Deployment phase (B6): both deployments, written in secret, applied and shown
//! together.

use super::outcome::Outcome;
use super::state::{Phase, Unit};
use super::syntax::Order;
use super::types::{fleets_text, region_name, total, Fleets, Kind, Power};
use super::{Plans, Run};

/// Applies each power's `DEPLOY` lines in order (B6.1; each was checked against the
/// display as it read); garrisons stay (B6.2); TH may stay on the display (B6.3);
/// without orders nothing is deployed (B6.4). The event sums each power's deployment
/// by region (the results list it line by line). Then the Action phase.
pub fn adjudicate(run: &mut Run, plans: Plans) {
    for p in Power::BOTH {
        // What went where, region by region in the order first written.
        let mut shown: Vec<(u8, Fleets)> = Vec::new();
        for e in plans[p.index()].iter().flatten() {
            let Order::Deploy(r, f) = &e.order else {
                continue;
            };
            for k in Kind::ALL {
                for _ in 0..f[k.index()] {
                    run.state.side_mut(p).base[k.index()] -= 1;
                    run.state.units.push(Unit {
                        region: *r,
                        power: p,
                        kind: k,
                        garrison: false,
                        marker: None,
                        hits: 0,
                    });
                }
            }
            run.log.settle(
                e.line,
                Outcome::Done,
                format!("{} deployed in {}", fleets_text(f), region_name(*r)),
            );
            match shown.iter_mut().find(|(at, _)| at == r) {
                Some((_, there)) => {
                    for (n, more) in there.iter_mut().zip(f) {
                        *n += more;
                    }
                }
                None => shown.push((*r, *f)),
            }
        }
        // A power without orders deploys nothing (B6.4): the event below says so, and
        // B13.1's that it sent none; no third event repeats it.
        let left = run.state.side(p).base;
        if !shown.is_empty() || total(&left) > 0 {
            run.log.event(
                "B6.4",
                format!(
                    "{p} deploys {}; on its display: {}",
                    if shown.is_empty() {
                        "nothing".to_string()
                    } else {
                        shown
                            .iter()
                            .map(|(r, f)| format!("{} {}", region_name(*r), fleets_text(f)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                    fleets_text(&left)
                ),
            );
        }
    }
    for r in &mut run.state.regions {
        r.resolved = false;
    }
    run.state.phase = Phase::Actions;
}
