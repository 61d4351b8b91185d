//! Lists as a sentence writes them, for the words the rule sets send players.

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(items: &[String]) -> String {
    joined(items, "and")
}

/// `a`, `a or b`, `a, b or c`.
pub fn or_list(items: &[String]) -> String {
    joined(items, "or")
}

fn joined(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {word} {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_a_sentence() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(and_list(&[]), "");
        assert_eq!(and_list(&names(&["red"])), "red");
        assert_eq!(and_list(&names(&["red", "blue"])), "red and blue");
        assert_eq!(or_list(&names(&["a", "b", "c"])), "a, b or c");
    }
}
