//! A player's reminder settings (`/jackal remind`): which reminders, where they go, quiet
//! hours in the player's own zone, the daily digest; and the reminder timers of a turn that
//! follow from them.

use crate::id::{GameId, UserId};
use crate::store::Db;
use jiff::tz::TimeZone;

use super::config::GameConfig;
use super::reminders::{self, QuietHours, ReminderPlan};
use super::{GameService, GameView, Loaded, Result, ServiceError};
use crate::store::{self, GameStatus, ReminderVia, UserPrefs, UserTimerKind};

/// A change to a player's reminder settings: `None` leaves a setting as it is; `Some(None)`
/// clears it (back to the game's reminders, the usual place, no quiet hours, no digest).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReminderChange {
    pub reminders: Option<Option<Vec<u16>>>,
    pub via: Option<Option<ReminderVia>>,
    pub quiet: Option<Option<QuietHours>>,
    /// An IANA zone name, checked before anything is saved.
    pub zone: Option<String>,
    pub digest: Option<Option<u16>>,
}

impl ReminderChange {
    pub fn is_empty(&self) -> bool {
        *self == ReminderChange::default()
    }
}

/// The player's quiet hours, if they set both ends.
pub fn quiet_of(prefs: &UserPrefs) -> Option<QuietHours> {
    QuietHours::new(prefs.quiet_start?, prefs.quiet_end?).ok()
}

/// How a player is reminded of a turn in a game with `config`. A player who takes the daily
/// digest gets that instead of reminders of each game.
pub fn plan_for(prefs: &UserPrefs, config: &GameConfig) -> ReminderPlan {
    let offsets = if prefs.digest_minute.is_some() {
        Vec::new()
    } else {
        match &prefs.reminders {
            Some(minutes) => minutes.iter().map(|m| *m as u32 * 60).collect(),
            None if config.reminder_seconds > 0 => vec![config.reminder_seconds],
            None => Vec::new(),
        }
    };
    ReminderPlan {
        offsets,
        quiet: quiet_of(prefs),
        zone: zone_of(prefs),
    }
}

/// The player's time zone. It was checked when it was set; a zone the database has since
/// dropped falls back to UTC rather than losing the reminder.
pub fn zone_of(prefs: &UserPrefs) -> TimeZone {
    reminders::zone(&prefs.time_zone).unwrap_or(TimeZone::UTC)
}

/// The running games where it is `user`'s turn, with that turn's deadline.
pub(super) fn turns_of(
    service: &GameService,
    conn: &impl Db,
    user: UserId,
) -> Result<Vec<(Loaded, i64)>> {
    let mut out = Vec::new();
    for row in store::games_of_user(conn, user, true)? {
        if row.status != GameStatus::Active {
            continue;
        }
        // A damaged game (logged where it is loaded) is left out.
        let loaded = match service.load_on(conn, row.id) {
            Err(ServiceError::Damaged { .. }) => continue,
            other => other?,
        };
        let on_turn = loaded
            .game
            .as_ref()
            .and_then(|g| loaded.team_seat(g.controller()))
            .and_then(|s| s.user_id)
            == Some(user);
        if let (true, Some(deadline)) = (on_turn, store::deadline_at(conn, row.id, row.ply)?) {
            out.push((loaded, deadline));
        }
    }
    Ok(out)
}

/// Sets the deadline of `user`'s turn at `ply` and the reminders that go with it.
pub(super) fn set_turn(
    conn: &impl Db,
    game: GameId,
    ply: u32,
    config: &GameConfig,
    user: UserId,
    deadline: i64,
    now: i64,
) -> Result<()> {
    let prefs = store::get_prefs(conn, user)?;
    let times = plan_for(&prefs, config).times(deadline, now);
    store::set_turn_timers(conn, game, ply, deadline, &times)?;
    Ok(())
}

impl GameService {
    /// Changes a player's reminder settings and moves the reminders of every turn they are on
    /// now to match. A bad zone refuses the whole change.
    pub fn change_reminders(&self, user: UserId, change: ReminderChange) -> Result<UserPrefs> {
        let zone = change.zone.as_deref().map(reminders::zone).transpose()?;
        let now = self.now();
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let mut prefs = store::get_prefs(&tx, user)?;
        if let Some(reminders) = change.reminders {
            prefs.reminders = reminders;
        }
        if let Some(via) = change.via {
            prefs.reminder_via = via;
            // Choosing DMs (or DMs where open) is the moment to try them afresh (the user may
            // have opened them meanwhile): forget that they were closed. Choosing the thread
            // keeps what is known: a fresh try would only be refused and told again.
            if via != Some(ReminderVia::Thread) {
                prefs.dms = true;
                prefs.dms_refused_at = None;
                prefs.dms_told = false;
            }
        }
        if let Some(quiet) = change.quiet {
            prefs.quiet_start = quiet.map(|q| q.start);
            prefs.quiet_end = quiet.map(|q| q.end);
        }
        if let (Some(name), Some(zone)) = (&change.zone, &zone) {
            prefs.time_zone = zone.iana_name().unwrap_or(name.trim()).to_string();
        }
        if let Some(digest) = change.digest {
            prefs.digest_minute = digest;
        }
        store::put_prefs(&tx, &prefs)?;
        match prefs.digest_minute {
            Some(minute) => {
                if let Some(due) = reminders::next_local(&zone_of(&prefs), minute, now) {
                    store::set_user_timer(&tx, user, UserTimerKind::Digest, due)?;
                }
            }
            None => store::drop_user_timer(&tx, user, UserTimerKind::Digest)?,
        }
        for (loaded, deadline) in turns_of(self, &tx, user)? {
            let (id, ply) = (loaded.row.id, loaded.row.ply);
            set_turn(&tx, id, ply, &loaded.config, user, deadline, now)?;
        }
        tx.commit()?;
        Ok(prefs)
    }
}

impl GameService {
    /// Of `games`, those where it is still `user`'s turn, with the deadline (a digest is read
    /// again when it is sent).
    pub fn turns_among(&self, user: UserId, games: &[GameId]) -> Result<Vec<(GameView, i64)>> {
        let conn = self.store.conn()?;
        Ok(turns_of(self, &conn, user)?
            .into_iter()
            .filter(|(loaded, _)| games.contains(&loaded.row.id))
            .map(|(loaded, deadline)| (GameView::of(loaded), deadline))
            .collect())
    }
}
