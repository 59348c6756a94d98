//! What `/jackal stats` and `/jackal leaderboard` say: a player's stats in lines, and a
//! leaderboard page with its buttons (pages, this server or every server) and menus (period,
//! format), in the reader's language. People are mentions, which Discord shows as names.

use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

use super::{Case, duration_in, one_decimal, signed_decimal, span};
use crate::ai::BotLevel;
use crate::discord::ids::{BoardControl, BoardPick, CustomId};
use crate::game::{BoardEntry, BoardView, GameFormat, Opponent, PeriodKind, StatsView};
use crate::tr;
use crate::words::Lang;

/// A player's stats, one subject a line.
pub fn stats_text(lang: Lang, stats: &StatsView) -> String {
    let mut lines = vec![tr!(lang, "stats-title", user = mention(stats.user))];
    let mut rating = tr!(
        lang,
        "stats-rating",
        rating = one_decimal(lang, stats.rating),
        uncertainty = one_decimal(lang, stats.uncertainty),
        place = stats.place,
        people = stats.people
    );
    if let Some(everywhere) = stats.global_rating {
        rating.push_str(&tr!(
            lang,
            "stats-rating-everywhere",
            rating = one_decimal(lang, everywhere)
        ));
    }
    lines.push(rating);
    lines.push(tr!(
        lang,
        "stats-record",
        games = stats.games,
        wins = stats.wins,
        percent = percent(stats.wins, stats.games)
    ));
    if let (Some(mean), Some(median)) = (stats.move_mean_ms, stats.move_median_ms) {
        lines.push(tr!(
            lang,
            "stats-move-time",
            mean = move_time(lang, mean),
            median = move_time(lang, median),
            count = stats.moves_timed
        ));
    }
    lines.push(tr!(lang, "stats-missed", count = stats.missed_deadlines));
    if let Some((who, games)) = &stats.favourite {
        lines.push(tr!(
            lang,
            "stats-favourite",
            who = opponent(lang, who),
            games = *games
        ));
    }
    if let Some((who, beaten, games)) = &stats.best {
        lines.push(tr!(
            lang,
            "stats-best",
            who = opponent(lang, who),
            beaten = *beaten,
            games = *games
        ));
    }
    if stats.counted_games > 0 {
        let mut gold = tr!(
            lang,
            "stats-gold",
            gold = stats.gold,
            average = one_decimal(lang, stats.gold as f64 / f64::from(stats.counted_games)),
            pirates = stats.pirates_lost
        );
        if stats.counted_games < stats.games {
            gold.push_str(&tr!(
                lang,
                "stats-gold-counted",
                count = stats.counted_games
            ));
        }
        lines.push(gold);
    }
    lines.join("\n")
}

/// A time to move, to the minute: "45 seconds", "12 minutes", "1 day 3 hours".
fn move_time(lang: Lang, ms: i64) -> String {
    match ms {
        ms if ms < 3_600_000 => {
            // Whole seconds under a minute, whole minutes under an hour.
            let seconds = (ms / 1_000) as u32;
            let whole = if seconds < 60 {
                seconds
            } else {
                seconds / 60 * 60
            };
            duration_in(lang, whole, Case::Nominative)
        }
        ms => span(lang, ms),
    }
}

fn opponent(lang: Lang, who: &Opponent) -> String {
    match who {
        Opponent::Person(user) => mention(*user),
        Opponent::Bot(level) => {
            let level = BotLevel::parse(level)
                .map(|l| super::settings::level(lang, l))
                .unwrap_or_else(|| level.clone());
            tr!(lang, "stats-bot", level = level)
        }
    }
}

fn mention(user: crate::id::UserId) -> String {
    format!("<@{user}>")
}

fn percent(part: u32, whole: u32) -> u32 {
    if whole == 0 {
        return 0;
    }
    ((f64::from(part) * 100.0 / f64::from(whole)).round()) as u32
}

/// The words of a board's period.
fn period_name(lang: Lang, period: PeriodKind) -> String {
    match period {
        PeriodKind::All => tr!(lang, "top-period-all"),
        PeriodKind::Month => tr!(lang, "top-period-month"),
        PeriodKind::Week => tr!(lang, "top-period-week"),
    }
}

fn format_name(lang: Lang, format: Option<GameFormat>) -> String {
    match format {
        None => tr!(lang, "top-format-any"),
        Some(GameFormat::Duel) => tr!(lang, "top-format-duel"),
        Some(GameFormat::Three) => tr!(lang, "top-format-three"),
        Some(GameFormat::Four) => tr!(lang, "top-format-four"),
        Some(GameFormat::Pairs) => tr!(lang, "top-format-pairs"),
    }
}

