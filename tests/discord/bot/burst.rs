//! Scheduler scale: the real bot (`jackal run`) with 10,000 games in its database, of which
//! 1,000 have their deadline in the same second (as after a day of downtime), while 100
//! players move at that moment. Each overdue deadline must fire exactly once, in due order,
//! and the players' interactions must still get their first response at once.
//!
//! Ignored by `cargo test` (it takes minutes). Run it built with optimisations:
//!
//! ```sh
//! cargo test --release --test discord burst -- --ignored --nocapture
//! ```
//!
//! It prints its figures and fails only if the bot does not do its job: a deadline fired
//! twice, out of order or never, an interaction left unanswered, an unclean exit.

use jackal::id::GameId;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jackal::game::Notice;
use jackal::game::{Actor, Clock, GameConfig, GameService, Location, OutboxMessage, SystemClock};
use jackal::store::{self, Durability, Store};
use serenity::all::ChannelId;
use tokio::sync::Barrier;

use crate::bot::load::{
    Bot, Kind, MOVERS, PATIENCE, PreparedGame, WAYS, Way, caught_up, loadavg, ms, own_cpu_seconds,
    play_turn, stats, turn,
};
use fake_discord::{self, FakeDiscord};

/// Games in the database.
const GAMES: usize = 10_000;
/// Of which this many have their deadline in the same second.
const DUE: usize = 1_000;
/// Rounds the movers play once the outbox is empty (and as many as fit before).
const QUIET_ROUNDS: usize = 4;
/// How long a round of players acting one after another takes to begin.
const SPREAD: Duration = Duration::from_secs(1);

/// What the bot was doing when a round began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Deadlines were still firing.
    Firing,
    /// Every deadline had fired; the bot was still posting what they caused.
    Posting,
    /// Nothing left to post.
    Quiet,
}

impl Phase {
    fn label(self) -> &'static str {
        match self {
            Phase::Firing => "while the deadlines fired",
            Phase::Posting => "while their posts went out",
            Phase::Quiet => "quiet (outbox empty)",
        }
    }
}

/// How a round's players set off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arrival {
    /// All at the same moment.
    Together,
    /// One after another, evenly over [`SPREAD`].
    Spread,
}

impl Arrival {
    fn label(self) -> &'static str {
        match self {
            Arrival::Together => "100 in the same instant",
            Arrival::Spread => "100 over one second",
        }
    }
}

