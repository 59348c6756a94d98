//! What finished games leave for stats and leaderboards: each rated seat's result, and the
//! standings of every ladder kept summed per period and format (migration 0013).

use super::super::sql::{ColumnError, FromValue, Row, ToValue, Value, params, text_column};
use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

use super::super::{Db, Result, StoreError};
use super::*;
use crate::engine::{Players, Team};

/// The kind of table a game was played at: leaderboards can count one kind only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameFormat {
    Duel,
    Three,
    Four,
    /// Two sides of two (2x2).
    Pairs,
}

impl GameFormat {
    pub const ALL: [GameFormat; 4] = [
        GameFormat::Duel,
        GameFormat::Three,
        GameFormat::Four,
        GameFormat::Pairs,
    ];

    pub fn word(self) -> &'static str {
        match self {
            GameFormat::Duel => "duel",
            GameFormat::Three => "three",
            GameFormat::Four => "four",
            GameFormat::Pairs => "pairs",
        }
    }

    pub fn parse(text: &str) -> Option<GameFormat> {
        GameFormat::ALL.into_iter().find(|f| f.word() == text)
    }
}

impl From<Players> for GameFormat {
    fn from(players: Players) -> GameFormat {
        match players {
            Players::Two => GameFormat::Duel,
            Players::Three => GameFormat::Three,
            Players::Four => GameFormat::Four,
            Players::TwoVsTwo => GameFormat::Pairs,
        }
    }
}

impl ToValue for GameFormat {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self.word().into())
    }
}

impl FromValue for GameFormat {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ColumnError> {
        text_column(value, |text| {
            GameFormat::parse(text).ok_or_else(|| StoreError::Corrupt(format!("format `{text}`")))
        })
    }
}

/// The stretch of time a standing sums: all time, or one calendar week (from Monday) or month,
/// in UTC, named by its first day.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Period {
    All,
    Week(Date),
    Month(Date),
}

/// Which periods a leaderboard can show: the one now of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PeriodKind {
    All,
    Week,
    Month,
}

impl PeriodKind {
    pub const ALL: [PeriodKind; 3] = [PeriodKind::All, PeriodKind::Month, PeriodKind::Week];

    pub fn word(self) -> &'static str {
        match self {
            PeriodKind::All => "all",
            PeriodKind::Week => "week",
            PeriodKind::Month => "month",
        }
    }

    pub fn parse(text: &str) -> Option<PeriodKind> {
        PeriodKind::ALL.into_iter().find(|p| p.word() == text)
    }

    /// The period of this kind that holds the instant `ms` (milliseconds since the epoch).
    pub fn at(self, ms: i64) -> Period {
        let day = Timestamp::from_millisecond(ms)
            .unwrap_or(Timestamp::UNIX_EPOCH)
            .to_zoned_datetime(TimeZone::UTC)
            .date();
        match self {
            PeriodKind::All => Period::All,
            PeriodKind::Week => {
                let back = i64::from(day.weekday().to_monday_zero_offset());
                Period::Week(day.checked_sub(jiff::Span::new().days(back)).unwrap_or(day))
            }
            PeriodKind::Month => Period::Month(day.first_of_month()),
        }
    }
}

impl Period {
    /// The key stored in `standings.period`.
    pub fn key(self) -> String {
        match self {
            Period::All => "all".to_string(),
            Period::Week(monday) => format!("w{monday}"),
            Period::Month(first) => format!("m{:04}-{:02}", first.year(), first.month()),
        }
    }
}

/// One rated seat of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResultRow {
    pub game_id: GameId,
    pub team: Team,
    pub player: RatedPlayer,
    pub guild_id: GuildId,
    /// The side's lowest team, which names the side.
    pub side: Team,
    pub format: GameFormat,
    /// The side's rank: 1 first, ties shared.
    pub rank: u8,
    pub won: bool,
    pub left_early: bool,
    /// The gold the team carried home; `None` for a game rated before results were kept.
    pub gold: Option<u32>,
    pub pirates_lost: Option<u32>,
    pub missed_deadlines: u32,
    pub ended_at: i64,
}

pub fn insert_game_result(conn: &impl Db, r: &GameResultRow) -> Result<()> {
    conn.link().execute(
        "INSERT INTO game_results (game_id, team, player, guild_id, side, format, rank, won, \
             left_early, gold, pirates_lost, missed_deadlines, ended_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        params![
            r.game_id,
            r.team,
            r.player,
            r.guild_id,
            r.side,
            r.format,
            r.rank,
            r.won,
            r.left_early,
            r.gold,
            r.pirates_lost,
            r.missed_deadlines,
            r.ended_at
        ],
    )?;
    Ok(())
}

const SELECT_RESULTS: &str = "SELECT game_id, team, player, guild_id, side, format, rank, won, \
     left_early, gold, pirates_lost, missed_deadlines, ended_at FROM game_results";

