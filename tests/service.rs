//! The game service on a real SQLite file: lobby, turns, refusals, deadlines, history,
//! export/import, migrations, corrupt snapshots and concurrent clicks.

use std::sync::Arc;

use jackal::ai::BotLevel;
use jackal::engine::{Game, Team};
use jackal::game::{
    Actor, Clock, Damage, Fired, GameConfig, GameService, Location, ManualClock, Next, Notice,
    OutboxMessage, ServiceError, Target,
};
use jackal::store::{self, GameStatus, Store, StoreError};

const ALICE: u64 = 1001;
const BOB: u64 = 1002;
const EVE: u64 = 1666;
const HOUR: i64 = 3_600_000;

struct Fixture {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
    clock: Arc<ManualClock>,
    service: GameService,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("jackal.db");
    let store = Arc::new(Store::open(&path).unwrap());
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    let service = GameService::new(store, clock.clone());
    Fixture {
        _dir: dir,
        path,
        clock,
        service,
    }
}

fn here() -> Location {
    Location {
        guild_id: Some(1),
        channel_id: Some(500),
        thread_id: None,
    }
}

fn small_config() -> GameConfig {
    let mut c = GameConfig::default();
    c.set("board_size", "7").unwrap();
    c
}

/// A started duel: Alice team 1, Bob team 2.
fn duel(f: &Fixture) -> i64 {
    duel_with(f, small_config(), 42)
}

/// A started duel with this configuration and map seed: Alice team 1, Bob team 2.
fn duel_with(f: &Fixture, config: GameConfig, seed: u64) -> i64 {
    let s = &f.service;
    let id = s
        .create_lobby(
            Actor::user(ALICE),
            here(),
            jackal::words::Lang::En,
            config,
            Some(1),
        )
        .unwrap();
    assert_eq!(s.join(Actor::user(BOB), id, None).unwrap(), Team::of(2));
    s.start_with_seed(Actor::user(ALICE), id, seed).unwrap();
    id
}

/// A started game of two random bots, set up by Alice (who gives her seat to a bot).
fn bots_duel(f: &Fixture, location: Location, config: GameConfig, seed: u64) -> i64 {
    let s = &f.service;
    let owner = Actor::user(ALICE);
    let id = s
        .create_lobby(owner, location, jackal::words::Lang::En, config, Some(1))
        .unwrap();
    s.add_bot(owner, id, 2, BotLevel::Random).unwrap();
    s.kick(owner, id, 1).unwrap();
    s.add_bot(owner, id, 1, BotLevel::Random).unwrap();
    s.start_with_seed(owner, id, seed).unwrap();
    id
}

/// A game's timer rows: kind, ply, due time and fired time.
fn timers_of(f: &Fixture, id: i64) -> Vec<(store::TimerKind, u32, i64, Option<i64>)> {
    let conn = f.service.store().conn().unwrap();
    store::game_timers(&conn, id)
        .unwrap()
        .into_iter()
        .map(|t| (t.kind, t.ply, t.due_at, t.fired_at))
        .collect()
}

