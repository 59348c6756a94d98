//! Deadlines and reminders: rows with a due time, fired by whoever drives the clock (the
//! bot's scheduler, a test's manual clock). A timer that came due while the bot was down
//! fires once after the restart; a timer of a ply the game has left is dropped.

use super::outbox::{self, OutboxMessage, Target};
use super::reminder_settings::{self, turns_of};
use super::reminders::Firing;
use super::turns::Stand;
use super::turns::Thought;
use super::{GameService, Loaded, Needs, Result};
use crate::engine::{Game, Team};
use crate::id::{GameId, UserId};
use crate::store::Tx;
use crate::store::{self, GameStatus, TimerKind, TimerRow, UserTimerRow};

/// What firing a timer did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fired {
    Reminded {
        game_id: GameId,
        team: Team,
    },
    TimedOut {
        game_id: GameId,
        team: Team,
    },
    /// A bot on turn made its move.
    BotMoved {
        game_id: GameId,
        team: Team,
    },
    Stale {
        game_id: GameId,
    },
    /// A deadline passed while its player is on vacation: it waits for their return.
    Held {
        game_id: GameId,
        team: Team,
    },
    /// A reminder came up late inside its player's quiet hours: it waits for their end (or,
    /// when the deadline comes first, is not sent).
    Quiet {
        game_id: GameId,
        team: Team,
    },
    /// A pause proposal lapsed, or a pause ended.
    Paused {
        game_id: GameId,
    },
    /// A request to take moves back got no answer from everyone in time.
    UndoLapsed {
        game_id: GameId,
    },
    /// A player's daily digest, listing `games` where it is their turn (none: nothing sent).
    Digest {
        user_id: UserId,
        games: usize,
    },
    /// The game could not be loaded or played (its stored data is damaged): the timer is set
    /// aside, so that one broken game does not hold up every other game's timers.
    Failed {
        game_id: GameId,
        error: String,
    },
}

/// Timers a process claims at a time: it fires these before it claims more, so that processes
/// sharing a burst of due timers share it, and a process that dies holds up only these.
const CLAIMED_AT_ONCE: usize = 8;

impl GameService {
    /// When the next timer may be fired here (for the scheduler's sleep): the earliest due,
    /// or, for one another process holds, when its lease lapses.
    pub fn next_timer_due(&self) -> Result<Option<i64>> {
        let conn = self.store.conn()?;
        Ok(store::next_timer_due(&conn, self.worker.name())?)
    }

    /// Fires every timer due now that no other process holds. Timers are claimed a few at a
    /// time (see [`Worker`](super::Worker)), so processes sharing a burst of due timers share
    /// its work, and a timer another process claimed is left to it until its lease lapses.
    pub fn fire_due_timers(&self) -> Result<Vec<Fired>> {
        let mut out = Vec::new();
        // A game's timer fires once a call: the next one its firing set (a bot's turn after a
        // bot's), or one its firing left due (a game that changed while its bot thought),
        // waits for the next look, as a timer that came due meanwhile does.
        let mut tried = std::collections::HashSet::new();
        let mut after: Option<TimerRow> = None;
        loop {
            let (page, claimed) = self.claim_due_timers(after.as_ref(), &mut tried)?;
            let Some(last) = page else { break };
            after = Some(last);
            for timer in claimed {
                out.push(self.fire_or_set_aside(&timer)?);
            }
        }
        let mut tried = std::collections::HashSet::new();
        loop {
            let claimed = self.claim_due_user_timers()?;
            let fresh: Vec<_> = claimed
                .into_iter()
                .filter(|t| tried.insert((t.user_id, t.kind)))
                .collect();
            if fresh.is_empty() {
                break;
            }
            for timer in fresh {
                match self.fire_digest(&timer) {
                    Ok(fired) => out.push(fired),
                    // As for a game's timer: set aside, so that it does not come due again and
                    // again ahead of everyone else's.
                    Err(e) => {
                        tracing::error!(user = %timer.user_id, error = %e, "a digest could not be sent");
                        let conn = self.store.conn()?;
                        store::mark_user_timer_fired(&conn, &timer, self.now())?;
                    }
                }
            }
        }
        Ok(out)
    }

