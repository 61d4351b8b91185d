//! The Diplomacy board as a picture (see [`crate::picture`]): a schematic map of the 75
//! provinces, each a box at a fixed place from [`POSITIONS`] (roughly where it lies on
//! the usual map), joined by thin lines where they border; seas pale blue; every supply
//! centre marked with a star and its box tinted with its owner's colour; units as
//! tokens of their power's colour and letter (armies round, fleets square); the phase
//! just adjudicated drawn on it: moves and retreats as arrows (dashed: failed), and
//! dislodged units as small ringed tokens beside their province.
//!
//! Drawn from what the text board is made of: the game's `position_json(viewer)` and
//! the results the judge cut for that viewer (Diplomacy hides nothing).

use serde_json::Value;

use super::map::{bits, Kind, Map, Terrain};
use super::scenario;
use super::state::{Phase, State, Unit};
use super::syntax::{self, Action, Line};
use crate::picture::marks::{self, Arrow};
use crate::picture::palette::{self, tint, Colour, INK, OWNED, PAPER, RULE};
use crate::picture::{Font, Key, Legend, Pt, Style, Svg};
use crate::rules::game::{PhaseResults, Play, Viewer};
use crate::rules::ScenarioError;

/// Where each province's box stands (its centre), before [`ORIGIN`]: a schematic of
/// the standard map, north up, boxes never overlapping.
pub const POSITIONS: [(&str, f32, f32); 75] = [
    ("nao", 90.0, 190.0),
    ("nwg", 470.0, 90.0),
    ("bar", 820.0, 40.0),
    ("nwy", 560.0, 200.0),
    ("swe", 660.0, 250.0),
    ("fin", 760.0, 190.0),
    ("stp", 900.0, 200.0),
    ("cly", 270.0, 210.0),
    ("edi", 340.0, 230.0),
    ("iri", 150.0, 330.0),
    ("lvp", 280.0, 290.0),
    ("yor", 350.0, 310.0),
    ("wal", 260.0, 360.0),
    ("lon", 340.0, 370.0),
    ("nth", 450.0, 290.0),
    ("ska", 560.0, 300.0),
    ("bot", 740.0, 280.0),
    ("lvn", 820.0, 350.0),
    ("mos", 980.0, 330.0),
    ("den", 570.0, 360.0),
    ("bal", 680.0, 360.0),
    ("hel", 470.0, 380.0),
    ("eng", 240.0, 430.0),
    ("hol", 470.0, 440.0),
    ("bel", 400.0, 470.0),
    ("kie", 550.0, 430.0),
    ("ber", 640.0, 430.0),
    ("pru", 730.0, 420.0),
    ("war", 800.0, 480.0),
    ("pic", 330.0, 480.0),
    ("bre", 240.0, 510.0),
    ("par", 320.0, 550.0),
    ("bur", 420.0, 540.0),
    ("ruh", 500.0, 500.0),
    ("mun", 560.0, 550.0),
    ("sil", 680.0, 500.0),
    ("boh", 640.0, 570.0),
    ("gal", 790.0, 560.0),
    ("ukr", 900.0, 470.0),
    ("sev", 980.0, 520.0),
    ("mao", 80.0, 560.0),
    ("gas", 280.0, 620.0),
    ("mar", 380.0, 640.0),
    ("tyr", 580.0, 630.0),
    ("vie", 680.0, 630.0),
    ("bud", 780.0, 640.0),
    ("rum", 900.0, 640.0),
    ("pie", 470.0, 660.0),
    ("ven", 540.0, 700.0),
    ("tri", 650.0, 700.0),
    ("ser", 770.0, 720.0),
    ("spa", 230.0, 720.0),
    ("por", 100.0, 710.0),
    ("lyo", 380.0, 740.0),
    ("tus", 510.0, 755.0),
    ("adr", 600.0, 748.0),
    ("rom", 585.0, 795.0),
    ("apu", 650.0, 800.0),
    ("alb", 720.0, 770.0),
    ("gre", 770.0, 840.0),
    ("bul", 860.0, 730.0),
    ("bla", 1000.0, 640.0),
    ("con", 920.0, 800.0),
    ("ank", 1030.0, 760.0),
    ("arm", 1120.0, 730.0),
    ("smy", 1000.0, 860.0),
    ("syr", 1130.0, 860.0),
    ("aeg", 860.0, 880.0),
    ("eas", 1000.0, 930.0),
    ("ion", 710.0, 930.0),
    ("nap", 650.0, 865.0),
    ("tys", 510.0, 850.0),
    ("wes", 300.0, 830.0),
    ("naf", 210.0, 900.0),
    ("tun", 430.0, 910.0),
];

