//! The gateway: a websocket speaking Discord's JSON text-frame protocol. HELLO → IDENTIFY →
//! READY (+ GUILD_CREATE) on a new session; heartbeats acknowledged; RESUME on a later
//! connection replays the dispatches the bot missed and ends with RESUMED. A new bot process
//! (after the old one died) identifies on a new connection: that starts a new session, the
//! newest connection gets the dispatches, and the old session can no longer be resumed.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Value, json};
use serenity::all::InteractionId;
use tokio::sync::mpsc;

use super::log::{Direction, Fault, GatewayLogEntry};
use super::world::next_snowflake;
use super::{BOT_TOKEN, Shared, validate};

/// Intent bits the fake honours when deciding what to dispatch.
pub mod intents {
    pub const GUILDS: u64 = 1 << 0;
    pub const GUILD_MESSAGES: u64 = 1 << 9;
    pub const DIRECT_MESSAGES: u64 = 1 << 12;
}

/// One gateway session (Discord keeps it across reconnects until it is invalidated).
#[derive(Default)]
pub struct GatewayState {
    pub session_id: Option<String>,
    pub intents: u64,
    seq: u64,
    /// Every dispatch of the session, kept for replay on RESUME.
    history: Vec<Value>,
    live: Option<Live>,
    pub connections: u32,
    pub identifies: u32,
    pub resumes: u32,
}

impl GatewayState {
    /// Whether a bot is connected right now (it may not have identified yet).
    pub fn connected(&self) -> bool {
        self.live.is_some()
    }
}

struct Live {
    connection: u32,
    /// True once IDENTIFY or RESUME was answered: only then do dispatches flow.
    ready: bool,
    tx: mpsc::UnboundedSender<Outbound>,
}

enum Outbound {
    Frame(Value),
    Close(u16),
}

impl Shared {
    fn lock_gateway(&self) -> std::sync::MutexGuard<'_, GatewayState> {
        self.gateway.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn gateway_snapshot<R>(&self, f: impl FnOnce(&GatewayState) -> R) -> R {
        f(&self.lock_gateway())
    }

    /// Sends a dispatch event over the session, after checking serenity can read it.
    /// While the bot is disconnected the event waits in the session history for a RESUME.
    pub(crate) fn dispatch(&self, name: &str, data: Value) -> Result<(), String> {
        check_event(name, &data)?;
        dispatch_locked(&mut self.lock_gateway(), name, data)
    }

    /// [`Shared::dispatch`] for an event already checked with [`check_event`]: what is timed
    /// from here (an interaction's three seconds) leaves out the fake's own checking.
    pub(crate) fn dispatch_checked(&self, name: &str, data: Value) -> Result<(), String> {
        dispatch_locked(&mut self.lock_gateway(), name, data)
    }

    /// A dispatch caused by the bot's own REST call: sent only if the session's intents ask
    /// for it, and a fixture error becomes a fault rather than a panic in a handler.
    pub(crate) fn dispatch_for_intent(&self, intent: u64, name: &str, data: Value) {
        let wanted = self.gateway_snapshot(|g| g.session_id.is_some() && g.intents & intent != 0);
        if wanted && let Err(error) = self.dispatch(name, data) {
            self.fault(Fault::BadPayload {
                what: name.into(),
                error,
            });
        }
    }

    /// Closes the live connection with `code` (4000 = unknown error, which invites a resume).
    pub(crate) fn close_gateway(&self, code: u16) -> bool {
        let mut gw = self.lock_gateway();
        match gw.live.take() {
            Some(live) => live.tx.send(Outbound::Close(code)).is_ok(),
            None => false,
        }
    }

    /// Notes when an interaction's frame went out (see [`Interaction::written`]).
    fn interaction_written(&self, id: &Value) {
        let id = id.as_str().and_then(|id| id.parse::<u64>().ok());
        if let Some(id) = id.filter(|id| *id != 0) {
            self.with(|w| {
                if let Some(ix) = w.interactions.get_mut(&InteractionId::new(id)) {
                    ix.written.get_or_insert(Instant::now());
                }
            });
        }
    }

