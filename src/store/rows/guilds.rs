//! Servers' choices and limits, chosen languages, and vacations.

use super::super::sql::{Row, params};

use super::super::{Db, Result};
use super::*;

/// Every language chosen: users' and servers' ids, each with its language code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChosenLanguages {
    pub users: Vec<(UserId, Lang)>,
    pub guilds: Vec<(GuildId, Lang)>,
}

pub fn chosen_languages(conn: &impl Db) -> Result<ChosenLanguages> {
    let conn = conn.link();
    let users = conn.query_many(
        "SELECT user_id, language FROM user_prefs WHERE language IS NOT NULL",
        params![],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let guilds = conn.query_many(
        "SELECT guild_id, language FROM guild_prefs WHERE language IS NOT NULL",
        params![],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(ChosenLanguages { users, guilds })
}

/// A server's language, if it chose one.
pub fn guild_language(conn: &impl Db, guild: GuildId) -> Result<Option<Lang>> {
    let conn = conn.link();
    Ok(conn
        .query_opt(
            "SELECT language FROM guild_prefs WHERE guild_id = ?1",
            params![guild],
            |r| r.get(0),
        )?
        .flatten())
}

pub fn set_guild_language(conn: &impl Db, guild: GuildId, language: Option<Lang>) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO guild_prefs (guild_id, language) VALUES (?1, ?2) \
         ON CONFLICT (guild_id) DO UPDATE SET language = ?2",
        params![guild, language],
    )?;
    Ok(())
}

/// A player's vacation in a server, in the calendar year it began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VacationRow {
    pub guild_id: GuildId,
    pub user_id: UserId,
    pub year: i32,
    /// Spent of this year's allowance.
    pub used_ms: i64,
    /// On vacation until then; `None`: not on vacation.
    pub until_ms: Option<i64>,
    /// Since when a deadline was held (the charge runs from here to `until_ms`).
    pub held_from: Option<i64>,
}

fn vacation_row(r: &Row) -> Result<VacationRow> {
    Ok(VacationRow {
        guild_id: r.get(0)?,
        user_id: r.get(1)?,
        year: r.get(2)?,
        used_ms: r.get(3)?,
        until_ms: r.get(4)?,
        held_from: r.get(5)?,
    })
}

/// The player's row for `year` (used nothing yet when there is none).
pub fn get_vacation(
    conn: &impl Db,
    guild: GuildId,
    user: UserId,
    year: i32,
) -> Result<VacationRow> {
    let conn = conn.link();
    Ok(conn
        .query_opt(
            "SELECT guild_id, user_id, year, used_ms, until_ms, held_from FROM vacations \
             WHERE guild_id = ?1 AND user_id = ?2 AND year = ?3",
            params![guild, user, year],
            vacation_row,
        )?
        .unwrap_or(VacationRow {
            guild_id: guild,
            user_id: user,
            year,
            used_ms: 0,
            until_ms: None,
            held_from: None,
        }))
}

/// The player's vacation in a server running at `now` (whatever year it began in).
pub fn running_vacation(
    conn: &impl Db,
    guild: GuildId,
    user: UserId,
    now: i64,
) -> Result<Option<VacationRow>> {
    let conn = conn.link();
    conn.query_opt(
        "SELECT guild_id, user_id, year, used_ms, until_ms, held_from FROM vacations \
             WHERE guild_id = ?1 AND user_id = ?2 AND until_ms > ?3 ORDER BY year DESC LIMIT 1",
        params![guild, user, now],
        vacation_row,
    )
}

pub fn put_vacation(conn: &impl Db, v: &VacationRow) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO vacations (guild_id, user_id, year, used_ms, until_ms, held_from) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (guild_id, user_id, year) DO UPDATE SET \
         used_ms = ?4, until_ms = ?5, held_from = ?6",
        params![
            v.guild_id,
            v.user_id,
            v.year,
            v.used_ms,
            v.until_ms,
            v.held_from
        ],
    )?;
    Ok(())
}

/// A server's limits: vacation days a year and the longest pause, in days (`None`: the
/// defaults).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuildLimits {
    pub vacation_days: Option<u32>,
    pub max_pause_days: Option<u32>,
}

pub fn guild_limits(conn: &impl Db, guild: GuildId) -> Result<GuildLimits> {
    let conn = conn.link();
    Ok(conn
        .query_opt(
            "SELECT vacation_days, max_pause_days FROM guild_prefs WHERE guild_id = ?1",
            params![guild],
            |r| {
                Ok(GuildLimits {
                    vacation_days: r.get(0)?,
                    max_pause_days: r.get(1)?,
                })
            },
        )?
        .unwrap_or_default())
}

pub fn set_guild_limits(conn: &impl Db, guild: GuildId, limits: GuildLimits) -> Result<()> {
    let conn = conn.link();
    conn.execute(
        "INSERT INTO guild_prefs (guild_id, vacation_days, max_pause_days) VALUES (?1, ?2, ?3) \
         ON CONFLICT (guild_id) DO UPDATE SET vacation_days = ?2, max_pause_days = ?3",
        params![guild, limits.vacation_days, limits.max_pause_days],
    )?;
    Ok(())
}
