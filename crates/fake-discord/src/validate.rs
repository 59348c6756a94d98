//! Reads what the fake is about to send with serenity's own model types first. serenity drops
//! a gateway event whose JSON does not fit its models without a word (the test would just
//! hang), and a REST answer that does not fit becomes a vague error inside the bot; checking
//! here turns both into a loud failure naming the payload.

use serde::de::DeserializeOwned;
use serde_json::Value;
use serenity::all::{Event, GatewayEvent};

/// Deserialises `value` as `T`, or says what `what` is and why serenity refused it.
pub fn as_model<T: DeserializeOwned>(what: &str, value: &Value) -> Result<T, String> {
    serde_json::from_value(value.clone()).map_err(|e| format!("{what}: {e}; payload: {value}"))
}

/// Checks a whole dispatch frame the way the shard will read it: it must become
/// `GatewayEvent::Dispatch` of the named event, not `Event::Unknown` or an error.
pub fn check_dispatch(frame: &Value) -> Result<(), String> {
    let name = frame["t"].as_str().unwrap_or_default();
    match as_model::<GatewayEvent>(&format!("{name} dispatch"), frame)? {
        GatewayEvent::Dispatch(_, Event::Unknown(_)) => {
            Err(format!("serenity does not know the event {name}"))
        }
        GatewayEvent::Dispatch(_, event) if event.name().as_deref() == Some(name) => Ok(()),
        other => Err(format!("{name} was read as {other:?}")),
    }
}
