//! The outbox sender: delivers the rows the game service wrote with each change (board
//! posts, "your turn" DMs, reminders, notices, endings), each once, after its commit.
//!
//! - Rows of one game go in order, one game's rows at a time; different games' rows go side
//!   by side (a slow render in one game does not hold up the others).
//! - A 429 waits its `retry_after`; a 5xx or a lost connection is retried with backoff; a
//!   refusal that will not change (403, 404) is given up on with the reason logged, and a
//!   deleted thread archives its game.
//! - Channel messages carry a `nonce` with `enforce_nonce`: if the bot dies after Discord
//!   created a message but before the row was marked sent, the resend after the restart
//!   gets the same message back instead of posting a second one.
//!
//! This module is the queue (which rows go now, in what order); `retry` is the retry policy,
//! `deliver` sends one row by its kind, through `start`, `private`, `notice` and `closing`.

use crate::id::GameId;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use super::types::Data;
use crate::game::Queued;

mod closing;
mod deliver;
mod notice;
mod private;
mod retry;
mod start;

use closing::*;
use deliver::*;
use notice::*;
use private::*;
use retry::*;
use start::*;

/// How long the sender sleeps at most before looking again (it is woken after every
/// commit; this bounds the cost of a missed wake-up).
const IDLE: Duration = Duration::from_secs(30);
/// 429s shorter than this are waited out at once; longer ones go back to the queue.
const WAIT_IN_PLACE: Duration = Duration::from_secs(10);

/// Games whose rows are being sent at once. After a burst (a thousand deadlines that came due
/// together) every game has a post to make; a task for each at once would fill the async
/// threads' queues, and the interactions of players waiting for an answer would queue behind
/// them. The rest wait for the next pass.
const MAX_SENDING: usize = 16;

/// Runs until `stop` turns true, then finishes what is in flight.
pub async fn run(data: Data, mut stop: watch::Receiver<bool>) {
    let busy: Arc<Mutex<HashSet<Option<GameId>>>> = Arc::default();
    let mut workers = tokio::task::JoinSet::new();
    loop {
        if *stop.borrow() {
            break;
        }
        // A set of busy games that cannot be read (a worker panicked holding it) sends
        // nothing rather than risk two workers on one game.
        let free = MAX_SENDING.saturating_sub(workers.len());
        let busy_now = busy.lock().map(|b| b.clone()).ok().filter(|_| free > 0);
        let mut next_due: Option<i64> = None;
        if let Some(busy_now) = busy_now {
            let look = data.call(move |s| {
                let mut pass = Pass::new(s.now_ms(), busy_now, free);
                s.walk_pending_messages(|row| pass.take(row))?;
                pass.claim(s)?;
                Ok(pass)
            });
            match look.await {
                Ok(pass) => {
                    next_due = pass.next_due;
                    for (game, rows) in pass.ready {
                        if let Ok(mut b) = busy.lock() {
                            b.insert(game);
                        }
                        let (data, busy) = (data.clone(), Arc::clone(&busy));
                        workers.spawn(async move {
                            send_in_order(&data, rows).await;
                            if let Ok(mut b) = busy.lock() {
                                b.remove(&game);
                            }
                            // The game's later rows, written meanwhile, are for the next pass.
                            data.wake_outbox.notify_one();
                        });
                    }
                }
                Err(e) => tracing::error!(error = %e, "the outbox could not be read"),
            }
        }
        let sleep = match next_due {
            Some(due) => {
                let now = data.service.now_ms();
                Duration::from_millis(due.saturating_sub(now).max(0) as u64)
                    .min(data.longest_sleep(IDLE))
            }
            None => data.longest_sleep(IDLE),
        };
        tokio::select! {
            _ = data.wake_outbox.notified() => {}
            _ = tokio::time::sleep(sleep) => {}
            _ = stop.changed() => {}
            Some(_) = workers.join_next(), if !workers.is_empty() => {}
        }
        // Reap finished workers without waiting.
        while workers.try_join_next().is_some() {}
    }
    // Stopping: what is in flight finishes; nothing new starts.
    while workers.join_next().await.is_some() {}
}

