//! A minimal poise bot (no game) that exercises every path of the fake: a slash command
//! with a PNG, DMs (also to a user with DMs closed), buttons, a select menu, a modal,
//! autocomplete, subcommands, a deferred reply, threads, a rate-limited post, a late
//! answer, a double answer and an admin-only command. It is built exactly as the real bot
//! will be, except that its `Http` comes from `FakeDiscord::bot_http`.
//!
//! Each bot runs like a process of its own: on its own thread and tokio runtime, so that
//! dropping it kills it the way a crash would — every task gone, its sockets closed without a
//! word. (Aborting a task running `Client::start` would not: serenity's shard runner is a task
//! of its own and would stay connected.)

use std::sync::{Arc, Mutex};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{
    ChannelType, ComponentInteraction, ComponentInteractionDataKind, CreateActionRow,
    CreateAttachment, CreateButton, CreateEmbed, CreateInteractionResponse,
    CreateInteractionResponseMessage, CreateMessage, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption, CreateThread, FullEvent, Interaction, Mentionable,
};

use fake_discord::FakeDiscord;

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

/// How long `/late` waits before answering; tests set a shorter deadline than this.
pub const LATE_DELAY: Duration = Duration::from_millis(600);

/// A 1×1 PNG. `/board` pads it past axum's default 2 MB body limit (readers ignore bytes
/// after IEND) so the upload path is tested with a realistically large request.
pub const TINY_PNG: [u8; 67] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];

pub fn board_png() -> Vec<u8> {
    let mut png = TINY_PNG.to_vec();
    png.resize(3 * 1024 * 1024, 0);
    png
}

/// What the bot noticed going wrong, for tests to assert on (e.g. the 10062 of a late reply).
pub struct Data {
    errors: Arc<Mutex<Vec<String>>>,
}

impl Data {
    fn note(&self, what: String) {
        self.errors.lock().expect("errors lock").push(what);
    }
}

/// The Discord error code of a failed API call, if it was one.
pub fn discord_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)) => {
            Some(response.error.code)
        }
        _ => None,
    }
}

fn is_rate_limited(error: &serenity::Error) -> bool {
    matches!(error, serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) if r.status_code.as_u16() == 429)
}

/// Replies "pong".
#[poise::command(slash_command)]
async fn ping(ctx: Context<'_>) -> Result<(), Error> {
    ctx.say("pong").await?;
    Ok(())
}

/// Posts a board picture with buttons and a select menu.
#[poise::command(slash_command)]
async fn board(ctx: Context<'_>) -> Result<(), Error> {
    let buttons = CreateActionRow::Buttons(vec![
        CreateButton::new("roll").label("Roll"),
        CreateButton::new("rename").label("Rename"),
    ]);
    let options = ["red", "blue"]
        .map(|c| CreateSelectMenuOption::new(c, c))
        .to_vec();
    let select = CreateActionRow::SelectMenu(CreateSelectMenu::new(
        "pick",
        CreateSelectMenuKind::String { options },
    ));
    let reply = poise::CreateReply::default()
        .content("The board")
        .attachment(CreateAttachment::bytes(board_png(), "board.png"))
        .embed(
            CreateEmbed::new()
                .title("Board")
                .image("attachment://board.png"),
        )
        .components(vec![buttons, select]);
    ctx.send(reply).await?;
    Ok(())
}

