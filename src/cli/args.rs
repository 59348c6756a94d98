//! The `jackal` command line: its arguments (clap) and how each command's result becomes the
//! process's exit code.

use std::fmt::Display;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::ai::BotLevel;
use crate::cli::render::{RenderRequest, Source};
use crate::id::GameId;
use crate::store::Database;

#[derive(Parser)]
#[command(
    name = "jackal",
    version,
    about = "Jackal («Шакал»): a Discord bot for the pirate board game"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run the Discord bot (the default): DISCORD_TOKEN and the other settings come from
    /// .env or the environment (see .env.example).
    Run,
    /// Play a local game in the terminal (hot-seat and/or bots), saved in a SQLite file.
    Play(PlayArgs),
    /// Play bots against bots and print each level's wins, draws and losses (with a 95 %
    /// confidence interval) and its mean and longest time to decide a move, by the wall clock
    /// and (on Linux) by the deciding thread's CPU time.
    ///
    /// Each map is played once from every seat: the seats rotate from game to game.
    Arena(ArenaArgs),
    /// Check a database file without changing it: SQLite's integrity check, the schema
    /// version, every game replayed from its seed against its stored state, snapshots, status
    /// and result, and timers and outbox rows against the games. One line per problem, then a
    /// summary; exits 1 when something is wrong.
    Doctor(DoctorArgs),
    /// Copy the database to a new file, safely, even while the bot is running.
    Backup(BackupArgs),
    /// The crash-safety test's child process (see tests/service/crash_safety.rs); built for tests only.
    #[cfg(feature = "test-support")]
    #[command(hide = true)]
    ChaosChild(ChaosChildArgs),
    /// Check rules scenario files (.scn, see SCENARIOS.md); directories are searched.
    Check(CheckArgs),
    /// Print what a bot would play in a position, and what it weighed: easy's judgement of
    /// each action, and for normal the rounds of its search, candidate by candidate.
    ///
    /// The position is a scenario file's first scenario after all its `play` steps, or the
    /// first `--ply N` of them: any moment of a game `arena --record` wrote.
    Think(ThinkArgs),
    /// Draw the board picture (PNG, 1024×1024) of a position.
    ///
    /// Either the position a scenario file's first scenario reaches after all its `play` steps
    /// or the first `--ply N` of them (`--scenario FILE`), or a stored game's after `--ply N`
    /// actions, the latest by default (`--db FILE --game ID`). The last move's path is
    /// outlined.
    Render(RenderArgs),
}

#[derive(Args)]
pub struct PlayArgs {
    /// The database file.
    #[arg(long, default_value = "jackal.db")]
    pub db: PathBuf,
    /// Board side: 5, 7, 9, 11 or 13.
    #[arg(long, default_value_t = 13)]
    pub size: u8,
    /// Human seats, played in turn at this terminal (default: 2 without bots, else 0).
    #[arg(long)]
    pub humans: Option<u8>,
    /// Bot seats, one level each, comma-separated (levels: random, easy, normal, hard).
    #[arg(long, value_delimiter = ',', value_parser = parse_bot)]
    pub bots: Vec<BotLevel>,
    /// Four seats as two teams of two (2x2).
    #[arg(long)]
    pub teams: bool,
    /// The map's seed (default: from the operating system).
    #[arg(long)]
    pub seed: Option<u64>,
    /// The tile pack: full (the default, with the expansion), classic, or a custom list
    /// id*count,… (RULES.md R-PACK-6).
    #[arg(long, default_value = "full")]
    pub pack: String,
    /// A rule setting of RULES.md §20, as ID=VALUE (e.g. destroying_ships=on); repeat for
    /// several.
    #[arg(long = "set", value_name = "ID=VALUE", value_parser = parse_setting)]
    pub settings: Vec<(String, String)>,
    /// Resume a saved game instead of starting a new one (its seats and settings are the
    /// saved ones).
    #[arg(long, conflicts_with_all = ["size", "humans", "bots", "teams", "seed", "pack", "settings"])]
    pub game: Option<GameId>,
    /// Print only the result.
    #[arg(short, long)]
    pub quiet: bool,
    /// Where to draw the board (PNG), redrawn whenever a human is to move and at the end
    /// (default: <database name>-game-<id>.png beside the database).
    #[arg(long, value_name = "FILE", conflicts_with = "no_png")]
    pub png: Option<PathBuf>,
    /// Draw no board picture.
    #[arg(long)]
    pub no_png: bool,
}

