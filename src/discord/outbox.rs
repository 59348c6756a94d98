//! The outbox sender: delivers the rows the game service wrote with each change (board
//! posts, "your turn" DMs, reminders, notices, endings), each once, after its commit.
//!
//! - Rows of one game go in order, one game's rows at a time; different games' rows go side
//!   by side (a slow render in one game does not hold up the others).
//! - A 429 waits its `retry_after`; a 5xx or a lost connection is retried with backoff; a
//!   refusal that will not change (403, 404) is given up on with the reason logged, and a
//!   deleted thread archives its game.
//! - Channel messages carry a `nonce` with `enforce_nonce`: if the bot dies after Discord
//!   created a message but before the row was marked sent, the resend after the restart
//!   gets the same message back instead of posting a second one.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use super::rest::{NewMessage, Posted, RestError};
use super::turn;
use super::types::Data;
use super::views::lobby;
use super::views::picker::{self as picker_view};
use super::views::post::{self, Post};
use crate::game::{
    GameEnd, GameView, Notice, OutboxMessage, Question, Queued, ServiceError, Target,
};
use crate::game::{GameId, GameStatus, ReminderVia, UserId, UserPrefs};
use crate::render::{self, RenderOptions};
use crate::tr;
use crate::words::{Lang, narrate};

/// How long the sender sleeps at most before looking again (it is woken after every
/// commit; this bounds the cost of a missed wake-up).
const IDLE: Duration = Duration::from_secs(30);
/// 429s shorter than this are waited out at once; longer ones go back to the queue.
const WAIT_IN_PLACE: Duration = Duration::from_secs(10);
/// Quick retries of a 5xx before the row goes back to the queue with a longer backoff.
const QUICK_RETRIES: [Duration; 2] = [Duration::from_millis(250), Duration::from_secs(1)];

/// Games whose rows are being sent at once. After a burst (a thousand deadlines that came due
/// together) every game has a post to make; a task for each at once would fill the async
/// threads' queues, and the interactions of players waiting for an answer would queue behind
/// them. The rest wait for the next pass.
const MAX_SENDING: usize = 16;

/// What became of a row.
enum Outcome {
    Delivered,
    /// Nothing to send any more (the turn it was about is over): closed as sent.
    Moot,
}

/// Why a row was not delivered.
enum Failure {
    /// Try again later.
    Retry { after: Duration, why: String },
    /// It can never be delivered.
    GiveUp(String),
}

impl From<crate::discord::errors::BotError> for Failure {
    fn from(e: crate::discord::errors::BotError) -> Failure {
        use crate::discord::errors::BotError;
        match e {
            // A damaged game stays damaged until someone repairs the file: its rows are given
            // up (logged, with what is wrong) instead of being retried for ever. Other games'
            // rows go on meanwhile either way: each game's rows go on their own.
            BotError::Service(ServiceError::Damaged { .. }) => Failure::GiveUp(e.to_string()),
            e => Failure::Retry {
                after: Duration::from_secs(5),
                why: e.to_string(),
            },
        }
    }
}

type Delivery = std::result::Result<Outcome, Failure>;

/// Runs until `stop` turns true, then finishes what is in flight.
pub async fn run(data: Data, mut stop: watch::Receiver<bool>) {
    let busy: Arc<Mutex<HashSet<Option<GameId>>>> = Arc::default();
    let mut workers = tokio::task::JoinSet::new();
    loop {
        if *stop.borrow() {
            break;
        }
        // A set of busy games that cannot be read (a worker panicked holding it) sends
        // nothing rather than risk two workers on one game.
        let free = MAX_SENDING.saturating_sub(workers.len());
        let busy_now = busy.lock().map(|b| b.clone()).ok().filter(|_| free > 0);
        let mut next_due: Option<i64> = None;
        if let Some(busy_now) = busy_now {
            let look = data.call(move |s| {
                let mut pass = Pass::new(s.now_ms(), busy_now, free);
                s.walk_pending_messages(|row| pass.take(row))?;
                Ok(pass)
            });
            match look.await {
                Ok(pass) => {
                    next_due = pass.next_due;
                    for (game, rows) in pass.ready {
                        if let Ok(mut b) = busy.lock() {
                            b.insert(game);
                        }
                        let (data, busy) = (data.clone(), Arc::clone(&busy));
                        workers.spawn(async move {
                            send_in_order(&data, rows).await;
                            if let Ok(mut b) = busy.lock() {
                                b.remove(&game);
                            }
                            // The game's later rows, written meanwhile, are for the next pass.
                            data.wake_outbox.notify_one();
                        });
                    }
                }
                Err(e) => tracing::error!(error = %e, "the outbox could not be read"),
            }
        }
        let sleep = match next_due {
            Some(due) => {
                let now = data.service.now_ms();
                Duration::from_millis(due.saturating_sub(now).max(0) as u64).min(IDLE)
            }
            None => IDLE,
        };
        tokio::select! {
            _ = data.wake_outbox.notified() => {}
            _ = tokio::time::sleep(sleep) => {}
            _ = stop.changed() => {}
            Some(_) = workers.join_next(), if !workers.is_empty() => {}
        }
        // Reap finished workers without waiting.
        while workers.try_join_next().is_some() {}
    }
    // Stopping: what is in flight finishes; nothing new starts.
    while workers.join_next().await.is_some() {}
}

