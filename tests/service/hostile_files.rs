//! Files the command-line tools write never clobber the files they read, and a failed write
//! leaves nothing behind.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn jackal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(args)
        .output()
        .unwrap()
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A finished game of two random bots in `db`, without a picture.
fn played_database(dir: &Path) -> PathBuf {
    let db = dir.join("games.db");
    let run = jackal(&[
        "play",
        "--db",
        text(&db),
        "--size",
        "5",
        "--bots",
        "random,random",
        "--seed",
        "2",
        "--quiet",
        "--no-png",
    ]);
    assert!(run.status.success(), "{run:?}");
    db
}

/// The database and the files SQLite keeps beside it, byte for byte.
fn snapshot(db: &Path) -> Vec<Option<Vec<u8>>> {
    ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| std::fs::read(format!("{}{suffix}", db.display())).ok())
        .collect()
}

fn refused(run: &Output, why: &str) {
    assert!(!run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains(why), "{said}");
    assert_eq!(said.lines().count(), 1, "one line: {said}");
}

#[test]
fn the_board_picture_never_overwrites_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = played_database(dir.path());
    let before = snapshot(&db);
    for target in ["games.db", "games.db-wal", "games.db-shm", "./games.db"] {
        let png = dir.path().join(target);
        let run = jackal(&[
            "play",
            "--db",
            text(&db),
            "--size",
            "5",
            "--bots",
            "random,random",
            "--quiet",
            "--png",
            text(&png),
        ]);
        refused(&run, "which this command reads");
        let run = jackal(&["render", "--db", text(&db), "--game", "1", "-o", text(&png)]);
        refused(&run, "which this command reads");
        assert_eq!(snapshot(&db), before, "{target}");
    }
    // The refused `play` did not create a game either.
    let run = jackal(&["render", "--db", text(&db), "--game", "2", "-o", "x.png"]);
    refused(&run, "there is no game #2");
}

#[cfg(unix)]
#[test]
fn a_link_to_the_database_is_not_a_picture_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = played_database(dir.path());
    let before = snapshot(&db);
    let link = dir.path().join("board.png");
    std::os::unix::fs::symlink(&db, &link).unwrap();
    let run = jackal(&[
        "render",
        "--db",
        text(&db),
        "--game",
        "1",
        "-o",
        text(&link),
    ]);
    refused(&run, "which this command reads");
    assert_eq!(snapshot(&db), before);
}

#[test]
fn a_render_replaces_its_picture_whole_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = played_database(dir.path());
    let png = dir.path().join("board.png");
    std::fs::write(&png, b"an older picture").unwrap();
    let run = jackal(&["render", "--db", text(&db), "--game", "1", "-o", text(&png)]);
    assert!(run.status.success(), "{run:?}");
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (1024, 1024));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(names.is_empty(), "temporary files left: {names:?}");
    // A picture over the scenario file it is drawn from is refused too.
    let scn = dir.path().join("position.scn");
    std::fs::write(&scn, "board 7\n").unwrap();
    let run = jackal(&["render", "--scenario", text(&scn), "-o", text(&scn)]);
    refused(&run, "which this command reads");
    assert_eq!(std::fs::read_to_string(&scn).unwrap(), "board 7\n");
}

#[test]
fn a_failed_backup_leaves_nothing_that_blocks_the_retry() {
    let dir = tempfile::tempdir().unwrap();
    let db = played_database(dir.path());
    let copy = dir.path().join("copy.db");

    // An empty file is an empty database: no games table, so no backup.
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let run = jackal(&["backup", "--db", text(&empty), "-o", text(&copy)]);
    refused(&run, "holds no jackal games table");
    assert!(!copy.exists());

    // A truncated database: SQLite finds it damaged.
    let whole = std::fs::read(&db).unwrap();
    let truncated = dir.path().join("truncated.db");
    std::fs::write(&truncated, &whole[..whole.len() / 3]).unwrap();
    let run = jackal(&["backup", "--db", text(&truncated), "-o", text(&copy)]);
    assert!(!run.status.success(), "{run:?}");
    assert!(!copy.exists());

    // Nothing left behind: the retry from the sound database works.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let run = jackal(&["backup", "--db", text(&db), "-o", text(&copy)]);
    assert!(run.status.success(), "{run:?}");
    assert!(String::from_utf8_lossy(&run.stdout).contains("1 game(s)"));
}

#[test]
fn a_backup_over_the_database_or_its_wal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = played_database(dir.path());
    let before = snapshot(&db);
    for target in ["games.db", "games.db-wal", "games.db-journal"] {
        let out = dir.path().join(target);
        let run = jackal(&["backup", "--db", text(&db), "-o", text(&out)]);
        refused(&run, "which this command reads");
        assert_eq!(snapshot(&db), before, "{target}");
    }
    assert!(!dir.path().join("games.db-journal").exists());
}

