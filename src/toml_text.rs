//! TOML errors told in one line, as the command line and the judge report them.

/// A TOML error as one line: `line N: message`.
pub fn one_line(e: &toml::de::Error, source: &str) -> String {
    let message = e.message().trim().replace('\n', " ");
    match e.span() {
        Some(span) => {
            let line = source[..span.start.min(source.len())].matches('\n').count() + 1;
            format!("line {line}: {message}")
        }
        None => message,
    }
}
