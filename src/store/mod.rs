//! The store: the rows the game service reads and writes, on one of two backends. It knows
//! nothing of Discord.
//!
//! - SQLite (the default): one file, migrations from `migrations/`. Connections are opened
//!   per caller from a small pool: SQLite in WAL mode lets readers run beside the one writer,
//!   and `busy_timeout` makes a second writer wait for the first instead of failing.
//! - PostgreSQL (`DATABASE_URL`): a server, migrations from `migrations/postgres/`, a pool
//!   likewise ([`postgres`]).
//!
//! Every query is written once, on the store's own SQL layer ([`sql`]), and runs on either.

pub mod digest;
pub mod health;
pub mod lock;
pub mod postgres;
mod rows;
pub(crate) mod sql;
pub mod tls;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};

pub use rows::*;

/// The migrations, in order. A new migration is a new file and a new line here; never edit
/// one that has shipped.
pub const MIGRATION_SQL: &[&str] = &[
    include_str!("../../migrations/0001_init.sql"),
    include_str!("../../migrations/0002_lean_action_writes.sql"),
    include_str!("../../migrations/0003_actions_append_only.sql"),
    include_str!("../../migrations/0004_bot_timers.sql"),
    include_str!("../../migrations/0005_games_by_thread.sql"),
    include_str!("../../migrations/0006_values_not_sentences.sql"),
    include_str!("../../migrations/0007_checked_snapshots.sql"),
    include_str!("../../migrations/0008_real_life.sql"),
    include_str!("../../migrations/0009_vacation_charge.sql"),
    include_str!("../../migrations/0010_outbox_in_order.sql"),
    include_str!("../../migrations/0011_first_week.sql"),
    include_str!("../../migrations/0012_ratings.sql"),
    include_str!("../../migrations/0013_results_and_standings.sql"),
    include_str!("../../migrations/0014_undo_by_consent.sql"),
    include_str!("../../migrations/0015_shared_work.sql"),
];

static MIGRATIONS: LazyLock<Migrations<'static>> =
    LazyLock::new(|| Migrations::new(MIGRATION_SQL.iter().map(|sql| M::up(sql)).collect()));

/// How long a writer waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Prepared statements kept per connection. Every query of `rows` goes through
/// `prepare_cached` (parsing the SQL of an action's dozen statements used to cost as much as
/// running them, see benches/service.rs), and there are about 30 of them: room for all.
const STATEMENT_CACHE: usize = 64;
/// Connections kept open between calls. A burst of concurrent calls opens more, but they are
/// closed when it is over: each open connection holds its own page and statement caches, and
/// a pool that kept every connection of its busiest second would hold hundreds of them.
const MAX_IDLE_CONNECTIONS: usize = 8;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("could not migrate the database: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error(
        "the database file {path} was written by a newer jackal (schema version {found}, this \
         version knows up to {known}); upgrade jackal or use another --db file"
    )]
    TooNew {
        path: String,
        found: usize,
        known: usize,
    },
    #[error(
        "{path} is not a jackal database: it already holds other tables ({tables}); use \
         another --db file (a new file is made into a jackal database)"
    )]
    Foreign { path: String, tables: String },
    #[error(
        "{path} is empty, not a jackal database: give the file the bot or `jackal play` \
         wrote (a new game makes a new one)"
    )]
    Empty { path: String },
    #[error("could not make a temporary copy of {path} to read: {source}")]
    Copy {
        path: String,
        source: std::io::Error,
    },
    #[error("stored data is not valid: {0}")]
    Corrupt(String),
    #[error("stored column {index} cannot be read: {why}")]
    Column { index: usize, why: sql::ColumnError },
    #[error("a query that always returns a row returned none")]
    NoRow,
    #[error("{0} already exists: a backup is written to a new file, it never replaces one")]
    BackupExists(String),
    #[error("the backup path {0} is not valid UTF-8: choose a plainer file name")]
    BackupPath(String),
    #[error("the backup {path} did not pass SQLite's integrity check: {report}")]
    BackupDamaged { path: String, report: String },
    #[error("database error: {0}")]
    Postgres(#[from] ::postgres::Error),
    #[error(
        "DATABASE_URL is not a PostgreSQL URL jackal can read ({why}); it looks like \
         postgres://user:password@host:5432/database"
    )]
    BadUrl { why: String },
    #[error("cannot connect to PostgreSQL at {url}: {why}")]
    Connect { url: String, why: String },
    #[error(
        "the PostgreSQL database {url} was written by a newer jackal (schema version {found}, \
         this version knows up to {known}); upgrade jackal or use another database"
    )]
    ServerTooNew {
        url: String,
        found: usize,
        known: usize,
    },
    #[error(
        "the PostgreSQL database {url} is not a jackal database: it already holds other tables \
         ({tables}); give jackal a database (or schema) of its own"
    )]
    ServerForeign { url: String, tables: String },
    #[error("the PostgreSQL database {url} holds no jackal games (it has no jackal tables)")]
    ServerNotJackal { url: String },
    #[error(
        "the PostgreSQL database {url} is at an older jackal's schema (version {found} of \
         {known}): it is read as it is once this jackal's bot has upgraded it at its start"
    )]
    ServerTooOld {
        url: String,
        found: usize,
        known: usize,
    },
    #[error("could not migrate the PostgreSQL database (migration {number}): {why}")]
    ServerMigration { number: usize, why: String },
    #[error("{0} is not possible on PostgreSQL: {1}")]
    NotOnServer(&'static str, &'static str),
}

