//! Discord's error answers: an HTTP status plus a JSON body `{message, code[, errors]}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// Put into a refusal's response extensions so the REST log can show the Discord code.
#[derive(Debug, Clone, Copy)]
pub struct ErrorCode(pub u64);

#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: u64,
    message: String,
    errors: Option<Value>,
}

pub type ApiResult = Result<Response, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, code: u64, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            errors: None,
        }
    }

    pub fn with_errors(mut self, errors: Value) -> ApiError {
        self.errors = Some(errors);
        self
    }

    pub fn unknown_channel() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, 10003, "Unknown Channel")
    }

    pub fn unknown_message() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, 10008, "Unknown Message")
    }

    pub fn unknown_webhook() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, 10015, "Unknown Webhook")
    }

    pub fn unknown_interaction() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, 10062, "Unknown interaction")
    }

    pub fn already_acknowledged() -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        )
    }

    pub fn cannot_dm() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            50007,
            "Cannot send messages to this user",
        )
    }

    pub fn missing_access() -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, 50001, "Missing Access")
    }

    pub fn missing_permissions() -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, 50013, "Missing Permissions")
    }

    pub fn not_author() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            50005,
            "Cannot edit a message authored by another user",
        )
    }

    pub fn thread_archived() -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, 50083, "Thread is archived")
    }

    pub fn empty_message() -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            50006,
            "Cannot send an empty message",
        )
    }

    /// A request the spec allows but Discord refuses for this state (e.g. a callback type
    /// that does not fit the interaction).
    pub fn invalid_form(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, 50035, message)
    }

    pub fn too_large() -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            40005,
            "Request entity too large",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({"message": self.message, "code": self.code});
        if let Some(errors) = self.errors {
            body["errors"] = errors;
        }
        let mut response = (self.status, Json(body)).into_response();
        response.extensions_mut().insert(ErrorCode(self.code));
        response
    }
}
