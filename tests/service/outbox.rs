//! The outbox: rows pending until sent, walked in order.

use super::*;

/// The outbox as the sender sees it, through the service: a move's messages are pending at
/// once, as values; a failed send waits for its retry time with the error and the attempt
/// recorded; a sent message is sent once; a message given up on is closed with its reason.
#[test]
fn outbox_rows_are_pending_until_sent() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let mv = first_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &mv).unwrap();
    let pending = s.pending_messages().unwrap();
    let kinds: Vec<_> = pending.iter().map(|q| q.message.kind()).collect();
    // The start (game started, Alice's turn), then the move (Alice's prompt retired, the
    // board post, Bob's turn).
    assert_eq!(
        kinds,
        [
            "game_started",
            "your_turn",
            "turn_over",
            "board_post",
            "your_turn"
        ]
    );
    assert_eq!(pending[2].target, Target::User { id: ALICE });
    assert_eq!(pending[3].target, Target::Game);
    let deadline = f.clock.now_ms() + 24 * HOUR;
    assert_eq!(
        pending[3].message,
        OutboxMessage::BoardPost {
            game_id: id,
            first_ply: 1,
            ply: 1,
            deadline_ms: Some(deadline)
        }
    );
    let post = pending[3].id;
    let now = f.clock.now_ms();
    s.message_failed(post, "429 Too Many Requests", 5_000)
        .unwrap();
    let again = s.pending_messages().unwrap();
    let again = again.iter().find(|q| q.id == post).unwrap();
    assert_eq!(
        (again.attempts, again.not_before),
        (1, now + 5_000),
        "not before its retry time"
    );
    // The rows before it are still due now.
    assert_eq!(s.next_message_due().unwrap(), Some(now));
    assert!(s.message_sent(post).unwrap());
    assert!(!s.message_sent(post).unwrap(), "sent once");
    let rows = s.messages_of(id).unwrap();
    assert!(rows.iter().any(|(q, sent)| q.id == post && *sent));
    // Given up: closed, with its reason, never pending again.
    let turn = pending[4].id;
    s.message_given_up(turn, "403 Missing Access").unwrap();
    let conn = s.store().conn().unwrap();
    let row = store::game_outbox(&conn, id)
        .unwrap()
        .into_iter()
        .find(|r| r.id == turn)
        .unwrap();
    assert!(row.given_up && row.sent_at.is_some());
    assert_eq!(row.last_error.as_deref(), Some("403 Missing Access"));
    assert!(s.pending_messages().unwrap().iter().all(|q| q.id != turn));
}

/// The sender's walk through the backlog sees the rows `pending_messages` lists, in the same
/// order, across pages (a page is 64 rows), sent rows left out; it stops when told to.
#[test]
fn walking_the_outbox_sees_every_unsent_row_in_order_and_stops_when_told() {
    let f = fixture();
    let s = &f.service;
    // Thirty games: 150 rows or so, more than two pages.
    for _ in 0..30 {
        let id = duel(&f);
        let mv = first_move(&f, id, ALICE);
        s.act(ALICE, id, 0, &mv).unwrap();
    }
    let all = s.pending_messages().unwrap();
    assert!(all.len() > 128, "{} rows", all.len());
    // Some sent, here and there, the first among them.
    for q in all.iter().step_by(7) {
        assert!(s.message_sent(q.id).unwrap());
    }
    let unsent = s.pending_messages().unwrap();
    let mut walked = Vec::new();
    s.walk_pending_messages(|q| {
        walked.push(q);
        true
    })
    .unwrap();
    assert_eq!(walked, unsent);
    let mut first = Vec::new();
    s.walk_pending_messages(|q| {
        first.push(q.id);
        first.len() < 70
    })
    .unwrap();
    let expected: Vec<i64> = unsent.iter().take(70).map(|q| q.id).collect();
    assert_eq!(first, expected, "the walk stops at the row that said so");
}
