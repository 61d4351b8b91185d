//! Drawing and encoding one board picture, as the judge does for a results mail: the
//! standard Foundation and Empire board after a movement phase with its moves, and the
//! standard Godsfire map. Also the SVG alone and the PNG alone, to see where the time
//! goes; and the two big maps (Diplomacy, War!), rasterised and encoded.
//!
//! Run: `cargo bench --bench picture`. Target: a standard board drawn and encoded in
//! under 20 ms. On a loaded machine, `PICTURE_CPU=1 cargo bench --bench picture`
//! prints the CPU time of each stage instead.

use std::collections::BTreeMap;

use criterion::{criterion_group, criterion_main, Criterion};
use pbem::rules::game::{Game, Viewer};

/// The demo's first turn, adjudicated: 12 fleets, five moves.
fn foundation() -> (Game, pbem::rules::game::PhaseResults) {
    let start: BTreeMap<String, Vec<String>> = [
        ("foundation", ["Terminus", "Anacreon", "Smyrno"]),
        ("imperium", ["Trantor", "Neotrantor", "Siwenna"]),
        ("union", ["Kalgan", "Haven", "Radole"]),
        ("tazenda", ["Tazenda", "Rossem", "Gentri"]),
    ]
    .into_iter()
    .map(|(p, s)| (p.to_string(), s.iter().map(|x| x.to_string()).collect()))
    .collect();
    let game = Game::new(
        pbem::rules::RuleSetId::FoundationEmpire,
        &toml::Table::new(),
        Some(&start),
        7,
    )
    .unwrap();
    let orders: BTreeMap<String, String> = [
        ("foundation", "B2 - C2\nA1 S\nC1 S"),
        ("imperium", "F2 - E2\nE1 S\nG1 S"),
        ("union", "E4 - D3\nG4 H\nF5 - F4"),
        ("tazenda", "C4 - C3\nA4 S\nB5 S"),
    ]
    .into_iter()
    .map(|(p, o)| (p.to_string(), o.to_string()))
    .collect();
    let adj = game.adjudicate(&orders, 7);
    (adj.game, adj.results)
}

/// Spring 1901, every power moving.
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

fn picture(c: &mut Criterion) {
    if std::env::var("PICTURE_CPU").is_ok() {
        cpu_split();
        return;
    }
    let (game, results) = foundation();
    let play = game.play();
    let viewer = Viewer::Power("foundation");
    c.bench_function("foundation_picture_draw_and_encode", |b| {
        b.iter(|| {
            play.picture(viewer, Some(&results))
                .unwrap()
                .to_png()
                .unwrap()
        })
    });
    c.bench_function("foundation_picture_svg_only", |b| {
        b.iter(|| play.picture(viewer, Some(&results)).unwrap().to_text())
    });
    let svg = play.picture(viewer, Some(&results)).unwrap();
    c.bench_function("foundation_picture_rasterise_only", |b| {
        b.iter(|| svg.to_pixels().unwrap())
    });
    let pixels = svg.to_pixels().unwrap();
    c.bench_function("foundation_picture_encode_only", |b| {
        b.iter(|| pbem::picture::encode(&pixels).unwrap())
    });

    let godsfire = Game::new(
        pbem::rules::RuleSetId::Godsfire,
        &toml::Table::new(),
        None,
        7,
    )
    .unwrap();
    // The big maps: Diplomacy's spring 1901 and the War! example's movement phase, as
    // `pbem adjudicate --png` draws them.
    let examples = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"));
    let war = std::fs::read_to_string(examples.join("war-imperialism-movement.toml")).unwrap();
    for (name, text) in [("diplomacy", DIPLOMACY), ("war", war.as_str())] {
        let svg = pbem::picture::scenario::picture(text, examples).unwrap();
        c.bench_function(&format!("{name}_picture_rasterise_and_encode"), |b| {
            b.iter(|| svg.to_png().unwrap())
        });
    }
    c.bench_function("godsfire_picture_draw_and_encode", |b| {
        b.iter(|| {
            godsfire
                .play()
                .picture(Viewer::Power("red"), None)
                .unwrap()
                .to_png()
                .unwrap()
        })
    });
}

criterion_group!(benches, picture);
criterion_main!(benches);

/// CPU time of this process in seconds (utime + stime from /proc/self/stat), for
/// machines so loaded that wall time says little.
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let Some(end) = s.rfind(')') else { return 0.0 };
    let f: Vec<&str> = s[end + 2..].split(' ').collect();
    let field = |k: usize| f.get(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (field(11) + field(12)) / 100.0
}

/// `PICTURE_CPU=1 cargo bench --bench picture`: CPU time per stage instead of
/// criterion's wall time.
fn cpu_split() {
    let (game, results) = foundation();
    let play = game.play();
    let viewer = Viewer::Power("foundation");
    let n: u32 = std::env::var("PICTURE_CPU")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let per = |t: f64| (cpu() - t) * 1000.0 / f64::from(n);
    let t = cpu();
    for _ in 0..n {
        play.picture(viewer, Some(&results)).unwrap();
    }
    let draw = per(t);
    let svg = play.picture(viewer, Some(&results)).unwrap();
    let t = cpu();
    for _ in 0..n {
        svg.to_pixels().unwrap();
    }
    let raster = per(t);
    let pixels = svg.to_pixels().unwrap();
    let t = cpu();
    for _ in 0..n {
        pbem::picture::encode(&pixels).unwrap();
    }
    let encode = per(t);
    let t = cpu();
    for _ in 0..n {
        play.picture(viewer, Some(&results))
            .unwrap()
            .to_png()
            .unwrap();
    }
    let total = per(t);
    println!(
        "CPU per picture: draw (SVG) {draw:.2} ms, rasterise {raster:.2} ms, encode {encode:.2} ms; all {total:.2} ms; PNG {} bytes",
        pbem::picture::encode(&pixels).unwrap().len()
    );
}
