//! The timer scheduler: fires the service's due timers (reminders, deadlines, bots' turns)
//! and sleeps until the next one is due, or until woken after a commit, because a new
//! deadline can be earlier than the one it sleeps on. A timer that came due while the bot
//! was down fires at start-up, once.

use std::time::Duration;

use tokio::sync::watch;

use super::types::Data;

/// Longest sleep between looks (bounds the cost of a clock that jumped or a missed wake).
const IDLE: Duration = Duration::from_secs(60);

/// Runs until `stop` turns true; a firing in progress finishes first.
pub async fn run(data: Data, mut stop: watch::Receiver<bool>) {
    loop {
        if *stop.borrow() {
            break;
        }
        match data.call_in_background(|s| s.fire_due_timers()).await {
            Ok(fired) if !fired.is_empty() => {
                tracing::debug!(?fired, "timers fired");
                data.wake_outbox.notify_one();
                // A bot's move can make another bot's turn due at once: look again now.
                continue;
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "timers could not be fired"),
        }
        let sleep = match data.call(|s| Ok((s.next_timer_due()?, s.now_ms()))).await {
            Ok((Some(due), now)) => Duration::from_millis(due.saturating_sub(now).max(0) as u64)
                .min(data.longest_sleep(IDLE)),
            Ok((None, _)) => data.longest_sleep(IDLE),
            Err(e) => {
                tracing::error!(error = %e, "the next timer could not be read");
                data.longest_sleep(IDLE)
            }
        };
        tokio::select! {
            _ = data.wake_timers.notified() => {}
            _ = tokio::time::sleep(sleep) => {}
            _ = stop.changed() => {}
        }
    }
}
