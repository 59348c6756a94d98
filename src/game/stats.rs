//! A player's stats on one server: their record, their place and rating with its history,
//! how fast they move, the deadlines they missed, who they play and beat most, the gold they
//! carried home and the pirates they lost. Read from what each finished game left (migration
//! 0013) and the times of their moves in the action log.

use super::Result;
use super::rating::shown_rating;
use crate::id::{GuildId, UserId};
use crate::store::{
    self, BoardKey, Db, GameResultRow, OpponentRecord, Period, RatedPlayer, RatingScope,
};

/// Someone met across the table: a person, or a bot of a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    Person(UserId),
    /// A bot, by its level's name as seats store it.
    Bot(String),
}

impl From<RatedPlayer> for Opponent {
    fn from(player: RatedPlayer) -> Opponent {
        match player {
            RatedPlayer::User(user) => Opponent::Person(user),
            RatedPlayer::Bot(level) => Opponent::Bot(level),
        }
    }
}

/// A player's stats on a server, for `/jackal stats`.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsView {
    pub user: UserId,
    /// Rated games finished on the server, and those won.
    pub games: u32,
    pub wins: u32,
    /// Their place on the server's ladder, and how many people are on it.
    pub place: u32,
    pub people: u32,
    /// The shown (conservative) rating and its uncertainty, on the server's ladder and on
    /// every server's.
    pub rating: f64,
    pub uncertainty: f64,
    pub global_rating: Option<f64>,
    /// The shown rating before their first game here, then after each one.
    pub history: Vec<f64>,
    /// How long they took to move once it was their turn, in milliseconds: mean and median
    /// over `moves_timed` turns (`None` without any).
    pub move_mean_ms: Option<i64>,
    pub move_median_ms: Option<i64>,
    pub moves_timed: u32,
    pub missed_deadlines: u32,
    /// Who they met most, with the games; and who they beat most, with the games won and
    /// played against them.
    pub favourite: Option<(Opponent, u32)>,
    pub best: Option<(Opponent, u32, u32)>,
    /// Gold their team carried home and their pirates lost, over the games that kept it
    /// (`counted_games`: games rated before results were kept do not know).
    pub gold: u64,
    pub pirates_lost: u64,
    pub counted_games: u32,
}

impl super::GameService {
    /// `user`'s stats on `guild`; `None` when they finished no rated game there.
    pub fn stats(&self, user: UserId, guild: GuildId) -> Result<Option<StatsView>> {
        let conn = self.store.conn()?;
        let player = RatedPlayer::User(user);
        let results = store::results_of_player(&conn, &player, Some(guild))?;
        if results.is_empty() {
            return Ok(None);
        }
        let scope = RatingScope::Guild(guild);
        let Some(rating) = store::get_rating(&conn, scope, &player)? else {
            return Ok(None);
        };
        let ladder = BoardKey {
            scope,
            period: Period::All,
            format: None,
        };
        let shown = shown_rating(rating.mu, rating.sigma);
        let place = match store::standing_of(&conn, &ladder, user)? {
            Some(row) => store::board_ahead_of(&conn, &ladder, row.points)? + 1,
            None => store::board_ahead_of(&conn, &ladder, shown)? + 1,
        };
        let people = store::board_size(&conn, &ladder)?;
        let global_rating = store::get_rating(&conn, RatingScope::All, &player)?
            .map(|r| shown_rating(r.mu, r.sigma));
        let history = rating_line(&store::rating_history(&conn, &player, scope)?);
        let times = move_times(&conn, user, &results)?;
        let opponents = store::opponents_of(&conn, &player, Some(guild))?;
        let known: Vec<&GameResultRow> = results.iter().filter(|r| r.gold.is_some()).collect();
        Ok(Some(StatsView {
            user,
            games: results.len() as u32,
            wins: results.iter().filter(|r| r.won).count() as u32,
            place,
            people,
            rating: shown,
            uncertainty: rating.sigma,
            global_rating,
            history,
            move_mean_ms: mean(&times),
            move_median_ms: median(&times),
            moves_timed: times.len() as u32,
            missed_deadlines: results.iter().map(|r| r.missed_deadlines).sum(),
            favourite: favourite(&opponents),
            best: best(&opponents),
            gold: known.iter().filter_map(|r| r.gold).map(u64::from).sum(),
            pirates_lost: known
                .iter()
                .filter_map(|r| r.pirates_lost)
                .map(u64::from)
                .sum(),
            counted_games: known.len() as u32,
        }))
    }
}

