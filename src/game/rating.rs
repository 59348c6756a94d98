//! Ratings at a game's end: Weng-Lin (the OpenSkill family, from the `skillratings` crate),
//! which rates a duel, a three- or four-player game and a 2x2 game of two sides on one scale,
//! from the final ranking with its ties. Each finished game of a server moves its players on
//! two ladders, the server's and every server's together, in the transaction that ends it.
//!
//! The ranking: the winners first, then the other sides by their gold (R-SCORE-2), equal gold
//! tied (so a draw ties the sides level at the top); a side any of whose players resigned, was
//! kicked or was replaced by a bot after missing deadlines ranks below every side that played
//! on. Cancelled games, games whose thread was deleted and games outside a server rate nothing.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use super::Result;
use super::end::GameEnd;
use crate::engine::{Game, Team};
use crate::id::GameId;
use crate::store::{self, Db, GameRow, RatedPlayer, RatingChange, RatingRow, RatingScope, SeatRow};

/// One side of the final standing: its seats and who is rated for each, and its rank.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct RankedSide {
    pub seats: Vec<RatedSeat>,
    /// 1 for first; tied sides share a rank.
    pub rank: u8,
}

/// Who a seat's result counts for: the person who held it (also when a bot plays it for them
/// now, having resigned, been kicked or missed deadlines), else the bot.
pub(super) fn rated_player(seat: &SeatRow) -> Option<RatedPlayer> {
    let person = seat.user_id.or(seat.away_user_id).or(seat.kicked_user_id);
    match (person, &seat.bot_level) {
        (Some(user), _) => Some(RatedPlayer::User(user)),
        (None, Some(level)) => Some(RatedPlayer::Bot(level.clone())),
        (None, None) => None,
    }
}

/// Whether the seat's person left the table before the end (resigned, kicked, or replaced by
/// a bot after missed deadlines): their side ranks last.
pub(super) fn left_early(seat: &SeatRow) -> bool {
    seat.resigned || seat.away_user_id.is_some() || seat.kicked_user_id.is_some()
}

/// A seat and who is rated for it.
type RatedSeat = (Team, RatedPlayer);

/// What orders a side: whether it won, whether all its players stayed to the end, its gold.
type Standing = (bool, bool, u32);

/// The final ranking of a finished game, or `None` for an ending that rates nothing.
pub(super) fn final_standing(
    seats: &[SeatRow],
    game: &Game,
    end: &GameEnd,
) -> Option<Vec<RankedSide>> {
    let winners: &[Team] = match end {
        GameEnd::Played(outcome) if outcome.draw => &[],
        GameEnd::Played(outcome) => &outcome.winners,
        GameEnd::Resigned { winners, .. } => winners,
        GameEnd::Cancelled | GameEnd::ThreadDeleted => return None,
    };
    // Sides by their lowest team, each with what orders it: winner, stayed, gold.
    let mut sides: Vec<(Team, Vec<RatedSeat>, Standing)> = Vec::new();
    for seat in seats {
        let player = rated_player(seat)?;
        let key = game.side_key(seat.team);
        let won = winners.iter().any(|w| game.side_key(*w) == key);
        let stayed = !left_early(seat);
        match sides.iter_mut().find(|(k, ..)| *k == key) {
            Some((_, members, (_, side_stayed, _))) => {
                members.push((seat.team, player));
                *side_stayed &= stayed;
            }
            None => sides.push((
                key,
                vec![(seat.team, player)],
                (won, stayed, game.side_score(seat.team)),
            )),
        }
    }
    if sides.len() < 2 {
        return None;
    }
    let ranks = ranks(&sides.iter().map(|(_, _, how)| *how).collect::<Vec<_>>());
    let mut ranked: Vec<RankedSide> = sides
        .into_iter()
        .zip(ranks)
        .map(|((_, seats, _), rank)| RankedSide { seats, rank })
        .collect();
    ranked.sort_by_key(|side| side.rank);
    Some(ranked)
}

/// Each side's rank (1 first, equal standings tied, the next rank after a tie skipping the
/// places the tie took): those who stayed to the end before those who left, then the winners
/// (all of them tied), then by gold; in a draw nobody won, and the sides level at the top tie.
fn ranks(sides: &[Standing]) -> Vec<u8> {
    let order = |(won, stayed, gold): Standing| {
        (!stayed, !won, std::cmp::Reverse(if won { 0 } else { gold }))
    };
    sides
        .iter()
        .map(|side| {
            let ahead = sides
                .iter()
                .filter(|other| order(**other) < order(*side))
                .count();
            u8::try_from(ahead + 1).unwrap_or(u8::MAX)
        })
        .collect()
}

/// How many uncertainties below its mean a rating is shown: the conservative number a
/// player can be fairly sure to be above (a new player shows 0).
const SHOWN_SIGMAS: f64 = 3.0;

/// What a finished game did to one seat's rating on its server's ladder, as players see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatRating {
    pub team: Team,
    pub rank: u8,
    /// The shown (conservative) rating before the game and after it.
    pub before: f64,
    pub after: f64,
    /// The uncertainty (sigma) after the game.
    pub uncertainty: f64,
}

/// The rating players see: conservative, `SHOWN_SIGMAS` uncertainties below the mean.
pub fn shown_rating(mu: f64, sigma: f64) -> f64 {
    mu - SHOWN_SIGMAS * sigma
}

