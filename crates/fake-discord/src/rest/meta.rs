//! Start-up endpoints (gateway URL, application info) and command registration.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use serenity::all::{Command as SerenityCommand, CurrentApplicationInfo, GuildId};

use super::super::Shared;
use super::super::body::Incoming;
use super::super::log::Fault;
use super::super::validate::as_model;
use super::super::world::{Command, World, next_snowflake};
use super::{ApiError, ApiResult};

fn ws_url(shared: &Shared) -> String {
    format!(
        "{}/gateway",
        shared.read(|w| w.base_url.replace("http://", "ws://"))
    )
}

/// serenity asks this before connecting and falls back to the real gateway if it fails, so
/// the fake always answers.
pub async fn gateway(State(shared): State<Arc<Shared>>) -> Response {
    Json(json!({"url": ws_url(&shared)})).into_response()
}

/// The shard count is the fake's configured one, which IDENTIFY must then use; one shard
/// may start at a time (`max_concurrency`), as for any bot in fewer than 150 000 guilds.
pub async fn gateway_bot(State(shared): State<Arc<Shared>>) -> Response {
    Json(json!({
        "url": ws_url(&shared),
        "shards": shared.config.shards,
        "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1},
    }))
    .into_response()
}

/// poise reads the owners from here at start-up.
pub async fn application(State(shared): State<Arc<Shared>>) -> ApiResult {
    let body = shared.read(|w| {
        let owner = w
            .guilds
            .values()
            .next()
            .map(|g| g.owner)
            .and_then(|o| w.user(o))
            .map(|u| u.to_json());
        json!({
            "id": w.app_id.to_string(),
            "name": "Jackal",
            "icon": null,
            "description": "",
            "rpc_origins": [],
            "bot_public": true,
            "bot_require_code_grant": false,
            "owner": owner,
            "verify_key": "0".repeat(64),
            "team": null,
            "flags": 0,
            "bot": w.users[&w.bot].to_json(),
        })
    });
    checked::<CurrentApplicationInfo>(&shared, "application info", body)
}

/// Answers `body` after checking serenity can read it as `T`; a fixture bug is a fault.
pub fn checked<T: serde::de::DeserializeOwned>(
    shared: &Shared,
    what: &str,
    body: Value,
) -> ApiResult {
    if let Err(error) = as_model::<T>(what, &body) {
        shared.fault(Fault::BadPayload {
            what: what.into(),
            error: error.clone(),
        });
        return Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, 0, error));
    }
    Ok(Json(body).into_response())
}

fn check_app(shared: &Shared, app: u64) -> Result<(), ApiError> {
    if shared.read(|w| w.app_id) == app {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::FORBIDDEN,
            50001,
            "Missing Access",
        ))
    }
}

fn list(shared: &Shared, guild: Option<GuildId>) -> ApiResult {
    let body = shared.read(|w| commands_json(w, guild));
    checked::<Vec<SerenityCommand>>(shared, "command list", body)
}

fn commands_json(w: &World, guild: Option<GuildId>) -> Value {
    w.commands
        .iter()
        .filter(|c| c.guild == guild)
        .map(|c| c.to_json(w.app_id))
        .collect()
}

/// Bulk overwrite, as Discord does it: the new list replaces the old, and a command that
/// keeps its name keeps its id.
fn overwrite(shared: &Shared, guild: Option<GuildId>, incoming: &Incoming) -> ApiResult {
    let Some(Value::Array(definitions)) = &incoming.json else {
        return Err(ApiError::invalid_form("expected an array of commands"));
    };
    let body = shared.with(|w| {
        let old: Vec<Command> = w
            .commands
            .iter()
            .filter(|c| c.guild == guild)
            .cloned()
            .collect();
        w.commands.retain(|c| c.guild != guild);
        for definition in definitions {
            let name = definition["name"].as_str().unwrap_or_default();
            let id = old
                .iter()
                .find(|c| c.name() == name)
                .map_or_else(next_snowflake, |c| c.id);
            w.commands.push(Command {
                id,
                guild,
                definition: definition.clone(),
            });
        }
        commands_json(w, guild)
    });
    checked::<Vec<SerenityCommand>>(shared, "command list", body)
}

pub async fn list_global_commands(
    State(shared): State<Arc<Shared>>,
    Path(app): Path<u64>,
) -> ApiResult {
    check_app(&shared, app)?;
    list(&shared, None)
}

pub async fn put_global_commands(
    State(shared): State<Arc<Shared>>,
    Path(app): Path<u64>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    check_app(&shared, app)?;
    overwrite(&shared, None, &incoming)
}

pub async fn list_guild_commands(
    State(shared): State<Arc<Shared>>,
    Path((app, guild)): Path<(u64, u64)>,
) -> ApiResult {
    check_app(&shared, app)?;
    list(&shared, Some(GuildId::new(guild)))
}

pub async fn put_guild_commands(
    State(shared): State<Arc<Shared>>,
    Path((app, guild)): Path<(u64, u64)>,
    Extension(incoming): Extension<Incoming>,
) -> ApiResult {
    check_app(&shared, app)?;
    let guild = GuildId::new(guild);
    if !shared.read(|w| w.guilds.contains_key(&guild)) {
        return Err(ApiError::new(StatusCode::NOT_FOUND, 10004, "Unknown Guild"));
    }
    overwrite(&shared, Some(guild), &incoming)
}
