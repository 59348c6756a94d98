//! The PostgreSQL backend: a server named by `DATABASE_URL` (`postgres://…`), a small pool of
//! connections, and the migrations of `migrations/postgres/` tracked in a table of the schema.
//! Why the synchronous client and a pool of our own: docs/scaling.md.

use std::sync::Mutex;
use std::time::Duration;

use postgres::config::Host;

use super::sql::postgres::{Client, Session};
use super::tls::{self, MakeRustlsConnect};
use super::{Result, StoreError};

/// The PostgreSQL migrations, in order, numbered as SQLite's (`MIGRATION_SQL`): the same
/// schema, each in its own dialect. A new migration is a file in each folder.
pub const MIGRATION_SQL: &[&str] = &[
    include_str!("../../migrations/postgres/0001_init.sql"),
    include_str!("../../migrations/postgres/0002_lean_action_writes.sql"),
    include_str!("../../migrations/postgres/0003_actions_append_only.sql"),
    include_str!("../../migrations/postgres/0004_bot_timers.sql"),
    include_str!("../../migrations/postgres/0005_games_by_thread.sql"),
    include_str!("../../migrations/postgres/0006_values_not_sentences.sql"),
    include_str!("../../migrations/postgres/0007_checked_snapshots.sql"),
    include_str!("../../migrations/postgres/0008_real_life.sql"),
    include_str!("../../migrations/postgres/0009_vacation_charge.sql"),
    include_str!("../../migrations/postgres/0010_outbox_in_order.sql"),
    include_str!("../../migrations/postgres/0011_first_week.sql"),
    include_str!("../../migrations/postgres/0012_ratings.sql"),
    include_str!("../../migrations/postgres/0013_results_and_standings.sql"),
    include_str!("../../migrations/postgres/0014_undo_by_consent.sql"),
    include_str!("../../migrations/postgres/0015_shared_work.sql"),
];

/// The table that holds the schema's version (SQLite keeps it in its `user_version`).
const VERSION_TABLE: &str = "jackal_schema";

/// Advisory lock keys (`pg_advisory_*`), each taken by one kind of work on the database.
/// "jackal" in ASCII, then which.
const LOCK_MIGRATE: i64 = 0x6a61_636b_616c_0001;
/// Every write transaction holds this until it ends: writes are serialised as SQLite's are
/// (whatever a write reads cannot change under it before it commits), across every process
/// on the database: no two processes apply two moves to one game at the same ply.
pub(super) const LOCK_WRITE: i64 = 0x6a61_636b_616c_0002;

/// How long connecting may take before the server counts as unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections kept open between calls (as for SQLite: a burst opens more, closed after it).
const MAX_IDLE_CONNECTIONS: usize = 8;

/// A PostgreSQL database and the connections kept open to it.
pub struct Server {
    endpoint: Endpoint,
    idle: Mutex<Vec<Session>>,
}

impl Server {
    /// Connects to the database at `url`, brings its schema up to date, and keeps the
    /// connection for the pool. A URL that cannot be read, a server that cannot be reached or
    /// refuses the login, and a database that is someone else's or a newer version's are each
    /// one error saying which.
    pub fn open(url: &str) -> Result<Server> {
        let endpoint = Endpoint::of(url)?;
        let client = endpoint.connect()?;
        let mut session = Session::new(client);
        migrate(session.client(), &endpoint.shown)?;
        Ok(Server {
            endpoint,
            idle: Mutex::new(vec![session]),
        })
    }

    /// Connects to the jackal database at `url` only to read it (`jackal render --db`): its
    /// sessions are read-only (`default_transaction_read_only`), so nothing is written, not
    /// even a migration. A database at another schema version than this jackal's, or that
    /// is not a jackal database, is refused in one line.
    pub fn open_read_only(url: &str) -> Result<Server> {
        let mut endpoint = Endpoint::of(url)?;
        let options = match endpoint.config.get_options() {
            Some(given) => format!("{given} -c default_transaction_read_only=on"),
            None => "-c default_transaction_read_only=on".to_string(),
        };
        endpoint.config.options(&options);
        let mut client = endpoint.connect()?;
        let (found, known) = (schema_version(&mut client)?, MIGRATION_SQL.len());
        let url = endpoint.shown.clone();
        if found > known {
            return Err(StoreError::ServerTooNew { url, found, known });
        }
        if found == 0 {
            return Err(StoreError::ServerNotJackal { url });
        }
        if found < known {
            return Err(StoreError::ServerTooOld { url, found, known });
        }
        Ok(Server {
            endpoint,
            idle: Mutex::new(vec![Session::new(client)]),
        })
    }

