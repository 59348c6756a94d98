//! Leaderboards at scale: `cargo bench --bench community`.
//!
//! A database holds the standings of 100,000 finished games among 10,000 players, all on one
//! server (so the server's board and every server's board both hold all 10,000): a year of
//! games, two to four seats each (duels, three and four players, 2x2), each seat's rating
//! change drawn at random, written through the same `store::add_to_standing` a game's end
//! calls (two ladders × all time, its week and its month × every format and its own). Then
//! `GameService::leaderboard` is timed as a caller sees it, page and place included: the
//! all-time board's first page and a page deep in it, this week's and this month's boards,
//! one format's, every server's, each for a random caller (their own place counted).
//! Target: ≤ 10 ms at p99. Last, what a duel's end adds to the game-over transaction for the
//! boards, on boards this full (the ratings' part is `cargo bench --bench service`'s).

use std::sync::Arc;
use std::time::{Duration, Instant};

use jackal::engine::mapgen::SplitMix64;
use jackal::game::{BoardQuery, GameFormat, GameService, ManualClock, PeriodKind};
use jackal::id::{GuildId, UserId};
use jackal::store::{self, BoardKey, Durability, RatingScope, Store};

const GAMES: u64 = 100_000;
const PLAYERS: u64 = 10_000;
const DAY_MS: i64 = 86_400_000;
/// 2026-12-07 12:00 UTC, a Monday: the week's board is young, the month's a week old.
const NOW_MS: i64 = 1_796_644_800_000;
const SAMPLES: usize = 1_000;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("boards.db");
    let store = Arc::new(Store::open_with(&path, Durability::Normal).expect("the database"));
    let guild = GuildId::new(77);
    let fill = Instant::now();
    let seats = fill_standings(&store, guild);
    println!(
        "filled: {GAMES} games, {seats} seats, {PLAYERS} players in {:.1} s",
        fill.elapsed().as_secs_f64()
    );
    let service = GameService::new(store, Arc::new(ManualClock::new(NOW_MS)));
    let mut dice = SplitMix64::new(7);
    let here = Some(guild);
    let boards: [(&str, BoardQuery, bool); 6] = [
        (
            "all time, page 1",
            query(here, PeriodKind::All, None),
            false,
        ),
        (
            "all time, a random page",
            query(here, PeriodKind::All, None),
            true,
        ),
        ("this month", query(here, PeriodKind::Month, None), true),
        ("this week", query(here, PeriodKind::Week, None), true),
        (
            "4 players",
            query(here, PeriodKind::All, Some(GameFormat::Four)),
            true,
        ),
        ("every server", query(None, PeriodKind::All, None), true),
    ];
    let mut everything = Vec::new();
    for (name, base, random_page) in boards {
        let mut times = Vec::with_capacity(SAMPLES);
        let mut people = 0;
        for _ in 0..SAMPLES {
            let caller = UserId::new(1 + dice.next_u64() % PLAYERS);
            let page = if random_page {
                (dice.next_u64() % 1_000) as u32
            } else {
                0
            };
            let t = Instant::now();
            let view = service
                .leaderboard(caller, BoardQuery { page, ..base })
                .expect("the board");
            times.push(t.elapsed());
            people = view.people;
            assert!(!view.entries.is_empty());
        }
        report(&format!("{name} ({people} people)"), &mut times);
        everything.extend(times);
    }
    report("every board together", &mut everything);
    standings_cost(service.store(), guild);
}

/// What a duel's end adds to the game-over transaction for the boards, on these full
/// boards: each of the two players added to twelve of them (two ladders, three periods, every
/// format and its own), the bands' triggers included, in one transaction (commit not
/// flushed, as in `cargo bench --bench service`'s `rating_cost`).
fn standings_cost(store: &Store, guild: GuildId) {
    const ROUNDS: usize = 200;
    let mut conn = store.conn().expect("a connection");
    let mut dice = SplitMix64::new(9);
    let mut times = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let players = [1 + dice.next_u64() % PLAYERS, 1 + dice.next_u64() % PLAYERS];
        let t = Instant::now();
        let tx = conn.write().expect("a write");
        for (seat, player) in players.iter().enumerate() {
            for scope in [RatingScope::Guild(guild), RatingScope::All] {
                for period in PeriodKind::ALL.map(|kind| kind.at(NOW_MS)) {
                    for format in [None, Some(GameFormat::Duel)] {
                        let key = BoardKey {
                            scope,
                            period,
                            format,
                        };
                        let points = if seat == 0 { 2.5 } else { -1.5 };
                        store::add_to_standing(&tx, &key, UserId::new(*player), points, seat == 0)
                            .expect("a standing");
                    }
                }
            }
        }
        tx.commit().expect("commit");
        times.push(t.elapsed());
    }
    report("a duel's end added to 24 boards", &mut times);
}

fn query(guild: Option<GuildId>, period: PeriodKind, format: Option<GameFormat>) -> BoardQuery {
    BoardQuery {
        guild,
        period,
        format,
        page: 0,
    }
}

/// A year of games, oldest first, written in transactions of a thousand games.
fn fill_standings(store: &Store, guild: GuildId) -> u64 {
    let mut dice = SplitMix64::new(42);
    let mut conn = store.conn().expect("a connection");
    let mut seats = 0;
    for batch in 0..GAMES / 1_000 {
        let tx = conn.write().expect("a write");
        for i in 0..1_000 {
            let game = batch * 1_000 + i;
            let ended = NOW_MS - 365 * DAY_MS + (game as i64 * 365 * DAY_MS) / GAMES as i64;
            let format = GameFormat::ALL[(dice.next_u64() % 4) as usize];
            let count = match format {
                GameFormat::Duel => 2,
                GameFormat::Three => 3,
                GameFormat::Four | GameFormat::Pairs => 4,
            };
            let mut players: Vec<u64> = Vec::with_capacity(count);
            while players.len() < count {
                let p = 1 + dice.next_u64() % PLAYERS;
                if !players.contains(&p) {
                    players.push(p);
                }
            }
            for (seat, player) in players.iter().enumerate() {
                let won = seat == 0;
                let points = (dice.next_u64() % 700) as f64 / 100.0 - 3.0;
                for scope in [RatingScope::Guild(guild), RatingScope::All] {
                    for period in PeriodKind::ALL.map(|kind| kind.at(ended)) {
                        for format in [None, Some(format)] {
                            let key = BoardKey {
                                scope,
                                period,
                                format,
                            };
                            store::add_to_standing(&tx, &key, UserId::new(*player), points, won)
                                .expect("a standing");
                        }
                    }
                }
                seats += 1;
            }
        }
        tx.commit().expect("commit");
    }
    seats
}

fn report(name: &str, times: &mut [Duration]) {
    times.sort_unstable();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    let ms = |d: Duration| d.as_secs_f64() * 1_000.0;
    println!(
        "{name:<40} p50 {:.3} ms  p99 {:.3} ms  max {:.3} ms",
        ms(at(0.5)),
        ms(at(0.99)),
        ms(times[times.len() - 1])
    );
}
