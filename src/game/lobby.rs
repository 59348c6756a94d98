//! Lobby use cases: create, join, leave, configure, bots, start, kick, cancel, my games.

use super::Needs;
use super::end::GameEnd;
use super::outbox::{self, Notice, OutboxMessage, Target};
use super::turns::turn_deadline;
use super::{
    Actor, GameConfig, GameService, GameView, Loaded, Location, Result, ServiceError, load_with,
};
use crate::ai::BotLevel;
use crate::engine::{Game, Team};
use crate::id::{GameId, UserId};
use crate::store::{self, GameRow, GameStatus, NewGame, SeatRow};
use crate::store::{Db, Tx};
use crate::words::Lang;

pub(super) fn require_owner(row: &GameRow, actor: Actor) -> Result<()> {
    if actor.admin || actor.user == row.owner_id {
        Ok(())
    } else {
        Err(ServiceError::NotOwner)
    }
}

pub(super) fn require_lobby(row: &GameRow) -> Result<()> {
    match row.status {
        GameStatus::Lobby => Ok(()),
        GameStatus::Active => Err(ServiceError::AlreadyStarted(row.id)),
        _ => Err(ServiceError::Finished(row.id)),
    }
}

/// Changes one setting of the lobby `g` (owner or admin). Seats beyond a smaller player count
/// are freed.
pub(super) fn configure_in(
    tx: &Tx<'_>,
    g: &Loaded,
    actor: Actor,
    setting: &str,
    value: &str,
) -> Result<GameConfig> {
    let id = g.row.id;
    require_lobby(&g.row)?;
    require_owner(&g.row, actor)?;
    let mut config = g.config.clone();
    config
        .set(setting, value)
        .map_err(ServiceError::BadSetting)?;
    for s in &g.seats {
        if !config.has_team(s.team) {
            store::delete_seat(tx, id, s.team)?;
        }
    }
    store::set_settings(tx, id, &serde_json::to_string(&config).expect("plain data"))?;
    Ok(config)
}

/// The game's public place, if it has one (a game outside Discord has none).
pub(super) fn public_target(row: &GameRow) -> Option<Target> {
    row.channel_id.map(|_| Target::Game)
}

/// Posts a notice in the game's public place, if it has one (inside the caller's
/// transaction).
pub(super) fn notice(tx: &impl Db, row: &GameRow, notice: Notice, now: i64) -> Result<()> {
    if let Some(target) = public_target(row) {
        let message = OutboxMessage::Notice {
            game_id: row.id,
            notice,
        };
        outbox::enqueue(tx, target, &message, now)?;
    }
    Ok(())
}

/// Ends the game of `row` as `end` inside the caller's transaction: the result, no more
/// timers, and the game-over post.
pub(super) fn end_in(
    tx: &impl Db,
    row: &GameRow,
    status: GameStatus,
    end: GameEnd,
    now: i64,
) -> Result<()> {
    store::end_game(tx, row.id, status, &end.to_stored(), now)?;
    store::clear_timers(tx, row.id)?;
    if let Some(target) = public_target(row) {
        let message = OutboxMessage::GameOver {
            game_id: row.id,
            end,
        };
        outbox::enqueue(tx, target, &message, now)?;
    }
    Ok(())
}

/// Writes a new game row (a lobby) for `owner` at `location`.
pub(super) fn insert_game_row(
    tx: &impl Db,
    location: Location,
    config: &GameConfig,
    owner: UserId,
    language: Lang,
    now: i64,
) -> Result<GameId> {
    let settings = serde_json::to_string(config).expect("plain data");
    Ok(store::insert_game(
        tx,
        &NewGame {
            guild_id: location.guild_id,
            channel_id: location.channel_id,
            thread_id: location.thread_id,
            settings: &settings,
            owner_id: owner,
            language,
            created_at: now,
        },
    )?)
}

/// Cancels the game of `row` inside the caller's transaction.
fn cancel_in(tx: &impl Db, row: &GameRow, now: i64) -> Result<()> {
    end_in(tx, row, GameStatus::Cancelled, GameEnd::Cancelled, now)
}

