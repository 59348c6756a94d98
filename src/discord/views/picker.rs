//! The private "your move" message: the player's board, what to choose, and the picker's
//! menu (or a pending choice's buttons), in a DM or an ephemeral reply.

use crate::id::GameId;
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

use super::{relative_time, team_mark};
use crate::discord::ids::{CustomId, PickValue};
use crate::discord::picker::{self as pick, EntryKind, Menu};
use crate::tr;
use crate::words::Lang;

pub use crate::discord::picker::clip;

/// Buttons per row and rows of buttons a message may carry (Discord: 5 × 5).
const BUTTONS_PER_ROW: usize = 5;

/// Where the picker is: which game, which position.
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub game: GameId,
    pub ply: u32,
    /// The move's number as players count moves (a choice keeps its move's number).
    pub number: u32,
    pub team: u8,
    pub deadline_ms: Option<i64>,
}

/// The heading of every picker message.
pub fn heading(lang: Lang, at: &At) -> String {
    let mut text = tr!(
        lang,
        "picker-heading",
        game = at.game,
        mark = team_mark(at.team),
        number = at.number
    );
    if let Some(deadline) = at.deadline_ms {
        text.push('\n');
        text.push_str(&tr!(
            lang,
            "picker-deadline",
            when = relative_time(deadline)
        ));
    }
    text
}

/// The text and components for `menu` at `at`.
pub fn view(lang: Lang, at: &At, menu: &Menu) -> (String, Vec<CreateActionRow>) {
    let content = format!("{}\n{}", heading(lang, at), menu.prompt);
    let mut rows = Vec::new();
    let fits_buttons = menu.entries.len() <= BUTTONS_PER_ROW * 4;
    if menu.choice && fits_buttons {
        let buttons: Vec<CreateButton> = menu
            .entries
            .iter()
            .filter_map(|e| match &e.kind {
                EntryKind::Action { notation, fatal } => Some(
                    CreateButton::new(
                        CustomId::Play {
                            game: at.game,
                            ply: at.ply,
                            action: notation.clone(),
                            confirmed: false,
                        }
                        .encode(),
                    )
                    .label(clip(&e.label, 80))
                    .style(if *fatal {
                        ButtonStyle::Danger
                    } else {
                        ButtonStyle::Primary
                    }),
                ),
                EntryKind::Group(_) => None,
            })
            .collect();
        for chunk in buttons.chunks(BUTTONS_PER_ROW) {
            rows.push(CreateActionRow::Buttons(chunk.to_vec()));
        }
    } else {
        let options = menu
            .entries
            .iter()
            .map(|e| {
                let label = clip(&e.label, pick::TEXT_MAX);
                match &e.kind {
                    EntryKind::Group(i) => {
                        CreateSelectMenuOption::new(label, PickValue::Group(*i).encode())
                            .emoji('📂')
                    }
                    EntryKind::Action { notation, .. } => CreateSelectMenuOption::new(
                        label,
                        PickValue::Action(notation.clone()).encode(),
                    ),
                }
            })
            .collect();
        let id = CustomId::Pick {
            game: at.game,
            ply: at.ply,
            path: menu.path.clone(),
        };
        rows.push(CreateActionRow::SelectMenu(
            CreateSelectMenu::new(id.encode(), CreateSelectMenuKind::String { options })
                .placeholder(clip(&menu.prompt, 150)),
        ));
    }
    if !menu.path.is_empty() {
        rows.push(back_row(lang, at));
    }
    (content, rows)
}

fn back_row(lang: Lang, at: &At) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(
            CustomId::PickRoot {
                game: at.game,
                ply: at.ply,
            }
            .encode(),
        )
        .label(tr!(lang, "button-back"))
        .style(ButtonStyle::Secondary),
    ])
}

/// Asking before a fatal move: what it is, and the buttons to play it anyway or go back.
pub fn confirm(lang: Lang, at: &At, notation: &str, label: &str) -> (String, Vec<CreateActionRow>) {
    let content = format!(
        "{}\n{}",
        heading(lang, at),
        tr!(
            lang,
            "picker-fatal",
            action = label.trim_start_matches("☠ ").to_string()
        )
    );
    let play = CreateButton::new(
        CustomId::Play {
            game: at.game,
            ply: at.ply,
            action: notation.to_string(),
            confirmed: true,
        }
        .encode(),
    )
    .label(tr!(lang, "button-play-anyway"))
    .style(ButtonStyle::Danger);
    let rows = vec![CreateActionRow::Buttons(vec![play]), back_row(lang, at)];
    (content, rows)
}

/// After the move: what was played (the buttons go).
pub fn played(lang: Lang, at: &At, words: &str) -> String {
    format!(
        "{}\n{}",
        heading(lang, at),
        tr!(lang, "picker-played", action = words.to_string())
    )
}

/// A turn that ended (played here or elsewhere, or by a timeout): the prompt is over, and
/// keeps what was played.
pub fn turn_over(lang: Lang, game: GameId, number: u32, played: &str) -> String {
    tr!(
        lang,
        "picker-turn-over",
        game = game,
        number = number,
        played = played.to_string()
    )
}
