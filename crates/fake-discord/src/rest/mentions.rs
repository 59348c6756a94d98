//! Who a message pings: the user mentions (`<@id>`, `<@!id>`) in its text, let through by its
//! `allowed_mentions` as Discord does. The text is the content, or the text components of a
//! message built from components (IS_COMPONENTS_V2). Role and @everyone mentions are not
//! modelled: the bot has no reason to make them.

use axum::http::StatusCode;
use serde_json::{Value, json};
use serenity::all::UserId;

use super::super::world::{World, flags};
use super::ApiError;

/// Refuses what Discord refuses: `parse` naming a type together with a non-empty list of ids
/// of that type (they are mutually exclusive; an empty or null list is tolerated).
pub fn check(allowed: Option<&Value>) -> Result<(), ApiError> {
    let Some(allowed) = allowed else {
        return Ok(());
    };
    for (kind, list) in [("users", "users"), ("roles", "roles")] {
        let ids = allowed[list].as_array().map_or(0, Vec::len);
        if parses(allowed, kind) && ids > 0 {
            let message =
                format!("parse:[\"{kind}\"] and {list}: [ids...] are mutually exclusive.");
            let errors = json!({"allowed_mentions": {"_errors": [
                {"code": "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", "message": message}
            ]}});
            return Err(
                ApiError::new(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body")
                    .with_errors(errors),
            );
        }
    }
    Ok(())
}

/// The known users a message with this text pings under `allowed`, in order of first mention.
/// Without `allowed_mentions` Discord parses every user mention (its defaults differ between
/// channel messages and interactions only for roles and @everyone).
pub fn pinged(
    w: &World,
    content: &str,
    components: &[Value],
    message_flags: u64,
    allowed: Option<&Value>,
) -> Vec<UserId> {
    let mut text = Vec::new();
    if message_flags & flags::COMPONENTS_V2 != 0 {
        collect_text(components, &mut text);
    } else {
        text.push(content.to_string());
    }
    let mut users: Vec<UserId> = Vec::new();
    for id in text.iter().flat_map(|t| user_mentions(t)) {
        if !users.contains(&id) && w.user(id).is_some() && lets_through(allowed, id) {
            users.push(id);
        }
    }
    users
}

fn parses(allowed: &Value, kind: &str) -> bool {
    allowed["parse"]
        .as_array()
        .is_some_and(|p| p.iter().any(|k| k == kind))
}

fn lets_through(allowed: Option<&Value>, user: UserId) -> bool {
    let Some(allowed) = allowed else {
        return true;
    };
    let listed = allowed["users"].as_array().is_some_and(|ids| {
        ids.iter().any(|id| {
            id.as_str()
                .and_then(|s| s.parse().ok())
                .or_else(|| id.as_u64())
                == Some(user.get())
        })
    });
    parses(allowed, "users") || listed
}

/// The ids of `<@id>` and `<@!id>` in a text.
fn user_mentions(text: &str) -> Vec<UserId> {
    let mut found = Vec::new();
    for (start, _) in text.match_indices("<@") {
        let rest = &text[start + 2..];
        let rest = rest.strip_prefix('!').unwrap_or(rest);
        let digits: &str = &rest[..rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len())];
        if rest[digits.len()..].starts_with('>')
            && let Ok(id) = digits.parse::<u64>()
            && id != 0
        {
            found.push(UserId::new(id));
        }
    }
    found
}

/// The `content` of every text display in a component tree.
fn collect_text(components: &[Value], out: &mut Vec<String>) {
    for c in components {
        if let Some(text) = c.get("content").and_then(Value::as_str) {
            out.push(text.to_string());
        }
        for key in ["components", "accessory"] {
            match c.get(key) {
                Some(Value::Array(children)) => collect_text(children, out),
                Some(child @ Value::Object(_)) => collect_text(std::slice::from_ref(child), out),
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_user_mentions_in_both_forms() {
        assert_eq!(
            user_mentions("<@12> and <@!34>, not <@&56>, <@> or <@7x>"),
            [UserId::new(12), UserId::new(34)]
        );
    }
}
