//! The gateway: a websocket speaking Discord's JSON text-frame protocol. HELLO → IDENTIFY →
//! READY (+ GUILD_CREATE) on a new session; heartbeats acknowledged; RESUME on a later
//! connection replays the dispatches the bot missed and ends with RESUMED. A new bot process
//! (after the old one died) identifies on a new connection: that starts a new session, the
//! newest connection gets the dispatches, and the old session can no longer be resumed.
//!
//! Sharding as Discord does it: the fake is configured with a shard count (`Config::shards`,
//! which `GET /gateway/bot` announces), and each shard is a session of its own, with its own
//! id, sequence, history and connection. IDENTIFY names its shard as `[shard_id, num_shards]`;
//! a guild's events go to the shard [`shard_for`] picks, DMs to shard 0.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Value, json};
use serenity::all::{GuildId, InteractionId};
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

/// Gateway close codes the fake sends (Discord's values).
pub mod close_codes {
    /// The token in IDENTIFY or RESUME is not the bot's.
    pub const AUTHENTICATION_FAILED: u16 = 4004;
    /// IDENTIFY named a shard that does not exist: an id not below its count, a malformed
    /// `shard`, or a shard count other than the fake's (see [`super::requested_shard`]).
    pub const INVALID_SHARD: u16 = 4010;
    /// IDENTIFY without `shard` while the fake runs more than one shard.
    pub const SHARDING_REQUIRED: u16 = 4011;
}

/// The shard that serves events about `guild` when the bot runs `shards` shards. Discord's
/// rule: `(guild_id >> 22) % num_shards`, the guild's creation time in milliseconds modulo
/// the count; what belongs to no guild (DMs, DM interactions) goes to shard 0.
pub(crate) fn shard_for(guild: Option<GuildId>, shards: u16) -> u16 {
    match guild {
        Some(guild) => ((guild.get() >> 22) % u64::from(shards)) as u16,
        None => 0,
    }
}

/// The guild a dispatch is about: the guild itself for GUILD_CREATE/UPDATE/DELETE (whose
/// payload is the guild, its `id`), otherwise the payload's `guild_id` (messages, threads,
/// channels, members, interactions), absent for DMs.
fn guild_of_dispatch(name: &str, data: &Value) -> Option<GuildId> {
    let field = match name {
        "GUILD_CREATE" | "GUILD_UPDATE" | "GUILD_DELETE" => "id",
        _ => "guild_id",
    };
    data[field]
        .as_str()
        .and_then(|id| id.parse::<u64>().ok())
        .filter(|id| *id != 0)
        .map(GuildId::new)
}

/// The shard a dispatch goes out on: its guild's shard by [`shard_for`], shard 0 without one.
pub(crate) fn shard_of_dispatch(name: &str, data: &Value, shards: u16) -> u16 {
    shard_for(guild_of_dispatch(name, data), shards)
}

/// The `[shard_id, num_shards]` an IDENTIFY asks for, or the close code refusing it. The fake
/// is stricter than Discord, which accepts any count at least as large as it requires: here
/// the count must be exactly the configured one, so a test cannot run a bot on a shard layout
/// other than the one it set up (and then miss events routed to shards nobody serves). No
/// `shard` field means `[0, 1]`, fine while the fake runs one shard and "sharding required"
/// otherwise.
fn requested_shard(field: &Value, configured: u16) -> Result<(u16, u16), u16> {
    if field.is_null() {
        return if configured == 1 {
            Ok((0, 1))
        } else {
            Err(close_codes::SHARDING_REQUIRED)
        };
    }
    let pair = field.as_array().filter(|pair| pair.len() == 2);
    let numbers = pair.and_then(|pair| {
        let id = u16::try_from(pair[0].as_u64()?).ok()?;
        let count = u16::try_from(pair[1].as_u64()?).ok()?;
        Some((id, count))
    });
    match numbers {
        Some((id, count)) if count == configured && id < count => Ok((id, count)),
        _ => Err(close_codes::INVALID_SHARD),
    }
}

/// Every connection and every shard's session (Discord keeps a session across reconnects
/// until it is invalidated).
#[derive(Default)]
pub struct GatewayState {
    /// Every open websocket by its number (counting from 1), until it ends or the fake
    /// closes it; identified or not.
    sockets: BTreeMap<u32, mpsc::UnboundedSender<Outbound>>,
    /// Each shard by its id, from its first IDENTIFY on.
    shards: BTreeMap<u16, ShardState>,
    /// Websocket connections opened so far.
    connections: u32,
}

