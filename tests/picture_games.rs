//! The pictures of Diplomacy, War!, Battles for the Galactic Empire and Foundation
//! (Hjelmberg): each checked pixel by pixel at places computed from the picture's own
//! layout (units' tokens and badges in their owner's colour, owned places in their
//! owner's tint, an arrow of the mover's colour through the middle of each move done),
//! the same PNG bytes for the same position, and no picture showing more than another
//! reader's: what a view hides, the picture does not draw.

use std::path::Path;

use pbem::picture::palette::{tint, Colour, OWNED, PAPER};
use pbem::picture::{decode, Pixels, Pt};
use pbem::rules::game::{Game, Viewer};
use pbem::rules::RuleSetId;

fn px(p: &Pixels, at: Pt) -> Colour {
    p.at(at.x, at.y)
        .unwrap_or_else(|| panic!("{at:?} is outside the picture"))
}

/// How far `p` is from the segment `a`–`b`.
fn distance(p: Pt, a: Pt, b: Pt) -> f32 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0)
    };
    p.distance(Pt::new(a.x + t * dx, a.y + t * dy))
}

/// The first of `probes` clear of every arrow (segment) and every box (`rects`: top
/// left, width, height).
fn clear(probes: &[Pt], arrows: &[(Pt, Pt)], rects: &[(Pt, f32, f32)]) -> Pt {
    *probes
        .iter()
        .find(|&&p| {
            arrows.iter().all(|&(a, b)| distance(p, a, b) > 8.0)
                && rects.iter().all(|&(c, w, h)| {
                    p.x < c.x - 2.0 || p.x > c.x + w + 2.0 || p.y < c.y - 2.0 || p.y > c.y + h + 2.0
                })
        })
        .unwrap_or_else(|| panic!("every probe of {probes:?} is covered"))
}

/// The scenario's JSON and its picture's PNG (twice: the same bytes).
fn adjudicated(text: &str, dir: &Path) -> (serde_json::Value, Vec<u8>) {
    let json: serde_json::Value =
        serde_json::from_str(&pbem::scenario::adjudicate_text(text, dir).unwrap()).unwrap();
    let png = || {
        pbem::picture::scenario::picture(text, dir)
            .unwrap()
            .to_png()
            .unwrap()
    };
    let a = png();
    assert_eq!(a, png(), "the same scenario, the same PNG bytes");
    (json, a)
}

fn examples() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"))
}

/// Spring 1901: every power moves; Austria and Russia bounce in Galicia, Russia and
/// Turkey in the Black Sea.
const DIPLOMACY: &str = r#"
rules = "diplomacy"
phase = "S1901M"
units = ["AUS A vie", "AUS A bud", "AUS F tri", "ENG F lon", "ENG F edi", "ENG A lvp",
         "FRA F bre", "FRA A par", "FRA A mar", "GER F kie", "GER A ber", "GER A mun",
         "ITA F nap", "ITA A rom", "ITA A ven", "RUS F stp/sc", "RUS A mos", "RUS A war",
         "RUS F sev", "TUR F ank", "TUR A con", "TUR A smy"]
[orders]
austria = "A vie - gal\nA bud - ser\nF tri - alb"
england = "F lon - nth\nF edi - nwg\nA lvp - yor"
france = "F bre - mao\nA par - bur\nA mar - spa"
germany = "F kie - den\nA ber - kie\nA mun - ruh"
italy = "F nap - ion\nA rom - apu\nA ven - tyr"
russia = "F stp/sc - bot\nA mos - ukr\nA war - gal\nF sev - bla"
turkey = "F ank - bla\nA con - bul\nA smy - arm"
"#;

