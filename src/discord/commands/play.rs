//! Playing: `/jackal move <action>` (typed, with autocomplete of the caller's legal moves in
//! words), `/jackal moves` (the private board and the picker), `/jackal resign`.

use poise::CreateReply;
use serenity::all::{
    AutocompleteChoice, ButtonStyle, CreateActionRow, CreateAttachment, CreateAutocompleteResponse,
    CreateButton,
};

use super::{author, check_length, complete_game, lang, say, which_game};
use crate::discord::ids::CustomId;
use crate::discord::picker::clip;
use crate::discord::turn::{self, PickerMessage};
use crate::discord::types::{Context, Result};
use crate::game::UndoVote;
use crate::tr;
use crate::words::Lang;
use crate::words::narrate;

/// Sends a picker message privately.
pub async fn send_picker(ctx: Context<'_>, message: PickerMessage) -> Result<()> {
    let mut reply = CreateReply::default()
        .content(message.content)
        .components(message.components)
        .ephemeral(true);
    if let Some(picture) = message.picture {
        reply = reply.attachment(CreateAttachment::bytes(picture.png, picture.file));
    }
    ctx.send(reply).await?;
    Ok(())
}

/// Autocomplete of `action`: the caller's legal moves in words, filtered by what was typed.
async fn complete_action(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    CreateAutocompleteResponse::new().set_choices(complete_action_choices(ctx, partial).await)
}

async fn complete_action_choices(ctx: Context<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let lang = lang(ctx).await;
    let user = author(ctx);
    let option = match ctx {
        poise::Context::Application(app) => {
            app.interaction
                .data
                .options()
                .iter()
                .find_map(|o| match (&o.name, &o.value) {
                    (&"game", serenity::all::ResolvedValue::Integer(i)) => Some(*i),
                    _ => None,
                })
        }
        poise::Context::Prefix(_) => None,
    };
    let Ok(id) = which_game(ctx, option, false).await else {
        return Vec::new();
    };
    let Ok(view) = ctx.data().call(move |s| s.turn(user, id, None)).await else {
        return Vec::new();
    };
    let game = &view.position;
    let typed = partial.trim().to_lowercase();
    view.legal
        .iter()
        .filter_map(|l| {
            let notation = game.notation(&l.action);
            let words = narrate::action(lang, &l.action);
            let label = if l.fatal {
                format!("☠ {words}")
            } else {
                words
            };
            let matches = typed.is_empty()
                || notation.to_lowercase().starts_with(&typed)
                || label.to_lowercase().contains(&typed);
            matches.then(|| {
                AutocompleteChoice::new(clip(&format!("{label} · {notation}"), 100), notation)
            })
        })
        .take(25)
        .collect()
}

/// Play a move, typed in the game's notation (e.g. `2 e5 coin`, `ship f1`)
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your move, e.g. 2 e5 coin"]
    #[autocomplete = "complete_action"]
    action: String,
    #[description = "Which game (default: yours in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    check_length("action", &action)?;
    ctx.defer_ephemeral().await?;
    let lang = lang(ctx).await;
    let user = author(ctx);
    let id = which_game(ctx, game, false).await?;
    let message = turn::press(ctx.data(), user, (id, None), lang, action.trim(), false).await?;
    send_picker(ctx, message).await
}

/// Your board and your legal moves, in private
#[poise::command(slash_command)]
pub async fn moves(
    ctx: Context<'_>,
    #[description = "Which game (default: yours in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    ctx.defer_ephemeral().await?;
    let lang = lang(ctx).await;
    let user = author(ctx);
    let id = which_game(ctx, game, false).await?;
    let view = ctx.data().call(move |s| s.turn(user, id, None)).await?;
    let message = turn::first_menu(ctx.data(), &view, lang).await?;
    send_picker(ctx, message).await
}

/// Ask to take back your last move (the other players agree or refuse)
#[poise::command(slash_command)]
pub async fn undo(
    ctx: Context<'_>,
    #[description = "Which game (default: yours in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let id = which_game(ctx, game, false).await?;
    let user = author(ctx);
    let outcome = ctx.data().change(move |s| s.request_undo(user, id)).await?;
    say(ctx, undo_answer(lang, outcome)).await
}

/// Where a take-back stands, to the player who asked or answered.
pub fn undo_answer(lang: Lang, vote: UndoVote) -> String {
    match vote {
        UndoVote::Waiting { accepted, needed } => {
            tr!(lang, "undo-waiting", accepted = accepted, needed = needed)
        }
        UndoVote::TakenBack { move_number } => {
            tr!(lang, "undo-done", number = move_number + 1)
        }
        UndoVote::Refused => tr!(lang, "undo-refused"),
    }
}

/// Resign from a game (asks first)
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Which game (default: yours in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let id = which_game(ctx, game, false).await?;
    ctx.defer_ephemeral().await?;
    // Only a player of a running game is asked.
    let user = author(ctx);
    ctx.data().call(move |s| s.may_resign(user, id)).await?;
    let button = CreateButton::new(CustomId::Resign { game: id }.encode())
        .label(tr!(lang, "button-resign"))
        .style(ButtonStyle::Danger);
    ctx.send(
        CreateReply::default()
            .content(tr!(lang, "resign-confirm", game = id))
            .components(vec![CreateActionRow::Buttons(vec![button])])
            .ephemeral(true),
    )
    .await?;
    Ok(())
}