/// One shard: its current session, the connection serving it, and what it went through.
#[derive(Default)]
pub struct ShardState {
    session: Option<Session>,
    /// The open connection that identified or resumed as this shard: dispatches go to it.
    /// While there is none they wait in the session history for a RESUME.
    live: Option<u32>,
    pub identifies: u32,
    pub resumes: u32,
}

impl ShardState {
    /// Whether an open connection serves the shard now.
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }
}

struct Session {
    id: String,
    intents: u64,
    /// As IDENTIFY asked, for guilds announced later in the session.
    large_threshold: u64,
    seq: u64,
    /// Every dispatch of the session, kept for replay on RESUME.
    history: Vec<Value>,
}

enum Outbound {
    Frame(Value),
    Close(u16),
}

impl GatewayState {
    /// Whether any bot connection is open now (it may not have identified yet).
    pub fn connected(&self) -> bool {
        !self.sockets.is_empty()
    }

    /// IDENTIFYs answered so far, on every shard.
    pub fn identifies(&self) -> u32 {
        self.shards.values().map(|s| s.identifies).sum()
    }

    /// RESUMEs answered so far, on every shard.
    pub fn resumes(&self) -> u32 {
        self.shards.values().map(|s| s.resumes).sum()
    }

    /// A shard's state; `None` before it first identified.
    pub fn shard(&self, shard: u16) -> Option<&ShardState> {
        self.shards.get(&shard)
    }

    /// Intents and `large_threshold` of the shard's session, if it has one.
    fn session_settings(&self, shard: u16) -> Option<(u64, u64)> {
        let session = self.shards.get(&shard)?.session.as_ref()?;
        Some((session.intents, session.large_threshold))
    }

    /// The shard whose session is called `session_id`.
    fn shard_with_session(&self, session_id: &str) -> Option<u16> {
        self.shards
            .iter()
            .find(|(_, s)| s.session.as_ref().is_some_and(|s| s.id == session_id))
            .map(|(id, _)| *id)
    }

    /// Makes `connection` the one serving `shard`, if it is still open (the fake may have
    /// closed it meanwhile); a connection serves one shard at a time.
    fn bind(&mut self, connection: u32, shard: u16) {
        if !self.sockets.contains_key(&connection) {
            return;
        }
        self.unbind(connection);
        self.shards.entry(shard).or_default().live = Some(connection);
    }

    fn unbind(&mut self, connection: u32) {
        for state in self.shards.values_mut() {
            if state.live == Some(connection) {
                state.live = None;
            }
        }
    }

    /// Closes a connection with `code`; false if it was no longer open.
    fn close(&mut self, connection: u32, code: u16) -> bool {
        self.unbind(connection);
        self.sockets
            .remove(&connection)
            .is_some_and(|tx| tx.send(Outbound::Close(code)).is_ok())
    }

    /// Numbers, records and (if the shard's connection is up) sends one dispatch on `shard`.
    /// Callers hold the gateway lock, so frames leave in sequence order.
    fn dispatch_on(&mut self, shard: u16, name: &str, data: Value) -> Result<(), String> {
        let state = self.shards.get_mut(&shard);
        let Some(session) = state.and_then(|s| s.session.as_mut()) else {
            return Err(format!(
                "cannot dispatch {name}: the bot has no gateway session yet (on shard {shard})"
            ));
        };
        session.seq += 1;
        let frame = json!({"op": 0, "s": session.seq, "t": name, "d": data});
        session.history.push(frame.clone());
        let live = self.shards[&shard].live;
        if let Some(tx) = live.and_then(|c| self.sockets.get(&c)) {
            let _ = tx.send(Outbound::Frame(frame));
        }
        Ok(())
    }
}

impl Shared {
    fn lock_gateway(&self) -> std::sync::MutexGuard<'_, GatewayState> {
        self.gateway.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn gateway_snapshot<R>(&self, f: impl FnOnce(&GatewayState) -> R) -> R {
        f(&self.lock_gateway())
    }

    /// The shard that serves `guild` (shard 0 for `None`: DMs).
    pub(crate) fn shard_of_guild(&self, guild: Option<GuildId>) -> u16 {
        shard_for(guild, self.config.shards)
    }

    /// Sends a dispatch event on the shard of the guild it concerns, after checking serenity
    /// can read it. While that shard is disconnected the event waits in its session history
    /// for a RESUME.
    pub(crate) fn dispatch(&self, name: &str, data: Value) -> Result<(), String> {
        check_event(name, &data)?;
        self.dispatch_checked(name, data)
    }

