//! Crash points: a child process runs one multi-step operation over and over (game creation
//! and start, moves with choices, resignations, timers firing, backups) and is killed with
//! SIGKILL at random moments. After every kill each game is either not there or fully
//! consistent, and everything the child acknowledged is there.
//!
//! `cargo test` kills each operation 12 times; the long run kills each 200 times or more:
//! `JACKAL_CRASH_KILLS=200 cargo test --release --test service crash_points:: -- --nocapture`.

use std::collections::BTreeSet;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use jackal::cli::chaos::FULL_CHANNELS;
use jackal::engine::Game;
use jackal::game::{GameEnd, GameService, ManualClock};
use jackal::id::GameId;
use jackal::store::{self, GameStatus, Store, TimerKind};

fn kills_wanted() -> usize {
    std::env::var("JACKAL_CRASH_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

/// One run of the child: `operation` with `games` games and `work` units of work.
struct Child<'a> {
    operation: &'a str,
    games: usize,
    work: u32,
}

impl Child<'_> {
    fn spawn(&self, db: &Path) -> std::process::Child {
        Command::new(env!("CARGO_BIN_EXE_jackal"))
            .args([
                "chaos-child",
                "--operation",
                self.operation,
                "--pace-ms",
                "1",
            ])
            .args(["--games", &self.games.to_string()])
            .args(["--actions", &self.work.to_string(), "--db"])
            .arg(db)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn jackal")
    }
}

/// Kills the child at random moments until `kills_wanted()` kills have landed, on fresh
/// databases as often as the child finishes its work first. After every run (killed or not)
/// `check` sees the database and every acknowledged line so far; after a run the child
/// finished, `finished` checks that all its work was done.
fn kill_repeatedly(
    child: Child,
    check: impl Fn(&Path, &[String]),
    finished: impl Fn(&Path, &[String]),
) -> usize {
    let wanted = kills_wanted();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let (mut kills, mut runs, mut rounds) = (0, 0, 0);
    while kills < wanted {
        rounds += 1;
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("chaos.db");
        let mut acks = Vec::new();
        loop {
            runs += 1;
            assert!(runs < 20 * wanted + 50, "the child never finishes");
            let mut c = child.spawn(&db);
            let mut killed = false;
            if kills < wanted {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                std::thread::sleep(Duration::from_micros(2_000 + rng % 40_000));
                killed = c.kill().is_ok();
            }
            let status = c.wait().unwrap();
            let mut out = String::new();
            c.stdout.take().unwrap().read_to_string(&mut out).unwrap();
            // A line cut by the kill has no newline: it was not acknowledged.
            let complete = out.rsplit_once('\n').map_or("", |(whole, _)| whole);
            acks.extend(
                complete
                    .lines()
                    .filter_map(|l| l.strip_prefix("ack "))
                    .map(String::from),
            );
            check(&db, &acks);
            if killed && status.signal() == Some(9) {
                kills += 1;
                continue;
            }
            let mut err = String::new();
            c.stderr.take().unwrap().read_to_string(&mut err).unwrap();
            assert!(status.success(), "the child failed: {status} {err}");
            finished(&db, &acks);
            break;
        }
    }
    eprintln!(
        "{}: {kills} kills in {runs} runs over {rounds} databases",
        child.operation
    );
    kills
}

/// The service on `db`, as a restarted bot would open it.
fn open(db: &Path) -> (Arc<Store>, GameService) {
    let store = Arc::new(Store::open(db).expect("the database reopens"));
    let service = GameService::new(store.clone(), Arc::new(ManualClock::new(0)));
    (store, service)
}