    /// The next page of due timers after `after` (`None`: from the first), and those of them
    /// this process claimed: as many as it fires before it looks again, so that another
    /// process looking meanwhile takes the next few. A game's timer already `tried` this call
    /// is left for the next look (it is its next turn's, or its firing left it due), unclaimed.
    /// The page's last timer (`None`: no page, the look is over) is where the next one starts.
    fn claim_due_timers(
        &self,
        after: Option<&TimerRow>,
        tried: &mut std::collections::HashSet<(GameId, TimerKind, u8)>,
    ) -> Result<(Option<TimerRow>, Vec<TimerRow>)> {
        let conn = self.store.conn()?;
        let lease = self.worker.lease(self.now());
        let page = store::claimable_timers(&conn, lease, after, CLAIMED_AT_ONCE)?;
        let mut claimed = Vec::with_capacity(page.len());
        for timer in &page {
            if tried.insert((timer.game_id, timer.kind, timer.slot))
                && (!self.worker.shares() || store::claim_timer(&conn, timer, lease)?)
            {
                claimed.push(timer.clone());
            }
        }
        Ok((page.last().cloned(), claimed))
    }

    /// [`GameService::claim_due_timers`] for players' timers.
    fn claim_due_user_timers(&self) -> Result<Vec<UserTimerRow>> {
        let conn = self.store.conn()?;
        let lease = self.worker.lease(self.now());
        let due = store::claimable_user_timers(&conn, lease, CLAIMED_AT_ONCE)?;
        let mut claimed = Vec::with_capacity(due.len());
        for timer in due {
            if !self.worker.shares() || store::claim_user_timer(&conn, &timer, lease)? {
                claimed.push(timer);
            }
        }
        Ok(claimed)
    }

    /// Fires a claimed timer; one that cannot fire is marked fired and reported, so that one
    /// broken game does not hold up every other game's timers.
    fn fire_or_set_aside(&self, timer: &TimerRow) -> Result<Fired> {
        match self.fire(timer) {
            Ok(fired) => Ok(fired),
            Err(e) => {
                let error = e.to_string();
                tracing::error!(game = %timer.game_id, %error, "a timer could not fire");
                let conn = self.store.conn()?;
                store::mark_timer_fired(&conn, timer, self.now())?;
                Ok(Fired::Failed {
                    game_id: timer.game_id,
                    error,
                })
            }
        }
    }

    /// A player's digest: one private message listing the games where it is their turn, then
    /// the next one set for the same local time tomorrow (one digest after a long downtime,
    /// not one per day missed).
    fn fire_digest(&self, timer: &UserTimerRow) -> Result<Fired> {
        let now = self.now();
        let user = timer.user_id;
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let mut listed = 0;
        if store::mark_user_timer_fired(&tx, timer, now)? {
            let prefs = store::get_prefs(&tx, user)?;
            if let Some(minute) = prefs.digest_minute {
                let games: Vec<_> = turns_of(self, &tx, user)?
                    .into_iter()
                    .filter(|(loaded, _)| loaded.row.channel_id.is_some())
                    .map(|(loaded, _)| loaded.row.id)
                    .collect();
                listed = games.len();
                if !games.is_empty() {
                    let message = OutboxMessage::Digest { games };
                    outbox::enqueue(&tx, Target::User { id: user }, &message, now)?;
                }
                let zone = reminder_settings::zone_of(&prefs);
                if let Some(next) = super::reminders::next_local(&zone, minute, now) {
                    store::set_user_timer(&tx, user, store::UserTimerKind::Digest, next)?;
                }
            }
        }
        tx.commit()?;
        Ok(Fired::Digest {
            user_id: user,
            games: listed,
        })
    }

    fn fire(&self, timer: &TimerRow) -> Result<Fired> {
        // A bot's move (a bot's turn, or a person's whose time ran out) is thought out before
        // the write lock is taken: every other game's moves need it while the bot thinks.
        let stand = match timer.kind {
            TimerKind::Bot => Some(Stand::Seat),
            TimerKind::Deadline => Some(Stand::Deadline),
            TimerKind::Reminder
            | TimerKind::PauseVote
            | TimerKind::PauseEnd
            | TimerKind::UndoVote => None,
        };
        let game_id = timer.game_id;
        let thought = match stand {
            // The claim renewed first: a bot may think for seconds of it.
            Some(stand) if self.still_ours(&self.store.conn()?, timer)? => {
                self.think(game_id, Some(timer.ply), stand)?
            }
            Some(_) => return Ok(Fired::Stale { game_id }),
            None => None,
        };
        self.write(game_id, Needs::Stored, |tx, loaded| {
            // Checked in the game's write: a timer whose firing came late (another process
            // took it over after this one's lease lapsed, or fired it) is not acted on twice.
            if !self.still_ours(tx, timer)? {
                return Ok(Fired::Stale { game_id });
            }
            self.fire_in(tx, loaded, timer, thought)
        })
    }

