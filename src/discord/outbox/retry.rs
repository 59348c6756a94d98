//! The retry policy: what became of a delivery, and when a failed one is tried again.

use std::time::Duration;

use crate::discord::rest::RestError;
use crate::discord::types::Data;
use crate::game::{Queued, ServiceError};

use super::*;

/// Quick retries of a 5xx before the row goes back to the queue with a longer backoff.
pub(super) const QUICK_RETRIES: [Duration; 2] =
    [Duration::from_millis(250), Duration::from_secs(1)];

/// What became of a row.
pub(super) enum Outcome {
    Delivered,
    /// Nothing to send any more (the turn it was about is over): closed as sent.
    Moot,
}

/// Why a row was not delivered.
pub(super) enum Failure {
    /// Try again later.
    Retry { after: Duration, why: String },
    /// It can never be delivered.
    GiveUp(String),
}

impl From<crate::discord::errors::BotError> for Failure {
    fn from(e: crate::discord::errors::BotError) -> Failure {
        use crate::discord::errors::BotError;
        match e {
            // A damaged game stays damaged until someone repairs the file: its rows are given
            // up (logged, with what is wrong) instead of being retried for ever. Other games'
            // rows go on meanwhile either way: each game's rows go on their own.
            BotError::Service(ServiceError::Damaged { .. }) => Failure::GiveUp(e.to_string()),
            e => Failure::Retry {
                after: Duration::from_secs(5),
                why: e.to_string(),
            },
        }
    }
}

pub(super) type Delivery = std::result::Result<Outcome, Failure>;

/// Delivers a row, waiting out short rate limits and retrying a failing Discord briefly.
pub(super) async fn deliver_with_retries(data: &Data, row: &Queued) -> Delivery {
    let mut quick = QUICK_RETRIES.iter();
    loop {
        match deliver(data, row).await {
            Err(Failure::Retry { after, why }) => {
                let wait = match quick.next() {
                    Some(_) if after <= WAIT_IN_PLACE => after,
                    _ => {
                        // Back to the queue, with a backoff that grows with the attempts.
                        let backoff = Duration::from_secs(2u64.saturating_pow(row.attempts.min(8)));
                        return Err(Failure::Retry {
                            after: after.max(backoff),
                            why,
                        });
                    }
                };
                tokio::time::sleep(wait).await;
            }
            other => return other,
        }
    }
}

/// What a failed REST call means for the row.
pub(super) fn failure(e: RestError) -> Failure {
    match e {
        RestError::RateLimited { retry_after } => Failure::Retry {
            after: retry_after,
            why: "429".into(),
        },
        RestError::Unavailable(why) => Failure::Retry {
            after: QUICK_RETRIES[0],
            why,
        },
        other => Failure::GiveUp(other.to_string()),
    }
}
