//! Lobbies, seats, settings and refusals; export and import.

use super::*;

/// Leaving, random seats, the operating system's seed, kicking a player from a running game,
/// and the games of a channel.
#[test]
fn seats_seeds_and_kicks() {
    let f = fixture();
    let s = &f.service;
    let mut config = small_config();
    config.set("players", "4").unwrap();
    let id = s
        .create_lobby(
            Actor::user(ALICE),
            here(),
            jackal::words::Lang::En,
            config,
            None,
        )
        .unwrap();
    // Without a seat asked for, each player gets a free seat at random: all four differ.
    let mut teams = vec![s.game(id).unwrap().seat_of(ALICE).unwrap().team];
    for user in [BOB, EVE, UserId::new(1003)] {
        teams.push(s.join(Actor::user(user), id, None).unwrap());
    }
    teams.sort();
    assert_eq!(teams, Team::ALL);
    // A player who leaves frees the seat; the owner leaving cancels the lobby.
    let eve = s.game(id).unwrap().seat_of(EVE).unwrap().team;
    s.leave(Actor::user(EVE), id).unwrap();
    assert!(s.game(id).unwrap().team_seat(eve).is_none());
    assert!(matches!(
        s.leave(Actor::user(EVE), id),
        Err(ServiceError::NotYourGame(_))
    ));
    assert_eq!(s.games_here(ChannelId::new(500)).unwrap().len(), 1);
    assert!(matches!(
        s.kick(Actor::user(ALICE), id, eve.number()),
        Err(ServiceError::SeatEmpty(t)) if t == eve
    ));
    assert!(matches!(
        s.kick(Actor::user(ALICE), id, 5),
        Err(ServiceError::NoSuchSeat(5))
    ));
    s.leave(Actor::user(ALICE), id).unwrap();
    assert_eq!(s.game(id).unwrap().status, GameStatus::Cancelled);
    assert!(s.games_here(ChannelId::new(500)).unwrap().is_empty());

    // `start` takes its seed from the operating system and stores it.
    let seeds: Vec<u64> = (0..2)
        .map(|_| {
            let id = s
                .create_lobby(
                    Actor::user(ALICE),
                    here(),
                    jackal::words::Lang::En,
                    small_config(),
                    Some(1),
                )
                .unwrap();
            s.join(Actor::user(BOB), id, Some(2)).unwrap();
            let started = s.start(Actor::user(ALICE), id).unwrap();
            let seed = started.seed.expect("stored at start");
            assert_eq!(s.game(id).unwrap().seed, Some(seed));
            assert_eq!(
                s.position_at(id, 0).unwrap(),
                Game::new(small_config().rules, seed).unwrap()
            );
            seed
        })
        .collect();
    assert_ne!(seeds[0], seeds[1]);

    // Kicking a player from a running game: only the owner (or an admin); a bot plays on.
    let id = duel(&f);
    assert!(matches!(
        s.kick(Actor::user(BOB), id, 1),
        Err(ServiceError::NotOwner)
    ));
    assert_eq!(s.kick(Actor::user(ALICE), id, 2).unwrap(), Kicked::BotPlays);
    assert!(matches!(
        s.kick(Actor::user(ALICE), id, 2),
        Err(ServiceError::AlreadyBot(t)) if t == Team::of(2)
    ));
    // The bot is of the game's timeout level (`easy` unless set).
    let seat = s.game(id).unwrap().seat(2).unwrap().clone();
    assert_eq!(
        (seat.user_id, seat.bot.map(|b| b.name())),
        (None, Some("easy"))
    );
    let mv = first_move(&f, id, ALICE);
    let accepted = s.act(ALICE, id, 0, &mv).unwrap();
    assert_eq!(
        accepted.next,
        Next::Bot {
            team: Team::of(2),
            level: BotLevel::Easy
        }
    );
    assert!(
        s.bot_step(id).unwrap().is_some(),
        "the bot plays the kicked seat"
    );
}

/// A call to the service that is to be refused, and the test of its refusal.
type Attempt<'a> = Box<dyn Fn() -> Result<(), ServiceError> + 'a>;
type IsExpected = fn(&ServiceError) -> bool;

