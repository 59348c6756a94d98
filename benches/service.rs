//! The cost of one action through the game service:
//! `cargo bench --bench service`.
//!
//! `act/ply_N` times `GameService::act` for the N-th action of a 13×13, 4-player game on a
//! real SQLite file: load (latest snapshot + later actions), parse, engine, and the one commit
//! with the action row, timers and outbox rows (and, at ply 500, a snapshot: 500 is a multiple
//! of `SNAPSHOT_EVERY`, so ply 500 is the dearest ply of its cycle). `bare_commit/ply_N` times
//! a one-row INSERT in its own transaction on the same database file and connection settings.
//! Targets: act ÷ bare commit ≤ 3, and act at ply 500 ≤ 1.2 × act at ply 10. The two ratios
//! are printed at the end of the run.
//!
//! Each summary line also gives the pages the operation wrote (WAL frames): a typical action
//! writes five (see `migrations/0002_lean_action_writes.sql`), one that splits a full leaf of
//! the actions table about four more, and a snapshot ply one or two more. A fresh-copy figure
//! is one particular action, so it shows whichever of these that action is; the steady-state
//! windows below give the typical (median) and the amortised (mean) action.
//!
//! Everything is measured twice: with the store's default durability (`full`: each commit is
//! flushed to the disk before it returns, so the flush is the largest part of both sides) and
//! with `normal` (no flush at commit), which shows the service's own work next to SQLite's.
//!
//! Method. An action cannot be undone, so every measured action needs its own copy of the
//! game at ply N − 1. The game is prepared once through the service (four users seated; the
//! one to move plays a legal move picked by seeded dice: always taking the first legal move
//! ends every 13×13 game in a stall draw before ply 500, R-END-6), and the database file is
//! saved, after a `wal_checkpoint(TRUNCATE)` so the file alone holds everything, when the game
//! is at ply 9 and at ply 499. Each measured iteration then copies the saved file to a fresh
//! temporary path, opens it with `Store::open_with` (the durability measured), warms the connection (one action in another
//! game of the same file, which starts the WAL and prepares every cached statement `act`
//! uses, as on the bot's long-lived connections, then one `load` of the measured game, which
//! reads its pages and leaves its state in the service's memory, as the previous move does on
//! a running bot; a cold load after a restart reads the snapshot and replays at most 24
//! actions), and only then times exactly one operation. The bare commit
//! goes through the very same setup, so both sides see the same file, cache and WAL state;
//! neither ever pays an auto-checkpoint. The figures are medians of the individually timed
//! iterations.

#[path = "../tests/support/service_games.rs"]
mod service_games;
use service_games::{USERS, start_duel, start_game};

use jackal::engine::mapgen::SplitMix64;
use jackal::id::{ChannelId, GameId, GuildId, UserId};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use jackal::game::{Actor, GameConfig, GameService, Location, ManualClock, SNAPSHOT_EVERY};
use jackal::store::{Durability, Store};
use rusqlite::TransactionBehavior;

/// The plies measured: early game, and deep into a long one.
/// Ply 500 is a snapshot ply (a multiple of `SNAPSHOT_EVERY`); ply 501 is an ordinary one, to
/// tell the periodic snapshot cost from any growth with the game's length.
const PLIES: [u32; 3] = [10, 500, 501];
/// The four seated users (team = index + 1).
const START_MS: i64 = 1_700_000_000_000;
/// Seeds tried in turn until a game lasts long enough.
const SEEDS: std::ops::Range<u64> = 1..50;

const SCRATCH_TABLE: &str =
    "CREATE TABLE bench_scratch (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, note TEXT NOT NULL)";
const SCRATCH_INSERT: &str = "INSERT INTO bench_scratch (at, note) VALUES (?1, ?2)";

/// A move to make: who, in which game, answering which ply.
#[derive(Clone)]
struct Move {
    game: GameId,
    seen_ply: u32,
    user: UserId,
    text: String,
}

