//! The standard map's counts and names as players write them.

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
    assert_eq!(m.find("Sou"), None);
}
