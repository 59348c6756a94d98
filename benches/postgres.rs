//! One move through the game service on PostgreSQL, against one bare commit on the same server
//! (issue 41's first figure): `scripts/pg-test --bench` (a throwaway server, with its
//! durability on), or `JACKAL_BENCH_DATABASE_URL=postgres://… cargo bench --bench postgres`
//! (a database there is created for the run; the URL's user must be allowed to).
//!
//! A 13×13 game of four users (in a channel, so each move writes its outbox rows) is played
//! by seeded dice through `GameService::act`; after a warm-up (every statement prepared on the
//! pooled connections, the game's state in the service's memory, as on a running bot) each of
//! the next moves is timed alone. The bare commit is one row written in its own write
//! transaction through the store (the same write lock a move takes), on the same pool.
//! Medians of the individually timed operations; the moves' median includes their snapshot
//! plies (one in 25) as a running bot does.
//!
//! Then the figures of several processes on one database (issue 41, step 5), each a process of
//! this bench started again in a worker's role (`JACKAL_BENCH_ROLE`), with a pool of its own:
//!
//! - moves a second with 1, 2 and 4 processes, each playing games of its own as fast as it can
//!   for a few seconds (the machine's cores are shared with the server);
//! - a burst of 1,000 deadlines due at once (a thousand duels whose first turn ran out while the
//!   bot was down), fired by one process and by two: how long until every one has fired, and
//!   how the two shared them. Each deadline fires once (checked: every game's first seat
//!   missed exactly one deadline).
//!
//! Without `JACKAL_BENCH_DATABASE_URL` it says so and measures nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use std::process::{Command, Stdio};

#[path = "../tests/support/service_games.rs"]
mod service_games;
use service_games::{start_duel, start_game};

use jackal::engine::mapgen::SplitMix64;
use jackal::game::{Clock, GameConfig, GameService, Location, ManualClock, SystemClock};
use jackal::id::{ChannelId, GameId, GuildId, UserId};
use jackal::store::{self, Database, Durability, Store};

const START_MS: i64 = 1_700_000_000_000;
const WARM_UP: u32 = 30;
const MEASURED: usize = 200;

/// The role of a worker process (`moves` or `timers`), and its database.
const ROLE: &str = "JACKAL_BENCH_ROLE";
const ROLE_URL: &str = "JACKAL_BENCH_ROLE_URL";
/// The first map seed of a moves worker's games (each worker its own games).
const ROLE_SEED: &str = "JACKAL_BENCH_ROLE_SEED";
/// How long a moves worker plays.
const PLAY_FOR: Duration = Duration::from_secs(6);
const BURST: usize = 1000;
const HOUR: i64 = 3_600_000;

fn main() {
    if let Ok(role) = std::env::var(ROLE) {
        let url = std::env::var(ROLE_URL).expect("a worker's database");
        let seed = std::env::var(ROLE_SEED).map_or(1, |s| s.parse().expect("a seed"));
        match role.as_str() {
            "moves" => moves_worker(&url, seed),
            "timers" => timers_worker(&url),
            other => panic!("no worker role {other}"),
        }
        return;
    }
    // `cargo bench` passes `--bench`; any other argument is a filter this bench ignores.
    let Ok(admin) = std::env::var("JACKAL_BENCH_DATABASE_URL") else {
        eprintln!(
            "postgres bench: JACKAL_BENCH_DATABASE_URL is not set; run `scripts/pg-test --bench`"
        );
        return;
    };
    let url = store::postgres::fresh_database(&admin).expect("a database for the bench");
    let store =
        Store::open_database(&Database::Server(url), Durability::Full).expect("the database opens");
    let service = GameService::new(Arc::new(store), Arc::new(ManualClock::new(START_MS)));
    let mut dice = SplitMix64::new(7);

    let mut moves = Vec::with_capacity(MEASURED);
    let mut seed = 1;
    while moves.len() < MEASURED {
        let id = start_game(&service, seed);
        seed += 1;
        let mut played = 0;
        while let Some((user, seen_ply, text)) = next_move(&service, id, &mut dice) {
            let began = Instant::now();
            service
                .act(user, id, seen_ply, &text)
                .expect("a legal move");
            let took = began.elapsed();
            played += 1;
            if played > WARM_UP {
                moves.push(took);
                if moves.len() == MEASURED {
                    break;
                }
            }
        }
    }

    let mut commits = Vec::with_capacity(MEASURED);
    for _ in 0..WARM_UP as usize + MEASURED {
        let mut conn = service.store().conn().expect("a connection");
        let began = Instant::now();
        let tx = conn.write().expect("begin");
        store::insert_outbox(&tx, None, "bench", "{}", "{}", START_MS).expect("one row");
        tx.commit().expect("commit");
        commits.push(began.elapsed());
    }
    let commits = &mut commits[WARM_UP as usize..];

    let act = median(&mut moves);
    let bare = median(commits);
    println!(
        "postgres: act {} µs, bare commit {} µs, act ÷ bare commit {:.2} (medians of {MEASURED})",
        act.as_micros(),
        bare.as_micros(),
        act.as_secs_f64() / bare.as_secs_f64()
    );

    for processes in [1, 2, 4] {
        let url = store::postgres::fresh_database(&admin).expect("a database for the run");
        let counts = run_workers("moves", &url, processes);
        let total: u64 = counts.iter().sum();
        println!(
            "postgres: {processes} process(es): {:.0} moves/s ({} moves in {} s; by process: {counts:?})",
            total as f64 / PLAY_FOR.as_secs_f64(),
            total,
            PLAY_FOR.as_secs()
        );
    }

    for processes in [1, 2] {
        let url = store::postgres::fresh_database(&admin).expect("a database for the burst");
        let games = overdue_duels(&url, BURST);
        let began = Instant::now();
        let counts = run_workers("timers", &url, processes);
        let took = began.elapsed();
        let fired: u64 = counts.iter().sum();
        let once = each_fired_once(&url, &games);
        println!(
            "postgres: a burst of {BURST} due deadlines, {processes} process(es): all fired in \
             {:.2} s ({:.0} timers a second, each game's reminder and deadline; fired by \
             process: {counts:?}; each deadline once: {once})",
            took.as_secs_f64(),
            fired as f64 / took.as_secs_f64(),
        );
        assert!(once, "a deadline fired twice, or not at all");
    }
}

