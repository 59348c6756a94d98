//! For the game's owner or a member with Manage Server: `/jackal kick`, `cancel`,
//! `settings` (the service checks who may; these map options and words).

use poise::CreateReply;
use serenity::all::{AutocompleteChoice, CreateAutocompleteResponse};

use super::{actor, check_length, complete_game, lang, say, which_game};
use crate::discord::errors::BotError;
use crate::discord::lobby_sync;
use crate::discord::types::{Context, Result};
use crate::discord::views::settings;
use crate::game::GameConfig;
use crate::tr;

/// Remove a player: from a lobby their seat is freed; in a running game a bot plays on
#[poise::command(slash_command, guild_only)]
pub async fn kick(
    ctx: Context<'_>,
    #[description = "The seat (team number) to free"]
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
    ctx.data().change(move |s| s.kick(who, id, team)).await?;
    lobby_sync::refresh(ctx.data(), id).await;
    say(ctx, tr!(lang, "kicked", seat = team, game = id)).await
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

async fn complete_value_choices(ctx: Context<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let lang = lang(ctx).await;
    let setting = match ctx {
        poise::Context::Application(app) => {
            app.interaction
                .data
                .options()
                .iter()
                .find_map(|o| match (&o.name, &o.value) {
                    (&"setting", serenity::all::ResolvedValue::String(s)) => Some(s.to_string()),
                    _ => None,
                })
        }
        poise::Context::Prefix(_) => None,
    };
    let Some(setting) = setting else {
        return Vec::new();
    };
    let config = GameConfig::default();
    let typed = partial.trim().to_lowercase();
    settings::choices(&config, &setting)
        .into_iter()
        .filter(|v| typed.is_empty() || v.starts_with(&typed))
        .map(|v| AutocompleteChoice::new(settings::value(lang, &setting, &v), v))
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
            let config = ctx
                .data()
                .change(move |s| s.configure(who, id, &setting, &value))
                .await?;
            lobby_sync::refresh(ctx.data(), id).await;
            let text = tr!(
                lang,
                "settings-changed",
                game = id,
                setting = name,
                summary = settings::summary(&config, lang)
            );
            say(ctx, text).await
        }
        (None, Some(_)) | (Some(_), None) => Err(BotError::Service(
            crate::game::ServiceError::BadSetting(tr!(lang, "settings-need-both")),
        )),
        (None, None) => {
            let loaded = ctx.data().call(move |s| s.load(id)).await?;
            if !(who.admin || who.user == loaded.row.owner_id) {
                return Err(BotError::NotOwner);
            }
            let mut reply = CreateReply::default()
                .content(tr!(
                    lang,
                    "settings-title",
                    game = id,
                    summary = settings::summary(&loaded.config, lang)
                ))
                .ephemeral(true);
            if loaded.row.status == crate::game::GameStatus::Lobby {
                reply = reply.components(vec![settings::pick_menu(id, &loaded.config, lang)]);
            }
            ctx.send(reply).await?;
            Ok(())
        }
    }
}
