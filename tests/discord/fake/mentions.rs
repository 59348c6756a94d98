//! Who a message pings: `<@id>` mentions in its content, as `allowed_mentions` lets them.

use serde_json::json;
use serenity::all::{CreateAllowedMentions, CreateMessage, EditMessage};

use crate::fake::bot;
use crate::fake::raw;
use fake_discord::FakeDiscord;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_mentions_decide_who_is_pinged() {
    let fake = FakeDiscord::start().await;
    let http = fake.bot_http();
    let channel = fake.general();
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let text = format!("<@{alice}>, your move (after <@!{bob}>)");
    let post = |allowed: Option<CreateAllowedMentions>| {
        let mut message = CreateMessage::new().content(&text);
        if let Some(allowed) = allowed {
            message = message.allowed_mentions(allowed);
        }
        channel.send_message(&http, message)
    };

    // No allowed_mentions: every user mention pings.
    let sent = post(None).await.unwrap();
    let message = fake.message(sent.id).unwrap();
    assert_eq!(message.pinged_users(), [alice, bob]);
    assert_eq!(message.allowed_mentions, None);
    let mentioned: Vec<_> = sent.mentions.iter().map(|u| u.id).collect();
    assert_eq!(mentioned, [alice, bob], "the bot sees them in `mentions`");

    // `parse: []`: nobody.
    let sent = post(Some(CreateAllowedMentions::new())).await.unwrap();
    let message = fake.message(sent.id).unwrap();
    assert!(message.pinged_users().is_empty());
    assert!(sent.mentions.is_empty());
    assert_eq!(
        message.allowed_mentions.as_ref().unwrap()["parse"],
        json!([])
    );

    // Listed users only; `parse: ["users"]` for all of them.
    let only_alice = CreateAllowedMentions::new().users([alice]);
    let sent = post(Some(only_alice)).await.unwrap();
    assert_eq!(fake.message(sent.id).unwrap().pinged_users(), [alice]);
    let sent = post(Some(CreateAllowedMentions::new().all_users(true)))
        .await
        .unwrap();
    assert_eq!(fake.message(sent.id).unwrap().pinged_users(), [alice, bob]);

    // An edit of the content parses it afresh, with the edit's own allowed_mentions (or the
    // defaults), whatever the message was created with.
    let quiet = post(Some(CreateAllowedMentions::new())).await.unwrap();
    channel
        .edit_message(
            &http,
            quiet.id,
            EditMessage::new().content(format!("<@{bob}>!")),
        )
        .await
        .unwrap();
    assert_eq!(fake.message(quiet.id).unwrap().pinged_users(), [bob]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parse_users_and_a_user_list_together_are_refused() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_member("alice");
    let body = json!({
        "content": format!("<@{alice}>"),
        "allowed_mentions": {"parse": ["users"], "users": [alice.to_string()]},
    });
    let (status, body) = raw::post_message(&fake, fake.general(), body).await;
    assert_eq!((status, body["code"].as_u64()), (400, Some(50035)));
    assert!(
        body["errors"]["allowed_mentions"]["_errors"].is_array(),
        "{body}"
    );
    assert!(fake.messages_in(fake.general()).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interaction_reply_pings_by_poise_defaults() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let hermit = fake.add_user_with_closed_dms("hermit");
    fake.join_guild(hermit);
    // `/dm whom:hermit` answers "@hermit does not accept DMs" with poise's default
    // allowed_mentions (every user): hermit is pinged.
    let ix = fake
        .slash(alice, fake.general(), "dm", &[("whom", hermit.into())])
        .await;
    let reply = fake.reply(&ix).await;
    assert_eq!(reply.content, format!("<@{hermit}> does not accept DMs"));
    assert_eq!(reply.pinged_users(), [hermit]);
    assert_eq!(
        reply.allowed_mentions.as_ref().unwrap()["parse"],
        json!(["users"])
    );
}
