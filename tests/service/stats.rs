//! Stats and leaderboards: what each finished game leaves (its seats' results, the
//! standings of every board), read back as `/jackal stats` and `/jackal leaderboard` show
//! them.

use super::*;
use jackal::game::{BoardQuery, GameFormat, Opponent, PAGE_SIZE, PeriodKind};
use jackal::store::{RatedPlayer, RatingScope};

const DAY: i64 = 24 * HOUR;

/// Somewhere in server `guild`, a channel of its own (one open game per player a channel).
fn at(guild: u64, channel: u64) -> Location {
    Location {
        guild_id: Some(GuildId::new(guild)),
        channel_id: Some(ChannelId::new(channel)),
        thread_id: None,
    }
}

/// A started duel of `a` (team 1) against `b` (team 2) at `location`.
fn duel_between(f: &Fixture, location: Location, a: UserId, b: UserId) -> GameId {
    let s = &f.service;
    let id = s
        .create_lobby(
            Actor::user(a),
            location,
            jackal::words::Lang::En,
            small_config(),
            Some(1),
        )
        .unwrap();
    s.join(Actor::user(b), id, None).unwrap();
    s.start_with_seed(Actor::user(a), id, 42).unwrap();
    id
}

fn board(f: &Fixture, caller: UserId, query: BoardQuery) -> jackal::game::BoardView {
    f.service.leaderboard(caller, query).unwrap()
}

fn server_board(guild: u64, period: PeriodKind, format: Option<GameFormat>) -> BoardQuery {
    BoardQuery {
        guild: Some(GuildId::new(guild)),
        period,
        format,
        page: 0,
    }
}

/// A duel played to its end, each move some hours after the last: Alice takes an hour,
/// Bob three, and Alice lets her first turn's deadline pass (a bot moves for her).
#[test]
fn a_played_out_duel_leaves_each_player_their_record_times_and_opponent() {
    let f = fixture();
    let s = &f.service;
    let mut config = small_config();
    config.set("turn_time", "12h").unwrap();
    config.set("timeout_level", "random").unwrap();
    let id = duel_with(&f, config, 7);
    f.clock.advance_ms(12 * HOUR);
    assert!(s.fire_due_timers().unwrap().contains(&Fired::TimedOut {
        game_id: id,
        team: Team::of(1)
    }));
    for _ in 0..20_000 {
        let game = s.game(id).unwrap();
        if game.status != GameStatus::Active {
            break;
        }
        let (user, wait) = if game.state.unwrap().controller() == Team::of(1) {
            (ALICE, HOUR)
        } else {
            (BOB, 3 * HOUR)
        };
        f.clock.advance_ms(wait);
        s.act(user, id, game.ply, &first_move(&f, id, user))
            .unwrap();
    }
    let over = s.game(id).unwrap();
    assert_eq!(over.status, GameStatus::Finished);
    let end = over.state.unwrap();
    let outcome = end.outcome().unwrap().clone();
    let guild = GuildId::new(1);
    let alice = s.stats(ALICE, guild).unwrap().unwrap();
    let bob = s.stats(BOB, guild).unwrap().unwrap();
    for (stats, team, other, took) in [(&alice, 1, BOB, HOUR), (&bob, 2, ALICE, 3 * HOUR)] {
        let team = Team::of(team);
        assert_eq!(stats.games, 1);
        let won = !outcome.draw && outcome.winners.contains(&team);
        assert_eq!(stats.wins, u32::from(won));
        assert_eq!(stats.gold, u64::from(end.score(team)));
        let dead = end
            .units()
            .iter()
            .filter(|u| u.team == team)
            .filter(|u| matches!(u.kind, jackal::engine::UnitKind::Pirate(_)))
            .filter(|u| u.place == jackal::engine::Place::Dead)
            .count();
        assert_eq!(stats.pirates_lost, dead as u64);
        assert_eq!(stats.counted_games, 1);
        assert_eq!(
            (stats.move_mean_ms, stats.move_median_ms),
            (Some(took), Some(took)),
            "every turn of theirs timed from the other's last action"
        );
        assert!(stats.moves_timed > 0);
        assert_eq!(stats.favourite, Some((Opponent::Person(other), 1)));
        assert_eq!(stats.people, 2);
        assert_eq!(stats.history.len(), 2, "before the game, then after it");
        assert_eq!(stats.history[0], 0.0, "a new player shows 0");
        assert!((stats.history[1] - stats.rating).abs() < 1e-9);
        assert_eq!(stats.global_rating, Some(stats.rating), "one server so far");
    }
    assert_eq!(alice.missed_deadlines, 1, "the deadline she let pass");
    assert_eq!(bob.missed_deadlines, 0);
    assert_eq!(
        alice.moves_timed + 1,
        bob.moves_timed + u32::from(end.turn() == Team::of(1)),
        "her first turn, played by a bot, is not timed"
    );
    if !outcome.draw {
        let (winner, loser) = if outcome.winners.contains(&Team::of(1)) {
            (&alice, &bob)
        } else {
            (&bob, &alice)
        };
        assert_eq!((winner.place, loser.place), (1, 2));
        assert_eq!(winner.best, Some((Opponent::Person(loser.user), 1, 1)));
        assert_eq!(loser.best, None, "beat nobody");
    }
}

