//! The `/jackal …` commands, by group: `lobby` (new), `play` (move, moves, undo, resign), `info`
//! (board, games, history, rules, help, language), `community` (stats, leaderboard, replay), `time`
//! (remind, vacation, pause, extend, server), `admin` (kick, cancel, settings). Each command maps its options to a service call and its result to a localised
//! reply; the helpers here find the caller's game, their language and whether they manage
//! the server.

mod admin;
mod community;
mod info;
mod lobby;
mod play;
mod time;

pub use play::undo_answer;

use crate::id::{GameId, GuildId, UserId};
use poise::CreateReply;
use serenity::all::{AutocompleteChoice, CreateAutocompleteResponse, Permissions};

use super::errors::BotError;
use super::types::{Context, Data, Result};
use crate::game::Actor;
use crate::game::GameStatus;
use crate::words::Lang;

/// Games, in Discord (the one top-level command; the rest are its subcommands).
#[poise::command(
    slash_command,
    subcommands(
        "lobby::new",
        "play::move_",
        "play::moves",
        "info::board",
        "info::games",
        "info::history",
        "community::stats",
        "community::leaderboard",
        "community::replay",
        "play::undo",
        "play::resign",
        "info::rules",
        "info::help",
        "info::language",
        "time::remind",
        "time::vacation",
        "time::pause",
        "time::extend",
        "time::server",
        "admin::kick",
        "admin::cancel",
        "admin::settings"
    ),
    subcommand_required
)]
pub async fn jackal(_ctx: Context<'_>) -> Result<()> {
    Ok(())
}

/// Every command, with its names and descriptions in English and Russian.
pub fn all() -> Vec<poise::Command<Data, BotError>> {
    let mut commands = vec![jackal()];
    super::i18n::localise(&mut commands);
    commands
}

/// Option values longer than this are refused before anything is looked up (nothing valid
/// comes close: a move is under 40 characters).
pub const OPTION_MAX: usize = 100;

/// Refuses an absurdly long text option.
pub fn check_length(option: &'static str, value: &str) -> Result<()> {
    if value.chars().count() > OPTION_MAX {
        return Err(BotError::TooLong { option });
    }
    Ok(())
}

/// The caller.
pub fn author(ctx: Context<'_>) -> UserId {
    ctx.author().id.into()
}

/// The server the command was used in; a server-only command used in a DM is refused.
pub fn this_server(ctx: Context<'_>) -> Result<GuildId> {
    ctx.guild_id()
        .map(GuildId::from)
        .ok_or(BotError::NotInServer)
}

/// The caller, with whether they may manage any game of this server (Manage Server).
pub fn actor(ctx: Context<'_>) -> Actor {
    let admin = match ctx {
        poise::Context::Application(app) => app
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD)),
        poise::Context::Prefix(_) => false,
    };
    Actor {
        user: author(ctx),
        admin,
    }
}

/// The language to answer the caller in.
pub async fn lang(ctx: Context<'_>) -> Lang {
    ctx.data()
        .lang_for(author(ctx), ctx.guild_id().map(GuildId::from), ctx.locale())
        .await
}

/// A private answer.
pub async fn say(ctx: Context<'_>, text: String) -> Result<()> {
    ctx.send(CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// The game a command is about: the `game` option if given, else the one the service finds
/// for the caller here ([`crate::game::GameService::which_game`]).
pub async fn which_game(ctx: Context<'_>, option: Option<i64>, any_here: bool) -> Result<GameId> {
    if let Some(number) = option {
        return GameId::new(number).ok_or(BotError::NoGameNumbered(number));
    }
    let user = ctx.author().id.into();
    let channel = ctx.channel_id().into();
    let id = ctx
        .data()
        .call(move |s| s.which_game(user, channel, any_here))
        .await?;
    Ok(id)
}

/// Autocomplete of the `game` option: the caller's open games, newest first.
pub async fn complete_game(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    CreateAutocompleteResponse::new().set_choices(complete_game_choices(ctx, partial).await)
}

async fn complete_game_choices(ctx: Context<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let user = author(ctx);
    let lang = lang(ctx).await;
    let Ok(games) = ctx.data().call(move |s| s.my_games(user, false)).await else {
        return Vec::new();
    };
    let typed = partial.trim().trim_start_matches('#');
    games
        .into_iter()
        .rev()
        .filter(|g| typed.is_empty() || g.id.to_string().starts_with(typed))
        .take(25)
        .map(|g| {
            let status = match g.status {
                GameStatus::Lobby => crate::tr!(lang, "status-lobby"),
                _ => crate::tr!(lang, "status-active"),
            };
            AutocompleteChoice::new(
                crate::tr!(lang, "game-choice", game = g.id, status = status),
                g.id.get(),
            )
        })
        .collect()
}
