//! One bot process per database. Two `jackal run` processes on one file would both fire its
//! timers and send its outbox rows: every deadline twice, every post twice. The bot holds an
//! exclusive lock on a file beside the database (`jackal.db.lock`) for its whole life, and a
//! second bot that finds it held refuses to start.
//!
//! The lock is the operating system's (`flock` on Unix, through `File::try_lock`), not the
//! file's existence: the kernel releases it when the process ends however it ends, so a
//! lock file left behind by a killed bot blocks nobody.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// Why the lock could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "another jackal bot process is using the database {db} (it holds {lock}): stop it \
         first, or give this one its own DATABASE_PATH"
    )]
    Held { db: String, lock: String },
    #[error("cannot open the lock file {lock}: {source}")]
    Io {
        lock: String,
        source: std::io::Error,
    },
}

/// The lock on a database, held until it is dropped.
#[derive(Debug)]
pub struct DatabaseLock {
    _file: File,
}

/// The lock file of the database `db`: its name with `.lock` added.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl DatabaseLock {
    /// Takes the lock of `db` without waiting: [`LockError::Held`] when another process
    /// holds it.
    pub fn acquire(db: &Path) -> Result<DatabaseLock, LockError> {
        let lock = lock_path(db);
        let io = |source| LockError::Io {
            lock: lock.display().to_string(),
            source,
        };
        // Never truncated: the file holds nothing, only its lock matters.
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => Ok(DatabaseLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(LockError::Held {
                db: db.display().to_string(),
                lock: lock.display().to_string(),
            }),
            Err(TryLockError::Error(e)) => Err(io(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("games.db");
        let first = DatabaseLock::acquire(&db).unwrap();
        let second = DatabaseLock::acquire(&db).unwrap_err();
        assert!(matches!(second, LockError::Held { .. }), "{second}");
        assert!(second.to_string().contains("games.db.lock"), "{second}");
        drop(first);
        // The file is still there; the lock is not.
        assert!(lock_path(&db).exists());
        DatabaseLock::acquire(&db).unwrap();
    }
}
