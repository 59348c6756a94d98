//! `jackal backup`: a consistent copy of the database, safe to take while the bot runs.

use std::path::Path;

use super::output::{self, Output};
use crate::store::{self, Database};
use anyhow::{Context, Result, bail};

/// Copies `db` to `output` (a new file); returns what was copied, in words. The database is
/// only read: whatever version of jackal wrote it, it is left as it was. The copy is made and
/// checked under a temporary name beside `output` and only a complete, sound copy of a jackal
/// database takes the name: a failed backup leaves nothing behind to block the retry.
pub fn run(db: &Path, output: &Path) -> Result<String> {
    if let Some(Database::Server(url)) = db.to_str().map(Database::parse) {
        return run_on_server(&url, output);
    }
    // Opening a missing file would create it: a typo must not back up an empty database.
    if !db.is_file() {
        bail!("there is no database file {}", db.display());
    }
    let target = Output::checked(output, &output::database_files(db))?;
    let mut games = 0;
    target.create_new(|staged| -> Result<()> {
        store::back_up_file(db, staged).with_context(|| format!("backing up {}", db.display()))?;
        games = store::health::games_in_file(staged)?
            .with_context(|| format!("{} holds no jackal games table", db.display()))?;
        Ok(())
    })??;
    let bytes = std::fs::metadata(output)?.len();
    Ok(format!(
        "backed up {} to {}: {games} game(s), {} KiB",
        db.display(),
        output.display(),
        bytes.div_ceil(1024)
    ))
}

/// A backup of a PostgreSQL database: `pg_dump` (PostgreSQL's own client, which must be on
/// PATH) writes one consistent moment of it, as SQL that `psql` restores into an empty
/// database; written and checked under a temporary name, as for a file. Point-in-time
/// recovery (continuous archiving) is the server's to set up: docs/scaling.md.
fn run_on_server(url: &str, output: &Path) -> Result<String> {
    let found = store::postgres::look_at(url)?;
    if found.version == 0 {
        bail!("{} is not a jackal database", found.shown);
    }
    let target = Output::checked(output, &[])?;
    target.create_new(|staged| -> Result<()> {
        let done = std::process::Command::new("pg_dump")
            .arg("--no-owner")
            .arg("--file")
            .arg(staged)
            .arg("--dbname")
            .arg(url)
            .output()
            .context("running pg_dump (PostgreSQL's client tools must be installed)")?;
        if !done.status.success() {
            bail!(
                "pg_dump failed: {}",
                String::from_utf8_lossy(&done.stderr).trim()
            );
        }
        let dump = std::fs::read_to_string(staged).context("reading the dump back")?;
        if !dump.contains("PostgreSQL database dump complete") {
            bail!("pg_dump's output is incomplete");
        }
        Ok(())
    })??;
    let bytes = std::fs::metadata(output)?.len();
    Ok(format!(
        "backed up {} to {} (pg_dump, schema version {}), {} KiB",
        found.shown,
        output.display(),
        found.version,
        bytes.div_ceil(1024)
    ))
}
