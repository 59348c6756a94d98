//! What the fake Discord remembers, shaped like Discord's own objects: users, guilds with roles
//! and members, channels (text, DM, threads), messages with their files, registered commands
//! and interactions. Each type renders itself as the JSON Discord would send for it.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use serenity::all::{ChannelId, GuildId, InteractionId, MessageId, RoleId, UserId};

use super::log::{Fault, GatewayLogEntry, RestLogEntry};

/// Discord's epoch (2015-01-01), the zero of snowflake timestamps.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Snowflakes that carry the real creation time (serenity derives `created_at` from them),
/// strictly increasing even within one millisecond.
pub fn next_snowflake() -> u64 {
    reserve_snowflake(|id| id)
}

/// A new snowflake (as [`next_snowflake`]) whose guild would be served by `shard` of
/// `shards`: Discord picks a guild's shard from its id's timestamp, `(id >> 22) % shards`, so
/// the timestamp is moved on by the few milliseconds that takes (fewer than `shards`).
pub fn next_snowflake_on_shard(shard: u16, shards: u16) -> u64 {
    assert!(shard < shards, "shard {shard} of {shards} does not exist");
    reserve_snowflake(|id| {
        let ms = id >> 22;
        let ahead =
            (u64::from(shard) + u64::from(shards) - ms % u64::from(shards)) % u64::from(shards);
        if ahead == 0 { id } else { (ms + ahead) << 22 }
    })
}

/// Hands out `pick(lowest)`, where `lowest` is the smallest id now both current and above
/// every id handed out so far; `pick` may only move it up. Every snowflake comes from here,
/// so ids stay unique and increasing whatever each caller picks.
fn reserve_snowflake(pick: impl Fn(u64) -> u64) -> u64 {
    static LAST: AtomicU64 = AtomicU64::new(0);
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock before 1970");
    let candidate = (now_ms.as_millis() as u64 - DISCORD_EPOCH_MS) << 22;
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let lowest = candidate.max(last + 1);
        let next = pick(lowest);
        debug_assert!(next >= lowest, "a picked snowflake must not go back");
        match LAST.compare_exchange(last, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(seen) => last = seen,
        }
    }
}

/// How long ago a snowflake was made, from the time it carries.
pub fn snowflake_age(id: u64) -> Duration {
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock before 1970")
        .as_millis() as u64;
    Duration::from_millis(now_ms.saturating_sub((id >> 22) + DISCORD_EPOCH_MS))
}

pub fn timestamp_now() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock before 1970");
    let secs = now.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}000+00:00",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        now.subsec_millis()
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm), so the
/// fake needs no date crate.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Permission bits the fake checks or hands out (Discord's values).
pub mod perms {
    pub const ADMINISTRATOR: u64 = 1 << 3;
    /// "Manage Server": what marks a server admin for the bot's admin commands.
    pub const MANAGE_GUILD: u64 = 1 << 5;
    pub const ADD_REACTIONS: u64 = 1 << 6;
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    pub const SEND_MESSAGES: u64 = 1 << 11;
    pub const MANAGE_MESSAGES: u64 = 1 << 13;
    pub const EMBED_LINKS: u64 = 1 << 14;
    pub const ATTACH_FILES: u64 = 1 << 15;
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    pub const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
    pub const MANAGE_THREADS: u64 = 1 << 34;
    pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
    pub const CREATE_PRIVATE_THREADS: u64 = 1 << 36;
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
    pub const ALL: u64 = (1 << 51) - 1;
    /// What @everyone gets in a fresh guild, reduced to what matters here.
    pub const EVERYONE_DEFAULT: u64 = VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | ADD_REACTIONS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | CREATE_PRIVATE_THREADS
        | SEND_MESSAGES_IN_THREADS;
}

#[derive(Debug, Clone)]
pub struct User {
    pub id: UserId,
    pub name: String,
    pub bot: bool,
    /// False for a user who turned off DMs from server members: sending them a DM fails
    /// with 403 / 50007, as on Discord.
    pub dms_open: bool,
    /// What the user's client reports as `locale` in interactions.
    pub locale: String,
}

impl User {
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": null,
            "bot": self.bot,
            "public_flags": 0,
        })
    }
}

#[derive(Debug, Clone)]
pub struct Role {
    pub id: RoleId,
    pub name: String,
    pub permissions: u64,
    pub position: u16,
}

