//! The game service: every use case of a game (lobby, turns, deadlines, history), on top of
//! the engine and the store, with no Discord types. Its outputs are plain values and outbox
//! rows; sending them is the adapter's job.
//!
//! Every accepted action is one SQLite transaction holding the action row, a snapshot when
//! due, the next deadline and reminder, and the outbox rows for the public post and the next
//! player's private message. `UNIQUE(game, ply)` makes a double click harmless.

pub mod audit;
pub mod clock;
pub mod config;
pub mod damage;
mod delivery;
pub mod end;
mod leaderboard;
mod lobby;
mod lobby_press;
pub mod logged;
pub mod narrate;
pub mod outbox;
mod pause;
mod rating;
mod reclaim;
pub mod record;
mod reminder_settings;
pub mod reminders;
mod results;
mod stats;
pub mod timers;
mod transfer;
pub mod turn_view;
mod turns;
mod undo;
mod vacation;
mod view;
mod which;
pub mod worker;
pub mod zones;

use crate::id::{ChannelId, GameId, GuildId, UserId};
use crate::store::{Db, Tx};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::engine::{Game, IllegalAction, Team};
use crate::store::digest::{self, ChainWalk, SnapshotCheck};
use crate::store::{self, GameRow, SeatRow, Store, StoreError, StoredSnapshot};

pub use clock::{Clock, ManualClock, SystemClock};
pub use config::{GameConfig, TimeoutPolicy};
pub use damage::Damage;
pub use delivery::{AskedQuestion, PlayedMove, PostMaterial, SentPrompt};
pub use end::GameEnd;
pub use leaderboard::{BoardEntry, BoardQuery, BoardView, PAGE_SIZE};
pub use lobby::{Kicked, Occupant};
pub use lobby_press::{LobbyChange, LobbySettings};
pub use outbox::{Notice, OutboxMessage, Queued, Target};
pub use pause::PauseVote;
pub use rating::SeatRating;
pub use stats::{Opponent, StatsView};
pub use timers::Fired;
pub use transfer::ExportedGame;
pub use turn_view::{Pressed, TurnAt, TurnView};
pub use turns::{Accepted, HistoryEntry, LegalMove, Next};
pub use undo::{Reveal, UNDO_VOTE_MS, UndoBar, UndoVote};
pub use vacation::{
    CameBack, DEFAULT_MAX_PAUSE_DAYS, DEFAULT_VACATION_DAYS, NewVacation, VacationStatus,
};
pub use view::{GameView, ListedGame, SeatView};
pub use worker::Worker;

// The store's values that callers of the service name (the Discord layer reaches the store
// only through the service, so it takes them from here).
pub use crate::store::{
    Database, Durability, GameFormat, GameStatus, MAX_REMINDERS, Period, PeriodKind, Question,
    ReminderVia, UserPrefs,
};
pub use reminder_settings::ReminderChange;

/// Snapshots are written every this many plies, so loading replays fewer than this.
pub const SNAPSHOT_EVERY: u32 = 25;

