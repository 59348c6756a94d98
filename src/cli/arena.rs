//! `jackal arena`: bots against bots, for their figures. Seeded games between levels, every
//! map played once from each seat (the seats rotate), wins, draws and losses per entry with a
//! 95 % confidence interval, and each entry's mean and longest time to decide a move: by the
//! wall clock, and by the deciding thread's own CPU time, which leaves out the time the machine
//! gave to other work meanwhile ([`super::thread_cpu`]).
//!
//! Games are played on the engine directly (no database): each bot is handed the game's public
//! view, as in the service.

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use super::arena_record::GameRecord;
use crate::ai::{self, Bot, BotLevel, Budget};
use crate::engine::mapgen::SplitMix64;
use crate::engine::{Game, Pack, Players, Settings, Team};

/// What `jackal arena` was asked for.
#[derive(Clone, Debug)]
pub struct ArenaOptions {
    pub games: u32,
    /// The number of the first game played (from 1): a long run can be played in parts
    /// (`--first 41 --games 40` plays games 41 to 80 of the same series, the same maps and
    /// seats and bot seeds), whose tallies add up to the whole run's.
    pub first: u32,
    pub size: u8,
    /// One entry per seat (2–4), in seat order for the first game.
    pub bots: Vec<BotLevel>,
    pub pack: Pack,
    pub threads: usize,
    pub seed: u64,
    /// The searching levels' (`normal`, `hard`) time budget per move: nothing for each
    /// level's own ([`Budget::of_level`]), one for every seat, or one per entry of `bots`
    /// (to give levels different times: `hard`'s default is twice `normal`'s).
    pub think: Vec<Duration>,
    /// The searching levels stop after this many playouts a move too, if given: a budget
    /// that does not shrink when the machine is busy, for figures taken on a shared one.
    /// Nothing, one for every seat, or one per entry of `bots` (to give `hard` twice
    /// `normal`'s, as its default time is).
    pub playouts: Vec<u32>,
    /// Print the board each game ended on after its line, to see how it ended (where the
    /// gold left lies, what fog is left when a game stalls).
    pub boards: bool,
    /// Write each game, as it ends, to a scenario file in this folder (`game-086.scn`), which
    /// `jackal check` replays and `jackal render --scenario F --ply N` draws at any ply
    /// ([`super::arena_record`]).
    pub record: Option<PathBuf>,
}

/// How one entry of `--bots` did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub decisions: u64,
    /// The decisions' times by the wall clock: what a player waits.
    pub wall: Timings,
    /// The decisions' times by the deciding thread's CPU clock: what the level itself costs,
    /// whatever else the machine was doing. Nothing where the platform has no such clock.
    pub cpu: Option<Timings>,
    /// Decisions of a searching level that took longer than its time budget by the wall
    /// clock: what the budget promises a player waiting for the move. Nothing for the levels
    /// that do not search, which have no budget of time.
    pub over_budget: Option<u64>,
}

/// `easy`'s budget for one move.
pub const SLOW: Duration = Duration::from_millis(10);

/// The times of an entry's decisions by one clock.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    pub total: Duration,
    pub longest: Duration,
    /// Decisions that took longer than [`SLOW`]: whether a long one was a rare hiccup of the
    /// machine or the level's habit.
    pub slow: u64,
}

impl Timings {
    fn record(&mut self, took: Duration) {
        self.total += took;
        self.longest = self.longest.max(took);
        self.slow += u64::from(took > SLOW);
    }

    fn add(&mut self, other: &Timings) {
        self.total += other.total;
        self.longest = self.longest.max(other.longest);
        self.slow += other.slow;
    }

    pub fn mean(&self, decisions: u64) -> Duration {
        let nanos = self.total.as_nanos() / u128::from(decisions.max(1));
        u64::try_from(nanos).map_or(Duration::MAX, Duration::from_nanos)
    }
}

impl Standing {
    /// No games yet, with a CPU clock if the platform has one.
    fn new() -> Standing {
        Standing {
            cpu: super::thread_cpu::now().map(|_| Timings::default()),
            ..Standing::default()
        }
    }

