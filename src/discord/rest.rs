//! The REST calls whose failures the bot handles itself: what the outbox sender posts,
//! edits and opens (messages, DMs, threads). They go out through serenity's request types
//! and the same HTTP client and base URL as everything else, but the whole response is read
//! here, so that a 429's `retry_after`, a 5xx and Discord's error code each reach the sender
//! as a typed value (serenity keeps only part of an error response).
//!
//! Discord's rate-limit headers are honoured before a request is made: when a route's bucket
//! is empty the call waits for it to refill, so the bot rarely meets a 429 at all.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use serenity::all::{CreateActionRow, CreateAttachment};

use crate::id;
use serenity::http::{LightMethod, Multipart, MultipartUpload, Request, Route};
use tokio::sync::{Mutex, Semaphore};

/// The sender's requests in flight at once. Each game's rows go out in order on their own
/// task, so a thousand games catching up would otherwise open a thousand connections at
/// once (each with its buffers) for no gain: Discord takes 50 requests a second from a bot.
const SENDS_IN_FLIGHT: usize = 8;

/// Why a call failed, as far as the caller needs to know.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RestError {
    /// 429: try again after this long.
    #[error("rate limited for {retry_after:?}")]
    RateLimited { retry_after: Duration },
    /// 5xx, or no answer at all: Discord may recover.
    #[error("Discord is unavailable ({0})")]
    Unavailable(String),
    /// 4xx: Discord refused, with its JSON error code (50007: DMs closed, 10003: unknown
    /// channel, 50001/50013: missing access or permissions, 160004: thread exists…).
    #[error("{status} (code {code}): {message}")]
    Refused {
        status: u16,
        code: i64,
        message: String,
    },
    /// A success whose body could not be read.
    #[error("unreadable answer: {0}")]
    Decode(String),
}

impl RestError {
    /// Discord's error code of a refusal.
    pub fn code(&self) -> Option<i64> {
        match self {
            RestError::Refused { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// A failure worth retrying later (rate limit, outage), as opposed to a refusal that
    /// will not change.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            RestError::RateLimited { .. } | RestError::Unavailable(_)
        )
    }
}

pub type RestResult<T> = Result<T, RestError>;

/// A message to post.
#[derive(Clone, Debug, Default)]
pub struct NewMessage {
    pub content: String,
    /// Users who may be pinged (everyone else mentioned is shown, not pinged).
    pub ping: Vec<id::UserId>,
    pub components: Vec<CreateActionRow>,
    /// A PNG file name and its bytes.
    pub image: Option<(String, Vec<u8>)>,
    /// Discord's de-duplication key: a second post with the same nonce in the same channel
    /// within a few minutes returns the first message instead of making another.
    pub nonce: Option<String>,
}

/// A posted message, as far as the sender needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Posted {
    pub channel: id::ChannelId,
    pub message: id::MessageId,
}

pub struct Rest {
    client: reqwest::Client,
    token: String,
    /// The base URL replacing `https://discord.com` (a test fake, a self-hosted server).
    base: Option<String>,
    /// When each rate-limit bucket (by route) may be used again.
    buckets: Mutex<HashMap<String, Instant>>,
    /// [`SENDS_IN_FLIGHT`] permits.
    in_flight: Semaphore,
}

impl Rest {
    pub fn new(client: reqwest::Client, token: &str, base: Option<String>) -> Rest {
        let token = if token.starts_with("Bot ") {
            token.to_string()
        } else {
            format!("Bot {token}")
        };
        Rest {
            client,
            token,
            base,
            buckets: Mutex::new(HashMap::new()),
            in_flight: Semaphore::new(SENDS_IN_FLIGHT),
        }
    }

