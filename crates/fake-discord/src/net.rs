//! The safety net: in tests the bot's HTTP client cannot reach the real Discord even if a
//! base URL is forgotten somewhere, because Discord's host names resolve to a closed port on
//! loopback instead of the internet.

use std::net::SocketAddr;

use serenity::all::{ApplicationId, Http, HttpBuilder};

use super::{BOT_TOKEN, FakeDiscord};

/// Port 9 ("discard") on loopback: nothing listens there, so a connection is refused at once.
pub const BLACKHOLE: &str = "127.0.0.1:9";

/// Every host serenity knows for Discord's REST API and CDN.
pub const DISCORD_HOSTS: [&str; 7] = [
    "discord.com",
    "www.discord.com",
    "discordapp.com",
    "canary.discord.com",
    "ptb.discord.com",
    "cdn.discordapp.com",
    "media.discordapp.net",
];

/// A reqwest client (the one serenity uses, same major version) that resolves Discord's
/// hosts to a closed local port and ignores proxy environment variables.
pub fn guarded_reqwest_client() -> reqwest::Client {
    let blackhole: SocketAddr = BLACKHOLE.parse().expect("valid address");
    DISCORD_HOSTS
        .iter()
        .fold(reqwest::Client::builder().no_proxy(), |builder, host| {
            builder.resolve(host, blackhole)
        })
        .build()
        .expect("build the guarded reqwest client")
}

impl FakeDiscord {
    /// The `Http` a bot under test must use: API calls go to this fake (serenity rewrites
    /// `https://discord.com` to the proxy URL), the ratelimiter is off (it would bypass the
    /// proxy and call discord.com itself), and the client is the guarded one. Build the
    /// client with `ClientBuilder::new_with_http(fake.bot_http(), intents)`.
    pub fn bot_http(&self) -> Http {
        HttpBuilder::new(BOT_TOKEN)
            .client(guarded_reqwest_client())
            .proxy(self.base_url())
            .ratelimiter_disabled(true)
            .application_id(ApplicationId::new(self.bot_user().get()))
            .build()
    }
}
