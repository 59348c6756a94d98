//! Users' preferences, and the private prompts and questions sent to them.

use super::super::sql::params;
use serde::{Deserialize, Serialize};

use super::super::{Db, Result, StoreError};
use super::*;

/// Where a player's reminders go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReminderVia {
    /// A direct message (the thread when DMs are closed).
    Dm,
    /// A mention in the game's thread.
    Thread,
}

impl ReminderVia {
    pub fn as_str(self) -> &'static str {
        match self {
            ReminderVia::Dm => "dm",
            ReminderVia::Thread => "thread",
        }
    }

    fn parse(text: &str) -> Result<ReminderVia> {
        match text {
            "dm" => Ok(ReminderVia::Dm),
            "thread" => Ok(ReminderVia::Thread),
            other => Err(StoreError::Corrupt(format!("reminder_via `{other}`"))),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserPrefs {
    pub user_id: UserId,
    pub language: Option<Lang>,
    pub dms: bool,
    /// Quiet hours, minutes after local midnight (both or neither).
    pub quiet_start: Option<u16>,
    pub quiet_end: Option<u16>,
    /// An IANA zone name, checked when set.
    pub time_zone: String,
    /// Minutes before a deadline to be reminded, furthest first (at most [`MAX_REMINDERS`]);
    /// empty: never; `None`: as the game sets.
    pub reminders: Option<Vec<u16>>,
    /// `None`: a DM where DMs are open, else the thread.
    pub reminder_via: Option<ReminderVia>,
    /// The daily digest's local time (minutes after midnight); `None`: no digest.
    pub digest_minute: Option<u16>,
    /// When Discord last refused a DM to the user (their DMs are closed); `None`: open.
    pub dms_refused_at: Option<i64>,
    /// The user was told that their DMs are closed (once, until a DM goes through again).
    pub dms_told: bool,
    /// The language of the user's Discord client (`en`, `ru`) at their latest interaction.
    pub locale: Option<Lang>,
}

/// How long after Discord refused a DM (the user's DMs closed) the bot tries once more.
pub const DM_RETRY_MS: i64 = 7 * 24 * 3_600_000;

impl UserPrefs {
    /// Whether a DM to the user is worth a try at `now`: their DMs are open, or were found
    /// closed at least [`DM_RETRY_MS`] ago (one try a week, never one a turn).
    pub fn may_dm(&self, now: i64) -> bool {
        self.dms
            || self
                .dms_refused_at
                .is_none_or(|at| now.saturating_sub(at) >= DM_RETRY_MS)
    }

    pub fn default_for(user_id: UserId) -> UserPrefs {
        UserPrefs {
            user_id,
            language: None,
            dms: true,
            quiet_start: None,
            quiet_end: None,
            time_zone: "UTC".into(),
            reminders: None,
            reminder_via: None,
            digest_minute: None,
            dms_refused_at: None,
            dms_told: false,
            locale: None,
        }
    }
}

pub fn get_prefs(conn: &impl Db, user: UserId) -> Result<UserPrefs> {
    let conn = conn.link();
    let row = conn.query_opt(
        "SELECT user_id, language, dms, quiet_start, quiet_end, time_zone, reminders, \
             reminder_via, digest_minute, dms_refused_at, dms_told, locale FROM user_prefs \
             WHERE user_id = ?1",
        params![user],
        |r| {
            Ok((
                UserPrefs {
                    user_id: r.get(0)?,
                    language: r.get(1)?,
                    dms: r.get::<i64>(2)? != 0,
                    quiet_start: r.get(3)?,
                    quiet_end: r.get(4)?,
                    time_zone: r.get(5)?,
                    reminders: None,
                    reminder_via: None,
                    digest_minute: r.get(8)?,
                    dms_refused_at: r.get(9)?,
                    dms_told: r.get::<i64>(10)? != 0,
                    locale: r.get(11)?,
                },
                r.get::<Option<String>>(6)?,
                r.get::<Option<String>>(7)?,
            ))
        },
    )?;
    let Some((mut prefs, reminders, via)) = row else {
        return Ok(UserPrefs::default_for(user));
    };
    prefs.reminders = reminders
        .map(|json| {
            serde_json::from_str::<Vec<u16>>(&json)
                .map_err(|_| StoreError::Corrupt(format!("reminders `{json}`")))
        })
        .transpose()?;
    prefs.reminder_via = via.as_deref().map(ReminderVia::parse).transpose()?;
    Ok(prefs)
}

pub fn put_prefs(conn: &impl Db, p: &UserPrefs) -> Result<()> {
    let conn = conn.link();
    let reminders = p
        .reminders
        .as_ref()
        .map(|r| serde_json::to_string(r).expect("a list of numbers"));
    conn.execute(
        "INSERT INTO user_prefs (user_id, language, dms, quiet_start, quiet_end, time_zone, \
         reminders, reminder_via, digest_minute, dms_refused_at, dms_told, locale) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) \
         ON CONFLICT (user_id) DO UPDATE SET language = ?2, dms = ?3, quiet_start = ?4, \
         quiet_end = ?5, time_zone = ?6, reminders = ?7, reminder_via = ?8, digest_minute = ?9, \
         dms_refused_at = ?10, dms_told = ?11, locale = ?12",
        params![
            p.user_id,
            p.language,
            p.dms as i64,
            p.quiet_start,
            p.quiet_end,
            p.time_zone,
            reminders,
            p.reminder_via.map(ReminderVia::as_str),
            p.digest_minute,
            p.dms_refused_at,
            p.dms_told as i64,
            p.locale
        ],
    )?;
    Ok(())
}

/// The private "your turn" message a player was last sent in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromptRow {
    pub game_id: GameId,
    pub user_id: UserId,
    pub ply: u32,
    pub channel_id: ChannelId,
    pub message_id: MessageId,
}

/// Records (or replaces) a player's prompt in a game.
pub fn put_prompt(conn: &impl Db, p: &PromptRow) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO dm_prompts (game_id, user_id, ply, channel_id, message_id) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, user_id) DO UPDATE SET \
         ply = ?3, channel_id = ?4, message_id = ?5",
        params![p.game_id, p.user_id, p.ply, p.channel_id, p.message_id],
    )?;
    Ok(())
}

