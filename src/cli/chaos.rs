//! The child process of the crash-safety test (`jackal chaos-child`, hidden from help): it
//! runs one kind of multi-step operation over and over on one database (moves, game
//! creation, resignations, timers firing, backups) and prints an `ack …` line after each
//! commit, so a parent that kills it at random moments can check that nothing acknowledged
//! was lost, nothing was doubled, and every game is either not there or fully consistent.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use crate::ai::BotLevel;
use crate::engine::Players;
use crate::game::{Actor, Clock, Fired, GameConfig, GameService, Location, Occupant, SystemClock};
use crate::id::{ChannelId, GameId, GuildId, UserId};
use crate::store::{self, GameStatus, Store};

/// What the child does over and over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Operation {
    /// Scripted moves (choices included) in `--games` two-player games: `ack GAME PLY NOTATION`.
    Moves,
    /// New games, alternately created full and started in one go (as `jackal play` does) and
    /// through a lobby (create, join, start, as on Discord): `ack create GAME`.
    Create,
    /// Players resign, in duels and in three-player games: `ack resign GAME TEAM`.
    Resign,
    /// Deadlines pass (the clock leaps to the next timer) and fire: a bot plays the turn of a
    /// player who ran out of time, then takes the seat and plays on: `ack timer GAME PLY`.
    Timers,
    /// Backups of a database where games are played: `ack backup FILE`.
    Backup,
}

/// Games of the creation runs created full, in these channels (lobby games in others), so the
/// parent can tell them apart.
pub const FULL_CHANNELS: std::ops::Range<u64> = 10_000..20_000;

/// Local players of every chaos game.
pub const PLAYERS: [UserId; 2] = [UserId::new(1), UserId::new(2)];

/// Creates the games, finishing any whose set-up a kill interrupted (lobby created but not
/// joined or started).
fn setup_games(service: &GameService, games: usize) -> Result<(), String> {
    let err = |e: crate::game::ServiceError| e.to_string();
    let owner = Actor::user(PLAYERS[0]);
    for i in 0..games {
        let channel = ChannelId::new(100 + i as u64);
        let existing = service.games_here(channel).map_err(err)?.into_iter().next();
        let (id, status) = match existing {
            Some(game) => (game.id, game.status),
            None if has_game_in(service, channel)? => continue,
            None => {
                let mut config = GameConfig::default();
                config.set("board_size", "7").map_err(text)?;
                let location = Location {
                    guild_id: Some(GuildId::new(1)),
                    channel_id: Some(channel),
                    thread_id: None,
                };
                let id = service
                    .create_lobby(owner, location, crate::words::Lang::En, config, Some(1))
                    .map_err(err)?;
                (id, GameStatus::Lobby)
            }
        };
        if status != GameStatus::Lobby {
            continue;
        }
        let game_view = service.game(id).map_err(err)?;
        if game_view.seat(2).is_none() {
            service
                .join(Actor::user(PLAYERS[1]), id, Some(2))
                .map_err(err)?;
        }
        service
            .start_with_seed(owner, id, 1000 + i as u64)
            .map_err(err)?;
    }
    Ok(())
}

