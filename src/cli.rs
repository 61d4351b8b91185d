//! The `pbem` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "pbem",
    version,
    about = "A play-by-email judge for board war games"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Adjudicate one phase written as a scenario file; print the results as JSON.
    Adjudicate {
        /// The scenario file (TOML).
        scenario: PathBuf,
    },
}

/// Runs a parsed command line; errors are printed here, once, on one line.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Adjudicate { scenario } => match crate::scenario::adjudicate_file(&scenario) {
            Ok(json) => {
                print!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("pbem: {}: {e}", scenario.display());
                ExitCode::from(2)
            }
        },
    }
}