#[derive(Args)]
pub struct ArenaArgs {
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// The number of the first game to play: a long run played in parts (`--first 41
    /// --games 40` plays games 41 to 80 of the series) adds up to the whole run.
    #[arg(long, default_value_t = 1)]
    pub first: u32,
    /// Board side: 5, 7, 9, 11 or 13.
    #[arg(long, default_value_t = 13)]
    pub size: u8,
    /// One level per seat, comma-separated, 2 to 4 of them (levels: random, easy, normal,
    /// hard).
    #[arg(long, value_delimiter = ',', value_parser = parse_bot, required = true)]
    pub bots: Vec<BotLevel>,
    /// The tile pack: full (with the expansion), classic, or a custom list id*count,…
    /// (see RULES.md R-PACK-6).
    #[arg(long, default_value = "full", value_parser = parse_pack)]
    pub pack: crate::engine::Pack,
    /// Games played side by side (each bot thinks on one core).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the maps and of the bots' decisions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The searching levels' (normal, hard) time to think about one move, in milliseconds
    /// (1 to 2000): one time for every seat, or one per entry of --bots, comma-separated
    /// (default: each level's own, normal 1000 and hard 2000).
    #[arg(long, value_delimiter = ',')]
    pub think_ms: Vec<u64>,
    /// The searching levels also stop after this many playouts a move (1 to 100000): their
    /// strength then does not depend on how busy the machine is. One count for every seat,
    /// or one per entry of --bots, comma-separated (--playouts 60,30).
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub playouts: Vec<u32>,
    /// After each game's line, print the board it ended on (as the terminal game draws
    /// it).
    #[arg(long)]
    pub boards: bool,
    /// Write each game, as it ends, to a scenario file in this folder (game-086.scn):
    /// `jackal check` replays it, and `jackal render --scenario FILE --ply N` draws its
    /// board after any ply.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
}

#[derive(Args)]
pub struct DoctorArgs {
    /// The database file (opened read-only), or a PostgreSQL database's postgres:// URL.
    #[arg(long, default_value = "jackal.db")]
    pub db: PathBuf,
}

#[derive(Args)]
pub struct BackupArgs {
    /// The database file, or a PostgreSQL database's postgres:// URL (dumped with pg_dump).
    #[arg(long, default_value = "jackal.db")]
    pub db: PathBuf,
    /// The new file to write (an existing file is never replaced).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
}

#[cfg(feature = "test-support")]
#[derive(Args)]
pub struct ChaosChildArgs {
    #[arg(long)]
    pub db: PathBuf,
    #[arg(long, value_enum, default_value = "moves")]
    pub operation: crate::cli::chaos::Operation,
    #[arg(long)]
    pub games: usize,
    #[arg(long)]
    pub actions: u32,
    #[arg(long, default_value_t = 0)]
    pub pace_ms: u64,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Print only FAIL, SKIP and ERROR lines and the totals.
    #[arg(short, long)]
    pub quiet: bool,
    /// Files or directories.
    pub paths: Vec<PathBuf>,
}

