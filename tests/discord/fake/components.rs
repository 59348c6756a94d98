//! Components: a button that updates its message, a select menu, a modal opened from a
//! button.

use crate::fake::bot;
use fake_discord::FakeDiscord;

/// Posts `/board` as `user` and returns the reply's id.
async fn board(fake: &FakeDiscord, user: serenity::all::UserId) -> serenity::all::MessageId {
    let ix = fake.slash(user, fake.general(), "board", &[]).await;
    fake.reply(&ix).await.id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_press_updates_its_message() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let board = board(&fake, alice).await;

    let press = fake.click(alice, board, "roll");
    assert_eq!(fake.response(&press).await.kind, 7);
    let updated = fake.reply(&press).await;
    assert_eq!(updated.id, board);
    assert_eq!(updated.content, "Rolled a 6");
    assert!(updated.edited);
    // serenity 0.12.5 always sends `attachments: []` with an update, and Discord then
    // drops the files: a bot that wants to keep its picture must say so.
    assert!(updated.attachments.is_empty());
    let update = fake
        .rest_log()
        .into_iter()
        .rfind(|e| e.path.ends_with("/callback"))
        .expect("logged");
    assert_eq!(
        update.body.expect("json")["data"]["attachments"],
        serde_json::json!([])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_select_choice_reaches_the_bot() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let board = board(&fake, alice).await;

    let choice = fake.select(alice, board, "pick", &["blue"]);
    assert_eq!(fake.reply(&choice).await.content, "You picked blue");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[should_panic(expected = "is not an option of select `pick`")]
async fn a_choice_the_menu_does_not_offer_is_refused() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    let board = board(&fake, alice).await;
    fake.select(alice, board, "pick", &["green"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_modal_opened_by_a_button_is_submitted() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let bob = fake.add_member("bob");
    let board = board(&fake, bob).await;

    let press = fake.click(bob, board, "rename");
    let modal = fake.response(&press).await;
    assert_eq!(modal.kind, 9);
    assert_eq!(modal.data["title"], "Rename the board");
    let submit = fake
        .submit_modal(&press, &[("title", "Treasure Island")])
        .await;
    // poise closes the modal with a deferred update, then the bot posts.
    assert_eq!(fake.response(&submit).await.kind, 6);
    let posted = fake
        .wait_message(fake.general(), |m| m.content.starts_with("Renamed"))
        .await;
    assert_eq!(posted.content, "Renamed to Treasure Island");
}
