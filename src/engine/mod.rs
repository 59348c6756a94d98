//! The rules engine: a pure, deterministic implementation of `RULES.md`.
//!
//! No I/O, no async, no clock, no global randomness: the same settings, seed and actions
//! always give the same game (R-GEN-7). Everything else in the project is a shell around it.

pub mod action;
pub mod board;
mod chain;
mod codec;
pub mod error;
pub mod event;
mod fatal;
pub mod game;
pub mod item;
pub mod mapgen;
mod moves;
pub mod notation;
pub mod settings;
pub mod setup;
mod stack_vec;
pub mod tile;
mod turn;
pub mod unit;
pub mod view;

pub use action::{Action, ChoiceKind, LegalAction, Motion};
pub use board::{Board, Cell, Dir, DirSet, Side};
pub use error::{ErrorKind, IllegalAction};
pub use event::{DeathCause, EndReason, Event, Outcome};
pub use game::{Game, SetupError};
pub use item::{Item, Items};
pub use settings::{PlaneSeats, Players, RetreatDistance, Settings};
pub use tile::{Pack, Tile, TileKind};
pub use unit::{Place, Seat, Team, Unit, UnitId, UnitKind, UnitRef, Vessel, VesselId};
pub use view::PublicView;
