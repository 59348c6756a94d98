//! Turns a request body into what the handlers work with: the JSON payload (plain JSON, or
//! the `payload_json` part of a multipart upload) and the uploaded files.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart};
use axum::http::{Request, header};
use serde_json::Value;

/// A file part of a multipart request (`files[N]`).
#[derive(Debug, Clone)]
pub struct Upload {
    /// The form field name, e.g. `files[0]`.
    pub field: String,
    pub filename: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

impl Upload {
    /// N in `files[N]`: the id the payload's `attachments` entry uses for this file.
    pub fn index(&self) -> Option<u64> {
        self.field
            .strip_prefix("files[")?
            .strip_suffix(']')?
            .parse()
            .ok()
    }
}

/// The parsed body, put into the request extensions by the REST middleware.
#[derive(Debug, Clone, Default)]
pub struct Incoming {
    pub json: Option<Value>,
    pub uploads: Vec<Upload>,
}

impl Incoming {
    /// The JSON body, or an empty object for bodiless requests.
    pub fn json(&self) -> Value {
        self.json
            .clone()
            .unwrap_or_else(|| Value::Object(Default::default()))
    }
}

/// Why a body could not be read (answered 400 / 50109 like Discord's "invalid JSON").
pub struct BadBody(pub String);

/// `parts` are the request's own (their extensions carry the raised body limit that the
/// multipart reader honours).
pub async fn parse(parts: &axum::http::request::Parts, bytes: Bytes) -> Result<Incoming, BadBody> {
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if content_type.starts_with("multipart/form-data") {
        return parse_multipart(parts, bytes).await;
    }
    if bytes.is_empty() {
        return Ok(Incoming::default());
    }
    let json = serde_json::from_slice(&bytes).map_err(|e| BadBody(format!("invalid JSON: {e}")))?;
    Ok(Incoming {
        json: Some(json),
        uploads: Vec::new(),
    })
}

async fn parse_multipart(
    parts: &axum::http::request::Parts,
    bytes: Bytes,
) -> Result<Incoming, BadBody> {
    let request = Request::from_parts(parts.clone(), Body::from(bytes));
    let mut form = Multipart::from_request(request, &())
        .await
        .map_err(|e| BadBody(format!("bad multipart: {e}")))?;
    let mut incoming = Incoming::default();
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|e| BadBody(e.to_string()))?
    {
        let name = field.name().unwrap_or_default().to_string();
        let filename = field.file_name().map(str::to_string);
        let part_type = field
            .content_type()
            .unwrap_or("application/octet-stream")
            .to_string();
        let data = field.bytes().await.map_err(|e| BadBody(e.to_string()))?;
        if name == "payload_json" {
            let json = serde_json::from_slice(&data)
                .map_err(|e| BadBody(format!("invalid payload_json: {e}")))?;
            incoming.json = Some(json);
        } else {
            incoming.uploads.push(Upload {
                filename: filename.unwrap_or_else(|| name.clone()),
                field: name,
                content_type: part_type,
                bytes: data.to_vec(),
            });
        }
    }
    Ok(incoming)
}
