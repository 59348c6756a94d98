//! `jackal backup`: a consistent copy of the database, safe to take while the bot runs.

use std::path::Path;

use super::output::{self, Output};
use crate::store;
use anyhow::{Context, Result, bail};

/// Copies `db` to `output` (a new file); returns what was copied, in words. The database is
/// only read: whatever version of jackal wrote it, it is left as it was. The copy is made and
/// checked under a temporary name beside `output` and only a complete, sound copy of a jackal
/// database takes the name: a failed backup leaves nothing behind to block the retry.
pub fn run(db: &Path, output: &Path) -> Result<String> {
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