impl Role {
    fn to_json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "name": self.name,
            "color": 0,
            // serenity 0.12.5 requires `colors` on roles (Discord's newer gradient field).
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false,
            "icon": null,
            "unicode_emoji": null,
            "position": self.position,
            "permissions": self.permissions.to_string(),
            "managed": false,
            "mentionable": false,
            "flags": 0,
        })
    }
}

#[derive(Debug, Clone)]
pub struct Member {
    pub user: UserId,
    pub roles: Vec<RoleId>,
    pub joined_at: String,
}

#[derive(Debug, Clone)]
pub struct Guild {
    pub id: GuildId,
    pub name: String,
    pub owner: UserId,
    /// The first role is @everyone, whose id is the guild's id.
    pub roles: Vec<Role>,
    pub members: BTreeMap<UserId, Member>,
    /// The #general text channel the guild was made with.
    pub general: ChannelId,
}

impl Guild {
    /// Base permissions of a member in the guild: the owner and administrators get all.
    pub fn base_permissions(&self, user: UserId) -> u64 {
        if user == self.owner {
            return perms::ALL;
        }
        let Some(member) = self.members.get(&user) else {
            return 0;
        };
        let mut bits = self.roles[0].permissions;
        for role in self.roles.iter().filter(|r| member.roles.contains(&r.id)) {
            bits |= role.permissions;
        }
        if bits & perms::ADMINISTRATOR != 0 {
            perms::ALL
        } else {
            bits
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverwriteTarget {
    Role(RoleId),
    Member(UserId),
}

#[derive(Debug, Clone, Copy)]
pub struct Overwrite {
    pub target: OverwriteTarget,
    pub allow: u64,
    pub deny: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelKind {
    GuildText,
    Dm { recipient: UserId },
    PublicThread,
    PrivateThread,
}

impl ChannelKind {
    pub fn code(self) -> u8 {
        match self {
            ChannelKind::GuildText => 0,
            ChannelKind::Dm { .. } => 1,
            ChannelKind::PublicThread => 11,
            ChannelKind::PrivateThread => 12,
        }
    }

    pub fn is_thread(self) -> bool {
        matches!(self, ChannelKind::PublicThread | ChannelKind::PrivateThread)
    }
}

#[derive(Debug, Clone)]
pub struct Channel {
    pub id: ChannelId,
    pub kind: ChannelKind,
    pub guild: Option<GuildId>,
    pub name: String,
    /// The text channel a thread lives in.
    pub parent: Option<ChannelId>,
    /// Who started a thread.
    pub owner: Option<UserId>,
    pub overwrites: Vec<Overwrite>,
    /// Users added to a thread (private threads are visible only to them).
    pub thread_members: Vec<UserId>,
    pub position: u16,
    /// An archived thread: messages in it cannot be edited and nobody can join it until a
    /// new message unarchives it.
    pub archived: bool,
    /// Set on the copy kept in `World::deleted_channels`.
    pub deleted: bool,
}

impl Channel {
    pub fn new(id: ChannelId, kind: ChannelKind, guild: Option<GuildId>, name: &str) -> Channel {
        Channel {
            id,
            kind,
            guild,
            name: name.into(),
            parent: None,
            owner: None,
            overwrites: Vec::new(),
            thread_members: Vec::new(),
            position: 0,
            archived: false,
            deleted: false,
        }
    }

    pub fn text(id: ChannelId, guild: GuildId, name: &str, position: u16) -> Channel {
        Channel {
            position,
            ..Channel::new(id, ChannelKind::GuildText, Some(guild), name)
        }
    }

    pub fn to_json(&self, world: &World) -> Value {
        match self.kind {
            ChannelKind::Dm { recipient } => json!({
                "id": self.id.to_string(),
                "type": 1,
                "last_message_id": world.last_message_in(self.id).map(|m| m.to_string()),
                "recipients": [world.user(recipient).map(User::to_json)],
                "flags": 0,
            }),
            ChannelKind::GuildText => json!({
                "id": self.id.to_string(),
                "type": 0,
                "guild_id": self.guild.map(|g| g.to_string()),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": self.overwrites.iter().map(|o| {
                    let (id, kind) = match o.target {
                        OverwriteTarget::Role(r) => (r.to_string(), 0),
                        OverwriteTarget::Member(u) => (u.to_string(), 1),
                    };
                    json!({"id": id, "type": kind, "allow": o.allow.to_string(), "deny": o.deny.to_string()})
                }).collect::<Vec<_>>(),
                "topic": null,
                "nsfw": false,
                "parent_id": null,
                "last_message_id": world.last_message_in(self.id).map(|m| m.to_string()),
                "rate_limit_per_user": 0,
                "flags": 0,
            }),
            ChannelKind::PublicThread | ChannelKind::PrivateThread => {
                let count = world.by_channel.get(&self.id).map_or(0, Vec::len);
                json!({
                    "id": self.id.to_string(),
                    "type": self.kind.code(),
                    "guild_id": self.guild.map(|g| g.to_string()),
                    "parent_id": self.parent.map(|p| p.to_string()),
                    "owner_id": self.owner.map(|o| o.to_string()),
                    "name": self.name,
                    "last_message_id": world.last_message_in(self.id).map(|m| m.to_string()),
                    "message_count": count,
                    "total_message_sent": count,
                    "member_count": self.thread_members.len().min(50),
                    "rate_limit_per_user": 0,
                    "flags": 0,
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": 1440,
                        "archive_timestamp": timestamp_now(),
                        "locked": false,
                        "invitable": self.kind == ChannelKind::PrivateThread,
                        "create_timestamp": timestamp_now(),
                    },
                })
            }
        }
    }
}

/// A file the bot uploaded, kept byte for byte and served back under `/cdn/`.
#[derive(Debug, Clone)]
pub struct Attachment {
    pub id: u64,
    pub filename: String,
    pub content_type: String,
    /// Shared, so that copying a message (every wait does) does not copy its pictures.
    pub bytes: Arc<[u8]>,
    pub url: String,
}

impl Attachment {
    /// A PNG by its signature (what Discord's clients render), whatever its content type.
    pub fn is_png(&self) -> bool {
        self.bytes.starts_with(b"\x89PNG\r\n\x1a\n")
    }

