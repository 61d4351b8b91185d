//! TOML errors told in one line, as the command line and the judge report them.

/// A TOML error as one line: `line N: message`.
pub fn one_line(e: &toml::de::Error, source: &str) -> String {
    let message = plain(e.message());
    match e.span() {
        Some(span) => {
            let line = source[..span.start.min(source.len())].matches('\n').count() + 1;
            format!("line {line}: {message}")
        }
        None => message,
    }
}

/// serde's words in a configuration's terms: a key, not a field; a type as a person
/// says it; one line.
fn plain(message: &str) -> String {
    let one = message.trim().replace('\n', " ");
    let one = one
        .replace("unknown field", "unknown key")
        .replace("missing field", "missing key");
    // "invalid type: string \"x\", expected u64" → "expected an integer, found string \"x\""
    if let Some(rest) = one.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return format!("expected {}, found {found}", kind(expected));
        }
    }
    one
}

/// A serde type name as a person says it.
fn kind(expected: &str) -> String {
    match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize" => {
            "an integer".into()
        }
        "a boolean" | "bool" => "true or false".into(),
        other => other.to_string(),
    }
}