/// Why the service refused a request. Nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("there is no game #{0}")]
    UnknownGame(GameId),
    #[error("game #{0} has already started")]
    AlreadyStarted(GameId),
    #[error("game #{0} is not running")]
    NotRunning(GameId),
    #[error("game #{0} is over")]
    Finished(GameId),
    #[error("all seats of game #{0} are taken")]
    Full(GameId),
    #[error("you already have a seat in game #{0}")]
    AlreadySeated(GameId),
    #[error("seat {0} is taken")]
    SeatTaken(Team),
    #[error("this game has no seat {0}")]
    NoSuchSeat(u8),
    #[error("seat {0} is empty")]
    SeatEmpty(Team),
    #[error("seat {0} is already played by a bot")]
    AlreadyBot(Team),
    #[error("you have no seat in game #{0}")]
    NotYourGame(GameId),
    /// A command that names no game, where the caller has none.
    #[error("no game here")]
    NoGameHere,
    /// A command that names no game, where the caller has several: they must name one.
    #[error("several games here: {0:?}")]
    WhichGame(Vec<GameId>),
    #[error("no bot holds a seat of yours in game #{0}")]
    NothingToReclaim(GameId),
    #[error("only the game's owner or a server admin can do that")]
    NotOwner,
    /// A server-wide setting (its limits, its language): there is no game, so no owner.
    #[error("only a member who manages the server can change its settings")]
    NotServerManager,
    #[error("it is not your turn: team {team} is to move")]
    NotYourTurn { team: Team },
    /// `current`: the actions played so far; `move_number`: the move a player is now on, as
    /// boards and prompts number them.
    #[error("the board you answered is out of date: the game has moved on to move {move_number}")]
    StaleView { current: u32, move_number: u32 },
    /// A button of a board the game has moved on from (whoever is on turn now).
    #[error("that button is from an older board: the game is on move {move_number}")]
    StaleButton { game: GameId, move_number: u32 },
    #[error("that move was already played")]
    AlreadyPlayed,
    #[error("illegal move: {}", .0.why())]
    Illegal(IllegalAction),
    #[error("bad setting: {0}")]
    BadSetting(#[from] config::ConfigError),
    /// More time for a turn outside what a turn may be given.
    #[error("more time must be between 1h and 14d (e.g. 1d)")]
    BadExtension,
    /// A server limit beyond what any server may set.
    #[error("at most {max} days, not {days}")]
    LimitTooLong { days: u32, max: u32 },
    #[error("{}: wait for players to join or add bots", empty_seats(.0))]
    SeatsEmpty(Vec<Team>),
    #[error("the operating system gave no random seed for the map: {0}")]
    NoRandomness(String),
    #[error("bad export: {0}")]
    BadExport(String),
    /// A stored game that cannot be trusted (edited by hand, a damaged file): it is refused,
    /// with what is wrong, and every other game goes on.
    #[error("game #{game} is damaged: {damage}")]
    Damaged { game: GameId, damage: Damage },
    #[error(transparent)]
    Setting(#[from] reminders::SettingError),
    #[error("a vacation that long is more than the {left_ms} ms left of {allowance_days} days")]
    VacationTooLong { left_ms: i64, allowance_days: u32 },
    #[error("you are not on vacation")]
    NotOnVacation,
    #[error("a pause may last at most {max_days} days here")]
    PauseTooLong { max_days: u32 },
    #[error("the game is already paused")]
    AlreadyPaused { until_ms: i64 },
    #[error("a pause of game #{0} is already proposed")]
    PauseProposed(GameId),
    #[error("no pause of game #{0} is waiting for votes")]
    NoPauseProposed(GameId),
    #[error("you already voted on this pause of game #{0}")]
    AlreadyVoted(GameId),
    #[error("nobody's deadline runs in game #{0} now")]
    NoDeadline(GameId),
    #[error("that move cannot be taken back: {0:?}")]
    Undo(UndoBar),
    #[error("a take-back in game #{0} is already waiting for answers")]
    UndoProposed(GameId),
    #[error("no take-back of game #{0} is waiting for answers")]
    NoUndoProposed(GameId),
    #[error("you already agreed to this take-back in game #{0}")]
    UndoVoted(GameId),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// "seat 3 is still empty", "seats 2, 3 are still empty".
fn empty_seats(seats: &[Team]) -> String {
    let list: Vec<String> = seats.iter().map(|t| t.number().to_string()).collect();
    match list.as_slice() {
        [one] => format!("seat {one} is still empty"),
        _ => format!("seats {} are still empty", list.join(", ")),
    }
}

pub type Result<T> = std::result::Result<T, ServiceError>;

/// What a write asks of the game it changes ([`GameService::write`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Needs {
    /// Any stored game: a lobby, a running game, one that is over.
    Stored,
    /// A game being played: a lobby or a game over is refused.
    Running,
}

/// Where a game lives in Discord (all `None` for a local game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Location {
    pub guild_id: Option<GuildId>,
    pub channel_id: Option<ChannelId>,
    pub thread_id: Option<ChannelId>,
}