/// One look at the backlog, oldest row first: the games whose rows go now (at most `free`
/// of them, each with its rows so far in order; the rest of a game's rows are for a later
/// pass), and when the first game held back by a backoff may go. It looks no further than it
/// must: once its slots are full, the first row of a new game ends the look.
struct Pass {
    now: i64,
    busy: HashSet<Option<GameId>>,
    free: usize,
    ready: Vec<(Option<GameId>, Vec<Queued>)>,
    /// Every game seen so far: its place in `ready`, or `None` when its rows wait (a worker
    /// is sending the game's earlier rows, or its first row is in backoff), and with them
    /// every later row of the game, which must not overtake them.
    seen: HashMap<Option<GameId>, Option<usize>>,
    next_due: Option<i64>,
}

impl Pass {
    fn new(now: i64, busy: HashSet<Option<GameId>>, free: usize) -> Pass {
        Pass {
            now,
            busy,
            free,
            ready: Vec::new(),
            seen: HashMap::new(),
            next_due: None,
        }
    }

    /// Takes the next row; `false` once the look is over.
    fn take(&mut self, row: Queued) -> bool {
        let game = row.message.game_id();
        if let Some(until) = row.held_until {
            // Another process is sending it: the game's rows from here on are not ours now.
            self.next_due = Some(self.next_due.map_or(until, |d| d.min(until)));
            self.seen.insert(game, None);
            return true;
        }
        match self.seen.get(&game) {
            Some(Some(at)) => self.ready[*at].1.push(row),
            Some(None) => {}
            None if self.ready.len() >= self.free => return false,
            None if self.busy.contains(&game) => {
                self.seen.insert(game, None);
            }
            None if row.not_before > self.now => {
                self.next_due = Some(
                    self.next_due
                        .map_or(row.not_before, |d| d.min(row.not_before)),
                );
                self.seen.insert(game, None);
            }
            None => {
                self.seen.insert(game, Some(self.ready.len()));
                self.ready.push((game, vec![row]));
            }
        }
        true
    }
}

impl Pass {
    /// Claims the rows of the games that go now, for this process (other processes may share
    /// the database): a game keeps the rows claimed, a prefix of its own; a game whose first
    /// row another process claimed since the look goes no further now.
    fn claim(&mut self, service: &crate::game::GameService) -> crate::game::Result<()> {
        for (_, rows) in &mut self.ready {
            let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
            let claimed = service.claim_messages(&ids)?.len();
            rows.truncate(claimed);
        }
        self.ready.retain(|(_, rows)| !rows.is_empty());
        Ok(())
    }
}

/// Sends a game's rows in order, stopping at the first that must wait; the rows from there on
/// are let go for any process to send once it may. Each row's claim is renewed just before it
/// is sent: a row whose claim lapsed meanwhile (a long wait on a 429) and was taken by another
/// process is that process's now, with the rest of the game's rows.
async fn send_in_order(data: &Data, rows: Vec<Queued>) {
    let now = data.service.now_ms();
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    for (at, row) in rows.into_iter().enumerate() {
        let id = row.id;
        if row.not_before > now {
            release(data, &ids[at..]).await;
            return;
        }
        match data.call(move |s| s.claim_messages(&[id])).await {
            Ok(claimed) if claimed == [id] => {}
            Ok(_) => {
                tracing::info!(row = id, "another process sends this game's messages now");
                release(data, &ids[at + 1..]).await;
                return;
            }
            Err(e) => {
                tracing::warn!(row = id, error = %e, "a message's claim could not be renewed");
                release(data, &ids[at..]).await;
                return;
            }
        }
        match deliver_with_retries(data, &row).await {
            Ok(_) => {
                if let Err(e) = data.call(move |s| s.message_sent(id)).await {
                    tracing::error!(row = id, error = %e, "a sent message could not be marked");
                    release(data, &ids[at + 1..]).await;
                    return;
                }
            }
            Err(Failure::Retry { after, why }) => {
                tracing::warn!(row = id, %why, ?after, "a message will be retried");
                let ms = after.as_millis() as i64;
                let _ = data.call(move |s| s.message_failed(id, &why, ms)).await;
                release(data, &ids[at + 1..]).await;
                return;
            }
            Err(Failure::GiveUp(why)) => {
                tracing::warn!(row = id, %why, "a message was given up on");
                let _ = data.call(move |s| s.message_given_up(id, &why)).await;
            }
        }
    }
}

