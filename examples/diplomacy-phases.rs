//! Random standard Diplomacy movement phases from many random games, as JSON lines,
//! each with this rule set's result: the input of `scripts/diplomacy-differential`
//! (compared with the Python `diplomacy` package) and of the benchmark's recorded
//! phases (`benches/diplomacy.rs`).
//!
//!     cargo run --release --example diplomacy-phases -- COUNT [SEED]

use pbem::rules::diplomacy::generate::random_game;
use pbem::rules::diplomacy::given;
use pbem::rules::diplomacy::map::{bits, Kind, Map};
use pbem::rules::diplomacy::phase::adjudicate;
use pbem::rules::diplomacy::scenario::as_given;
use pbem::rules::diplomacy::state::Step;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let map = Map::standard();
    let mut written = 0;
    let mut game = 0u64;
    while written < count {
        // Games of up to 12 years; every movement phase of each.
        for (state, orders) in random_game(seed.wrapping_mul(7919).wrapping_add(game), 36) {
            if written >= count {
                break;
            }
            if state.phase.step != Step::Movement {
                continue;
            }
            let g = given(&state, &orders);
            let (after, report) = adjudicate(&state, &as_given(&g));
            let destroyed: Vec<String> = report.destroyed.iter().map(|u| u.text(map)).collect();
            let lines: serde_json::Map<String, serde_json::Value> = orders
                .iter()
                .map(|(p, t)| (p.clone(), json!(t.lines().collect::<Vec<_>>())))
                .collect();
            println!(
                "{}",
                json!({
                    "game": game,
                    "phase": state.phase.code(),
                    "units": state.units.iter().map(|u| u.text(map)).collect::<Vec<_>>(),
                    "orders": lines,
                    "after": {
                        "units": after.units.iter().map(|u| u.text(map)).collect::<Vec<_>>(),
                        "dislodged": after.dislodged.iter().map(|d| json!({
                            "unit": d.unit.text(map),
                            "retreats": d.retreats.iter().map(|&l| map.loc_id(l)).collect::<Vec<_>>(),
                            "by_convoy": d.by_convoy,
                            "neighbours": bits(match d.unit.kind {
                                Kind::Army => map.army[map.prov_of(d.unit.loc) as usize],
                                Kind::Fleet => map.fleet[d.unit.loc as usize],
                            }).map(|l| map.loc_id(l).to_string()).collect::<Vec<_>>(),
                        })).collect::<Vec<_>>(),
                        "destroyed": destroyed,
                    }
                })
            );
            written += 1;
        }
        game += 1;
    }
}
