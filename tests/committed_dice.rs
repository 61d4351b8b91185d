//! Committed dice (issue 18): a finished game's `history.json` played again by `pbem
//! verify-dice` against the commitment of its welcome mail; tampering fails; the build
//! that recorded each phase is named.

use std::path::Path;
use std::process::Command;

use chrono::Duration;

use crate::bfge_judge::BFGE_PLAYERS;
use crate::world::{Sent, World, MODERATOR, PLAYERS};

/// `pbem verify-dice FILE`.
fn verify_dice(file: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("verify-dice")
        .arg(file)
        .output()
        .unwrap();
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Plays a game on past missed deadlines (72 hours a pass) until its game-over mail,
/// and returns that mail.
fn until_game_over(w: &mut World) -> Sent {
    for _ in 0..40 {
        w.advance(Duration::hours(72));
        w.pass();
        if let Some(m) = w
            .sent()
            .into_iter()
            .find(|m| m.subject.contains("Game over"))
        {
            return m;
        }
    }
    panic!("the turn limit ends the game");
}

/// The history attached to a game-over mail: as mailed, and read.
fn history_of(over: &Sent) -> (String, serde_json::Value) {
    let (name, json) = over.attachment.clone().expect("history.json");
    assert_eq!(name, "history.json");
    let history = serde_json::from_str(&json).unwrap();
    (json, history)
}

/// The first non-empty `dice` or `rolls` array of a history's results.
fn first_die(v: &mut serde_json::Value) -> Option<&mut serde_json::Value> {
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                if (k == "dice" || k == "rolls") && x.as_array().is_some_and(|a| !a.is_empty()) {
                    return Some(x);
                }
                if let Some(found) = first_die(x) {
                    return Some(found);
                }
            }
            None
        }
        serde_json::Value::Array(items) => items.iter_mut().find_map(first_die),
        _ => None,
    }
}

