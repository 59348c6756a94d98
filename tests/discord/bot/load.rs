//! Load: the real bot (`jackal run`, its own process and tokio runtime) against the fake
//! Discord, with 1,000 active games in its database. It measures how fast the bot gives an
//! interaction its first response when 100 players move at the same moment, how soon their
//! boards are posted in the games' threads, and how much memory the bot holds.
//!
//! Ignored by `cargo test`. Run it explicitly, built with optimisations so that the numbers
//! mean something:
//!
//! ```sh
//! cargo test --release --test discord load -- --ignored --nocapture
//! ```
//!
//! It prints a table and asserts nothing about the figures (they depend on the machine, and
//! the fake and this test share its cores with the bot); it fails only if the bot does not do
//! its job: an interaction left unanswered, a board never posted, an unclean exit.

use jackal::id::GameId;
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::Arc;
use std::time::{Duration, Instant};

use jackal::ai::BotLevel;
use jackal::game::{Actor, Clock, GameConfig, GameService, Location, SystemClock};
use jackal::store::{Durability, GameStatus, Store};
use serenity::all::{ChannelId, MessageId, UserId};
use tokio::sync::Barrier;

use crate::bot::harness::{buttons, select_values};
use fake_discord::{self, FakeDiscord, InteractionHandle, Message, OptionValue};

