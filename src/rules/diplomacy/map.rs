//! The map as data: provinces, coasts, borders for armies and for fleets, supply
//! centres, home centres and the starting position, read from a text file
//! (`standard.map`, compiled in) so that other maps can follow.
//!
//! Everything is indexed densely for the resolver: a province is a `u8`, a location
//! (where a unit stands: a province, or one coast of a province with two) is a `u8`,
//! and borders are bit sets (`u128`) over provinces or locations.

use std::collections::HashMap;
use std::sync::OnceLock;

/// A province index.
pub type Prov = u8;
/// A location index: provinces first (same numbers), then the coasts.
pub type Loc = u8;

/// What a province is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    Land,
    Coast,
    Sea,
}

/// An army or a fleet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Army,
    Fleet,
}

impl Kind {
    pub fn letter(self) -> &'static str {
        match self {
            Kind::Army => "A",
            Kind::Fleet => "F",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Province {
    /// The three-letter abbreviation, lower case.
    pub id: String,
    pub name: String,
    pub terrain: Terrain,
    pub centre: bool,
    /// The power whose home centre this is.
    pub home: Option<u8>,
    /// The coast locations of a province with two coasts (else empty).
    pub coasts: Vec<Loc>,
}

#[derive(Clone, Debug)]
pub struct Location {
    pub prov: Prov,
    /// `nc`, `sc`, `ec` for a coast; empty for the province itself.
    pub coast: String,
    /// `stp/nc` or `vie`.
    pub id: String,
}

/// A map: provinces, locations, borders, powers and the starting position.
#[derive(Clone, Debug)]
pub struct Map {
    pub powers: Vec<(String, String)>,
    pub provinces: Vec<Province>,
    pub locs: Vec<Location>,
    /// Army borders by province: a bit set of provinces.
    pub army: Vec<u128>,
    /// Fleet borders by location: a bit set of locations.
    pub fleet: Vec<u128>,
    /// Fleet borders by location: a bit set of the provinces they lead to.
    pub fleet_prov: Vec<u128>,
    /// Sea provinces.
    pub seas: u128,
    /// Supply centres.
    pub centres: u128,
    /// Every name a player may write (lower case, words joined by one space) to a
    /// province.
    pub names: HashMap<String, Prov, Fnv>,
    /// The longest name, in words.
    pub name_words: usize,
    pub start: Vec<(u8, Kind, Loc)>,
    pub victory: u32,
    /// Provinces sorted by full name (for the civil disorder rule's alphabetical tie).
    pub alpha_rank: Vec<u8>,
    /// First words of the names of more than one word (`mid`, `gulf`, `st` …).
    pub multi_first: std::collections::HashSet<String, Fnv>,
    /// Sea provinces bordering each sea province (convoy routes).
    pub sea_adj: Vec<u128>,
    /// Sea provinces bordering each province, over all its coasts.
    pub seas_near: Vec<u128>,
}

/// FNV-1a: the name tables' hash (short keys, no adversary: a player's text only
/// looks names up).
#[derive(Default, Clone, Copy, Debug)]
pub struct FnvHasher(u64);

impl std::hash::Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub type Fnv = std::hash::BuildHasherDefault<FnvHasher>;

fn bit(i: u8) -> u128 {
    1u128 << i
}

/// Iterates the set bits of a bit set.
pub fn bits(mut set: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(i)
    })
}

