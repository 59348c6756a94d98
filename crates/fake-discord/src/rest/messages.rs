//! Messages: creating, editing and deleting them in channels, DMs and threads, and the
//! message-building rules shared with interaction responses (uploads become attachments
//! served from `/cdn/`, `attachment://` embed images point at them, empty messages are
//! refused).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Extension, Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde_json::{Value, json};
use serenity::all::{ChannelId, InteractionId, Message as SerenityMessage, MessageId, UserId};

use super::super::Shared;
use super::super::body::{Incoming, Upload};
use super::super::gateway::intents;
use super::super::world::{
    Attachment, ChannelKind, Message, World, flags, next_snowflake, perms, snowflake_age,
    timestamp_now,
};
use super::meta::checked;
use super::{ApiError, ApiResult, mentions};

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
    /// Who the content may ping (`None`: Discord's defaults, every mentioned user).
    pub allowed_mentions: Option<Value>,
    /// Channel messages only: the bot's nonce, and whether Discord must not create a second
    /// message with it (`enforce_nonce`).
    pub nonce: Option<Value>,
    pub enforce_nonce: bool,
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
        let given = |key: &str| body.get(key).filter(|v| !v.is_null()).cloned();
        Ok(Draft {
            content: body
                .get("content")
                .map(|v| v.as_str().unwrap_or_default().to_string()),
            embeds: list("embeds"),
            components: list("components"),
            flags: body.get("flags").and_then(Value::as_u64),
            attachments: list("attachments"),
            uploads: uploads.to_vec(),
            allowed_mentions: given("allowed_mentions"),
            nonce: given("nonce"),
            enforce_nonce: body.get("enforce_nonce").and_then(Value::as_bool) == Some(true),
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
    // An interaction's channel may have been deleted since.
    if !w.channels.contains_key(&origin.channel) {
        return Err(ApiError::unknown_channel());
    }
    mentions::check(draft.allowed_mentions.as_ref())?;
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
    // Only the flags a bot may set when sending: EPHEMERAL (64), SUPPRESS_EMBEDS (4),
    // SUPPRESS_NOTIFICATIONS (4096), IS_COMPONENTS_V2 (32768).
    let flags = draft.flags.unwrap_or(0) & (64 | 4 | 4096 | 32768) | extra_flags;
    let allowed = draft.allowed_mentions;
    let mentions = mentions::pinged(w, &content, &components, flags, allowed.as_ref());
    let message = Message {
        id,
        channel: origin.channel,
        author: origin.author,
        content,
        embeds,
        components,
        attachments,
        flags,
        interaction: origin.interaction,
        edited: false,
        deleted: false,
        thread: None,
        timestamp: timestamp_now(),
        nonce: draft.nonce,
        allowed_mentions: allowed,
        mentions,
        posted: Instant::now(),
    };
    w.add_message(message);
    Ok(id)
}

/// Applies an edit: given fields replace, `attachments` lists the old files to keep, new
/// uploads are added. Editing a deferred placeholder turns it into the real reply. New content
/// is parsed for mentions afresh under the edit's own `allowed_mentions` (Discord ignores the
/// original request's). An edit that would leave nothing to show is refused, as on Discord.
pub fn edit_message(w: &mut World, id: MessageId, draft: Draft) -> Result<(), ApiError> {
    let mut message = w
        .messages
        .get(&id)
        .filter(|m| !m.deleted)
        .ok_or_else(ApiError::unknown_message)?
        .clone();
    if !w.channels.contains_key(&message.channel) {
        return Err(ApiError::unknown_channel());
    }
    mentions::check(draft.allowed_mentions.as_ref())?;
    let added = new_attachments(w, message.channel, &draft);
    let (content_given, components_given) = (draft.content.is_some(), draft.components.is_some());
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
    if content_given || (components_given && message.flags & flags::COMPONENTS_V2 != 0) {
        let allowed = draft.allowed_mentions;
        message.mentions = mentions::pinged(
            w,
            &message.content,
            &message.components,
            message.flags,
            allowed.as_ref(),
        );
        message.allowed_mentions = allowed;
    }
    if message.content.is_empty()
        && message.embeds.is_empty()
        && message.components.is_empty()
        && message.attachments.is_empty()
    {
        return Err(ApiError::empty_message());
    }
    w.messages.insert(id, message);
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
                bytes: upload.bytes.as_slice().into(),
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

/// The bot's permissions in a channel it must be able to see: 10003 if the channel does not
/// exist (or was deleted), 50001 if the bot cannot see it. DMs allow everything.
fn visible_channel(w: &World, channel: ChannelId) -> Result<u64, ApiError> {
    if !w.channels.contains_key(&channel) {
        return Err(ApiError::unknown_channel());
    }
    match w.channel_permissions(w.bot, channel) {
        0 => Err(ApiError::missing_access()),
        bits => Ok(bits),
    }
}

/// Refuses a post the bot may not make: no access to the channel, no right to send (in a
/// thread: to send in threads), no right to attach files, or a DM to someone who closed them.
/// Only channel messages are checked: interaction responses and followups go through the
/// interaction's webhook, which channel permissions do not govern.
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
    let bits = visible_channel(w, channel)?;
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

/// Without EMBED_LINKS in the channel Discord does not refuse a message with embeds: it drops
/// the embeds and keeps the rest (an embed-only message then becomes empty and is refused with
/// 50006, as reported in discord/discord-api-docs#5648 for v10; an older report, #2601, saw
/// 403/50013 for that case). Interaction responses keep their embeds.
fn drop_unpermitted_embeds(w: &World, channel: ChannelId, draft: &mut Draft) {
    if draft.embeds.is_some() && w.channel_permissions(w.bot, channel) & perms::EMBED_LINKS == 0 {
        draft.embeds = Some(Vec::new());
    }
}

/// Editing messages is refused in an archived thread (so is joining it, see `channels.rs`);
/// only a new message revives it.
fn check_not_archived(w: &World, channel: ChannelId) -> Result<(), ApiError> {
    if w.channels.get(&channel).is_some_and(|c| c.archived) {
        return Err(ApiError::thread_archived());
    }
    Ok(())
}

/// The bot's earlier message in `channel` with the same nonce, if it is recent enough for
/// Discord to still remember the nonce.
fn same_nonce(w: &World, channel: ChannelId, nonce: &Value, window: Duration) -> Option<MessageId> {
    let key = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    w.channel_messages(channel)
        .rev()
        .filter(|m| m.author == w.bot && !m.deleted)
        .take_while(|m| snowflake_age(m.id.get()) <= window)
        .find(|m| m.nonce.as_ref().map(key) == Some(key(nonce)))
        .map(|m| m.id)
}

/// A message the bot can read over REST: present, not deleted, not ephemeral, in a channel it
/// can see.
fn visible(w: &World, channel: ChannelId, id: MessageId) -> Result<(), ApiError> {
    visible_channel(w, channel)?;
    match w.messages.get(&id) {
        Some(m) if m.channel == channel && !m.deleted && !m.is_ephemeral() => Ok(()),
        _ => Err(ApiError::unknown_message()),
    }
}

/// Posts a message. With `enforce_nonce` and a nonce the bot already used in this channel a
/// moment ago, Discord answers with that message instead of creating a second one (200, no
/// new MESSAGE_CREATE): a retry after a lost answer is safe. A post in an archived thread
/// unarchives it first.
pub async fn create(
    State(shared): State<Arc<Shared>>,
    Path(channel): Path<u64>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let channel = ChannelId::new(channel);
    let mut draft = Draft::from_incoming(&incoming)?;
    let window = shared.config.nonce_window;
    let (id, created, unarchived) = shared.with(|w| {
        check_can_post(w, channel, !draft.uploads.is_empty())?;
        if draft.enforce_nonce
            && let Some(nonce) = &draft.nonce
            && let Some(earlier) = same_nonce(w, channel, nonce, window)
        {
            return Ok((earlier, false, false));
        }
        drop_unpermitted_embeds(w, channel, &mut draft);
        draft.flags = draft.flags.map(|f| f & !flags::EPHEMERAL); // only interactions can whisper
        let origin = Origin {
            channel,
            author: w.bot,
            interaction: None,
        };
        let id = create_message(w, origin, draft, 0)?;
        let thread = w.channels.get_mut(&channel).expect("checked");
        let unarchived = std::mem::replace(&mut thread.archived, false);
        Ok::<_, ApiError>((id, true, unarchived))
    })?;
    if unarchived {
        shared.announce_archiving(channel);
    }
    if created {
        announce(&shared, "MESSAGE_CREATE", id);
    }
    message_response(&shared, id)
}

/// The newest messages first. Without READ_MESSAGE_HISTORY the list is empty (Discord's
/// documented behaviour, not an error).
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
        let bits = visible_channel(w, channel)?;
        let history = bits & perms::READ_MESSAGE_HISTORY != 0;
        Ok::<_, ApiError>(Value::Array(
            w.channel_messages(channel)
                .rev()
                .filter(|m| history && !m.deleted && !m.is_ephemeral())
                .take(limit)
                .map(|m| m.to_json(w))
                .collect(),
        ))
    })?;
    checked::<Vec<SerenityMessage>>(&shared, "message list", body)
}