/// One look at the backlog, oldest row first: the games whose rows go now (at most `free`
/// of them, each with its rows so far in order; the rest of a game's rows are for a later
/// pass), and when the first game held back by a backoff may go. It looks no further than it
/// must: once its slots are full, the first row of a new game ends the look.
struct Pass {
    now: i64,
    busy: HashSet<Option<GameId>>,
    free: usize,
    ready: Vec<(Option<GameId>, Vec<Queued>)>,
    /// Every game seen so far: its place in `ready`, or `None` when its rows wait (a worker
    /// is sending the game's earlier rows, or its first row is in backoff), and with them
    /// every later row of the game, which must not overtake them.
    seen: HashMap<Option<GameId>, Option<usize>>,
    next_due: Option<i64>,
}

impl Pass {
    fn new(now: i64, busy: HashSet<Option<GameId>>, free: usize) -> Pass {
        Pass {
            now,
            busy,
            free,
            ready: Vec::new(),
            seen: HashMap::new(),
            next_due: None,
        }
    }

    /// Takes the next row; `false` once the look is over.
    fn take(&mut self, row: Queued) -> bool {
        let game = row.message.game_id();
        match self.seen.get(&game) {
            Some(Some(at)) => self.ready[*at].1.push(row),
            Some(None) => {}
            None if self.ready.len() >= self.free => return false,
            None if self.busy.contains(&game) => {
                self.seen.insert(game, None);
            }
            None if row.not_before > self.now => {
                self.next_due = Some(
                    self.next_due
                        .map_or(row.not_before, |d| d.min(row.not_before)),
                );
                self.seen.insert(game, None);
            }
            None => {
                self.seen.insert(game, Some(self.ready.len()));
                self.ready.push((game, vec![row]));
            }
        }
        true
    }
}

/// Sends a game's rows in order, stopping at the first that must wait.
async fn send_in_order(data: &Data, rows: Vec<Queued>) {
    let now = data.service.now_ms();
    for row in rows {
        if row.not_before > now {
            break;
        }
        let id = row.id;
        match deliver_with_retries(data, &row).await {
            Ok(_) => {
                if let Err(e) = data.call(move |s| s.message_sent(id)).await {
                    tracing::error!(row = id, error = %e, "a sent message could not be marked");
                    break;
                }
            }
            Err(Failure::Retry { after, why }) => {
                tracing::warn!(row = id, %why, ?after, "a message will be retried");
                let ms = after.as_millis() as i64;
                let _ = data.call(move |s| s.message_failed(id, &why, ms)).await;
                break;
            }
            Err(Failure::GiveUp(why)) => {
                tracing::warn!(row = id, %why, "a message was given up on");
                let _ = data.call(move |s| s.message_given_up(id, &why)).await;
            }
        }
    }
}

/// Delivers a row, waiting out short rate limits and retrying a failing Discord briefly.
async fn deliver_with_retries(data: &Data, row: &Queued) -> Delivery {
    let mut quick = QUICK_RETRIES.iter();
    loop {
        match deliver(data, row).await {
            Err(Failure::Retry { after, why }) => {
                let wait = match quick.next() {
                    Some(_) if after <= WAIT_IN_PLACE => after,
                    _ => {
                        // Back to the queue, with a backoff that grows with the attempts.
                        let backoff = Duration::from_secs(2u64.saturating_pow(row.attempts.min(8)));
                        return Err(Failure::Retry {
                            after: after.max(backoff),
                            why,
                        });
                    }
                };
                tokio::time::sleep(wait).await;
            }
            other => return other,
        }
    }
}