/// A saved database with a game one action before the measured ply, that action, and the
/// warm-up game's next action.
struct Template {
    path: PathBuf,
    measured: Move,
    warm_up: Move,
}

/// A fresh copy of a template, opened and warmed, ready for one measured operation.
struct Fresh {
    _dir: tempfile::TempDir,
    service: GameService,
    wal: PathBuf,
}

impl Fresh {
    /// Pages in the WAL so far (each commit appends one frame per page it changed; nothing
    /// checkpoints during a measurement, so the difference across an operation is its pages).
    fn wal_pages(&self) -> u64 {
        let bytes = std::fs::metadata(&self.wal).map_or(0, |m| m.len());
        bytes.saturating_sub(WAL_HEADER) / (PAGE_SIZE + FRAME_HEADER)
    }
}

/// SQLite's WAL layout: a 32-byte file header, then a 24-byte header before each page.
const WAL_HEADER: u64 = 32;
const FRAME_HEADER: u64 = 24;
const PAGE_SIZE: u64 = 4096;

fn service_on(path: &Path, durability: Durability) -> GameService {
    let store = Store::open_with(path, durability).expect("the database opens");
    GameService::new(Arc::new(store), Arc::new(ManualClock::new(START_MS)))
}

/// A new database file with the scratch table the bare commits write to.
fn new_bench_db(path: &Path, durability: Durability) -> GameService {
    let service = service_on(path, durability);
    service
        .store()
        .conn()
        .expect("a connection")
        .raw()
        .execute(SCRATCH_TABLE, [])
        .expect("the scratch table");
    service
}

/// The bare commit: one row, its own immediate transaction (as the service's writes).
fn bare_commit(service: &GameService) {
    let mut conn = service.store().conn().expect("a connection");
    let tx = conn
        .raw_mut()
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .expect("begin");
    tx.prepare_cached(SCRATCH_INSERT)
        .and_then(|mut s| s.execute(rusqlite::params![START_MS, "one row"]))
        .expect("insert");
    tx.commit().expect("commit");
}

/// Who is to move in `id` and one of their legal moves, picked by the dice.
fn next_move(service: &GameService, id: GameId, dice: &mut SplitMix64) -> (UserId, String) {
    let loaded = service.game(id).expect("the game loads");
    let game = loaded.state.as_ref().expect("the game is running");
    let user = loaded
        .team_seat(game.controller())
        .and_then(|s| s.user_id)
        .expect("every seat is a user");
    let moves = service.legal_moves(user, id).expect("the player has moves");
    (user, moves[dice.pick(moves.len())].notation.clone())
}

/// Copies the database file, with everything checkpointed into it, to `to`.
fn save(service: &GameService, from: &Path, to: &Path) {
    let conn = service.store().conn().expect("a connection");
    conn.raw()
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            let busy: i64 = r.get(0)?;
            assert_eq!(busy, 0, "the checkpoint must not be blocked");
            Ok(())
        })
        .expect("checkpoint");
    std::fs::copy(from, to).expect("copy the database");
}

/// Plays `id` with the dice until it is at `ply`; then returns the next move (`None` if the
/// game ended first).
fn play_to(service: &GameService, id: GameId, ply: u32, dice: &mut SplitMix64) -> Option<Move> {
    loop {
        let loaded = service.game(id).expect("the game loads");
        if loaded.state.as_ref().is_none_or(|g| g.is_over()) {
            return None;
        }
        let seen_ply = loaded.ply;
        let (user, text) = next_move(service, id, dice);
        if seen_ply == ply {
            return Some(Move {
                game: id,
                seen_ply,
                user,
                text,
            });
        }
        service
            .act(user, id, seen_ply, &text)
            .expect("a legal move");
    }
}