/// Where [`POSITIONS`]' origin lies on the picture (room for the title).
pub const ORIGIN: Pt = Pt::new(0.0, 32.0);
/// A province box's half width and half height.
pub const HALF_W: f32 = 31.0;
pub const HALF_H: f32 = 20.0;
/// A unit token's radius.
pub const TOKEN: f32 = 9.5;
const WIDTH: u32 = 1190;
const MAP_BOTTOM: f32 = 985.0;
/// Sea provinces' fill.
pub const SEA: Colour = Colour::rgb(0xE4, 0xEF, 0xF6);

/// The powers' colours, in map order (AUS ENG FRA GER ITA RUS TUR): the Okabe–Ito
/// colours nearest to the board's usual ones.
pub const COLOURS: [Colour; 7] = [
    palette::VERMILLION,
    palette::BLUE,
    palette::SKY_BLUE,
    palette::ORANGE,
    palette::BLUISH_GREEN,
    palette::REDDISH_PURPLE,
    palette::YELLOW,
];

/// A power's colour by its index in the map (grey past the seventh).
pub fn colour(power: u8) -> Colour {
    COLOURS
        .get(usize::from(power))
        .copied()
        .unwrap_or(palette::NEUTRAL)
}

/// Where things are drawn: tests compute pixels from it.
pub struct Layout;

impl Layout {
    /// The centre of a province's box (names compared without case; a coast is its
    /// province). `None` for a province the schematic does not know.
    pub fn anchor(id: &str) -> Option<Pt> {
        let prov = id.split('/').next().unwrap_or(id);
        POSITIONS
            .iter()
            .find(|(p, _, _)| p.eq_ignore_ascii_case(prov))
            .map(|&(_, x, y)| Pt::new(ORIGIN.x + x, ORIGIN.y + y))
    }

    /// Where a unit's token stands in its province's box (and its arrows start and
    /// end).
    pub fn token(id: &str) -> Option<Pt> {
        Self::anchor(id).map(|a| a.offset(0.0, 8.0))
    }

    /// A point inside a token that its letter leaves in the power's colour.
    pub fn token_probe(id: &str) -> Option<Pt> {
        Self::token(id).map(|t| t.offset(-(TOKEN - 3.5), 0.0))
    }

    /// Where a dislodged unit's token stands.
    pub fn ghost(id: &str) -> Option<Pt> {
        Self::anchor(id).map(|a| a.offset(21.0, 8.0))
    }

    /// Where a supply centre's star stands.
    pub fn star(id: &str) -> Option<Pt> {
        Self::anchor(id).map(|a| a.offset(-21.0, -10.0))
    }

    /// Points of a box that show its fill (clear of its label, star and tokens); an
    /// arrow may cross one of them, never all.
    pub fn fill_probes(id: &str) -> Vec<Pt> {
        let Some(a) = Self::anchor(id) else {
            return Vec::new();
        };
        vec![
            a.offset(-24.0, 13.0),
            a.offset(24.0, -13.0),
            a.offset(-24.0, 2.0),
            a.offset(0.0, -17.0),
        ]
    }
}

impl State {
    /// The hook of [`Play::picture`].
    pub(super) fn draw_picture(
        &self,
        viewer: Viewer,
        results: Option<&PhaseResults>,
    ) -> Option<Svg> {
        Some(draw(self.phase, &self.position_json(viewer), results))
    }
}

/// `pbem adjudicate SCENARIO --png`: the scenario's phase adjudicated and drawn.
pub fn scenario_picture(text: &str) -> Result<Svg, ScenarioError> {
    let s = scenario::Scenario::from_toml(text).map_err(ScenarioError::Invalid)?;
    let (after, report) = super::phase::adjudicate(&s.state, &scenario::as_given(&s.orders));
    let results = PhaseResults {
        json: scenario::output_value(&s.state, &after, &report),
        view: serde_json::to_value(super::report::results_view(&after, &report))
            .unwrap_or_default(),
    };
    Ok(draw(
        after.phase,
        &after.position_json(Viewer::Moderator),
        Some(&results),
    ))
}

/// The position of the standard 1901 start, drawn (for tests and the guide).
pub fn start_picture() -> Svg {
    let s = State::standard(Default::default());
    draw(s.phase, &s.position_json(Viewer::Public), None)
}

/// A move or retreat of the phase: from and to (location ids), its power, done or not.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub power: u8,
    pub from: String,
    pub to: String,
    pub done: bool,
}