impl SeatRating {
    fn of(change: &RatingChange) -> SeatRating {
        SeatRating {
            team: change.team,
            rank: change.rank,
            before: shown_rating(change.mu_before, change.sigma_before),
            after: shown_rating(change.mu_after, change.sigma_after),
            uncertainty: change.sigma_after,
        }
    }
}

impl super::GameService {
    /// What the game did to its seats' ratings on its server's ladder (empty for a game that
    /// rated nothing, or is not over).
    pub fn seat_ratings(&self, id: GameId) -> Result<Vec<SeatRating>> {
        let conn = self.store.conn()?;
        Ok(store::rating_changes_of_game(&conn, id)?
            .iter()
            .filter(|c| matches!(c.scope, RatingScope::Guild(_)))
            .map(SeatRating::of)
            .collect())
    }
}

/// What rating a finished game did: its final standing, and each seat's change on each
/// ladder.
pub(super) struct Rated {
    pub standing: Vec<RankedSide>,
    pub changes: Vec<RatingChange>,
}

/// Rates a finished game on its server's ladder and on the ladder of every server, and
/// records what it changed; `None` for an ending or a game that rates nothing.
pub(super) fn rate_finished(
    tx: &impl Db,
    row: &GameRow,
    seats: &[SeatRow],
    game: &Game,
    end: &GameEnd,
    now: i64,
) -> Result<Option<Rated>> {
    let Some(guild) = row.guild_id else {
        return Ok(None);
    };
    let Some(standing) = final_standing(seats, game, end) else {
        return Ok(None);
    };
    let mut changes = Vec::new();
    for scope in [RatingScope::Guild(guild), RatingScope::All] {
        changes.extend(rate_on(tx, row, scope, &standing, now)?);
    }
    Ok(Some(Rated { standing, changes }))
}

fn rate_on(
    tx: &impl Db,
    row: &GameRow,
    scope: RatingScope,
    standing: &[RankedSide],
    now: i64,
) -> Result<Vec<RatingChange>> {
    // A player new to the ladder starts at the method's own default.
    let start = WengLinRating::new();
    let mut before: Vec<Vec<RatingRow>> = Vec::with_capacity(standing.len());
    for side in standing {
        let mut members = Vec::with_capacity(side.seats.len());
        for (_, player) in &side.seats {
            members.push(store::get_rating(tx, scope, player)?.unwrap_or(RatingRow {
                scope,
                player: player.clone(),
                mu: start.rating,
                sigma: start.uncertainty,
                games: 0,
                updated_at: now,
            }));
        }
        before.push(members);
    }
    let teams: Vec<Vec<WengLinRating>> = before
        .iter()
        .map(|side| {
            side.iter()
                .map(|r| WengLinRating {
                    rating: r.mu,
                    uncertainty: r.sigma,
                })
                .collect()
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(standing)
        .map(|(team, side)| (team.as_slice(), MultiTeamOutcome::new(side.rank.into())))
        .collect();
    let after = weng_lin_multi_team(&input, &WengLinConfig::new());
    // A player in several seats (three `normal` bots against a person) moves once, by the
    // mean of its seats' results: one game played, not three.
    let mut moved: Vec<(RatingRow, f64, f64, u32)> = Vec::new();
    let mut changes = Vec::new();
    for ((side, old), new) in standing.iter().zip(&before).zip(&after) {
        for (((team, player), old), new) in side.seats.iter().zip(old).zip(new) {
            let change = RatingChange {
                game_id: row.id,
                scope,
                team: *team,
                player: player.clone(),
                rank: side.rank,
                mu_before: old.mu,
                sigma_before: old.sigma,
                mu_after: new.rating,
                sigma_after: new.uncertainty,
            };
            store::insert_rating_change(tx, &change)?;
            changes.push(change);
            match moved.iter_mut().find(|(o, ..)| o.player == *player) {
                Some((_, mu, sigma, seats)) => {
                    *mu += new.rating;
                    *sigma += new.uncertainty;
                    *seats += 1;
                }
                None => moved.push((old.clone(), new.rating, new.uncertainty, 1)),
            }
        }
    }
    for (old, mu, sigma, seats) in moved {
        let seats = f64::from(seats);
        store::put_rating(
            tx,
            &RatingRow {
                mu: mu / seats,
                sigma: sigma / seats,
                games: old.games.saturating_add(1),
                updated_at: now,
                ..old
            },
        )?;
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_rank_by_staying_winning_and_gold_with_ties() {
        // (won, stayed, gold)
        let duel = [(true, true, 3), (false, true, 9)];
        assert_eq!(ranks(&duel), [1, 2], "the winner first, whatever the gold");
        let four = [
            (false, true, 4),
            (true, true, 7),
            (false, true, 4),
            (false, false, 9),
        ];
        assert_eq!(
            ranks(&four),
            [2, 1, 2, 4],
            "equal gold ties; who left is last"
        );
        let draw = [(false, true, 5), (false, true, 5), (false, true, 2)];
        assert_eq!(ranks(&draw), [1, 1, 3]);
        let left_and_won = [(true, false, 0), (false, true, 1)];
        assert_eq!(
            ranks(&left_and_won),
            [2, 1],
            "a side that left ranks below one that stayed"
        );
    }
}
