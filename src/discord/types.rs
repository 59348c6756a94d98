//! The bot's shared state and the types every handler names: defined once.

use crate::id::{GuildId, UserId};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

use super::background::Background;
use super::errors::BotError;
use super::rest::Rest;
use crate::game::GameService;
use crate::words::Lang;

pub type Context<'a> = poise::Context<'a, Data, BotError>;
pub type Result<T> = std::result::Result<T, BotError>;

/// What every command, component handler and background task shares (cheap to clone: the
/// sender and the scheduler hold clones).
#[derive(Clone)]
pub struct Data {
    pub service: Arc<GameService>,
    /// The outbox sender and the timer scheduler sleep until told there is work: after every
    /// commit, because a new deadline can be earlier than the one they sleep on.
    pub wake_outbox: Arc<Notify>,
    pub wake_timers: Arc<Notify>,
    /// Board pictures and timers (bots thinking) run here, at a lower priority than the
    /// threads that answer interactions.
    pub background: Arc<Background>,
    /// REST calls whose failures the bot handles itself (the outbox sender's).
    pub rest: Arc<Rest>,
    /// Set when the bot is stopping: no new game actions are taken.
    pub closing: Arc<AtomicBool>,
    /// Service calls in progress, and a signal when none is left (a stop waits for them).
    in_flight: Arc<AtomicUsize>,
    idle: Arc<Notify>,
    /// Users' and servers' chosen languages, read through (a preference changes rarely and
    /// is read on every interaction).
    languages: Arc<Mutex<HashMap<Chooser, Option<Lang>>>>,
    /// Every choice is in `languages` (loaded at start, kept by the setters): one not there
    /// was never made, and no interaction waits for the database before its first answer.
    languages_loaded: Arc<AtomicBool>,
    /// The client language each user's latest interaction in this process said, so that the
    /// database is written only when it changes.
    locales_seen: Arc<Mutex<HashMap<UserId, Lang>>>,
    /// What the latest presses cost in service calls.
    pub press_costs: Arc<super::cost::PressCosts>,
}

/// Who chose a language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Chooser {
    User(UserId),
    Guild(GuildId),
}

/// How often a process on a shared database looks for work others left it.
const SHARED_LOOK: Duration = Duration::from_secs(1);

impl Data {
    pub fn new(service: Arc<GameService>, rest: Arc<Rest>, closing: Arc<AtomicBool>) -> Data {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Data {
            service,
            wake_outbox: Arc::new(Notify::new()),
            wake_timers: Arc::new(Notify::new()),
            // Two at least: a bot thinking for a second on one must not hold up the pictures.
            background: Arc::new(Background::start(cores.max(2))),
            rest,
            closing,
            in_flight: Arc::new(AtomicUsize::new(0)),
            idle: Arc::new(Notify::new()),
            languages: Arc::new(Mutex::new(HashMap::new())),
            languages_loaded: Arc::new(AtomicBool::new(false)),
            locales_seen: Arc::new(Mutex::new(HashMap::new())),
            press_costs: Arc::default(),
        }
    }

    /// Remembers the language of a user's Discord client, as an interaction of theirs just
    /// said it, for what is sent to them later in private (DMs speak the reader's language).
    /// Written in the background: no interaction waits for it.
    pub fn note_locale(&self, user: UserId, locale: &str) {
        let lang = Lang::parse(locale).unwrap_or_default();
        let changed = self
            .locales_seen
            .lock()
            .map(|mut seen| seen.insert(user, lang) != Some(lang))
            .unwrap_or(false);
        if !changed {
            return;
        }
        let data = self.clone();
        tokio::spawn(async move {
            if let Err(e) = data.call(move |s| s.note_locale(user, lang)).await {
                tracing::warn!(%user, error = %e, "could not remember a user's language");
            }
        });
    }

