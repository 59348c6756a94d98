//! The Discord bot: slash commands, buttons and menus, board posts, DMs and reminders, on
//! top of the game service (DESIGN §10). This module is the only one that knows poise,
//! serenity or tokio, and it reaches the store only through the game service.
//!
//! [`start`] opens the database, checks the token, registers the commands, connects to the
//! gateway and starts the two background tasks: the outbox sender ([`outbox`]) and the
//! timer scheduler ([`scheduler`]). Both look for work at once, so messages and deadlines
//! left from before a restart are handled first. [`RunningBot::stop`] stops taking
//! interactions, lets what is in flight finish, and returns.

mod background;
pub mod commands;
mod components;
pub mod config;
pub mod cost;
pub mod errors;
mod history;
pub mod i18n;
pub mod ids;
mod lobby_sync;
pub mod outbox;
pub mod picker;
pub mod replay;
pub mod rest;
pub mod scheduler;
pub mod shards;
mod snowflakes;
mod turn;
pub mod types;
pub mod views;

use crate::id::ChannelId;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serenity::all::{FullEvent, GatewayIntents, GuildId, HttpBuilder, Interaction};
use tokio::sync::watch;

pub use config::{Config, ConfigError};
use errors::{BotError, Permission};
use rest::Rest;
use types::Data;

use crate::game::{Clock, Database, GameService};
use crate::store::lock::{DatabaseLock, LockError};
use crate::store::postgres::{Kept, ShardLock, ShardRefusal, Shards};
use shards::ShardRange;

/// Everything the bot needs to start.
pub struct Launch {
    pub config: Config,
    /// The service's clock (tests use a manual one and never wait for real time).
    pub clock: Arc<dyn Clock>,
    /// The HTTP client (tests pass one that cannot reach the internet); default: a new one.
    pub client: Option<reqwest::Client>,
}

/// Why the bot could not start: one line saying what to do.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0}")]
    Config(#[from] ConfigError),
    #[error(
        "cannot open the database {path}: {why} (check DATABASE_PATH in .env and that the \
         folder exists and is writable)"
    )]
    Database { path: String, why: String },
    #[error("cannot use the PostgreSQL database of DATABASE_URL: {0}")]
    Server(String),
    #[error("cannot run {shards} on the PostgreSQL database {database}: {why}")]
    ShardsTaken {
        shards: String,
        database: String,
        why: ShardRefusal,
    },
    #[error(
        "stopped: {shards} on the PostgreSQL database {database} can no longer be kept as \
         this process's alone ({why}); start it again once the server answers and no other \
         process runs them"
    )]
    ShardsLost {
        shards: String,
        database: String,
        why: ShardRefusal,
    },
    #[error(
        "Discord rejected the token (401 Unauthorized): check DISCORD_TOKEN in .env; the \
         developer portal → your application → Bot → Reset Token gives a new one"
    )]
    TokenRejected,
    #[error("cannot reach Discord at {url}: {why}")]
    Unreachable { url: String, why: String },
    #[error("Discord refused to start the bot: {0}")]
    Discord(String),
    #[error("{0}")]
    Locked(crate::store::lock::LockError),
}

/// A started bot.
pub struct RunningBot {
    /// The link that adds the bot to a server, with the permissions it needs.
    pub invite_url: String,
    data: Data,
    stop: watch::Sender<bool>,
    shards: Arc<serenity::all::ShardManager>,
    tasks: tokio::task::JoinSet<()>,
}

/// Every permission the bot asks for, as Discord's bit field.
pub fn permissions() -> u64 {
    Permission::ALL
        .iter()
        .map(|p| p.bit())
        .fold(0, |a, b| a | b)
}

/// The link that invites the bot: both scopes it needs, the permissions of
/// [`Permission::ALL`], and nothing privileged.
pub fn invite_url(application: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={application}&scope=bot%20applications.commands&permissions={}",
        permissions()
    )
}

impl RunningBot {
    /// Tells the sender and the scheduler to look for work now (tests call this after moving
    /// their manual clock).
    pub fn wake(&self) {
        self.data.wake();
    }

