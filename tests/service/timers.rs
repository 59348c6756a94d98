//! Deadlines, reminders, quiet hours and the timers that drive bots.

use super::*;

#[test]
fn deadlines_remind_then_a_bot_moves_then_takes_the_seat() {
    let f = fixture();
    let s = &f.service;
    let mut config = small_config();
    config.set("turn_time", "12h").unwrap();
    config.set("reminder", "2h").unwrap();
    config.set("max_missed", "2").unwrap();
    config.set("timeout_level", "random").unwrap();
    let id = duel_with(&f, config, 10);
    assert_eq!(
        s.next_timer_due().unwrap(),
        Some(f.clock.now_ms() + 10 * HOUR)
    );
    f.clock.advance_ms(10 * HOUR);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::Reminded {
            game_id: id,
            team: Team::of(1)
        }]
    );
    assert!(s.fire_due_timers().unwrap().is_empty(), "fires once");
    // The reminder tells the deadline: 12 hours after the start.
    let conn = s.store().conn().unwrap();
    let reminded: Vec<i64> = store::game_outbox(&conn, id)
        .unwrap()
        .into_iter()
        .filter_map(|r| match serde_json::from_str(&r.payload).unwrap() {
            OutboxMessage::Reminder { deadline_ms, .. } => Some(deadline_ms),
            _ => None,
        })
        .collect();
    assert_eq!(reminded, [f.clock.now_ms() + 2 * HOUR]);
    drop(conn);
    f.clock.advance_ms(2 * HOUR);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::TimedOut {
            game_id: id,
            team: Team::of(1)
        }]
    );
    // The bot played Alice's whole turn, the choice her move led to included: Bob is on
    // turn, not Alice with a half-played turn and a new deadline.
    let loaded = s.game(id).unwrap();
    assert_eq!(loaded.ply, 2, "a move and the answer to its choice");
    assert_eq!(loaded.state.as_ref().unwrap().controller(), Team::of(2));
    assert_eq!(loaded.seat(1).unwrap().missed_deadlines, 1);
    assert_eq!(loaded.seat(1).unwrap().user_id, Some(ALICE));
    // Bob moves; Alice misses again: the bot keeps her seat.
    let mv = first_move(&f, id, BOB);
    s.act(BOB, id, 2, &mv).unwrap();
    f.clock.advance_ms(12 * HOUR);
    let fired = s.fire_due_timers().unwrap();
    assert!(fired.contains(&Fired::TimedOut {
        game_id: id,
        team: Team::of(1)
    }));
    let seat = s.game(id).unwrap().seat(1).unwrap().clone();
    assert_eq!(seat.user_id, None);
    assert_eq!(seat.bot.map(|b| b.name()), Some("random"));
    let conn = s.store().conn().unwrap();
    let notices: Vec<Notice> = store::game_outbox(&conn, id)
        .unwrap()
        .into_iter()
        .filter(|r| r.kind == "notice")
        .map(|r| match serde_json::from_str(&r.payload).unwrap() {
            OutboxMessage::Notice { notice, .. } => notice,
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(
        notices,
        [
            Notice::TimedOut { team: Team::of(1) },
            Notice::TakenOver {
                team: Team::of(1),
                missed: 2
            }
        ]
    );
}

#[test]
fn a_turn_has_exactly_its_own_timers() {
    let f = fixture();
    let s = &f.service;
    let timers = |id| -> Vec<_> {
        let now = f.clock.now_ms();
        timers_of(&f, id)
            .into_iter()
            .map(|(kind, ply, due, fired)| (kind, ply, due - now, fired))
            .collect()
    };
    let mut config = small_config();
    config.set("turn_time", "12h").unwrap();
    config.set("reminder", "2h").unwrap();
    let id = duel_with(&f, config.clone(), 7);
    use store::TimerKind::{Deadline, Reminder};
    assert_eq!(
        timers(id),
        [
            (Reminder, 0, 10 * HOUR, None),
            (Deadline, 0, 12 * HOUR, None)
        ]
    );
    f.clock.advance_ms(HOUR);
    let mv = first_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &mv).unwrap();
    assert_eq!(
        timers(id),
        [
            (Reminder, 1, 10 * HOUR, None),
            (Deadline, 1, 12 * HOUR, None)
        ]
    );

    // Without reminders: the deadline only.
    config.set("reminder", "off").unwrap();
    let quiet = duel_with(&f, config, 7);
    assert_eq!(timers(quiet), [(Deadline, 0, 12 * HOUR, None)]);
    let mv = first_move(&f, quiet, ALICE);
    s.act(ALICE, quiet, 0, &mv).unwrap();
    assert_eq!(timers(quiet), [(Deadline, 1, 12 * HOUR, None)]);
    // The first game's timers are its own.
    assert_eq!(timers(id).len(), 2);
}

