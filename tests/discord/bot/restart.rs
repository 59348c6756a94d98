//! The bot killed mid-game and started again on the same database, or stopped cleanly and
//! replaced: what was waiting to be posted is posted once, a deadline that came due while it
//! was down fires once, and the game goes on.

use jackal::game::OutboxMessage;

use crate::bot::deadlines::{self, move_post, move_posts, notices, on_turn, play_in_thread};
use crate::bot::harness::{HOUR, Harness};
use crate::bot::play;
use crate::bot::trouble::assert_one_post_per_move;

/// Kills the bot as a crash would (off the async threads: it joins the bot's thread).
async fn kill(h: &mut Harness) {
    let bot = h.bot.take().expect("a bot runs");
    tokio::task::spawn_blocking(move || bot.kill())
        .await
        .expect("killed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_left_unsent_by_a_crash_is_delivered_once_after_the_restart() {
    let mut h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    let thread_posts = format!("/channels/{}/messages", duel.thread);

    // Discord makes the move's post each time but the bot hears a 500, three times: after
    // its quick retries the row is still unsent.
    for _ in 0..3 {
        h.fake.fail_next_after_applying("POST", &thread_posts, 500);
    }
    let mover = on_turn(&h, duel.game);
    play::by_command(&h, mover, duel.thread).await;
    let ply = h.load(duel.game).ply;
    h.fake
        .wait_for("the post to go back to the queue", |_| {
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
    let made = move_posts(&h, duel.thread);
    assert_eq!(made.len(), 1, "the retries' nonce returned the first post");

    // The bot dies; a new one starts on the same database, and the backoff passes.
    kill(&mut h).await;
    let before = h.fake.rest_log().len();
    h.start_bot().await;
    h.advance(1000);
    h.fake
        .wait_for("the row to be marked sent", |_| {
            let rows = h.service.messages_of(duel.game).unwrap();
            rows.iter().all(|(_, sent)| *sent).then_some(())
        })
        .await;
    let after = move_posts(&h, duel.thread);
    assert_eq!(after.len(), 1, "one post for the move");
    assert_eq!(after[0].id, made[0].id, "the same post");
    // The new bot sent it once more, with the same nonce, and got the first post back.
    let resent = h.fake.rest_log()[before..]
        .iter()
        .filter(|e| e.method == "POST" && e.path == thread_posts)
        .map(|e| e.status)
        .collect::<Vec<_>>();
    assert_eq!(resent, vec![200]);

    // The game goes on with the new bot.
    let next = on_turn(&h, duel.game);
    play::prompt(&h, next, duel.game, ply + 1).await;
    play_in_thread(&h, &duel).await;
    assert_one_post_per_move(&h, &duel);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_that_came_due_while_the_bot_was_down_fires_once() {
    let mut h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    let late = on_turn(&h, duel.game);
    play::prompt(&h, late, duel.game, 1).await;

    kill(&mut h).await;
    // A day passes while no bot runs.
    h.clock.advance_ms(24 * HOUR + 1);
    h.start_bot().await;

    let notice = h
        .fake
        .wait_message(duel.thread, |m| m.content.starts_with("ℹ️"))
        .await;
    assert!(
        notice.content.contains("time ran out") && notice.content.contains(&format!("<@{late}>")),
        "{}",
        notice.content
    );
    // The bot's move for them (their whole turn, in one commit) is posted, and whoever moves
    // next is prompted: the other player, or they again if that move found the weed.
    let next = h
        .fake
        .wait_for("the bot's move for them", |_| {
            let ply = h.load(duel.game).ply;
            (ply > 0).then_some(ply)
        })
        .await;
    move_post(&h, duel.thread, next).await;
    let other = on_turn(&h, duel.game);
    play::prompt(&h, other, duel.game, next + 1).await;
    // Once: one notice, one missed deadline, and the late player had no reminder after
    // their deadline had passed.
    h.fake
        .wait_for("every row to be sent", |_| {
            let rows = h.service.messages_of(duel.game).unwrap();
            rows.iter().all(|(_, sent)| *sent).then_some(())
        })
        .await;
    assert_eq!(notices(&h, duel.thread).len(), 1);
    let loaded = h.load(duel.game);
    let seat = loaded.seat_of(late.into()).expect("still seated");
    assert_eq!(seat.missed_deadlines, 1);
    let reminders: Vec<String> = deadlines::dms(&h, late)
        .into_iter()
        .filter(|m| m.content.starts_with("⏰"))
        .map(|m| m.content)
        .collect();
    assert!(
        reminders.is_empty(),
        "a reminder for a deadline already past: {reminders:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clean_stop_and_a_new_bot_carry_the_game_on() {
    let mut h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    play_in_thread(&h, &duel).await;

    // A move, and at once the bot is asked to stop: what is in flight finishes.
    let mover = on_turn(&h, duel.game);
    let done = play::by_command(&h, mover, duel.thread).await;
    assert!(done.content.contains('✅'));
    let ply = h.load(duel.game).ply;
    let bot = h.bot.take().expect("a bot runs");
    tokio::task::spawn_blocking(move || bot.stop())
        .await
        .expect("stopped");
    h.fake
        .wait_for("the gateway connection to close", |f| {
            (!f.gateway_connected()).then_some(())
        })
        .await;

    // A new bot on the same database carries on: the move's post (if the old bot had not
    // sent it), the next prompt, the next move.
    h.start_bot().await;
    move_post(&h, duel.thread, ply).await;
    let next = on_turn(&h, duel.game);
    play::prompt(&h, next, duel.game, ply + 1).await;
    play_in_thread(&h, &duel).await;
    assert_one_post_per_move(&h, &duel);
}