    /// Runs a service call on the blocking pool (SQLite waits for the disk) and maps its
    /// refusal.
    pub async fn call<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&GameService) -> crate::game::Result<T> + Send + 'static,
    {
        let job = self.counted(f);
        let result = tokio::task::spawn_blocking(job).await;
        result
            .map_err(|e| BotError::Internal(format!("a service call panicked: {e}")))?
            .map_err(BotError::from)
    }

    /// [`Data::call`] on the low-priority [`Background`] threads, for work no one is
    /// waiting on with an interaction open (firing timers, where a bot may think a second).
    pub async fn call_in_background<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&GameService) -> crate::game::Result<T> + Send + 'static,
    {
        let job = self.counted(f);
        let result = self.background.run(job).await;
        result
            .map_err(|e| BotError::Internal(format!("a service call: {e}")))?
            .map_err(BotError::from)
    }

    /// `f` as a job counted among the calls in progress ([`Data::wait_idle`]); counted down
    /// when it ends, even if its caller's future was dropped meanwhile.
    fn counted<T, F>(&self, f: F) -> impl FnOnce() -> crate::game::Result<T> + Send + 'static
    where
        T: Send + 'static,
        F: FnOnce(&GameService) -> crate::game::Result<T> + Send + 'static,
    {
        let service = Arc::clone(&self.service);
        super::cost::count_call();
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        let (in_flight, idle) = (Arc::clone(&self.in_flight), Arc::clone(&self.idle));
        move || {
            let out = f(&service);
            if in_flight.fetch_sub(1, Ordering::SeqCst) == 1 {
                idle.notify_waiters();
            }
            out
        }
    }

    /// Waits until no service call is in progress (at most `limit`).
    pub async fn wait_idle(&self, limit: Duration) {
        let deadline = tokio::time::Instant::now() + limit;
        while self.in_flight.load(Ordering::SeqCst) > 0 {
            let notified = self.idle.notified();
            if self.in_flight.load(Ordering::SeqCst) == 0 {
                break;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                tracing::warn!("stopping with service calls still in progress");
                break;
            }
        }
    }

    /// As [`Data::call`], for a call that changes a game: refused while the bot is stopping,
    /// and followed by waking the sender and the scheduler.
    pub async fn change<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&GameService) -> crate::game::Result<T> + Send + 'static,
    {
        if self.closing.load(Ordering::SeqCst) {
            return Err(BotError::Closing);
        }
        let result = self.call(f).await;
        self.wake();
        result
    }

    /// Tells the sender and the scheduler to look for work.
    pub fn wake(&self) {
        self.wake_outbox.notify_one();
        self.wake_timers.notify_one();
    }

    /// The longest a background task (the outbox sender, the scheduler) sleeps before it looks
    /// for work again: `alone` when this process is the only one on its database, and every
    /// change wakes it; a second on a shared one, where other processes' changes (a move they
    /// applied, work a dead process left) wake nobody here.
    pub fn longest_sleep(&self, alone: Duration) -> Duration {
        if self.service.store().is_server() {
            alone.min(SHARED_LOOK)
        } else {
            alone
        }
    }

    /// The language to answer `user` in, privately: their own choice, else their server's,
    /// else their Discord client's, else English.
    pub async fn lang_for(
        &self,
        user: UserId,
        guild: Option<GuildId>,
        locale: Option<&str>,
    ) -> Lang {
        if let Some(lang) = self.chosen(Chooser::User(user)).await {
            return lang;
        }
        if let Some(guild) = guild
            && let Some(lang) = self.chosen(Chooser::Guild(guild)).await
        {
            return lang;
        }
        locale.and_then(Lang::parse).unwrap_or_default()
    }

    /// A server's language, if it chose one.
    pub async fn guild_lang(&self, guild: GuildId) -> Option<Lang> {
        self.chosen(Chooser::Guild(guild)).await
    }

    /// A user's own choice, if any.
    pub async fn user_lang(&self, user: UserId) -> Option<Lang> {
        self.chosen(Chooser::User(user)).await
    }

    /// Loads every language choice, so that [`Data::lang_for`] never reads the database (the
    /// first interaction of each user would otherwise wait for it before being answered). If
    /// the database cannot be read now, choices are read through as they are needed.
    pub async fn load_languages(&self) {
        let Ok(chosen) = self.call(|s| s.chosen_languages()).await else {
            tracing::warn!("could not load the chosen languages; reading them as needed");
            return;
        };
        let users = chosen
            .users
            .into_iter()
            .map(|(u, lang)| (Chooser::User(u), lang));
        let guilds = chosen
            .guilds
            .into_iter()
            .map(|(g, lang)| (Chooser::Guild(g), lang));
        let choices = users.chain(guilds);
        if let Ok(mut map) = self.languages.lock() {
            for (who, lang) in choices {
                map.insert(who, Some(lang));
            }
            self.languages_loaded.store(true, Ordering::SeqCst);
        }
    }

    async fn chosen(&self, who: Chooser) -> Option<Lang> {
        if let Some(known) = self.languages.lock().ok().and_then(|m| {
            m.get(&who)
                .copied()
                .or(self.languages_loaded.load(Ordering::SeqCst).then_some(None))
        }) {
            return known;
        }
        let stored = match who {
            Chooser::User(user) => self
                .call(move |s| Ok(s.user_prefs(user)?.language))
                .await
                .ok()
                .flatten(),
            Chooser::Guild(guild) => self
                .call(move |s| s.guild_language(guild))
                .await
                .ok()
                .flatten(),
        };
        let lang = stored;
        if let Ok(mut map) = self.languages.lock() {
            map.insert(who, lang);
        }
        lang
    }

    /// Sets (or clears) a user's language.
    pub async fn set_user_lang(&self, user: UserId, lang: Option<Lang>) -> Result<()> {
        self.call(move |s| s.set_user_language(user, lang)).await?;
        if let Ok(mut map) = self.languages.lock() {
            map.insert(Chooser::User(user), lang);
        }
        Ok(())
    }

    /// Sets (or clears) a server's language.
    pub async fn set_guild_lang(&self, guild: GuildId, lang: Option<Lang>) -> Result<()> {
        self.call(move |s| s.set_guild_language(guild, lang))
            .await?;
        if let Ok(mut map) = self.languages.lock() {
            map.insert(Chooser::Guild(guild), lang);
        }
        Ok(())
    }
}
