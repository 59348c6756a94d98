//! Answering interactions: the callback endpoint (one initial response, within the
//! deadline, of a type that fits the interaction) and the interaction webhook (followups,
//! the original response and its edits).

use std::sync::Arc;

use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serenity::all::{InteractionId, MessageId};

use super::super::Shared;
use super::super::body::Incoming;
use super::super::interact::INTERACTION_TOKEN_PREFIX;
use super::super::world::{Callback, Interaction, InteractionKind, World, flags};
use super::messages::{Draft, Origin, announce, create_message, edit_message, message_response};
use super::{ApiError, ApiResult, Arrived};

/// Callback types Discord accepts for each kind of interaction.
fn allowed(kind: InteractionKind, from_message: bool) -> &'static [u64] {
    match kind {
        InteractionKind::Command => &[4, 5, 9],
        InteractionKind::Component => &[4, 5, 6, 7, 9],
        InteractionKind::Autocomplete => &[8],
        // A modal submitted from a component may update that component's message. Type 6
        // is also accepted without one: Discord then just closes the modal (poise does this).
        InteractionKind::ModalSubmit if from_message => &[4, 5, 6, 7],
        InteractionKind::ModalSubmit => &[4, 5, 6],
    }
}

pub async fn callback(
    State(shared): State<Arc<Shared>>,
    Path((id, token)): Path<(u64, String)>,
    Extension(incoming): Extension<Incoming>,
    Extension(Arrived(arrived)): Extension<Arrived>,
) -> ApiResult {
    let id = InteractionId::new(id);
    let body = incoming.json();
    let kind = body["type"].as_u64().unwrap_or(0);
    let data = body.get("data").cloned().unwrap_or_default();
    let deadline = shared.config.response_deadline;
    let (created, updated) = shared.with(|w| {
        let ix = w
            .interactions
            .get(&id)
            .filter(|i| i.token == token)
            .ok_or_else(ApiError::unknown_interaction)?;
        if ix.callback.is_some() {
            return Err(ApiError::already_acknowledged());
        }
        // After the deadline Discord has forgotten the interaction.
        if arrived.saturating_duration_since(ix.created) > deadline {
            return Err(ApiError::unknown_interaction());
        }
        if !allowed(ix.kind, ix.source_message.is_some()).contains(&kind) {
            return Err(ApiError::invalid_form(format!(
                "Interaction callback type {kind} is not valid for a {:?} interaction",
                ix.kind
            )));
        }
        let ix = ix.clone();
        let (mut created, mut updated) = (None, None);
        let original = match kind {
            4 | 5 => {
                let draft = Draft::from_json(&data, &incoming.uploads)?;
                let extra = if kind == 5 { flags::LOADING } else { 0 };
                let origin = Origin {
                    channel: ix.channel,
                    author: w.bot,
                    interaction: Some(ix.id),
                };
                let message = create_message(w, origin, draft, extra)?;
                created = Some(message);
                Some(message)
            }
            7 => {
                let source = ix
                    .source_message
                    .expect("type 7 is only allowed with a message");
                edit_message(w, source, Draft::from_json(&data, &incoming.uploads)?)?;
                updated = Some(source);
                Some(source)
            }
            // A deferred update's original response is the component's message.
            6 => ix.source_message,
            _ => None,
        };
        let stored = w.interactions.get_mut(&id).expect("found above");
        stored.callback = Some(Callback {
            kind: kind as u8,
            data,
        });
        stored.answered = Some(arrived);
        stored.original = original;
        Ok((created, updated))
    })?;
    if let Some(message) = created {
        announce(&shared, "MESSAGE_CREATE", message);
    }
    if let Some(message) = updated {
        announce(&shared, "MESSAGE_UPDATE", message);
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// The acknowledged interaction behind a webhook token (Discord: 10015 before the ack).
fn by_token<'a>(w: &'a World, app: u64, token: &str) -> Result<&'a Interaction, ApiError> {
    if app != w.app_id {
        return Err(ApiError::unknown_webhook());
    }
    // The fake's tokens name their interaction (`send_interaction`): a lookup, not a walk
    // through every interaction so far.
    token
        .strip_prefix(INTERACTION_TOKEN_PREFIX)
        .and_then(|id| id.parse::<u64>().ok())
        .filter(|id| *id != 0)
        .and_then(|id| w.interactions.get(&InteractionId::new(id)))
        .filter(|i| i.token == token && i.callback.is_some())
        .ok_or_else(ApiError::unknown_webhook)
}

/// A followup. The first followup after a deferred reply (type 5) does not make a new
/// message: it fills in the "thinking…" placeholder, as Discord does.
pub async fn followup(
    State(shared): State<Arc<Shared>>,
    Path((app, token)): Path<(u64, String)>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let draft = Draft::from_incoming(&incoming)?;
    let (message, created) = shared.with(|w| {
        let ix = by_token(w, app, &token)?.clone();
        let placeholder = ix
            .original
            .filter(|m| w.messages.get(m).is_some_and(|m| m.is_loading()));
        if let Some(original) = placeholder {
            edit_message(w, original, draft)?;
            return Ok((original, false));
        }
        let origin = Origin {
            channel: ix.channel,
            author: w.bot,
            interaction: Some(ix.id),
        };
        let message = create_message(w, origin, draft, 0)?;
        w.interactions
            .get_mut(&ix.id)
            .expect("found")
            .followups
            .push(message);
        Ok((message, true))
    })?;
    announce(
        &shared,
        if created {
            "MESSAGE_CREATE"
        } else {
            "MESSAGE_UPDATE"
        },
        message,
    );
    message_response(&shared, message)
}

/// `@original` or one of the interaction's followups.
fn webhook_message(w: &World, app: u64, token: &str, which: &str) -> Result<MessageId, ApiError> {
    let ix = by_token(w, app, token)?;
    let id = if which == "@original" {
        ix.original.ok_or_else(ApiError::unknown_message)?
    } else {
        let id = MessageId::new(which.parse().map_err(|_| ApiError::unknown_message())?);
        if ix.original != Some(id) && !ix.followups.contains(&id) {
            return Err(ApiError::unknown_message());
        }
        id
    };
    match w.messages.get(&id) {
        Some(m) if !m.deleted => Ok(id),
        _ => Err(ApiError::unknown_message()),
    }
}

pub async fn get_webhook_message(
    State(shared): State<Arc<Shared>>,
    Path((app, token, which)): Path<(u64, String, String)>,
) -> ApiResult {
    let id = shared.read(|w| webhook_message(w, app, &token, &which))?;
    message_response(&shared, id)
}

pub async fn edit_webhook_message(
    State(shared): State<Arc<Shared>>,
    Path((app, token, which)): Path<(u64, String, String)>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    let draft = Draft::from_incoming(&incoming)?;
    let id = shared.with(|w| {
        let id = webhook_message(w, app, &token, &which)?;
        edit_message(w, id, draft)?;
        Ok(id)
    })?;
    announce(&shared, "MESSAGE_UPDATE", id);
    message_response(&shared, id)
}

pub async fn delete_webhook_message(
    State(shared): State<Arc<Shared>>,
    Path((app, token, which)): Path<(u64, String, String)>,
) -> ApiResult {
    let id = shared.read(|w| webhook_message(w, app, &token, &which))?;
    announce(&shared, "MESSAGE_DELETE", id);
    shared.with(|w| w.messages.get_mut(&id).expect("found").deleted = true);
    Ok(StatusCode::NO_CONTENT.into_response())
}