fn first_move(f: &Fixture, id: i64, user: u64) -> String {
    f.service.legal_moves(user, id).unwrap()[0].notation.clone()
}

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
    for user in [BOB, EVE, 1003] {
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
    assert_eq!(s.games_here(500).unwrap().len(), 1);
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
    assert!(s.games_here(500).unwrap().is_empty());

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
    s.kick(Actor::user(ALICE), id, 2).unwrap();
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
fn refusals_change_nothing() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    let before = s.export(id).unwrap();
    let mv = first_move(&f, id, ALICE);
    assert!(matches!(
        s.act(EVE, id, 0, &mv),
        Err(ServiceError::NotYourGame(_))
    ));
    assert!(matches!(
        s.act(BOB, id, 0, &mv),
        Err(ServiceError::NotYourTurn { .. })
    ));
    assert!(matches!(
        s.act(ALICE, id, 0, "1 a1"),
        Err(ServiceError::Illegal(_))
    ));
    assert!(matches!(
        s.act(ALICE, id, 0, "ship g7"),
        Err(ServiceError::Illegal(_))
    ));
    assert!(matches!(
        s.act(ALICE, id, 5, &mv),
        Err(ServiceError::StaleView { current: 0, .. })
    ));
    assert!(matches!(
        s.act(ALICE, 999, 0, &mv),
        Err(ServiceError::UnknownGame(999))
    ));
    assert!(matches!(
        s.join(Actor::user(EVE), id, None),
        Err(ServiceError::AlreadyStarted(_))
    ));
    assert!(matches!(
        s.configure(Actor::user(ALICE), id, "board_size", "9"),
        Err(ServiceError::AlreadyStarted(_))
    ));
    assert_eq!(s.export(id).unwrap(), before);
    // A double click: the same move again is "already played"; another is stale.
    s.act(ALICE, id, 0, &mv).unwrap();
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
    let f = fixture();
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
        fresh.play(&a.action).unwrap();
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
    let cold = GameService::new(Arc::new(Store::open(&f.path).unwrap()), f.clock.clone());
    assert_eq!(cold.game(id).unwrap().moves, last);
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
        "seat 2: unknown bot level `genius` (levels: random, easy, normal)",
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

/// A game whose stored data is damaged does not hold up the other games' timers: its timer
/// fails once, is set aside, and the others fire.
#[test]
fn a_broken_game_does_not_stop_other_timers() {
    let f = fixture();
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

#[test]
fn a_corrupt_snapshot_falls_back_to_replay() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    for ply in 0..26 {
        let g = s.game(id).unwrap().state.unwrap();
        if g.is_over() {
            break;
        }
        let user = if g.controller() == Team::of(1) {
            ALICE
        } else {
            BOB
        };
        let mv = first_move(&f, id, user);
        s.act(user, id, ply, &mv).unwrap();
    }
    let good = s.game(id).unwrap().state;
    let conn = s.store().conn().unwrap();
    let corrupted = conn
        .raw()
        .execute("UPDATE snapshots SET state = '{not json'", [])
        .unwrap();
    assert_eq!(corrupted, 1, "a snapshot was written at ply 25");
    // A restarted service has no state in memory: it reads the snapshot, finds it corrupt,
    // and replays from the seed.
    let restarted = GameService::new(Arc::new(Store::open(&f.path).unwrap()), f.clock.clone());
    assert_eq!(restarted.game(id).unwrap().state, good);
}

#[test]
fn migrations_apply_to_empty_and_refuse_newer_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    // Every earlier version, empty (0) included; `migrating_a_version_1_file_keeps_its_games`
    // checks that a file with games in it comes through whole.
    for version in 0..store::MIGRATION_SQL.len() {
        let p = dir.path().join(format!("v{version}.db"));
        let conn = rusqlite::Connection::open(&p).unwrap();
        for sql in &store::MIGRATION_SQL[..version] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", version as i64)
            .unwrap();
        drop(conn);
        let s = Store::open(&p).unwrap();
        assert_eq!(
            store::schema_version(&s.conn().unwrap()).unwrap(),
            store::MIGRATION_SQL.len()
        );
    }
    drop(Store::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    match Store::open(&path) {
        Err(e @ StoreError::TooNew { found: 99, .. }) => {
            assert!(e.to_string().contains("newer jackal"));
        }
        other => panic!("expected TooNew, got {:?}", other.err()),
    }
}

/// A game in progress in a file at schema version 1 (a ply counter on the games row, actions
/// with a separate unique index, timer rows with ids) comes through migration 2 whole: same
/// ply and state, its open deadline and reminder, its unsent message, and it plays on.
#[test]
fn migrating_a_version_1_file_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1.db");
    let config = small_config();
    let mut game = Game::new(config.rules.clone(), 42).unwrap();
    let now = 1_700_000_000_000_i64;
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(store::MIGRATION_SQL[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        let plies = 30;
        conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, status, settings, seed, owner_id, \
             created_at, started_at, ply) VALUES (7, 1, 500, 'active', ?1, 42, ?2, ?3, ?3, ?4)",
            rusqlite::params![
                serde_json::to_string(&config).unwrap(),
                ALICE as i64,
                now,
                plies
            ],
        )
        .unwrap();
        for (team, user) in [(1, ALICE), (2, BOB)] {
            conn.execute(
                "INSERT INTO seats (game_id, team, user_id, joined_at) VALUES (7, ?1, ?2, ?3)",
                rusqlite::params![team, user as i64, now],
            )
            .unwrap();
        }
        for ply in 1..=plies {
            let action = game.legal_actions()[0].action;
            let team = game.turn();
            let notation = game.notation(&action);
            let events = game.play(&action).unwrap();
            conn.execute(
                "INSERT INTO actions (game_id, ply, team, user_id, notation, action, events, \
                 created_at) VALUES (7, ?1, ?2, NULL, ?3, ?4, ?5, ?6)",
                rusqlite::params![
                    ply,
                    team.number(),
                    notation,
                    serde_json::to_string(&action).unwrap(),
                    serde_json::to_string(&events).unwrap(),
                    now
                ],
            )
            .unwrap();
        }
        // Version 1 kept fired timers beside the open ones.
        conn.execute_batch(&format!(
            "INSERT INTO timers (game_id, kind, ply, due_at, fired_at) VALUES \
             (7, 'reminder', 29, {a}, {a}), (7, 'deadline', 30, {b}, NULL), \
             (7, 'reminder', 30, {c}, NULL); \
             INSERT INTO outbox (game_id, kind, target, payload, created_at, next_at, sent_at) \
             VALUES (7, 'notice', '{{\"to\":\"channel\",\"id\":5}}', \
             '{{\"kind\":\"notice\",\"game_id\":7,\"text\":\"Team 2 resigned; a bot plays on.\"}}', \
             {now}, {now}, {now}), \
             (7, 'notice', '{{\"to\":\"channel\",\"id\":5}}', \
             '{{\"kind\":\"notice\",\"game_id\":7,\"text\":\"Team 1 missed 3 deadlines in a row; a bot takes the seat.\"}}', \
             {now}, {now}, NULL), \
             (7, 'board_post', '{{\"to\":\"channel\",\"id\":5}}', \
             '{{\"kind\":\"board_post\",\"game_id\":7,\"first_ply\":29,\"ply\":30,\"lines\":[\"team 1: 1 d2\"]}}', \
             {now}, {now}, NULL), \
             (7, 'notice', '{{}}', 'not JSON at all', {now}, {now}, NULL);",
            a = now - HOUR,
            b = now + 24 * HOUR,
            c = now + 23 * HOUR,
        ))
        .unwrap();
    }
    let clock = Arc::new(ManualClock::new(now));
    let service = GameService::new(Arc::new(Store::open(&path).unwrap()), clock);
    let conn = service.store().conn().unwrap();
    assert_eq!(
        store::schema_version(&conn).unwrap(),
        store::MIGRATION_SQL.len()
    );
    let loaded = service.game(7).unwrap();
    assert_eq!(loaded.ply, 30);
    assert_eq!(loaded.state.as_ref(), Some(&game));
    let timers: Vec<_> = store::game_timers(&conn, 7)
        .unwrap()
        .into_iter()
        .map(|t| (t.kind, t.ply, t.due_at, t.fired_at))
        .collect();
    assert_eq!(
        timers,
        vec![
            (store::TimerKind::Reminder, 30, now + 23 * HOUR, None),
            (store::TimerKind::Deadline, 30, now + 24 * HOUR, None),
        ]
    );
    // Sentences became values; what cannot be read is closed, not sent.
    let pending: Vec<_> = service
        .pending_messages()
        .unwrap()
        .into_iter()
        .map(|q| (q.target, q.message))
        .collect();
    assert_eq!(
        pending,
        [
            (
                Target::Game,
                OutboxMessage::Notice {
                    game_id: 7,
                    notice: Notice::TakenOver {
                        team: Team::of(1),
                        missed: 3
                    }
                }
            ),
            (
                Target::Game,
                OutboxMessage::BoardPost {
                    game_id: 7,
                    first_ply: 29,
                    ply: 30,
                    deadline_ms: None
                }
            ),
        ]
    );
    let rows = store::game_outbox(&conn, 7).unwrap();
    assert!(rows[3].given_up && rows[3].sent_at.is_some(), "{rows:?}");
    let sent: OutboxMessage = serde_json::from_str(&rows[0].payload).unwrap();
    assert_eq!(
        sent,
        OutboxMessage::Notice {
            game_id: 7,
            notice: Notice::Resigned { team: Team::of(2) }
        }
    );
    drop(conn);
    let user = match loaded.team_seat(game.controller()).and_then(|s| s.user_id) {
        Some(user) => user,
        None => panic!("a human seat is on turn"),
    };
    let text = service.legal_moves(user, 7).unwrap()[0].notation.clone();
    assert_eq!(service.act(user, 7, 30, &text).unwrap().ply, 31);
    assert!(matches!(
        service.act(user, 7, 30, &text),
        Err(ServiceError::AlreadyPlayed)
    ));
    // Actions recorded before the log had its digest chain (migration 0007) are a prefix the
    // chain starts after: the game still replays, after a restart too.
    let played = service.game(7).unwrap().state;
    let clock = Arc::new(ManualClock::new(now));
    let restarted = GameService::new(Arc::new(Store::open(&path).unwrap()), clock);
    assert_eq!(restarted.game(7).unwrap().state, played);
}