impl StoreError {
    /// A statement broke a constraint of the schema (a key already there, a check): the
    /// store's callers treat some as answers (an action recorded twice), not failures.
    pub fn is_constraint_violation(&self) -> bool {
        match self {
            StoreError::Sqlite(e) => {
                e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation)
            }
            // Class 23: integrity constraint violation (unique, foreign key, check, not null).
            StoreError::Postgres(e) => e.code().is_some_and(|c| c.code().starts_with("23")),
            _ => false,
        }
    }

    /// The file is not an SQLite database at all.
    pub fn not_a_database(&self) -> bool {
        matches!(self, StoreError::Sqlite(e)
            if e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase))
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// Where the games are kept: an SQLite file (the default) or a PostgreSQL database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    File(PathBuf),
    /// A `postgres://` (or `postgresql://`) URL.
    Server(String),
}

impl Database {
    /// A `postgres://` or `postgresql://` URL names a server; anything else is a file's path.
    pub fn parse(text: &str) -> Database {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Database::Server(text.to_string())
        } else {
            Database::File(PathBuf::from(text))
        }
    }

    /// The database in words, for messages: a file's path, a server's URL without its
    /// password.
    pub fn shown(&self) -> String {
        match self {
            Database::File(path) => path.display().to_string(),
            Database::Server(url) => postgres::without_password(url),
        }
    }
}

/// A handle on the database; cheap to share behind an `Arc`.
pub struct Store {
    durability: Durability,
    backend: Backend,
}

enum Backend {
    File(File),
    Server(Box<postgres::Server>),
}

/// An SQLite file and the connections kept open to it.
struct File {
    path: PathBuf,
    /// Opened by [`Store::open_read_only`]: connections read the file, never write it.
    read_only: bool,
    idle: Mutex<Vec<Connection>>,
    /// The folder of an upgraded copy this store reads instead of an older file; removed
    /// with the store.
    _copy: Option<tempfile::TempDir>,
}

/// A connection borrowed from the store's pool; it goes back when dropped.
pub struct Conn<'a> {
    store: &'a Store,
    held: Option<Held>,
}

enum Held {
    Sqlite(Connection),
    /// In a cell: the store's queries borrow a connection shared (`&impl Db`), and the
    /// PostgreSQL client needs it exclusive for each statement.
    Postgres(Box<RefCell<sql::postgres::Session>>),
}

