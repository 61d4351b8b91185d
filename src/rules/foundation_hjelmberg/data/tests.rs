use super::*;

#[test]
fn h1_6_the_standard_data_file_reads() {
    let d = standard();
    assert_eq!(d.colours.len(), 11);
    assert_eq!(d.gates.len(), 24);
    assert_eq!(d.planets.len(), 19);
    assert_eq!(d.planets[0], "O1");
    assert_eq!(d.planets[11], "O12");
    assert_eq!(d.planets[12], "M1");
    assert_eq!(d.planets[18], "CORE");
    assert_eq!(d.tiles.iter().map(|t| u32::from(t.copies)).sum::<u32>(), 33);
    assert_eq!(d.goals.len(), 9);
}

#[test]
fn h2_2_distances_follow_rings_and_spokes() {
    let d = standard();
    let g = |n: &str| d.gate(n).unwrap();
    assert_eq!(d.distance(g("A1"), g("A2")), 1);
    assert_eq!(d.distance(g("A1"), g("B1")), 2);
    assert_eq!(d.distance(g("A1"), g("C1")), 3);
    assert_eq!(d.distance(g("A1"), g("A12")), 1);
    assert_eq!(d.gate_name(d.opposite[usize::from(g("A1"))]), "A7");
    assert_eq!(d.gate_name(d.opposite[usize::from(g("B2"))]), "B5");
    assert_eq!(d.gate_name(d.clockwise[usize::from(g("A12"))]), "A1");
    assert_eq!(d.gate_name(d.clockwise[usize::from(g("C6"))]), "C1");
}

#[test]
fn h2_7_the_dynasty_ring_has_trade_between_travel_and_research() {
    let d = standard();
    assert_eq!(d.right[Action::Trade.index()], Action::Research);
    assert_eq!(d.left[Action::Trade.index()], Action::Travel);
    assert_eq!(d.right[Action::Battle.index()], Action::Travel);
}

#[test]
fn a_damaged_data_file_is_an_error_not_a_panic() {
    let bad = STANDARD_TEXT.replace("\"A12\"]  # outer ring", "\"A13\"]  # outer ring");
    assert!(Data::parse(&bad).is_err());
    let bad = STANDARD_TEXT.replace("id = \"warp\"", "id = \"teleport\"");
    assert!(Data::parse(&bad).unwrap_err().contains("teleport"));
    assert!(Data::parse("x = 1").is_err());
}