/// Runs `processes` workers of `role` on `url` at once; what each counted.
fn run_workers(role: &str, url: &str, processes: usize) -> Vec<u64> {
    let exe = std::env::current_exe().expect("this bench's path");
    let children: Vec<_> = (0..processes)
        .map(|n| {
            Command::new(&exe)
                .env(ROLE, role)
                .env(ROLE_URL, url)
                .env(ROLE_SEED, (1000 * (n + 1)).to_string())
                .stdout(Stdio::piped())
                .spawn()
                .expect("a worker starts")
        })
        .collect();
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().expect("a worker ends");
            assert!(out.status.success(), "a worker failed");
            String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .expect("a worker prints its count")
        })
        .collect()
}

/// A worker playing games of its own for [`PLAY_FOR`]: prints how many moves it applied.
fn moves_worker(url: &str, first_seed: u64) {
    let store = Store::open_database(&Database::Server(url.into()), Durability::Full)
        .expect("the database opens");
    let service = GameService::new(Arc::new(store), Arc::new(ManualClock::new(START_MS)));
    let mut dice = SplitMix64::new(first_seed);
    let mut seed = first_seed;
    let mut id = start_game(&service, seed);
    let began = Instant::now();
    let mut moves = 0u64;
    while began.elapsed() < PLAY_FOR {
        match next_move(&service, id, &mut dice) {
            Some((user, seen_ply, text)) => {
                service
                    .act(user, id, seen_ply, &text)
                    .expect("a legal move");
                moves += 1;
            }
            None => {
                seed += 1;
                id = start_game(&service, seed);
            }
        }
    }
    println!("{moves}");
}

/// A worker firing due timers until none is left that it may fire: prints how many it fired.
fn timers_worker(url: &str) {
    let store = Store::open_database(&Database::Server(url.into()), Durability::Full)
        .expect("the database opens");
    let service = GameService::new(Arc::new(store), Arc::new(SystemClock));
    let mut fired = 0u64;
    loop {
        let now = fired_now(&service);
        fired += now;
        if now == 0 {
            // Nothing claimable: done, unless timers another process holds are still due.
            match service.next_timer_due().expect("the next timer") {
                Some(due) if due <= service.now_ms() => continue,
                _ => break,
            }
        }
    }
    println!("{fired}");
}

fn fired_now(service: &GameService) -> u64 {
    service.fire_due_timers().expect("timers fire").len() as u64
}

/// `count` duels (each its own pair of users) whose first deadline passed an hour ago.
fn overdue_duels(url: &str, count: usize) -> Vec<GameId> {
    let store = Store::open_database(&Database::Server(url.into()), Durability::Full)
        .expect("the database opens");
    let past: Arc<dyn Clock> = Arc::new(ManualClock::new(SystemClock.now_ms() - 13 * HOUR));
    let service = GameService::new(Arc::new(store), past);
    let mut config = GameConfig::default();
    config.set("board_size", "7").expect("a size");
    config.set("turn_time", "12h").expect("a turn time");
    config.set("timeout_level", "random").expect("a level");
    let here = Location {
        guild_id: Some(GuildId::new(1)),
        channel_id: Some(ChannelId::new(2)),
        thread_id: None,
    };
    (0..count)
        .map(|n| {
            let n = n as u64;
            let players = [UserId::new(10_000 + 2 * n), UserId::new(10_001 + 2 * n)];
            start_duel(&service, &config, here, players, n + 1)
        })
        .collect()
}

/// Whether every game's first seat missed exactly one deadline.
fn each_fired_once(url: &str, games: &[GameId]) -> bool {
    let store = Store::open_database(&Database::Server(url.into()), Durability::Full)
        .expect("the database opens");
    let service = GameService::new(Arc::new(store), Arc::new(SystemClock));
    games.iter().all(|id| {
        let view = service.game(*id).expect("the game loads");
        view.seat(1).is_some_and(|s| s.missed_deadlines == 1)
    })
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Who is to move, at which ply, and one of their legal moves picked by the dice (`None`
/// once the game is over).
fn next_move(
    service: &GameService,
    id: GameId,
    dice: &mut SplitMix64,
) -> Option<(UserId, u32, String)> {
    let loaded = service.game(id).expect("the game loads");
    let game = loaded.state.as_ref().filter(|g| !g.is_over())?;
    let user = loaded
        .team_seat(game.controller())
        .and_then(|s| s.user_id)
        .expect("every seat is a user");
    let moves = service.legal_moves(user, id).expect("the player has moves");
    Some((
        user,
        loaded.ply,
        moves[dice.pick(moves.len())].notation.clone(),
    ))
}
