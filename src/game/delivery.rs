//! What the Discord adapter needs from the store, as service calls (it never touches SQL):
//! the outbox rows to send and their fate, where a game lives in Discord (its lobby message
//! and thread), the private prompts whose buttons must go, the material of a board post, and
//! the languages and DM preferences of users and servers.

use super::end::GameEnd;
use super::lobby::end_in;
use super::outbox::Queued;
use super::record::{self, MoveStep};
use super::{GameService, GameView, Result, ServiceError};
use crate::engine::Game;
use crate::id::{ChannelId, GameId, GuildId, MessageId, UserId};
use crate::store::{self, GameStatus, PromptRow, Question, QuestionRow, UserPrefs};
use crate::words::Lang;

/// Everything a board post shows: the position after `ply`, the steps of the move that led
/// to it, and the game around it (seats, settings, language, place).
#[derive(Clone, Debug)]
pub struct PostMaterial {
    pub game: GameView,
    /// The position after `ply` (the game may have moved on since the row was written).
    pub position: Game,
    /// The plies `first_ply..=ply`, oldest first, with their events.
    pub steps: Vec<MoveStep>,
    /// The end of the game's running pause, when it is paused (read at send time).
    pub paused_until: Option<i64>,
    /// The move's number as players count moves (one a post, however many choices it took).
    pub number: u32,
}

/// A private prompt sent to a player for a turn: the DM (or private message) with its
/// buttons, until the turn is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentPrompt {
    pub game_id: GameId,
    pub user_id: UserId,
    pub ply: u32,
    pub channel_id: ChannelId,
    pub message_id: MessageId,
}

impl SentPrompt {
    fn of(row: PromptRow) -> SentPrompt {
        SentPrompt {
            game_id: row.game_id,
            user_id: row.user_id,
            ply: row.ply,
            channel_id: row.channel_id,
            message_id: row.message_id,
        }
    }
}

/// A public post that asks a question with its buttons, until it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AskedQuestion {
    pub game_id: GameId,
    pub question: Question,
    pub channel_id: ChannelId,
    pub message_id: MessageId,
}

impl AskedQuestion {
    fn of(row: QuestionRow) -> AskedQuestion {
        AskedQuestion {
            game_id: row.game_id,
            question: row.question,
            channel_id: row.channel_id,
            message_id: row.message_id,
        }
    }
}

/// A move as a player played it: its number and its recorded steps (the action, then the
/// answers to the choices it stopped for).
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub number: u32,
    pub steps: Vec<MoveStep>,
}

impl GameService {
    /// Every unsent outbox row, oldest first, each with the time it may be sent (a row of a
    /// game waits for the game's earlier rows, so the sender needs them all to keep a game's
    /// posts in order). A row that cannot be read (damaged, or written by a newer version)
    /// is closed as given up and logged, so that it does not block the rows behind it.
    pub fn pending_messages(&self) -> Result<Vec<Queued>> {
        let mut out = Vec::new();
        self.walk_pending_messages(|queued| {
            out.push(queued);
            true
        })?;
        Ok(out)
    }

    /// The unsent outbox rows, oldest first, handed to `take` one by one until it says
    /// `false` or none is left: the sender looks only as far into a backlog of thousands as
    /// it needs to fill its slots. A row that cannot be read is closed as given up and
    /// logged, as in [`GameService::pending_messages`].
    pub fn walk_pending_messages(&self, mut take: impl FnMut(Queued) -> bool) -> Result<()> {
        /// Rows read at a time.
        const PAGE: usize = 64;
        let now = self.now();
        let conn = self.store.conn()?;
        let mut after = 0;
        loop {
            let page = store::unsent_outbox_page(&conn, after, PAGE)?;
            let full = page.len() == PAGE;
            for row in page {
                after = row.id;
                match Queued::from_row(&row) {
                    Ok(mut queued) => {
                        queued.held_until = row
                            .claimed_until
                            .filter(|until| *until > now)
                            .filter(|_| row.claimed_by.as_deref() != Some(self.worker.name()));
                        if !take(queued) {
                            return Ok(());
                        }
                    }
                    Err(why) => {
                        tracing::error!(row = row.id, %why, "unreadable outbox row: given up");
                        store::mark_outbox_given_up(&conn, row.id, &why, now)?;
                    }
                }
            }
            if !full {
                return Ok(());
            }
        }
    }

