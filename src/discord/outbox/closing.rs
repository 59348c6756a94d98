//! What ends: a turn (its private prompt retired) and a game (its last post, its prompts
//! and its lobby message closed).

use crate::discord::replay::{self, Replay};
use crate::discord::rest::Posted;
use crate::discord::turn;
use crate::discord::types::Data;
use crate::discord::views::lobby;
use crate::discord::views::picker::{self as picker_view};
use crate::discord::views::post::{self};
use crate::game::{GameEnd, GameView, Queued, Target};
use crate::id::GameId;
use crate::render::{self, RenderOptions};
use crate::words::{Lang, narrate};

use super::*;

/// The turn a prompt asked to play is over: its buttons go.
pub(super) async fn turn_over(data: &Data, row: &Queued, game: GameId, ply: u32) -> Delivery {
    let Target::User { id: user } = row.target else {
        return Ok(Outcome::Moot);
    };
    let Some(prompt) = data.call(move |s| s.prompt_of(game, user, ply)).await? else {
        return Ok(Outcome::Moot);
    };
    let game_view = data.call(move |s| s.game(game)).await?;
    let lang = reader_lang_of(data, user, &game_view).await?;
    let from = prompt.ply;
    let Some(played) = data.call(move |s| s.move_played_after(game, from)).await? else {
        // Unreachable: the row is written when the move is complete.
        return Ok(Outcome::Moot);
    };
    let words: Vec<String> = played
        .steps
        .iter()
        .map(|step| {
            let back = step.take_back.map(|t| t.to);
            narrate::step(lang, back, step.action.as_ref(), &step.notation)
        })
        .collect();
    let text = picker_view::turn_over(lang, game, played.number, &words.join(", "));
    retire_prompt(data, prompt, &text).await?;
    Ok(Outcome::Delivered)
}

/// Replaces a prompt's text with `text` and takes its buttons off, then forgets it. A DM that
/// was deleted or cannot be reached has nothing left to retire: that is logged, not retried.
pub(super) async fn retire_prompt(
    data: &Data,
    prompt: crate::game::SentPrompt,
    text: &str,
) -> std::result::Result<(), Failure> {
    match data
        .rest
        .edit(prompt.channel_id, prompt.message_id, text, &[])
        .await
    {
        Ok(()) => {}
        Err(e) if !e.is_transient() => {
            let (game, user) = (prompt.game_id, prompt.user_id);
            tracing::info!(%game, %user, error = %e, "a prompt could not be retired");
        }
        Err(e) => return Err(failure(e)),
    }
    data.call(move |s| s.prompt_retired(&prompt)).await?;
    Ok(())
}

/// The end: the result and the final board in the thread (a lobby that never started only
/// has its lobby message updated).
pub(super) async fn game_over(data: &Data, row: &Queued, game: GameId, end: &GameEnd) -> Delivery {
    let game_view = data.call(move |s| s.game(game)).await?;
    let lang = game_view.lang;
    if let (Some(channel), Some(message)) = (game_view.channel_id, game_view.lobby_message_id)
        && game_view.started_at.is_none()
    {
        let (content, components) = lobby::view(&game_view, lang);
        return match data
            .rest
            .edit(channel, message, &content, &components)
            .await
        {
            Ok(()) => Ok(Outcome::Delivered),
            Err(e) if e.is_transient() => Err(failure(e)),
            Err(e) => Err(Failure::GiveUp(e.to_string())),
        };
    }
    let ratings = data.call(move |s| s.seat_ratings(game)).await?;
    let message = post::over(&game_view, game_view.state.as_ref(), end, &ratings, lang);
    let image = match &game_view.state {
        Some(state) if end.is_result() => {
            let ply = state.ply();
            let events = data.call(move |s| s.move_events(game, ply)).await?;
            let options = RenderOptions {
                path: render::path_of(&events),
                lang,
                ..RenderOptions::default()
            };
            let png = turn::draw(data, state.clone(), options).await?;
            Some((turn::board_file(game, ply), png))
        }
        _ => None,
    };
    let Some(posted) = post_public_message(data, row, &game_view, message, image, 0).await? else {
        return Ok(Outcome::Moot);
    };
    if end.is_result() {
        post_replay(data, row, &game_view).await?;
    }
    end_lobby_message(data, &game_view, lang, &posted).await;
    close_prompts(data, &game_view, end).await?;
    retire_questions(data, game, None).await?;
    Ok(Outcome::Delivered)
}

/// The whole game as an animation, under its game-over post (the row's second part, so a
/// retry after a lost answer posts it once). A replay that cannot be drawn is logged and left
/// out: the result is what the post is for.
async fn post_replay(
    data: &Data,
    row: &Queued,
    game_view: &GameView,
) -> std::result::Result<(), Failure> {
    let (game, lang) = (game_view.id, game_view.lang);
    // Not an interaction's answer: the limit is the default one.
    let replay = match replay::draw(data, game, lang, replay::budget(None)).await {
        Ok(Some(replay)) => replay,
        Ok(None) => return Ok(()),
        Err(e) => {
            tracing::warn!(%game, error = %e, "the replay could not be drawn");
            return Ok(());
        }
    };
    let message = post::Post {
        content: crate::tr!(lang, "replay-caption", game = game, count = replay.steps),
        ..post::Post::default()
    };
    let image = Some((Replay::file_name(game), replay.gif));
    post_public_message(data, row, game_view, message, image, 1).await?;
    Ok(())
}

/// Every private prompt of a game that ended, by any road, is closed with the result: its
/// buttons go, so nothing is left to press.
pub(super) async fn close_prompts(
    data: &Data,
    game_view: &GameView,
    end: &GameEnd,
) -> std::result::Result<(), Failure> {
    let game = game_view.id;
    for prompt in data.call(move |s| s.open_prompts(game)).await? {
        let user = prompt.user_id;
        let lang = reader_lang_of(data, user, game_view).await?;
        let text = post::prompt_closed(game_view, end, lang);
        retire_prompt(data, prompt, &text).await?;
    }
    Ok(())
}

/// The lobby message of a game that was played ends with the result and a link to the post
/// that told it. Failures are logged: the game-over post itself is out.
pub(super) async fn end_lobby_message(
    data: &Data,
    game_view: &GameView,
    lang: Lang,
    posted: &Posted,
) {
    let (Some(channel), Some(message)) = (game_view.channel_id, game_view.lobby_message_id) else {
        return;
    };
    let guild = game_view
        .guild_id
        .map_or_else(|| "@me".to_string(), |g| g.to_string());
    let link = format!(
        "https://discord.com/channels/{guild}/{}/{}",
        posted.channel, posted.message
    );
    let (content, components) = lobby::view_over(game_view, lang, &link);
    if let Err(e) = data
        .rest
        .edit(channel, message, &content, &components)
        .await
    {
        tracing::warn!(game = %game_view.id, error = %e, "could not end the lobby message");
    }
}
