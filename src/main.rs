//! The `jackal` command line: the bot (default), and tools around the rules engine
//! ([`jackal::cli::args`]).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    jackal::cli::args::Cli::parse().run()
}
