//! War! Age of Imperialism beyond single scenario files: rule coverage against the
//! rules page and the W11 charts. A new game's setup, the phases of a turn, dice and
//! what players see are in `war_turns`; the command line and the shipped files in
//! `war_cli`; battles as the mails tell them in `war_battle`.

use std::path::Path;

use crate::coverage::{numbered_rules, test_names};

/// The numbered rules of `../shared/rules/war-age-of-imperialism.md`.
const WAR_RULES: &[&str] = &[
    "W1.1", "W1.2", "W1.3", "W1.4", "W1.5", "W1.6", "W1.7", "W2.1", "W2.2", "W2.3", "W2.4", "W3.1",
    "W3.2", "W3.3", "W4.1", "W4.2", "W4.3", "W4.4", "W4.5", "W4.6", "W4.7", "W4.8", "W4.9", "W5.1",
    "W5.2", "W5.3", "W5.4", "W5.5", "W5.6", "W5.7", "W5.8", "W5.9", "W6.1", "W6.2", "W6.3", "W6.4",
    "W6.5", "W6.6", "W6.7", "W6.8", "W6.9", "W7.1", "W7.2", "W7.3", "W8.1", "W9.1", "W10.1",
    "W10.2", "W10.3",
];

/// Every row (or item) of the W11 charts, and a test that exercises it.
const CHART_ROWS: &[(&str, &str)] = &[
    (
        "W11.1 3 players: 7 regions, 120 PP, 3 DP",
        "w11_1_three_players_draft_seven_regions_each",
    ),
    (
        "W11.1 4 players: 6 regions",
        "w11_1_four_players_draft_six_regions_each",
    ),
    (
        "W11.1 5 players: 5 regions",
        "w11_1_five_players_draft_five_regions_each",
    ),
    (
        "W11.1 6 players: 4 regions",
        "w11_1_six_players_draft_four_regions_each",
    ),
    ("W11.1 options", "w3_2_setup_points_after_the_draft"),
    ("W11.2 INF", "w4_7_unit_limits_and_where_units_are_built"),
    ("W11.2 CAV", "w4_7_unit_limits_and_where_units_are_built"),
    (
        "W11.2 ART",
        "w11_2_artillery_and_generals_where_factory_and_school_stand",
    ),
    (
        "W11.2 GEN",
        "w11_2_artillery_and_generals_where_factory_and_school_stand",
    ),
    ("W11.2 EXP", "w4_7_unit_limits_and_where_units_are_built"),
    ("W11.2 ENG", "w4_7_unit_limits_and_where_units_are_built"),
    ("W11.2 FLT", "w4_7_a_fleet_at_a_port_once_a_phase"),
    ("W11.2 MP", "w11_2_movement_points_by_kind"),
    ("W11.2 FLT MP", "w5_5_fleets_have_four_mp"),
    ("W11.2 portage", "w5_4_a_fleet_carries_eight_portage_points"),
    (
        "W11.2 maintenance",
        "w4_3_unpaid_units_are_removed_cheapest_first",
    ),
    (
        "W11.3 region with a native marker",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    (
        "W11.3 westernized region",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    (
        "W11.3 developed resource",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    (
        "W11.3 city",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    (
        "W11.3 factory",
        "w4_2_income_of_regions_buildings_and_resources",
    ),
    ("W11.3 port", "w4_2_a_trade_path_may_end_at_a_friendly_port"),
    ("W11.3 railroad", "w5_2_leaving_an_own_railroad_costs_no_mp"),
    (
        "W11.3 fort",
        "w6_3_a_fort_below_zero_gives_the_defender_its_drm",
    ),
    ("W11.3 school", "w6_2_every_brigade_rolls_hits_by_band"),
    ("W11.3 suez", "w4_8_the_suez_canal_once_per_game"),
    (
        "W11.3 one of city/factory/port/railroad",
        "w4_7_a_school_needs_a_city_not_built_this_phase",
    ),
    (
        "W11.3 no income in revolt",
        "w4_7_nothing_is_built_in_a_region_in_revolt",
    ),
    (
        "W11.4 hits 0, 1, 2",
        "w6_2_every_brigade_rolls_hits_by_band",
    ),
    ("W11.4 general +1", "w6_2_every_brigade_rolls_hits_by_band"),
    ("W11.4 schools", "w6_2_every_brigade_rolls_hits_by_band"),
    (
        "W11.4 fort -2",
        "w6_3_a_fort_below_zero_gives_the_defender_its_drm",
    ),
    (
        "W11.4 CAV +1, ART +2",
        "w6_2_every_brigade_rolls_hits_by_band",
    ),
    (
        "W11.4 landed -2, -1",
        "w5_5_landed_units_fight_at_minus_two_then_minus_one",
    ),
    (
        "W11.4 landed CAV and ART keep +1, +2",
        "w11_4_landed_cavalry_and_artillery_keep_their_own_drm",
    ),
    (
        "W11.4 landed defenders",
        "w11_4_a_defenders_brigades_landed_this_phase_fight_at_minus_two_too",
    ),
    ("W11.4 naval 5+", "w5_6_equal_intercepts_a_group_no_larger"),
    ("W11.4 naval port +1", "w6_8_a_port_on_the_sea_adds_one"),
    ("W11.5 colony", "w7_1_a_parley_may_found_a_colony"),
    ("W11.5 sphere", "w7_1_a_sphere_below_the_cap_is_placed"),
    ("W11.5 nothing", "w7_1_nothing_or_the_explorer_killed"),
    (
        "W11.5 explorer killed",
        "w7_1_nothing_or_the_explorer_killed",
    ),
    (
        "W11.6 remove another's sphere",
        "w4_5_spheres_removed_by_the_controller_and_by_their_owners",
    ),
    (
        "W11.6 remove own sphere",
        "w4_5_spheres_removed_by_the_controller_and_by_their_owners",
    ),
    (
        "W11.6 westernize",
        "w4_5_westernize_then_automatic_westernizing",
    ),
    (
        "W11.6 automatic",
        "w4_5_westernize_then_automatic_westernizing",
    ),
    (
        "W11.6 incite",
        "w4_5_incite_with_a_sphere_needs_no_neighbour",
    ),
    (
        "W11.6 bribe",
        "w4_5_incite_bribe_and_one_attempt_per_region",
    ),
    ("W11.6 each sphere", "w4_6_postures_decide_a_spheres_drm"),
    ("W11.7 every item", "w11_7_victory_points_by_item"),
    (
        "W11.7 zone tie",
        "w8_1_ties_go_to_most_regions_then_most_pp",
    ),
    ("W11.8 buy DP", "w4_4_gifts_of_pp_and_dp_bought"),
    (
        "W11.8 declare war",
        "w7_3_the_declarer_attacks_from_his_next_phase",
    ),
    ("W11.8 parley third die", "w7_1_a_parley_may_found_a_colony"),
    (
        "W11.8 prospect",
        "w7_2_prospecting_draws_by_schools_and_keeps_the_best",
    ),
    (
        "W11.8 develop",
        "w4_7_an_engineer_takes_the_first_project_at_two_thirds",
    ),
    ("W11.8 suez", "w4_8_the_suez_canal_once_per_game"),
    ("W11.8 gifts", "w4_4_gifts_of_pp_and_dp_bought"),
    ("W11.8 peace", "w4_1_peace_needs_both_players"),
];

#[test]
fn every_war_rule_has_a_test() {
    let names = test_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    let missing: Vec<&str> = WAR_RULES
        .iter()
        .copied()
        .filter(|rule| {
            let prefix = format!("{}_", rule.to_lowercase().replace('.', "_"));
            !names.iter().any(|n| n.starts_with(&prefix))
        })
        .collect();
    assert!(missing.is_empty(), "rules without a test: {missing:?}");
}

/// The list above is the rules page's list, when the page is beside the project.
#[test]
fn war_rule_list_matches_the_rules_of_record() {
    let Some(mut numbered) = numbered_rules("war-age-of-imperialism.md", 'W') else {
        return;
    };
    numbered.dedup();
    let mut ours: Vec<String> = WAR_RULES.iter().map(|s| s.to_string()).collect();
    ours.sort();
    assert_eq!(numbered, ours);
}

#[test]
fn every_w11_chart_row_is_exercised_by_a_test() {
    let names = test_names(Path::new(env!("CARGO_MANIFEST_DIR")));
    let missing: Vec<&str> = CHART_ROWS
        .iter()
        .filter(|(_, test)| !names.iter().any(|n| n == test))
        .map(|(row, _)| *row)
        .collect();
    assert!(
        missing.is_empty(),
        "chart rows without their test: {missing:?}"
    );
    for section in [
        "W11.1", "W11.2", "W11.3", "W11.4", "W11.5", "W11.6", "W11.7", "W11.8",
    ] {
        assert!(
            CHART_ROWS.iter().any(|(row, _)| row.starts_with(section)),
            "{section}"
        );
    }
}

/// What a production receipt says under the orders (`Play::receipt_notes`): the PP and
/// DP the player holds now, and that income and maintenance come before anything the
/// orders spend; nothing in other phases, nothing for a name that is no player.
#[test]
fn a_production_receipt_tells_what_the_player_holds_and_what_comes_first() {
    use pbem::rules::game::Play;
    use pbem::rules::war_imperialism::scenario::Scenario;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/war-imperialism");
    let base = std::fs::read_to_string(dir.join("_base.toml")).unwrap();
    let production = base.replace("phase = \"movement\"", "phase = \"production\"");
    let s = Scenario::from_toml(&production, &dir).unwrap().state;
    let notes = s.receipt_notes("red", "BUILD 1 INF Egypt").join("\n");
    assert!(
        notes.starts_with("You hold 100 PP and 5 DP now."),
        "{notes}"
    );
    assert!(
        notes.contains("income comes first, then maintenance"),
        "{notes}"
    );
    assert!(s.receipt_notes("nobody", "").is_empty());
    let movement = Scenario::from_toml(&base, &dir).unwrap().state;
    assert!(movement.receipt_notes("red", "").is_empty());
}
