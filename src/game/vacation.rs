//! Vacations (`/jackal vacation 5d`): a player away for a while keeps their games. Each
//! player has an allowance a year in each server (14 days unless the server sets another).
//!
//! Going away costs nothing by itself: the allowance is spent only once a deadline of the
//! player's would have passed. That deadline then waits for their return (plus a full turn),
//! and the time from it to the vacation's end is charged, once for all their games (every
//! deadline held later falls in the same span). Moving in any game of the server ends the
//! vacation early and gives back what its rest would have cost; deadlines held for it then
//! run a full turn from that moment.

use super::lobby::notice;
use super::outbox::Notice;
use super::reminder_settings::set_turn;
use super::{GameService, Loaded, Result, ServiceError};
use crate::id::{GuildId, UserId};
use crate::store::Db;
use crate::store::{self, GameStatus, VacationRow};

/// Days a year a player may be away in a server that set no allowance.
pub const DEFAULT_VACATION_DAYS: u32 = 14;

const DAY_MS: i64 = 86_400_000;

/// A player's vacation as they see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VacationStatus {
    /// Away until then; `None`: not away.
    pub until_ms: Option<i64>,
    /// Spent of this year's allowance.
    pub used_ms: i64,
    pub allowance_ms: i64,
}

impl VacationStatus {
    /// What may still be asked for this year.
    pub fn left_ms(&self) -> i64 {
        (self.allowance_ms - self.used_ms).max(0)
    }
}

/// A vacation that ended before its time: what its rest would have cost, given back, and the
/// allowance after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CameBack {
    pub given_back_ms: i64,
    pub status: VacationStatus,
}

/// A new vacation, and the one it replaced (its end), if one was running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewVacation {
    pub status: VacationStatus,
    pub replaced_until_ms: Option<i64>,
}

/// The calendar year (UTC) of an instant: allowances are a year's.
fn year_of(ms: i64) -> i32 {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| t.to_zoned_datetime(jiff::tz::TimeZone::UTC).year() as i32)
        .unwrap_or(1970)
}

fn allowance_ms(conn: &impl Db, guild: GuildId) -> Result<i64> {
    let days = store::guild_limits(conn, guild)?
        .vacation_days
        .unwrap_or(DEFAULT_VACATION_DAYS);
    Ok(days as i64 * DAY_MS)
}

fn status(conn: &impl Db, row: &VacationRow, now: i64) -> Result<VacationStatus> {
    Ok(VacationStatus {
        until_ms: row.until_ms.filter(|u| *u > now),
        used_ms: row.used_ms,
        allowance_ms: allowance_ms(conn, row.guild_id)?,
    })
}

/// The running games of `user` in `guild`, with their seat's team.
fn games_in(
    service: &GameService,
    conn: &impl Db,
    guild: GuildId,
    user: UserId,
) -> Result<Vec<(Loaded, crate::engine::Team)>> {
    let mut out = Vec::new();
    for row in store::games_of_user(conn, user, true)? {
        if row.status != GameStatus::Active || row.guild_id != Some(guild) {
            continue;
        }
        let loaded = match service.load_on(conn, row.id) {
            Err(ServiceError::Damaged { .. }) => continue,
            other => other?,
        };
        if let Some(team) = loaded.seat_of(user).map(|s| s.team) {
            out.push((loaded, team));
        }
    }
    Ok(out)
}

/// Whether `loaded`'s turn is `user`'s.
fn on_turn(loaded: &Loaded, user: UserId) -> bool {
    loaded
        .game
        .as_ref()
        .and_then(|g| loaded.team_seat(g.controller()))
        .and_then(|s| s.user_id)
        == Some(user)
}

impl GameService {
    /// `user`'s vacation in `guild` this year.
    pub fn vacation(&self, user: UserId, guild: GuildId) -> Result<VacationStatus> {
        let conn = self.store.conn()?;
        let now = self.now();
        let row = match store::running_vacation(&conn, guild, user, now)? {
            Some(row) => row,
            None => store::get_vacation(&conn, guild, user, year_of(now))?,
        };
        status(&conn, &row, now)
    }

    /// Sets `user` away for `length_ms` from now (a vacation already running is ended first,
    /// so the new one replaces it, and the answer says which it replaced). Refused when it is
    /// longer than the allowance left.
    pub fn go_on_vacation(
        &self,
        user: UserId,
        guild: GuildId,
        length_ms: i64,
    ) -> Result<NewVacation> {
        let now = self.now();
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let replaced_until_ms =
            store::running_vacation(&tx, guild, user, now)?.and_then(|v| v.until_ms);
        self.come_back(&tx, guild, user, now, false)?;
        let mut row = store::get_vacation(&tx, guild, user, year_of(now))?;
        let mut shown = status(&tx, &row, now)?;
        if length_ms <= 0 || length_ms > shown.left_ms() {
            return Err(ServiceError::VacationTooLong {
                left_ms: shown.left_ms(),
                allowance_days: (shown.allowance_ms / DAY_MS) as u32,
            });
        }
        let until = now + length_ms;
        row.until_ms = Some(until);
        row.held_from = None;
        store::put_vacation(&tx, &row)?;
        for (loaded, team) in games_in(self, &tx, guild, user)? {
            let away = Notice::Away {
                team,
                until_ms: until,
            };
            notice(&tx, &loaded.row, away, now)?;
        }
        tx.commit()?;
        shown.until_ms = Some(until);
        Ok(NewVacation {
            status: shown,
            replaced_until_ms,
        })
    }

