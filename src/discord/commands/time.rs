//! A player's time: `/jackal remind` (reminders, quiet hours, time zone, the daily digest),
//! `vacation`, `pause` (a vote), `extend` (more time for one turn), and the server's limits
//! (`server`).

use serenity::all::{AutocompleteChoice, CreateAutocompleteResponse};

use super::{actor, author, check_length, complete_game, lang, say, this_server, which_game};
use crate::discord::types::{Context, Result};
use crate::discord::views::{Case, duration_in, relative_time, span};
use crate::game::config::{is_off, parse_duration};
use crate::game::reminders::{
    self, QuietHours, SettingError, format_clock, parse_clock, parse_offsets,
};
use crate::game::{
    PauseVote, ReminderChange, ReminderVia, ServiceError, UserPrefs, VacationStatus,
};
use crate::tr;
use crate::words::Lang;

#[derive(Clone, Copy, Debug, poise::ChoiceParameter)]
pub enum ViaChoice {
    #[name = "dm"]
    Dm,
    #[name = "thread"]
    Thread,
    #[name = "auto"]
    Auto,
}

fn is_game(text: &str) -> bool {
    matches!(
        text.trim().to_lowercase().as_str(),
        "game" | "default" | "игра" | "как в игре" | "«как в игре»"
    )
}

/// Reads the command's options into a change; a bad value refuses the whole command.
fn change_from(
    before: Option<&str>,
    via: Option<ViaChoice>,
    quiet: Option<&str>,
    zone: Option<&str>,
    digest: Option<&str>,
) -> std::result::Result<ReminderChange, ServiceError> {
    let mut change = ReminderChange::default();
    if let Some(text) = before {
        change.reminders = Some(if is_game(text) {
            None
        } else {
            Some(parse_offsets(text)?)
        });
    }
    change.via = via.map(|v| match v {
        ViaChoice::Dm => Some(ReminderVia::Dm),
        ViaChoice::Thread => Some(ReminderVia::Thread),
        ViaChoice::Auto => None,
    });
    if let Some(text) = quiet {
        change.quiet = Some(if is_off(text) {
            None
        } else {
            Some(QuietHours::parse(text)?)
        });
    }
    change.zone = zone.map(str::to_string);
    if let Some(text) = digest {
        change.digest = Some(if is_off(text) {
            None
        } else {
            Some(parse_clock(text)? % reminders::DAY_MINUTES)
        });
    }
    Ok(change)
}

/// The player's settings in words, one line each.
fn summary(lang: Lang, prefs: &UserPrefs) -> String {
    let before = match &prefs.reminders {
        None => tr!(lang, "remind-before-game"),
        Some(list) if list.is_empty() => tr!(lang, "remind-before-off"),
        Some(list) => {
            let spans: Vec<String> = list
                .iter()
                .map(|m| duration_in(lang, *m as u32 * 60, Case::Accusative))
                .collect();
            tr!(lang, "remind-before-list", list = spans.join(", "))
        }
    };
    let via = match prefs.reminder_via {
        Some(ReminderVia::Dm) => tr!(lang, "remind-via-dm"),
        Some(ReminderVia::Thread) => tr!(lang, "remind-via-thread"),
        None => tr!(lang, "remind-via-auto"),
    };
    let quiet = match (prefs.quiet_start, prefs.quiet_end) {
        (Some(a), Some(b)) => tr!(
            lang,
            "remind-quiet-span",
            from = format_clock(a),
            to = format_clock(b)
        ),
        _ => tr!(lang, "remind-quiet-none"),
    };
    let digest = match prefs.digest_minute {
        Some(m) => tr!(lang, "remind-digest-at", time = format_clock(m)),
        None => tr!(lang, "remind-digest-off"),
    };
    tr!(
        lang,
        "remind-summary",
        before = before,
        via = via,
        quiet = quiet,
        zone = prefs.time_zone.clone(),
        digest = digest
    )
}