    /// Width and height of a PNG, as Discord reports them.
    pub fn png_size(&self) -> Option<(u32, u32)> {
        png_size(&self.bytes)
    }

    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "id": self.id.to_string(),
            "filename": self.filename,
            "size": self.bytes.len(),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        });
        if let Some((w, h)) = png_size(&self.bytes) {
            v["width"] = w.into();
            v["height"] = h.into();
        }
        v
    }
}

/// Width and height from a PNG's IHDR chunk: Discord reports them for images.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((w, h))
}

/// Message flags the fake gives meaning to.
pub mod flags {
    pub const EPHEMERAL: u64 = 1 << 6;
    /// A deferred reply's placeholder ("Bot is thinking…").
    pub const LOADING: u64 = 1 << 7;
    /// The message's text lives in its components, not in `content`.
    pub const COMPONENTS_V2: u64 = 1 << 15;
}

#[derive(Debug, Clone)]
pub struct Message {
    pub id: MessageId,
    pub channel: ChannelId,
    pub author: UserId,
    pub content: String,
    pub embeds: Vec<Value>,
    pub components: Vec<Value>,
    pub attachments: Vec<Attachment>,
    pub flags: u64,
    /// The interaction this message answers, if any.
    pub interaction: Option<InteractionId>,
    pub edited: bool,
    pub deleted: bool,
    /// The thread started from this message.
    pub thread: Option<ChannelId>,
    pub timestamp: String,
    /// The `nonce` the bot sent with it, echoed back as Discord does.
    pub nonce: Option<Value>,
    /// The `allowed_mentions` of the request that last set the content (creation, or an edit
    /// of the content); `None` when that request had none (Discord's defaults applied).
    pub allowed_mentions: Option<Value>,
    /// Users the message mentions and so pings: `<@id>` in the content, as far as the
    /// allowed mentions let them through.
    pub mentions: Vec<UserId>,
    /// When the fake stored it (edits keep it): the moment a user could first see it, for
    /// measuring how long the bot took to post.
    pub posted: Instant,
}

impl Message {
    pub fn is_ephemeral(&self) -> bool {
        self.flags & flags::EPHEMERAL != 0
    }

    /// Still the "thinking…" placeholder of a deferred reply.
    pub fn is_loading(&self) -> bool {
        self.flags & flags::LOADING != 0
    }

    /// Users this message pinged (its `mentions`).
    pub fn pinged_users(&self) -> Vec<UserId> {
        self.mentions.clone()
    }

