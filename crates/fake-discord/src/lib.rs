//! A fake Discord on 127.0.0.1 for end-to-end tests: the real serenity/poise client talks to
//! it over HTTP (REST under `/api/v10`) and a websocket gateway, exactly as it would talk to
//! Discord, except that its API base URL points here (see `FakeDiscord::bot_http`).
//!
//! Each test starts its own fake on port 0, adds the users and channels it needs, acts as
//! those users (slash commands, buttons, selects, modals, autocomplete) and waits for what
//! the bot does. Anything the fake could not make sense of — an unknown route, a body that
//! breaks Discord's OpenAPI schema, a payload serenity's models reject — is a *fault*: a
//! test that ends with faults fails (see `FakeDiscord::assert_clean` and the `Drop` impl).
//!
//! A test can also make trouble — a 429, an error or a dropped connection before or after the
//! request is applied (`rest/inject.rs`) — and change channels behind the bot's back: deny it
//! permissions, delete channels and threads, archive threads (`admin.rs`).
//!
//! A crate of its own, used by jackal's tests only (a dev-dependency): compiled once, linked
//! into each test binary that talks to Discord.

mod admin;
mod body;
mod gateway;
mod guilds;
mod interact;
mod log;
mod net;
mod rest;
mod schema;
mod validate;
mod wait;
mod world;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::serve::ListenerExt;
use serenity::all::{ChannelId, GuildId, MessageId, UserId};
use tokio::sync::watch;

// The API for test files.
pub use interact::{InteractionHandle, OptionValue};
pub use log::{Direction, Fault, GatewayLogEntry, RestLogEntry};
pub use net::guarded_reqwest_client;
pub use world::{
    Attachment, Callback, Channel, ChannelKind, Interaction, Message, Overwrite, OverwriteTarget,
    User, flags, perms,
};

use gateway::GatewayState;
use rest::TroubleRule;
use world::{InteractionKind, World, next_snowflake};

/// The bot token the fake accepts; anything else gets 401 / close code 4004.
pub const BOT_TOKEN: &str = "fake-discord-bot-token";

/// Knobs a test may turn; the defaults are Discord's.
#[derive(Debug, Clone)]
pub struct Config {
    /// Time the bot has for the first response to an interaction (Discord: 3 s).
    pub response_deadline: Duration,
    /// Heartbeat interval announced in HELLO (Discord: about 41.25 s).
    pub heartbeat_interval: Duration,
    /// How long `wait_*` calls wait before failing the test. An upper bound, not a pace: a
    /// wait ends as soon as what it waits for happens, and a slow, shared machine running
    /// tests side by side (a debug build's bot drawing boards) can take seconds for a post.
    pub wait_timeout: Duration,
    /// How long Discord remembers a message's nonce for `enforce_nonce` (documented only as
    /// "the past few minutes").
    pub nonce_window: Duration,
    /// How many shards the bot must run (Discord: one per 2 500 guilds at most; `GET
    /// /gateway/bot` says how many). Every IDENTIFY must name exactly this count; each guild's
    /// events go to shard `(guild_id >> 22) % shards`, DMs to shard 0.
    pub shards: u16,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            response_deadline: Duration::from_secs(3),
            heartbeat_interval: Duration::from_millis(41_250),
            wait_timeout: Duration::from_secs(15),
            nonce_window: Duration::from_secs(5 * 60),
            shards: 1,
        }
    }
}

/// State shared by the HTTP handlers, the gateway and the test.
pub(crate) struct Shared {
    world: Mutex<World>,
    gateway: Mutex<GatewayState>,
    /// Trouble the test asked for, used up by the requests it matches (`rest/inject.rs`).
    troubles: Mutex<Vec<TroubleRule>>,
    /// Bumped after every change, so waiters re-check without polling.
    changed: watch::Sender<u64>,
    config: Config,
    started: Instant,
}

