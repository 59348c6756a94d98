//! One move through the game service on PostgreSQL, against one bare commit on the same server
//! (issue 41's first figure): `scripts/pg-test --bench` (a throwaway server, with its
//! durability on), or `JACKAL_BENCH_DATABASE_URL=postgres://… cargo bench --bench postgres`
//! (a database there is created for the run; the URL's user must be allowed to).
//!
//! A 13×13 game of four users (in a channel, so each move writes its outbox rows) is played
//! by seeded dice through `GameService::act`; after a warm-up (every statement prepared on the
//! pooled connections, the game's state in the service's memory, as on a running bot) each of
//! the next moves is timed alone. The bare commit is one row written in its own write
//! transaction through the store (the same write lock a move takes), on the same pool.
//! Medians of the individually timed operations; the moves' median includes their snapshot
//! plies (one in 25) as a running bot does.
//!
//! Without `JACKAL_BENCH_DATABASE_URL` it says so and measures nothing.

use std::sync::Arc;
use std::time::{Duration, Instant};

use jackal::engine::mapgen::SplitMix64;
use jackal::game::{Actor, GameConfig, GameService, Location, ManualClock};
use jackal::id::{ChannelId, GameId, GuildId, UserId};
use jackal::store::{self, Database, Durability, Store};

const USERS: [UserId; 4] = [
    UserId::new(101),
    UserId::new(102),
    UserId::new(103),
    UserId::new(104),
];
const START_MS: i64 = 1_700_000_000_000;
const WARM_UP: u32 = 30;
const MEASURED: usize = 200;

fn main() {
    // `cargo bench` passes `--bench`; any other argument is a filter this bench ignores.
    let Ok(admin) = std::env::var("JACKAL_BENCH_DATABASE_URL") else {
        eprintln!(
            "postgres bench: JACKAL_BENCH_DATABASE_URL is not set; run `scripts/pg-test --bench`"
        );
        return;
    };
    let url = store::postgres::fresh_database(&admin).expect("a database for the bench");
    let store =
        Store::open_database(&Database::Server(url), Durability::Full).expect("the database opens");
    let service = GameService::new(Arc::new(store), Arc::new(ManualClock::new(START_MS)));
    let mut dice = SplitMix64::new(7);

    let mut moves = Vec::with_capacity(MEASURED);
    let mut seed = 1;
    while moves.len() < MEASURED {
        let id = start_game(&service, seed);
        seed += 1;
        let mut played = 0;
        while let Some((user, seen_ply, text)) = next_move(&service, id, &mut dice) {
            let began = Instant::now();
            service
                .act(user, id, seen_ply, &text)
                .expect("a legal move");
            let took = began.elapsed();
            played += 1;
            if played > WARM_UP {
                moves.push(took);
                if moves.len() == MEASURED {
                    break;
                }
            }
        }
    }

    let mut commits = Vec::with_capacity(MEASURED);
    for _ in 0..WARM_UP as usize + MEASURED {
        let mut conn = service.store().conn().expect("a connection");
        let began = Instant::now();
        let tx = conn.write().expect("begin");
        store::insert_outbox(&tx, None, "bench", "{}", "{}", START_MS).expect("one row");
        tx.commit().expect("commit");
        commits.push(began.elapsed());
    }
    let commits = &mut commits[WARM_UP as usize..];

    let act = median(&mut moves);
    let bare = median(commits);
    println!(
        "postgres: act {} µs, bare commit {} µs, act ÷ bare commit {:.2} (medians of {MEASURED})",
        act.as_micros(),
        bare.as_micros(),
        act.as_secs_f64() / bare.as_secs_f64()
    );
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// A started 13×13 game for four users, in a channel.
fn start_game(service: &GameService, seed: u64) -> GameId {
    let mut config = GameConfig::default();
    config.set("board_size", "13").expect("13 is a board size");
    config.set("players", "4").expect("4 players");
    let here = Location {
        guild_id: Some(GuildId::new(1)),
        channel_id: Some(ChannelId::new(2)),
        thread_id: None,
    };
    let owner = Actor::user(USERS[0]);
    let id = service
        .create_lobby(owner, here, jackal::words::Lang::En, config, Some(1))
        .expect("lobby");
    for (seat, user) in (2..).zip(&USERS[1..]) {
        service
            .join(Actor::user(*user), id, Some(seat))
            .expect("join");
    }
    service.start_with_seed(owner, id, seed).expect("start");
    id
}

/// Who is to move, at which ply, and one of their legal moves picked by the dice (`None`
/// once the game is over).
fn next_move(
    service: &GameService,
    id: GameId,
    dice: &mut SplitMix64,
) -> Option<(UserId, u32, String)> {
    let loaded = service.game(id).expect("the game loads");
    let game = loaded.state.as_ref().filter(|g| !g.is_over())?;
    let user = loaded
        .team_seat(game.controller())
        .and_then(|s| s.user_id)
        .expect("every seat is a user");
    let moves = service.legal_moves(user, id).expect("the player has moves");
    Some((
        user,
        loaded.ply,
        moves[dice.pick(moves.len())].notation.clone(),
    ))
}