    /// The database, named without its password.
    pub fn shown(&self) -> &str {
        &self.endpoint.shown
    }

    /// A connection from the pool (opened if none is idle).
    pub fn session(&self) -> Result<Session> {
        let idle = self.idle.lock().ok().and_then(|mut v| v.pop());
        match idle {
            Some(session) if !session.is_closed() => Ok(session),
            _ => Ok(Session::new(self.endpoint.connect()?)),
        }
    }

    /// Takes a connection back; one the server closed (a restart) is dropped.
    pub fn give_back(&self, session: Session) {
        if session.is_closed() {
            return;
        }
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < MAX_IDLE_CONNECTIONS
        {
            idle.push(session);
        }
    }
}

/// A server as a URL names it: how to connect (a connect timeout added where the URL sets
/// none), how to secure the connection ([`tls`]), and the URL without its password, to name
/// the database in messages.
#[derive(Clone)]
struct Endpoint {
    config: postgres::Config,
    tls: MakeRustlsConnect,
    shown: String,
}

impl Endpoint {
    fn of(url: &str) -> Result<Endpoint> {
        let bad = |why: String| StoreError::BadUrl { why };
        let (rest, settings) = tls::split_url(url).map_err(|e| bad(e.to_string()))?;
        let mut config: postgres::Config = rest
            .parse()
            .map_err(|e: postgres::Error| bad(e.to_string()))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        let tls = settings
            .apply(&mut config)
            .map_err(|e| bad(e.to_string()))?;
        let shown = shown(&config);
        Ok(Endpoint { config, tls, shown })
    }

    fn connect(&self) -> Result<postgres::Client> {
        self.config
            .connect(self.tls.clone())
            .map_err(|e| StoreError::Connect {
                url: self.shown.clone(),
                why: connect_error(&e),
            })
    }
}

/// Advisory lock classes (the first key of `pg_advisory_lock(int, int)`) of the shard claims.
/// "jk" in ASCII, then which. The second key is a shard, a shard count, or 0.
const CLASS_WHOLE: i32 = 0x6a6b_0001;
const CLASS_TOTAL: i32 = 0x6a6b_0002;
const CLASS_SHARD: i32 = 0x6a6b_0003;

/// The gateway shards a bot process runs on a database it may share with others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shards {
    /// Every shard: no other process may run beside it.
    Whole,
    /// Shards `first..=last` of `total`: others may run the rest, with the same total.
    Part { first: u32, last: u32, total: u32 },
}

/// Why a process may not run the shards it asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardRefusal {
    #[error("another jackal bot process runs every shard on this database")]
    WholeTaken,
    #[error(
        "other jackal bot processes run shards of this database, so this one cannot run every \
         shard: give it a range of its own with SHARDS (such as 2-3/4)"
    )]
    PartsTaken,
    #[error("shard {0} is already run by another jackal bot process on this database")]
    ShardTaken(u32),
    #[error(
        "another jackal bot process on this database runs with {0} shards in all: every \
         process must say the same total in SHARDS"
    )]
    OtherTotal(u32),
    #[error(
        "the server could not be reached for {secs} s (WORK_LEASE_SECS) to confirm this \
         process's shard locks, which a lost connection ends"
    )]
    Unconfirmed { secs: u64 },
}

/// What a bot process runs, held for its whole life: advisory locks on a connection of its
/// own, which the server releases when that connection ends, however the process ends.
///
/// - `Whole` takes the whole-bot lock exclusively: no other process at all.
/// - `Part` takes it shared (no process running every shard), its total shared (no process
///   with another total), and each of its shards exclusively (no overlap).
///
/// Two processes started at the same moment with different totals may both refuse; neither
/// runs beside the other.
pub struct ShardLock {
    client: Client,
    endpoint: Endpoint,
    shards: Shards,
}

