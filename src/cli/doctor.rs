//! `jackal doctor --db FILE`: checks a database file and reports what is wrong, one line per
//! problem naming the game, then a summary. It never changes the file: it is opened read-only
//! (no migration, no journal-mode switch, no checkpoint), and a file at an older schema
//! version is checked on a migrated copy in a temporary folder.
//!
//! The checks: SQLite's `integrity_check`; the schema version (known, too new, or not a
//! jackal database at all); every game through [`audit`] (settings, seats, the whole log
//! replayed from the seed against the digest chain, each snapshot, status and result); rows of
//! other tables that point at games that are not there, and timers still pending for games
//! that are not being played.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::game::audit;
use crate::store::health::{self, Examined};
use crate::store::{self, Database, Db, Durability, MIGRATION_SQL, Store, StoreError};

/// The tables every jackal database has had since the first schema.
const JACKAL_TABLES: [&str; 6] = ["games", "seats", "actions", "snapshots", "timers", "outbox"];
/// What the rows of a game's table are called.
fn row_name(table: &str) -> &str {
    match table {
        "seats" => "seat",
        "actions" => "action",
        "snapshots" => "snapshot",
        "timers" => "timer",
        "dm_prompts" => "prompt",
        other => other,
    }
}
/// Lines of `integrity_check` shown (a badly damaged file can have thousands).
const INTEGRITY_LINES: usize = 20;

/// What the doctor found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The file, as named on the command line.
    pub path: String,
    /// Worth knowing, not wrong (an older schema version).
    pub notes: Vec<String>,
    /// One line per problem.
    pub problems: Vec<String>,
    /// Games checked.
    pub games: usize,
}

impl Report {
    /// The notes, the problems and the summary line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for line in self.notes.iter().chain(&self.problems) {
            let _ = writeln!(out, "{line}");
        }
        let games = match self.games {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        let _ = match self.problems.len() {
            0 => writeln!(out, "{}: {games} checked, no problems found", self.path),
            1 => writeln!(out, "{}: {games} checked, 1 problem", self.path),
            n => writeln!(out, "{}: {games} checked, {n} problems", self.path),
        };
        out
    }

    /// 0 when nothing is wrong, 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        u8::from(!self.problems.is_empty())
    }
}

/// Checks the database file `db` (or the PostgreSQL database, when `db` is a `postgres://`
/// URL). `Err` when it cannot be checked at all (no such file, no such server).
pub fn run(db: &Path) -> Result<Report> {
    if let Some(Database::Server(url)) = db.to_str().map(Database::parse) {
        return run_on_server(&url);
    }
    // Opening a missing file read-only fails anyway; this says it plainly, and a directory
    // or a typo never becomes a new database.
    if !db.is_file() {
        bail!("there is no database file {}", db.display());
    }
    let mut report = Report {
        path: db.display().to_string(),
        ..Report::default()
    };
    let examined =
        Examined::open(db).with_context(|| format!("opening {} read-only", db.display()))?;
    if let Err(e) = check(&examined, &mut report) {
        let not_sqlite = e
            .downcast_ref::<StoreError>()
            .is_some_and(StoreError::not_a_database);
        report.problems.push(if not_sqlite {
            "it is not an SQLite database".into()
        } else {
            format!("the database could not be read: {e:#}")
        });
    }
    Ok(report)
}