    /// The attached PNG files (a board picture, say), in upload order. Their `bytes` are what
    /// the bot uploaded; `FakeDiscord::download` fetches them over the CDN URL instead.
    pub fn png_attachments(&self) -> Vec<&Attachment> {
        self.attachments.iter().filter(|a| a.is_png()).collect()
    }

    /// The `custom_id`s of every component on the message, rows flattened.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut ids = Vec::new();
        collect_custom_ids(&self.components, &mut ids);
        ids
    }

    pub fn to_json(&self, world: &World) -> Value {
        let channel = world.channels.get(&self.channel);
        let author = world
            .user(self.author)
            .map(User::to_json)
            .unwrap_or(Value::Null);
        let mut v = json!({
            "id": self.id.to_string(),
            "channel_id": self.channel.to_string(),
            "author": author,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": if self.edited { Value::from(timestamp_now()) } else { Value::Null },
            "tts": false,
            "mention_everyone": false,
            "mentions": self.mentions.iter().filter_map(|u| world.user(*u)).map(User::to_json).collect::<Vec<_>>(),
            "mention_roles": [],
            "attachments": self.attachments.iter().map(Attachment::to_json).collect::<Vec<_>>(),
            "embeds": self.embeds,
            "components": self.components,
            "pinned": false,
            // 20 = the reply to a slash command, 0 = an ordinary message.
            "type": if self.interaction.is_some() { 20 } else { 0 },
            "flags": self.flags,
        });
        if let Some(guild) = channel.and_then(|c| c.guild) {
            v["guild_id"] = guild.to_string().into();
        }
        if self.interaction.is_some() {
            v["webhook_id"] = world.app_id.to_string().into();
            v["application_id"] = world.app_id.to_string().into();
        }
        if let Some(thread) = self.thread.and_then(|t| world.channels.get(&t)) {
            v["thread"] = thread.to_json(world);
        }
        if let Some(nonce) = &self.nonce {
            v["nonce"] = nonce.clone();
        }
        v
    }
}

fn collect_custom_ids(components: &[Value], out: &mut Vec<String>) {
    for c in components {
        if let Some(id) = c.get("custom_id").and_then(Value::as_str) {
            out.push(id.to_string());
        }
        if let Some(children) = c.get("components").and_then(Value::as_array) {
            collect_custom_ids(children, out);
        }
    }
}

/// An application command as the bot registered it, with the id the fake gave it.
#[derive(Debug, Clone)]
pub struct Command {
    pub id: u64,
    pub guild: Option<GuildId>,
    pub definition: Value,
}

impl Command {
    pub fn name(&self) -> &str {
        self.definition["name"].as_str().unwrap_or_default()
    }