    /// When the next unsent row may be sent (`None`: nothing is waiting).
    pub fn next_message_due(&self) -> Result<Option<i64>> {
        let conn = self.store.conn()?;
        Ok(store::next_outbox_due(&conn, self.worker.name())?)
    }

    /// Claims the rows `ids` (one game's, in the order they go) for this process to send: the
    /// ones claimed, a prefix of `ids`. Where a row is another process's (it claimed the row
    /// since it was read), the rest are not claimed either: they must not overtake it.
    pub fn claim_messages(&self, ids: &[i64]) -> Result<Vec<i64>> {
        if !self.worker.shares() {
            return Ok(ids.to_vec());
        }
        let conn = self.store.conn()?;
        let lease = self.worker.lease(self.now());
        let mut claimed = Vec::with_capacity(ids.len());
        for &id in ids {
            if !store::claim_outbox(&conn, id, lease)? {
                break;
            }
            claimed.push(id);
        }
        Ok(claimed)
    }

    /// Lets go of claimed rows this process will not send now (an earlier row of their game
    /// failed and waits), so that no process waits for their lease to lapse.
    pub fn release_messages(&self, ids: &[i64]) -> Result<()> {
        if !self.worker.shares() {
            return Ok(());
        }
        let conn = self.store.conn()?;
        for &id in ids {
            store::release_outbox(&conn, id, self.worker.name())?;
        }
        Ok(())
    }

    /// The service's clock, for the sender's and the scheduler's sleeps.
    pub fn now_ms(&self) -> i64 {
        self.now()
    }

    /// The deadline of the game's current turn, if a person is on turn.
    pub fn deadline_of(&self, id: GameId) -> Result<Option<i64>> {
        let conn = self.store.conn()?;
        Ok(store::running_deadline(&conn, id)?)
    }

    /// The row was delivered. `false` if it was already marked (by an earlier attempt).
    pub fn message_sent(&self, id: i64) -> Result<bool> {
        let conn = self.store.conn()?;
        Ok(store::mark_outbox_sent(&conn, id, self.now())?)
    }

    /// A send failed for now; try again after `retry_in_ms`.
    pub fn message_failed(&self, id: i64, error: &str, retry_in_ms: i64) -> Result<()> {
        let conn = self.store.conn()?;
        Ok(store::mark_outbox_failed(
            &conn,
            id,
            error,
            self.now() + retry_in_ms,
            self.worker.name(),
        )?)
    }

    /// A send can never succeed (403, 404…): the row is closed with the reason.
    pub fn message_given_up(&self, id: i64, reason: &str) -> Result<()> {
        let conn = self.store.conn()?;
        store::mark_outbox_given_up(&conn, id, reason, self.now())?;
        Ok(())
    }

    /// Every outbox row of a game as values, in order (for tests and diagnostics).
    pub fn messages_of(&self, id: GameId) -> Result<Vec<(Queued, bool)>> {
        let conn = self.store.conn()?;
        store::game_outbox(&conn, id)?
            .iter()
            .map(|row| {
                let queued = Queued::from_row(row).map_err(store::StoreError::Corrupt)?;
                Ok((queued, row.sent_at.is_some()))
            })
            .collect()
    }

    /// Records the lobby message of a game.
    pub fn set_lobby_message(&self, id: GameId, message: MessageId) -> Result<()> {
        let conn = self.store.conn()?;
        store::set_lobby_message(&conn, id, Some(message))?;
        Ok(())
    }

    /// Records where a game is played from now on: its new thread, or its channel itself
    /// where no thread could be made. Public rows (`Target::Game`) go there.
    pub fn set_thread(&self, id: GameId, thread: ChannelId) -> Result<()> {
        let conn = self.store.conn()?;
        store::set_thread(&conn, id, Some(thread))?;
        Ok(())
    }

    /// The channel or thread a game's public rows go to now (`None`: a local game).
    pub fn public_place(&self, id: GameId) -> Result<Option<ChannelId>> {
        let conn = self.store.conn()?;
        let row = store::get_game(&conn, id)?.ok_or(ServiceError::UnknownGame(id))?;
        Ok(super::public_place(&row))
    }

