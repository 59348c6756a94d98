//! The real bot against the fake Discord: each test starts a fake, a database file, a manual
#![allow(dead_code)] // each test module uses its own part of the harness
//! clock and the bot (`jackal::discord::start`) on its own thread and tokio runtime, so that
//! killing it drops everything it runs, as a crash would.

use jackal::id::GameId;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use jackal::discord::cost::PressCost;
use jackal::discord::{Config, Launch};
use jackal::game::{Clock, GameService, GameView, ManualClock};
use jackal::store::{Durability, Store};
use serde_json::Value;
use serenity::all::{ChannelId, MessageId, UserId};

use fake_discord::{self, FakeDiscord, InteractionHandle, Message, OptionValue};

/// 2026-12-01 12:00 UTC: a fixed start for the manual clock.
pub const START_MS: i64 = 1_795_003_200_000;
pub const HOUR: i64 = 3_600_000;

enum Command {
    Wake,
    Stop(mpsc::Sender<()>),
    PressCosts(tokio::sync::oneshot::Sender<Vec<PressCost>>),
}

/// The bot, running on its own thread.
pub struct BotThread {
    commands: tokio::sync::mpsc::UnboundedSender<Command>,
    thread: Option<std::thread::JoinHandle<()>>,
    pub invite_url: String,
}

impl BotThread {
    /// Looks for due timers and unsent messages now (after moving the clock).
    pub fn wake(&self) {
        let _ = self.commands.send(Command::Wake);
    }

    /// Stops cleanly and waits for it.
    pub fn stop(mut self) {
        let (done, wait) = mpsc::channel();
        if self.commands.send(Command::Stop(done)).is_ok() {
            let _ = wait.recv_timeout(Duration::from_secs(30));
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Kills it: its runtime is dropped mid-flight, tasks and connections with it.
    pub fn kill(mut self) {
        // Replacing the only sender ends the command loop, which drops the runtime.
        let (commands, _) = tokio::sync::mpsc::unbounded_channel();
        self.commands = commands;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for BotThread {
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            let (commands, _) = tokio::sync::mpsc::unbounded_channel();
            self.commands = commands;
            let _ = t.join();
        }
    }
}

pub struct Harness {
    pub fake: FakeDiscord,
    pub clock: Arc<ManualClock>,
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    pub bot: Option<BotThread>,
    /// The test's own view of the database (a second connection, as an operator's would be).
    pub service: GameService,
}

impl Harness {
    /// A fake Discord and the bot connected to it, its commands registered.
    pub async fn start() -> Harness {
        Harness::start_with(fake_discord::Config::default()).await
    }

    pub async fn start_with(config: fake_discord::Config) -> Harness {
        let fake = FakeDiscord::start_with(config).await;
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("jackal.db");
        let clock = Arc::new(ManualClock::new(START_MS));
        let store = Store::open_with(&db, Durability::Normal).expect("open the database");
        let service = GameService::new(Arc::new(store), clock.clone() as Arc<dyn Clock>);
        let mut h = Harness {
            fake,
            clock,
            dir,
            db,
            bot: None,
            service,
        };
        h.start_bot().await;
        h
    }

    /// Starts a bot (again) on the same database, and waits until it is connected.
    pub async fn start_bot(&mut self) {
        let identified = self.fake.identify_count();
        let config = Config {
            token: fake_discord::BOT_TOKEN.into(),
            database: jackal::store::Database::File(self.db.clone()),
            durability: Durability::Normal,
            dev_guild: None,
            api_url: Some(self.fake.base_url()),
            shards: None,
            lease: jackal::game::worker::DEFAULT_LEASE,
        };
        let clock = self.clock.clone() as Arc<dyn Clock>;
        let (commands, mut inbox) = tokio::sync::mpsc::unbounded_channel::<Command>();
        let (ready_tx, ready_rx) = mpsc::channel::<String>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("bot runtime");
            runtime.block_on(async move {
                let launch = Launch {
                    config,
                    clock,
                    client: Some(fake_discord::guarded_reqwest_client()),
                };
                let bot = jackal::discord::start(launch)
                    .await
                    .expect("the bot starts");
                let _ = ready_tx.send(bot.invite_url.clone());
                while let Some(command) = inbox.recv().await {
                    match command {
                        Command::Wake => bot.wake(),
                        Command::PressCosts(reply) => {
                            let _ = reply.send(bot.press_costs());
                        }
                        Command::Stop(done) => {
                            bot.stop().await;
                            let _ = done.send(());
                            return;
                        }
                    }
                }
                // The harness let go of the bot without stopping it: a crash.
                bot.abort();
            });
            // Dropping the runtime here cancels every task it still runs.
        });
        let invite_url = ready_rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the bot started");
        self.bot = Some(BotThread {
            commands,
            thread: Some(thread),
            invite_url,
        });
        self.fake.wait_identified(identified + 1).await;
        self.fake.wait_commands(&["jackal"]).await;
    }

