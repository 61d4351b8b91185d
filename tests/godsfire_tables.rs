//! The seed's two tables cell by cell, through whole phases: every column and every
//! roll of the combat results table (G5.3) and of the transit attack table (G5.4),
//! each read against the rules page (when it is beside the project) and checked for
//! its effect on the position.

use std::path::Path;

use serde_json::Value;

/// The tables as the rules of record print them, row by row.
const CRT: [[&str; 6]; 6] = [
    ["Ar", "Dr", "D-1", "DE", "DE", "DE"],
    ["Ar", "ne", "Dr", "D-2", "DE", "DE"],
    ["A-2", "ne", "Dr", "D-1", "D-2", "DE"],
    ["AE", "Ar", "ne", "Dr", "D-1", "DE"],
    ["AE", "AE", "Ar", "ne", "D-1", "D-2"],
    ["AE", "AE", "A-1", "Ar", "Dr", "D-2"],
];
const TRANSIT: [[&str; 3]; 6] = [
    ["ME", "ME", "ME"],
    ["ME", "ME", "M-1"],
    ["ME", "M-1", "Ms"],
    ["ME", "Ms", "ne"],
    ["Ms", "ne", "ne"],
    ["ne", "ne", "S-1"],
];

/// The rows of the markdown table whose header starts with `header`.
fn page_table(page: &str, header: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in page.lines() {
        let line = line.trim();
        if line.starts_with(header) {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        if cells[0].starts_with('-') && cells[0].chars().all(|c| c == '-') {
            continue;
        }
        rows.push(cells[1..].to_vec());
    }
    rows
}

#[test]
fn g5_3_and_g5_4_the_tables_are_the_rules_pages() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/rules/godsfire.md");
    let Ok(page) = std::fs::read_to_string(&path) else {
        eprintln!("{path:?} not found: tables not compared");
        return;
    };
    let crt = page_table(&page, "| roll | 1-3 |");
    let transit = page_table(&page, "| roll | -2 |");
    assert_eq!(crt.len(), 6);
    assert_eq!(transit.len(), 6);
    for r in 0..6 {
        assert_eq!(crt[r], CRT[r], "CRT row {}", r + 1);
        assert_eq!(transit[r], TRANSIT[r], "transit row {}", r + 1);
    }
}

const MAP: &str = r#"
rules = "godsfire"
turn = 2
seed = 5
[map]
width = 10
height = 8
[[system]]
name = "Sirius"
at = "A1"
owner = "red"
planets = [[{ economy = "I-2", party = "M", allegiance = 4 }]]
[[system]]
name = "Vega"
at = "J8"
owner = "blue"
planets = [[{ economy = "I-2", party = "M", allegiance = 4 }]]
[[power]]
id = "red"
ng = "Sirius"
at_war = ["blue"]
[[power]]
id = "blue"
ng = "Vega"
at_war = ["red"]
"#;

fn stack(power: &str, at: &str, sqd: u32, ag: u32) -> String {
    format!("[[stack]]\npower = \"{power}\"\nat = \"{at}\"\nunits = {{ SQD = {sqd}, AG = {ag} }}\n")
}

fn adjudicate(text: &str) -> Value {
    let json = pbem::scenario::adjudicate_text(text, Path::new(".")).expect("adjudicates");
    serde_json::from_str(&json).unwrap()
}

