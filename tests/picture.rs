//! The board as a picture: pixels of known positions checked at places computed from
//! the pictures' own geometry, byte-identical PNGs, and the mails that carry them
//! (MIME structure read back with mail-parser, size, `pictures = false`, BOARD).

use std::path::Path;

use chrono::Duration;
use mail_parser::{MessageParser, MimeHeaders, PartType};
use pbem::picture::palette::{self, tint, Colour, HOME, OWNED, PAPER};
use pbem::picture::{decode, Pixels};
use pbem::rules::foundation_empire::board::{Board, Sector};
use pbem::rules::foundation_empire::picture::{self as fe_picture, Layout};
use pbem::rules::game::{PhaseResults, Viewer};
use pbem::rules::godsfire;

use crate::world::{read_outbox, World, FIXED_START};

const HARI: &str = "hari@example.test";
const CLEON: &str = "cleon@example.test";
const MULE: &str = "mule@example.test";
const PREEM: &str = "preem@example.test";

/// A movement phase with moves of all four powers (six done, a stand-off in G4, a
/// fleet dislodged from C2), owned systems of every power, and a fleet occupying a
/// system.
const MOVES: &str = r#"
rules = "foundation-empire"
phase = "movement"
turn = 3

[systems]
Terminus = "foundation"
Anacreon = "foundation"
Trantor = "imperium"
Siwenna = "imperium"
Kalgan = "union"
Tazenda = "tazenda"
Rossem = "tazenda"

[[fleet]]
power = "foundation"
at = "B2"
[[fleet]]
power = "foundation"
at = "A1"
[[fleet]]
power = "foundation"
at = "A3"
[[fleet]]
power = "tazenda"
at = "C2"
[[fleet]]
power = "imperium"
at = "F2"
[[fleet]]
power = "imperium"
at = "G1"
[[fleet]]
power = "union"
at = "E4"
[[fleet]]
power = "union"
at = "G5"
[[fleet]]
power = "tazenda"
at = "A5"
[[fleet]]
power = "imperium"
at = "H4"
[[fleet]]
power = "union"
at = "D6"
stay = 2

[orders]
foundation = "B2 - C2\nA1 S\nA3 - B3"
tazenda = "C2 H\nA5 - A6"
imperium = "F2 - E2\nG1 - G2\nH4 - G4"
union = "E4 - D4\nG5 - G4\nD6 H"
"#;

fn adjudicated(text: &str) -> (serde_json::Value, Vec<u8>) {
    let dir = Path::new(".");
    let json: serde_json::Value =
        serde_json::from_str(&pbem::scenario::adjudicate_text(text, dir).unwrap()).unwrap();
    let png = pbem::picture::scenario::picture(text, dir)
        .unwrap()
        .to_png()
        .unwrap();
    (json, png)
}

fn px(p: &Pixels, at: pbem::picture::Pt) -> Colour {
    p.at(at.x, at.y)
        .unwrap_or_else(|| panic!("{at:?} is outside the picture"))
}

fn sector(board: &Board, name: &str) -> Sector {
    board.sector(name).unwrap()
}

/// Every fleet's token in its power's colour, every owned system's plate in its
/// owner's tint (and the others plain), every move done crossed by an arrow of its
/// power's colour at its midpoint: checked in the PNG of a position read from JSON.
/// Returns how many moves it checked.
fn check_foundation_picture(
    png: &[u8],
    position: &serde_json::Value,
    results: &serde_json::Value,
) -> usize {
    check_picture_on(&Board::standard(), png, position, results)
}