/// How soon the shard locks' connection probes a silent server.
const LOCK_KEEPALIVE: Duration = Duration::from_secs(5);

/// What [`ShardLock::keep`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Kept {
    /// The lock's connection is alive: the locks are held.
    Held,
    /// The connection was lost (a server restart ends every session, and its locks with it)
    /// and the locks were taken again on a new one.
    Retaken,
}

impl ShardLock {
    /// Takes the locks of `shards` on the database at `url` without waiting.
    pub fn acquire(
        url: &str,
        shards: Shards,
    ) -> Result<std::result::Result<ShardLock, ShardRefusal>> {
        let mut endpoint = Endpoint::of(url)?;
        // A connection that hangs (a peer gone without a word) must fail within seconds,
        // not the kernel's quarter of an hour: the server may have dropped the session, and
        // the locks with it, long before.
        endpoint
            .config
            .keepalives(true)
            .keepalives_idle(LOCK_KEEPALIVE)
            .keepalives_interval(LOCK_KEEPALIVE)
            .keepalives_retries(2)
            .tcp_user_timeout(LOCK_KEEPALIVE * 3);
        let mut client = endpoint.connect()?;
        let refusal = claim(&mut client, shards)?;
        Ok(match refusal {
            None => Ok(ShardLock {
                client: Client::new(client),
                endpoint,
                shards,
            }),
            // The connection closes with the locks it took.
            Some(refusal) => Err(refusal),
        })
    }

    /// Checks that the locks are still held, and takes them again on a new connection when
    /// the old one was lost. `Ok(Err(_))`: another process took some of them meanwhile (it
    /// started while the server had forgotten them); this process must stop, as it would
    /// have been refused at its start. `Err(_)`: the server cannot be reached now; try later.
    pub fn keep(&mut self) -> Result<std::result::Result<Kept, ShardRefusal>> {
        if !self.client.is_closed() && self.client.simple_query("SELECT 1").is_ok() {
            return Ok(Ok(Kept::Held));
        }
        let mut client = self.endpoint.connect()?;
        match claim(&mut client, self.shards)? {
            None => {
                self.client = Client::new(client);
                Ok(Ok(Kept::Retaken))
            }
            Some(refusal) => Ok(Err(refusal)),
        }
    }
}

/// Runs `pg_try_advisory_lock(_shared)` on a key: whether it was taken.
fn try_lock(client: &mut postgres::Client, sql: &str, class: i32, key: i32) -> Result<bool> {
    Ok(client.query_one(sql, &[&class, &key])?.get(0))
}

fn claim(client: &mut postgres::Client, shards: Shards) -> Result<Option<ShardRefusal>> {
    const EXCLUSIVE: &str = "SELECT pg_try_advisory_lock($1, $2)";
    const SHARED: &str = "SELECT pg_try_advisory_lock_shared($1, $2)";
    let (first, last, total) = match shards {
        Shards::Whole => {
            let taken = try_lock(client, EXCLUSIVE, CLASS_WHOLE, 0)?;
            return Ok(match taken {
                true => None,
                false if whole_is_held_exclusively(client)? => Some(ShardRefusal::WholeTaken),
                false => Some(ShardRefusal::PartsTaken),
            });
        }
        Shards::Part { first, last, total } => (first, last, total),
    };
    if !try_lock(client, SHARED, CLASS_WHOLE, 0)? {
        return Ok(Some(ShardRefusal::WholeTaken));
    }
    let total_key = i32::try_from(total).unwrap_or(i32::MAX);
    if !try_lock(client, SHARED, CLASS_TOTAL, total_key)? {
        return Ok(Some(ShardRefusal::OtherTotal(total)));
    }
    if let Some(other) = other_total(client, total_key)? {
        return Ok(Some(ShardRefusal::OtherTotal(other)));
    }
    for shard in first..=last {
        let key = i32::try_from(shard).unwrap_or(i32::MAX);
        if !try_lock(client, EXCLUSIVE, CLASS_SHARD, key)? {
            return Ok(Some(ShardRefusal::ShardTaken(shard)));
        }
    }
    Ok(None)
}