/// DMs you (or someone else).
#[poise::command(slash_command)]
async fn dm(
    ctx: Context<'_>,
    #[description = "who to DM"] whom: Option<serenity::User>,
) -> Result<(), Error> {
    let target = whom.unwrap_or_else(|| ctx.author().clone());
    let text = match target
        .direct_message(ctx, CreateMessage::new().content("Ahoy, in private"))
        .await
    {
        Ok(_) => "Sent a DM".to_string(),
        Err(e) if discord_code(&e) == Some(50007) => {
            format!("{} does not accept DMs", target.mention())
        }
        Err(e) => return Err(e.into()),
    };
    ctx.send(poise::CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// Thinks for a while before answering.
#[poise::command(slash_command)]
async fn slow(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer().await?;
    tokio::time::sleep(Duration::from_millis(150)).await;
    ctx.say("Done thinking").await?;
    Ok(())
}

/// Answers after the deadline.
#[poise::command(slash_command)]
async fn late(ctx: Context<'_>) -> Result<(), Error> {
    tokio::time::sleep(LATE_DELAY).await;
    ctx.say("Sorry I'm late").await?;
    Ok(())
}

/// Answers the same interaction twice.
#[poise::command(slash_command)]
async fn twice(ctx: poise::ApplicationContext<'_, Data, Error>) -> Result<(), Error> {
    let answer = |text: &str| {
        CreateInteractionResponse::Message(CreateInteractionResponseMessage::new().content(text))
    };
    ctx.interaction
        .create_response(ctx, answer("first"))
        .await?;
    if let Err(e) = ctx.interaction.create_response(ctx, answer("second")).await {
        ctx.data().note(format!(
            "twice: second response refused with {:?}",
            discord_code(&e)
        ));
    }
    Ok(())
}

/// Posts in the channel, retrying when rate limited.
#[poise::command(slash_command)]
async fn announce(
    ctx: Context<'_>,
    #[description = "what to say"] text: String,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let mut attempt = 0;
    loop {
        match ctx.channel_id().say(ctx, &text).await {
            Err(e) if is_rate_limited(&e) && attempt < 3 => {
                attempt += 1;
                ctx.data().note("announce: rate limited".into());
                tokio::time::sleep(Duration::from_millis(50 * attempt)).await;
            }
            Err(e) => return Err(e.into()),
            Ok(_) => break,
        }
    }
    ctx.say("Announced").await?;
    Ok(())
}

/// Opens a public thread on its reply and a private thread for you.
#[poise::command(slash_command)]
async fn threads(ctx: Context<'_>) -> Result<(), Error> {
    let reply = ctx.say("Threads below").await?.into_message().await?;
    let public = ctx
        .channel_id()
        .create_thread_from_message(ctx, reply.id, CreateThread::new("game-1"))
        .await?;
    public.say(ctx, "Welcome aboard").await?;
    let private = ctx
        .channel_id()
        .create_thread(
            ctx,
            CreateThread::new("secret").kind(ChannelType::PrivateThread),
        )
        .await?;
    private.id.add_thread_member(ctx, ctx.author().id).await?;
    private.say(ctx, "Only for you").await?;
    Ok(())
}

/// Server settings, for members who may manage the server.
#[poise::command(
    slash_command,
    default_member_permissions = "MANAGE_GUILD",
    required_permissions = "MANAGE_GUILD"
)]
async fn setup(ctx: Context<'_>) -> Result<(), Error> {
    ctx.say("Configured").await?;
    Ok(())
}