fn check_picture_on(
    board: &Board,
    png: &[u8],
    position: &serde_json::Value,
    results: &serde_json::Value,
) -> usize {
    let layout = Layout::new(board);
    let colours = fe_picture::colours(board);
    let colour = |id: &str| colours[board.power_by_id(id).unwrap().0 as usize];
    let pixels = decode(png).unwrap();
    let fleets = position["fleets"].as_array().unwrap();
    assert!(!fleets.is_empty());
    for f in fleets {
        let s = sector(board, f["at"].as_str().unwrap());
        assert_eq!(
            px(&pixels, layout.token_probe(board, s)),
            colour(f["power"].as_str().unwrap()),
            "the token of the fleet in {}",
            f["at"]
        );
    }
    let owners = position["systems"].as_object().unwrap();
    for (_, sys) in board.systems() {
        let want = match owners.get(&sys.name) {
            Some(owner) => tint(colour(owner.as_str().unwrap()), OWNED),
            None => PAPER,
        };
        assert_eq!(
            px(&pixels, layout.plate_probe(board, sys.at)),
            want,
            "the plate of {}",
            sys.name
        );
    }
    let mut moved = 0;
    for r in results["results"].as_array().unwrap() {
        if r["outcome"] != "moved" && r["outcome"] != "retreated" {
            continue;
        }
        let order = r["order"].as_str().unwrap();
        let (from, to) = order
            .split_once(" - ")
            .or_else(|| order.split_once(" R "))
            .unwrap();
        let mid = layout
            .centre(board, sector(board, from))
            .mid(layout.centre(board, sector(board, to)));
        assert_eq!(
            px(&pixels, mid),
            colour(r["power"].as_str().unwrap()),
            "the arrow of {order} at its midpoint"
        );
        moved += 1;
    }
    moved
}

#[test]
fn foundation_tokens_plates_and_arrows_are_where_the_position_says() {
    let (json, png) = adjudicated(MOVES);
    // The scenario has moves of every power, done and failed.
    let outcomes: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(
        outcomes.iter().filter(|o| **o == "moved").count(),
        6,
        "{outcomes:?}"
    );
    assert_eq!(
        outcomes.iter().filter(|o| **o == "bounced").count(),
        2,
        "{outcomes:?}"
    );
    assert!(outcomes.contains(&"dislodged"), "{outcomes:?}");
    assert_eq!(json["standoffs"], serde_json::json!(["G4"]));
    assert!(json["systems"].as_object().unwrap().len() >= 7);
    assert_eq!(check_foundation_picture(&png, &json, &json), 6);

    // Home quadrants are tinted where nothing stands: H6 (union) and D6 (tazenda).
    let board = Board::standard();
    let layout = Layout::new(&board);
    let colours = fe_picture::colours(&board);
    let pixels = decode(&png).unwrap();
    for (name, power) in [("H6", "union"), ("D6", "tazenda"), ("B1", "foundation")] {
        let c = colours[board.power_by_id(power).unwrap().0 as usize];
        assert_eq!(
            px(&pixels, layout.home_probe(&board, sector(&board, name))),
            tint(c, HOME),
            "{name}"
        );
    }
    // The dislodged Tazenda fleet of C2 waits beside it, in its colour.
    assert_eq!(json["dislodged"][0]["at"], "C2");
}

#[test]
fn every_foundation_case_draws_its_fleets_systems_and_moves() {
    // The rules' own scenarios: every position they reach is drawn right.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/foundation-empire");
    let (mut drawn, mut moves) = (0, 0);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // The case files carry their expectations; the scenario is what comes before.
        let text = text.split("\n[expect]").next().unwrap();
        if text.contains("board = ") {
            continue; // another board: another layout
        }
        let Ok(out) = pbem::scenario::adjudicate_text(text, &dir) else {
            continue; // a damaged scenario on purpose
        };
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let png = pbem::picture::scenario::picture(text, &dir)
            .unwrap()
            .to_png()
            .unwrap();
        moves += check_foundation_picture(&png, &json, &json);
        drawn += 1;
    }
    assert!(drawn >= 40, "{drawn} cases drawn");
    assert!(moves >= 30, "{moves} moves checked");
}

#[test]
fn the_same_position_gives_the_same_png_bytes() {
    let (_, a) = adjudicated(MOVES);
    let (_, b) = adjudicated(MOVES);
    assert_eq!(a, b);
    let state = godsfire::scenario::standard(7, Default::default());
    let draw = || {
        godsfire::picture::draw(&state, &state_position(&state), None)
            .to_png()
            .unwrap()
    };
    assert_eq!(draw(), draw());
    // And the same as on the machine where this was written: the font is bundled and
    // nothing of the system is read. (After a deliberate change to the drawing or an
    // upgrade of resvg, put the new id here.)
    assert_eq!(
        pbem::picture::mail::content_id(&a),
        "board-010d4f46ac98a42c@pbem",
        "the PNG of the MOVES scenario changed"
    );
}

