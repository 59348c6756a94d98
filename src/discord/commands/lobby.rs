//! `/jackal new`: opens a lobby in this channel, with its message of seats, settings and
//! buttons.

use poise::CreateReply;
use serenity::all::{ChannelType, Permissions};

use super::{actor, lang};
use crate::discord::errors::{BotError, Permission};
use crate::discord::types::{Context, Result};
use crate::discord::views::lobby;
use crate::game::{GameConfig, Location};

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum PlayersChoice {
    #[name = "2"]
    Two,
    #[name = "3"]
    Three,
    #[name = "4"]
    Four,
    #[name = "2x2"]
    TwoVsTwo,
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum SizeChoice {
    #[name = "5"]
    S5,
    #[name = "7"]
    S7,
    #[name = "9"]
    S9,
    #[name = "11"]
    S11,
    #[name = "13"]
    S13,
}

/// Both standard packs, so that a player who wants the expansion can say so rather than
/// have to know that leaving the option out gives it.
#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum PackChoice {
    #[name = "full"]
    Full,
    #[name = "classic"]
    Classic,
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum TurnChoice {
    #[name = "1h"]
    H1,
    #[name = "6h"]
    H6,
    #[name = "12h"]
    H12,
    #[name = "1d"]
    D1,
    #[name = "2d"]
    D2,
    #[name = "3d"]
    D3,
    #[name = "7d"]
    D7,
}

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum TimeoutChoice {
    #[name = "bot"]
    Bot,
    #[name = "resign"]
    Resign,
    #[name = "skip"]
    Skip,
}

/// The setting values a choice stands for (`GameConfig::set` reads them).
fn value<T: poise::ChoiceParameter>(choice: T) -> String {
    choice.name().to_string()
}

/// What the bot needs in a channel to run a game there, and what it lacks.
pub fn missing_permissions(app: Permissions, in_thread: bool) -> Vec<Permission> {
    let has = |p: Permission| app.bits() & p.bit() != 0;
    let mut need = vec![Permission::ViewChannel, Permission::AttachFiles];
    if in_thread {
        need.push(Permission::SendMessagesInThreads);
    } else if !(has(Permission::CreatePublicThreads) && has(Permission::SendMessagesInThreads)) {
        // Without threads the game is played in the channel itself.
        need.push(Permission::SendMessages);
    }
    need.into_iter().filter(|p| !has(*p)).collect()
}

/// Start a new game in this channel
#[poise::command(slash_command, guild_only)]
pub async fn new(
    ctx: Context<'_>,
    #[description = "Number of players"] players: Option<PlayersChoice>,
    #[description = "Board size"] size: Option<SizeChoice>,
    #[description = "Tile pack"] pack: Option<PackChoice>,
    #[description = "Time for each turn"] turn_time: Option<TurnChoice>,
    #[description = "What happens when a turn's time runs out"] timeout: Option<TimeoutChoice>,
) -> Result<()> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let in_thread = app.interaction.channel.as_ref().is_some_and(|c| {
        matches!(
            c.kind,
            ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
        )
    });
    if let Some(perms) = app.interaction.app_permissions {
        let missing = missing_permissions(perms, in_thread);
        if !missing.is_empty() {
            return Err(BotError::MissingPermissions(missing));
        }
    }
    // Bad option values are refused privately, before the public (deferred) reply.
    let mut config = GameConfig::default();
    let chosen = [
        ("players", players.map(value)),
        ("board_size", size.map(value)),
        ("tile_pack", pack.map(value)),
        ("turn_time", turn_time.map(value)),
        ("timeout", timeout.map(value)),
    ];
    for (id, v) in chosen {
        if let Some(v) = v {
            config
                .set(id, &v)
                .map_err(|e| BotError::Service(crate::game::ServiceError::BadSetting(e)))?;
        }
    }
    ctx.defer().await?;
    // The deferred answer becomes the lobby message: its id is recorded before the lobby
    // shows, so a button pressed on it at once (Start opens the thread on it) finds it stored.
    let message = crate::id::MessageId::from(app.interaction.get_response(ctx.http()).await?.id);
    let data = ctx.data();
    let guild = ctx.guild_id().map(crate::id::GuildId::from);
    let game_lang = match guild {
        Some(g) => match data.guild_lang(g).await {
            Some(l) => l,
            None => lang(ctx).await,
        },
        None => lang(ctx).await,
    };
    let channel = crate::id::ChannelId::from(ctx.channel_id());
    let location = Location {
        guild_id: guild,
        channel_id: Some(channel),
        // A game opened inside a thread is played there.
        thread_id: in_thread.then_some(channel),
    };
    let who = actor(ctx);
    let id = data
        .change(move |s| s.create_lobby(who, location, game_lang, config, None))
        .await?;
    data.call(move |s| s.set_lobby_message(id, message)).await?;
    let game_view = data.call(move |s| s.game(id)).await?;
    let (content, components) = lobby::view(&game_view, game_lang);
    ctx.send(
        CreateReply::default()
            .content(content)
            .components(components)
            .allowed_mentions(serenity::all::CreateAllowedMentions::new()),
    )
    .await?;
    Ok(())
}
