//! End-to-end tests of the fake Discord itself, driven through a minimal poise bot.

mod bot;
mod channels;
mod commands;
mod components;
mod direct_messages;
mod gateway_client;
mod mentions;
mod permissions;
mod protocol;
mod raw;
mod restart;
mod safety;
mod sharding;
mod trouble;
