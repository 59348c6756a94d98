//! A bot process that dies and a new one that starts on the same fake: the new one
//! identifies afresh on a new connection and gets the dispatches from then on.

use crate::fake::bot;
use fake_discord::{Direction, FakeDiscord};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_bot_process_identifies_afresh_and_answers() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_member("alice");
    let first = bot::start(&fake).await;
    let ix = fake.slash(alice, fake.general(), "ping", &[]).await;
    assert_eq!(fake.reply(&ix).await.content, "pong");
    let commands = fake.registered_commands();

    drop(first); // killed: its tasks are gone and its socket closes without a close frame
    fake.wait_for("the dead bot's connection to close", |f| {
        (!f.gateway_connected()).then_some(())
    })
    .await;
    assert_eq!(fake.identify_count(), 1);

    let _second = bot::start(&fake).await;
    assert_eq!(fake.identify_count(), 2);
    let ix = fake.slash(alice, fake.general(), "ping", &[]).await;
    assert_eq!(fake.reply(&ix).await.content, "pong");
    assert_eq!(fake.registered_commands(), commands);

    let log = fake.gateway_log();
    let identifies: Vec<u32> = log
        .iter()
        .filter(|e| e.direction == Direction::Received && e.op() == Some(2))
        .map(|e| e.connection)
        .collect();
    assert_eq!(identifies, [1, 2]);
    let sessions: Vec<&serde_json::Value> = log
        .iter()
        .filter(|e| e.event_name() == Some("READY"))
        .map(|e| &e.frame["d"]["session_id"])
        .collect();
    assert_eq!(sessions.len(), 2);
    assert_ne!(sessions[0], sessions[1], "a new process gets a new session");
    let second_ping = log
        .iter()
        .rfind(|e| e.event_name() == Some("INTERACTION_CREATE"))
        .expect("the second ping");
    assert_eq!(second_ping.connection, 2);
}
