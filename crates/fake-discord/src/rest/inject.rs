//! Trouble the test asks for, one request at a time: a 429, an error status, or a connection
//! closed without an answer, either before the request is applied (nothing happened) or after
//! (Discord did it, but the bot never heard back — what `nonce` + `enforce_nonce` guard
//! against). A rule names a method and a route (a spec path template such as
//! `/channels/{channel_id}/messages`, or a literal path) and is used up by the first request
//! that matches it.

use std::io;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::super::schema::ApiSpec;
use super::super::{FakeDiscord, Shared};
use super::ApiError;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Trouble {
    /// 429 with `retry_after` seconds; the request is not applied.
    RateLimit { retry_after: f64 },
    /// An error status with a Discord-like body, instead of or after applying the request.
    Status { status: u16, after_applying: bool },
    /// The connection closes without a response, before or after applying the request.
    Drop { after_applying: bool },
}

impl Trouble {
    /// Whether the request is applied before the trouble strikes.
    pub fn after_applying(self) -> bool {
        match self {
            Trouble::RateLimit { .. } => false,
            Trouble::Status { after_applying, .. } | Trouble::Drop { after_applying } => {
                after_applying
            }
        }
    }

    /// What the bot gets instead of the real answer.
    pub fn response(self) -> Response {
        match self {
            Trouble::RateLimit { retry_after } => rate_limited(retry_after),
            Trouble::Status { status, .. } => {
                let status = StatusCode::from_u16(status).expect("a valid HTTP status");
                let reason = status.canonical_reason().unwrap_or("Error");
                ApiError::new(status, 0, format!("{}: {reason}", status.as_u16())).into_response()
            }
            Trouble::Drop { .. } => dropped(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Rule {
    pub method: String,
    pub route: String,
    pub trouble: Trouble,
}

/// Marks a response whose connection is to be cut, for the REST log.
#[derive(Debug, Clone, Copy)]
pub struct Dropped;

/// Takes the first rule matching this request, if any.
pub fn take(shared: &Shared, method: &str, path: &str) -> Option<Trouble> {
    let template = ApiSpec::get().match_path(path);
    let mut rules = shared.troubles.lock().unwrap_or_else(|p| p.into_inner());
    let position = rules.iter().position(|r| {
        r.method.eq_ignore_ascii_case(method)
            && (Some(r.route.as_str()) == template || r.route == path)
    })?;
    Some(rules.remove(position).trouble)
}

/// A 429 as Discord sends it: the body's `retry_after` in seconds (fractional), the
/// `Retry-After` header rounded up, and the bucket headers.
fn rate_limited(retry_after: f64) -> Response {
    let body = json!({"message": "You are being rate limited.", "retry_after": retry_after, "global": false});
    let mut response = (StatusCode::TOO_MANY_REQUESTS, axum::Json(body)).into_response();
    let headers = response.headers_mut();
    let ceil = retry_after.ceil().max(1.0) as u64;
    let pairs = [
        ("retry-after", ceil.to_string()),
        ("x-ratelimit-limit", "5".into()),
        ("x-ratelimit-remaining", "0".into()),
        ("x-ratelimit-reset-after", format!("{retry_after:.3}")),
        ("x-ratelimit-bucket", "fake-bucket".into()),
        ("x-ratelimit-scope", "user".into()),
    ];
    for (name, value) in pairs {
        headers.insert(name, HeaderValue::from_str(&value).expect("ascii header"));
    }
    response
}

/// A response whose body fails before its first byte: hyper then closes the connection
/// without sending anything, so the client sees the connection drop mid-request.
fn dropped() -> Response {
    let failing = serenity::futures::stream::once(async {
        Err::<Bytes, io::Error>(io::Error::other("connection dropped by the test"))
    });
    let mut response = Response::new(Body::from_stream(failing));
    response.extensions_mut().insert(Dropped);
    response
}

impl FakeDiscord {
    fn add_trouble(&self, method: &str, route: &str, trouble: Trouble) {
        let rule = Rule {
            method: method.into(),
            route: route.into(),
            trouble,
        };
        self.shared
            .troubles
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(rule);
    }

    /// The next request matching `method` and `route` (a spec path template such as
    /// `/channels/{channel_id}/messages`, or a literal path) gets a 429 with `retry_after`
    /// seconds, and is not applied.
    pub fn rate_limit_next(&self, method: &str, route: &str, retry_after: f64) {
        self.add_trouble(method, route, Trouble::RateLimit { retry_after });
    }

    /// The next matching request fails with `status` (e.g. 500) and a Discord-like body
    /// (`{"message": "500: Internal Server Error", "code": 0}`); it is not applied.
    pub fn fail_next(&self, method: &str, route: &str, status: u16) {
        assert!(status >= 400, "fake Discord: {status} is not a failure");
        let trouble = Trouble::Status {
            status,
            after_applying: false,
        };
        self.add_trouble(method, route, trouble);
    }

    /// The next matching request is applied (the message is created, its gateway event sent)
    /// but answered with `status` instead: Discord did it, the bot believes it failed.
    pub fn fail_next_after_applying(&self, method: &str, route: &str, status: u16) {
        assert!(status >= 400, "fake Discord: {status} is not a failure");
        let trouble = Trouble::Status {
            status,
            after_applying: true,
        };
        self.add_trouble(method, route, trouble);
    }

    /// The next matching request gets no answer: the connection closes. It is not applied.
    pub fn drop_next(&self, method: &str, route: &str) {
        let trouble = Trouble::Drop {
            after_applying: false,
        };
        self.add_trouble(method, route, trouble);
    }

    /// The next matching request is applied, then its connection closes without an answer.
    pub fn drop_next_after_applying(&self, method: &str, route: &str) {
        let trouble = Trouble::Drop {
            after_applying: true,
        };
        self.add_trouble(method, route, trouble);
    }
}
