//! A finished game's record, written in the transaction that ends it: the ratings
//! ([`super::rating`]), then each rated seat's result and the leaderboards' standings, which
//! stats and leaderboards read without replaying any game.

use super::Result;
use super::end::GameEnd;
use super::rating::{self, Rated, left_early, shown_rating};
use crate::engine::{Game, Place, Team, UnitKind};
use crate::store::{
    self, BoardKey, Db, GameFormat, GameResultRow, GameRow, PeriodKind, RatedPlayer, SeatRow,
};

/// Rates a game that just ended and records its results; nothing for an ending that rates
/// nothing (a cancellation, a game outside a server).
pub(super) fn record_finished(
    tx: &impl Db,
    row: &GameRow,
    seats: &[SeatRow],
    game: &Game,
    end: &GameEnd,
    now: i64,
) -> Result<()> {
    let Some(rated) = rating::rate_finished(tx, row, seats, game, end, now)? else {
        return Ok(());
    };
    let Some(guild) = row.guild_id else {
        return Ok(());
    };
    let format = GameFormat::from(game.settings().players);
    let winners = end.winners();
    for side in &rated.standing {
        for (team, player) in &side.seats {
            let Some(seat) = seats.iter().find(|s| s.team == *team) else {
                continue;
            };
            // A win is the side's, and only if it stayed to the end: a seat whose player left
            // ranks below it, whatever the bot did for it after.
            let won = side.rank == 1 && winners.iter().any(|w| game.allied(*w, *team));
            store::insert_game_result(
                tx,
                &GameResultRow {
                    game_id: row.id,
                    team: *team,
                    player: player.clone(),
                    guild_id: guild,
                    side: game.side_key(*team),
                    format,
                    rank: side.rank,
                    won,
                    left_early: left_early(seat),
                    gold: Some(game.score(*team)),
                    pirates_lost: Some(pirates_lost(game, *team)),
                    missed_deadlines: seat.missed_total,
                    ended_at: now,
                },
            )?;
            if let RatedPlayer::User(user) = player {
                add_to_boards(tx, &rated, *team, *user, format, won, now)?;
            }
        }
    }
    Ok(())
}

/// Counts the game on every leaderboard it belongs to: both ladders, all time and this week
/// and month, every format and its own.
fn add_to_boards(
    tx: &impl Db,
    rated: &Rated,
    team: Team,
    user: crate::id::UserId,
    format: GameFormat,
    won: bool,
    now: i64,
) -> Result<()> {
    for change in rated.changes.iter().filter(|c| c.team == team) {
        let points = shown_rating(change.mu_after, change.sigma_after)
            - shown_rating(change.mu_before, change.sigma_before);
        for period in PeriodKind::ALL.map(|kind| kind.at(now)) {
            for format in [None, Some(format)] {
                let key = BoardKey {
                    scope: change.scope,
                    period,
                    format,
                };
                store::add_to_standing(tx, &key, user, points, won)?;
            }
        }
    }
    Ok(())
}

/// The team's ordinary pirates dead when the game ended (one resurrected is not lost).
fn pirates_lost(game: &Game, team: Team) -> u32 {
    let lost = game
        .units()
        .iter()
        .filter(|u| u.team == team && matches!(u.kind, UnitKind::Pirate(_)))
        .filter(|u| u.place == Place::Dead)
        .count();
    u32::try_from(lost).unwrap_or(u32::MAX)
}
