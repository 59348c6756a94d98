//! `jackal doctor --db FILE` on a healthy database and on damaged copies of it: each kind of
//! damage is reported on a line naming the game, the exit code says whether anything is wrong,
//! and the file is byte for byte what it was (no migration, no side files).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use jackal::ai::BotLevel;
use jackal::game::{Actor, GameConfig, GameService, Location, ManualClock};
use jackal::id::{GameId, UserId};
use jackal::store::Store;
use rusqlite::Connection;

const ALICE: UserId = UserId::new(1);
const BOB: UserId = UserId::new(2);

/// The games of the healthy file.
struct Games {
    /// A duel at ply 30: snapshot at 25, a deadline pending.
    duel: GameId,
    /// Another duel at ply 30, on another map.
    other: GameId,
    /// Two random bots played to the end.
    finished: GameId,
    /// A duel Bob resigned.
    resigned: GameId,
    lobby: GameId,
}

fn service(db: &Path) -> GameService {
    GameService::new(
        Arc::new(Store::open(db).unwrap()),
        Arc::new(ManualClock::new(1_700_000_000_000)),
    )
}

fn config() -> GameConfig {
    let mut config = GameConfig::default();
    config.set("board_size", "7").unwrap();
    config
}

fn lobby(s: &GameService) -> GameId {
    s.create_lobby(
        Actor::user(ALICE),
        Location::default(),
        jackal::words::Lang::En,
        config(),
        Some(1),
    )
    .unwrap()
}

fn duel(s: &GameService, seed: u64, plies: u32) -> GameId {
    let id = lobby(s);
    s.join(Actor::user(BOB), id, Some(2)).unwrap();
    s.start_with_seed(Actor::user(ALICE), id, seed).unwrap();
    for ply in 0..plies {
        let user = [ALICE, BOB]
            .into_iter()
            .find(|u| s.legal_moves(*u, id).is_ok())
            .expect("someone is to move");
        let text = s.legal_moves(user, id).unwrap()[0].notation.clone();
        s.act(user, id, ply, &text).unwrap();
    }
    id
}

fn bots(s: &GameService) -> GameId {
    let owner = Actor::user(ALICE);
    let id = lobby(s);
    s.add_bot(owner, id, 2, BotLevel::Random).unwrap();
    s.kick(owner, id, 1).unwrap();
    s.add_bot(owner, id, 1, BotLevel::Random).unwrap();
    s.start_with_seed(owner, id, 5).unwrap();
    while s.bot_step(id).unwrap().is_some() {}
    id
}

/// A healthy database in `dir`, closed (everything in the file itself).
fn healthy(dir: &Path) -> (PathBuf, Games) {
    let path = dir.join("healthy.db");
    let s = service(&path);
    let games = Games {
        duel: duel(&s, 42, 30),
        other: duel(&s, 43, 30),
        finished: bots(&s),
        resigned: duel(&s, 44, 3),
        lobby: lobby(&s),
    };
    s.resign(Actor::user(BOB), games.resigned).unwrap();
    let loaded = s.game(games.finished).unwrap();
    assert!(loaded.state.unwrap().is_over(), "the bots' game ended");
    drop(s);
    (path, games)
}

/// What migrations 0008 to 0015 added, taken away again (to make a file of an older version).
const UNDO_SINCE_7: &str = "\
    ALTER TABLE outbox DROP COLUMN claimed_by; ALTER TABLE outbox DROP COLUMN claimed_until; \
    ALTER TABLE timers DROP COLUMN claimed_by; ALTER TABLE timers DROP COLUMN claimed_until; \
    DROP TABLE undo_requests; \
    DROP TABLE standing_counts; DROP TABLE standings; DROP TABLE game_results; \
    ALTER TABLE seats DROP COLUMN missed_total; \
    DROP TABLE rating_changes; DROP TABLE ratings; \
    ALTER TABLE seats DROP COLUMN kicked_user_id; \
    DROP TABLE questions; \
    ALTER TABLE user_prefs DROP COLUMN dms_refused_at; \
    ALTER TABLE user_prefs DROP COLUMN dms_told; \
    ALTER TABLE user_prefs DROP COLUMN locale; \
    DROP INDEX outbox_unsent; \
    ALTER TABLE seats DROP COLUMN away_user_id; \
    ALTER TABLE user_prefs DROP COLUMN reminders; \
    ALTER TABLE user_prefs DROP COLUMN reminder_via; \
    ALTER TABLE user_prefs DROP COLUMN digest_minute; \
    ALTER TABLE guild_prefs DROP COLUMN vacation_days; \
    ALTER TABLE guild_prefs DROP COLUMN max_pause_days; \
    DROP TABLE user_timers; DROP TABLE vacations; DROP TABLE pauses; \
    CREATE TABLE timers_unslotted (game_id INTEGER NOT NULL, \
        kind TEXT NOT NULL CHECK (kind IN ('deadline', 'reminder', 'bot')), \
        ply INTEGER NOT NULL, due_at INTEGER NOT NULL, fired_at INTEGER, \
        PRIMARY KEY (game_id, kind)) WITHOUT ROWID; \
    INSERT INTO timers_unslotted SELECT game_id, kind, ply, due_at, fired_at FROM timers; \
    DROP TABLE timers; ALTER TABLE timers_unslotted RENAME TO timers; \
    CREATE INDEX timers_due ON timers (due_at) WHERE fired_at IS NULL;";

