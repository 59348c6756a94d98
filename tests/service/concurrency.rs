//! Clicks at once, games side by side, and bots thinking outside the write lock.

use super::*;

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
    let ids: Vec<GameId> = (0..4).map(|_| duel(&f)).collect();
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

/// The scheduler fires a `normal` bot's timer. The bot thinks (about a second) on a read of
/// the game: meanwhile SQLite's write lock is free for every other game's moves, and the move
/// is committed after.
#[test]
fn a_thinking_bot_leaves_the_write_lock_free() {
    let f = file_fixture();
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
        replayed
            .play(&a.action.action().expect("no take-back here"))
            .unwrap();
    }
    assert_eq!(s.game(id).unwrap().state.unwrap(), replayed);
}
