//! Sharding as Discord does it: `GET /gateway/bot` says how many shards the bot must run,
//! each shard identifies as `[shard_id, num_shards]` and gets a session of its own, READY and
//! GUILD_CREATE list only its guilds, and every event goes to the shard of the guild it
//! concerns, `(guild_id >> 22) % num_shards`, DMs to shard 0. Driven with raw gateway clients,
//! and with serenity's own sharded client.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use serenity::all::{
    ChannelId, ClientBuilder, Context, CreateInteractionResponse, CreateInteractionResponseMessage,
    EventHandler, GatewayIntents, GuildId, Interaction, Ready, ShardManager, UserId,
};

use crate::fake::gateway_client::{GatewayClient, ids};
use crate::fake::raw;
use fake_discord::{Config, Direction, FakeDiscord, GatewayLogEntry};

/// Close codes a refused IDENTIFY gets (Discord's).
const INVALID_SHARD: u16 = 4010;
const SHARDING_REQUIRED: u16 = 4011;

async fn fake_with_shards(shards: u16) -> FakeDiscord {
    FakeDiscord::start_with(Config {
        shards,
        ..Config::default()
    })
    .await
}

/// The ids of the `guilds` shard `shard` of two serves, sorted as [`ids`] sorts them: worked
/// out here by Discord's rule, not asked of the fake.
fn guilds_of_shard(guilds: &[GuildId], shard: u64) -> Vec<String> {
    let mut ids: Vec<String> = guilds
        .iter()
        .filter(|g| (g.get() >> 22) % 2 == shard)
        .map(|g| g.to_string())
        .collect();
    ids.sort();
    ids
}

/// Registers `/ping` as a global command over REST, as a bot would before users run it.
async fn register_ping(fake: &FakeDiscord) {
    let path = format!("/applications/{}/commands", fake.bot_user());
    let ping = json!([{"name": "ping", "description": "Replies pong", "type": 1}]);
    let (status, _) = raw::send(fake, reqwest::Method::PUT, &path, Some(ping))
        .await
        .expect("an answer");
    assert_eq!(status, 200);
}

/// Opens the bot's DM channel with `user` over REST.
async fn open_dm(fake: &FakeDiscord, user: UserId) -> ChannelId {
    let body = json!({"recipient_id": user.to_string()});
    let (status, dm) = raw::send(
        fake,
        reqwest::Method::POST,
        "/users/@me/channels",
        Some(body),
    )
    .await
    .expect("an answer");
    assert_eq!(status, 200);
    ChannelId::new(
        dm["id"]
            .as_str()
            .expect("an id")
            .parse()
            .expect("a snowflake"),
    )
}

