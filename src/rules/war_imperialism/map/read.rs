//! A map file read and checked (W1.1–W1.3, W1.6): its TOML shape, then every id,
//! reference and adjacency, each fault told in one line.

use std::collections::HashMap;

use serde::Deserialize;

use super::names::{norm, RESERVED};
use super::{Chit, Link, LinkKind, Map, Marker, Place, RegionDef, SeaDef};

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
}
