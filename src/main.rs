//! The `jackal` command line: the bot (default), and tools around the rules engine.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jackal::ai::BotLevel;
use jackal::cli::render::{RenderRequest, Source};

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
    /// Run the Discord bot (the default): DISCORD_TOKEN and the other settings come from
    /// .env or the environment (see .env.example).
    Run,
    /// Play a local game in the terminal (hot-seat and/or bots), saved in a SQLite file.
    Play {
        /// The database file.
        #[arg(long, default_value = "jackal.db")]
        db: PathBuf,
        /// Board side: 5, 7, 9, 11 or 13.
        #[arg(long, default_value_t = 13)]
        size: u8,
        /// Human seats, played in turn at this terminal (default: 2 without bots, else 0).
        #[arg(long)]
        humans: Option<u8>,
        /// Bot seats, one level each, comma-separated (levels: random, easy, normal).
        #[arg(long, value_delimiter = ',', value_parser = parse_bot)]
        bots: Vec<BotLevel>,
        /// Four seats as two teams of two (2x2).
        #[arg(long)]
        teams: bool,
        /// The map's seed (default: from the operating system).
        #[arg(long)]
        seed: Option<u64>,
        /// The tile pack: full (the default, with the expansion), classic, or a custom list
        /// id*count,… (RULES.md R-PACK-6).
        #[arg(long, default_value = "full")]
        pack: String,
        /// A rule setting of RULES.md §20, as ID=VALUE (e.g. destroying_ships=on); repeat for
        /// several.
        #[arg(long = "set", value_name = "ID=VALUE", value_parser = parse_setting)]
        settings: Vec<(String, String)>,
        /// Resume a saved game instead of starting a new one (its seats and settings are the
        /// saved ones).
        #[arg(long, conflicts_with_all = ["size", "humans", "bots", "teams", "seed", "pack", "settings"])]
        game: Option<i64>,
        /// Print only the result.
        #[arg(short, long)]
        quiet: bool,
        /// Where to draw the board (PNG), redrawn whenever a human is to move and at the end
        /// (default: <database name>-game-<id>.png beside the database).
        #[arg(long, value_name = "FILE", conflicts_with = "no_png")]
        png: Option<PathBuf>,
        /// Draw no board picture.
        #[arg(long)]
        no_png: bool,
    },
    /// Play bots against bots and print each level's wins, draws and losses (with a 95 %
    /// confidence interval) and its mean and longest time to decide a move, by the wall clock
    /// and (on Linux) by the deciding thread's CPU time.
    ///
    /// Each map is played once from every seat: the seats rotate from game to game.
    Arena {
        /// Games to play.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// The number of the first game to play: a long run played in parts (`--first 41
        /// --games 40` plays games 41 to 80 of the series) adds up to the whole run.
        #[arg(long, default_value_t = 1)]
        first: u32,
        /// Board side: 5, 7, 9, 11 or 13.
        #[arg(long, default_value_t = 13)]
        size: u8,
        /// One level per seat, comma-separated, 2 to 4 of them (levels: random, easy, normal).
        #[arg(long, value_delimiter = ',', value_parser = parse_bot, required = true)]
        bots: Vec<BotLevel>,
        /// The tile pack: full (with the expansion), classic, or a custom list id*count,…
        /// (see RULES.md R-PACK-6).
        #[arg(long, default_value = "full", value_parser = parse_pack)]
        pack: jackal::engine::Pack,
        /// Games played side by side (each bot thinks on one core).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed of the maps and of the bots' decisions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The `normal` level's time to think about one move, in milliseconds (1 to 2000).
        #[arg(long, default_value_t = 1000)]
        think_ms: u64,
        /// After each game's line, print the board it ended on (as the terminal game draws
        /// it).
        #[arg(long)]
        boards: bool,
        /// Write each game, as it ends, to a scenario file in this folder (game-086.scn):
        /// `jackal check` replays it, and `jackal render --scenario FILE --ply N` draws its
        /// board after any ply.
        #[arg(long, value_name = "DIR")]
        record: Option<PathBuf>,
    },
    /// Check a database file without changing it: SQLite's integrity check, the schema
    /// version, every game replayed from its seed against its stored state, snapshots, status
    /// and result, and timers and outbox rows against the games. One line per problem, then a
    /// summary; exits 1 when something is wrong.
    Doctor {
        /// The database file (opened read-only).
        #[arg(long, default_value = "jackal.db")]
        db: PathBuf,
    },
    /// Copy the database to a new file, safely, even while the bot is running.
    Backup {
        /// The database file.
        #[arg(long, default_value = "jackal.db")]
        db: PathBuf,
        /// The new file to write (an existing file is never replaced).
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// The crash-safety test's child process (see tests/crash_safety.rs); built for tests only.
    #[cfg(feature = "test-support")]
    #[command(hide = true)]
    ChaosChild {
        #[arg(long)]
        db: PathBuf,
        #[arg(long, value_enum, default_value = "moves")]
        operation: jackal::cli::chaos::Operation,
        #[arg(long)]
        games: usize,
        #[arg(long)]
        actions: u32,
        #[arg(long, default_value_t = 0)]
        pace_ms: u64,
    },
    /// Check rules scenario files (.scn, see SCENARIOS.md); directories are searched.
    Check {
        /// Print only FAIL, SKIP and ERROR lines and the totals.
        #[arg(short, long)]
        quiet: bool,
        /// Files or directories.
        paths: Vec<PathBuf>,
    },
    /// Print what a bot would play in a position, and what it weighed: easy's judgement of
    /// each action, and for normal the rounds of its search, candidate by candidate.
    ///
    /// The position is a scenario file's first scenario after all its `play` steps, or the
    /// first `--ply N` of them: any moment of a game `arena --record` wrote.
    Think {
        /// A scenario file (.scn, see SCENARIOS.md).
        #[arg(long, value_name = "FILE")]
        scenario: PathBuf,
        /// The position after this many `play` steps: 0 is the setup (default: all of them).
        #[arg(long, value_name = "N")]
        ply: Option<u32>,
        /// The bot's level: random, easy or normal.
        #[arg(long, default_value = "normal", value_parser = parse_bot)]
        level: BotLevel,
        /// The bot's seed: easy decides the same with the same seed; normal, thinking against
        /// the clock, as a rule too.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The `normal` level's time to think, in milliseconds (1 to 2000).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=2000))]
        think_ms: u64,
    },
    /// Draw the board picture (PNG, 1024×1024) of a position.
    ///
    /// Either the position a scenario file's first scenario reaches after all its `play` steps
    /// or the first `--ply N` of them (`--scenario FILE`), or a stored game's after `--ply N`
    /// actions, the latest by default (`--db FILE --game ID`). The last move's path is
    /// outlined.
    #[command(group = clap::ArgGroup::new("source").required(true).args(["scenario", "db"]))]
    Render {
        /// A scenario file (.scn, see SCENARIOS.md).
        #[arg(long, value_name = "FILE")]
        scenario: Option<PathBuf>,
        /// A database file written by the bot or `jackal play`.
        #[arg(long, value_name = "FILE", requires = "game")]
        db: Option<PathBuf>,
        /// The stored game's id (with --db).
        #[arg(long, value_name = "ID", requires = "db")]
        game: Option<i64>,
        /// Draw the position after this many actions: 0 is the start (default: the latest).
        /// With --scenario, an action is a `play` step (a game `arena --record` wrote has one
        /// a ply).
        #[arg(long, value_name = "N")]
        ply: Option<u32>,
        /// Where to write the PNG.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Language of the text on the picture: en or ru.
        #[arg(long, default_value = "en")]
        lang: String,
        /// Cells to highlight, e.g. `g2,f3` (a player's legal targets).
        #[arg(long, value_delimiter = ',')]
        highlight: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Run) {
        Command::Run => run_bot(),
        Command::Play {
            db,
            size,
            humans,
            bots,
            teams,
            seed,
            pack,
            settings,
            game,
            quiet,
            png,
            no_png,
        } => {
            use jackal::cli::play::BoardPicture;
            let picture = match (png, no_png) {
                (_, true) => BoardPicture::Off,
                (Some(path), false) => BoardPicture::At(path),
                (None, false) => BoardPicture::BesideDatabase,
            };
            let options = jackal::cli::play::PlayOptions {
                db,
                size,
                team_play: teams,
                humans: humans.unwrap_or(if bots.is_empty() { 2 } else { 0 }),
                bots,
                seed,
                pack,
                settings,
                game,
                quiet,
                picture,
            };
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            match jackal::cli::play::run(&options, &mut input, &mut std::io::stdout()) {
                Ok(code) => ExitCode::from(code as u8),
                Err(e) => {
                    eprintln!("jackal play: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Arena {
            games,
            first,
            size,
            bots,
            pack,
            threads,
            seed,
            think_ms,
            boards,
            record,
        } => {
            let options = jackal::cli::arena::ArenaOptions {
                games,
                first,
                size,
                bots,
                pack,
                threads,
                seed,
                think: std::time::Duration::from_millis(think_ms),
                boards,
                record,
            };
            match jackal::cli::arena::run(&options, &mut std::io::stderr()) {
                Ok(report) => {
                    println!("{report}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("jackal arena: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Doctor { db } => match jackal::cli::doctor::run(&db) {
            Ok(report) => {
                print!("{}", report.text());
                ExitCode::from(report.exit_code())
            }
            Err(e) => {
                eprintln!("jackal doctor: {e:#}");
                ExitCode::from(2)
            }
        },
        Command::Backup { db, output } => match jackal::cli::backup::run(&db, &output) {
            Ok(summary) => {
                println!("{summary}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("jackal backup: {e:#}");
                ExitCode::from(1)
            }
        },
        #[cfg(feature = "test-support")]
        Command::ChaosChild {
            db,
            operation,
            games,
            actions,
            pace_ms,
        } => {
            let options = jackal::cli::chaos::ChaosOptions {
                operation,
                games,
                work: actions,
                pace_ms,
            };
            match jackal::cli::chaos::run(&db, &options, &mut std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("jackal chaos-child: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Check { quiet, paths } => match jackal::scenario::check_paths(&paths, quiet) {
            // `print!` would panic on a closed pipe (`jackal check … | head -1`): the report
            // goes through `print_report`, which says what a closed pipe means for the code.
            Ok(report) => match jackal::scenario::print_report(&report, &mut std::io::stdout()) {
                Ok(()) => ExitCode::from(report.exit_code() as u8),
                Err(e) => check_failed(&e, false),
            },
            Err(e) => check_failed(&e, true),
        },
        Command::Think {
            scenario,
            ply,
            level,
            seed,
            think_ms,
        } => {
            let request = jackal::cli::think::ThinkRequest {
                scenario,
                ply,
                level,
                seed,
                think: std::time::Duration::from_millis(think_ms),
            };
            match jackal::cli::think::run(&request) {
                Ok(report) => {
                    print!("{report}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("jackal think: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Render {
            scenario,
            db,
            game,
            ply,
            output,
            lang,
            highlight,
        } => {
            let source = match (scenario, db, game) {
                (Some(file), _, _) => Source::Scenario { file, ply },
                (None, Some(db), Some(game)) => Source::Stored { db, game, ply },
                // clap requires a source, and --game with --db.
                _ => unreachable!("clap checks the render source"),
            };
            let request = RenderRequest {
                source,
                output,
                lang,
                highlight,
            };
            match jackal::cli::render::run(&request) {
                Ok(bytes) => {
                    println!("wrote {} ({bytes} bytes)", request.output.display());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("jackal render: {e:#}");
                    ExitCode::from(1)
                }
            }
        }
    }
}

/// `jackal run`: the bot, configured from `.env` and the environment, until Ctrl-C or SIGTERM.
/// A failure to start is one line saying what to do, and a non-zero exit code.
fn run_bot() -> ExitCode {
    let config = match jackal::discord::Config::from_env() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("jackal: {e}");
            return ExitCode::from(2);
        }
    };
    // RUST_LOG chooses what is logged (e.g. RUST_LOG=jackal=debug); by default the bot's
    // own information and everyone's warnings.
    // (An empty RUST_LOG, as .env.example has it, counts as unset.)
    let filter = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .and_then(|v| tracing_subscriber::EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| tracing_subscriber::EnvFilter::new("warn,jackal=info"));
    tracing_subscriber::fmt().with_env_filter(filter).init();
    let launch = jackal::discord::Launch {
        config,
        clock: std::sync::Arc::new(jackal::game::SystemClock),
        client: None,
    };
    match jackal::discord::run_blocking(launch) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jackal: {e}");
            ExitCode::from(1)
        }
    }
}

/// `jackal check`'s usage or file error (exit code 3, SCENARIOS S-OUT-2). Not `eprintln!`,
/// which panics when standard error is a closed pipe too.
fn check_failed(e: &str, usage: bool) -> ExitCode {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "jackal check: {e}");
    if usage {
        let _ = writeln!(err, "usage: jackal check [-q] PATH...");
    }
    ExitCode::from(3)
}

fn parse_bot(text: &str) -> Result<BotLevel, String> {
    text.parse()
        .map_err(|e: jackal::ai::UnknownLevel| e.to_string())
}

fn parse_setting(text: &str) -> Result<(String, String), String> {
    let (id, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: write a setting as ID=VALUE"))?;
    Ok((id.trim().to_string(), value.trim().to_string()))
}

fn parse_pack(text: &str) -> Result<jackal::engine::Pack, String> {
    jackal::engine::Pack::parse(text).map_err(|e| e.to_string())
}
