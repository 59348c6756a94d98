//! Messages: creating, editing and deleting them in channels, DMs and threads, and the
//! message-building rules shared with interaction responses (uploads become attachments
//! served from `/cdn/`, `attachment://` embed images point at them, empty messages are
//! refused).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Extension, Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde_json::{Value, json};
use serenity::all::{ChannelId, InteractionId, Message as SerenityMessage, MessageId, UserId};

use super::super::Shared;
use super::super::body::{Incoming, Upload};
use super::super::gateway::intents;
use super::super::world::{
    Attachment, ChannelKind, Message, World, flags, next_snowflake, perms, timestamp_now,
};
use super::meta::checked;
use super::{ApiError, ApiResult};

/// Discord's per-file upload limit for a bot in an unboosted guild.
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;

/// The message fields of a create or edit body; `None` means "not given".
pub struct Draft {
    pub content: Option<String>,
    pub embeds: Option<Vec<Value>>,
    pub components: Option<Vec<Value>>,
    pub flags: Option<u64>,
    /// The `attachments` list of the body: ids to keep (on edit) and names for new files.
    pub attachments: Option<Vec<Value>>,
    pub uploads: Vec<Upload>,
}

impl Draft {
    /// From a message body (`data` of an interaction callback, or the whole body).
    pub fn from_json(body: &Value, uploads: &[Upload]) -> Result<Draft, ApiError> {
        if uploads.iter().any(|u| u.bytes.len() > MAX_FILE_BYTES) {
            return Err(ApiError::too_large());
        }
        let list = |key: &str| {
            body.get(key)
                .filter(|v| !v.is_null())
                .map(|v| v.as_array().cloned().unwrap_or_default())
        };
        Ok(Draft {
            content: body
                .get("content")
                .map(|v| v.as_str().unwrap_or_default().to_string()),
            embeds: list("embeds"),
            components: list("components"),
            flags: body.get("flags").and_then(Value::as_u64),
            attachments: list("attachments"),
            uploads: uploads.to_vec(),
        })
    }

    pub fn from_incoming(incoming: &Incoming) -> Result<Draft, ApiError> {
        Draft::from_json(&incoming.json(), &incoming.uploads)
    }
}

/// Who posts, where, in answer to what.
pub struct Origin {
    pub channel: ChannelId,
    pub author: UserId,
    pub interaction: Option<InteractionId>,
}

/// Stores a new message; the flags the fake may add (e.g. LOADING) come in `extra_flags`.
pub fn create_message(
    w: &mut World,
    origin: Origin,
    draft: Draft,
    extra_flags: u64,
) -> Result<MessageId, ApiError> {
    let id = MessageId::new(next_snowflake());
    let attachments = new_attachments(w, origin.channel, &draft);
    let content = draft.content.unwrap_or_default();
    let embeds = draft.embeds.unwrap_or_default();
    let components = draft.components.unwrap_or_default();
    if content.is_empty()
        && embeds.is_empty()
        && components.is_empty()
        && attachments.is_empty()
        && extra_flags & flags::LOADING == 0
    {
        return Err(ApiError::empty_message());
    }
    let embeds = embeds
        .into_iter()
        .map(|e| resolve_embed(e, &attachments))
        .collect();
    let message = Message {
        id,
        channel: origin.channel,
        author: origin.author,
        content,
        embeds,
        components,
        attachments,
        // Only the flags a bot may set when sending: EPHEMERAL (64), SUPPRESS_EMBEDS (4),
        // SUPPRESS_NOTIFICATIONS (4096), IS_COMPONENTS_V2 (32768).
        flags: draft.flags.unwrap_or(0) & (64 | 4 | 4096 | 32768) | extra_flags,
        interaction: origin.interaction,
        edited: false,
        deleted: false,
        thread: None,
        timestamp: timestamp_now(),
    };
    w.messages.insert(id, message);
    Ok(id)
}