    /// Ends `user`'s vacation in `guild` now. Refused when they are not away.
    pub fn end_vacation(&self, user: UserId, guild: GuildId) -> Result<VacationStatus> {
        let now = self.now();
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        if self.come_back(&tx, guild, user, now, true)?.is_none() {
            return Err(ServiceError::NotOnVacation);
        }
        let row = store::get_vacation(&tx, guild, user, year_of(now))?;
        let shown = status(&tx, &row, now)?;
        tx.commit()?;
        Ok(shown)
    }

    /// Ends a running vacation of `user` in `guild` (they moved, or asked): what its rest
    /// would have cost is given back, deadlines held for it run a full turn from now, and with
    /// `announce` each game hears they are back. `None` if none was running.
    pub(super) fn come_back(
        &self,
        tx: &impl Db,
        guild: GuildId,
        user: UserId,
        now: i64,
        announce: bool,
    ) -> Result<Option<CameBack>> {
        let Some(mut row) = store::running_vacation(tx, guild, user, now)? else {
            return Ok(None);
        };
        let until = row.until_ms.unwrap_or(now);
        let games = games_in(self, tx, guild, user)?;
        let mut given_back_ms = 0;
        if let Some(from) = row.held_from {
            given_back_ms = until - from.max(now);
            row.used_ms -= given_back_ms;
            for (loaded, _) in &games {
                if !on_turn(loaded, user) {
                    continue;
                }
                let fresh = now + loaded.config.turn_seconds as i64 * 1000;
                let (id, ply) = (loaded.row.id, loaded.row.ply);
                if store::deadline_at(tx, id, ply)?.is_some_and(|d| d > fresh) {
                    set_turn(tx, id, ply, &loaded.config, user, fresh, now)?;
                }
            }
        }
        row.until_ms = None;
        row.held_from = None;
        store::put_vacation(tx, &row)?;
        if announce {
            for (loaded, team) in &games {
                notice(tx, &loaded.row, Notice::Back { team: *team }, now)?;
            }
        }
        Ok(Some(CameBack {
            given_back_ms,
            status: status(tx, &row, now)?,
        }))
    }

    /// A deadline of `user`'s came due in `loaded`: if they are away, it waits for their
    /// return plus a full turn, the allowance pays from now to that return, and the thread
    /// hears of it. Returns the new deadline, or `None` (not away: the deadline applies).
    pub(super) fn hold_for_vacation(
        &self,
        tx: &impl Db,
        loaded: &Loaded,
        team: crate::engine::Team,
        user: UserId,
        now: i64,
    ) -> Result<Option<i64>> {
        let Some(guild) = loaded.row.guild_id else {
            return Ok(None);
        };
        let Some(mut row) = store::running_vacation(tx, guild, user, now)? else {
            return Ok(None);
        };
        let until = row.until_ms.unwrap_or(now);
        if row.held_from.is_none() {
            row.held_from = Some(now);
            row.used_ms += until - now;
            store::put_vacation(tx, &row)?;
        }
        let deadline = until + loaded.config.turn_seconds as i64 * 1000;
        let (id, ply) = (loaded.row.id, loaded.row.ply);
        set_turn(tx, id, ply, &loaded.config, user, deadline, now)?;
        let held = Notice::Held {
            team,
            deadline_ms: deadline,
        };
        notice(tx, &loaded.row, held, now)?;
        Ok(Some(deadline))
    }
}

/// The longest pause a server that set none allows, in days.
pub const DEFAULT_MAX_PAUSE_DAYS: u32 = 7;

/// The longest a server may set either limit to, in days.
pub const MAX_LIMIT_DAYS: u32 = 365;

impl GameService {
    /// A server's limits, with the defaults filled in: vacation days a year, longest pause.
    pub fn guild_limits(&self, guild: GuildId) -> Result<(u32, u32)> {
        let conn = self.store.conn()?;
        let limits = store::guild_limits(&conn, guild)?;
        Ok((
            limits.vacation_days.unwrap_or(DEFAULT_VACATION_DAYS),
            limits.max_pause_days.unwrap_or(DEFAULT_MAX_PAUSE_DAYS),
        ))
    }

    /// Changes a server's limits (`None` leaves one as it is); for members who manage it.
    pub fn set_guild_limits(
        &self,
        admin: bool,
        guild: GuildId,
        vacation_days: Option<u32>,
        max_pause_days: Option<u32>,
    ) -> Result<(u32, u32)> {
        if !admin {
            return Err(ServiceError::NotServerManager);
        }
        for days in [vacation_days, max_pause_days].into_iter().flatten() {
            if days > MAX_LIMIT_DAYS {
                return Err(ServiceError::LimitTooLong {
                    days,
                    max: MAX_LIMIT_DAYS,
                });
            }
        }
        let conn = self.store.conn()?;
        let mut limits = store::guild_limits(&conn, guild)?;
        limits.vacation_days = vacation_days.or(limits.vacation_days);
        limits.max_pause_days = max_pause_days.or(limits.max_pause_days);
        store::set_guild_limits(&conn, guild, limits)?;
        drop(conn);
        self.guild_limits(guild)
    }
}