/// Game commands.
#[poise::command(slash_command, subcommands("new", "join"))]
async fn game(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Starts a game.
#[poise::command(slash_command)]
async fn new(
    ctx: Context<'_>,
    #[description = "board size"]
    #[min = 5]
    #[max = 13]
    size: i64,
    #[description = "open to anyone"] public: Option<bool>,
) -> Result<(), Error> {
    ctx.say(format!(
        "New game {size}x{size}, public: {}",
        public.unwrap_or(false)
    ))
    .await?;
    Ok(())
}

async fn open_games(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let choices = ["alpha", "beta", "bravo"]
        .into_iter()
        .filter(|g| g.starts_with(partial))
        .map(serenity::AutocompleteChoice::from)
        .collect();
    serenity::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Joins a game.
#[poise::command(slash_command)]
async fn join(
    ctx: Context<'_>,
    #[description = "which game"]
    #[autocomplete = "open_games"]
    name: String,
) -> Result<(), Error> {
    ctx.say(format!("Joined {name}")).await?;
    Ok(())
}

#[derive(Debug, poise::Modal)]
#[name = "Rename the board"]
struct Rename {
    #[name = "New name"]
    title: String,
}

async fn on_component(ctx: &serenity::Context, c: &ComponentInteraction) -> Result<(), Error> {
    match (c.data.custom_id.as_str(), &c.data.kind) {
        ("roll", _) => {
            let update = CreateInteractionResponseMessage::new().content("Rolled a 6");
            c.create_response(ctx, CreateInteractionResponse::UpdateMessage(update))
                .await?;
        }
        ("pick", ComponentInteractionDataKind::StringSelect { values }) => {
            let reply = CreateInteractionResponseMessage::new()
                .content(format!("You picked {}", values.join(", ")));
            c.create_response(ctx, CreateInteractionResponse::Message(reply))
                .await?;
        }
        ("rename", _) => {
            let modal = poise::execute_modal_on_component_interaction::<Rename>(
                ctx,
                c.clone(),
                None,
                Some(Duration::from_secs(5)),
            );
            if let Some(Rename { title }) = modal.await? {
                c.channel_id.say(ctx, format!("Renamed to {title}")).await?;
            }
        }
        (other, _) => return Err(format!("unexpected component {other}").into()),
    }
    Ok(())
}

/// The running bot; the errors it noticed are shared with the test. Dropping it kills it.
pub struct Bot {
    pub errors: Arc<Mutex<Vec<String>>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Bot {
    pub fn errors(&self) -> Vec<String> {
        self.errors.lock().expect("errors lock").clone()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

pub const COMMANDS: [&str; 10] = [
    "ping", "board", "dm", "slow", "late", "twice", "announce", "threads", "setup", "game",
];

/// Starts a bot against `fake` and waits until it has identified on the gateway and
/// registered its commands — also when an earlier bot already did both on this fake.
pub async fn start(fake: &FakeDiscord) -> Bot {
    let identified = fake.identify_count();
    let registrations = |f: &FakeDiscord| {
        f.rest_log()
            .iter()
            .filter(|e| e.method == "PUT" && e.path.ends_with("/commands") && e.status == 200)
            .count()
    };
    let registered = registrations(fake);
    let errors = Arc::new(Mutex::new(Vec::new()));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let http = fake.bot_http();
    let bot_errors = Arc::clone(&errors);
    let thread = std::thread::Builder::new()
        .name("minimal-bot".into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("the bot's runtime");
            runtime.block_on(async move {
                let mut client = client(http, Arc::clone(&bot_errors)).await;
                tokio::select! {
                    result = client.start() => if let Err(e) = result {
                        bot_errors.lock().expect("errors lock").push(format!("bot stopped: {e}"));
                    },
                    _ = stopped => {}
                }
            });
            // Like the end of a process: every task is dropped where it stands.
            runtime.shutdown_timeout(Duration::from_secs(1));
        })
        .expect("start the bot's thread");
    fake.wait_identified(identified + 1).await;
    fake.wait_for("the bot to register its commands", |f| {
        (registrations(f) > registered).then_some(())
    })
    .await;
    fake.wait_commands(&COMMANDS).await;
    Bot {
        errors,
        stop: Some(stop),
        thread: Some(thread),
    }
}

async fn client(http: serenity::Http, errors: Arc<Mutex<Vec<String>>>) -> serenity::Client {
    let options = poise::FrameworkOptions {
        commands: vec![
            ping(),
            board(),
            dm(),
            slow(),
            late(),
            twice(),
            announce(),
            threads(),
            setup(),
            game(),
        ],
        on_error: |error| {
            Box::pin(async move {
                let text = match &error {
                    poise::FrameworkError::Command { error, ctx, .. } => {
                        format!("{}: {error}", ctx.command().name)
                    }
                    poise::FrameworkError::EventHandler { error, .. } => format!("event: {error}"),
                    other => format!("framework: {other}"),
                };
                if let Some(data) = error.ctx().map(|c| c.data()) {
                    data.note(text);
                } else if let poise::FrameworkError::EventHandler { framework, .. } = &error {
                    framework.user_data().await.note(text);
                }
            })
        },
        event_handler: |framework, event| {
            Box::pin(async move {
                if let FullEvent::InteractionCreate {
                    interaction: Interaction::Component(c),
                } = event
                {
                    on_component(framework.serenity_context, c).await?;
                }
                Ok(())
            })
        },
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                poise::builtins::register_globally(ctx, &framework.options().commands).await?;
                Ok(Data { errors })
            })
        })
        .build();
    let intents = serenity::GatewayIntents::non_privileged();
    serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await
        .expect("build the serenity client")
}
