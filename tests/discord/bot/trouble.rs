//! Discord in trouble mid-game: a 500, an error after the message was made, a 429, a failure
//! that outlasts the sender's quick retries, a deleted thread. Nothing is lost, nothing is
//! posted twice, and a game's posts stay in order.

use jackal::game::{GameEnd, OutboxMessage};
use jackal::store::GameStatus;
use serenity::all::{ChannelId, UserId};

use crate::bot::deadlines::{
    self, Duel, dms, move_post, move_posts, notices, on_turn, play_in_thread,
};
use crate::bot::harness::{HOUR, Harness, posts};
use crate::bot::play;

/// The route of posts in a channel, as a literal path (only that channel's posts match).
fn posts_in(channel: ChannelId) -> String {
    format!("/channels/{channel}/messages")
}

/// Every move post of a thread is there once, in order, numbered 1, 2, 3… with no gap (a
/// move that stopped for a choice is one post and one number).
pub fn assert_one_post_per_move(h: &Harness, duel: &Duel) {
    let posts = move_posts(h, duel.thread);
    let numbers: Vec<u32> = posts
        .iter()
        .map(|m| {
            let head = m.content.lines().next().unwrap_or_default();
            let after = head.split("· move ").nth(1).expect("a move number");
            after
                .trim_end_matches(|c: char| !c.is_ascii_digit())
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no move number in {head}"))
        })
        .collect();
    let mut sorted = numbers.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(numbers, sorted, "move posts twice or out of order");
    // A post for each complete move (the plies that left no choice pending), the last too.
    let moves = play::move_ends(h, duel.game)
        .into_iter()
        .filter(|&ply| ply > 0)
        .count();
    let expected: Vec<u32> = (1..=moves as u32).collect();
    assert_eq!(
        numbers, expected,
        "a post for each move, numbered without gaps"
    );
}

/// Each "your turn" prompt (by its move number) reached `user` at most once.
fn assert_prompts_once(h: &Harness, user: UserId) {
    let mut headings: Vec<String> = dms(h, user)
        .iter()
        .filter(|m| m.content.starts_with("**Your move**"))
        .map(|m| m.content.lines().next().unwrap_or_default().to_string())
        .collect();
    let count = headings.len();
    headings.sort();
    headings.dedup();
    assert_eq!(headings.len(), count, "a prompt came twice: {headings:?}");
}