/// Prepares the database with `seed` and saves it one action before every ply of [`PLIES`];
/// `None` if the measured game ends too early.
///
/// Besides the measured game it holds a warm-up game at ply 24: acting on it before the
/// timing prepares every statement `act` runs (its ply 25 writes a snapshot too), as on a bot's
/// long-lived connection that has served other games.
fn prepare_with_seed(dir: &Path, seed: u64) -> Option<Vec<Template>> {
    let path = dir.join(format!("prepare-{seed}.db"));
    // Preparing is not measured: commits need not reach the disk.
    let service = new_bench_db(&path, Durability::Normal);
    let warm_id = start_game(&service, seed ^ 0x5EED);
    let warm_up = play_to(
        &service,
        warm_id,
        SNAPSHOT_EVERY - 1,
        &mut SplitMix64::new(seed ^ 0x5EED),
    )?;
    let id = start_game(&service, seed);
    let mut dice = SplitMix64::new(seed);
    let mut templates = Vec::new();
    for &ply in &PLIES {
        let Some(measured) = play_to(&service, id, ply - 1, &mut dice) else {
            let _ = std::fs::remove_file(&path);
            return None;
        };
        let saved = dir.join(format!("ply-{ply}.db"));
        save(&service, &path, &saved);
        templates.push(Template {
            path: saved,
            measured,
            warm_up: warm_up.clone(),
        });
        // The template keeps the game at ply − 1; play the measured move to go on.
        let m = &templates.last().expect("just pushed").measured;
        service
            .act(m.user, m.game, m.seen_ply, &m.text)
            .expect("a legal move");
    }
    Some(templates)
}

fn prepare(dir: &Path) -> Vec<Template> {
    for seed in SEEDS {
        if let Some(templates) = prepare_with_seed(dir, seed) {
            println!(
                "service bench: seed {seed}, 13x13, 4 players; measured actions: {}",
                templates
                    .iter()
                    .map(|t| format!("ply {} `{}`", t.measured.seen_ply + 1, t.measured.text))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return templates;
        }
    }
    panic!("no seed in {SEEDS:?} gives a game of {} plies", PLIES[2]);
}

fn fresh(template: &Template, durability: Durability) -> Fresh {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.db");
    std::fs::copy(&template.path, &path).expect("copy the template");
    let service = service_on(&path, durability);
    let w = &template.warm_up;
    service
        .act(w.user, w.game, w.seen_ply, &w.text)
        .expect("the warm-up move is accepted");
    service.game(template.measured.game).expect("warm-up load");
    let wal = dir.path().join("bench.db-wal");
    Fresh {
        _dir: dir,
        service,
        wal,
    }
}

/// Per-iteration times of each benchmark, and the pages its operation wrote, for the summary.
#[derive(Default)]
struct Record {
    times: BTreeMap<String, Vec<Duration>>,
    pages: BTreeMap<String, u64>,
}

type Samples = Arc<Mutex<Record>>;

/// Times `op` once per iteration, each on its own fresh copy of `template`.
fn timed(
    c: &mut Criterion,
    (name, durability): (&str, Durability),
    template: &Template,
    samples: &Samples,
    op: impl Fn(&Fresh, &Template),
) {
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let f = fresh(template, durability);
                let pages_before = f.wal_pages();
                let start = Instant::now();
                op(&f, template);
                let took = start.elapsed();
                total += took;
                let pages = f.wal_pages() - pages_before;
                let mut record = samples.lock().expect("not poisoned");
                record.times.entry(name.to_string()).or_default().push(took);
                record.pages.insert(name.to_string(), pages);
                // `f` (closing the connection, deleting the copy) drops outside the timing.
            }
            total
        })
    });
}

