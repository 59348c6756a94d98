//! Ratings at a game's end: both ladders (the server's and every server's) move in the
//! transaction that ends the game, from the final ranking; endings that rate nothing don't.

use super::*;
use jackal::store::{RatedPlayer, RatingChange, RatingScope};

const GUILD: RatingScope = RatingScope::Guild(GuildId::new(1));

fn changes(f: &Fixture, id: GameId) -> Vec<RatingChange> {
    let conn = f.service.store().conn().unwrap();
    store::rating_changes_of_game(&conn, id).unwrap()
}

fn rating(f: &Fixture, scope: RatingScope, player: &RatedPlayer) -> Option<store::RatingRow> {
    let conn = f.service.store().conn().unwrap();
    store::get_rating(&conn, scope, player).unwrap()
}

#[test]
fn a_finished_duel_moves_both_players_on_both_ladders() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    s.resign(Actor::user(ALICE), id).unwrap();
    let changes = changes(&f, id);
    assert_eq!(changes.len(), 4, "two seats on two ladders: {changes:?}");
    for scope in [GUILD, RatingScope::All] {
        let of = |team: u8| {
            changes
                .iter()
                .find(|c| c.scope == scope && c.team == Team::of(team))
                .unwrap()
        };
        let (alice, bob) = (of(1), of(2));
        assert_eq!(alice.player, RatedPlayer::User(ALICE));
        assert_eq!((alice.rank, bob.rank), (2, 1), "Bob won");
        assert!(bob.mu_after > bob.mu_before && alice.mu_after < alice.mu_before);
        assert!(
            bob.sigma_after < bob.sigma_before,
            "a game makes a rating surer"
        );
        let stored = rating(&f, scope, &RatedPlayer::User(BOB)).unwrap();
        assert_eq!(
            (stored.mu, stored.sigma, stored.games),
            (bob.mu_after, bob.sigma_after, 1)
        );
    }
    // As the game-over post shows them: both start at 0.0 (25 − 3 × 25/3); the first win of
    // two new players moves the winner to about 3.4 and the loser to about −1.8, ±8.1.
    let shown = s.seat_ratings(id).unwrap();
    assert_eq!(shown.len(), 2, "the server's ladder only");
    let of = |team: u8| shown.iter().find(|r| r.team == Team::of(team)).unwrap();
    let round = |x: f64| (x * 10.0).round() / 10.0;
    assert_eq!(round(of(1).before), 0.0);
    assert_eq!((round(of(2).after), round(of(1).after)), (3.4, -1.8));
    assert_eq!(round(of(2).uncertainty), 8.1);
    // The next game starts from where the first left off.
    let again = duel(&f);
    s.resign(Actor::user(BOB), again).unwrap();
    let bob = rating(&f, GUILD, &RatedPlayer::User(BOB)).unwrap();
    assert_eq!(bob.games, 2);
    let second = changes_of_team(&f, again, GUILD, 2);
    assert_eq!(second.mu_after, bob.mu);
    assert!(second.mu_after < second.mu_before, "Bob lost the second");
}

fn changes_of_team(f: &Fixture, id: GameId, scope: RatingScope, team: u8) -> RatingChange {
    changes(f, id)
        .into_iter()
        .find(|c| c.scope == scope && c.team == Team::of(team))
        .unwrap()
}

#[test]
fn a_cancelled_game_and_a_game_outside_a_server_rate_nothing() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    s.cancel(Actor::user(ALICE), id).unwrap();
    assert!(changes(&f, id).is_empty());
    let local = bots_duel(&f, Location::default(), small_config(), 3);
    while s.bot_step(local).unwrap().is_some() {}
    assert_eq!(s.game(local).unwrap().status, GameStatus::Finished);
    assert!(changes(&f, local).is_empty());
    assert!(rating(&f, RatingScope::All, &RatedPlayer::Bot("random".into())).is_none());
}

#[test]
fn bots_have_ratings_of_their_own_and_a_level_moves_once_a_game() {
    let f = fixture();
    let s = &f.service;
    let id = bots_duel(&f, here(), small_config(), 3);
    while s.bot_step(id).unwrap().is_some() {}
    let changes = changes(&f, id);
    assert_eq!(changes.len(), 4);
    let random = RatedPlayer::Bot("random".into());
    assert!(changes.iter().all(|c| c.player == random));
    let stored = rating(&f, GUILD, &random).unwrap();
    assert_eq!(stored.games, 1, "one game played, whatever its seats");
    assert!(stored.sigma < 25.0 / 3.0);
}

#[test]
fn a_kicked_player_is_rated_last_whatever_the_bot_did_for_the_seat() {
    let f = fixture();
    let s = &f.service;
    let id = duel(&f);
    s.kick(Actor::user(ALICE), id, 2).unwrap();
    // Alice plays on against the bot in Bob's seat, to the end.
    for _ in 0..10_000 {
        let game = s.game(id).unwrap();
        if game.status != GameStatus::Active {
            break;
        }
        if game.state.unwrap().controller() == Team::of(1) {
            s.act(ALICE, id, game.ply, &first_move(&f, id, ALICE))
                .unwrap();
        } else {
            s.bot_step(id).unwrap();
        }
    }
    assert_eq!(s.game(id).unwrap().status, GameStatus::Finished);
    let bob = changes_of_team(&f, id, GUILD, 2);
    assert_eq!(
        bob.player,
        RatedPlayer::User(BOB),
        "the kicked player, not the bot"
    );
    assert_eq!(bob.rank, 2);
    assert_eq!(changes_of_team(&f, id, GUILD, 1).rank, 1);
}