#[test]
fn a_finished_games_dice_verify_against_the_commitment_and_tampering_fails() {
    // A solo game (the Imperium's orders are rolled) with no fixed seed: the judge
    // draws a secret and commits to it in the welcome mail.
    let mut w = World::with_players(
        "[game.options]\nsolo = true\nturn_limit = 4\n",
        &PLAYERS[..1],
    );
    let path = w.dir.path().join("games.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("seed = 3\n", "");
    std::fs::write(&path, text).unwrap();
    w.config = pbem::config::Config::load(&path).unwrap();
    w.pass();
    let welcome = w.sent();
    let commitment = welcome[0]
        .body
        .lines()
        .map(str::trim)
        .find(|l| l.len() == 64 && l.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or_else(|| panic!("a commitment in:\n{}", welcome[0].body))
        .to_string();
    let over = until_game_over(&mut w);
    let (json, history) = history_of(&over);
    assert_eq!(
        history["commitment"],
        commitment.as_str(),
        "the welcome mail's commitment"
    );
    assert!(
        over.body.contains(history["secret"].as_str().unwrap()),
        "{}",
        over.body
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.json");
    std::fs::write(&file, &json).unwrap();
    let (ok, out) = verify_dice(&file);
    assert!(ok, "{out}");
    assert!(out.contains("verified"), "{out}");
    // A changed roll fails.
    let mut tampered = history.clone();
    let dice =
        first_die(&mut tampered).unwrap_or_else(|| panic!("the solo Imperium rolls dice: {json}"));
    // Foundation and Empire reports each roll as {group, roll, fleets, action}.
    let first = dice[0]["roll"].as_u64().expect("a roll");
    dice[0]["roll"] = ((first % 6) + 1).into();
    std::fs::write(&file, serde_json::to_string(&tampered).unwrap()).unwrap();
    let (ok, out) = verify_dice(&file);
    assert!(!ok, "a changed roll must fail: {out}");
    assert!(out.contains("differ from the recorded ones"), "{out}");
    // A result worded otherwise (as a later pbem may word it) is told, not a failure.
    let mut reworded = history.clone();
    let detail = reworded["phases"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|p| p["results"]["results"].as_array_mut().unwrap().iter_mut())
        .find_map(|r| r.get_mut("detail").filter(|d| d.is_string()))
        .expect("a result with a detail");
    *detail = "worded otherwise".into();
    std::fs::write(&file, serde_json::to_string(&reworded).unwrap()).unwrap();
    let (ok, out) = verify_dice(&file);
    assert!(ok, "{out}");
    assert!(
        out.contains("1 text is worded otherwise by this pbem")
            && out.contains("results.[0].detail"),
        "{out}"
    );
    // A changed secret fails the commitment.
    let mut tampered = history.clone();
    let secret = tampered["secret"].as_str().unwrap().to_string();
    let flipped = if secret.starts_with('0') { "1" } else { "0" };
    tampered["secret"] = format!("{flipped}{}", &secret[1..]).into();
    std::fs::write(&file, serde_json::to_string(&tampered).unwrap()).unwrap();
    let (ok, out) = verify_dice(&file);
    assert!(!ok);
    assert!(
        out.contains("the commitment does not match the secret"),
        "{out}"
    );
}

/// Every phase of a history names the pbem that adjudicated it; `verify-dice` says which
/// build recorded a phase that does not play again as recorded, and which plays it
/// again, so a moderator knows whether the rules or the history changed.
#[test]
fn a_history_names_the_build_of_each_phase_and_verify_dice_tells_builds_apart() {
    let mut w = World::with_players(
        "[game.options]\nsolo = true\nturn_limit = 2\n",
        &PLAYERS[..1],
    );
    w.pass();
    let (json, history) = history_of(&until_game_over(&mut w));
    let phases = history["phases"].as_array().unwrap();
    assert!(phases.len() >= 2, "{json}");
    assert!(
        phases.iter().all(|p| p["by"] == pbem::BUILD),
        "every phase names {}: {json}",
        pbem::BUILD
    );
    let version = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("pbem {}", pbem::VERSION)
    );
    assert!(pbem::BUILD.ends_with(pbem::VERSION));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.json");
    let write = |h: &serde_json::Value| std::fs::write(&file, h.to_string()).unwrap();
    // Recorded and played again by this build: nothing to say about builds.
    write(&history);
    let (ok, out) = verify_dice(&file);
    assert!(ok && !out.contains("recorded by"), "{out}");
    // A changed roll, recorded by this same build: the history changed, not the rules.
    let mut tampered = history.clone();
    let dice = first_die(&mut tampered).expect("the solo Imperium rolls dice");
    dice[0]["roll"] = ((dice[0]["roll"].as_u64().unwrap() % 6) + 1).into();
    write(&tampered);
    let (ok, out) = verify_dice(&file);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!(
            "the phase was recorded by this same build, {}",
            pbem::BUILD
        )),
        "{out}"
    );
    // The same change in a game recorded by another build: both are named.
    let older = "pbem 0.0.9 (git 0123456789)";
    for p in tampered["phases"].as_array_mut().unwrap() {
        p["by"] = older.into();
    }
    write(&tampered);
    let (ok, out) = verify_dice(&file);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!(
            "the phase was recorded by {older} and is played again by {}",
            pbem::BUILD
        )),
        "{out}"
    );
    // A game recorded by another build (or before builds were named) that plays again
    // as recorded verifies, and the report names the builds.
    let mut other = history.clone();
    let phases = other["phases"].as_array_mut().unwrap();
    for p in phases.iter_mut() {
        p["by"] = older.into();
    }
    phases[1].as_object_mut().unwrap().remove("by");
    write(&other);
    let (ok, out) = verify_dice(&file);
    assert!(ok, "{out}");
    assert!(
        out.contains(&format!(
            "recorded by {older} then a pbem that did not name its build, played again by {}",
            pbem::BUILD
        )),
        "{out}"
    );
}