    /// What the latest button presses and menu choices cost, oldest first.
    pub fn press_costs(&self) -> Vec<cost::PressCost> {
        self.data.press_costs.recent()
    }

    /// The game service the bot runs on.
    pub fn service(&self) -> &GameService {
        &self.data.service
    }

    /// Stops: no new interactions or game actions are taken, what is in flight finishes,
    /// the gateway is closed.
    pub async fn stop(mut self) {
        self.data.closing.store(true, Ordering::SeqCst);
        let _ = self.stop.send(true);
        // Background tasks finish their current delivery or firing, then return.
        let drain = async { while self.tasks.join_next().await.is_some() {} };
        if tokio::time::timeout(Duration::from_secs(20), drain)
            .await
            .is_err()
        {
            tracing::warn!("background tasks did not finish in time");
        }
        self.data.wait_idle(Duration::from_secs(10)).await;
        // serenity waits up to 5 s a shard for the gateway to answer its close frame; one that
        // does not answer (a session another process took over) must not hold the stop up.
        if tokio::time::timeout(SHARDS_CLOSE, self.shards.shutdown_all())
            .await
            .is_err()
        {
            tracing::info!("the gateway did not answer the close in time; stopping anyway");
        }
    }

    /// Stops at once, as a crash would (for tests of what survives one).
    pub fn abort(mut self) {
        self.tasks.abort_all();
    }
}

/// How long a stop waits for the gateway to acknowledge the shards' close.
const SHARDS_CLOSE: Duration = Duration::from_millis(800);

/// Starts the bot; returns once it is connecting. See [`RunningBot::stop`].
pub async fn start(launch: Launch) -> Result<RunningBot, StartError> {
    let config = launch.config;
    // On the blocking pool, as every service call: PostgreSQL's synchronous client may not
    // block an async thread.
    let (database, durability, clock) = (config.database.clone(), config.durability, launch.clock);
    let lease = config.lease;
    let opened = tokio::task::spawn_blocking(move || {
        GameService::open(&database, durability, clock).map(|s| s.with_lease(lease))
    })
    .await
    .map_err(|e| StartError::Database {
        path: config.database.shown(),
        why: format!("opening it panicked: {e}"),
    })?;
    let service = opened.map_err(|e| match &config.database {
        Database::File(path) => StartError::Database {
            path: path.display().to_string(),
            why: e.to_string(),
        },
        // The store's error already names the server (without its password).
        Database::Server(_) => StartError::Server(e.to_string()),
    })?;
    let service = Arc::new(service);
    let client = match launch.client {
        Some(client) => client,
        None => reqwest::Client::builder()
            .pool_max_idle_per_host(IDLE_CONNECTIONS)
            // A request that hangs would hold one of the sender's few slots for good; the
            // sender retries it like any unavailable answer.
            .timeout(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| StartError::Discord(format!("cannot set up HTTP: {e}")))?,
    };
    let mut builder = HttpBuilder::new(&config.token).client(client.clone());
    if let Some(url) = &config.api_url {
        // serenity's own rate limiter would talk to discord.com whatever the base URL; with
        // another server the bot reads its rate limits itself (see `rest`).
        builder = builder.proxy(url.clone()).ratelimiter_disabled(true);
    }
    let http = builder.build();
    let api = config
        .api_url
        .clone()
        .unwrap_or_else(|| "https://discord.com".into());
    let app = match http.get_current_application_info().await {
        Ok(app) => app,
        Err(e) => return Err(classify_start_error(e, &api)),
    };
    http.set_application_id(app.id);
    let rest = Arc::new(Rest::new(client, &config.token, config.api_url.clone()));
    let closing = Arc::new(AtomicBool::new(false));
    let data = Data::new(service, rest, closing);
    data.load_languages().await;

    let setup_data = data.clone();
    let dev_guild = config.dev_guild;
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        on_error: |error| Box::pin(on_error(error)),
        event_handler: |framework, event| {
            Box::pin(on_event(
                framework.serenity_context,
                event,
                framework.user_data,
            ))
        },
        command_check: Some(|ctx| {
            Box::pin(async move { Ok(!ctx.data().closing.load(Ordering::SeqCst)) })
        }),
        initialize_owners: false,
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                match dev_guild {
                    Some(guild) => {
                        poise::builtins::register_in_guild(ctx, commands, GuildId::new(guild))
                            .await?
                    }
                    None => poise::builtins::register_globally(ctx, commands).await?,
                }
                tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected");
                Ok(setup_data)
            })
        })
        .build();
    let mut client = serenity::all::ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .map_err(|e| StartError::Discord(e.to_string()))?;
    let shard_manager = Arc::clone(&client.shard_manager);
    let (stop, stopped) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    tasks.spawn(outbox::run(data.clone(), stopped.clone()));
    tasks.spawn(scheduler::run(data.clone(), stopped));
    let shards = match config.shards {
        Some(range) => range,
        // Every shard, as many as Discord recommends for the bot's servers.
        None => match client.http.get_bot_gateway().await {
            Ok(gateway) => ShardRange::all(gateway.shards),
            Err(e) => return Err(classify_start_error(e, &api)),
        },
    };
    tracing::info!(%shards, "starting the gateway shards");
    tokio::spawn(async move {
        // serenity's "range" ends at its last shard, included.
        let started = client
            .start_shard_range(shards.first..shards.last, shards.total)
            .await;
        if let Err(e) = started {
            tracing::error!(error = %e, "the gateway connection ended");
        }
    });
    Ok(RunningBot {
        invite_url: invite_url(app.id.get()),
        data,
        stop,
        shards: shard_manager,
        tasks,
    })
}