impl Shared {
    /// Reads or changes the world, then wakes every waiter.
    fn with<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let result = f(&mut self.lock_world());
        self.changed.send_modify(|n| *n += 1);
        result
    }

    fn read<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        f(&self.lock_world())
    }

    fn lock_world(&self) -> MutexGuard<'_, World> {
        // A panic while holding the lock is already a failed test; keep the data readable
        // so the failure report can still be built.
        self.world.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn fault(&self, fault: Fault) {
        self.with(|w| w.faults.push(fault));
    }
}

/// A running fake Discord. Dropping it stops the server and fails the test if faults were
/// recorded and not taken.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    addr: SocketAddr,
    guild: GuildId,
    general: ChannelId,
    server: tokio::task::JoinHandle<()>,
}

impl FakeDiscord {
    /// Starts a fake with Discord's timings, one guild ("Test Guild", channel #general) and
    /// the bot as a member of it.
    pub async fn start() -> FakeDiscord {
        Self::start_with(Config::default()).await
    }

    pub async fn start_with(config: Config) -> FakeDiscord {
        assert!(
            config.shards >= 1,
            "fake Discord: a bot runs at least one shard"
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local addr");
        let base_url = format!("http://{addr}");

        let app_id = next_snowflake();
        let bot = UserId::new(app_id);
        let owner = UserId::new(next_snowflake());
        let guild = GuildId::new(next_snowflake());

        let mut world = World {
            app_id,
            bot,
            base_url,
            ..World::default()
        };
        world.users.insert(
            bot,
            User {
                id: bot,
                name: "Jackal".into(),
                bot: true,
                dms_open: true,
                locale: "en-US".into(),
            },
        );
        world.users.insert(
            owner,
            User {
                id: owner,
                name: "owner".into(),
                bot: false,
                dms_open: true,
                locale: "en-US".into(),
            },
        );
        let general = world.add_guild(guild, "Test Guild", owner);

        let shared = Arc::new(Shared {
            world: Mutex::new(world),
            gateway: Mutex::new(GatewayState::default()),
            troubles: Mutex::new(Vec::new()),
            changed: watch::channel(0).0,
            config,
            started: Instant::now(),
        });
        let app = rest::router(Arc::clone(&shared));
        // Every frame and answer goes out at once, as from Discord's servers: with Nagle's
        // algorithm on, a gateway frame written while the previous one is unacknowledged
        // waits for the bot's delayed ACK, some 40 ms, and the fake would add that to the
        // bot's response times.
        let listener = listener.tap_io(|stream| {
            if let Err(e) = stream.set_nodelay(true) {
                panic!("fake Discord: cannot set TCP_NODELAY: {e}");
            }
        });
        let server = tokio::spawn(async move {
            axum::serve(listener, app)
                .await
                .expect("fake Discord server failed");
        });
        FakeDiscord {
            shared,
            addr,
            guild,
            general,
            server,
        }
    }

    /// `http://127.0.0.1:PORT`, the value for serenity's `HttpBuilder::proxy`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn guild(&self) -> GuildId {
        self.guild
    }

    /// The guild's #general text channel.
    pub fn general(&self) -> ChannelId {
        self.general
    }

    /// The bot's user id, which is also its application id.
    pub fn bot_user(&self) -> UserId {
        self.shared.read(|w| w.bot)
    }

    pub fn config(&self) -> &Config {
        &self.shared.config
    }

    /// A user who is not a guild member (e.g. to DM).
    pub fn add_user(&self, name: &str) -> UserId {
        self.insert_user(name, true)
    }

    /// A user who has closed DMs: the bot's DMs to them fail with 403 / 50007.
    pub fn add_user_with_closed_dms(&self, name: &str) -> UserId {
        self.insert_user(name, false)
    }

    fn insert_user(&self, name: &str, dms_open: bool) -> UserId {
        let id = UserId::new(next_snowflake());
        self.shared.with(|w| {
            w.users.insert(
                id,
                User {
                    id,
                    name: name.into(),
                    bot: false,
                    dms_open,
                    locale: "en-US".into(),
                },
            )
        });
        id
    }

    /// Sets the locale a user's client reports in interactions (default `en-US`).
    pub fn set_locale(&self, user: UserId, locale: &str) {
        self.shared
            .with(|w| w.users.get_mut(&user).expect("unknown user").locale = locale.into());
    }