impl Map {
    /// The standard map, read once.
    pub fn standard() -> &'static Map {
        static MAP: OnceLock<Map> = OnceLock::new();
        MAP.get_or_init(|| Map::parse(include_str!("standard.map")).expect("standard.map reads"))
    }

    /// Reads a map file (the form of `standard.map`).
    pub fn parse(text: &str) -> Result<Map, String> {
        let mut m = Map {
            powers: Vec::new(),
            provinces: Vec::new(),
            locs: Vec::new(),
            army: Vec::new(),
            fleet: Vec::new(),
            fleet_prov: Vec::new(),
            seas: 0,
            centres: 0,
            names: HashMap::default(),
            name_words: 1,
            start: Vec::new(),
            victory: 18,
            alpha_rank: Vec::new(),
            multi_first: Default::default(),
            sea_adj: Vec::new(),
            seas_near: Vec::new(),
        };
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(k, l)| (k + 1, l.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        // Powers and provinces first, so later lines may name any of them.
        for &(n, line) in &lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[0] {
                "power" if words.len() >= 3 => {
                    m.powers.push((words[1].to_string(), words[2..].join(" ")));
                }
                "province" if words.len() >= 5 => {
                    let terrain = match words[2] {
                        "land" => Terrain::Land,
                        "coast" => Terrain::Coast,
                        "sea" => Terrain::Sea,
                        t => return Err(format!("line {n}: unknown terrain {t}")),
                    };
                    let (centre, home) = match words[3] {
                        "-" => (false, None),
                        "sc" => (true, None),
                        p => (
                            true,
                            Some(
                                m.powers
                                    .iter()
                                    .position(|(id, _)| id == p)
                                    .ok_or(format!("line {n}: unknown power {p}"))?
                                    as u8,
                            ),
                        ),
                    };
                    m.provinces.push(Province {
                        id: words[1].to_string(),
                        name: words[4..].join(" "),
                        terrain,
                        centre,
                        home,
                        coasts: Vec::new(),
                    });
                }
                _ => {}
            }
        }
        if m.provinces.len() > 120 {
            return Err("more than 120 provinces".into());
        }
        for (k, p) in m.provinces.iter().enumerate() {
            m.locs.push(Location {
                prov: k as u8,
                coast: String::new(),
                id: p.id.clone(),
            });
            if p.terrain == Terrain::Sea {
                m.seas |= bit(k as u8);
            }
            if p.centre {
                m.centres |= bit(k as u8);
            }
        }
        for &(n, line) in &lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[0] == "coasts" {
                let p = m
                    .prov_by_id(words.get(1).copied().unwrap_or(""))
                    .ok_or(format!("line {n}: unknown province"))?;
                for c in &words[2..] {
                    let loc = m.locs.len() as u8;
                    m.locs.push(Location {
                        prov: p,
                        coast: c.to_string(),
                        id: format!("{}/{c}", m.provinces[p as usize].id),
                    });
                    m.provinces[p as usize].coasts.push(loc);
                }
            }
        }
        if m.locs.len() > 128 {
            return Err("more than 128 locations".into());
        }
        m.army = vec![0; m.provinces.len()];
        m.fleet = vec![0; m.locs.len()];
        m.fleet_prov = vec![0; m.locs.len()];
        for &(n, line) in &lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[0] {
                "army" | "fleet" => {
                    let from = words.get(1).map(|w| w.trim_end_matches(':')).unwrap_or("");
                    let to: Vec<&str> = words[2..].to_vec();
                    if words[0] == "army" {
                        let p = m
                            .prov_by_id(from)
                            .ok_or(format!("line {n}: unknown province {from}"))?;
                        for t in to {
                            let q = m
                                .prov_by_id(t)
                                .ok_or(format!("line {n}: unknown province {t}"))?;
                            m.army[p as usize] |= bit(q);
                        }
                    } else {
                        let l = m
                            .loc_by_id(from)
                            .ok_or(format!("line {n}: unknown location {from}"))?;
                        for t in to {
                            let q = m
                                .loc_by_id(t)
                                .ok_or(format!("line {n}: unknown location {t}"))?;
                            m.fleet[l as usize] |= bit(q);
                            m.fleet_prov[l as usize] |= bit(m.locs[q as usize].prov);
                        }
                    }
                }
                "alias" => {
                    let rest = line["alias".len()..].trim();
                    let (name, id) = rest
                        .split_once('=')
                        .ok_or(format!("line {n}: alias NAME = ID"))?;
                    let p = m
                        .prov_by_id(id.trim())
                        .ok_or(format!("line {n}: unknown province {}", id.trim()))?;
                    m.add_name(name, p);
                }
                "unit" if words.len() == 4 => {
                    let power = m
                        .power_by_id(words[1])
                        .ok_or(format!("line {n}: unknown power"))?;
                    let kind = match words[2] {
                        "A" => Kind::Army,
                        "F" => Kind::Fleet,
                        _ => return Err(format!("line {n}: A or F")),
                    };
                    let loc = m
                        .loc_by_id(words[3])
                        .ok_or(format!("line {n}: unknown location"))?;
                    m.start.push((power, kind, loc));
                }
                "victory" => {
                    m.victory = words
                        .get(1)
                        .and_then(|w| w.parse().ok())
                        .ok_or(format!("line {n}: victory N"))?;
                }
                "power" | "province" | "coasts" => {}
                w => return Err(format!("line {n}: unknown line kind {w}")),
            }
        }
        for k in 0..m.provinces.len() {
            let (id, name) = (m.provinces[k].id.clone(), m.provinces[k].name.clone());
            m.add_name(&id, k as u8);
            m.add_name(&name, k as u8);
        }
        let mut order: Vec<usize> = (0..m.provinces.len()).collect();
        order.sort_by(|&a, &b| m.provinces[a].name.cmp(&m.provinces[b].name));
        m.alpha_rank = vec![0; m.provinces.len()];
        for (rank, &p) in order.iter().enumerate() {
            m.alpha_rank[p] = rank as u8;
        }
        m.multi_first = m
            .names
            .keys()
            .filter(|k| k.contains(' '))
            .map(|k| k.split(' ').next().unwrap_or("").to_string())
            .collect();
        m.sea_adj = (0..m.provinces.len())
            .map(|p| m.fleet_prov[p] & m.seas)
            .collect();
        m.seas_near = (0..m.provinces.len() as u8)
            .map(|p| m.seas_around(p))
            .collect();
        Ok(m)
    }

    fn add_name(&mut self, name: &str, p: Prov) {
        let key = normal_name(name);
        self.name_words = self.name_words.max(key.split(' ').count());
        self.names.insert(key, p);
    }

    pub fn prov_by_id(&self, id: &str) -> Option<Prov> {
        self.provinces
            .iter()
            .position(|p| p.id.eq_ignore_ascii_case(id))
            .map(|k| k as Prov)
    }

    /// A location by its id: `vie`, `stp/nc` (also `stp(nc)`), case-insensitive.
    pub fn loc_by_id(&self, id: &str) -> Option<Loc> {
        let id = id.to_ascii_lowercase().replace('(', "/").replace(')', "");
        self.locs.iter().position(|l| l.id == id).map(|k| k as Loc)
    }

    pub fn power_by_id(&self, id: &str) -> Option<u8> {
        self.powers
            .iter()
            .position(|(p, name)| p.eq_ignore_ascii_case(id) || name.eq_ignore_ascii_case(id))
            .map(|k| k as u8)
    }

    pub fn power_id(&self, p: u8) -> &str {
        &self.powers[p as usize].0
    }

    pub fn prov_of(&self, loc: Loc) -> Prov {
        self.locs[loc as usize].prov
    }

    pub fn loc_id(&self, loc: Loc) -> &str {
        &self.locs[loc as usize].id
    }

    pub fn prov_id(&self, p: Prov) -> &str {
        &self.provinces[p as usize].id
    }

    pub fn terrain(&self, p: Prov) -> Terrain {
        self.provinces[p as usize].terrain
    }

    /// The coast of a location (`nc`), or "" for a province itself.
    pub fn coast_of(&self, loc: Loc) -> &str {
        &self.locs[loc as usize].coast
    }

    /// The location with that coast in that province.
    pub fn coast_loc(&self, p: Prov, coast: &str) -> Option<Loc> {
        self.provinces[p as usize]
            .coasts
            .iter()
            .copied()
            .find(|&l| self.locs[l as usize].coast == coast)
    }

    /// Whether a unit of this kind can stand at this location.
    pub fn can_stand(&self, kind: Kind, loc: Loc) -> bool {
        let l = &self.locs[loc as usize];
        let p = &self.provinces[l.prov as usize];
        match kind {
            Kind::Army => p.terrain != Terrain::Sea && l.coast.is_empty(),
            Kind::Fleet => {
                p.terrain != Terrain::Land && (p.coasts.is_empty() == l.coast.is_empty())
            }
        }
    }

    /// The provinces a unit of this kind at this location borders.
    pub fn reach(&self, kind: Kind, loc: Loc) -> u128 {
        match kind {
            Kind::Army => self.army[self.prov_of(loc) as usize],
            Kind::Fleet => self.fleet_prov[loc as usize],
        }
    }

    /// Whether a fleet can stand on (some coast of) province p.
    pub fn fleet_can_enter(&self, p: Prov) -> bool {
        self.provinces[p as usize].terrain != Terrain::Land
    }

    pub fn is_sea(&self, p: Prov) -> bool {
        self.seas & bit(p) != 0
    }

    pub fn is_centre(&self, p: Prov) -> bool {
        self.centres & bit(p) != 0
    }

    /// The sea provinces bordering province p (by fleet borders of any of its
    /// locations).
    pub fn seas_around(&self, p: Prov) -> u128 {
        let mut set = self.fleet_prov[p as usize];
        for &c in &self.provinces[p as usize].coasts {
            set |= self.fleet_prov[c as usize];
        }
        set & self.seas
    }

    /// Every province bordering p by army or fleet borders (for distances).
    pub fn any_border(&self, p: Prov) -> u128 {
        let mut set = self.army[p as usize] | self.fleet_prov[p as usize];
        for &c in &self.provinces[p as usize].coasts {
            set |= self.fleet_prov[c as usize];
        }
        set
    }

    /// Fleet borders of a province over all of its coasts, as provinces.
    pub fn fleet_border_any_coast(&self, p: Prov) -> u128 {
        let mut set = self.fleet_prov[p as usize];
        for &c in &self.provinces[p as usize].coasts {
            set |= self.fleet_prov[c as usize];
        }
        set
    }

    pub fn home_centres(&self, power: u8) -> impl Iterator<Item = Prov> + '_ {
        self.provinces
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.home == Some(power))
            .map(|(k, _)| k as Prov)
    }
}

