//! A whole game as an animated GIF, one frame a step, drawn on the background threads: what
//! `/jackal replay` sends, and what follows the game-over post.

use crate::id::GameId;

use super::errors::BotError;
use super::types::{Data, Result};
use crate::render::{self, RenderOptions, replay};
use crate::words::Lang;

/// Discord's attachment limit for a server without boosts, and what a post outside an
/// interaction (the game-over post) can count on.
const DEFAULT_LIMIT: usize = 10 * 1024 * 1024;

/// The largest replay sent where Discord allows `limit` bytes an attachment (the interaction's
/// `attachment_size_limit`; `None` or 0: the default): a tenth less, for the request around it.
/// A longer game's replay leaves steps out to fit rather than fail.
pub fn budget(limit: Option<u32>) -> usize {
    let limit = match limit {
        Some(0) | None => DEFAULT_LIMIT,
        Some(bytes) => bytes as usize,
    };
    limit - limit / 10
}

/// A drawn replay.
pub struct Replay {
    pub gif: Vec<u8>,
    /// The steps after the deal it shows (moves, choices, take-backs).
    pub steps: usize,
}

impl Replay {
    pub fn file_name(game: GameId) -> String {
        format!("jackal-{game}-replay.gif")
    }
}

/// Draws game `id`'s replay; `None` for a game with no step played yet. Drawing every position
/// takes a second or two: it runs on the background threads, behind the interactions' answers.
/// `max_bytes`: see [`budget`].
pub async fn draw(data: &Data, id: GameId, lang: Lang, max_bytes: usize) -> Result<Option<Replay>> {
    let steps = data.call(move |s| s.steps(id)).await?;
    if steps.len() < 2 {
        return Ok(None);
    }
    let count = steps.len() - 1;
    let gif = data
        .background
        .run(move || {
            let steps: Vec<replay::Step> = steps
                .into_iter()
                .map(|(position, events)| replay::Step {
                    path: render::path_of(&events),
                    position,
                })
                .collect();
            let options = RenderOptions {
                lang,
                ..RenderOptions::default()
            };
            replay::replay_gif(&steps, &options, max_bytes)
        })
        .await
        .map_err(|e| BotError::Internal(format!("drawing a replay: {e}")))?
        .map_err(|e| BotError::Internal(format!("encoding a replay: {e}")))?;
    Ok(Some(Replay { gif, steps: count }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_fits_the_limit_it_is_given_with_room_for_the_request() {
        assert_eq!(budget(None), 9_437_184, "10 MiB less a tenth");
        assert_eq!(budget(Some(0)), budget(None));
        let boosted = 50 * 1024 * 1024;
        assert!(budget(Some(boosted)) < boosted as usize);
        assert!(budget(Some(boosted)) > budget(None));
        assert_eq!(budget(Some(1000)), 900);
    }
}
