//! Private messages: a player whose DMs are closed is served in the thread instead (a ping,
//! "My moves" with their board and picker in private, reminders as mentions), and a player's
//! DM prompt loses its buttons once their turn is played from anywhere.

use crate::bot::deadlines::{self, dms, move_post, on_turn, play_in_thread};
use crate::bot::harness::{HOUR, Harness, board_picture, posts};
use crate::bot::play;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_closed_dms_plays_from_the_thread() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let hermit = fake.add_user_with_closed_dms("hermit");
    fake.join_guild(hermit);
    let duel = deadlines::duel(&h, alice, hermit, &[]).await;
    let game = duel.game;

    // Alice, if she moves first, plays from her DM (her whole turn: the weed found, she
    // commands the hermit's team next).
    while on_turn(&h, game) == alice {
        let dm = play::prompt(&h, alice, game, h.load(game).ply + 1).await;
        play::through_picker(&h, alice, dm).await;
        move_post(&h, duel.thread, play::last_ply_of(&h, game, alice)).await;
    }
    assert_eq!(on_turn(&h, game), hermit);

    // The "your turn" DM is refused (403 / 50007), and that is remembered.
    let refused = fake
        .wait_request("the refused DM", |e| {
            e.method == "POST" && e.status == 403 && e.error_code == Some(50007)
        })
        .await;
    let hermit_dm = fake.dm_channel(hermit).expect("the DM channel opens");
    assert_eq!(refused.path, format!("/channels/{hermit_dm}/messages"));
    fake.wait_for("the closed DMs to be remembered", |_| {
        (!h.service.user_prefs(hermit.into()).unwrap().dms).then_some(())
    })
    .await;
    assert!(h.service.user_prefs(alice.into()).unwrap().dms);
    assert!(dms(&h, hermit).is_empty());

    // The thread's latest board post pings them and carries "My moves" (the word that their
    // DMs are closed may come after it).
    let latest = posts(fake, duel.thread)
        .into_iter()
        .rfind(|m| !m.content.starts_with("📪"))
        .expect("a post");
    assert_eq!(latest.pinged_users(), vec![hermit], "{}", latest.content);
    let my_moves = format!("jk1:moves:{game}");
    assert!(latest.custom_ids().contains(&my_moves));

    // "My moves" opens their board and the picker in private; they play the whole turn there.
    let ix = fake.click(hermit, latest.id, &my_moves);
    let picker = h.reply(&ix).await;
    assert!(picker.is_ephemeral());
    assert!(
        picker.content.contains(&format!("Jackal #{game} · move")),
        "{}",
        picker.content
    );
    board_picture(fake, &picker).await;
    let done = play::through_picker(&h, hermit, picker).await;
    assert!(done.is_ephemeral() && done.content.contains('✅'));
    let ply = h.load(game).ply;
    move_post(&h, duel.thread, ply).await;
    assert_eq!(
        h.service.history(game).unwrap().last().unwrap().user_id,
        Some(hermit.into()),
        "the move is theirs"
    );
    // (Rum served or the weed found, it is still theirs: they play on from the thread.)
    play::finish_turn(&h, game, duel.thread, hermit).await;

    // Alice's turn (from the thread), then theirs again: 21 hours in, their reminder is a
    // mention in the thread, with "My moves", and no DM.
    play_in_thread(&h, &duel).await;
    assert_eq!(on_turn(&h, game), hermit);
    h.advance(21 * HOUR);
    let reminder = fake
        .wait_message(duel.thread, |m| m.content.starts_with("⏰"))
        .await;
    assert!(
        reminder.content.contains(&format!("<@{hermit}>")),
        "{}",
        reminder.content
    );
    assert_eq!(reminder.pinged_users(), vec![hermit]);
    assert!(reminder.custom_ids().contains(&my_moves));
    assert!(dms(&h, hermit).is_empty(), "nothing ever reached their DMs");
    // One DM was tried, the first: the closed DMs are remembered for a week, so later turns
    // and the reminder went straight to the thread.
    let tried = || {
        fake.rest_log()
            .into_iter()
            .filter(|e| e.method == "POST" && e.path == format!("/channels/{hermit_dm}/messages"))
            .count()
    };
    let turns = play::move_ends(&h, game)
        .into_iter()
        .filter(|&ply| play::commander_at(&h, game, ply) == Some(hermit))
        .count();
    assert!(turns >= 2);
    assert_eq!(tried(), 1, "one attempt, not one a turn");
    // They were told once, in the thread, with a ping: why, and what to do about it.
    let told: Vec<_> = posts(fake, duel.thread)
        .into_iter()
        .filter(|m| m.content.starts_with("📪"))
        .collect();
    assert_eq!(told.len(), 1, "told once");
    assert_eq!(told[0].pinged_users(), vec![hermit]);
    assert!(
        told[0].content.contains("Privacy Settings") && told[0].content.contains("/jackal remind"),
        "{}",
        told[0].content
    );
}