#[test]
fn stats_of_someone_who_never_played_here_and_a_board_of_an_empty_server_are_empty() {
    let f = fixture();
    let s = &f.service;
    assert_eq!(s.stats(EVE, GuildId::new(1)).unwrap(), None);
    let id = duel_between(&f, at(1, 10), ALICE, BOB);
    s.resign(Actor::user(ALICE), id).unwrap();
    assert!(s.stats(BOB, GuildId::new(1)).unwrap().is_some());
    assert_eq!(
        s.stats(BOB, GuildId::new(2)).unwrap(),
        None,
        "another server"
    );
    let empty = board(&f, EVE, server_board(2, PeriodKind::All, None));
    assert_eq!((empty.people, empty.pages), (0, 1));
    assert!(empty.entries.is_empty() && empty.you.is_none());
    // A game still running counts nothing.
    duel_between(&f, at(1, 11), EVE, ALICE);
    assert_eq!(s.stats(EVE, GuildId::new(1)).unwrap(), None);
}

/// Twelve people in a chain of duels, each losing to the next: the board pages ten at a time,
/// its places follow the ratings (the all-time points are the ratings), and the caller sees
/// their own line wherever it is.
#[test]
fn a_leaderboard_pages_its_people_by_rating_and_shows_the_callers_place() {
    let f = fixture();
    let s = &f.service;
    let people: Vec<UserId> = (0..12).map(|i| UserId::new(2_000 + i)).collect();
    for (i, pair) in people.windows(2).enumerate() {
        let id = duel_between(&f, at(1, 100 + i as u64), pair[0], pair[1]);
        s.resign(Actor::user(pair[0]), id).unwrap();
        f.clock.advance_ms(HOUR);
    }
    let first = board(&f, people[0], server_board(1, PeriodKind::All, None));
    assert_eq!((first.people, first.pages), (12, 2));
    assert_eq!(first.entries.len(), PAGE_SIZE as usize);
    let second = board(
        &f,
        people[0],
        BoardQuery {
            page: 1,
            ..server_board(1, PeriodKind::All, None)
        },
    );
    assert_eq!(second.entries.len(), 2);
    let far = board(
        &f,
        people[0],
        BoardQuery {
            page: 40,
            ..server_board(1, PeriodKind::All, None)
        },
    );
    assert_eq!(far.query.page, 1, "a page past the end shows the last");
    let lines: Vec<_> = first.entries.iter().chain(&second.entries).collect();
    let conn = s.store().conn().unwrap();
    for (i, line) in lines.iter().enumerate() {
        let rating = store::get_rating(
            &conn,
            RatingScope::Guild(GuildId::new(1)),
            &RatedPlayer::User(line.user),
        )
        .unwrap()
        .unwrap();
        assert!(
            (line.points - (rating.mu - 3.0 * rating.sigma)).abs() < 1e-9,
            "over all time, the points won are the shown rating"
        );
        let ahead = lines.iter().filter(|l| l.points > line.points).count();
        assert_eq!(
            line.place as usize,
            ahead + 1,
            "line {i}: ties share a place"
        );
        if i > 0 {
            assert!(lines[i - 1].points >= line.points, "best first");
        }
    }
    let wins: u32 = lines.iter().map(|l| l.wins).sum();
    let games: u32 = lines.iter().map(|l| l.games).sum();
    assert_eq!((wins, games), (11, 22));
    // The one who only lost is on the second page; their line is shown on the first too.
    let own = first.you.clone().expect("the caller's line");
    assert_eq!(own.user, people[0]);
    assert!(second.entries.contains(&own));
    assert_eq!(
        board(&f, EVE, server_board(1, PeriodKind::All, None)).you,
        None
    );
}

