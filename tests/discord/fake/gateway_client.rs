//! A raw gateway client, for tests that look below serenity: it sends the frames a test writes
//! (IDENTIFY as any shard, RESUME of any session) and hands back every frame as it came, close
//! codes included. It never heartbeats: the tests using it end well within the interval.

use std::time::Duration;

use serde_json::{Value, json};
use serenity::futures::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use fake_discord::{BOT_TOKEN, FakeDiscord};

/// GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES: guilds, messages and DMs, as the bot asks.
const INTENTS: u64 = 1 | (1 << 9) | (1 << 12);

/// How long a client waits for a frame the fake owes it before failing the test.
const FRAME_TIMEOUT: Duration = Duration::from_secs(10);

/// What came from the fake: a JSON frame, or the end of the connection with its close code.
#[derive(Debug)]
pub enum Incoming {
    Frame(Value),
    Closed(Option<u16>),
}

pub struct GatewayClient {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The sequence number of the last dispatch read, for RESUME.
    pub seq: u64,
}

impl GatewayClient {
    /// Connects to the fake's gateway and reads its HELLO.
    pub async fn connect(fake: &FakeDiscord) -> GatewayClient {
        let url = format!("{}/gateway", fake.base_url().replace("http://", "ws://"));
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("a websocket to the fake's gateway");
        let mut client = GatewayClient { ws, seq: 0 };
        let hello = client.frame().await;
        assert_eq!(hello["op"], 10, "HELLO first: {hello}");
        client
    }

    /// Connects and identifies as `shard` (`[shard_id, num_shards]`, or none at all).
    pub async fn identified(fake: &FakeDiscord, shard: Option<[u16; 2]>) -> GatewayClient {
        let mut client = GatewayClient::connect(fake).await;
        client.identify(shard).await;
        client
    }

    pub async fn identify(&mut self, shard: Option<[u16; 2]>) {
        let mut d = json!({
            "token": BOT_TOKEN,
            "intents": INTENTS,
            "properties": {"os": "linux", "browser": "test", "device": "test"},
        });
        if let Some(shard) = shard {
            d["shard"] = json!(shard);
        }
        self.send(json!({"op": 2, "d": d})).await;
    }

    pub async fn resume(&mut self, session_id: &str, seq: u64) {
        let d = json!({"token": BOT_TOKEN, "session_id": session_id, "seq": seq});
        self.send(json!({"op": 6, "d": d})).await;
    }

    pub async fn send(&mut self, frame: Value) {
        self.ws
            .send(Message::Text(frame.to_string()))
            .await
            .expect("a frame to the fake");
    }

    /// The next frame or the close; fails the test if none comes in time.
    pub async fn next(&mut self) -> Incoming {
        loop {
            let message = tokio::time::timeout(FRAME_TIMEOUT, self.ws.next())
                .await
                .expect("a frame from the fake in time");
            match message {
                Some(Ok(Message::Text(text))) => {
                    let frame: Value = serde_json::from_str(&text).expect("JSON from the fake");
                    if let Some(seq) = frame["s"].as_u64() {
                        self.seq = seq;
                    }
                    return Incoming::Frame(frame);
                }
                Some(Ok(Message::Close(frame))) => {
                    return Incoming::Closed(frame.map(|f| u16::from(f.code)));
                }
                Some(Ok(_)) => {}
                None | Some(Err(_)) => return Incoming::Closed(None),
            }
        }
    }

    /// The next frame; fails the test if the connection closes instead.
    pub async fn frame(&mut self) -> Value {
        match self.next().await {
            Incoming::Frame(frame) => frame,
            Incoming::Closed(code) => panic!("the fake closed the connection ({code:?})"),
        }
    }

    /// The next dispatch (op 0) as a whole frame, skipping anything else.
    pub async fn dispatch(&mut self) -> Value {
        loop {
            let frame = self.frame().await;
            if frame["op"] == 0 {
                return frame;
            }
        }
    }

    /// The next dispatch named `name`, failing the test if another dispatch comes first.
    pub async fn expect(&mut self, name: &str) -> Value {
        let frame = self.dispatch().await;
        assert_eq!(frame["t"], name, "expected {name}, got {frame}");
        frame["d"].clone()
    }

    /// The close code the connection ends with, failing the test if a frame comes first.
    pub async fn close_code(&mut self) -> Option<u16> {
        match self.next().await {
            Incoming::Closed(code) => code,
            Incoming::Frame(frame) => panic!("expected the connection to close, got {frame}"),
        }
    }

    /// READY and the GUILD_CREATEs that follow it, one per guild READY lists.
    pub async fn ready(&mut self) -> (Value, Vec<Value>) {
        let ready = self.expect("READY").await;
        let count = ready["guilds"].as_array().map_or(0, Vec::len);
        let mut guilds = Vec::new();
        for _ in 0..count {
            guilds.push(self.expect("GUILD_CREATE").await);
        }
        (ready, guilds)
    }
}

/// The `id`s of a list of guild objects, sorted.
pub fn ids(guilds: &[Value]) -> Vec<String> {
    let mut ids: Vec<String> = guilds
        .iter()
        .map(|g| g["id"].as_str().expect("an id").to_string())
        .collect();
    ids.sort();
    ids
}