    /// [`Shared::dispatch`] for an event already checked with [`check_event`]: what is timed
    /// from here (an interaction's three seconds) leaves out the fake's own checking.
    pub(crate) fn dispatch_checked(&self, name: &str, data: Value) -> Result<(), String> {
        let shard = shard_of_dispatch(name, &data, self.config.shards);
        self.lock_gateway().dispatch_on(shard, name, data)
    }

    /// A dispatch caused by the bot's own REST call: sent only if the session of its shard
    /// asks for it by its intents, and a fixture error becomes a fault rather than a panic in
    /// a handler.
    pub(crate) fn dispatch_for_intent(&self, intent: u64, name: &str, data: Value) {
        let shard = shard_of_dispatch(name, &data, self.config.shards);
        let wanted = self.gateway_snapshot(|g| {
            g.session_settings(shard)
                .is_some_and(|(intents, _)| intents & intent != 0)
        });
        if wanted && let Err(error) = self.dispatch(name, data) {
            self.fault(Fault::BadPayload {
                what: name.into(),
                error,
            });
        }
    }

    /// Tells the bot about a guild it joined after its shard identified: GUILD_CREATE on the
    /// guild's shard, as Discord sends when a bot is added to a server. Before that shard
    /// identifies there is nobody to tell; its READY will list the guild.
    pub(crate) fn announce_guild(&self, guild: GuildId) {
        let shard = self.shard_of_guild(Some(guild));
        let Some((intents, large_threshold)) = self.gateway_snapshot(|g| g.session_settings(shard))
        else {
            return;
        };
        if intents & intents::GUILDS == 0 {
            return;
        }
        let payload = self.read(|w| w.guild_json(&w.guilds[&guild], large_threshold));
        if let Err(error) = self.dispatch("GUILD_CREATE", payload) {
            self.fault(Fault::BadPayload {
                what: "GUILD_CREATE".into(),
                error,
            });
        }
    }

    /// Closes every open connection with `code` (4000 = unknown error, which invites a
    /// resume); false if none was open.
    pub(crate) fn close_gateway(&self, code: u16) -> bool {
        let mut gw = self.lock_gateway();
        let open: Vec<u32> = gw.sockets.keys().copied().collect();
        let mut any = false;
        for connection in open {
            any |= gw.close(connection, code);
        }
        any
    }