/// The moves and retreats of a phase's results (their order lines read again). A line
/// refused as invalid (another power's unit, no unit there, no such border, …) moved
/// nothing: the unit it names held (DATC 4.E.1), so it is no arrow.
pub fn moves(results: &Value) -> Vec<Move> {
    let map = Map::standard();
    let mut out = Vec::new();
    for r in results["results"].as_array().into_iter().flatten() {
        if r["outcome"].as_str() == Some("invalid") {
            continue;
        }
        let (Some(order), Some(power)) = (
            r["order"].as_str(),
            r["power"].as_str().and_then(|p| map.power_by_id(p)),
        ) else {
            continue;
        };
        let Ok(Line::Unit { unit, action, .. }) = syntax::parse(map, order) else {
            continue;
        };
        let to = match action {
            Action::Move { to, .. } | Action::Retreat { to } => to,
            _ => continue,
        };
        out.push(Move {
            power,
            from: map.prov_id(unit.at.prov).to_string(),
            to: map.prov_id(to.prov).to_string(),
            done: r["outcome"].as_str() == Some("succeeds"),
        });
    }
    out
}

/// The phase a results JSON is of: its `phase` as `pbem adjudicate` writes it
/// (`S1901M`), or as the judge stores it, the phase id with the year as `turn`
/// (`spring`, 1901).
pub fn results_phase(json: &Value) -> Option<Phase> {
    let phase = json["phase"].as_str()?;
    Phase::parse(phase).or_else(|| {
        let year = u16::try_from(json["turn"].as_u64()?).ok()?;
        Phase::from_id(year, phase)
    })
}

fn units_of(list: &Value) -> Vec<Unit> {
    let map = Map::standard();
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| Unit::parse(map, u.as_str()?).ok())
        .collect()
}

fn draw_unit(svg: &mut Svg, at: Pt, r: f32, u: &Unit, map: &Map) {
    let letter: String = map.powers[usize::from(u.power)].1.chars().take(1).collect();
    match u.kind {
        Kind::Army => marks::token(svg, at, r, colour(u.power), &letter),
        Kind::Fleet => marks::square_token(svg, at, r * 0.9, colour(u.power), &letter),
    }
}