#[test]
fn diplomacy_units_centres_and_moves_are_where_the_position_says() {
    use pbem::rules::diplomacy::map::Map;
    use pbem::rules::diplomacy::picture::{colour, moves, Layout, SEA};
    use pbem::rules::diplomacy::state::Unit;
    let (json, png) = adjudicated(DIPLOMACY, Path::new("."));
    let map = Map::standard();
    let pixels = decode(&png).unwrap();
    let moves = moves(&json);
    let arrows: Vec<(Pt, Pt)> = moves
        .iter()
        .map(|m| {
            (
                Layout::token(&m.from).unwrap(),
                Layout::token(&m.to).unwrap(),
            )
        })
        .collect();
    // Every unit's token in its power's colour.
    let units = json["units"].as_array().unwrap();
    assert_eq!(units.len(), 22);
    for u in units {
        let unit = Unit::parse(map, u.as_str().unwrap()).unwrap();
        let at = Layout::token_probe(map.loc_id(unit.loc)).unwrap();
        assert_eq!(px(&pixels, at), colour(unit.power), "the token of {u}");
    }
    // Every supply centre in its owner's tint, neutral ones white, seas pale blue.
    let owners = json["supply_centers"].as_object().unwrap();
    let mut checked = 0;
    for (p, prov) in map.provinces.iter().enumerate() {
        let want = match owners.get(&prov.id) {
            Some(o) => tint(colour(map.power_by_id(o.as_str().unwrap()).unwrap()), OWNED),
            None if map.is_sea(p as u8) => SEA,
            None => PAPER,
        };
        let at = clear(&Layout::fill_probes(&prov.id), &arrows, &[]);
        assert_eq!(px(&pixels, at), want, "the box of {}", prov.id);
        checked += usize::from(map.is_centre(p as u8));
    }
    assert_eq!(checked, 34);
    // An arrow of the mover's colour through the middle of every move done.
    let mut done = 0;
    for (m, &(a, b)) in moves.iter().zip(&arrows) {
        if m.done {
            assert_eq!(
                px(&pixels, a.mid(b)),
                colour(m.power),
                "{} - {}",
                m.from,
                m.to
            );
            done += 1;
        }
    }
    assert_eq!(done, 18, "22 moves, two bounces of two");
}

/// The judge stores a phase's results with its id and year (`spring`, 1901), not
/// `S1901M`: the title names that phase, not the one the position is in now.
#[test]
fn diplomacy_the_title_names_the_phase_the_results_are_of() {
    use pbem::rules::diplomacy::phase::phase_after;
    use pbem::rules::diplomacy::picture::draw;
    use pbem::rules::diplomacy::state::State;
    use pbem::rules::game::{PhaseResults, Play};
    let s = State::standard(Default::default());
    let after = phase_after(&s);
    for (phase, turn, words) in [
        ("spring", 1901, "Spring 1901 movement: results"),
        ("S1901M", 0, "Spring 1901 movement: results"),
        ("spring-retreats", 1902, "Spring 1902 retreats: results"),
        ("winter", 1902, "Winter 1902 adjustments: results"),
    ] {
        let results = PhaseResults {
            json: serde_json::json!({"phase": phase, "turn": turn, "results": []}),
            view: serde_json::Value::Null,
        };
        let svg = draw(after, &s.position_json(Viewer::Public), Some(&results)).to_text();
        assert!(
            svg.contains(&format!("<title>Diplomacy — {words}</title>")),
            "{phase} {turn}: {}",
            &svg[..svg.find("</title>").unwrap_or(0)]
        );
    }
}

/// A line refused as invalid moved nothing: France's order for the German army in
/// Munich, or a move to a province the unit does not border, is no arrow.
#[test]
fn diplomacy_invalid_lines_are_no_moves() {
    use pbem::rules::diplomacy::picture::moves;
    let json = serde_json::json!({"results": [
        {"power": "FRA", "order": "FRA A mun - bur", "outcome": "invalid"},
        {"power": "FRA", "order": "FRA A par - mun", "outcome": "invalid"},
        {"power": "GER", "order": "GER A mun - ruh", "outcome": "succeeds"},
    ]});
    let m = moves(&json);
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(
        (m[0].power, m[0].from.as_str(), m[0].to.as_str(), m[0].done),
        (3, "mun", "ruh", true)
    );
}