#[test]
fn refusals_change_nothing() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let mv = first_move(&f, id, ALICE);
    let act = |user, game, ply, text: &str| -> Attempt<'_> {
        let text = text.to_string();
        Box::new(move || s.act(user, game, ply, &text).map(drop))
    };
    // Each attempt, and whether its refusal is the right one.
    let refusals: Vec<(&str, Attempt, IsExpected)> = vec![
        ("a stranger moves", act(EVE, id, 0, &mv), |e| {
            matches!(e, ServiceError::NotYourGame(_))
        }),
        ("out of turn", act(BOB, id, 0, &mv), |e| {
            matches!(e, ServiceError::NotYourTurn { .. })
        }),
        ("a unit that is not there", act(ALICE, id, 0, "1 a1"), |e| {
            matches!(e, ServiceError::Illegal(_))
        }),
        ("the ship onto land", act(ALICE, id, 0, "ship g7"), |e| {
            matches!(e, ServiceError::Illegal(_))
        }),
        ("a view from the future", act(ALICE, id, 5, &mv), |e| {
            matches!(e, ServiceError::StaleView { current: 0, .. })
        }),
        (
            "no such game",
            act(ALICE, game_no(999), 0, &mv),
            |e| matches!(e, ServiceError::UnknownGame(g) if g.get() == 999),
        ),
        (
            "joining a started game",
            Box::new(|| s.join(Actor::user(EVE), id, None).map(drop)),
            |e| matches!(e, ServiceError::AlreadyStarted(_)),
        ),
        (
            "configuring a started game",
            Box::new(|| {
                s.configure(Actor::user(ALICE), id, "board_size", "9")
                    .map(drop)
            }),
            |e| matches!(e, ServiceError::AlreadyStarted(_)),
        ),
    ];
    for (what, attempt, expected) in &refusals {
        let before = s.export(id).unwrap();
        match attempt() {
            Err(e) => assert!(expected(&e), "{what}: refused as {e:?}"),
            Ok(()) => panic!("{what}: accepted"),
        }
        assert_eq!(s.export(id).unwrap(), before, "{what}: nothing changed");
    }
    // A double click: the same move again is "already played"; another is stale.
    s.act(ALICE, id, 0, &mv).unwrap();
    let after_one = s.export(id).unwrap();
    assert!(matches!(
        s.act(ALICE, id, 0, &mv),
        Err(ServiceError::AlreadyPlayed)
    ));
    let other = first_move(&f, id, BOB);
    assert!(matches!(
        s.act(BOB, id, 0, &other),
        Err(ServiceError::StaleView {
            current: 1,
            move_number: 2
        })
    ));
    assert_eq!(s.export(id).unwrap(), after_one);
}

/// Refusals say what happened in the words a player sees.
#[test]
fn refusals_read_well() {
    assert_eq!(
        ServiceError::StaleView {
            current: 1,
            move_number: 2
        }
        .to_string(),
        "the board you answered is out of date: the game has moved on to move 2"
    );
    assert_eq!(
        ServiceError::SeatsEmpty(vec![Team::of(3)]).to_string(),
        "seat 3 is still empty: wait for players to join or add bots"
    );
    assert_eq!(
        ServiceError::SeatsEmpty(vec![Team::of(2), Team::of(3), Team::of(4)]).to_string(),
        "seats 2, 3, 4 are still empty: wait for players to join or add bots"
    );
}

/// Finding a channel's games uses indexes, whether the game is in the channel or a thread.
#[test]
fn a_channels_games_are_found_by_index() {
    let f = file_fixture();
    let conn = f.service.store().conn().unwrap();
    let plan: Vec<String> = conn
        .raw()
        .prepare(
            "EXPLAIN QUERY PLAN SELECT g.id FROM games g WHERE (g.channel_id = ?1 OR \
             g.thread_id = ?1) AND g.status IN ('lobby', 'active')",
        )
        .unwrap()
        .query_map([1], |r| r.get(3))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert!(
        plan.iter().all(|step| !step.starts_with("SCAN")),
        "{plan:?}"
    );
    assert!(
        plan.iter().any(|step| step.contains("games_thread")),
        "{plan:?}"
    );
}