    /// A snapshot of a user, channel or message.
    pub fn user(&self, id: UserId) -> Option<User> {
        self.shared.read(|w| w.users.get(&id).cloned())
    }

    pub fn channel_kind(&self, id: ChannelId) -> Option<ChannelKind> {
        self.shared.read(|w| w.channels.get(&id).map(|c| c.kind))
    }

    /// The text channel a thread belongs to.
    pub fn thread_parent(&self, id: ChannelId) -> Option<ChannelId> {
        self.shared
            .read(|w| w.channels.get(&id).and_then(|c| c.parent))
    }

    pub fn message(&self, id: MessageId) -> Option<Message> {
        self.shared.read(|w| w.messages.get(&id).cloned())
    }

    /// Followup messages of an interaction so far, without waiting.
    pub fn followups_so_far(&self, ix: &InteractionHandle) -> Vec<Message> {
        self.shared.read(|w| {
            let ids = w
                .interactions
                .get(&ix.id)
                .map(|i| i.followups.clone())
                .unwrap_or_default();
            ids.iter().map(|id| w.messages[id].clone()).collect()
        })
    }

    /// A snapshot of an interaction the test made: when the bot was told, when and how it
    /// answered.
    pub fn interaction(&self, ix: &InteractionHandle) -> Option<Interaction> {
        self.shared.read(|w| w.interactions.get(&ix.id).cloned())
    }

    /// How long the bot took to give an interaction its initial response (the callback: a
    /// deferral, or the whole answer), from the moment it was told; `None` until it has.
    pub fn response_time(&self, ix: &InteractionHandle) -> Option<Duration> {
        let ix = self.interaction(ix)?;
        Some(ix.answered?.saturating_duration_since(ix.created))
    }

    /// The answered interactions told to the bot from `since` on, but autocompletes, each
    /// one's wait for its first response in two: until the fake wrote it to the bot's socket
    /// (the fake's own queue of frames), and from then until the bot's answer arrived.
    pub fn response_splits_since(&self, since: Instant) -> Vec<(Duration, Duration)> {
        self.shared.read(|w| {
            w.interactions
                .values()
                .filter(|ix| ix.created >= since && ix.kind != InteractionKind::Autocomplete)
                .filter_map(|ix| {
                    let (written, answered) = (ix.written?, ix.answered?);
                    Some((
                        written.saturating_duration_since(ix.created),
                        answered.saturating_duration_since(written),
                    ))
                })
                .collect()
        })
    }

    /// The messages stored after message `after`, in every channel, deleted ones included,
    /// oldest first (ids grow with time): for following a busy fake without copying every
    /// message again.
    pub fn messages_after(&self, after: MessageId) -> Vec<Message> {
        use std::ops::Bound::{Excluded, Unbounded};
        self.shared.read(|w| {
            w.messages
                .range((Excluded(after), Unbounded))
                .map(|(_, m)| m.clone())
                .collect()
        })
    }

    /// Every message ever posted in a channel or thread, deleted ones included, oldest first.
    pub fn messages_in(&self, channel: ChannelId) -> Vec<Message> {
        self.shared
            .read(|w| w.channel_messages(channel).cloned().collect())
    }

    /// Threads in every guild, oldest first.
    pub fn threads(&self) -> Vec<ChannelId> {
        self.shared.read(|w| {
            w.channels
                .values()
                .filter(|c| c.kind.is_thread())
                .map(|c| c.id)
                .collect()
        })
    }

    /// The DM channel between the bot and `user`, once the bot opened it.
    pub fn dm_channel(&self, user: UserId) -> Option<ChannelId> {
        self.shared.read(|w| {
            w.channels
                .values()
                .find(|c| c.kind == ChannelKind::Dm { recipient: user })
                .map(|c| c.id)
        })
    }

    /// Names of the commands the bot registered (global and guild).
    pub fn registered_commands(&self) -> Vec<String> {
        self.shared
            .read(|w| w.commands.iter().map(|c| c.name().to_string()).collect())
    }

