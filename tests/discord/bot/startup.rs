//! The real binary (`jackal run`) starting, failing to start and stopping, in a clean
//! environment (no `.env`, only PATH and HOME) and talking only to the fake Discord: a
//! missing token, a token Discord rejects and a database that cannot be opened each give one
//! line saying what to do and a non-zero exit code, never a panic or a backtrace; a good
//! start prints the invite link, registers the commands and answers them, and SIGTERM stops
//! it cleanly.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fake_discord::{self, FakeDiscord};

/// `jackal run` in an empty temporary folder (so no `.env` is read), with nothing from this
/// environment but PATH and HOME, and backtraces asked for (none may appear).
fn jackal_run(dir: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_jackal"));
    command
        .arg("run")
        .env_clear()
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1");
    for key in ["PATH", "HOME"] {
        if let Ok(value) = std::env::var(key) {
            command.env(key, value);
        }
    }
    command
}

/// Runs it to its end (off the async threads, so the fake keeps answering).
async fn run_to_end(mut command: Command) -> Output {
    tokio::task::spawn_blocking(move || command.output().expect("the binary runs"))
        .await
        .expect("joined")
}

/// A failed start: exit code not 0, and one line on stderr, with no panic or backtrace.
fn one_line_failure(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(
        !output.status.success(),
        "exit {:?}: {stderr}",
        output.status
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{stderr}"
    );
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one line on stderr: {stderr}");
    lines[0].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_token_it_says_where_to_put_one() {
    let dir = tempfile::tempdir().unwrap();
    let output = run_to_end(jackal_run(dir.path())).await;
    let line = one_line_failure(&output);
    assert!(
        line.contains("DISCORD_TOKEN is not set") && line.contains(".env"),
        "{line}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_discord_rejects_is_one_line_saying_what_to_do() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut command = jackal_run(dir.path());
    command
        .env("DISCORD_TOKEN", "wrong")
        .env("DISCORD_API_URL", fake.base_url())
        .env("DATABASE_PATH", dir.path().join("jackal.db"));
    let output = run_to_end(command).await;
    let line = one_line_failure(&output);
    assert!(
        line.contains("rejected the token") && line.contains("DISCORD_TOKEN"),
        "{line}"
    );
    // It asked the fake, and was refused there.
    let log = fake.rest_log();
    assert!(!log.is_empty());
    assert!(log.iter().all(|e| e.status == 401), "{log:?}");
}

/// A `DATABASE_URL` that is not PostgreSQL's, or a server that cannot be reached (nothing
/// listens on port 1 of this machine: the connection is refused at once), is one line, and
/// the password in the URL is not repeated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_url_it_cannot_use_is_one_line() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    for (url, expected) in [
        (
            "mysql://jackal@127.0.0.1/jackal",
            "DATABASE_URL must be a PostgreSQL URL",
        ),
        (
            "postgres://jackal:secret@127.0.0.1:1/jackal",
            "cannot connect to PostgreSQL",
        ),
        (
            "postgres://jackal:secret@127.0.0.1:notaport/jackal",
            "not a PostgreSQL URL",
        ),
    ] {
        let mut command = jackal_run(dir.path());
        command
            .env("DISCORD_TOKEN", fake_discord::BOT_TOKEN)
            .env("DISCORD_API_URL", fake.base_url())
            .env("DATABASE_URL", url);
        let output = run_to_end(command).await;
        let line = one_line_failure(&output);
        assert!(line.contains(expected), "{url}: {line}");
        assert!(!line.contains("secret"), "{url}: {line}");
    }
    assert!(fake.rest_log().is_empty(), "nothing was asked of Discord");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_it_cannot_open_is_one_line() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut command = jackal_run(dir.path());
    command
        .env("DISCORD_TOKEN", fake_discord::BOT_TOKEN)
        .env("DISCORD_API_URL", fake.base_url())
        .env("DATABASE_PATH", "/nonexistent/dir/x.db");
    let output = run_to_end(command).await;
    let line = one_line_failure(&output);
    assert!(
        line.contains("/nonexistent/dir/x.db") && line.contains("DATABASE_PATH"),
        "{line}"
    );
    assert!(fake.rest_log().is_empty(), "nothing was asked of Discord");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn it_starts_against_the_fake_answers_and_stops_on_sigterm() {
    let fake = FakeDiscord::start_with(fake_discord::Config {
        // A process starts a little slower than a thread.
        wait_timeout: Duration::from_secs(20),
        ..fake_discord::Config::default()
    })
    .await;
    let alice = fake.add_member("alice");
    let dir = tempfile::tempdir().unwrap();
    let mut command = jackal_run(dir.path());
    command
        .env("DISCORD_TOKEN", fake_discord::BOT_TOKEN)
        .env("DISCORD_API_URL", fake.base_url())
        .env("DATABASE_PATH", dir.path().join("jackal.db"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the binary starts");
    // Its output, line by line, as it comes.
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let reader = {
        let (lines, stdout) = (Arc::clone(&lines), child.stdout.take().expect("stdout"));
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        })
    };
    let errors = {
        let stderr = child.stderr.take().expect("stderr");
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut text);
            text
        })
    };
    let printed = |needle: &str| {
        lines
            .lock()
            .unwrap()
            .iter()
            .find(|l| l.contains(needle))
            .cloned()
    };

    let invite = fake
        .wait_for("the invite link", |_| printed("Invite the bot"))
        .await;
    assert!(
        invite.contains("https://discord.com/oauth2/authorize?client_id=")
            && invite.contains("scope=bot%20applications.commands")
            && invite.contains("permissions="),
        "{invite}"
    );
    let app = fake.bot_user().get();
    assert!(invite.contains(&format!("client_id={app}")), "{invite}");
    fake.wait_commands(&["jackal"]).await;
    let ix = fake.slash(alice, fake.general(), "jackal help", &[]).await;
    let help = fake.reply(&ix).await;
    assert!(help.is_ephemeral());
    let embed = help.embeds.first().expect("the help is an embed");
    assert!(
        embed["description"]
            .as_str()
            .unwrap_or_default()
            .contains("/jackal"),
        "{embed}"
    );

    // Everything it asked went to the fake.
    let log = fake.rest_log();
    for (method, path) in [
        ("GET", "/oauth2/applications/@me".to_string()),
        ("GET", "/gateway".to_string()),
        ("PUT", format!("/applications/{app}/commands")),
        (
            "POST",
            format!("/interactions/{}/{}/callback", ix.id, ix.token),
        ),
    ] {
        assert!(
            log.iter().any(|e| e.method == method && e.path == path),
            "{method} {path} not in {:?}",
            log.iter().map(|e| (&e.method, &e.path)).collect::<Vec<_>>()
        );
    }
    assert_eq!(fake.identify_count(), 1);

    // SIGTERM: it stops cleanly, within a few seconds.
    let pid = child.id().to_string();
    let status = tokio::task::spawn_blocking(move || {
        let signalled = Instant::now();
        let sent = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = child.try_wait().expect("wait") {
                eprintln!("stopped {:?} after SIGTERM", signalled.elapsed());
                return (status, child);
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("still running 10 s after SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    })
    .await
    .expect("joined");
    let (status, _child) = status;
    reader.join().expect("stdout read");
    let stderr = errors.join().expect("stderr read");
    assert!(status.success(), "exit {status:?}; stderr: {stderr}");
    assert!(printed("Stopping").is_some(), "{:?}", lines.lock().unwrap());
    assert!(!stderr.contains("panicked"), "{stderr}");
    fake.wait_for("the gateway connection to close", |f| {
        (!f.gateway_connected()).then_some(())
    })
    .await;
}

/// A `jackal run` child whose standard output is read line by line as it comes.
struct Bot {
    child: std::process::Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Bot {
    fn spawn(mut command: Command) -> Bot {
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = command.spawn().expect("the binary starts");
        let lines = Arc::new(Mutex::new(Vec::<String>::new()));
        let (sink, stdout) = (Arc::clone(&lines), child.stdout.take().expect("stdout"));
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        Bot { child, lines }
    }

    fn printed(&self, needle: &str) -> Option<()> {
        self.lines
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains(needle))
            .then_some(())
    }

    /// SIGTERM, then the exit status and how long it took to come.
    async fn terminate(self) -> (std::process::ExitStatus, Duration) {
        let mut child = self.child;
        tokio::task::spawn_blocking(move || {
            let pid = child.id().to_string();
            let started = Instant::now();
            let sent = Command::new("kill").args(["-TERM", &pid]).status();
            assert!(sent.expect("kill runs").success());
            loop {
                if let Some(status) = child.try_wait().expect("wait") {
                    return (status, started.elapsed());
                }
                if started.elapsed() > Duration::from_secs(15) {
                    let _ = child.kill();
                    panic!("still running 15 s after SIGTERM");
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        })
        .await
        .expect("joined")
    }
}

/// Two `jackal run` processes on one database both started, and shared its timers and
/// outbox: the second is refused at its start, in one line, without a word to Discord. The
/// lock dies with its process: after a SIGKILL, the next bot starts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_bot_on_the_same_database_is_refused() {
    let fake = FakeDiscord::start_with(fake_discord::Config {
        wait_timeout: Duration::from_secs(20),
        ..fake_discord::Config::default()
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("jackal.db");
    let command = || {
        let mut command = jackal_run(dir.path());
        command
            .env("DISCORD_TOKEN", fake_discord::BOT_TOKEN)
            .env("DISCORD_API_URL", fake.base_url())
            .env("DATABASE_PATH", &db);
        command
    };
    let mut first = Bot::spawn(command());
    fake.wait_for("the first bot's start", |_| first.printed("Invite the bot"))
        .await;
    // A bot's first request asks who it is: the second must not get that far.
    let starts = || {
        fake.rest_log()
            .iter()
            .filter(|e| e.path == "/oauth2/applications/@me")
            .count()
    };
    let asked = starts();
    // Before the lock, the second ran beside the first: given a few seconds, it must have
    // ended by itself.
    let mut second = command();
    second.stdin(Stdio::null());
    let second = tokio::task::spawn_blocking(move || {
        let mut child = second
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let started = Instant::now();
        while child.try_wait().expect("wait").is_none() {
            if started.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                panic!("a second bot on the same database is still running after 10 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().expect("its output")
    })
    .await
    .expect("joined");
    let line = one_line_failure(&second);
    assert!(
        line.contains(&db.display().to_string()) && line.contains("another jackal bot process"),
        "{line}"
    );
    assert_eq!(starts(), asked, "the second asked Discord nothing");

    // Killed, the first leaves its lock file behind, and no lock.
    first.child.kill().expect("SIGKILL");
    first.child.wait().expect("reaped");
    let third = Bot::spawn(command());
    fake.wait_for("the next bot's start", |_| third.printed("Invite the bot"))
        .await;
    fake.wait_for("the next bot's gateway session", |f| {
        (f.identify_count() >= 2).then_some(())
    })
    .await;
    let (status, took) = third.terminate().await;
    eprintln!("stopped {took:?} after SIGTERM");
    assert!(status.success(), "exit {status:?}");
}
