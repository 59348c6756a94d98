//! Scheduler scale: the real bot (`jackal run`) with 10,000 games in its database, of which
//! 1,000 have their deadline in the same second (as after a day of downtime), while 100
//! players move at that moment. Each overdue deadline must fire exactly once, in due order,
//! and the players' interactions must still get their first response at once.
//!
//! Ignored by `cargo test` (it takes minutes). Run it built with optimisations:
//!
//! ```sh
//! cargo test --release --test discord_bot burst -- --ignored --nocapture
//! ```
//!
//! It prints its figures and fails only if the bot does not do its job: a deadline fired
//! twice, out of order or never, an interaction left unanswered, an unclean exit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use jackal::game::Notice;
use jackal::game::{Actor, Clock, GameConfig, GameService, Location, OutboxMessage, SystemClock};
use jackal::store::{self, Durability, GameId, Store};
use serenity::all::ChannelId;
use tokio::sync::Barrier;

use crate::fake_discord::{self, FakeDiscord};
use crate::load::{
    Bot, Kind, MOVERS, PATIENCE, PreparedGame, WAYS, Way, caught_up, loadavg, ms, own_cpu_seconds,
    play_turn, stats, turn,
};

/// Games in the database.
const GAMES: usize = 10_000;
/// Of which this many have their deadline in the same second.
const DUE: usize = 1_000;
/// Rounds the movers play after the deadlines fired (and as many as fit while they fire).
const ROUNDS: usize = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a scale test: cargo test --release --test discord_bot burst -- --ignored --nocapture"]
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
        conn.execute(
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
        let tx = conn.transaction().expect("a transaction");
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
    // scheduler, as any commit does): with `/jackal move`, which needs no post of the bot's
    // (those queue behind the burst's), until every deadline has fired; then a few rounds
    // more, each way, once the outbox is empty, for comparison.
    let burst = Instant::now();
    // Each round's first responses, with when the round began and ended (since the second).
    let mut rounds: Vec<(Duration, Duration, Vec<Duration>)> = Vec::new();
    let mut errors = Vec::new();
    let mut after = 0;
    let mut round = 0;
    while after < ROUNDS && round < 100 {
        let firing = timed_out(&service, &due_ids).len() < DUE;
        if !firing {
            wait_posted(&service).await;
            after += 1;
        }
        let began = burst.elapsed();
        let turns: Vec<_> = games[..MOVERS]
            .iter()
            .enumerate()
            .filter_map(|(i, g)| {
                let way = if firing {
                    Way::Command
                } else {
                    WAYS[(i + round) % WAYS.len()]
                };
                turn(&fake, &service, g, way)
            })
            .collect();
        let go = Arc::new(Barrier::new(turns.len()));
        let mut tasks = tokio::task::JoinSet::new();
        for t in turns {
            let (fake, go) = (Arc::clone(&fake), Arc::clone(&go));
            tasks.spawn(async move { play_turn(&fake, t, &go).await });
        }
        let mut these = Vec::new();
        while let Some(done) = tasks.join_next().await {
            let p = done.expect("a player's task panicked");
            these.extend(
                p.samples
                    .iter()
                    .filter(|(k, _)| *k != Kind::Autocomplete)
                    .map(|(_, d)| *d),
            );
            if let Some(e) = p.error {
                errors.push(format!("round {}: game #{}: {e}", round + 1, p.game));
            }
        }
        rounds.push((began, burst.elapsed(), these));
        round += 1;
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
    // The interactions of the rounds that began while deadlines were still firing.
    let burst_ms = Duration::from_millis((last_fired - burst_start).max(0) as u64);
    let during: Vec<Duration> = rounds
        .iter()
        .filter(|(began, _, _)| *began < burst_ms)
        .flat_map(|(_, _, d)| d.iter().copied())
        .collect();
    let first = stats(during.iter().copied());
    let per_round: Vec<String> = rounds
        .iter()
        .enumerate()
        .map(|(i, (began, ended, d))| {
            let s = stats(d.iter().copied());
            format!(
                "round {} ({:.1}–{:.1} s): n={} p50 {} · p99 {} · max {}",
                i + 1,
                began.as_secs_f64(),
                ended.as_secs_f64(),
                s.n,
                ms(s.p50),
                ms(s.p99),
                ms(s.max)
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
         interactions during the burst  n={} first response p50 {} · p99 {} · max {} (target p99 ≤ 50 ms)\n\
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
        first.n,
        ms(first.p50),
        ms(first.p99),
        ms(first.max),
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
                guild_id: Some(guild),
                channel_id: Some(channels[g % channels.len()].get()),
                thread_id: None,
            };
            let who = Actor::user(owner.get());
            let id = service
                .create_lobby(who, location, "en", GameConfig::default(), Some(1))
                .expect("a lobby");
            service
                .join(Actor::user(second.get()), id, Some(2))
                .expect("join");
            service.start_with_seed(who, id, id as u64).expect("start");
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
