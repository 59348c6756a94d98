//! Games that survive real life, at the service level on a manual clock: the timeout
//! policies and taking a seat back, per-player reminders, vacations, pauses and the digest.

use super::*;
use jackal::game::reminders;
use jackal::game::{PauseVote, ReminderChange, ReminderVia};

fn config(settings: &[(&str, &str)]) -> GameConfig {
    let mut c = small_config();
    for (id, value) in settings {
        c.set(id, value).unwrap();
    }
    c
}

/// A started duel on the map these tests were written for: Alice team 1, Bob team 2.
fn duel(f: &Fixture, config: GameConfig) -> GameId {
    duel_with(f, config, 10)
}

/// Plays `user`'s first legal move, and the first answer to any choice it leads to.
fn play_turn(f: &Fixture, id: GameId, user: UserId) {
    let s = &f.service;
    let team = s.game(id).unwrap().seat_of(user).unwrap().team;
    loop {
        let ply = s.game(id).unwrap().ply;
        s.act(user, id, ply, &first_move(f, id, user)).unwrap();
        let loaded = s.game(id).unwrap();
        if loaded.state.unwrap().controller() != team {
            return;
        }
    }
}

fn notices(f: &Fixture, id: GameId) -> Vec<Notice> {
    let conn = f.service.store().conn().unwrap();
    store::game_outbox(&conn, id)
        .unwrap()
        .into_iter()
        .filter_map(|r| match serde_json::from_str(&r.payload).unwrap() {
            OutboxMessage::Notice { notice, .. } => Some(notice),
            _ => None,
        })
        .collect()
}

/// `skip`: a deadline that passes passes the turn (a `pass` in the log, the notice in the
/// thread); after `max_missed` in a row a bot takes the seat, and the player takes it back
/// with one call, getting the turn (and a fresh deadline) if the bot was on turn.
#[test]
fn skip_passes_the_turn_then_a_bot_sits_then_the_player_takes_the_seat_back() {
    let f = fixture();
    let s = &f.service;
    let id = duel(
        &f,
        config(&[
            ("turn_time", "12h"),
            ("reminder", "off"),
            ("timeout", "skip"),
            ("max_missed", "2"),
        ]),
    );
    f.clock.advance_ms(12 * HOUR);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::TimedOut {
            game_id: id,
            team: Team::of(1)
        }]
    );
    let loaded = s.game(id).unwrap();
    assert_eq!(loaded.ply, 1, "one action: the pass");
    assert_eq!(loaded.state.as_ref().unwrap().controller(), Team::of(2));
    assert_eq!(s.history(id).unwrap()[0].notation, "pass");
    assert_eq!(loaded.seat(1).unwrap().user_id, Some(ALICE));
    assert_eq!(notices(&f, id), [Notice::Passed { team: Team::of(1) }]);
    // Bob's deadline runs from his turn's start.
    assert_eq!(
        s.next_timer_due().unwrap(),
        Some(f.clock.now_ms() + 12 * HOUR)
    );

    play_turn(&f, id, BOB);
    f.clock.advance_ms(12 * HOUR);
    s.fire_due_timers().unwrap();
    let seat = s.game(id).unwrap().seat(1).unwrap().clone();
    assert_eq!((seat.user_id, seat.away_user_id), (None, Some(ALICE)));
    assert_eq!(
        notices(&f, id),
        [
            Notice::Passed { team: Team::of(1) },
            Notice::TakenOver {
                team: Team::of(1),
                missed: 2
            }
        ]
    );

    // Only the player the bot replaced can take the seat back; Bob already sits.
    assert!(matches!(
        s.reclaim_seat(EVE, id),
        Err(ServiceError::NothingToReclaim(_))
    ));
    assert!(matches!(
        s.reclaim_seat(BOB, id),
        Err(ServiceError::AlreadySeated(_))
    ));
    // Bob is on turn: Alice sits down, and her turn comes with a deadline, not a bot's move.
    let before = s.game(id).unwrap().ply;
    assert_eq!(s.reclaim_seat(ALICE, id).unwrap(), Team::of(1));
    let seat = s.game(id).unwrap().seat(1).unwrap().clone();
    assert_eq!(
        (
            seat.user_id,
            seat.away_user_id,
            seat.bot,
            seat.missed_deadlines
        ),
        (Some(ALICE), None, None, 0)
    );
    assert!(matches!(
        s.reclaim_seat(ALICE, id),
        Err(ServiceError::AlreadySeated(_))
    ));
    play_turn(&f, id, BOB);
    let loaded = s.game(id).unwrap();
    assert!(loaded.ply > before);
    assert_eq!(loaded.state.as_ref().unwrap().controller(), Team::of(1));
    assert!(
        s.fire_due_timers().unwrap().is_empty(),
        "no bot moves for Alice"
    );
    assert_eq!(
        notices(&f, id).last(),
        Some(&Notice::Reclaimed { team: Team::of(1) })
    );
}

