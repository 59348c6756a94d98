//! A lobby changed from its message or its settings panel, answered with the lobby as it
//! stands after the change: the bot redraws the message from that answer, in one call.

use super::lobby::{configure_in, require_lobby, require_owner};
use super::{Actor, GameConfig, GameService, GameView, Loaded, Needs, Result};
use super::{ServiceError, parse_config};
use crate::ai::BotLevel;
use crate::id::GameId;
use crate::store::{self, Tx};

/// A change a lobby's buttons and menus make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyChange {
    /// The presser takes a random free seat.
    Join,
    Leave,
    /// A bot of this level on the first free seat (owner or admin).
    AddBot(BotLevel),
    Configure {
        setting: String,
        value: String,
    },
    Start,
    Cancel,
}

/// A lobby's settings, as its owner (or an admin) is shown them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbySettings {
    pub config: GameConfig,
    /// Still a lobby: the settings may be changed.
    pub editable: bool,
}

impl GameService {
    /// Makes `change` and answers the game as it stands after it, in one write.
    pub fn change_lobby(&self, actor: Actor, id: GameId, change: LobbyChange) -> Result<GameView> {
        if change == LobbyChange::Start {
            return self.start(actor, id);
        }
        self.write(id, Needs::Stored, |tx, g| {
            match change {
                LobbyChange::Join => {
                    self.join_in(tx, g, actor, None)?;
                }
                LobbyChange::Leave => self.leave_in(tx, g, actor)?,
                LobbyChange::AddBot(level) => self.add_bot_in(tx, g, actor, None, level)?,
                LobbyChange::Configure { setting, value } => {
                    configure_in(tx, g, actor, &setting, &value)?;
                }
                LobbyChange::Start => unreachable!("started above"),
                LobbyChange::Cancel => self.cancel_by(tx, g, actor)?,
            }
            reread_lobby(tx, g)?;
            Ok(GameView::of(g.clone()))
        })
    }

    /// The settings of game `id`, for its owner or an admin.
    /// Only the game's row is read: its state is not needed.
    pub fn lobby_settings(&self, actor: Actor, id: GameId) -> Result<LobbySettings> {
        let conn = self.store.conn()?;
        let row = store::get_game(&conn, id)?.ok_or(ServiceError::UnknownGame(id))?;
        require_owner(&row, actor)?;
        Ok(LobbySettings {
            editable: require_lobby(&row).is_ok(),
            config: parse_config(&row)?,
        })
    }
}

/// Reads again what a lobby change writes: the game's row, its seats and its settings (a
/// lobby has no state to rebuild; a game cancelled while played keeps the state it has).
fn reread_lobby(tx: &Tx<'_>, g: &mut Loaded) -> Result<()> {
    let id = g.row.id;
    g.row = store::get_game(tx, id)?.ok_or(ServiceError::UnknownGame(id))?;
    g.seats = store::seats(tx, id)?;
    g.config = parse_config(&g.row)?;
    Ok(())
}
