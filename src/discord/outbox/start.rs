//! A game's start: its thread, the lobby message marked started, the first board.

use crate::discord::turn;
use crate::discord::types::Data;
use crate::discord::views::lobby;
use crate::discord::views::post::{self};
use crate::game::{GameView, Queued};
use crate::id::{ChannelId, GameId};
use crate::render::RenderOptions;
use crate::tr;

use super::*;

/// The start: opens the game's thread (once), marks the lobby started, posts the board.
pub(super) async fn game_started(
    data: &Data,
    row: &Queued,
    game: GameId,
    deadline: Option<i64>,
) -> Delivery {
    let mut game_view = data.call(move |s| s.game(game)).await?;
    let Some(channel) = game_view.channel_id else {
        return Ok(Outcome::Moot);
    };
    if game_view.thread_id.is_none() {
        let thread = open_thread(data, &game_view, channel).await?;
        // Read again: the thread is now the game's public place.
        game_view = data
            .call(move |s| {
                s.set_thread(game, thread)?;
                s.game(game)
            })
            .await?;
    }
    let lang = game_view.lang;
    if let Some(message) = game_view.lobby_message_id {
        let (content, components) = lobby::view(&game_view, lang);
        if let Err(e) = data
            .rest
            .edit(channel, message, &content, &components)
            .await
        {
            tracing::warn!(%game, error = %e, "could not mark the lobby message started");
        }
    }
    let material = data.call(move |s| s.post_material(game, 0, 0)).await?;
    let message = post::start(&material, lang, deadline);
    let options = RenderOptions {
        lang,
        ..RenderOptions::default()
    };
    let png = turn::draw(data, material.position.clone(), options).await?;
    let image = Some((turn::board_file(game, 0), png));
    post_public(data, row, &game_view, message, image).await
}

/// The game's thread: on the lobby message (a second attempt finds the first thread, whose
/// id is the message's), or without one; the channel itself where threads cannot be made.
pub(super) async fn open_thread(
    data: &Data,
    game_view: &GameView,
    channel: ChannelId,
) -> std::result::Result<ChannelId, Failure> {
    let name = thread_name(data, game_view).await;
    let made = match game_view.lobby_message_id {
        Some(message) => match data.rest.thread_from_message(channel, message, &name).await {
            Err(e) if e.code() == Some(160004) => Ok(ChannelId::new(message.get())),
            other => other,
        },
        None => data.rest.thread(channel, &name).await,
    };
    match made {
        Ok(thread) => Ok(thread),
        Err(e) if e.is_transient() => Err(failure(e)),
        Err(e) => {
            // No thread here (missing permissions, a channel type without threads): the game
            // is played in the channel itself.
            tracing::info!(game = %game_view.id, error = %e, "no thread; playing in the channel");
            Ok(channel)
        }
    }
}

/// "Jackal #12: alice, bob".
pub(super) async fn thread_name(data: &Data, game_view: &GameView) -> String {
    let lang = game_view.lang;
    let mut names = Vec::new();
    for seat in &game_view.seats {
        let name = match seat.user_id {
            Some(user) => data
                .rest
                .user_name(user)
                .await
                .unwrap_or_else(|_| tr!(lang, "player-unknown")),
            None => tr!(lang, "bot-player"),
        };
        names.push(name);
    }
    let name = tr!(
        lang,
        "thread-name",
        game = game_view.id,
        players = names.join(", ")
    );
    crate::discord::picker::clip(&name, 100)
}