/// A seat taken back while the bot holding it is on turn: the bot's timer gives way to the
/// player's deadline and their "your turn" message.
#[test]
fn a_seat_taken_back_on_its_turn_is_the_players_turn() {
    let f = fixture();
    let s = &f.service;
    let id = duel(
        &f,
        config(&[
            ("turn_time", "1d"),
            ("reminder", "off"),
            ("timeout", "bot"),
            ("max_missed", "1"),
        ]),
    );
    // Alice's time runs out: the bot plays her turn and keeps the seat. Bob plays; the bot
    // is on turn, its timer due at once.
    f.clock.advance_ms(24 * HOUR);
    s.fire_due_timers().unwrap();
    play_turn(&f, id, BOB);
    let conn = s.store().conn().unwrap();
    let kinds: Vec<_> = store::game_timers(&conn, id)
        .unwrap()
        .into_iter()
        .map(|t| t.kind)
        .collect();
    assert_eq!(kinds, [store::TimerKind::Bot]);
    let ply = s.game(id).unwrap().ply;
    s.reclaim_seat(ALICE, id).unwrap();
    let timers: Vec<_> = store::game_timers(&conn, id)
        .unwrap()
        .into_iter()
        .map(|t| (t.kind, t.ply, t.due_at))
        .collect();
    assert_eq!(
        timers,
        [(
            store::TimerKind::Deadline,
            ply,
            f.clock.now_ms() + 24 * HOUR
        )]
    );
    assert!(s.fire_due_timers().unwrap().is_empty());
    let told = store::game_outbox(&conn, id)
        .unwrap()
        .into_iter()
        .filter(|r| {
            matches!(
                serde_json::from_str(&r.payload).unwrap(),
                OutboxMessage::YourTurn { ply: p, team, .. } if p == ply && team == Team::of(1)
            )
        })
        .count();
    assert_eq!(told, 1, "Alice is told it is her turn");
    assert!(!s.legal_moves(ALICE, id).unwrap().is_empty());
}

fn ms(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
}

fn fixture_at(start: &str) -> Fixture {
    fixture_at_ms(ms(start))
}

fn on_turn(f: &Fixture, id: GameId) -> UserId {
    let loaded = f.service.game(id).unwrap();
    let team = loaded.state.as_ref().unwrap().controller();
    loaded.team_seat(team).unwrap().user_id.unwrap()
}

fn reminder_times(f: &Fixture, id: GameId) -> Vec<i64> {
    let conn = f.service.store().conn().unwrap();
    store::game_timers(&conn, id)
        .unwrap()
        .into_iter()
        .filter(|t| t.kind == store::TimerKind::Reminder)
        .map(|t| t.due_at)
        .collect()
}

/// The reminders sent so far, as (user, game).
fn reminders_sent(f: &Fixture) -> Vec<(UserId, GameId)> {
    let conn = f.service.store().conn().unwrap();
    let mut out = Vec::new();
    for id in store::all_game_ids(&conn).unwrap() {
        for row in store::game_outbox(&conn, id).unwrap() {
            if let OutboxMessage::Reminder { game_id, .. } =
                serde_json::from_str(&row.payload).unwrap()
            {
                let Target::User { id: user } = serde_json::from_str(&row.target).unwrap() else {
                    panic!("a reminder to a user");
                };
                out.push((user, game_id));
            }
        }
    }
    out
}