    /// Whether this process still holds its claim on `timer` as it was read; renews it.
    fn still_ours(&self, conn: &impl store::Db, timer: &TimerRow) -> Result<bool> {
        if !self.worker.shares() {
            return Ok(true);
        }
        Ok(store::still_claimed(
            conn,
            timer,
            self.worker.lease(self.now()),
        )?)
    }

    /// [`GameService::fire`] inside the write `loaded` was read in.
    fn fire_in(
        &self,
        tx: &Tx<'_>,
        loaded: &mut Loaded,
        timer: &TimerRow,
        thought: Option<Thought>,
    ) -> Result<Fired> {
        let game_id = timer.game_id;
        let current = loaded.row.status == GameStatus::Active && loaded.row.ply == timer.ply;
        let team = loaded.game.as_ref().map(Game::controller);
        let user = team
            .and_then(|t| loaded.team_seat(t))
            .and_then(|s| s.user_id);
        let now = self.now();
        if timer.kind == TimerKind::UndoVote {
            // Marked in the game's write: a timer fired meanwhile (by another process whose
            // lease lapsed while it worked) is not acted on twice.
            let first = store::mark_timer_fired(tx, timer, now)?;
            return Ok(if first && self.undo_timer(tx, loaded, now)? {
                Fired::UndoLapsed { game_id }
            } else {
                Fired::Stale { game_id }
            });
        }
        if matches!(timer.kind, TimerKind::PauseVote | TimerKind::PauseEnd) {
            let first = store::mark_timer_fired(tx, timer, now)?;
            let acted = first
                && loaded.row.status == GameStatus::Active
                && self.pause_timer(tx, loaded, timer.kind, now)?;
            return Ok(if acted {
                Fired::Paused { game_id }
            } else {
                Fired::Stale { game_id }
            });
        }
        match (timer.kind, current, team, user) {
            (TimerKind::Deadline, true, Some(team), Some(user))
                if self
                    .hold_for_vacation(tx, loaded, team, user, now)?
                    .is_some() =>
            {
                Ok(Fired::Held { game_id, team })
            }
            (TimerKind::Deadline, true, Some(team), Some(_)) => {
                // The move (or resignation) replaces this timer in its own transaction, so a
                // crash before it leaves the deadline due, and it fires again after restart;
                // so does a game that changed while the bot thought.
                match self.timeout_move(tx, loaded, thought)? {
                    Some(()) => Ok(Fired::TimedOut { game_id, team }),
                    None => Ok(Fired::Stale { game_id }),
                }
            }
            (TimerKind::Reminder, true, Some(team), Some(user)) => {
                let deadline = store::deadline_at(tx, game_id, timer.ply)?;
                let prefs = store::get_prefs(tx, user)?;
                let plan = reminder_settings::plan_for(&prefs, &loaded.config);
                let firing = deadline.map(|d| plan.firing(timer.due_at, d, now));
                if let Some(Firing::Wait(end)) = firing {
                    store::postpone_timer(tx, timer, end)?;
                    return Ok(Fired::Quiet { game_id, team });
                }
                if firing == Some(Firing::Drop) {
                    store::mark_timer_fired(tx, timer, now)?;
                    return Ok(Fired::Quiet { game_id, team });
                }
                if let (true, Some(deadline)) = (store::mark_timer_fired(tx, timer, now)?, deadline)
                {
                    let message = OutboxMessage::Reminder {
                        game_id,
                        ply: timer.ply,
                        team,
                        deadline_ms: deadline,
                    };
                    // A reminder that comes due only once its deadline has passed too (the bot
                    // was down through both) would remind of a turn about to time out: none.
                    if loaded.row.channel_id.is_some() && deadline > now {
                        outbox::enqueue(tx, Target::User { id: user }, &message, now)?;
                    }
                }
                Ok(Fired::Reminded { game_id, team })
            }
            (TimerKind::Bot, true, _, None) => match thought.filter(|t| t.still_fits(loaded)) {
                Some(thought) => {
                    let accepted =
                        self.apply_action(tx, loaded, thought.first(), None, Default::default())?;
                    Ok(Fired::BotMoved {
                        game_id,
                        team: accepted.team,
                    })
                }
                // No bot on turn after all: don't fire again.
                None => {
                    store::mark_timer_fired(tx, timer, now)?;
                    Ok(Fired::Stale { game_id })
                }
            },
            _ => {
                store::mark_timer_fired(tx, timer, now)?;
                Ok(Fired::Stale { game_id })
            }
        }
    }
}