    /// The game's thread is gone (deleted on Discord): the game is archived where it stood,
    /// its timers stop, and its channel is told. Nothing happens to a game already over.
    pub fn thread_deleted(&self, id: GameId) -> Result<bool> {
        let now = self.now();
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let Some(mut row) = store::get_game(&tx, id)? else {
            return Ok(false);
        };
        if matches!(row.status, GameStatus::Finished | GameStatus::Cancelled) {
            return Ok(false);
        }
        // The notice goes to the channel the thread was opened from; if that is what was
        // deleted, `end_in`'s post will fail and be given up in turn.
        store::set_thread(&tx, id, row.channel_id)?;
        row.thread_id = row.channel_id;
        end_in(
            &tx,
            &row,
            GameStatus::Cancelled,
            GameEnd::ThreadDeleted,
            now,
        )?;
        tx.commit()?;
        Ok(true)
    }

    /// The games whose public place is `channel` (its thread, or the channel itself).
    pub fn games_played_in(&self, channel: ChannelId) -> Result<Vec<GameId>> {
        let conn = self.store.conn()?;
        Ok(store::games_in_channel(&conn, channel)?
            .into_iter()
            .filter(|g| super::public_place(g) == Some(channel))
            .map(|g| g.id)
            .collect())
    }

    /// What a board post for plies `first_ply..=ply` shows.
    pub fn post_material(&self, id: GameId, first_ply: u32, ply: u32) -> Result<PostMaterial> {
        let loaded = self.load(id)?;
        let position = match &loaded.game {
            Some(game) if game.ply() == ply => game.clone(),
            _ => self.position_at(id, ply)?,
        };
        let conn = self.store.conn()?;
        let steps = if ply == 0 {
            Vec::new()
        } else {
            record::move_steps(&conn, id, ply)?
                .into_iter()
                .filter(|s| s.ply >= first_ply)
                .collect()
        };
        let paused_until = store::paused_until(&conn, id, self.now())?;
        let number = store::completed_moves(&conn, id, ply)?;
        Ok(PostMaterial {
            game: GameView::of(loaded),
            position,
            steps,
            paused_until,
            number,
        })
    }

    /// How many moves were complete after `ply` actions: the number of the move a post at a
    /// move's last ply shows, and one less than the number of a move starting there.
    pub fn moves_complete_at(&self, id: GameId, ply: u32) -> Result<u32> {
        let conn = self.store.conn()?;
        Ok(store::completed_moves(&conn, id, ply)?)
    }

    /// The move played from the position after `ply` actions (the one a prompt drawn there
    /// asked for), once it is complete; `None` while it is not.
    pub fn move_played_after(&self, id: GameId, ply: u32) -> Result<Option<PlayedMove>> {
        let conn = self.store.conn()?;
        let Some(end) = store::next_move_end(&conn, id, ply)? else {
            return Ok(None);
        };
        Ok(Some(PlayedMove {
            number: store::completed_moves(&conn, id, end)?,
            steps: record::move_steps(&conn, id, end)?,
        }))
    }

    /// All the events of the move that ends at `ply`, in order (what the picture's path is
    /// drawn from).
    pub fn move_events(&self, id: GameId, ply: u32) -> Result<Vec<crate::engine::Event>> {
        let conn = self.store.conn()?;
        record::move_events(&conn, id, ply)
    }