fn times(before: &str) -> ReminderChange {
    ReminderChange {
        reminders: Some(Some(reminders::parse_offsets(before).unwrap())),
        ..ReminderChange::default()
    }
}

/// Each chosen reminder comes once, at its time, to the player on turn only; none after the
/// move; none twice when the service restarts on the same file.
#[test]
fn reminders_come_once_each_at_the_chosen_times_and_never_after_the_move() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    let id = duel(&f, config(&[("turn_time", "1d"), ("reminder", "3h")]));
    let first = on_turn(&f, id);
    let second = if first == ALICE { BOB } else { ALICE };
    // The game's own reminder, three hours before the deadline.
    assert_eq!(reminder_times(&f, id), [ms("2026-11-19T09:00:00Z")]);
    // The player asks for three; their current turn follows at once.
    s.change_reminders(first, times("12h, 6h, 1h")).unwrap();
    assert_eq!(
        reminder_times(&f, id),
        [
            ms("2026-11-19T00:00:00Z"),
            ms("2026-11-19T06:00:00Z"),
            ms("2026-11-19T11:00:00Z")
        ]
    );
    f.clock.advance_ms(12 * HOUR);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::Reminded {
            game_id: id,
            team: s
                .game(id)
                .unwrap()
                .seat_of(first)
                .map(|seat| seat.team)
                .unwrap()
        }]
    );
    assert!(s.fire_due_timers().unwrap().is_empty(), "once per slot");
    // A restart on the same file: the fired slot stays fired.
    let reopened = f.reopen();
    let again = GameService::new(Arc::new(reopened), f.clock.clone());
    assert!(again.fire_due_timers().unwrap().is_empty());
    f.clock.advance_ms(6 * HOUR);
    assert_eq!(again.fire_due_timers().unwrap().len(), 1);
    assert_eq!(reminders_sent(&f), [(first, id), (first, id)]);
    // The player moves before the last one: it never comes; the other player's turn has the
    // game's reminder (three hours before their deadline).
    play_turn(&f, id, first);
    assert_eq!(reminder_times(&f, id), [f.clock.now_ms() + 21 * HOUR]);
    f.clock.advance_ms(21 * HOUR);
    s.fire_due_timers().unwrap();
    assert_eq!(reminders_sent(&f), [(first, id), (first, id), (second, id)]);
    // `off`: no reminders at all.
    play_turn(&f, id, second);
    s.change_reminders(first, times("off")).unwrap();
    assert!(reminder_times(&f, id).is_empty());
}

/// A player whose DMs were found closed and who chooses the thread for reminders keeps
/// that knowledge (no new DM, no second "your DMs are closed"); choosing DMs tries afresh.
#[test]
fn choosing_the_thread_keeps_closed_dms_known_and_choosing_dms_tries_again() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    assert!(s.dms_refused(ALICE).unwrap(), "told the first time");
    let via = |via| ReminderChange {
        via: Some(via),
        ..ReminderChange::default()
    };
    let prefs = s
        .change_reminders(ALICE, via(Some(ReminderVia::Thread)))
        .unwrap();
    assert!(!prefs.dms && prefs.dms_told, "{prefs:?}");
    assert!(prefs.dms_refused_at.is_some());
    assert!(!s.dms_refused(ALICE).unwrap(), "not told twice");
    let prefs = s
        .change_reminders(ALICE, via(Some(ReminderVia::Dm)))
        .unwrap();
    assert!(prefs.dms && !prefs.dms_told && prefs.dms_refused_at.is_none());
    assert!(
        s.dms_refused(ALICE).unwrap(),
        "told again after choosing DMs"
    );
    let prefs = s.change_reminders(ALICE, via(None)).unwrap();
    assert!(prefs.dms, "auto tries DMs afresh too");
}