/// What a failed REST call means for the row.
fn failure(e: RestError) -> Failure {
    match e {
        RestError::RateLimited { retry_after } => Failure::Retry {
            after: retry_after,
            why: "429".into(),
        },
        RestError::Unavailable(why) => Failure::Retry {
            after: QUICK_RETRIES[0],
            why,
        },
        other => Failure::GiveUp(other.to_string()),
    }
}

/// The language of a game's public posts.
/// A nonce for a row: unique to the row in this database (ids alone could repeat in a new
/// database file within Discord's de-duplication window).
fn nonce(row: &Queued, part: u8) -> String {
    format!(
        "j{}-{}-{}",
        row.id,
        row.created_at.rem_euclid(1_000_000_000),
        part
    )
}

async fn deliver(data: &Data, row: &Queued) -> Delivery {
    match &row.message {
        OutboxMessage::GameStarted {
            game_id,
            deadline_ms,
        } => game_started(data, row, *game_id, *deadline_ms).await,
        OutboxMessage::BoardPost {
            game_id,
            first_ply,
            ply,
            deadline_ms,
        } => {
            let (game, first, last) = (*game_id, *first_ply, *ply);
            let material = data
                .call(move |s| s.post_material(game, first, last))
                .await?;
            let lang = material.game.lang;
            let message = post::board(&material, lang, *deadline_ms);
            let events: Vec<_> = material
                .steps
                .iter()
                .flat_map(|s| s.events.clone())
                .collect();
            let options = RenderOptions {
                path: render::path_of(&events),
                lang,
                // The next move's, as the post's own header counts them.
                move_number: Some(material.number + 1),
                ..RenderOptions::default()
            };
            let png = turn::draw(data, material.position.clone(), options).await?;
            let file = turn::board_file(game, last);
            post_public(data, row, &material.game, message, Some((file, png))).await
        }
        // The team is the one on turn at `ply`: the service checks the user still holds it.
        OutboxMessage::YourTurn {
            game_id,
            ply,
            team: _,
            deadline_ms,
        } => your_turn(data, row, *game_id, *ply, *deadline_ms).await,
        OutboxMessage::Reminder {
            game_id,
            ply,
            team,
            deadline_ms,
        } => reminder(data, row, *game_id, *ply, *team, *deadline_ms).await,
        OutboxMessage::TurnOver { game_id, ply } => turn_over(data, row, *game_id, *ply).await,
        OutboxMessage::GameOver { game_id, end } => game_over(data, row, *game_id, end).await,
        OutboxMessage::Digest { games } => digest(data, row, games).await,
        OutboxMessage::Notice { game_id, notice } => {
            deliver_notice(data, row, *game_id, *notice).await
        }
    }
}

/// A notice in the game's thread. One that asks a question with buttons (a pause vote, "Take
/// my seat back") is remembered; one that answers a question takes the buttons off the posts
/// that asked it.
async fn deliver_notice(data: &Data, row: &Queued, game: GameId, notice: Notice) -> Delivery {
    let game_view = data.call(move |s| s.game(game)).await?;
    let message = post::notice(&game_view, &notice, game_view.lang);
    let Some(posted) = post_public_message(data, row, &game_view, message, None, 0).await? else {
        return Ok(Outcome::Moot);
    };
    let asks = match notice {
        Notice::PauseProposed { .. } => Some(Question::PauseVote),
        Notice::TakenOver { team, .. } => Some(Question::Reclaim { team }),
        _ => None,
    };
    if let Some(question) = asks {
        let (channel, message) = (posted.channel, posted.message);
        data.call(move |s| s.question_posted(game, question, channel, message))
            .await?;
    }
    let answers = match notice {
        Notice::PauseStarted { .. } | Notice::PauseRefused { .. } | Notice::PauseLapsed { .. } => {
            Some(Question::PauseVote)
        }
        Notice::Reclaimed { team } => Some(Question::Reclaim { team }),
        _ => None,
    };
    if let Some(question) = answers {
        retire_questions(data, game, Some(question)).await?;
    }
    Ok(Outcome::Delivered)
}

