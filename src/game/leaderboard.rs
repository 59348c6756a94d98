//! Leaderboards: a server's people (or every server's) by rating points won, all time or this
//! week or month, over every format of game or one. Each page is one range of the standings'
//! index (see migration 0013), so it costs the same with ten games or a hundred thousand.

use super::Result;
use crate::id::{GuildId, UserId};
use crate::store::{self, BoardKey, Db, GameFormat, Period, PeriodKind, RatingScope, StandingRow};

/// People a page shows.
pub const PAGE_SIZE: u32 = 10;

/// Which leaderboard, and which page of it (0 first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardQuery {
    /// A server's; `None` for every server's together.
    pub guild: Option<GuildId>,
    pub period: PeriodKind,
    /// Count only games of this format; `None` for all.
    pub format: Option<GameFormat>,
    pub page: u32,
}

/// One person's line.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardEntry {
    /// 1 first; equal points share a place.
    pub place: u32,
    pub user: UserId,
    /// Rating points won in the games counted; over all of a ladder's games, the rating.
    pub points: f64,
    pub games: u32,
    pub wins: u32,
}

/// A page of a leaderboard, for its caller.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardView {
    /// What was asked, with the page brought within the board.
    pub query: BoardQuery,
    /// The period shown (this week's Monday, this month).
    pub period: Period,
    pub entries: Vec<BoardEntry>,
    /// People on the board, and its pages (at least 1).
    pub people: u32,
    pub pages: u32,
    /// The caller's own line, wherever it is (`None`: not on this board).
    pub you: Option<BoardEntry>,
}

impl super::GameService {
    /// A page of a leaderboard for `caller`, the board as it is now.
    pub fn leaderboard(&self, caller: UserId, query: BoardQuery) -> Result<BoardView> {
        let conn = self.store.conn()?;
        let now = self.now();
        board_on(&conn, caller, query, now)
    }
}

fn board_on(conn: &impl Db, caller: UserId, query: BoardQuery, now: i64) -> Result<BoardView> {
    let period = query.period.at(now);
    let key = BoardKey {
        scope: query.guild.map_or(RatingScope::All, RatingScope::Guild),
        period,
        format: query.format,
    };
    let people = store::board_size(conn, &key)?;
    let pages = people.div_ceil(PAGE_SIZE).max(1);
    let page = query.page.min(pages - 1);
    let offset = page * PAGE_SIZE;
    let rows = store::board_page(conn, &key, offset, PAGE_SIZE)?;
    let mut entries: Vec<BoardEntry> = Vec::with_capacity(rows.len());
    for (i, row) in rows.into_iter().enumerate() {
        // Ordered by points: a line shares the place of the one above when tied with it; the
        // first of a page counts who is above it.
        let place = match entries.last() {
            Some(above) if above.points == row.points => above.place,
            Some(_) => offset + i as u32 + 1,
            None => store::board_ahead_of(conn, &key, row.points)? + 1,
        };
        entries.push(entry(place, row));
    }
    let you = match entries.iter().find(|e| e.user == caller) {
        Some(shown) => Some(shown.clone()),
        None => match store::standing_of(conn, &key, caller)? {
            Some(row) => Some(entry(
                store::board_ahead_of(conn, &key, row.points)? + 1,
                row,
            )),
            None => None,
        },
    };
    Ok(BoardView {
        query: BoardQuery { page, ..query },
        period,
        entries,
        people,
        pages,
        you,
    })
}

fn entry(place: u32, row: StandingRow) -> BoardEntry {
    BoardEntry {
        place,
        user: row.user,
        points: row.points,
        games: row.games,
        wins: row.wins,
    }
}
