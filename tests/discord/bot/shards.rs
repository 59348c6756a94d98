//! Several `jackal run` processes on one PostgreSQL database, each running its own shards of
//! the bot against a fake Discord with two shards (issue 41, steps 3 and 4): each server's
//! commands reach the process of its shard; the posts and the due timers are shared work; and
//! a process killed with SIGKILL in the middle of a burst, or the database server restarted
//! in the middle of one, loses nothing and does nothing twice.
//!
//! They need a PostgreSQL server: `scripts/pg-test` (which `.ci/run` runs) starts one and runs
//! them. Without it (`cargo test` alone) each says so and returns.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use fake_discord::{FakeDiscord, OptionValue};
use jackal::game::{
    Actor, Clock, Database, Durability, GameConfig, GameService, GameStatus, Location, ManualClock,
    SystemClock,
};
use jackal::id::GameId;
use jackal::store::Store;
use serenity::all::{ChannelId, GuildId, UserId};

/// The server's URL for a database of this test's own, or `None` without a server.
fn fresh_database() -> Option<String> {
    let admin = std::env::var("JACKAL_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    let Some(admin) = admin else {
        eprintln!("needs PostgreSQL: scripts/pg-test runs this test on a throwaway server");
        return None;
    };
    Some(off_runtime(|| jackal::store::postgres::fresh_database(&admin)).expect("a fresh database"))
}

/// One test at a time: one of them restarts the server every test here shares.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Runs `f` on a thread of its own: the PostgreSQL client blocks, and may not block a thread
/// of the test's async runtime.
fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| scope.spawn(f).join().expect("joined"))
}

/// A `jackal run` process running `shards`, its log in `dir`.
struct Process {
    child: Child,
    name: String,
}

impl Process {
    fn start(fake: &FakeDiscord, url: &str, shards: &str, dir: &Path, name: &str) -> Process {
        let log = std::fs::File::create(dir.join(format!("{name}.log"))).expect("a log file");
        let mut command = Command::new(env!("CARGO_BIN_EXE_jackal"));
        command
            .arg("run")
            .env_clear()
            .current_dir(dir)
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DISCORD_TOKEN", fake_discord::BOT_TOKEN)
            .env("DISCORD_API_URL", fake.base_url())
            .env("DATABASE_URL", url)
            .env("SHARDS", shards)
            // A dead process's claims lapse quickly, for the test's sake.
            .env("WORK_LEASE_SECS", "3")
            .env("RUST_LOG", "warn,jackal=info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        Process {
            child: command.spawn().expect("jackal run starts"),
            name: name.into(),
        }
    }

    /// SIGKILL: nothing of it finishes.
    fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    fn stop(mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        for _ in 0..300 {
            if self.child.try_wait().expect("wait").is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        eprintln!("{} did not stop in 15 s: killed", self.name);
        self.kill();
    }
}

/// The shape of the test: a fake with two shards, a server on each, players in both, and
/// duels in each server's #general whose first deadline passed an hour ago (written through
/// a service of the test's own, with its clock thirteen hours back).
struct Table {
    fake: FakeDiscord,
    url: String,
    dir: tempfile::TempDir,
    /// The test's own view of the database (the real clock).
    service: GameService,
    /// The games, by the shard of their server.
    games: BTreeMap<u16, Vec<Game>>,
}

#[derive(Clone, Copy, Debug)]
struct Game {
    id: GameId,
    /// Seat 2's player, on turn once seat 1's deadline fired.
    second: UserId,
}

const HOUR: i64 = 3_600_000;

impl Table {
    async fn set(url: String, duels_a_shard: usize) -> Table {
        let fake = FakeDiscord::start_with(fake_discord::Config {
            shards: 2,
            wait_timeout: Duration::from_secs(90),
            ..fake_discord::Config::default()
        })
        .await;
        let now = SystemClock.now_ms();
        let past: Arc<dyn Clock> = Arc::new(ManualClock::new(now - 13 * HOUR));
        let database = Database::Server(url.clone());
        let store =
            Arc::new(off_runtime(|| Store::open_database(&database, Durability::Full)).unwrap());
        let seeding = GameService::new(Arc::clone(&store), past);
        let mut config = GameConfig::default();
        config.set("board_size", "7").unwrap();
        config.set("turn_time", "12h").unwrap();
        config.set("timeout_level", "random").unwrap();
        let mut games = BTreeMap::new();
        for shard in [0u16, 1] {
            let guild = fake.add_guild_on_shard(&format!("Shard {shard}"), shard);
            let general = fake.general_of(guild);
            let mut list = Vec::new();
            for n in 0..duels_a_shard {
                let first = fake.add_member_in(guild, &format!("first{shard}{n}"));
                let second = fake.add_member_in(guild, &format!("second{shard}{n}"));
                let config = config.clone();
                let id =
                    off_runtime(|| seed_duel(&seeding, guild, general, first, second, config, n));
                list.push(Game { id, second });
            }
            games.insert(shard, list);
        }
        let service = GameService::new(store, Arc::new(SystemClock));
        Table {
            fake,
            url,
            dir: tempfile::tempdir().unwrap(),
            service,
            games,
        }
    }