/// Takes the buttons off a game's posts that asked `question` (every question with `None`):
/// it is answered, or the game is over.
async fn retire_questions(
    data: &Data,
    game: GameId,
    question: Option<Question>,
) -> std::result::Result<(), Failure> {
    for asked in data.call(move |s| s.open_questions(game, question)).await? {
        match data
            .rest
            .remove_components(asked.channel_id, asked.message_id)
            .await
        {
            Ok(()) => {}
            // The post was deleted, or cannot be reached: nothing is left to press.
            Err(e) if !e.is_transient() => {
                tracing::info!(game, error = %e, "a question's buttons could not be removed");
            }
            Err(e) => return Err(failure(e)),
        }
        data.call(move |s| s.question_retired(&asked)).await?;
    }
    Ok(())
}

/// Posts in the row's public target (the game's thread or channel).
async fn post_public(
    data: &Data,
    row: &Queued,
    game_view: &GameView,
    post: Post,
    image: Option<(String, Vec<u8>)>,
) -> Delivery {
    post_public_part(data, row, game_view, post, image, 0).await
}

/// [`post_public`] for one of several posts a row makes (each `part` has its own nonce, so a
/// retry posts none of them twice).
async fn post_public_part(
    data: &Data,
    row: &Queued,
    game_view: &GameView,
    post: Post,
    image: Option<(String, Vec<u8>)>,
    part: u8,
) -> Delivery {
    Ok(
        match post_public_message(data, row, game_view, post, image, part).await? {
            Some(_) => Outcome::Delivered,
            None => Outcome::Moot,
        },
    )
}

/// Posts in the row's public target and says where the post is (`None`: there was nothing
/// to post, the row is moot).
async fn post_public_message(
    data: &Data,
    row: &Queued,
    game_view: &GameView,
    post: Post,
    image: Option<(String, Vec<u8>)>,
    part: u8,
) -> std::result::Result<Option<Posted>, Failure> {
    let channel = match row.target {
        Target::Channel { id } => id,
        // A game archived because its thread was deleted now "lives" in the thread's
        // channel only to say so there: what it had yet to post in the thread is dropped.
        Target::Game
            if game_view.end == Some(GameEnd::ThreadDeleted)
                && !matches!(row.message, OutboxMessage::GameOver { .. }) =>
        {
            return Ok(None);
        }
        Target::Game => match game_view.place {
            Some(place) => place,
            // A local game has no public place.
            None => return Ok(None),
        },
        Target::User { id } => {
            return Err(Failure::GiveUp(format!(
                "a public post addressed to user {id}"
            )));
        }
    };
    let message = NewMessage {
        content: post.content,
        ping: post.ping,
        components: post.components,
        image,
        nonce: Some(nonce(row, part)),
    };
    match data.rest.post(channel, &message).await {
        Ok(posted) => Ok(Some(posted)),
        Err(e) if e.code() == Some(10003) && row.target == Target::Game => {
            // The game's thread (or channel) is gone: archive the game where it stood.
            let game = game_view.id;
            let archived = data.call(move |s| s.thread_deleted(game)).await?;
            if archived {
                data.wake();
            }
            Err(Failure::GiveUp(format!(
                "channel {channel} no longer exists"
            )))
        }
        Err(e) => Err(failure(e)),
    }
}

/// The start: opens the game's thread (once), marks the lobby started, posts the board.
async fn game_started(data: &Data, row: &Queued, game: GameId, deadline: Option<i64>) -> Delivery {
    let mut game_view = data.call(move |s| s.game(game)).await?;
    let Some(channel) = game_view.channel_id else {
        return Ok(Outcome::Moot);
    };
    if game_view.thread_id.is_none() {
        let thread = open_thread(data, &game_view, channel).await?;
        // Read again: the thread is now the game's public place.
        game_view = data
            .call(move |s| {
                s.set_thread(game, thread)?;
                s.game(game)
            })
            .await?;
    }
    let lang = game_view.lang;
    if let Some(message) = game_view.lobby_message_id {
        let (content, components) = lobby::view(&game_view, lang);
        if let Err(e) = data
            .rest
            .edit(channel, message, &content, &components)
            .await
        {
            tracing::warn!(game, error = %e, "could not mark the lobby message started");
        }
    }
    let material = data.call(move |s| s.post_material(game, 0, 0)).await?;
    let message = post::start(&material, lang, deadline);
    let options = RenderOptions {
        lang,
        ..RenderOptions::default()
    };
    let png = turn::draw(data, material.position.clone(), options).await?;
    let image = Some((turn::board_file(game, 0), png));
    post_public(data, row, &game_view, message, image).await
}