/// Closed DMs are tried again once a week, and afresh once the player chooses how to be
/// reminded (then told again if they are still closed). A 13×13 island, so that the game
/// outlasts the turns this takes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_dms_are_tried_again_weekly_or_after_choosing_via() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let hermit = fake.add_user_with_closed_dms("hermit");
    fake.join_guild(hermit);
    let ix = h
        .jackal(
            alice,
            fake.general(),
            "new",
            &[("players", fake_discord::OptionValue::Int(0))],
        )
        .await;
    let lobby = h.reply(&ix).await;
    let game = crate::bot::harness::game_of(&lobby);
    let duel = deadlines::start(&h, game, &lobby, hermit).await;
    while on_turn(&h, game) != hermit {
        play_in_thread(&h, &duel).await;
    }
    let hermit_dm = fake
        .wait_for("the DM channel", |f| f.dm_channel(hermit))
        .await;
    let tried = || {
        fake.rest_log()
            .into_iter()
            .filter(|e| e.method == "POST" && e.path == format!("/channels/{hermit_dm}/messages"))
            .count()
    };
    fake.wait_for("the first try", |_| (tried() == 1).then_some(()))
        .await;
    let now = deadlines::now(&h);
    fake.wait_for("the first refusal remembered", |_| {
        let prefs = h.service.user_prefs(hermit.into()).unwrap();
        (prefs.dms_refused_at == Some(now)).then_some(())
    })
    .await;

    // A week later, one more try (refused again, and not told again): Alice lets her time
    // run out meanwhile, a bot moves for her, and the hermit's turn comes.
    while on_turn(&h, game) == hermit {
        play_in_thread(&h, &duel).await;
    }
    h.advance(7 * 24 * HOUR);
    // (The bot's move for her may have served rum: she may be on turn again.)
    fake.wait_for("the bot's move for Alice", |_| {
        let last = h.service.history(game).unwrap().pop()?;
        last.user_id.is_none().then_some(())
    })
    .await;
    while on_turn(&h, game) != hermit {
        play_in_thread(&h, &duel).await;
    }
    fake.wait_for("the weekly try", |_| (tried() == 2).then_some(()))
        .await;
    // …refused, and that remembered, before the player changes anything.
    let now = crate::bot::deadlines::now(&h);
    fake.wait_for("the refusal remembered", |_| {
        let prefs = h.service.user_prefs(hermit.into()).unwrap();
        (prefs.dms_refused_at == Some(now)).then_some(())
    })
    .await;

    // Choosing how to be reminded tries DMs afresh on the next turn.
    let ix = h
        .jackal(
            hermit,
            duel.thread,
            "remind",
            &[("via", fake_discord::OptionValue::Int(0))],
        )
        .await;
    h.reply(&ix).await;
    while on_turn(&h, game) == hermit {
        play_in_thread(&h, &duel).await;
    }
    while on_turn(&h, game) != hermit {
        play_in_thread(&h, &duel).await;
    }
    fake.wait_for("a try after `via` changed", |_| {
        (tried() == 3).then_some(())
    })
    .await;
    // Told again, once, now that the slate was wiped.
    let told = || {
        posts(fake, duel.thread)
            .into_iter()
            .filter(|m| m.content.starts_with("📪"))
            .count()
    };
    fake.wait_for("the second telling", |_| (told() == 2).then_some(()))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_prompt_loses_its_buttons_when_the_turn_is_played_elsewhere() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    let first = on_turn(&h, duel.game);
    let prompt = play::prompt(&h, first, duel.game, 1).await;
    assert!(
        prompt
            .custom_ids()
            .iter()
            .any(|id| id.starts_with("jk1:pick:") || id.starts_with("jk1:play:")),
        "{:?}",
        prompt.custom_ids()
    );
    board_picture(&h.fake, &prompt).await;

    // They play with /jackal move in the thread instead.
    play_in_thread(&h, &duel).await;
    let retired = h
        .fake
        .wait_for("the DM prompt to lose its buttons", |f| {
            f.message(prompt.id).filter(|m| m.components.is_empty())
        })
        .await;
    // It keeps what was played.
    let played = h.service.history(duel.game).unwrap()[0].clone();
    let words = jackal::words::narrate::action(
        jackal::words::Lang::En,
        played.action.as_ref().expect("a readable action"),
    );
    assert!(
        retired.content.starts_with(&format!(
            "✅ Your turn in Jackal #{} (move 1) is over. Played: {words}",
            duel.game
        )),
        "{}",
        retired.content
    );
    assert_eq!(retired.png_attachments().len(), 1, "the picture stays");

    // The other player's prompt for the next move is live.
    let other = on_turn(&h, duel.game);
    assert_ne!(other, first);
    let next = play::prompt(&h, other, duel.game, h.load(duel.game).ply + 1).await;
    assert!(!next.components.is_empty());
}
