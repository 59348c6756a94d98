//! Component ids a modified client can send on any message: a resignation pressed under the
//! public board, and a lobby id with a game number past anything stored.

use jackal::store::GameStatus;

use crate::bot::deadlines;
use crate::bot::duel::private_answer;
use crate::bot::harness::{Harness, posts};

/// A forged `resign` on the public board post by a seated player: refused in private, the
/// game and the public post exactly as they were. Resigning always takes its confirmation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_forged_under_the_public_board_is_refused_and_edits_nothing() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    let board = posts(fake, duel.thread)
        .into_iter()
        .find(|m| m.content.contains("begins"))
        .expect("the first board post");
    let before = h.load(duel.game);

    let ix = fake.click_forged(bob, board.id, &format!("jk1:resign:{}", duel.game));
    let answer = private_answer(&h, &ix).await;
    assert_eq!(
        answer.content,
        "To resign, use `/jackal resign` and confirm it there."
    );
    let after = h.load(duel.game);
    assert_eq!(after.status, GameStatus::Active);
    assert_eq!((after.ply, after.end), (before.ply, before.end));
    let board_now = fake.message(board.id).expect("the post is there");
    assert_eq!(board_now.content, board.content);
    assert_eq!(board_now.components, board.components);
    assert_eq!(board_now.attachments.len(), board.attachments.len());
}

/// A lobby id naming a game past any stored one is refused with the number as it was given
/// (not rounded through a floating-point number).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_game_number_is_said_as_given() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let (_, lobby) = deadlines::lobby(&h, alice, &[]).await;
    for number in ["9223372036854775807", "9007199254740993"] {
        let ix = fake.click_forged(alice, lobby.id, &format!("jk1:lobby:{number}:join"));
        let answer = private_answer(&h, &ix).await;
        assert_eq!(answer.content, format!("There is no game #{number}."));
    }
}

/// The picker's components forged under the public board by the player on turn: refused
/// privately, the board post and the game exactly as they were (a private answer never edits
/// a public message).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_picker_forged_under_the_public_board_edits_nothing() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let duel = deadlines::duel(&h, alice, bob, &[]).await;
    let game = duel.game;
    let board = posts(fake, duel.thread)
        .into_iter()
        .find(|m| m.content.contains("begins"))
        .expect("the first board post");
    let on_turn = deadlines::on_turn(&h, game);
    let legal = h
        .service
        .legal_moves(on_turn.into(), game)
        .expect("legal moves")[0]
        .notation
        .clone();
    for forged in [
        format!("jk1:root:{game}:0"),
        format!("jk1:play:{game}:0:{legal}"),
        format!("jk1:sure:{game}:0:{legal}"),
    ] {
        let ix = fake.click_forged(on_turn, board.id, &forged);
        let answer = private_answer(&h, &ix).await;
        assert!(
            answer.content.contains("no longer in use"),
            "{forged}: {}",
            answer.content
        );
        let now = fake.message(board.id).expect("the post is there");
        assert_eq!(now.content, board.content, "{forged}");
        assert_eq!(now.components, board.components, "{forged}");
        assert_eq!(h.load(game).ply, 0, "{forged}: nothing was played");
    }
}