/// Every connection, pooled or newly opened, is in WAL mode with foreign keys enforced, waits
/// for another writer instead of failing, and flushes each commit to the disk unless the
/// operator chose otherwise.
#[test]
fn every_connection_is_configured() {
    let dir = tempfile::tempdir().unwrap();
    let settings = |store: &Store| -> Vec<(String, i64, i64, i64)> {
        // Two connections out at once: the pooled one and a newly opened one.
        let a = store.conn().unwrap();
        let b = store.conn().unwrap();
        [&a, &b]
            .iter()
            .map(|c| {
                let get = |pragma: &str| -> i64 {
                    c.raw()
                        .pragma_query_value(None, pragma, |r| r.get(0))
                        .unwrap()
                };
                let journal: String = c
                    .raw()
                    .pragma_query_value(None, "journal_mode", |r| r.get(0))
                    .unwrap();
                (
                    journal,
                    get("foreign_keys"),
                    get("busy_timeout"),
                    get("synchronous"),
                )
            })
            .collect()
    };
    let full = Store::open(dir.path().join("full.db")).unwrap();
    assert_eq!(full.durability(), store::Durability::Full);
    // synchronous: 2 is FULL, 1 is NORMAL.
    let expected = ("wal".to_string(), 1, 10_000, 2);
    assert_eq!(settings(&full), [expected.clone(), expected]);
    let normal = Store::open_with(dir.path().join("normal.db"), store::Durability::Normal).unwrap();
    let expected = ("wal".to_string(), 1, 10_000, 1);
    assert_eq!(settings(&normal), [expected.clone(), expected]);
    assert_eq!(
        store::Durability::parse("Normal"),
        Some(store::Durability::Normal)
    );
    assert_eq!(store::Durability::parse("off"), None);
    // Foreign keys at work: a seat of a game that does not exist is refused.
    let conn = full.conn().unwrap();
    let orphan = conn.raw().execute(
        "INSERT INTO seats (game_id, team, user_id, joined_at) VALUES (404, 1, 1, 0)",
        [],
    );
    assert!(orphan.is_err(), "{orphan:?}");
}

