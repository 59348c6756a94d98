//! Files the command-line tools write: never over a file they read, never half-written.
//!
//! A picture or a backup is first written to a temporary file beside its target and then
//! renamed into place, so a crash or a full disk leaves either the old file or the new one,
//! and a failed backup leaves nothing that blocks the retry. Before anything is written, the
//! target is compared with the command's inputs (the database and the files SQLite keeps
//! beside it): `--png jackal.db` must not turn the games into a picture.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why an output path was refused or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{output} is {input}, which this command reads: choose another output file")]
    IsInput { output: String, input: String },
    #[error("{0} is a directory: give a file name")]
    IsDirectory(String),
    #[error("{path} is not a regular file ({kind}): give the name of a new or ordinary file")]
    NotRegular { path: String, kind: &'static str },
    #[error("{0} already exists: a backup is written to a new file, it never replaces one")]
    Exists(String),
    #[error("writing {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// A file the command is about to write, checked against what it reads.
#[derive(Clone, Debug)]
pub struct Output {
    path: PathBuf,
}

/// The files that make up a SQLite database: the file itself and the journal, WAL and
/// shared-memory files SQLite keeps beside it (`jackal.db-wal`, …), and the running bot's
/// lock file (`jackal.db.lock`). Writing over any of them damages the database (or lets a
/// second bot start beside the first), even while no process has it open.
pub fn database_files(db: &Path) -> Vec<PathBuf> {
    let mut files = vec![db.to_path_buf()];
    for suffix in ["-wal", "-shm", "-journal", ".lock"] {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        files.push(PathBuf::from(name));
    }
    files
}

impl Output {
    /// Accepts `path` as an output unless it is one of `inputs` (compared after resolving
    /// symbolic links and `..`, and by file identity, which also catches hard links), a
    /// directory, or an existing file that is not a regular file.
    pub fn checked(path: &Path, inputs: &[PathBuf]) -> Result<Output, OutputError> {
        if path.is_dir() {
            return Err(OutputError::IsDirectory(path.display().to_string()));
        }
        // The new file is renamed over the old name: a FIFO or a device there would be
        // replaced by a picture (as root, `-o /dev/null` replaced the system's /dev/null).
        // Only a regular file, or a link to one, is an output's place. (`metadata` follows
        // links: a link to a FIFO is refused too.)
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
        {
            return Err(OutputError::NotRegular {
                path: path.display().to_string(),
                kind: crate::scenario::special_file_kind(&meta),
            });
        }
        let resolved = resolve(path);
        for input in inputs {
            if resolve(input) == resolved || same_file(path, input) {
                return Err(OutputError::IsInput {
                    output: path.display().to_string(),
                    input: input.display().to_string(),
                });
            }
        }
        Ok(Output {
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `bytes` to the file, replacing it whole: a temporary file beside it, flushed,
    /// then renamed over it.
    pub fn write(&self, bytes: &[u8]) -> Result<(), OutputError> {
        let mut temp = self.temp_file()?;
        temp.write_all(bytes)
            .and_then(|()| temp.as_file().sync_all())
            .map_err(|e| self.io(e))?;
        temp.persist(&self.path).map_err(|e| self.io(e.error))?;
        Ok(())
    }

    /// Creates the file (which must not exist yet) from `fill`, which writes the new file at
    /// the path it is given: a fresh path in a temporary folder beside the target. Only a
    /// complete file, one `fill` returned `Ok` for, is moved into place; if anything fails,
    /// nothing is left behind.
    pub fn create_new<E>(
        &self,
        fill: impl FnOnce(&Path) -> Result<(), E>,
    ) -> Result<Result<(), E>, OutputError> {
        if self.path.exists() {
            return Err(OutputError::Exists(self.path.display().to_string()));
        }
        let folder = tempfile::Builder::new()
            .prefix(".jackal-")
            .tempdir_in(self.folder())
            .map_err(|e| self.io(e))?;
        let staged = folder.path().join("new");
        if let Err(e) = fill(&staged) {
            return Ok(Err(e));
        }
        // A hard link fails if the target exists: another process cannot have its file
        // replaced between the check above and now. The staged name goes with the folder.
        match std::fs::hard_link(&staged, &self.path) {
            Ok(()) => Ok(Ok(())),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                Err(OutputError::Exists(self.path.display().to_string()))
            }
            // File systems without hard links: a rename, after checking once more.
            Err(_) if !self.path.exists() => {
                std::fs::rename(&staged, &self.path).map_err(|e| self.io(e))?;
                Ok(Ok(()))
            }
            Err(_) => Err(OutputError::Exists(self.path.display().to_string())),
        }
    }

    fn folder(&self) -> PathBuf {
        match self.path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }

    /// A temporary file beside the target, with the target's permissions if it exists (a
    /// temporary file is private to its owner, a picture is not).
    fn temp_file(&self) -> Result<tempfile::NamedTempFile, OutputError> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(".jackal-");
        let permissions = std::fs::metadata(&self.path)
            .map(|m| m.permissions())
            .ok()
            .or_else(default_permissions);
        if let Some(permissions) = permissions {
            builder.permissions(permissions);
        }
        builder.tempfile_in(self.folder()).map_err(|e| self.io(e))
    }

    fn io(&self, source: std::io::Error) -> OutputError {
        OutputError::Io {
            path: self.path.display().to_string(),
            source,
        }
    }
}

/// `path` with symbolic links and `..` resolved as far as it exists: the folder is resolved
/// and the name kept when the file itself does not exist yet.
fn resolve(path: &Path) -> PathBuf {
    if let Ok(full) = std::fs::canonicalize(path) {
        return full;
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(folder), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        _ => path.to_path_buf(),
    }
}

/// A new file's permissions: readable by all, writable by its owner, as most programs make
/// them.
#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}

/// Whether both paths exist and are the same file (a hard link is another name for it).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &Path, _: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    #[test]
    fn the_database_and_its_companions_are_refused() {
        let dir = folder();
        let db = dir.path().join("games.db");
        std::fs::write(&db, b"SQLite").unwrap();
        let inputs = database_files(&db);
        for name in [
            "games.db",
            "games.db-wal",
            "games.db-shm",
            "games.db-journal",
            "games.db.lock",
        ] {
            let err = Output::checked(&dir.path().join(name), &inputs).unwrap_err();
            assert!(matches!(err, OutputError::IsInput { .. }), "{name}: {err}");
        }
        // Another spelling of the same file: `sub/../games.db`.
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let round = dir.path().join("sub").join("..").join("games.db");
        assert!(Output::checked(&round, &inputs).is_err());
        assert!(Output::checked(&dir.path().join("games.png"), &inputs).is_ok());
        assert_eq!(std::fs::read(&db).unwrap(), b"SQLite");
    }

    #[cfg(unix)]
    #[test]
    fn links_to_the_database_are_refused() {
        let dir = folder();
        let db = dir.path().join("games.db");
        std::fs::write(&db, b"SQLite").unwrap();
        let soft = dir.path().join("soft.png");
        std::os::unix::fs::symlink(&db, &soft).unwrap();
        let hard = dir.path().join("hard.png");
        std::fs::hard_link(&db, &hard).unwrap();
        let inputs = database_files(&db);
        assert!(Output::checked(&soft, &inputs).is_err());
        assert!(Output::checked(&hard, &inputs).is_err());
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_no_temporary_file() {
        let dir = folder();
        let target = dir.path().join("board.png");
        std::fs::write(&target, b"old").unwrap();
        let out = Output::checked(&target, &[]).unwrap();
        out.write(b"new picture").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new picture");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_creation_leaves_nothing_and_a_retry_works() {
        let dir = folder();
        let target = dir.path().join("backup.db");
        let out = Output::checked(&target, &[]).unwrap();
        let failed = out
            .create_new(|staged| {
                std::fs::write(staged, b"half").unwrap();
                Err("the source is damaged")
            })
            .unwrap();
        assert_eq!(failed, Err("the source is damaged"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        out.create_new(|staged| std::fs::write(staged, b"whole"))
            .unwrap()
            .unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"whole");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let again = out.create_new(|staged| std::fs::write(staged, b"other"));
        assert!(matches!(again, Err(OutputError::Exists(_))));
        assert_eq!(std::fs::read(&target).unwrap(), b"whole");
    }

    #[test]
    fn a_directory_is_not_an_output() {
        let dir = folder();
        assert!(matches!(
            Output::checked(dir.path(), &[]),
            Err(OutputError::IsDirectory(_))
        ));
    }
}
