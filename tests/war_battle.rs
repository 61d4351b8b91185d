//! War! battles as the results mails tell them: the order of a battle's lines among
//! the events.

use std::path::Path;

use pbem::rules::war_imperialism::{self as war};

/// The mail tells a battle and its rounds before what followed from it (the loser's
/// retreat).
#[test]
fn w6_6_the_mail_tells_a_battle_before_the_retreat_it_caused() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/cases/war-imperialism/w6_6_the_defender_retreats_to_his_region_with_most_brigades.toml",
    );
    let (text, _) = crate::war_cases::scenario_text(&path);
    let sc = war::scenario::Scenario::from_toml(&text, path.parent().unwrap()).unwrap();
    let (after, log) = war::adjudicate_with_dice(&sc.state, &sc.orders, sc.seed, &sc.dice);
    let events = war::report::results_view(&after, &log).events;
    let at = |text: &str| {
        events
            .iter()
            .position(|e| e.contains(text))
            .unwrap_or_else(|| panic!("{text:?} in {events:#?}"))
    };
    let (battle, round, retreat) = (
        at("battle at Levant"),
        at("round 1, "),
        at("retreat from Levant"),
    );
    assert!(battle < round && round < retreat, "{events:#?}");
    assert!(events[battle].contains("1 round;"), "{}", events[battle]);
    // The board under the mail's first line (turn and phase) does not repeat them.
    let board = war::report::board_text(&after);
    assert!(board.starts_with("Movement order: "), "{board}");
}