/// A finished game no longer shows in its channel's open games.
fn has_game_in(service: &GameService, channel: ChannelId) -> Result<bool, String> {
    let conn = service.store().conn().map_err(|e| e.to_string())?;
    for id in store::all_game_ids(&conn).map_err(|e| e.to_string())? {
        let row = store::get_game(&conn, id).map_err(|e| e.to_string())?;
        if row.is_some_and(|r| r.channel_id == Some(channel)) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// What the child is asked to do.
#[derive(Clone, Debug)]
pub struct ChaosOptions {
    pub operation: Operation,
    /// Games to play in (moves, resignations, timers, backups).
    pub games: usize,
    /// How much work in all: actions (moves, timers), games (create), resignations, backups.
    pub work: u32,
    /// A pause after each acknowledged step, so that a parent killing the process at random
    /// moments catches it in every phase many times.
    pub pace_ms: u64,
}

/// Runs `options.operation` on `db` until its work is done.
pub fn run(db: &Path, options: &ChaosOptions, out: &mut dyn Write) -> Result<(), String> {
    let store = Store::open(db).map_err(|e| e.to_string())?;
    let clock = Arc::new(LeapingClock::from_store(&store)?);
    let service = GameService::new(Arc::new(store), clock.clone());
    let (games, work, pace_ms) = (options.games, options.work, options.pace_ms);
    match options.operation {
        Operation::Moves => run_moves(&service, games, work, pace_ms, out),
        Operation::Create => run_create(&service, work, pace_ms, out),
        Operation::Resign => run_resign(&service, games, work, pace_ms, out),
        Operation::Timers => run_timers(&service, &clock, games, work, pace_ms, out),
        Operation::Backup => run_backup(&service, db, games, work, pace_ms, out),
    }
}

fn ack(out: &mut dyn Write, line: std::fmt::Arguments, pace_ms: u64) -> Result<(), String> {
    writeln!(out, "ack {line}").map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    std::thread::sleep(std::time::Duration::from_millis(pace_ms));
    Ok(())
}

fn text(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Plays until `actions` actions are recorded in all games together (or every game ended).
fn run_moves(
    service: &GameService,
    games: usize,
    actions: u32,
    pace_ms: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    setup_games(service, games)?;
    loop {
        let conn = service.store().conn().map_err(|e| e.to_string())?;
        let mut rows = Vec::new();
        for id in store::all_game_ids(&conn).map_err(|e| e.to_string())? {
            rows.push(
                store::get_game(&conn, id)
                    .map_err(|e| e.to_string())?
                    .expect("listed"),
            );
        }
        drop(conn);
        let total: u32 = rows.iter().map(|r| r.ply).sum();
        let next = rows
            .iter()
            .filter(|r| r.status == GameStatus::Active)
            .min_by_key(|r| (r.ply, r.id));
        let Some(row) = next else { return Ok(()) };
        if total >= actions {
            return Ok(());
        }
        let game_view = service.game(row.id).map_err(|e| e.to_string())?;
        let game = game_view.state.as_ref().expect("active");
        let user = game_view
            .team_seat(game.controller())
            .and_then(|s| s.user_id)
            .ok_or("a chaos seat without a player")?;
        let moves = service
            .legal_moves(user, row.id)
            .map_err(|e| e.to_string())?;
        // Scripted, not random: the choice depends only on the position.
        let pick = &moves[(row.ply as usize * 7 + row.id.get() as usize) % moves.len()];
        let acc = service
            .act(user, row.id, row.ply, &pick.notation)
            .map_err(|e| e.to_string())?;
        ack(
            out,
            format_args!("{} {} {}", row.id, acc.ply, acc.notation),
            pace_ms,
        )?;
    }
}

/// The wall clock, moved forward at will to the next timer (and never back, across restarts:
/// it starts from the latest moment the database has seen).
struct LeapingClock(std::sync::atomic::AtomicI64);

impl LeapingClock {
    fn from_store(store: &Store) -> Result<LeapingClock, String> {
        let conn = store.conn().map_err(text)?;
        let latest = store::health::latest_moment(&conn).map_err(text)?;
        let now = SystemClock.now_ms().max(latest.unwrap_or(0));
        Ok(LeapingClock(now.into()))
    }

    fn leap_to(&self, ms: i64) {
        self.0.fetch_max(ms, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clock for LeapingClock {
    fn now_ms(&self) -> i64 {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

fn local(channel: u64) -> Location {
    let channel = ChannelId::new(channel);
    Location {
        guild_id: Some(GuildId::new(1)),
        channel_id: Some(channel),
        thread_id: None,
    }
}

fn small_config(players: Players) -> Result<GameConfig, String> {
    let mut config = GameConfig::default();
    config.set("board_size", "5").map_err(text)?;
    config.rules.players = players;
    Ok(config)
}

fn game_count(service: &GameService) -> Result<usize, String> {
    let conn = service.store().conn().map_err(text)?;
    Ok(store::all_game_ids(&conn).map_err(text)?.len())
}

/// Creates games until there are `games` of them: even ones full and started in one
/// transaction, odd ones through a lobby.
fn run_create(
    service: &GameService,
    games: u32,
    pace_ms: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    let owner = Actor::user(PLAYERS[0]);
    loop {
        let n = game_count(service)? as u64;
        if n >= games as u64 {
            return Ok(());
        }
        let config = small_config(Players::Two)?;
        let id = if n.is_multiple_of(2) {
            let seats = [
                (1, Occupant::Player(PLAYERS[0])),
                (2, Occupant::Bot(BotLevel::Random)),
            ];
            service
                .create_started(
                    owner,
                    local(FULL_CHANNELS.start + n),
                    crate::words::Lang::En,
                    config,
                    &seats,
                    n,
                )
                .map_err(text)?
        } else {
            let id = service
                .create_lobby(owner, local(n), crate::words::Lang::En, config, Some(1))
                .map_err(text)?;
            service
                .join(Actor::user(PLAYERS[1]), id, Some(2))
                .map_err(text)?;
            service.start_with_seed(owner, id, n).map_err(text)?;
            id
        };
        ack(out, format_args!("create {id}"), pace_ms)?;
    }
}

/// Full games of people only: duels and three-player games, alternately.
fn setup_people_games(service: &GameService, games: usize) -> Result<(), String> {
    let owner = Actor::user(PLAYERS[0]);
    for n in game_count(service)?..games {
        let (players, seats) = if n % 2 == 0 {
            (Players::Two, 2)
        } else {
            (Players::Three, 3)
        };
        let seats: Vec<(u8, Occupant)> = (1..=seats)
            .map(|t| (t, Occupant::Player(UserId::new(t as u64))))
            .collect();
        let config = small_config(players)?;
        service
            .create_started(
                owner,
                local(n as u64),
                crate::words::Lang::En,
                config,
                &seats,
                n as u64,
            )
            .map_err(text)?;
    }
    Ok(())
}

/// Resigns one player after another, the one on turn first, until `resignations` seats have
/// resigned or every game has ended.
fn run_resign(
    service: &GameService,
    games: usize,
    resignations: u32,
    pace_ms: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    setup_people_games(service, games)?;
    loop {
        let conn = service.store().conn().map_err(text)?;
        let mut done = 0;
        let mut next = None;
        for id in store::all_game_ids(&conn).map_err(text)? {
            let seats = store::seats(&conn, id).map_err(text)?;
            done += seats.iter().filter(|s| s.resigned).count() as u32;
            let row = store::get_game(&conn, id).map_err(text)?.ok_or("listed")?;
            let person = seats.iter().find(|s| !s.resigned && s.user_id.is_some());
            if let (GameStatus::Active, None, Some(seat)) = (row.status, next, person) {
                next = Some((id, seat.team, seat.user_id.expect("a person")));
            }
        }
        drop(conn);
        let Some((id, team, user)) = next.filter(|_| done < resignations) else {
            return Ok(());
        };
        service.resign(Actor::user(user), id).map_err(text)?;
        ack(out, format_args!("resign {id} {team}"), pace_ms)?;
    }
}

/// Lets time pass: the clock leaps to the next timer and every due timer fires, until
/// `actions` actions are recorded in all games together (or every game ended).
fn run_timers(
    service: &GameService,
    clock: &LeapingClock,
    games: usize,
    actions: u32,
    pace_ms: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    setup_people_games(service, games)?;
    loop {
        let conn = service.store().conn().map_err(text)?;
        let mut total = 0;
        for id in store::all_game_ids(&conn).map_err(text)? {
            total += store::get_game(&conn, id)
                .map_err(text)?
                .map_or(0, |r| r.ply);
        }
        drop(conn);
        let Some(due) = service.next_timer_due().map_err(text)? else {
            return Ok(());
        };
        if total >= actions {
            return Ok(());
        }
        clock.leap_to(due);
        for fired in service.fire_due_timers().map_err(text)? {
            match fired {
                Fired::TimedOut { game_id, team } | Fired::BotMoved { game_id, team } => {
                    let ply = service.game(game_id).map_err(text)?.ply;
                    ack(out, format_args!("timer {game_id} {team} {ply}"), pace_ms)?;
                }
                Fired::Failed { game_id, error } => {
                    return Err(format!("game #{game_id}: {error}"));
                }
                Fired::Reminded { .. }
                | Fired::Stale { .. }
                | Fired::Digest { .. }
                | Fired::Held { .. }
                | Fired::Quiet { .. }
                | Fired::Paused { .. }
                | Fired::UndoLapsed { .. } => {}
            }
        }
    }
}

/// Backs the database up to `<db>-backup-N.db`, N counting up, `backups` times, while the
/// moves of its games go on between the backups.
fn run_backup(
    service: &GameService,
    db: &Path,
    games: usize,
    backups: u32,
    pace_ms: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    setup_games(service, games)?;
    let name = |n: u32| {
        let mut name = db.as_os_str().to_owned();
        name.push(format!("-backup-{n}.db"));
        std::path::PathBuf::from(name)
    };
    for n in 0..backups {
        let path = name(n);
        if path.exists() {
            continue;
        }
        super::backup::run(db, &path).map_err(|e| format!("{e:#}"))?;
        ack(out, format_args!("backup {}", path.display()), pace_ms)?;
        // A move between backups, so that each copies another state.
        if let Some(row) = first_active(service)? {
            let game_view = service.game(row).map_err(text)?;
            let game = game_view
                .state
                .as_ref()
                .ok_or("an active game has a state")?;
            if let Some(user) = game_view
                .team_seat(game.controller())
                .and_then(|s| s.user_id)
            {
                let moves = service.legal_moves(user, row).map_err(text)?;
                let pick = &moves[n as usize % moves.len()];
                service
                    .act(user, row, game_view.ply, &pick.notation)
                    .map_err(text)?;
            }
        }
    }
    Ok(())
}

fn first_active(service: &GameService) -> Result<Option<GameId>, String> {
    let conn = service.store().conn().map_err(text)?;
    for id in store::all_game_ids(&conn).map_err(text)? {
        if store::get_game(&conn, id)
            .map_err(text)?
            .is_some_and(|r| r.status == GameStatus::Active)
        {
            return Ok(Some(id));
        }
    }
    Ok(None)
}
