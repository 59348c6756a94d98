//! DMs: one that arrives, one to a user who closed them (403 / 50007), ephemeral replies.

use crate::fake::bot;
use fake_discord::{FakeDiscord, flags};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_reaches_the_user_and_the_reply_is_ephemeral() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    let ix = fake.slash(alice, fake.general(), "dm", &[]).await;
    let dm = fake
        .wait_dm(alice, |m| m.content == "Ahoy, in private")
        .await;
    assert_eq!(Some(dm.channel), fake.dm_channel(alice));
    let reply = fake.reply(&ix).await;
    assert_eq!(reply.content, "Sent a DM");
    assert_eq!(reply.flags & flags::EPHEMERAL, flags::EPHEMERAL);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_to_a_user_with_closed_dms_is_refused_with_50007() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let hermit = fake.add_user_with_closed_dms("hermit");
    fake.join_guild(hermit);

    let ix = fake
        .slash(alice, fake.general(), "dm", &[("whom", hermit.into())])
        .await;
    let reply = fake.reply(&ix).await;
    assert_eq!(reply.content, format!("<@{hermit}> does not accept DMs"));
    let refused = fake
        .rest_log()
        .into_iter()
        .find(|e| e.status == 403)
        .expect("a refused request");
    assert_eq!(
        (refused.method.as_str(), refused.error_code),
        ("POST", Some(50007))
    );
    assert!(refused.path.ends_with("/messages"));
    let dm = fake
        .dm_channel(hermit)
        .expect("the DM channel itself opens");
    assert!(fake.messages_in(dm).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_in_a_dm_comes_from_the_user_not_a_member() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    // The bot DMs alice; she then runs /board inside the DM and presses a button there.
    let ix = fake.slash(alice, fake.general(), "dm", &[]).await;
    fake.reply(&ix).await;
    let dm = fake.dm_channel(alice).expect("DM channel");
    let board = fake.slash(alice, dm, "board", &[]).await;
    let board = fake.reply(&board).await;
    let press = fake.click(alice, board.id, "roll");
    assert_eq!(fake.reply(&press).await.content, "Rolled a 6");
}
