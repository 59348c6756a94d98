//! Notices in a game's thread, and the private questions they settle.

use crate::discord::types::Data;
use crate::discord::views::post::{self};
use crate::game::{Notice, Question, Queued};
use crate::id::GameId;

use super::*;

/// A notice in the game's thread. One that asks a question with buttons (a pause vote, "Take
/// my seat back") is remembered; one that answers a question takes the buttons off the posts
/// that asked it.
pub(super) async fn deliver_notice(
    data: &Data,
    row: &Queued,
    game: GameId,
    notice: Notice,
) -> Delivery {
    let game_view = data.call(move |s| s.game(game)).await?;
    let message = post::notice(&game_view, &notice, game_view.lang);
    let Some(posted) = post_public_message(data, row, &game_view, message, None, 0).await? else {
        return Ok(Outcome::Moot);
    };
    let asks = match notice {
        Notice::PauseProposed { .. } => Some(Question::PauseVote),
        Notice::UndoProposed { .. } => Some(Question::UndoVote),
        Notice::TakenOver { team, .. } => Some(Question::Reclaim { team }),
        _ => None,
    };
    if let Some(question) = asks {
        let (channel, message) = (posted.channel, posted.message);
        data.call(move |s| s.question_posted(game, question, channel, message))
            .await?;
    }
    let answers = match notice {
        Notice::PauseStarted { .. } | Notice::PauseRefused { .. } | Notice::PauseLapsed { .. } => {
            Some(Question::PauseVote)
        }
        Notice::UndoAccepted { .. }
        | Notice::UndoRefused { .. }
        | Notice::UndoLapsed { .. }
        | Notice::UndoVoided { .. } => Some(Question::UndoVote),
        Notice::Reclaimed { team } => Some(Question::Reclaim { team }),
        _ => None,
    };
    if let Some(question) = answers {
        retire_questions(data, game, Some(question)).await?;
    }
    Ok(Outcome::Delivered)
}

/// Takes the buttons off a game's posts that asked `question` (every question with `None`):
/// it is answered, or the game is over.
pub(super) async fn retire_questions(
    data: &Data,
    game: GameId,
    question: Option<Question>,
) -> std::result::Result<(), Failure> {
    for asked in data.call(move |s| s.open_questions(game, question)).await? {
        match data
            .rest
            .remove_components(asked.channel_id, asked.message_id)
            .await
        {
            Ok(()) => {}
            // The post was deleted, or cannot be reached: nothing is left to press.
            Err(e) if !e.is_transient() => {
                tracing::info!(%game, error = %e, "a question's buttons could not be removed");
            }
            Err(e) => return Err(failure(e)),
        }
        data.call(move |s| s.question_retired(&asked)).await?;
    }
    Ok(())
}
