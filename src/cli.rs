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
    /// Time the adjudication of generated movement phases of several sizes.
    Bench {
        /// Fleet counts to measure, comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = [1_000, 10_000, 100_000])]
        fleets: Vec<usize>,
        /// Distinct phases adjudicated per size (default: enough for a steady median;
        /// 0 only generates one, for counting instructions with valgrind).
        #[arg(long)]
        phases: Option<usize>,
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
        Command::Bench { fleets, phases } => {
            print!(
                "{}",
                crate::bench::table(&crate::bench::movement(&fleets, phases))
            );
            ExitCode::SUCCESS
        }
    }
}