/// The game's thread: on the lobby message (a second attempt finds the first thread, whose
/// id is the message's), or without one; the channel itself where threads cannot be made.
async fn open_thread(
    data: &Data,
    game_view: &GameView,
    channel: u64,
) -> std::result::Result<u64, Failure> {
    let name = thread_name(data, game_view).await;
    let made = match game_view.lobby_message_id {
        Some(message) => match data.rest.thread_from_message(channel, message, &name).await {
            Err(e) if e.code() == Some(160004) => Ok(message),
            other => other,
        },
        None => data.rest.thread(channel, &name).await,
    };
    match made {
        Ok(thread) => Ok(thread),
        Err(e) if e.is_transient() => Err(failure(e)),
        Err(e) => {
            // No thread here (missing permissions, a channel type without threads): the game
            // is played in the channel itself.
            tracing::info!(game = game_view.id, error = %e, "no thread; playing in the channel");
            Ok(channel)
        }
    }
}

/// "Jackal #12: alice, bob".
async fn thread_name(data: &Data, game_view: &GameView) -> String {
    let lang = game_view.lang;
    let mut names = Vec::new();
    for seat in &game_view.seats {
        let name = match seat.user_id {
            Some(user) => data
                .rest
                .user_name(user)
                .await
                .unwrap_or_else(|_| tr!(lang, "player-unknown")),
            None => tr!(lang, "bot-player"),
        };
        names.push(name);
    }
    let name = tr!(
        lang,
        "thread-name",
        game = game_view.id,
        players = names.join(", ")
    );
    crate::discord::picker::clip(&name, 100)
}

/// The private "your turn": the board and the picker, by DM. A user whose DMs are closed is
/// remembered (the thread's post pings them and carries "My moves").
async fn your_turn(
    data: &Data,
    row: &Queued,
    game: GameId,
    ply: u32,
    deadline: Option<i64>,
) -> Delivery {
    let Target::User { id: user } = row.target else {
        return Err(Failure::GiveUp("a DM without a user".into()));
    };
    let (turn, prefs, now) = data
        .call(move |s| {
            Ok((
                s.turn(user, game, Some(ply)),
                s.user_prefs(user)?,
                s.now_ms(),
            ))
        })
        .await?;
    let mut view = match turn.map_err(crate::discord::BotError::from) {
        Ok(view) => view,
        // The turn moved on meanwhile (or the seat changed hands, or the game ended): nothing
        // to prompt.
        Err(e) if e.is_refusal() => return Ok(Outcome::Moot),
        Err(e) => return Err(e.into()),
    };
    if !prefs.may_dm(now) {
        // Closed lately: the thread's post pings them and carries "My moves" instead.
        return Ok(Outcome::Moot);
    }
    let lang = reader_lang(data, &prefs, view.guild_id, view.lang).await;
    view.deadline_ms = deadline;
    let message = turn::first_menu(data, &view, lang).await?;
    let dm = data.rest.dm_channel(user).await.map_err(failure)?;
    let new = NewMessage {
        content: message.content,
        ping: Vec::new(),
        components: message.components,
        image: message.picture.map(|p| (p.file, p.png)),
        nonce: Some(nonce(row, 0)),
    };
    match data.rest.post(dm, &new).await {
        Ok(Posted { channel, message }) => {
            data.call(move |s| {
                s.dms_delivered(user)?;
                s.prompt_sent(game, user, ply, channel, message)
            })
            .await?;
            Ok(Outcome::Delivered)
        }
        Err(e) if e.code() == Some(50007) => {
            let game_view = data.call(move |s| s.game(game)).await?;
            dms_closed(data, row, &game_view, user).await
        }
        Err(e) => Err(failure(e)),
    }
}