/// This week's board starts empty on Monday and the all-time board keeps everything; a game
/// counts on its own format's board and on the board of all formats; every server's board
/// holds every server's games.
#[test]
fn boards_count_their_period_their_format_and_their_server() {
    // Wednesday 2023-11-15 12:00 UTC.
    let f = fixture_at_ms(1_700_049_600_000);
    let s = &f.service;
    let id = duel_between(&f, at(1, 10), ALICE, BOB);
    s.resign(Actor::user(BOB), id).unwrap();
    let week = server_board(1, PeriodKind::Week, None);
    assert_eq!(board(&f, ALICE, week).people, 2);
    let wins = |q: BoardQuery| board(&f, ALICE, q).you.map(|l| (l.games, l.wins));
    assert_eq!(wins(week), Some((1, 1)));
    // Monday next: a new week, the same month.
    f.clock.advance_ms(5 * DAY);
    assert_eq!(board(&f, ALICE, week).people, 0);
    assert_eq!(board(&f, ALICE, week).period.key(), "w2023-11-20");
    let id = duel_between(&f, at(2, 20), ALICE, EVE);
    s.resign(Actor::user(ALICE), id).unwrap();
    assert_eq!(wins(week), None, "that game was on another server");
    let everywhere = BoardQuery {
        guild: None,
        ..week
    };
    assert_eq!(board(&f, ALICE, everywhere).people, 2);
    assert_eq!(wins(everywhere), Some((1, 0)));
    let month = server_board(1, PeriodKind::Month, None);
    assert_eq!(wins(month), Some((1, 1)));
    assert_eq!(
        wins(BoardQuery {
            guild: None,
            ..server_board(1, PeriodKind::All, None)
        }),
        Some((2, 1))
    );
    let duels = server_board(1, PeriodKind::All, Some(GameFormat::Duel));
    assert_eq!(wins(duels), Some((1, 1)));
    let fours = server_board(1, PeriodKind::All, Some(GameFormat::Four));
    assert_eq!(board(&f, ALICE, fours).people, 0);
    // A four-player game Alice leaves: bots play it out, and she is rated last in it.
    let owner = Actor::user(ALICE);
    let mut config = small_config();
    config.set("players", "4").unwrap();
    let four = s
        .create_lobby(owner, at(1, 30), jackal::words::Lang::En, config, Some(1))
        .unwrap();
    for team in 2..=4 {
        s.add_bot(owner, four, team, BotLevel::Random).unwrap();
    }
    s.start_with_seed(owner, four, 5).unwrap();
    s.resign(owner, four).unwrap();
    while s.bot_step(four).unwrap().is_some() {}
    assert_eq!(s.game(four).unwrap().status, GameStatus::Finished);
    assert_eq!(wins(fours), Some((1, 0)));
    assert_eq!(wins(duels), Some((1, 1)), "not a duel");
    assert_eq!(
        board(&f, ALICE, server_board(1, PeriodKind::All, None))
            .you
            .map(|l| l.games),
        Some(2)
    );
    let stats = s.stats(ALICE, GuildId::new(1)).unwrap().unwrap();
    assert_eq!((stats.games, stats.wins), (2, 1));
    assert_eq!(
        stats.favourite,
        Some((Opponent::Person(BOB), 1)),
        "Bob and the bots were met once each: the tie goes to the one beaten more"
    );
}