/// Quiet hours in the player's zone, across its offset and a daylight-saving change: Berlin
/// leaves summer time on 2026-10-25 at 01:00 UTC. A reminder due at 04:00 UTC that night
/// (05:00 CET, quiet until 07:00) comes at 07:00 CET, 06:00 UTC, not at 07:00 CEST.
#[test]
fn quiet_hours_hold_a_reminder_until_they_end_across_a_daylight_saving_change() {
    let f = fixture_at("2026-10-24T12:00:00Z");
    let s = &f.service;
    let id = duel(&f, config(&[("turn_time", "1d"), ("reminder", "3h")]));
    let first = on_turn(&f, id);
    let change = ReminderChange {
        reminders: Some(Some(vec![8 * 60])),
        quiet: Some(Some(reminders::QuietHours::parse("22:00-07:00").unwrap())),
        zone: Some("Europe/Berlin".into()),
        ..ReminderChange::default()
    };
    s.change_reminders(first, change).unwrap();
    assert_eq!(reminder_times(&f, id), [ms("2026-10-25T06:00:00Z")]);
    f.clock.advance_ms(16 * HOUR); // 04:00 UTC
    assert!(s.fire_due_timers().unwrap().is_empty(), "quiet");
    f.clock.advance_ms(2 * HOUR); // 06:00 UTC
    assert_eq!(s.fire_due_timers().unwrap().len(), 1);
    assert_eq!(reminders_sent(&f), [(first, id)]);
}

/// The digest: one message at the chosen local time listing the games where it is the
/// player's turn, then the same time the next day; no reminders of each game meanwhile.
#[test]
fn a_digest_lists_the_games_on_turn_each_day_at_the_local_time() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    let settings = [("turn_time", "3d"), ("reminder", "1h")];
    let a = duel(&f, config(&settings));
    let b = duel(&f, config(&settings));
    for id in [a, b] {
        if on_turn(&f, id) == BOB {
            play_turn(&f, id, BOB);
        }
    }
    let change = ReminderChange {
        digest: Some(Some(9 * 60)),
        zone: Some("Asia/Tokyo".into()),
        ..ReminderChange::default()
    };
    s.change_reminders(ALICE, change).unwrap();
    assert!(reminder_times(&f, a).is_empty() && reminder_times(&f, b).is_empty());
    // 09:00 in Tokyo is 00:00 UTC: twelve hours on.
    assert_eq!(
        s.next_timer_due().unwrap(),
        Some(ms("2026-11-19T00:00:00Z"))
    );
    f.clock.advance_ms(12 * HOUR);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::Digest {
            user_id: ALICE,
            games: 2
        }]
    );
    let conn = s.store().conn().unwrap();
    let digests: Vec<OutboxMessage> = store::pending_outbox(&conn, f.clock.now_ms())
        .unwrap()
        .into_iter()
        .map(|r| serde_json::from_str(&r.payload).unwrap())
        .filter(|m| matches!(m, OutboxMessage::Digest { .. }))
        .collect();
    assert_eq!(digests, [OutboxMessage::Digest { games: vec![a, b] }]);
    // Alice plays one game; the next day's digest lists the other only.
    play_turn(&f, a, ALICE);
    assert_eq!(s.turns_among(ALICE, &[a, b]).unwrap().len(), 1);
    f.clock.advance_ms(24 * HOUR);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::Digest {
            user_id: ALICE,
            games: 1
        }]
    );
    assert!(reminders_sent(&f).iter().all(|(user, _)| *user != ALICE));
}

/// Bad settings are refused with what is wrong, and nothing changes.
#[test]
fn bad_reminder_settings_are_refused_and_change_nothing() {
    let f = fixture();
    let s = &f.service;
    let before = s.user_prefs(ALICE).unwrap();
    let change = ReminderChange {
        reminders: Some(Some(vec![60])),
        zone: Some("Mars/Olympus".into()),
        ..ReminderChange::default()
    };
    assert!(matches!(
        s.change_reminders(ALICE, change),
        Err(ServiceError::Setting(reminders::SettingError::UnknownZone(
            _
        )))
    ));
    assert_eq!(s.user_prefs(ALICE).unwrap(), before);
    assert_eq!(
        reminders::QuietHours::parse("07:00-07:00"),
        Err(reminders::SettingError::QuietWholeDay)
    );
}

