//! The rules without a store: every scenario through the checker, property tests over whole
//! random games, the engine's digest of the bench games, the board picture, and the arena.
//! One test binary; run only these with `cargo test --test engine`.

mod arena;
mod engine_digest;
mod invariants;
mod render;
mod scenarios;