    /// The definition of a registered command as Discord would list it (options,
    /// localisations, its id), if the bot registered one by that name.
    pub fn registered_command(&self, name: &str) -> Option<serde_json::Value> {
        self.shared.read(|w| {
            w.commands
                .iter()
                .find(|c| c.name() == name)
                .map(|c| c.to_json(w.app_id))
        })
    }

    /// Every REST request so far.
    pub fn rest_log(&self) -> Vec<RestLogEntry> {
        self.shared.read(|w| w.rest_log.clone())
    }

    /// How many times a bot identified (started a gateway session) so far, on every shard:
    /// once per shard per bot start, not for a resume.
    pub fn identify_count(&self) -> u32 {
        self.shared.gateway_snapshot(|g| g.identifies())
    }

    /// Whether a bot is connected to the gateway now on any connection (identified or not);
    /// false once a killed bot's sockets closed.
    pub fn gateway_connected(&self) -> bool {
        self.shared.gateway_snapshot(|g| g.connected())
    }

    /// How many times shard `shard` identified so far.
    pub fn shard_identifies(&self, shard: u16) -> u32 {
        self.check_shard(shard);
        self.shared
            .gateway_snapshot(|g| g.shard(shard).map_or(0, |s| s.identifies))
    }

    /// How many times shard `shard` resumed its session so far.
    pub fn shard_resumes(&self, shard: u16) -> u32 {
        self.check_shard(shard);
        self.shared
            .gateway_snapshot(|g| g.shard(shard).map_or(0, |s| s.resumes))
    }

    /// Whether an open connection serves shard `shard` now (it identified or resumed as it).
    pub fn shard_connected(&self, shard: u16) -> bool {
        self.check_shard(shard);
        self.shared
            .gateway_snapshot(|g| g.shard(shard).is_some_and(|s| s.is_live()))
    }

    /// Closes the connection serving shard `shard` with a close code (4000 invites a resume);
    /// the other shards stay connected. Returns false if no connection served it.
    pub fn close_shard(&self, shard: u16, code: u16) -> bool {
        self.check_shard(shard);
        self.shared.close_shard(shard, code)
    }

    /// Fails the test for a shard the fake does not run: a typo would otherwise wait in vain.
    fn check_shard(&self, shard: u16) {
        let shards = self.shared.config.shards;
        assert!(
            shard < shards,
            "fake Discord: no shard {shard}, the fake runs {shards}"
        );
    }

    /// Every gateway frame so far, both directions.
    pub fn gateway_log(&self) -> Vec<GatewayLogEntry> {
        self.shared.read(|w| w.gateway_log.clone())
    }

    /// How many `name` dispatches the gateway has sent so far.
    pub fn dispatch_count(&self, name: &str) -> usize {
        self.shared.read(|w| {
            w.gateway_log
                .iter()
                .filter(|e| e.event_name() == Some(name))
                .count()
        })
    }

    /// Faults so far, without clearing them.
    pub fn faults(&self) -> Vec<Fault> {
        self.shared.read(|w| w.faults.clone())
    }

    /// Takes the faults out, for tests that provoke them on purpose.
    pub fn take_faults(&self) -> Vec<Fault> {
        self.shared.with(|w| std::mem::take(&mut w.faults))
    }

    /// Fails the test if anything went wrong that the bot may have hidden: unknown routes
    /// (the 404 fallback), schema violations, payloads serenity could not read.
    pub fn assert_clean(&self) {
        let faults = self.faults();
        assert!(
            faults.is_empty(),
            "fake Discord recorded {} fault(s):\n  {}",
            faults.len(),
            faults
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n  ")
        );
    }

    /// Fetches a URL served by the fake (an attachment's `/cdn/` URL), as a user's client would.
    pub async fn download(&self, url: &str) -> Vec<u8> {
        assert!(
            url.starts_with(&self.base_url()),
            "{url} is not served by this fake"
        );
        let response = guarded_reqwest_client()
            .get(url)
            .send()
            .await
            .expect("GET from the fake");
        assert!(
            response.status().is_success(),
            "GET {url}: {}",
            response.status()
        );
        response.bytes().await.expect("body").to_vec()
    }
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
        if !std::thread::panicking() {
            self.assert_clean();
        }
    }
}