/// A reminder that came due while the bot was down is held by the player's quiet hours when
/// it comes up: it waits for their end instead of being sent at 1 am.
#[test]
fn quiet_hours_hold_when_a_late_reminder_is_sent() {
    use jackal::game::ReminderChange;
    use jackal::game::reminders::QuietHours;
    let f = fixture();
    let s = &f.service;
    let reminders = |id| -> usize {
        let conn = s.store().conn().unwrap();
        store::game_outbox(&conn, id)
            .unwrap()
            .into_iter()
            .filter(|r| {
                matches!(
                    serde_json::from_str(&r.payload).unwrap(),
                    OutboxMessage::Reminder { .. }
                )
            })
            .count()
    };
    let mut config = small_config();
    config.set("turn_time", "36h").unwrap();
    config.set("reminder", "12h").unwrap();
    // The clock starts at 2023-11-14 22:13:20 UTC: the deadline is 36 hours later, and the
    // reminder, 12 hours before it, at 22:13, just before Alice's quiet hours.
    let id = duel_with(&f, config, 7);
    s.change_reminders(
        ALICE,
        ReminderChange {
            quiet: Some(Some(QuietHours::parse("23:00-08:00").unwrap())),
            zone: Some("UTC".into()),
            ..ReminderChange::default()
        },
    )
    .unwrap();
    let start = f.clock.now_ms();
    let reminder_due = start + 24 * HOUR;
    assert!(
        timers_of(&f, id)
            .iter()
            .any(|t| t.0 == store::TimerKind::Reminder && t.2 == reminder_due)
    );

    // The bot was down from before the reminder until 01:00: the reminder waits for 08:00.
    let one_am = 1_700_096_400_000; // 2023-11-16 01:00 UTC
    f.clock.advance_ms(one_am - start);
    let fired = s.fire_due_timers().unwrap();
    assert_eq!(
        fired,
        [Fired::Quiet {
            game_id: id,
            team: Team::of(1)
        }]
    );
    assert_eq!(reminders(id), 0, "nothing sent in the quiet hours");
    let eight_am = one_am + 7 * HOUR;
    assert_eq!(s.next_timer_due().unwrap(), Some(eight_am));
    f.clock.advance_ms(eight_am - one_am);
    let fired = s.fire_due_timers().unwrap();
    assert_eq!(
        fired,
        [Fired::Reminded {
            game_id: id,
            team: Team::of(1)
        }]
    );
    assert_eq!(reminders(id), 1);
}

/// A bot on turn has a timer due at once, and firing it plays the bot's move: a game of bots
/// runs to its end on its timers alone, and leaves none behind.
#[test]
fn bots_are_driven_by_their_timers() {
    let f = fixture();
    let s = &f.service;
    let mut config = small_config();
    config.set("board_size", "5").unwrap();
    let id = bots_duel(&f, here(), config, 11);
    let kinds = |id| -> Vec<_> {
        timers_of(&f, id)
            .into_iter()
            .map(|(kind, ply, due, _)| (kind, ply, due == f.clock.now_ms()))
            .collect()
    };
    assert_eq!(kinds(id), [(store::TimerKind::Bot, 0, true)]);
    let mut moves = 0;
    while let Some(due) = s.next_timer_due().unwrap() {
        assert!(due <= f.clock.now_ms(), "a bot's timer is due at once");
        for fired in s.fire_due_timers().unwrap() {
            assert!(matches!(fired, Fired::BotMoved { game_id, .. } if game_id == id));
            moves += 1;
        }
        f.clock.advance_ms(1_000);
    }
    let loaded = s.game(id).unwrap();
    assert_eq!(loaded.status, GameStatus::Finished);
    assert_eq!(moves, loaded.ply);
    assert!(kinds(id).is_empty());
}

