//! What a game's owner and a server's managers can do to a running game: `/jackal kick` hands
//! a player's seat to a bot, which plays on in the thread; `/jackal cancel` ends the game for
//! everyone, and the thread says so.

use jackal::store::GameStatus;

use crate::bot::duel::{Duel, ask};
use crate::bot::harness::Harness;
use fake_discord::perms;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_kicks_a_player_and_a_server_manager_cancels_the_game() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let duel = Duel::start(&h).await;
    let bob_team = h
        .load(duel.game)
        .seat_of(duel.bob.into())
        .expect("seated")
        .team
        .number();

    // Alice owns the game: she removes Bob, and a bot takes his seat.
    let answer = ask(
        &h,
        duel.alice,
        duel.thread,
        "kick",
        &[("seat", i64::from(bob_team).into())],
    )
    .await;
    assert_eq!(
        answer.content,
        format!(
            "The player of seat {bob_team} in game #{} was removed: a bot plays the seat on.",
            duel.game
        )
    );
    fake.wait_message(duel.thread, |m| {
        m.content
            .contains("the player was removed; a bot plays on.")
    })
    .await;
    let seat = h
        .load(duel.game)
        .seat(bob_team)
        .expect("still a seat")
        .clone();
    assert_eq!(seat.user_id, None, "Bob no longer holds the seat");
    assert!(seat.bot.is_some(), "a bot plays it");
    assert_eq!(h.load(duel.game).status, GameStatus::Active);

    // The game goes on between Alice and the bot, which moves by itself on its turns: Alice
    // plays until the bot has moved Bob's team once (under the weed, R-WEED-2, a round of
    // turns goes by first). No longer: on a 5×5 island the only coin may lie next to the
    // ship, and the bot's second move may bring it home and win the game.
    let alice_team = h
        .load(duel.game)
        .seat_of(duel.alice.into())
        .expect("seated")
        .team
        .number();
    let alices_turn = |_: &fake_discord::FakeDiscord| {
        let loaded = h.load(duel.game);
        let over = loaded.status != GameStatus::Active;
        let turn = loaded.state.as_ref().map(|g| g.controller().number());
        (over || turn == Some(alice_team)).then_some(())
    };
    let moved = |team: u8, bot: bool| {
        let history = h.service.history(duel.game).expect("history");
        history
            .iter()
            .any(|e| e.team == team && e.user_id.is_none() == bot)
    };
    for _ in 0..8 {
        fake.wait_for("Alice's turn", alices_turn).await;
        assert_eq!(h.load(duel.game).status, GameStatus::Active);
        if moved(bob_team, true) {
            break;
        }
        duel.play_on(&h).await;
    }
    let history = h.service.history(duel.game).expect("history");
    assert!(
        moved(bob_team, true),
        "the bot played Bob's seat: {history:?}"
    );

    // Bob, no longer in the game, cannot cancel it; Carol, who manages the server, can.
    let answer = ask(&h, duel.bob, duel.thread, "cancel", &[]).await;
    assert_eq!(
        answer.content,
        "Only the game's owner or a member with Manage Server can do that."
    );
    let carol = fake.add_member_with_permissions("carol", perms::MANAGE_GUILD);
    let answer = ask(&h, carol, duel.thread, "cancel", &[]).await;
    assert_eq!(
        answer.content,
        format!("Game #{} was cancelled.", duel.game)
    );
    fake.wait_message(duel.thread, |m| {
        m.content.contains("The game was cancelled.")
    })
    .await;
    assert_eq!(h.load(duel.game).status, GameStatus::Cancelled);

    // A cancelled game takes no more moves.
    let answer = ask(&h, duel.alice, duel.thread, "moves", &[]).await;
    assert_eq!(answer.content, format!("Game #{} is over.", duel.game));
}