/// A name as the table keeps it: lower case, `.` and `-` as spaces, one space between
/// words.
pub fn normal_name(name: &str) -> String {
    name.to_ascii_lowercase()
        .replace(['-', '.', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_map_has_75_provinces_34_centres_and_symmetric_borders() {
        let m = Map::standard();
        assert_eq!(m.provinces.len(), 75);
        assert_eq!(m.centres.count_ones(), 34);
        assert_eq!(m.seas.count_ones(), 19);
        assert_eq!(m.locs.len(), 81);
        assert_eq!(m.start.len(), 22);
        for p in 0..75u8 {
            for q in bits(m.army[p as usize]) {
                assert!(
                    m.army[q as usize] & bit(p) != 0,
                    "{} {}",
                    m.prov_id(p),
                    m.prov_id(q)
                );
                assert_ne!(m.terrain(q), Terrain::Sea);
                assert_ne!(m.terrain(p), Terrain::Sea);
            }
        }
        for l in 0..m.locs.len() as u8 {
            for k in bits(m.fleet[l as usize]) {
                assert!(
                    m.fleet[k as usize] & bit(l) != 0,
                    "{} {}",
                    m.loc_id(l),
                    m.loc_id(k)
                );
                assert!(m.can_stand(Kind::Fleet, k), "{}", m.loc_id(k));
            }
            if m.fleet[l as usize] != 0 {
                assert!(m.can_stand(Kind::Fleet, l), "{}", m.loc_id(l));
            }
        }
        for (k, p) in m.provinces.iter().enumerate() {
            let k = k as u8;
            match p.terrain {
                Terrain::Land => assert_eq!(m.fleet[k as usize], 0),
                Terrain::Sea => assert_eq!(m.army[k as usize], 0),
                Terrain::Coast => {
                    assert!(m.army[k as usize] != 0);
                    assert!(m.fleet_border_any_coast(k) != 0, "{}", p.id);
                }
            }
        }
        for (power, kind, loc) in &m.start {
            assert!(m.can_stand(*kind, *loc));
            assert_eq!(m.provinces[m.prov_of(*loc) as usize].home, Some(*power));
        }
    }
}