/// Active games in the database.
pub(crate) const GAMES: usize = 1000;
/// Of which two-player games between people who all move at once, round after round.
pub(crate) const MOVERS: usize = 100;
/// Rounds of simultaneous moves.
const ROUNDS: usize = 5;
/// Text channels the games are spread over (each game gets its own thread).
pub(crate) const CHANNELS: usize = 10;
/// How long a player waits for any one thing before the test gives up on them.
pub(crate) const PATIENCE: Duration = Duration::from_secs(30);
/// How long the bot may take to catch up with the start of 1,000 games.
const CATCH_UP_LIMIT: Duration = Duration::from_secs(600);
/// How often a waiting player looks again (a person's reaction is slower).
const LOOK_EVERY: Duration = Duration::from_millis(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a load test: cargo test --release --test discord load -- --ignored --nocapture"]
async fn load_1000_active_games_100_players_moving_at_once() {
    let fake = Arc::new(
        FakeDiscord::start_with(fake_discord::Config {
            wait_timeout: Duration::from_secs(60),
            ..fake_discord::Config::default()
        })
        .await,
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("jackal.db");

    // 1,000 games, started, in the database before the bot runs.
    let prepared = Instant::now();
    let store = Store::open_with(&db, Durability::Normal).expect("open the database");
    let service = GameService::new(Arc::new(store), Arc::new(SystemClock) as Arc<dyn Clock>);
    let games = prepare(&fake, &service);
    let prepare_time = prepared.elapsed();

    // The bot: the binary, with nothing from this environment (no .env, no real token).
    let load_before = loadavg();
    let mut bot = Bot::start(&fake, dir.path(), &db);
    eprintln!(
        "load test: the bot runs as pid {} (to profile: perf record -g -p {})",
        bot.child.id(),
        bot.child.id()
    );
    fake.wait_identified(1).await;
    fake.wait_commands(&["jackal"]).await;
    let connected = bot.memory();

    // It catches up with its outbox: 1,000 threads, start posts and first "your turn" DMs.
    let catch_up = caught_up(&service, &mut bot).await;
    let after_start = bot.memory();
    let mut errors = Vec::new();
    let threads = fake.threads();
    if threads.len() != GAMES {
        errors.push(format!(
            "{} threads were opened for {GAMES} games: {}",
            threads.len(),
            doubled_threads(&fake, &threads)
        ));
    }

    // Rounds: every mover on turn plays at the same moment.
    let mut samples: Vec<(Kind, Duration)> = Vec::new();
    let mut to_post: Vec<Duration> = Vec::new();
    let mut rounds = Vec::new();
    let mut cursor = latest_message(&fake, MessageId::new(1));
    for round in 0..ROUNDS {
        let turns: Vec<Turn> = games[..MOVERS]
            .iter()
            .enumerate()
            .filter_map(|(i, g)| turn(&fake, &service, g, WAYS[(i + round) % WAYS.len()]))
            .collect();
        let started = Instant::now();
        let go = Arc::new(Barrier::new(turns.len()));
        let mut tasks = tokio::task::JoinSet::new();
        for t in turns {
            let (fake, go) = (Arc::clone(&fake), Arc::clone(&go));
            tasks.spawn(async move { play_turn(&fake, t, &go).await });
        }
        let mut played = Vec::new();
        while let Some(done) = tasks.join_next().await {
            played.push(done.expect("a player's task panicked"));
        }
        let mut round_samples = Vec::new();
        let mut clicks = HashMap::new();
        for p in &played {
            round_samples.extend(p.samples.iter().copied());
            match (&p.error, p.click) {
                (Some(e), _) => errors.push(format!("round {}: game #{}: {e}", round + 1, p.game)),
                (None, Some(click)) => {
                    let loaded = service.game(p.game).expect("load");
                    let header = format!("· move {}**", loaded.moves);
                    clicks.insert(p.thread, (click, header));
                }
                (None, None) => {}
            }
        }
        let (posts, missing) = board_posts(&fake, &mut cursor, &clicks).await;
        errors.extend(
            missing
                .iter()
                .map(|t| format!("round {}: no board post in thread {t}", round + 1)),
        );
        let drained = drained(&service).await;
        let all = started.elapsed();
        rounds.push(Round {
            players: played.len(),
            first: stats(round_samples.iter().map(|(_, d)| *d)),
            to_post: stats(posts.iter().copied()),
            drained,
            all,
        });
        samples.extend(round_samples);
        to_post.extend(posts);
        cursor = latest_message(&fake, cursor);
    }
    let after_load = bot.memory();

    // SIGTERM: it finishes what is in flight and exits 0.
    let (status, stop_time) = bot.terminate();
    let log = bot.log();

    report(&Report {
        prepare_time,
        catch_up,
        connected,
        after_start,
        after_load,
        samples: &samples,
        to_post: &to_post,
        rounds: &rounds,
        stop_time,
        cpu: bot.cpu_seconds_at_exit,
        test_cpu: own_cpu_seconds(),
        loadavg: (load_before, loadavg()),
        log: &log,
    });
    assert!(status.success(), "the bot exited with {status} on SIGTERM");
    assert!(
        errors.is_empty(),
        "{} thing(s) went wrong:\n  {}",
        errors.len(),
        errors.join("\n  ")
    );
}

/// A prepared game and its two people (the second is `None` against a bot).
pub(crate) struct PreparedGame {
    pub(crate) id: GameId,
    pub(crate) people: [Option<UserId>; 2],
}

/// 1,000 two-player games on the classic 13×13 island, spread over ten channels of the
/// fake's guild, started: the first `MOVERS` between two people, then games between two
/// people who will not move and games against a bot, alternately. Every person is a member of
/// the guild with open DMs. Each map is seeded by the game's number, so runs repeat.
pub(crate) fn prepare(fake: &FakeDiscord, service: &GameService) -> Vec<PreparedGame> {
    let channels: Vec<ChannelId> = (0..CHANNELS)
        .map(|c| fake.add_text_channel(&format!("jackal-{c}"), Vec::new()))
        .collect();
    let guild = fake.guild().get();
    let mut games = Vec::with_capacity(GAMES);
    for g in 0..GAMES {
        let owner = fake.add_member(&format!("p{g}a"));
        let against_bot = g >= MOVERS && g % 2 == 1;
        let second = (!against_bot).then(|| fake.add_member(&format!("p{g}b")));
        let location = Location {
            guild_id: Some(jackal::id::GuildId::new(guild)),
            channel_id: Some(channels[g % CHANNELS].into()),
            thread_id: None,
        };
        let who = Actor::user(owner.into());
        let id = service
            .create_lobby(
                who,
                location,
                jackal::words::Lang::En,
                GameConfig::default(),
                Some(1),
            )
            .expect("a lobby");
        match second {
            Some(user) => {
                service
                    .join(Actor::user(user.into()), id, Some(2))
                    .expect("join");
            }
            None => service
                .add_bot(who, id, 2, BotLevel::ALL[0])
                .expect("add a bot"),
        }
        service
            .start_with_seed(who, id, id.get() as u64)
            .expect("start");
        games.push(PreparedGame {
            id,
            people: [Some(owner), second],
        });
    }
    games
}

/// Games with more than one thread, and how far apart (in time) their threads were opened.
fn doubled_threads(fake: &FakeDiscord, threads: &[ChannelId]) -> String {
    let mut by_name: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for t in threads {
        let name = fake.channel(*t).map(|c| c.name).unwrap_or_default();
        let game = name.split(':').next().unwrap_or_default().to_string();
        // A snowflake carries its creation time in milliseconds above bit 22.
        by_name.entry(game).or_default().push(t.get() >> 22);
    }
    by_name
        .into_iter()
        .filter(|(_, times)| times.len() > 1)
        .map(|(game, times)| {
            let gaps: Vec<String> = times
                .windows(2)
                .map(|w| format!("{:.2} s", (w[1] - w[0]) as f64 / 1000.0))
                .collect();
            format!("{game} ({} apart)", gaps.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The bot's process.
pub(crate) struct Bot {
    pub(crate) child: Child,
    pub(crate) log_path: std::path::PathBuf,
    /// CPU seconds (user + system) it used, read just before it exited.
    pub(crate) cpu_seconds_at_exit: f64,
}

/// Resident memory of a process, from `/proc/<pid>/status`, in MiB.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Memory {
    pub(crate) rss: f64,
    pub(crate) peak: f64,
    pub(crate) threads: u32,
}

impl Bot {
    pub(crate) fn start(fake: &FakeDiscord, dir: &Path, db: &Path) -> Bot {
        let log_path = dir.join("bot.log");
        let log = File::create(&log_path).expect("log file");
        let child = Command::new(env!("CARGO_BIN_EXE_jackal"))
            .arg("run")
            .env_clear()
            .env("DISCORD_TOKEN", fake_discord::BOT_TOKEN)
            .env("DISCORD_API_URL", fake.base_url())
            .env("DATABASE_PATH", db)
            .env("RUST_LOG", "warn")
            // No `.env` is found in a fresh temporary folder.
            .current_dir(dir)
            .stdout(log.try_clone().expect("log file"))
            .stderr(log)
            .spawn()
            .expect("start the jackal binary");
        Bot {
            child,
            log_path,
            cpu_seconds_at_exit: 0.0,
        }
    }

    pub(crate) fn memory(&self) -> Memory {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the bot's /proc status");
        let field = |name: &str| -> f64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next())
                .and_then(|kb| kb.parse::<f64>().ok())
                .unwrap_or(f64::NAN)
        };
        Memory {
            rss: field("VmRSS:") / 1024.0,
            peak: field("VmHWM:") / 1024.0,
            threads: field("Threads:") as u32,
        }
    }

    /// Fails the test with the bot's log if it died.
    pub(crate) fn check_alive(&mut self) {
        if let Some(status) = self.child.try_wait().expect("try_wait") {
            panic!("the bot exited early ({status}):\n{}", self.log());
        }
    }

    /// Sends SIGTERM and waits (at most 60 s) for the exit.
    pub(crate) fn terminate(&mut self) -> (std::process::ExitStatus, Duration) {
        self.cpu_seconds_at_exit = cpu_seconds(&format!("/proc/{}/stat", self.child.id()));
        let pid = self.child.id().to_string();
        let asked = Instant::now();
        let sent = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -TERM {pid} failed");
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return (status, asked.elapsed());
            }
            if asked.elapsed() > Duration::from_secs(60) {
                let _ = self.child.kill();
                panic!(
                    "the bot did not exit within 60 s of SIGTERM:\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).unwrap_or_default()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        // A failed test must not leave the bot running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// User + system CPU seconds of a process, from its `/proc/…/stat` (clock ticks of 10 ms).
fn cpu_seconds(stat_path: &str) -> f64 {
    let stat = std::fs::read_to_string(stat_path).unwrap_or_default();
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

/// The machine's 1-minute load average: other work on it distorts the figures.
pub(crate) fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

pub(crate) fn own_cpu_seconds() -> f64 {
    cpu_seconds("/proc/self/stat")
}

/// Waits until the bot has sent everything its outbox holds and no timer is due (bots'
/// first moves included); returns how long that took. Its memory is sampled meanwhile.
pub(crate) async fn caught_up(service: &GameService, bot: &mut Bot) -> Duration {
    let started = Instant::now();
    let mut quiet_since: Option<Instant> = None;
    loop {
        bot.check_alive();
        let pending = service.pending_messages().expect("read the outbox").len();
        let now = service.now_ms();
        let due = service
            .next_timer_due()
            .expect("read the timers")
            .is_some_and(|t| t <= now);
        if pending == 0 && !due {
            let since = *quiet_since.get_or_insert_with(Instant::now);
            // Quiet for a second: nothing was still being written.
            if since.elapsed() >= Duration::from_secs(1) {
                return since.duration_since(started);
            }
        } else {
            quiet_since = None;
        }
        assert!(
            started.elapsed() < CATCH_UP_LIMIT,
            "the bot did not catch up within {CATCH_UP_LIMIT:?}: {pending} messages pending\n{}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the outbox is empty again; returns how long that took.
pub(crate) async fn drained(service: &GameService) -> Duration {
    let started = Instant::now();
    loop {
        if service
            .pending_messages()
            .expect("read the outbox")
            .is_empty()
        {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < CATCH_UP_LIMIT,
            "the outbox did not drain"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The newest message id at or after `from` (advances a cursor over the fake's messages).
pub(crate) fn latest_message(fake: &FakeDiscord, from: MessageId) -> MessageId {
    fake.messages_after(from).last().map_or(from, |m| m.id)
}

/// How a player moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    /// "My moves" under the board in the thread, then the private picker.
    MyMoves,
    /// `/jackal move` in the thread, with what autocomplete offers first.
    Command,
    /// The picker in the "your turn" DM.
    Dm,
}

pub(crate) const WAYS: [Way; 3] = [Way::MyMoves, Way::Command, Way::Dm];

/// An interaction, by what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    MyMoves,
    Command,
    Pick,
    Play,
    Autocomplete,
}

impl Kind {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Kind::MyMoves => "  button \"My moves\"",
            Kind::Command => "  /jackal move",
            Kind::Pick => "  picker menu choice",
            Kind::Play => "  play / confirm button",
            Kind::Autocomplete => "autocomplete (answer)",
        }
    }
}

/// A player on turn, and what they will press first.
pub(crate) struct Turn {
    pub(crate) game: GameId,
    pub(crate) user: UserId,
    pub(crate) thread: ChannelId,
    pub(crate) way: Way,
    /// The board post (for "My moves") or the DM prompt to start from.
    pub(crate) start: Option<Message>,
}

/// The player on turn in a prepared game, with the message they start from.
pub(crate) fn turn(
    fake: &FakeDiscord,
    service: &GameService,
    game: &PreparedGame,
    way: Way,
) -> Option<Turn> {
    let loaded = service.game(game.id).expect("load");
    if loaded.status != GameStatus::Active {
        return None;
    }
    let state = loaded.state.as_ref().expect("running");
    let user = UserId::from(loaded.team_seat(state.controller())?.user_id?);
    debug_assert!(game.people.contains(&Some(user)));
    let thread = ChannelId::from(loaded.thread_id.expect("the game has its thread"));
    let start = match way {
        Way::MyMoves => {
            let id = format!("jk1:moves:{}", game.id);
            fake.messages_in(thread)
                .into_iter()
                .rev()
                .find(|m| !m.deleted && m.custom_ids().contains(&id))
        }
        Way::Dm => {
            let heading = format!("#{} · move {} ", game.id, loaded.move_number());
            let dm = fake.dm_channel(user).expect("the player's DMs");
            fake.messages_in(dm)
                .into_iter()
                .rev()
                .find(|m| m.content.contains(&heading) && !m.components.is_empty())
        }
        Way::Command => None,
    };
    assert!(
        way == Way::Command || start.is_some(),
        "game #{}: nothing to start from for {way:?}",
        game.id
    );
    Some(Turn {
        game: game.id,
        user,
        thread,
        way,
        start,
    })
}

/// What became of one player's turn.
pub(crate) struct Played {
    pub(crate) game: GameId,
    pub(crate) thread: ChannelId,
    /// Each interaction's time to its first response.
    pub(crate) samples: Vec<(Kind, Duration)>,
    /// When the interaction that played the move was sent.
    pub(crate) click: Option<Instant>,
    pub(crate) error: Option<String>,
}

/// Plays one turn the player's way, starting when every player is ready.
pub(crate) async fn play_turn(fake: &FakeDiscord, t: Turn, go: &Barrier) -> Played {
    let mut samples = Vec::new();
    go.wait().await;
    let result = match t.way {
        Way::MyMoves => {
            let post = t.start.as_ref().expect("found");
            let ix = fake.click(t.user, post.id, &format!("jk1:moves:{}", t.game));
            match first_response(fake, Kind::MyMoves, &ix, &mut samples).await {
                Ok(()) => match reply(fake, &ix).await {
                    Ok(picker) => through_picker(fake, t.user, picker, &mut samples).await,
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            }
        }
        Way::Dm => {
            let prompt = t.start.clone().expect("found");
            through_picker(fake, t.user, prompt, &mut samples).await
        }
        Way::Command => by_command(fake, &t, &mut samples).await,
    };
    let (click, error) = match result {
        Ok(click) => (Some(click), None),
        Err(e) => (None, Some(e)),
    };
    Played {
        game: t.game,
        thread: t.thread,
        samples,
        click,
        error,
    }
}

/// `/jackal move` with the first move autocomplete offers; then the picker if it asks more.
async fn by_command(
    fake: &FakeDiscord,
    t: &Turn,
    samples: &mut Vec<(Kind, Duration)>,
) -> Result<Instant, String> {
    let typing = [("action", OptionValue::Str(String::new()))];
    let ix = fake
        .autocomplete_interaction(t.user, t.thread, "jackal move", &typing, "action")
        .await;
    first_response(fake, Kind::Autocomplete, &ix, samples).await?;
    let offered = fake.response(&ix).await.data["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let value = offered
        .first()
        .and_then(|c| c["value"].as_str())
        .ok_or("autocomplete offered no move")?
        .to_string();
    let ix = fake
        .slash(
            t.user,
            t.thread,
            "jackal move",
            &[("action", OptionValue::Str(value))],
        )
        .await;
    first_response(fake, Kind::Command, &ix, samples).await?;
    let answer = reply(fake, &ix).await?;
    if answer.content.contains('✅') {
        return Ok(sent_at(fake, &ix));
    }
    through_picker(fake, t.user, answer, samples).await
}

/// Clicks through a picker message until the move is played (as `play::through_picker`):
/// returns when the interaction that played it was sent.
async fn through_picker(
    fake: &FakeDiscord,
    user: UserId,
    start: Message,
    samples: &mut Vec<(Kind, Duration)>,
) -> Result<Instant, String> {
    let mut m = start;
    let mut last = None;
    for _ in 0..20 {
        if m.content.contains('✅') {
            return last.ok_or_else(|| "a picker that was already played".to_string());
        }
        let values = select_values(&m);
        let (kind, ix) = if let Some((_, value)) = values.first() {
            let id = m
                .custom_ids()
                .into_iter()
                .find(|id| id.starts_with("jk1:pick:"))
                .ok_or("a picker without its menu")?;
            (Kind::Pick, fake.select(user, m.id, &id, &[value]))
        } else {
            let (_, id) = buttons(&m)
                .into_iter()
                .find(|(_, id)| id.starts_with("jk1:play:") || id.starts_with("jk1:sure:"))
                .ok_or_else(|| format!("nothing to press: {}", m.content))?;
            (Kind::Play, fake.click(user, m.id, &id))
        };
        last = Some(sent_at(fake, &ix));
        first_response(fake, kind, &ix, samples).await?;
        m = changed(fake, &m).await?;
    }
    Err(format!("the picker never reached a move: {}", m.content))
}

/// When the fake told the bot about an interaction.
fn sent_at(fake: &FakeDiscord, ix: &InteractionHandle) -> Instant {
    fake.interaction(ix).expect("a known interaction").created
}

/// Looks until `check` finds something, for at most `PATIENCE`.
async fn look<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> Result<T, String> {
    let started = Instant::now();
    loop {
        if let Some(found) = check() {
            return Ok(found);
        }
        if started.elapsed() > PATIENCE {
            return Err(format!("gave up after {PATIENCE:?} waiting for {what}"));
        }
        tokio::time::sleep(LOOK_EVERY).await;
    }
}

/// Waits for the interaction's first response and records how long the bot took.
async fn first_response(
    fake: &FakeDiscord,
    kind: Kind,
    ix: &InteractionHandle,
    samples: &mut Vec<(Kind, Duration)>,
) -> Result<(), String> {
    let took = look(&format!("the first response to a {kind:?}"), || {
        fake.response_time(ix)
    })
    .await?;
    samples.push((kind, took));
    Ok(())
}

/// The visible reply to an interaction (its original response, no longer "thinking…").
async fn reply(fake: &FakeDiscord, ix: &InteractionHandle) -> Result<Message, String> {
    look("the reply", || {
        let original = fake.interaction(ix)?.original?;
        fake.message(original).filter(|m| !m.is_loading())
    })
    .await
}

/// The message once edited (its text or components differ).
async fn changed(fake: &FakeDiscord, before: &Message) -> Result<Message, String> {
    look("the picker to change", || {
        fake.message(before.id)
            .filter(|m| m.content != before.content || m.components != before.components)
    })
    .await
}

/// Waits for the board post of each played move in its thread (`clicks`: thread → when the
/// move was played, and the post's header); returns click → post durations and the threads
/// where no post came.
pub(crate) async fn board_posts(
    fake: &FakeDiscord,
    cursor: &mut MessageId,
    clicks: &HashMap<ChannelId, (Instant, String)>,
) -> (Vec<Duration>, Vec<ChannelId>) {
    let bot = fake.bot_user();
    let mut found: HashMap<ChannelId, Instant> = HashMap::new();
    let started = Instant::now();
    while found.len() < clicks.len() && started.elapsed() < PATIENCE * 4 {
        for m in fake.messages_after(*cursor) {
            *cursor = m.id;
            if let Some((_, header)) = clicks.get(&m.channel)
                && m.author == bot
                && m.content.contains(header.as_str())
            {
                found.entry(m.channel).or_insert(m.posted);
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut took = Vec::new();
    let mut missing = Vec::new();
    for (thread, (click, _)) in clicks {
        match found.get(thread) {
            Some(posted) => took.push(posted.saturating_duration_since(*click)),
            None => missing.push(*thread),
        }
    }
    (took, missing)
}

/// One round's figures.
struct Round {
    players: usize,
    first: Stats,
    to_post: Stats,
    /// From the round's start until the outbox was empty again (posts, DMs, retired prompts).
    drained: Duration,
    all: Duration,
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stats {
    pub(crate) n: usize,
    pub(crate) p50: Duration,
    pub(crate) p99: Duration,
    pub(crate) max: Duration,
}

/// Nearest-rank percentiles.
pub(crate) fn stats(values: impl Iterator<Item = Duration>) -> Stats {
    let mut v: Vec<Duration> = values.collect();
    v.sort();
    let rank = |p: usize| -> Duration {
        if v.is_empty() {
            return Duration::ZERO;
        }
        let i = (p * v.len()).div_ceil(100).max(1) - 1;
        v[i.min(v.len() - 1)]
    };
    Stats {
        n: v.len(),
        p50: rank(50),
        p99: rank(99),
        max: v.last().copied().unwrap_or_default(),
    }
}

pub(crate) fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

fn row(label: &str, s: Stats) -> String {
    format!(
        "{label:<34} {:>6} {:>9} {:>9} {:>9}",
        s.n,
        ms(s.p50),
        ms(s.p99),
        ms(s.max)
    )
}

struct Report<'a> {
    prepare_time: Duration,
    catch_up: Duration,
    connected: Memory,
    after_start: Memory,
    after_load: Memory,
    samples: &'a [(Kind, Duration)],
    to_post: &'a [Duration],
    rounds: &'a [Round],
    stop_time: Duration,
    cpu: f64,
    test_cpu: f64,
    /// The machine's load average (1 min) when the bot started and when it stopped.
    loadavg: (String, String),
    log: &'a str,
}

fn report(r: &Report) {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let build = if cfg!(debug_assertions) {
        "a DEBUG build: run with --release for figures that mean something"
    } else {
        "release build"
    };
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(String::new());
    line(format!(
        "LOAD TEST — the jackal binary (`jackal run`, its own process and tokio runtime, \
         {build}) against the fake Discord; {cores} cores shared with the fake and this test"
    ));
    line(format!(
        "{GAMES} active two-player 13×13 games in {CHANNELS} channels ({MOVERS} between people \
         who move; of the rest, half between people, half against a bot), prepared in {:.1} s; \
         the bot caught up with their start (threads, start posts, first DMs, bots' moves) in \
         {:.1} s",
        r.prepare_time.as_secs_f64(),
        r.catch_up.as_secs_f64()
    ));
    line(format!(
        "{ROUNDS} rounds: in each, the {MOVERS} players on turn act at the same moment, a third \
         each way (\"My moves\" in the thread then the picker, /jackal move after autocomplete, \
         the picker in their DM); the next round starts once the outbox is empty"
    ));
    line(String::new());
    line(format!(
        "{:<34} {:>6} {:>9} {:>9} {:>9}",
        "", "n", "p50", "p99", "max"
    ));
    let firsts = r.samples.iter().map(|(_, d)| *d);
    line(format!(
        "{}   target p99 ≤ 50 ms",
        row("interaction → first response", stats(firsts))
    ));
    let mut by_kind: BTreeMap<Kind, Vec<Duration>> = BTreeMap::new();
    for (k, d) in r.samples {
        by_kind.entry(*k).or_default().push(*d);
    }
    for (k, ds) in &by_kind {
        line(row(k.label(), stats(ds.iter().copied())));
    }
    line(row(
        "click → board post in the thread",
        stats(r.to_post.iter().copied()),
    ));
    line(String::new());
    line(format!(
        "{:<8} {:>7}  {:>21}  {:>21}  {:>9} {:>9}",
        "round", "players", "first resp. p50/p99", "click→post p50/p99", "drained", "round"
    ));
    for (i, round) in r.rounds.iter().enumerate() {
        line(format!(
            "{:<8} {:>7}  {:>21}  {:>21}  {:>9} {:>9}",
            i + 1,
            round.players,
            format!("{} / {}", ms(round.first.p50), ms(round.first.p99)),
            format!("{} / {}", ms(round.to_post.p50), ms(round.to_post.p99)),
            ms(round.drained),
            ms(round.all)
        ));
    }
    line(String::new());
    line("memory of the bot (VmRSS / VmHWM peak)      target RSS ≤ 150 MB".into());
    for (what, m) in [
        ("connected, before catching up", r.connected),
        ("1,000 games started and caught up", r.after_start),
        ("after the rounds of moves", r.after_load),
    ] {
        line(format!(
            "  {what:<36} {:>7.1} MiB / {:>7.1} MiB   ({} threads)",
            m.rss, m.peak, m.threads
        ));
    }
    line(format!(
        "CPU: the bot {:.1} s, this test with the fake {:.1} s; exit on SIGTERM after {}",
        r.cpu,
        r.test_cpu,
        ms(r.stop_time)
    ));
    line(format!(
        "the machine's load average (1 min): {} when the bot started, {} at its stop",
        r.loadavg.0, r.loadavg.1
    ));
    let warnings: Vec<&str> = r
        .log
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR"))
        .collect();
    line(format!(
        "the bot logged {} warning(s) or error(s)",
        warnings.len()
    ));
    for w in warnings.iter().take(8) {
        line(format!("  {w}"));
    }
    println!("{out}");
}