/// Advisory locks of this database in class `class`, as `pg_locks` lists them (the two-key
/// form has `objsubid` 2).
const CLASS_LOCKS: &str = "FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 \
     AND classid::int8 = $1 AND database = (SELECT oid FROM pg_database \
     WHERE datname = current_database())";

/// Whether another process holds the whole-bot lock exclusively (it runs every shard), rather
/// than shared (it runs a part).
fn whole_is_held_exclusively(client: &mut postgres::Client) -> Result<bool> {
    let sql = format!("SELECT EXISTS (SELECT 1 {CLASS_LOCKS} AND mode = 'ExclusiveLock')");
    Ok(client.query_one(&sql, &[&i64::from(CLASS_WHOLE)])?.get(0))
}

/// A shard total other than `total` that another process runs with, if any.
fn other_total(client: &mut postgres::Client, total: i32) -> Result<Option<u32>> {
    let sql = format!("SELECT objid::int8 {CLASS_LOCKS} AND objid::int8 <> $2 LIMIT 1");
    let row = client.query_opt(&sql, &[&i64::from(CLASS_TOTAL), &i64::from(total)])?;
    Ok(row.map(|r| u32::try_from(r.get::<_, i64>(0)).unwrap_or(0)))
}

/// A failed connection in one line: the client's words for what failed, and the cause it
/// gives (a TLS handshake's refusal says why only in its cause), as far down as it goes.
fn connect_error(error: &postgres::Error) -> String {
    let mut words = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(e) = cause {
        let said = e.to_string();
        if !words.contains(&said) {
            words = format!("{words}: {said}");
        }
        cause = e.source();
    }
    words
}

/// `postgres://user@host:port/database` from a configuration, the password left out.
fn shown(config: &postgres::Config) -> String {
    let user = config
        .get_user()
        .map(|u| format!("{u}@"))
        .unwrap_or_default();
    let hosts = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let name = match host {
                Host::Tcp(name) => name.clone(),
                #[cfg(unix)]
                Host::Unix(path) => path.display().to_string(),
            };
            match config.get_ports().get(i).or(config.get_ports().first()) {
                Some(port) => format!("{name}:{port}"),
                None => name,
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    let db = config.get_dbname().unwrap_or("");
    format!("postgres://{user}{hosts}/{db}")
}

/// The schema version of the connected database (0: no jackal tables yet).
pub fn schema_version(client: &mut postgres::Client) -> Result<usize> {
    let exists: bool = client
        .query_one(
            &format!("SELECT to_regclass('{VERSION_TABLE}') IS NOT NULL"),
            &[],
        )?
        .get(0);
    if !exists {
        return Ok(0);
    }
    let version: i32 = client
        .query_one(&format!("SELECT version FROM {VERSION_TABLE}"), &[])?
        .get(0);
    Ok(usize::try_from(version).unwrap_or(0))
}

/// What a database on a server is, read without changing it (`jackal doctor`): its schema
/// version and its tables, named as in messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub shown: String,
    pub version: usize,
    pub tables: Vec<String>,
}

/// Connects to `url` and reads what [`Found`] holds; nothing is written.
pub fn look_at(url: &str) -> Result<Found> {
    let endpoint = Endpoint::of(url)?;
    let shown = endpoint.shown.clone();
    let mut client = endpoint.connect()?;
    let version = schema_version(&mut client)?;
    let tables = tables(&mut client)?;
    Ok(Found {
        shown,
        version,
        tables,
    })
}

/// The tables of the connection's schema (`search_path`'s first).
fn tables(client: &mut postgres::Client) -> Result<Vec<String>> {
    Ok(client
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() ORDER BY table_name",
            &[],
        )?
        .iter()
        .map(|row| row.get(0))
        .collect())
}

