//! Keeps a game's lobby message in step with the game after a change made elsewhere (a
//! command, the settings panel, the start, the end). A change made with one of the lobby's
//! own buttons updates the message in its interaction's answer instead.

use super::types::Data;
use super::views::lobby;
use crate::game::GameView;
use crate::id::GameId;

/// Redraws the lobby message of `game`, if it has one. Failures are logged, not raised: the
/// change itself is committed, and the message is only its picture.
pub async fn refresh(data: &Data, game: GameId) {
    if let Ok(game_view) = data.call(move |s| s.game(game)).await {
        show(data, &game_view).await;
    }
}

/// Redraws the lobby message of the game as `game_view` shows it.
pub async fn show(data: &Data, game_view: &GameView) {
    let game = game_view.id;
    let (Some(channel), Some(message)) = (game_view.channel_id, game_view.lobby_message_id) else {
        return;
    };
    let lang = game_view.lang;
    let (content, components) = lobby::view(game_view, lang);
    if let Err(e) = data
        .rest
        .edit(channel, message, &content, &components)
        .await
    {
        tracing::warn!(%game, error = %e, "could not update the lobby message");
    }
}
