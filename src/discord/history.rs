//! The history browser: a game's board after any step, with the steps up to it in words, and
//! buttons (first, back, forward, last) and a menu of steps to move through it. Sent privately
//! by `/jackal history`, and edited in place by its own components.

use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

use super::errors::BotError;
use super::ids::{CustomId, HistoryButton};
use super::turn::{self, BoardPicture, PickerMessage};
use super::types::{Data, Result};
use super::views::{self, GameTeams, team_mark};
use crate::game::{GameView, HistoryEntry};
use crate::id::GameId;
use crate::render::{self, RenderOptions};
use crate::tr;
use crate::words::{Lang, narrate};

/// Entries Discord allows in a select menu.
const MENU_MAX: usize = 25;

/// The browser at `ply` (`None`: the latest), or `None` when nothing was played yet.
pub async fn page(
    data: &Data,
    lang: Lang,
    id: GameId,
    ply: Option<u32>,
) -> Result<Option<PickerMessage>> {
    // One service call: the game, its steps, and the position and path of the step shown.
    let (game_view, history, shown) = data
        .call(move |s| {
            let game_view = s.game(id)?;
            let last = game_view.ply;
            let ply = ply.unwrap_or(last);
            if ply > last {
                return Ok((game_view, Vec::new(), None));
            }
            let history = s.history(id)?;
            let position = s.position_at(id, ply)?;
            let events = s.move_events(id, ply)?;
            Ok((game_view, history, Some((ply, position, events))))
        })
        .await?;
    let Some((ply, position, events)) = shown else {
        return Err(BotError::OutOfRange {
            option: "ply",
            max: game_view.ply,
        });
    };
    if history.is_empty() {
        return Ok(None);
    }
    let options = RenderOptions {
        path: render::path_of(&events),
        lang,
        ..RenderOptions::default()
    };
    let png = turn::draw(data, position, options).await?;
    Ok(Some(PickerMessage {
        content: text(lang, &game_view, &history, ply),
        components: rows(lang, id, ply, history.len() as u32),
        picture: Some(BoardPicture {
            file: turn::board_file(id, ply),
            png,
        }),
    }))
}

/// The title, then the steps up to `ply` in words (as many of the latest as fit), the step
/// shown marked.
fn text(lang: Lang, game_view: &GameView, history: &[HistoryEntry], ply: u32) -> String {
    let teams = GameTeams { game_view, lang };
    let mut lines: Vec<String> = Vec::new();
    let mut used = 0;
    for entry in history.iter().rev().filter(|e| e.ply <= ply) {
        let action = narrate::step(
            lang,
            entry.take_back,
            entry.action.as_ref(),
            &entry.notation,
        );
        let mut line = format!("{} {}. {action}", team_mark(entry.team), entry.ply);
        let events = narrate::events(lang, &teams, &entry.events);
        if !events.is_empty() {
            line.push_str(" — ");
            line.push_str(&events.join("; "));
        }
        if entry.taken_back {
            line = format!("~~{line}~~ {}", tr!(lang, "history-taken-back"));
        }
        if entry.ply == ply {
            line = format!("**{line}**");
        }
        used += line.chars().count() + 3;
        if used > views::CONTENT_MAX - 300 {
            break;
        }
        lines.push(line);
    }
    lines.reverse();
    let head = tr!(
        lang,
        "history-title",
        game = game_view.id,
        count = history.len()
    );
    let at = if ply == 0 {
        tr!(lang, "history-at-start")
    } else {
        tr!(lang, "history-at", number = ply)
    };
    views::fit_lines(lang, &format!("{head}\n{at}\n"), &lines, "")
}

/// ⏮ ◀ ▶ ⏭ and a menu of steps spread over the game, the one shown among them.
fn rows(lang: Lang, game: GameId, ply: u32, last: u32) -> Vec<CreateActionRow> {
    let button = |button: HistoryButton, to: u32, label: &str, disabled: bool| {
        CreateButton::new(
            CustomId::History {
                game,
                ply: to,
                button,
            }
            .encode(),
        )
        .label(label)
        .style(ButtonStyle::Secondary)
        .disabled(disabled)
    };
    let buttons = vec![
        button(HistoryButton::First, 0, "⏮", ply == 0),
        button(HistoryButton::Back, ply.saturating_sub(1), "◀", ply == 0),
        button(
            HistoryButton::Forward,
            (ply + 1).min(last),
            "▶",
            ply >= last,
        ),
        button(HistoryButton::Last, last, "⏭", ply >= last),
    ];
    let options = menu_plies(ply, last)
        .into_iter()
        .map(|p| {
            let label = if p == 0 {
                tr!(lang, "history-at-start")
            } else {
                tr!(lang, "history-at", number = p)
            };
            CreateSelectMenuOption::new(label, p.to_string()).default_selection(p == ply)
        })
        .collect();
    let menu = CreateSelectMenu::new(
        CustomId::HistoryAt { game }.encode(),
        CreateSelectMenuKind::String { options },
    )
    .placeholder(tr!(lang, "history-menu"));
    vec![
        CreateActionRow::Buttons(buttons),
        CreateActionRow::SelectMenu(menu),
    ]
}

/// Up to 25 steps to jump to: every one in a short game; in a longer one the start, the end,
/// the steps around the one shown and the rest spread evenly between.
fn menu_plies(ply: u32, last: u32) -> Vec<u32> {
    if (last as usize) < MENU_MAX {
        return (0..=last).collect();
    }
    let mut plies: Vec<u32> = (ply.saturating_sub(2)..=(ply + 2).min(last)).collect();
    let spread = MENU_MAX - plies.len();
    for i in 0..spread {
        let p = (u64::from(last) * i as u64 / (spread as u64 - 1)) as u32;
        if !plies.contains(&p) {
            plies.push(p);
        }
    }
    plies.sort_unstable();
    plies.dedup();
    plies.truncate(MENU_MAX);
    plies
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_holds_the_shown_step_the_ends_and_at_most_25() {
        assert_eq!(menu_plies(3, 10), (0..=10).collect::<Vec<_>>());
        for (ply, last) in [
            (0, 300),
            (150, 300),
            (300, 300),
            (7, 24),
            (7, 25),
            (1234, 5000),
        ] {
            let plies = menu_plies(ply, last);
            assert!(plies.len() <= MENU_MAX, "{plies:?}");
            for must in [0, ply, last] {
                assert!(plies.contains(&must), "{ply}/{last}: {plies:?}");
            }
            assert!(plies.windows(2).all(|w| w[0] < w[1]), "{plies:?}");
        }
    }
}
