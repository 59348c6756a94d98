//! Everything through the fake Discord (the `fake-discord` crate of this workspace, on
//! 127.0.0.1): the bot end to end (`bot`), and the fake itself driven by a minimal poise bot
//! (`fake`). One test binary; run only these with `cargo test --test discord`, one part with
//! `cargo test --test discord bot::` or `fake::`.

mod bot;
mod fake;
