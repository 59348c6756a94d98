//! End-to-end tests of the fake Discord itself, driven through a minimal poise bot.
//! Run only these with `cargo test --test e2e_fake_discord`.

#[path = "../support/fake_discord/mod.rs"]
mod fake_discord;

mod bot;
mod channels;
mod commands;
mod components;
mod direct_messages;
mod mentions;
mod permissions;
mod protocol;
mod raw;
mod restart;
mod safety;
mod trouble;
