//! Playing: moves, choices, move numbers, resigning, bots, and what a click costs.

use super::*;

#[test]
fn a_duel_plays_through_the_service() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let loaded = s.game(id).unwrap();
    assert_eq!(loaded.status, GameStatus::Active);
    assert_eq!(loaded.seed, Some(42));
    // Alice moves first; Bob is told it's not his turn.
    assert!(matches!(
        s.legal_moves(BOB, id),
        Err(ServiceError::NotYourTurn { team }) if team == Team::of(1)
    ));
    let mv = first_move(&f, id, ALICE);
    let acc = s.act(ALICE, id, 0, &mv).unwrap();
    assert_eq!(acc.ply, 1);
    assert_eq!(
        acc.next,
        Next::Human {
            team: Team::of(2),
            user: BOB
        }
    );
    // The outbox holds the start, Alice's turn, the board post and Bob's turn.
    let conn = s.store().conn().unwrap();
    let kinds: Vec<String> = store::game_outbox(&conn, id)
        .unwrap()
        .into_iter()
        .map(|r| r.kind)
        .collect();
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
    // History (events to be worded by the reader) and the position after any ply.
    let history = s.history(id).unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].notation, mv);
    assert!(!history[0].events.is_empty());
    assert!(history[0].action.is_some());
    assert_eq!(s.position_at(id, 0).unwrap().ply(), 0);
    assert_eq!(
        s.position_at(id, 1).unwrap(),
        *s.game(id).unwrap().state.as_ref().unwrap()
    );
}

#[test]
fn bots_play_a_whole_game_and_it_replays() {
    let f = fixture();
    let s = &f.service;
    let mut config = small_config();
    config.set("board_size", "5").unwrap();
    let id = bots_duel(&f, Location::default(), config, 9);
    let mut steps = 0;
    while let Some(acc) = s.bot_step(id).unwrap() {
        steps += 1;
        assert_eq!(acc.ply, steps);
    }
    let loaded = s.game(id).unwrap();
    assert_eq!(loaded.status, GameStatus::Finished);
    assert!(loaded.end.is_some());
    // Snapshots every 25 plies, and the loaded game equals a fresh replay of the log.
    let export = s.export(id).unwrap();
    let mut fresh = Game::new(export.config.rules.clone(), 9).unwrap();
    for a in &export.actions {
        fresh
            .play(&a.action.action().expect("no take-back here"))
            .unwrap();
    }
    assert_eq!(loaded.state.unwrap(), fresh);
    // A local game (no channel) writes no outbox rows.
    let conn = s.store().conn().unwrap();
    assert!(store::game_outbox(&conn, id).unwrap().is_empty());
}

