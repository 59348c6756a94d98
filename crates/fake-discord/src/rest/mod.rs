//! The HTTP side: Discord's REST API under `/api/v10`, the gateway websocket at `/gateway`
//! and uploaded files under `/cdn/`. One middleware sees every API request first: it logs
//! it, brings the trouble the test asked for (a 429, an error, a dropped connection), checks
//! the token, parses the body and validates it against the OpenAPI spec before any handler
//! runs.

mod channels;
mod errors;
mod inject;
mod interactions;
mod mentions;
mod messages;
mod meta;

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde_json::{Value, json};

pub use errors::{ApiError, ApiResult, ErrorCode};
pub use inject::Rule as TroubleRule;
pub use messages::MAX_FILE_BYTES;

use super::body::{self, BadBody, Incoming};
use super::log::{Fault, RestLogEntry};
use super::schema::ApiSpec;
use super::{BOT_TOKEN, Shared, gateway};

/// Requests larger than this are refused before parsing; Discord's own per-file limit
/// (10 MiB for bots without boosts) is checked by the message handlers.
const MAX_REQUEST_BYTES: usize = 64 * 1024 * 1024;

pub fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .route("/gateway", get(meta::gateway))
        .route("/gateway/bot", get(meta::gateway_bot))
        .route("/oauth2/applications/@me", get(meta::application))
        .route(
            "/applications/{app}/commands",
            get(meta::list_global_commands).put(meta::put_global_commands),
        )
        .route(
            "/applications/{app}/guilds/{guild}/commands",
            get(meta::list_guild_commands).put(meta::put_guild_commands),
        )
        .route(
            "/interactions/{id}/{token}/callback",
            post(interactions::callback),
        )
        .route("/webhooks/{app}/{token}", post(interactions::followup))
        .route(
            "/webhooks/{app}/{token}/messages/{message}",
            get(interactions::get_webhook_message)
                .patch(interactions::edit_webhook_message)
                .delete(interactions::delete_webhook_message),
        )
        .route("/users/@me/channels", post(channels::open_dm))
        .route("/users/{user}", get(channels::get_user))
        .route("/channels/{channel}", get(channels::get_channel))
        .route(
            "/channels/{channel}/messages",
            get(messages::list).post(messages::create),
        )
        .route(
            "/channels/{channel}/messages/{message}",
            get(messages::get)
                .patch(messages::edit)
                .delete(messages::delete),
        )
        .route(
            "/channels/{channel}/messages/{message}/threads",
            post(channels::thread_from_message),
        )
        .route(
            "/channels/{channel}/threads",
            post(channels::standalone_thread),
        )
        .route(
            "/channels/{channel}/thread-members/{user}",
            put(channels::add_thread_member),
        )
        .fallback(unknown_route)
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), inspect));
    Router::new()
        .nest("/api/v10", api)
        .route("/gateway", get(gateway::upgrade))
        .route(
            "/cdn/attachments/{channel}/{attachment}/{filename}",
            get(cdn),
        )
        .fallback(unknown_route)
        // Board pictures and other uploads exceed axum's 2 MB default.
        .layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES))
        .with_state(shared)
}

fn api_path(uri: &axum::http::Uri) -> String {
    let path = uri.path();
    path.strip_prefix("/api/v10").unwrap_or(path).to_string()
}

/// When a request reached the fake, before it read, logged and checked it: the moment
/// Discord would count an interaction as answered.
#[derive(Clone, Copy, Debug)]
pub struct Arrived(pub std::time::Instant);

async fn inspect(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let arrived = Arrived(std::time::Instant::now());
    let (parts, raw) = request.into_parts();
    let method = parts.method.to_string();
    let path = api_path(&parts.uri);
    let bytes = match to_bytes(raw, MAX_REQUEST_BYTES).await {
        Ok(bytes) => bytes,
        Err(_) => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                40005,
                "Request entity too large",
            )
            .into_response();
        }
    };
    let parsed = body::parse(&parts, bytes.clone()).await;
    let incoming = parsed.as_ref().cloned().unwrap_or_default();
    let entry = RestLogEntry {
        method: method.clone(),
        path: path.clone(),
        query: parts.uri.query().map(str::to_string),
        body: incoming.json.clone(),
        files: incoming
            .uploads
            .iter()
            .map(|u| (u.field.clone(), u.filename.clone()))
            .collect(),
        status: 0,
        error_code: None,
        dropped: false,
        at: shared.started.elapsed(),
    };
    let index = shared.with(|w| {
        w.rest_log.push(entry);
        w.rest_log.len() - 1
    });

    let trouble = inject::take(&shared, &method, &path);
    let response = match trouble {
        Some(trouble) if !trouble.after_applying() => trouble.response(),
        _ => match screen(&shared, &parts, &method, &path, parsed) {
            Err(refusal) => *refusal,
            Ok(incoming) => {
                let mut request = Request::from_parts(parts, Body::from(bytes));
                request.extensions_mut().insert(incoming);
                request.extensions_mut().insert(arrived);
                next.run(request).await
            }
        },
    };
    // Applied (or refused) as usual, but the answer is lost on the way back.
    let response = match trouble {
        Some(trouble) if trouble.after_applying() => trouble.response(),
        _ => response,
    };
    let dropped = response.extensions().get::<inject::Dropped>().is_some();
    let status = if dropped {
        0
    } else {
        response.status().as_u16()
    };
    let code = response.extensions().get::<ErrorCode>().map(|c| c.0);
    shared.with(|w| {
        let entry = &mut w.rest_log[index];
        entry.status = status;
        entry.error_code = code;
        entry.dropped = dropped;
    });
    response
}

