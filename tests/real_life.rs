//! Games that survive real life, at the service level on a manual clock: the timeout
//! policies and taking a seat back, per-player reminders, vacations, pauses and the digest.

use std::sync::Arc;

use jackal::engine::Team;
use jackal::game::{
    Actor, Clock, Fired, GameConfig, GameService, Location, ManualClock, Notice, OutboxMessage,
    ServiceError,
};
use jackal::store::{self, Store};

const ALICE: u64 = 1001;
const BOB: u64 = 1002;
const EVE: u64 = 1666;
const HOUR: i64 = 3_600_000;

struct Fixture {
    _dir: tempfile::TempDir,
    clock: Arc<ManualClock>,
    service: GameService,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(Store::open(dir.path().join("jackal.db")).unwrap());
    // 2023-11-14 22:13:20 UTC.
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    let service = GameService::new(store, clock.clone());
    Fixture {
        _dir: dir,
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

fn config(settings: &[(&str, &str)]) -> GameConfig {
    let mut c = GameConfig::default();
    c.set("board_size", "7").unwrap();
    for (id, value) in settings {
        c.set(id, value).unwrap();
    }
    c
}

/// A started duel: Alice team 1, Bob team 2.
fn duel(f: &Fixture, config: GameConfig) -> i64 {
    let s = &f.service;
    let id = s
        .create_lobby(Actor::user(ALICE), here(), "en", config, Some(1))
        .unwrap();
    s.join(Actor::user(BOB), id, None).unwrap();
    s.start_with_seed(Actor::user(ALICE), id, 10).unwrap();
    id
}

fn first_move(f: &Fixture, id: i64, user: u64) -> String {
    f.service.legal_moves(user, id).unwrap()[0].notation.clone()
}

/// Plays `user`'s first legal move, and the first answer to any choice it leads to.
fn play_turn(f: &Fixture, id: i64, user: u64) {
    let s = &f.service;
    let team = s.load(id).unwrap().seat_of(user).unwrap().team;
    loop {
        let ply = s.load(id).unwrap().row.ply;
        s.act(user, id, ply, &first_move(f, id, user)).unwrap();
        let loaded = s.load(id).unwrap();
        if loaded.game.unwrap().controller() != Team::of(team) {
            return;
        }
    }
}

fn notices(f: &Fixture, id: i64) -> Vec<Notice> {
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
    let loaded = s.load(id).unwrap();
    assert_eq!(loaded.row.ply, 1, "one action: the pass");
    assert_eq!(loaded.game.as_ref().unwrap().controller(), Team::of(2));
    assert_eq!(s.history(id).unwrap()[0].notation, "pass");
    assert_eq!(loaded.seat(1).unwrap().user_id, Some(ALICE));
    assert_eq!(notices(&f, id), [Notice::Passed { team: 1 }]);
    // Bob's deadline runs from his turn's start.
    assert_eq!(
        s.next_timer_due().unwrap(),
        Some(f.clock.now_ms() + 12 * HOUR)
    );

    play_turn(&f, id, BOB);
    f.clock.advance_ms(12 * HOUR);
    s.fire_due_timers().unwrap();
    let seat = s.load(id).unwrap().seat(1).unwrap().clone();
    assert_eq!((seat.user_id, seat.away_user_id), (None, Some(ALICE)));
    assert_eq!(
        notices(&f, id),
        [
            Notice::Passed { team: 1 },
            Notice::TakenOver { team: 1, missed: 2 }
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
    let before = s.load(id).unwrap().row.ply;
    assert_eq!(s.reclaim_seat(ALICE, id).unwrap(), 1);
    let seat = s.load(id).unwrap().seat(1).unwrap().clone();
    assert_eq!(
        (
            seat.user_id,
            seat.away_user_id,
            seat.bot_level,
            seat.missed_deadlines
        ),
        (Some(ALICE), None, None, 0)
    );
    assert!(matches!(
        s.reclaim_seat(ALICE, id),
        Err(ServiceError::AlreadySeated(_))
    ));
    play_turn(&f, id, BOB);
    let loaded = s.load(id).unwrap();
    assert!(loaded.row.ply > before);
    assert_eq!(loaded.game.as_ref().unwrap().controller(), Team::of(1));
    assert!(
        s.fire_due_timers().unwrap().is_empty(),
        "no bot moves for Alice"
    );
    assert_eq!(notices(&f, id).last(), Some(&Notice::Reclaimed { team: 1 }));
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
    let ply = s.load(id).unwrap().row.ply;
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
                OutboxMessage::YourTurn { ply: p, team: 1, .. } if p == ply
            )
        })
        .count();
    assert_eq!(told, 1, "Alice is told it is her turn");
    assert!(!s.legal_moves(ALICE, id).unwrap().is_empty());
}
