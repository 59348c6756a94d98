//! The `jackal` command line: the bot (default), and tools around the rules engine
//! ([`jackal::cli::args`]).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    match jackal::cli::args::Cli::try_parse() {
        Ok(cli) => cli.run(),
        Err(e) => refused(e),
    }
}

/// clap ends a run it cannot read with its own exit code 2; `jackal check` gives 2 to a
/// scenario error and 3 to a usage error (SCENARIOS S-OUT-2), which acceptance suites tell
/// apart, so a command line of `check` that clap refuses exits 3. Help and the version are
/// no errors and keep clap's way (standard output, 0).
fn refused(e: clap::Error) -> ExitCode {
    let subcommand = std::env::args_os()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'));
    if e.use_stderr() && subcommand.is_some_and(|s| s == "check") {
        let _ = e.print();
        return ExitCode::from(3);
    }
    e.exit()
}