/// Who is asking, and whether they may manage any game here (a server admin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Actor {
    pub user: UserId,
    pub admin: bool,
}

impl Actor {
    pub fn user(user: UserId) -> Actor {
        Actor { user, admin: false }
    }
}

/// A loaded game: its row, seats, configuration and engine state (the service's own; callers
/// see a [`GameView`]).
#[derive(Clone, Debug)]
struct Loaded {
    pub row: GameRow,
    pub seats: Vec<SeatRow>,
    pub config: GameConfig,
    /// `None` before the game starts.
    pub game: Option<Game>,
    /// The moves complete at the row's ply (a move that stopped for a choice is complete
    /// once the choice is answered): what players count moves by.
    pub moves: u32,
}

impl Loaded {
    /// How the game ended, if it has (`None` also for an ending stored unreadably, which is
    /// logged).
    pub fn end(&self) -> Option<GameEnd> {
        ending(&self.row)
    }

    /// The number players know the move on hand by: the one being played (a choice on hand
    /// belongs to the move that stopped for it), or the next.
    pub fn move_number(&self) -> u32 {
        let choosing = self.game.as_ref().is_some_and(|g| g.pending().is_some());
        if choosing { self.moves } else { self.moves + 1 }
    }

    /// The seat `team` plays (a lobby's seats are numbered as their teams).
    pub fn team_seat(&self, team: Team) -> Option<&SeatRow> {
        self.seats.iter().find(|s| s.team == team)
    }