/// The pick a board view stands for.
fn pick_of(view: &BoardView) -> BoardPick {
    BoardPick {
        everywhere: view.query.guild.is_none(),
        period: view.query.period,
        format: view.query.format,
        page: view.query.page,
    }
}

/// A leaderboard page: its title, its lines, the page, and the reader's own line.
pub fn board_text(lang: Lang, view: &BoardView) -> String {
    let pick = pick_of(view);
    let whose = if pick.everywhere {
        tr!(lang, "top-whose-everywhere")
    } else {
        tr!(lang, "top-whose-here")
    };
    let mut text = tr!(
        lang,
        "top-title",
        whose = whose,
        period = period_name(lang, pick.period),
        format = format_name(lang, pick.format)
    );
    text.push('\n');
    if view.entries.is_empty() {
        text.push_str(&tr!(lang, "top-empty"));
        return text;
    }
    // Over all time and every format the points are the rating itself; otherwise what the
    // games counted added to it.
    let rating = pick.period == PeriodKind::All && pick.format.is_none();
    for entry in &view.entries {
        text.push_str(&line(lang, entry, rating));
        text.push('\n');
    }
    text.push_str(&tr!(
        lang,
        "top-page",
        page = view.query.page + 1,
        pages = view.pages,
        people = view.people
    ));
    text.push('\n');
    match &view.you {
        Some(you) => text.push_str(&tr!(lang, "top-you", line = line(lang, you, rating))),
        None => text.push_str(&tr!(lang, "top-not-you")),
    }
    text
}

fn line(lang: Lang, entry: &BoardEntry, rating: bool) -> String {
    let points = if rating {
        one_decimal(lang, entry.points)
    } else {
        signed_decimal(lang, entry.points)
    };
    let medal = match entry.place {
        1 => "🥇",
        2 => "🥈",
        3 => "🥉",
        _ => "",
    };
    tr!(
        lang,
        "top-line",
        place = entry.place,
        medal = medal,
        user = mention(entry.user),
        points = points,
        games = entry.games,
        wins = entry.wins
    )
}

/// The board's controls: page buttons and the switch between this server and every server;
/// a menu of periods and one of formats.
pub fn board_rows(lang: Lang, view: &BoardView) -> Vec<CreateActionRow> {
    let pick = pick_of(view);
    let show = |pick: BoardPick| {
        CustomId::Board {
            control: BoardControl::Show,
            pick,
        }
        .encode()
    };
    let mut buttons = Vec::new();
    if view.pages > 1 {
        let last = view.pages - 1;
        buttons.push(
            CreateButton::new(show(BoardPick {
                page: pick.page.saturating_sub(1),
                ..pick
            }))
            .label("◀")
            .style(ButtonStyle::Secondary)
            .disabled(pick.page == 0),
        );
        buttons.push(
            CreateButton::new(show(BoardPick {
                page: (pick.page + 1).min(last),
                ..pick
            }))
            .label("▶")
            .style(ButtonStyle::Secondary)
            .disabled(pick.page >= last),
        );
    }
    let (switch, label) = if pick.everywhere {
        (false, tr!(lang, "top-button-here"))
    } else {
        (true, tr!(lang, "top-button-everywhere"))
    };
    buttons.push(
        CreateButton::new(show(BoardPick {
            everywhere: switch,
            page: 0,
            ..pick
        }))
        .label(label)
        .style(ButtonStyle::Primary),
    );
    let periods = PeriodKind::ALL
        .into_iter()
        .map(|p| {
            CreateSelectMenuOption::new(period_name(lang, p), p.word())
                .default_selection(p == pick.period)
        })
        .collect();
    let formats = std::iter::once(None)
        .chain(GameFormat::ALL.map(Some))
        .map(|f| {
            CreateSelectMenuOption::new(format_name(lang, f), f.map_or("any", GameFormat::word))
                .default_selection(f == pick.format)
        })
        .collect();
    let menu = |control, options| {
        CreateSelectMenu::new(
            CustomId::Board {
                control,
                pick: BoardPick { page: 0, ..pick },
            }
            .encode(),
            CreateSelectMenuKind::String { options },
        )
    };
    vec![
        CreateActionRow::Buttons(buttons),
        CreateActionRow::SelectMenu(menu(BoardControl::Period, periods)),
        CreateActionRow::SelectMenu(menu(BoardControl::Format, formats)),
    ]
}