impl Conn<'_> {
    fn held(&self) -> &Held {
        self.held.as_ref().expect("present until drop")
    }

    fn link(&self) -> sql::Link<'_> {
        match self.held() {
            Held::Sqlite(conn) => sql::Link::Sqlite(conn),
            Held::Postgres(session) => sql::Link::Postgres(session),
        }
    }

    /// Starts a write, during which no other write runs: whatever is read inside cannot be
    /// changed by another writer before the commit. On SQLite its write lock is taken at once
    /// (`BEGIN IMMEDIATE`); on PostgreSQL a transaction takes the store's write lock (an
    /// advisory lock, [`postgres::LOCK_WRITE`]). Dropped without [`Tx::commit`], it is rolled
    /// back.
    pub fn write(&mut self) -> Result<Tx<'_>> {
        match self.held.as_mut().expect("present until drop") {
            Held::Sqlite(conn) => {
                let tx =
                    conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                Ok(Tx(TxInner::Sqlite(tx)))
            }
            Held::Postgres(session) => {
                let client = session.get_mut().client();
                let begun = client.batch_execute(&format!(
                    "BEGIN; SELECT pg_advisory_xact_lock({})",
                    postgres::LOCK_WRITE
                ));
                if let Err(e) = begun {
                    // Begun but not locked: the connection goes back to the pool, never
                    // inside a transaction.
                    let _ = client.batch_execute("ROLLBACK");
                    return Err(e.into());
                }
                Ok(Tx(TxInner::Postgres(PgTx {
                    session,
                    open: true,
                })))
            }
        }
    }

    /// The connection itself, for tests that damage or inspect a database the way someone
    /// with the file could (an SQLite store's only).
    #[cfg(feature = "test-support")]
    pub fn raw(&self) -> &Connection {
        match self.held() {
            Held::Sqlite(conn) => conn,
            Held::Postgres(_) => panic!("Conn::raw is an SQLite connection"),
        }
    }

    /// [`Conn::raw`], to start a transaction of the test's own.
    #[cfg(feature = "test-support")]
    pub fn raw_mut(&mut self) -> &mut Connection {
        match self.held.as_mut().expect("present until drop") {
            Held::Sqlite(conn) => conn,
            Held::Postgres(_) => panic!("Conn::raw_mut is an SQLite connection"),
        }
    }
}

/// A write in progress (see [`Conn::write`]): the store's queries run inside it, and
/// nothing is kept unless it is committed.
pub struct Tx<'c>(TxInner<'c>);

enum TxInner<'c> {
    Sqlite(rusqlite::Transaction<'c>),
    Postgres(PgTx<'c>),
}

/// A PostgreSQL transaction, rolled back when dropped before [`PgTx::commit`] (as a
/// `rusqlite::Transaction` is).
struct PgTx<'c> {
    session: &'c RefCell<sql::postgres::Session>,
    open: bool,
}

impl PgTx<'_> {
    fn commit(mut self) -> Result<()> {
        // Closed first: a failed COMMIT has ended the transaction too.
        self.open = false;
        self.session.borrow_mut().client().batch_execute("COMMIT")?;
        Ok(())
    }
}

impl Drop for PgTx<'_> {
    fn drop(&mut self) {
        if self.open {
            // A connection that cannot roll back is broken; the pool drops it.
            let _ = self.session.borrow_mut().client().batch_execute("ROLLBACK");
        }
    }
}

impl Tx<'_> {
    pub fn commit(self) -> Result<()> {
        match self.0 {
            TxInner::Sqlite(tx) => Ok(tx.commit()?),
            TxInner::Postgres(tx) => tx.commit(),
        }
    }
}

/// What the store's queries run on: a pooled connection ([`Conn`]) or a write ([`Tx`]).
/// Sealed: SQL is written in this module only.
pub trait Db: sealed::Sql {}

impl<T: sealed::Sql + ?Sized> Db for T {}

mod sealed {
    use super::sql::Link;

    pub trait Sql {
        /// The connection the store's queries run on.
        fn link(&self) -> Link<'_>;
    }

