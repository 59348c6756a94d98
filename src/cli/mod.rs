//! Command-line front ends that are more than a line of `main.rs`.

pub mod arena;
mod arena_record;
pub mod args;
pub mod backup;
// The crash tests' child process: built for tests only, never shipped in the bot.
#[cfg(feature = "test-support")]
pub mod chaos;
pub mod doctor;
pub mod output;
pub mod play;
pub mod render;
pub mod text_board;
pub mod think;
pub mod thread_cpu;
