//! The counters printed on the map (W1.5): native markers and resource chits, read
//! from and written as their text (`"7++"`, `"gold:4"`).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