fn state_position(state: &godsfire::state::State) -> serde_json::Value {
    use pbem::rules::game::Play;
    state.position_json(Viewer::Moderator)
}

#[test]
fn godsfire_systems_units_and_nebula_are_where_the_position_says() {
    let state = godsfire::scenario::standard(11, Default::default());
    let position = state_position(&state);
    let png = godsfire::picture::draw(&state, &position, None)
        .to_png()
        .unwrap();
    let pixels = decode(&png).unwrap();
    let layout = godsfire::picture::Layout::new(&state);
    let colours = godsfire::picture::colours(&state);
    for s in &state.systems {
        assert_eq!(
            px(&pixels, layout.system_probe(s.at)),
            tint(colours[&s.owner], OWNED),
            "{} of {}",
            s.name,
            s.owner
        );
    }
    let marks = godsfire::picture::stack_marks(&state, &position);
    // Every power's units (home cell and home regions counted together) and the
    // neutrals' garrisons.
    assert_eq!(marks.len(), 4 + 8);
    for m in &marks {
        assert_eq!(
            px(&pixels, m.probe()),
            colours[&m.power],
            "the units of {} at {}",
            m.power,
            m.cell
        );
    }
    let red = marks.iter().find(|m| m.power == "red").unwrap();
    assert_eq!(red.units.total(), 7, "C3 and Sirius-1a together");
    for &cell in &state.map.nebula {
        assert_eq!(px(&pixels, layout.nebula_probe(cell)), palette::VOID);
    }
    // The colours are the Okabe–Ito ones named by the powers.
    assert_eq!(colours["red"], palette::VERMILLION);
    assert_eq!(colours["yellow"], palette::YELLOW);
}

/// A Godsfire scenario of `examples/`, adjudicated: its state, its JSON and its PNG.
fn godsfire_example(name: &str) -> (godsfire::state::State, serde_json::Value, Vec<u8>) {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"));
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    let state = godsfire::scenario::Scenario::from_toml(&text)
        .unwrap()
        .state;
    let json = serde_json::from_str(&pbem::scenario::adjudicate_text(&text, dir).unwrap()).unwrap();
    let png = pbem::picture::scenario::picture(&text, dir)
        .unwrap()
        .to_png()
        .unwrap();
    (state, json, png)
}

/// The cells where the results say fights were are these, each crossed in ink.
fn assert_fights_crossed(
    json: &serde_json::Value,
    layout: &godsfire::picture::Layout,
    pixels: &Pixels,
    cells: &[&str],
) {
    let fought = godsfire::picture::fights(json, json);
    assert_eq!(
        fought.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
        cells
    );
    for cell in fought {
        assert_eq!(
            px(pixels, layout.fight(cell)),
            palette::INK,
            "the fight at {cell}"
        );
    }
}

