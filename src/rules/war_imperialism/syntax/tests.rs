//! Order lines read: what is an order at all, canonical echoes, bad words named.

use super::*;
use crate::rules::war_imperialism::map::Map;

fn players() -> Vec<String> {
    vec!["blue".into(), "red".into()]
}

#[test]
fn a_line_is_an_order_attempt_exactly_when_parse_knows_its_first_word() {
    let map = Map::standard();
    let ids = players();
    for w in ORDER_WORDS {
        for line in [
            w.to_string(),
            w.to_lowercase(),
            format!("{w} something odd"),
        ] {
            assert!(is_order_attempt(&line), "{line}");
            let e = parse(&line, &map, &ids).err().unwrap_or_default();
            assert!(!e.starts_with("unknown order"), "{line}: {e}");
        }
    }
    for line in [
        "Hello neighbours, shall we share Africa?",
        "Thanks for the game",
        "Britain - France",
        "INF Egypt - Levant",
        "-- Cecil",
    ] {
        assert!(!is_order_attempt(line), "{line}");
        let e = parse(line, &map, &ids).unwrap_err();
        assert!(e.starts_with("unknown order"), "{line}: {e}");
    }
}

fn round_trip(line: &str) -> String {
    let m = Map::standard();
    let o = parse(line, &m, &players()).unwrap_or_else(|e| panic!("{line}: {e}"));
    let text = o.text(&m, &players());
    assert_eq!(parse(&text, &m, &players()).unwrap(), o, "{text}");
    text
}

#[test]
fn w2_4_orders_read_in_any_case_and_echo_canonically() {
    assert_eq!(
        round_trip("move 2 infantry gen egypt -> libya"),
        "MOVE 2 INF GEN Egypt - Libya"
    );
    assert_eq!(
        round_trip("MOVE INF Low Countries - France"),
        "MOVE INF LowCountries - France"
    );
    assert_eq!(
        round_trip(
            "sail 2 fleets E Med - load 2 inf egypt - western med - land all algeria - attack red"
        ),
        "SAIL 2 FLT EasternMed - LOAD 2 INF Egypt - WesternMed - LAND ALL Algeria - ATTACK red"
    );
    assert_eq!(
        round_trip("battle libya rounds 2 retreat egypt target art transfer all"),
        "BATTLE Libya ROUNDS 2 RETREAT Egypt TARGET ART TRANSFER ALL"
    );
    assert_eq!(round_trip("build 2 cav britain"), "BUILD 2 CAV Britain");
    assert_eq!(
        round_trip("build fleet north sea at britain"),
        "BUILD FLT NorthSea AT Britain"
    );
    assert_eq!(
        round_trip("Build Railroad Germany"),
        "BUILD railroad Germany"
    );
    assert_eq!(round_trip("BUILD suez Egypt"), "BUILD suez Egypt");
    assert_eq!(round_trip("give 10 pp to Red"), "GIVE 10 PP TO red");
    assert_eq!(
        round_trip("reinforce egypt from levant with 2 inf art"),
        "REINFORCE Egypt FROM Levant WITH 2 INF ART"
    );
    assert_eq!(round_trip("intercept all never"), "INTERCEPT ALL NEVER");
    assert_eq!(round_trip("declare war on red"), "DECLARE WAR red");
    assert_eq!(
        round_trip("PICK Britain, France Low Countries"),
        "PICK Britain France LowCountries"
    );
    assert_eq!(
        round_trip("incite egypt sphere bribe"),
        "INCITE Egypt BRIBE SPHERE"
    );
    assert_eq!(
        round_trip("disband 2 flt inf north sea"),
        "DISBAND INF 2 FLT NorthSea"
    );
}

#[test]
fn w2_4_bad_words_are_named() {
    let m = Map::standard();
    let e = |l: &str| parse(l, &m, &players()).unwrap_err();
    assert_eq!(e("MOVE INF Britian - France"), "unknown region \"Britian\"");
    assert_eq!(e("GIVE 5 PP TO green"), "unknown player \"green\"");
    assert_eq!(e("FROB Egypt"), "unknown order \"FROB\"");
    assert_eq!(e("MOVE 2 TANK Egypt - Libya"), "unknown unit kind \"TANK\"");
    assert!(e("BUILD FLT Egypt").contains("not a sea area"));
}

#[test]
fn w2_4_an_ambiguous_beginning_is_told_with_its_candidates() {
    let m = Map::standard();
    let e = |l: &str| parse(l, &m, &players()).unwrap_err();
    assert_eq!(
        e("MOVE INF Sou - Egypt"),
        "\"Sou\" is ambiguous: it could be SouthAfrica, SouthChina, SouthAtlantic, SouthChinaSea, SouthernOcean or SouthPacific"
    );
    assert_eq!(
        e("BATTLE Egypt RETREAT West"),
        "\"West\" is ambiguous: it could be WestAfrica, WestSiberia, WestAustralia, WesternMed or WestIndian"
    );
    // Unknown stays unknown; an unambiguous beginning is read.
    assert_eq!(e("MOVE INF Britian - France"), "unknown region \"Britian\"");
    assert_eq!(
        round_trip("MOVE INF Meso - Persia"),
        "MOVE INF Mesopotamia - Persia"
    );
}
