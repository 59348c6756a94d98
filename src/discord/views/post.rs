//! The public posts of a game in its thread: the start, each completed move (what happened,
//! the gold, whose turn it is and until when), notices, and the end.

use crate::id::UserId;
use serenity::all::CreateActionRow;

use super::{
    GameTeams, fit_lines, my_moves_row, one_decimal, pause_vote_row, reclaim_row, relative_time,
    signed_decimal, team_mark, undo_vote_row,
};
use crate::engine::{Action, Event, Game, Motion, Team};
use crate::game::{GameEnd, GameView, Notice, PostMaterial, SeatRating};
use crate::tr;
use crate::words::Lang;
use crate::words::narrate::{self, Teams};

/// A post's text, who it may ping, and its buttons.
#[derive(Clone, Debug, Default)]
pub struct Post {
    pub content: String,
    pub ping: Vec<UserId>,
    pub components: Vec<CreateActionRow>,
}

/// "Gold: 🟠 @alice 3 · 🟦 @bob 1".
fn scores(game_view: &GameView, game: &Game, lang: Lang) -> String {
    let teams = GameTeams { game_view, lang };
    let parts: Vec<String> = game
        .teams()
        .map(|t| format!("{} {}", teams.name(t), game.score(t)))
        .collect();
    tr!(lang, "post-gold", scores = parts.join(" · "))
}

/// Whose turn it is (pinging them) and the deadline, or nothing when the game is over.
fn next_turn(
    game_view: &GameView,
    game: &Game,
    lang: Lang,
    deadline: Option<i64>,
) -> (String, Vec<UserId>) {
    if game.is_over() {
        return (String::new(), Vec::new());
    }
    let team = game.controller();
    let teams = GameTeams { game_view, lang };
    let user = game_view.team_seat(team).and_then(|s| s.user_id);
    let when = deadline
        .map(|d| tr!(lang, "post-deadline", when = relative_time(d)))
        .unwrap_or_default();
    let text = tr!(lang, "post-next", team = teams.name(team), deadline = when);
    (text, user.into_iter().collect())
}

/// The post for a completed move: plies `first_ply..=ply`.
pub fn board(material: &PostMaterial, lang: Lang, deadline: Option<i64>) -> Post {
    let game_view = &material.game;
    let game = &material.position;
    let teams = GameTeams { game_view, lang };
    let mover = material.steps.first().map_or(0, |s| s.team);
    // The step rows come from the store: a team number that names no team (a damaged row)
    // is still told.
    let mover = Team::new(mover).map_or_else(|| mover.to_string(), |t| teams.name(t));
    let taken_back = material.steps.iter().any(|s| s.take_back.is_some());
    let head = if taken_back {
        tr!(
            lang,
            "post-take-back",
            game = game_view.id,
            number = material.number
        )
    } else {
        tr!(
            lang,
            "post-move",
            game = game_view.id,
            number = material.number,
            team = mover
        )
    };
    let mut lines = Vec::new();
    // A take-back has no step to tell: its head says it all.
    for step in material.steps.iter().filter(|s| s.take_back.is_none()) {
        let action = step.action.as_ref();
        let words = action.map_or_else(|| step.notation.clone(), |a| narrate::action(lang, a));
        lines.push(format!("**{words}**"));
        let events = without_the_step_itself(action, &step.events);
        lines.extend(narrate::events(lang, &teams, events));
    }
    let (next, ping) = next_turn(game_view, game, lang, deadline);
    let mut tail = format!("{}\n{next}", scores(game_view, game, lang));
    if let (Some(until), false) = (material.paused_until, game.is_over()) {
        tail.push('\n');
        tail.push_str(&tr!(lang, "post-paused", until = relative_time(until)));
    }
    let content = fit_lines(lang, &format!("{head}\n"), &lines, &tail);
    let components = if game.is_over() {
        Vec::new()
    } else {
        vec![my_moves_row(lang, game_view.id)]
    };
    Post {
        content,
        ping,
        components,
    }
}

/// A move's events after the plain step its action already names ("Pirate 1 → c2" needs no
/// "Pirate 1 moved to c2" under it); everything after it (what the step led to) stays.
fn without_the_step_itself<'a>(action: Option<&Action>, events: &'a [Event]) -> &'a [Event] {
    let target = match action {
        Some(Action::Move { to, .. } | Action::Choose { cell: to, .. }) => *to,
        _ => return events,
    };
    match events.first() {
        Some(Event::Moved {
            to,
            motion: Motion::Step(_),
            ..
        }) if *to == target => &events[1..],
        _ => events,
    }
}

/// The first post of a game: who plays, and who moves first.
pub fn start(material: &PostMaterial, lang: Lang, deadline: Option<i64>) -> Post {
    let game_view = &material.game;
    let game = &material.position;
    let teams = GameTeams { game_view, lang };
    let players: Vec<String> = game.teams().map(|t| teams.name(t)).collect();
    let mut content = tr!(
        lang,
        "post-start",
        game = game_view.id,
        players = players.join(" · ")
    );
    content.push('\n');
    content.push_str(&super::settings::summary(&game_view.config, lang));
    let (next, ping) = next_turn(game_view, game, lang, deadline);
    content.push('\n');
    content.push_str(&next);
    content.push('\n');
    content.push_str(&tr!(lang, "post-how-to-play"));
    Post {
        content,
        ping,
        components: vec![my_moves_row(lang, game_view.id)],
    }
}

