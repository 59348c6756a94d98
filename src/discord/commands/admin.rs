//! For the game's owner or a member with Manage Server: `/jackal kick`, `cancel`,
//! `settings` (the service checks who may; these map options and words).

use poise::CreateReply;
use serenity::all::{
    AutocompleteChoice, CreateAutocompleteResponse, ResolvedOption, ResolvedValue,
};

use super::{actor, check_length, complete_game, lang, say, which_game};
use crate::discord::errors::BotError;
use crate::discord::lobby_sync;
use crate::discord::types::{Context, Result};
use crate::discord::views::settings;
use crate::game::{GameConfig, Kicked, LobbyChange};
use crate::tr;

/// Remove a player: from a lobby their seat is freed; in a running game a bot plays on
#[poise::command(slash_command, guild_only)]
pub async fn kick(
    ctx: Context<'_>,
    #[description = "The seat (team number) to remove the player from"]
    #[min = 1]
    #[max = 4]
    seat: i64,
    #[description = "Which game (default: the one in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let id = which_game(ctx, game, true).await?;
    let team = u8::try_from(seat).map_err(|_| BotError::OutOfRange {
        option: "seat",
        max: 4,
    })?;
    let who = actor(ctx);
    ctx.defer_ephemeral().await?;
    let kicked = ctx.data().change(move |s| s.kick(who, id, team)).await?;
    lobby_sync::refresh(ctx.data(), id).await;
    let text = match kicked {
        Kicked::Freed => tr!(lang, "kicked", seat = team, game = id),
        Kicked::BotPlays => tr!(lang, "kicked-bot-plays", seat = team, game = id),
    };
    say(ctx, text).await
}

/// Cancel a game (lobby or running)
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[description = "Which game (default: the one in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let id = which_game(ctx, game, true).await?;
    let who = actor(ctx);
    ctx.defer_ephemeral().await?;
    ctx.data().change(move |s| s.cancel(who, id)).await?;
    say(ctx, tr!(lang, "cancelled", game = id)).await
}

async fn complete_setting(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    CreateAutocompleteResponse::new().set_choices(complete_setting_choices(ctx, partial).await)
}

async fn complete_setting_choices(ctx: Context<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let lang = lang(ctx).await;
    let typed = partial.trim().to_lowercase();
    GameConfig::ids()
        .filter_map(|id| {
            let name = settings::name(lang, id);
            (typed.is_empty() || id.contains(&typed) || name.to_lowercase().contains(&typed))
                .then(|| AutocompleteChoice::new(name, id))
        })
        .take(25)
        .collect()
}

async fn complete_value(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    CreateAutocompleteResponse::new().set_choices(complete_value_choices(ctx, partial).await)
}

/// An option the user has already filled in, looked for inside the subcommand (`/jackal
/// settings` arrives as the option `settings` holding the real options).
fn filled<'a, 'b>(options: &'b [ResolvedOption<'a>], name: &str) -> Option<&'b ResolvedValue<'a>> {
    options.iter().find_map(|o| match &o.value {
        ResolvedValue::SubCommand(inner) | ResolvedValue::SubCommandGroup(inner) => {
            filled(inner, name)
        }
        value if o.name == name => Some(value),
        _ => None,
    })
}

/// The values of the chosen setting the command would take for this lobby (the game's own
/// configuration when it is found: a reminder is offered only before its turn time), each
/// named in the reader's language, narrowed by what is typed: the start of the value or any
/// part of its name in words.
async fn complete_value_choices(ctx: Context<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let lang = lang(ctx).await;
    let poise::Context::Application(app) = ctx else {
        return Vec::new();
    };
    let (setting, game) = {
        let options = app.interaction.data.options();
        let setting = match filled(&options, "setting") {
            Some(ResolvedValue::String(s)) => s.to_string(),
            _ => return Vec::new(),
        };
        let game = match filled(&options, "game") {
            Some(ResolvedValue::Integer(id)) => Some(*id),
            _ => None,
        };
        (setting, game)
    };
    let config = match which_game(ctx, game, true).await {
        Ok(id) => ctx
            .data()
            .call(move |s| s.game(id))
            .await
            .map(|game_view| game_view.config)
            .unwrap_or_default(),
        Err(_) => GameConfig::default(),
    };
    let typed = partial.trim().to_lowercase();
    settings::choices(&config, &setting)
        .into_iter()
        .map(|v| (settings::value(lang, &setting, &v), v))
        .filter(|(name, v)| {
            typed.is_empty() || v.starts_with(&typed) || name.to_lowercase().contains(&typed)
        })
        .map(|(name, v)| AutocompleteChoice::new(name, v))
        .collect()
}

/// See or change a lobby's settings
#[poise::command(slash_command, guild_only)]
pub async fn settings(
    ctx: Context<'_>,
    #[description = "The setting to change (leave out to see them all)"]
    #[autocomplete = "complete_setting"]
    setting: Option<String>,
    #[description = "Its new value"]
    #[autocomplete = "complete_value"]
    value: Option<String>,
    #[description = "Which game (default: the one in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let id = which_game(ctx, game, true).await?;
    let who = actor(ctx);
    match (setting, value) {
        (Some(setting), Some(value)) => {
            check_length("setting", &setting)?;
            check_length("value", &value)?;
            ctx.defer_ephemeral().await?;
            let name = settings::name(lang, &setting);
            let change = LobbyChange::Configure { setting, value };
            let game_view = ctx
                .data()
                .change(move |s| s.change_lobby(who, id, change))
                .await?;
            lobby_sync::show(ctx.data(), &game_view).await;
            let config = game_view.config;
            let text = tr!(
                lang,
                "settings-changed",
                game = id,
                setting = name,
                summary = settings::summary(&config, lang)
            );
            say(ctx, text).await
        }
        (None, Some(_)) | (Some(_), None) => Err(BotError::SettingHalfGiven),
        (None, None) => {
            let shown = ctx.data().call(move |s| s.lobby_settings(who, id)).await?;
            let mut reply = CreateReply::default()
                .content(tr!(
                    lang,
                    "settings-title",
                    game = id,
                    summary = settings::summary(&shown.config, lang)
                ))
                .ephemeral(true);
            if shown.editable {
                reply = reply.components(vec![settings::pick_menu(id, &shown.config, lang)]);
            }
            ctx.send(reply).await?;
            Ok(())
        }
    }
}
