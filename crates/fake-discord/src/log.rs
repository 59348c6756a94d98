//! The raw record of the conversation between the bot and the fake, and the list of things
//! that must fail the test (faults) even when the bot seemed to cope.

use std::fmt;
use std::time::Duration;

use serde_json::Value;

/// One REST request as received, and the status the fake answered.
#[derive(Debug, Clone)]
pub struct RestLogEntry {
    pub method: String,
    /// Path below `/api/v10`, without the query.
    pub path: String,
    pub query: Option<String>,
    /// The JSON body (for multipart: the `payload_json` part).
    pub body: Option<Value>,
    /// Names of uploaded file parts (`files[0]`, …) with their file names.
    pub files: Vec<(String, String)>,
    pub status: u16,
    /// Discord's JSON error code when the fake refused the request (50007, 10062, …).
    pub error_code: Option<u64>,
    /// The connection was closed without an answer (`drop_next…`); `status` is then 0.
    pub dropped: bool,
    /// Time since the fake started.
    pub at: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Bot → fake.
    Received,
    /// Fake → bot.
    Sent,
}

/// One gateway frame; `connection` counts websocket connections from 1, so a resume shows
/// up as frames on connection 2.
#[derive(Debug, Clone)]
pub struct GatewayLogEntry {
    pub connection: u32,
    /// The shard the connection served when the frame passed: `None` before it identified
    /// or resumed (HELLO, a refused IDENTIFY and its close). An accepted IDENTIFY or RESUME
    /// is logged as its shard's.
    pub shard: Option<u16>,
    pub direction: Direction,
    pub frame: Value,
}

impl GatewayLogEntry {
    pub fn op(&self) -> Option<u64> {
        self.frame["op"].as_u64()
    }

    pub fn event_name(&self) -> Option<&str> {
        self.frame["t"].as_str()
    }
}

/// Something a test must not get away with.
#[derive(Debug, Clone)]
pub enum Fault {
    /// A request to a route the fake does not implement (the 404 fallback).
    UnknownRoute { method: String, path: String },
    /// A JSON body that breaks the OpenAPI request schema of its route.
    SchemaViolation {
        method: String,
        path: String,
        template: String,
        errors: Vec<String>,
    },
    /// A JSON body on a route the spec gives no JSON body schema.
    UnexpectedBody { method: String, path: String },
    /// The fake built a payload serenity's models reject: a fixture bug, which would
    /// otherwise make serenity drop the event silently.
    BadPayload { what: String, error: String },
    /// A gateway frame the fake could not understand.
    BadGatewayFrame { text: String },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::UnknownRoute { method, path } => {
                write!(f, "unknown route {method} /api/v10{path} (answered 404)")
            }
            Fault::SchemaViolation {
                method,
                path,
                template,
                errors,
            } => write!(
                f,
                "{method} {path} breaks the OpenAPI request schema of {template}:\n    {}",
                errors.join("\n    ")
            ),
            Fault::UnexpectedBody { method, path } => {
                write!(
                    f,
                    "{method} {path} sent a JSON body the spec does not expect"
                )
            }
            Fault::BadPayload { what, error } => {
                write!(f, "fake built a {what} serenity cannot read: {error}")
            }
            Fault::BadGatewayFrame { text } => write!(f, "unreadable gateway frame: {text}"),
        }
    }
}