/// The language a user reads in private: their own choice, else their server's, else their
/// Discord client's (as their latest interaction said it), else the game's.
async fn reader_lang(data: &Data, prefs: &UserPrefs, guild: Option<u64>, game_lang: Lang) -> Lang {
    if let Some(lang) = data.user_lang(prefs.user_id).await {
        return lang;
    }
    if let Some(guild) = guild
        && let Some(lang) = data.guild_lang(guild).await
    {
        return lang;
    }
    prefs
        .locale
        .as_deref()
        .and_then(Lang::parse)
        .unwrap_or(game_lang)
}

/// [`reader_lang`] for a user whose preferences the caller has not read.
async fn reader_lang_of(
    data: &Data,
    user: UserId,
    game_view: &GameView,
) -> std::result::Result<Lang, Failure> {
    let prefs = data.call(move |s| s.user_prefs(user)).await?;
    Ok(reader_lang(data, &prefs, game_view.guild_id, game_view.lang).await)
}

/// Discord refused a DM to `user` (50007): remembered, so no DM is tried for a week, and the
/// first time since their DMs were last open they are told so in the game's thread (how to
/// open them, or to keep their turns in the thread).
async fn dms_closed(data: &Data, row: &Queued, game_view: &GameView, user: UserId) -> Delivery {
    let tell = data.call(move |s| s.dms_refused(user)).await?;
    if !tell {
        return Ok(Outcome::Moot);
    }
    let message = post::dms_closed(user, game_view.lang);
    let public = Queued {
        target: Target::Game,
        ..row.clone()
    };
    // Its own nonce: the row's other parts (a reminder in the thread) keep theirs.
    post_public_part(data, &public, game_view, message, None, DMS_CLOSED_PART).await
}

/// The nonce part of the one-time "your DMs are closed" post.
const DMS_CLOSED_PART: u8 = 200;

/// A reminder: by DM, or in the thread with a ping where DMs are closed.
async fn reminder(
    data: &Data,
    row: &Queued,
    game: GameId,
    ply: u32,
    team: u8,
    deadline: i64,
) -> Delivery {
    let Target::User { id: user } = row.target else {
        return Err(Failure::GiveUp("a reminder without a user".into()));
    };
    let game_view = data.call(move |s| s.game(game)).await?;
    let on_turn = game_view.status == GameStatus::Active
        && game_view.ply == ply
        && game_view.seat(team).and_then(|s| s.user_id) == Some(user);
    if !on_turn {
        return Ok(Outcome::Moot);
    }
    let (prefs, now) = data
        .call(move |s| Ok((s.user_prefs(user)?, s.now_ms())))
        .await?;
    if prefs.may_dm(now) && prefs.reminder_via != Some(ReminderVia::Thread) {
        let lang = reader_lang(data, &prefs, game_view.guild_id, game_view.lang).await;
        let message = post::reminder_dm(&game_view, deadline, lang);
        let new = NewMessage {
            content: message.content,
            components: message.components,
            nonce: Some(nonce(row, 0)),
            ..NewMessage::default()
        };
        if send_dm(data, user, &new).await? {
            return Ok(Outcome::Delivered);
        }
        dms_closed(data, row, &game_view, user).await?;
    }
    let message = post::reminder(&game_view, team, deadline, game_view.lang);
    let public = Queued {
        target: Target::Game,
        ..row.clone()
    };
    post_public(data, &public, &game_view, message, None).await
}

/// Sends a private message without buttons to remember; `false` when the user's DMs are
/// closed (50007): the caller records that ([`dms_closed`]) and falls back to the thread.
async fn send_dm(
    data: &Data,
    user: crate::game::UserId,
    new: &NewMessage,
) -> std::result::Result<bool, Failure> {
    let dm = data.rest.dm_channel(user).await.map_err(failure)?;
    match data.rest.post(dm, new).await {
        Ok(_) => {
            data.call(move |s| s.dms_delivered(user)).await?;
            Ok(true)
        }
        Err(e) if e.code() == Some(50007) => Ok(false),
        Err(e) => Err(failure(e)),
    }
}

