//! A started duel and the small steps the tests around it share: a lobby and its buttons,
//! a command's private answer (which must be in words), a snapshot of everything stored
//! about a game.

use jackal::id::GameId;
use serenity::all::{ChannelId, UserId};

use crate::bot::harness::{Harness, buttons, game_of};
use crate::bot::play;
use fake_discord::{InteractionHandle, Message, OptionValue};

/// What a refusal must never show: Fluent ids, unfilled variables, Rust's error names.
pub(crate) fn assert_in_words(text: &str) {
    for raw in [
        "err-",
        "illegal-",
        "perm-",
        "{ $",
        "{$",
        "Service(",
        "Illegal",
        "NoSuchUnit",
        "Unreachable",
        "Syntax",
        "BotError",
        "OutOfRange",
        "TooLong",
    ] {
        assert!(!text.contains(raw), "raw `{raw}` in a refusal: {text}");
    }
    assert!(!text.is_empty());
}

/// The private answer to an interaction: its reply, or (after an acknowledgement) its first
/// followup. It must be ephemeral and in words.
pub(crate) async fn private_answer(h: &Harness, ix: &InteractionHandle) -> Message {
    let callback = h.fake.response(ix).await;
    let answer = match callback.kind {
        6 => h.fake.followups(ix, 1).await.remove(0),
        _ => h.reply(ix).await,
    };
    assert!(answer.is_ephemeral(), "not private: {}", answer.content);
    assert_in_words(&answer.content);
    answer
}

/// `/jackal <sub>` and its private answer.
pub(crate) async fn ask(
    h: &Harness,
    user: UserId,
    channel: ChannelId,
    sub: &str,
    options: &[(&str, OptionValue)],
) -> Message {
    let ix = h.jackal(user, channel, sub, options).await;
    private_answer(h, &ix).await
}

/// Everything stored about a game: its row, seats, settings and state, and how many messages
/// it has queued or sent.
pub(crate) fn snapshot(h: &Harness, game: GameId) -> String {
    let loaded = h.load(game);
    let outbox = h.service.messages_of(game).expect("outbox").len();
    format!("{loaded:?}\noutbox rows: {outbox}")
}

/// A lobby by `owner` in #general (2 players, 5×5); its message.
pub(crate) async fn lobby(h: &Harness, owner: UserId) -> Message {
    let ix = h
        .jackal(
            owner,
            h.fake.general(),
            "new",
            &[("size", OptionValue::Int(0))],
        )
        .await;
    h.reply(&ix).await
}

/// Presses a lobby button and waits until the message changed.
pub(crate) async fn press(h: &Harness, user: UserId, lobby: &Message, button: &str) -> Message {
    let game = game_of(lobby);
    let ix = h
        .fake
        .click(user, lobby.id, &format!("jk1:lobby:{game}:{button}"));
    h.fake.response(&ix).await;
    h.changed(lobby).await
}

/// A started duel between Alice (owner) and Bob.
pub(crate) struct Duel {
    pub(crate) alice: UserId,
    pub(crate) bob: UserId,
    pub(crate) game: GameId,
    pub(crate) thread: ChannelId,
    /// The first post in the thread (with "My moves").
    pub(crate) start: Message,
}

impl Duel {
    pub(crate) async fn start(h: &Harness) -> Duel {
        let alice = h.fake.add_member("alice");
        let bob = h.fake.add_member("bob");
        let message = lobby(h, alice).await;
        let game = game_of(&message);
        let (thread, start) = open_thread(h, alice, bob, &message).await;
        Duel {
            alice,
            bob,
            game,
            thread,
            start,
        }
    }

    /// The player on turn and the other one.
    pub(crate) fn players(&self, h: &Harness) -> (UserId, UserId) {
        let loaded = h.load(self.game);
        let team = loaded.state.as_ref().expect("running").controller();
        let on_turn = UserId::from(
            loaded
                .team_seat(team)
                .and_then(|s| s.user_id)
                .expect("a person"),
        );
        let other = if on_turn == self.alice {
            self.bob
        } else {
            self.alice
        };
        (on_turn, other)
    }

    /// The bot still works: the player on turn plays a move by command, and it is posted.
    pub(crate) async fn play_on(&self, h: &Harness) {
        let (on_turn, _) = self.players(h);
        let done = play::by_command(h, on_turn, self.thread).await;
        assert!(done.content.contains('✅'), "{}", done.content);
        let ply = h.load(self.game).ply;
        let number = h.move_number(self.game, ply);
        h.fake
            .wait_message(self.thread, |m| {
                m.content.contains(&format!("· move {number}**"))
            })
            .await;
    }

    pub(crate) fn my_moves(&self) -> String {
        buttons(&self.start)
            .into_iter()
            .find(|(_, id)| id.starts_with("jk1:moves:"))
            .expect("My moves under the start post")
            .1
    }
}

/// Opens a duel's thread: `joiner` joins the lobby, `owner` starts the game; the thread and
/// its first post.
pub(crate) async fn open_thread(
    h: &Harness,
    owner: UserId,
    joiner: UserId,
    lobby: &Message,
) -> (ChannelId, Message) {
    let lobby = press(h, joiner, lobby, "join").await;
    press(h, owner, &lobby, "start").await;
    let thread = h
        .fake
        .wait_for("the game's thread", |f| f.threads().first().copied())
        .await;
    let thread = ChannelId::new(thread.get());
    let first = h
        .fake
        .wait_message(thread, |m| m.content.starts_with("🏴‍☠️"))
        .await;
    (thread, first)
}