/// Brings the schema to the latest version, each migration in its own transaction with the
/// version it reaches. Processes starting together take turns (an advisory lock); one that
/// finds the work done does nothing.
fn migrate(client: &mut postgres::Client, shown: &str) -> Result<()> {
    client.execute("SELECT pg_advisory_lock($1)", &[&LOCK_MIGRATE])?;
    let outcome = migrate_locked(client, shown);
    let unlocked = client.execute("SELECT pg_advisory_unlock($1)", &[&LOCK_MIGRATE]);
    outcome?;
    unlocked?;
    Ok(())
}

fn migrate_locked(client: &mut postgres::Client, shown: &str) -> Result<()> {
    let known = MIGRATION_SQL.len();
    let found = schema_version(client)?;
    if found > known {
        return Err(StoreError::ServerTooNew {
            url: shown.to_string(),
            found,
            known,
        });
    }
    if found == 0 {
        // A database with tables of its own is someone else's: the game's are not added.
        let tables = tables(client)?;
        if !tables.is_empty() {
            return Err(StoreError::ServerForeign {
                url: shown.to_string(),
                tables: super::listed(&tables),
            });
        }
        client.batch_execute(&format!(
            "CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL); \
             INSERT INTO {VERSION_TABLE} (version) VALUES (0);"
        ))?;
    }
    for (index, sql) in MIGRATION_SQL.iter().enumerate().skip(found) {
        let mut tx = client.transaction()?;
        tx.batch_execute(sql)
            .map_err(|e| StoreError::ServerMigration {
                number: index + 1,
                why: e.to_string(),
            })?;
        let version = i32::try_from(index + 1).expect("a few migrations");
        tx.execute(
            &format!("UPDATE {VERSION_TABLE} SET version = $1"),
            &[&version],
        )?;
        tx.commit()?;
    }
    Ok(())
}

/// `url` with its password left out (a URL that cannot be read is not repeated: it may hold
/// one all the same).
pub fn without_password(url: &str) -> String {
    // Only the URL's words: no root file read, no connector built, for a name in a message.
    let parsed = tls::split_url(url)
        .ok()
        .and_then(|(rest, _)| rest.parse::<postgres::Config>().ok());
    match parsed {
        Some(config) => shown(&config),
        None => "the DATABASE_URL given".to_string(),
    }
}

/// A new, empty database on the server of `admin_url` (a URL of a database there that the
/// user may create databases from), named uniquely for this process, and its URL: each test
/// gets a database of its own (scripts/pg-test starts the server).
#[cfg(feature = "test-support")]
pub fn fresh_database(admin_url: &str) -> Result<String> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static MADE: AtomicU32 = AtomicU32::new(0);
    let endpoint = Endpoint::of(admin_url)?;
    let name = format!(
        "jackal_test_{}_{}",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed)
    );
    let mut admin = endpoint.connect()?;
    // Databases are made from template0: nothing another test added to template1 comes along.
    admin.batch_execute(&format!("CREATE DATABASE {name} TEMPLATE template0"))?;
    Ok(with_database(admin_url, &name))
}

/// `url` naming the database `name` instead of its own (the URL's path; the query, if any,
/// stays).
#[cfg(feature = "test-support")]
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let authority_end = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let mut out = format!("{}/{name}", &base[..authority_end]);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

#[cfg(all(test, feature = "test-support"))]
mod tests {
    use super::*;

    #[test]
    fn a_test_database_is_named_in_the_url() {
        assert_eq!(
            with_database("postgres://u@%2Ftmp%2Fpg/postgres?connect_timeout=5", "t1"),
            "postgres://u@%2Ftmp%2Fpg/t1?connect_timeout=5"
        );
        assert_eq!(
            with_database("postgres://u@h:5/", "t2"),
            "postgres://u@h:5/t2"
        );
        assert_eq!(with_database("postgres://u@h", "t3"), "postgres://u@h/t3");
    }
}

#[cfg(test)]
mod shown_tests {
    use super::*;

    #[test]
    fn a_url_is_shown_without_its_password() {
        assert_eq!(
            without_password("postgres://jackal:hunter2@db:5433/games"),
            "postgres://jackal@db:5433/games"
        );
        assert_eq!(
            without_password("postgres://jackal:hunter2@db:port/games"),
            "the DATABASE_URL given"
        );
    }
}