/// The doctor on a PostgreSQL database: the same checks of its rows, its games replayed. The
/// server keeps its own pages (there is no integrity check of a file to run), and nothing is
/// changed: a schema older than this jackal's is only named (the bot migrates it at start;
/// a migrated copy, as for a file, would be a copy of the whole database).
fn run_on_server(url: &str) -> Result<Report> {
    let found = store::postgres::look_at(url)?;
    let mut report = Report {
        path: found.shown.clone(),
        ..Report::default()
    };
    let known = store::postgres::MIGRATION_SQL.len();
    if found.version > known {
        report.problems.push(format!(
            "schema version {}: written by a newer jackal (this one knows up to {known}); not \
             checked further",
            found.version
        ));
    } else if found.version == 0 {
        report.problems.push(if found.tables.is_empty() {
            "an empty database, not a jackal one (the bot makes a new one into one)".into()
        } else {
            format!(
                "not a jackal database: tables {}",
                found
                    .tables
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
    } else if found.version < known {
        report.problems.push(format!(
            "schema version {}, older than this jackal's {known}: not checked (the bot \
             migrates it when it next starts; then run the doctor again)",
            found.version
        ));
    } else {
        // At this version opening migrates nothing: it only reads the version.
        let store = Store::open_database(&Database::Server(url.to_string()), Durability::Full)?;
        check_rows(&store.conn()?, &mut report)?;
    }
    Ok(report)
}

/// Every check, in order; an error stops the rest (a file too damaged to read further).
fn check(file: &Examined, report: &mut Report) -> Result<()> {
    let integrity = integrity(file)?;
    let damaged_pages = !integrity.is_empty();
    report.problems.extend(integrity);
    let version = store::schema_version(file)?;
    let known = MIGRATION_SQL.len();
    if version > known {
        report.problems.push(format!(
            "schema version {version}: written by a newer jackal (this one knows up to \
             {known}); not checked further"
        ));
        return Ok(());
    }
    if let Some(why) = not_ours(file, version)? {
        report.problems.push(why);
        return Ok(());
    }
    if damaged_pages {
        // Rows read from broken pages would only add noise to SQLite's own report.
        return Ok(());
    }
    if version < known {
        report.notes.push(format!(
            "schema version {version}, older than this jackal's {known}: checked on an \
             upgraded copy (the file itself is upgraded when the bot or jackal play next \
             opens it)"
        ));
        let copy = tempfile::tempdir().context("a temporary folder for the upgraded copy")?;
        let path = copy.path().join("copy.db");
        let store = file
            .upgraded_copy(&path)
            .context("upgrading a copy of the file")?;
        return check_rows(&store.conn()?, report);
    }
    check_rows(file, report)
}

/// SQLite's own check of the file's pages and indexes: nothing when it is sound.
fn integrity(file: &Examined) -> Result<Vec<String>> {
    let lines = file.integrity()?;
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    let mut out: Vec<String> = lines
        .iter()
        .take(INTEGRITY_LINES)
        .map(|l| format!("integrity: {l}"))
        .collect();
    if lines.len() > INTEGRITY_LINES {
        out.push(format!(
            "integrity: … and {} more",
            lines.len() - INTEGRITY_LINES
        ));
    }
    Ok(out)
}

/// Why the file is not a jackal database, if it is not.
fn not_ours(file: &Examined, version: usize) -> Result<Option<String>> {
    let tables = file.tables()?;
    if version == 0 && tables.is_empty() {
        return Ok(Some(
            "an empty database, not a jackal one (the bot or jackal play make a new file \
             into one)"
                .into(),
        ));
    }
    let missing: Vec<&str> = JACKAL_TABLES
        .into_iter()
        .filter(|t| !tables.iter().any(|name| name == t))
        .collect();
    if version == 0 || !missing.is_empty() {
        let shown: Vec<&str> = tables.iter().take(5).map(String::as_str).collect();
        return Ok(Some(format!(
            "not a jackal database: schema version {version}, tables {}{}",
            shown.join(", "),
            if tables.len() > shown.len() {
                ", …"
            } else {
                ""
            }
        )));
    }
    Ok(None)
}

/// The games, then the rows that point at them: on a database at this version's schema.
fn check_rows(db: &impl Db, report: &mut Report) -> Result<()> {
    for id in store::all_game_ids(db)? {
        report.games += 1;
        match audit::audit(db, id) {
            Ok(found) => report
                .problems
                .extend(found.iter().map(|f| format!("game #{id}: {f}"))),
            Err(e) => report
                .problems
                .push(format!("game #{id}: could not be read: {e}")),
        }
    }
    for o in health::orphans(db)? {
        let rows = if o.count == 1 {
            "row belongs"
        } else {
            "rows belong"
        };
        report.problems.push(format!(
            "game #{}: there is no such game, but {} {} {rows} to it",
            o.game,
            o.count,
            row_name(o.table)
        ));
    }
    for t in health::pending_timers(db)? {
        let (game, kind, status) = (t.game, &t.kind, &t.status);
        if status != "active" {
            report.problems.push(format!(
                "game #{game}: a {kind} timer is pending, but the game is {status}"
            ));
        } else if t.ply > t.last_ply {
            report.problems.push(format!(
                "game #{game}: a {kind} timer for ply {}, past the end of its log (ply {})",
                t.ply, t.last_ply
            ));
        }
    }
    Ok(())
}