#[test]
fn lobby_rules() {
    let f = fixture();
    let s = &f.service;
    let mut config = small_config();
    config.set("players", "3").unwrap();
    let id = s
        .create_lobby(
            Actor::user(ALICE),
            here(),
            jackal::words::Lang::Ru,
            config,
            Some(2),
        )
        .unwrap();
    assert!(matches!(
        s.join(Actor::user(ALICE), id, None),
        Err(ServiceError::AlreadySeated(_))
    ));
    assert!(matches!(
        s.join(Actor::user(BOB), id, Some(2)),
        Err(ServiceError::SeatTaken(t)) if t == Team::of(2)
    ));
    assert!(matches!(
        s.join(Actor::user(BOB), id, Some(4)),
        Err(ServiceError::NoSuchSeat(4))
    ));
    s.join(Actor::user(BOB), id, Some(1)).unwrap();
    assert!(
        matches!(s.start(Actor::user(ALICE), id), Err(ServiceError::SeatsEmpty(v)) if v == [Team::of(3)])
    );
    assert!(matches!(
        s.add_bot(Actor::user(BOB), id, 3, BotLevel::Random),
        Err(ServiceError::NotOwner)
    ));
    assert!(matches!(
        s.configure(Actor::user(ALICE), id, "board_size", "8"),
        Err(ServiceError::BadSetting(_))
    ));
    s.add_bot(Actor::user(ALICE), id, 3, BotLevel::Random)
        .unwrap();
    assert!(matches!(
        s.join(Actor::user(EVE), id, None),
        Err(ServiceError::Full(_))
    ));
    // Shrinking to two players frees seat 3.
    s.configure(Actor::user(ALICE), id, "players", "2").unwrap();
    assert_eq!(s.game(id).unwrap().seats.len(), 2);
    // An admin may cancel someone else's lobby.
    assert!(matches!(
        s.cancel(Actor::user(EVE), id),
        Err(ServiceError::NotOwner)
    ));
    s.cancel(
        Actor {
            user: EVE,
            admin: true,
        },
        id,
    )
    .unwrap();
    assert_eq!(s.game(id).unwrap().status, GameStatus::Cancelled);
    assert!(s.my_games(ALICE, false).unwrap().is_empty());
    assert_eq!(s.my_games(ALICE, true).unwrap().len(), 1);
}

#[test]
fn export_and_import_round_trip() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    for ply in 0..6 {
        let user = if s.game(id).unwrap().state.unwrap().controller() == Team::of(1) {
            ALICE
        } else {
            BOB
        };
        let mv = first_move(&f, id, user);
        s.act(user, id, ply, &mv).unwrap();
    }
    let json = serde_json::to_string(&s.export(id).unwrap()).unwrap();
    let copy = s.import(Actor::user(EVE), here(), &json).unwrap();
    assert_ne!(copy, id);
    assert_eq!(s.game(copy).unwrap().state, s.game(id).unwrap().state);
    assert_eq!(s.history(copy).unwrap(), s.history(id).unwrap());
    // A tampered export is refused whole.
    let mut bad: serde_json::Value = serde_json::from_str(&json).unwrap();
    bad["actions"][2]["action"] = bad["actions"][0]["action"].clone();
    let before = s.my_games(EVE, true).unwrap().len();
    assert!(matches!(
        s.import(Actor::user(EVE), here(), &bad.to_string()),
        Err(ServiceError::BadExport(_))
    ));
    assert!(matches!(
        s.import(Actor::user(EVE), here(), "{}"),
        Err(ServiceError::BadExport(_))
    ));
    assert_eq!(s.my_games(EVE, true).unwrap().len(), before);
}