#[test]
fn war_units_fleets_owners_and_moves_are_where_the_position_says() {
    use pbem::rules::war_imperialism::map::Map;
    use pbem::rules::war_imperialism::picture::{badges, colours, moves, segments, Layout};
    let text = std::fs::read_to_string(examples().join("war-imperialism-movement.toml")).unwrap();
    let (json, png) = adjudicated(&text, examples());
    let map = Map::standard();
    let layout = Layout::new(&map);
    let pixels = decode(&png).unwrap();
    let colours = colours(&json);
    let moves = moves(&map, &json);
    let arrows: Vec<(Pt, Pt)> = moves
        .iter()
        .flat_map(|m| segments(&layout, m))
        .map(|(a, b, _)| (a, b))
        .collect();
    // Land units and fleets: badges of their player's colour.
    let badges = badges(&json);
    let mut rects = Vec::new();
    let mut seen = 0;
    for (at, list) in &badges {
        for (n, (player, text)) in list.iter().enumerate() {
            let probe = layout.badge_probe(at, n, text).unwrap();
            assert_eq!(
                px(&pixels, probe),
                colours[player],
                "{player}'s {text} in {at}"
            );
            rects.push(layout.badge_rect(at, n, text).unwrap());
            seen += 1;
        }
    }
    assert_eq!(
        seen, 4,
        "blue in Ottoman, red in Egypt and Levant, red's fleets"
    );
    // Every region in its controller's tint (white: the natives').
    for r in json["regions"].as_array().unwrap() {
        let id = r["id"].as_str().unwrap();
        let want = match colours.get(r["owner"].as_str().unwrap()) {
            Some(&c) => tint(c, OWNED),
            None => PAPER,
        };
        let at = clear(&layout.fill_probes(id), &arrows, &rects);
        assert_eq!(px(&pixels, at), want, "the box of {id}");
    }
    // An arrow of the mover's colour through the middle of each step of a move done.
    let mut done = 0;
    for m in moves.iter().filter(|m| m.done) {
        for (a, b, _) in segments(&layout, m) {
            assert_eq!(px(&pixels, a.mid(b)), colours[&m.player], "{:?}", m.path);
            done += 1;
        }
    }
    assert_eq!(done, 4, "three moves and a voyage");
}

#[test]
fn bfge_regions_fleets_and_moves_are_where_the_position_says() {
    use pbem::rules::battles_galactic_empire::picture::{badges, colour, moves, Layout};
    let text = std::fs::read_to_string(examples().join("bfge-actions.toml")).unwrap();
    let (json, png) = adjudicated(&text, examples());
    let pixels = decode(&png).unwrap();
    let moves = moves(&json);
    let arrows: Vec<(Pt, Pt)> = moves
        .iter()
        .map(|m| {
            (
                Layout::centre(&m.from).unwrap(),
                Layout::centre(&m.to).unwrap(),
            )
        })
        .collect();
    let mut fleets = 0;
    for r in json["regions"].as_array().unwrap() {
        let name = r["name"].as_str().unwrap();
        let want = r["control"]
            .as_str()
            .map_or(PAPER, |c| tint(colour(c), OWNED));
        let at = clear(&Layout::fill_probes(name), &arrows, &[]);
        assert_eq!(px(&pixels, at), want, "the panel of {name}");
        let panel = Layout::region(name).unwrap();
        for (n, (power, text)) in badges(&json, name, None).iter().enumerate() {
            let probe = Layout::badge_probe(Layout::badge(panel, n));
            assert_eq!(
                px(&pixels, probe),
                colour(power),
                "{power}'s {text} in {name}"
            );
            fleets += 1;
        }
    }
    assert_eq!(fleets, 3, "red's garrisons in Alpha, Gamma and Omega");
    let mut done = 0;
    for (m, &(a, b)) in moves.iter().zip(&arrows) {
        if m.done {
            assert_eq!(px(&pixels, a.mid(b)), colour(&m.power), "{m:?}");
            done += 1;
        }
    }
    assert_eq!(done, 1, "red's TH into Omega (blue's move was cancelled)");
}

