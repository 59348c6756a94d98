//! Buttons and menus: one router over the typed [`CustomId`]. Every handler answers within
//! Discord's three seconds by acknowledging first (the message is then edited in place, or a
//! private reply follows), and every refusal is a private message that changes nothing.

use crate::id::GameId;
use serenity::all::{
    ComponentInteraction, ComponentInteractionDataKind, Context as SerenityContext,
    CreateAllowedMentions, CreateAttachment, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, EditAttachments,
    EditInteractionResponse, Permissions,
};

use super::cost::{self, PressCost};
use super::errors::BotError;
use super::ids::{BoardControl, BoardPick, CustomId, LobbyButton, PickValue};
use super::turn::{self, PickerMessage};
use super::types::{Data, Result};
use super::views::{community, lobby, relative_time, settings};
use super::{lobby_sync, picker};
use crate::ai::BotLevel;
use crate::game::{Actor, LobbyChange, ServiceError};
use crate::game::{BoardQuery, GameFormat, PauseVote, PeriodKind};
use crate::tr;
use crate::words::Lang;

/// One component interaction: who, where, in which language, and whether it was answered.
struct Press<'a> {
    ctx: &'a SerenityContext,
    c: &'a ComponentInteraction,
    data: &'a Data,
    lang: Lang,
    actor: Actor,
    /// An initial response was sent (errors then go in a followup).
    answered: bool,
}

/// Handles a component interaction from start to end; failures are told to the user. What
/// it cost in service calls is kept ([`super::RunningBot::press_costs`]).
pub async fn handle(ctx: &SerenityContext, c: &ComponentInteraction, data: &Data) {
    let ((), service_calls) = cost::measured(answer(ctx, c, data)).await;
    tracing::debug!(custom_id = %c.data.custom_id, service_calls, "a press answered");
    data.press_costs.record(PressCost {
        custom_id: c.data.custom_id.clone(),
        service_calls,
    });
}

async fn answer(ctx: &SerenityContext, c: &ComponentInteraction, data: &Data) {
    let user = crate::id::UserId::from(c.user.id);
    let lang = data
        .lang_for(
            user,
            c.guild_id.map(crate::id::GuildId::from),
            Some(&c.locale),
        )
        .await;
    let admin = c
        .member
        .as_ref()
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD));
    let mut press = Press {
        ctx,
        c,
        data,
        lang,
        actor: Actor { user, admin },
        answered: false,
    };
    let result = match CustomId::parse(&c.data.custom_id) {
        Ok(id) => route(&mut press, id).await,
        Err(_) => Err(BotError::UnknownComponent),
    };
    if let Err(error) = result {
        if !error.is_refusal() {
            tracing::error!(custom_id = %c.data.custom_id, %error, "a component failed");
        }
        press.refuse(&error).await;
    }
}