/// A move that went through choices (a fork, a horse …) is one board post, posted when the
/// move is complete and covering every ply of it; its choice plies post nothing.
#[test]
fn a_move_with_choices_is_one_board_post() {
    let f = fixture();
    let s = &f.service;
    let id = bots_duel(&f, here(), small_config(), 1);
    // Plays on until a move needed a choice, and keeps that whole move's plies.
    let mut chosen = Vec::new();
    let mut moves_with_choices = 0;
    while let Some(acc) = s.bot_step(id).unwrap() {
        chosen.push((acc.ply, acc.team, acc.notation.clone()));
        if acc.pending.is_some() {
            continue;
        }
        if chosen.len() > 1 {
            moves_with_choices += 1;
            let conn = s.store().conn().unwrap();
            let posts: Vec<_> = store::game_outbox(&conn, id)
                .unwrap()
                .into_iter()
                .filter_map(|r| match serde_json::from_str(&r.payload).unwrap() {
                    OutboxMessage::BoardPost { first_ply, ply, .. } if ply >= chosen[0].0 => {
                        Some((first_ply, ply))
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(posts.len(), 1, "one post for plies {chosen:?}: {posts:?}");
            assert_eq!(posts[0], (chosen[0].0, acc.ply));
        }
        chosen.clear();
    }
    assert!(
        moves_with_choices > 0,
        "the seed gives no move with a choice; pick another"
    );
}

/// Players count moves, not plies: a move that stopped for a choice keeps one number, and
/// the numbers run 1, 2, 3… with no gap, the same when the game is read back cold.
#[test]
fn moves_are_numbered_as_players_count_them() {
    let f = fixture();
    let s = &f.service;
    let id = bots_duel(&f, here(), small_config(), 1);
    let mut numbers = Vec::new();
    let mut choices = 0;
    while let Some(acc) = s.bot_step(id).unwrap() {
        let expected = numbers.last().map_or(
            1,
            |&(n, pending): &(u32, bool)| {
                if pending { n } else { n + 1 }
            },
        );
        assert_eq!(acc.move_number, expected, "ply {}", acc.ply);
        if acc.pending.is_some() {
            choices += 1;
        } else {
            assert_eq!(s.moves_complete_at(id, acc.ply).unwrap(), acc.move_number);
            let post = s.post_material(id, acc.ply, acc.ply).unwrap();
            assert_eq!(post.number, acc.move_number);
        }
        numbers.push((acc.move_number, acc.pending.is_some()));
    }
    assert!(
        choices > 0,
        "the seed gives no move with a choice; pick another"
    );
    let last = numbers.last().expect("moves were played").0;
    let plies = s.game(id).unwrap().ply;
    assert!(last < plies, "{last} moves in {plies} plies");
    assert_eq!(s.game(id).unwrap().moves, last);
    // Read back by a service that never saw the game (no cached count).
    let cold = GameService::new(Arc::new(f.reopen()), f.clock.clone());
    assert_eq!(cold.game(id).unwrap().moves, last);
}

#[test]
fn resigning_a_duel_ends_it() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    assert!(matches!(
        s.resign(Actor::user(EVE), id),
        Err(ServiceError::NotYourGame(_))
    ));
    s.resign(Actor::user(BOB), id).unwrap();
    let loaded = s.game(id).unwrap();
    assert_eq!(loaded.status, GameStatus::Finished);
    assert!(matches!(
        s.act(ALICE, id, 0, "1 d2"),
        Err(ServiceError::Finished(_))
    ));
    assert!(s.next_timer_due().unwrap().is_none());
}

/// A bot's move is told like a person's: a board post of its ply to the game's channel, and
/// the next player's "your turn"; its history entry narrates its events the same way.
#[test]
fn a_bots_move_is_posted_like_a_persons() {
    let f = fixture();
    let s = &f.service;
    let id = against_bot(&f, BotLevel::Easy, 12);
    let mv = first_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &mv).unwrap();
    let before = s.messages_of(id).unwrap().len();
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::BotMoved {
            game_id: id,
            team: Team::of(2)
        }]
    );
    let posts: Vec<(Target, u32)> = s
        .messages_of(id)
        .unwrap()
        .into_iter()
        .filter_map(|(q, _)| match q.message {
            OutboxMessage::BoardPost { ply, .. } => Some((q.target, ply)),
            _ => None,
        })
        .collect();
    assert_eq!(posts.len(), 2, "{posts:?}");
    assert_eq!(posts[0].0, posts[1].0, "both posted to the game");
    assert_eq!((posts[0].1, posts[1].1), (1, 2));
    let after: Vec<OutboxMessage> = s.messages_of(id).unwrap()[before..]
        .iter()
        .map(|(q, _)| q.message.clone())
        .collect();
    assert!(
        after
            .iter()
            .any(|m| matches!(m, OutboxMessage::YourTurn { team, .. } if *team == Team::of(1))),
        "{after:?}"
    );
    let history = s.history(id).unwrap();
    let lang = jackal::words::Lang::En;
    let teams = jackal::words::narrate::Numbered(lang);
    for entry in &history[..2] {
        let lines = jackal::words::narrate::events(lang, &teams, &entry.events);
        assert!(!lines.is_empty(), "ply {} is narrated", entry.ply);
    }
    assert_eq!(history[1].user_id, None, "the bot's move");
}

/// A click is one call of the service, and each call loads the game once: the view of a
/// turn, a press that plays, a press that only asks for confirmation, a press on an old board.
#[test]
fn a_click_loads_the_game_once() {
    use jackal::game::Pressed;
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let costs = |call: &dyn Fn()| {
        let before = s.loads();
        call();
        s.loads() - before
    };
    assert_eq!(costs(&|| drop(s.turn(ALICE, id, None).unwrap())), 1);
    let view = s.turn(ALICE, id, None).unwrap();
    assert_eq!(view.at.move_number, 1);
    assert_eq!(view.legal.len(), view.position.legal_actions().len());
    let safe = view.legal.iter().find(|l| !l.fatal).unwrap();
    let notation = view.position.notation(&safe.action);
    let ply = view.at.ply;
    // Bob is not on turn; the refusal costs one load and changes nothing.
    assert_eq!(
        costs(&|| {
            let e = s.press(BOB, id, Some(ply), &notation, false).unwrap_err();
            assert!(matches!(e, ServiceError::NotYourTurn { .. }), "{e}");
        }),
        1
    );
    let before = s.loads();
    let pressed = s.press(ALICE, id, Some(ply), &notation, false).unwrap();
    assert_eq!(
        s.loads() - before,
        1,
        "a press that plays loads the game once"
    );
    match pressed {
        Pressed::Played { accepted, next } => {
            assert_eq!(accepted.ply, ply + 1);
            assert_eq!(next.is_some(), accepted.pending.is_some());
        }
        Pressed::Confirm { .. } => panic!("a safe action was asked about"),
    }
    // The same board pressed again: stale, one load, nothing played.
    assert_eq!(
        costs(&|| {
            let e = s.press(ALICE, id, Some(ply), &notation, false).unwrap_err();
            assert!(matches!(e, ServiceError::StaleButton { .. }), "{e}");
        }),
        1
    );
    assert_eq!(s.game(id).unwrap().ply, ply + 1);
}