#[test]
fn hjelmberg_planets_ships_and_the_empire_are_where_the_position_says() {
    use pbem::rules::foundation_hjelmberg::data;
    use pbem::rules::foundation_hjelmberg::picture::{
        colours, empire_moves, resource_colour, ships, Layout, EMPIRE,
    };
    let text = std::fs::read_to_string(examples().join("foundation-hjelmberg-round.toml")).unwrap();
    let (json, png) = adjudicated(&text, examples());
    let layout = Layout::new(&data::standard());
    let pixels = decode(&png).unwrap();
    let colours = colours(&json);
    let mut tokens = 0;
    for (gate, list) in ships(&json) {
        for (k, (owner, _)) in list.iter().enumerate() {
            let want = if owner == "Empire" {
                EMPIRE
            } else {
                colours[owner]
            };
            let at = Layout::token_probe(layout.ship(&gate, k, list.len()).unwrap());
            assert_eq!(px(&pixels, at), want, "{owner}'s ship on {gate}");
            tokens += 1;
        }
    }
    assert_eq!(tokens, 7 + 5, "the players' ships and the Empire's");
    for (planet, tile) in json["planets"].as_object().unwrap() {
        let colour = tile.as_str().unwrap().split('-').next().unwrap();
        let at = layout.planet_probe(planet).unwrap();
        assert_eq!(px(&pixels, at), resource_colour(colour), "{planet}");
    }
    let moves = empire_moves(&json);
    assert_eq!(moves.len(), 5);
    for (from, to) in &moves {
        let (a, b) = (layout.gate(from).unwrap(), layout.gate(to).unwrap());
        assert_eq!(px(&pixels, a.mid(b)), EMPIRE, "{from}->{to}");
    }
}

/// What no reader's picture shows differs from reader to reader: a picture is drawn
/// from what every view shares (BFGE's hands and chit pools, War!'s pools' order,
/// Hjelmberg's goals are never drawn), so each player's picture is the public one.
#[test]
fn every_reader_of_a_hidden_information_game_gets_the_public_picture() {
    let table = |text: &str| -> toml::Table { toml::from_str(text).unwrap() };
    let games = [
        (
            RuleSetId::BattlesGalacticEmpire,
            table("scenario = \"civil-war\""),
        ),
        (
            RuleSetId::WarImperialism,
            table("players = [\"red\", \"blue\", \"green\"]"),
        ),
        (
            RuleSetId::FoundationHjelmberg,
            table("seating = [\"red\", \"blue\", \"green\"]"),
        ),
        (RuleSetId::Diplomacy, toml::Table::new()),
    ];
    for (rules, options) in games {
        let game = Game::new(rules, &options, None, 11).unwrap();
        let play = game.play();
        let public = play.picture(Viewer::Public, None).unwrap().to_text();
        for power in play.powers() {
            let mine = play.picture(Viewer::Power(&power), None).unwrap().to_text();
            assert_eq!(mine, public, "{}: {power}'s picture", rules.name());
        }
        let png = play
            .picture(Viewer::Moderator, None)
            .unwrap()
            .to_png()
            .unwrap();
        assert!(png.len() < 120_000, "{}: {} bytes", rules.name(), png.len());
    }
}

/// A Diplomacy game by mail: the spring 1901 results mail of every reader carries the
/// map (inline and as board.png, the position after the phase with its moves), and
/// weighs under 200 kB; a BOARD reply carries it too.
#[test]
fn a_diplomacy_results_mail_carries_its_map_under_200_kb() {
    use crate::diplomacy::DIPLOMACY_PLAYERS;
    use crate::world::World;
    use pbem::rules::diplomacy::picture::{colour, Layout};
    let mut w = World::with_rules("diplomacy", "", &DIPLOMACY_PLAYERS);
    w.pass();
    let orders: toml::Table = toml::from_str(DIPLOMACY).unwrap();
    let names = [
        ("AUS", "austria"),
        ("ENG", "england"),
        ("FRA", "france"),
        ("GER", "germany"),
        ("ITA", "italy"),
        ("RUS", "russia"),
        ("TUR", "turkey"),
    ];
    for (power, address, _) in DIPLOMACY_PLAYERS {
        let name = names.iter().find(|(p, _)| *p == power).unwrap().1;
        w.orders(address, orders["orders"][name].as_str().unwrap());
    }
    w.pass();
    let results: Vec<_> = w
        .sent()
        .into_iter()
        .filter(|m| m.subject.contains("results"))
        .collect();
    assert_eq!(results.len(), 8, "seven players and the moderator");
    for m in &results {
        assert!(m.raw.len() < 200_000, "{} bytes to {}", m.raw.len(), m.to);
        let html = m.html.as_ref().expect("an HTML version");
        assert!(html.contains("src=\"cid:board-"));
        let pixels = decode(m.picture.as_ref().expect("board.png")).unwrap();
        // France's army moved into Burgundy; the arrow from Paris passes mid-way.
        let bur = Layout::token_probe("bur").unwrap();
        assert_eq!(px(&pixels, bur), colour(2));
        let (par, bur) = (Layout::token("par").unwrap(), Layout::token("bur").unwrap());
        assert_eq!(px(&pixels, par.mid(bur)), colour(2));
    }
    w.orders(DIPLOMACY_PLAYERS[0].1, "BOARD");
    w.pass();
    let reply = w
        .sent()
        .into_iter()
        .find(|m| m.subject.contains("Board"))
        .expect("a BOARD reply");
    let pixels = decode(&reply.picture.expect("the BOARD reply carries the map")).unwrap();
    assert_eq!(px(&pixels, Layout::token_probe("bur").unwrap()), colour(2));
}

