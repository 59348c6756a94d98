//! What the bot's messages say and which components they carry: pure functions from game
//! values to text and component builders, in the reader's language. Sending them is the
//! handlers' and the sender's job.

pub mod community;
pub mod lobby;
pub mod picker;
pub mod post;
pub mod settings;

use crate::id::GameId;
use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use super::ids::CustomId;
use crate::engine::Team;
use crate::game::GameView;
use crate::tr;
use crate::words::Lang;
use crate::words::narrate::Teams;

/// Discord's limit on a message's text.
pub const CONTENT_MAX: usize = 2000;

/// Each team's mark in text, after its colour and token shape on the board (team 1 orange
/// circles, team 2 blue squares, team 3 green, team 4 purple).
pub fn team_mark(team: u8) -> &'static str {
    match team {
        1 => "🟠",
        2 => "🟦",
        3 => "🟩",
        _ => "🟪",
    }
}

/// How a game's teams are named in its messages: mark and player (a mention, which Discord
/// shows as the name) or bot.
pub struct GameTeams<'a> {
    pub game_view: &'a GameView,
    pub lang: Lang,
}

impl Teams for GameTeams<'_> {
    fn name(&self, team: Team) -> String {
        let who = match self.game_view.team_seat(team) {
            Some(seat) => match (seat.user_id, seat.away_user_id) {
                (Some(user), _) => format!("<@{user}>"),
                // A bot keeps the seat of a player whose time ran out: it plays for them.
                (None, Some(away)) if !seat.resigned => {
                    tr!(self.lang, "bot-for-player", player = format!("<@{away}>"))
                }
                (None, _) => tr!(self.lang, "bot-player"),
            },
            None => tr!(self.lang, "seat-free"),
        };
        format!("{} {who}", team_mark(team.number()))
    }

    fn person(&self, team: Team) -> String {
        match self
            .game_view
            .team_seat(team)
            .and_then(|s| s.user_id.or(s.away_user_id))
        {
            Some(user) => format!("{} <@{user}>", team_mark(team.number())),
            None => self.name(team),
        }
    }
}

/// A duration in words: "1 day", "12 hours", "90 minutes".
pub fn duration(lang: Lang, seconds: u32) -> String {
    duration_in(lang, seconds, Case::Nominative)
}

/// The grammatical case a duration stands in. English has one form; Russian declines a
/// feminine unit after a preposition: "1 минута" alone, but "за 1 минуту до конца хода"
/// ("1 minute before the deadline").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Nominative,
    Accusative,
}

impl Case {
    /// The selector the Fluent files read as `$case`.
    fn id(self) -> &'static str {
        match self {
            Case::Nominative => "nominative",
            Case::Accusative => "accusative",
        }
    }
}

/// A duration in words, in `case`.
pub fn duration_in(lang: Lang, seconds: u32, case: Case) -> String {
    let case = case.id();
    match seconds {
        s if s >= 86_400 && s % 86_400 == 0 => {
            tr!(lang, "duration-days", count = s / 86_400, case = case)
        }
        s if s >= 3_600 && s % 3_600 == 0 => {
            tr!(lang, "duration-hours", count = s / 3_600, case = case)
        }
        s if s >= 60 && s % 60 == 0 => tr!(lang, "duration-minutes", count = s / 60, case = case),
        s => tr!(lang, "duration-seconds", count = s, case = case),
    }
}

/// A span of days and hours, rounded down to the hour: "9 days 3 hours", "5 hours".
pub fn span(lang: Lang, ms: i64) -> String {
    crate::words::narrate::days_and_hours(lang, ms)
}

/// A moment as Discord shows it to each reader in their own time: "in 5 hours".
pub fn relative_time(ms: i64) -> String {
    format!("<t:{}:R>", ms.div_euclid(1000))
}

/// Text cut to fit a message, whole lines first, with a note of how many lines were left out.
pub fn fit_lines(lang: Lang, head: &str, lines: &[String], tail: &str) -> String {
    let budget = CONTENT_MAX.saturating_sub(head.chars().count() + tail.chars().count() + 80);
    let mut body = String::new();
    let mut shown = 0;
    for line in lines {
        if body.chars().count() + line.chars().count() + 3 > budget {
            break;
        }
        body.push_str("• ");
        body.push_str(line);
        body.push('\n');
        shown += 1;
    }
    if shown < lines.len() {
        body.push_str(&tr!(lang, "more-lines", count = lines.len() - shown));
        body.push('\n');
    }
    format!("{head}{body}{tail}")
}

