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
        /// Also write the board after the phase, with its moves, as a PNG picture.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
    },
    /// Run the judge: poll the mailbox, adjudicate, send replies, sleep, again.
    Serve {
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// One pass of the judge (for cron and tests), then exit.
    PollOnce {
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// List the replies waiting to be sent and those a server refused for good; with
    /// --resend-failed, put the latter back to be sent again (the judge must be stopped).
    Outbox {
        #[arg(long)]
        resend_failed: bool,
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// Show a game's stored state (read-only).
    Game {
        #[command(subcommand)]
        command: GameCommand,
    },
    /// Print the hash of a password, for games.toml (reads the password from stdin).
    HashPassword,
    /// Play a short scripted 4-player game through the whole judge, in a temp folder.
    Demo,
    /// Time the adjudication of generated movement phases of several sizes.
    Bench {
        /// Fleet counts to measure, comma-separated.
        #[arg(long, value_delimiter = ',', default_values_t = [1_000, 10_000, 100_000])]
        fleets: Vec<usize>,
        /// Distinct phases adjudicated per size (default: enough for a steady median;
        /// 0 only generates one, for counting instructions with valgrind).
        #[arg(long)]
        phases: Option<usize>,
        /// Instead: process this many order mails from a Maildir inbox in one pass.
        #[arg(long)]
        mail: Option<usize>,
    },
}

#[derive(Subcommand, Debug)]
pub enum GameCommand {
    Show {
        id: String,
        /// The state as JSON (the position in the shape of `pbem adjudicate`).
        #[arg(long)]
        json: bool,
        /// Also write the board as a PNG picture (as a moderator sees it).
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
}

/// Runs a parsed command line; errors are printed here, once, on one line.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Adjudicate { scenario, png } => {
            match crate::scenario::adjudicate_file(&scenario) {
                Ok(json) => {
                    if let Some(png) = png {
                        if let Err(e) = crate::picture::scenario::write_png(&scenario, &png) {
                            eprintln!("pbem: {e}");
                            return ExitCode::from(2);
                        }
                    }
                    crate::output::emit(&json);
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("pbem: {}: {e}", scenario.display());
                    ExitCode::from(2)
                }
            }
        }
        Command::Serve { config } => report(crate::service::serve(&config)),
        Command::PollOnce { config } => report(crate::service::poll_once(&config)),
        Command::Game {
            command:
                GameCommand::Show {
                    id,
                    json,
                    png,
                    config,
                },
        } => report(crate::service::show(&config, &id, json, png.as_deref())),
        Command::Outbox {
            resend_failed,
            config,
        } => report(crate::service::outbox(&config, resend_failed)),
        Command::HashPassword => report(crate::service::hash_password()),
        Command::Demo => report(crate::demo::run().map(|text| print!("{text}"))),
        Command::Bench {
            mail: Some(mails), ..
        } => report(crate::bench::mail_batch(mails).map(|t| {
            println!(
                "{} order mails in {:.2} s: {:.0} mails/s ({} receipts written)",
                t.mails,
                t.elapsed.as_secs_f64(),
                t.mails as f64 / t.elapsed.as_secs_f64(),
                t.replies
            )
        })),
        Command::Bench { fleets, phases, .. } => {
            print!(
                "{}",
                crate::bench::table(&crate::bench::movement(&fleets, phases))
            );
            ExitCode::SUCCESS
        }
    }
}

fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pbem: {e}");
            ExitCode::from(2)
        }
    }
}