/// Who sits on a seat of a game created full ([`GameService::create_started`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occupant {
    Player(UserId),
    Bot(BotLevel),
}

fn bot_seat(game_id: GameId, team: Team, level: BotLevel, now: i64) -> SeatRow {
    SeatRow {
        game_id,
        team,
        user_id: None,
        bot_level: Some(level.name().into()),
        joined_at: now,
        missed_deadlines: 0,
        missed_total: 0,
        resigned: false,
        away_user_id: None,
        kicked_user_id: None,
    }
}

/// A random free seat, from the operating system's generator (seating is not the engine's
/// business, R-SEAT-3).
fn random_seat(free: &[Team]) -> Team {
    let r = getrandom::u64().unwrap_or(0);
    free[(r % free.len() as u64) as usize]
}

/// What removing a player did to their seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kicked {
    /// A lobby's seat: free for anyone to take.
    Freed,
    /// A running game's seat: a bot plays it on.
    BotPlays,
}

impl GameService {
    /// Opens a lobby in a channel; the creator owns it and takes a seat (random unless given).
    pub fn create_lobby(
        &self,
        actor: Actor,
        location: Location,
        language: Lang,
        config: GameConfig,
        seat: Option<u8>,
    ) -> Result<GameId> {
        config.validate().map_err(ServiceError::BadSetting)?;
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let id = insert_game_row(&tx, location, &config, actor.user, language, self.now())?;
        let team = match seat {
            Some(n) => config.seat_numbered(n).ok_or(ServiceError::NoSuchSeat(n))?,
            None => random_seat(&config.teams().collect::<Vec<_>>()),
        };
        store::put_seat(&tx, &self.human_seat(id, team, actor.user))?;
        tx.commit()?;
        Ok(id)
    }

    fn human_seat(&self, game_id: GameId, team: Team, user: UserId) -> SeatRow {
        SeatRow {
            game_id,
            team,
            user_id: Some(user),
            bot_level: None,
            joined_at: self.now(),
            missed_deadlines: 0,
            missed_total: 0,
            resigned: false,
            away_user_id: None,
            kicked_user_id: None,
        }
    }