    impl Sql for Link<'_> {
        fn link(&self) -> Link<'_> {
            *self
        }
    }

    /// A raw SQLite connection (tests that open a file themselves ask it its version).
    impl Sql for rusqlite::Connection {
        fn link(&self) -> Link<'_> {
            Link::Sqlite(self)
        }
    }

    impl Sql for super::Conn<'_> {
        fn link(&self) -> Link<'_> {
            super::Conn::link(self)
        }
    }

    impl Sql for super::Tx<'_> {
        fn link(&self) -> Link<'_> {
            match &self.0 {
                super::TxInner::Sqlite(tx) => Link::Sqlite(tx),
                super::TxInner::Postgres(tx) => Link::Postgres(tx.session),
            }
        }
    }

    impl<T: Sql + ?Sized> Sql for &T {
        fn link(&self) -> Link<'_> {
            (**self).link()
        }
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        match (self.held.take(), &self.store.backend) {
            (Some(Held::Sqlite(conn)), Backend::File(file)) => {
                if let Ok(mut idle) = file.idle.lock()
                    && idle.len() < MAX_IDLE_CONNECTIONS
                {
                    idle.push(conn);
                }
            }
            (Some(Held::Postgres(session)), Backend::Server(server)) => {
                server.give_back((*session).into_inner());
            }
            _ => {}
        }
    }
}

/// The schema version a database is at (0 for a new one).
pub fn schema_version(db: &impl Db) -> Result<usize> {
    match db.link() {
        sql::Link::Sqlite(conn) => version_of(conn),
        sql::Link::Postgres(session) => postgres::schema_version(session.borrow_mut().client()),
    }
}

/// Names for a message, the first few of a list (tables a database should not have).
fn listed(names: &[String]) -> String {
    const NAMED: usize = 5;
    let mut list = names
        .iter()
        .take(NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMED {
        list.push_str(&format!(" and {} more", names.len() - NAMED));
    }
    list
}

fn version_of(conn: &Connection) -> Result<usize> {
    Ok(conn.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0))? as usize)
}

/// When a commit reaches the disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// Every commit is flushed (fsync of the WAL) before it returns: a move the bot has
    /// announced survives a power cut or a kernel crash, not only a crash of the bot. The
    /// default: a flush costs a fraction of a millisecond on a server disk, against the
    /// hundreds of milliseconds of the Discord message that follows every move.
    #[default]
    Full,
    /// The WAL is flushed only at checkpoints: commits are several times faster, and a crash
    /// of the process still loses nothing, but a power cut can undo the last commits (SQLite's
    /// `synchronous = NORMAL`). For disks where a flush is very slow (SD cards).
    Normal,
}

impl Durability {
    fn pragma(self) -> &'static str {
        match self {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        }
    }

    /// Reads `full` or `normal` (any case).
    pub fn parse(text: &str) -> Option<Durability> {
        match text.to_ascii_lowercase().as_str() {
            "full" => Some(Durability::Full),
            "normal" => Some(Durability::Normal),
            _ => None,
        }
    }
}

fn configure(conn: &Connection, durability: Durability) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", durability.pragma())?;
    Ok(())
}

/// [`configure`] for a connection that only reads: no journal mode or durability to set
/// (setting them would write to the file).
fn configure_read_only(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    Ok(())
}

/// Opens `db` so that nothing on the disk changes. A read-only connection still makes the
/// `-wal` and `-shm` files of a database in WAL mode when they are not there (and leaves them
/// behind), and where it cannot make them (a folder the user may not write) it fails with
/// "attempt to write a readonly database". When there is no `-wal`, no other connection has
/// the file open and everything is in the file itself, so it is opened as immutable: read as
/// it is, no side files, no locks. With a `-wal` (the bot running, or killed), the WAL's
/// commits must be read too: a plain read-only connection, which uses the files that are
/// already there.
fn open_read_only(db: &Path) -> rusqlite::Result<Connection> {
    use rusqlite::OpenFlags;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    match db.to_str() {
        Some(path) if !Path::new(&wal).exists() => Connection::open_with_flags(
            format!("file:{}?immutable=1", uri_path(path)),
            flags | OpenFlags::SQLITE_OPEN_URI,
        ),
        _ => Connection::open_with_flags(db, flags),
    }
}