/// One round: when, how, and each interaction's first response (autocompletes aside), whole
/// and split in two: until the fake wrote it to the bot's socket, and from then until the
/// answer reached the fake (the bot's work, and the fake's accepting the request).
struct RoundResult {
    phase: Phase,
    arrival: Arrival,
    began: Duration,
    ended: Duration,
    firsts: Vec<Duration>,
    splits: Vec<(Duration, Duration)>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a scale test: cargo test --release --test discord burst -- --ignored --nocapture"]
async fn burst_10000_games_1000_deadlines_in_one_second_100_players_moving() {
    let fake = Arc::new(
        FakeDiscord::start_with(fake_discord::Config {
            wait_timeout: Duration::from_secs(60),
            ..fake_discord::Config::default()
        })
        .await,
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("jackal.db");
    let prepared = Instant::now();
    let store = Store::open_with(&db, Durability::Normal).expect("open the database");
    let service = GameService::new(Arc::new(store), Arc::new(SystemClock) as Arc<dyn Clock>);
    let games = prepare(&fake, &service);
    // Every game but the movers' has long been running: its start was posted then.
    {
        let conn = service.store().conn().expect("a connection");
        conn.raw()
            .execute(
                "UPDATE outbox SET sent_at = ?1 WHERE game_id > ?2",
                rusqlite::params![service.now_ms(), MOVERS as i64],
            )
            .expect("mark the old games' posts sent");
    }
    let prepare_time = prepared.elapsed();

    let mut bot = Bot::start(&fake, dir.path(), &db);
    fake.wait_identified(1).await;
    fake.wait_commands(&["jackal"]).await;
    let catch_up = caught_up(&service, &mut bot).await;

    // 1,000 deadlines, one a millisecond, in the same second three seconds from now.
    let due_ids: Vec<GameId> = games[MOVERS..MOVERS + DUE].iter().map(|g| g.id).collect();
    let second = service.now_ms() + 3_000;
    let due_at = |i: usize| second - second % 1000 + 1000 + i as i64;
    {
        let mut conn = service.store().conn().expect("a connection");
        let tx = conn.raw_mut().transaction().expect("a transaction");
        for (i, id) in due_ids.iter().enumerate() {
            let moved = tx
                .execute(
                    "UPDATE timers SET due_at = ?2 WHERE game_id = ?1 AND kind = 'deadline'",
                    rusqlite::params![id, due_at(i)],
                )
                .expect("move a deadline");
            assert_eq!(moved, 1, "game #{id} has a person's deadline");
        }
        tx.commit().expect("commit");
    }
    let burst_start = due_at(0);
    while service.now_ms() < burst_start {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // The movers play round after round while the deadlines fire (their first move wakes the
    // scheduler, as any commit does) and while the bot then posts what they caused, with
    // `/jackal move`, which needs no post of the bot's (those queue behind the burst's); then
    // a few rounds more, each way, once the outbox is empty, for comparison. Rounds alternate
    // between the players acting at the same moment (a stress no server sees: a hundred
    // presses in one millisecond) and one after another over a second (a hundred a second,
    // still far more than a busy server's players make).
    let burst = Instant::now();
    let mut rounds: Vec<RoundResult> = Vec::new();
    let mut errors = Vec::new();
    let mut quiet = 0;
    while quiet < QUIET_ROUNDS && rounds.len() < 200 {
        let phase = if timed_out(&service, &due_ids).len() < DUE {
            Phase::Firing
        } else if burst_rows_unsent(&service) && !rounds.iter().any(|r| r.phase == Phase::Quiet) {
            Phase::Posting
        } else {
            // The previous round's posts must be out: the other ways start from them.
            wait_posted(&service).await;
            quiet += 1;
            Phase::Quiet
        };
        let arrival = if rounds.len().is_multiple_of(2) {
            Arrival::Together
        } else {
            Arrival::Spread
        };
        let began = burst.elapsed();
        let began_at = Instant::now();
        let turns: Vec<_> = games[..MOVERS]
            .iter()
            .enumerate()
            .filter_map(|(i, g)| {
                let way = match phase {
                    Phase::Quiet => WAYS[(i + rounds.len()) % WAYS.len()],
                    _ => Way::Command,
                };
                turn(&fake, &service, g, way)
            })
            .collect();
        let n = turns.len().max(1) as u32;
        let go = Arc::new(Barrier::new(turns.len()));
        let mut tasks = tokio::task::JoinSet::new();
        for (i, t) in turns.into_iter().enumerate() {
            let (fake, go) = (Arc::clone(&fake), Arc::clone(&go));
            let delay = SPREAD * i as u32 / n;
            tasks.spawn(async move {
                match arrival {
                    Arrival::Together => play_turn(&fake, t, &go).await,
                    Arrival::Spread => {
                        tokio::time::sleep(delay).await;
                        play_turn(&fake, t, &Barrier::new(1)).await
                    }
                }
            });
        }
        let mut firsts = Vec::new();
        while let Some(done) = tasks.join_next().await {
            let p = done.expect("a player's task panicked");
            firsts.extend(
                p.samples
                    .iter()
                    .filter(|(k, _)| *k != Kind::Autocomplete)
                    .map(|(_, d)| *d),
            );
            if let Some(e) = p.error {
                errors.push(format!("round {}: game #{}: {e}", rounds.len() + 1, p.game));
            }
        }
        rounds.push(RoundResult {
            phase,
            arrival,
            began,
            ended: burst.elapsed(),
            firsts,
            splits: fake.response_splits_since(began_at),
        });
    }
    let started = Instant::now();
    while timed_out(&service, &due_ids).len() < DUE && started.elapsed() < PATIENCE * 20 {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    wait_posted(&service).await;
    let drained = burst.elapsed();

    // Exactly once each, in due order.
    let notices = timed_out(&service, &due_ids);
    for id in &due_ids {
        let n = notices.iter().filter(|g| *g == id).count();
        if n != 1 {
            errors.push(format!("game #{id}: {n} time-out notices"));
        }
    }
    let played_at: Vec<i64> = due_ids
        .iter()
        .map(|id| {
            let conn = service.store().conn().expect("a connection");
            store::actions_after(&conn, *id, 0)
                .expect("the log")
                .first()
                .map_or(i64::MAX, |a| a.created_at)
        })
        .collect();
    let out_of_order = played_at.windows(2).filter(|w| w[0] > w[1]).count();
    if out_of_order > 0 {
        errors.push(format!(
            "{out_of_order} deadlines fired before an earlier one"
        ));
    }
    let first_fired = played_at.iter().min().copied().unwrap_or(0);
    let last_fired = played_at.iter().max().copied().unwrap_or(0);

    let (status, _) = bot.terminate();
    let summary: Vec<String> = [Phase::Firing, Phase::Posting, Phase::Quiet]
        .into_iter()
        .flat_map(|phase| [Arrival::Spread, Arrival::Together].map(|a| (phase, a)))
        .map(|(phase, arrival)| {
            let of = |r: &&RoundResult| r.phase == phase && r.arrival == arrival;
            let these: Vec<&RoundResult> = rounds.iter().filter(of).collect();
            let s = stats(these.iter().flat_map(|r| r.firsts.iter().copied()));
            let after_written = stats(these.iter().flat_map(|r| r.splits.iter().map(|(_, b)| *b)));
            format!(
                "  {:<34} {:<24} rounds {:>2}  n={:<5} p50 {:>7} · p99 {:>7} · max {:>7}  \
                 (after the fake wrote it out: p99 {})",
                phase.label(),
                arrival.label(),
                these.len(),
                s.n,
                ms(s.p50),
                ms(s.p99),
                ms(s.max),
                ms(after_written.p99),
            )
        })
        .collect();
    let per_round: Vec<String> = rounds
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let s = stats(r.firsts.iter().copied());
            let fake_part = stats(r.splits.iter().map(|(f, _)| *f));
            format!(
                "  round {:>2} {:<7} {:<8} ({:>5.1}–{:>5.1} s): n={} p50 {} · p99 {} · max {} \
                 (the fake's own queue p99 {})",
                i + 1,
                format!("{:?}", r.phase),
                format!("{:?}", r.arrival),
                r.began.as_secs_f64(),
                r.ended.as_secs_f64(),
                s.n,
                ms(s.p50),
                ms(s.p99),
                ms(s.max),
                ms(fake_part.p99),
            )
        })
        .collect();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    eprintln!(
        "\nscheduler burst ({}; {cores} cores, load {})\n\
         games in the database          {GAMES}\n\
         prepared in                    {:.1} s; the bot caught up in {:.1} s\n\
         deadlines due in one second    {DUE}\n\
         fired: first {} ms after due, last {} ms after due ({:.0} deadlines/s)\n\
         outbox drained                 {:.1} s after the second began\n\
         first responses to the players' interactions (target: p99 ≤ 50 ms during the burst)\n\
         {}\n\
         rounds, in order\n\
         {}\n\
         deadlines fired twice or never {}; out of order {out_of_order}\n\
         CPU: the bot {:.1} s, this test with the fake and the players {:.1} s",
        if cfg!(debug_assertions) {
            "DEBUG build"
        } else {
            "release build"
        },
        loadavg(),
        prepare_time.as_secs_f64(),
        catch_up.as_secs_f64(),
        first_fired - burst_start,
        last_fired - burst_start,
        DUE as f64 / ((last_fired - first_fired).max(1) as f64 / 1000.0),
        drained.as_secs_f64(),
        summary.join("\n"),
        per_round.join("\n"),
        errors
            .iter()
            .filter(|e| e.contains("time-out notices"))
            .count(),
        bot.cpu_seconds_at_exit,
        own_cpu_seconds(),
    );
    assert!(status.success(), "the bot exited with {status}");
    assert!(
        errors.is_empty(),
        "{} thing(s) went wrong:\n  {}",
        errors.len(),
        errors.join("\n  ")
    );
}

/// 10,000 two-player games between people on the classic 13×13 island over ten channels:
/// the first `MOVERS` between players who will move, the rest between players who will not.
fn prepare(fake: &FakeDiscord, service: &GameService) -> Vec<PreparedGame> {
    let channels: Vec<ChannelId> = (0..10)
        .map(|c| fake.add_text_channel(&format!("jackal-{c}"), Vec::new()))
        .collect();
    let guild = fake.guild().get();
    (0..GAMES)
        .map(|g| {
            let owner = fake.add_member(&format!("p{g}a"));
            let second = fake.add_member(&format!("p{g}b"));
            let location = Location {
                guild_id: Some(jackal::id::GuildId::new(guild)),
                channel_id: Some(channels[g % channels.len()].into()),
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
            service
                .join(Actor::user(second.into()), id, Some(2))
                .expect("join");
            service
                .start_with_seed(who, id, id.get() as u64)
                .expect("start");
            PreparedGame {
                id,
                people: [Some(owner), Some(second)],
            }
        })
        .collect()
}

/// The games of `ids` with a "time ran out" notice, once per notice.
fn timed_out(service: &GameService, ids: &[GameId]) -> Vec<GameId> {
    let conn = service.store().conn().expect("a connection");
    let mut out = Vec::new();
    let mut stmt = conn
        .raw()
        .prepare("SELECT payload FROM outbox WHERE kind = 'notice'")
        .expect("a query");
    let rows = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .expect("notices");
    for payload in rows {
        if let Ok(OutboxMessage::Notice {
            game_id,
            notice: Notice::TimedOut { .. },
        }) = serde_json::from_str(&payload.expect("a row"))
            && ids.contains(&game_id)
        {
            out.push(game_id);
        }
    }
    out
}

/// Are posts caused by the deadlines still unsent (rows of games other than the movers')?
fn burst_rows_unsent(service: &GameService) -> bool {
    let conn = service.store().conn().expect("a connection");
    conn.raw()
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM outbox WHERE sent_at IS NULL AND game_id > ?1)",
            [MOVERS as i64],
            |r| r.get(0),
        )
        .expect("the outbox")
}

/// Waits until the outbox is empty (the movers' boards and DMs are out).
async fn wait_posted(service: &GameService) {
    let started = Instant::now();
    while !service.pending_messages().expect("the outbox").is_empty() {
        assert!(
            started.elapsed() < PATIENCE * 20,
            "the outbox did not drain"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
