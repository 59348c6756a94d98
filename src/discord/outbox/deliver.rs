//! Delivering one row: the kind it is, and posting in a game's public place.

use crate::discord::rest::{NewMessage, Posted};
use crate::discord::turn;
use crate::discord::types::Data;
use crate::discord::views::post::{self, Post};
use crate::game::UserPrefs;
use crate::game::{GameEnd, GameView, OutboxMessage, Queued, Target};
use crate::id::{GuildId, UserId};
use crate::render::{self, RenderOptions};
use crate::words::Lang;

use super::*;

/// The language of a game's public posts.
/// A nonce for a row: unique to the row in this database (ids alone could repeat in a new
/// database file within Discord's de-duplication window).
pub(super) fn nonce(row: &Queued, part: u8) -> String {
    format!(
        "j{}-{}-{}",
        row.id,
        row.created_at.rem_euclid(1_000_000_000),
        part
    )
}

pub(super) async fn deliver(data: &Data, row: &Queued) -> Delivery {
    match &row.message {
        OutboxMessage::GameStarted {
            game_id,
            deadline_ms,
        } => game_started(data, row, *game_id, *deadline_ms).await,
        OutboxMessage::BoardPost {
            game_id,
            first_ply,
            ply,
            deadline_ms,
        } => {
            let (game, first, last) = (*game_id, *first_ply, *ply);
            let material = data
                .call(move |s| s.post_material(game, first, last))
                .await?;
            let lang = material.game.lang;
            let message = post::board(&material, lang, *deadline_ms);
            let events: Vec<_> = material
                .steps
                .iter()
                .flat_map(|s| s.events.clone())
                .collect();
            let options = RenderOptions {
                path: render::path_of(&events),
                lang,
                // The next move's, as the post's own header counts them.
                move_number: Some(material.number + 1),
                ..RenderOptions::default()
            };
            let png = turn::draw(data, material.position.clone(), options).await?;
            let file = turn::board_file(game, last);
            post_public(data, row, &material.game, message, Some((file, png))).await
        }
        // The team is the one on turn at `ply`: the service checks the user still holds it.
        OutboxMessage::YourTurn {
            game_id,
            ply,
            team: _,
            deadline_ms,
        } => your_turn(data, row, *game_id, *ply, *deadline_ms).await,
        OutboxMessage::Reminder {
            game_id,
            ply,
            team,
            deadline_ms,
        } => reminder(data, row, *game_id, *ply, *team, *deadline_ms).await,
        OutboxMessage::TurnOver { game_id, ply } => turn_over(data, row, *game_id, *ply).await,
        OutboxMessage::GameOver { game_id, end } => game_over(data, row, *game_id, end).await,
        OutboxMessage::Digest { games } => digest(data, row, games).await,
        OutboxMessage::Notice { game_id, notice } => {
            deliver_notice(data, row, *game_id, *notice).await
        }
    }
}

/// Posts in the row's public target (the game's thread or channel).
pub(super) async fn post_public(
    data: &Data,
    row: &Queued,
    game_view: &GameView,
    post: Post,
    image: Option<(String, Vec<u8>)>,
) -> Delivery {
    post_public_part(data, row, game_view, post, image, 0).await
}

/// [`post_public`] for one of several posts a row makes (each `part` has its own nonce, so a
/// retry posts none of them twice).
pub(super) async fn post_public_part(
    data: &Data,
    row: &Queued,
    game_view: &GameView,
    post: Post,
    image: Option<(String, Vec<u8>)>,
    part: u8,
) -> Delivery {
    Ok(
        match post_public_message(data, row, game_view, post, image, part).await? {
            Some(_) => Outcome::Delivered,
            None => Outcome::Moot,
        },
    )
}

/// Posts in the row's public target and says where the post is (`None`: there was nothing
/// to post, the row is moot).
pub(super) async fn post_public_message(
    data: &Data,
    row: &Queued,
    game_view: &GameView,
    post: Post,
    image: Option<(String, Vec<u8>)>,
    part: u8,
) -> std::result::Result<Option<Posted>, Failure> {
    let channel = match row.target {
        Target::Channel { id } => id,
        // A game archived because its thread was deleted now "lives" in the thread's
        // channel only to say so there: what it had yet to post in the thread is dropped.
        Target::Game
            if game_view.end == Some(GameEnd::ThreadDeleted)
                && !matches!(row.message, OutboxMessage::GameOver { .. }) =>
        {
            return Ok(None);
        }
        Target::Game => match game_view.place {
            Some(place) => place,
            // A local game has no public place.
            None => return Ok(None),
        },
        Target::User { id } => {
            return Err(Failure::GiveUp(format!(
                "a public post addressed to user {id}"
            )));
        }
    };
    let message = NewMessage {
        content: post.content,
        ping: post.ping,
        components: post.components,
        image,
        nonce: Some(nonce(row, part)),
    };
    match data.rest.post(channel, &message).await {
        Ok(posted) => Ok(Some(posted)),
        Err(e) if e.code() == Some(10003) && row.target == Target::Game => {
            // The game's thread (or channel) is gone: archive the game where it stood.
            let game = game_view.id;
            let archived = data.call(move |s| s.thread_deleted(game)).await?;
            if archived {
                data.wake();
            }
            Err(Failure::GiveUp(format!(
                "channel {channel} no longer exists"
            )))
        }
        Err(e) => Err(failure(e)),
    }
}

/// The language a user reads in private: their own choice, else their server's, else their
/// Discord client's (as their latest interaction said it), else the game's.
pub(super) async fn reader_lang(
    data: &Data,
    prefs: &UserPrefs,
    guild: Option<GuildId>,
    game_lang: Lang,
) -> Lang {
    if let Some(lang) = data.user_lang(prefs.user_id).await {
        return lang;
    }
    if let Some(guild) = guild
        && let Some(lang) = data.guild_lang(guild).await
    {
        return lang;
    }
    prefs.locale.unwrap_or(game_lang)
}

/// [`reader_lang`] for a user whose preferences the caller has not read.
pub(super) async fn reader_lang_of(
    data: &Data,
    user: UserId,
    game_view: &GameView,
) -> std::result::Result<Lang, Failure> {
    let prefs = data.call(move |s| s.user_prefs(user)).await?;
    Ok(reader_lang(data, &prefs, game_view.guild_id, game_view.lang).await)
}