/// `path` as the path of a `file:` URI: everything but unreserved characters and `/`
/// percent-encoded (a `?`, `#` or `%` in a file name must not end or change the path).
fn uri_path(path: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A file at schema version 0 is either new (empty) or someone else's SQLite database: the
/// migrations must not add the game's tables to the latter, nor fail on its own `games` table
/// with pages of SQL.
fn refuse_foreign(conn: &Connection, path: &Path) -> Result<()> {
    let mut names = conn.prepare(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') \
         AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )?;
    let tables = names
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    if tables.is_empty() {
        return Ok(());
    }
    Err(StoreError::Foreign {
        path: path.display().to_string(),
        tables: listed(&tables),
    })
}

/// The schema version of the file at `path`, once it is known to be a database this version
/// may open: not a newer version's, not someone else's, and (unless `fresh` allows it to be
/// made one) not empty. Only reads.
fn schema_version_ours(conn: &Connection, path: &Path, fresh: Fresh) -> Result<usize> {
    let found = version_of(conn)?;
    let known = MIGRATION_SQL.len();
    let path_text = || path.display().to_string();
    if found > known {
        return Err(StoreError::TooNew {
            path: path_text(),
            found,
            known,
        });
    }
    if found == 0 {
        refuse_foreign(conn, path)?;
        if fresh == Fresh::Refused {
            return Err(StoreError::Empty { path: path_text() });
        }
    }
    Ok(found)
}

/// Whether opening a file may make it a new database.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fresh {
    /// An empty file (or none) becomes a new jackal database: the bot, a new `jackal play`.
    Made,
    /// Only an existing jackal database is opened: resuming a game reads one, and an empty
    /// file is refused as it is.
    Refused,
}

impl Store {
    /// Opens `database` (a file is created if need be) and brings its schema up to date:
    /// what the bot does with `DATABASE_PATH` or `DATABASE_URL`. `durability` is the file's
    /// (a PostgreSQL server's is its own `synchronous_commit`).
    pub fn open_database(database: &Database, durability: Durability) -> Result<Store> {
        match database {
            Database::File(path) => Store::open_with(path, durability),
            Database::Server(url) => Ok(Store {
                durability,
                backend: Backend::Server(Box::new(postgres::Server::open(url)?)),
            }),
        }
    }

    /// Opens an existing jackal database only to read it: a file as
    /// [`Store::open_read_only`], a server's in read-only sessions at this jackal's schema
    /// ([`postgres::Server::open_read_only`]).
    pub fn open_database_read_only(database: &Database) -> Result<Store> {
        match database {
            Database::File(path) => Store::open_read_only(path),
            Database::Server(url) => Ok(Store {
                durability: Durability::default(),
                backend: Backend::Server(Box::new(postgres::Server::open_read_only(url)?)),
            }),
        }
    }

    /// Opens (or creates) the database file and brings its schema up to date. A file from a
    /// newer version is refused with a clear message and left untouched.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Store::open_with(path, Durability::default())
    }

    /// [`Store::open`] with a chosen [`Durability`].
    pub fn open_with(path: impl AsRef<Path>, durability: Durability) -> Result<Store> {
        Store::open_as(path.as_ref(), durability, Fresh::Made)
    }

    /// Opens an existing jackal database to change it (`jackal play --game N`), upgrading
    /// an older schema; an empty or foreign file is refused and left as it was.
    pub fn open_existing(path: impl AsRef<Path>, durability: Durability) -> Result<Store> {
        Store::open_as(path.as_ref(), durability, Fresh::Refused)
    }

    /// Opens an existing jackal database only to read it (`jackal render --db`): nothing on
    /// the disk changes, not even the journal mode, and a file the user may read but not
    /// write works. An older schema is read through an upgraded copy in a temporary folder
    /// (upgrading the file itself is a write); an empty, foreign or newer file is refused.
    pub fn open_read_only(path: impl AsRef<Path>) -> Result<Store> {
        let path = path.as_ref().to_path_buf();
        let conn = open_read_only(&path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let found = schema_version_ours(&conn, &path, Fresh::Refused)?;
        if found < MIGRATION_SQL.len() {
            let copy_error = |source| StoreError::Copy {
                path: path.display().to_string(),
                source,
            };
            let folder = tempfile::tempdir().map_err(copy_error)?;
            let copy = folder.path().join("copy.db");
            vacuum_into(&conn, &copy)?;
            let mut store = Store::open(&copy)?;
            if let Backend::File(file) = &mut store.backend {
                file._copy = Some(folder);
            }
            return Ok(store);
        }
        configure_read_only(&conn)?;
        Ok(Store {
            durability: Durability::default(),
            backend: Backend::File(File {
                path,
                read_only: true,
                idle: Mutex::new(vec![conn]),
                _copy: None,
            }),
        })
    }

    fn open_as(path: &Path, durability: Durability, fresh: Fresh) -> Result<Store> {
        let path = path.to_path_buf();
        let mut conn = Connection::open(&path)?;
        // The file is only read until it is known to be ours: a refused file is left as it
        // was, journal mode included.
        conn.busy_timeout(BUSY_TIMEOUT)?;
        schema_version_ours(&conn, &path, fresh)?;
        configure(&conn, durability)?;
        MIGRATIONS.to_latest(&mut conn)?;
        Ok(Store {
            durability,
            backend: Backend::File(File {
                path,
                read_only: false,
                idle: Mutex::new(vec![conn]),
                _copy: None,
            }),
        })
    }

    pub fn durability(&self) -> Durability {
        self.durability
    }

    /// Writes a copy of the whole database to `dest`, a new file, while games go on: `VACUUM
    /// INTO` reads one consistent snapshot (in WAL mode writers are not held up) and writes it
    /// compacted, WAL included. Copying the file itself while the bot runs is not safe: the
    /// latest commits may still be in the `-wal` file beside it. The copy is then opened and
    /// checked with `PRAGMA integrity_check`.
    pub fn back_up_to(&self, dest: &Path) -> Result<()> {
        match self.conn()?.held() {
            Held::Sqlite(conn) => vacuum_into(conn, dest),
            Held::Postgres(_) => Err(StoreError::NotOnServer(
                "a backup to a file",
                "back the database up with pg_dump",
            )),
        }
    }

    /// Whether the games are kept on a PostgreSQL server.
    pub fn is_server(&self) -> bool {
        matches!(self.backend, Backend::Server(_))
    }

    /// A connection from the pool (opened if none is idle).
    pub fn conn(&self) -> Result<Conn<'_>> {
        let held = match &self.backend {
            Backend::File(file) => Held::Sqlite(file.connection(self.durability)?),
            Backend::Server(server) => Held::Postgres(Box::new(RefCell::new(server.session()?))),
        };
        Ok(Conn {
            store: self,
            held: Some(held),
        })
    }
}

