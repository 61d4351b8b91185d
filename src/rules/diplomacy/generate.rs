//! Random legal orders for any phase, from a seed (property tests, the benchmark's
//! recorded phases, the differential test against another adjudicator). Deterministic:
//! the same state and seed give the same orders.

use std::collections::BTreeMap;

use super::map::{bits, Kind, Loc, Map, Terrain};
use super::phase::adjudicate;
use super::scenario::as_given;
use super::state::{Options, State, Step};

/// A small deterministic generator (SplitMix64).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// 0..n (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> Option<T> {
        (!v.is_empty()).then(|| v[self.below(v.len())])
    }
}

fn locs_to(map: &Map, kind: Kind, loc: Loc) -> Vec<Loc> {
    match kind {
        Kind::Army => bits(map.army[map.prov_of(loc) as usize]).collect(),
        Kind::Fleet => bits(map.fleet[loc as usize]).collect(),
    }
}

/// Random orders for every power that owes some, one line per unit, as order texts
/// by power id.
pub fn random_orders(s: &State, seed: u64) -> BTreeMap<String, String> {
    let map = s.map();
    let mut rng = Rng::new(seed);
    let mut lines: Vec<(u8, String)> = Vec::new();
    match s.phase.step {
        Step::Movement => {
            let n = s.units.len();
            let mut done = vec![false; n];
            // Convoys first: an army on a coast carried by one fleet at sea.
            for f in 0..n {
                let fu = s.units[f];
                let fp = map.prov_of(fu.loc);
                if fu.kind != Kind::Fleet || !map.is_sea(fp) || done[f] || !rng.chance(30) {
                    continue;
                }
                let armies: Vec<usize> = (0..n)
                    .filter(|&a| {
                        !done[a]
                            && s.units[a].kind == Kind::Army
                            && map.seas_around(map.prov_of(s.units[a].loc)) & (1u128 << fp) != 0
                    })
                    .collect();
                let Some(a) = rng.pick(&armies) else { continue };
                let ap = map.prov_of(s.units[a].loc);
                let dests: Vec<u8> = bits(map.fleet_prov[fp as usize])
                    .filter(|&q| q != ap && map.terrain(q) == Terrain::Coast)
                    .collect();
                let Some(d) = rng.pick(&dests) else { continue };
                let army = s.units[a].text(map);
                let (_, rest) = army.split_once(' ').unwrap();
                lines.push((s.units[a].power, format!("{army} - {} VIA", map.prov_id(d))));
                lines.push((
                    fu.power,
                    format!("{} C {rest} - {}", fu.text(map), map.prov_id(d)),
                ));
                done[a] = true;
                done[f] = true;
            }
            #[allow(clippy::needless_range_loop)]
            for u in 0..n {
                if done[u] {
                    continue;
                }
                let unit = s.units[u];
                let me = unit.text(map);
                let r = rng.below(100);
                let to = locs_to(map, unit.kind, unit.loc);
                if r < 15 || to.is_empty() {
                    lines.push((unit.power, format!("{me} H")));
                } else if r < 65 {
                    let l = rng.pick(&to).unwrap();
                    lines.push((unit.power, format!("{me} - {}", map.loc_id(l))));
                } else {
                    // Support a neighbour: to hold, or into a province both reach.
                    let reach = map.reach(unit.kind, unit.loc);
                    let others: Vec<usize> = (0..n)
                        .filter(|&k| k != u && map.prov_of(s.units[k].loc) != map.prov_of(unit.loc))
                        .filter(|&k| {
                            let t = &s.units[k];
                            reach & (1u128 << map.prov_of(t.loc)) != 0
                                || map.reach(t.kind, t.loc) & reach != 0
                        })
                        .collect();
                    let Some(k) = rng.pick(&others) else {
                        lines.push((unit.power, format!("{me} H")));
                        continue;
                    };
                    let t = s.units[k];
                    let tp = map.prov_of(t.loc);
                    let (_, target) = t
                        .text(map)
                        .split_once(' ')
                        .map(|(a, b)| (a.to_string(), b.to_string()))
                        .unwrap();
                    let common: Vec<u8> = bits(map.reach(t.kind, t.loc) & reach)
                        .filter(|&q| q != map.prov_of(unit.loc))
                        .collect();
                    if reach & (1u128 << tp) != 0 && (common.is_empty() || rng.chance(40)) {
                        lines.push((unit.power, format!("{me} S {target}")));
                    } else if let Some(q) = rng.pick(&common) {
                        lines.push((unit.power, format!("{me} S {target} - {}", map.prov_id(q))));
                    } else {
                        lines.push((unit.power, format!("{me} H")));
                    }
                }
            }
        }
        Step::Retreat => {
            for d in &s.dislodged {
                let me = d.unit.text(map);
                match rng.pick(&d.retreats) {
                    Some(l) if rng.chance(85) => {
                        lines.push((d.unit.power, format!("{me} R {}", map.loc_id(l))))
                    }
                    _ => lines.push((d.unit.power, format!("{me} D"))),
                }
            }
        }
        Step::Adjustment => {
            for q in 0..map.powers.len() as u8 {
                let a = s.adjustment(q);
                if a > 0 {
                    let mut sites = s.build_sites(q);
                    for _ in 0..a {
                        if sites.is_empty() {
                            break;
                        }
                        let p = sites.remove(rng.below(sites.len()));
                        let pr = &map.provinces[p as usize];
                        let fleet = pr.terrain == Terrain::Coast && rng.chance(40);
                        let at = if fleet && !pr.coasts.is_empty() {
                            map.loc_id(pr.coasts[rng.below(pr.coasts.len())])
                                .to_string()
                        } else {
                            pr.id.clone()
                        };
                        lines.push((q, format!("BUILD {} {at}", if fleet { "F" } else { "A" })));
                    }
                } else if a < 0 {
                    let mut mine: Vec<String> = s
                        .units
                        .iter()
                        .filter(|u| u.power == q)
                        .map(|u| u.text(map))
                        .collect();
                    // Sometimes too few: civil disorder does the rest.
                    let k = if rng.chance(20) { (-a - 1).max(0) } else { -a };
                    for _ in 0..k {
                        if mine.is_empty() {
                            break;
                        }
                        let u = mine.remove(rng.below(mine.len()));
                        lines.push((q, format!("{u} D")));
                    }
                }
            }
        }
    }
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for (q, line) in lines {
        let e = out.entry(map.power_id(q).to_string()).or_default();
        e.push_str(&line);
        e.push('\n');
    }
    out
}

/// A random game: the states before each phase and the orders given, `phases` long
/// (or until the game ends).
pub fn random_game(seed: u64, phases: usize) -> Vec<(State, BTreeMap<String, String>)> {
    let mut s = State::standard(Options::default());
    let mut out = Vec::new();
    for k in 0..phases {
        if s.over {
            break;
        }
        let orders = random_orders(&s, seed.wrapping_mul(1_000_003).wrapping_add(k as u64));
        let g = super::given(&s, &orders);
        let (next, _) = adjudicate(&s, &as_given(&g));
        out.push((s, orders));
        s = next;
    }
    out
}