/// Applies an edit: given fields replace, `attachments` lists the old files to keep, new
/// uploads are added. Editing a deferred placeholder turns it into the real reply.
pub fn edit_message(w: &mut World, id: MessageId, draft: Draft) -> Result<(), ApiError> {
    let channel = w
        .messages
        .get(&id)
        .filter(|m| !m.deleted)
        .ok_or_else(ApiError::unknown_message)?
        .channel;
    let added = new_attachments(w, channel, &draft);
    let message = w.messages.get_mut(&id).expect("checked above");
    if let Some(keep) = &draft.attachments {
        let kept: Vec<u64> = keep.iter().filter_map(|a| id_of(&a["id"])).collect();
        message.attachments.retain(|a| kept.contains(&a.id));
    }
    message.attachments.extend(added);
    if let Some(content) = draft.content {
        message.content = content;
    }
    if let Some(embeds) = draft.embeds {
        message.embeds = embeds
            .into_iter()
            .map(|e| resolve_embed(e, &message.attachments))
            .collect();
    }
    if let Some(components) = draft.components {
        message.components = components;
    }
    if let Some(f) = draft.flags {
        message.flags = (message.flags & flags::EPHEMERAL) | (f & (4 | 4096 | 32768));
    }
    message.flags &= !flags::LOADING;
    message.edited = true;
    Ok(())
}

fn id_of(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_str()?.parse().ok())
}

fn new_attachments(w: &World, channel: ChannelId, draft: &Draft) -> Vec<Attachment> {
    draft
        .uploads
        .iter()
        .map(|upload| {
            // The payload's `attachments` entry with the upload's index may rename the file.
            let named = draft
                .attachments
                .iter()
                .flatten()
                .find(|a| id_of(&a["id"]) == upload.index() && !a["filename"].is_null());
            let filename = named
                .and_then(|a| a["filename"].as_str())
                .unwrap_or(&upload.filename)
                .to_string();
            let id = next_snowflake();
            Attachment {
                id,
                url: format!("{}/cdn/attachments/{channel}/{id}/{filename}", w.base_url),
                filename,
                content_type: upload.content_type.clone(),
                bytes: upload.bytes.clone(),
            }
        })
        .collect()
}

/// Discord marks embeds `rich` and resolves `attachment://name` images to the file's URL.
fn resolve_embed(mut embed: Value, attachments: &[Attachment]) -> Value {
    if embed.get("type").is_none() {
        embed["type"] = "rich".into();
    }
    for key in ["image", "thumbnail"] {
        let Some(url) = embed[key]["url"].as_str() else {
            continue;
        };
        if let Some(name) = url.strip_prefix("attachment://")
            && let Some(file) = attachments.iter().find(|a| a.filename == name)
        {
            let resolved = file.to_json();
            embed[key] = json!({
                "url": file.url,
                "proxy_url": file.url,
                "width": resolved.get("width"),
                "height": resolved.get("height"),
            });
        }
    }
    embed
}

/// The message as JSON, checked against serenity's `Message`.
pub fn message_response(shared: &Shared, id: MessageId) -> ApiResult {
    let body = shared
        .read(|w| w.messages.get(&id).map(|m| m.to_json(w)))
        .ok_or_else(ApiError::unknown_message)?;
    checked::<SerenityMessage>(shared, "message", body)
}

/// Tells the bot's gateway about a visible message change, as Discord does for every
/// message in a channel the bot can see (ephemeral ones are never dispatched).
pub fn announce(shared: &Shared, event: &str, id: MessageId) {
    let Some((payload, intent)) = shared.read(|w| {
        let m = w.messages.get(&id).filter(|m| !m.is_ephemeral())?;
        let in_dm = matches!(w.channels.get(&m.channel)?.kind, ChannelKind::Dm { .. });
        let payload = if event == "MESSAGE_DELETE" {
            let mut p = json!({"id": id.to_string(), "channel_id": m.channel.to_string()});
            if let Some(g) = w.channels[&m.channel].guild {
                p["guild_id"] = g.to_string().into();
            }
            p
        } else {
            m.to_json(w)
        };
        Some((
            payload,
            if in_dm {
                intents::DIRECT_MESSAGES
            } else {
                intents::GUILD_MESSAGES
            },
        ))
    }) else {
        return;
    };
    shared.dispatch_for_intent(intent, event, payload);
}

