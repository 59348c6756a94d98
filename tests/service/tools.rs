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

/// One bot per database, on either backend: while a bot holds the database (its lock file, or
/// its advisory lock on the server), `jackal run` on it is one line and a non-zero exit,
/// before it asks anything of Discord (the API URL below reaches nothing).
#[test]
fn a_second_bot_on_the_same_database_is_refused() {
    use jackal::store::lock::DatabaseLock;
    use jackal::store::postgres::BotLock;
    let f = fixture();
    let (variable, value) = match &f.database {
        Database::File(path) => ("DATABASE_PATH", path.display().to_string()),
        Database::Server(url) => ("DATABASE_URL", url.clone()),
    };
    let _held = match &f.database {
        Database::File(path) => (Some(DatabaseLock::acquire(path).unwrap()), None),
        Database::Server(url) => (None, Some(BotLock::acquire(url).unwrap().unwrap())),
    };
    let out = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .arg("run")
        .env_clear()
        .current_dir(f._dir.path())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", "not-a-token")
        .env("DISCORD_API_URL", "http://127.0.0.1:9")
        .env(variable, &value)
        .output()
        .expect("run jackal");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("another jackal bot process"), "{stderr}");
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
    let out = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .arg("run")
        .env_clear()
        .current_dir(f._dir.path())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", "not-a-token")
        .env("DISCORD_API_URL", "http://127.0.0.1:9")
        .env(variable, &value)
        .output()
        .expect("run jackal");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains(expected), "{stderr}");
    assert!(!lines[0].contains("secret"), "{stderr}");
}