pub fn get_prompt(conn: &impl Db, game: GameId, user: UserId) -> Result<Option<PromptRow>> {
    let conn = conn.link();
    conn.query_opt(
        "SELECT game_id, user_id, ply, channel_id, message_id FROM dm_prompts \
             WHERE game_id = ?1 AND user_id = ?2",
        params![game, user],
        |r| {
            Ok(PromptRow {
                game_id: r.get(0)?,
                user_id: r.get(1)?,
                ply: r.get(2)?,
                channel_id: r.get(3)?,
                message_id: r.get(4)?,
            })
        },
    )
}

/// A public post whose buttons ask a question (see [`Question`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionRow {
    pub game_id: GameId,
    pub question: Question,
    pub channel_id: ChannelId,
    pub message_id: MessageId,
}

/// What a public post's buttons ask, until it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// The vote on a proposed pause.
    PauseVote,
    /// The vote on a request to take moves back.
    UndoVote,
    /// "Take my seat back", for the player of this team.
    Reclaim { team: crate::engine::Team },
}

impl Question {
    fn encode(self) -> String {
        match self {
            Question::PauseVote => "pause_vote".into(),
            Question::UndoVote => "undo_vote".into(),
            Question::Reclaim { team } => format!("reclaim:{}", team.number()),
        }
    }

    fn parse(text: &str) -> Result<Question> {
        match text.split_once(':') {
            None if text == "pause_vote" => Ok(Question::PauseVote),
            None if text == "undo_vote" => Ok(Question::UndoVote),
            Some(("reclaim", team)) => team
                .parse()
                .ok()
                .and_then(crate::engine::Team::new)
                .map(|team| Question::Reclaim { team })
                .ok_or(())
                .map_err(|_| StoreError::Corrupt(format!("question `{text}`"))),
            _ => Err(StoreError::Corrupt(format!("question `{text}`"))),
        }
    }
}

/// Remembers a public post that asks `question` (once: the same post again changes nothing).
pub fn put_question(conn: &impl Db, q: &QuestionRow) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO questions (game_id, question, channel_id, message_id) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
        params![q.game_id, q.question.encode(), q.channel_id, q.message_id],
    )?;
    Ok(())
}

/// The posts of a game still asking `question` (every question when `None`).
pub fn questions(
    conn: &impl Db,
    game: GameId,
    question: Option<Question>,
) -> Result<Vec<QuestionRow>> {
    let conn = conn.link();
    let rows = conn.query_many(
        "SELECT game_id, question, channel_id, message_id FROM questions WHERE game_id = ?1 \
         AND (CAST(?2 AS TEXT) IS NULL OR question = ?2) ORDER BY message_id",
        params![game, question.map(Question::encode)],
        |r| {
            Ok((
                r.get::<GameId>(0)?,
                r.get::<String>(1)?,
                r.get::<ChannelId>(2)?,
                r.get::<MessageId>(3)?,
            ))
        },
    )?;
    let mut out = Vec::new();
    for row in rows {
        let (game_id, question, channel, message) = row;
        out.push(QuestionRow {
            game_id,
            question: Question::parse(&question)?,
            channel_id: channel,
            message_id: message,
        });
    }
    Ok(out)
}

/// Forgets a question once its buttons are gone.
pub fn delete_question(conn: &impl Db, q: &QuestionRow) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "DELETE FROM questions WHERE game_id = ?1 AND question = ?2 AND message_id = ?3",
        params![q.game_id, q.question.encode(), q.message_id],
    )?;
    Ok(())
}

/// Every private prompt of a game still on record (each player's latest).
pub fn game_prompts(conn: &impl Db, game: GameId) -> Result<Vec<PromptRow>> {
    let conn = conn.link();
    let rows = conn.query_many(
        "SELECT game_id, user_id, ply, channel_id, message_id FROM dm_prompts \
         WHERE game_id = ?1 ORDER BY user_id",
        params![game],
        |r| {
            Ok(PromptRow {
                game_id: r.get(0)?,
                user_id: r.get(1)?,
                ply: r.get(2)?,
                channel_id: r.get(3)?,
                message_id: r.get(4)?,
            })
        },
    )?;
    Ok(rows)
}

/// Forgets a prompt, only if it is still the one at `message_id` (a newer prompt stays).
pub fn delete_prompt(
    conn: &impl Db,
    game: GameId,
    user: UserId,
    message_id: MessageId,
) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "DELETE FROM dm_prompts WHERE game_id = ?1 AND user_id = ?2 AND message_id = ?3",
        params![game, user, message_id],
    )?;
    Ok(())
}