    fn lobby_change<T>(
        &self,
        id: GameId,
        change: impl FnOnce(&Tx<'_>, &Loaded) -> Result<T>,
    ) -> Result<T> {
        self.write(id, Needs::Stored, |tx, loaded| change(tx, loaded))
    }

    /// Takes a seat in a lobby: the one asked for, or a random free one. Returns the team.
    pub fn join(&self, actor: Actor, id: GameId, seat: Option<u8>) -> Result<Team> {
        self.lobby_change(id, |tx, g| self.join_in(tx, g, actor, seat))
    }

    pub(super) fn join_in(
        &self,
        tx: &Tx<'_>,
        g: &Loaded,
        actor: Actor,
        seat: Option<u8>,
    ) -> Result<Team> {
        let id = g.row.id;
        require_lobby(&g.row)?;
        if g.seat_of(actor.user).is_some() {
            return Err(ServiceError::AlreadySeated(id));
        }
        let free = g.free_seats();
        let asked = seat
            .map(|n| g.config.seat_numbered(n).ok_or(ServiceError::NoSuchSeat(n)))
            .transpose()?;
        let team = match asked {
            Some(t) if !free.contains(&t) => return Err(ServiceError::SeatTaken(t)),
            Some(t) => t,
            None if free.is_empty() => return Err(ServiceError::Full(id)),
            None => random_seat(&free),
        };
        store::put_seat(tx, &self.human_seat(id, team, actor.user))?;
        Ok(team)
    }

    /// Leaves a lobby. The owner leaving cancels it (in the same transaction).
    pub fn leave(&self, actor: Actor, id: GameId) -> Result<()> {
        self.lobby_change(id, |tx, g| self.leave_in(tx, g, actor))
    }

    pub(super) fn leave_in(&self, tx: &Tx<'_>, g: &Loaded, actor: Actor) -> Result<()> {
        let id = g.row.id;
        require_lobby(&g.row)?;
        let seat = g.seat_of(actor.user).ok_or(ServiceError::NotYourGame(id))?;
        store::delete_seat(tx, id, seat.team)?;
        if g.row.owner_id == actor.user {
            cancel_in(tx, &g.row, self.now())?;
        }
        Ok(())
    }

    /// Changes one setting of a lobby (owner or admin). Seats beyond a smaller player count
    /// are freed.
    pub fn configure(
        &self,
        actor: Actor,
        id: GameId,
        setting: &str,
        value: &str,
    ) -> Result<GameConfig> {
        self.lobby_change(id, |tx, g| configure_in(tx, g, actor, setting, value))
    }

    /// Puts a bot on a free seat (owner or admin).
    pub fn add_bot(&self, actor: Actor, id: GameId, team: u8, level: BotLevel) -> Result<()> {
        self.lobby_change(id, |tx, g| self.add_bot_in(tx, g, actor, Some(team), level))
    }

    /// Seats a bot on `team`, or on the first free seat.
    pub(super) fn add_bot_in(
        &self,
        tx: &Tx<'_>,
        g: &Loaded,
        actor: Actor,
        team: Option<u8>,
        level: BotLevel,
    ) -> Result<()> {
        let id = g.row.id;
        require_lobby(&g.row)?;
        require_owner(&g.row, actor)?;
        let team = match team {
            Some(number) => g
                .config
                .seat_numbered(number)
                .ok_or(ServiceError::NoSuchSeat(number))?,
            None => *g.free_seats().first().ok_or(ServiceError::Full(id))?,
        };
        if g.team_seat(team).is_some() {
            return Err(ServiceError::SeatTaken(team));
        }
        store::put_seat(tx, &bot_seat(id, team, level, self.now()))?;
        Ok(())
    }

    /// Starts a full lobby (owner or admin): the seed comes from the operating system's
    /// generator and is stored; the first player is told it is their turn.
    pub fn start(&self, actor: Actor, id: GameId) -> Result<GameView> {
        let seed = getrandom::u64().map_err(|e| ServiceError::NoRandomness(e.to_string()))?;
        self.start_with_seed(actor, id, seed)
    }

    /// As [`GameService::start`] with a chosen seed (local games, tests, imports).
    pub fn start_with_seed(&self, actor: Actor, id: GameId, seed: u64) -> Result<GameView> {
        let now = self.now();
        self.lobby_change(id, |tx, g| {
            require_lobby(&g.row)?;
            require_owner(&g.row, actor)?;
            self.start_in(tx, g, seed, now)
        })
        .map(GameView::of)
    }

    /// Creates a game whose every seat is known at once (a local game of `jackal play`),
    /// seats it and starts it, in one transaction: a crash at any moment leaves either no
    /// game or a running one, never a half-seated lobby without a seed.
    pub fn create_started(
        &self,
        owner: Actor,
        location: Location,
        language: Lang,
        config: GameConfig,
        seats: &[(u8, Occupant)],
        seed: u64,
    ) -> Result<GameId> {
        config.validate().map_err(ServiceError::BadSetting)?;
        let now = self.now();
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let id = insert_game_row(&tx, location, &config, owner.user, language, now)?;
        for &(number, occupant) in seats {
            let team = config
                .seat_numbered(number)
                .ok_or(ServiceError::NoSuchSeat(number))?;
            let seat = match occupant {
                Occupant::Player(user) => self.human_seat(id, team, user),
                Occupant::Bot(level) => bot_seat(id, team, level, now),
            };
            store::put_seat(&tx, &seat)?;
        }
        let lobby = load_with(&tx, id)?;
        let empty = lobby.free_seats();
        if !empty.is_empty() {
            return Err(ServiceError::SeatsEmpty(empty));
        }
        self.start_in(&tx, &lobby, seed, now)?;
        tx.commit()?;
        Ok(id)
    }

    /// Starts the full lobby `g` inside the caller's transaction.
    pub(super) fn start_in(&self, tx: &Tx<'_>, g: &Loaded, seed: u64, now: i64) -> Result<Loaded> {
        let id = g.row.id;
        let empty = g.free_seats();
        if !empty.is_empty() {
            return Err(ServiceError::SeatsEmpty(empty));
        }
        let game = Game::new(g.config.rules.clone(), seed)
            .map_err(|e| ServiceError::BadSetting(e.into()))?;
        store::start_game(tx, id, seed, now)?;
        let mut loaded = g.clone();
        loaded.row.status = GameStatus::Active;
        loaded.row.seed = Some(seed);
        loaded.row.started_at = Some(now);
        if let Some(target) = public_target(&g.row) {
            let message = OutboxMessage::GameStarted {
                game_id: id,
                deadline_ms: turn_deadline(tx, &loaded, &game, now)?,
            };
            outbox::enqueue(tx, target, &message, now)?;
        }
        self.schedule_turn(tx, &loaded, &game, now, true)?;
        loaded.game = Some(game);
        Ok(loaded)
    }

    /// Removes a player (owner or admin): from a lobby the seat is freed; in a running game a
    /// bot takes it over.
    pub fn kick(&self, actor: Actor, id: GameId, team: u8) -> Result<Kicked> {
        let now = self.now();
        self.lobby_change(id, |tx, g| {
            require_owner(&g.row, actor)?;
            let team = g
                .config
                .seat_numbered(team)
                .ok_or(ServiceError::NoSuchSeat(team))?;
            let seat = g
                .team_seat(team)
                .ok_or(ServiceError::SeatEmpty(team))?
                .clone();
            match g.row.status {
                GameStatus::Lobby => {
                    store::delete_seat(tx, id, team)?;
                    Ok(Kicked::Freed)
                }
                GameStatus::Active if seat.user_id.is_none() => Err(ServiceError::AlreadyBot(team)),
                GameStatus::Active => {
                    self.seat_to_bot(tx, g, &seat, false, now)?;
                    notice(tx, &g.row, Notice::Kicked { team }, now)?;
                    Ok(Kicked::BotPlays)
                }
                _ => Err(ServiceError::Finished(id)),
            }
        })
    }

    /// Hands `seat` of the running game `loaded` to a bot of the game's timeout level, in the
    /// caller's transaction. If
    /// that seat is on turn, the bot's timer replaces the player's deadline; otherwise whoever
    /// is on turn keeps theirs as it was.
    pub(super) fn seat_to_bot(
        &self,
        tx: &impl Db,
        loaded: &Loaded,
        seat: &SeatRow,
        resigned: bool,
        now: i64,
    ) -> Result<()> {
        let bot = SeatRow {
            user_id: None,
            bot_level: Some(loaded.config.timeout_level.name().into()),
            resigned: resigned || seat.resigned,
            // A seat resigned still says whose it was (posts name them); being resigned, it
            // cannot be taken back. A kicked player is not named.
            away_user_id: if resigned {
                seat.user_id.or(seat.away_user_id)
            } else {
                seat.away_user_id
            },
            // Not resigned: kicked. Not named in posts, but rated (last) when the game ends.
            kicked_user_id: if resigned {
                seat.kicked_user_id
            } else {
                seat.user_id.or(seat.kicked_user_id)
            },
            ..seat.clone()
        };
        store::put_seat(tx, &bot)?;
        if let Some(game) = loaded.game.as_ref().filter(|g| g.controller() == seat.team) {
            let mut after = loaded.clone();
            if let Some(s) = after.seats.iter_mut().find(|s| s.team == seat.team) {
                *s = bot;
            }
            self.schedule_turn(tx, &after, game, now, false)?;
        }
        Ok(())
    }

    /// Cancels a lobby or a running game (owner or admin).
    pub fn cancel(&self, actor: Actor, id: GameId) -> Result<()> {
        self.lobby_change(id, |tx, g| self.cancel_by(tx, g, actor))
    }

    pub(super) fn cancel_by(&self, tx: &Tx<'_>, g: &Loaded, actor: Actor) -> Result<()> {
        require_owner(&g.row, actor)?;
        if matches!(g.row.status, GameStatus::Finished | GameStatus::Cancelled) {
            return Err(ServiceError::Finished(g.row.id));
        }
        cancel_in(tx, &g.row, self.now())
    }
}
