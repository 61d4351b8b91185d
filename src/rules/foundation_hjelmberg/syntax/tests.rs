use super::*;
use crate::rules::foundation_hjelmberg::data::standard;
use crate::rules::foundation_hjelmberg::order::line_text;

fn canon(text: &str) -> String {
    let d = standard();
    line_text(&d, &parse_line(&d, text, false).unwrap())
}

fn refused(text: &str) -> String {
    let d = standard();
    parse_line(&d, text, false).unwrap_err()
}

#[test]
fn h10_lines_read_in_any_case_and_print_canonically() {
    assert_eq!(
        canon("place trade ii bump l r2"),
        "PLACE TRADE II BUMP L R2"
    );
    assert_eq!(canon("RAISE tr 1"), "RAISE TRADE I");
    assert_eq!(canon("retrieve trade-ii"), "RETRIEVE TRADE II");
    assert_eq!(canon("st ii b1 ship a4"), "TRAVEL II B1 SHIP A4");
    assert_eq!(canon("colonise i o5 wild"), "COLONIZE I O5 WILD");
    assert_eq!(canon("colonize 3 core KIN-3"), "COLONIZE III CORE kin-3");
    assert_eq!(canon("trade iii m1 m2 core"), "TRADE III M1 M2 CORE");
    assert_eq!(
        canon("produce ii m2 once using o1 o4"),
        "PRODUCE II M2 ONCE USING O1 O4"
    );
    assert_eq!(
        canon("research i trade ii BLUE"),
        "RESEARCH I TRADE II blue"
    );
    assert_eq!(canon("research iii personal"), "RESEARCH III PERSONAL");
    assert_eq!(canon("research 3 goal 2"), "RESEARCH III GOAL 2");
    assert_eq!(
        canon("battle ii b2 take m3 and battle i a4"),
        "BATTLE II B2 TAKE M3 AND BATTLE I A4"
    );
    assert_eq!(canon("deposit o3"), "DEPOSIT O3");
    assert_eq!(canon("exchange red for blue"), "EXCHANGE red FOR blue");
    assert_eq!(canon("return a3"), "RETURN A3");
    assert_eq!(canon("empire yield"), "EMPIRE YIELD");
    assert_eq!(
        canon("trade i o1 o3 else trade i o5 o7"),
        "TRADE I O1 O3 ELSE TRADE I O5 O7"
    );
    assert_eq!(
        canon("trade i o1 o3 bump l down from iii gain red"),
        "TRADE I O1 O3 FROM III DOWN GAIN red BUMP L"
    );
    assert_eq!(canon("place space-travel ii"), "PLACE TRAVEL II");
    assert_eq!(
        canon("retrieve centre to battle"),
        "RETRIEVE CENTER TO BATTLE"
    );
}

#[test]
fn h10_a_word_that_does_not_belong_makes_the_line_invalid() {
    assert!(refused("PLACE TRADE II NOW").contains("does not belong"));
    assert!(refused("COLONIZE I M3").contains("outer"));
    assert!(refused("BATTLE I B2").contains("ring A"));
    assert!(refused("TRADE I O1 M2").contains("two outer"));
    assert!(refused("RESEARCH I TRADE III").contains("level-II"));
    assert!(refused("RESEARCH I TRADE II black").contains("not a colour of"));
    assert!(refused("TRAVEL II B1 WILD").contains("WILD"));
    assert!(refused("START A1 blue").contains("setup"));
    assert!(refused("RETURN A3 ELSE RETURN A4").contains("alternatives"));
    assert!(refused("TRADE I O1 O3 ELSE DEPOSIT O3").contains("alternative"));
    assert!(refused("RETRIEVE TRADE I DOWN").contains("DOWN"));
    assert!(refused("BATTLE I A4 TAKE O9").contains("not next to"));
    assert!(refused("FLY A1").contains("not an order"));
    assert!(refused("TRADE I O1 O3 FROM I FROM II").contains("twice"));
    let d = standard();
    assert!(parse_line(&d, "PLACE TRADE I", true).is_err());
    assert!(parse_line(&d, "START A5 blue ELSE START A7 green", true).is_ok());
    assert!(parse_line(&d, "START B1 blue", true).is_err());
}

#[test]
fn h10_comments_blank_and_quoted_lines_are_left_out() {
    let got: Vec<(u32, &str)> =
        lines("# c\nPLACE TRADE I\n\n> quoted\nRAISE TRADE I # why\n").collect();
    assert_eq!(got, vec![(1, "PLACE TRADE I"), (2, "RAISE TRADE I")]);
}
