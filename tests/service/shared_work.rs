//! Work that bot processes sharing a database share (issue 41): due timers and outbox rows,
//! each claimed under a lease before it is fired or sent. Two services with workers of their
//! own stand for two processes; on an SQLite file as on PostgreSQL (`scripts/pg-test`).

use std::collections::HashMap;
use std::time::Duration;

use jackal::game::Worker;
use jackal::store::Lease;

use super::*;

/// The same database as `f`'s service, served by a process of its own.
fn another_process(f: &Fixture) -> GameService {
    restarted(f).with_worker(Worker::new(true))
}

/// Duels whose first deadline (12 hours) and its reminder have passed.
fn overdue_duels(f: &Fixture, count: usize) -> Vec<GameId> {
    let mut config = small_config();
    config.set("turn_time", "12h").unwrap();
    config.set("reminder", "2h").unwrap();
    let ids = (0..count)
        .map(|n| duel_with(f, config.clone(), 100 + n as u64))
        .collect();
    f.clock.advance_ms(13 * HOUR);
    ids
}

/// Every timed-out turn of `fired`, counted by game (and reminders, which fire first).
fn timeouts(fired: &[Fired]) -> HashMap<GameId, usize> {
    let mut count = HashMap::new();
    for fired in fired {
        if let Fired::TimedOut { game_id, .. } = fired {
            *count.entry(*game_id).or_default() += 1;
        }
    }
    count
}

/// The reminders of game `id` in `fired`.
fn reminders_of(fired: &[Fired], id: GameId) -> usize {
    fired
        .iter()
        .filter(|f| matches!(f, Fired::Reminded { game_id, .. } if *game_id == id))
        .count()
}

/// Two processes fire one burst of due deadlines at once: every deadline fires once, and each
/// game moved on by one turn.
#[test]
fn two_processes_fire_a_burst_of_timers_once_each() {
    let f = fixture();
    let ids = overdue_duels(&f, 24);
    let a = Arc::new(restarted(&f).with_worker(Worker::new(true)));
    let b = Arc::new(another_process(&f));
    let (fired_a, fired_b) = std::thread::scope(|scope| {
        let (a, b) = (a.clone(), b.clone());
        let ta = scope.spawn(move || a.fire_due_timers().unwrap());
        let tb = scope.spawn(move || b.fire_due_timers().unwrap());
        (ta.join().unwrap(), tb.join().unwrap())
    });
    let (by_a, by_b) = (timeouts(&fired_a), timeouts(&fired_b));
    for id in &ids {
        // A reminder is sent once at most. Not always once: while one process holds a game's
        // reminder (due first), the other may time the turn out, and a reminder of a turn
        // that is over is stale, not sent.
        let reminded = reminders_of(&fired_a, *id) + reminders_of(&fired_b, *id);
        assert!(reminded <= 1, "game {id}: a: {fired_a:?}\nb: {fired_b:?}");
        let times = by_a.get(id).unwrap_or(&0) + by_b.get(id).unwrap_or(&0);
        assert_eq!(times, 1, "game {id}: a: {fired_a:?}\nb: {fired_b:?}");
        assert_eq!(
            a.game(*id).unwrap().state.unwrap().controller(),
            Team::of(2)
        );
    }
    assert!(a.fire_due_timers().unwrap().is_empty());
    assert!(b.fire_due_timers().unwrap().is_empty());
}

/// A process that claimed timers and died holds them up for its lease, no longer: another
/// process leaves them alone meanwhile, sleeps until the lease lapses, and then fires them.
#[test]
fn timers_a_dead_process_claimed_fire_once_its_lease_lapses() {
    let f = fixture();
    let ids = overdue_duels(&f, 3);
    let dead = Worker::new(true).with_lease(Duration::from_secs(30));
    let now = f.clock.now_ms();
    {
        let conn = f.service.store().conn().unwrap();
        for id in &ids {
            for timer in store::game_timers(&conn, *id).unwrap() {
                if timer.due_at <= now {
                    assert!(store::claim_timer(&conn, &timer, dead.lease(now)).unwrap());
                }
            }
        }
    }
    let survivor = another_process(&f);
    assert!(survivor.fire_due_timers().unwrap().is_empty(), "held");
    assert_eq!(
        survivor.next_timer_due().unwrap(),
        Some(now + 30_000),
        "the survivor sleeps until the lease lapses, not in a loop on a held timer"
    );
    f.clock.advance_ms(30_000);
    let fired = survivor.fire_due_timers().unwrap();
    let by_survivor = timeouts(&fired);
    assert_eq!(by_survivor.len(), 3, "{fired:?}");
    assert!(by_survivor.values().all(|n| *n == 1));
    // A claim on a timer of a turn that has passed does not carry over to the next turn's.
    let conn = f.service.store().conn().unwrap();
    for id in &ids {
        for timer in store::game_timers(&conn, *id).unwrap() {
            if timer.fired_at.is_none() {
                let lease = Lease {
                    holder: "someone else",
                    now: f.clock.now_ms(),
                    until: f.clock.now_ms() + 1,
                };
                assert!(
                    store::claim_timer(&conn, &timer, lease).unwrap(),
                    "unclaimed"
                );
            }
        }
    }
}