/// Everything that may refuse a request before its handler: a bad token, an unreadable body,
/// a body that breaks the spec.
fn screen(
    shared: &Shared,
    parts: &axum::http::request::Parts,
    method: &str,
    path: &str,
    parsed: Result<Incoming, BadBody>,
) -> Result<Incoming, Box<Response>> {
    let spec = ApiSpec::get();
    // Interaction callbacks and webhooks are authorised by the token in their path; the
    // gateway URL is public.
    let token_in_path =
        path.starts_with("/interactions/") || path.starts_with("/webhooks/") || path == "/gateway";
    let authorised = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Bot {BOT_TOKEN}"));
    if !authorised && !token_in_path {
        return Err(
            ApiError::new(StatusCode::UNAUTHORIZED, 0, "401: Unauthorized")
                .into_response()
                .into(),
        );
    }
    let incoming = parsed.map_err(|BadBody(why)| {
        Box::new(
            ApiError::new(
                StatusCode::BAD_REQUEST,
                50109,
                format!("The request body contains invalid JSON. ({why})"),
            )
            .into_response(),
        )
    })?;
    if let Some(json) = &incoming.json {
        match spec.request_schema(method, path) {
            Some(request_schema) => {
                if let Err(errors) = spec.validate(request_schema.schema, json) {
                    let details = errors_by_field(&errors);
                    shared.fault(Fault::SchemaViolation {
                        method: method.into(),
                        path: path.into(),
                        template: request_schema.template.into(),
                        errors: errors.iter().map(ToString::to_string).collect(),
                    });
                    return Err(
                        ApiError::new(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body")
                            .with_errors(details)
                            .into_response()
                            .into(),
                    );
                }
            }
            None if spec.match_path(path).is_some() => {
                shared.fault(Fault::UnexpectedBody {
                    method: method.into(),
                    path: path.into(),
                });
            }
            // An unknown route: the fallback records it.
            None => {}
        }
    }
    Ok(incoming)
}

/// Discord's nested error layout (`{"content": {"_errors": [{code, message}]}}`), which
/// serenity flattens into `DiscordJsonError::errors`.
fn errors_by_field(errors: &[super::schema::SchemaError]) -> Value {
    let mut root = json!({});
    for e in errors {
        let mut node = &mut root;
        for key in e.at.split('/').filter(|k| !k.is_empty()) {
            node = node
                .as_object_mut()
                .expect("object")
                .entry(key)
                .or_insert_with(|| json!({}));
        }
        let list = node
            .as_object_mut()
            .expect("object")
            .entry("_errors")
            .or_insert_with(|| json!([]));
        if let Some(list) = list.as_array_mut() {
            list.push(json!({"code": "SCHEMA_INVALID", "message": e.problem}));
        }
    }
    root
}

/// The 404 fallback: recorded as a fault, so a test notices the bot called something the
/// fake (and maybe Discord) does not have.
async fn unknown_route(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    shared.fault(Fault::UnknownRoute {
        method: request.method().to_string(),
        path: api_path(request.uri()),
    });
    ApiError::new(StatusCode::NOT_FOUND, 0, "404: Not Found").into_response()
}

/// Serves an uploaded file back, as Discord's CDN does for attachment URLs.
async fn cdn(
    State(shared): State<Arc<Shared>>,
    Path((_channel, attachment, _filename)): Path<(u64, u64, String)>,
) -> Response {
    let found = shared.read(|w| {
        w.messages
            .values()
            .flat_map(|m| &m.attachments)
            .find(|a| a.id == attachment)
            .map(|a| (a.content_type.clone(), a.bytes.to_vec()))
    });
    match found {
        Some((content_type, bytes)) => {
            ([(header::CONTENT_TYPE, content_type)], bytes).into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}
