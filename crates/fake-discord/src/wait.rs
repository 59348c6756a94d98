//! Waiting for the bot: every wait re-checks its condition whenever the fake's state
//! changes, and fails the test with a summary of recent traffic after `wait_timeout`.

use serenity::all::{ChannelId, UserId};

use super::interact::InteractionHandle;
use super::world::{Callback, ChannelKind, Message};
use super::{FakeDiscord, RestLogEntry};

impl FakeDiscord {
    /// Waits until `check` returns `Some`, re-checking after every change of the fake's
    /// state, and every 20 ms for conditions on state outside it (e.g. the bot's own).
    pub async fn wait_for<T>(
        &self,
        what: &str,
        mut check: impl FnMut(&FakeDiscord) -> Option<T>,
    ) -> T {
        let mut changes = self.shared.changed.subscribe();
        let timeout = self.shared.config.wait_timeout;
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            changes.borrow_and_update();
            if let Some(found) = check(self) {
                return found;
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                panic!(
                    "fake Discord: timed out after {timeout:?} waiting for {what}\n{}",
                    self.summary()
                );
            }
            let poll = deadline.min(now + std::time::Duration::from_millis(20));
            let _ = tokio::time::timeout_at(poll, changes.changed()).await;
        }
    }

    /// Recent traffic and faults, for failure messages.
    pub fn summary(&self) -> String {
        let log = self.rest_log();
        let recent: Vec<String> = log
            .iter()
            .rev()
            .take(12)
            .rev()
            .map(|e| {
                format!(
                    "  {} {} → {}{}",
                    e.method,
                    e.path,
                    if e.dropped {
                        "dropped".to_string()
                    } else {
                        e.status.to_string()
                    },
                    e.error_code.map(|c| format!(" ({c})")).unwrap_or_default()
                )
            })
            .collect();
        let gateway = self.gateway_log();
        let frames: Vec<String> = gateway
            .iter()
            .rev()
            .take(8)
            .rev()
            .map(|e| {
                let what = e
                    .event_name()
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("op {:?}", e.op()));
                let shard = e.shard.map(|s| format!(" shard {s}")).unwrap_or_default();
                format!("  #{}{shard} {:?} {what}", e.connection, e.direction)
            })
            .collect();
        let faults: Vec<String> = self.faults().iter().map(|f| format!("  {f}")).collect();
        format!(
            "recent REST requests:\n{}\nrecent gateway frames:\n{}\nfaults:\n{}",
            recent.join("\n"),
            frames.join("\n"),
            faults.join("\n")
        )
    }

    /// Until the bot has identified on the gateway (on any shard) and received READY.
    pub async fn wait_ready(&self) {
        self.wait_for("the bot to connect to the gateway", |f| {
            (f.identify_count() > 0).then_some(())
        })
        .await
    }

    /// Until bots have identified `count` times in all (a restarted bot identifies anew).
    pub async fn wait_identified(&self, count: u32) {
        self.wait_for(&format!("identify number {count} on the gateway"), |f| {
            (f.identify_count() >= count).then_some(())
        })
        .await
    }

    /// Until the bot has resumed its sessions `count` times in all (on every shard).
    pub async fn wait_resumed(&self, count: u32) {
        self.wait_for("the bot to resume its gateway session", |f| {
            f.shared
                .gateway_snapshot(|g| (g.resumes() >= count).then_some(()))
        })
        .await
    }

    /// Until shard `shard` has identified `count` times in all and a connection serves it.
    pub async fn wait_shard_identified(&self, shard: u16, count: u32) {
        let what = format!("identify number {count} of shard {shard}");
        self.wait_for(&what, |f| {
            (f.shard_identifies(shard) >= count && f.shard_connected(shard)).then_some(())
        })
        .await
    }

    /// Until shard `shard` has resumed its session `count` times in all and a connection
    /// serves it.
    pub async fn wait_shard_resumed(&self, shard: u16, count: u32) {
        let what = format!("resume number {count} of shard {shard}");
        self.wait_for(&what, |f| {
            (f.shard_resumes(shard) >= count && f.shard_connected(shard)).then_some(())
        })
        .await
    }

    /// Until every named command is registered.
    pub async fn wait_commands(&self, names: &[&str]) {
        self.wait_for(&format!("commands {names:?} to be registered"), |f| {
            let registered = f.registered_commands();
            names
                .iter()
                .all(|n| registered.iter().any(|r| r == n))
                .then_some(())
        })
        .await
    }

    /// The bot's initial response to an interaction (the callback), once it came.
    pub async fn response(&self, ix: &InteractionHandle) -> Callback {
        self.wait_for(&format!("a response to interaction {}", ix.id), |f| {
            f.shared
                .read(|w| w.interactions.get(&ix.id).and_then(|i| i.callback.clone()))
        })
        .await
    }

    /// The visible reply to an interaction: the original response message once it is no
    /// longer a "thinking…" placeholder (for component updates: the updated message).
    pub async fn reply(&self, ix: &InteractionHandle) -> Message {
        self.wait_for(&format!("the reply to interaction {}", ix.id), |f| {
            f.shared.read(|w| {
                let original = w.interactions.get(&ix.id)?.original?;
                let message = w.messages.get(&original)?;
                (!message.is_loading()).then(|| message.clone())
            })
        })
        .await
    }

    /// The first `count` followup messages of an interaction (not counting a followup that
    /// filled in a deferred placeholder: that one is the `reply`).
    pub async fn followups(&self, ix: &InteractionHandle, count: usize) -> Vec<Message> {
        self.wait_for(
            &format!("{count} followup(s) to interaction {}", ix.id),
            |f| {
                f.shared.read(|w| {
                    let ids = &w.interactions.get(&ix.id)?.followups;
                    (ids.len() >= count).then(|| {
                        ids.iter()
                            .take(count)
                            .map(|id| w.messages[id].clone())
                            .collect()
                    })
                })
            },
        )
        .await
    }

    /// Until the gateway has sent at least `count` dispatches named `name` (a dispatch goes
    /// out after the state it reports is stored, so a count read at once may be short).
    pub async fn wait_dispatches(&self, name: &str, count: usize) {
        self.wait_for(&format!("{count} {name} dispatch(es)"), |f| {
            (f.dispatch_count(name) >= count).then_some(())
        })
        .await
    }

    /// The first message (not deleted, not a placeholder) in a channel or thread that
    /// satisfies `pred`.
    pub async fn wait_message(
        &self,
        channel: ChannelId,
        pred: impl Fn(&Message) -> bool,
    ) -> Message {
        self.wait_for(&format!("a matching message in channel {channel}"), |f| {
            f.messages_in(channel)
                .into_iter()
                .find(|m| !m.deleted && !m.is_loading() && pred(m))
        })
        .await
    }

    /// The first `count` messages (not deleted, not placeholders) in a channel or thread that
    /// satisfy `pred`, oldest first, once there are that many.
    pub async fn wait_messages(
        &self,
        channel: ChannelId,
        count: usize,
        pred: impl Fn(&Message) -> bool,
    ) -> Vec<Message> {
        let what = format!("{count} matching message(s) in channel {channel}");
        self.wait_for(&what, |f| {
            let found: Vec<Message> = f
                .messages_in(channel)
                .into_iter()
                .filter(|m| !m.deleted && !m.is_loading() && pred(m))
                .take(count)
                .collect();
            (found.len() == count).then_some(found)
        })
        .await
    }

    /// The first DM from the bot to `user` that satisfies `pred`.
    pub async fn wait_dm(&self, user: UserId, pred: impl Fn(&Message) -> bool) -> Message {
        self.wait_for(&format!("a matching DM to user {user}"), |f| {
            f.shared.read(|w| {
                let dm = w
                    .channels
                    .values()
                    .find(|c| c.kind == ChannelKind::Dm { recipient: user })?;
                w.channel_messages(dm.id)
                    .find(|m| m.author == w.bot && !m.deleted && pred(m))
                    .cloned()
            })
        })
        .await
    }

    /// The first finished REST request that satisfies `pred`.
    pub async fn wait_request(
        &self,
        what: &str,
        pred: impl Fn(&RestLogEntry) -> bool,
    ) -> RestLogEntry {
        self.wait_for(what, |f| {
            f.rest_log()
                .into_iter()
                .find(|e| (e.status != 0 || e.dropped) && pred(e))
        })
        .await
    }
}
