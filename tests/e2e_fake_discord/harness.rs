//! The fake's behaviour as seen by a real serenity/poise bot.

use crate::bot;
use crate::fake_discord::FakeDiscord;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_command_gets_its_reply() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let ix = fake.slash(alice, fake.general(), "ping", &[]).await;
    let reply = fake.reply(&ix).await;
    assert_eq!(reply.content, "pong");
}