/// One message; needs READ_MESSAGE_HISTORY in a guild channel (the refusal's code is not
/// documented; 50013 is a guess).
pub async fn get(
    State(shared): State<Arc<Shared>>,
    Path((channel, id)): Path<(u64, u64)>,
) -> ApiResult {
    let (channel, id) = (ChannelId::new(channel), MessageId::new(id));
    shared.read(|w| {
        visible(w, channel, id)?;
        if w.channel_permissions(w.bot, channel) & perms::READ_MESSAGE_HISTORY == 0 {
            return Err(ApiError::missing_permissions());
        }
        Ok(())
    })?;
    message_response(&shared, id)
}

pub async fn edit(
    State(shared): State<Arc<Shared>>,
    Path((channel, id)): Path<(u64, u64)>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let (channel, id) = (ChannelId::new(channel), MessageId::new(id));
    let mut draft = Draft::from_incoming(&incoming)?;
    shared.with(|w| {
        visible(w, channel, id)?;
        if w.messages[&id].author != w.bot {
            return Err(ApiError::not_author());
        }
        check_not_archived(w, channel)?;
        drop_unpermitted_embeds(w, channel, &mut draft);
        edit_message(w, id, draft)
    })?;
    announce(&shared, "MESSAGE_UPDATE", id);
    message_response(&shared, id)
}

/// Deleting works in archived threads too: it is the one thing Discord allows there.
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