    fn start(&self, shards: &str, name: &str) -> Process {
        Process::start(&self.fake, &self.url, shards, self.dir.path(), name)
    }

    /// A process for each shard, both connected, and the burst of due deadlines begun: at
    /// least `threads` games have their thread.
    async fn start_both(&self, threads: usize) -> (Process, Process) {
        let a = self.start("0/2", "a");
        let b = self.start("1/2", "b");
        self.wait_identified(0, 1).await;
        self.wait_identified(1, 1).await;
        self.fake
            .wait_for("the burst's first posts", |f| {
                (f.threads().len() >= threads).then_some(())
            })
            .await;
        (a, b)
    }

    /// Each game's ply now.
    fn plies(&self) -> BTreeMap<GameId, u32> {
        self.all_games()
            .iter()
            .map(|g| (g.id, self.ply(g.id)))
            .collect()
    }

    /// Ends the test: the fake's faults taken, the test's connections closed off the runtime.
    fn close(self) {
        self.fake.take_faults();
        let Table { service, .. } = self;
        off_runtime(move || drop(service));
    }

    async fn wait_identified(&self, shard: u16, count: u32) {
        self.fake.wait_shard_identified(shard, count).await;
    }

    fn all_games(&self) -> Vec<Game> {
        self.games.values().flatten().copied().collect()
    }

    /// Waits until every due timer has fired and every post has gone out.
    async fn wait_settled(&self, what: &str) {
        let service = &self.service;
        let games = self.all_games();
        let settled = || {
            off_runtime(|| {
                let pending = service.pending_messages().ok()?;
                // Whoever holds them: a timer a dead process claimed is due all the same.
                let conn = service.store().conn().ok()?;
                let now = service.now_ms();
                let mut timers_done = true;
                for game in &games {
                    let timers = jackal::store::game_timers(&conn, game.id).ok()?;
                    timers_done &= timers
                        .iter()
                        .all(|t| t.fired_at.is_some() || t.due_at > now);
                }
                let threads = games
                    .iter()
                    .all(|g| service.game(g.id).is_ok_and(|v| v.thread_id.is_some()));
                (pending.is_empty() && timers_done && threads).then_some(())
            })
        };
        self.fake.wait_for(what, |_| settled()).await;
    }

    /// How many times the bot asked for a message with a nonce it had already sent: a post
    /// sent again. Discord (and the fake) answers such a request with the first message, so
    /// no second message appears; a resend shows only in the requests. Also checks that every
    /// one of the bot's channel posts carried a nonce, and that each nonce made one message.
    fn posts_sent_again(&self) -> usize {
        let mut seen = HashSet::new();
        let mut again = 0;
        for entry in self.fake.rest_log() {
            let is_post = entry.method == "POST"
                && entry.path.starts_with("/channels/")
                && entry.path.ends_with("/messages");
            if !is_post || entry.status >= 300 {
                continue;
            }
            let nonce = entry.body.as_ref().and_then(|b| b.get("nonce")).cloned();
            let nonce = nonce.unwrap_or_else(|| panic!("a post without a nonce: {entry:?}"));
            if !seen.insert(nonce.to_string()) {
                again += 1;
            }
        }
        for channel in self.fake.threads() {
            let mut made = HashSet::new();
            for message in self.fake.messages_in(channel) {
                if let Some(nonce) = &message.nonce {
                    assert!(made.insert(nonce.to_string()), "two messages, one nonce");
                }
            }
        }
        again
    }

    /// The outbox rows not sent yet, and how many of them a process (this test's is none)
    /// has claimed.
    fn backlog(&self) -> (usize, usize) {
        let pending = off_runtime(|| self.service.pending_messages()).unwrap();
        let held = pending.iter().filter(|q| q.held_until.is_some()).count();
        (pending.len(), held)
    }

    fn ply(&self, game: GameId) -> u32 {
        self.view(game).ply
    }