/// Lets go of this process's claims on `ids` (those another process holds stay its own).
async fn release(data: &Data, ids: &[i64]) {
    if ids.is_empty() {
        return;
    }
    let ids = ids.to_vec();
    if let Err(e) = data.call(move |s| s.release_messages(&ids)).await {
        tracing::warn!(error = %e, "claimed messages could not be let go");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{OutboxMessage, Target};

    fn game(n: i64) -> GameId {
        GameId::new(n).unwrap()
    }

    fn row(id: i64, game_number: i64, not_before: i64) -> Queued {
        Queued {
            id,
            target: Target::Game,
            message: OutboxMessage::TurnOver {
                game_id: game(game_number),
                ply: 1,
            },
            attempts: 0,
            created_at: 0,
            not_before,
            held_until: None,
        }
    }

    fn ids(rows: &[Queued]) -> Vec<i64> {
        rows.iter().map(|r| r.id).collect()
    }

    #[test]
    fn a_pass_fills_its_slots_in_order_and_looks_no_further() {
        let mut pass = Pass::new(100, HashSet::new(), 2);
        assert!(pass.take(row(1, 10, 0)));
        assert!(pass.take(row(2, 20, 0)));
        // Both slots are taken: a game already chosen still gets its later rows…
        assert!(pass.take(row(3, 10, 0)));
        // …and the first row of a third game ends the look.
        assert!(!pass.take(row(4, 30, 0)));
        let ready: Vec<_> = pass.ready.iter().map(|(g, r)| (*g, ids(r))).collect();
        assert_eq!(
            ready,
            vec![(Some(game(10)), vec![1, 3]), (Some(game(20)), vec![2])]
        );
        assert_eq!(pass.next_due, None);
    }

    #[test]
    fn a_game_being_sent_or_in_backoff_waits_with_all_its_later_rows() {
        let busy = HashSet::from([Some(game(10))]);
        let mut pass = Pass::new(100, busy, 4);
        assert!(pass.take(row(1, 10, 0)));
        assert!(pass.take(row(2, 20, 500)));
        assert!(pass.take(row(3, 30, 300)));
        // Due now, but behind rows of their games that are not: they must not overtake.
        assert!(pass.take(row(4, 10, 0)));
        assert!(pass.take(row(5, 20, 0)));
        assert!(pass.take(row(6, 40, 0)));
        let ready: Vec<_> = pass.ready.iter().map(|(g, r)| (*g, ids(r))).collect();
        assert_eq!(ready, vec![(Some(game(40)), vec![6])]);
        // The sender sleeps until the first backoff ends.
        assert_eq!(pass.next_due, Some(300));
    }

    #[test]
    fn a_row_another_process_holds_stops_its_game_there() {
        let held = |id, game_number, until| Queued {
            held_until: Some(until),
            ..row(id, game_number, 0)
        };
        let mut pass = Pass::new(100, HashSet::new(), 4);
        assert!(pass.take(row(1, 10, 0)));
        assert!(pass.take(held(2, 10, 700)));
        assert!(pass.take(held(3, 20, 400)));
        // Behind a held row, a game's later rows wait for it.
        assert!(pass.take(row(4, 10, 0)));
        assert!(pass.take(row(5, 20, 0)));
        assert!(pass.take(row(6, 30, 0)));
        let ready: Vec<_> = pass.ready.iter().map(|(g, r)| (*g, ids(r))).collect();
        assert_eq!(
            ready,
            vec![(Some(game(10)), vec![1]), (Some(game(30)), vec![6])]
        );
        // The sender looks again when the first lease lapses.
        assert_eq!(pass.next_due, Some(400));
    }
}