    fn log_frame(&self, connection: u32, direction: Direction, frame: &Value) {
        let entry = GatewayLogEntry {
            connection,
            direction,
            frame: frame.clone(),
        };
        self.with(|w| w.gateway_log.push(entry));
    }
}

pub async fn upgrade(ws: WebSocketUpgrade, State(shared): State<Arc<Shared>>) -> Response {
    ws.on_upgrade(move |socket| serve_connection(shared, socket))
}

async fn serve_connection(shared: Arc<Shared>, mut socket: WebSocket) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let connection = {
        let mut gw = shared.lock_gateway();
        gw.connections += 1;
        let connection = gw.connections;
        gw.live = Some(Live {
            connection,
            ready: false,
            tx: tx.clone(),
        });
        connection
    };
    let interval = shared.config.heartbeat_interval.as_millis() as u64;
    let _ = tx.send(Outbound::Frame(
        json!({"op": 10, "d": {"heartbeat_interval": interval}}),
    ));

    loop {
        tokio::select! {
            outbound = rx.recv() => match outbound {
                Some(Outbound::Frame(frame)) => {
                    shared.log_frame(connection, Direction::Sent, &frame);
                    if socket.send(WsMessage::Text(frame.to_string().into())).await.is_err() {
                        break;
                    }
                    if frame["t"] == "INTERACTION_CREATE" {
                        shared.interaction_written(&frame["d"]["id"]);
                    }
                }
                Some(Outbound::Close(code)) => {
                    shared.log_frame(connection, Direction::Sent, &json!({"close": code}));
                    let frame = CloseFrame { code, reason: "closed by test".into() };
                    let _ = socket.send(WsMessage::Close(Some(frame))).await;
                    // Keep reading until the bot answers the close and the stream ends;
                    // dropping the socket at once leaves the bot's side half-open.
                    while let Some(Ok(_)) = socket.recv().await {}
                    break;
                }
                None => break,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(WsMessage::Text(text))) => handle_frame(&shared, connection, &tx, text.as_str()),
                Some(Ok(WsMessage::Close(_))) | None | Some(Err(_)) => {
                    // Drain so the closing handshake completes on the bot's side too.
                    while let Some(Ok(_)) = socket.recv().await {}
                    break;
                }
                Some(Ok(_)) => {}
            },
        }
    }
    let mut gw = shared.lock_gateway();
    if gw.live.as_ref().is_some_and(|l| l.connection == connection) {
        gw.live = None;
    }
}

/// Numbers, checks, records and (if a connection is ready) sends one dispatch. Callers hold
/// the gateway lock, so frames leave in sequence order.
/// Checks that serenity can read the dispatch event `name` carrying `data`.
pub(crate) fn check_event(name: &str, data: &Value) -> Result<(), String> {
    validate::check_dispatch(&json!({"op": 0, "s": 1, "t": name, "d": data}))
}

/// Sends an event that [`check_event`] accepted.
fn dispatch_locked(gw: &mut GatewayState, name: &str, data: Value) -> Result<(), String> {
    if gw.session_id.is_none() {
        return Err(format!(
            "cannot dispatch {name}: the bot has no gateway session yet"
        ));
    }
    let frame = json!({"op": 0, "s": gw.seq + 1, "t": name, "d": data});
    gw.seq += 1;
    gw.history.push(frame.clone());
    if let Some(live) = gw.live.as_ref().filter(|l| l.ready) {
        let _ = live.tx.send(Outbound::Frame(frame));
    }
    Ok(())
}

fn handle_frame(
    shared: &Shared,
    connection: u32,
    tx: &mpsc::UnboundedSender<Outbound>,
    text: &str,
) {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        shared.fault(Fault::BadGatewayFrame { text: text.into() });
        return;
    };
    shared.log_frame(connection, Direction::Received, &frame);
    match frame["op"].as_u64() {
        Some(1) => {
            let _ = tx.send(Outbound::Frame(json!({"op": 11})));
        }
        Some(2) => identify(shared, connection, tx, &frame["d"]),
        Some(6) => resume(shared, connection, tx, &frame["d"]),
        // Presence update, voice state, member requests: recorded in the log only.
        Some(3 | 4 | 8) => {}
        _ => shared.fault(Fault::BadGatewayFrame { text: text.into() }),
    }
}