fn result_row(r: &Row) -> Result<GameResultRow> {
    Ok(GameResultRow {
        game_id: r.get(0)?,
        team: r.get(1)?,
        player: r.get(2)?,
        guild_id: r.get(3)?,
        side: r.get(4)?,
        format: r.get(5)?,
        rank: r.get(6)?,
        won: r.get(7)?,
        left_early: r.get(8)?,
        gold: r.get(9)?,
        pirates_lost: r.get(10)?,
        missed_deadlines: r.get(11)?,
        ended_at: r.get(12)?,
    })
}

/// A player's results on one server (`Some`) or everywhere, oldest game first.
pub fn results_of_player(
    conn: &impl Db,
    player: &RatedPlayer,
    guild: Option<GuildId>,
) -> Result<Vec<GameResultRow>> {
    let conn = conn.link();
    let rows = match guild {
        Some(guild) => conn.query_many(
            &format!("{SELECT_RESULTS} WHERE player = ?1 AND guild_id = ?2 ORDER BY game_id"),
            params![player, guild],
            result_row,
        )?,
        None => conn.query_many(
            &format!("{SELECT_RESULTS} WHERE player = ?1 ORDER BY game_id"),
            params![player],
            result_row,
        )?,
    };
    Ok(rows)
}

/// Every rated seat of one game, by team.
pub fn results_of_game(conn: &impl Db, game: GameId) -> Result<Vec<GameResultRow>> {
    conn.link().query_many(
        &format!("{SELECT_RESULTS} WHERE game_id = ?1 ORDER BY team"),
        params![game],
        result_row,
    )
}

/// A player's record against each opponent they met on one server (`Some`) or everywhere.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentRecord {
    pub opponent: RatedPlayer,
    pub games: u32,
    /// Games the player's side ranked above the opponent's.
    pub beaten: u32,
}

pub fn opponents_of(
    conn: &impl Db,
    player: &RatedPlayer,
    guild: Option<GuildId>,
) -> Result<Vec<OpponentRecord>> {
    // `?2 IS NULL` keeps one statement for both scopes (cast: PostgreSQL must know a
    // parameter's type where it first meets it); the index on (player, guild_id) finds the
    // player's seats, the key finds each game's other seats.
    let rows = conn.link().query_many(
        "SELECT o.player, COUNT(DISTINCT o.game_id), \
                COUNT(DISTINCT CASE WHEN me.rank < o.rank THEN o.game_id END) \
         FROM game_results me JOIN game_results o \
           ON o.game_id = me.game_id AND o.side <> me.side AND o.player <> me.player \
         WHERE me.player = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR me.guild_id = ?2) \
         GROUP BY o.player",
        params![player, guild],
        |r| {
            Ok(OpponentRecord {
                opponent: r.get(0)?,
                games: r.get(1)?,
                beaten: r.get(2)?,
            })
        },
    )?;
    Ok(rows)
}

/// One leaderboard: a ladder, a period and the games it counts (`None`: every format).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardKey {
    pub scope: RatingScope,
    pub period: Period,
    pub format: Option<GameFormat>,
}

struct FormatKey(Option<GameFormat>);

impl ToValue for FormatKey {
    fn to_value(&self) -> Value<'_> {
        Value::Text(self.0.map_or("any", GameFormat::word).into())
    }
}

/// A person's row on a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingRow {
    pub user: UserId,
    /// Rating points won in the games counted (over all of a ladder's games, the rating).
    pub points: f64,
    pub games: u32,
    pub wins: u32,
}

/// Adds one finished game of `user` to a leaderboard.
pub fn add_to_standing(
    conn: &impl Db,
    key: &BoardKey,
    user: UserId,
    points: f64,
    won: bool,
) -> Result<()> {
    conn.link().execute(
        "INSERT INTO standings (scope, period, format, user_id, points, games, wins) \
             VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) \
             ON CONFLICT (scope, period, format, user_id) DO UPDATE SET \
             points = standings.points + ?5, games = standings.games + 1, \
             wins = standings.wins + ?6",
        params![
            key.scope,
            key.period.key(),
            FormatKey(key.format),
            user,
            points,
            u32::from(won)
        ],
    )?;
    Ok(())
}

fn standing_row(r: &Row) -> Result<StandingRow> {
    Ok(StandingRow {
        user: r.get(0)?,
        points: r.get(1)?,
        games: r.get(2)?,
        wins: r.get(3)?,
    })
}

/// The band of points a standing is counted in (`standing_counts`): its floor, which the
/// migration's triggers compute by comparisons alone, so that a band's rows are exactly those
/// with `band <= points < band + 1`.
fn band(points: f64) -> i64 {
    points.floor() as i64
}