fn median(times: &mut [Duration]) -> Option<Duration> {
    times.sort();
    times.get(times.len() / 2).copied()
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

fn summary(samples: &Samples, durability: Durability) {
    let mut all = samples.lock().expect("not poisoned");
    let pages = all.pages.clone();
    let mut med = |name: String| all.times.get_mut(&name).and_then(|t| median(t));
    let mode = mode_name(durability);
    let rows: Vec<_> = PLIES
        .iter()
        .map(|p| {
            (
                *p,
                med(format!("{mode}/act/ply_{p}")),
                med(format!("{mode}/bare_commit/ply_{p}")),
            )
        })
        .collect();
    println!(
        "\nservice bench summary, {mode} durability (medians of single timed iterations, \
         each on a fresh copy):"
    );
    for (ply, act, bare) in &rows {
        match (act, bare) {
            (Some(a), Some(b)) => {
                let written = |what: &str| {
                    pages
                        .get(&format!("{mode}/{what}/ply_{ply}"))
                        .map_or("?".into(), |p| p.to_string())
                };
                println!(
                    "  ply {ply:>3}: act {} ({} pages), bare commit {} ({} page), \
                     act / bare commit = {:.2} (target ≤ 3)",
                    micros(*a),
                    written("act"),
                    micros(*b),
                    written("bare_commit"),
                    a.as_secs_f64() / b.as_secs_f64()
                )
            }
            _ => println!("  ply {ply:>3}: not measured in this run"),
        }
    }
    if let Some((first, Some(early), _)) = rows.first().copied() {
        for (ply, late, _) in &rows[1..] {
            if let Some(late) = late {
                println!(
                    "  act at ply {ply} / act at ply {first} = {:.2} (target ≤ 1.2)",
                    late.as_secs_f64() / early.as_secs_f64()
                );
            }
        }
    }
}

/// Steady state: one service on one file, as the running bot is. A game is played to ply 525
/// and every action is timed where it happens, with a bare commit timed right after each one
/// on the same file; the windows of plies 1–25 and 476–500 (each one snapshot cycle) stand for
/// "ply 10" and "ply 500". Medians show the typical action, means include the snapshot every
/// 25th action and SQLite's periodic WAL checkpoints.
fn steady_state(dir: &Path, durability: Durability) {
    let mode = mode_name(durability);
    let path = dir.join(format!("steady-{mode}.db"));
    let service = new_bench_db(&path, durability);
    for seed in SEEDS {
        let id = start_game(&service, seed);
        let mut dice = SplitMix64::new(seed);
        let mut acts = Vec::new();
        let mut commits = Vec::new();
        for ply in 0..525 {
            let loaded = service.game(id).expect("the game loads");
            if loaded.state.as_ref().is_none_or(|g| g.is_over()) {
                break;
            }
            let (user, text) = next_move(&service, id, &mut dice);
            let t = Instant::now();
            service.act(user, id, ply, &text).expect("a legal move");
            acts.push(t.elapsed());
            let t = Instant::now();
            bare_commit(&service);
            commits.push(t.elapsed());
        }
        if acts.len() < 500 {
            continue; // this game ended early; try the next seed
        }
        println!(
            "\nsteady state, {mode} durability (one file, warm, seed {seed}): act and bare \
             commit per window"
        );
        let windows = [(10u32, 0usize..25usize), (500, 475..500)];
        let mut medians = Vec::new();
        for (label, range) in windows {
            let mean = |v: &[Duration]| v.iter().sum::<Duration>() / v.len() as u32;
            let mut a = acts[range.clone()].to_vec();
            let mut b = commits[range.clone()].to_vec();
            let (a_mean, b_mean) = (mean(&a), mean(&b));
            let (a_med, b_med) = (median(&mut a).expect("25"), median(&mut b).expect("25"));
            println!(
                "  ply {label:>3} (plies {}–{}): act median {} (mean {}), bare commit median {} \
                 (mean {}), act / bare commit = {:.2} median, {:.2} mean (target ≤ 3)",
                range.start + 1,
                range.end,
                micros(a_med),
                micros(a_mean),
                micros(b_med),
                micros(b_mean),
                a_med.as_secs_f64() / b_med.as_secs_f64(),
                a_mean.as_secs_f64() / b_mean.as_secs_f64(),
            );
            medians.push((a_med, a_mean));
        }
        println!(
            "  act at ply 500 / act at ply 10 = {:.2} median, {:.2} mean (target ≤ 1.2)",
            medians[1].0.as_secs_f64() / medians[0].0.as_secs_f64(),
            medians[1].1.as_secs_f64() / medians[0].1.as_secs_f64(),
        );
        return;
    }
    println!("steady state: no seed in {SEEDS:?} gives a game of 500 plies");
}

/// The ratings' share of a game's end: a duel ended by resignation in a server (two ladders
/// rated, the seats' results written and twelve leaderboards a player added to) against the
/// same in a channel outside any server (nothing rated, the same outbox row), each timed where
/// it happens, on one warm file with commits not flushed so that the difference is not lost in
/// the flush. Target: the rating update ≤ 1 ms.
fn rating_cost(dir: &Path) {
    const ROUNDS: usize = 200;
    let service = new_bench_db(&dir.join("ratings.db"), Durability::Normal);
    let mut config = GameConfig::default();
    config.set("board_size", "7").expect("7 is a board size");
    let ended = |guild: Option<GuildId>, seed: u64| {
        let here = Location {
            guild_id: guild,
            channel_id: Some(ChannelId::new(3)),
            thread_id: None,
        };
        let id = start_duel(&service, &config, here, [USERS[0], USERS[1]], seed);
        let owner = Actor::user(USERS[0]);
        let t = Instant::now();
        service.resign(owner, id).expect("resign");
        t.elapsed()
    };
    let (mut rated, mut unrated) = (Vec::new(), Vec::new());
    for seed in 0..ROUNDS as u64 {
        rated.push(ended(Some(GuildId::new(1)), seed));
        unrated.push(ended(None, seed));
    }
    let (rated, unrated) = (
        median(&mut rated).expect("rounds"),
        median(&mut unrated).expect("rounds"),
    );
    println!(
        "\nratings at a game's end, normal durability ({ROUNDS} duels each): ending rated on two \
         ladders with results and standings {}, unrated {}, the ratings' share {} (target ≤ 1 ms)",
        micros(rated),
        micros(unrated),
        micros(rated.saturating_sub(unrated)),
    );
}

fn mode_name(durability: Durability) -> &'static str {
    match durability {
        Durability::Full => "full",
        Durability::Normal => "normal",
    }
}