#[test]
fn godsfire_moves_are_arrows_along_their_paths_and_fights_are_crossed() {
    use godsfire::picture::{colours, moves, Layout};
    let (state, json, png) = godsfire_example("godsfire-movement.toml");
    let pixels = decode(&png).unwrap();
    let layout = Layout::new(&state);
    let colours = colours(&state);
    let moves = moves(&json, &json);
    let paths: Vec<(Vec<String>, usize)> = moves
        .iter()
        .map(|m| (m.cells.iter().map(|c| c.to_string()).collect(), m.went))
        .collect();
    let path = |cells: &[&str], went: usize| (cells.iter().map(|c| c.to_string()).collect(), went);
    assert_eq!(
        paths,
        vec![
            // Through blue's interceptors to H5.
            path(&["D5", "E5", "F5", "G5", "H5"], 4),
            // Stopped by the block at G6: the last step not made.
            path(&["D5", "E6", "F6", "G6", "H6"], 3),
            // The landing on Polaris-1a ends in Polaris's cell, E8.
            path(&["D6", "E7", "E8"], 2),
            path(&["D6", "E7", "E8"], 2),
            // Lift-off from Sirius-1a: from Sirius's cell.
            path(&["C5", "D4", "E4"], 2),
            // The National Government to Procyon.
            path(&["C5", "C4", "C3", "C2"], 3),
            // Blue's blocking stack retreats from G6 to H7.
            path(&["G6", "H7"], 1),
        ]
    );
    // An arrow of the mover's colour through the middle of every step made (the
    // border between two cells: clear of stars and badges), or where a system's name
    // or star is drawn over the middle, just beside them.
    let mut steps = 0;
    for m in &moves {
        let points = m.points(&layout);
        for k in 0..m.went {
            let at = [0.5, 0.3, 0.7, 0.2, 0.8]
                .iter()
                .map(|&t| points[k].lerp(points[k + 1], t))
                .find(|&p| state.systems.iter().all(|s| !layout.under_system(s.at, p)))
                .unwrap();
            assert_eq!(
                px(&pixels, at),
                colours[&m.power],
                "{} step {k} of {:?}",
                m.power,
                m.cells
            );
            steps += 1;
        }
    }
    assert_eq!(steps, 17);
    // The interception at G5 and the block at G6 crossed.
    assert_fights_crossed(&json, &layout, &pixels, &["G5", "G6"]);
    // A cell nobody fought in or moved through keeps the paper.
    let quiet = godsfire::map::Cell::parse("K9").unwrap();
    assert_eq!(px(&pixels, layout.fight(quiet)), PAPER);
    assert_eq!(px(&pixels, layout.anchor(quiet)), PAPER);
}