/// The end: the result, and a line per team.
pub fn over(
    game_view: &GameView,
    game: Option<&Game>,
    end: &GameEnd,
    ratings: &[SeatRating],
    lang: Lang,
) -> Post {
    let teams = GameTeams { game_view, lang };
    let mut content = format!("🏁 {}", crate::game::narrate::ending(lang, &teams, end));
    if let Some(game) = game.filter(|_| end.is_result()) {
        for team in game.teams() {
            let won = end.winners().contains(&team);
            content.push('\n');
            content.push_str(&tr!(
                lang,
                "post-final-line",
                team = teams.name(team),
                points = game.score(team),
                won = if won { "yes" } else { "no" }
            ));
            if let Some(rating) = ratings.iter().find(|r| r.team == team) {
                content.push_str(&rating_change(rating, lang));
            }
        }
    }
    Post {
        content,
        ..Post::default()
    }
}

/// A seat's rating move on its server's ladder, shown to one decimal (as strings, so that no
/// language's number format adds a grouping or drops the sign).
fn rating_change(rating: &SeatRating, lang: Lang) -> String {
    tr!(
        lang,
        "post-rating",
        before = one_decimal(lang, rating.before),
        after = one_decimal(lang, rating.after),
        change = signed_decimal(lang, rating.after - rating.before),
        uncertainty = one_decimal(lang, rating.uncertainty)
    )
}

/// The one-time word to a player whose DMs are closed to the bot, pinging them.
pub fn dms_closed(user: UserId, lang: Lang) -> Post {
    Post {
        content: tr!(lang, "dms-closed", who = format!("<@{user}>")),
        ping: vec![user],
        ..Post::default()
    }
}

/// A private prompt of a game that ended: the result in a line.
pub fn prompt_closed(game_view: &GameView, end: &GameEnd, lang: Lang) -> String {
    let teams = GameTeams { game_view, lang };
    tr!(
        lang,
        "picker-game-over",
        game = game_view.id,
        ending = crate::game::narrate::ending(lang, &teams, end)
    )
}

/// A notice about a seat.
pub fn notice(game_view: &GameView, notice: &Notice, lang: Lang) -> Post {
    let teams = GameTeams { game_view, lang };
    let components = match notice {
        Notice::TakenOver { .. } => vec![reclaim_row(lang, game_view.id)],
        Notice::PauseProposed { .. } => vec![pause_vote_row(lang, game_view.id)],
        Notice::UndoProposed { at_ply, .. } => vec![undo_vote_row(lang, game_view.id, *at_ply)],
        _ => Vec::new(),
    };
    // The player whose seat a bot took is pinged: the button to take it back is theirs.
    let ping = match notice {
        Notice::TakenOver { team, .. } => game_view
            .team_seat(*team)
            .and_then(|s| s.user_id.or(s.away_user_id))
            .into_iter()
            .collect(),
        _ => Vec::new(),
    };
    Post {
        // Each notice carries its own sign (ℹ️, or 🏖️ ⏸️ ⏳ … where one says more).
        content: crate::game::narrate::notice(lang, &teams, notice),
        components,
        ping,
    }
}

/// A reminder posted in the thread for a player whose DMs are closed.
pub fn reminder(game_view: &GameView, team: Team, deadline: i64, lang: Lang) -> Post {
    let user = game_view.team_seat(team).and_then(|s| s.user_id);
    let who = user.map_or_else(
        || team_mark(team.number()).to_string(),
        |u| format!("<@{u}>"),
    );
    Post {
        content: tr!(
            lang,
            "post-reminder",
            who = who,
            game = game_view.id,
            when = relative_time(deadline)
        ),
        ping: user.into_iter().collect(),
        components: vec![my_moves_row(lang, game_view.id)],
    }
}

/// The daily digest: each game where it is the reader's turn, where it is and until when.
pub fn digest_dm(games: &[(GameView, i64)], lang: Lang) -> Post {
    let lines: Vec<String> = games
        .iter()
        .map(|(game_view, deadline)| {
            let place = game_view.place;
            tr!(
                lang,
                "digest-line",
                game = game_view.id,
                // With its space: a game without a channel has no place to name.
                place = place.map(|p| format!(" <#{p}>")).unwrap_or_default(),
                when = relative_time(*deadline)
            )
        })
        .collect();
    let head = tr!(lang, "digest-title", count = games.len());
    Post {
        content: fit_lines(lang, &format!("{head}\n"), &lines, ""),
        ping: Vec::new(),
        components: Vec::new(),
    }
}

/// The private reminder.
pub fn reminder_dm(game_view: &GameView, deadline: i64, lang: Lang) -> Post {
    let place = game_view.place;
    Post {
        content: tr!(
            lang,
            "dm-reminder",
            when = relative_time(deadline),
            // The thread's name says which game ("Jackal #12: alice, bob").
            place = place.map_or_else(
                || tr!(lang, "game-title", game = game_view.id),
                |p| format!("<#{p}>")
            )
        ),
        ping: Vec::new(),
        components: vec![my_moves_row(lang, game_view.id)],
    }
}
