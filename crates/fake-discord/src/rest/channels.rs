//! Channels: opening DMs, reading a channel, threads (from a message or standalone) and
//! thread membership.

use std::sync::Arc;

use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde_json::Value;
use serenity::all::{ChannelId, GuildChannel, MessageId, PrivateChannel, UserId};

use super::super::Shared;
use super::super::body::Incoming;
use super::super::gateway::intents;
use super::super::world::{Channel, ChannelKind, World, next_snowflake, perms};
use super::meta::checked;
use super::{ApiError, ApiResult};

/// Opens (or finds) the DM channel with a user. Closed DMs do not fail here: on Discord the
/// refusal comes when the bot sends a message (403 / 50007).
pub async fn open_dm(
    State(shared): State<Arc<Shared>>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let body = incoming.json();
    let recipient = body["recipient_id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .or_else(|| body["recipient_id"].as_u64())
        .map(UserId::new)
        .ok_or_else(|| ApiError::invalid_form("recipient_id is required"))?;
    let json = shared.with(|w| {
        if w.user(recipient).is_none() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                50033,
                "Invalid Recipient(s)",
            ));
        }
        let kind = ChannelKind::Dm { recipient };
        let id = match w.channels.values().find(|c| c.kind == kind) {
            Some(c) => c.id,
            None => {
                let id = ChannelId::new(next_snowflake());
                w.channels.insert(id, Channel::new(id, kind, None, ""));
                id
            }
        };
        Ok(w.channels[&id].to_json(w))
    })?;
    checked::<PrivateChannel>(&shared, "DM channel", json)
}

/// A user, as `GET /users/{id}` shows any user to a bot (the bot's own with `@me`).
pub async fn get_user(State(shared): State<Arc<Shared>>, Path(user): Path<String>) -> ApiResult {
    let json = shared.read(|w| {
        let id = if user == "@me" {
            Some(w.bot)
        } else {
            user.parse().ok().map(UserId::new)
        };
        id.and_then(|id| w.user(id))
            .map(|u| u.to_json())
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, 10013, "Unknown User"))
    })?;
    checked::<serenity::all::User>(&shared, "user", json)
}

pub async fn get_channel(State(shared): State<Arc<Shared>>, Path(channel): Path<u64>) -> ApiResult {
    let channel = ChannelId::new(channel);
    let (json, is_dm) = shared.read(|w| {
        let c = w
            .channels
            .get(&channel)
            .ok_or_else(ApiError::unknown_channel)?;
        if c.guild.is_some() && w.channel_permissions(w.bot, channel) == 0 {
            return Err(ApiError::missing_access());
        }
        Ok((c.to_json(w), c.guild.is_none()))
    })?;
    if is_dm {
        checked::<PrivateChannel>(&shared, "DM channel", json)
    } else {
        checked::<GuildChannel>(&shared, "guild channel", json)
    }
}

/// Checks that threads can be made in `parent` with `permission`.
fn check_thread_parent(w: &World, parent: ChannelId, permission: u64) -> Result<(), ApiError> {
    let ch = w
        .channels
        .get(&parent)
        .ok_or_else(ApiError::unknown_channel)?;
    if ch.kind != ChannelKind::GuildText {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            50024,
            "Cannot execute action on this channel type",
        ));
    }
    let bits = w.channel_permissions(w.bot, parent);
    if bits == 0 {
        return Err(ApiError::missing_access());
    }
    if bits & permission == 0 {
        return Err(ApiError::missing_permissions());
    }
    Ok(())
}

fn new_thread(
    w: &mut World,
    id: ChannelId,
    parent: ChannelId,
    kind: ChannelKind,
    name: &str,
) -> Value {
    let guild = w.channels[&parent].guild;
    let bot = w.bot;
    w.channels.insert(
        id,
        Channel {
            parent: Some(parent),
            owner: Some(bot),
            thread_members: vec![bot],
            ..Channel::new(id, kind, guild, name)
        },
    );
    w.channels[&id].to_json(w)
}

/// Announces a new thread (THREAD_CREATE with `newly_created`) and answers with it.
fn thread_created(shared: &Shared, json: Value) -> ApiResult {
    let mut event = json.clone();
    event["newly_created"] = true.into();
    shared.dispatch_for_intent(intents::GUILDS, "THREAD_CREATE", event);
    checked::<GuildChannel>(shared, "thread", json)
}

/// A public thread started from a message; like on Discord its id is the message's id.
pub async fn thread_from_message(
    State(shared): State<Arc<Shared>>,
    Path((channel, message)): Path<(u64, u64)>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let (channel, message) = (ChannelId::new(channel), MessageId::new(message));
    let name = incoming.json()["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let json = shared.with(|w| {
        check_thread_parent(w, channel, perms::CREATE_PUBLIC_THREADS)?;
        let m = w
            .messages
            .get(&message)
            .filter(|m| m.channel == channel && !m.deleted && !m.is_ephemeral());
        let m = m.ok_or_else(ApiError::unknown_message)?;
        if m.thread.is_some() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                160004,
                "A thread has already been created for this message",
            ));
        }
        let id = ChannelId::new(message.get());
        w.messages.get_mut(&message).expect("checked").thread = Some(id);
        Ok(new_thread(w, id, channel, ChannelKind::PublicThread, &name))
    })?;
    thread_created(&shared, json)
}

/// A thread without a starter message: `type` 11 (public) or 12 (private, the default).
pub async fn standalone_thread(
    State(shared): State<Arc<Shared>>,
    Path(channel): Path<u64>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let channel = ChannelId::new(channel);
    let body = incoming.json();
    let name = body["name"].as_str().unwrap_or_default().to_string();
    let (kind, permission) = match body["type"].as_u64() {
        Some(11) => (ChannelKind::PublicThread, perms::CREATE_PUBLIC_THREADS),
        None | Some(12) => (ChannelKind::PrivateThread, perms::CREATE_PRIVATE_THREADS),
        Some(other) => {
            return Err(ApiError::invalid_form(format!(
                "thread type {other} cannot be created here"
            )));
        }
    };
    let json = shared.with(|w| {
        check_thread_parent(w, channel, permission)?;
        Ok(new_thread(
            w,
            ChannelId::new(next_snowflake()),
            channel,
            kind,
            &name,
        ))
    })?;
    thread_created(&shared, json)
}

pub async fn add_thread_member(
    State(shared): State<Arc<Shared>>,
    Path((thread, user)): Path<(u64, String)>,
) -> ApiResult {
    let thread = ChannelId::new(thread);
    shared.with(|w| {
        let user = if user == "@me" {
            w.bot
        } else {
            UserId::new(
                user.parse()
                    .map_err(|_| ApiError::invalid_form("bad user id"))?,
            )
        };
        let ch = w
            .channels
            .get(&thread)
            .filter(|c| c.kind.is_thread())
            .ok_or_else(ApiError::unknown_channel)?;
        if ch.archived {
            return Err(ApiError::thread_archived());
        }
        let member = ch
            .guild
            .and_then(|g| w.guilds.get(&g))
            .is_some_and(|g| g.members.contains_key(&user));
        if !member {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                10007,
                "Unknown Member",
            ));
        }
        let ch = w.channels.get_mut(&thread).expect("checked");
        if !ch.thread_members.contains(&user) {
            ch.thread_members.push(user);
        }
        Ok(())
    })?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