impl Press<'_> {
    /// Acknowledges: the message will be edited (Discord's "deferred update").
    async fn acknowledge(&mut self) -> Result<()> {
        self.c
            .create_response(self.ctx, CreateInteractionResponse::Acknowledge)
            .await?;
        self.answered = true;
        Ok(())
    }

    /// Starts a private reply to fill in later (Discord shows "thinking…").
    async fn defer_private(&mut self) -> Result<()> {
        let pending = CreateInteractionResponseMessage::new().ephemeral(true);
        self.c
            .create_response(self.ctx, CreateInteractionResponse::Defer(pending))
            .await?;
        self.answered = true;
        Ok(())
    }

    /// A private message now, as the whole answer.
    async fn reply_private(&mut self, message: CreateInteractionResponseMessage) -> Result<()> {
        self.c
            .create_response(
                self.ctx,
                CreateInteractionResponse::Message(message.ephemeral(true)),
            )
            .await?;
        self.answered = true;
        Ok(())
    }

    /// Edits the message the component is on (after `acknowledge`), keeping its picture
    /// unless a new one is given.
    async fn edit(&self, message: PickerMessage) -> Result<()> {
        let attachments = match message.picture {
            Some(picture) => {
                EditAttachments::new().add(CreateAttachment::bytes(picture.png, picture.file))
            }
            None => EditAttachments::keep_all(&self.c.message),
        };
        let edit = EditInteractionResponse::new()
            .content(message.content)
            .components(message.components)
            .attachments(attachments);
        self.c.edit_response(self.ctx, edit).await?;
        Ok(())
    }

    /// Tells the user why not, privately.
    async fn refuse(&mut self, error: &BotError) {
        let text = error.user_text(self.lang);
        let sent = if self.answered {
            let followup = CreateInteractionResponseFollowup::new()
                .content(text)
                .ephemeral(true);
            self.c.create_followup(self.ctx, followup).await.map(|_| ())
        } else {
            let message = CreateInteractionResponseMessage::new()
                .content(text)
                .ephemeral(true);
            self.c
                .create_response(self.ctx, CreateInteractionResponse::Message(message))
                .await
        };
        if let Err(e) = sent {
            tracing::warn!(error = %e, "could not tell a user why their press was refused");
        }
    }

    /// Whether the press came from a message only its reader sees: a DM, or an ephemeral
    /// answer.
    fn on_private_message(&self) -> bool {
        use serenity::all::MessageFlags;
        let ephemeral = self
            .c
            .message
            .flags
            .is_some_and(|f| f.contains(MessageFlags::EPHEMERAL));
        self.c.guild_id.is_none() || ephemeral
    }

    /// Whether the press came from a private (ephemeral) message that carries the pressed
    /// component itself, as a question the bot asked in private does.
    fn on_private_message_with_this_component(&self) -> bool {
        use serenity::all::{ActionRowComponent, ButtonKind, MessageFlags};
        let message = &self.c.message;
        let private = message
            .flags
            .is_some_and(|f| f.contains(MessageFlags::EPHEMERAL));
        let pressed = &self.c.data.custom_id;
        let carries_it = message.components.iter().any(|row| {
            row.components.iter().any(|c| match c {
                ActionRowComponent::Button(b) => matches!(
                    &b.data,
                    ButtonKind::NonLink { custom_id, .. } if custom_id == pressed
                ),
                _ => false,
            })
        });
        private && carries_it
    }

    /// The value chosen in a select menu.
    fn chosen(&self) -> Result<String> {
        match &self.c.data.kind {
            ComponentInteractionDataKind::StringSelect { values } => {
                values.first().cloned().ok_or(BotError::UnknownComponent)
            }
            _ => Err(BotError::UnknownComponent),
        }
    }
}