/// The action log is append-only in the file itself: a recorded action can be neither changed
/// nor removed, by any program; deleting a whole game still takes its actions with it.
#[test]
fn the_action_log_is_append_only() {
    let f = fixture();
    let id = duel(&f);
    let mv = first_move(&f, id, ALICE);
    f.service.act(ALICE, id, 0, &mv).unwrap();
    let conn = f.service.store().conn().unwrap();
    let changed = conn
        .raw()
        .execute("UPDATE actions SET notation = 'x' WHERE game_id = ?1", [id]);
    assert!(
        changed.unwrap_err().to_string().contains("append-only"),
        "an action was changed"
    );
    let removed = conn
        .raw()
        .execute("DELETE FROM actions WHERE game_id = ?1", [id]);
    assert!(
        removed.unwrap_err().to_string().contains("append-only"),
        "an action was removed"
    );
    assert_eq!(f.service.game(id).unwrap().ply, 1);
    conn.raw()
        .execute("DELETE FROM games WHERE id = ?1", [id])
        .unwrap();
    let left: i64 = conn
        .raw()
        .query_row(
            "SELECT COUNT(*) FROM actions WHERE game_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 0);
}

#[test]
fn a_hundred_simultaneous_clicks_play_once() {
    let f = fixture();
    let id = duel(&f);
    let mv = first_move(&f, id, ALICE);
    let service = Arc::new(f.service);
    let threads: Vec<_> = (0..100)
        .map(|_| {
            let s = service.clone();
            let mv = mv.clone();
            std::thread::spawn(move || s.act(ALICE, id, 0, &mv))
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let accepted = results.iter().filter(|r| r.is_ok()).count();
    let already = results
        .iter()
        .filter(|r| matches!(r, Err(ServiceError::AlreadyPlayed)))
        .count();
    assert_eq!((accepted, already), (1, 99));
    assert_eq!(service.game(id).unwrap().ply, 1);
    let _ = &f.path;
}

#[test]
fn different_games_proceed_in_parallel() {
    let f = fixture();
    let ids: Vec<i64> = (0..4).map(|_| duel(&f)).collect();
    let service = Arc::new(f.service);
    let threads: Vec<_> = ids
        .iter()
        .map(|&id| {
            let s = service.clone();
            std::thread::spawn(move || {
                for ply in 0..10 {
                    let g = s.game(id).unwrap().state.unwrap();
                    let user = if g.controller() == Team::of(1) {
                        ALICE
                    } else {
                        BOB
                    };
                    let mv = s.legal_moves(user, id).unwrap()[0].notation.clone();
                    s.act(user, id, ply, &mv).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    for id in ids {
        assert_eq!(service.game(id).unwrap().ply, 10);
    }
}

/// A started game of two bots of `level` on a `size`×`size` board.
fn bots_of_level(f: &Fixture, level: BotLevel, size: &str, seed: u64) -> i64 {
    let s = &f.service;
    let owner = Actor::user(ALICE);
    let mut config = GameConfig::default();
    config.set("board_size", size).unwrap();
    let id = s
        .create_lobby(owner, here(), jackal::words::Lang::En, config, Some(1))
        .unwrap();
    s.add_bot(owner, id, 2, level).unwrap();
    s.kick(owner, id, 1).unwrap();
    s.add_bot(owner, id, 1, level).unwrap();
    s.start_with_seed(owner, id, seed).unwrap();
    id
}

/// The scheduler fires a `normal` bot's timer. The bot thinks (about a second) on a read of
/// the game: meanwhile SQLite's write lock is free for every other game's moves, and the move
/// is committed after.
#[test]
fn a_thinking_bot_leaves_the_write_lock_free() {
    let f = fixture();
    let id = bots_of_level(&f, BotLevel::Normal, "13", 5);
    let s = &f.service;
    let (free, thinking, fired) = std::thread::scope(|scope| {
        let firing = scope.spawn(|| s.fire_due_timers().unwrap());
        std::thread::sleep(std::time::Duration::from_millis(300));
        let raw = rusqlite::Connection::open(&f.path).unwrap();
        raw.busy_timeout(std::time::Duration::ZERO).unwrap();
        // Another writer takes the lock at once and gives it back.
        let free = raw.execute_batch("BEGIN IMMEDIATE; ROLLBACK;");
        let thinking = !firing.is_finished();
        (free, thinking, firing.join().unwrap())
    });
    assert!(thinking, "the bot was still thinking");
    assert!(free.is_ok(), "the bot held the write lock: {free:?}");
    assert_eq!(
        fired,
        [Fired::BotMoved {
            game_id: id,
            team: Team::of(1)
        }]
    );
    assert_eq!(s.game(id).unwrap().ply, 1);
}

/// Two callers ask for the same bot's move at once: both think about the same position, one
/// commits, the other finds that the game moved meanwhile and thinks again about the new one.
/// Nothing is played twice, and the game replays.
#[test]
fn a_move_thought_out_for_an_old_position_is_not_played() {
    let f = fixture();
    let id = bots_of_level(&f, BotLevel::Normal, "9", 3);
    let s = &f.service;
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| s.bot_step(id).unwrap());
        let b = scope.spawn(|| s.bot_step(id).unwrap());
        (a.join().unwrap(), b.join().unwrap())
    });
    let mut plies = [a.unwrap().ply, b.unwrap().ply];
    plies.sort();
    assert_eq!(plies, [1, 2]);
    let export = s.export(id).unwrap();
    let mut replayed = Game::new(export.config.rules.clone(), 3).unwrap();
    for a in &export.actions {
        replayed.play(&a.action).unwrap();
    }
    assert_eq!(s.game(id).unwrap().state.unwrap(), replayed);
}

/// A bot's move is told like a person's: a board post of its ply to the game's channel, and
/// the next player's "your turn"; its history entry narrates its events the same way.
#[test]
fn a_bots_move_is_posted_like_a_persons() {
    let f = fixture();
    let s = &f.service;
    let owner = Actor::user(ALICE);
    let id = s
        .create_lobby(
            owner,
            here(),
            jackal::words::Lang::En,
            small_config(),
            Some(1),
        )
        .unwrap();
    s.add_bot(owner, id, 2, BotLevel::Easy).unwrap();
    s.start_with_seed(owner, id, 12).unwrap();
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
        "bad setting: timeout_level: unknown bot level `genius` (levels: random, easy, normal)"
    );
    assert_eq!(s.game(id).unwrap().config.timeout_level, BotLevel::Normal);
}

/// Plays `plies` first-listed moves in a duel (fewer if it ends), through `f`'s service.
fn play_plies(f: &Fixture, id: i64, plies: u32) {
    let s = &f.service;
    for ply in 0..plies {
        let g = s.game(id).unwrap().state.unwrap();
        if g.is_over() {
            break;
        }
        let user = if g.controller() == Team::of(1) {
            ALICE
        } else {
            BOB
        };
        let mv = first_move(f, id, user);
        s.act(user, id, ply, &mv).unwrap();
    }
}

/// The service as after a restart: nothing in memory, everything read from the file.
fn restarted(f: &Fixture) -> GameService {
    GameService::new(Arc::new(Store::open(&f.path).unwrap()), f.clock.clone())
}

fn damage_of<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> (i64, Damage) {
    match result {
        Err(ServiceError::Damaged { game, damage }) => (game, damage),
        other => panic!("expected a damaged game, got {other:?}"),
    }
}

/// A game whose stored settings or seed were edited into something the program never writes
/// (a board side of 8 or 200, an active game without a seed) is named with what is wrong,
/// wherever it is loaded; before, loading it panicked. Every other game loads and plays on,
/// and its timers fire.
#[test]
fn a_damaged_game_is_named_and_the_others_play_on() {
    let f = fixture();
    let healthy = duel(&f);
    let size8 = duel(&f);
    let size200 = duel(&f);
    let no_seed = duel(&f);
    let conn = f.service.store().conn().unwrap();
    for (id, size) in [(size8, 8), (size200, 200)] {
        conn.raw()
            .execute(
                "UPDATE games SET settings = json_set(settings, '$.rules.board_size', ?2) \
             WHERE id = ?1",
                [id, size],
            )
            .unwrap();
    }
    conn.raw()
        .execute("UPDATE games SET seed = NULL WHERE id = ?1", [no_seed])
        .unwrap();
    drop(conn);
    let s = restarted(&f);
    for id in [size8, size200] {
        let (game, damage) = damage_of(s.game(id));
        assert_eq!(game, id);
        assert!(matches!(&damage, Damage::Settings(why) if why.contains("board_size")));
        damage_of(s.position_at(id, 0));
        damage_of(s.legal_moves(ALICE, id));
    }
    let refused = s.game(no_seed).unwrap_err();
    assert_eq!(
        refused.to_string(),
        format!("game #{no_seed} is damaged: it is active but has no seed")
    );
    damage_of(s.act(ALICE, no_seed, 0, "1 d2"));
    // The healthy game, in the same file, on the same service.
    let mv = first_move(&f, healthy, ALICE);
    assert_eq!(s.act(ALICE, healthy, 0, &mv).unwrap().ply, 1);
    f.clock.advance_ms(48 * HOUR);
    let fired = s.fire_due_timers().unwrap();
    for id in [size8, size200, no_seed] {
        assert!(
            fired
                .iter()
                .any(|x| matches!(x, Fired::Failed { game_id, error } if *game_id == id && error.contains("damaged"))),
            "{fired:?}"
        );
    }
    assert!(
        fired.contains(&Fired::TimedOut {
            game_id: healthy,
            team: Team::of(2)
        }),
        "{fired:?}"
    );
}

/// A snapshot is checked against its game before it stands in for the log: one copied from
/// another game (with or without its checksum), or with its state edited, is not used, and
/// the game replays from its log to the right state. Before, the other game's state was
/// taken as this one's.
#[test]
fn a_snapshot_that_is_not_its_games_is_not_used() {
    let f = fixture();
    let mine = duel_with(&f, small_config(), 42);
    let other = duel_with(&f, small_config(), 43);
    play_plies(&f, mine, 26);
    play_plies(&f, other, 26);
    let good = f.service.game(mine).unwrap().state.unwrap();
    assert_eq!(good.ply(), 26, "both games reach their snapshot at ply 25");
    let copies = [
        // Another game's row, checksum and all.
        "UPDATE snapshots SET (state, checksum) = (SELECT state, checksum FROM snapshots \
         WHERE game_id = ?2 AND ply = 25) WHERE game_id = ?1 AND ply = 25",
        // Another game's state, without a checksum (as if written before checksums).
        "UPDATE snapshots SET (state, checksum) = (SELECT state, NULL FROM snapshots \
         WHERE game_id = ?2 AND ply = 25) WHERE game_id = ?1 AND ply = 25",
        // Its own state, edited: a score that was never made.
        "UPDATE snapshots SET state = json_set(state, '$.scores[0]', 9) \
         WHERE game_id = ?1 AND ply = 25 AND ?2 IS NOT NULL",
    ];
    for sql in copies {
        let conn = f.service.store().conn().unwrap();
        let saved: (String, Option<Vec<u8>>) = conn
            .raw()
            .query_row(
                "SELECT state, checksum FROM snapshots WHERE game_id = ?1 AND ply = 25",
                [mine],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(conn.raw().execute(sql, [mine, other]).unwrap(), 1, "{sql}");
        assert_eq!(
            restarted(&f).game(mine).unwrap().state.as_ref(),
            Some(&good),
            "{sql}"
        );
        assert_eq!(
            restarted(&f).position_at(mine, 25).unwrap(),
            f.service.position_at(mine, 25).unwrap()
        );
        conn.raw()
            .execute(
                "UPDATE snapshots SET state = ?2, checksum = ?3 WHERE game_id = ?1 AND ply = 25",
                rusqlite::params![mine, saved.0, saved.1],
            )
            .unwrap();
    }
    // The snapshot as written is used, and plays on.
    let s = restarted(&f);
    assert_eq!(s.game(mine).unwrap().state, Some(good));
}

/// Replaces the action recorded at `ply` of game `id` by another move legal there, as a hand
/// edit of the file would (dropping the log's append-only trigger first, migration 0003).
fn change_action(f: &Fixture, id: i64, ply: u32) {
    let conn = f.service.store().conn().unwrap();
    conn.raw()
        .execute_batch("DROP TRIGGER IF EXISTS actions_no_update")
        .unwrap();
    let recorded = store::action_at(&conn, id, ply).unwrap().unwrap().action;
    let other = f
        .service
        .position_at(id, ply - 1)
        .unwrap()
        .legal_actions()
        .into_iter()
        .map(|l| serde_json::to_string(&l.action).unwrap())
        .find(|a| *a != recorded)
        .expect("another legal move");
    conn.raw()
        .execute(
            "UPDATE actions SET action = ?3 WHERE game_id = ?1 AND ply = ?2",
            rusqlite::params![id, ply, other],
        )
        .unwrap();
}

/// An action changed in the file after it was recorded breaks the digest chained over the
/// log: a replay that reaches it names the game and the ply instead of playing it. Before,
/// the changed action (another legal move) was played silently.
#[test]
fn an_action_changed_after_it_was_recorded_is_named() {
    let f = fixture();
    let above = duel(&f);
    let under = duel(&f);
    let bystander = duel(&f);
    play_plies(&f, above, 30);
    play_plies(&f, under, 30);
    // After the latest snapshot (ply 25): every load replays it.
    change_action(&f, above, 28);
    let s = restarted(&f);
    assert_eq!(
        damage_of(s.game(above)),
        (above, Damage::Edited { ply: 28 })
    );
    // Under the snapshot: the latest state comes from the snapshot, which is not read again
    // (a load stays O(1) in the game's length), but any replay that passes it names it.
    change_action(&f, under, 10);
    let s = restarted(&f);
    assert_eq!(s.game(under).unwrap().ply, 30);
    assert_eq!(
        damage_of(s.position_at(under, 12)),
        (under, Damage::Edited { ply: 10 })
    );
    // The other games of the file are not touched by it.
    let mv = first_move(&f, bystander, ALICE);
    assert_eq!(s.act(ALICE, bystander, 0, &mv).unwrap().ply, 1);
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
