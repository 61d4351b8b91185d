//! The map as data (W1.1–W1.3, W1.5–W1.6): regions, sea areas, the conditional sea
//! links and the two pools, read from a TOML file. The standard map is compiled in
//! (`standard-map.toml`, a copy of the rules' map file); a scenario may name another.
//!
//! Places are found by name the way players write them ([`Map::find`]): the id or the
//! name in any case, with or without spaces and punctuation, a few common spellings of
//! the standard map (`Turkey` for Ottoman, `E Med` for EasternMed), or any unambiguous
//! beginning of at least three letters (`Scand`, `Meso`).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The standard map's file, as published with the rules.
pub const STANDARD: &str = include_str!("standard-map.toml");

/// A region or a sea area, by index into the map's lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Region(usize),
    Sea(usize),
}

/// A native marker (W1.5): strength and mark (0, 1 or 2 pluses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marker {
    pub ns: u32,
    pub plus: u8,
}

impl Marker {
    pub fn parse(text: &str) -> Option<Marker> {
        let t = text.trim();
        let digits = t.trim_end_matches('+');
        let plus = t.len() - digits.len();
        if plus > 2 || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let ns: u32 = digits.parse().ok()?;
        (1..=99).contains(&ns).then_some(Marker {
            ns,
            plus: plus as u8,
        })
    }
}

impl fmt::Display for Marker {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", self.ns, "+".repeat(self.plus as usize))
    }
}

impl Serialize for Marker {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Marker {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Marker, D::Error> {
        let text = String::deserialize(d)?;
        Marker::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("bad native marker {text:?}")))
    }
}

/// A resource chit (W1.5): a dot, or a resource with its value in PP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chit {
    Dot,
    Resource { name: String, value: u32 },
}

impl Chit {
    pub fn parse(text: &str) -> Option<Chit> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("dot") {
            return Some(Chit::Dot);
        }
        let (name, value) = t.split_once(':')?;
        let value: u32 = value.trim().parse().ok()?;
        let name = name.trim();
        let good = !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && (1..=99).contains(&value);
        good.then(|| Chit::Resource {
            name: name.to_ascii_lowercase(),
            value,
        })
    }

    /// Its value in PP (a dot: 0).
    pub fn value(&self) -> u32 {
        match self {
            Chit::Dot => 0,
            Chit::Resource { value, .. } => *value,
        }
    }
}

impl fmt::Display for Chit {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Chit::Dot => f.write_str("dot"),
            Chit::Resource { name, value } => write!(f, "{name}:{value}"),
        }
    }
}

