//! What is sent to one player: "your turn" with the picker, reminders, the daily digest,
//! and what happens where their DMs are closed.

use crate::discord::rest::{NewMessage, Posted};
use crate::discord::turn;
use crate::discord::types::Data;
use crate::discord::views::post::{self};
use crate::game::{GameStatus, ReminderVia};
use crate::game::{GameView, Queued, Target};
use crate::id::{GameId, UserId};

use super::*;
use crate::engine::Team;

/// The private "your turn": the board and the picker, by DM. A user whose DMs are closed is
/// remembered (the thread's post pings them and carries "My moves").
pub(super) async fn your_turn(
    data: &Data,
    row: &Queued,
    game: GameId,
    ply: u32,
    deadline: Option<i64>,
) -> Delivery {
    let Target::User { id: user } = row.target else {
        return Err(Failure::GiveUp("a DM without a user".into()));
    };
    let (turn, prefs, now) = data
        .call(move |s| {
            Ok((
                s.turn(user, game, Some(ply)),
                s.user_prefs(user)?,
                s.now_ms(),
            ))
        })
        .await?;
    let mut view = match turn.map_err(crate::discord::BotError::from) {
        Ok(view) => view,
        // The turn moved on meanwhile (or the seat changed hands, or the game ended): nothing
        // to prompt.
        Err(e) if e.is_refusal() => return Ok(Outcome::Moot),
        Err(e) => return Err(e.into()),
    };
    if !prefs.may_dm(now) {
        // Closed lately: the thread's post pings them and carries "My moves" instead.
        return Ok(Outcome::Moot);
    }
    let lang = reader_lang(data, &prefs, view.guild_id, view.lang).await;
    view.deadline_ms = deadline;
    let message = turn::first_menu(data, &view, lang).await?;
    let dm = data.rest.dm_channel(user).await.map_err(failure)?;
    let new = NewMessage {
        content: message.content,
        ping: Vec::new(),
        components: message.components,
        image: message.picture.map(|p| (p.file, p.png)),
        nonce: Some(nonce(row, 0)),
    };
    match data.rest.post(dm, &new).await {
        Ok(Posted { channel, message }) => {
            data.call(move |s| {
                s.dms_delivered(user)?;
                s.prompt_sent(game, user, ply, channel, message)
            })
            .await?;
            Ok(Outcome::Delivered)
        }
        Err(e) if e.code() == Some(50007) => {
            let game_view = data.call(move |s| s.game(game)).await?;
            dms_closed(data, row, &game_view, user).await
        }
        Err(e) => Err(failure(e)),
    }
}

/// Discord refused a DM to `user` (50007): remembered, so no DM is tried for a week, and the
/// first time since their DMs were last open they are told so in the game's thread (how to
/// open them, or to keep their turns in the thread).
pub(super) async fn dms_closed(
    data: &Data,
    row: &Queued,
    game_view: &GameView,
    user: UserId,
) -> Delivery {
    let tell = data.call(move |s| s.dms_refused(user)).await?;
    if !tell {
        return Ok(Outcome::Moot);
    }
    let message = post::dms_closed(user, game_view.lang);
    let public = Queued {
        target: Target::Game,
        ..row.clone()
    };
    // Its own nonce: the row's other parts (a reminder in the thread) keep theirs.
    post_public_part(data, &public, game_view, message, None, DMS_CLOSED_PART).await
}

/// The nonce part of the one-time "your DMs are closed" post.
pub(super) const DMS_CLOSED_PART: u8 = 200;

/// A reminder: by DM, or in the thread with a ping where DMs are closed.
pub(super) async fn reminder(
    data: &Data,
    row: &Queued,
    game: GameId,
    ply: u32,
    team: Team,
    deadline: i64,
) -> Delivery {
    let Target::User { id: user } = row.target else {
        return Err(Failure::GiveUp("a reminder without a user".into()));
    };
    let game_view = data.call(move |s| s.game(game)).await?;
    let on_turn = game_view.status == GameStatus::Active
        && game_view.ply == ply
        && game_view.team_seat(team).and_then(|s| s.user_id) == Some(user);
    if !on_turn {
        return Ok(Outcome::Moot);
    }
    let (prefs, now) = data
        .call(move |s| Ok((s.user_prefs(user)?, s.now_ms())))
        .await?;
    if prefs.may_dm(now) && prefs.reminder_via != Some(ReminderVia::Thread) {
        let lang = reader_lang(data, &prefs, game_view.guild_id, game_view.lang).await;
        let message = post::reminder_dm(&game_view, deadline, lang);
        let new = NewMessage {
            content: message.content,
            components: message.components,
            nonce: Some(nonce(row, 0)),
            ..NewMessage::default()
        };
        if send_dm(data, user, &new).await? {
            return Ok(Outcome::Delivered);
        }
        dms_closed(data, row, &game_view, user).await?;
    }
    let message = post::reminder(&game_view, team, deadline, game_view.lang);
    let public = Queued {
        target: Target::Game,
        ..row.clone()
    };
    post_public(data, &public, &game_view, message, None).await
}

/// Sends a private message without buttons to remember; `false` when the user's DMs are
/// closed (50007): the caller records that ([`dms_closed`]) and falls back to the thread.
pub(super) async fn send_dm(
    data: &Data,
    user: crate::id::UserId,
    new: &NewMessage,
) -> std::result::Result<bool, Failure> {
    let dm = data.rest.dm_channel(user).await.map_err(failure)?;
    match data.rest.post(dm, new).await {
        Ok(_) => {
            data.call(move |s| s.dms_delivered(user)).await?;
            Ok(true)
        }
        Err(e) if e.code() == Some(50007) => Ok(false),
        Err(e) => Err(failure(e)),
    }
}

/// The daily digest, by DM. Games played since it was written are left out; when DMs are
/// closed, each game's thread gets the reminder instead.
pub(super) async fn digest(data: &Data, row: &Queued, games: &[GameId]) -> Delivery {
    let Target::User { id: user } = row.target else {
        return Err(Failure::GiveUp("a digest without a user".into()));
    };
    let ids = games.to_vec();
    let turns = data.call(move |s| s.turns_among(user, &ids)).await?;
    if turns.is_empty() {
        return Ok(Outcome::Moot);
    }
    let (prefs, now) = data
        .call(move |s| Ok((s.user_prefs(user)?, s.now_ms())))
        .await?;
    if prefs.may_dm(now) {
        let lang = reader_lang(data, &prefs, turns[0].0.guild_id, turns[0].0.lang).await;
        let message = post::digest_dm(&turns, lang);
        let new = NewMessage {
            content: message.content,
            nonce: Some(nonce(row, 0)),
            ..NewMessage::default()
        };
        if send_dm(data, user, &new).await? {
            return Ok(Outcome::Delivered);
        }
        dms_closed(data, row, &turns[0].0, user).await?;
    }
    for (part, (game_view, deadline)) in turns.iter().enumerate() {
        let Some(team) = game_view.seat_of(user).map(|s| s.team) else {
            continue;
        };
        let message = post::reminder(game_view, team, *deadline, game_view.lang);
        let public = Queued {
            target: Target::Game,
            ..row.clone()
        };
        let part = u8::try_from(part + 1).unwrap_or(u8::MAX);
        post_public_part(data, &public, game_view, message, None, part).await?;
    }
    Ok(Outcome::Delivered)
}