/// Removing or resigning the player on turn hands the turn to a bot at once; doing so to
/// another player leaves the deadline of the one on turn as it was.
#[test]
fn a_player_removed_on_turn_is_replaced_by_a_bot_at_once() {
    let f = fixture();
    let s = &f.service;
    let deadline = |id| -> Vec<_> {
        timers_of(&f, id)
            .into_iter()
            .map(|(kind, ply, due, _)| (kind, ply, due))
            .collect()
    };
    // Not on turn: Alice (on turn) keeps her timers.
    let id = duel(&f);
    let before = deadline(id);
    f.clock.advance_ms(HOUR);
    s.kick(Actor::user(ALICE), id, 2).unwrap();
    assert_eq!(deadline(id), before);
    // On turn: Alice moves, Bob (on turn) is removed, his bot plays when its timer fires.
    let id = duel(&f);
    let mv = first_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &mv).unwrap();
    s.kick(Actor::user(ALICE), id, 2).unwrap();
    assert_eq!(deadline(id), [(store::TimerKind::Bot, 1, f.clock.now_ms())]);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::BotMoved {
            game_id: id,
            team: Team::of(2)
        }]
    );
    assert_eq!(s.game(id).unwrap().ply, 2);
    assert!(deadline(id).iter().all(|t| t.0 != store::TimerKind::Bot));

    // Three players: one who is not on turn resigns; the one on turn keeps the deadline.
    let mut config = small_config();
    config.set("players", "3").unwrap();
    let id = s
        .create_lobby(
            Actor::user(ALICE),
            here(),
            jackal::words::Lang::En,
            config,
            Some(1),
        )
        .unwrap();
    s.join(Actor::user(BOB), id, Some(2)).unwrap();
    s.join(Actor::user(EVE), id, Some(3)).unwrap();
    s.start_with_seed(Actor::user(ALICE), id, 8).unwrap();
    let before = deadline(id);
    f.clock.advance_ms(HOUR);
    s.resign(Actor::user(EVE), id).unwrap();
    assert_eq!(deadline(id), before);
    // Alice, on turn, resigns: her bot moves when its timer fires.
    s.resign(Actor::user(ALICE), id).unwrap();
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::BotMoved {
            game_id: id,
            team: Team::of(1)
        }]
    );
}

/// A game whose stored data is damaged does not hold up the other games' timers: its timer
/// fails once, is set aside, and the others fire.
#[test]
fn a_broken_game_does_not_stop_other_timers() {
    let f = file_fixture();
    let s = &f.service;
    let broken = duel(&f);
    f.clock.advance_ms(HOUR);
    let healthy = duel(&f);
    s.store()
        .conn()
        .unwrap()
        .raw()
        .execute(
            "UPDATE games SET settings = 'not json' WHERE id = ?1",
            [broken],
        )
        .unwrap();
    f.clock.advance_ms(48 * HOUR);
    let fired = s.fire_due_timers().unwrap();
    assert!(
        matches!(&fired[0], Fired::Failed { game_id, error } if *game_id == broken && error.contains("settings")),
        "{fired:?}"
    );
    assert!(fired.contains(&Fired::TimedOut {
        game_id: healthy,
        team: Team::of(1)
    }));
    // Set aside: the broken game's timers do not come back every time.
    assert!(
        s.fire_due_timers()
            .unwrap()
            .iter()
            .all(|f| !matches!(f, Fired::Failed { .. }))
    );
}
