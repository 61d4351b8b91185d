use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    pbem::cli::run(pbem::cli::Cli::parse())
}
