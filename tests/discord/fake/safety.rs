//! The safety net: with the guarded client, Discord's real hosts resolve to a closed local
//! port, so a bot that forgot its fake base URL fails fast instead of reaching Discord.

use std::time::{Duration, Instant};

use serenity::all::HttpBuilder;

use fake_discord::{BOT_TOKEN, guarded_reqwest_client};

fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(" / ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

#[tokio::test]
async fn discord_hosts_resolve_to_a_closed_local_port() {
    for url in [
        "https://discord.com/api/v10/gateway",
        "https://cdn.discordapp.com/attachments/1/2/a.png",
    ] {
        let started = Instant::now();
        let error = guarded_reqwest_client()
            .get(url)
            .send()
            .await
            .expect_err("must not connect");
        assert!(error.is_connect(), "{url}: {}", chain(&error));
        // Refused by 127.0.0.1:9, not a DNS failure or a timeout somewhere else.
        assert!(
            chain(&error).to_lowercase().contains("refused"),
            "{url}: {}",
            chain(&error)
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}

#[tokio::test]
async fn a_bot_http_without_the_fake_url_cannot_reach_discord() {
    // What a test would get if it forgot `.proxy(…)`: serenity's default base URL.
    let http = HttpBuilder::new(BOT_TOKEN)
        .client(guarded_reqwest_client())
        .ratelimiter_disabled(true)
        .build();
    let error = http
        .get_gateway()
        .await
        .expect_err("must not reach discord.com");
    assert!(
        chain(&error).to_lowercase().contains("refused"),
        "{}",
        chain(&error)
    );
}
