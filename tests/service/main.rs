//! The game service on a real SQLite file: lobby, turns, refusals, deadlines, history,
//! export/import, migrations, corrupt snapshots and concurrent clicks: a module by subject,
//! over this file's shared fixture. Beside them, what stands on the stored file: real-life
//! timing (reminders, vacations, pauses), backups, `jackal doctor`, crashes and kills, hostile
//! files, pictures of stored games, `jackal play`, and fuzzed input of every kind.
//! One test binary; run only these with `cargo test --test service`.
//!
//! The fixture's service runs on the PostgreSQL server of `JACKAL_TEST_DATABASE_URL` when it
//! is set (a fresh database each: `scripts/pg-test` starts a server and runs the subjects
//! that go through the service only), else on an SQLite file. Tests of the file itself take
//! [`file_fixture`].

use std::sync::Arc;

use jackal::ai::BotLevel;
use jackal::engine::{Game, Team};
use jackal::game::{
    Actor, Clock, Damage, Fired, GameConfig, GameService, Kicked, Location, ManualClock, Next,
    Notice, OutboxMessage, ServiceError, Target,
};
use jackal::id::{ChannelId, GameId, GuildId, UserId};
use jackal::store::{self, Database, Durability, GameStatus, Store, StoreError};

mod concurrency;
mod lobby;
mod outbox;
mod ratings;
/// The benches' games: this suite starts its duels as they do.
#[path = "../support/service_games.rs"]
#[allow(dead_code)]
mod service_games;
mod stats;
mod stored;
mod timers;
mod tools;
mod turns;
mod undo;

mod backup;
mod crash_points;
mod crash_safety;
mod doctor;
mod fuzz;
mod hostile_files;
mod play;
mod real_life;
mod render_stored;
mod shared_work;
mod tls;

const ALICE: UserId = UserId::new(1001);

const BOB: UserId = UserId::new(1002);

const EVE: UserId = UserId::new(1666);

const HOUR: i64 = 3_600_000;

struct Fixture {
    _dir: tempfile::TempDir,
    /// The SQLite file (on PostgreSQL, [`file_fixture`]'s only).
    path: std::path::PathBuf,
    database: Database,
    clock: Arc<ManualClock>,
    service: GameService,
}

impl Fixture {
    /// Another store on the same database, as after a restart: nothing in memory.
    fn reopen(&self) -> Store {
        Store::open_database(&self.database, Durability::Full).unwrap()
    }
}

/// The clock's start: 2023-11-14 22:13:20 UTC.
const START_MS: i64 = 1_700_000_000_000;

/// A new database and the service on it, its clock at 2023-11-14 22:13:20 UTC.
fn fixture() -> Fixture {
    fixture_at_ms(START_MS)
}

/// A new database and the service on it, its clock at `start_ms`: a fresh PostgreSQL
/// database when `JACKAL_TEST_DATABASE_URL` names a server, else an SQLite file.
fn fixture_at_ms(start_ms: i64) -> Fixture {
    match std::env::var("JACKAL_TEST_DATABASE_URL") {
        Ok(admin) if !admin.is_empty() => {
            let url = store::postgres::fresh_database(&admin)
                .unwrap_or_else(|e| panic!("a fresh database on {admin}: {e}"));
            fixture_on(Database::Server(url), start_ms)
        }
        _ => file_fixture_at_ms(start_ms),
    }
}

/// [`fixture`] on an SQLite file whatever the environment: for tests of the file itself.
fn file_fixture() -> Fixture {
    file_fixture_at_ms(START_MS)
}

fn file_fixture_at_ms(start_ms: i64) -> Fixture {
    fixture_on(
        Database::File(std::path::PathBuf::from("jackal.db")),
        start_ms,
    )
}

/// The fixture on `database`; a file's path is taken in a new temporary folder.
fn fixture_on(database: Database, start_ms: i64) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("jackal.db");
    let database = match database {
        Database::File(name) => Database::File(dir.path().join(name)),
        server => server,
    };
    let store = Arc::new(Store::open_database(&database, Durability::Full).unwrap());
    let clock = Arc::new(ManualClock::new(start_ms));
    let service = GameService::new(store, clock.clone());
    Fixture {
        _dir: dir,
        path,
        database,
        clock,
        service,
    }
}

fn here() -> Location {
    Location {
        guild_id: Some(GuildId::new(1)),
        channel_id: Some(ChannelId::new(500)),
        thread_id: None,
    }
}

fn small_config() -> GameConfig {
    let mut c = GameConfig::default();
    c.set("board_size", "7").unwrap();
    c
}

/// A started duel: Alice team 1, Bob team 2.
fn duel(f: &Fixture) -> GameId {
    duel_with(f, small_config(), 42)
}

