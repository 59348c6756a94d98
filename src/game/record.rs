//! Reading the action log back as moves. A move that stops for a choice (fork, horse, ice
//! after a jump…) is recorded as several plies, each but the last ending in
//! `ChoiceRequired`; the board post and the board picture show them as one move.

use super::Result;
use super::logged::{Logged, TakeBack};
use crate::engine::{Action, Event};
use crate::id::GameId;
use crate::store::Db;
use crate::store::{self, ActionRow};

/// One recorded ply and its events.
#[derive(Clone, Debug)]
pub struct MoveStep {
    pub ply: u32,
    /// The seat that played it, as recorded: a number, not a `Team`, so that a damaged row
    /// (a number that names no team) is still told and reported rather than unreadable.
    pub team: u8,
    /// The action (`None` if the stored JSON cannot be read, or for a take-back: then
    /// `notation` tells it).
    pub action: Option<Action>,
    /// The ply a take-back row went back to (`None` for every other row).
    pub take_back: Option<TakeBack>,
    /// The action as it was typed or picked.
    pub notation: String,
    /// The events `Game::play` returned (empty if the stored JSON cannot be read: the
    /// narration and the path are a courtesy, the action itself replays without them).
    pub events: Vec<Event>,
}

impl MoveStep {
    fn new(row: ActionRow) -> MoveStep {
        let logged = Logged::parse(&row.action).ok();
        MoveStep {
            ply: row.ply,
            team: row.team,
            action: logged.and_then(|l| l.action()),
            take_back: logged.and_then(|l| l.take_back()),
            events: serde_json::from_str(&row.events).unwrap_or_default(),
            notation: row.notation,
        }
    }

    fn stopped_for_choice(&self) -> bool {
        matches!(self.events.last(), Some(Event::ChoiceRequired { .. }))
    }
}

/// The steps of the move that ends at `ply`, oldest first; empty when no such ply exists.
pub fn move_steps(conn: &impl Db, id: GameId, ply: u32) -> Result<Vec<MoveStep>> {
    let Some(last) = store::action_at(conn, id, ply)? else {
        return Ok(Vec::new());
    };
    let mut steps = vec![MoveStep::new(last)];
    // A row exists at `ply`, so `ply` ≥ 1.
    let mut before = ply - 1;
    while before > 0 {
        let Some(row) = store::action_at(conn, id, before)? else {
            break;
        };
        let step = MoveStep::new(row);
        if !step.stopped_for_choice() {
            break;
        }
        steps.push(step);
        before -= 1;
    }
    steps.reverse();
    Ok(steps)
}

/// All the events of the move that ends at `ply`, in order (what the picture's path is drawn
/// from).
pub fn move_events(conn: &impl Db, id: GameId, ply: u32) -> Result<Vec<Event>> {
    Ok(move_steps(conn, id, ply)?
        .into_iter()
        .flat_map(|s| s.events)
        .collect())
}
