//! Checking a stored game against itself, read-only, for `jackal doctor`: its settings and
//! seats, its whole log replayed from the seed (each row against the digest chain), each
//! snapshot against its checksum and against the state the replay reaches at its ply, and its
//! status and result against how the replay ends. Where the service loads a game in O(1) and
//! trusts what it cannot check cheaply, this reads everything.

use super::logged::Logged;
use super::{Damage, GameConfig, GameEnd, Result, ServiceError, parse_config};
use crate::ai::{BotLevel, UnknownLevel};
use crate::engine::Game;
use crate::id::GameId;
use crate::store::Db;
use crate::store::digest::{self, ChainWalk, SnapshotCheck};
use crate::store::{self, GameRow, GameStatus, LoggedAction, StoredSnapshot};

/// Something wrong with a stored game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Finding {
    /// What the service itself refuses the game for.
    #[error(transparent)]
    Damaged(#[from] Damage),
    #[error(
        "the snapshot at ply {ply} does not match its checksum (another game's or another \
         ply's, or edited): the game is replayed from its log instead"
    )]
    SnapshotMismatch { ply: u32 },
    #[error("the snapshot at ply {ply} cannot be read: {why}")]
    SnapshotUnreadable { ply: u32, why: String },
    #[error("the snapshot at ply {ply} is not the state its log reaches at that ply")]
    SnapshotDiffers { ply: u32 },
    #[error("the snapshot at ply {ply} is past the end of its log (ply {last})")]
    SnapshotBeyond { ply: u32, last: u32 },
    #[error(
        "the action at ply {ply} is recorded for team {recorded}, but team {to_move} was to move"
    )]
    WrongTeam { ply: u32, recorded: u8, to_move: u8 },
    #[error("seat {0} is empty in a started game")]
    EmptySeat(u8),
    #[error("seat {team} is not a seat of this {teams}-team game")]
    NoSuchSeat { team: u8, teams: u8 },
    #[error("seat {team} is played by an {level}")]
    UnknownBot { team: u8, level: UnknownLevel },
    #[error("it is a lobby, but has a seed or recorded actions")]
    LobbyPlayed,
    #[error("it has recorded actions but no seed")]
    ActionsWithoutSeed,
    /// The status or stored result disagrees with how the log ends.
    #[error("{0}")]
    Ending(String),
}

/// Checks game `id` (which must exist) on `conn`, changing nothing; `Err` only when the
/// database itself cannot be read.
pub fn audit(conn: &impl Db, id: GameId) -> Result<Vec<Finding>> {
    let row = store::get_game(conn, id)?.ok_or(ServiceError::UnknownGame(id))?;
    let mut found = Vec::new();
    let config = match parse_config(&row) {
        Ok(config) => config,
        Err(ServiceError::Damaged { damage, .. }) => return Ok(vec![damage.into()]),
        Err(e) => return Err(e),
    };
    let started = row.seed.is_some() && row.status != GameStatus::Lobby;
    check_seats(conn, &row, &config, started, &mut found)?;
    let log = store::log_between(conn, id, 0, u32::MAX)?;
    match (row.status, row.seed) {
        (GameStatus::Lobby, seed) => {
            if seed.is_some() || !log.is_empty() {
                found.push(Finding::LobbyPlayed);
            }
        }
        (GameStatus::Active, None) => found.push(Damage::NoSeed(row.status).into()),
        // Cancelled (or imported as ended) before it started.
        (_, None) => {
            if !log.is_empty() {
                found.push(Finding::ActionsWithoutSeed);
            }
        }
        (_, Some(seed)) => {
            let snapshots = store::snapshots_of(conn, id)?;
            if let Some(game) = replay_all(&row, &config, seed, &log, &snapshots, &mut found) {
                check_ending(&row, &game, &mut found);
            }
        }
    }
    Ok(found)
}

fn check_seats(
    conn: &impl Db,
    row: &GameRow,
    config: &GameConfig,
    started: bool,
    found: &mut Vec<Finding>,
) -> Result<()> {
    let seats = store::seats(conn, row.id)?;
    let teams = config.team_count();
    for seat in &seats {
        if !config.has_team(seat.team) {
            found.push(Finding::NoSuchSeat {
                team: seat.team.number(),
                teams,
            });
        }
        if let Some(Err(level)) = seat.bot_level.as_deref().map(str::parse::<BotLevel>) {
            found.push(Finding::UnknownBot {
                team: seat.team.number(),
                level,
            });
        }
    }
    if started {
        for team in config
            .teams()
            .filter(|t| seats.iter().all(|s| s.team != *t))
        {
            found.push(Finding::EmptySeat(team.number()));
        }
    }
    Ok(())
}