    /// Closes the connection serving `shard` with `code`; false if it had none.
    pub(crate) fn close_shard(&self, shard: u16, code: u16) -> bool {
        let mut gw = self.lock_gateway();
        let live = gw.shards.get(&shard).and_then(|s| s.live);
        live.is_some_and(|connection| gw.close(connection, code))
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

    fn log_frame(&self, connection: u32, shard: Option<u16>, direction: Direction, frame: &Value) {
        let entry = GatewayLogEntry {
            connection,
            shard,
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
        gw.sockets.insert(connection, tx.clone());
        connection
    };
    // The shard this connection serves, once it identified or resumed: for the log.
    let mut shard = None;
    let interval = shared.config.heartbeat_interval.as_millis() as u64;
    let _ = tx.send(Outbound::Frame(
        json!({"op": 10, "d": {"heartbeat_interval": interval}}),
    ));

    loop {
        tokio::select! {
            outbound = rx.recv() => match outbound {
                Some(Outbound::Frame(frame)) => {
                    shared.log_frame(connection, shard, Direction::Sent, &frame);
                    if socket.send(WsMessage::Text(frame.to_string().into())).await.is_err() {
                        break;
                    }
                    if frame["t"] == "INTERACTION_CREATE" {
                        shared.interaction_written(&frame["d"]["id"]);
                    }
                }
                Some(Outbound::Close(code)) => {
                    shared.log_frame(connection, shard, Direction::Sent, &json!({"close": code}));
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
                Some(Ok(WsMessage::Text(text))) => {
                    handle_frame(&shared, connection, &mut shard, &tx, text.as_str());
                }
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
    gw.unbind(connection);
    gw.sockets.remove(&connection);
    drop(gw);
    shared.with(|_| {}); // wake waiters on the closed connection
}

/// Checks that serenity can read the dispatch event `name` carrying `data`.
pub(crate) fn check_event(name: &str, data: &Value) -> Result<(), String> {
    validate::check_dispatch(&json!({"op": 0, "s": 1, "t": name, "d": data}))
}

/// Answers one frame from the bot, then logs it under the shard the connection serves after
/// it (an IDENTIFY is logged as its shard's once accepted).
fn handle_frame(
    shared: &Shared,
    connection: u32,
    shard: &mut Option<u16>,
    tx: &mpsc::UnboundedSender<Outbound>,
    text: &str,
) {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        shared.fault(Fault::BadGatewayFrame { text: text.into() });
        return;
    };
    let bound = match frame["op"].as_u64() {
        Some(1) => {
            let _ = tx.send(Outbound::Frame(json!({"op": 11})));
            None
        }
        Some(2) => identify(shared, connection, tx, &frame["d"]),
        Some(6) => resume(shared, connection, tx, &frame["d"]),
        // Presence update, voice state, member requests: recorded in the log only.
        Some(3 | 4 | 8) => None,
        _ => {
            shared.fault(Fault::BadGatewayFrame { text: text.into() });
            None
        }
    };
    if bound.is_some() {
        *shard = bound;
    }
    shared.log_frame(connection, *shard, Direction::Received, &frame);
}

fn token_ok(token: &Value) -> bool {
    token.as_str().map(|t| t.trim_start_matches("Bot ")) == Some(BOT_TOKEN)
}

/// Starts a new session for the shard IDENTIFY names (replacing any it had) on this
/// connection: READY, then GUILD_CREATE for each of the shard's guilds. Returns the shard,
/// or `None` when the connection was closed instead.
fn identify(
    shared: &Shared,
    connection: u32,
    tx: &mpsc::UnboundedSender<Outbound>,
    d: &Value,
) -> Option<u16> {
    if !token_ok(&d["token"]) {
        let _ = tx.send(Outbound::Close(close_codes::AUTHENTICATION_FAILED));
        return None;
    }
    let (shard, shards) = match requested_shard(&d["shard"], shared.config.shards) {
        Ok(requested) => requested,
        Err(code) => {
            let _ = tx.send(Outbound::Close(code));
            return None;
        }
    };
    let session = Session {
        id: format!("fake-session-{}", next_snowflake()),
        intents: d["intents"].as_u64().unwrap_or(0),
        // Discord's default is 50, its maximum 250 (serenity asks for 250).
        large_threshold: d["large_threshold"].as_u64().unwrap_or(50).clamp(50, 250),
        seq: 0,
        history: Vec::new(),
    };
    let (ready, guilds) = ready_payload(shared, &session, shard, shards);
    let mut faults = Vec::new();
    {
        // One lock for the whole handshake: READY must be the first dispatch the bot sees.
        let mut gw = shared.lock_gateway();
        let wants_guilds = session.intents & intents::GUILDS != 0;
        let state = gw.shards.entry(shard).or_default();
        state.session = Some(session);
        state.identifies += 1;
        gw.bind(connection, shard);
        let mut events = vec![("READY", ready)];
        if wants_guilds {
            events.extend(guilds.into_iter().map(|g| ("GUILD_CREATE", g)));
        }
        for (name, data) in events {
            if let Err(error) = gw.dispatch_on(shard, name, data) {
                faults.push(Fault::BadPayload {
                    what: name.into(),
                    error,
                });
            }
        }
    }
    faults.into_iter().for_each(|f| shared.fault(f));
    shared.with(|_| {}); // wake waiters on the new session
    Some(shard)
}

/// READY for a new session of `shard`, and the GUILD_CREATE payloads of the guilds that
/// shard serves (READY lists only those, as unavailable until their GUILD_CREATE).
fn ready_payload(
    shared: &Shared,
    session: &Session,
    shard: u16,
    shards: u16,
) -> (Value, Vec<Value>) {
    let (mut user, app_id, guilds, base_url) = shared.read(|w| {
        (
            w.users[&w.bot].to_json(),
            w.app_id,
            w.guilds
                .values()
                .filter(|g| shard_for(Some(g.id), shards) == shard)
                .map(|g| w.guild_json(g, session.large_threshold))
                .collect::<Vec<_>>(),
            w.base_url.clone(),
        )
    });
    user["verified"] = true.into();
    user["mfa_enabled"] = false.into();
    let ready = json!({
        "v": 10,
        "user": user,
        "guilds": guilds.iter().map(|g| json!({"id": g["id"], "unavailable": true})).collect::<Vec<_>>(),
        "session_id": session.id,
        "resume_gateway_url": format!("{}/gateway", base_url.replace("http://", "ws://")),
        "shard": [shard, shards],
        "application": {"id": app_id.to_string(), "flags": 0},
        "private_channels": [],
        "presences": [],
    });
    (ready, guilds)
}

/// Resumes the session RESUME names on this connection: replays the dispatches of that
/// session's shard after the bot's last sequence number, then RESUMED. Returns the shard, or
/// `None` when the session cannot be resumed (the bot is told to identify anew).
fn resume(
    shared: &Shared,
    connection: u32,
    tx: &mpsc::UnboundedSender<Outbound>,
    d: &Value,
) -> Option<u16> {
    let (shard, result) = {
        let mut gw = shared.lock_gateway();
        let shard = d["session_id"]
            .as_str()
            .and_then(|id| gw.shard_with_session(id));
        let Some(shard) = shard.filter(|_| token_ok(&d["token"])) else {
            // Invalid session, not resumable: the bot must identify anew.
            let _ = tx.send(Outbound::Frame(json!({"op": 9, "d": false})));
            return None;
        };
        let after = d["seq"].as_u64().unwrap_or(0);
        let state = gw.shards.get_mut(&shard).expect("found above");
        let history = &state.session.as_ref().expect("found above").history;
        // Replay under the lock so no new dispatch overtakes the missed ones.
        for frame in history
            .iter()
            .filter(|f| f["s"].as_u64().unwrap_or(0) > after)
        {
            let _ = tx.send(Outbound::Frame(frame.clone()));
        }
        state.resumes += 1;
        gw.bind(connection, shard);
        (
            shard,
            gw.dispatch_on(shard, "RESUMED", json!({"_trace": []})),
        )
    };
    if let Err(error) = result {
        shared.fault(Fault::BadPayload {
            what: "RESUMED".into(),
            error,
        });
    }
    shared.with(|_| {});
    Some(shard)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A guild id whose timestamp part is `ms`, as Discord's snowflakes are laid out.
    fn guild_made_at(ms: u64) -> GuildId {
        GuildId::new((ms << 22) | 0x3_ffff)
    }

    #[test]
    fn a_guild_goes_to_its_timestamp_modulo_the_shard_count_and_dms_to_shard_0() {
        assert_eq!(shard_for(Some(guild_made_at(7)), 1), 0);
        assert_eq!(shard_for(Some(guild_made_at(7)), 2), 1);
        assert_eq!(shard_for(Some(guild_made_at(7)), 3), 1);
        assert_eq!(shard_for(Some(guild_made_at(8)), 3), 2);
        // The low 22 bits (worker, process, increment) play no part.
        assert_eq!(shard_for(Some(GuildId::new(8 << 22)), 3), 2);
        assert_eq!(shard_for(None, 4), 0);
    }

    #[test]
    fn a_dispatch_is_routed_by_the_guild_it_concerns() {
        let guild = guild_made_at(5).to_string();
        let message = json!({"id": "1", "channel_id": "2", "guild_id": guild});
        assert_eq!(shard_of_dispatch("MESSAGE_CREATE", &message, 2), 1);
        assert_eq!(shard_of_dispatch("INTERACTION_CREATE", &message, 4), 1);
        // A guild event is about the guild in its payload, whose `id` is the guild's.
        let created = json!({"id": guild, "name": "Guild"});
        assert_eq!(shard_of_dispatch("GUILD_CREATE", &created, 2), 1);
        // …but another event's `id` is its own (a message's, a thread's), not a guild's.
        let thread = json!({"id": guild, "parent_id": "3"});
        assert_eq!(shard_of_dispatch("THREAD_UPDATE", &thread, 2), 0);
        let dm = json!({"id": "1", "channel_id": "2"});
        assert_eq!(shard_of_dispatch("MESSAGE_CREATE", &dm, 2), 0);
        let no_guild = json!({"id": "1", "guild_id": null});
        assert_eq!(shard_of_dispatch("THREAD_MEMBER_UPDATE", &no_guild, 2), 0);
    }

    #[test]
    fn identify_must_name_an_existing_shard_of_the_configured_count() {
        assert_eq!(requested_shard(&json!([1, 2]), 2), Ok((1, 2)));
        assert_eq!(requested_shard(&json!([0, 1]), 1), Ok((0, 1)));
        assert_eq!(requested_shard(&Value::Null, 1), Ok((0, 1)));
        assert_eq!(
            requested_shard(&Value::Null, 2),
            Err(close_codes::SHARDING_REQUIRED)
        );
        for refused in [
            json!([2, 2]),
            json!([0, 3]),
            json!([0, 1]),
            json!([0]),
            json!("0,2"),
        ] {
            assert_eq!(
                requested_shard(&refused, 2),
                Err(close_codes::INVALID_SHARD),
                "{refused}"
            );
        }
    }
}
