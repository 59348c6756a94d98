//! A database file examined read-only, for `jackal doctor` and `jackal backup`: SQLite's own
//! integrity check, the tables it holds, and rows that point at games that are not there.
//! What the findings mean, and how they are told, is the caller's.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::sql::{Link, params};
use super::{BUSY_TIMEOUT, Db, Result, Store, StoreError};

/// A database file opened only to read it: nothing on the disk changes (see
/// [`super::open_read_only`]). The store's queries run on it like on a pooled connection.
pub struct Examined {
    conn: Connection,
}

impl super::sealed::Sql for Examined {
    fn link(&self) -> Link<'_> {
        Link::Sqlite(&self.conn)
    }
}

/// Rows of one table that belong to a game that does not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orphans {
    pub table: &'static str,
    /// The number as stored, not a `GameId`: a damaged row may hold one no game can have.
    pub game: i64,
    pub count: i64,
}

/// A timer not yet fired: its game's status and the last ply of its log, to tell whether it
/// can still fire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingTimer {
    /// As stored, like [`Orphans::game`].
    pub game: i64,
    pub kind: String,
    pub status: String,
    pub ply: i64,
    pub last_ply: i64,
}

/// The tables whose rows belong to a game (`game_id`).
pub const GAME_TABLES: [&str; 9] = [
    "seats",
    "actions",
    "snapshots",
    "timers",
    "outbox",
    "dm_prompts",
    "rating_changes",
    "game_results",
    "undo_requests",
];

impl Examined {
    pub fn open(path: &Path) -> Result<Examined> {
        let conn = super::open_read_only(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        Ok(Examined { conn })
    }

    /// SQLite's `integrity_check`: empty when the pages and indexes are sound.
    pub fn integrity(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let lines = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(if lines == ["ok"] { Vec::new() } else { lines })
    }

    /// The file's own tables, by name.
    pub fn tables(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             ORDER BY name",
        )?;
        let tables = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(tables)
    }

    /// A copy of the file at `copy` (a new file), brought up to this version's schema.
    pub fn upgraded_copy(&self, copy: &Path) -> Result<Store> {
        let text = copy
            .to_str()
            .ok_or_else(|| StoreError::BackupPath(copy.display().to_string()))?;
        self.conn.execute("VACUUM INTO ?1", [text])?;
        Store::open(copy)
    }
}

/// How many games a database file holds, reading it only (`None`: it has no games table).
pub fn games_in_file(path: &Path) -> Result<Option<i64>> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    match conn.query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0)) {
        Ok(n) => Ok(Some(n)),
        Err(rusqlite::Error::SqliteFailure(_, Some(m))) if m.starts_with("no such table") => {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Rows of [`GAME_TABLES`] whose game is not in `games`, by table and game.
pub fn orphans(db: &impl Db) -> Result<Vec<Orphans>> {
    let conn = db.link();
    let mut out = Vec::new();
    for table in GAME_TABLES {
        let sql = format!(
            "SELECT game_id, COUNT(*) FROM {table} WHERE game_id IS NOT NULL \
             AND game_id NOT IN (SELECT id FROM games) GROUP BY game_id ORDER BY game_id"
        );
        let rows = conn.query_many(&sql, params![], |r| {
            Ok(Orphans {
                table,
                game: r.get(0)?,
                count: r.get(1)?,
            })
        })?;
        out.extend(rows);
    }
    Ok(out)
}

/// Every timer not yet fired, with its game's status and last ply.
pub fn pending_timers(db: &impl Db) -> Result<Vec<PendingTimer>> {
    db.link().query_many(
        "SELECT t.game_id, t.kind, g.status, t.ply, \
         (SELECT COALESCE(MAX(a.ply), 0) FROM actions a WHERE a.game_id = t.game_id) \
         FROM timers t JOIN games g ON g.id = t.game_id WHERE t.fired_at IS NULL \
         ORDER BY t.game_id, t.kind",
        params![],
        |r| {
            Ok(PendingTimer {
                game: r.get(0)?,
                kind: r.get(1)?,
                status: r.get(2)?,
                ply: r.get(3)?,
                last_ply: r.get(4)?,
            })
        },
    )
}

/// The latest moment a database has seen: its latest timer or game (the chaos test's clock
/// never goes back across restarts).
pub fn latest_moment(db: &impl Db) -> Result<Option<i64>> {
    // The subquery is named: PostgreSQL before 16 requires it.
    db.link().query_one(
        "SELECT MAX(t) FROM (SELECT MAX(due_at) AS t FROM timers \
         UNION ALL SELECT MAX(created_at) FROM games) AS latest",
        params![],
        |r| r.get(0),
    )
}
