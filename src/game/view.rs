//! What the service shows of a game to its callers (the bot, the terminal game, the tools):
//! plain, typed values made from the stored rows, which stay inside the service and the store.

use crate::ai::BotLevel;
use crate::engine::{Game, Team};
use crate::id::{ChannelId, GameId, GuildId, MessageId, UserId};
use crate::words::Lang;

use super::{GameConfig, GameEnd, GameStatus, Loaded};

/// A game as its callers see it: where it is played, who sits where, how far it has gone, and
/// its state once started.
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    pub id: GameId,
    pub status: GameStatus,
    pub owner: UserId,
    /// The language the game's public posts are written in.
    pub lang: Lang,
    pub guild_id: Option<GuildId>,
    /// The channel the game was made in (`None` for a terminal game).
    pub channel_id: Option<ChannelId>,
    /// The game's own thread, once made.
    pub thread_id: Option<ChannelId>,
    /// The lobby message in `channel_id`.
    pub lobby_message_id: Option<MessageId>,
    /// Where the game's public posts go: its thread, else the channel it was made in.
    pub place: Option<ChannelId>,
    pub seed: Option<u64>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub ended_at: Option<i64>,
    /// How many actions have been played.
    pub ply: u32,
    /// The moves complete at `ply` (a move that stopped for a choice is complete once the
    /// choice is answered): what players count moves by.
    pub moves: u32,
    pub seats: Vec<SeatView>,
    pub config: GameConfig,
    /// `None` before the game starts.
    pub state: Option<Game>,
    /// How the game ended, once it has (`None` also for an ending stored unreadably).
    pub end: Option<GameEnd>,
}

/// One seat of a game: a player's, or a bot's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat, numbered as the team that plays it once the game starts.
    pub team: Team,
    /// The player in the seat (`None` for a bot).
    pub user_id: Option<UserId>,
    /// The bot playing the seat: a bot's own seat, or one taken over for `away_user_id`.
    pub bot: Option<BotLevel>,
    /// The player a bot plays the seat for: one whose time ran out too often (they may take
    /// it back while the game runs), or one who resigned (`resigned`: they may not).
    pub away_user_id: Option<UserId>,
    pub resigned: bool,
    pub missed_deadlines: u32,
}

impl SeatView {
    /// The player the seat belongs to, playing or away.
    pub fn owner(&self) -> Option<UserId> {
        self.user_id.or(self.away_user_id)
    }
}

impl GameView {
    pub(super) fn of(loaded: Loaded) -> GameView {
        let end = loaded.end();
        let Loaded {
            row,
            seats,
            config,
            game,
            moves,
        } = loaded;
        GameView {
            id: row.id,
            status: row.status,
            owner: row.owner_id,
            lang: super::game_lang(&row),
            place: super::public_place(&row),
            guild_id: row.guild_id,
            channel_id: row.channel_id,
            thread_id: row.thread_id,
            lobby_message_id: row.lobby_message_id,
            seed: row.seed,
            created_at: row.created_at,
            started_at: row.started_at,
            ended_at: row.ended_at,
            ply: row.ply,
            moves,
            seats: seats
                .into_iter()
                .map(|s| SeatView {
                    team: s.team,
                    user_id: s.user_id,
                    // A level the service does not know was refused when the game loaded.
                    bot: s.bot_level.as_deref().and_then(|l| l.parse().ok()),
                    away_user_id: s.away_user_id,
                    resigned: s.resigned,
                    missed_deadlines: s.missed_deadlines,
                })
                .collect(),
            config,
            state: game,
            end,
        }
    }

    /// The number players know the move on hand by: the one being played (a choice on hand
    /// belongs to the move that stopped for it), or the next.
    pub fn move_number(&self) -> u32 {
        let choosing = self.state.as_ref().is_some_and(|g| g.pending().is_some());
        if choosing { self.moves } else { self.moves + 1 }
    }

    /// The seat numbered `number` (1–4), as a player names it.
    pub fn seat(&self, number: u8) -> Option<&SeatView> {
        self.seats.iter().find(|s| s.team.number() == number)
    }

    /// The seat `team` plays (a lobby's seats are numbered as their teams).
    pub fn team_seat(&self, team: Team) -> Option<&SeatView> {
        self.seats.iter().find(|s| s.team == team)
    }

    /// The seat `user` plays in.
    pub fn seat_of(&self, user: UserId) -> Option<&SeatView> {
        self.seats.iter().find(|s| s.user_id == Some(user))
    }

    /// The game's seats nobody holds, in order.
    pub fn free_seats(&self) -> Vec<Team> {
        self.config
            .teams()
            .filter(|t| self.team_seat(*t).is_none())
            .collect()
    }
}

/// A game in a list: enough to name it and say where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGame {
    pub id: GameId,
    pub status: GameStatus,
    pub channel_id: Option<ChannelId>,
    pub thread_id: Option<ChannelId>,
}

impl ListedGame {
    pub(super) fn of(row: &crate::store::GameRow) -> ListedGame {
        ListedGame {
            id: row.id,
            status: row.status,
            channel_id: row.channel_id,
            thread_id: row.thread_id,
        }
    }
}