const DAY: i64 = 24 * HOUR;

/// A vacation costs nothing until a deadline of the player's would pass: that deadline waits
/// for their return plus a full turn, and the allowance pays from then to the return. Moving
/// ends it early and gives back the rest.
#[test]
fn a_vacation_is_spent_only_when_a_deadline_would_pass_and_ends_early_on_a_move() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    let id = duel(&f, config(&[("turn_time", "1d"), ("reminder", "off")]));
    let first = on_turn(&f, id);
    let second = if first == ALICE { BOB } else { ALICE };
    let team = s.game(id).unwrap().seat_of(first).unwrap().team;
    let start = f.clock.now_ms();

    let new = s.go_on_vacation(first, GuildId::new(1), 5 * DAY).unwrap();
    assert_eq!(new.replaced_until_ms, None);
    let v = new.status;
    assert_eq!(
        (v.until_ms, v.used_ms, v.allowance_ms),
        (Some(start + 5 * DAY), 0, 14 * DAY)
    );
    assert_eq!(
        notices(&f, id),
        [Notice::Away {
            team,
            until_ms: start + 5 * DAY
        }]
    );
    // The deadline passes a day in: it moves to the return plus a day; four days are spent.
    f.clock.advance_ms(DAY);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::Held { game_id: id, team }]
    );
    assert_eq!(s.deadline_of(id).unwrap(), Some(start + 6 * DAY));
    assert_eq!(s.vacation(first, GuildId::new(1)).unwrap().used_ms, 4 * DAY);
    assert_eq!(s.game(id).unwrap().ply, 0, "no bot moved for them");
    // Back on the third day: they move, and the three days not used come back.
    f.clock.advance_ms(DAY);
    play_turn(&f, id, first);
    let v = s.vacation(first, GuildId::new(1)).unwrap();
    assert_eq!((v.until_ms, v.used_ms), (None, DAY));
    assert_eq!(notices(&f, id).last(), Some(&Notice::Back { team }));
    assert!(matches!(
        s.end_vacation(first, GuildId::new(1)),
        Err(ServiceError::NotOnVacation)
    ));

    // A vacation no deadline touched is free: the other player is away 12 hours while their
    // next deadline is a day off.
    play_turn(&f, id, second);
    s.go_on_vacation(second, GuildId::new(1), 12 * HOUR)
        .unwrap();
    f.clock.advance_ms(HOUR);
    play_turn(&f, id, first);
    f.clock.advance_ms(12 * HOUR);
    assert!(s.fire_due_timers().unwrap().is_empty());
    let v = s.vacation(second, GuildId::new(1)).unwrap();
    assert_eq!((v.until_ms, v.used_ms), (None, 0));
}

/// A vacation longer than what is left of the allowance is refused, nothing changed; the
/// server's own allowance counts.
#[test]
fn a_vacation_longer_than_the_allowance_left_is_refused() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    assert!(matches!(
        s.go_on_vacation(ALICE, GuildId::new(1), 15 * DAY),
        Err(ServiceError::VacationTooLong {
            left_ms,
            allowance_days: 14
        }) if left_ms == 14 * DAY
    ));
    assert_eq!(s.vacation(ALICE, GuildId::new(1)).unwrap().until_ms, None);
    assert!(matches!(
        s.set_guild_limits(false, GuildId::new(1), Some(20), None),
        Err(ServiceError::NotServerManager)
    ));
    assert_eq!(
        s.set_guild_limits(true, GuildId::new(1), Some(20), None)
            .unwrap(),
        (20, 7)
    );
    assert!(s.go_on_vacation(ALICE, GuildId::new(1), 15 * DAY).is_ok());
    // Another server has its own allowance.
    assert_eq!(
        s.vacation(ALICE, GuildId::new(2)).unwrap().allowance_ms,
        14 * DAY
    );
}

