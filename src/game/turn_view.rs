//! The service's answers to a player's clicks: what a player on turn is shown
//! ([`TurnView`]), and what pressing an action does ([`Pressed`]). Each is one call of the
//! service and one load of the game, so a click costs Discord one trip to the blocking pool.

use super::turns::{Extra, require_active, seat_on_turn};
use super::{GameService, Loaded, Needs, Result, ServiceError, record};
use crate::engine::{Action, Event, Game, LegalAction, Team};
use crate::id::{ChannelId, GameId, GuildId, UserId};
use crate::store::{self, Db};
use crate::words::Lang;

/// Where a player's turn stands: the position, and the number players know the move by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnAt {
    pub game_id: GameId,
    /// The actions played so far: a button drawn now answers this ply.
    pub ply: u32,
    pub move_number: u32,
    pub team: Team,
}

/// What the player on turn is shown: the position, every legal action with its fatal flag,
/// the steps of the move so far (to draw its path), and the turn's deadline.
#[derive(Clone, Debug)]
pub struct TurnView {
    pub at: TurnAt,
    pub position: Game,
    pub legal: Vec<LegalAction>,
    pub last_move: Vec<Event>,
    pub deadline_ms: Option<i64>,
    /// The language of the game's public posts.
    pub lang: Lang,
    pub guild_id: Option<GuildId>,
    /// Where the game's public posts go ([`super::GameView::place`]).
    pub place: Option<ChannelId>,
}

/// What pressing an action did.
#[derive(Clone, Debug)]
pub enum Pressed {
    /// The action surely kills the acting unit (R-CHAIN-9): nothing was played, the player is
    /// asked again.
    Confirm {
        at: TurnAt,
        action: Action,
        /// The action in the game's canonical notation, for the button that plays it anyway.
        notation: String,
    },
    /// Played; `next` is the choice the same player answers before the turn passes.
    Played {
        accepted: super::Accepted,
        next: Option<Box<TurnView>>,
    },
}

/// May `user` act in the game now: it is being played, they hold a seat, and the seat on turn
/// is theirs. The state and the seat, or why not.
pub(super) fn may_act(loaded: &Loaded, user: UserId) -> Result<&Game> {
    let game = require_active(loaded)?;
    if loaded.seat_of(user).is_none() {
        return Err(ServiceError::NotYourGame(loaded.row.id));
    }
    seat_on_turn(loaded, game, user)?;
    Ok(game)
}

/// A button drawn for the position at `seen_ply` is out of date once the game has moved on,
/// whoever is on turn now.
fn fresh(loaded: &Loaded, seen_ply: Option<u32>) -> Result<()> {
    match (seen_ply, &loaded.game) {
        (Some(seen), Some(game)) if game.ply() != seen => Err(ServiceError::StaleButton {
            game: loaded.row.id,
            move_number: loaded.move_number(),
        }),
        _ => Ok(()),
    }
}

fn turn_at(loaded: &Loaded, game: &Game) -> TurnAt {
    TurnAt {
        game_id: loaded.row.id,
        ply: game.ply(),
        move_number: loaded.move_number(),
        team: game.controller(),
    }
}

/// The view of `loaded`'s turn, read through `db` (with the turn's deadline, or none for a
/// choice the player answers at once, inside their move).
fn view_of(db: &impl Db, loaded: &Loaded, game: &Game, with_deadline: bool) -> Result<TurnView> {
    let id = loaded.row.id;
    let deadline_ms = match with_deadline {
        true => store::running_deadline(db, id)?,
        false => None,
    };
    Ok(TurnView {
        at: turn_at(loaded, game),
        position: game.clone(),
        legal: game.legal_actions(),
        last_move: record::move_events(db, id, game.ply())?,
        deadline_ms,
        lang: super::game_lang(&loaded.row),
        guild_id: loaded.row.guild_id,
        place: super::public_place(&loaded.row),
    })
}

impl TurnView {
    /// The view of a position that is not a stored game's (a test's, a scenario's): its
    /// legal actions, no deadline, no path drawn.
    pub fn of_position(game_id: GameId, move_number: u32, position: Game) -> TurnView {
        TurnView {
            at: TurnAt {
                game_id,
                ply: position.ply(),
                move_number,
                team: position.controller(),
            },
            legal: position.legal_actions(),
            position,
            last_move: Vec::new(),
            deadline_ms: None,
            lang: Lang::default(),
            guild_id: None,
            place: None,
        }
    }
}

impl GameService {
    /// What `user`, on turn in game `id`, is shown. `seen_ply`: the position a button was
    /// drawn for, refused once the game has moved on.
    pub fn turn(&self, user: UserId, id: GameId, seen_ply: Option<u32>) -> Result<TurnView> {
        let conn = self.store.conn()?;
        let loaded = self.load_on(&conn, id)?;
        fresh(&loaded, seen_ply)?;
        let game = may_act(&loaded, user)?;
        view_of(&conn, &loaded, game, true)
    }

    /// `user` presses the action `notation` on the board drawn at `seen_ply` (`None`: typed,
    /// for the position now): played, unless it is fatal and not `confirmed`, in one write.
    pub fn press(
        &self,
        user: UserId,
        id: GameId,
        seen_ply: Option<u32>,
        notation: &str,
        confirmed: bool,
    ) -> Result<Pressed> {
        self.write(id, Needs::Stored, |tx, loaded| {
            fresh(loaded, seen_ply)?;
            let game = may_act(loaded, user)?;
            let action = game.read_action(notation).map_err(ServiceError::Illegal)?;
            // An illegal action is refused by the play below, with its reason.
            if !confirmed && game.check(&action).is_ok() && game.is_fatal(&action) {
                return Ok(Pressed::Confirm {
                    at: turn_at(loaded, game),
                    notation: game.notation(&action),
                    action,
                });
            }
            let extra = Extra::for_mover(loaded, game, user);
            let accepted = self.apply_action(tx, loaded, action, Some(user), extra)?;
            // A choice of the same move: the player answers it at once, without a deadline.
            let next = match (&accepted.pending, may_act(loaded, user)) {
                (Some(_), Ok(after)) => Some(Box::new(view_of(tx, loaded, after, false)?)),
                _ => None,
            };
            Ok(Pressed::Played { accepted, next })
        })
    }
}
