//! The games the service benches play (`benches/service.rs` on SQLite, `benches/postgres.rs`
//! on a server): the same four users and the same game, so that the two backends' figures
//! stand side by side.

use jackal::game::{Actor, GameConfig, GameService, Location};
use jackal::id::{ChannelId, GameId, GuildId, UserId};

/// The four players of every bench game.
pub const USERS: [UserId; 4] = [
    UserId::new(101),
    UserId::new(102),
    UserId::new(103),
    UserId::new(104),
];

/// A started 13×13 game for the four users, in a channel (so `act` writes its outbox rows).
pub fn start_game(service: &GameService, seed: u64) -> GameId {
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

/// A started duel of `players` (the first its owner) with `config`, at `here`.
pub fn start_duel(
    service: &GameService,
    config: &GameConfig,
    here: Location,
    players: [UserId; 2],
    seed: u64,
) -> GameId {
    let owner = Actor::user(players[0]);
    let id = service
        .create_lobby(
            owner,
            here,
            jackal::words::Lang::En,
            config.clone(),
            Some(1),
        )
        .expect("lobby");
    service
        .join(Actor::user(players[1]), id, None)
        .expect("join");
    service.start_with_seed(owner, id, seed).expect("start");
    id
}
