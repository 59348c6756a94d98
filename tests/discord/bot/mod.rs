//! End-to-end tests of the bot (`src/discord/`) against the fake Discord: whole games played
//! through slash commands, autocomplete, buttons and menus, with the posts, pictures and DMs
//! a player would see, and the stored game checked against its own action log.

mod admin;
mod burst;
mod community;
mod deadlines;
mod dms;
mod duel;
mod first_week;
mod forged;
mod harness;
mod load;
mod lobby;
mod play;
mod real_life;
mod refusals;
mod restart;
mod russian;
mod shards;
mod startup;
mod trouble;
mod whole_game;
mod wording;
mod words;