/// Refuses a post the bot may not make: no access to the channel, no right to send (or to
/// attach files), or a DM to someone who closed them.
fn check_can_post(w: &World, channel: ChannelId, with_files: bool) -> Result<(), ApiError> {
    let ch = w
        .channels
        .get(&channel)
        .ok_or_else(ApiError::unknown_channel)?;
    if let ChannelKind::Dm { recipient } = ch.kind {
        let open = w.user(recipient).is_some_and(|u| u.dms_open && !u.bot);
        return if open {
            Ok(())
        } else {
            Err(ApiError::cannot_dm())
        };
    }
    let bits = w.channel_permissions(w.bot, channel);
    if bits == 0 {
        return Err(ApiError::missing_access());
    }
    let send = if ch.kind.is_thread() {
        perms::SEND_MESSAGES_IN_THREADS
    } else {
        perms::SEND_MESSAGES
    };
    if bits & send == 0 || (with_files && bits & perms::ATTACH_FILES == 0) {
        return Err(ApiError::missing_permissions());
    }
    Ok(())
}

/// A channel message the bot can read over REST: present, not deleted, not ephemeral.
fn visible(w: &World, channel: ChannelId, id: MessageId) -> Result<(), ApiError> {
    if !w.channels.contains_key(&channel) {
        return Err(ApiError::unknown_channel());
    }
    match w.messages.get(&id) {
        Some(m) if m.channel == channel && !m.deleted && !m.is_ephemeral() => Ok(()),
        _ => Err(ApiError::unknown_message()),
    }
}

pub async fn create(
    State(shared): State<Arc<Shared>>,
    Path(channel): Path<u64>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let channel = ChannelId::new(channel);
    let draft = Draft::from_incoming(&incoming)?;
    let id = shared.with(|w| {
        check_can_post(w, channel, !draft.uploads.is_empty())?;
        let mut draft = draft;
        draft.flags = draft.flags.map(|f| f & !flags::EPHEMERAL); // only interactions can whisper
        create_message(
            w,
            Origin {
                channel,
                author: w.bot,
                interaction: None,
            },
            draft,
            0,
        )
    })?;
    announce(&shared, "MESSAGE_CREATE", id);
    message_response(&shared, id)
}

pub async fn list(
    State(shared): State<Arc<Shared>>,
    Path(channel): Path<u64>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult {
    let channel = ChannelId::new(channel);
    let limit: usize = query
        .get("limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(50)
        .clamp(1, 100);
    let body = shared.read(|w| {
        if !w.channels.contains_key(&channel) {
            return Err(ApiError::unknown_channel());
        }
        Ok(Value::Array(
            w.messages
                .values()
                .rev()
                .filter(|m| m.channel == channel && !m.deleted && !m.is_ephemeral())
                .take(limit)
                .map(|m| m.to_json(w))
                .collect(),
        ))
    })?;
    checked::<Vec<SerenityMessage>>(&shared, "message list", body)
}

pub async fn get(
    State(shared): State<Arc<Shared>>,
    Path((channel, id)): Path<(u64, u64)>,
) -> ApiResult {
    let (channel, id) = (ChannelId::new(channel), MessageId::new(id));
    shared.read(|w| visible(w, channel, id))?;
    message_response(&shared, id)
}

pub async fn edit(
    State(shared): State<Arc<Shared>>,
    Path((channel, id)): Path<(u64, u64)>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let (channel, id) = (ChannelId::new(channel), MessageId::new(id));
    let draft = Draft::from_incoming(&incoming)?;
    shared.with(|w| {
        visible(w, channel, id)?;
        if w.messages[&id].author != w.bot {
            return Err(ApiError::not_author());
        }
        edit_message(w, id, draft)
    })?;
    announce(&shared, "MESSAGE_UPDATE", id);
    message_response(&shared, id)
}

pub async fn delete(
    State(shared): State<Arc<Shared>>,
    Path((channel, id)): Path<(u64, u64)>,
) -> ApiResult {
    let (channel, id) = (ChannelId::new(channel), MessageId::new(id));
    shared.with(|w| {
        visible(w, channel, id)?;
        let own = w.messages[&id].author == w.bot;
        if !own && w.channel_permissions(w.bot, channel) & perms::MANAGE_MESSAGES == 0 {
            return Err(ApiError::missing_permissions());
        }
        Ok(())
    })?;
    announce(&shared, "MESSAGE_DELETE", id);
    shared.with(|w| w.messages.get_mut(&id).expect("checked").deleted = true);
    Ok(StatusCode::NO_CONTENT.into_response())
}