/// A duel's pause: proposed by one, accepted by the other; the deadline moves on by the
/// pause, a turn begun during it has its full time from its end, and it ends by itself.
/// A second pause while one runs, a vote by an outsider and a pause longer than the server
/// allows are refused; a proposal turned down or left a day unanswered ends.
#[test]
fn a_pause_is_voted_runs_and_ends_by_itself() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    let id = duel(&f, config(&[("turn_time", "1d"), ("reminder", "off")]));
    let first = on_turn(&f, id);
    let second = if first == ALICE { BOB } else { ALICE };
    let start = f.clock.now_ms();
    assert!(matches!(
        s.propose_pause(second, id, 8 * DAY),
        Err(ServiceError::PauseTooLong { max_days: 7 })
    ));
    assert!(matches!(
        s.propose_pause(EVE, id, DAY),
        Err(ServiceError::NotYourGame(_))
    ));
    assert_eq!(
        s.propose_pause(second, id, 3 * DAY).unwrap(),
        PauseVote::Waiting {
            accepted: 1,
            needed: 2
        }
    );
    assert!(matches!(
        s.propose_pause(first, id, DAY),
        Err(ServiceError::PauseProposed(_))
    ));
    assert!(matches!(
        s.vote_pause(EVE, id, true),
        Err(ServiceError::NotYourGame(_))
    ));
    assert!(matches!(
        s.vote_pause(second, id, true),
        Err(ServiceError::AlreadyVoted(_))
    ));
    f.clock.advance_ms(HOUR);
    assert_eq!(
        s.vote_pause(first, id, true).unwrap(),
        PauseVote::Started {
            until_ms: start + HOUR + 3 * DAY
        }
    );
    assert_eq!(s.paused_until(id).unwrap(), Some(start + HOUR + 3 * DAY));
    assert_eq!(
        s.deadline_of(id).unwrap(),
        Some(start + 4 * DAY),
        "a day plus the pause"
    );
    assert!(matches!(
        s.propose_pause(second, id, DAY),
        Err(ServiceError::AlreadyPaused { .. })
    ));
    // A move during the pause: the next turn's full day starts when the pause ends.
    play_turn(&f, id, first);
    assert_eq!(s.deadline_of(id).unwrap(), Some(start + HOUR + 4 * DAY));
    f.clock.advance_ms(3 * DAY);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::Paused { game_id: id }]
    );
    assert_eq!(s.paused_until(id).unwrap(), None);
    let team_of = |user| s.game(id).unwrap().seat_of(user).unwrap().team;
    let tail: Vec<Notice> = notices(&f, id).into_iter().rev().take(1).collect();
    assert_eq!(
        tail,
        [Notice::PauseOver {
            team: team_of(second)
        }]
    );

    // Turned down at once in a duel.
    s.propose_pause(first, id, DAY).unwrap();
    assert_eq!(s.vote_pause(second, id, false).unwrap(), PauseVote::Refused);
    assert!(matches!(
        s.vote_pause(second, id, true),
        Err(ServiceError::NoPauseProposed(_))
    ));
    // Left unanswered: it lapses after a day, and the deadline never moved (the owner gave
    // the player on turn a day more first, so that the lapse comes before it).
    s.extend_deadline(Actor::user(ALICE), id, DAY).unwrap();
    let deadline = s.deadline_of(id).unwrap().unwrap();
    s.propose_pause(first, id, DAY).unwrap();
    f.clock.advance_ms(DAY);
    assert_eq!(
        s.fire_due_timers().unwrap(),
        [Fired::Paused { game_id: id }]
    );
    assert_eq!(
        notices(&f, id).last(),
        Some(&Notice::PauseLapsed {
            team: team_of(first)
        })
    );
    assert_eq!(s.deadline_of(id).unwrap(), Some(deadline));
}

