//! The map as data (W1.1–W1.3, W1.5–W1.6): regions, sea areas, the conditional sea
//! links and the two pools, read from a TOML file. The standard map is compiled in
//! (`standard-map.toml`, a copy of the rules' map file); a scenario may name another.
//!
//! Places are found by name the way players write them ([`Map::find`]): the id or the
//! name in any case, with or without spaces and punctuation, a few common spellings of
//! the standard map (`Turkey` for Ottoman, `E Med` for EasternMed), or any unambiguous
//! beginning of at least three letters (`Scand`, `Meso`).

mod counters;
mod names;
mod read;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use counters::{Chit, Marker};
pub use names::norm;

/// The standard map's file, as published with the rules.
pub const STANDARD: &str = include_str!("../standard-map.toml");

/// A region or a sea area, by index into the map's lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    Region(usize),
    Sea(usize),
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
