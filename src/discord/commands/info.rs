//! Looking things up: `/jackal board [ply]`, `games`, `history`, `rules [topic]`, `help`,
//! and `language` (yours, or the server's for members who manage it).

use poise::CreateReply;
use serenity::all::{
    AutocompleteChoice, CreateAttachment, CreateAutocompleteResponse, CreateEmbed,
};

use super::{actor, author, check_length, complete_game, lang, say, this_server, which_game};
use crate::discord::errors::BotError;
use crate::discord::types::{Context, Result};
use crate::discord::views::{GameTeams, fit_lines, relative_time};
use crate::discord::{history, turn};
use crate::game::GameStatus;
use crate::guide;
use crate::render::{self, RenderOptions};
use crate::tr;
use crate::words::{Lang, narrate};

/// The board of a game, now or after any move
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "After this many moves (0: the start; default: now)"]
    #[min = 0]
    ply: Option<i64>,
    #[description = "Which game (default: yours in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    ctx.defer_ephemeral().await?;
    let lang = lang(ctx).await;
    let id = which_game(ctx, game, true).await?;
    let game_view = ctx.data().call(move |s| s.game(id)).await?;
    let Some(current) = game_view.state.as_ref().map(|g| g.ply()) else {
        return Err(crate::game::ServiceError::NotRunning(id).into());
    };
    let ply = match ply {
        None => current,
        Some(p) if p < 0 || p > current as i64 => {
            return Err(BotError::OutOfRange {
                option: "ply",
                max: current,
            });
        }
        Some(p) => p as u32,
    };
    let (position, events) = ctx
        .data()
        .call(move |s| Ok((s.position_at(id, ply)?, s.move_events(id, ply)?)))
        .await?;
    let options = RenderOptions {
        path: render::path_of(&events),
        lang,
        ..RenderOptions::default()
    };
    let png = turn::draw(ctx.data(), position, options).await?;
    ctx.send(
        CreateReply::default()
            .content(tr!(lang, "board-caption", game = id, number = ply))
            .attachment(CreateAttachment::bytes(png, turn::board_file(id, ply)))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

/// Your games: where they are, whose turn, until when
#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>) -> Result<()> {
    ctx.defer_ephemeral().await?;
    let lang = lang(ctx).await;
    let user = author(ctx);
    let rows = ctx.data().call(move |s| s.my_games_now(user)).await?;
    if rows.is_empty() {
        return say(ctx, tr!(lang, "games-none")).await;
    }
    let lines: Vec<String> = rows
        .iter()
        .map(|(game_view, deadline)| {
            let place = game_view
                .place
                .map(|p| format!("<#{p}>"))
                .unwrap_or_default();
            let state = match (&game_view.state, game_view.status) {
                (_, GameStatus::Lobby) => tr!(lang, "status-lobby"),
                (Some(game), _) => {
                    let team = game.controller();
                    let teams = GameTeams { game_view, lang };
                    let whose = if game_view.team_seat(team).and_then(|s| s.user_id) == Some(user) {
                        tr!(lang, "games-your-turn")
                    } else {
                        narrate::Teams::name(&teams, team)
                    };
                    match deadline {
                        Some(d) => format!("{whose} · {}", relative_time(*d)),
                        None => whose,
                    }
                }
                _ => tr!(lang, "status-active"),
            };
            tr!(
                lang,
                "games-line",
                game = game_view.id,
                place = place,
                state = state
            )
        })
        .collect();
    let text = fit_lines(lang, &format!("{}\n", tr!(lang, "games-title")), &lines, "");
    say(ctx, text).await
}

/// The moves of a game in words, with its board after any of them to step through
#[poise::command(slash_command)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Which game (default: yours in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
    #[description = "Open at the board after this many moves (default: now)"]
    #[min = 0]
    ply: Option<i64>,
) -> Result<()> {
    ctx.defer_ephemeral().await?;
    let lang = lang(ctx).await;
    let id = which_game(ctx, game, true).await?;
    // Past the last move (however far) is refused with the game's own last move.
    let ply = ply.map(|p| u32::try_from(p).unwrap_or(u32::MAX));
    let Some(page) = history::page(ctx.data(), lang, id, ply).await? else {
        return say(ctx, tr!(lang, "history-empty", game = id)).await;
    };
    let mut reply = CreateReply::default()
        .content(page.content)
        .components(page.components)
        .ephemeral(true);
    if let Some(picture) = page.picture {
        reply = reply.attachment(CreateAttachment::bytes(picture.png, picture.file));
    }
    ctx.send(reply).await?;
    Ok(())
}

async fn complete_topic(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    CreateAutocompleteResponse::new().set_choices(complete_topic_choices(ctx, partial).await)
}

async fn complete_topic_choices(ctx: Context<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let lang = lang(ctx).await;
    guide::search(lang, partial)
        .into_iter()
        .map(|t| AutocompleteChoice::new(t.title, t.id))
        .collect()
}

/// How the game works: a short guide to each tile, piece and rule
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "A tile, a piece or a rule (default: the overview)"]
    #[autocomplete = "complete_topic"]
    topic: Option<String>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let asked = topic.unwrap_or_else(|| "overview".into());
    check_length("topic", &asked)?;
    let found = guide::topic(lang, &asked)
        .or_else(|| guide::search(lang, &asked).into_iter().next())
        .ok_or_else(|| BotError::NoSuchTopic(asked.clone()))?;
    let embed = CreateEmbed::new()
        .title(found.title)
        .description(found.body);
    ctx.send(CreateReply::default().embed(embed).ephemeral(true))
        .await?;
    Ok(())
}

/// What the bot can do, and how to play
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<()> {
    let lang = lang(ctx).await;
    let embed = CreateEmbed::new()
        .title(tr!(lang, "help-title"))
        .description(tr!(lang, "help-body"))
        .footer(serenity::all::CreateEmbedFooter::new(tr!(
            lang,
            "help-credits"
        )));
    ctx.send(CreateReply::default().embed(embed).ephemeral(true))
        .await?;
    Ok(())
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum LanguageChoice {
    #[name = "en"]
    English,
    #[name = "ru"]
    Russian,
    #[name = "auto"]
    Auto,
}

/// The language the bot speaks to you (or, for server managers, to the whole server)
#[poise::command(slash_command)]
pub async fn language(
    ctx: Context<'_>,
    #[description = "English, Русский, or auto (your Discord language)"] language: LanguageChoice,
    #[description = "Set it for the whole server (needs Manage Server)"] server: Option<bool>,
) -> Result<()> {
    let chosen = match language {
        LanguageChoice::English => Some(Lang::En),
        LanguageChoice::Russian => Some(Lang::Ru),
        LanguageChoice::Auto => None,
    };
    let data = ctx.data();
    if server.unwrap_or(false) {
        let guild = this_server(ctx)?;
        if !actor(ctx).admin {
            return Err(BotError::NotServerManager);
        }
        data.set_guild_lang(guild, chosen).await?;
        let lang = lang(ctx).await;
        return say(
            ctx,
            tr!(
                lang,
                "language-server-set",
                language = name_of(lang, chosen)
            ),
        )
        .await;
    }
    data.set_user_lang(author(ctx), chosen).await?;
    let lang = lang(ctx).await;
    say(
        ctx,
        tr!(lang, "language-set", language = name_of(lang, chosen)),
    )
    .await
}

fn name_of(lang: Lang, chosen: Option<Lang>) -> String {
    match chosen {
        Some(Lang::En) => "English".into(),
        Some(Lang::Ru) => "Русский".into(),
        None => tr!(lang, "language-auto"),
    }
}