/// A game played on across an upgrade: the first phase the new build adjudicates keeps
/// the position it started from, so `verify-dice` checks each build's phases from where
/// that build took the game over, and that the parts join up. A rules change between
/// the builds (here: a roll the old build recorded that this one plays otherwise) leaves
/// the old build's phases to the old build, and this one still verifies its own; the old
/// build (`verify_as`) verifies its phases and that they reach the recorded position.
#[test]
fn after_an_upgrade_each_build_verifies_its_own_phases_from_the_recorded_position() {
    let older = "pbem 0.0.9 (git 0123456789)";
    let mut w = World::with_players(
        "[game.options]\nsolo = true\nturn_limit = 4\n",
        &PLAYERS[..1],
    );
    w.pass_as(older);
    while w.record().phases_played < 3 {
        w.advance(Duration::hours(72));
        w.pass_as(older);
    }
    let switched = w.record().phases_played as usize;
    let (json, history) = history_of(&until_game_over(&mut w));
    let phases = history["phases"].as_array().unwrap();
    assert!(phases.len() > switched + 1, "{json}");
    for (k, p) in phases.iter().enumerate() {
        let by = if k < switched { older } else { pbem::BUILD };
        assert_eq!(p["by"], by, "phase {k}: {json}");
        // Only the first phase of the new build keeps the position it started from.
        assert_eq!(p.get("position").is_some(), k == switched, "phase {k}");
    }
    assert_eq!(phases[switched]["position"]["rules"], "foundation-empire");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("history.json");
    let write = |h: &serde_json::Value| std::fs::write(&file, h.to_string()).unwrap();
    let read = |h: &serde_json::Value| -> pbem::verify::History {
        serde_json::from_value(h.clone()).unwrap()
    };
    // Nothing changed between the builds: the whole game verifies, and the position
    // recorded at the upgrade is the one the old build's phases reach.
    write(&history);
    let (ok, out) = verify_dice(&file);
    assert!(ok, "{out}");
    assert!(
        out.contains(&format!("recorded by {older} then {}", pbem::BUILD))
            && out
                .contains("the position recorded where the build changed is the one reached here"),
        "{out}"
    );
    assert!(pbem::verify::verify_as(&read(&history), older).is_ok());

    // The rules changed: the old build rolled otherwise in one of its phases.
    let old_roll = (0..switched)
        .find(|&k| first_die(&mut history["phases"][k].clone()).is_some())
        .expect("the solo Imperium rolls dice in the old build's phases");
    let mut changed = history.clone();
    let dice = first_die(&mut changed["phases"][old_roll]).unwrap();
    let roll = dice[0]["roll"].as_u64().expect("a roll");
    dice[0]["roll"] = ((roll % 6) + 1).into();
    write(&changed);
    let (ok, out) = verify_dice(&file);
    assert!(!ok, "not verified whole: {out}");
    let label = |k: usize| {
        format!(
            "turn {} {}",
            phases[k]["turn"],
            phases[k]["phase"].as_str().unwrap()
        )
    };
    let left = phases.len() - switched;
    assert!(
        out.contains(&format!(
            "not verified whole by {}: {} of {} phases played again as recorded",
            pbem::BUILD,
            left + old_roll,
            phases.len()
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{}: the results played again differ from the recorded ones",
            label(old_roll)
        )) && out.contains(&format!(
            "the phase was recorded by {older} and is played again by {}",
            pbem::BUILD
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "- {} to {}: {left} phases played again as recorded, from the position {} recorded \
             before {} (not checked: the phases before it were not played here)",
            label(switched),
            label(phases.len() - 1),
            pbem::BUILD,
            label(switched)
        )),
        "{out}"
    );
    // The old build sees the same history: its own phase plays otherwise, a difference.
    let err = pbem::verify::verify_as(&read(&changed), older).unwrap_err();
    assert!(
        err.contains("the phase was recorded by this same build"),
        "{err}"
    );

    // The new build's rules changed instead (as the old build sees it): the old build
    // verifies its phases, that they reach the recorded position, and leaves the rest.
    let mut newer = history.clone();
    let new_roll = (switched..phases.len())
        .find(|&k| first_die(&mut history["phases"][k].clone()).is_some())
        .expect("dice in the new build's phases");
    let dice = first_die(&mut newer["phases"][new_roll]).unwrap();
    let roll = dice[0]["roll"].as_u64().expect("a roll");
    dice[0]["roll"] = ((roll % 6) + 1).into();
    let err = pbem::verify::verify_as(&read(&newer), older).unwrap_err();
    assert!(
        err.contains(&format!(
            "- {} to {}: {} phases played again as recorded, from the game's start; they reach \
             the position {} recorded before {}",
            label(0),
            label(new_roll - 1),
            new_roll,
            pbem::BUILD,
            label(switched)
        )) && err.contains(&format!(
            "recorded by {}, not played again here",
            pbem::BUILD
        )),
        "{err}"
    );
    // ... and this build, which recorded that phase, calls it a difference.
    write(&newer);
    let (ok, out) = verify_dice(&file);
    assert!(
        !ok && out.contains("the phase was recorded by this same build"),
        "{out}"
    );

    // A position changed after it was recorded does not join the phases before it.
    let mut moved = history.clone();
    let position = &mut moved["phases"][switched]["position"];
    let turn = position["state"]["turn"]
        .as_u64()
        .expect("the position's turn");
    position["state"]["turn"] = (turn + 1).into();
    write(&moved);
    let (ok, out) = verify_dice(&file);
    assert!(!ok, "{out}");
    assert!(
        out.contains(&format!(
            "{}: the position recorded before this phase (by {}) is not the one the phases \
             before it reach when played again here",
            label(switched),
            pbem::BUILD
        )),
        "{out}"
    );
}

