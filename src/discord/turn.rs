//! A player's turn, shared by `/jackal moves`, "My moves", the "your turn" DM, the picker's
//! menus and `/jackal move`: drawing the private board, building the picker's message, and
//! playing an action.

use serenity::all::CreateActionRow;

use super::errors::BotError;
use super::picker;
use super::types::{Data, Result};
use super::views::picker::{self as view, At};
use crate::engine::Game;
use crate::game::{Accepted, CameBack, Loaded, ServiceError};
use crate::game::{GameId, UserId};
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

/// The game and the user's seat on turn in it, or why there is none.
pub async fn players_turn(data: &Data, user: UserId, game: GameId) -> Result<(Loaded, Game)> {
    let loaded = data.call(move |s| s.load(game)).await?;
    let state = match (&loaded.game, loaded.row.status) {
        (Some(state), crate::game::GameStatus::Active) => state.clone(),
        (_, crate::game::GameStatus::Lobby) => return Err(ServiceError::NotRunning(game).into()),
        _ => return Err(ServiceError::Finished(game).into()),
    };
    if loaded.seat_of(user).is_none() {
        return Err(ServiceError::NotYourGame(game).into());
    }
    let team = state.controller();
    if loaded.team_seat(team).and_then(|s| s.user_id) != Some(user) {
        return Err(ServiceError::NotYourTurn { team }.into());
    }
    Ok((loaded, state))
}

/// Where the picker is for a position.
fn at(loaded: &Loaded, game: &Game, deadline_ms: Option<i64>) -> At {
    At {
        game: loaded.row.id,
        ply: game.ply(),
        number: loaded.move_number(),
        team: game.controller().number(),
        deadline_ms,
    }
}

/// The picker's first menu for the player on turn, with their board (their targets
/// highlighted, the last move outlined).
pub async fn first_menu(
    data: &Data,
    loaded: &Loaded,
    game: &Game,
    lang: Lang,
    deadline_ms: Option<i64>,
) -> Result<PickerMessage> {
    let id = loaded.row.id;
    let ply = game.ply();
    let events = data.call(move |s| s.move_events(id, ply)).await?;
    let options = RenderOptions {
        highlights: picker::targets(game),
        path: render::path_of(&events),
        lang,
        move_number: Some(loaded.move_number()),
    };
    let png = draw(data, game.clone(), options).await?;
    let menu = picker::menu(game, lang, &[]).ok_or(BotError::UnknownComponent)?;
    let (content, components) = view::view(lang, &at(loaded, game, deadline_ms), &menu);
    Ok(PickerMessage {
        content,
        components,
        picture: Some(BoardPicture {
            file: board_file(id, ply),
            png,
        }),
    })
}

/// The menu at `path` (the board stays as it is).
pub fn menu_at(loaded: &Loaded, game: &Game, lang: Lang, path: &[u8]) -> Result<PickerMessage> {
    let menu = picker::menu(game, lang, path).ok_or(BotError::UnknownComponent)?;
    let (content, components) = view::view(lang, &at(loaded, game, None), &menu);
    Ok(PickerMessage {
        content,
        components,
        picture: None,
    })
}

/// What pressing an action does: a fatal one asks first.
pub enum Pressed {
    Confirm(PickerMessage),
    Played(Accepted),
}

/// Plays `notation` for `user` answering the board at `ply`, unless it is fatal and not yet
/// confirmed.
pub async fn press(
    data: &Data,
    user: UserId,
    loaded: &Loaded,
    game: &Game,
    lang: Lang,
    notation: &str,
    confirmed: bool,
) -> Result<Pressed> {
    if !confirmed && let Some(legal) = picker::find(game, notation).filter(|l| l.fatal) {
        let label = narrate::action(lang, &legal.action);
        let (content, components) = view::confirm(
            lang,
            &at(loaded, game, None),
            &game.notation(&legal.action),
            &label,
        );
        return Ok(Pressed::Confirm(PickerMessage {
            content,
            components,
            picture: None,
        }));
    }
    let id = loaded.row.id;
    let ply = game.ply();
    let text = notation.to_string();
    let accepted = data.change(move |s| s.act(user, id, ply, &text)).await?;
    Ok(Pressed::Played(accepted))
}

/// After a move by `user`: the next choice of the same move (with the board redrawn), or
/// what was played.
pub async fn after_move(
    data: &Data,
    user: UserId,
    accepted: &Accepted,
    lang: Lang,
) -> Result<PickerMessage> {
    if accepted.pending.is_some() {
        let (loaded, game) = players_turn(data, user, accepted.game_id).await?;
        let mut menu = first_menu(data, &loaded, &game, lang, None).await?;
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
    let mut content = view::played(lang, &at, &words);
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