#[test]
fn a_line_that_is_not_text_is_refused_alone() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("local.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["play", "--db", text(&db), "--size", "5", "--humans", "1"])
        .args(["--bots", "random", "--seed", "5", "--no-png"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"\xff\xfe d2\nmoves\nquit\n").unwrap();
    drop(stdin);
    let run = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{said}");
    assert!(
        said.contains("Not played: that line is not UTF-8 text."),
        "{said}"
    );
    // The session went on: `moves` listed the moves and `quit` saved the game.
    assert!(said.contains("Saved. Resume with"), "{said}");
}

/// Another program's SQLite file is never given the game's tables.
#[test]
fn a_foreign_database_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    for (name, schema) in [
        (
            "notes.db",
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);",
        ),
        (
            "shop.db",
            "CREATE TABLE games (sku TEXT PRIMARY KEY, price REAL); CREATE TABLE orders (id INTEGER);",
        ),
    ] {
        let db = dir.path().join(name);
        rusqlite::Connection::open(&db)
            .unwrap()
            .execute_batch(schema)
            .unwrap();
        let before = snapshot(&db);
        let run = jackal(&[
            "play",
            "--db",
            text(&db),
            "--size",
            "5",
            "--bots",
            "random,random",
            "--quiet",
            "--no-png",
        ]);
        refused(&run, "is not a jackal database");
        let run = jackal(&["render", "--db", text(&db), "--game", "1", "-o", "x.png"]);
        refused(&run, "is not a jackal database");
        assert_eq!(snapshot(&db), before, "{name} is unchanged");
    }
}

/// A stored game edited into something the program never writes (a board side of 8, a
/// started game without its seed) used to make `jackal render` and `jackal play` panic
/// (exit 101); each now names the game and what is wrong, in one line, and changes nothing.
#[test]
fn a_damaged_stored_game_is_named_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for (name, sql, why) in [
        (
            "size8.db",
            "UPDATE games SET settings = json_set(settings, '$.rules.board_size', 8)",
            "game #1 is damaged: its settings are not valid",
        ),
        (
            "seedless.db",
            "UPDATE games SET seed = NULL",
            "game #1 is damaged: it is finished but has no seed",
        ),
    ] {
        let db = played_database(dir.path());
        let damaged = dir.path().join(name);
        std::fs::rename(&db, &damaged).unwrap();
        rusqlite::Connection::open(&damaged)
            .unwrap()
            .execute_batch(sql)
            .unwrap();
        let before = snapshot(&damaged);
        let png = dir.path().join("board.png");
        let run = jackal(&[
            "render",
            "--db",
            text(&damaged),
            "--game",
            "1",
            "-o",
            text(&png),
        ]);
        refused(&run, why);
        assert!(!png.exists());
        let run = jackal(&["play", "--db", text(&damaged), "--game", "1", "--no-png"]);
        refused(&run, why);
        assert_eq!(snapshot(&damaged), before, "{name} is unchanged");
    }
}

/// Makes a FIFO at `path` (`mkfifo`).
#[cfg(unix)]
fn fifo_at(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A character device at `path` (as `/dev/null` is: 1, 3), when this user may make one; `None`
/// (said on stderr) where making devices is not allowed, e.g. as an ordinary user.
#[cfg(unix)]
fn device_at(path: &Path) -> Option<PathBuf> {
    let made = Command::new("mknod")
        .arg(path)
        .args(["c", "1", "3"])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    if made.success() {
        Some(path.to_path_buf())
    } else {
        eprintln!("skipped: mknod is not allowed here, the device case is not checked");
        None
    }
}

/// What kind of file `path` is now, without following a link.
#[cfg(unix)]
fn kind(path: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = std::fs::symlink_metadata(path).unwrap().file_type();
    if t.is_fifo() {
        "fifo"
    } else if t.is_char_device() {
        "device"
    } else if t.is_symlink() {
        "link"
    } else if t.is_file() {
        "file"
    } else {
        "other"
    }
}

/// `-o /dev/null` run as root used to replace the system's `/dev/null` with a picture: a
/// FIFO, a device or a link to one is refused before anything is written, and stays what it
/// was (tested on nodes made in a temporary folder, never on the real `/dev/null`).
#[cfg(unix)]
#[test]
fn a_picture_never_replaces_a_fifo_or_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let db = played_database(dir.path());
    let before = snapshot(&db);
    let fifo = dir.path().join("pipe.png");
    fifo_at(&fifo);
    let link = dir.path().join("link.png");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let mut targets = vec![(fifo.clone(), "fifo"), (link.clone(), "link")];
    if let Some(device) = device_at(&dir.path().join("null.png")) {
        targets.push((device, "device"));
    }
    for (target, was) in &targets {
        let run = jackal(&[
            "render",
            "--db",
            text(&db),
            "--game",
            "1",
            "-o",
            text(target),
        ]);
        refused(&run, "is not a regular file");
        assert_eq!(kind(target), *was, "{}", target.display());
        let scn = dir.path().join("position.scn");
        std::fs::write(&scn, "board 7\n").unwrap();
        let run = jackal(&["render", "--scenario", text(&scn), "-o", text(target)]);
        refused(&run, "is not a regular file");
        assert_eq!(kind(target), *was, "{}", target.display());
        let run = jackal(&[
            "play",
            "--db",
            text(&db),
            "--size",
            "5",
            "--bots",
            "random,random",
            "--seed",
            "3",
            "--quiet",
            "--png",
            text(target),
        ]);
        refused(&run, "is not a regular file");
        assert_eq!(kind(target), *was, "{}", target.display());
        // Resuming refuses it too.
        let run = jackal(&[
            "play",
            "--db",
            text(&db),
            "--game",
            "1",
            "--png",
            text(target),
        ]);
        refused(&run, "is not a regular file");
        assert_eq!(kind(target), *was, "{}", target.display());
    }
    assert_eq!(kind(&fifo), "fifo");
    // The refused `play` created no game.
    assert_eq!(snapshot(&db), before);
    // A link to an ordinary file is still a picture's place: the file is replaced.
    let old = dir.path().join("old.png");
    std::fs::write(&old, b"an older picture").unwrap();
    let to_old = dir.path().join("to-old.png");
    std::os::unix::fs::symlink(&old, &to_old).unwrap();
    let run = jackal(&[
        "render",
        "--db",
        text(&db),
        "--game",
        "1",
        "-o",
        text(&to_old),
    ]);
    assert!(run.status.success(), "{run:?}");
}