    /// The game as stored. A read on a connection the server closed (it restarted) fails once,
    /// and the pool lets that connection go: read again.
    fn view(&self, game: GameId) -> jackal::game::GameView {
        off_runtime(|| {
            let mut tries = 0;
            loop {
                match self.service.game(game) {
                    Ok(view) => return view,
                    Err(e) if tries < 20 => {
                        eprintln!("reading game {game}: {e}; again");
                        tries += 1;
                        std::thread::sleep(Duration::from_millis(250));
                    }
                    Err(e) => panic!("game {game} cannot be read: {e}"),
                }
            }
        })
    }
}

/// A started duel in `channel`, as if its lobby had been filled there.
fn seed_duel(
    service: &GameService,
    guild: GuildId,
    channel: ChannelId,
    first: UserId,
    second: UserId,
    config: GameConfig,
    n: usize,
) -> GameId {
    let here = Location {
        guild_id: Some(guild.into()),
        channel_id: Some(channel.into()),
        thread_id: None,
    };
    let owner = Actor::user(first.into());
    let id = service
        .create_lobby(owner, here, jackal::words::Lang::En, config, Some(1))
        .unwrap();
    service.join(Actor::user(second.into()), id, None).unwrap();
    service.start_with_seed(owner, id, 700 + n as u64).unwrap();
    id
}

/// Seat 1's deadline fired once in every game: a bot played its turn for it, once.
fn assert_each_deadline_fired_once(table: &Table) {
    for game in table.all_games() {
        let view = table.view(game.id);
        assert_eq!(view.status, GameStatus::Active);
        let missed = view.seat(1).unwrap().missed_deadlines;
        assert_eq!(
            missed, 1,
            "game {}: seat 1 missed {missed} deadlines",
            game.id
        );
        let second_on_turn = view
            .state
            .as_ref()
            .is_some_and(|s| s.controller().number() == 2);
        assert!(second_on_turn, "game {}: seat 2 on turn", game.id);
    }
}

/// `/jackal move` by seat 2 of `game`, with its first legal move.
async fn send_move(table: &Table, shard: u16, game: Game) -> fake_discord::InteractionHandle {
    let view = table.view(game.id);
    let legal = off_runtime(|| table.service.legal_moves(game.second.into(), game.id)).unwrap();
    let mv = legal[0].notation.clone();
    let (thread, guild) = (view.thread_id.unwrap(), view.guild_id.unwrap());
    assert_eq!(table.fake.shard_of(guild.into()), shard);
    table
        .fake
        .slash(
            game.second,
            thread.into(),
            "jackal move",
            &[("action", OptionValue::Str(mv))],
        )
        .await
}

/// Two processes, a shard each, share a burst of due deadlines and posts; the one running
/// shard 0 is killed in the middle of it, and a new one started for its shard (as a supervisor
/// would). Then a burst of moves on both servers, and the process of shard 1 killed in the
/// middle of that. Every deadline fires once, every post goes out once, and every move is
/// applied once: a move whose answer never came (its process died) is either applied, or
/// played again by its player and applied then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_mid_burst_loses_nothing_and_does_nothing_twice() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let Some(url) = fresh_database() else { return };
    let table = Table::set(url, 4).await;
    // The middle of the burst: some posts out, most not.
    let (a, b) = table.start_both(2).await;
    a.kill();
    let (unsent, held) = table.backlog();
    eprintln!("killed a with {unsent} posts unsent, {held} of them claimed");
    assert!(
        unsent > 0,
        "killed in the middle of the burst, not after it"
    );
    let claimed_at_the_kill = held;
    // The survivor takes over what the dead one claimed once its claims lapse; shard 0 comes
    // back with a new process.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let a2 = table.start("0/2", "a2");
    table.wait_identified(0, 2).await;
    table.wait_settled("the deadlines' burst to settle").await;
    assert_each_deadline_fired_once(&table);
    // Only a post the dead process had claimed (and perhaps sent) may have been sent again.
    let again = table.posts_sent_again();
    eprintln!("{again} post(s) sent again after the kill");
    assert!(again <= claimed_at_the_kill, "{again} posts sent again");

    // Each server's commands reached its own shard's process.
    for (shard, games) in &table.games {
        let guild = table.view(games[0].id).guild_id.unwrap();
        assert_eq!(table.fake.shard_of(guild.into()), *shard);
    }

