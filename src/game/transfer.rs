//! Export a game as JSON and import it back: settings, seed, seats and the action log, which
//! replays to the same game.

use crate::id::{GameId, UserId};
use serde::{Deserialize, Serialize};

use super::end::GameEnd;
use super::lobby::insert_game_row;
use super::logged::{Logged, TakeBack};
use super::{Actor, GameConfig, GameService, Location, Result, ServiceError, load_with};
use crate::ai::BotLevel;
use crate::engine::Game;
use crate::store::{self, ActionRow, GameStatus, SeatRow};

pub const EXPORT_FORMAT: &str = "jackal-game/1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedSeat {
    pub team: u8,
    pub user_id: Option<UserId>,
    pub bot_level: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedAction {
    pub ply: u32,
    pub team: u8,
    pub user_id: Option<UserId>,
    pub notation: String,
    /// An engine action, or (written as `{"TakeBack":{"to":P}}`) moves taken back by consent.
    pub action: Logged,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedGame {
    pub format: String,
    pub config: GameConfig,
    pub seed: Option<u64>,
    pub status: GameStatus,
    /// How a finished or cancelled game ended. Absent in exports made before it was added;
    /// exports made before it was typed hold the stored JSON as a string, still read.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "read_result"
    )]
    pub result: Option<GameEnd>,
    pub language: crate::words::Lang,
    pub seats: Vec<ExportedSeat>,
    pub actions: Vec<ExportedAction>,
}