/// An empty file given to `render --db` or `play --db … --game N` used to be given the
/// game's schema before the command said "there is no game #1". A command that reads a
/// game finds an existing jackal database or refuses the file untouched.
#[test]
fn an_empty_or_foreign_file_is_not_made_a_database_by_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("e.db");
    std::fs::write(&empty, b"").unwrap();
    let png = dir.path().join("x.png");
    let run = jackal(&[
        "render",
        "--db",
        text(&empty),
        "--game",
        "1",
        "-o",
        text(&png),
    ]);
    refused(&run, "is empty, not a jackal database");
    let run = jackal(&["play", "--db", text(&empty), "--game", "1", "--no-png"]);
    refused(&run, "is empty, not a jackal database");
    assert_eq!(std::fs::read(&empty).unwrap(), b"", "still empty");
    assert_eq!(snapshot(&empty), vec![Some(Vec::new()), None, None]);
    assert!(!png.exists());

    let foreign = dir.path().join("notes.db");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);")
        .unwrap();
    let before = snapshot(&foreign);
    let run = jackal(&["play", "--db", text(&foreign), "--game", "1", "--no-png"]);
    refused(&run, "is not a jackal database");
    assert_eq!(snapshot(&foreign), before);
}

/// A database at an older schema version: `render` only reads it (drawn from an upgraded
/// copy, the file left as it was); `play` resuming a game writes, and upgrades it.
#[test]
fn render_reads_an_older_database_without_upgrading_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = played_database(dir.path());
    // Back to the schema before the last migration (0015 added the leases of shared work),
    // as an older jackal left it.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let known = jackal::store::MIGRATION_SQL.len();
    assert_eq!(known, 15, "undo the newest migration here");
    conn.execute_batch(
        "ALTER TABLE outbox DROP COLUMN claimed_by; ALTER TABLE outbox DROP COLUMN claimed_until; \
         ALTER TABLE timers DROP COLUMN claimed_by; ALTER TABLE timers DROP COLUMN claimed_until; \
         ALTER TABLE user_timers DROP COLUMN claimed_by; \
         ALTER TABLE user_timers DROP COLUMN claimed_until;",
    )
    .unwrap();
    conn.pragma_update(None, "user_version", (known - 1) as i64)
        .unwrap();
    conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    drop(conn);
    let before = snapshot(&db);
    let png = dir.path().join("board.png");
    let run = jackal(&["render", "--db", text(&db), "--game", "1", "-o", text(&png)]);
    assert!(run.status.success(), "{run:?}");
    assert!(png.exists());
    assert_eq!(snapshot(&db), before, "render changed the file");
    // Resuming the game writes: it upgrades the file.
    let run = jackal(&[
        "play",
        "--db",
        text(&db),
        "--game",
        "1",
        "--no-png",
        "--quiet",
    ]);
    assert!(run.status.success(), "{run:?}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(jackal::store::schema_version(&conn).unwrap(), known);
}

