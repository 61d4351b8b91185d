//! What the commands print.

/// Writes a command's output to stdout. A reader that stops early (`| head`) is not an
/// error: the rest is dropped quietly instead of panicking on the broken pipe.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => eprintln!("pbem: writing the output: {e}"),
        Ok(()) => {}
    }
}