/// The bot posts `text` in `channel` over REST.
async fn post(fake: &FakeDiscord, channel: ChannelId, text: &str) {
    let (status, _) = raw::post_message(fake, channel, json!({"content": text})).await;
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_bot_announces_the_configured_shard_count() {
    for shards in [1, 2, 5] {
        let fake = fake_with_shards(shards).await;
        let (status, body) = raw::send(&fake, reqwest::Method::GET, "/gateway/bot", None)
            .await
            .expect("an answer");
        assert_eq!(status, 200);
        assert_eq!(body["shards"], shards);
        assert_eq!(body["session_start_limit"]["max_concurrency"], 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_shard_gets_a_session_of_its_own_listing_only_its_guilds() {
    let fake = fake_with_shards(2).await;
    let guilds = [
        fake.guild(),
        fake.add_guild_on_shard("Port Royal", 0),
        fake.add_guild_on_shard("Tortuga", 1),
        fake.add_guild_on_shard("Nassau", 1),
    ];

    for guild in guilds {
        assert_eq!(u64::from(fake.shard_of(guild)), (guild.get() >> 22) % 2);
    }
    let mut shard0 = GatewayClient::identified(&fake, Some([0, 2])).await;
    let mut shard1 = GatewayClient::identified(&fake, Some([1, 2])).await;
    let (ready0, created0) = shard0.ready().await;
    let (ready1, created1) = shard1.ready().await;

    assert_eq!(ready0["shard"], json!([0, 2]));
    assert_eq!(ready1["shard"], json!([1, 2]));
    assert_ne!(ready0["session_id"], ready1["session_id"]);
    for (shard, ready, created) in [(0, &ready0, &created0), (1, &ready1, &created1)] {
        let expected = guilds_of_shard(&guilds, shard);
        assert!(!expected.is_empty());
        assert_eq!(ids(ready["guilds"].as_array().unwrap()), expected);
        assert_eq!(ids(created), expected);
    }
    assert_eq!(fake.identify_count(), 2);
    assert_eq!((fake.shard_identifies(0), fake.shard_identifies(1)), (1, 1));
    assert!(fake.shard_connected(0) && fake.shard_connected(1));

    // The log says which shard each IDENTIFY and READY was.
    let log = fake.gateway_log();
    assert_eq!(logged_shards(&log, is_identify), [Some(0), Some(1)]);
    let is_ready = |e: &GatewayLogEntry| e.event_name() == Some("READY");
    assert_eq!(logged_shards(&log, is_ready), [Some(0), Some(1)]);
}

fn is_identify(entry: &GatewayLogEntry) -> bool {
    entry.direction == Direction::Received && entry.op() == Some(2)
}

/// The shards of the log entries `pick` selects, sorted.
fn logged_shards(
    log: &[GatewayLogEntry],
    pick: impl Fn(&GatewayLogEntry) -> bool,
) -> Vec<Option<u16>> {
    let mut shards: Vec<Option<u16>> = log.iter().filter(|e| pick(e)).map(|e| e.shard).collect();
    shards.sort();
    shards
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_goes_to_the_shard_of_its_guild_and_a_dm_to_shard_0() {
    let fake = fake_with_shards(2).await;
    let home = fake.add_guild_on_shard("Port Royal", 0);
    let far = fake.add_guild_on_shard("Tortuga", 1);
    let sailor = fake.add_member_in(far, "sailor");
    let lubber = fake.add_user("lubber");
    register_ping(&fake).await;
    let dm = open_dm(&fake, lubber).await;
    let mut shard0 = GatewayClient::identified(&fake, Some([0, 2])).await;
    let mut shard1 = GatewayClient::identified(&fake, Some([1, 2])).await;
    shard0.ready().await;
    shard1.ready().await;

    // Dispatched in this order: had the first two gone to shard 0 too, shard 0 would read
    // them before its own.
    let deck = fake.add_text_channel_in(far, "deck", Vec::new());
    let in_far = fake.slash(sailor, deck, "ping", &[]).await;
    post(&fake, deck, "ahoy Tortuga").await;
    let in_dm = fake.slash(lubber, dm, "ping", &[]).await;
    post(&fake, fake.general_of(home), "ahoy Port Royal").await;

    let interaction = shard1.expect("INTERACTION_CREATE").await;
    assert_eq!(interaction["id"], in_far.id.to_string());
    assert_eq!(interaction["guild_id"], far.to_string());
    let message = shard1.expect("MESSAGE_CREATE").await;
    assert_eq!(message["content"], "ahoy Tortuga");

    let interaction = shard0.expect("INTERACTION_CREATE").await;
    assert_eq!(interaction["id"], in_dm.id.to_string());
    assert!(interaction.get("guild_id").is_none(), "{interaction}");
    let message = shard0.expect("MESSAGE_CREATE").await;
    assert_eq!(message["content"], "ahoy Port Royal");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guild_the_bot_joins_while_connected_arrives_on_its_shard() {
    let fake = fake_with_shards(2).await;
    let mut shard0 = GatewayClient::identified(&fake, Some([0, 2])).await;
    let mut shard1 = GatewayClient::identified(&fake, Some([1, 2])).await;
    shard0.ready().await;
    shard1.ready().await;

    let joined = fake.add_guild_on_shard("Tortuga", 1);
    let home = fake.add_guild_on_shard("Port Royal", 0);
    let created = shard1.expect("GUILD_CREATE").await;
    assert_eq!(created["id"], joined.to_string());
    assert_eq!(
        created["channels"][0]["id"],
        fake.general_of(joined).to_string()
    );
    // Shard 0's next dispatch is its own guild, not shard 1's.
    let created = shard0.expect("GUILD_CREATE").await;
    assert_eq!(created["id"], home.to_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_identify_naming_a_shard_the_fake_does_not_run_is_closed() {
    let fake = fake_with_shards(2).await;
    let refused = [
        (Some([0, 3]), INVALID_SHARD), // another count, even a larger one
        (Some([0, 1]), INVALID_SHARD),
        (Some([2, 2]), INVALID_SHARD), // the id must be below the count
        (None, SHARDING_REQUIRED),
    ];
    for (shard, code) in refused {
        let mut client = GatewayClient::identified(&fake, shard).await;
        assert_eq!(client.close_code().await, Some(code), "{shard:?}");
    }
    assert_eq!(fake.identify_count(), 0);
    // Refused, an IDENTIFY belongs to no shard.
    let log = fake.gateway_log();
    assert_eq!(logged_shards(&log, is_identify), [None; 4]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_one_shard_an_identify_without_a_shard_is_shard_0_of_1() {
    let fake = FakeDiscord::start().await;
    let mut client = GatewayClient::identified(&fake, None).await;
    let (ready, guilds) = client.ready().await;
    assert_eq!(ready["shard"], json!([0, 1]));
    assert_eq!(ids(&guilds), [fake.guild().to_string()]);
    fake.wait_shard_identified(0, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_a_shard_replays_only_what_that_shard_missed() {
    let fake = fake_with_shards(2).await;
    let home = fake.add_guild_on_shard("Port Royal", 0);
    let far = fake.add_guild_on_shard("Tortuga", 1);
    let mut shard0 = GatewayClient::identified(&fake, Some([0, 2])).await;
    let mut shard1 = GatewayClient::identified(&fake, Some([1, 2])).await;
    shard0.ready().await;
    let (ready1, _) = shard1.ready().await;
    post(&fake, fake.general_of(far), "before").await;
    shard1.expect("MESSAGE_CREATE").await;

    assert!(fake.close_shard(1, 4000));
    assert_eq!(shard1.close_code().await, Some(4000));
    assert!(!fake.shard_connected(1));
    assert!(fake.shard_connected(0) && fake.gateway_connected());
    post(&fake, fake.general_of(far), "missed 1").await;
    post(&fake, fake.general_of(home), "on shard 0").await;
    post(&fake, fake.general_of(far), "missed 2").await;
    // Shard 0 carried on meanwhile.
    assert_eq!(
        shard0.expect("MESSAGE_CREATE").await["content"],
        "on shard 0"
    );

    let mut resumed = GatewayClient::connect(&fake).await;
    let session = ready1["session_id"].as_str().expect("a session id");
    resumed.resume(session, shard1.seq).await;
    let replayed: Vec<Value> = [
        resumed.expect("MESSAGE_CREATE").await,
        resumed.expect("MESSAGE_CREATE").await,
    ]
    .into();
    assert_eq!(replayed[0]["content"], "missed 1");
    assert_eq!(replayed[1]["content"], "missed 2");
    resumed.expect("RESUMED").await;
    assert_eq!(
        resumed.seq,
        shard1.seq + 3,
        "the session's numbering goes on"
    );
    fake.wait_shard_resumed(1, 1).await;
    assert_eq!((fake.shard_resumes(0), fake.shard_resumes(1)), (0, 1));
    assert_eq!(fake.identify_count(), 2, "a resume does not identify");

    // Back to normal: shard 1's events reach the resumed connection.
    post(&fake, fake.general_of(far), "after").await;
    assert_eq!(resumed.expect("MESSAGE_CREATE").await["content"], "after");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_gateway_closes_every_shard() {
    let fake = fake_with_shards(2).await;
    let mut shard0 = GatewayClient::identified(&fake, Some([0, 2])).await;
    let mut shard1 = GatewayClient::identified(&fake, Some([1, 2])).await;
    shard0.ready().await;
    shard1.ready().await;

    assert!(fake.close_gateway(4000));
    assert_eq!(shard0.close_code().await, Some(4000));
    assert_eq!(shard1.close_code().await, Some(4000));
    assert!(!fake.shard_connected(0) && !fake.shard_connected(1));
    fake.wait_for("every connection to close", |f| {
        (!f.gateway_connected()).then_some(())
    })
    .await;
    assert!(!fake.close_gateway(4000), "nothing left to close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_for_a_shard_without_a_session_is_refused() {
    let fake = fake_with_shards(2).await;
    let far = fake.add_guild_on_shard("Tortuga", 1);
    let mut shard0 = GatewayClient::identified(&fake, Some([0, 2])).await;
    shard0.ready().await;
    // The bot's own post is not announced to a shard nobody runs…
    let (status, message) =
        raw::post_message(&fake, fake.general_of(far), json!({"content": "ahoy"})).await;
    assert_eq!(status, 200);
    assert_eq!(message["guild_id"], far.to_string());
    // …and a test cannot dispatch there either.
    let error = fake.dispatch("MESSAGE_CREATE", message).unwrap_err();
    assert!(error.contains("no gateway session"), "{error}");
    assert_eq!(fake.dispatch_count("MESSAGE_CREATE"), 0);
}

/// A READY as serenity read it: the shard id, the shard count and the guild ids, sorted.
type SeenReady = (u32, u32, Vec<String>);

/// A command interaction as serenity read it: the shard it came on and its guild.
type SeenCommand = (u32, Option<GuildId>);

/// What serenity's client saw: each READY (shard, guilds) and each command interaction
/// (the shard it came on, its guild); it answers every command with the shard's number.
#[derive(Clone, Default)]
struct Seen {
    readies: Arc<Mutex<Vec<SeenReady>>>,
    commands: Arc<Mutex<Vec<SeenCommand>>>,
}

#[serenity::async_trait]
impl EventHandler for Seen {
    async fn ready(&self, _: Context, ready: Ready) {
        let shard = ready.shard.expect("READY names its shard");
        let mut guilds: Vec<String> = ready.guilds.iter().map(|g| g.id.to_string()).collect();
        guilds.sort();
        let entry = (shard.id.0, shard.total, guilds);
        self.readies.lock().unwrap().push(entry);
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let Interaction::Command(command) = interaction else {
            return;
        };
        let shard = ctx.shard_id.0;
        self.commands
            .lock()
            .unwrap()
            .push((shard, command.guild_id));
        let answer = CreateInteractionResponseMessage::new().content(format!("shard {shard}"));
        let response = CreateInteractionResponse::Message(answer);
        command
            .create_response(&ctx.http, response)
            .await
            .expect("the answer to reach the fake");
    }
}

impl Seen {
    fn readies(&self) -> Vec<SeenReady> {
        let mut readies = self.readies.lock().unwrap().clone();
        readies.sort();
        readies
    }
}

/// Which shards one serenity client runs: as one process of several, or all of them.
enum Run {
    Shard(u32, u32),
    Autosharded,
}

/// A serenity client of `fake` running in the test's runtime.
struct SerenityBot {
    seen: Seen,
    manager: Arc<ShardManager>,
    running: tokio::task::JoinHandle<serenity::Result<()>>,
}

impl SerenityBot {
    /// Starts a client with its handler, running the shards `run` says.
    async fn start(fake: &FakeDiscord, run: Run) -> SerenityBot {
        let seen = Seen::default();
        let intents = GatewayIntents::GUILDS | GatewayIntents::DIRECT_MESSAGES;
        let mut client = ClientBuilder::new_with_http(fake.bot_http(), intents)
            .event_handler(seen.clone())
            .await
            .expect("a serenity client");
        let manager = Arc::clone(&client.shard_manager);
        let running = tokio::spawn(async move {
            match run {
                Run::Shard(shard, shards) => client.start_shard(shard, shards).await,
                Run::Autosharded => client.start_autosharded().await,
            }
        });
        SerenityBot {
            seen,
            manager,
            running,
        }
    }

    /// Stops the client; fails the test if it had stopped by itself with an error (a shard
    /// refused, say).
    async fn stop(self) {
        self.manager.shutdown_all().await;
        let result = self.running.await.expect("the client's task");
        result.expect("the client ran until stopped");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_serenity_clients_each_run_one_shard_and_answer_their_guilds() {
    let fake = fake_with_shards(2).await;
    let home = fake.add_guild_on_shard("Port Royal", 0);
    let far = fake.add_guild_on_shard("Tortuga", 1);
    let guilds = [fake.guild(), home, far];
    register_ping(&fake).await;
    // Two processes, as a bot spread over machines runs: each connects its own shard.
    let bot0 = SerenityBot::start(&fake, Run::Shard(0, 2)).await;
    let bot1 = SerenityBot::start(&fake, Run::Shard(1, 2)).await;
    let (seen0, seen1) = (bot0.seen.clone(), bot1.seen.clone());
    fake.wait_shard_identified(0, 1).await;
    fake.wait_shard_identified(1, 1).await;
    fake.wait_for("both READYs to reach serenity", |_| {
        (seen0.readies().len() + seen1.readies().len() == 2).then_some(())
    })
    .await;
    assert_eq!(seen0.readies(), [(0, 2, guilds_of_shard(&guilds, 0))]);
    assert_eq!(seen1.readies(), [(1, 2, guilds_of_shard(&guilds, 1))]);

    let sailor = fake.add_member_in(far, "sailor");
    let ix = fake.slash(sailor, fake.general_of(far), "ping", &[]).await;
    assert_eq!(fake.reply(&ix).await.content, "shard 1");
    let landlubber = fake.add_member_in(home, "landlubber");
    let ix = fake
        .slash(landlubber, fake.general_of(home), "ping", &[])
        .await;
    assert_eq!(fake.reply(&ix).await.content, "shard 0");
    assert_eq!(*seen1.commands.lock().unwrap(), [(1, Some(far))]);
    assert_eq!(*seen0.commands.lock().unwrap(), [(0, Some(home))]);

    bot0.stop().await;
    bot1.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_autosharded_runs_as_many_shards_as_gateway_bot_says() {
    let fake = fake_with_shards(2).await;
    let far = fake.add_guild_on_shard("Tortuga", 1);
    let guilds = [fake.guild(), far, fake.add_guild("Anywhere")];
    // serenity waits five seconds between two shards' IDENTIFYs, as Discord asks.
    let bot = SerenityBot::start(&fake, Run::Autosharded).await;
    let seen = bot.seen.clone();
    fake.wait_shard_identified(0, 1).await;
    fake.wait_shard_identified(1, 1).await;
    fake.wait_for("both READYs to reach serenity", |_| {
        (seen.readies().len() == 2).then_some(())
    })
    .await;
    let expected: Vec<_> = (0..2)
        .map(|shard| (shard as u32, 2, guilds_of_shard(&guilds, shard)))
        .collect();
    assert_eq!(seen.readies(), expected);
    assert!(fake.rest_log().iter().any(|e| e.path == "/gateway/bot"));
    bot.stop().await;
}
