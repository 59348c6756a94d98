//! The `jackal` command line: the bot (default), and tools around the rules engine.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "jackal",
    version,
    about = "Jackal («Шакал»): a Discord bot for the pirate board game"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Discord bot (the default).
    Run,
    /// Check rules scenario files (.scn, see SCENARIOS.md); directories are searched.
    Check {
        /// Print only FAIL, SKIP and ERROR lines and the totals.
        #[arg(short, long)]
        quiet: bool,
        /// Files or directories.
        paths: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Run) {
        Command::Run => {
            eprintln!(
                "jackal: the Discord bot is not built yet. The rules engine is: try \
                 `jackal check tests/scenarios`."
            );
            ExitCode::from(1)
        }
        Command::Check { quiet, paths } => match jackal::scenario::check_paths(&paths, quiet) {
            Ok(report) => {
                print!("{}", report.text);
                ExitCode::from(report.exit_code() as u8)
            }
            Err(e) => {
                eprintln!("jackal check: {e}");
                eprintln!("usage: jackal check [-q] PATH...");
                ExitCode::from(3)
            }
        },
    }
}