impl Serialize for Chit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Chit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Chit, D::Error> {
        let text = String::deserialize(d)?;
        Chit::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("bad chit {text:?}")))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// EasternMed–BlackSea: closed to a player at war with Ottoman's controller.
    Straits,
    /// EasternMed–RedSea: closed until the Suez Canal is built, then as the straits.
    Canal,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub kind: LinkKind,
    pub seas: (usize, usize),
    pub region: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RegionDef {
    pub id: String,
    pub name: String,
    pub zone: usize,
    pub land: Vec<usize>,
    pub sea: Vec<usize>,
    pub native: Marker,
    pub chit: Chit,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SeaDef {
    pub id: String,
    pub name: String,
    pub adjacent: Vec<usize>,
    pub trade: bool,
    /// The regions coastal to it, in map order.
    pub coast: Vec<usize>,
}

/// A map, read and checked.
#[derive(Debug)]
pub struct Map {
    pub name: String,
    pub zones: Vec<String>,
    pub zone_names: Vec<String>,
    pub regions: Vec<RegionDef>,
    pub seas: Vec<SeaDef>,
    pub links: Vec<Link>,
    pub pool_native: Vec<Marker>,
    pub pool_chits: Vec<Chit>,
    /// Regions sorted by id (case-insensitive): "id order".
    pub regions_by_id: Vec<usize>,
    /// Seas sorted by id.
    pub seas_by_id: Vec<usize>,
    /// The TOML text it was read from (stored with a game that does not use the
    /// standard map).
    source: String,
    /// Normalised names (ids, names, common spellings) to places.
    names: HashMap<String, Place>,
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.source == other.source
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    name: String,
    zones: Vec<String>,
    #[serde(default)]
    zone_names: HashMap<String, String>,
    #[serde(default)]
    region: Vec<RegionFile>,
    #[serde(default)]
    sea: Vec<SeaFile>,
    #[serde(default)]
    link: Vec<LinkFile>,
    pools: PoolsFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegionFile {
    id: String,
    name: Option<String>,
    zone: String,
    #[serde(default)]
    land: Vec<String>,
    #[serde(default)]
    sea: Vec<String>,
    native: String,
    chit: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeaFile {
    id: String,
    name: Option<String>,
    #[serde(default)]
    adjacent: Vec<String>,
    #[serde(default)]
    trade: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkFile {
    kind: String,
    seas: Vec<String>,
    region: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoolsFile {
    #[serde(default)]
    native: Vec<String>,
    #[serde(default)]
    chits: Vec<String>,
}

/// A name as compared: lower case, letters and digits only.
pub fn norm(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Words that are never place names (order keywords).
const RESERVED: &[&str] = &["all", "natives", "none"];

/// Common spellings of the standard map's places (W1.1: "region names with common
/// spellings and abbreviations"), used when the id is on the map.
const ALIASES: &[(&str, &[&str])] = &[
    (
        "Britain",
        &[
            "greatbritain",
            "england",
            "uk",
            "unitedkingdom",
            "gb",
            "brit",
        ],
    ),
    ("Scandinavia", &["sweden", "norway", "scan"]),
    (
        "LowCountries",
        &[
            "netherlands",
            "holland",
            "belgium",
            "benelux",
            "lowlands",
            "lc",
        ],
    ),
    ("Germany", &["prussia", "ger"]),
    ("Austria", &["austriahungary", "hungary", "ah"]),
    ("Balkans", &["balkan", "serbia"]),
    ("Ukraine", &["ukr"]),
    (
        "Ottoman",
        &["turkey", "ottomanempire", "anatolia", "otto", "ott"],
    ),
    ("Levant", &["syria", "palestine"]),
    ("Mesopotamia", &["iraq", "meso"]),
    ("Persia", &["iran"]),
    ("WestAfrica", &["wafrica", "senegal"]),
    ("GoldCoast", &["ghana"]),
    ("Ethiopia", &["abyssinia"]),
    ("EastAfrica", &["eafrica", "kenya"]),
    ("Rhodesia", &["zimbabwe"]),
    ("SouthAfrica", &["safrica", "capecolony"]),
    ("WestSiberia", &["wsiberia"]),
    ("Steppes", &["steppe", "kazakhstan"]),
    ("Turkestan", &["turkistan"]),
    ("Afghanistan", &["afghan"]),
    ("Baluchistan", &["balochistan"]),
    ("Hindustan", &["india"]),
    ("Ceylon", &["srilanka"]),
    ("EastSiberia", &["esiberia"]),
    ("Sinkiang", &["xinjiang"]),
    ("NorthChina", &["nchina"]),
    ("CentralChina", &["cchina"]),
    ("SouthChina", &["schina"]),
    ("Formosa", &["taiwan"]),
    ("Burma", &["myanmar"]),
    ("Siam", &["thailand"]),
    ("Indochina", &["vietnam"]),
    ("Malaya", &["malaysia"]),
    ("Philippines", &["philippine"]),
    ("NewGuinea", &["papua", "nguinea"]),
    ("WestAustralia", &["waustralia", "westernaustralia"]),
    ("EastAustralia", &["eaustralia", "easternaustralia"]),
    ("NewZealand", &["nz"]),
    ("NorthAtlantic", &["natlantic", "natl"]),
    ("BalticSea", &["baltic"]),
    ("BayOfBiscay", &["biscay"]),
    ("CentralAtlantic", &["catlantic", "midatlantic", "catl"]),
    ("WesternMed", &["westmed", "wmed", "westernmediterranean"]),
    ("EasternMed", &["eastmed", "emed", "easternmediterranean"]),
    ("BlackSea", &["black"]),
    ("GulfOfGuinea", &["gulfguinea"]),
    ("SouthAtlantic", &["satlantic", "satl"]),
    ("CapeSea", &["cape", "capeofgoodhope"]),
    ("WestIndian", &["westindianocean", "westernindian", "wio"]),
    ("SouthChinaSea", &["scs"]),
    ("EastChinaSea", &["ecs"]),
    ("SeaOfJapan", &["japansea"]),
    ("NorthPacific", &["npacific"]),
    ("SouthPacific", &["spacific"]),
];

/// A map error, with the map file's name given by the caller.
fn word(id: &str) -> Result<(), String> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!("id {id:?} is not one word of letters and digits"));
    }
    if RESERVED.contains(&id.to_ascii_lowercase().as_str()) {
        return Err(format!("id {id:?} is a reserved word"));
    }
    Ok(())
}

impl Map {
    /// The standard map, read once.
    pub fn standard() -> Arc<Map> {
        static M: OnceLock<Arc<Map>> = OnceLock::new();
        M.get_or_init(|| Arc::new(Map::from_toml(STANDARD).expect("the standard map is valid")))
            .clone()
    }

    /// Whether this is the standard map.
    pub fn is_standard(&self) -> bool {
        self.source == STANDARD
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Reads and checks a map file's text. The error is one line.
    pub fn from_toml(text: &str) -> Result<Map, String> {
        let file: MapFile =
            toml::from_str(text).map_err(|e| crate::toml_text::one_line(&e, text))?;
        if file.zones.is_empty() {
            return Err("no zones".into());
        }
        let mut zones = Vec::new();
        for z in &file.zones {
            if z.is_empty() || z.contains(char::is_whitespace) {
                return Err(format!("zone id {z:?} is not one word"));
            }
            if zones.contains(&z.to_ascii_lowercase()) {
                return Err(format!("zone {z} is listed twice"));
            }
            zones.push(z.to_ascii_lowercase());
        }
        for z in file.zone_names.keys() {
            if !zones.contains(&z.to_ascii_lowercase()) {
                return Err(format!("zone_names: unknown zone {z:?}"));
            }
        }
        let zone_names = file
            .zones
            .iter()
            .map(|z| file.zone_names.get(z).cloned().unwrap_or_else(|| z.clone()))
            .collect();
        if file.region.is_empty() {
            return Err("no regions".into());
        }
        let mut ids: HashMap<String, Place> = HashMap::new();
        for (k, r) in file.region.iter().enumerate() {
            word(&r.id).map_err(|e| format!("region {k}: {e}"))?;
            if ids.insert(norm(&r.id), Place::Region(k)).is_some() {
                return Err(format!("id {} is used twice", r.id));
            }
        }
        for (k, s) in file.sea.iter().enumerate() {
            word(&s.id).map_err(|e| format!("sea {k}: {e}"))?;
            if ids.insert(norm(&s.id), Place::Sea(k)).is_some() {
                return Err(format!("id {} is used twice", s.id));
            }
        }
        let region_ref = |from: &str, id: &str| match ids.get(&norm(id)) {
            Some(Place::Region(k)) if id.chars().all(|c| c.is_ascii_alphanumeric()) => Ok(*k),
            _ => Err(format!("{from}: unknown region {id:?}")),
        };
        let sea_ref = |from: &str, id: &str| match ids.get(&norm(id)) {
            Some(Place::Sea(k)) if id.chars().all(|c| c.is_ascii_alphanumeric()) => Ok(*k),
            _ => Err(format!("{from}: unknown sea {id:?}")),
        };
        let mut regions = Vec::new();
        for r in &file.region {
            let zone = zones
                .iter()
                .position(|z| z.eq_ignore_ascii_case(&r.zone))
                .ok_or_else(|| format!("region {}: unknown zone {:?}", r.id, r.zone))?;
            let mut land = Vec::new();
            for a in &r.land {
                let k = region_ref(&format!("region {}", r.id), a)?;
                if land.contains(&k) || file.region[k].id == r.id {
                    return Err(format!("region {}: land {a} listed twice or itself", r.id));
                }
                land.push(k);
            }
            let mut sea = Vec::new();
            for a in &r.sea {
                let k = sea_ref(&format!("region {}", r.id), a)?;
                if sea.contains(&k) {
                    return Err(format!("region {}: sea {a} listed twice", r.id));
                }
                sea.push(k);
            }
            let native = Marker::parse(&r.native)
                .ok_or_else(|| format!("region {}: bad native marker {:?}", r.id, r.native))?;
            let chit = Chit::parse(&r.chit)
                .ok_or_else(|| format!("region {}: bad chit {:?}", r.id, r.chit))?;
            let name = r.name.clone().unwrap_or_else(|| r.id.clone());
            regions.push(RegionDef {
                id: r.id.clone(),
                name,
                zone,
                land,
                sea,
                native,
                chit,
            });
        }
        let mut seas = Vec::new();
        for s in &file.sea {
            let mut adjacent = Vec::new();
            for a in &s.adjacent {
                let k = sea_ref(&format!("sea {}", s.id), a)?;
                if adjacent.contains(&k) || file.sea[k].id == s.id {
                    return Err(format!("sea {}: {a} listed twice or itself", s.id));
                }
                adjacent.push(k);
            }
            seas.push(SeaDef {
                id: s.id.clone(),
                name: s.name.clone().unwrap_or_else(|| s.id.clone()),
                adjacent,
                trade: s.trade,
                coast: Vec::new(),
            });
        }
        // Adjacency is symmetric (W1.1).
        for (k, r) in regions.iter().enumerate() {
            for &a in &r.land {
                if !regions[a].land.contains(&k) {
                    return Err(format!(
                        "region {} lists {} as land-adjacent but not the reverse",
                        r.id, regions[a].id
                    ));
                }
            }
        }
        for (k, s) in seas.iter().enumerate() {
            for &a in &s.adjacent {
                if !seas[a].adjacent.contains(&k) {
                    return Err(format!(
                        "sea {} lists {} as adjacent but not the reverse",
                        s.id, seas[a].id
                    ));
                }
            }
        }
        for (k, r) in regions.iter().enumerate() {
            for &s in &r.sea {
                seas[s].coast.push(k);
            }
        }
        let mut links = Vec::new();
        for l in &file.link {
            let kind = match l.kind.to_ascii_lowercase().as_str() {
                "straits" => LinkKind::Straits,
                "canal" => LinkKind::Canal,
                other => return Err(format!("link: unknown kind {other:?} (straits or canal)")),
            };
            if l.seas.len() != 2 {
                return Err("link: `seas` names two sea areas".into());
            }
            let a = sea_ref("link", &l.seas[0])?;
            let b = sea_ref("link", &l.seas[1])?;
            if a == b || seas[a].adjacent.contains(&b) {
                return Err(format!(
                    "link {}-{}: the seas are the same or already adjacent",
                    seas[a].id, seas[b].id
                ));
            }
            let region = region_ref("link", &l.region)?;
            if kind == LinkKind::Canal && links.iter().any(|x: &Link| x.kind == LinkKind::Canal) {
                return Err("link: more than one canal".into());
            }
            links.push(Link {
                kind,
                seas: (a, b),
                region,
            });
        }
        let pool_native = file
            .pools
            .native
            .iter()
            .map(|m| Marker::parse(m).ok_or_else(|| format!("pools: bad native marker {m:?}")))
            .collect::<Result<_, _>>()?;
        let pool_chits = file
            .pools
            .chits
            .iter()
            .map(|c| Chit::parse(c).ok_or_else(|| format!("pools: bad chit {c:?}")))
            .collect::<Result<_, _>>()?;
        let mut regions_by_id: Vec<usize> = (0..regions.len()).collect();
        regions_by_id.sort_by_key(|&k| regions[k].id.to_ascii_lowercase());
        let mut seas_by_id: Vec<usize> = (0..seas.len()).collect();
        seas_by_id.sort_by_key(|&k| seas[k].id.to_ascii_lowercase());
        let mut map = Map {
            name: file.name,
            zones,
            zone_names,
            regions,
            seas,
            links,
            pool_native,
            pool_chits,
            regions_by_id,
            seas_by_id,
            source: text.to_string(),
            names: ids,
        };
        map.add_names();
        Ok(map)
    }

    /// Names beside the ids: each place's name, and the common spellings.
    fn add_names(&mut self) {
        let mut extra: Vec<(String, Place)> = Vec::new();
        for (k, r) in self.regions.iter().enumerate() {
            extra.push((norm(&r.name), Place::Region(k)));
        }
        for (k, s) in self.seas.iter().enumerate() {
            extra.push((norm(&s.name), Place::Sea(k)));
            // "Black Sea" / "Black": the sea's name without "sea".
            if let Some(short) = norm(&s.name).strip_suffix("sea") {
                if !short.is_empty() {
                    extra.push((short.to_string(), Place::Sea(k)));
                }
            }
        }
        for (id, aliases) in ALIASES {
            if let Some(&place) = self.names.get(&norm(id)) {
                for a in *aliases {
                    extra.push((a.to_string(), place));
                }
            }
        }
        for (name, place) in extra {
            if name.is_empty() || RESERVED.contains(&name.as_str()) {
                continue;
            }
            self.names.entry(name).or_insert(place);
        }
    }

    /// The place a player's word (or words, joined) means: an exact name or spelling,
    /// else the one place whose name begins so (at least three letters).
    pub fn find(&self, text: &str) -> Option<Place> {
        let key = norm(text);
        if key.is_empty() {
            return None;
        }
        if let Some(&p) = self.names.get(&key) {
            return Some(p);
        }
        if key.len() < 3 {
            return None;
        }
        let mut found: Option<Place> = None;
        for (name, &p) in &self.names {
            if name.starts_with(&key) {
                match found {
                    None => found = Some(p),
                    Some(q) if q == p => {}
                    Some(_) => return None,
                }
            }
        }
        found
    }

    pub fn region(&self, k: usize) -> &RegionDef {
        &self.regions[k]
    }

    pub fn sea(&self, k: usize) -> &SeaDef {
        &self.seas[k]
    }

    pub fn place_id(&self, p: Place) -> &str {
        match p {
            Place::Region(k) => &self.regions[k].id,
            Place::Sea(k) => &self.seas[k].id,
        }
    }

    /// The region or sea with this exact id (case-insensitive), as a scenario names it.
    pub fn by_id(&self, id: &str) -> Option<Place> {
        let key = norm(id);
        if key.len() != id.len() {
            return None;
        }
        self.regions
            .iter()
            .position(|r| r.id.eq_ignore_ascii_case(id))
            .map(Place::Region)
            .or_else(|| {
                self.seas
                    .iter()
                    .position(|s| s.id.eq_ignore_ascii_case(id))
                    .map(Place::Sea)
            })
    }

    pub fn land_adjacent(&self, a: usize, b: usize) -> bool {
        self.regions[a].land.contains(&b)
    }

    pub fn coastal(&self, region: usize, sea: usize) -> bool {
        self.regions[region].sea.contains(&sea)
    }

    /// The link between two seas, if any.
    pub fn link(&self, a: usize, b: usize) -> Option<&Link> {
        self.links
            .iter()
            .find(|l| l.seas == (a, b) || l.seas == (b, a))
    }

    /// The canal's region (Egypt on the standard map), if the map has a canal.
    pub fn canal_region(&self) -> Option<usize> {
        self.links
            .iter()
            .find(|l| l.kind == LinkKind::Canal)
            .map(|l| l.region)
    }
}

/// A map as a game holds it: shared, and stored as `"standard"` or as its whole text.
#[derive(Clone, Debug)]
pub struct MapHandle(pub Arc<Map>);

impl PartialEq for MapHandle {
    fn eq(&self, other: &MapHandle) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

impl std::ops::Deref for MapHandle {
    type Target = Map;
    fn deref(&self) -> &Map {
        &self.0
    }
}

impl Serialize for MapHandle {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0.is_standard() {
            s.serialize_str("standard")
        } else {
            s.serialize_str(self.0.source())
        }
    }
}

impl<'de> Deserialize<'de> for MapHandle {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MapHandle, D::Error> {
        let text = String::deserialize(d)?;
        if text == "standard" {
            return Ok(MapHandle(Map::standard()));
        }
        Map::from_toml(&text)
            .map(|m| MapHandle(Arc::new(m)))
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w1_1_the_standard_map_reads_with_its_counts() {
        let m = Map::standard();
        assert_eq!(m.regions.len(), 68);
        assert_eq!(m.seas.len(), 28);
        let count = |z: &str| {
            let k = m.zones.iter().position(|x| x == z).unwrap();
            m.regions.iter().filter(|r| r.zone == k).count()
        };
        assert_eq!(count("europe"), 12);
        assert_eq!(count("middle-east"), 10);
        assert_eq!(count("africa"), 13);
        assert_eq!(count("central-asia"), 11);
        assert_eq!(count("east-asia"), 10);
        assert_eq!(count("southeast-asia"), 12);
    }

    #[test]
    fn w1_1_names_as_players_write_them() {
        let m = Map::standard();
        let r = |id: &str| Some(m.by_id(id).unwrap());
        assert_eq!(m.find("britain"), r("Britain"));
        assert_eq!(m.find("Low Countries"), r("LowCountries"));
        assert_eq!(m.find("S. Africa"), r("SouthAfrica"));
        assert_eq!(m.find("Turkey"), r("Ottoman"));
        assert_eq!(m.find("E Med"), r("EasternMed"));
        assert_eq!(m.find("Black Sea"), r("BlackSea"));
        assert_eq!(m.find("Scand"), r("Scandinavia"));
        assert_eq!(m.find("Eastern Mediterranean"), r("EasternMed"));
        assert_eq!(m.find("Java"), r("Java"));
        assert_eq!(m.find("Britian"), None);
        assert_eq!(m.find("Ea"), None);
    }
}