async fn route(p: &mut Press<'_>, id: CustomId) -> Result<()> {
    // The picker and the lobby's private menus are only ever sent in private (a DM or an
    // ephemeral answer), and answered by editing the message they are on: pressed on a public
    // post (a forged id) they would turn it into a private answer everyone sees.
    let private_only = matches!(
        id,
        CustomId::Pick { .. }
            | CustomId::PickRoot { .. }
            | CustomId::Play { .. }
            | CustomId::BotLevel { .. }
            | CustomId::SettingPick { .. }
            | CustomId::SettingValue { .. }
            | CustomId::Board { .. }
            | CustomId::History { .. }
            | CustomId::HistoryAt { .. }
    );
    if private_only && !p.on_private_message() {
        return Err(BotError::UnknownComponent);
    }
    match id {
        CustomId::Board { control, pick } => board(p, control, pick).await,
        CustomId::History { game, ply, .. } => history_step(p, game, ply).await,
        CustomId::HistoryAt { game } => {
            let ply = p
                .chosen()?
                .parse()
                .map_err(|_| BotError::UnknownComponent)?;
            history_step(p, game, ply).await
        }
        CustomId::Lobby { game, button } => lobby_button(p, game, button).await,
        CustomId::BotLevel { game } => {
            let level = BotLevel::parse(&p.chosen()?).ok_or(BotError::UnknownComponent)?;
            p.acknowledge().await?;
            let who = p.actor;
            let change = LobbyChange::AddBot(level);
            let game_view = p
                .data
                .change(move |s| s.change_lobby(who, game, change))
                .await?;
            lobby_sync::show(p.data, &game_view).await;
            p.edit(text_only(tr!(p.lang, "bot-added"))).await
        }
        CustomId::SettingPick { game } => {
            let chosen = p.chosen()?;
            let setting = settings::known_setting(&chosen).ok_or(BotError::UnknownComponent)?;
            p.acknowledge().await?;
            let game_view = p.data.call(move |s| s.game(game)).await?;
            let rows = vec![
                settings::value_menu(game, &game_view.config, p.lang, setting),
                settings::pick_menu(game, &game_view.config, p.lang),
            ];
            let content = tr!(
                p.lang,
                "settings-choose-value",
                setting = settings::name(p.lang, setting)
            );
            let edit = EditInteractionResponse::new()
                .content(content)
                .components(rows);
            p.c.edit_response(p.ctx, edit).await?;
            Ok(())
        }
        CustomId::SettingValue { game, setting } => {
            let value = p.chosen()?;
            p.acknowledge().await?;
            let who = p.actor;
            let name = settings::name(p.lang, &setting);
            let change = LobbyChange::Configure { setting, value };
            let game_view = p
                .data
                .change(move |s| s.change_lobby(who, game, change))
                .await?;
            lobby_sync::show(p.data, &game_view).await;
            let config = game_view.config;
            let text = tr!(
                p.lang,
                "settings-changed",
                game = game,
                setting = name,
                summary = settings::summary(&config, p.lang)
            );
            let edit = EditInteractionResponse::new()
                .content(text)
                .components(vec![settings::pick_menu(game, &config, p.lang)]);
            p.c.edit_response(p.ctx, edit).await?;
            Ok(())
        }
        CustomId::MyMoves { game } => {
            p.defer_private().await?;
            let user = p.actor.user;
            let view = p.data.call(move |s| s.turn(user, game, None)).await?;
            let message = turn::first_menu(p.data, &view, p.lang).await?;
            p.edit(message).await
        }
        CustomId::Pick { game, ply, path } => {
            let value = PickValue::parse(&p.chosen()?).map_err(|_| BotError::UnknownComponent)?;
            p.acknowledge().await?;
            match value {
                // The service checks a picked action as it would a typed one.
                PickValue::Action(notation) => play(p, game, ply, &notation, false).await,
                PickValue::Group(i) => open_group(p, game, ply, path, i).await,
                PickValue::Index(index) => pick_by_index(p, game, ply, &path, index).await,
            }
        }
        CustomId::PickRoot { game, ply } => {
            p.acknowledge().await?;
            let view = current(p, game, ply).await?;
            p.edit(turn::menu_at(&view, p.lang, &[])?).await
        }
        CustomId::Play {
            game,
            ply,
            action,
            confirmed,
        } => {
            p.acknowledge().await?;
            play(p, game, ply, &action, confirmed).await
        }
        CustomId::Resign { game } => {
            // Resigning is only ever the answer to its confirmation, a private message
            // carrying this very button: pressed anywhere else (a forged id under a public
            // board) it would skip the question and edit a message everyone sees.
            if !p.on_private_message_with_this_component() {
                return Err(BotError::ResignUnconfirmed);
            }
            p.acknowledge().await?;
            let who = p.actor;
            p.data.change(move |s| s.resign(who, game)).await?;
            p.edit(text_only(tr!(p.lang, "resigned", game = game)))
                .await
        }
        CustomId::PauseVote { game, yes } => pause_vote(p, game, yes).await,
        CustomId::UndoVote { game, ply, yes } => {
            p.defer_private().await?;
            let user = p.actor.user;
            let outcome = p
                .data
                .change(move |s| s.vote_undo(user, game, ply, yes))
                .await?;
            let text = crate::discord::commands::undo_answer(p.lang, outcome);
            p.edit(text_only(text)).await
        }
        CustomId::Reclaim { game } => {
            p.defer_private().await?;
            let user = p.actor.user;
            let team = p.data.change(move |s| s.reclaim_seat(user, game)).await?;
            p.edit(text_only(tr!(
                p.lang,
                "reclaimed",
                game = game,
                team = team
            )))
            .await
        }
    }
}

