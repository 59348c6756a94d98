//! What server staff and Discord itself do to channels behind the bot's back: channels the
//! bot may not fully use, deleting channels and threads, archiving threads. Each change
//! reaches the bot as the gateway event Discord sends for it.

use serde_json::json;
use serenity::all::ChannelId;

use super::gateway::intents;
use super::world::{Channel, Overwrite, OverwriteTarget, timestamp_now};
use super::{FakeDiscord, Shared};

impl Shared {
    /// Tells the bot a thread was archived or unarchived: THREAD_UPDATE with the whole thread
    /// and, on unarchiving, a THREAD_MEMBER_UPDATE for the bot if it is a member (Discord
    /// sends both, in that order, because bots keep only active threads in memory).
    pub(crate) fn announce_archiving(&self, thread: ChannelId) {
        let Some((update, member)) = self.read(|w| {
            let t = w.channels.get(&thread)?;
            let member = (!t.archived && t.thread_members.contains(&w.bot)).then(|| {
                json!({
                    "id": thread.to_string(),
                    "user_id": w.bot.to_string(),
                    "join_timestamp": timestamp_now(),
                    "flags": 0,
                    "guild_id": t.guild.map(|g| g.to_string()),
                })
            });
            Some((t.to_json(w), member))
        }) else {
            return;
        };
        self.dispatch_for_intent(intents::GUILDS, "THREAD_UPDATE", update);
        if let Some(member) = member {
            self.dispatch_for_intent(intents::GUILDS, "THREAD_MEMBER_UPDATE", member);
        }
    }
}

impl FakeDiscord {
    /// A text channel where an overwrite for the bot's member denies it `bits` (e.g.
    /// `perms::SEND_MESSAGES`); member overwrites beat every role, as on Discord.
    pub fn add_text_channel_denying_bot(&self, name: &str, bits: u64) -> ChannelId {
        let deny = Overwrite {
            target: OverwriteTarget::Member(self.bot_user()),
            allow: 0,
            deny: bits,
        };
        self.add_text_channel(name, vec![deny])
    }

    /// A snapshot of a channel or thread, deleted ones included (`deleted` set).
    pub fn channel(&self, id: ChannelId) -> Option<Channel> {
        self.shared.read(|w| {
            w.channels
                .get(&id)
                .or_else(|| w.deleted_channels.get(&id))
                .cloned()
        })
    }

    /// Deletes a guild channel or thread, as a moderator would. Every later request naming it
    /// gets 404 / 10003 "Unknown Channel"; its messages stay readable by the test through
    /// `messages_in`. The bot is told with CHANNEL_DELETE (the whole channel) or THREAD_DELETE
    /// (id, guild, parent and type only). A channel's threads go with it, and Discord sends no
    /// THREAD_DELETE for them.
    pub fn delete_channel(&self, id: ChannelId) {
        let found = self
            .shared
            .read(|w| w.channels.get(&id).map(|c| (c.guild, c.kind)));
        let Some((Some(guild), kind)) = found else {
            panic!("fake Discord: no guild channel or thread {id} to delete");
        };
        let (event, payload) = self.shared.with(|w| {
            let event = if kind.is_thread() {
                let parent = w.channels[&id].parent;
                let payload = json!({
                    "id": id.to_string(),
                    "guild_id": guild.to_string(),
                    "parent_id": parent.map(|p| p.to_string()),
                    "type": kind.code(),
                });
                ("THREAD_DELETE", payload)
            } else {
                ("CHANNEL_DELETE", w.channels[&id].to_json(w))
            };
            let gone: Vec<ChannelId> = w
                .channels
                .values()
                .filter(|c| c.id == id || c.parent == Some(id))
                .map(|c| c.id)
                .collect();
            for gone in gone {
                let mut channel = w.channels.remove(&gone).expect("listed above");
                channel.deleted = true;
                w.deleted_channels.insert(gone, channel);
            }
            event
        });
        self.shared
            .dispatch_for_intent(intents::GUILDS, event, payload);
    }

    /// Archives a thread, as Discord does after inactivity or a moderator by hand. Until a new
    /// message unarchives it, messages in it cannot be edited (400 / 50083), nobody can be
    /// added to it, and users cannot run commands in it.
    pub fn archive_thread(&self, id: ChannelId) {
        self.shared.with(|w| {
            let thread = w
                .channels
                .get_mut(&id)
                .filter(|c| c.kind.is_thread())
                .unwrap_or_else(|| panic!("fake Discord: no thread {id} to archive"));
            thread.archived = true;
        });
        self.shared.announce_archiving(id);
    }
}
