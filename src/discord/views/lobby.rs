//! The lobby message: the game's seats and settings in words, and the buttons to join,
//! leave, add a bot, change settings, start and cancel. Once the game starts (or is
//! cancelled) the same message says so and its buttons go.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use super::settings::{self, summary};
use super::{GameTeams, team_mark};
use crate::discord::ids::{CustomId, LobbyButton};
use crate::engine::Team;
use crate::game::GameStatus;
use crate::game::{GameEnd, Loaded};
use crate::tr;
use crate::words::Lang;
use crate::words::narrate::Teams;

/// The lobby message of a game that ended, with a link to the post that tells its end.
pub fn view_over(loaded: &Loaded, lang: Lang, final_post: &str) -> (String, Vec<CreateActionRow>) {
    let (mut text, components) = view(loaded, lang);
    text.push('\n');
    text.push_str(&tr!(
        lang,
        "lobby-final-post",
        link = final_post.to_string()
    ));
    (text, components)
}

/// The text and components of a game's lobby message.
pub fn view(loaded: &Loaded, lang: Lang) -> (String, Vec<CreateActionRow>) {
    let id = loaded.row.id;
    let teams = GameTeams { loaded, lang };
    let mut text = tr!(
        lang,
        "lobby-title",
        game = id,
        owner = format!("<@{}>", loaded.row.owner_id)
    );
    text.push('\n');
    text.push_str(&summary(&loaded.config, lang));
    text.push_str("\n\n");
    text.push_str(&tr!(lang, "lobby-seats"));
    text.push('\n');
    for team in 1..=loaded.config.team_count() {
        text.push_str(&tr!(
            lang,
            "lobby-seat",
            mark = team_mark(team),
            seat = team,
            who = match loaded.seat(team) {
                Some(_) => teams.name(Team::of(team)),
                None => format!("{} {}", team_mark(team), tr!(lang, "seat-free")),
            }
        ));
        text.push('\n');
    }
    if let Some(sides) = settings::sides(&loaded.config, lang) {
        text.push_str(&sides);
        text.push('\n');
    }
    let rules = settings::changed_rules(&loaded.config, lang);
    if !rules.is_empty() {
        text.push_str(&tr!(lang, "lobby-rules", rules = rules.join(", ")));
        text.push('\n');
    }
    match loaded.row.status {
        GameStatus::Lobby => {
            text.push('\n');
            text.push_str(&tr!(lang, "lobby-how"));
            (text, buttons(loaded, lang))
        }
        GameStatus::Active => {
            text.push('\n');
            // Said once the game's place is known: the thread opens after Start is pressed.
            let line = match loaded.row.thread_id {
                None => tr!(lang, "lobby-starting"),
                Some(thread) if Some(thread) == loaded.row.channel_id => {
                    tr!(lang, "lobby-started-here")
                }
                Some(thread) => tr!(lang, "lobby-started", place = format!("<#{thread}>")),
            };
            text.push_str(&line);
            (text, Vec::new())
        }
        GameStatus::Finished | GameStatus::Cancelled => {
            text.push('\n');
            let end = loaded.end().unwrap_or(GameEnd::Cancelled);
            // A played game ends with its result and scores, as the game-over post says them.
            let ending = if end.is_result() {
                super::post::over(loaded, loaded.game.as_ref(), &end, lang).content
            } else {
                crate::game::narrate::ending(lang, &teams, &end)
            };
            text.push_str(&ending);
            (text, Vec::new())
        }
    }
}

fn buttons(loaded: &Loaded, lang: Lang) -> Vec<CreateActionRow> {
    let game = loaded.row.id;
    let full = loaded.free_seats().is_empty();
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