/// The "My moves" button under a board post.
pub fn my_moves_row(lang: Lang, game: GameId) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(CustomId::MyMoves { game }.encode())
            .label(tr!(lang, "button-my-moves"))
            .style(ButtonStyle::Primary),
    ])
}

/// "Take my seat back", under the notice that a bot took a seat.
pub fn reclaim_row(lang: Lang, game: GameId) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(CustomId::Reclaim { game }.encode())
            .label(tr!(lang, "button-reclaim"))
            .style(ButtonStyle::Secondary),
    ])
}

/// The answers under a request to take moves back, asked when the game was at `ply`.
pub fn undo_vote_row(lang: Lang, game: GameId, ply: u32) -> CreateActionRow {
    let button = |yes: bool| CreateButton::new(CustomId::UndoVote { game, ply, yes }.encode());
    CreateActionRow::Buttons(vec![
        button(true)
            .label(tr!(lang, "button-undo-yes"))
            .style(ButtonStyle::Success),
        button(false)
            .label(tr!(lang, "button-undo-no"))
            .style(ButtonStyle::Danger),
    ])
}

/// The votes under a proposed pause.
pub fn pause_vote_row(lang: Lang, game: GameId) -> CreateActionRow {
    CreateActionRow::Buttons(vec![
        CreateButton::new(CustomId::PauseVote { game, yes: true }.encode())
            .label(tr!(lang, "button-pause-yes"))
            .style(ButtonStyle::Success),
        CreateButton::new(CustomId::PauseVote { game, yes: false }.encode())
            .label(tr!(lang, "button-pause-no"))
            .style(ButtonStyle::Danger),
    ])
}

/// A number to one decimal, below zero with a true minus sign (U+2212, as typography and both
/// languages write it, never a hyphen), as ratings and their changes are written everywhere;
/// the decimal mark is the reader's (Russian writes 25,3 where English writes 25.3).
pub fn one_decimal(lang: Lang, value: f64) -> String {
    let mut text = format!("{:.1}", value.abs());
    if value < 0.0 && text != "0.0" {
        text = format!("−{text}");
    }
    match lang {
        Lang::En => text,
        Lang::Ru => text.replace('.', ","),
    }
}

/// [`one_decimal`] with its sign always written: a change (+3.4, −1.8, +0.0).
pub fn signed_decimal(lang: Lang, value: f64) -> String {
    let text = one_decimal(lang, value);
    if text.starts_with('−') {
        text
    } else {
        format!("+{text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_below_zero_have_a_true_minus_and_changes_a_sign() {
        assert_eq!(one_decimal(Lang::En, -1.84), "−1.8");
        assert_eq!(one_decimal(Lang::En, -0.04), "0.0", "no minus zero");
        assert_eq!(one_decimal(Lang::En, 3.45), "3.5");
        assert_eq!(signed_decimal(Lang::En, 3.4), "+3.4");
        assert_eq!(signed_decimal(Lang::En, -1.8), "−1.8");
        assert_eq!(signed_decimal(Lang::En, -0.01), "+0.0");
        assert_eq!(one_decimal(Lang::Ru, 25.34), "25,3");
        assert_eq!(signed_decimal(Lang::Ru, -1.84), "−1,8");
        assert_eq!(signed_decimal(Lang::Ru, 0.0), "+0,0");
    }

    #[test]
    fn durations_in_words() {
        assert_eq!(duration(Lang::En, 86_400), "1 day");
        assert_eq!(duration(Lang::En, 2 * 3_600), "2 hours");
        assert_eq!(duration(Lang::Ru, 2 * 86_400), "2 дня");
        assert_eq!(duration(Lang::Ru, 5 * 3_600), "5 часов");
        assert_eq!(duration(Lang::Ru, 90 * 60), "90 минут");
    }

    #[test]
    fn long_narration_fits_a_message() {
        let lines: Vec<String> = (0..500)
            .map(|i| format!("line {i} of a long chain"))
            .collect();
        let text = fit_lines(Lang::En, "head\n", &lines, "tail");
        assert!(text.chars().count() <= CONTENT_MAX);
        assert!(text.starts_with("head\n• line 0") && text.ends_with("tail"));
        assert!(text.contains("more"), "{text}");
    }

    #[test]
    fn relative_times() {
        assert_eq!(relative_time(1_700_000_000_999), "<t:1700000000:R>");
    }
}
