//! Raw HTTP to the fake, as a bot would send it, for tests that look below serenity: exact
//! status codes, error bodies, connections that drop.

use serde_json::Value;

use fake_discord::{BOT_TOKEN, FakeDiscord, guarded_reqwest_client};

/// Sends `body` (if any) as JSON with the bot's token to `path` below `/api/v10`; the status
/// and the JSON answer (`Null` when there is none). Fails only if no answer came.
pub async fn send(
    fake: &FakeDiscord,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> Result<(u16, Value), reqwest::Error> {
    let mut request = guarded_reqwest_client()
        .request(method, format!("{}/api/v10{path}", fake.base_url()))
        .header("Authorization", format!("Bot {BOT_TOKEN}"));
    if let Some(body) = body {
        request = request
            .header("Content-Type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await?;
    let status = response.status().as_u16();
    let bytes = response.bytes().await?;
    Ok((
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    ))
}

/// Posts `body` to a channel; panics if no answer came.
pub async fn post_message(
    fake: &FakeDiscord,
    channel: impl std::fmt::Display,
    body: Value,
) -> (u16, Value) {
    let path = format!("/channels/{channel}/messages");
    send(fake, reqwest::Method::POST, &path, Some(body))
        .await
        .expect("an answer from the fake")
}