/// A results mail built as the judge builds it (text, HTML with the map inline,
/// results.json) for a phase and the position after it, as `viewer` reads it.
fn results_mail(
    game: &Game,
    orders: &std::collections::BTreeMap<String, String>,
    seed: u64,
) -> Vec<u8> {
    let adjudicated = game.play().adjudicate(orders, seed);
    let after = adjudicated.game.play();
    let viewer = Viewer::Power("red");
    let seen = game.play().results_for(&adjudicated.results, viewer);
    let label = adjudicated.game.label();
    let view = serde_json::json!({
        "game": "g1", "turn": 3, "phase": "movement",
        "when": game.play().phase_title(3, "movement"),
        "results": seen.view["results"], "missing": [], "events": seen.view["events"],
        "systems": seen.view["systems"], "owned_label": after.owned_label(),
        "board": after.board_text(viewer),
        "standing": after.standing(), "over": label.over, "winners": [],
        "next_turn": label.turn, "next_phase": label.phase,
        "next_when": after.phase_title(label.turn, label.phase), "owing": after.owing(),
        "deadline_utc": "2025-01-01 12:00 UTC", "deadline_local": "2025-01-01 13:00 CET",
    });
    let templates = pbem::report::Templates::load(None).unwrap();
    let rich = pbem::picture::mail::Rich::render(
        &templates,
        "results.html",
        &view,
        after.picture(viewer, Some(&seen)),
    )
    .unwrap();
    let mut mail = pbem::mail::outgoing::Outgoing {
        message_id: "m1@example.test".into(),
        to: "red@example.test".into(),
        subject: "[g1] Turn 3 movement results".into(),
        body: templates.render("results.txt", &view).unwrap(),
        in_reply_to: None,
        date: "Wed, 1 Jan 2025 12:00:00 +0000".into(),
        attachment: Some((
            "results.json".into(),
            serde_json::to_string_pretty(&seen.json).unwrap(),
        )),
        html: None,
        picture: None,
        reply_to: None,
    };
    rich.dress(&mut mail);
    assert!(mail.picture.is_some());
    mail.to_bytes("Judge", "judge@example.test")
}

/// War! has the largest map and the largest results (every battle round, every die):
/// its results mail, map and all, stays under 200 kB.
#[test]
fn a_war_results_mail_with_its_map_stays_under_200_kb() {
    use pbem::rules::war_imperialism::scenario::Scenario;
    let text = std::fs::read_to_string(examples().join("war-imperialism-movement.toml")).unwrap();
    let s = Scenario::from_toml(&text, examples()).unwrap();
    let raw = results_mail(&Game::WarImperialism(s.state), &s.orders, s.seed);
    assert!(raw.len() < 200_000, "{} bytes", raw.len());
    let m = mail_parser::MessageParser::default()
        .parse(&raw[..])
        .unwrap();
    use mail_parser::MimeHeaders;
    let names: Vec<&str> = m
        .attachments()
        .filter_map(|a| a.attachment_name())
        .collect();
    assert_eq!(names, ["board.png", "results.json"]);
}