    /// Remembers the private prompt a player was sent for a game's turn at `ply`.
    pub fn prompt_sent(
        &self,
        id: GameId,
        user: UserId,
        ply: u32,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<()> {
        let conn = self.store.conn()?;
        store::put_prompt(
            &conn,
            &PromptRow {
                game_id: id,
                user_id: user,
                ply,
                channel_id: channel,
                message_id: message,
            },
        )?;
        Ok(())
    }

    /// The prompt a player was last sent in a game, if its turn is at or before `ply` (a newer
    /// prompt is left alone).
    pub fn prompt_of(&self, id: GameId, user: UserId, ply: u32) -> Result<Option<SentPrompt>> {
        let conn = self.store.conn()?;
        let prompt = store::get_prompt(&conn, id, user)?.filter(|p| p.ply <= ply);
        Ok(prompt.map(SentPrompt::of))
    }

    /// Every private prompt of a game whose buttons may still be live.
    pub fn open_prompts(&self, id: GameId) -> Result<Vec<SentPrompt>> {
        let conn = self.store.conn()?;
        let prompts = store::game_prompts(&conn, id)?;
        Ok(prompts.into_iter().map(SentPrompt::of).collect())
    }

    /// Remembers a public post that asks a question with its buttons (a pause vote, "Take my
    /// seat back"), so that they go once it is answered.
    pub fn question_posted(
        &self,
        id: GameId,
        question: Question,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<()> {
        let conn = self.store.conn()?;
        store::put_question(
            &conn,
            &QuestionRow {
                game_id: id,
                question,
                channel_id: channel,
                message_id: message,
            },
        )?;
        Ok(())
    }

    /// The public posts of a game still asking `question` (all of them with `None`).
    pub fn open_questions(
        &self,
        id: GameId,
        question: Option<Question>,
    ) -> Result<Vec<AskedQuestion>> {
        let conn = self.store.conn()?;
        let rows = store::questions(&conn, id, question)?;
        Ok(rows.into_iter().map(AskedQuestion::of).collect())
    }

    /// A question's buttons are gone: forget it.
    pub fn question_retired(&self, asked: &AskedQuestion) -> Result<()> {
        let conn = self.store.conn()?;
        let row = QuestionRow {
            game_id: asked.game_id,
            question: asked.question,
            channel_id: asked.channel_id,
            message_id: asked.message_id,
        };
        store::delete_question(&conn, &row)?;
        Ok(())
    }

    /// The prompt's buttons are gone: forget it.
    pub fn prompt_retired(&self, prompt: &SentPrompt) -> Result<()> {
        let conn = self.store.conn()?;
        store::delete_prompt(&conn, prompt.game_id, prompt.user_id, prompt.message_id)?;
        Ok(())
    }

    /// A user's preferences (defaults when they set none).
    pub fn user_prefs(&self, user: UserId) -> Result<UserPrefs> {
        let conn = self.store.conn()?;
        Ok(store::get_prefs(&conn, user)?)
    }

    /// Sets (or clears, with `None`) a user's language.
    pub fn set_user_language(&self, user: UserId, language: Option<Lang>) -> Result<()> {
        self.change_prefs(user, |p| p.language = language)
    }

    /// A DM to `user` went through: their DMs are open (and, should they close again, they
    /// will be told again).
    pub fn dms_delivered(&self, user: UserId) -> Result<()> {
        self.change_prefs(user, |p| {
            p.dms = true;
            p.dms_refused_at = None;
            p.dms_told = false;
        })
    }

    /// Discord refused a DM to `user` (their DMs are closed): no new try for a week. `true`
    /// the first time since they were last open: the user is to be told, once.
    pub fn dms_refused(&self, user: UserId) -> Result<bool> {
        let now = self.now();
        let mut tell = false;
        self.change_prefs(user, |p| {
            p.dms = false;
            p.dms_refused_at = Some(now);
            tell = !p.dms_told;
            p.dms_told = true;
        })?;
        Ok(tell)
    }

    /// Remembers the language of the user's Discord client as their latest interaction told
    /// it; written only when it changed.
    pub fn note_locale(&self, user: UserId, locale: Lang) -> Result<()> {
        let conn = self.store.conn()?;
        if store::get_prefs(&conn, user)?.locale == Some(locale) {
            return Ok(());
        }
        drop(conn);
        self.change_prefs(user, |p| p.locale = Some(locale))
    }

    fn change_prefs(&self, user: UserId, change: impl FnOnce(&mut UserPrefs)) -> Result<()> {
        let mut conn = self.store.conn()?;
        let tx = conn.write()?;
        let mut prefs = store::get_prefs(&tx, user)?;
        let before = prefs.clone();
        change(&mut prefs);
        if prefs != before {
            store::put_prefs(&tx, &prefs)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Every language chosen, by users and by servers.
    pub fn chosen_languages(&self) -> Result<store::ChosenLanguages> {
        let conn = self.store.conn()?;
        Ok(store::chosen_languages(&conn)?)
    }

    /// A server's language, if it chose one.
    pub fn guild_language(&self, guild: GuildId) -> Result<Option<Lang>> {
        let conn = self.store.conn()?;
        Ok(store::guild_language(&conn, guild)?)
    }

    /// Sets (or clears) a server's language.
    pub fn set_guild_language(&self, guild: GuildId, language: Option<Lang>) -> Result<()> {
        let conn = self.store.conn()?;
        store::set_guild_language(&conn, guild, language)?;
        Ok(())
    }
}