/// The shown rating before the first game, then after each.
fn rating_line(changes: &[store::RatingChange]) -> Vec<f64> {
    let Some(first) = changes.first() else {
        return Vec::new();
    };
    std::iter::once(shown_rating(first.mu_before, first.sigma_before))
        .chain(
            changes
                .iter()
                .map(|c| shown_rating(c.mu_after, c.sigma_after)),
        )
        .collect()
}

/// How long `user` took to make each move of theirs in these games: from the moment the turn
/// came to their team (the game's start, or the other team's last action) to their first
/// action of it. Later actions of the same turn (answers to choices) and moves a bot played
/// for them are not timed.
fn move_times(conn: &impl Db, user: UserId, results: &[GameResultRow]) -> Result<Vec<i64>> {
    let mut times = Vec::new();
    for result in results {
        let Some(row) = store::get_game(conn, result.game_id)? else {
            continue;
        };
        let mine = i64::from(result.team.number());
        let mut turn_began = row.started_at.unwrap_or(row.created_at);
        let mut last_team = None;
        for action in store::action_times(conn, result.game_id)? {
            let starts_turn = last_team != Some(action.team);
            if starts_turn && action.team == mine && action.user == Some(user) {
                times.push((action.at - turn_began).max(0));
            }
            // Whoever moves next began their turn when this action was played.
            turn_began = action.at;
            last_team = Some(action.team);
        }
    }
    Ok(times)
}

fn mean(times: &[i64]) -> Option<i64> {
    let n = i64::try_from(times.len()).ok().filter(|n| *n > 0)?;
    Some(times.iter().sum::<i64>() / n)
}

fn median(times: &[i64]) -> Option<i64> {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2),
    }
}

/// The opponent met in the most games (ties: the one beaten more, then the first met).
fn favourite(opponents: &[OpponentRecord]) -> Option<(Opponent, u32)> {
    opponents
        .iter()
        .max_by_key(|o| (o.games, o.beaten))
        .map(|o| (o.opponent.clone().into(), o.games))
}

/// The opponent beaten most often (ties: in fewer games); `None` when nobody was beaten.
fn best(opponents: &[OpponentRecord]) -> Option<(Opponent, u32, u32)> {
    opponents
        .iter()
        .filter(|o| o.beaten > 0)
        .max_by_key(|o| (o.beaten, std::cmp::Reverse(o.games)))
        .map(|o| (o.opponent.clone().into(), o.beaten, o.games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_median_of_move_times() {
        assert_eq!(mean(&[]), None);
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[5, 1, 9]), Some(5));
        assert_eq!(median(&[4, 1, 9, 2]), Some(3));
        assert_eq!(mean(&[4, 1, 9, 2]), Some(4));
    }

    #[test]
    fn favourite_and_best_opponents() {
        let record = |id: u64, games, beaten| OpponentRecord {
            opponent: RatedPlayer::User(UserId::new(id)),
            games,
            beaten,
        };
        let met = [record(1, 5, 1), record(2, 3, 3), record(3, 5, 2)];
        assert_eq!(favourite(&met), Some((Opponent::Person(UserId::new(3)), 5)));
        assert_eq!(best(&met), Some((Opponent::Person(UserId::new(2)), 3, 3)));
        assert_eq!(best(&[record(1, 4, 0)]), None);
    }
}