    // A burst of moves on both servers; the process of shard 1 dies in the middle of it.
    let before = table.plies();
    let mut sent = Vec::new();
    for (shard, games) in &table.games {
        for game in games {
            sent.push((*shard, *game, send_move(&table, *shard, *game).await));
        }
    }
    table
        .fake
        .wait_for("a first move on shard 1 answered", |f| {
            sent.iter()
                .filter(|(shard, _, _)| *shard == 1)
                .any(|(_, _, ix)| f.interaction(ix).is_some_and(|i| i.callback.is_some()))
                .then_some(())
        })
        .await;
    b.kill();
    let (unsent, held) = table.backlog();
    eprintln!("killed b with {unsent} posts unsent, {held} of them claimed");
    let claimed_at_the_kill = claimed_at_the_kill + held;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let b2 = table.start("1/2", "b2");
    table.wait_identified(1, 2).await;
    // Shard 0's moves are all answered (its process lives), and applied.
    for (shard, game, ix) in &sent {
        if *shard == 0 {
            table.fake.reply(ix).await;
            assert_eq!(table.ply(game.id), before[&game.id] + 1, "game {}", game.id);
        }
    }
    // Shard 1's: applied once, or not at all and played again now.
    for (shard, game, _) in &sent {
        if *shard != 1 {
            continue;
        }
        let played = table.ply(game.id) - before[&game.id];
        assert!(
            played <= 1,
            "game {}: the move was applied {played} times",
            game.id
        );
        eprintln!(
            "game {} (shard 1): the move in flight was applied {played} time(s)",
            game.id
        );
        if played == 0 {
            let again = send_move(&table, *shard, *game).await;
            table.fake.reply(&again).await;
        }
    }
    table.wait_settled("the moves' burst to settle").await;
    for game in table.all_games() {
        assert_eq!(
            table.ply(game.id),
            before[&game.id] + 1,
            "game {}: one move each",
            game.id
        );
    }
    let again = table.posts_sent_again();
    assert!(again <= claimed_at_the_kill, "{again} posts sent again");
    a2.stop();
    b2.stop();
    table.close();
}

/// Restarts the PostgreSQL server, cutting every connection at once (`pg_ctl restart -m
/// fast`), with the command `scripts/pg-test` gives.
fn restart_the_server() {
    let command = std::env::var("JACKAL_TEST_PG_RESTART")
        .expect("scripts/pg-test says how to restart its server");
    let status = off_runtime(|| {
        Command::new("sh")
            .args(["-c", &command])
            .stdout(Stdio::null())
            .status()
    });
    assert!(status.expect("sh runs").success(), "{command}");
}

