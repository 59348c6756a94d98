//! Keeping score: `/jackal stats [user]` (a player's record on this server, with a chart of
//! their rating), `/jackal leaderboard` (this server's or every server's, paged, by period
//! and format) and `/jackal replay [game]` (a whole game as an animation). All answer
//! privately; the leaderboard's buttons and menus are handled in
//! [`crate::discord::components`].

use poise::CreateReply;
use serenity::all::{CreateAllowedMentions, CreateAttachment, User};

use super::lobby::PlayersChoice;
use super::{author, complete_game, lang, say, this_server, which_game};
use crate::discord::errors::BotError;
use crate::discord::replay::{self, Replay};
use crate::discord::types::{Context, Result};
use crate::discord::views::{community, one_decimal};
use crate::game::{BoardQuery, GameFormat, PeriodKind};
use crate::render::chart;
use crate::tr;

/// A player's stats on this server: record, rating and its history, time to move, opponents
#[poise::command(slash_command)]
pub async fn stats(
    ctx: Context<'_>,
    #[description = "Whose (default: yours)"] user: Option<User>,
) -> Result<()> {
    let guild = this_server(ctx)?;
    ctx.defer_ephemeral().await?;
    let lang = lang(ctx).await;
    let who = user.as_ref().map_or_else(|| author(ctx), |u| u.id.into());
    let Some(stats) = ctx.data().call(move |s| s.stats(who, guild)).await? else {
        return say(ctx, tr!(lang, "stats-none", user = format!("<@{who}>"))).await;
    };
    let history = stats.history.clone();
    let words = chart::ChartWords {
        title: tr!(lang, "stats-chart-title"),
        games: tr!(lang, "stats-chart-games"),
        last: one_decimal(lang, history.last().copied().unwrap_or_default()),
    };
    let png = ctx
        .data()
        .background
        .run(move || chart::rating_chart(&history, &words))
        .await
        .map_err(|e| BotError::Internal(format!("drawing a chart: {e}")))?
        .map_err(|e| BotError::Internal(format!("encoding a chart: {e}")))?;
    ctx.send(
        CreateReply::default()
            .content(community::stats_text(lang, &stats))
            .attachment(CreateAttachment::bytes(png, format!("rating-{who}.png")))
            .allowed_mentions(CreateAllowedMentions::new())
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum PeriodChoice {
    #[name = "all"]
    All,
    #[name = "month"]
    Month,
    #[name = "week"]
    Week,
}

/// The best players of this server (or of every server), by rating
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Count only games of this many players"] players: Option<PlayersChoice>,
    #[description = "All time (default), this month or this week"] period: Option<PeriodChoice>,
    #[description = "Every server together (default: this one)"] everywhere: Option<bool>,
) -> Result<()> {
    let guild = this_server(ctx)?;
    ctx.defer_ephemeral().await?;
    let lang = lang(ctx).await;
    let query = BoardQuery {
        guild: (!everywhere.unwrap_or(false)).then_some(guild),
        period: match period.unwrap_or(PeriodChoice::All) {
            PeriodChoice::All => PeriodKind::All,
            PeriodChoice::Month => PeriodKind::Month,
            PeriodChoice::Week => PeriodKind::Week,
        },
        format: players.map(|p| match p {
            PlayersChoice::Two => GameFormat::Duel,
            PlayersChoice::Three => GameFormat::Three,
            PlayersChoice::Four => GameFormat::Four,
            PlayersChoice::TwoVsTwo => GameFormat::Pairs,
        }),
        page: 0,
    };
    let caller = author(ctx);
    let view = ctx
        .data()
        .call(move |s| s.leaderboard(caller, query))
        .await?;
    ctx.send(
        CreateReply::default()
            .content(community::board_text(lang, &view))
            .components(community::board_rows(lang, &view))
            .allowed_mentions(CreateAllowedMentions::new())
            .ephemeral(true),
    )
    .await?;
    Ok(())
}

/// A whole game as an animation, one frame a move, each move's path drawn
#[poise::command(slash_command)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "Which game (default: yours in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    ctx.defer_ephemeral().await?;
    let lang = lang(ctx).await;
    let id = which_game(ctx, game, true).await?;
    let limit = match ctx {
        poise::Context::Application(app) => Some(app.interaction.attachment_size_limit),
        poise::Context::Prefix(_) => None,
    };
    let Some(replay) = replay::draw(ctx.data(), id, lang, replay::budget(limit)).await? else {
        return say(ctx, tr!(lang, "history-empty", game = id)).await;
    };
    ctx.send(
        CreateReply::default()
            .content(tr!(lang, "replay-caption", game = id, count = replay.steps))
            .attachment(CreateAttachment::bytes(replay.gif, Replay::file_name(id)))
            .ephemeral(true),
    )
    .await?;
    Ok(())
}
