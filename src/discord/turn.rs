//! A player's turn, shared by `/jackal moves`, "My moves", the "your turn" DM, the picker's
//! menus and `/jackal move`: drawing the private board, building the picker's message, and
//! playing an action.

use crate::id::{GameId, UserId};
use serenity::all::CreateActionRow;

use super::errors::BotError;
use super::picker;
use super::types::{Data, Result};
use super::views::picker::{self as picker_view, At};
use crate::engine::Game;
use crate::game::{Accepted, CameBack, Pressed, TurnAt, TurnView};
use crate::render::{self, RenderOptions};
use crate::words::{Lang, narrate};

/// A picker message: text, components, and (for a new message) the private board.
pub struct PickerMessage {
    pub content: String,
    pub components: Vec<CreateActionRow>,
    pub picture: Option<BoardPicture>,
}

/// A board picture and the name of its file, which says the game and the ply it shows
/// wherever it is sent (a post, a DM, a private answer, an edited picker).
pub struct BoardPicture {
    pub file: String,
    pub png: Vec<u8>,
}

/// The name of the board picture file.
pub fn board_file(game: GameId, ply: u32) -> String {
    format!("jackal-{game}-{ply}.png")
}

/// Draws a position on the background threads (off the async ones, and behind the answers
/// to interactions).
pub async fn draw(data: &Data, game: Game, options: RenderOptions) -> Result<Vec<u8>> {
    data.background
        .run(move || render::render(&game, &options))
        .await
        .map_err(|e| BotError::Internal(format!("rendering: {e}")))
}

/// Where the picker is for a turn.
fn at(at: &TurnAt, deadline_ms: Option<i64>) -> At {
    At {
        game: at.game_id,
        ply: at.ply,
        number: at.move_number,
        team: at.team.number(),
        deadline_ms,
    }
}

/// The picker's first menu for the player on turn, with their board (their targets
/// highlighted, the last move outlined).
pub async fn first_menu(data: &Data, view: &TurnView, lang: Lang) -> Result<PickerMessage> {
    let options = RenderOptions {
        highlights: picker::targets(view),
        path: render::path_of(&view.last_move),
        lang,
        move_number: Some(view.at.move_number),
    };
    let png = draw(data, view.position.clone(), options).await?;
    let menu = picker::menu(view, lang, &[]).ok_or(BotError::UnknownComponent)?;
    let (content, components) = picker_view::view(lang, &at(&view.at, view.deadline_ms), &menu);
    Ok(PickerMessage {
        content,
        components,
        picture: Some(BoardPicture {
            file: board_file(view.at.game_id, view.at.ply),
            png,
        }),
    })
}

/// The menu at `path` (the board stays as it is).
pub fn menu_at(view: &TurnView, lang: Lang, path: &[u8]) -> Result<PickerMessage> {
    let menu = picker::menu(view, lang, path).ok_or(BotError::UnknownComponent)?;
    let (content, components) = picker_view::view(lang, &at(&view.at, None), &menu);
    Ok(PickerMessage {
        content,
        components,
        picture: None,
    })
}

/// Plays `notation` for `user` answering the board at `ply` (`None`: typed), unless it is
/// fatal and not yet confirmed (then the question comes back): one call of the service. The
/// answer is the message to show: the confirmation, the next choice of the same move (with
/// the board redrawn), or what was played.
pub async fn press(
    data: &Data,
    user: UserId,
    (game, ply): (GameId, Option<u32>),
    lang: Lang,
    notation: &str,
    confirmed: bool,
) -> Result<PickerMessage> {
    let text = notation.to_string();
    let pressed = data
        .change(move |s| s.press(user, game, ply, &text, confirmed))
        .await?;
    match pressed {
        Pressed::Confirm {
            at: turn,
            action,
            notation,
        } => {
            let label = narrate::action(lang, &action);
            let (content, components) =
                picker_view::confirm(lang, &at(&turn, None), &notation, &label);
            Ok(PickerMessage {
                content,
                components,
                picture: None,
            })
        }
        Pressed::Played { accepted, next } => {
            after_move(data, &accepted, next.as_deref(), lang).await
        }
    }
}

/// After a move: the next choice of the same move (with the board redrawn), or what was
/// played.
pub async fn after_move(
    data: &Data,
    accepted: &Accepted,
    next: Option<&TurnView>,
    lang: Lang,
) -> Result<PickerMessage> {
    if let Some(next) = next {
        let mut menu = first_menu(data, next, lang).await?;
        if let Some(back) = &accepted.came_back {
            menu.content = format!("{}\n{}", back_from_vacation(lang, back), menu.content);
        }
        return Ok(menu);
    }
    let words: Vec<String> = accepted
        .move_actions
        .iter()
        .map(|a| narrate::action(lang, a))
        .collect();
    let words = words.join(", ");
    let at = At {
        game: accepted.game_id,
        ply: accepted.ply - 1,
        number: accepted.move_number,
        team: accepted.team.number(),
        deadline_ms: None,
    };
    let mut content = picker_view::played(lang, &at, &words);
    if let Some(back) = &accepted.came_back {
        content.push('\n');
        content.push_str(&back_from_vacation(lang, back));
    }
    Ok(PickerMessage {
        content,
        components: Vec::new(),
        picture: None,
    })
}

/// The mover's own word that moving ended their vacation, with what came back.
fn back_from_vacation(lang: Lang, back: &CameBack) -> String {
    crate::tr!(
        lang,
        "vacation-ended-by-move",
        given = super::views::span(lang, back.given_back_ms),
        left = super::views::span(lang, back.status.left_ms()),
        allowance = super::views::span(lang, back.status.allowance_ms)
    )
}