/// Every game is consistent: a lobby has no seed, no actions and no timers; a running game
/// has every seat filled, its plies are 1..=n and its state is a fresh replay of its log, and
/// a timer waits for its current turn; an ended game has a result and no pending timer.
fn consistent(db: &Path) {
    let (store, service) = open(db);
    let conn = store.conn().unwrap();
    for id in store::all_game_ids(&conn).unwrap() {
        let row = store::get_game(&conn, id).unwrap().unwrap();
        let actions = store::actions_after(&conn, id, 0).unwrap();
        let plies: Vec<u32> = actions.iter().map(|a| a.ply).collect();
        assert_eq!(plies, (1..=row.ply).collect::<Vec<_>>(), "game {id}");
        let pending: Vec<_> = store::game_timers(&conn, id)
            .unwrap()
            .into_iter()
            .filter(|t| t.fired_at.is_none())
            .collect();
        let loaded = service.game(id).unwrap();
        match row.status {
            GameStatus::Lobby => {
                assert!(row.seed.is_none() && actions.is_empty(), "lobby {id}");
                assert!(pending.is_empty(), "lobby {id} has timers");
            }
            GameStatus::Active => {
                let seed = row.seed.expect("a running game has a seed");
                for team in 1..=loaded.config.team_count() {
                    assert!(loaded.seat(team).is_some(), "game {id} seat {team}");
                }
                let mut fresh = Game::new(loaded.config.rules.clone(), seed).unwrap();
                for a in &actions {
                    fresh
                        .play(&serde_json::from_str(&a.action).unwrap())
                        .unwrap();
                }
                assert_eq!(loaded.state.as_ref(), Some(&fresh), "game {id}");
                assert!(
                    pending
                        .iter()
                        .any(|t| t.ply == row.ply && t.kind != TimerKind::Reminder),
                    "game {id} at ply {} waits for no timer: {pending:?}",
                    row.ply
                );
            }
            GameStatus::Finished | GameStatus::Cancelled => {
                assert!(row.result.is_some(), "game {id} ended without a result");
                assert!(
                    pending.is_empty(),
                    "ended game {id} has timers: {pending:?}"
                );
            }
        }
    }
}

fn no_game_runs(conn: &rusqlite::Connection) -> bool {
    store::all_game_ids(conn)
        .unwrap()
        .into_iter()
        .all(|id| store::get_game(conn, id).unwrap().unwrap().status != GameStatus::Active)
}

fn words(ack: &str) -> Vec<&str> {
    ack.split(' ').collect()
}

#[test]
fn killed_while_creating_games_each_is_absent_a_lobby_or_started() {
    let check = |db: &Path, acks: &[String]| {
        consistent(db);
        let (store, service) = open(db);
        let conn = store.conn().unwrap();
        for id in store::all_game_ids(&conn).unwrap() {
            let row = store::get_game(&conn, id).unwrap().unwrap();
            // A game created full is never seen half made.
            if row
                .channel_id
                .is_some_and(|c| FULL_CHANNELS.contains(&c.get()))
            {
                assert_eq!(row.status, GameStatus::Active, "game {id}");
            }
        }
        for ack in acks {
            let id: GameId = words(ack)[1].parse().unwrap();
            let loaded = service.game(id).expect("an acknowledged game is there");
            assert_eq!(loaded.status, GameStatus::Active, "game {id}");
        }
    };
    let finished = |db: &Path, _: &[String]| {
        let (store, _) = open(db);
        let games = store::all_game_ids(&store.conn().unwrap()).unwrap();
        assert_eq!(games.len(), 40);
    };
    let child = Child {
        operation: "create",
        games: 0,
        work: 40,
    };
    assert!(kill_repeatedly(child, check, finished) >= kills_wanted());
}

#[test]
fn killed_while_moving_with_choices_no_move_is_lost_or_half_made() {
    let check = |db: &Path, acks: &[String]| {
        consistent(db);
        let (store, _) = open(db);
        let conn = store.conn().unwrap();
        let mut seen = BTreeSet::new();
        for ack in acks {
            let w = words(ack);
            let (id, ply): (GameId, u32) = (w[0].parse().unwrap(), w[1].parse().unwrap());
            assert!(
                seen.insert((id, ply)),
                "game {id} ply {ply} acknowledged twice"
            );
            let actions = store::actions_after(&conn, id, ply - 1).unwrap();
            assert_eq!(actions.first().map(|a| a.ply), Some(ply), "game {id}");
        }
    };
    let finished = |db: &Path, acks: &[String]| {
        let (store, _) = open(db);
        let conn = store.conn().unwrap();
        let total: u32 = store::all_game_ids(&conn)
            .unwrap()
            .into_iter()
            .map(|id| store::get_game(&conn, id).unwrap().unwrap().ply)
            .sum();
        assert!(
            total == 150 || no_game_runs(conn.raw()),
            "only {total} actions"
        );
        assert!(acks.len() <= 150);
        // Choices were among the moves made: some acknowledged step answered one.
        let answered = store::all_game_ids(&conn).unwrap().into_iter().any(|id| {
            store::actions_after(&conn, id, 0)
                .unwrap()
                .iter()
                .any(|a| a.events.contains("ChoiceRequired"))
        });
        assert!(answered, "no move with a choice was played");
    };
    let child = Child {
        operation: "moves",
        games: 6,
        work: 150,
    };
    assert!(kill_repeatedly(child, check, finished) >= kills_wanted());
}

