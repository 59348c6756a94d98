//! `jackal doctor` and `jackal backup` on the fixture's database, whichever backend it is (an
//! SQLite file, or the PostgreSQL database of `JACKAL_TEST_DATABASE_URL`): the commands take
//! a file's path or a `postgres://` URL alike.

use std::process::Command;

use super::*;

fn named(database: &Database) -> String {
    match database {
        Database::File(path) => path.display().to_string(),
        Database::Server(url) => url.clone(),
    }
}

fn jackal(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(args)
        .output()
        .expect("run jackal");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn the_doctor_finds_a_played_database_healthy_and_a_backup_copies_it() {
    let f = fixture();
    let id = duel(&f);
    play_plies(&f, id, 30);
    let db = named(&f.database);

    let (ok, stdout, stderr) = jackal(&["doctor", "--db", &db]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.ends_with("1 game checked, no problems found\n"),
        "{stdout}"
    );

    let copy = f._dir.path().join("copy.backup");
    let copy_text = copy.display().to_string();
    let (ok, stdout, stderr) = jackal(&["backup", "--db", &db, "-o", &copy_text]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.starts_with("backed up "), "{stdout}");
    assert!(std::fs::metadata(&copy).unwrap().len() > 0);
    // Never over an existing file.
    let (ok, _, stderr) = jackal(&["backup", "--db", &db, "-o", &copy_text]);
    assert!(!ok && stderr.contains("already exists"), "{stderr}");
}

/// `jackal run` with the database and the environment of `vars`, expected to refuse at once:
/// its one line of stderr.
pub(super) fn refused_run(f: &Fixture, vars: &[(&str, &str)]) -> String {
    let (variable, value) = match &f.database {
        Database::File(path) => ("DATABASE_PATH", path.display().to_string()),
        Database::Server(url) => ("DATABASE_URL", url.clone()),
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_jackal"));
    command
        .arg("run")
        .env_clear()
        .current_dir(f._dir.path())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", "not-a-token")
        .env("DISCORD_API_URL", "http://127.0.0.1:9")
        .env(variable, &value);
    for (key, value) in vars {
        command.env(key, value);
    }
    let out = command.output().expect("run jackal");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    lines[0].to_string()
}

/// One bot per database unless they split its shards, on either backend: while a bot holds
/// the database (its lock file, or its advisory lock on the server), `jackal run` on it is one
/// line and a non-zero exit, before it asks anything of Discord (the API URL below reaches
/// nothing).
#[test]
fn a_second_bot_on_the_same_database_is_refused() {
    use jackal::store::lock::DatabaseLock;
    use jackal::store::postgres::{ShardLock, Shards};
    let f = fixture();
    let _held = match &f.database {
        Database::File(path) => (Some(DatabaseLock::acquire(path).unwrap()), None),
        Database::Server(url) => (
            None,
            Some(ShardLock::acquire(url, Shards::Whole).unwrap().unwrap()),
        ),
    };
    let line = refused_run(&f, &[]);
    assert!(line.contains("another jackal bot process"), "{line}");
}

/// Processes that split the shards share a server's database; one whose shards overlap
/// another's, or whose total differs, or that would run every shard beside them, is refused
/// with one line saying which. On a file, a part of the shards is refused: no other process
/// could run the rest.
#[test]
fn shard_ranges_that_overlap_are_refused() {
    use jackal::store::postgres::{Kept, ShardLock, ShardRefusal, Shards};
    let f = fixture();
    let url = match &f.database {
        Database::File(_) => {
            let line = refused_run(&f, &[("SHARDS", "0-1/4")]);
            assert!(line.contains("SHARDS=0-1/4 runs only some"), "{line}");
            assert!(line.contains("DATABASE_URL"), "{line}");
            return;
        }
        Database::Server(url) => url.clone(),
    };
    let part = |first, last, total| Shards::Part { first, last, total };
    let refusal = |shards| ShardLock::acquire(&url, shards).unwrap().err();
    let first = ShardLock::acquire(&url, part(0, 1, 4)).unwrap().unwrap();
    assert_eq!(refusal(part(1, 2, 4)), Some(ShardRefusal::ShardTaken(1)));
    assert_eq!(refusal(part(2, 3, 8)), Some(ShardRefusal::OtherTotal(4)));
    assert_eq!(refusal(Shards::Whole), Some(ShardRefusal::PartsTaken));
    let second = ShardLock::acquire(&url, part(2, 3, 4)).unwrap().unwrap();
    // Each refusal let go of what it took: the rest of the shards are still free.
    let line = refused_run(&f, &[("SHARDS", "3/4")]);
    assert!(
        line.contains("SHARDS=3/4") && line.contains("shard 3 is already run"),
        "{line}"
    );
    // A server restart ends every session, and the locks with it: each process takes its
    // own again, unless another process took them meanwhile.
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .batch_execute(
            "SELECT pg_terminate_backend(pid, 5000) FROM pg_locks WHERE locktype = 'advisory' \
             AND pid <> pg_backend_pid() AND database = \
             (SELECT oid FROM pg_database WHERE datname = current_database())",
        )
        .unwrap();
    let (mut first, mut second) = (first, second);
    let thief = ShardLock::acquire(&url, part(1, 1, 4)).unwrap().unwrap();
    assert_eq!(first.keep().unwrap(), Err(ShardRefusal::ShardTaken(1)));
    assert_eq!(second.keep().unwrap(), Ok(Kept::Retaken));
    assert_eq!(second.keep().unwrap(), Ok(Kept::Held));
    assert_eq!(
        refusal(part(2, 2, 4)),
        Some(ShardRefusal::ShardTaken(2)),
        "held again"
    );
    drop((first, second, thief, admin));
    // A lock's connection closes on a thread of its own: the server lets go soon after.
    let soon = |shards| {
        for _ in 0..100 {
            if let Ok(lock) = ShardLock::acquire(&url, shards).unwrap() {
                return lock;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("{shards:?} still refused 5 s after its holders ended");
    };
    let whole = soon(Shards::Whole);
    assert_eq!(refusal(part(0, 0, 2)), Some(ShardRefusal::WholeTaken));
    drop(whole);
    drop(soon(part(0, 0, 2)));
}

/// A database the bot cannot use is one line and a non-zero exit: on a server, a login it
/// refuses (a user it does not know, the password in the URL not repeated); for a file, a
/// folder that is not there.
#[test]
fn a_database_that_refuses_the_bot_is_one_line() {
    let f = fixture();
    let (variable, value, expected) = match &f.database {
        Database::File(_) => (
            "DATABASE_PATH",
            "/nonexistent/dir/x.db".to_string(),
            "cannot open the database",
        ),
        Database::Server(url) => {
            let (scheme, rest) = url.split_once("://").unwrap();
            let host = rest.split_once('@').map_or(rest, |(_, host)| host);
            (
                "DATABASE_URL",
                format!("{scheme}://nobody_here:secret@{host}"),
                "cannot connect to PostgreSQL",
            )
        }
    };
    let line = refused_run(&f, &[(variable, &value)]);
    assert!(line.contains(expected), "{line}");
    assert!(!line.contains("secret"), "{line}");
}

/// `jackal render --db` draws a stored game from the fixture's database, a file or a server
/// alike, at any ply, reading only; a game that is not there is one line naming the database
/// without its password. On a server, a database at another schema is refused, not upgraded.
#[test]
fn render_draws_a_stored_game_from_either_backend() {
    let f = fixture();
    let id = duel(&f);
    play_plies(&f, id, 12);
    let db = named(&f.database);
    let draw = |ply: &str, file: &str| {
        let png = f._dir.path().join(file);
        let (ok, stdout, stderr) = jackal(&[
            "render",
            "--db",
            &db,
            "--game",
            &id.to_string(),
            "--ply",
            ply,
            "-o",
            &png.display().to_string(),
        ]);
        assert!(ok, "{stdout}{stderr}");
        let bytes = std::fs::read(&png).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{file}");
        bytes
    };
    let early = draw("3", "early.png");
    let late = draw("12", "late.png");
    assert_ne!(early, late, "two plies drawn alike");
    assert_eq!(
        draw("3", "again.png"),
        early,
        "one ply drawn twice differently"
    );
    // Read only: the game is where it was.
    assert_eq!(f.service.game(id).unwrap().ply, 12);

    // Refusals write nothing; had they drawn, it would be in the test's folder.
    let nowhere = f._dir.path().join("refused.png").display().to_string();
    let (ok, _, stderr) = jackal(&["render", "--db", &db, "--game", "999", "-o", &nowhere]);
    assert!(!ok);
    assert!(
        stderr.contains(&format!("there is no game #999 in {}", f.database.shown())),
        "{stderr}"
    );

    let Database::Server(url) = &f.database else {
        return;
    };
    let admin = std::env::var("JACKAL_TEST_DATABASE_URL").unwrap();
    // A database with no jackal tables, and one at an older schema.
    let empty = store::postgres::fresh_database(&admin).unwrap();
    let (ok, _, stderr) = jackal(&["render", "--db", &empty, "--game", "1", "-o", &nowhere]);
    assert!(!ok && stderr.contains("holds no jackal games"), "{stderr}");
    let mut older = postgres::Client::connect(url, postgres::NoTls).unwrap();
    older
        .batch_execute("UPDATE jackal_schema SET version = version - 1")
        .unwrap();
    let (ok, _, stderr) = jackal(&[
        "render",
        "--db",
        url,
        "--game",
        &id.to_string(),
        "-o",
        &nowhere,
    ]);
    assert!(
        !ok && stderr.contains("is at an older jackal's schema"),
        "{stderr}"
    );
    let version: i32 = older
        .query_one("SELECT version FROM jackal_schema", &[])
        .unwrap()
        .get(0);
    assert_eq!(
        version as usize,
        store::postgres::MIGRATION_SQL.len() - 1,
        "upgraded by a render"
    );
}