#[derive(Args)]
pub struct ThinkArgs {
    /// A scenario file (.scn, see SCENARIOS.md).
    #[arg(long, value_name = "FILE")]
    pub scenario: PathBuf,
    /// The position after this many `play` steps: 0 is the setup (default: all of them).
    #[arg(long, value_name = "N")]
    pub ply: Option<u32>,
    /// The bot's level: random, easy, normal or hard.
    #[arg(long, default_value = "normal", value_parser = parse_bot)]
    pub level: BotLevel,
    /// The bot's seed: easy decides the same with the same seed; normal, thinking against
    /// the clock, as a rule too.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The searching levels' (normal, hard) time to think, in milliseconds (1 to 2000;
    /// default: the level's own, normal 1000 and hard 2000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=2000))]
    pub think_ms: Option<u64>,
}

#[derive(Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["scenario", "db"]))]
pub struct RenderArgs {
    /// A scenario file (.scn, see SCENARIOS.md).
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    /// A database file written by the bot or `jackal play`, or a PostgreSQL database's
    /// postgres:// URL (read in read-only sessions).
    #[arg(long, value_name = "FILE|URL", requires = "game")]
    pub db: Option<String>,
    /// The stored game's id (with --db).
    #[arg(long, value_name = "ID", requires = "db")]
    pub game: Option<GameId>,
    /// Draw the position after this many actions: 0 is the start (default: the latest).
    /// With --scenario, an action is a `play` step (a game `arena --record` wrote has one
    /// a ply).
    #[arg(long, value_name = "N")]
    pub ply: Option<u32>,
    /// Where to write the PNG.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Language of the text on the picture: en or ru.
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// Cells to highlight, e.g. `g2,f3` (a player's legal targets).
    #[arg(long, value_delimiter = ',')]
    pub highlight: Vec<String>,
}

impl Cli {
    /// Runs the command (the bot when none is given).
    pub fn run(self) -> ExitCode {
        match self.command.unwrap_or(Command::Run) {
            Command::Run => run_bot(),
            Command::Play(args) => args.run(),
            Command::Arena(args) => args.run(),
            Command::Doctor(args) => exit("doctor", crate::cli::doctor::run(&args.db), 2, |r| {
                print!("{}", r.text());
                ExitCode::from(r.exit_code())
            }),
            Command::Backup(args) => {
                let done = crate::cli::backup::run(&args.db, &args.output);
                exit("backup", done, 1, |summary| {
                    println!("{summary}");
                    ExitCode::SUCCESS
                })
            }
            #[cfg(feature = "test-support")]
            Command::ChaosChild(args) => args.run(),
            Command::Check(args) => args.run(),
            Command::Think(args) => args.run(),
            Command::Render(args) => args.run(),
        }
    }
}

/// A tool's result as the process's exit: `success` on `Ok`, else `jackal <tool>: <error>` on
/// standard error and the exit code `failure`.
fn exit<T, E: Display>(
    tool: &str,
    result: Result<T, E>,
    failure: u8,
    success: impl FnOnce(T) -> ExitCode,
) -> ExitCode {
    match result {
        Ok(value) => success(value),
        Err(e) => {
            eprintln!("jackal {tool}: {e:#}");
            ExitCode::from(failure)
        }
    }
}

impl PlayArgs {
    fn run(self) -> ExitCode {
        use crate::cli::play::BoardPicture;
        let picture = match (self.png, self.no_png) {
            (_, true) => BoardPicture::Off,
            (Some(path), false) => BoardPicture::At(path),
            (None, false) => BoardPicture::BesideDatabase,
        };
        let options = crate::cli::play::PlayOptions {
            db: self.db,
            size: self.size,
            team_play: self.teams,
            humans: self
                .humans
                .unwrap_or(if self.bots.is_empty() { 2 } else { 0 }),
            bots: self.bots,
            seed: self.seed,
            pack: self.pack,
            settings: self.settings,
            game: self.game,
            quiet: self.quiet,
            picture,
        };
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let played = crate::cli::play::run(&options, &mut input, &mut std::io::stdout());
        exit("play", played, 2, |code| ExitCode::from(code as u8))
    }
}