/// Two processes, a shard each; the database server restarts (every connection cut) in the middle
/// of the burst of due deadlines, and again in the middle of a burst of moves. The processes
/// reconnect and lose nothing: every deadline fires once, every post goes out once, and every
/// move is applied once — one the restart caught is answered (the player is told to try
/// again) and applied when played again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_restarted_mid_burst_loses_nothing() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let Some(url) = fresh_database() else { return };
    let table = Table::set(url, 3).await;
    let (a, b) = table.start_both(1).await;
    restart_the_server();
    table.wait_settled("the deadlines' burst to settle").await;
    assert_each_deadline_fired_once(&table);
    // A post sent just before the restart but not yet marked is sent again (and Discord
    // answers with the first message): a few at most, one per process's send in flight.
    let again = table.posts_sent_again();
    eprintln!("{again} post(s) sent again after the first restart");
    assert!(again <= 2 * 16, "{again} posts sent again");

    let before = table.plies();
    let mut sent = Vec::new();
    for (shard, games) in &table.games {
        for game in games {
            sent.push((*shard, *game, send_move(&table, *shard, *game).await));
            if sent.len() == 2 {
                restart_the_server();
            }
        }
    }
    let mut retried = 0;
    for (shard, game, ix) in &sent {
        // Every move is answered: played, or refused for now.
        let reply = table.fake.reply(ix).await;
        let mut played = table.ply(game.id) - before[&game.id];
        if reply.content.contains("Played") {
            assert_eq!(played, 1, "game {}: announced, so applied", game.id);
        }
        while played == 0 {
            eprintln!("game {}: {:?}; played again", game.id, reply.content);
            retried += 1;
            assert!(retried < 30, "moves are refused again and again");
            let again = send_move(&table, *shard, *game).await;
            table.fake.reply(&again).await;
            played = table.ply(game.id) - before[&game.id];
        }
        assert_eq!(
            played, 1,
            "game {}: the move was applied {played} times",
            game.id
        );
    }
    eprintln!("{retried} move(s) played again after the restart");
    table.wait_settled("the moves' burst to settle").await;
    let again = table.posts_sent_again();
    eprintln!("{again} post(s) sent again after both restarts");
    assert!(again <= 2 * 2 * 16, "{again} posts sent again");
    // The restart ended the processes' sessions and their shard locks with them; each took
    // its own again, so a third process for shard 0 is still refused.
    tokio::time::sleep(Duration::from_secs(6)).await;
    let mut third = table.start("0/2", "third");
    let exited = off_runtime(|| {
        for _ in 0..200 {
            if let Some(status) = third.child.try_wait().expect("wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    });
    let log = std::fs::read_to_string(table.dir.path().join("third.log")).unwrap_or_default();
    match exited {
        Some(status) => assert!(
            !status.success() && log.contains("shard 0 is already run"),
            "{log}"
        ),
        None => {
            third.child.kill().unwrap();
            panic!("a third process for shard 0 ran beside the first: {log}");
        }
    }
    a.stop();
    b.stop();
    table.close();
}

/// A TCP relay between the bot and the database server that the test can cut: every
/// connection through it closed, and no new one taken (the port then refuses), as when the
/// network between them goes.
struct Relay {
    port: u16,
    cut: Arc<std::sync::atomic::AtomicBool>,
    open: Arc<std::sync::Mutex<Vec<std::net::TcpStream>>>,
}

impl Relay {
    fn start(to: String) -> Relay {
        use std::net::{Shutdown, TcpListener, TcpStream};
        use std::sync::atomic::Ordering;
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the relay");
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let open = Arc::new(std::sync::Mutex::new(Vec::<TcpStream>::new()));
        let (stop, streams) = (Arc::clone(&cut), Arc::clone(&open));
        std::thread::spawn(move || {
            // The listener goes with this thread once cut: connections are then refused.
            while !stop.load(Ordering::SeqCst) {
                let inbound = match listener.accept() {
                    Ok((inbound, _)) => inbound,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        std::thread::sleep(Duration::from_millis(10));
                        continue;
                    }
                    Err(_) => return,
                };
                inbound.set_nonblocking(false).unwrap();
                let Ok(outbound) = TcpStream::connect(&to) else {
                    continue;
                };
                let mut kept = streams.lock().unwrap();
                kept.push(inbound.try_clone().unwrap());
                kept.push(outbound.try_clone().unwrap());
                for (mut from, mut into) in [
                    (inbound.try_clone().unwrap(), outbound.try_clone().unwrap()),
                    (outbound, inbound),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut into);
                        let _ = into.shutdown(Shutdown::Write);
                    });
                }
            }
        });
        Relay { port, cut, open }
    }

    fn cut(&self) {
        self.cut.store(true, std::sync::atomic::Ordering::SeqCst);
        for stream in self.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// A process that loses the server (the network between them cut) cannot confirm its shard
/// locks, which the server drops with the connection; once its work lease has passed, when
/// another process may run its shards and take its claimed work, it stops with one line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_cut_off_from_the_server_stops_once_its_lease_has_passed() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let Some(url) = fresh_database() else { return };
    let Some(tls) = std::env::var("JACKAL_TEST_PG_TLS_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!("needs the server over TCP: scripts/pg-test sets JACKAL_TEST_PG_TLS_URL");
        return;
    };
    // The server's TCP address, and this test's database on it, through the relay (the
    // user and password of the TLS URL, which TCP connections need).
    let (user, at) = tls.split_once('@').unwrap();
    let server = at.split_once('/').unwrap().0;
    let name = url.rsplit_once('/').unwrap().1;
    let relay = Relay::start(server.to_string());
    let relayed = format!("{user}@localhost:{}/{name}?sslmode=require", relay.port);
    let fake = FakeDiscord::start_with(fake_discord::Config {
        wait_timeout: Duration::from_secs(60),
        ..fake_discord::Config::default()
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    // WORK_LEASE_SECS=3 (Process::start).
    let mut process = Process::start(&fake, &relayed, "0/1", dir.path(), "cut");
    fake.wait_shard_identified(0, 1).await;
    let cut_at = std::time::Instant::now();
    relay.cut();
    let exited = off_runtime(|| {
        while cut_at.elapsed() < Duration::from_secs(30) {
            if let Some(status) = process.child.try_wait().expect("wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    });
    let stopped_after = cut_at.elapsed();
    let log = std::fs::read_to_string(dir.path().join("cut.log")).unwrap_or_default();
    let Some(status) = exited else {
        process.kill();
        panic!("still running 30 s after losing the server: {log}");
    };
    assert!(!status.success(), "{log}");
    let last = log.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
    assert!(
        last.contains("SHARDS=0/1")
            && last.contains("could not be reached for 3 s (WORK_LEASE_SECS)"),
        "{log}"
    );
    assert!(
        stopped_after >= Duration::from_secs(2),
        "stopped {stopped_after:?} after the cut, before its lease had passed: {log}"
    );
    eprintln!("stopped {stopped_after:?} after the cut");
    fake.take_faults();
}
