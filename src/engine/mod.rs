//! The rules engine: a pure, deterministic implementation of `RULES.md`.
//!
//! No I/O, no async, no clock, no global randomness: the same settings, seed and actions
//! always give the same game (R-GEN-7). Everything else in the project is a shell around it.

pub mod action;
mod after;
pub mod board;
mod can_act;
mod cannonball;
mod caves;
mod chain;
mod choices;
mod codec;
mod effects;
mod entry;
pub mod error;
pub mod event;
mod fatal;
mod fight;
pub mod game;
pub mod item;
pub mod mapgen;
mod moves;
pub mod notation;
mod refusal;
mod rum;
pub mod settings;
pub mod setup;
mod stack_vec;
mod standing;
mod team_cells;
pub mod tile;
mod turn;
pub mod unit;
mod vessels;
pub mod view;
mod visited;

pub use action::{Action, ChoiceKind, LegalAction, Motion};
pub use board::{Board, Cell, Dir, DirSet, KNIGHT_JUMPS, Side};
pub use error::{ErrorKind, IllegalAction};
pub use event::{DeathCause, EndReason, Event, OpenedBy, Outcome};
pub use game::{Game, SetupError};
pub use item::{Item, Items};
pub use settings::{PlaneSeats, Players, RetreatDistance, Settings};
pub use tile::{Pack, Tile, TileKind};
pub use unit::{Place, Seat, Team, Unit, UnitId, UnitKind, UnitRef, Vessel, VesselId};
pub use view::PublicView;