/// A copy of `from` named `name`, changed by `sql` (foreign keys off, as in any SQLite shell).
fn damaged(from: &Path, name: &str, sql: &str) -> PathBuf {
    let path = from.with_file_name(name);
    std::fs::copy(from, &path).unwrap();
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "foreign_keys", "OFF").unwrap();
    conn.execute_batch(sql).unwrap();
    drop(conn);
    path
}

/// Runs the doctor on `db`, checking that it leaves the file and its folder as they were.
fn doctor(db: &Path) -> (Output, String) {
    let before = std::fs::read(db).ok();
    let side_files = |db: &Path| {
        ["-wal", "-shm", "-journal"].map(|s| {
            let mut p = db.as_os_str().to_owned();
            p.push(s);
            PathBuf::from(p).exists()
        })
    };
    let sides = side_files(db);
    let out = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .arg("doctor")
        .arg("--db")
        .arg(db)
        .output()
        .expect("run jackal");
    assert_eq!(std::fs::read(db).ok(), before, "the file is unchanged");
    assert_eq!(side_files(db), sides, "no side file made or removed");
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    (out, text)
}

fn assert_reports(db: &Path, lines: &[&str]) {
    let (out, text) = doctor(db);
    assert_eq!(out.status.code(), Some(1), "{text}");
    for line in lines {
        assert!(text.contains(line), "expected `{line}` in:\n{text}");
    }
}

#[test]
fn a_healthy_database_is_clean() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = healthy(dir.path());
    let (out, text) = doctor(&db);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(
        text,
        format!("{}: 5 games checked, no problems found\n", db.display())
    );
}

/// Each kind of damage, each on its own copy of the healthy file.
#[test]
fn each_kind_of_damage_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let (db, g) = healthy(dir.path());
    let cases: Vec<(String, Vec<String>)> = vec![
        (
            format!(
                "UPDATE games SET settings = json_set(settings, '$.rules.board_size', 8) \
                 WHERE id = {}",
                g.duel
            ),
            vec![format!(
                "game #{}: its settings are not valid: `8` is not a valid value for `board_size`",
                g.duel
            )],
        ),
        (
            format!("UPDATE games SET seed = NULL WHERE id = {}", g.duel),
            vec![format!("game #{}: it is active but has no seed", g.duel)],
        ),
        (
            // Another game's snapshot, checksum and all.
            format!(
                "UPDATE snapshots SET (state, checksum) = (SELECT state, checksum FROM \
                 snapshots WHERE game_id = {other} AND ply = 25) \
                 WHERE game_id = {duel} AND ply = 25",
                other = g.other,
                duel = g.duel
            ),
            vec![
                format!(
                    "game #{}: the snapshot at ply 25 does not match its checksum",
                    g.duel
                ),
                format!(
                    "game #{}: the snapshot at ply 25 is not the state its log reaches",
                    g.duel
                ),
            ],
        ),
        (
            // An action under the snapshot, changed by hand.
            format!(
                "DROP TRIGGER actions_no_update; UPDATE actions SET action = (SELECT a.action \
                 FROM actions a, actions b WHERE a.game_id = {duel} AND b.game_id = {duel} \
                 AND b.ply = 10 AND a.action <> b.action LIMIT 1) \
                 WHERE game_id = {duel} AND ply = 10",
                duel = g.duel
            ),
            vec![format!(
                "game #{}: the action at ply 10 was changed after it was recorded",
                g.duel
            )],
        ),
        (
            format!(
                "UPDATE games SET status = 'active', result = NULL WHERE id = {}",
                g.finished
            ),
            vec![format!(
                "game #{}: its log ends the game, but it is active",
                g.finished
            )],
        ),
        (
            format!(
                "INSERT INTO timers (game_id, kind, ply, due_at) VALUES ({}, 'deadline', 3, 0)",
                g.resigned
            ),
            vec![format!(
                "game #{}: a deadline timer is pending, but the game is finished",
                g.resigned
            )],
        ),
        (
            "INSERT INTO timers (game_id, kind, ply, due_at) VALUES (999, 'bot', 1, 0); \
             INSERT INTO outbox (game_id, kind, target, payload, created_at, next_at) \
             VALUES (998, 'notice', '{}', '{}', 0, 0)"
                .into(),
            vec![
                "game #999: there is no such game, but 1 timer row belongs to it".into(),
                "game #998: there is no such game, but 1 outbox row belongs to it".into(),
            ],
        ),
        (
            format!(
                "INSERT INTO seats (game_id, team, bot_level, joined_at) \
                 VALUES ({}, 3, 'genius', 0)",
                g.lobby
            ),
            vec![
                format!(
                    "game #{}: seat 3 is not a seat of this 2-team game",
                    g.lobby
                ),
                format!(
                    "game #{}: seat 3 is played by an unknown bot level `genius` \
                     (levels: random, easy, normal, hard)",
                    g.lobby
                ),
            ],
        ),
    ];
    for (i, (sql, lines)) in cases.iter().enumerate() {
        let copy = damaged(&db, &format!("damage{i}.db"), sql);
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_reports(&copy, &lines);
        // Exactly these problems: one line each, then the summary.
        let (_, text) = doctor(&copy);
        let plural = if lines.len() == 1 { "" } else { "s" };
        assert_eq!(text.lines().count(), lines.len() + 1, "case {i}:\n{text}");
        assert!(
            text.ends_with(&format!(
                "5 games checked, {} problem{plural}\n",
                lines.len()
            )),
            "case {i}:\n{text}"
        );
    }
}