#[test]
fn godsfire_attacks_from_other_cells_are_arrows_and_combats_are_crossed() {
    use godsfire::picture::{colours, moves, Layout};
    let (state, json, png) = godsfire_example("godsfire-combat.toml");
    let pixels = decode(&png).unwrap();
    let layout = Layout::new(&state);
    let colours = colours(&state);
    // F5 and F7 attack F6; the attacks on Vega's regions come from Vega's own cell (no
    // arrow), and blue's retreat from Vega-1a found no place (none either).
    let moves = moves(&json, &json);
    let drawn: Vec<(String, Vec<String>)> = moves
        .iter()
        .map(|m| {
            (
                m.power.clone(),
                m.cells.iter().map(|c| c.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(
        drawn,
        [
            ("red".to_string(), vec!["F5".to_string(), "F6".to_string()]),
            (
                "green".to_string(),
                vec!["F7".to_string(), "F6".to_string()]
            ),
        ]
    );
    for m in &moves {
        assert_eq!(m.went, 1);
        let points = m.points(&layout);
        // Just past the border into F6 (the attacker's own badge hides its start).
        let at = points[0].lerp(points[1], 0.6);
        assert_eq!(px(&pixels, at), colours[&m.power], "{}'s attack", m.power);
    }
    assert_fights_crossed(&json, &layout, &pixels, &["F6", "J5"]);
}

#[test]
fn godsfire_moves_read_what_the_units_did() {
    use godsfire::picture::moves;
    let position = serde_json::json!({"systems": [{"name": "Vega", "at": "J5", "owner": "blue"}]});
    let results = |m: serde_json::Value| serde_json::json!({ "moves": [m] });
    let went = |m: serde_json::Value| {
        moves(&position, &results(m))
            .iter()
            .map(|m| (m.cells.len(), m.went))
            .collect::<Vec<_>>()
    };
    // Stepped back to where it came from: nothing made.
    assert_eq!(
        went(serde_json::json!({"power": "red", "from": "H5", "path": ["I5", "J5"], "to": "H5"})),
        [(3, 0)]
    );
    // Eliminated on the way (no `to`): nothing sure.
    assert_eq!(
        went(serde_json::json!({"power": "red", "from": "H5", "path": ["I5", "J5"], "to": null})),
        [(3, 0)]
    );
    // Stopped half way.
    assert_eq!(
        went(serde_json::json!({"power": "red", "from": "H5", "path": ["I5", "J5"], "to": "I5"})),
        [(3, 1)]
    );
    // Into a region of Vega: its cell.
    assert_eq!(
        went(
            serde_json::json!({"power": "red", "from": "I5", "path": ["J5", "vega-1a"], "to": "Vega-1a"})
        ),
        [(2, 1)]
    );
    // A ground move between two regions of one system: no arrow; an unknown place:
    // none either.
    assert_eq!(
        went(
            serde_json::json!({"power": "red", "from": "Vega-1a", "path": ["Vega-1b"], "to": "Vega-1b"})
        ),
        []
    );
    assert_eq!(
        went(
            serde_json::json!({"power": "red", "from": "Atlantis-1a", "path": ["J5"], "to": "J5"})
        ),
        []
    );
}

/// The four powers' first-turn orders; the Foundation's has an invalid line with
/// markup in it (refused in the receipt; the fleet holds).
fn turn_one(w: &mut World) {
    w.orders(HARI, "B2 - C2\nA1 S\n<b>C1</b> & \"x\"");
    w.orders(CLEON, "F2 - E2\nE1 S\nG1 S");
    w.orders(MULE, "E4 - D3\nG4 H\nF5 - F4");
    w.orders(PREEM, "C4 - C3\nA4 S\nB5 S");
}

#[test]
fn results_mail_is_text_first_then_html_with_the_map_inline_and_attachments_named() {
    let mut w = World::new(FIXED_START);
    turn_one(&mut w);
    w.pass();
    let results: Vec<_> = pbem::mail::maildir::waiting(&w.outbox())
        .unwrap()
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .filter(|raw| String::from_utf8_lossy(raw).contains("Turn 1 movement results"))
        .collect();
    assert_eq!(results.len(), 5, "four players and the moderator");
    for raw in &results {
        assert!(raw.len() < 200_000, "a results mail of {} bytes", raw.len());
        let m = MessageParser::default().parse(&raw[..]).unwrap();
        let root = m.root_part();
        assert!(root.content_type().unwrap().c_subtype.as_deref() == Some("mixed"));
        let PartType::Multipart(children) = &root.body else {
            panic!("not multipart")
        };
        let alternative = m.part(children[0]).unwrap();
        let ct = alternative.content_type().unwrap();
        assert_eq!(
            (ct.ctype(), ct.subtype()),
            ("multipart", Some("alternative"))
        );
        let PartType::Multipart(alts) = &alternative.body else {
            panic!("alternative without parts")
        };
        // The text first: what a plain-text reader sees, as before.
        let text = m.part(alts[0]).unwrap();
        assert_eq!(text.content_type().unwrap().subtype(), Some("plain"));
        let PartType::Text(body) = &text.body else {
            panic!("text part")
        };
        assert!(body.contains("results of turn 1, movement phase"));
        assert!(body.contains("+-------+"));
        // Then the HTML with the picture, related.
        let related = m.part(alts[1]).unwrap();
        assert_eq!(related.content_type().unwrap().subtype(), Some("related"));
        let PartType::Multipart(rel) = &related.body else {
            panic!("related without parts")
        };
        let html = m.part(rel[0]).unwrap();
        let PartType::Html(html) = &html.body else {
            panic!("html part")
        };
        let image = m.part(rel[1]).unwrap();
        assert_eq!(image.content_type().unwrap().ctype(), "image");
        assert_eq!(image.content_type().unwrap().subtype(), Some("png"));
        let cid = image.content_id().expect("the image has a Content-ID");
        assert!(
            html.contains(&format!("src=\"cid:{cid}\"")),
            "the HTML shows the image by its Content-ID {cid}"
        );
        assert_eq!(image.attachment_name(), Some("board.png"));
        assert!(image
            .content_disposition()
            .is_some_and(|d| d.ctype() == "inline"));
        // Last, results.json, attached.
        let json = m.part(children[1]).unwrap();
        assert_eq!(json.attachment_name(), Some("results.json"));
        assert!(json
            .content_disposition()
            .is_some_and(|d| d.ctype() == "attachment"));
        let names: Vec<&str> = m
            .attachments()
            .filter_map(|a| a.attachment_name())
            .collect();
        assert_eq!(names, ["board.png", "results.json"]);
        // The HTML: readable without images (alt text, the results, the board as
        // text); nothing of the refused markup line gets into it (escaping itself is
        // tested in `picture::mail`).
        assert!(!html.contains("<b>C1</b>"));
        assert!(html.contains("no valid order: holds"));
        assert!(html.contains("alt=\"Map of game g1 after turn 1, movement phase\""));
        assert!(html.contains("B2 - C2"));
        assert!(html.contains("+-------+"));
        // The picture is the position after the turn, with its moves.
        let record = w.record();
        let position = record.game.play().position_json(Viewer::Moderator);
        let attached = m.attachments().next().unwrap().contents();
        let results: serde_json::Value =
            serde_json::from_slice(m.part(children[1]).unwrap().contents()).unwrap();
        assert_eq!(check_foundation_picture(attached, &position, &results), 5);
    }
    // read_outbox still finds results.json as the data attachment.
    for s in read_outbox(&w.outbox())
        .iter()
        .filter(|s| s.subject.contains("results"))
    {
        assert_eq!(s.attachment.as_ref().unwrap().0, "results.json");
        assert!(s.picture.is_some() && s.html.is_some());
    }
}

#[test]
fn the_picture_mailed_is_the_one_the_rules_draw_for_that_reader() {
    let mut w = World::new(FIXED_START);
    turn_one(&mut w);
    w.pass();
    let record = w.record();
    let play = record.game.play();
    let history = pbem::store::Store::open(&w.config.judge.store).unwrap();
    let entry: pbem::judge::record::HistoryEntry = history
        .get(&pbem::judge::record::history_key("g1", 1, "movement"))
        .unwrap()
        .expect("stored results");
    drop(history);
    let whole = entry.results();
    for s in w.sent().iter().filter(|s| s.subject.contains("results")) {
        let power = crate::world::PLAYERS
            .iter()
            .find(|p| p.1 == s.to)
            .map(|p| p.0);
        let viewer = power.map(Viewer::Power).unwrap_or(Viewer::Moderator);
        let seen: PhaseResults = play.results_for(&whole, viewer);
        let drawn = play.picture(viewer, Some(&seen)).unwrap().to_png().unwrap();
        assert_eq!(s.picture.as_deref(), Some(&drawn[..]), "to {}", s.to);
    }
}

#[test]
fn board_reply_carries_the_map_and_pictures_false_keeps_mails_text_only() {
    let mut w = World::new(FIXED_START);
    w.orders(HARI, "BOARD");
    w.pass();
    let reply = w.sent().pop().unwrap();
    assert_eq!(reply.subject, "[g1] Board");
    let png = reply.picture.expect("the BOARD reply carries the map");
    assert!(reply.raw.len() < 200_000);
    let html = reply.html.unwrap();
    assert!(html.contains("cid:board-"));
    let pixels = decode(&png).unwrap();
    let board = Board::standard();
    let layout = Layout::new(&board);
    let colours = fe_picture::colours(&board);
    assert_eq!(
        px(&pixels, layout.token_probe(&board, sector(&board, "A1"))),
        colours[0],
        "the Foundation's fleet on Terminus"
    );

    let mut off = World::new(&format!("pictures = false\n{FIXED_START}"));
    off.orders(HARI, "BOARD");
    turn_one(&mut off);
    off.pass();
    let sent = off.sent();
    assert!(sent.iter().any(|m| m.subject == "[g1] Board"));
    assert!(sent.iter().any(|m| m.subject.contains("results")));
    for m in &sent {
        assert!(m.picture.is_none() && m.html.is_none(), "{}", m.subject);
        assert!(!m.raw.contains("multipart/alternative"));
    }
    let results = sent.iter().find(|m| m.subject.contains("results")).unwrap();
    assert_eq!(results.attachment.as_ref().unwrap().0, "results.json");
}

#[test]
fn godsfire_results_mail_carries_its_map_under_200_kb() {
    let mut w = World::godsfire("");
    w.pass();
    w.advance(Duration::hours(49));
    w.pass();
    let results: Vec<_> = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.contains("results"))
        .collect();
    assert!(!results.is_empty());
    let record = w.record();
    let game = &record.game;
    for m in &results {
        assert!(m.raw.len() < 200_000, "{} bytes", m.raw.len());
        let png = m.picture.as_ref().expect("board.png");
        let pixels = decode(png).unwrap();
        let pbem::rules::game::Game::Godsfire(state) = game else {
            panic!("a Godsfire game")
        };
        let layout = godsfire::picture::Layout::new(state);
        let colours = godsfire::picture::colours(state);
        for s in &state.systems {
            assert_eq!(
                px(&pixels, layout.system_probe(s.at)),
                tint(colours[&s.owner], OWNED),
                "{}",
                s.name
            );
        }
    }
}

#[test]
fn cli_writes_the_picture_of_a_scenario_and_of_a_stored_game() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("moves.toml");
    std::fs::write(&scenario, MOVES).unwrap();
    let png = dir.path().join("moves.png");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["adjudicate", scenario.to_str().unwrap(), "--png"])
        .arg(&png)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"results\""));
    let (json, expected) = adjudicated(MOVES);
    assert_eq!(std::fs::read(&png).unwrap(), expected);
    assert_eq!(check_foundation_picture(&expected, &json, &json), 6);

    let mut w = World::new(FIXED_START);
    turn_one(&mut w);
    w.pass();
    let shown = dir.path().join("g1.png");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["game", "show", "g1", "--config"])
        .arg(w.dir.path().join("games.toml"))
        .env("PBEM_NOW", w.now().to_rfc3339())
        .arg("--png")
        .arg(&shown)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Game g1, turn 2"));
    let record = w.record();
    let position = record.game.play().position_json(Viewer::Moderator);
    let no_moves = serde_json::json!({ "results": [] });
    assert_eq!(
        check_foundation_picture(&std::fs::read(&shown).unwrap(), &position, &no_moves),
        0
    );

    // A scenario that cannot be read: exit 2, one line, no file.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "rules = \"foundation-empire\"\nphase = \"nope\"\n").unwrap();
    let none = dir.path().join("none.png");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .args(["adjudicate", bad.to_str().unwrap(), "--png"])
        .arg(&none)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!none.exists());
}

