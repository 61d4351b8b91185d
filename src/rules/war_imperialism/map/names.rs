//! Places by name as players write them ([`Map::find`]): ids and names compared
//! without case, spaces or punctuation, the standard map's common spellings, and any
//! unambiguous beginning of at least three letters.

use super::{Map, Place};

/// A name as compared: lower case, letters and digits only.
pub fn norm(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Words that are never place names (order keywords).
pub(super) const RESERVED: &[&str] = &["all", "natives", "none"];

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

impl Map {
    /// Names beside the ids: each place's name, and the common spellings.
    pub(super) fn add_names(&mut self) {
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
        match self.candidates(text).as_slice() {
            [p] => Some(*p),
            _ => None,
        }
    }

    /// Every place a player's word (or words, joined) may mean, in map order (regions,
    /// then seas): the one named exactly, else those whose names begin so (at least
    /// three letters). Two or more: the word is ambiguous.
    pub fn candidates(&self, text: &str) -> Vec<Place> {
        let key = norm(text);
        if key.is_empty() {
            return Vec::new();
        }
        if let Some(&p) = self.names.get(&key) {
            return vec![p];
        }
        if key.len() < 3 {
            return Vec::new();
        }
        let mut found: Vec<Place> = self
            .names
            .iter()
            .filter(|(name, _)| name.starts_with(&key))
            .map(|(_, &p)| p)
            .collect();
        found.sort();
        found.dedup();
        found
    }
}