/// Waits for the "your turn" DM of the player on turn, then plays their move in the thread.
async fn play_after_prompt(h: &Harness, duel: &Duel) -> u32 {
    let ply = h.load(duel.game).ply;
    play::prompt(h, on_turn(h, duel.game), duel.game, ply + 1).await;
    play_in_thread(h, duel).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_500_a_lost_answer_and_a_429_lose_nothing_and_double_nothing() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    let thread_posts = posts_in(duel.thread);

    // A 500: the sender tries again a moment later.
    fake.fail_next("POST", &thread_posts, 500);
    play_after_prompt(&h, &duel).await;
    // A 500 after the post was made: the retry carries the same nonce and gets that post
    // back instead of making a second.
    fake.fail_next_after_applying("POST", &thread_posts, 500);
    play_after_prompt(&h, &duel).await;
    // A 429: waited out, then posted; and the next player's "your turn" DM is made but
    // answered with a 502.
    fake.rate_limit_next("POST", &thread_posts, 0.3);
    let next = if on_turn(&h, duel.game) == alice {
        bob
    } else {
        alice
    };
    let next_dm = fake
        .dm_channel(next)
        .expect("both players had a prompt by now");
    fake.fail_next_after_applying("POST", &posts_in(next_dm), 502);
    let ply = play_after_prompt(&h, &duel).await;
    let prompt = play::prompt(&h, next, duel.game, ply + 1).await;
    assert!(!prompt.components.is_empty());

    // (The DM exists before the bot hears its 502.)
    fake.wait_request("the DM's 502", |e| e.status == 502).await;
    let troubles: Vec<(String, u16)> = fake
        .rest_log()
        .into_iter()
        .filter(|e| e.status >= 400)
        .map(|e| (e.path, e.status))
        .collect();
    assert_eq!(
        troubles,
        vec![
            (thread_posts.clone(), 500),
            (thread_posts.clone(), 500),
            (thread_posts.clone(), 429),
            (posts_in(next_dm), 502),
        ]
    );
    assert_one_post_per_move(&h, &duel);
    assert_prompts_once(&h, alice);
    assert_prompts_once(&h, bob);
    // Every row is delivered and marked so.
    fake.wait_for("every row to be marked sent", |_| {
        let messages = h.service.messages_of(duel.game).unwrap();
        messages.iter().all(|(_, sent)| *sent).then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_outlasting_the_quick_retries_waits_for_the_service_clock() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    let thread_posts = posts_in(duel.thread);
    let mover = on_turn(&h, duel.game);

    // Three 500s: the first try and both quick retries.
    for _ in 0..3 {
        fake.fail_next("POST", &thread_posts, 500);
    }
    let done = play::by_command(&h, mover, duel.thread).await;
    assert!(done.content.contains('✅'));
    let ply = h.load(duel.game).ply;
    let now = deadlines::now(&h);
    // The row goes back to the queue with a backoff on the service clock.
    let (row, _) = fake
        .wait_for("the post to be put back in the queue", |_| {
            h.service
                .messages_of(duel.game)
                .unwrap()
                .into_iter()
                .find(|(q, sent)| {
                    !sent
                        && q.attempts == 1
                        && matches!(q.message, OutboxMessage::BoardPost { ply: p, .. } if p == ply)
                })
        })
        .await;
    assert_eq!(
        row.not_before,
        now + 1000,
        "a backoff of 1 s on the service clock"
    );
    let failed = fake
        .rest_log()
        .iter()
        .filter(|e| e.path == thread_posts && e.status == 500)
        .count();
    assert_eq!(failed, 3);
    assert!(move_posts(&h, duel.thread).is_empty(), "not posted yet");

    // The clock passes the backoff: posted, once, then the rows behind it.
    h.advance(1000);
    move_post(&h, duel.thread, ply).await;
    let next = on_turn(&h, duel.game);
    play::prompt(&h, next, duel.game, ply + 1).await;
    assert_eq!(move_posts(&h, duel.thread).len(), 1);
    assert_one_post_per_move(&h, &duel);
    assert_prompts_once(&h, next);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_thread_archives_its_game_and_the_bot_carries_on() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let doomed = deadlines::duel(&h, alice, bob, &[]).await;
    let other = deadlines::duel(&h, bob, alice, &[]).await;
    play_in_thread(&h, &doomed).await;
    let ply = h.load(doomed.game).ply;

    fake.delete_channel(doomed.thread);
    fake.wait_for("the game to be archived", |_| {
        (h.load(doomed.game).status != GameStatus::Active).then_some(())
    })
    .await;
    let loaded = h.load(doomed.game);
    assert_eq!(loaded.status, GameStatus::Cancelled);
    assert_eq!(loaded.end, Some(GameEnd::ThreadDeleted));
    assert_eq!(
        h.service.deadline_of(doomed.game).unwrap(),
        None,
        "its timers stop"
    );
    // The channel it came from is told, in words.
    let told = fake
        .wait_message(fake.general(), |m| m.content.starts_with("🏁"))
        .await;
    assert!(
        told.content.contains("thread was deleted") && told.content.contains("archived"),
        "{}",
        told.content
    );

    // The other game goes on: its deadline passes (a bot moves, with a notice), then a move.
    h.advance(24 * HOUR + 1);
    fake.wait_message(other.thread, |m| m.content.starts_with("ℹ️"))
        .await;
    play_in_thread(&h, &other).await;
    assert_eq!(
        h.load(doomed.game).ply,
        ply,
        "the archived game stays where it stood"
    );
    assert!(notices(&h, fake.general()).is_empty());
    let in_general: Vec<String> = posts(fake, fake.general())
        .into_iter()
        .filter(|m| m.interaction.is_none())
        .map(|m| m.content)
        .collect();
    assert_eq!(in_general.len(), 1, "only the notice: {in_general:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_waiting_when_its_thread_is_deleted_does_not_land_in_the_channel() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    let thread_posts = posts_in(duel.thread);
    for _ in 0..3 {
        fake.fail_next("POST", &thread_posts, 500);
    }
    let mover = on_turn(&h, duel.game);
    play::by_command(&h, mover, duel.thread).await;
    fake.wait_for("three failed posts", |f| {
        let failed = f
            .rest_log()
            .iter()
            .filter(|e| e.path == thread_posts && e.status == 500)
            .count();
        (failed == 3).then_some(())
    })
    .await;
    // Its backoff is reckoned from the service clock when the bot gives up for now: the clock
    // may only move on after that.
    fake.wait_for("the post to be put back in the queue", |_| {
        h.service
            .messages_of(duel.game)
            .unwrap()
            .into_iter()
            .find(|(q, sent)| {
                !sent && q.attempts == 1 && matches!(q.message, OutboxMessage::BoardPost { .. })
            })
    })
    .await;

    fake.delete_channel(duel.thread);
    fake.wait_for("the game to be archived", |_| {
        (h.load(duel.game).status == GameStatus::Cancelled).then_some(())
    })
    .await;
    h.advance(60_000);
    let told = fake
        .wait_message(fake.general(), |m| m.content.starts_with("🏁"))
        .await;
    assert!(
        told.content.contains("thread was deleted"),
        "{}",
        told.content
    );
    let in_general: Vec<String> = posts(fake, fake.general())
        .into_iter()
        .filter(|m| m.interaction.is_none())
        .map(|m| m.content)
        .collect();
    assert_eq!(in_general.len(), 1, "only the notice: {in_general:?}");
}