/// In a game with hidden information, the position kept where the build changed holds
/// what every power has hidden: it is in the moderator's history only, never in a
/// player's view.
#[test]
fn the_position_kept_at_an_upgrade_stays_out_of_the_players_views() {
    let older = "pbem 0.0.9 (git 0123456789)";
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass_as(older);
    while w.record().phases_played < 2 {
        w.advance(Duration::hours(72));
        w.pass_as(older);
    }
    let played = w.record().phases_played;
    while w.record().phases_played == played {
        w.advance(Duration::hours(72));
        w.pass();
    }
    w.end_game();
    w.pass();
    let histories: Vec<(String, serde_json::Value)> = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.contains("Game over"))
        .map(|m| {
            let (_, json) = m.attachment.expect("history.json");
            (m.to, serde_json::from_str(&json).unwrap())
        })
        .collect();
    let kept = |h: &serde_json::Value| {
        h["phases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p.get("position").is_some())
            .count()
    };
    let whole = histories
        .iter()
        .find(|(to, _)| to == MODERATOR.0)
        .map(|(_, h)| h)
        .expect("the moderator's game-over mail");
    assert_eq!(kept(whole), 1, "{whole}");
    let views: Vec<_> = histories
        .iter()
        .filter(|(to, _)| to != MODERATOR.0)
        .collect();
    assert_eq!(views.len(), BFGE_PLAYERS.len());
    for (to, h) in views {
        assert!(h.get("view_of").is_some(), "{to}: {h}");
        assert_eq!(kept(h), 0, "{to}: {h}");
    }
}

/// A player's `history.json` of a game with hidden information is a view that cannot
/// be played again: the game-over mail says so, and sends the player to the
/// moderator's copy; the moderator's mail offers the check itself.
#[test]
fn the_game_over_mail_of_a_hidden_game_tells_a_player_whose_copy_verifies() {
    let mut w = World::with_rules("battles-galactic-empire", "", &BFGE_PLAYERS);
    w.pass();
    w.end_game();
    w.pass();
    let sent = w.sent();
    let over: Vec<_> = sent
        .iter()
        .filter(|m| m.subject.contains("Game over"))
        .collect();
    assert_eq!(over.len(), BFGE_PLAYERS.len() + 1);
    for m in over {
        let body = crate::world::squash(&m.body);
        m.assert_fits_72();
        if m.to == MODERATOR.0 {
            assert!(body.contains("pbem verify-dice history.json"), "{body}");
        } else {
            for what in [
                "The attached history.json is your view of the game",
                "the moderator's copy holds every power's orders",
                "pbem verify-dice plays it again",
            ] {
                assert!(body.contains(what), "{what}: {body}");
            }
            assert!(!body.contains("pbem verify-dice history.json"), "{body}");
        }
    }
}