/// A started duel with this configuration and map seed: Alice team 1, Bob team 2 (the
/// seat left when he joins without choosing one), started as the benches start theirs.
/// Nothing is loaded here: a test may then damage the stored game behind the service's back.
fn duel_with(f: &Fixture, config: GameConfig, seed: u64) -> GameId {
    service_games::start_duel(&f.service, &config, here(), [ALICE, BOB], seed)
}

/// A started game of Alice (team 1) against a bot of `level` (team 2), on map `seed`.
fn against_bot(f: &Fixture, level: BotLevel, seed: u64) -> GameId {
    let s = &f.service;
    let owner = Actor::user(ALICE);
    let id = s
        .create_lobby(
            owner,
            here(),
            jackal::words::Lang::En,
            small_config(),
            Some(1),
        )
        .unwrap();
    s.add_bot(owner, id, 2, level).unwrap();
    s.start_with_seed(owner, id, seed).unwrap();
    id
}

/// A started game of two random bots, set up by Alice (who gives her seat to a bot).
fn bots_duel(f: &Fixture, location: Location, config: GameConfig, seed: u64) -> GameId {
    let s = &f.service;
    let owner = Actor::user(ALICE);
    let id = s
        .create_lobby(owner, location, jackal::words::Lang::En, config, Some(1))
        .unwrap();
    s.add_bot(owner, id, 2, BotLevel::Random).unwrap();
    s.kick(owner, id, 1).unwrap();
    s.add_bot(owner, id, 1, BotLevel::Random).unwrap();
    s.start_with_seed(owner, id, seed).unwrap();
    id
}

/// A game's timer rows: kind, ply, due time and fired time.
fn timers_of(f: &Fixture, id: GameId) -> Vec<(store::TimerKind, u32, i64, Option<i64>)> {
    let conn = f.service.store().conn().unwrap();
    store::game_timers(&conn, id)
        .unwrap()
        .into_iter()
        .map(|t| (t.kind, t.ply, t.due_at, t.fired_at))
        .collect()
}

fn first_move(f: &Fixture, id: GameId, user: UserId) -> String {
    f.service.legal_moves(user, id).unwrap()[0].notation.clone()
}

/// A started game of two bots of `level` on a `size`×`size` board.
fn bots_of_level(f: &Fixture, level: BotLevel, size: &str, seed: u64) -> GameId {
    let s = &f.service;
    let owner = Actor::user(ALICE);
    let mut config = GameConfig::default();
    config.set("board_size", size).unwrap();
    let id = s
        .create_lobby(owner, here(), jackal::words::Lang::En, config, Some(1))
        .unwrap();
    s.add_bot(owner, id, 2, level).unwrap();
    s.kick(owner, id, 1).unwrap();
    s.add_bot(owner, id, 1, level).unwrap();
    s.start_with_seed(owner, id, seed).unwrap();
    id
}

/// Plays `plies` first-listed moves in a duel (fewer if it ends), through `f`'s service.
fn play_plies(f: &Fixture, id: GameId, plies: u32) {
    let s = &f.service;
    for ply in 0..plies {
        let g = s.game(id).unwrap().state.unwrap();
        if g.is_over() {
            break;
        }
        let user = if g.controller() == Team::of(1) {
            ALICE
        } else {
            BOB
        };
        let mv = first_move(f, id, user);
        s.act(user, id, ply, &mv).unwrap();
    }
}

/// The game numbered `n` (a number a test writes into the file itself, or one no game has).
fn game_no(n: i64) -> GameId {
    GameId::new(n).expect("a game's number")
}

/// The service as after a restart: nothing in memory, everything read from the database.
fn restarted(f: &Fixture) -> GameService {
    GameService::new(Arc::new(f.reopen()), f.clock.clone())
}

fn damage_of<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> (GameId, Damage) {
    match result {
        Err(ServiceError::Damaged { game, damage }) => (game, damage),
        other => panic!("expected a damaged game, got {other:?}"),
    }
}

/// Replaces the action recorded at `ply` of game `id` by another move legal there, as a hand
/// edit of the file would (dropping the log's append-only trigger first, migration 0003).
fn change_action(f: &Fixture, id: GameId, ply: u32) {
    let conn = f.service.store().conn().unwrap();
    conn.raw()
        .execute_batch("DROP TRIGGER IF EXISTS actions_no_update")
        .unwrap();
    let recorded = store::action_at(&conn, id, ply).unwrap().unwrap().action;
    let other = f
        .service
        .position_at(id, ply - 1)
        .unwrap()
        .legal_actions()
        .into_iter()
        .map(|l| serde_json::to_string(&l.action).unwrap())
        .find(|a| *a != recorded)
        .expect("another legal move");
    conn.raw()
        .execute(
            "UPDATE actions SET action = ?3 WHERE game_id = ?1 AND ply = ?2",
            rusqlite::params![id, ply, other],
        )
        .unwrap();
}