    pub fn to_json(&self, app_id: u64) -> Value {
        let mut v = self.definition.clone();
        v["id"] = self.id.to_string().into();
        v["application_id"] = app_id.to_string().into();
        v["version"] = self.id.to_string().into();
        v["default_member_permissions"] = v
            .get("default_member_permissions")
            .cloned()
            .unwrap_or(Value::Null);
        v["type"] = v.get("type").cloned().unwrap_or(1.into());
        if let Some(g) = self.guild {
            v["guild_id"] = g.to_string().into();
        }
        v
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InteractionKind {
    Command,
    Component,
    Autocomplete,
    ModalSubmit,
}

impl InteractionKind {
    pub fn code(self) -> u8 {
        match self {
            InteractionKind::Command => 2,
            InteractionKind::Component => 3,
            InteractionKind::Autocomplete => 4,
            InteractionKind::ModalSubmit => 5,
        }
    }
}

/// How the bot answered an interaction through the callback endpoint.
#[derive(Debug, Clone)]
pub struct Callback {
    /// Discord's callback type: 4 message, 5 deferred message, 6 deferred update,
    /// 7 update message, 8 autocomplete result, 9 modal.
    pub kind: u8,
    pub data: Value,
}

#[derive(Debug, Clone)]
pub struct Interaction {
    pub id: InteractionId,
    pub token: String,
    pub kind: InteractionKind,
    pub user: UserId,
    pub channel: ChannelId,
    /// When the bot was told (INTERACTION_CREATE dispatched).
    pub created: Instant,
    /// When the gateway wrote it to the bot's socket: the part of the wait before this is
    /// the fake's own (its queue of frames to send), the part after it the bot's.
    pub written: Option<Instant>,
    /// When the bot's initial response (the callback) was accepted.
    pub answered: Option<Instant>,
    /// The component's message, for button and select interactions.
    pub source_message: Option<MessageId>,
    pub callback: Option<Callback>,
    /// The message made by the initial response (or the deferred placeholder).
    pub original: Option<MessageId>,
    pub followups: Vec<MessageId>,
}

/// Everything the fake knows; guarded by one mutex in `Shared`.
#[derive(Default)]
pub struct World {
    pub app_id: u64,
    pub bot: UserId,
    pub base_url: String,
    pub users: BTreeMap<UserId, User>,
    pub guilds: BTreeMap<GuildId, Guild>,
    pub channels: BTreeMap<ChannelId, Channel>,
    /// Channels and threads deleted by the test: gone for the bot (Unknown Channel), kept here
    /// for the test to look at. Their messages stay in `messages`.
    pub deleted_channels: BTreeMap<ChannelId, Channel>,
    pub messages: BTreeMap<MessageId, Message>,
    /// The ids of each channel's messages, oldest first: an interaction carries its channel,
    /// whose last message and count would otherwise take a walk through every message,
    /// with the whole fake waiting on the world's lock (a busy test has tens of thousands).
    pub by_channel: HashMap<ChannelId, Vec<MessageId>>,
    pub commands: Vec<Command>,
    pub interactions: BTreeMap<InteractionId, Interaction>,
    pub rest_log: Vec<RestLogEntry>,
    pub gateway_log: Vec<GatewayLogEntry>,
    pub faults: Vec<Fault>,
}

impl World {
    /// Makes a guild as a server owner makes one and invites the bot: @everyone with
    /// Discord's default permissions, #general, the owner, and the bot as a member with a
    /// role of its own (what its invite granted). Returns #general.
    pub fn add_guild(&mut self, id: GuildId, name: &str, owner: UserId) -> ChannelId {
        let general = ChannelId::new(next_snowflake());
        let bot_role = RoleId::new(next_snowflake());
        let members = [(owner, vec![]), (self.bot, vec![bot_role])]
            .into_iter()
            .map(|(user, roles)| {
                let member = Member {
                    user,
                    roles,
                    joined_at: timestamp_now(),
                };
                (user, member)
            })
            .collect();
        let everyone = Role {
            id: RoleId::new(id.get()),
            name: "@everyone".into(),
            permissions: perms::EVERYONE_DEFAULT,
            position: 0,
        };
        let bot = Role {
            id: bot_role,
            name: self.users[&self.bot].name.clone(),
            permissions: perms::EVERYONE_DEFAULT | perms::MANAGE_MESSAGES | perms::MANAGE_THREADS,
            position: 1,
        };
        self.guilds.insert(
            id,
            Guild {
                id,
                name: name.into(),
                owner,
                roles: vec![everyone, bot],
                members,
                general,
            },
        );
        self.channels
            .insert(general, Channel::text(general, id, "general", 0));
        general
    }

    pub fn user(&self, id: UserId) -> Option<&User> {
        self.users.get(&id)
    }

    pub fn last_message_in(&self, channel: ChannelId) -> Option<MessageId> {
        self.channel_messages(channel)
            .rev()
            .find(|m| !m.deleted)
            .map(|m| m.id)
    }

    /// Stores a new message (ids grow with time, so each channel's list stays in order).
    pub fn add_message(&mut self, message: Message) {
        self.by_channel
            .entry(message.channel)
            .or_default()
            .push(message.id);
        self.messages.insert(message.id, message);
    }

    /// Every message of a channel or thread, deleted ones included, oldest first.
    pub fn channel_messages(
        &self,
        channel: ChannelId,
    ) -> impl DoubleEndedIterator<Item = &Message> + '_ {
        self.by_channel
            .get(&channel)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(|id| self.messages.get(id))
    }

    /// A guild as GUILD_CREATE carries it. A guild with more members than the session's
    /// `large_threshold` is "large": like Discord, the fake then lists only members online or
    /// in voice, which here is the bot alone (nobody else has a presence).
    pub fn guild_json(&self, guild: &Guild, large_threshold: u64) -> Value {
        let channels: Vec<Value> = self
            .channels
            .values()
            .filter(|c| c.guild == Some(guild.id) && c.kind == ChannelKind::GuildText)
            .map(|c| c.to_json(self))
            .collect();
        let threads: Vec<Value> = self
            .channels
            .values()
            // Discord sends only active threads here; archived ones are fetched on demand.
            .filter(|c| c.guild == Some(guild.id) && c.kind.is_thread() && !c.archived)
            .map(|c| c.to_json(self))
            .collect();
        let large = guild.members.len() as u64 > large_threshold;
        let members: Vec<Value> = guild
            .members
            .values()
            .filter(|m| !large || m.user == self.bot)
            .map(|m| self.member_json(m, None))
            .collect();
        json!({
            "id": guild.id.to_string(),
            "name": guild.name,
            "icon": null,
            "splash": null,
            "discovery_splash": null,
            "owner_id": guild.owner.to_string(),
            "afk_channel_id": null,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": guild.roles.iter().map(Role::to_json).collect::<Vec<_>>(),
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": null,
            "system_channel_id": null,
            "system_channel_flags": 0,
            "rules_channel_id": null,
            "vanity_url_code": null,
            "description": null,
            "banner": null,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": null,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": false,
            "joined_at": timestamp_now(),
            "large": large,
            "unavailable": false,
            "member_count": guild.members.len(),
            "voice_states": [],
            "members": members,
            "channels": channels,
            "threads": threads,
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        })
    }

    /// A member object; `permissions` (computed for a channel) is what interactions carry.
    pub fn member_json(&self, member: &Member, permissions: Option<u64>) -> Value {
        let mut v = json!({
            "user": self.user(member.user).map(User::to_json),
            "nick": null,
            "avatar": null,
            "roles": member.roles.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
            "joined_at": member.joined_at,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
        });
        if let Some(bits) = permissions {
            v["permissions"] = bits.to_string().into();
        }
        v
    }

    /// A user's permissions in a channel, by Discord's algorithm: base permissions from roles,
    /// then the channel's overwrites for @everyone, for the member's roles, for the member.
    /// Threads use their parent's overwrites; private threads also need membership.
    pub fn channel_permissions(&self, user: UserId, channel: ChannelId) -> u64 {
        let Some(ch) = self.channels.get(&channel) else {
            return 0;
        };
        let Some(guild) = ch.guild.and_then(|g| self.guilds.get(&g)) else {
            return perms::ALL; // DMs are not permission-gated
        };
        let base = guild.base_permissions(user);
        if base == perms::ALL {
            return base;
        }
        let source = if ch.kind.is_thread() {
            ch.parent.and_then(|p| self.channels.get(&p)).unwrap_or(ch)
        } else {
            ch
        };
        let roles = guild
            .members
            .get(&user)
            .map(|m| m.roles.clone())
            .unwrap_or_default();
        let mut bits = base;
        let everyone = RoleId::new(guild.id.get());
        for o in source
            .overwrites
            .iter()
            .filter(|o| o.target == OverwriteTarget::Role(everyone))
        {
            bits = (bits & !o.deny) | o.allow;
        }
        let (mut allow, mut deny) = (0, 0);
        for o in &source.overwrites {
            if let OverwriteTarget::Role(r) = o.target
                && r != everyone
                && roles.contains(&r)
            {
                allow |= o.allow;
                deny |= o.deny;
            }
        }
        bits = (bits & !deny) | allow;
        for o in source
            .overwrites
            .iter()
            .filter(|o| o.target == OverwriteTarget::Member(user))
        {
            bits = (bits & !o.deny) | o.allow;
        }
        if ch.kind == ChannelKind::PrivateThread
            && !ch.thread_members.contains(&user)
            && bits & perms::MANAGE_THREADS == 0
        {
            bits &= !perms::VIEW_CHANNEL;
        }
        if bits & perms::VIEW_CHANNEL == 0 {
            0
        } else {
            bits
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_convert_like_the_calendar() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }

    #[test]
    fn a_snowflake_on_a_shard_lands_there_and_keeps_increasing() {
        for (shard, shards) in [(0, 1), (0, 2), (1, 2), (2, 3), (4, 5)] {
            let before = next_snowflake();
            let id = next_snowflake_on_shard(shard, shards);
            let after = next_snowflake();
            assert_eq!((id >> 22) % u64::from(shards), u64::from(shard));
            assert!(before < id && id < after, "{before} < {id} < {after}");
            assert!(snowflake_age(id) < Duration::from_secs(1));
        }
    }

    #[test]
    fn snowflakes_increase_and_carry_the_time() {
        let a = next_snowflake();
        let b = next_snowflake();
        assert!(b > a);
        let ms = (a >> 22) + DISCORD_EPOCH_MS;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        assert!(now.abs_diff(ms) < 60_000);
    }
}
