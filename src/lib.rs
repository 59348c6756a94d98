//! jackal: a Discord bot that runs games of the pirate board game Jackal («Шакал»).
//!
//! The crate is a pure rules engine ([`engine`]) with shells around it; see
//! `docs/ARCHITECTURE.md` for the map.

pub mod ai;
pub mod cli;
pub mod discord;
pub mod engine;
pub mod game;
pub mod guide;
pub mod id;
pub mod render;
pub mod scenario;
pub mod store;
pub mod visible;
pub mod words;