    pub fn seat_of(&self, user: UserId) -> Option<&SeatRow> {
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

pub struct GameService {
    store: Arc<Store>,
    clock: Arc<dyn Clock>,
    /// The latest state of recently played games. Actions are only ever appended and
    /// `UNIQUE(game, ply)` fixes the state at each ply, so a cached state whose ply equals the
    /// stored ply is the state: a move then costs no snapshot read and no replay.
    states: Mutex<HashMap<GameId, Remembered>>,
    /// Games loaded so far: a click should cost one.
    loads: std::sync::atomic::AtomicU64,
    /// This process, as it claims outbox rows and timers it shares with others.
    worker: Worker,
}

/// A game's latest state and its parsed configuration (which cannot change once the game has
/// started: only lobbies are configured, and only started games are remembered).
struct Remembered {
    game: Game,
    config: GameConfig,
    moves: u32,
}

/// More running games than this and the cache starts over (each state is a few KiB).
const CACHED_STATES: usize = 4096;

impl GameService {
    pub fn new(store: Arc<Store>, clock: Arc<dyn Clock>) -> GameService {
        GameService {
            worker: Worker::new(store.is_server()),
            store,
            clock,
            states: Mutex::new(HashMap::new()),
            loads: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// The service with leases of `lease` on the work it shares (see [`Worker`]).
    pub fn with_lease(mut self, lease: std::time::Duration) -> GameService {
        self.worker = self.worker.with_lease(lease);
        self
    }

    /// The service claiming shared work as `worker` (another process, in tests).
    pub fn with_worker(mut self, worker: Worker) -> GameService {
        self.worker = worker;
        self
    }

    /// This process, as it claims shared work.
    pub fn worker(&self) -> &Worker {
        &self.worker
    }

    /// The service on `database` (a file is created, and either migrated, if need be).
    pub fn open(
        database: &Database,
        durability: Durability,
        clock: Arc<dyn Clock>,
    ) -> Result<GameService> {
        let store = Store::open_database(database, durability)?;
        Ok(GameService::new(Arc::new(store), clock))
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    /// A game as it stands: latest snapshot plus the actions after it (O(1) in game length). A
    /// snapshot that cannot be read is logged and the game is replayed from its seed.
    pub fn game(&self, id: GameId) -> Result<GameView> {
        Ok(GameView::of(self.load(id)?))
    }

    fn load(&self, id: GameId) -> Result<Loaded> {
        let conn = self.store.conn()?;
        self.load_on(&conn, id)
    }

    /// [`load_with`] through the state cache.
    fn load_on(&self, conn: &impl Db, id: GameId) -> Result<Loaded> {
        self.loads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let row = store::get_game(conn, id)?.ok_or(ServiceError::UnknownGame(id))?;
        let known = self.states.lock().ok().and_then(|states| {
            states
                .get(&id)
                .filter(|k| k.game.ply() == row.ply)
                .map(|k| Known {
                    game: k.game.clone(),
                    config: k.config.clone(),
                    moves: k.moves,
                })
        });
        let from_memory = known.is_some();
        let loaded = load_row(conn, row, known)?;
        if let (false, Some(game)) = (from_memory, &loaded.game) {
            self.remember(&loaded, game.clone());
        }
        Ok(loaded)
    }

    /// The one way to change a stored game. SQLite's write lock is taken first and the game
    /// loaded inside it (through the cache), so no other writer can move it between the checks
    /// and the change; with [`Needs::Running`] a game that is not being played is refused.
    /// `change` writes through the transaction and may play on the loaded game in place; the
    /// write commits when it returns `Ok`, and the game's state is kept for the next call.
    fn write<T>(
        &self,
        id: GameId,
        needs: Needs,
        change: impl FnOnce(&Tx<'_>, &mut Loaded) -> Result<T>,
    ) -> Result<T> {
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let mut loaded = self.load_on(&tx, id)?;
        if needs == Needs::Running {
            turns::require_active(&loaded)?;
        }
        let out = change(&tx, &mut loaded)?;
        tx.commit()?;
        if let Some(game) = loaded.game.take() {
            self.remember(&loaded, game);
        }
        Ok(out)
    }

    /// How many times a game was loaded since the service started (a measure of what each
    /// call costs).
    pub fn loads(&self) -> u64 {
        self.loads.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Keeps a game's latest state (`game`, the state at `loaded`'s ply) for the next move.
    fn remember(&self, loaded: &Loaded, game: Game) {
        let id = loaded.row.id;
        if let Ok(mut states) = self.states.lock() {
            if states.len() >= CACHED_STATES && !states.contains_key(&id) {
                states.clear();
            }
            let remembered = Remembered {
                game,
                config: loaded.config.clone(),
                moves: loaded.moves,
            };
            states.insert(id, remembered);
        }
    }

    /// Every position of a game from the deal, each with the events of the step that reached
    /// it (none for the deal): what a replay draws. A game still in its lobby has none.
    pub fn steps(&self, id: GameId) -> Result<Vec<(Game, Vec<crate::engine::Event>)>> {
        let conn = self.store.conn()?;
        let row = store::get_game(&conn, id)?.ok_or(ServiceError::UnknownGame(id))?;
        let config = parse_config(&row)?;
        let seed = row.seed.ok_or(ServiceError::NotRunning(id))?;
        let mut steps = Vec::with_capacity(row.ply as usize + 1);
        let start = replay(&conn, &row, &config, seed, 0)?;
        steps.push((start, Vec::new()));
        replay_steps(
            &conn,
            &row,
            &config,
            seed,
            row.ply,
            false,
            |game, events| steps.push((game.clone(), events)),
        )?;
        Ok(steps)
    }

    /// The engine state after `ply` actions (0: the start).
    pub fn position_at(&self, id: GameId, ply: u32) -> Result<Game> {
        let conn = self.store.conn()?;
        let row = store::get_game(&conn, id)?.ok_or(ServiceError::UnknownGame(id))?;
        let config = parse_config(&row)?;
        let seed = row.seed.ok_or(ServiceError::NotRunning(id))?;
        replay(&conn, &row, &config, seed, ply.min(row.ply))
    }
}

/// Where the public posts of the game of `row` go: its thread, else the channel it was made
/// in (`None`: a game outside Discord).
fn public_place(row: &GameRow) -> Option<ChannelId> {
    row.thread_id.or(row.channel_id)
}

/// The language the public posts of the game of `row` are written in.
fn game_lang(row: &GameRow) -> crate::words::Lang {
    row.language
}

/// How the game of `row` ended, if it has.
pub fn ending(row: &GameRow) -> Option<GameEnd> {
    let text = row.result.as_deref()?;
    let end = GameEnd::from_stored(text);
    if end.is_none() {
        tracing::warn!(game = %row.id, "unreadable result");
    }
    end
}

/// The game's configuration, held to the checks of a new one: the settings column is plain
/// JSON that anyone with the file can edit, and the engine trusts validated settings.
fn parse_config(row: &GameRow) -> Result<GameConfig> {
    let damaged = |why: String| ServiceError::Damaged {
        game: row.id,
        damage: Damage::Settings(why),
    };
    let config: GameConfig =
        serde_json::from_str(&row.settings).map_err(|e| damaged(e.to_string()))?;
    config.validate().map_err(|why| damaged(why.to_string()))?;
    Ok(config)
}

fn load_with(conn: &impl Db, id: GameId) -> Result<Loaded> {
    let row = store::get_game(conn, id)?.ok_or(ServiceError::UnknownGame(id))?;
    load_row(conn, row, None)
}

/// What the cache knows of a game at the row's ply.
struct Known {
    game: Game,
    config: GameConfig,
    moves: u32,
}

/// Completes a loaded row with its seats, configuration and state (`known`: the state, the
/// configuration and the count of moves at the row's ply, when the cache has them).
fn load_row(conn: &impl Db, row: GameRow, known: Option<Known>) -> Result<Loaded> {
    let id = row.id;
    let seats = store::seats(conn, id)?;
    let (known, known_config, moves) = match known {
        Some(k) => (Some(k.game), Some(k.config), Some(k.moves)),
        None => (None, None, None),
    };
    let config = match known_config {
        Some(config) => config,
        None => parse_config(&row)?,
    };
    let moves = match moves {
        Some(moves) => moves,
        None => store::completed_moves(conn, id, row.ply)?,
    };
    let game = match (row.status, row.seed, known) {
        (GameStatus::Lobby, _, _) => None,
        // Only a game that started has a seed, and an active one always has: without it there
        // is no map, and "no state" would read as "not started" to every caller. An ended game
        // with moves recorded started too.
        (status, None, _) if status == GameStatus::Active || row.ply > 0 => {
            return Err(ServiceError::Damaged {
                game: id,
                damage: Damage::NoSeed(row.status),
            });
        }
        // A lobby cancelled (or imported as ended) before it started.
        (_, None, _) => None,
        (_, _, Some(game)) => Some(game),
        (_, Some(seed), None) => Some(replay(conn, &row, &config, seed, row.ply)?),
    };
    Ok(Loaded {
        row,
        seats,
        config,
        game,
        moves,
    })
}

/// The state after `ply` actions: from the latest snapshot at or before it that passes its
/// check (store/digest.rs), else from the seed. Every action replayed is checked against the
/// log's digest chain first: a row changed after it was written names the game as damaged
/// instead of being played.
fn replay(conn: &impl Db, row: &GameRow, config: &GameConfig, seed: u64, ply: u32) -> Result<Game> {
    replay_steps(conn, row, config, seed, ply, true, |_, _| {})
}

/// [`replay`], telling `step` each position reached and the events that reached it; from the
/// latest trusted snapshot before `ply` when `from_snapshot`, else from the deal, so that every
/// step is told.
fn replay_steps(
    conn: &impl Db,
    row: &GameRow,
    config: &GameConfig,
    seed: u64,
    ply: u32,
    from_snapshot: bool,
    mut step: impl FnMut(&Game, Vec<crate::engine::Event>),
) -> Result<Game> {
    let id = row.id;
    let damaged = |damage| ServiceError::Damaged { game: id, damage };
    let snapshot = if from_snapshot {
        store::snapshot_before(conn, id, ply)?.and_then(|s| trusted(row, s))
    } else {
        None
    };
    let (mut game, mut walk) = match snapshot {
        Some((game, chain)) => (game, ChainWalk::after(chain)),
        None => {
            let game = Game::new(config.rules.clone(), seed)
                .map_err(|e| damaged(Damage::Deal(e.to_string())))?;
            (game, ChainWalk::from_start())
        }
    };
    for logged in store::log_between(conn, id, game.ply(), ply)? {
        let a = &logged.row;
        let next = game.ply() + 1;
        if a.ply != next {
            return Err(damaged(Damage::Missing { ply: next }));
        }
        if !walk.step(a, logged.chain.as_deref()) {
            return Err(damaged(Damage::Edited { ply: a.ply }));
        }
        let logged = logged::Logged::parse(&a.action)
            .map_err(|why| damaged(Damage::UnreadableAction { ply: a.ply, why }))?;
        let action = match logged {
            logged::Logged::Play(action) => action,
            logged::Logged::TakeBack(back) => {
                game = taken_back(conn, row, config, seed, a.ply, back)?;
                step(&game, Vec::new());
                continue;
            }
        };
        let events = game.play(&action).map_err(|e| {
            damaged(Damage::Replay {
                ply: a.ply,
                why: e.to_string(),
            })
        })?;
        step(&game, events);
    }
    if game.ply() < ply {
        return Err(damaged(Damage::Missing {
            ply: game.ply() + 1,
        }));
    }
    Ok(game)
}

/// The state after the take-back row at `ply`: the position after the ply it went back to,
/// counted as reached at `ply`. Read through [`replay`], from that ply's own snapshot: a
/// take-back is rare, and the row's write leaves a snapshot at once for the loads after it.
fn taken_back(
    conn: &impl Db,
    row: &GameRow,
    config: &GameConfig,
    seed: u64,
    ply: u32,
    back: logged::TakeBack,
) -> Result<Game> {
    if back.to >= ply {
        return Err(ServiceError::Damaged {
            game: row.id,
            damage: Damage::Replay {
                ply,
                why: format!("a take-back to ply {} cannot go forward", back.to),
            },
        });
    }
    Ok(replay(conn, row, config, seed, back.to)?.resumed_at(ply))
}

/// The state `snapshot` holds and the log's chain at its ply, if the snapshot may stand in
/// for the replay up to there; `None` (logged) if it is not this game's at that ply, or cannot
/// be read. A snapshot written before checksums existed is not used either: nothing shows it
/// belongs here, and the replay from the seed costs milliseconds, once per game until its
/// next snapshot (the state is then kept in memory).
fn trusted(row: &GameRow, snapshot: StoredSnapshot) -> Option<(Game, Option<Vec<u8>>)> {
    let owner = digest::Owner {
        game: row.id,
        seed: row.seed,
        settings: &row.settings,
    };
    match digest::check_snapshot(owner, &snapshot) {
        SnapshotCheck::Verified => {}
        SnapshotCheck::Unchecked => {
            tracing::debug!(
                game = %row.id,
                ply = snapshot.ply,
                "a snapshot without a checksum; replaying from the seed"
            );
            return None;
        }
        SnapshotCheck::Mismatch => {
            tracing::warn!(
                game = %row.id,
                ply = snapshot.ply,
                "a snapshot does not match its game (another game's or another ply's, or edited); replaying from the log"
            );
            return None;
        }
    }
    match serde_json::from_str::<Game>(&snapshot.state) {
        Ok(game) if game.ply() == snapshot.ply => Some((game, snapshot.chain)),
        Ok(_) | Err(_) => {
            tracing::warn!(
                game = %row.id,
                ply = snapshot.ply,
                "unreadable snapshot; replaying from the log"
            );
            None
        }
    }
}