/// Runs the binary as the unprivileged user 65534 (`nobody`): root passes every permission
/// check, and these tests are about a file that cannot be written.
#[cfg(unix)]
fn jackal_as_nobody(args: &[&str]) -> Output {
    Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_jackal"))
        .args(args)
        .output()
        .unwrap()
}

/// `render` and `backup` of a database that can be read but not written (a file owned by
/// someone else, in a folder this user cannot write) used to fail with "attempt to write a
/// readonly database": both only read, so both work, and the file stays as it was.
#[cfg(unix)]
#[test]
fn a_database_that_cannot_be_written_is_still_drawn_and_backed_up() {
    use std::os::unix::fs::PermissionsExt;
    if !is_root() {
        eprintln!("skipped: needs root to run the binary as another user");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let db = played_database(&games);
    assert_eq!(snapshot(&db)[1..], [None, None], "no WAL left beside it");
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&games, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Where nobody may write the picture and the copy.
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let before = snapshot(&db);
    let png = out.join("board.png");
    let run = jackal_as_nobody(&["render", "--db", text(&db), "--game", "1", "-o", text(&png)]);
    assert!(run.status.success(), "{run:?}");
    assert!(png.exists());
    let copy = out.join("copy.db");
    let run = jackal_as_nobody(&["backup", "--db", text(&db), "-o", text(&copy)]);
    assert!(run.status.success(), "{run:?}");
    assert!(String::from_utf8_lossy(&run.stdout).contains("1 game(s)"));
    assert_eq!(snapshot(&db), before, "the file is byte for byte as it was");
}

#[cfg(unix)]
fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// `jackal play --size 6` used to create the database file before refusing the size: every
/// argument is checked before any file is made.
#[test]
fn bad_play_arguments_create_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("new.db");
    for (args, why) in [
        (&["--size", "6", "--bots", "random,random"][..], "6"),
        (
            &["--bots", "random,random", "--set", "nonsense=1"][..],
            "nonsense",
        ),
        (
            &["--bots", "random,random", "--pack", "gold*3"][..],
            "gold*3",
        ),
        (&["--humans", "5"][..], "not 5"),
        (&["--humans", "3", "--teams"][..], "2x2"),
    ] {
        let run = jackal(
            &[
                &["play", "--db", text(&db), "--no-png", "--quiet"][..],
                args,
            ]
            .concat(),
        );
        refused(&run, why);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}

/// `QUIT` in the terminal game was read as a move ("Not played"): its words (`quit`,
/// `exit`, `moves`) are read in any case.
#[test]
fn the_terminal_games_words_are_read_in_any_case() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("local.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["play", "--db", text(&db), "--size", "5", "--humans", "1"])
        .args(["--bots", "random", "--seed", "5", "--no-png"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"Moves\nQUIT\n").unwrap();
    drop(stdin);
    let run = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{said}");
    assert!(!said.contains("Not played"), "{said}");
    assert!(said.contains("1 c2; 2 c2"), "the moves are listed: {said}");
    assert!(said.contains("Saved. Resume with"), "{said}");
}

/// `jackal arena --threads 0` was accepted; it is refused with the range.
#[test]
fn an_arena_without_threads_is_refused() {
    let run = jackal(&[
        "arena",
        "--games",
        "1",
        "--size",
        "5",
        "--bots",
        "random,random",
        "--threads",
        "0",
    ]);
    refused(&run, "--threads is 1 to 256");
}

/// A scenario file written by an editor that puts a byte-order mark first used to be
/// refused as "unknown statement `\u{feff}scenario`", with the culprit invisible: the mark is
/// skipped, and invisible characters in a quoted piece of input are shown escaped.
#[test]
fn invisible_characters_in_a_scenario_are_shown_not_hidden() {
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("bom.scn");
    std::fs::write(&bom, "\u{feff}scenario marked\nboard 7\nexpect not over\n").unwrap();
    let run = jackal(&["check", text(&bom)]);
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{said}");
    assert!(said.contains("scenario \"marked\""), "{said}");

    let nul = dir.path().join("nul.scn");
    std::fs::write(&nul, "board 7\nset stall_rounds = 5\0\nexpect not over\n").unwrap();
    let run = jackal(&["check", text(&nul)]);
    let said = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(!said.contains('\0'), "{said:?}");
    assert!(said.contains("set stall_rounds = 5\\0"), "{said}");
    assert!(said.contains("`5\\0` is not a valid value"), "{said}");

    // A zero-width space and a Cyrillic word: the first escaped, the second as written.
    let odd = dir.path().join("odd.scn");
    std::fs::write(&odd, "board 7\nдоска\u{200b} 7\n").unwrap();
    let run = jackal(&["check", text(&odd)]);
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(
        said.contains("unknown statement `доска\\u{200b}`"),
        "{said}"
    );
    assert!(!said.contains('\u{200b}'), "{said:?}");
}
