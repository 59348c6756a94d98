//! What each button press or menu choice cost: the blocking service calls made while it was
//! answered. A press should cost one (the service answers in views made for it); the bot
//! keeps the latest presses' costs so that a test, or an operator chasing a slow answer,
//! can see them.

use std::cell::Cell;
use std::collections::VecDeque;
use std::future::Future;
use std::sync::Mutex;

tokio::task_local! {
    /// The service calls of the interaction being answered on this task.
    static CALLS: Cell<u32>;
}

/// Counts one service call against the interaction being answered, if any (work outside an
/// interaction, such as the outbox sender's, is not counted).
pub(super) fn count_call() {
    let _ = CALLS.try_with(|calls| calls.set(calls.get() + 1));
}

/// Runs `answer` and says how many service calls it made.
pub(super) async fn measured<F: Future>(answer: F) -> (F::Output, u32) {
    CALLS
        .scope(Cell::new(0), async {
            let out = answer.await;
            (out, CALLS.with(Cell::get))
        })
        .await
}

/// One answered press.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PressCost {
    /// The pressed component's custom id.
    pub custom_id: String,
    pub service_calls: u32,
}

/// The latest presses' costs, oldest first.
#[derive(Debug, Default)]
pub struct PressCosts {
    recent: Mutex<VecDeque<PressCost>>,
}

/// How many presses are kept.
const KEPT: usize = 256;

impl PressCosts {
    pub(super) fn record(&self, cost: PressCost) {
        if let Ok(mut recent) = self.recent.lock() {
            if recent.len() == KEPT {
                recent.pop_front();
            }
            recent.push_back(cost);
        }
    }

    pub fn recent(&self) -> Vec<PressCost> {
        self.recent
            .lock()
            .map(|recent| recent.iter().cloned().collect())
            .unwrap_or_default()
    }
}