    /// What the bot's latest button presses and menu choices cost in service calls.
    pub async fn press_costs(&self) -> Vec<PressCost> {
        let (reply, costs) = tokio::sync::oneshot::channel();
        self.bot()
            .commands
            .send(Command::PressCosts(reply))
            .expect("the bot runs");
        costs.await.expect("the bot answers")
    }

    pub fn bot(&self) -> &BotThread {
        self.bot.as_ref().expect("the bot runs")
    }

    /// Moves the manual clock and lets the bot fire what came due.
    pub fn advance(&self, ms: i64) {
        self.clock.advance_ms(ms);
        self.bot().wake();
    }

    pub fn load(&self, game: GameId) -> GameView {
        self.service.game(game).expect("the game loads")
    }

    /// The number players see on the post of the move that ended at `ply` (a move through a
    /// choice is several plies and one number).
    pub fn move_number(&self, game: GameId, ply: u32) -> u32 {
        self.service
            .moves_complete_at(game, ply)
            .expect("the count")
    }

    /// The number of the move to be played from the position after `ply` (a prompt's).
    pub fn next_move_number(&self, game: GameId, ply: u32) -> u32 {
        self.move_number(game, ply) + 1
    }

    /// The last ply of the move that `ply` belongs to (a move that stopped for choices ends
    /// at its last answer).
    pub fn move_end_at_or_after(&self, game: GameId, ply: u32) -> u32 {
        let last = self.load(game).ply;
        (ply..=last)
            .find(|&p| {
                let position = self.service.position_at(game, p).expect("the position");
                position.pending_kind().is_none()
            })
            .unwrap_or(last)
    }

    /// The game played in a thread.
    pub fn game_in(&self, thread: ChannelId) -> GameId {
        // Any status: a game over (a bot may end a duel while the test reads its posts) is
        // still the game of its thread, though the bot no longer looks for it there.
        let conn = self.service.store().conn().expect("a connection");
        jackal::store::all_game_ids(&conn)
            .expect("the games")
            .into_iter()
            .find(|&id| {
                jackal::store::get_game(&conn, id)
                    .expect("a game")
                    .is_some_and(|g| g.thread_id == Some(thread.into()))
            })
            .expect("a game played in the thread")
    }

    /// `/jackal <sub>` with options.
    pub async fn jackal(
        &self,
        user: UserId,
        channel: ChannelId,
        sub: &str,
        options: &[(&str, OptionValue)],
    ) -> InteractionHandle {
        self.fake
            .slash(user, channel, &format!("jackal {sub}"), options)
            .await
    }

    /// The visible reply to an interaction.
    pub async fn reply(&self, ix: &InteractionHandle) -> Message {
        self.fake.reply(ix).await
    }

    /// Waits until a message differs from `before` (an edit in place).
    pub async fn changed(&self, before: &Message) -> Message {
        let id = before.id;
        let (content, components) = (before.content.clone(), before.components.clone());
        self.fake
            .wait_for(&format!("message {id} to change"), |f| {
                f.message(id)
                    .filter(|m| m.content != content || m.components != components)
            })
            .await
    }
}

impl Drop for Harness {
    /// A failing test tells what its games were: status, seed (to replay the map), ply, the
    /// pending choice and every action with who played it.
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        for id in (1..).map_while(GameId::new) {
            let Ok(loaded) = self.service.game(id) else {
                break;
            };
            let row = &loaded;
            let state = loaded.state.as_ref();
            eprintln!(
                "game #{id}: {:?} seed {:?} ply {} result {:?} thread {:?} lobby message {:?}; \
                 commanded by team {:?}, pending {:?}",
                row.status,
                row.seed,
                row.ply,
                row.end,
                row.thread_id,
                row.lobby_message_id,
                state.map(|g| g.controller().number()),
                state.and_then(|g| g.pending_kind()),
            );
            for a in self.service.history(id).unwrap_or_default() {
                eprintln!(
                    "  ply {} team {} user {:?}: {}",
                    a.ply, a.team, a.user_id, a.notation
                );
            }
        }
    }
}

