//! The files a `jackal check` run reads (SCENARIOS §8: "a directory means every `.scn` file
//! below it, in path order"), found without trusting the tree they lie in.
//!
//! A tree may hold symbolic links that loop back to a parent (each file would be reached
//! again at every level until the path grows too long), several links to one file, FIFOs,
//! sockets or devices named `*.scn` (opening a FIFO blocks until some writer appears; a device
//! such as `/dev/zero` never ends), or nothing to check at all. So: each real directory is
//! walked once, each real file is checked once (under the first path that reaches it), only
//! regular files are read, and a directory without any `.scn` file is an error, not a silent
//! success.

use std::collections::HashSet;
use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

/// Every `.scn` file under the given paths, each real file once, directories walked in name
/// order; or a file error (S-OUT-2 exit code 3) naming the path.
pub fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut walk = Walk::default();
    for path in paths {
        let meta = fs::metadata(path).map_err(|e| file_error(path, &e))?;
        if meta.is_dir() {
            let before = walk.named;
            walk.dir(path)?;
            // Counting names, not new files: `check d d` is not an error for the second `d`.
            if walk.named == before {
                return Err(format!(
                    "{}: no .scn file in this directory",
                    path.display()
                ));
            }
        } else {
            // A file named on the command line is checked whatever its extension.
            walk.file(path, &meta)?;
        }
    }
    Ok(walk.files)
}

/// Checks that `path` is still a regular file just before it is read: it may have been
/// replaced since it was listed.
pub fn read_scenario_file(path: &Path) -> Result<String, String> {
    let meta = fs::metadata(path).map_err(|e| file_error(path, &e))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    fs::read_to_string(path).map_err(|e| file_error(path, &e))
}

#[derive(Default)]
struct Walk {
    files: Vec<PathBuf>,
    /// Canonical paths of the files already listed and of the directories already walked.
    seen_files: HashSet<PathBuf>,
    seen_dirs: HashSet<PathBuf>,
    /// `.scn` names met, a file reached by two paths counting twice.
    named: usize,
}

impl Walk {
    fn dir(&mut self, dir: &Path) -> Result<(), String> {
        let real = fs::canonicalize(dir).map_err(|e| file_error(dir, &e))?;
        if !self.seen_dirs.insert(real) {
            // A link back to a directory being walked (a loop) or a second way into one.
            return Ok(());
        }
        let mut entries = fs::read_dir(dir)
            .and_then(|list| {
                list.map(|e| e.map(|e| e.path()))
                    .collect::<io::Result<Vec<_>>>()
            })
            .map_err(|e| file_error(dir, &e))?;
        entries.sort();
        for path in entries {
            let is_scn = path.extension().is_some_and(|e| e == "scn");
            // `metadata` follows links: a link to a directory is walked like the directory.
            match fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => self.dir(&path)?,
                Ok(meta) if is_scn => {
                    self.named += 1;
                    self.file(&path, &meta)?;
                }
                // A dangling link or a loop of links: an error only if it claims to be a
                // scenario.
                Err(e) if is_scn => return Err(file_error(&path, &e)),
                _ => {}
            }
        }
        Ok(())
    }

    fn file(&mut self, path: &Path, meta: &Metadata) -> Result<(), String> {
        if !meta.is_file() {
            return Err(not_regular(path, meta));
        }
        let real = fs::canonicalize(path).map_err(|e| file_error(path, &e))?;
        if self.seen_files.insert(real) {
            self.files.push(path.to_path_buf());
        }
        Ok(())
    }
}

fn file_error(path: &Path, e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => format!("{}: no such file or directory", path.display()),
        _ => format!("{}: {e}", path.display()),
    }
}

fn not_regular(path: &Path, meta: &Metadata) -> String {
    format!(
        "{}: not a regular file ({}); only regular files are read",
        path.display(),
        kind_of(meta)
    )
}

/// What a file that is not a regular file is, in words (`a FIFO`).
#[cfg(unix)]
pub fn kind_of(meta: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
pub fn kind_of(_meta: &Metadata) -> &'static str {
    "a special file"
}