/// A vote on a proposed pause, answered privately with where the vote stands.
async fn pause_vote(p: &mut Press<'_>, game: GameId, yes: bool) -> Result<()> {
    p.defer_private().await?;
    let user = p.actor.user;
    let outcome = p
        .data
        .change(move |s| s.vote_pause(user, game, yes))
        .await?;
    let text = match outcome {
        PauseVote::Waiting { accepted, needed } => tr!(
            p.lang,
            "pause-vote-waiting",
            accepted = accepted,
            needed = needed
        ),
        PauseVote::Started { until_ms } => {
            tr!(
                p.lang,
                "pause-vote-started",
                until = relative_time(until_ms)
            )
        }
        PauseVote::Refused => tr!(p.lang, "pause-vote-refused"),
    };
    p.edit(text_only(text)).await
}

/// A message of text alone (its components go; its picture stays).
fn text_only(content: String) -> PickerMessage {
    PickerMessage {
        content,
        components: Vec::new(),
        picture: None,
    }
}

/// The turn at the position a picker component was drawn for, with the presser on turn. An
/// older position is refused as stale before anything else (whoever is on turn now).
async fn current(p: &Press<'_>, game: GameId, ply: u32) -> Result<crate::game::TurnView> {
    let user = p.actor.user;
    p.data.call(move |s| s.turn(user, game, Some(ply))).await
}

/// Opens group `group` of the picker's menu at `path`.
async fn open_group(
    p: &mut Press<'_>,
    game: GameId,
    ply: u32,
    mut path: Vec<u8>,
    group: u8,
) -> Result<()> {
    let view = current(p, game, ply).await?;
    path.push(group);
    p.edit(turn::menu_at(&view, p.lang, &path)?).await
}

/// An entry of a menu sent by an earlier version, whose values were the entries' indexes:
/// the menu is rebuilt to find which entry it was.
async fn pick_by_index(
    p: &mut Press<'_>,
    game: GameId,
    ply: u32,
    path: &[u8],
    index: usize,
) -> Result<()> {
    let view = current(p, game, ply).await?;
    let menu = picker::menu(&view, p.lang, path).ok_or(BotError::UnknownComponent)?;
    let entry = menu.entries.get(index).ok_or(BotError::UnknownComponent)?;
    match &entry.kind {
        picker::EntryKind::Group(i) => {
            let deeper: Vec<u8> = path.iter().copied().chain([*i]).collect();
            p.edit(turn::menu_at(&view, p.lang, &deeper)?).await
        }
        picker::EntryKind::Action { notation, .. } => {
            let notation = notation.clone();
            play(p, game, ply, &notation, false).await
        }
    }
}

/// Plays (or asks to confirm) an action pressed in the picker.
async fn play(
    p: &mut Press<'_>,
    game: GameId,
    ply: u32,
    notation: &str,
    confirmed: bool,
) -> Result<()> {
    let user = p.actor.user;
    let message = turn::press(p.data, user, (game, Some(ply)), p.lang, notation, confirmed).await?;
    p.edit(message).await
}

/// The lobby's settings panel, privately (owner or admin, while it is a lobby).
async fn settings_panel(p: &mut Press<'_>, game: GameId) -> Result<()> {
    let who = p.actor;
    p.defer_private().await?;
    let shown = p.data.call(move |s| s.lobby_settings(who, game)).await?;
    if !shown.editable {
        return Err(ServiceError::AlreadyStarted(game).into());
    }
    let edit = EditInteractionResponse::new()
        .content(tr!(
            p.lang,
            "settings-title",
            game = game,
            summary = settings::summary(&shown.config, p.lang)
        ))
        .components(vec![settings::pick_menu(game, &shown.config, p.lang)]);
    p.c.edit_response(p.ctx, edit).await?;
    Ok(())
}