impl File {
    /// A connection to the file from the pool (opened if none is idle).
    fn connection(&self, durability: Durability) -> Result<Connection> {
        let idle = self.idle.lock().ok().and_then(|mut v| v.pop());
        Ok(match idle {
            Some(c) => c,
            None if self.read_only => {
                let c = open_read_only(&self.path)?;
                configure_read_only(&c)?;
                c
            }
            None => {
                let c = Connection::open(&self.path)?;
                configure(&c, durability)?;
                c
            }
        })
    }
}

/// [`Store::back_up_to`] for a database file that no store of this process has open (`jackal
/// backup`): the file is read as it is, at whatever schema version, and never changed: no
/// migration, no journal-mode switch, so a newer `jackal` can back up an older running bot's
/// file.
pub fn back_up_file(src: &Path, dest: &Path) -> Result<()> {
    let conn = open_read_only(src)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    vacuum_into(&conn, dest)
}

/// Writes a consistent, compacted copy of `conn`'s database to the new file `dest` and checks
/// it.
fn vacuum_into(conn: &Connection, dest: &Path) -> Result<()> {
    if dest.exists() {
        return Err(StoreError::BackupExists(dest.display().to_string()));
    }
    let dest_text = dest
        .to_str()
        .ok_or_else(|| StoreError::BackupPath(dest.display().to_string()))?;
    conn.execute("VACUUM INTO ?1", [dest_text])?;
    let copy = Connection::open_with_flags(dest, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let report: String = copy.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if report != "ok" {
        return Err(StoreError::BackupDamaged {
            path: dest.display().to_string(),
            report,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        MIGRATIONS.validate().unwrap();
    }
}