/// The game id on a lobby message's buttons.
pub fn game_of(message: &Message) -> GameId {
    message
        .custom_ids()
        .iter()
        .find_map(|id| {
            id.strip_prefix("jk1:lobby:")?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no lobby buttons on {:?}", message.custom_ids()))
}

/// The one custom id on a message that starts with `prefix`.
pub fn custom_id(message: &Message, prefix: &str) -> String {
    message
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}…` component on {:?}", message.custom_ids()))
}

/// The option values of the (first) select menu on a message.
pub fn select_values(message: &Message) -> Vec<(String, String)> {
    fn find(components: &[Value]) -> Option<Vec<(String, String)>> {
        for c in components {
            if c["type"] == 3 {
                return Some(
                    c["options"]
                        .as_array()?
                        .iter()
                        .map(|o| {
                            (
                                o["label"].as_str().unwrap_or_default().to_string(),
                                o["value"].as_str().unwrap_or_default().to_string(),
                            )
                        })
                        .collect(),
                );
            }
            if let Some(found) = c["components"].as_array().and_then(|inner| find(inner)) {
                return Some(found);
            }
        }
        None
    }
    find(&message.components).unwrap_or_default()
}

/// The ids of a message's buttons, in order.
pub fn buttons(message: &Message) -> Vec<(String, String)> {
    fn walk(components: &[Value], out: &mut Vec<(String, String)>) {
        for c in components {
            if c["type"] == 2 {
                out.push((
                    c["label"].as_str().unwrap_or_default().to_string(),
                    c["custom_id"].as_str().unwrap_or_default().to_string(),
                ));
            }
            if let Some(inner) = c["components"].as_array() {
                walk(inner, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&message.components, &mut out);
    out
}

/// Decodes a message's PNG and checks it is the 1024×1024 board picture.
pub async fn board_picture(fake: &FakeDiscord, message: &Message) -> image::RgbImage {
    let png = message
        .png_attachments()
        .first()
        .map(|a| a.url.clone())
        .unwrap_or_else(|| panic!("message {} has no picture", message.id));
    let bytes = fake.download(&png).await;
    let img = image::load_from_memory(&bytes).expect("a PNG").to_rgb8();
    assert_eq!(img.dimensions(), (1024, 1024));
    img
}

/// The messages of a channel the bot posted (not deleted, not placeholders).
pub fn posts(fake: &FakeDiscord, channel: ChannelId) -> Vec<Message> {
    fake.messages_in(channel)
        .into_iter()
        .filter(|m| {
            !m.deleted && !m.is_loading() && !m.is_ephemeral() && m.author == fake.bot_user()
        })
        .collect()
}

pub fn message(fake: &FakeDiscord, id: MessageId) -> Message {
    fake.message(id).expect("the message exists")
}

/// With `JACKAL_E2E_DUMP=<folder>`, writes what a channel shows (texts and pictures) there,
/// to look at by eye.
pub async fn dump(fake: &FakeDiscord, channel: ChannelId, name: &str) {
    let Ok(dir) = std::env::var("JACKAL_E2E_DUMP") else {
        return;
    };
    let dir = std::path::Path::new(&dir);
    std::fs::create_dir_all(dir).expect("the dump folder");
    let mut text = String::new();
    for (i, m) in fake.messages_in(channel).iter().enumerate() {
        text.push_str(&format!(
            "--- {i} {}\n{}\n",
            m.custom_ids().join(" "),
            m.content
        ));
        for a in m.png_attachments() {
            let bytes = fake.download(&a.url).await;
            std::fs::write(dir.join(format!("{name}-{i}.png")), bytes).expect("write");
        }
    }
    std::fs::write(dir.join(format!("{name}.txt")), text).expect("write");
}

/// With `JACKAL_E2E_DUMP=<folder>`, writes one picture there as `<name>.png`.
pub fn dump_png(name: &str, png: &[u8]) {
    let Ok(dir) = std::env::var("JACKAL_E2E_DUMP") else {
        return;
    };
    let dir = std::path::Path::new(&dir);
    std::fs::create_dir_all(dir).expect("the dump folder");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("write");
}