/// A file rated before results were kept gets its results and standings from what it stored:
/// the same standings the game's end writes now, and the same results but for the gold and
/// pirates, which only the last position knew.
#[test]
fn results_and_standings_of_games_rated_before_them_are_filled_in_by_the_migration() {
    let f = file_fixture_at_ms(1_700_049_600_000);
    let s = &f.service;
    let people: Vec<UserId> = (0..5).map(|i| UserId::new(3_000 + i)).collect();
    for (i, pair) in people.windows(2).enumerate() {
        let id = duel_between(&f, at(1 + i as u64 % 2, 100 + i as u64), pair[0], pair[1]);
        s.resign(Actor::user(pair[i % 2]), id).unwrap();
        f.clock.advance_ms(4 * DAY);
    }
    let owner = Actor::user(people[0]);
    let mut config = small_config();
    config.set("players", "2x2").unwrap();
    let pairs = s
        .create_lobby(owner, at(1, 30), jackal::words::Lang::En, config, Some(1))
        .unwrap();
    s.join(Actor::user(people[1]), pairs, Some(2)).unwrap();
    for team in 3..=4 {
        s.add_bot(owner, pairs, team, BotLevel::Random).unwrap();
    }
    s.start_with_seed(owner, pairs, 9).unwrap();
    s.resign(owner, pairs).unwrap();
    s.resign(Actor::user(people[1]), pairs).unwrap();
    while s.bot_step(pairs).unwrap().is_some() {}
    assert_eq!(s.game(pairs).unwrap().status, GameStatus::Finished);

    let read = |path: &std::path::Path| {
        let conn = rusqlite::Connection::open(path).unwrap();
        let standings: Vec<(i64, String, String, i64, f64, i64, i64)> = conn
            .prepare("SELECT * FROM standings ORDER BY scope, period, format, user_id")
            .unwrap()
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let results: Vec<Vec<rusqlite::types::Value>> = conn
            .prepare(
                "SELECT game_id, team, player, guild_id, side, format, rank, won, left_early, \
                 missed_deadlines, ended_at FROM game_results ORDER BY game_id, team",
            )
            .unwrap()
            .query_map([], |r| (0..11).map(|i| r.get(i)).collect())
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let counts: Vec<(i64, String, String, i64, i64)> = conn
            .prepare(
                "SELECT * FROM standing_counts WHERE people > 0 \
                 ORDER BY scope, period, format, band",
            )
            .unwrap()
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        (standings, results, counts)
    };
    let (standings, results, counts) = read(&f.path);
    assert_eq!(
        counts.iter().map(|c| c.4).sum::<i64>() as usize,
        standings.len(),
        "every standing counted in one band"
    );
    assert!(results.len() >= 4 * 2 + 4, "every seat of every game");
    assert!(standings.iter().any(|row| row.2 == "pairs"));
    drop(f.service);
    let conn = rusqlite::Connection::open(&f.path).unwrap();
    conn.execute_batch(
        "ALTER TABLE outbox DROP COLUMN claimed_by; ALTER TABLE outbox DROP COLUMN claimed_until; \
         ALTER TABLE timers DROP COLUMN claimed_by; ALTER TABLE timers DROP COLUMN claimed_until; \
         ALTER TABLE user_timers DROP COLUMN claimed_by; \
         ALTER TABLE user_timers DROP COLUMN claimed_until; \
         DROP TABLE undo_requests; DROP TABLE standing_counts; DROP TABLE standings; \
         DROP TABLE game_results; ALTER TABLE seats DROP COLUMN missed_total; \
         PRAGMA user_version = 12;",
    )
    .unwrap();
    drop(conn);
    Store::open(&f.path).unwrap();
    let (backfilled, results_again, counts_again) = read(&f.path);
    assert_eq!(results_again, results);
    assert_eq!(
        counts_again, counts,
        "the bands counted as the games' ends counted them"
    );
    assert_eq!(backfilled.len(), standings.len());
    for (old, new) in backfilled.iter().zip(&standings) {
        assert_eq!(
            (&old.0, &old.1, &old.2, old.3),
            (&new.0, &new.1, &new.2, new.3)
        );
        assert!((old.4 - new.4).abs() < 1e-9, "{old:?} {new:?}");
        assert_eq!((old.5, old.6), (new.5, new.6), "{old:?}");
    }
    let conn = rusqlite::Connection::open(&f.path).unwrap();
    let unknown: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM game_results WHERE gold IS NULL AND pirates_lost IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(unknown as usize, results.len());
}

/// The bands that count a board's people agree with the people themselves: pages read in
/// order give every person once, best first, and each place is one more than the people above,
/// with points on band edges, negative fractions and repeated changes that cross bands.
#[test]
fn board_pages_and_places_agree_with_a_count_of_everyone() {
    use jackal::engine::mapgen::SplitMix64;
    use jackal::store::{BoardKey, Period};
    let f = file_fixture();
    let key = BoardKey {
        scope: RatingScope::Guild(GuildId::new(5)),
        period: Period::All,
        format: None,
    };
    let mut dice = SplitMix64::new(11);
    let mut conn = f.service.store().conn().unwrap();
    let tx = conn.write().unwrap();
    for round in 0..4 {
        for user in 1..=300u64 {
            // Quarters make exact band edges (…, -1.0, -0.75, …, 2.0) common.
            let points = (dice.next_u64() % 41) as f64 / 4.0 - 5.0;
            if round == 0 || user % 3 == 0 {
                store::add_to_standing(&tx, &key, UserId::new(user), points, user % 2 == 0)
                    .unwrap();
            }
        }
    }
    tx.commit().unwrap();
    let conn = f.service.store().conn().unwrap();
    let everyone: Vec<(i64, f64, u32)> = conn
        .raw()
        .prepare("SELECT user_id, points, wins FROM standings WHERE scope = 5")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(store::board_size(&conn, &key).unwrap(), 300);
    let mut expected = everyone.clone();
    expected.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    let mut paged = Vec::new();
    for offset in (0..310).step_by(7) {
        let page = store::board_page(&conn, &key, offset, 7).unwrap();
        paged.extend(
            page.into_iter()
                .map(|r| (r.user.get() as i64, r.points, r.wins)),
        );
    }
    assert_eq!(paged, expected, "every person once, in order");
    for points in [
        -6.0, -5.0, -4.75, -1.0, -0.25, 0.0, 0.5, 1.0, 2.999, 3.0, 5.0, 9.0,
    ] {
        let above = everyone.iter().filter(|e| e.1 > points).count() as u32;
        assert_eq!(
            store::board_ahead_of(&conn, &key, points).unwrap(),
            above,
            "{points}"
        );
    }
}
