//! `jackal backup`: a consistent copy of the database, safe to take while the bot runs.

use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::store::{self, Store};

/// Copies `db` to `output` (a new file); returns what was copied, in words.
pub fn run(db: &Path, output: &Path) -> Result<String> {
    // `Store::open` would create a missing file: a typo must not back up an empty database.
    if !db.is_file() {
        bail!("there is no database file {}", db.display());
    }
    let store = Store::open(db).with_context(|| format!("opening {}", db.display()))?;
    store.back_up_to(output)?;
    let copy = Store::open(output).with_context(|| format!("opening {}", output.display()))?;
    let games = store::all_game_ids(&*copy.conn()?)?.len();
    let bytes = std::fs::metadata(output)?.len();
    Ok(format!(
        "backed up {} to {}: {games} game(s), {} KiB",
        db.display(),
        output.display(),
        bytes.div_ceil(1024)
    ))
}
