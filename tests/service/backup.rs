//! `jackal backup` and `Store::back_up_to`: a consistent copy taken while games go on.

use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use jackal::ai::BotLevel;
use jackal::engine::Game;
use jackal::game::{Actor, GameConfig, GameService, Location, ManualClock};
use jackal::id::{GameId, UserId};
use jackal::store::{Store, StoreError};

const OWNER: UserId = UserId::new(1001);

fn service(path: &std::path::Path) -> GameService {
    let store = Arc::new(Store::open(path).unwrap());
    GameService::new(store, Arc::new(ManualClock::new(1_700_000_000_000)))
}

/// A started game of two random bots.
fn bots_game(s: &GameService, seed: u64) -> GameId {
    let mut config = GameConfig::default();
    config.set("board_size", "7").unwrap();
    let owner = Actor::user(OWNER);
    let id = s
        .create_lobby(
            owner,
            Location::default(),
            jackal::words::Lang::En,
            config,
            Some(1),
        )
        .unwrap();
    s.add_bot(owner, id, 2, BotLevel::Random).unwrap();
    s.kick(owner, id, 1).unwrap();
    s.add_bot(owner, id, 1, BotLevel::Random).unwrap();
    s.start_with_seed(owner, id, seed).unwrap();
    id
}

/// The state a game's action log replays to, from its seed.
fn replayed(s: &GameService, id: GameId) -> Game {
    let export = s.export(id).unwrap();
    let mut game = Game::new(export.config.rules.clone(), export.seed.unwrap()).unwrap();
    for a in &export.actions {
        game.play(&a.action.action().expect("no take-back here"))
            .unwrap();
    }
    game
}

#[test]
fn a_backup_taken_while_a_game_is_played_is_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let live = Arc::new(service(&dir.path().join("live.db")));
    let quiet = bots_game(&live, 3);
    for _ in 0..40 {
        live.bot_step(quiet).unwrap();
    }
    let busy = bots_game(&live, 4);
    // Bots play on in the busy game the whole time the backups are taken.
    let stop = Arc::new(AtomicBool::new(false));
    let player = {
        let (live, stop) = (live.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut plies = 0;
            while !stop.load(Ordering::Relaxed) && live.bot_step(busy).unwrap().is_some() {
                plies += 1;
            }
            plies
        })
    };
    for n in 0..5 {
        let path = dir.path().join(format!("backup-{n}.db"));
        live.store().back_up_to(&path).unwrap();
        let copy = service(&path);
        for id in [quiet, busy] {
            let loaded = copy.game(id).unwrap();
            // Whatever ply the copy caught the game at, its state is that of its own log.
            assert_eq!(
                loaded.state.unwrap(),
                replayed(&copy, id),
                "game {id} in copy {n}"
            );
        }
        assert_eq!(copy.game(quiet).unwrap().ply, 40);
    }
    stop.store(true, Ordering::Relaxed);
    assert!(
        player.join().unwrap() > 0,
        "the busy game moved during the backups"
    );
}

#[test]
fn a_backup_never_replaces_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let live = service(&dir.path().join("live.db"));
    bots_game(&live, 5);
    let existing = dir.path().join("existing.db");
    std::fs::write(&existing, "keep me").unwrap();
    match live.store().back_up_to(&existing) {
        Err(e @ StoreError::BackupExists(_)) => assert!(e.to_string().contains("already exists")),
        other => panic!("expected BackupExists, got {other:?}"),
    }
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep me");
}

fn jackal(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_backup_command_copies_and_refuses_kindly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let live = service(&db);
    bots_game(&live, 6);
    bots_game(&live, 7);
    let out = dir.path().join("copy.db");
    let (db_arg, out_arg) = (db.to_str().unwrap(), out.to_str().unwrap());

    let done = jackal(&["backup", "--db", db_arg, "-o", out_arg]);
    assert!(done.status.success(), "{done:?}");
    let said = String::from_utf8(done.stdout).unwrap();
    assert!(said.contains("2 game(s)"), "{said}");
    let copy = service(&out);
    let ids = jackal::store::all_game_ids(&copy.store().conn().unwrap()).unwrap();
    assert_eq!(ids.len(), 2);
    for id in ids {
        assert_eq!(copy.game(id).unwrap().state, live.game(id).unwrap().state);
    }

    // Again to the same file: refused, the copy untouched.
    let before = std::fs::read(&out).unwrap();
    let refused = jackal(&["backup", "--db", db_arg, "-o", out_arg]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("already exists"));
    assert_eq!(std::fs::read(&out).unwrap(), before);

    // A database that is not there: refused, and nothing is created on either side.
    let missing = dir.path().join("typo.db");
    let other = dir.path().join("other.db");
    let refused = jackal(&[
        "backup",
        "--db",
        missing.to_str().unwrap(),
        "-o",
        other.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("there is no database file"));
    assert!(!missing.exists() && !other.exists());
}

/// `jackal backup` only reads the database: a file written by an older jackal keeps its
/// schema version, its journal mode and its bytes.
#[test]
fn the_backup_command_leaves_an_older_database_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("old.db");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(jackal::store::MIGRATION_SQL[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
    }
    let before = std::fs::read(&db).unwrap();
    let out = dir.path().join("copy.db");
    let done = jackal(&[
        "backup",
        "--db",
        db.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(done.status.success(), "{done:?}");
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the source is unchanged"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete");
    let copy = rusqlite::Connection::open(&out).unwrap();
    let version: i64 = copy
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1, "the copy is the file as it was");
}