#[test]
fn other_boards_are_drawn_to_their_size_and_huge_ones_not_at_all() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases/boards");
    let text = r#"
rules = "foundation-empire"
phase = "movement"
turn = 2
board = "tiny.toml"

[systems]
Alpha = "red"
Beta = "blue"

[[fleet]]
power = "red"
at = "A1"
[[fleet]]
power = "blue"
at = "D3"

[orders]
red = "A1 - B2"
blue = "D3 - C2"
"#;
    let json: serde_json::Value =
        serde_json::from_str(&pbem::scenario::adjudicate_text(text, &dir).unwrap()).unwrap();
    let svg = pbem::picture::scenario::picture(text, &dir).unwrap();
    assert!(svg.width() < 600, "a 4×3 board is a small picture");
    let board = Board::from_toml(&std::fs::read_to_string(dir.join("tiny.toml")).unwrap()).unwrap();
    assert_eq!(
        fe_picture::colours(&board),
        [palette::VERMILLION, palette::BLUE],
        "powers named red and blue get those colours"
    );
    let png = svg.to_png().unwrap();
    assert_eq!(check_picture_on(&board, &png, &json, &json), 2);

    // A board of 100 × 50 sectors is not drawn: no picture rather than a huge one.
    let big = tempfile::tempdir().unwrap();
    std::fs::write(
        big.path().join("big.toml"),
        "name = \"big\"\nwidth = 100\nheight = 50\n[[power]]\nid = \"red\"\nhome = \"A1:B2\"\n",
    )
    .unwrap();
    let text = "rules = \"foundation-empire\"\nphase = \"movement\"\nboard = \"big.toml\"\n[[fleet]]\npower = \"red\"\nat = \"A1\"\n";
    let err = pbem::picture::scenario::picture(text, big.path()).unwrap_err();
    assert!(err.to_string().contains("not drawn"), "{err}");
}