    /// Sends a request and reads its whole answer.
    async fn send(&self, bucket: String, request: Request<'_>) -> RestResult<Value> {
        let ready = self.buckets.lock().await.get(&bucket).copied();
        if let Some(ready) = ready {
            tokio::time::sleep_until(ready.into()).await;
        }
        let _permit = self
            .in_flight
            .acquire()
            .await
            .expect("the semaphore is never closed");
        let built = request
            .build(&self.client, &self.token, self.base.as_deref())
            .map_err(|e| RestError::Decode(e.to_string()))?;
        let response = built
            .send()
            .await
            .map_err(|e| RestError::Unavailable(e.to_string()))?;
        let status = response.status();
        let headers = response.headers().clone();
        self.note_bucket(bucket, &headers).await;
        let body = response
            .bytes()
            .await
            .map_err(|e| RestError::Unavailable(e.to_string()))?;
        let json: Value = if body.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&body).unwrap_or(Value::Null)
        };
        if status.is_success() {
            return Ok(json);
        }
        if status.as_u16() == 429 {
            let seconds = json["retry_after"]
                .as_f64()
                .or_else(|| header_f64(&headers, "retry-after"))
                .unwrap_or(1.0);
            return Err(RestError::RateLimited {
                retry_after: Duration::from_secs_f64(seconds.clamp(0.0, 3600.0)),
            });
        }
        if status.is_server_error() {
            return Err(RestError::Unavailable(status.to_string()));
        }
        Err(RestError::Refused {
            status: status.as_u16(),
            code: json["code"].as_i64().unwrap_or(0),
            message: json["message"].as_str().unwrap_or_default().to_string(),
        })
    }

    /// Remembers when an exhausted bucket refills.
    async fn note_bucket(&self, bucket: String, headers: &HeaderMap) {
        let remaining = headers
            .get("x-ratelimit-remaining")
            .and_then(|v| v.to_str().ok());
        if remaining == Some("0")
            && let Some(after) = header_f64(headers, "x-ratelimit-reset-after")
        {
            let ready = Instant::now() + Duration::from_secs_f64(after.clamp(0.0, 60.0));
            self.buckets.lock().await.insert(bucket, ready);
        }
    }

    /// Posts a message in a channel, thread or DM.
    pub async fn post(&self, channel: id::ChannelId, message: &NewMessage) -> RestResult<Posted> {
        let mut body = json!({
            "content": message.content,
            "allowed_mentions": {
                "parse": [],
                "users": message.ping.iter().map(id::UserId::to_string).collect::<Vec<_>>(),
            },
            "components": message.components,
        });
        if let Some(nonce) = &message.nonce {
            body["nonce"] = nonce.clone().into();
            body["enforce_nonce"] = true.into();
        }
        let route = Route::ChannelMessages {
            channel_id: channel.into(),
        };
        let request = Request::new(route, LightMethod::Post);
        let request = match &message.image {
            None => request.body(Some(body.to_string().into_bytes())),
            Some((name, bytes)) => {
                body["attachments"] = json!([{"id": 0, "filename": name}]);
                request.multipart(Some(Multipart {
                    upload: MultipartUpload::Attachments(vec![CreateAttachment::bytes(
                        bytes.clone(),
                        name.clone(),
                    )]),
                    fields: vec![],
                    payload_json: Some(body.to_string()),
                }))
            }
        };
        let answer = self
            .send(format!("POST /channels/{channel}/messages"), request)
            .await?;
        Ok(Posted {
            channel,
            message: id::MessageId::new(snowflake(&answer["id"])?),
        })
    }

    /// Replaces a message's text and components (its attachments stay).
    pub async fn edit(
        &self,
        channel: id::ChannelId,
        message: id::MessageId,
        content: &str,
        components: &[CreateActionRow],
    ) -> RestResult<()> {
        let body = json!({
            "content": content,
            "components": components,
            "allowed_mentions": {"parse": []},
        });
        self.patch_message(channel, message, body).await
    }

    /// Takes the components off a message, leaving its text and pictures as they are.
    pub async fn remove_components(
        &self,
        channel: id::ChannelId,
        message: id::MessageId,
    ) -> RestResult<()> {
        self.patch_message(channel, message, json!({"components": []}))
            .await
    }

    /// Edits a message with the fields `body` names.
    async fn patch_message(
        &self,
        channel: id::ChannelId,
        message: id::MessageId,
        body: serde_json::Value,
    ) -> RestResult<()> {
        let route = Route::ChannelMessage {
            channel_id: channel.into(),
            message_id: message.into(),
        };
        let request =
            Request::new(route, LightMethod::Patch).body(Some(body.to_string().into_bytes()));
        self.send(format!("PATCH /channels/{channel}/messages"), request)
            .await?;
        Ok(())
    }

    /// The DM channel with a user (opened if need be).
    pub async fn dm_channel(&self, user: id::UserId) -> RestResult<id::ChannelId> {
        let body = json!({"recipient_id": user.to_string()});
        let request = Request::new(Route::UserMeDmChannels, LightMethod::Post)
            .body(Some(body.to_string().into_bytes()));
        let answer = self
            .send("POST /users/@me/channels".into(), request)
            .await?;
        snowflake(&answer["id"]).map(id::ChannelId::new)
    }

    /// Opens a public thread on a message; its id is the message's.
    pub async fn thread_from_message(
        &self,
        channel: id::ChannelId,
        message: id::MessageId,
        name: &str,
    ) -> RestResult<id::ChannelId> {
        let body = json!({"name": name, "auto_archive_duration": 10080});
        let route = Route::ChannelMessageThreads {
            channel_id: channel.into(),
            message_id: message.into(),
        };
        let request =
            Request::new(route, LightMethod::Post).body(Some(body.to_string().into_bytes()));
        let answer = self
            .send(format!("POST /channels/{channel}/threads"), request)
            .await?;
        snowflake(&answer["id"]).map(id::ChannelId::new)
    }

    /// Opens a public thread without a starter message.
    pub async fn thread(&self, channel: id::ChannelId, name: &str) -> RestResult<id::ChannelId> {
        let body = json!({"name": name, "type": 11, "auto_archive_duration": 10080});
        let route = Route::ChannelThreads {
            channel_id: channel.into(),
        };
        let request =
            Request::new(route, LightMethod::Post).body(Some(body.to_string().into_bytes()));
        let answer = self
            .send(format!("POST /channels/{channel}/threads"), request)
            .await?;
        snowflake(&answer["id"]).map(id::ChannelId::new)
    }

    /// A user's display name (global name, else user name).
    pub async fn user_name(&self, user: id::UserId) -> RestResult<String> {
        let route = Route::User {
            user_id: user.into(),
        };
        let answer = self
            .send("GET /users".into(), Request::new(route, LightMethod::Get))
            .await?;
        let name = answer["global_name"]
            .as_str()
            .or_else(|| answer["username"].as_str())
            .unwrap_or_default();
        Ok(name.to_string())
    }
}

fn header_f64(headers: &HeaderMap, name: &str) -> Option<f64> {
    headers.get(name)?.to_str().ok()?.parse().ok()
}

/// Discord ids are strings of digits in JSON.
fn snowflake(value: &Value) -> RestResult<u64> {
    value
        .as_str()
        .and_then(|s| s.parse().ok())
        .or_else(|| value.as_u64())
        .ok_or_else(|| RestError::Decode(format!("no id in {value}")))
}
