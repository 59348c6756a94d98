//! Protocol behaviour: 429s, gateway resume, threads, permissions, and the faults the fake
//! records (unknown routes, bodies that break the OpenAPI schema).

use serde_json::json;

use crate::fake::bot;
use fake_discord::{
    BOT_TOKEN, ChannelKind, Direction, FakeDiscord, Fault, Overwrite, OverwriteTarget,
    guarded_reqwest_client, perms,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_requested_429_carries_retry_after_and_the_bot_retries() {
    let fake = FakeDiscord::start().await;
    let bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    fake.rate_limit_next("POST", "/channels/{channel_id}/messages", 0.05);

    let ix = fake
        .slash(
            alice,
            fake.general(),
            "announce",
            &[("text", "Land ho!".into())],
        )
        .await;
    assert_eq!(fake.reply(&ix).await.content, "Announced");
    fake.wait_message(fake.general(), |m| m.content == "Land ho!")
        .await;
    let posts: Vec<u16> = fake
        .rest_log()
        .iter()
        .filter(|e| {
            e.method == "POST" && e.path == format!("/channels/{}/messages", fake.general())
        })
        .map(|e| e.status)
        .collect();
    assert_eq!(posts, [429, 200]);
    assert!(bot.errors().contains(&"announce: rate limited".to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_looks_like_discords() {
    let fake = FakeDiscord::start().await;
    fake.rate_limit_next("GET", "/gateway", 1.5);
    let url = format!("{}/api/v10/gateway", fake.base_url());
    let response = guarded_reqwest_client().get(&url).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 429);
    assert_eq!(response.headers()["retry-after"], "2");
    let body: serde_json::Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(body["retry_after"], 1.5);
    assert_eq!(body["global"], false);
    // Only the next request was limited.
    assert!(
        guarded_reqwest_client()
            .get(&url)
            .send()
            .await
            .unwrap()
            .status()
            .is_success()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_resumes_after_the_gateway_closes_and_gets_what_it_missed() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    assert!(fake.close_gateway(4000));
    // Sent while the bot is away: it must arrive through the RESUME replay.
    let ix = fake.slash(alice, fake.general(), "ping", &[]).await;
    fake.wait_resumed(1).await;
    assert_eq!(fake.reply(&ix).await.content, "pong");

    let log = fake.gateway_log();
    let identify = log
        .iter()
        .filter(|e| e.direction == Direction::Received && e.op() == Some(2))
        .count();
    assert_eq!(identify, 1, "a resume must not identify again");
    let resume = log
        .iter()
        .find(|e| e.direction == Direction::Received && e.op() == Some(6))
        .expect("a RESUME frame");
    assert_eq!(resume.connection, 2);
    let ready = log
        .iter()
        .find(|e| e.event_name() == Some("READY"))
        .expect("READY");
    assert_eq!(
        resume.frame["d"]["session_id"],
        ready.frame["d"]["session_id"]
    );
    let replayed = log
        .iter()
        .any(|e| e.connection == 2 && e.event_name() == Some("INTERACTION_CREATE"));
    assert!(replayed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_guild_arrives_without_its_member_list() {
    let fake = FakeDiscord::start().await;
    // With the owner, the bot and 250 more: above serenity's large_threshold (250).
    for i in 0..250 {
        fake.add_member(&format!("member{i}"));
    }
    let _bot = bot::start(&fake).await;
    let log = fake.gateway_log();
    let guild = log
        .iter()
        .find(|e| e.event_name() == Some("GUILD_CREATE"))
        .expect("GUILD_CREATE");
    assert_eq!(guild.frame["d"]["large"], true);
    assert_eq!(guild.frame["d"]["member_count"], 252);
    let members = guild.frame["d"]["members"].as_array().expect("a list");
    assert_eq!(members.len(), 1, "only the bot itself");
    assert_eq!(
        members[0]["user"]["id"],
        fake.bot_user().to_string().as_str()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_guild_arrives_with_every_member() {
    let fake = FakeDiscord::start().await;
    fake.add_member("alice");
    let _bot = bot::start(&fake).await;
    let log = fake.gateway_log();
    let guild = log
        .iter()
        .find(|e| e.event_name() == Some("GUILD_CREATE"))
        .expect("GUILD_CREATE");
    assert_eq!(guild.frame["d"]["large"], false);
    assert_eq!(
        guild.frame["d"]["members"].as_array().map(Vec::len),
        Some(3)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_from_a_message_and_standalone_hold_messages() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    let ix = fake.slash(alice, fake.general(), "threads", &[]).await;
    let reply = fake.reply(&ix).await;
    let public = serenity::all::ChannelId::new(reply.id.get());
    let welcome = fake
        .wait_message(public, |m| m.content == "Welcome aboard")
        .await;
    assert_eq!(fake.channel_kind(public), Some(ChannelKind::PublicThread));
    assert_eq!(fake.thread_parent(public), Some(fake.general()));
    assert_eq!(fake.message(reply.id).unwrap().thread, Some(public));
    assert_eq!(welcome.channel, public);

    let private = fake.wait_for("the private thread", |f| {
        f.threads()
            .into_iter()
            .find(|t| f.channel_kind(*t) == Some(ChannelKind::PrivateThread))
    });
    let private = private.await;
    fake.wait_message(private, |m| m.content == "Only for you")
        .await;
    // The second THREAD_CREATE is dispatched beside the message, not before it: wait for it.
    fake.wait_dispatches("THREAD_CREATE", 2).await;
    assert_eq!(fake.dispatch_count("THREAD_CREATE"), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posting_where_the_bot_may_not_send_is_refused_with_50013() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let deny_bot = Overwrite {
        target: OverwriteTarget::Member(fake.bot_user()),
        allow: 0,
        deny: perms::SEND_MESSAGES,
    };
    let quiet = fake.add_text_channel("quiet", vec![deny_bot]);

    let ix = fake
        .slash(alice, quiet, "announce", &[("text", "hello".into())])
        .await;
    let refused = fake
        .wait_request("the refused post", |e| e.status == 403)
        .await;
    assert_eq!(refused.error_code, Some(50013));
    assert!(fake.messages_in(quiet).iter().all(|m| m.content != "hello"));
    // The interaction itself was answered (deferred) through its webhook, which needs no
    // channel permission.
    assert_eq!(fake.response(&ix).await.kind, 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_route_is_answered_404_and_recorded() {
    let fake = FakeDiscord::start().await;
    let response = guarded_reqwest_client()
        .get(format!("{}/api/v10/guilds/1/emojis", fake.base_url()))
        .header("Authorization", format!("Bot {BOT_TOKEN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 404);
    let faults = fake.take_faults();
    assert!(
        matches!(faults.as_slice(), [Fault::UnknownRoute { path, .. }] if path == "/guilds/1/emojis"),
        "{faults:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_breaks_the_spec_fails_with_the_path_and_the_schema_error() {
    let fake = FakeDiscord::start().await;
    let response = guarded_reqwest_client()
        .post(format!(
            "{}/api/v10/channels/{}/messages",
            fake.base_url(),
            fake.general()
        ))
        .header("Authorization", format!("Bot {BOT_TOKEN}"))
        .header("Content-Type", "application/json")
        .body(json!({"content": "hi", "embeds": [{"title": 5}]}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let body: serde_json::Value = serde_json::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(body["code"], 50035);
    let faults = fake.take_faults();
    let [
        Fault::SchemaViolation {
            path,
            template,
            errors,
            ..
        },
    ] = faults.as_slice()
    else {
        panic!("one schema violation expected: {faults:?}");
    };
    assert_eq!(path, &format!("/channels/{}/messages", fake.general()));
    assert_eq!(template, "/channels/{channel_id}/messages");
    assert!(
        errors
            .iter()
            .any(|e| e.contains("/embeds/0/title") && e.contains("string")),
        "{errors:?}"
    );
    assert!(fake.messages_in(fake.general()).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dispatch_serenity_cannot_read_is_refused_loudly() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    // An interaction without `token`, `entitlements`, … would be dropped silently by serenity.
    let error = fake
        .dispatch(
            "INTERACTION_CREATE",
            json!({"id": "1", "type": 2, "application_id": "1"}),
        )
        .unwrap_err();
    assert!(error.contains("INTERACTION_CREATE"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_can_be_edited_and_deleted_over_rest() {
    let fake = FakeDiscord::start().await;
    let http = fake.bot_http();
    let channel = fake.general();
    let sent = channel.say(&http, "draft").await.unwrap();
    let edited = channel
        .edit_message(
            &http,
            sent.id,
            serenity::all::EditMessage::new().content("final"),
        )
        .await
        .unwrap();
    assert_eq!(edited.content, "final");
    assert!(fake.message(sent.id).unwrap().edited);
    channel.delete_message(&http, sent.id).await.unwrap();
    assert!(fake.message(sent.id).unwrap().deleted);
    let gone = channel.message(&http, sent.id).await.unwrap_err();
    assert_eq!(crate::fake::bot::discord_code(&gone), Some(10008));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_messages_returns_the_first_matching_live_messages_oldest_first() {
    let fake = FakeDiscord::start().await;
    let http = fake.bot_http();
    let channel = fake.general();
    let mut sent = Vec::new();
    for text in ["move 1", "chat", "move 2", "move 3"] {
        sent.push(channel.say(&http, text).await.unwrap().id);
    }
    let is_move = |m: &fake_discord::Message| m.content.starts_with("move");
    let moves = fake.wait_messages(channel, 2, is_move).await;
    let texts: Vec<&str> = moves.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(texts, ["move 1", "move 2"]);

    channel.delete_message(&http, sent[0]).await.unwrap();
    let moves = fake.wait_messages(channel, 2, is_move).await;
    let texts: Vec<&str> = moves.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(texts, ["move 2", "move 3"]);
}
