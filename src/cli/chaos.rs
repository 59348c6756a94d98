//! The child process of the crash-safety test (`jackal chaos-child`, hidden from help): it
//! plays scripted moves in many games on one database and prints `ack GAME PLY NOTATION`
//! after each commit, so a parent that kills it at random moments can check that nothing
//! acknowledged was lost and nothing was doubled.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use crate::game::{Actor, GameConfig, GameService, Location, SystemClock};
use crate::store::{self, GameStatus, Store};

/// Local players of every chaos game.
pub const PLAYERS: [u64; 2] = [1, 2];

/// Creates the games, finishing any whose set-up a kill interrupted (lobby created but not
/// joined or started).
fn setup_games(service: &GameService, games: usize) -> Result<(), String> {
    let err = |e: crate::game::ServiceError| e.to_string();
    let owner = Actor::user(PLAYERS[0]);
    for i in 0..games {
        let channel = 100 + i as u64;
        let existing = service.games_here(channel).map_err(err)?.into_iter().next();
        let row = match existing {
            Some(row) => row,
            None if has_game_in(service, channel)? => continue,
            None => {
                let mut config = GameConfig::default();
                config.set("board_size", "7")?;
                let location = Location {
                    guild_id: Some(1),
                    channel_id: Some(channel),
                    thread_id: None,
                };
                let id = service
                    .create_lobby(owner, location, "en", config, Some(1))
                    .map_err(err)?;
                service.load(id).map_err(err)?.row
            }
        };
        if row.status != GameStatus::Lobby {
            continue;
        }
        let loaded = service.load(row.id).map_err(err)?;
        if loaded.seat(2).is_none() {
            service
                .join(Actor::user(PLAYERS[1]), row.id, Some(2))
                .map_err(err)?;
        }
        service
            .start_with_seed(owner, row.id, 1000 + i as u64)
            .map_err(err)?;
    }
    Ok(())
}

/// A finished game no longer shows in its channel's open games.
fn has_game_in(service: &GameService, channel: u64) -> Result<bool, String> {
    let conn = service.store().conn().map_err(|e| e.to_string())?;
    for id in store::all_game_ids(&conn).map_err(|e| e.to_string())? {
        let row = store::get_game(&conn, id).map_err(|e| e.to_string())?;
        if row.is_some_and(|r| r.channel_id == Some(channel)) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Plays until `actions` actions are recorded in all games together (or every game ended).
/// `pace_ms` pauses after each acknowledged action, so that a parent killing the process at
/// random moments catches it in every phase (loading, committing, printing) many times.
pub fn run(
    db: &Path,
    games: usize,
    actions: u32,
    pace_ms: u64,
    out: &mut dyn Write,
) -> Result<(), String> {
    let store = Store::open(db).map_err(|e| e.to_string())?;
    let service = GameService::new(Arc::new(store), Arc::new(SystemClock));
    setup_games(&service, games)?;
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
        let loaded = service.load(row.id).map_err(|e| e.to_string())?;
        let game = loaded.game.as_ref().expect("active");
        let user = loaded
            .seat(game.controller())
            .and_then(|s| s.user_id)
            .ok_or("a chaos seat without a player")?;
        let moves = service
            .legal_moves(user, row.id)
            .map_err(|e| e.to_string())?;
        // Scripted, not random: the choice depends only on the position.
        let pick = &moves[(row.ply as usize * 7 + row.id as usize) % moves.len()];
        let acc = service
            .act(user, row.id, row.ply, &pick.notation)
            .map_err(|e| e.to_string())?;
        writeln!(out, "ack {} {} {}", row.id, acc.ply, acc.notation).map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
        std::thread::sleep(std::time::Duration::from_millis(pace_ms));
    }
}