/// The daily digest, by DM. Games played since it was written are left out; when DMs are
/// closed, each game's thread gets the reminder instead.
async fn digest(data: &Data, row: &Queued, games: &[GameId]) -> Delivery {
    let Target::User { id: user } = row.target else {
        return Err(Failure::GiveUp("a digest without a user".into()));
    };
    let ids = games.to_vec();
    let turns = data.call(move |s| s.turns_among(user, &ids)).await?;
    if turns.is_empty() {
        return Ok(Outcome::Moot);
    }
    let (prefs, now) = data
        .call(move |s| Ok((s.user_prefs(user)?, s.now_ms())))
        .await?;
    if prefs.may_dm(now) {
        let lang = reader_lang(data, &prefs, turns[0].0.guild_id, turns[0].0.lang).await;
        let message = post::digest_dm(&turns, lang);
        let new = NewMessage {
            content: message.content,
            nonce: Some(nonce(row, 0)),
            ..NewMessage::default()
        };
        if send_dm(data, user, &new).await? {
            return Ok(Outcome::Delivered);
        }
        dms_closed(data, row, &turns[0].0, user).await?;
    }
    for (part, (game_view, deadline)) in turns.iter().enumerate() {
        let team = game_view.seat_of(user).map_or(0, |s| s.seat);
        let message = post::reminder(game_view, team, *deadline, game_view.lang);
        let public = Queued {
            target: Target::Game,
            ..row.clone()
        };
        let part = u8::try_from(part + 1).unwrap_or(u8::MAX);
        post_public_part(data, &public, game_view, message, None, part).await?;
    }
    Ok(Outcome::Delivered)
}

/// The turn a prompt asked to play is over: its buttons go.
async fn turn_over(data: &Data, row: &Queued, game: GameId, ply: u32) -> Delivery {
    let Target::User { id: user } = row.target else {
        return Ok(Outcome::Moot);
    };
    let Some(prompt) = data.call(move |s| s.prompt_of(game, user, ply)).await? else {
        return Ok(Outcome::Moot);
    };
    let game_view = data.call(move |s| s.game(game)).await?;
    let lang = reader_lang_of(data, user, &game_view).await?;
    let from = prompt.ply;
    let Some(played) = data.call(move |s| s.move_played_after(game, from)).await? else {
        // Unreachable: the row is written when the move is complete.
        return Ok(Outcome::Moot);
    };
    let words: Vec<String> = played
        .steps
        .iter()
        .map(|step| {
            step.action
                .as_ref()
                .map_or_else(|| step.notation.clone(), |a| narrate::action(lang, a))
        })
        .collect();
    let text = picker_view::turn_over(lang, game, played.number, &words.join(", "));
    retire_prompt(data, prompt, &text).await?;
    Ok(Outcome::Delivered)
}

/// Replaces a prompt's text with `text` and takes its buttons off, then forgets it. A DM that
/// was deleted or cannot be reached has nothing left to retire: that is logged, not retried.
async fn retire_prompt(
    data: &Data,
    prompt: crate::game::PromptRow,
    text: &str,
) -> std::result::Result<(), Failure> {
    match data
        .rest
        .edit(prompt.channel_id, prompt.message_id, text, &[])
        .await
    {
        Ok(()) => {}
        Err(e) if !e.is_transient() => {
            let (game, user) = (prompt.game_id, prompt.user_id);
            tracing::info!(game, user, error = %e, "a prompt could not be retired");
        }
        Err(e) => return Err(failure(e)),
    }
    data.call(move |s| s.prompt_retired(&prompt)).await?;
    Ok(())
}

/// The end: the result and the final board in the thread (a lobby that never started only
/// has its lobby message updated).
async fn game_over(data: &Data, row: &Queued, game: GameId, end: &GameEnd) -> Delivery {
    let game_view = data.call(move |s| s.game(game)).await?;
    let lang = game_view.lang;
    if let (Some(channel), Some(message)) = (game_view.channel_id, game_view.lobby_message_id)
        && game_view.started_at.is_none()
    {
        let (content, components) = lobby::view(&game_view, lang);
        return match data
            .rest
            .edit(channel, message, &content, &components)
            .await
        {
            Ok(()) => Ok(Outcome::Delivered),
            Err(e) if e.is_transient() => Err(failure(e)),
            Err(e) => Err(Failure::GiveUp(e.to_string())),
        };
    }
    let message = post::over(&game_view, game_view.state.as_ref(), end, lang);
    let image = match &game_view.state {
        Some(state) if end.is_result() => {
            let ply = state.ply();
            let events = data.call(move |s| s.move_events(game, ply)).await?;
            let options = RenderOptions {
                path: render::path_of(&events),
                lang,
                ..RenderOptions::default()
            };
            let png = turn::draw(data, state.clone(), options).await?;
            Some((turn::board_file(game, ply), png))
        }
        _ => None,
    };
    let Some(posted) = post_public_message(data, row, &game_view, message, image, 0).await? else {
        return Ok(Outcome::Moot);
    };
    end_lobby_message(data, &game_view, lang, &posted).await;
    close_prompts(data, &game_view, end).await?;
    retire_questions(data, game, None).await?;
    Ok(Outcome::Delivered)
}

