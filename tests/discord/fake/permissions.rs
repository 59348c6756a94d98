//! The bot's permissions in guild channels and threads: what each of its actions needs, what
//! Discord does without it, and what interaction answers do not need.

use serde_json::json;
use serenity::all::{
    ChannelType, CreateAttachment, CreateEmbed, CreateMessage, CreateThread, EditMessage,
};

use crate::fake::bot::{self, discord_code};
use crate::fake::raw;
use fake_discord::{FakeDiscord, perms};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_the_bot_cannot_see_is_missing_access() {
    let fake = FakeDiscord::start().await;
    let hidden = fake.add_text_channel_denying_bot("hidden", perms::VIEW_CHANNEL);
    let (status, body) = raw::post_message(&fake, hidden, json!({"content": "hi"})).await;
    assert_eq!((status, body["code"].as_u64()), (403, Some(50001)));
    let (status, _) = raw::send(
        &fake,
        reqwest::Method::GET,
        &format!("/channels/{hidden}"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(status, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_needs_send_messages_in_threads_not_send_messages() {
    let fake = FakeDiscord::start().await;
    let http = fake.bot_http();

    // No SEND_MESSAGES: nothing in the channel itself, but its threads are open.
    let read_only = fake.add_text_channel_denying_bot("read-only", perms::SEND_MESSAGES);
    let refused = read_only.say(&http, "hi").await.unwrap_err();
    assert_eq!(discord_code(&refused), Some(50013));
    let thread = read_only
        .create_thread(
            &http,
            CreateThread::new("game").kind(ChannelType::PublicThread),
        )
        .await
        .unwrap();
    thread.say(&http, "Game on").await.unwrap();

    // No SEND_MESSAGES_IN_THREADS: the channel is open, its threads are not.
    let no_threads =
        fake.add_text_channel_denying_bot("no-threads", perms::SEND_MESSAGES_IN_THREADS);
    let starter = no_threads.say(&http, "Game 1").await.unwrap();
    let thread = no_threads
        .create_thread_from_message(&http, starter.id, CreateThread::new("game-1"))
        .await
        .unwrap();
    let refused = thread.say(&http, "Your move").await.unwrap_err();
    assert_eq!(discord_code(&refused), Some(50013));
    assert!(fake.messages_in(thread.id).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_from_a_message_needs_create_public_threads() {
    let fake = FakeDiscord::start().await;
    let bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let channel = fake.add_text_channel_denying_bot("no-threads", perms::CREATE_PUBLIC_THREADS);

    let ix = fake.slash(alice, channel, "threads", &[]).await;
    let reply = fake.reply(&ix).await;
    assert_eq!(reply.content, "Threads below");
    let refused = fake
        .wait_request("the refused thread", |e| e.path.ends_with("/threads"))
        .await;
    assert_eq!(
        refused.path,
        format!("/channels/{channel}/messages/{}/threads", reply.id)
    );
    assert_eq!((refused.status, refused.error_code), (403, Some(50013)));
    assert!(fake.threads().is_empty());
    fake.wait_for("the bot to notice", |_| {
        bot.errors()
            .iter()
            .any(|e| e.starts_with("threads:"))
            .then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_need_attach_files_except_in_interaction_replies() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let http = fake.bot_http();
    let alice = fake.add_member("alice");
    let channel = fake.add_text_channel_denying_bot("no-files", perms::ATTACH_FILES);

    let picture = CreateAttachment::bytes(bot::TINY_PNG.to_vec(), "board.png");
    let refused = channel
        .send_message(&http, CreateMessage::new().add_file(picture))
        .await
        .unwrap_err();
    assert_eq!(discord_code(&refused), Some(50013));
    channel.say(&http, "text is fine").await.unwrap();

    // The interaction's webhook is not bound by the channel's permissions.
    let ix = fake.slash(alice, channel, "board", &[]).await;
    let reply = fake.reply(&ix).await;
    assert_eq!(reply.png_attachments().len(), 1);
    assert_eq!(reply.embeds.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embeds_are_dropped_without_embed_links_except_in_interaction_replies() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let http = fake.bot_http();
    let alice = fake.add_member("alice");
    let channel = fake.add_text_channel_denying_bot("no-embeds", perms::EMBED_LINKS);
    let embed = || CreateEmbed::new().title("Board");

    let sent = channel
        .send_message(
            &http,
            CreateMessage::new().content("The board").embed(embed()),
        )
        .await
        .unwrap();
    assert!(sent.embeds.is_empty());
    assert_eq!(sent.content, "The board");
    // With nothing else to show, the message is empty.
    let refused = channel
        .send_message(&http, CreateMessage::new().embed(embed()))
        .await
        .unwrap_err();
    assert_eq!(discord_code(&refused), Some(50006));
    let refused = channel
        .edit_message(
            &http,
            sent.id,
            EditMessage::new().content("").embed(embed()),
        )
        .await
        .unwrap_err();
    assert_eq!(discord_code(&refused), Some(50006));

    let ix = fake.slash(alice, channel, "board", &[]).await;
    assert_eq!(fake.reply(&ix).await.embeds.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_command_is_for_members_who_may_manage_the_server() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let admin = fake.add_member_with_permissions("admin", perms::MANAGE_GUILD);

    let ix = fake.slash(admin, fake.general(), "setup", &[]).await;
    // poise checks `required_permissions` against the member permissions Discord computed.
    assert_eq!(fake.reply(&ix).await.content, "Configured");
    let sent = fake
        .gateway_log()
        .into_iter()
        .find(|e| e.event_name() == Some("INTERACTION_CREATE"))
        .expect("the interaction");
    let bits: u64 = sent.frame["d"]["member"]["permissions"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(bits & perms::MANAGE_GUILD, perms::MANAGE_GUILD);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[should_panic(expected = "default_member_permissions")]
async fn a_member_who_may_not_manage_the_server_cannot_run_an_admin_command() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    fake.slash(alice, fake.general(), "setup", &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_read_message_history_the_past_is_hidden() {
    let fake = FakeDiscord::start().await;
    let http = fake.bot_http();
    let channel = fake.add_text_channel_denying_bot("no-history", perms::READ_MESSAGE_HISTORY);
    let sent = channel.say(&http, "Game 1").await.unwrap();

    // Discord lists nothing rather than refusing.
    let listed = channel.messages(&http, Default::default()).await.unwrap();
    assert!(listed.is_empty());
    let refused = channel.message(&http, sent.id).await.unwrap_err();
    assert_eq!(discord_code(&refused), Some(50013));
}
