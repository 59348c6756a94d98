//! The file: migrations, connection settings, the append-only log, and damaged games.

use super::*;

#[test]
fn a_corrupt_snapshot_falls_back_to_replay() {
    let f = file_fixture();
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
            rusqlite::params![serde_json::to_string(&config).unwrap(), ALICE, now, plies],
        )
        .unwrap();
        for (team, user) in [(1, ALICE), (2, BOB)] {
            conn.execute(
                "INSERT INTO seats (game_id, team, user_id, joined_at) VALUES (7, ?1, ?2, ?3)",
                rusqlite::params![team, user, now],
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
    let loaded = service.game(game_no(7)).unwrap();
    assert_eq!(loaded.ply, 30);
    assert_eq!(loaded.state.as_ref(), Some(&game));
    let timers: Vec<_> = store::game_timers(&conn, game_no(7))
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
                    game_id: game_no(7),
                    notice: Notice::TakenOver {
                        team: Team::of(1),
                        missed: 3
                    }
                }
            ),
            (
                Target::Game,
                OutboxMessage::BoardPost {
                    game_id: game_no(7),
                    first_ply: 29,
                    ply: 30,
                    deadline_ms: None
                }
            ),
        ]
    );
    let rows = store::game_outbox(&conn, game_no(7)).unwrap();
    assert!(rows[3].given_up && rows[3].sent_at.is_some(), "{rows:?}");
    let sent: OutboxMessage = serde_json::from_str(&rows[0].payload).unwrap();
    assert_eq!(
        sent,
        OutboxMessage::Notice {
            game_id: game_no(7),
            notice: Notice::Resigned { team: Team::of(2) }
        }
    );
    drop(conn);
    let user = match loaded.team_seat(game.controller()).and_then(|s| s.user_id) {
        Some(user) => user,
        None => panic!("a human seat is on turn"),
    };
    let text = service.legal_moves(user, game_no(7)).unwrap()[0]
        .notation
        .clone();
    assert_eq!(service.act(user, game_no(7), 30, &text).unwrap().ply, 31);
    assert!(matches!(
        service.act(user, game_no(7), 30, &text),
        Err(ServiceError::AlreadyPlayed)
    ));
    // Actions recorded before the log had its digest chain (migration 0007) are a prefix the
    // chain starts after: the game still replays, after a restart too.
    let played = service.game(game_no(7)).unwrap().state;
    let clock = Arc::new(ManualClock::new(now));
    let restarted = GameService::new(Arc::new(Store::open(&path).unwrap()), clock);
    assert_eq!(restarted.game(game_no(7)).unwrap().state, played);
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
    let f = file_fixture();
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

/// A game whose stored settings or seed were edited into something the program never writes
/// (a board side of 8 or 200, an active game without a seed) is named with what is wrong,
/// wherever it is loaded; before, loading it panicked. Every other game loads and plays on,
/// and its timers fire.
#[test]
fn a_damaged_game_is_named_and_the_others_play_on() {
    let f = file_fixture();
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
                rusqlite::params![id, size],
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
    let f = file_fixture();
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

/// An action changed in the file after it was recorded breaks the digest chained over the
/// log: a replay that reaches it names the game and the ply instead of playing it. Before,
/// the changed action (another legal move) was played silently.
#[test]
fn an_action_changed_after_it_was_recorded_is_named() {
    let f = file_fixture();
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