fn token_ok(token: &Value) -> bool {
    token.as_str().map(|t| t.trim_start_matches("Bot ")) == Some(BOT_TOKEN)
}

fn identify(shared: &Shared, connection: u32, tx: &mpsc::UnboundedSender<Outbound>, d: &Value) {
    if !token_ok(&d["token"]) {
        let _ = tx.send(Outbound::Close(4004)); // Authentication failed
        return;
    }
    let session_id = format!("fake-session-{}", next_snowflake());
    // Discord's default is 50, its maximum 250 (serenity asks for 250).
    let large_threshold = d["large_threshold"].as_u64().unwrap_or(50).clamp(50, 250);
    let (bot_user, app_id, guilds, base_url) = shared.read(|w| {
        (
            w.users[&w.bot].to_json(),
            w.app_id,
            w.guilds
                .values()
                .map(|g| w.guild_json(g, large_threshold))
                .collect::<Vec<_>>(),
            w.base_url.clone(),
        )
    });
    let mut user = bot_user;
    user["verified"] = true.into();
    user["mfa_enabled"] = false.into();
    let ready = json!({
        "v": 10,
        "user": user,
        "guilds": guilds.iter().map(|g| json!({"id": g["id"], "unavailable": true})).collect::<Vec<_>>(),
        "session_id": session_id,
        "resume_gateway_url": format!("{}/gateway", base_url.replace("http://", "ws://")),
        "shard": [0, 1],
        "application": {"id": app_id.to_string(), "flags": 0},
        "private_channels": [],
        "presences": [],
    });
    let mut faults = Vec::new();
    {
        // One lock for the whole handshake: READY must be the first dispatch the bot sees.
        let mut gw = shared.lock_gateway();
        gw.session_id = Some(session_id);
        gw.intents = d["intents"].as_u64().unwrap_or(0);
        gw.seq = 0;
        gw.history.clear();
        gw.identifies += 1;
        if let Some(live) = gw.live.as_mut().filter(|l| l.connection == connection) {
            live.ready = true;
        }
        let mut events = vec![("READY", ready)];
        if gw.intents & intents::GUILDS != 0 {
            events.extend(guilds.into_iter().map(|g| ("GUILD_CREATE", g)));
        }
        for (name, data) in events {
            if let Err(error) = dispatch_locked(&mut gw, name, data) {
                faults.push(Fault::BadPayload {
                    what: name.into(),
                    error,
                });
            }
        }
    }
    faults.into_iter().for_each(|f| shared.fault(f));
    shared.with(|_| {}); // wake waiters on the new session
}

fn resume(shared: &Shared, connection: u32, tx: &mpsc::UnboundedSender<Outbound>, d: &Value) {
    let result = {
        let mut gw = shared.lock_gateway();
        let same_session =
            gw.session_id.is_some() && gw.session_id.as_deref() == d["session_id"].as_str();
        if !token_ok(&d["token"]) || !same_session {
            // Invalid session, not resumable: the bot must identify anew.
            let _ = tx.send(Outbound::Frame(json!({"op": 9, "d": false})));
            return;
        }
        let after = d["seq"].as_u64().unwrap_or(0);
        // Replay under the lock so no new dispatch overtakes the missed ones.
        for frame in gw
            .history
            .iter()
            .filter(|f| f["s"].as_u64().unwrap_or(0) > after)
        {
            let _ = tx.send(Outbound::Frame(frame.clone()));
        }
        gw.resumes += 1;
        if let Some(live) = gw.live.as_mut().filter(|l| l.connection == connection) {
            live.ready = true;
        }
        dispatch_locked(&mut gw, "RESUMED", json!({"_trace": []}))
    };
    if let Err(error) = result {
        shared.fault(Fault::BadPayload {
            what: "RESUMED".into(),
            error,
        });
    }
    shared.with(|_| {});
}