    /// Counts one decision of `bot`'s that took `took` by the wall clock.
    fn decided(&mut self, bot: &Bot, took: Duration) {
        self.decisions += 1;
        self.wall.record(took);
        if bot.level.searches() {
            *self.over_budget.get_or_insert(0) += u64::from(took > bot.budget.time);
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn mean_decision(&self) -> Duration {
        self.wall.mean(self.decisions)
    }

    /// The share of games won, with its 95 % Wilson score interval.
    pub fn win_rate(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let p = if n > 0.0 { self.wins as f64 / n } else { 0.0 };
        let (low, high) = wilson(self.wins, self.games());
        (p, low, high)
    }

    fn add(&mut self, other: &Standing) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.decisions += other.decisions;
        self.wall.add(&other.wall);
        if let Some(over) = other.over_budget {
            *self.over_budget.get_or_insert(0) += over;
        }
        match (&mut self.cpu, &other.cpu) {
            (Some(mine), Some(theirs)) => mine.add(theirs),
            _ => self.cpu = None,
        }
    }
}

/// The 95 % Wilson score interval of `successes` in `n` trials.
pub fn wilson(successes: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_964;
    let n = n as f64;
    let p = successes as f64 / n;
    let centre = p + Z * Z / (2.0 * n);
    let spread = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt();
    let scale = 1.0 + Z * Z / n;
    (
        ((centre - spread) / scale).max(0.0),
        ((centre + spread) / scale).min(1.0),
    )
}

/// What the arena found.
#[derive(Clone, Debug)]
pub struct ArenaReport {
    pub options: ArenaOptions,
    /// One per entry of `--bots`.
    pub standings: Vec<Standing>,
    pub plies: u64,
    pub elapsed: Duration,
}

/// One finished game: each entry's standing in it, and its length.
struct Played {
    standings: Vec<Standing>,
    plies: u64,
    summary: String,
    /// The board the game ended on, as text, when asked for ([`ArenaOptions::boards`]).
    board: Option<String>,
}

impl ArenaOptions {
    fn settings(&self) -> Result<Settings, String> {
        let players = match self.bots.len() {
            2 => Players::Two,
            3 => Players::Three,
            4 => Players::Four,
            n => return Err(format!("an arena game has 2, 3 or 4 bots, not {n}")),
        };
        let settings = Settings {
            board_size: self.size,
            players,
            tile_pack: self.pack.clone(),
            ..Settings::default()
        };
        if crate::engine::Board::new(self.size).is_none() {
            return Err(format!(
                "the board side is 5, 7, 9, 11 or 13, not {}",
                self.size
            ));
        }
        Game::new(settings.clone(), self.seed).map_err(|e| e.to_string())?;
        Ok(settings)
    }

    /// The map of game `g`: each map is played once with every rotation of the seats.
    fn map_seed(&self, g: u32) -> u64 {
        let round = (g / self.bots.len() as u32) as u64;
        SplitMix64::new(self.seed ^ round.wrapping_mul(0xA076_1D64_78BD_642F)).next_u64()
    }

    /// The budget of entry `entry` of `--bots`.
    fn budget(&self, entry: usize) -> Budget {
        let time = match self.think.as_slice() {
            [] => Budget::of_level(self.bots[entry]),
            [all] => Budget::time(*all),
            each => Budget::time(each[entry]),
        };
        let playouts = match self.playouts.as_slice() {
            [] => None,
            [all] => Some(*all),
            each => Some(each[entry]),
        };
        Budget { playouts, ..time }
    }

    /// `--think-ms` as given, for the line that says how to play a game again.
    fn think_arg(&self) -> Option<String> {
        (!self.think.is_empty()).then(|| {
            let ms: Vec<String> = self
                .think
                .iter()
                .map(|t| t.as_millis().to_string())
                .collect();
            ms.join(",")
        })
    }