/// The picture of a position (`position`: the JSON of `position_json`), with the
/// results of the phase that led to it when given.
pub fn draw(phase: Phase, position: &Value, results: Option<&PhaseResults>) -> Svg {
    let map = Map::standard();
    let units = units_of(&position["units"]);
    let dislodged: Vec<Unit> = position["dislodged"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| Unit::parse(map, d["unit"].as_str()?).ok())
        .collect();
    let owners = position["supply_centers"].as_object();
    let owner = |prov: &str| -> Option<u8> {
        owners
            .and_then(|o| o.get(prov))
            .and_then(|v| v.as_str())
            .and_then(|p| map.power_by_id(p))
    };
    let moves = results.map(|r| moves(&r.json)).unwrap_or_default();

    let mut legend = Legend::new();
    for (q, (id, name)) in map.powers.iter().enumerate() {
        let q = q as u8;
        let centres = position["centres"][id.as_str()]["centres"]
            .as_u64()
            .unwrap_or(0);
        let letter: String = name.chars().take(1).collect();
        legend.power(
            colour(q),
            &letter,
            &format!(
                "{name} ({centres} centre{})",
                if centres == 1 { "" } else { "s" }
            ),
        );
    }
    legend.new_row();
    legend.item(Key::Token(palette::NEUTRAL, String::new()), "army");
    legend.item(Key::Square(palette::NEUTRAL, String::new()), "fleet");
    legend.item(Key::Star(PAPER), "supply centre (owner's tint)");
    legend.item(Key::Swatch(SEA), "sea");
    if moves.iter().any(|m| m.done) {
        legend.item(Key::Arrow(INK, false), "move");
    }
    if moves.iter().any(|m| !m.done) {
        legend.item(Key::Arrow(INK, true), "failed move");
    }
    if !dislodged.is_empty() {
        legend.item(
            Key::Ghost(palette::NEUTRAL, String::new()),
            "dislodged: retreats",
        );
    }
    let legend_top = MAP_BOTTOM + 8.0;
    let legend_width = WIDTH as f32 - 32.0;
    let height = (legend_top + legend.height(legend_width) + 10.0).ceil() as u32;
    let mut svg = Svg::new(WIDTH, height, PAPER);

    let label = match results.map(|r| &r.json) {
        Some(j) => match results_phase(j) {
            Some(p) => format!("{}: results", p.words()),
            None => "results".to_string(),
        },
        None => phase.words(),
    };
    let title = format!("Diplomacy — {label}");
    svg.title(&title);
    svg.text(Pt::new(16.0, 26.0), &title, Font::new(16.0).bold());

    // Borders: a thin line between every two provinces that touch.
    for (p, prov) in map.provinces.iter().enumerate() {
        let Some(a) = Layout::anchor(&prov.id) else {
            continue;
        };
        for q in bits(map.any_border(p as u8)) {
            if usize::from(q) <= p {
                continue;
            }
            if let Some(b) = Layout::anchor(map.prov_id(q)) {
                svg.crisp_line(a, b, Style::stroke(RULE, 1.0));
            }
        }
    }

    // Provinces: seas pale blue, land white, supply centres in their owner's tint.
    for (p, prov) in map.provinces.iter().enumerate() {
        let Some(a) = Layout::anchor(&prov.id) else {
            continue;
        };
        let sea = prov.terrain == Terrain::Sea;
        let fill = match owner(&prov.id) {
            Some(q) if map.is_centre(p as u8) => tint(colour(q), OWNED),
            _ if sea => SEA,
            _ => PAPER,
        };
        svg.rounded_rect(
            a.offset(-HALF_W, -HALF_H),
            2.0 * HALF_W,
            2.0 * HALF_H,
            if sea { 12.0 } else { 4.0 },
            Style::both(fill, if sea { RULE } else { INK }, 1.0),
        );
    }

    // This phase's moves and retreats: failed ones first, so a move done is never
    // hidden under one that failed; over the boxes, under the tokens and names.
    let ordered = moves
        .iter()
        .filter(|m| !m.done)
        .chain(moves.iter().filter(|m| m.done));
    for m in ordered {
        let (Some(from), Some(to)) = (Layout::token(&m.from), Layout::token(&m.to)) else {
            continue;
        };
        let a = Arrow::new(5.0).trim(TOKEN + 2.0, TOKEN + 3.0);
        let a = if m.done { a } else { a.dashed() };
        marks::arrow(&mut svg, from, to, colour(m.power), a);
    }

    // Names, stars, units.
    let name_font = Font::new(10.0).bold().middle();
    for (p, prov) in map.provinces.iter().enumerate() {
        let Some(a) = Layout::anchor(&prov.id) else {
            continue;
        };
        let crossed = moves.iter().any(|m| m.from == prov.id || m.to == prov.id);
        let font = if crossed {
            name_font.halo(PAPER, 3.0)
        } else {
            name_font
        };
        svg.text(a.offset(0.0, -6.0), &prov.id, font);
        if map.is_centre(p as u8) {
            let c = owner(&prov.id).map(colour).unwrap_or(PAPER);
            if let Some(at) = Layout::star(&prov.id) {
                marks::star(&mut svg, at, 6.5, Style::both(c, INK, 1.0));
            }
        }
    }
    for u in &units {
        if let Some(at) = Layout::token(map.loc_id(u.loc)) {
            draw_unit(&mut svg, at, TOKEN, u, map);
        }
    }
    for u in &dislodged {
        if let Some(at) = Layout::ghost(map.loc_id(u.loc)) {
            svg.circle(
                at,
                TOKEN * 0.7 + 2.5,
                Style::both(PAPER, INK, 1.5).dashed(3.0, 2.0),
            );
            draw_unit(&mut svg, at, TOKEN * 0.7, u, map);
        }
    }
    legend.draw(&mut svg, Pt::new(16.0, legend_top), legend_width);
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_province_has_a_box_and_no_two_boxes_overlap() {
        let map = Map::standard();
        assert_eq!(map.provinces.len(), POSITIONS.len());
        for p in &map.provinces {
            assert!(Layout::anchor(&p.id).is_some(), "{} has no place", p.id);
        }
        for (i, a) in POSITIONS.iter().enumerate() {
            for b in &POSITIONS[i + 1..] {
                let apart = (a.1 - b.1).abs() >= 2.0 * HALF_W + 2.0
                    || (a.2 - b.2).abs() >= 2.0 * HALF_H + 2.0;
                assert!(apart, "{} and {} overlap", a.0, b.0);
            }
            let at = Layout::anchor(a.0).unwrap();
            assert!(at.x - HALF_W >= 0.0 && at.x + HALF_W <= WIDTH as f32);
            assert!(at.y - HALF_H >= ORIGIN.y && at.y + HALF_H <= MAP_BOTTOM);
        }
    }

    #[test]
    fn moves_are_read_from_the_results_orders() {
        let json = serde_json::json!({"results": [
            {"power": "FRA", "order": "FRA A par - bur", "outcome": "succeeds"},
            {"power": "RUS", "order": "RUS F stp/sc - bot", "outcome": "fails"},
            {"power": "GER", "order": "GER A mun H", "outcome": "succeeds"},
        ]});
        let m = moves(&json);
        assert_eq!(m.len(), 2);
        assert_eq!(
            (m[0].from.as_str(), m[0].to.as_str(), m[0].done),
            ("par", "bur", true)
        );
        assert_eq!(
            (m[1].from.as_str(), m[1].to.as_str(), m[1].done),
            ("stp", "bot", false)
        );
    }
}