/// The outbox: rows another process claimed are shown held until its lease lapses; a game's
/// rows are claimed in order, never past one held by another; rows let go or failed are free
/// at once.
#[test]
fn outbox_rows_are_claimed_in_order_under_a_lease() {
    let f = fixture();
    let id = duel(&f);
    let mv = first_move(&f, id, ALICE);
    f.service.act(ALICE, id, 0, &mv).unwrap();
    let a = restarted(&f)
        .with_worker(Worker::new(true))
        .with_lease(Duration::from_secs(10));
    let b = another_process(&f);
    let rows: Vec<i64> = a
        .pending_messages()
        .unwrap()
        .iter()
        .filter(|q| q.message.game_id() == Some(id))
        .map(|q| q.id)
        .collect();
    assert!(
        rows.len() >= 3,
        "the start, the DMs and the move's post: {rows:?}"
    );
    let (first, rest) = rows.split_at(1);
    assert_eq!(a.claim_messages(first).unwrap(), first);
    // B sees the first row held, and cannot claim the game's rows past it.
    let held: Vec<Option<i64>> = b
        .pending_messages()
        .unwrap()
        .iter()
        .filter(|q| rows.contains(&q.id))
        .map(|q| q.held_until)
        .collect();
    let until = f.clock.now_ms() + 10_000;
    assert_eq!(held[0], Some(until));
    assert!(held[1..].iter().all(Option::is_none), "{held:?}");
    assert_eq!(b.claim_messages(&rows).unwrap(), Vec::<i64>::new());
    assert_eq!(
        b.next_message_due().unwrap(),
        Some(f.clock.now_ms()),
        "its other rows"
    );
    // A's own look does not show its claim as held.
    assert!(
        a.pending_messages()
            .unwrap()
            .iter()
            .all(|q| q.held_until.is_none())
    );
    // Once the lease lapses, B takes the game's rows over, in order.
    f.clock.advance_ms(10_000);
    assert_eq!(b.claim_messages(&rows).unwrap(), rows);
    assert_eq!(
        a.claim_messages(first).unwrap(),
        Vec::<i64>::new(),
        "B's now"
    );
    // Let go, they are anyone's at once; a failed send lets go too.
    b.release_messages(rest).unwrap();
    assert_eq!(a.claim_messages(rest).unwrap(), rest);
    b.message_failed(first[0], "503", 1_000).unwrap();
    f.clock.advance_ms(1_000);
    assert_eq!(a.claim_messages(first).unwrap(), first);
    // Sent, a row is nobody's to claim.
    a.message_sent(first[0]).unwrap();
    assert_eq!(b.claim_messages(first).unwrap(), Vec::<i64>::new());
}

/// A game's timer fires once a call: a bots' game moves one turn, not to its end, and the next
/// bot's timer its move set is left unclaimed, for any process to fire at once.
#[test]
fn a_timer_set_by_a_firing_waits_unclaimed_for_the_next_look() {
    let f = fixture();
    let id = bots_duel(&f, here(), small_config(), 5);
    let moved = |fired: &[Fired]| {
        fired
            .iter()
            .filter(|x| matches!(x, Fired::BotMoved { game_id, .. } if *game_id == id))
            .count()
    };
    f.clock.advance_ms(HOUR);
    let a = restarted(&f).with_worker(Worker::new(true));
    let first = a.fire_due_timers().unwrap();
    assert_eq!(moved(&first), 1, "{first:?}");
    let ply = a.game(id).unwrap().ply;
    // At once: the first process holds no claim on it.
    let b = another_process(&f);
    let second = b.fire_due_timers().unwrap();
    assert_eq!(
        moved(&second),
        1,
        "not held by the first process: {second:?}"
    );
    assert!(b.game(id).unwrap().ply > ply);
}