/// In a game of three, a majority of the people playing decides.
#[test]
fn a_pause_in_a_game_of_three_needs_a_majority() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    let mut c = config(&[("turn_time", "1d"), ("reminder", "off")]);
    c.set("players", "3").unwrap();
    let id = s
        .create_lobby(
            Actor::user(ALICE),
            here(),
            jackal::words::Lang::En,
            c,
            Some(1),
        )
        .unwrap();
    s.join(Actor::user(BOB), id, None).unwrap();
    s.join(Actor::user(EVE), id, None).unwrap();
    s.start_with_seed(Actor::user(ALICE), id, 10).unwrap();
    assert_eq!(
        s.propose_pause(ALICE, id, DAY).unwrap(),
        PauseVote::Waiting {
            accepted: 1,
            needed: 2
        }
    );
    // One against leaves a majority possible; the next for decides.
    assert_eq!(
        s.vote_pause(BOB, id, false).unwrap(),
        PauseVote::Waiting {
            accepted: 1,
            needed: 2
        }
    );
    assert!(matches!(
        s.vote_pause(EVE, id, true).unwrap(),
        PauseVote::Started { .. }
    ));
}

/// The owner (or a server admin) gives the player on turn more time; anyone else may not.
#[test]
fn the_owner_extends_a_deadline() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    let id = duel(&f, config(&[("turn_time", "1d"), ("reminder", "3h")]));
    let deadline = s.deadline_of(id).unwrap().unwrap();
    assert!(matches!(
        s.extend_deadline(Actor::user(BOB), id, DAY),
        Err(ServiceError::NotOwner)
    ));
    assert_eq!(
        s.extend_deadline(Actor::user(ALICE), id, DAY).unwrap(),
        deadline + DAY
    );
    let admin = Actor {
        user: EVE,
        admin: true,
    };
    assert_eq!(
        s.extend_deadline(admin, id, HOUR).unwrap(),
        deadline + DAY + HOUR
    );
    assert_eq!(s.deadline_of(id).unwrap(), Some(deadline + DAY + HOUR));
    // The reminder follows the deadline.
    assert_eq!(reminder_times(&f, id), [deadline + DAY + HOUR - 3 * HOUR]);
    let team = on_turn(&f, id);
    let team = s.game(id).unwrap().seat_of(team).unwrap().team;
    assert_eq!(
        notices(&f, id).last(),
        Some(&Notice::Extended {
            team,
            deadline_ms: deadline + DAY + HOUR
        })
    );
}

/// The bot was down through three deadlines: after the restart each fires once, in due order,
/// and firing again does nothing.
#[test]
fn three_overdue_deadlines_fire_once_each_after_a_restart() {
    let f = fixture_at("2026-11-18T12:00:00Z");
    let s = &f.service;
    let ids: Vec<GameId> = (0..3)
        .map(|i| {
            let id = duel(&f, config(&[("turn_time", "1d"), ("reminder", "off")]));
            f.clock.advance_ms(HOUR * (3 - i));
            id
        })
        .collect();
    // The games started hours apart: their deadlines are in that order.
    let due: Vec<i64> = ids
        .iter()
        .map(|id| s.deadline_of(*id).unwrap().unwrap())
        .collect();
    assert!(due.windows(2).all(|w| w[0] < w[1]));
    f.clock.advance_ms(3 * DAY);
    let reopened = f.reopen();
    let after = GameService::new(Arc::new(reopened), f.clock.clone());
    let fired = after.fire_due_timers().unwrap();
    let timed_out: Vec<GameId> = fired
        .iter()
        .filter_map(|f| match f {
            Fired::TimedOut { game_id, .. } => Some(*game_id),
            _ => None,
        })
        .collect();
    assert_eq!(timed_out, ids, "once each, earliest first");
    for id in &ids {
        assert!(after.game(*id).unwrap().ply >= 1, "a bot played the turn");
        assert_eq!(
            notices(&f, *id)
                .iter()
                .filter(|n| matches!(n, Notice::TimedOut { .. }))
                .count(),
            1
        );
    }
    // The next deadlines (a day after each timed-out turn) are due later, not now.
    let again: Vec<Fired> = after
        .fire_due_timers()
        .unwrap()
        .into_iter()
        .filter(|f| matches!(f, Fired::TimedOut { .. }))
        .collect();
    assert!(again.is_empty(), "{again:?}");
}