fn units_at(out: &Value, power: &str, at: &str) -> u64 {
    out["stacks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["power"] == power && s["at"] == at)
        .map(|s| {
            ["SQD", "AG", "PDF"]
                .iter()
                .map(|k| s["units"][k].as_u64().unwrap())
                .sum::<u64>()
        })
        .sum()
}

/// SQDs and AGs of a stack.
type Force = (u32, u32);

/// Red at D5 attacks blue at E5 with these forces, one per odds column.
const COLUMNS: [(&str, Force, Force); 6] = [
    ("1-3", (1, 0), (3, 0)),
    ("1-2", (1, 0), (2, 0)),
    ("1-1", (1, 0), (1, 0)),
    ("2-1", (2, 0), (1, 0)),
    ("3-1", (3, 0), (1, 0)),
    ("4-1", (3, 0), (0, 1)),
];

#[test]
fn g5_3_every_cell_of_the_combat_results_table() {
    for (column, &(odds, red, blue)) in COLUMNS.iter().enumerate() {
        for roll in 1..=6 {
            let text = format!(
                "phase = \"combat\"\ndice = [{roll}]\n{MAP}{}{}[orders]\nred = \"D5 ATTACK E5\"\n",
                stack("red", "D5", red.0, red.1),
                stack("blue", "E5", blue.0, blue.1)
            );
            let out = adjudicate(&text);
            let c = &out["combats"][0];
            let want = CRT[roll - 1][column];
            let at = format!("{odds}, roll {roll}");
            assert_eq!(c["odds"], odds, "{at}");
            assert_eq!(c["roll"], roll, "{at}");
            assert_eq!(c["result"], want, "{at}");
            let (r0, b0) = (u64::from(red.0 + red.1), u64::from(blue.0 + blue.1));
            let (r, b) = (units_at(&out, "red", "D5"), units_at(&out, "blue", "E5"));
            match want {
                "AE" => assert_eq!(r, 0, "{at}"),
                "DE" => assert_eq!(b, 0, "{at}"),
                "A-1" | "A-2" => {
                    let n = u64::from(want.as_bytes()[2] - b'0');
                    assert_eq!(r, r0.saturating_sub(n), "{at}");
                }
                "D-1" | "D-2" => {
                    let n = u64::from(want.as_bytes()[2] - b'0');
                    assert_eq!(b, b0.saturating_sub(n), "{at}");
                }
                "Ar" => {
                    assert_eq!((r, b), (0, b0), "{at}: red left D5");
                    assert_eq!(c["retreats"][0]["power"], "red", "{at}");
                }
                "Dr" => {
                    assert_eq!((r, b), (r0, 0), "{at}: blue left E5");
                    assert_eq!(c["retreats"][0]["power"], "blue", "{at}");
                }
                _ => assert_eq!((r, b), (r0, b0), "{at}: no effect"),
            }
        }
    }
}

/// Blue's interceptors at E5 and red's mover, one per column (d - A).
const TRANSIT_COLUMNS: [(i64, Force, Force); 3] = [
    // SQD 2 + AG 1 = attack 5 against an AG's defence 1: -4.
    (-2, (2, 1), (0, 1)),
    // SQD: attack 2 against an AG's defence 1: -1.
    (-1, (1, 0), (0, 1)),
    // AG: attack 1 against a SQD's defence 2: +1.
    (0, (0, 1), (1, 0)),
];

#[test]
fn g5_4_every_cell_of_the_transit_table() {
    for (k, &(column, blue, red)) in TRANSIT_COLUMNS.iter().enumerate() {
        for roll in 1..=6 {
            let text = format!(
                "phase = \"movement\"\ndice = [{roll}]\n{MAP}{}{}[orders]\nred = \"D5 -> E5 F5\"\nblue = \"E5 INTERCEPT\"\n",
                stack("red", "D5", red.0, red.1),
                stack("blue", "E5", blue.0, blue.1)
            );
            let out = adjudicate(&text);
            let at = format!("column {column}, roll {roll}");
            let attack = &out["transit_attacks"][0];
            let r = &attack["rolls"][0];
            let want = TRANSIT[roll - 1][k];
            assert_eq!(r["column"], column, "{at}");
            assert_eq!(r["roll"], roll, "{at}");
            assert_eq!(r["result"], want, "{at}");
            assert_eq!(attack["rolls"].as_array().unwrap().len(), 1, "k = 1");
            let mv = &out["moves"][0];
            let blue0 = u64::from(blue.0 + blue.1);
            match want {
                "ME" | "M-1" => {
                    assert_eq!(mv["outcome"], "eliminated", "{at}");
                    assert_eq!(units_at(&out, "red", "F5"), 0, "{at}");
                }
                "Ms" => {
                    assert_eq!(mv["outcome"], "stopped", "{at}");
                    assert_eq!(units_at(&out, "red", "D5"), 1, "{at}");
                }
                "S-1" => {
                    assert_eq!(units_at(&out, "red", "F5"), 1, "{at}");
                    assert_eq!(units_at(&out, "blue", "E5"), blue0 - 1, "{at}");
                }
                _ => {
                    assert_eq!(mv["outcome"], "arrived", "{at}");
                    assert_eq!(units_at(&out, "blue", "E5"), blue0, "{at}");
                }
            }
        }
    }
}

#[test]
fn g5_7_a_result_on_a_stack_gone_by_an_earlier_combat_says_why_it_moves_nothing() {
    // Combat 1 is red's D5 ATTACK E5 (red first in the game's order), combat 2 blue's
    // E5 ATTACK F6: 6 to 4 and 4 to 2, both 2-1. Combat 1 drives blue's stack from E5
    // (Dr, roll 4) or eliminates it (DE, roll 1) before combat 2's Ar (roll 6) would
    // move it: the results say why the Ar moves nothing.
    for (first, what) in [
        (4, "retreated to D4 in combat 1"),
        (1, "been eliminated in combat 1"),
    ] {
        let text = format!(
            "phase = \"combat\"\ndice = [{first}, 6]\n{MAP}{}{}{}[orders]\nred = \"D5 ATTACK E5\"\nblue = \"E5 ATTACK F6\"\n",
            stack("red", "D5", 3, 0),
            stack("blue", "E5", 2, 0),
            stack("red", "F6", 1, 0),
        );
        let out = adjudicate(&text);
        let c = &out["combats"][1];
        assert_eq!((&c["odds"], &c["result"]), (&"2-1".into(), &"Ar".into()));
        assert_eq!(c["retreats"], serde_json::json!([]));
        let note = format!("Ar moves nothing: blue's 2 SQD at E5 had already {what}");
        let events: Vec<&str> = out["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["step"] == "G5.7")
            .map(|e| e["text"].as_str().unwrap())
            .collect();
        assert!(
            events.contains(&format!("combat 2: {note}").as_str()),
            "{events:?}"
        );
        let blue = out["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["power"] == "blue")
            .unwrap();
        assert!(
            blue["detail"]
                .as_str()
                .unwrap()
                .ends_with(&format!(": Ar; {note}")),
            "{blue}"
        );
    }
}