    /// `--playouts` as given, for the line that says how to play a game again.
    fn playouts_arg(&self) -> Option<String> {
        (!self.playouts.is_empty()).then(|| {
            let counts: Vec<String> = self.playouts.iter().map(ToString::to_string).collect();
            counts.join(",")
        })
    }

    /// The entry of `--bots` seated as `team` in game `g`.
    fn entry_of(&self, g: u32, team: Team) -> usize {
        let k = self.bots.len();
        (team.index() + g as usize) % k
    }
}

/// The most games played side by side: far more than any machine has cores (each game's
/// bots think on one), and few enough that a typo (`--threads 100000`) does not start a
/// thread for each.
pub const MAX_THREADS: usize = 256;

/// Plays the arena; `progress` gets a line per finished game.
pub fn run(
    options: &ArenaOptions,
    progress: &mut (dyn Write + Send),
) -> Result<ArenaReport, String> {
    if options.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if options
        .think
        .iter()
        .any(|t| *t > Budget::MAX_TIME || t.is_zero())
    {
        return Err(format!(
            "the thinking time is 1 to {} ms a move",
            Budget::MAX_TIME.as_millis()
        ));
    }
    if options.think.len() > 1 && options.think.len() != options.bots.len() {
        return Err(format!(
            "--think-ms takes one time for every seat or one per entry of --bots ({}), not {}",
            options.bots.len(),
            options.think.len()
        ));
    }
    if options.playouts.len() > 1 && options.playouts.len() != options.bots.len() {
        return Err(format!(
            "--playouts takes one count for every seat or one per entry of --bots ({}), not {}",
            options.bots.len(),
            options.playouts.len()
        ));
    }
    if options.first == 0 {
        return Err("--first counts games from 1".into());
    }
    if !(1..=MAX_THREADS).contains(&options.threads) {
        return Err(format!(
            "--threads is 1 to {MAX_THREADS} (games played side by side), not {}",
            options.threads
        ));
    }
    let settings = options.settings()?;
    if let Some(dir) = &options.record {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
    }
    let started = Instant::now();
    let next = AtomicU32::new(0);
    let skipped = options.first - 1;
    let last = skipped.saturating_add(options.games);
    let results: Mutex<Vec<Option<Played>>> =
        Mutex::new((0..options.games).map(|_| None).collect());
    let progress = Mutex::new(progress);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let workers = options.threads.clamp(1, options.games as usize);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k >= options.games {
                        return;
                    }
                    let g = skipped + k;
                    match play_one(options, &settings, g) {
                        Ok(played) => {
                            if let Ok(mut out) = progress.lock() {
                                let _ =
                                    writeln!(out, "game {}/{}: {}", g + 1, last, played.summary);
                                if let Some(board) = &played.board {
                                    let _ = writeln!(out, "{board}");
                                }
                            }
                            if let Ok(mut all) = results.lock() {
                                all[k as usize] = Some(played);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut standings = vec![Standing::new(); options.bots.len()];
    let mut plies = 0;
    for played in results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
    {
        for (total, one) in standings.iter_mut().zip(&played.standings) {
            total.add(one);
        }
        plies += played.plies;
    }
    Ok(ArenaReport {
        options: options.clone(),
        standings,
        plies,
        elapsed: started.elapsed(),
    })
}

/// Plays game `g` to its end.
fn play_one(options: &ArenaOptions, settings: &Settings, g: u32) -> Result<Played, String> {
    let map = options.map_seed(g);
    let mut game = Game::new(settings.clone(), map).map_err(|e| e.to_string())?;
    let teams: Vec<Team> = game.teams().collect();
    let bots: Vec<Bot> = teams
        .iter()
        .map(|&team| {
            let entry = options.entry_of(g, team);
            Bot {
                level: options.bots[entry],
                seed: SplitMix64::new(map ^ ((entry as u64 + 1) << 56) ^ options.seed).next_u64(),
                budget: options.budget(entry),
            }
        })
        .collect();
    let mut standings = vec![Standing::new(); options.bots.len()];
    let mut plies = 0u64;
    let mut record = options.record.as_ref().map(|_| GameRecord::new());
    while !game.is_over() {
        let team = game.controller();
        let bot = &bots[team.index()];
        let view = game.public_view();
        let asked = Instant::now();
        let cpu_before = super::thread_cpu::now();
        let action = ai::decide(&view, bot)
            .map_err(|e| format!("game {} (map {map}), ply {}: {e}", g + 1, game.ply()))?;
        let cpu_after = super::thread_cpu::now();
        let took = asked.elapsed();
        let standing = &mut standings[options.entry_of(g, team)];
        standing.decided(bot, took);
        match (&mut standing.cpu, cpu_before, cpu_after) {
            (Some(cpu), Some(before), Some(after)) => cpu.record(after.saturating_sub(before)),
            _ => standing.cpu = None,
        }
        if let Some(record) = &mut record {
            record.note(&game, &action, &bot.level.to_string());
        }
        game.play(&action).map_err(|e| {
            format!(
                "game {} (map {map}), ply {}: the bot's move was refused: {e}",
                g + 1,
                game.ply()
            )
        })?;
        plies += 1;
    }
    let outcome = game.outcome().cloned().ok_or("the game did not end")?;
    let mut summary = Vec::new();
    for &team in &teams {
        let entry = options.entry_of(g, team);
        let standing = &mut standings[entry];
        let won = outcome.winners.contains(&team);
        let word = match (won, outcome.draw) {
            (true, false) => {
                standing.wins += 1;
                "won"
            }
            (true, true) => {
                standing.draws += 1;
                "drew"
            }
            (false, _) => {
                standing.losses += 1;
                "lost"
            }
        };
        summary.push(format!(
            "{} (team {team}, {}) {word}",
            options.bots[entry],
            game.score(team)
        ));
    }
    let summary = format!(
        "{}, {} plies, {}",
        summary.join(", "),
        plies,
        outcome.reason.id()
    );
    if let (Some(record), Some(dir)) = (&record, &options.record) {
        let last = (options.first - 1).saturating_add(options.games);
        let width = last.to_string().len().max(3);
        let file = dir.join(format!("game-{:0width$}.scn", g + 1));
        let seats: Vec<String> = teams
            .iter()
            .map(|&team| format!("{} (team {team})", options.bots[options.entry_of(g, team)]))
            .collect();
        let title = format!(
            "arena seed {} game {}: {}",
            options.seed,
            g + 1,
            seats.join(" v ")
        );
        let about = format!(
            "jackal arena --bots {} --seed {} --size {} --pack {}{}, game {}: {summary}",
            options
                .bots
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(","),
            options.seed,
            options.size,
            options.pack,
            options
                .think_arg()
                .map_or(String::new(), |ms| format!(" --think-ms {ms}"))
                + &options
                    .playouts_arg()
                    .map_or(String::new(), |n| format!(" --playouts {n}")),
            g + 1
        );
        let text = record.scenario(settings, map, &game, &title, &about);
        std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    Ok(Played {
        standings,
        plies,
        summary,
        board: options.boards.then(|| super::text_board::render(&game)),
    })
}

impl fmt::Display for ArenaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        let games = self.standings.first().map_or(0, Standing::games);
        let part = if o.first > 1 {
            format!(" (games {} to {})", o.first, o.first - 1 + o.games)
        } else {
            String::new()
        };
        // The budgets of the searching levels alone: a run without one would otherwise cite
        // a time no seat was given.
        let think: String = entry_names(&o.bots)
            .iter()
            .enumerate()
            .filter(|(entry, _)| o.bots[*entry].searches())
            .map(|(entry, name)| {
                let budget = o.budget(entry);
                let ms = budget.time.as_millis();
                match budget.playouts {
                    Some(n) => format!("; `{name}` thinks up to {ms} ms or {n} playouts a move"),
                    None => format!("; `{name}` thinks up to {ms} ms a move"),
                }
            })
            .collect();
        writeln!(
            f,
            "{games} games{part} on {size}×{size}, {pack} pack, seed {seed}, seats rotating{think}",
            size = o.size,
            pack = o.pack,
            seed = o.seed,
        )?;
        // One row an entry; each column as wide as its heading or its widest cell, so that
        // the columns line up whatever the counts.
        writeln!(
            f,
            "{:<8} {:>5} {:>5} {:>6} {:>6}  {:>9}  {:<15}  {:>9}  {:>10}  {:>10}  {:>7}  {:>11}  {:>10}  {:>10}  {:>11}",
            "level",
            "games",
            "wins",
            "draws",
            "losses",
            "win rate",
            "95 % CI",
            "decisions",
            "mean move",
            "max move",
            "> 10 ms",
            "over budget",
            "mean CPU",
            "max CPU",
            "CPU > 10 ms"
        )?;
        let names = entry_names(&o.bots);
        for (name, s) in names.iter().zip(&self.standings) {
            let (p, low, high) = s.win_rate();
            let cpu = match &s.cpu {
                Some(cpu) => format!(
                    "{:>7.2} ms  {:>7.2} ms  {:>11}",
                    ms(cpu.mean(s.decisions)),
                    ms(cpu.longest),
                    cpu.slow,
                ),
                None => "(no CPU clock here)".to_string(),
            };
            writeln!(
                f,
                "{:<8} {:>5} {:>5} {:>6} {:>6}  {:>7.1} %  {:>5.1} – {:>5.1} %  {:>9}  {:>7.2} ms  {:>7.2} ms  {:>7}  {:>11}  {cpu}",
                name,
                s.games(),
                s.wins,
                s.draws,
                s.losses,
                100.0 * p,
                100.0 * low,
                100.0 * high,
                s.decisions,
                ms(s.mean_decision()),
                ms(s.wall.longest),
                s.wall.slow,
                s.over_budget.map_or("—".to_string(), |n| n.to_string()),
            )?;
        }
        write!(
            f,
            "{} plies in all ({:.0} a game), {:.1} s",
            self.plies,
            self.plies as f64 / games.max(1) as f64,
            self.elapsed.as_secs_f64()
        )
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Entries named by level; a level entered twice is numbered (`easy`, `easy#2`).
fn entry_names(bots: &[BotLevel]) -> Vec<String> {
    let mut seen: Vec<BotLevel> = Vec::new();
    bots.iter()
        .map(|level| {
            seen.push(*level);
            match seen.iter().filter(|l| *l == level).count() {
                1 => level.to_string(),
                k => format!("{level}#{k}"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four games on 5×5 with the classic pack, from game 1.
    fn small(bots: [BotLevel; 2], threads: usize, seed: u64) -> ArenaOptions {
        ArenaOptions {
            games: 4,
            first: 1,
            size: 5,
            bots: bots.to_vec(),
            pack: Pack::Classic,
            threads,
            seed,
            think: vec![Duration::from_millis(10)],
            playouts: Vec::new(),
            boards: false,
            record: None,
        }
    }

    /// A searching level's decision longer than its budget by the wall clock is counted over
    /// it, one within it is not, and the counts of two parts of a run add up; a level that
    /// does not search has no such count.
    #[test]
    fn decisions_over_the_budget_are_counted() {
        let normal = Bot {
            level: BotLevel::Normal,
            seed: 1,
            budget: Budget::time(Duration::from_millis(1000)),
        };
        let mut s = Standing::new();
        s.decided(&normal, Duration::from_millis(999));
        s.decided(&normal, Duration::from_millis(1000));
        assert_eq!(s.over_budget, Some(0));
        s.decided(&normal, Duration::from_millis(1010));
        assert_eq!((s.decisions, s.over_budget), (3, Some(1)));
        let mut whole = Standing::new();
        whole.add(&s);
        whole.add(&s);
        assert_eq!((whole.decisions, whole.over_budget), (6, Some(2)));
        let easy = Bot {
            level: BotLevel::Easy,
            ..normal
        };
        let mut e = Standing::new();
        e.decided(&easy, Duration::from_secs(5));
        assert_eq!((e.decisions, e.over_budget), (1, None));
        assert_eq!(e.wall.longest, Duration::from_secs(5));
    }

    #[test]
    fn wilson_intervals() {
        let (low, high) = wilson(160, 200);
        assert!(
            (low - 0.7389).abs() < 1e-3 && (high - 0.8504).abs() < 1e-3,
            "{low} {high}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (low, high) = wilson(10, 10);
        assert!(low > 0.69 && (high - 1.0).abs() < 1e-12, "{low} {high}");
    }

    #[test]
    fn seats_rotate_over_each_map() {
        let options = small([BotLevel::Normal, BotLevel::Easy], 1, 3);
        assert_eq!(options.map_seed(0), options.map_seed(1));
        assert_ne!(options.map_seed(1), options.map_seed(2));
        assert_eq!(
            (
                options.entry_of(0, Team::of(1)),
                options.entry_of(0, Team::of(2))
            ),
            (0, 1)
        );
        assert_eq!(
            (
                options.entry_of(1, Team::of(1)),
                options.entry_of(1, Team::of(2))
            ),
            (1, 0)
        );
        assert_eq!(
            entry_names(&[BotLevel::Easy, BotLevel::Easy, BotLevel::Random]),
            ["easy", "easy#2", "random"]
        );
    }

    #[test]
    fn the_header_cites_the_think_time_only_when_normal_plays() {
        let header = |bots| {
            let report = ArenaReport {
                options: small(bots, 1, 3),
                standings: Vec::new(),
                plies: 0,
                elapsed: Duration::ZERO,
            };
            report.to_string().lines().next().unwrap().to_owned()
        };
        let with = header([BotLevel::Normal, BotLevel::Easy]);
        assert!(
            with.ends_with("; `normal` thinks up to 10 ms a move"),
            "{with}"
        );
        let without = header([BotLevel::Easy, BotLevel::Random]);
        assert!(without.ends_with("seats rotating"), "{without}");
        let both = header([BotLevel::Hard, BotLevel::Normal]);
        assert!(
            both.ends_with(
                "; `hard` thinks up to 10 ms a move; `normal` thinks up to 10 ms a move"
            ),
            "{both}"
        );
    }

    /// `--think-ms` gives every seat one time, or each entry its own; without it each level
    /// thinks for its own default (`hard` twice as long as `normal`); any other count is
    /// refused, naming what is right.
    #[test]
    fn each_entry_thinks_for_its_own_time() {
        let mut options = small([BotLevel::Hard, BotLevel::Normal], 1, 3);
        let ms = |o: &ArenaOptions, entry| o.budget(entry).time.as_millis();
        assert_eq!((ms(&options, 0), ms(&options, 1)), (10, 10));
        options.think = vec![Duration::from_millis(20), Duration::from_millis(10)];
        assert_eq!((ms(&options, 0), ms(&options, 1)), (20, 10));
        assert_eq!(options.think_arg().as_deref(), Some("20,10"));
        options.think = Vec::new();
        assert_eq!((ms(&options, 0), ms(&options, 1)), (2000, 1000));
        assert_eq!(options.think_arg(), None);
        options.playouts = vec![40];
        assert_eq!(options.budget(1).playouts, Some(40));
        assert_eq!(ms(&options, 1), 1000);
        options.playouts = vec![60, 30];
        assert_eq!(options.budget(0).playouts, Some(60));
        assert_eq!(options.budget(1).playouts, Some(30));
        assert_eq!(options.playouts_arg().as_deref(), Some("60,30"));
        options.playouts = vec![60, 30, 30];
        let refused = run(&options, &mut Vec::new()).unwrap_err();
        assert!(
            refused.contains(
                "--playouts takes one count for every seat or one per entry of --bots (2), not 3"
            ),
            "{refused}"
        );
        options.playouts = vec![40];
        options.think = vec![Duration::from_millis(10); 3];
        let refused = run(&options, &mut Vec::new()).unwrap_err();
        assert!(
            refused.contains("one per entry of --bots (2), not 3"),
            "{refused}"
        );
    }

    #[test]
    fn a_small_arena_adds_up() {
        let options = small([BotLevel::Easy, BotLevel::Random], 2, 8);
        let mut sink = Vec::new();
        let report = run(&options, &mut sink).unwrap();
        for s in &report.standings {
            assert_eq!(s.games(), 4);
            assert!(s.decisions > 0 && s.wall.longest >= s.mean_decision());
        }
        let (a, b) = (&report.standings[0], &report.standings[1]);
        assert_eq!((a.wins, a.draws, a.losses), (b.losses, b.draws, b.wins));
        assert_eq!(String::from_utf8(sink).unwrap().lines().count(), 4);
        let text = report.to_string();
        assert!(text.contains("easy") && text.contains("random") && text.contains("95 % CI"));
        assert!(text.contains("> 10 ms") && text.contains("over budget"));
        for s in &report.standings {
            assert!(s.wall.slow <= s.decisions);
        }
        // The CPU clock counts only the deciding thread's own work, read inside the wall
        // clock's reading of the same decision: never more than the wall clock.
        if cfg!(target_os = "linux") {
            assert!(text.contains("CPU > 10 ms"), "{text}");
            for s in &report.standings {
                let cpu = s.cpu.expect("Linux has a thread CPU clock");
                let slack = Duration::from_micros(s.decisions);
                assert!(cpu.total > Duration::ZERO, "{s:?}");
                assert!(cpu.total <= s.wall.total + slack, "{s:?}");
                assert!(cpu.longest <= s.wall.longest + slack, "{s:?}");
                // Two clocks from two sources: a decision right at the limit may count as slow
                // by one and not by the other.
                assert!(cpu.slow <= s.wall.slow + s.decisions / 100, "{s:?}");
            }
        }
    }

    /// With `boards`, each game's line is followed by the board it ended on: the file
    /// letters over and under each board, and the lines stay in their place.
    #[test]
    fn boards_follow_each_game_line() {
        let options = ArenaOptions {
            games: 2,
            boards: true,
            ..small([BotLevel::Easy, BotLevel::Random], 1, 3)
        };
        let mut sink = Vec::new();
        run(&options, &mut sink).unwrap();
        let text = String::from_utf8(sink).unwrap();
        let header = |line: &str| line.trim_start().starts_with("a ");
        assert_eq!(text.lines().filter(|l| header(l)).count(), 4, "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with("game 1/2: ") && header(lines[1]),
            "{text}"
        );
        assert!(text.contains("game 2/2: "), "{text}");
    }

    /// A run played in two parts adds up to the same run played at once: the parts play the
    /// same maps from the same seats with the same bots.
    #[test]
    fn a_run_in_parts_adds_up_to_the_whole() {
        let whole = small([BotLevel::Easy, BotLevel::Random], 1, 5);
        let tally = |options: &ArenaOptions| {
            let mut sink = Vec::new();
            let report = run(options, &mut sink).unwrap();
            let lines = String::from_utf8(sink).unwrap();
            let s = &report.standings[0];
            ((s.wins, s.draws, s.losses), report.plies, lines)
        };
        let (all, all_plies, all_lines) = tally(&whole);
        let (one, one_plies, one_lines) = tally(&ArenaOptions {
            games: 2,
            ..whole.clone()
        });
        let second = ArenaOptions {
            games: 2,
            first: 3,
            ..whole.clone()
        };
        let (two, two_plies, two_lines) = tally(&second);
        assert_eq!((one.0 + two.0, one.1 + two.1, one.2 + two.2), all);
        assert_eq!(one_plies + two_plies, all_plies);
        assert!(two_lines.starts_with("game 3/4: "), "{two_lines}");
        assert!(
            all_lines.contains(two_lines.trim_end()),
            "{all_lines}\n{two_lines}"
        );
        assert!(one_lines.starts_with("game 1/2: "), "{one_lines}");
        let zero = ArenaOptions { first: 0, ..whole };
        assert!(run(&zero, &mut Vec::new()).is_err());
    }
}