#[test]
fn killed_while_players_resign_each_resignation_is_whole() {
    let check = |db: &Path, acks: &[String]| {
        consistent(db);
        let (_, service) = open(db);
        for ack in acks {
            let w = words(ack);
            let (id, team): (GameId, u8) = (w[1].parse().unwrap(), w[2].parse().unwrap());
            let loaded = service.game(id).unwrap();
            let seat = loaded.seat(team).unwrap();
            let ended =
                matches!(loaded.end, Some(GameEnd::Resigned { team: t, .. }) if t.number() == team);
            assert!(
                seat.resigned || ended,
                "game {id}: team {team}'s resignation is lost"
            );
        }
    };
    let finished = |db: &Path, acks: &[String]| {
        let (store, service) = open(db);
        for id in store::all_game_ids(&store.conn().unwrap()).unwrap() {
            let loaded = service.game(id).unwrap();
            let people = loaded
                .seats
                .iter()
                .filter(|s| s.user_id.is_some() && !s.resigned)
                .count();
            assert!(
                loaded.status != GameStatus::Active || people == 0,
                "game {id} still has players who did not resign"
            );
        }
        assert!(!acks.is_empty());
    };
    let child = Child {
        operation: "resign",
        games: 8,
        work: 100,
    };
    assert!(kill_repeatedly(child, check, finished) >= kills_wanted());
}

#[test]
fn killed_while_timers_fire_each_fires_once() {
    let check = |db: &Path, acks: &[String]| {
        consistent(db);
        let (_, service) = open(db);
        for ack in acks {
            let w = words(ack);
            let (id, ply): (GameId, u32) = (w[1].parse().unwrap(), w[3].parse().unwrap());
            let stored = service.game(id).unwrap().ply;
            assert!(
                stored >= ply,
                "game {id}: a timer's move at ply {ply} is lost"
            );
        }
    };
    let finished = |db: &Path, _: &[String]| {
        let (store, _) = open(db);
        let conn = store.conn().unwrap();
        let total: u32 = store::all_game_ids(&conn)
            .unwrap()
            .into_iter()
            .map(|id| store::get_game(&conn, id).unwrap().unwrap().ply)
            .sum();
        assert!(
            total >= 120 || no_game_runs(conn.raw()),
            "only {total} actions"
        );
    };
    let child = Child {
        operation: "timers",
        games: 4,
        work: 120,
    };
    assert!(kill_repeatedly(child, check, finished) >= kills_wanted());
}

/// Every backup file beside `db`: a name only a finished backup takes.
fn backups(db: &Path) -> Vec<PathBuf> {
    let dir = db.parent().unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("-backup-"))
        .collect();
    files.sort();
    files
}

#[test]
fn killed_while_backing_up_a_backup_is_whole_or_absent() {
    let check = |db: &Path, acks: &[String]| {
        consistent(db);
        for file in backups(db) {
            let conn = rusqlite::Connection::open_with_flags(
                &file,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
            )
            .unwrap();
            let report: String = conn
                .query_row("PRAGMA integrity_check", [], |r| r.get(0))
                .unwrap();
            assert_eq!(report, "ok", "{}", file.display());
            drop(conn);
            // A copy of the database is itself consistent.
            let copy = tempfile::tempdir().unwrap();
            let copied = copy.path().join("copy.db");
            std::fs::copy(&file, &copied).unwrap();
            consistent(&copied);
        }
        for ack in acks {
            let file = PathBuf::from(ack.strip_prefix("backup ").unwrap());
            assert!(file.is_file(), "{} is lost", file.display());
        }
    };
    let finished = |db: &Path, _: &[String]| assert_eq!(backups(db).len(), 30);
    let child = Child {
        operation: "backup",
        games: 3,
        work: 30,
    };
    assert!(kill_repeatedly(child, check, finished) >= kills_wanted());
}

/// `jackal play` of bots only, killed in its first milliseconds: its game is not there, or it
/// has started (it used to stay a lobby with half its seats and no seed).
#[test]
fn killed_while_play_starts_its_game_is_absent_or_started() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("play.db");
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..kills_wanted() {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mut c = Command::new(env!("CARGO_BIN_EXE_jackal"))
            .args(["play", "--db"])
            .arg(&db)
            .args([
                "--size",
                "5",
                "--bots",
                "random,random",
                "--quiet",
                "--no-png",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(1_000 + rng % 30_000));
        let _ = c.kill();
        c.wait().unwrap();
        consistent(&db);
        let (store, _) = open(&db);
        let conn = store.conn().unwrap();
        for id in store::all_game_ids(&conn).unwrap() {
            let row = store::get_game(&conn, id).unwrap().unwrap();
            assert_ne!(
                row.status,
                GameStatus::Lobby,
                "game {id} is a half-made lobby"
            );
        }
    }
}