/// The menu of bot levels, privately: the bot is seated when one is chosen.
async fn bot_level_menu(p: &mut Press<'_>, game: GameId) -> Result<()> {
    let options = BotLevel::ALL
        .iter()
        .map(|l| {
            serenity::all::CreateSelectMenuOption::new(settings::level(p.lang, *l), l.name())
                .description(settings::level_about(p.lang, *l))
        })
        .collect();
    let menu = serenity::all::CreateSelectMenu::new(
        CustomId::BotLevel { game }.encode(),
        serenity::all::CreateSelectMenuKind::String { options },
    );
    let message = CreateInteractionResponseMessage::new()
        .content(tr!(p.lang, "bot-level"))
        .components(vec![serenity::all::CreateActionRow::SelectMenu(menu)]);
    p.reply_private(message).await
}

async fn lobby_button(
    p: &mut Press<'_>,
    game: crate::id::GameId,
    button: LobbyButton,
) -> Result<()> {
    let who = p.actor;
    let change = match button {
        LobbyButton::Settings => return settings_panel(p, game).await,
        LobbyButton::AddBot if BotLevel::ALL.len() > 1 => return bot_level_menu(p, game).await,
        LobbyButton::AddBot => LobbyChange::AddBot(BotLevel::ALL[0]),
        LobbyButton::Join => LobbyChange::Join,
        LobbyButton::Leave => LobbyChange::Leave,
        LobbyButton::Start => LobbyChange::Start,
        LobbyButton::Cancel => LobbyChange::Cancel,
    };
    p.acknowledge().await?;
    let game_view = p
        .data
        .change(move |s| s.change_lobby(who, game, change))
        .await?;
    let lang = game_view.lang;
    let (content, components) = lobby::view(&game_view, lang);
    let edit = EditInteractionResponse::new()
        .content(content)
        .components(components)
        .allowed_mentions(serenity::all::CreateAllowedMentions::new());
    p.c.edit_response(p.ctx, edit).await?;
    Ok(())
}

/// A leaderboard's button or menu: the page it names, or the period or format chosen, shown
/// in place. "This server" is the server the press came from.
async fn board(p: &mut Press<'_>, control: BoardControl, pick: BoardPick) -> Result<()> {
    let pick = match control {
        BoardControl::Show => pick,
        BoardControl::Period => BoardPick {
            period: PeriodKind::parse(&p.chosen()?).ok_or(BotError::UnknownComponent)?,
            page: 0,
            ..pick
        },
        BoardControl::Format => BoardPick {
            format: match p.chosen()?.as_str() {
                "any" => None,
                word => Some(GameFormat::parse(word).ok_or(BotError::UnknownComponent)?),
            },
            page: 0,
            ..pick
        },
    };
    let guild =
        p.c.guild_id
            .map(crate::id::GuildId::from)
            .ok_or(BotError::NotInServer)?;
    p.acknowledge().await?;
    let query = BoardQuery {
        guild: (!pick.everywhere).then_some(guild),
        period: pick.period,
        format: pick.format,
        page: pick.page,
    };
    let caller = p.actor.user;
    let view = p.data.call(move |s| s.leaderboard(caller, query)).await?;
    let edit = EditInteractionResponse::new()
        .content(community::board_text(p.lang, &view))
        .components(community::board_rows(p.lang, &view))
        .allowed_mentions(CreateAllowedMentions::new());
    p.c.edit_response(p.ctx, edit).await?;
    Ok(())
}

/// A step of the history browser: the board after `ply`, edited in place.
async fn history_step(p: &mut Press<'_>, game: GameId, ply: u32) -> Result<()> {
    p.acknowledge().await?;
    match super::history::page(p.data, p.lang, game, Some(ply)).await? {
        Some(page) => p.edit(page).await,
        None => {
            p.edit(text_only(tr!(p.lang, "history-empty", game = game)))
                .await
        }
    }
}