/// A board's bands, the best first, with how many people each holds.
fn bands(conn: &impl Db, key: &BoardKey) -> Result<Vec<(i64, u32)>> {
    let rows = conn.link().query_many(
        "SELECT band, people FROM standing_counts \
         WHERE scope = ?1 AND period = ?2 AND format = ?3 AND people > 0 ORDER BY band DESC",
        params![key.scope, key.period.key(), FormatKey(key.format)],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(rows)
}

/// `limit` rows of a leaderboard from `offset`, the best first (ties by wins, then by player).
/// The band the page starts in is found from the bands' counts; only the rows above the
/// page within that band are stepped over.
pub fn board_page(
    conn: &impl Db,
    key: &BoardKey,
    offset: u32,
    limit: u32,
) -> Result<Vec<StandingRow>> {
    let mut above = 0;
    let mut start = None;
    for (band, people) in bands(conn, key)? {
        if above + people > offset {
            start = Some(band);
            break;
        }
        above += people;
    }
    let Some(band) = start else {
        return Ok(Vec::new());
    };
    let rows = conn.link().query_many(
        "SELECT user_id, points, games, wins FROM standings \
         WHERE scope = ?1 AND period = ?2 AND format = ?3 AND points < ?4 \
         ORDER BY points DESC, wins DESC, user_id LIMIT ?5 OFFSET ?6",
        params![
            key.scope,
            key.period.key(),
            FormatKey(key.format),
            (band + 1) as f64,
            limit,
            offset - above
        ],
        standing_row,
    )?;
    Ok(rows)
}

/// How many people a leaderboard holds.
pub fn board_size(conn: &impl Db, key: &BoardKey) -> Result<u32> {
    conn.link().query_one(
        "SELECT COALESCE(SUM(people), 0) FROM standing_counts \
             WHERE scope = ?1 AND period = ?2 AND format = ?3",
        params![key.scope, key.period.key(), FormatKey(key.format)],
        |r| r.get(0),
    )
}

/// How many people stand strictly above `points` on a leaderboard: a place is one more (ties
/// share it). The bands above, then the people above within its own band.
pub fn board_ahead_of(conn: &impl Db, key: &BoardKey, points: f64) -> Result<u32> {
    let own = band(points);
    let in_bands_above: u32 = conn.link().query_one(
        "SELECT COALESCE(SUM(people), 0) FROM standing_counts \
             WHERE scope = ?1 AND period = ?2 AND format = ?3 AND band > ?4",
        params![key.scope, key.period.key(), FormatKey(key.format), own],
        |r| r.get(0),
    )?;
    let in_own_band: u32 = conn.link().query_one(
        "SELECT COUNT(*) FROM standings \
             WHERE scope = ?1 AND period = ?2 AND format = ?3 AND points > ?4 AND points < ?5",
        params![
            key.scope,
            key.period.key(),
            FormatKey(key.format),
            points,
            (own + 1) as f64
        ],
        |r| r.get(0),
    )?;
    Ok(in_bands_above + in_own_band)
}

/// One person's row on a leaderboard, if they have one.
pub fn standing_of(conn: &impl Db, key: &BoardKey, user: UserId) -> Result<Option<StandingRow>> {
    conn.link().query_opt(
        "SELECT user_id, points, games, wins FROM standings \
             WHERE scope = ?1 AND period = ?2 AND format = ?3 AND user_id = ?4",
        params![key.scope, key.period.key(), FormatKey(key.format), user],
        standing_row,
    )
}

/// When an action was played and by whom: what times to move are measured from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionTime {
    pub ply: u32,
    pub team: i64,
    /// Who played it; `None` for a bot or a timeout.
    pub user: Option<UserId>,
    pub at: i64,
}

/// A game's actions in order, with their times and players (the key's range only: the moves
/// themselves are not read).
pub fn action_times(conn: &impl Db, game: GameId) -> Result<Vec<ActionTime>> {
    let rows = conn.link().query_many(
        "SELECT ply, team, user_id, created_at FROM actions WHERE game_id = ?1 ORDER BY ply",
        params![game],
        |r| {
            Ok(ActionTime {
                ply: r.get(0)?,
                team: r.get(1)?,
                user: r.get(2)?,
                at: r.get(3)?,
            })
        },
    )?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_floors_of_points() {
        for (points, floor) in [(0.0, 0), (0.99, 0), (-0.01, -1), (-3.0, -3), (12.5, 12)] {
            assert_eq!(band(points), floor, "{points}");
        }
    }

    #[test]
    fn periods_start_on_monday_and_the_first_of_the_month_utc() {
        // 2026-12-06 23:30 UTC is a Sunday; 2026-12-07 00:10 UTC the Monday after.
        let sunday = 1_796_599_800_000;
        let monday = 1_796_602_200_000;
        assert_eq!(PeriodKind::Week.at(sunday).key(), "w2026-11-30");
        assert_eq!(PeriodKind::Week.at(monday).key(), "w2026-12-07");
        assert_eq!(PeriodKind::Month.at(sunday).key(), "m2026-12");
        assert_eq!(PeriodKind::All.at(monday).key(), "all");
        for kind in PeriodKind::ALL {
            assert_eq!(PeriodKind::parse(kind.word()), Some(kind));
        }
        for format in GameFormat::ALL {
            assert_eq!(GameFormat::parse(format.word()), Some(format));
        }
    }
}
