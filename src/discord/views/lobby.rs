//! The lobby message: the game's seats and settings in words, and the buttons to join,
//! leave, add a bot, change settings, start and cancel. Once the game starts (or is
//! cancelled) the same message says so and its buttons go.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use super::settings::{self, summary};
use super::{GameTeams, team_mark};
use crate::discord::ids::{CustomId, LobbyButton};
use crate::game::GameStatus;
use crate::game::{GameEnd, GameView};
use crate::tr;
use crate::words::Lang;
use crate::words::narrate::Teams;

/// The lobby message of a game that ended, with a link to the post that tells its end.
pub fn view_over(
    game_view: &GameView,
    lang: Lang,
    final_post: &str,
) -> (String, Vec<CreateActionRow>) {
    let (mut text, components) = view(game_view, lang);
    text.push('\n');
    text.push_str(&tr!(
        lang,
        "lobby-final-post",
        link = final_post.to_string()
    ));
    (text, components)
}

/// The text and components of a game's lobby message.
pub fn view(game_view: &GameView, lang: Lang) -> (String, Vec<CreateActionRow>) {
    let id = game_view.id;
    let teams = GameTeams { game_view, lang };
    let mut text = tr!(
        lang,
        "lobby-title",
        game = id,
        owner = format!("<@{}>", game_view.owner)
    );
    text.push('\n');
    text.push_str(&summary(&game_view.config, lang));
    text.push_str("\n\n");
    text.push_str(&tr!(lang, "lobby-seats"));
    text.push('\n');
    for team in game_view.config.teams() {
        let number = team.number();
        text.push_str(&tr!(
            lang,
            "lobby-seat",
            mark = team_mark(number),
            seat = number,
            who = match game_view.team_seat(team) {
                Some(_) => teams.name(team),
                None => format!("{} {}", team_mark(number), tr!(lang, "seat-free")),
            }
        ));
        text.push('\n');
    }
    if let Some(sides) = settings::sides(&game_view.config, lang) {
        text.push_str(&sides);
        text.push('\n');
    }
    let rules = settings::changed_rules(&game_view.config, lang);
    if !rules.is_empty() {
        text.push_str(&tr!(lang, "lobby-rules", rules = rules.join(", ")));
        text.push('\n');
    }
    match game_view.status {
        GameStatus::Lobby => {
            text.push('\n');
            text.push_str(&tr!(lang, "lobby-how"));
            (text, buttons(game_view, lang))
        }
        GameStatus::Active => {
            text.push('\n');
            // Said once the game's place is known: the thread opens after Start is pressed.
            let line = match game_view.thread_id {
                None => tr!(lang, "lobby-starting"),
                Some(thread) if Some(thread) == game_view.channel_id => {
                    tr!(lang, "lobby-started-here")
                }
                Some(thread) => tr!(lang, "lobby-started", place = format!("<#{thread}>")),
            };
            text.push_str(&line);
            (text, Vec::new())
        }
        GameStatus::Finished | GameStatus::Cancelled => {
            text.push('\n');
            let end = game_view.end.clone().unwrap_or(GameEnd::Cancelled);
            // A played game ends with its result and scores, as the game-over post says them.
            let ending = if end.is_result() {
                super::post::over(game_view, game_view.state.as_ref(), &end, &[], lang).content
            } else {
                crate::game::narrate::ending(lang, &teams, &end)
            };
            text.push_str(&ending);
            (text, Vec::new())
        }
    }
}

fn buttons(game_view: &GameView, lang: Lang) -> Vec<CreateActionRow> {
    let game = game_view.id;
    let full = game_view.free_seats().is_empty();
    let button = |b: LobbyButton, style: ButtonStyle, label: String| {
        CreateButton::new(CustomId::Lobby { game, button: b }.encode())
            .label(label)
            .style(style)
    };
    vec![
        CreateActionRow::Buttons(vec![
            button(
                LobbyButton::Join,
                ButtonStyle::Success,
                tr!(lang, "button-join"),
            )
            .disabled(full),
            button(
                LobbyButton::Leave,
                ButtonStyle::Secondary,
                tr!(lang, "button-leave"),
            ),
            button(
                LobbyButton::AddBot,
                ButtonStyle::Secondary,
                tr!(lang, "button-add-bot"),
            )
            .disabled(full),
        ]),
        CreateActionRow::Buttons(vec![
            button(
                LobbyButton::Settings,
                ButtonStyle::Secondary,
                tr!(lang, "button-settings"),
            ),
            button(
                LobbyButton::Start,
                ButtonStyle::Primary,
                tr!(lang, "button-start"),
            )
            .disabled(!full),
            button(
                LobbyButton::Cancel,
                ButtonStyle::Danger,
                tr!(lang, "button-cancel"),
            ),
        ]),
    ]
}