/// Replays the whole log from the seed, checking each row against the chain and each snapshot
/// at its ply; the final state, or `None` when the replay could not go on.
fn replay_all(
    row: &GameRow,
    config: &GameConfig,
    seed: u64,
    log: &[LoggedAction],
    snapshots: &[StoredSnapshot],
    found: &mut Vec<Finding>,
) -> Option<Game> {
    let mut game = match Game::new(config.rules.clone(), seed) {
        Ok(game) => game,
        Err(e) => {
            found.push(Damage::Deal(e.to_string()).into());
            return None;
        }
    };
    let owner = digest::Owner {
        game: row.id,
        seed: row.seed,
        settings: &row.settings,
    };
    let mut snapshots = snapshots.iter().peekable();
    let mut walk = ChainWalk::from_start();
    // Every position so far, for the take-backs to return to (a doctor's walk, not a move's:
    // a few KiB a ply).
    let mut positions = vec![game.clone()];
    loop {
        while let Some(s) = snapshots.next_if(|s| s.ply <= game.ply()) {
            check_snapshot(owner, s, &game, found);
        }
        let Some(logged) = log.get(game.ply() as usize) else {
            break;
        };
        let a = &logged.row;
        let ply = game.ply() + 1;
        let damage = if a.ply != ply {
            Some(Damage::Missing { ply })
        } else if !walk.step(a, logged.chain.as_deref()) {
            Some(Damage::Edited { ply })
        } else {
            match Logged::parse(&a.action) {
                Err(why) => Some(Damage::UnreadableAction { ply, why }),
                Ok(Logged::TakeBack(back)) => match positions.get(back.to as usize) {
                    Some(earlier) if back.to < ply => {
                        game = earlier.clone().resumed_at(ply);
                        None
                    }
                    _ => Some(Damage::Replay {
                        ply,
                        why: format!("a take-back to ply {} cannot go forward", back.to),
                    }),
                },
                Ok(Logged::Play(action)) => {
                    if a.team != game.turn().number() {
                        found.push(Finding::WrongTeam {
                            ply,
                            recorded: a.team,
                            to_move: game.turn().number(),
                        });
                    }
                    game.play(&action).err().map(|e| Damage::Replay {
                        ply,
                        why: e.to_string(),
                    })
                }
            }
        };
        if let Some(damage) = damage {
            found.push(damage.into());
            return None;
        }
        positions.push(game.clone());
    }
    for s in snapshots {
        found.push(Finding::SnapshotBeyond {
            ply: s.ply,
            last: game.ply(),
        });
    }
    Some(game)
}

/// Checks the snapshot at `game`'s ply: its checksum, then its state against `game`. A
/// snapshot written before checksums existed is held to the replay alone.
fn check_snapshot(
    owner: digest::Owner,
    snapshot: &StoredSnapshot,
    game: &Game,
    found: &mut Vec<Finding>,
) {
    let ply = snapshot.ply;
    if digest::check_snapshot(owner, snapshot) == SnapshotCheck::Mismatch {
        found.push(Finding::SnapshotMismatch { ply });
    }
    match serde_json::from_str::<Game>(&snapshot.state) {
        Err(e) => found.push(Finding::SnapshotUnreadable {
            ply,
            why: e.to_string(),
        }),
        Ok(state) if state != *game => found.push(Finding::SnapshotDiffers { ply }),
        Ok(_) => {}
    }
}

/// The game's status and stored result against how its log ends (`game`: the end of the log).
fn check_ending(row: &GameRow, game: &Game, found: &mut Vec<Finding>) {
    let stored = row.result.as_deref().map(GameEnd::from_stored);
    let status = row.status.as_str();
    let problem = match (game.outcome(), row.status, &stored) {
        (Some(outcome), GameStatus::Finished, Some(Some(GameEnd::Played(end))))
            if end == outcome =>
        {
            None
        }
        (Some(_), GameStatus::Finished, _) => {
            Some("its stored result is not the end its log reaches".to_string())
        }
        (Some(_), _, _) => Some(format!("its log ends the game, but it is {status}")),
        (None, GameStatus::Active, Some(_)) => Some("it is active, but has a result".into()),
        (None, GameStatus::Active, None) if game.legal_actions().is_empty() => {
            found.push(
                Damage::Stuck {
                    move_number: game.ply() + 1,
                }
                .into(),
            );
            None
        }
        (None, _, Some(Some(GameEnd::Played(_)))) => Some(format!(
            "it is {status} with a result the rules reached, but its log does not end the game"
        )),
        (None, _, Some(None)) => Some("its stored result cannot be read".into()),
        (None, _, _) => None,
    };
    found.extend(problem.map(Finding::Ending));
}
