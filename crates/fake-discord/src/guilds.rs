//! Guilds: the one the fake starts with and any a test adds (on a shard of its choosing), and
//! the members and text channels in them. The helpers without a guild work in the start guild.

use serenity::all::{ChannelId, GuildId, RoleId, UserId};

use super::FakeDiscord;
use super::world::{
    Channel, Guild, Member, Overwrite, Role, World, next_snowflake, next_snowflake_on_shard,
    timestamp_now,
};

impl FakeDiscord {
    /// A new guild the bot is a member of, made as the start guild is (#general, @everyone,
    /// the bot with its role, the same owner), on whatever shard its id picks. If that shard
    /// has a session the bot gets GUILD_CREATE at once, as when it is added to a server.
    pub fn add_guild(&self, name: &str) -> GuildId {
        self.insert_guild(GuildId::new(next_snowflake()), name)
    }

    /// As [`FakeDiscord::add_guild`], with an id that puts the guild on `shard`.
    pub fn add_guild_on_shard(&self, name: &str, shard: u16) -> GuildId {
        self.check_shard(shard);
        let shards = self.shared.config.shards;
        self.insert_guild(GuildId::new(next_snowflake_on_shard(shard, shards)), name)
    }

    fn insert_guild(&self, id: GuildId, name: &str) -> GuildId {
        self.shared.with(|w| {
            let owner = w.guilds[&self.guild].owner;
            w.add_guild(id, name, owner);
        });
        self.shared.announce_guild(id);
        id
    }

    /// The shard that serves a guild's events: `(guild_id >> 22) % shards`.
    pub fn shard_of(&self, guild: GuildId) -> u16 {
        self.shared.shard_of_guild(Some(guild))
    }

    /// A guild's #general text channel.
    pub fn general_of(&self, guild: GuildId) -> ChannelId {
        self.shared.read(|w| known_guild(w, guild).general)
    }

    /// A new member of the start guild with the default (@everyone) permissions.
    pub fn add_member(&self, name: &str) -> UserId {
        self.add_member_in(self.guild, name)
    }

    /// A new member of `guild` with the default (@everyone) permissions.
    pub fn add_member_in(&self, guild: GuildId, name: &str) -> UserId {
        let id = self.add_user(name);
        self.join_guild_in(guild, id);
        id
    }

    /// A member of the start guild holding a role with exactly `permissions` on top of
    /// @everyone.
    pub fn add_member_with_permissions(&self, name: &str, permissions: u64) -> UserId {
        self.add_member_with_permissions_in(self.guild, name, permissions)
    }

    /// A member of `guild` holding a role with exactly `permissions` on top of @everyone.
    pub fn add_member_with_permissions_in(
        &self,
        guild: GuildId,
        name: &str,
        permissions: u64,
    ) -> UserId {
        let id = self.add_user(name);
        let role = RoleId::new(next_snowflake());
        self.shared.with(|w| {
            let guild = known_guild_mut(w, guild);
            let position = guild.roles.len() as u16;
            guild.roles.push(Role {
                id: role,
                name: format!("{name}-role"),
                permissions,
                position,
            });
        });
        self.insert_member(guild, id, &[role]);
        id
    }

    /// Makes an existing user a member of the start guild with @everyone's permissions.
    pub fn join_guild(&self, user: UserId) {
        self.join_guild_in(self.guild, user);
    }

    /// Makes an existing user a member of `guild` with @everyone's permissions.
    pub fn join_guild_in(&self, guild: GuildId, user: UserId) {
        self.insert_member(guild, user, &[]);
    }

    fn insert_member(&self, guild: GuildId, user: UserId, roles: &[RoleId]) {
        self.shared.with(|w| {
            known_guild_mut(w, guild).members.insert(
                user,
                Member {
                    user,
                    roles: roles.to_vec(),
                    joined_at: timestamp_now(),
                },
            );
        });
    }

    /// A new text channel in the start guild; `overwrites` as in Discord's channel settings.
    pub fn add_text_channel(&self, name: &str, overwrites: Vec<Overwrite>) -> ChannelId {
        self.add_text_channel_in(self.guild, name, overwrites)
    }

    /// A new text channel in `guild`; `overwrites` as in Discord's channel settings.
    pub fn add_text_channel_in(
        &self,
        guild: GuildId,
        name: &str,
        overwrites: Vec<Overwrite>,
    ) -> ChannelId {
        let id = ChannelId::new(next_snowflake());
        self.shared.with(|w| {
            known_guild(w, guild); // an unknown guild fails the test
            let position = w.channels.len() as u16;
            let mut channel = Channel::text(id, guild, name, position);
            channel.overwrites = overwrites;
            w.channels.insert(id, channel);
        });
        id
    }

    /// The start guild's @everyone role, for overwrites.
    pub fn everyone_role(&self) -> RoleId {
        self.everyone_role_of(self.guild)
    }

    /// A guild's @everyone role (its id is the guild's), for overwrites.
    pub fn everyone_role_of(&self, guild: GuildId) -> RoleId {
        RoleId::new(guild.get())
    }
}

/// The guild, or a failed test naming the id it does not know.
fn known_guild(w: &World, guild: GuildId) -> &Guild {
    w.guilds
        .get(&guild)
        .unwrap_or_else(|| panic!("fake Discord: no guild {guild}"))
}

fn known_guild_mut(w: &mut World, guild: GuildId) -> &mut Guild {
    w.guilds
        .get_mut(&guild)
        .unwrap_or_else(|| panic!("fake Discord: no guild {guild}"))
}