/// Every private prompt of a game that ended, by any road, is closed with the result: its
/// buttons go, so nothing is left to press.
async fn close_prompts(
    data: &Data,
    game_view: &GameView,
    end: &GameEnd,
) -> std::result::Result<(), Failure> {
    let game = game_view.id;
    for prompt in data.call(move |s| s.open_prompts(game)).await? {
        let user = prompt.user_id;
        let lang = reader_lang_of(data, user, game_view).await?;
        let text = post::prompt_closed(game_view, end, lang);
        retire_prompt(data, prompt, &text).await?;
    }
    Ok(())
}

/// The lobby message of a game that was played ends with the result and a link to the post
/// that told it. Failures are logged: the game-over post itself is out.
async fn end_lobby_message(data: &Data, game_view: &GameView, lang: Lang, posted: &Posted) {
    let (Some(channel), Some(message)) = (game_view.channel_id, game_view.lobby_message_id) else {
        return;
    };
    let guild = game_view
        .guild_id
        .map_or_else(|| "@me".to_string(), |g| g.to_string());
    let link = format!(
        "https://discord.com/channels/{guild}/{}/{}",
        posted.channel, posted.message
    );
    let (content, components) = lobby::view_over(game_view, lang, &link);
    if let Err(e) = data
        .rest
        .edit(channel, message, &content, &components)
        .await
    {
        tracing::warn!(game = game_view.id, error = %e, "could not end the lobby message");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: i64, game: GameId, not_before: i64) -> Queued {
        Queued {
            id,
            target: Target::Game,
            message: OutboxMessage::TurnOver {
                game_id: game,
                ply: 1,
            },
            attempts: 0,
            created_at: 0,
            not_before,
        }
    }

    fn ids(rows: &[Queued]) -> Vec<i64> {
        rows.iter().map(|r| r.id).collect()
    }

    #[test]
    fn a_pass_fills_its_slots_in_order_and_looks_no_further() {
        let mut pass = Pass::new(100, HashSet::new(), 2);
        assert!(pass.take(row(1, 10, 0)));
        assert!(pass.take(row(2, 20, 0)));
        // Both slots are taken: a game already chosen still gets its later rows…
        assert!(pass.take(row(3, 10, 0)));
        // …and the first row of a third game ends the look.
        assert!(!pass.take(row(4, 30, 0)));
        let ready: Vec<_> = pass.ready.iter().map(|(g, r)| (*g, ids(r))).collect();
        assert_eq!(ready, vec![(Some(10), vec![1, 3]), (Some(20), vec![2])]);
        assert_eq!(pass.next_due, None);
    }

    #[test]
    fn a_game_being_sent_or_in_backoff_waits_with_all_its_later_rows() {
        let busy = HashSet::from([Some(10)]);
        let mut pass = Pass::new(100, busy, 4);
        assert!(pass.take(row(1, 10, 0)));
        assert!(pass.take(row(2, 20, 500)));
        assert!(pass.take(row(3, 30, 300)));
        // Due now, but behind rows of their games that are not: they must not overtake.
        assert!(pass.take(row(4, 10, 0)));
        assert!(pass.take(row(5, 20, 0)));
        assert!(pass.take(row(6, 40, 0)));
        let ready: Vec<_> = pass.ready.iter().map(|(g, r)| (*g, ids(r))).collect();
        assert_eq!(ready, vec![(Some(40), vec![6])]);
        // The sender sleeps until the first backoff ends.
        assert_eq!(pass.next_due, Some(300));
    }
}
