//! A whole game as an animated GIF, one frame a step, drawn on the background threads: what
//! `/jackal replay` sends, and what follows the game-over post.

use crate::id::GameId;

use super::errors::BotError;
use super::types::{Data, Result};
use crate::render::{self, RenderOptions, replay};
use crate::words::Lang;

/// The largest replay sent: Discord's attachment limit for a server without boosts (10 MiB),
/// less a margin. A longer game's replay leaves steps out to fit rather than fail.
pub const REPLAY_MAX_BYTES: usize = 9 * 1024 * 1024;

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
pub async fn draw(data: &Data, id: GameId, lang: Lang) -> Result<Option<Replay>> {
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
            replay::replay_gif(&steps, &options, REPLAY_MAX_BYTES)
        })
        .await
        .map_err(|e| BotError::Internal(format!("drawing a replay: {e}")))?
        .map_err(|e| BotError::Internal(format!("encoding a replay: {e}")))?;
    Ok(Some(Replay { gif, steps: count }))
}