/// Zones as the player types, those of their Discord locale first.
async fn complete_zone(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let choices = crate::game::zones::zones_like(partial, 25, ctx.locale())
        .into_iter()
        .map(|name| AutocompleteChoice::new(name.clone(), name))
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Your reminders: how long before a deadline, where, quiet hours, a daily digest
#[poise::command(slash_command)]
pub async fn remind(
    ctx: Context<'_>,
    #[description = "Up to three times before the deadline (e.g. 12h, 1h), off, or game"]
    before: Option<String>,
    #[description = "By direct message or by a mention in the game's thread"] via: Option<
        ViaChoice,
    >,
    #[description = "No reminders in these hours of your day (e.g. 23:00-08:00), or off"]
    quiet: Option<String>,
    #[description = "Your time zone (e.g. Europe/Moscow)"]
    #[autocomplete = "complete_zone"]
    zone: Option<String>,
    #[description = "One message a day at this time listing your turns (e.g. 09:00), or off"]
    digest: Option<String>,
) -> Result<()> {
    let lang = lang(ctx).await;
    for (option, value) in [
        ("before", &before),
        ("quiet", &quiet),
        ("zone", &zone),
        ("digest", &digest),
    ] {
        if let Some(v) = value {
            check_length(option, v)?;
        }
    }
    let change = change_from(
        before.as_deref(),
        via,
        quiet.as_deref(),
        zone.as_deref(),
        digest.as_deref(),
    )?;
    let user = author(ctx);
    let prefs = if change.is_empty() {
        ctx.data().call(move |s| s.user_prefs(user)).await?
    } else {
        ctx.data()
            .change(move |s| s.change_reminders(user, change))
            .await?
    };
    say(ctx, summary(lang, &prefs)).await
}

/// A vacation's state in words.
fn vacation_text(lang: Lang, v: &VacationStatus) -> String {
    let left = span(lang, v.left_ms());
    let allowance = span(lang, v.allowance_ms);
    match v.until_ms {
        Some(until) => tr!(
            lang,
            "vacation-on",
            until = format!("<t:{}:f>", until.div_euclid(1000)),
            when = relative_time(until),
            left = left,
            allowance = allowance
        ),
        None => tr!(lang, "vacation-off", left = left, allowance = allowance),
    }
}

/// Away for a while: your deadlines wait (spending your yearly allowance only when one would pass)
#[poise::command(slash_command, guild_only)]
pub async fn vacation(
    ctx: Context<'_>,
    #[description = "How long (e.g. 5d, 36h), or off to come back now; empty: show your vacation"]
    length: Option<String>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let guild = this_server(ctx)?;
    let user = author(ctx);
    let status = match length {
        None => ctx.data().call(move |s| s.vacation(user, guild)).await?,
        Some(text) if is_off(&text) || text.trim().eq_ignore_ascii_case("end") => {
            ctx.data()
                .change(move |s| s.end_vacation(user, guild))
                .await?
        }
        Some(text) => {
            let ms = length_ms(&text)?;
            let new = ctx
                .data()
                .change(move |s| s.go_on_vacation(user, guild, ms))
                .await?;
            // A vacation asked for during another replaces it: say so, and what it was.
            if let Some(until) = new.replaced_until_ms {
                let replaced = tr!(
                    lang,
                    "vacation-replaced",
                    until = format!("<t:{}:f>", until.div_euclid(1000))
                );
                let text = format!("{replaced}\n{}", vacation_text(lang, &new.status));
                return say(ctx, text).await;
            }
            new.status
        }
    };
    say(ctx, vacation_text(lang, &status)).await
}

/// The server's limits: vacation days a year, the longest pause (Manage Server to change)
#[poise::command(slash_command, guild_only)]
pub async fn server(
    ctx: Context<'_>,
    #[description = "Vacation days each player has a year"]
    #[min = 0]
    #[max = 365]
    vacation_days: Option<u32>,
    #[description = "The longest pause a game may vote for, in days"]
    #[min = 0]
    #[max = 365]
    max_pause_days: Option<u32>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let guild = this_server(ctx)?;
    let admin = actor(ctx).admin;
    let (vacation, pause) = if vacation_days.is_none() && max_pause_days.is_none() {
        ctx.data().call(move |s| s.guild_limits(guild)).await?
    } else {
        ctx.data()
            .change(move |s| s.set_guild_limits(admin, guild, vacation_days, max_pause_days))
            .await?
    };
    say(
        ctx,
        tr!(lang, "server-limits", vacation = vacation, pause = pause),
    )
    .await
}

/// The shortest vacation, pause or extension: an hour (less would not outlast a reminder).
const MIN_LENGTH_SECONDS: u32 = 3600;

/// A length option (`5d`, `36h`, `3д`): an hour at least. A length below that is told as
/// too short, not as something that is no length at all.
fn length_ms(text: &str) -> Result<i64> {
    check_length("length", text)?;
    let text = text.trim();
    let seconds = parse_duration(text)
        .ok_or_else(|| ServiceError::Setting(SettingError::BadLength(text.into())))?;
    if seconds < MIN_LENGTH_SECONDS {
        return Err(ServiceError::Setting(SettingError::TooShort {
            text: text.into(),
            min_seconds: MIN_LENGTH_SECONDS,
        })
        .into());
    }
    Ok(i64::from(seconds) * 1000)
}

/// Propose to pause a game: its deadlines stop while the pause runs (the others vote)
#[poise::command(slash_command, guild_only)]
pub async fn pause(
    ctx: Context<'_>,
    #[description = "How long (e.g. 3d, 12h), at most what the server allows"] length: String,
    #[description = "Which game (default: yours in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let ms = length_ms(&length)?;
    let id = which_game(ctx, game, false).await?;
    let user = author(ctx);
    let outcome = ctx
        .data()
        .change(move |s| s.propose_pause(user, id, ms))
        .await?;
    let text = match outcome {
        PauseVote::Started { until_ms } => {
            tr!(lang, "pause-vote-started", until = relative_time(until_ms))
        }
        _ => tr!(lang, "pause-proposed"),
    };
    say(ctx, text).await
}

/// Give the player whose turn it is more time (game owner or Manage Server)
#[poise::command(slash_command, guild_only)]
pub async fn extend(
    ctx: Context<'_>,
    #[description = "How much more (e.g. 1d, 6h)"] length: String,
    #[description = "Which game (default: the one in this channel)"]
    #[autocomplete = "complete_game"]
    game: Option<i64>,
) -> Result<()> {
    let lang = lang(ctx).await;
    let ms = length_ms(&length)?;
    let id = which_game(ctx, game, true).await?;
    let who = actor(ctx);
    let until = ctx
        .data()
        .change(move |s| s.extend_deadline(who, id, ms))
        .await?;
    say(
        ctx,
        tr!(lang, "extended", game = id, until = relative_time(until)),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_a_change_and_bad_ones_are_refused() {
        let change = change_from(
            Some("12h, 1h"),
            Some(ViaChoice::Thread),
            Some("23:00-08:00"),
            Some("Europe/Moscow"),
            Some("off"),
        )
        .unwrap();
        assert_eq!(change.reminders, Some(Some(vec![720, 60])));
        assert_eq!(change.via, Some(Some(ReminderVia::Thread)));
        assert_eq!(
            change.quiet,
            Some(Some(QuietHours::new(1380, 480).unwrap()))
        );
        assert_eq!(change.digest, Some(None));
        assert_eq!(
            change_from(Some("game"), None, None, None, None)
                .unwrap()
                .reminders,
            Some(None)
        );
        assert!(
            change_from(None, None, None, None, None)
                .unwrap()
                .is_empty()
        );
        assert!(matches!(
            change_from(None, None, Some("08:00-08:00"), None, None),
            Err(ServiceError::Setting(SettingError::QuietWholeDay))
        ));
        assert!(matches!(
            change_from(None, None, None, None, Some("noon")),
            Err(ServiceError::Setting(SettingError::BadClock(_)))
        ));
    }

    /// Russian says "за 1 минуту", not "за 1 минута": the reminders' spans follow "за".
    #[test]
    fn reminder_spans_agree_with_their_preposition() {
        let mut prefs = UserPrefs::default_for(crate::id::UserId::new(7));
        prefs.reminders = Some(vec![1440, 120, 21, 5, 1]);
        let ru = summary(Lang::Ru, &prefs);
        assert!(
            ru.contains("за 1 день, 2 часа, 21 минуту, 5 минут, 1 минуту до конца хода"),
            "{ru}"
        );
        let en = summary(Lang::En, &prefs);
        assert!(
            en.contains("1 day, 2 hours, 21 minutes, 5 minutes, 1 minute before the deadline"),
            "{en}"
        );
        // Alone, a span keeps the nominative.
        assert_eq!(crate::discord::views::duration(Lang::Ru, 60), "1 минута");
        assert_eq!(duration_in(Lang::Ru, 1, Case::Accusative), "1 секунду");
    }
}