impl GameService {
    pub fn export(&self, id: GameId) -> Result<ExportedGame> {
        let conn = self.store.conn()?;
        let loaded = load_with(&conn, id)?;
        let actions = store::actions_after(&conn, id, 0)?
            .into_iter()
            .map(|a| {
                let action = Logged::parse(&a.action).map_err(store::StoreError::Corrupt)?;
                Ok(ExportedAction {
                    ply: a.ply,
                    team: a.team,
                    user_id: a.user_id,
                    notation: a.notation,
                    action,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let result = loaded.end();
        Ok(ExportedGame {
            format: EXPORT_FORMAT.into(),
            config: loaded.config,
            seed: loaded.row.seed,
            status: loaded.row.status,
            result,
            language: loaded.row.language,
            seats: loaded
                .seats
                .iter()
                .map(|s| ExportedSeat {
                    team: s.team.number(),
                    user_id: s.user_id,
                    bot_level: s.bot_level.clone(),
                })
                .collect(),
            actions,
        })
    }

    /// Imports an exported game as a new game owned by `actor` in `location`. Every action is
    /// replayed through the engine first; an export that does not replay is refused whole.
    pub fn import(&self, actor: Actor, location: Location, json: &str) -> Result<GameId> {
        let e: ExportedGame =
            serde_json::from_str(json).map_err(|e| ServiceError::BadExport(e.to_string()))?;
        if e.format != EXPORT_FORMAT {
            return Err(ServiceError::BadExport(format!(
                "unknown format `{}`",
                e.format
            )));
        }
        e.config
            .validate()
            .map_err(|why| ServiceError::BadExport(why.to_string()))?;
        check_seats(&e)?;
        let mut replayed = None;
        // The notation and events of each action, as the engine writes them (the file's own
        // notation text is not trusted: it feeds history, board posts and double clicks).
        let mut recorded = Vec::new();
        if let Some(seed) = e.seed {
            let mut game = Game::new(e.config.rules.clone(), seed)
                .map_err(|err| ServiceError::BadExport(err.to_string()))?;
            // Every position so far, for a take-back to return to.
            let mut positions = vec![game.clone()];
            for (i, a) in e.actions.iter().enumerate() {
                let out_of_order =
                    || ServiceError::BadExport(format!("action {} is out of order", a.ply));
                if a.ply != i as u32 + 1 {
                    return Err(out_of_order());
                }
                match a.action {
                    Logged::Play(action) => {
                        if a.team != game.turn().number() {
                            return Err(out_of_order());
                        }
                        let notation = game.notation(&action);
                        let ev = game.play(&action).map_err(|err| {
                            ServiceError::BadExport(format!("ply {}: {err}", a.ply))
                        })?;
                        recorded.push((notation, serde_json::to_string(&ev).expect("plain data")));
                    }
                    Logged::TakeBack(back) => {
                        let earlier = positions.get(back.to as usize).filter(|_| back.to < a.ply);
                        let earlier = earlier.ok_or_else(|| {
                            ServiceError::BadExport(format!(
                                "ply {}: a take-back to ply {} cannot go forward",
                                a.ply, back.to
                            ))
                        })?;
                        game = earlier.clone().resumed_at(a.ply);
                        recorded.push((TakeBack::NOTATION.into(), "[]".into()));
                    }
                }
                positions.push(game.clone());
            }
            replayed = Some(game);
        } else if !e.actions.is_empty() {
            return Err(ServiceError::BadExport("actions without a seed".into()));
        }
        let now = self.now();
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let id = insert_game_row(&tx, location, &e.config, actor.user, e.language, now)?;
        for s in &e.seats {
            store::put_seat(
                &tx,
                &SeatRow {
                    game_id: id,
                    team: e
                        .config
                        .seat_numbered(s.team)
                        .ok_or_else(|| ServiceError::BadExport(format!("no seat {}", s.team)))?,
                    user_id: s.user_id,
                    bot_level: s.bot_level.clone(),
                    joined_at: now,
                    missed_deadlines: 0,
                    missed_total: 0,
                    resigned: false,
                    away_user_id: None,
                    kicked_user_id: None,
                },
            )?;
        }
        if let (Some(seed), Some(game)) = (e.seed, &replayed) {
            store::start_game(&tx, id, seed, now)?;
            for (a, (notation, events)) in e.actions.iter().zip(&recorded) {
                store::insert_action(
                    &tx,
                    &ActionRow {
                        game_id: id,
                        ply: a.ply,
                        team: a.team,
                        user_id: a.user_id,
                        notation: notation.clone(),
                        action: a.action.encode(),
                        events: events.clone(),
                        created_at: now,
                    },
                )?;
            }
            let state = serde_json::to_string(game).expect("plain data");
            store::insert_snapshot(&tx, id, game.ply(), &state, now)?;
            if let Some(outcome) = game.outcome() {
                let end = GameEnd::Played(outcome.clone());
                store::end_game(&tx, id, GameStatus::Finished, &end.to_stored(), now)?;
            } else if e.status == GameStatus::Active {
                let loaded = load_with(&tx, id)?;
                self.schedule_turn(&tx, &loaded, game, now, true)?;
            }
        }
        // A game that ended outside the engine (a resignation, a cancellation) stays ended.
        let ended_by_engine = replayed.as_ref().is_some_and(|g| g.outcome().is_some());
        if matches!(e.status, GameStatus::Finished | GameStatus::Cancelled) && !ended_by_engine {
            let end = e.result.clone().unwrap_or(GameEnd::Cancelled);
            store::end_game(&tx, id, e.status, &end.to_stored(), now)?;
        }
        tx.commit()?;
        Ok(id)
    }
}

/// The seats of an export: each of the game's teams at most once, held by a player or a bot
/// (not both, not neither); all of them once the game has started.
fn check_seats(e: &ExportedGame) -> Result<()> {
    let bad = |why: String| Err(ServiceError::BadExport(why));
    let teams = e.config.team_count();
    let mut seen = Vec::new();
    for s in &e.seats {
        if e.config.seat_numbered(s.team).is_none() {
            return bad(format!(
                "seat {} does not exist in a {teams}-seat game",
                s.team
            ));
        }
        if seen.contains(&s.team) {
            return bad(format!("seat {} is listed twice", s.team));
        }
        seen.push(s.team);
        if s.user_id.is_some() == s.bot_level.is_some() {
            return bad(format!("seat {} needs either a player or a bot", s.team));
        }
        if let Some(Err(unknown)) = s.bot_level.as_deref().map(str::parse::<BotLevel>) {
            return bad(format!("seat {}: {unknown}", s.team));
        }
    }
    if e.seed.is_some() && seen.len() < teams as usize {
        return bad("a started game needs every seat filled".into());
    }
    Ok(())
}

/// An export's `result`: a [`GameEnd`], or (exports made before it was typed) the stored JSON
/// as a string.
fn read_result<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<GameEnd>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Typed(GameEnd),
        Stored(String),
    }
    Ok(match Option::<Written>::deserialize(d)? {
        None => None,
        Some(Written::Typed(end)) => Some(end),
        Some(Written::Stored(text)) => GameEnd::from_stored(&text),
    })
}
