//! Channels changing behind the bot's back: deleted channels and threads, archived threads.

use serde_json::json;
use serenity::all::{ChannelId, CreateThread, EditMessage};

use crate::fake::bot::{self, discord_code};
use crate::fake::raw;
use fake_discord::{ChannelKind, Direction, FakeDiscord};

/// Names of the dispatches sent so far, in order.
fn dispatched(fake: &FakeDiscord) -> Vec<String> {
    fake.gateway_log()
        .iter()
        .filter(|e| e.direction == Direction::Sent)
        .filter_map(|e| e.event_name().map(str::to_string))
        .collect()
}

async fn wait_dispatch(fake: &FakeDiscord, name: &str) -> serde_json::Value {
    fake.wait_for(&format!("a {name} dispatch"), |f| {
        f.gateway_log()
            .into_iter()
            .rev()
            .find(|e| e.event_name() == Some(name))
            .map(|e| e.frame["d"].clone())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_thread_is_unknown_to_the_bot_but_its_messages_stay() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let ix = fake.slash(alice, fake.general(), "threads", &[]).await;
    let public = ChannelId::new(fake.reply(&ix).await.id.get());
    fake.wait_message(public, |m| m.content == "Welcome aboard")
        .await;

    fake.delete_channel(public);
    let event = wait_dispatch(&fake, "THREAD_DELETE").await;
    assert_eq!(
        event,
        json!({"id": public.to_string(), "guild_id": fake.guild().to_string(),
               "parent_id": fake.general().to_string(), "type": 11})
    );
    let http = fake.bot_http();
    let refused = public.say(&http, "anyone there?").await.unwrap_err();
    assert_eq!(discord_code(&refused), Some(10003));
    let refused = http.get_channel(public).await.unwrap_err();
    assert_eq!(discord_code(&refused), Some(10003));
    // The test still sees what was said there.
    assert!(
        fake.messages_in(public)
            .iter()
            .any(|m| m.content == "Welcome aboard")
    );
    assert!(fake.channel(public).unwrap().deleted);
    assert_eq!(fake.channel_kind(public), None);
    assert!(!fake.threads().contains(&public));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_channel_takes_its_threads_and_refuses_everything() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let http = fake.bot_http();
    let game = fake.add_text_channel("game", vec![]);
    let starter = game.say(&http, "Game 1").await.unwrap();
    let thread = game
        .create_thread_from_message(&http, starter.id, CreateThread::new("game-1"))
        .await
        .unwrap()
        .id;

    fake.delete_channel(game);
    let event = wait_dispatch(&fake, "CHANNEL_DELETE").await;
    assert_eq!(event["id"], game.to_string());
    assert_eq!(event["name"], "game");
    // Discord sends no THREAD_DELETE for the threads of a deleted channel.
    assert!(!dispatched(&fake).contains(&"THREAD_DELETE".to_string()));
    assert!(fake.channel(thread).unwrap().deleted);

    let codes = [
        game.say(&http, "hello?").await.map(|_| ()),
        thread.say(&http, "hello?").await.map(|_| ()),
        game.edit_message(&http, starter.id, EditMessage::new().content("x"))
            .await
            .map(|_| ()),
        game.create_thread_from_message(&http, starter.id, CreateThread::new("again"))
            .await
            .map(|_| ()),
        game.messages(&http, Default::default()).await.map(|_| ()),
        http.get_channel(game).await.map(|_| ()),
    ]
    .map(|r| discord_code(&r.unwrap_err()));
    assert_eq!(codes, [Some(10003); 6]);
    let (status, body) = raw::post_message(&fake, game, json!({"content": "raw"})).await;
    assert_eq!((status, body["code"].as_u64()), (404, Some(10003)));
    assert_eq!(fake.messages_in(game).len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posting_in_an_archived_thread_unarchives_it() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let http = fake.bot_http();
    let starter = fake.general().say(&http, "Game 2").await.unwrap();
    let thread = fake
        .general()
        .create_thread_from_message(&http, starter.id, CreateThread::new("game-2"))
        .await
        .unwrap()
        .id;
    let first = thread.say(&http, "Your move, Alice").await.unwrap();

    fake.archive_thread(thread);
    let update = wait_dispatch(&fake, "THREAD_UPDATE").await;
    assert_eq!(update["thread_metadata"]["archived"], true);
    assert!(fake.channel(thread).unwrap().archived);
    // Nothing but a new message (or a deletion) happens in an archived thread.
    let refused = thread
        .edit_message(&http, first.id, EditMessage::new().content("edited"))
        .await
        .unwrap_err();
    assert_eq!(discord_code(&refused), Some(50083));
    let alice = fake.add_member("alice");
    let refused = thread.add_thread_member(&http, alice).await.unwrap_err();
    assert_eq!(discord_code(&refused), Some(50083));

    let revived = thread.say(&http, "Alice timed out").await.unwrap();
    assert!(!fake.channel(thread).unwrap().archived);
    fake.wait_message(thread, |m| m.id == revived.id).await;
    fake.wait_for("the MESSAGE_CREATE", |f| {
        dispatched(f)
            .ends_with(&[
                "THREAD_UPDATE".into(),
                "THREAD_MEMBER_UPDATE".into(),
                "MESSAGE_CREATE".into(),
            ])
            .then_some(())
    })
    .await;
    let update = wait_dispatch(&fake, "THREAD_UPDATE").await;
    assert_eq!(update["thread_metadata"]["archived"], false);
    assert_eq!(fake.channel_kind(thread), Some(ChannelKind::PublicThread));
    // Active again: edits work.
    thread
        .edit_message(&http, first.id, EditMessage::new().content("edited"))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[should_panic(expected = "the thread is archived")]
async fn nobody_runs_commands_in_an_archived_thread() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let ix = fake.slash(alice, fake.general(), "threads", &[]).await;
    let public = ChannelId::new(fake.reply(&ix).await.id.get());
    fake.wait_message(public, |m| m.content == "Welcome aboard")
        .await;
    fake.archive_thread(public);
    fake.slash(alice, public, "ping", &[]).await;
}
