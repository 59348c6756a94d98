//! Trouble on request: errors before and after the request is applied, dropped connections,
//! and `nonce` + `enforce_nonce`, which makes a retry after a lost answer safe.

use serde_json::json;
use serenity::all::{CreateMessage, Nonce};

use crate::fake::bot;
use crate::fake::raw;
use fake_discord::FakeDiscord;

const MESSAGES: &str = "/channels/{channel_id}/messages";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_before_applying_answers_like_discord_and_creates_nothing() {
    let fake = FakeDiscord::start().await;
    fake.fail_next("POST", MESSAGES, 500);

    let (status, body) = raw::post_message(&fake, fake.general(), json!({"content": "one"})).await;
    assert_eq!(status, 500);
    assert_eq!(
        body,
        json!({"message": "500: Internal Server Error", "code": 0})
    );
    assert!(fake.messages_in(fake.general()).is_empty());
    // Only the next request failed.
    let (status, _) = raw::post_message(&fake, fake.general(), json!({"content": "two"})).await;
    assert_eq!(status, 200);
    let contents: Vec<String> = fake
        .messages_in(fake.general())
        .into_iter()
        .map(|m| m.content)
        .collect();
    assert_eq!(contents, ["two"]);
    let statuses: Vec<u16> = fake.rest_log().iter().map(|e| e.status).collect();
    assert_eq!(statuses, [500, 200]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_after_applying_creates_the_message_but_answers_an_error() {
    let fake = FakeDiscord::start().await;
    // A literal path works as well as the template.
    fake.fail_next_after_applying(
        "POST",
        &format!("/channels/{}/messages", fake.general()),
        503,
    );

    let (status, body) = raw::post_message(&fake, fake.general(), json!({"content": "ahoy"})).await;
    assert_eq!(status, 503);
    assert_eq!(body["message"], "503: Service Unavailable");
    let [created] = fake
        .messages_in(fake.general())
        .try_into()
        .expect("one message");
    assert_eq!(created.content, "ahoy");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_connection_gives_no_answer_before_or_after_applying() {
    let fake = FakeDiscord::start().await;
    fake.drop_next("POST", MESSAGES);
    fake.drop_next_after_applying("POST", MESSAGES);

    let lost = raw::send(
        &fake,
        reqwest::Method::POST,
        &format!("/channels/{}/messages", fake.general()),
        Some(json!({"content": "never made"})),
    )
    .await;
    // Closed before the status line: reqwest reports an incomplete message, no status.
    assert!(
        matches!(&lost, Err(e) if e.is_request() && e.status().is_none()),
        "no answer expected, got {lost:?}"
    );
    assert!(fake.messages_in(fake.general()).is_empty());

    let lost = raw::send(
        &fake,
        reqwest::Method::POST,
        &format!("/channels/{}/messages", fake.general()),
        Some(json!({"content": "made, unheard of"})),
    )
    .await;
    // Closed before the status line: reqwest reports an incomplete message, no status.
    assert!(
        matches!(&lost, Err(e) if e.is_request() && e.status().is_none()),
        "no answer expected, got {lost:?}"
    );
    let [created] = fake
        .messages_in(fake.general())
        .try_into()
        .expect("one message");
    assert_eq!(created.content, "made, unheard of");
    let log = fake.rest_log();
    assert!(log.iter().all(|e| e.dropped && e.status == 0), "{log:?}");
}

fn with_nonce(text: &str, nonce: &str, enforce: bool) -> CreateMessage {
    CreateMessage::new()
        .content(text)
        .nonce(Nonce::String(nonce.into()))
        .enforce_nonce(enforce)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_enforced_nonce_returns_the_first_message_instead_of_a_second() {
    let fake = FakeDiscord::start().await;
    let http = fake.bot_http();
    let channel = fake.general();

    let first = channel
        .send_message(&http, with_nonce("move 7", "game-3-ply-7", true))
        .await
        .unwrap();
    let again = channel
        .send_message(&http, with_nonce("move 7", "game-3-ply-7", true))
        .await
        .unwrap();
    assert_eq!(again.id, first.id);
    assert!(
        matches!(&first.nonce, Some(Nonce::String(n)) if n == "game-3-ply-7"),
        "the nonce is echoed: {:?}",
        first.nonce
    );
    assert_eq!(fake.messages_in(channel).len(), 1);

    // Without enforce_nonce the nonce is only echoed: two messages.
    let other = fake.add_text_channel("other", vec![]);
    let a = other
        .send_message(&http, with_nonce("hi", "same", false))
        .await
        .unwrap();
    let b = other
        .send_message(&http, with_nonce("hi", "same", false))
        .await
        .unwrap();
    assert_ne!(a.id, b.id);
    assert_eq!(fake.messages_in(other).len(), 2);
    // A nonce is remembered per channel.
    let elsewhere = other
        .send_message(&http, with_nonce("move 7", "game-3-ply-7", true))
        .await
        .unwrap();
    assert_ne!(elsewhere.id, first.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_with_the_same_nonce_after_a_lost_answer_posts_once() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await; // so the MESSAGE_CREATE dispatches can be counted
    let http = fake.bot_http();
    let channel = fake.general();
    fake.fail_next_after_applying("POST", MESSAGES, 500);

    let lost = channel
        .send_message(&http, with_nonce("Alice moves e5", "g1-p12", true))
        .await
        .unwrap_err();
    assert!(
        format!("{lost:?}").contains("500"),
        "the bot sees a failure: {lost:?}"
    );
    let retried = channel
        .send_message(&http, with_nonce("Alice moves e5", "g1-p12", true))
        .await
        .unwrap();
    let [posted] = fake.messages_in(channel).try_into().expect("one message");
    assert_eq!(retried.id, posted.id);
    fake.wait_message(channel, |m| m.id == posted.id).await;
    fake.wait_dispatches("MESSAGE_CREATE", 1).await;
    assert_eq!(fake.dispatch_count("MESSAGE_CREATE"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nonce_is_forgotten_after_the_window() {
    let config = fake_discord::Config {
        nonce_window: std::time::Duration::ZERO,
        ..Default::default()
    };
    let fake = FakeDiscord::start_with(config).await;
    let http = fake.bot_http();
    let channel = fake.general();
    let first = channel
        .send_message(&http, with_nonce("late", "n", true))
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let second = channel
        .send_message(&http, with_nonce("late", "n", true))
        .await
        .unwrap();
    assert_ne!(first.id, second.id);
}