/// Each turn has one deadline row and, if reminders are on, one reminder row, both for the
/// current ply: a move replaces them in place; a game without reminders has only deadlines.
/// An import keeps how a game ended, refuses seats that cannot be, and records the engine's
/// own notation whatever the file says.
#[test]
fn imports_keep_endings_and_refuse_impossible_seats() {
    let f = fixture();
    let s = &f.service;
    // A resigned duel stays finished, with its result; a cancelled one stays cancelled.
    let resigned = duel(&f);
    s.resign(Actor::user(BOB), resigned).unwrap();
    let cancelled = duel(&f);
    s.cancel(Actor::user(ALICE), cancelled).unwrap();
    for id in [resigned, cancelled] {
        let json = serde_json::to_string(&s.export(id).unwrap()).unwrap();
        let copy = s.import(Actor::user(EVE), here(), &json).unwrap();
        let (copied, original) = (s.game(copy).unwrap(), s.game(id).unwrap());
        assert_eq!(
            (copied.status, &copied.end),
            (original.status, &original.end)
        );
        assert!(matches!(
            s.act(ALICE, copy, 0, "1 d2"),
            Err(ServiceError::Finished(_))
        ));
    }

    let id = duel(&f);
    let mv = first_move(&f, id, ALICE);
    s.act(ALICE, id, 0, &mv).unwrap();
    let good: serde_json::Value = serde_json::to_value(s.export(id).unwrap()).unwrap();
    let refused = |change: &dyn Fn(&mut serde_json::Value), why: &str| {
        let mut e = good.clone();
        change(&mut e);
        match s.import(Actor::user(EVE), here(), &e.to_string()) {
            Err(ServiceError::BadExport(text)) => assert!(text.contains(why), "{text}"),
            other => panic!("expected BadExport({why}), got {other:?}"),
        }
    };
    let before = s.my_games(EVE, true).unwrap().len();
    refused(
        &|e| e["seats"][1]["team"] = 7.into(),
        "seat 7 does not exist",
    );
    refused(
        &|e| e["seats"][1]["team"] = 1.into(),
        "seat 1 is listed twice",
    );
    refused(
        &|e| e["seats"][1]["user_id"] = serde_json::Value::Null,
        "a player or a bot",
    );
    refused(
        &|e| {
            e["seats"][1]["user_id"] = serde_json::Value::Null;
            e["seats"][1]["bot_level"] = "genius".into();
        },
        "seat 2: unknown bot level `genius` (levels: random, easy, normal, hard)",
    );
    refused(
        &|e| {
            e["seats"].as_array_mut().unwrap().pop();
        },
        "every seat filled",
    );
    assert_eq!(s.my_games(EVE, true).unwrap().len(), before);
    // The notation stored is the engine's, not the file's.
    let mut forged = good.clone();
    forged["actions"][0]["notation"] = "anything at all".into();
    let copy = s
        .import(Actor::user(EVE), here(), &forged.to_string())
        .unwrap();
    assert_eq!(s.history(copy).unwrap()[0].notation, mv);
}

/// The level of the bot that plays for a missing player is a setting: an unknown level is
/// refused with the valid ones.
#[test]
fn the_timeout_level_is_a_setting() {
    let f = fixture();
    let s = &f.service;
    let id = s
        .create_lobby(
            Actor::user(ALICE),
            here(),
            jackal::words::Lang::En,
            small_config(),
            Some(1),
        )
        .unwrap();
    let config = s
        .configure(Actor::user(ALICE), id, "timeout_level", "normal")
        .unwrap();
    assert_eq!(config.timeout_level, BotLevel::Normal);
    let refused = s
        .configure(Actor::user(ALICE), id, "timeout_level", "genius")
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "bad setting: `genius` is not a valid value for `timeout_level` (expected random, easy, normal or hard)"
    );
    assert_eq!(s.game(id).unwrap().config.timeout_level, BotLevel::Normal);
}

/// `hard` is offered as every other level: as the timeout level, and in a seat, stored and
/// read back as `hard`.
#[test]
fn the_hard_level_takes_a_seat_and_the_timeout() {
    let f = fixture();
    let s = &f.service;
    let id = s
        .create_lobby(
            Actor::user(ALICE),
            here(),
            jackal::words::Lang::En,
            small_config(),
            Some(1),
        )
        .unwrap();
    let config = s
        .configure(Actor::user(ALICE), id, "timeout_level", "hard")
        .unwrap();
    assert_eq!(config.timeout_level, BotLevel::Hard);
    s.add_bot(Actor::user(ALICE), id, 2, BotLevel::Hard)
        .unwrap();
    let game = s.game(id).unwrap();
    assert_eq!(game.config.timeout_level, BotLevel::Hard);
    assert_eq!(game.seat(2).unwrap().bot, Some(BotLevel::Hard));
}