impl ArenaArgs {
    fn run(self) -> ExitCode {
        let options = crate::cli::arena::ArenaOptions {
            games: self.games,
            first: self.first,
            size: self.size,
            bots: self.bots,
            pack: self.pack,
            threads: self.threads,
            seed: self.seed,
            think: self
                .think_ms
                .iter()
                .map(|ms| std::time::Duration::from_millis(*ms))
                .collect(),
            playouts: self.playouts,
            boards: self.boards,
            record: self.record,
        };
        let played = crate::cli::arena::run(&options, &mut std::io::stderr());
        exit("arena", played, 2, |report| {
            println!("{report}");
            ExitCode::SUCCESS
        })
    }
}

#[cfg(feature = "test-support")]
impl ChaosChildArgs {
    fn run(self) -> ExitCode {
        let options = crate::cli::chaos::ChaosOptions {
            operation: self.operation,
            games: self.games,
            work: self.actions,
            pace_ms: self.pace_ms,
        };
        let done = crate::cli::chaos::run(&self.db, &options, &mut std::io::stdout());
        exit("chaos-child", done, 2, |()| ExitCode::SUCCESS)
    }
}

impl CheckArgs {
    fn run(self) -> ExitCode {
        match crate::scenario::check_paths(&self.paths, self.quiet) {
            // `print!` would panic on a closed pipe (`jackal check … | head -1`): the report
            // goes through `print_report`, which says what a closed pipe means for the code.
            Ok(report) => match crate::scenario::print_report(&report, &mut std::io::stdout()) {
                Ok(()) => ExitCode::from(report.exit_code() as u8),
                Err(e) => check_failed(&e, false),
            },
            Err(e) => check_failed(&e, true),
        }
    }
}

impl ThinkArgs {
    fn run(self) -> ExitCode {
        let request = crate::cli::think::ThinkRequest {
            scenario: self.scenario,
            ply: self.ply,
            level: self.level,
            seed: self.seed,
            think: self.think_ms.map(std::time::Duration::from_millis),
        };
        exit("think", crate::cli::think::run(&request), 1, |report| {
            print!("{report}");
            ExitCode::SUCCESS
        })
    }
}

impl RenderArgs {
    fn run(self) -> ExitCode {
        let source = match (self.scenario, self.db, self.game) {
            (Some(file), _, _) => Source::Scenario {
                file,
                ply: self.ply,
            },
            (None, Some(db), Some(game)) => Source::Stored {
                db: Database::parse(&db),
                game,
                ply: self.ply,
            },
            // clap requires a source, and --game with --db.
            _ => unreachable!("clap checks the render source"),
        };
        let request = RenderRequest {
            source,
            output: self.output,
            lang: self.lang,
            highlight: self.highlight,
        };
        exit("render", crate::cli::render::run(&request), 1, |bytes| {
            println!("wrote {} ({bytes} bytes)", request.output.display());
            ExitCode::SUCCESS
        })
    }
}

/// `jackal run`: the bot, configured from `.env` and the environment, until Ctrl-C or SIGTERM.
/// A failure to start is one line saying what to do, and a non-zero exit code.
fn run_bot() -> ExitCode {
    let config = match crate::discord::Config::from_env() {
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
    let launch = crate::discord::Launch {
        config,
        clock: std::sync::Arc::new(crate::game::SystemClock),
        client: None,
    };
    match crate::discord::run_blocking(launch) {
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
        .map_err(|e: crate::ai::UnknownLevel| e.to_string())
}

fn parse_setting(text: &str) -> Result<(String, String), String> {
    let (id, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: write a setting as ID=VALUE"))?;
    Ok((id.trim().to_string(), value.trim().to_string()))
}

fn parse_pack(text: &str) -> Result<crate::engine::Pack, String> {
    crate::engine::Pack::parse(text).map_err(|e| e.to_string())
}