/// Both durabilities: `full` is what the store uses unless told otherwise (every commit
/// flushed to the disk), `normal` shows the service's own cost when the flush is left out.
fn bench_service(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let templates = prepare(dir.path());
    let samples = Samples::default();
    for durability in [Durability::Full, Durability::Normal] {
        let mode = mode_name(durability);
        for t in &templates {
            let ply = t.measured.seen_ply + 1;
            let name = format!("{mode}/act/ply_{ply}");
            timed(c, (&name, durability), t, &samples, |f, t| {
                let m = &t.measured;
                let accepted = f
                    .service
                    .act(m.user, m.game, m.seen_ply, &m.text)
                    .expect("the prepared move is accepted");
                assert_eq!(accepted.ply, ply);
            });
            let name = format!("{mode}/bare_commit/ply_{ply}");
            timed(c, (&name, durability), t, &samples, |f, _| {
                bare_commit(&f.service)
            });
        }
    }
    for durability in [Durability::Full, Durability::Normal] {
        summary(&samples, durability);
        steady_state(dir.path(), durability);
    }
    rating_cost(dir.path());
}

criterion_group! {
    name = benches;
    // With `iter_custom`, criterion sizes the run from the wall time of its warm-up calls,
    // setup (copying and opening a file) included, so these bound the whole run to seconds.
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench_service
}
criterion_main!(benches);