/// Files that are not (this version's) jackal databases: each is named for what it is, and
/// left alone.
#[test]
fn other_files_are_named_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = healthy(dir.path());
    let text_file = dir.path().join("notes.db");
    std::fs::write(
        &text_file,
        "not a database at all, just some text\n".repeat(50),
    )
    .unwrap();
    assert_reports(&text_file, &["it is not an SQLite database"]);
    let foreign = dir.path().join("foreign.db");
    Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE recipes (name TEXT)")
        .unwrap();
    assert_reports(&foreign, &["not a jackal database", "recipes"]);
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, "").unwrap();
    assert_reports(&empty, &["an empty database, not a jackal one"]);
    let newer = damaged(&db, "newer.db", "PRAGMA user_version = 99");
    assert_reports(&newer, &["schema version 99: written by a newer jackal"]);
    // Pages overwritten in the middle of the file.
    let broken = dir.path().join("broken.db");
    let mut bytes = std::fs::read(&db).unwrap();
    let middle = bytes.len() / 2 / 4096 * 4096;
    bytes[middle..middle + 4096].fill(0xA5);
    std::fs::write(&broken, bytes).unwrap();
    let (out, text) = doctor(&broken);
    assert_eq!(out.status.code(), Some(1), "{text}");
    // A missing file is an error, and is not created.
    let missing = dir.path().join("missing.db");
    let (out, _) = doctor(&missing);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no database file"));
    assert!(!missing.exists());
}

/// A file at the previous schema version (before snapshot checksums and the log's chain) is
/// checked on an upgraded copy: its snapshots are held to the replay alone, and the file stays
/// as it was.
#[test]
fn an_older_file_is_checked_on_an_upgraded_copy() {
    let dir = tempfile::tempdir().unwrap();
    let (db, g) = healthy(dir.path());
    let older = damaged(
        &db,
        "older.db",
        &format!(
            "{UNDO_SINCE_7} ALTER TABLE actions DROP COLUMN chain; \
             ALTER TABLE snapshots DROP COLUMN checksum; PRAGMA user_version = 6"
        ),
    );
    let (out, text) = doctor(&older);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("schema version 6, older than this jackal's"),
        "{text}"
    );
    // Without checksums, a snapshot from another game is still caught by the replay.
    let swapped = damaged(
        &older,
        "older-swapped.db",
        &format!(
            "UPDATE snapshots SET state = (SELECT state FROM snapshots WHERE game_id = {other} \
             AND ply = 25) WHERE game_id = {duel} AND ply = 25",
            other = g.other,
            duel = g.duel
        ),
    );
    assert_reports(
        &swapped,
        &[&format!(
            "game #{}: the snapshot at ply 25 is not the state its log reaches",
            g.duel
        )],
    );
}

/// A file in use (the bot running: commits still in the `-wal`) is read with them.
#[test]
fn a_file_in_use_is_read_with_its_wal() {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = healthy(dir.path());
    let s = service(&db);
    duel(&s, 45, 2);
    let (out, text) = doctor(&db);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("6 games checked"), "{text}");
    drop(s);
}