/// A failed first call to Discord, in words.
fn classify_start_error(e: serenity::Error, url: &str) -> StartError {
    match &e {
        serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(r))
            if r.status_code.as_u16() == 401 =>
        {
            StartError::TokenRejected
        }
        serenity::Error::Http(serenity::all::HttpError::Request(_)) => StartError::Unreachable {
            url: url.to_string(),
            why: e.to_string(),
        },
        _ => StartError::Discord(e.to_string()),
    }
}

/// Runs the bot on a new tokio runtime until Ctrl-C or SIGTERM (for `jackal run`).
pub fn run_blocking(launch: Launch) -> Result<(), StartError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(BLOCKING_THREADS)
        .build()
        .map_err(|e| StartError::Discord(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(run(launch))
}

/// Idle HTTP connections kept to Discord (each for hyper's 90 s idle timeout). A hundred
/// players pressing at once need a hundred answers at once: a connection kept from the last
/// busy moment answers at once, a new one first needs its TCP and TLS handshakes. Beyond
/// these, a spike's extra connections are closed after it.
const IDLE_CONNECTIONS: usize = 128;
const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Threads for blocking work: service calls (SQLite) and renders. Tokio's default (512) lets
/// a burst (a thousand games' outbox rows after a restart) start hundreds of threads, each
/// with its own database connection and allocator arena: hundreds of MiB for no speed, as
/// SQLite takes one writer at a time and renders are bounded by the cores anyway. Excess calls
/// wait their turn in tokio's queue.
const BLOCKING_THREADS: usize = 16;

/// Runs the bot until Ctrl-C or SIGTERM, then stops it cleanly.
pub async fn run(launch: Launch) -> Result<(), StartError> {
    // Each shard is run by one process, for this process's whole life: on a file, one process
    // runs them all; on a server, processes with ranges that do not overlap share the
    // database (and its timers and posts, by leases). Taken before anything is opened or
    // asked of Discord.
    let (_file_lock, _server_lock) = match &launch.config.database {
        Database::File(database) => {
            let lock = DatabaseLock::acquire(database).map_err(|e| match e {
                LockError::Held { .. } => StartError::Locked(e),
                LockError::Io { source, .. } => StartError::Database {
                    path: database.display().to_string(),
                    why: source.to_string(),
                },
            })?;
            (Some(lock), None)
        }
        Database::Server(url) => {
            let (url, range) = (url.clone(), launch.config.shards);
            let shards = match range {
                Some(r) if !r.is_whole() => Shards::Part {
                    first: r.first,
                    last: r.last,
                    total: r.total,
                },
                _ => Shards::Whole,
            };
            let taken = tokio::task::spawn_blocking(move || ShardLock::acquire(&url, shards))
                .await
                .map_err(|e| StartError::Server(format!("taking its lock panicked: {e}")))?;
            match taken {
                Ok(Ok(lock)) => (None, Some(lock)),
                Ok(Err(why)) => {
                    return Err(StartError::ShardsTaken {
                        shards: shards_named(range),
                        database: launch.config.database.shown(),
                        why,
                    });
                }
                Err(e) => return Err(StartError::Server(e.to_string())),
            }
        }
    };
    let (shards, database) = (launch.config.shards, launch.config.database.shown());
    let lease = launch.config.lease;
    let bot = start(launch).await?;
    println!("Invite the bot to a server with: {}", bot.invite_url);
    println!("Jackal is running; stop it with Ctrl-C.");
    let lost = tokio::select! {
        _ = shutdown_signal() => None,
        why = keep_shards(_server_lock, lease) => Some(why),
    };
    println!("Stopping: finishing what is in flight…");
    bot.stop().await;
    match lost {
        None => Ok(()),
        Some(why) => Err(StartError::ShardsLost {
            shards: shards_named(shards),
            database,
            why,
        }),
    }
}

/// The shards a process runs, as its configuration says them, for messages.
fn shards_named(range: Option<ShardRange>) -> String {
    match range {
        Some(range) => format!("SHARDS={range}"),
        None => "every shard (SHARDS is not set)".into(),
    }
}

/// How often a process checks that it still holds its shards on a shared database (more
/// often with a work lease under 20 s: four checks a lease).
const KEEP_SHARDS: Duration = Duration::from_secs(5);

/// Keeps this process's shard locks for as long as it runs (never returns without a server
/// lock): a server restart ends every session and the locks with it, so they are taken again
/// on a new connection. Returns when another process took some of them meanwhile (it started
/// while the server had forgotten them): this one must stop, as it would have been refused.
///
/// Also when the locks cannot be confirmed for `patience` (the work lease): the server may
/// have ended the session, and another process may run these shards by now, as it may take
/// over this one's claimed work once the lease has passed. The process stops, for its
/// supervisor to start it again.
async fn keep_shards(lock: Option<ShardLock>, patience: Duration) -> ShardRefusal {
    let Some(mut lock) = lock else {
        return std::future::pending().await;
    };
    let every = KEEP_SHARDS.min(patience / 4);
    let mut confirmed = tokio::time::Instant::now();
    loop {
        tokio::time::sleep(every).await;
        let check = tokio::task::spawn_blocking(move || {
            let kept = lock.keep();
            (lock, kept)
        });
        // A check that hangs (a connection that neither answers nor fails) may not keep the
        // process running past its patience: it stops, and the check is left to end alone.
        let left = patience.saturating_sub(confirmed.elapsed()).max(every);
        let Ok(kept) = tokio::time::timeout(left, check).await else {
            tracing::error!("checking the shard locks did not end in time; stopping");
            return ShardRefusal::Unconfirmed {
                secs: patience.as_secs(),
            };
        };
        let Ok((returned, kept)) = kept else {
            tracing::error!("checking the shard locks panicked; stopping");
            return ShardRefusal::Unconfirmed {
                secs: patience.as_secs(),
            };
        };
        lock = returned;
        match kept {
            Ok(Ok(Kept::Held)) => confirmed = tokio::time::Instant::now(),
            Ok(Ok(Kept::Retaken)) => {
                confirmed = tokio::time::Instant::now();
                tracing::warn!(
                    "the database's connection was lost; its shard locks are taken again"
                )
            }
            Ok(Err(why)) => {
                tracing::error!(%why, "another process took this process's shards; stopping");
                return why;
            }
            Err(e) if confirmed.elapsed() < patience => {
                tracing::warn!(error = %e, "the shard locks cannot be checked now");
            }
            Err(e) => {
                tracing::error!(error = %e, "the shard locks could not be confirmed; stopping");
                return ShardRefusal::Unconfirmed {
                    secs: patience.as_secs(),
                };
            }
        }
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Gateway events besides commands: buttons and menus, and deleted threads.
async fn on_event(
    ctx: &serenity::all::Context,
    event: &FullEvent,
    data: &Data,
) -> Result<(), BotError> {
    match event {
        FullEvent::InteractionCreate { interaction } => {
            if let Interaction::Component(c) = interaction {
                // While stopping, presses are still answered: reads work, and a change is
                // refused with "restarting, try again in a minute" (`Data::change`).
                components::handle(ctx, c, data).await;
            }
            // After the answer: what the player's client speaks, for their DMs later.
            let seen = match interaction {
                Interaction::Command(c) | Interaction::Autocomplete(c) => {
                    Some((c.user.id, c.locale.as_str()))
                }
                Interaction::Component(c) => Some((c.user.id, c.locale.as_str())),
                Interaction::Modal(m) => Some((m.user.id, m.locale.as_str())),
                _ => None,
            };
            if let Some((user, locale)) = seen {
                data.note_locale(user.into(), locale);
            }
        }
        FullEvent::ThreadDelete { thread, .. } => archive_games_in(data, thread.id.into()).await,
        FullEvent::ChannelDelete { channel, .. } => archive_games_in(data, channel.id.into()).await,
        _ => {}
    }
    Ok(())
}

/// The games played in a deleted channel or thread are archived where they stood.
async fn archive_games_in(data: &Data, channel: ChannelId) {
    let archived = data
        .call(move |s| {
            let mut n = 0;
            for game in s.games_played_in(channel)? {
                if s.thread_deleted(game)? {
                    n += 1;
                }
            }
            Ok(n)
        })
        .await;
    match archived {
        Ok(0) => {}
        Ok(n) => {
            tracing::info!(
                %channel,
                games = n,
                "games archived: their thread was deleted"
            );
            data.wake();
        }
        Err(e) => {
            tracing::error!(%channel, error = %e, "could not archive a deleted thread's games")
        }
    }
}

/// The one error handler: every refusal becomes a private, localised answer.
async fn on_error(error: poise::FrameworkError<'_, Data, BotError>) {
    use poise::FrameworkError as F;
    let (ctx, problem) = match error {
        F::Command { error, ctx, .. } => {
            if !error.is_refusal() {
                tracing::error!(command = %ctx.command().qualified_name, %error, "a command failed");
            }
            (ctx, error)
        }
        F::ArgumentParse {
            ctx, input, error, ..
        } => {
            tracing::debug!(?input, %error, "an option could not be read");
            (ctx, BotError::BadOption)
        }
        F::GuildOnly { ctx, .. } => (ctx, BotError::NotInServer),
        F::CommandCheckFailed { ctx, .. } => (ctx, BotError::Closing),
        // A defect: logged, and the user gets the apology in their language rather than
        // poise's English embed.
        F::CommandPanic { payload, ctx, .. } => {
            tracing::error!(
                command = %ctx.command().qualified_name,
                payload = payload.as_deref().unwrap_or("?"),
                "a command panicked"
            );
            (ctx, BotError::Internal("a command panicked".into()))
        }
        // `/jackal` alone: Discord's client does not send it, a forged request may.
        F::SubcommandRequired { ctx } => (ctx, BotError::BadOption),
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %e, "the error handler failed");
            }
            return;
        }
    };
    let lang = ctx
        .data()
        .lang_for(
            crate::id::UserId::from(ctx.author().id),
            ctx.guild_id().map(crate::id::GuildId::from),
            ctx.locale(),
        )
        .await;
    let text = problem.user_text(lang);
    let reply = poise::CreateReply::default().content(text).ephemeral(true);
    if let Err(e) = ctx.send(reply).await {
        tracing::warn!(error = %e, "could not tell a user why their command was refused");
    }
}
