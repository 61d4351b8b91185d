//! The `pbem` command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "pbem",
    version = crate::VERSION,
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
        /// The judge's configuration: its address, mail transport, store and games.
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// One pass of the judge (for cron and tests), then exit.
    PollOnce {
        /// The judge's configuration: its address, mail transport, store and games.
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// List the replies waiting to be sent and those a server refused for good; with
    /// --resend-failed, put the latter back to be sent again (the judge must be stopped).
    Outbox {
        /// Put the replies set aside back in the outbox, to be sent on the next pass.
        #[arg(long)]
        resend_failed: bool,
        /// The judge's configuration: its address, mail transport, store and games.
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// A game's stored state (read-only), or a game moved between judges.
    Game {
        /// What to do with the game.
        #[command(subcommand)]
        command: GameCommand,
    },
    /// Write a backup of the whole store (every game, its history, the outbox) into a
    /// folder, as one portable file. Works while `pbem serve` runs (the judge takes it).
    Backup {
        /// The folder the backup file goes into (made if missing).
        dir: PathBuf,
        /// The judge's configuration: its address, mail transport, store and games.
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// Bring a backup back into a new, empty store (the judge must be stopped; the
    /// store path is the one in games.toml).
    Restore {
        /// The backup file (`pbem-….backup`).
        file: PathBuf,
        /// The judge's configuration: its address, mail transport, store and games.
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// Ask the running judge (pbem serve) to read games.toml again, as SIGHUP does: new
    /// games start, changed settings take effect, removed games are archived. A file
    /// that does not read is refused with its reason and nothing changes.
    Reload {
        /// The judge's configuration: its address, mail transport, store and games.
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// Check a finished game's dice: the history.json of its game-over mail (the
    /// revealed secret against the commitment of the welcome mail, then every phase
    /// played again and compared with the recorded results).
    VerifyDice {
        /// The history.json attached to the game-over mail.
        file: PathBuf,
    },
    /// Print the hash of a password, for games.toml (reads the password from stdin).
    HashPassword,
    /// Play a short scripted 4-player game through the whole judge, in a temp folder.
    Demo,
    /// Time the adjudication of generated movement phases of several sizes.
    Bench {
        /// Fleet counts to measure, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "1000,10000,100000")]
        fleets: Vec<usize>,
        /// Distinct phases of the largest size (default: enough for a steady median);
        /// the sizes are measured side by side in rounds, each smaller size adjudicating
        /// as many fleets a round in more phases. 0 only generates one phase of each,
        /// for counting instructions with valgrind.
        #[arg(long)]
        phases: Option<usize>,
        /// Also time each stage of a movement phase (position tables, orders read,
        /// resolution, results, position after movement) and print where the time goes.
        #[arg(long)]
        stages: bool,
        /// Also time the floor of each phase: its orders and fleets read and its
        /// results and fleets written, nothing adjudicated; and print the lowest growth
        /// any adjudication of these records could show on this machine.
        #[arg(long)]
        floor: bool,
        /// Instead: process this many order mails from a Maildir inbox in one pass.
        #[arg(long)]
        mail: Option<usize>,
        /// Instead: a judge hosting this many games (comma-separated counts): config
        /// read, first pass, idle `serve` CPU and memory, mails to one game or spread.
        #[arg(long, value_delimiter = ',')]
        games: Option<Vec<usize>>,
        /// Seconds of idle `serve` measured with --games.
        #[arg(long, default_value = "20")]
        idle: u64,
    },
}

#[derive(Subcommand, Debug)]
pub enum GameCommand {
    /// Show a game's stored state: the phase, the deadline, who has submitted, the board.
    Show {
        /// The game's id (as in games.toml).
        id: String,
        /// The state as JSON (the position in the shape of `pbem adjudicate`).
        #[arg(long)]
        json: bool,
        /// Also write the board as a PNG picture (as a moderator sees it).
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// The judge's configuration: its address, mail transport, store and games.
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// Write one game, with its whole history, to a file, to move it to another judge.
    /// Works while `pbem serve` runs.
    Export {
        /// The game's id.
        id: String,
        /// The file to write.
        #[arg(long)]
        out: PathBuf,
        /// The judge's configuration: its address, mail transport, store and games.
        #[arg(long, default_value = "games.toml")]
        config: PathBuf,
    },
    /// Read a game exported by `pbem game export` into this judge's store (the game must
    /// not be there yet; add it to games.toml for the judge to play it).
    Import {
        /// The export file.
        file: PathBuf,
        /// The judge's configuration: its address, mail transport, store and games.
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
        Command::PollOnce { config } => match crate::service::poll_once(&config) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(e) => {
                eprintln!("pbem: {e}");
                ExitCode::from(2)
            }
        },
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
        Command::Backup { dir, config } => report(crate::service::backup(&config, &dir)),
        Command::Restore { file, config } => report(crate::service::restore(&config, &file)),
        Command::Game {
            command: GameCommand::Export { id, out, config },
        } => report(crate::service::export(&config, &id, &out)),
        Command::Game {
            command: GameCommand::Import { file, config },
        } => report(crate::service::import(&config, &file)),
        Command::Reload { config } => report(crate::service::reload(&config)),
        Command::VerifyDice { file } => report(crate::service::verify_dice(&file)),
        Command::HashPassword => report(crate::service::hash_password()),
        Command::Demo => report(crate::demo::run().map(|text| print!("{text}"))),
        Command::Bench {
            games: Some(games),
            idle,
            ..
        } => {
            let mut rows = Vec::new();
            for n in games {
                match crate::bench_scale::scale(n, idle) {
                    Ok(row) => rows.push(row),
                    Err(e) => {
                        eprintln!("pbem: bench --games {n}: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            crate::output::emit(&crate::bench_scale::table(&rows));
            ExitCode::SUCCESS
        }
        Command::Bench {
            mail: Some(mails), ..
        } => report(crate::bench::mail_batch(mails).map(|t| print!("{}", t.text()))),
        Command::Bench {
            fleets,
            phases,
            stages,
            floor,
            ..
        } => {
            print!(
                "{}",
                crate::bench::table(&crate::bench::movement(&fleets, phases, stages, floor))
            );
            println!("\n{}", crate::memory::huge_pages_note());
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
