//! Deadlines and reminders, driven by the manual clock only: a reminder comes once, some
//! hours before the deadline, and not for a turn already played; a missed deadline lets a bot
//! make the move (a notice, then the move's post) until `max_missed` in a row hand the seat
//! to a bot; the `resign` policy ends a duel.
//!
//! Also the duel every robustness test starts from ([`duel`]).

use jackal::game::{GameEnd, TimeoutPolicy};
use jackal::id::GameId;
use jackal::store::GameStatus;
use serenity::all::{ChannelId, UserId};

use crate::bot::harness::{HOUR, Harness, game_of, posts};
use crate::bot::play;
use fake_discord::{Message, OptionValue};

/// A started two-player game on a 5×5 island.
pub struct Duel {
    pub game: GameId,
    pub thread: ChannelId,
}

/// Opens a two-player 5×5 lobby in #general for `owner` with more `/jackal new` options;
/// returns the game and its lobby message.
pub async fn lobby(
    h: &Harness,
    owner: UserId,
    options: &[(&str, OptionValue)],
) -> (GameId, Message) {
    let mut all = vec![
        ("players", OptionValue::Int(0)),
        ("size", OptionValue::Int(0)),
    ];
    // An option given replaces the default one.
    all.retain(|(name, _)| options.iter().all(|(given, _)| given != name));
    all.extend(options.iter().cloned());
    let ix = h.jackal(owner, h.fake.general(), "new", &all).await;
    let lobby = h.reply(&ix).await;
    (game_of(&lobby), lobby)
}

/// `other` joins the lobby and its owner starts it; waits for the thread's first post.
pub async fn start(h: &Harness, game: GameId, lobby: &Message, other: UserId) -> Duel {
    let fake = &h.fake;
    let ix = fake.click(other, lobby.id, &format!("jk1:lobby:{game}:join"));
    fake.response(&ix).await;
    let joined = format!("<@{other}>");
    let lobby = fake
        .wait_for("the lobby to show the second player", |f| {
            f.message(lobby.id).filter(|m| m.content.contains(&joined))
        })
        .await;
    let owner = UserId::from(h.load(game).owner);
    let ix = fake.click(owner, lobby.id, &format!("jk1:lobby:{game}:start"));
    fake.response(&ix).await;
    // The thread opens on the lobby message: its id is the message's.
    let thread = ChannelId::new(lobby.id.get());
    fake.wait_for("the game's thread", |f| f.channel(thread).map(|_| ()))
        .await;
    fake.wait_message(thread, |m| m.content.contains("begins"))
        .await;
    Duel { game, thread }
}

/// A duel of `owner` and `other` with the given `/jackal new` options, started.
pub async fn duel(
    h: &Harness,
    owner: UserId,
    other: UserId,
    options: &[(&str, OptionValue)],
) -> Duel {
    let (game, lobby) = lobby(h, owner, options).await;
    start(h, game, &lobby, other).await
}

/// The person on turn (panics if a bot is).
pub fn on_turn(h: &Harness, game: GameId) -> UserId {
    let loaded = h.load(game);
    let team = loaded.state.as_ref().expect("running").controller();
    UserId::from(
        loaded
            .team_seat(team)
            .and_then(|s| s.user_id)
            .expect("a person is on turn"),
    )
}

/// The team on turn.
pub fn team_on_turn(h: &Harness, game: GameId) -> u8 {
    h.load(game).state.expect("running").controller().number()
}

/// The bot's posts in a thread that tell a move ("· move N**").
pub fn move_posts(h: &Harness, thread: ChannelId) -> Vec<Message> {
    posts(&h.fake, thread)
        .into_iter()
        .filter(|m| m.content.contains("· move "))
        .collect()
}

/// Waits for the post of the move that ended at `ply`.
pub async fn move_post(h: &Harness, thread: ChannelId, ply: u32) -> Message {
    let header = format!("· move {}**", h.move_number(h.game_in(thread), ply));
    h.fake
        .wait_message(thread, |m| m.content.contains(&header))
        .await
}

/// The bot's notices in a thread or channel ("ℹ️ …").
pub fn notices(h: &Harness, channel: ChannelId) -> Vec<Message> {
    posts(&h.fake, channel)
        .into_iter()
        .filter(|m| m.content.starts_with("ℹ️"))
        .collect()
}

/// Plays the whole turn of the person on turn with `/jackal move` in the thread, until
/// someone else is to move or the game is over; returns the ply it ended at, once its post is
/// in the thread. The maps are random: the turn may take several moves (rum served, or the
/// weed found: see `play`), and in a duel the other player is then on turn.
pub async fn play_in_thread(h: &Harness, duel: &Duel) -> u32 {
    // A bot seat's move is played at once: wait for the person after it.
    let person_on_turn = || {
        let loaded = h.load(duel.game);
        let team = loaded.state.as_ref()?.controller();
        loaded.team_seat(team)?.user_id.map(UserId::from)
    };
    let user = h
        .fake
        .wait_for("a person on turn", |_| person_on_turn())
        .await;
    let done = play::by_command(h, user, duel.thread).await;
    assert!(done.content.contains('✅'), "{}", done.content);
    play::finish_turn(h, duel.game, duel.thread, user).await
}

/// The messages the bot sent `user` in private (none if it never opened a DM).
pub fn dms(h: &Harness, user: UserId) -> Vec<Message> {
    h.fake
        .dm_channel(user)
        .map(|dm| {
            h.fake
                .messages_in(dm)
                .into_iter()
                .filter(|m| m.author == h.fake.bot_user() && !m.deleted)
                .collect()
        })
        .unwrap_or_default()
}

/// Reminder DMs to `user` so far.
fn reminder_dms(h: &Harness, user: UserId) -> Vec<Message> {
    dms(h, user)
        .into_iter()
        .filter(|m| m.content.starts_with("⏰"))
        .collect()
}

/// Moves the clock to the current turn's deadline (+1 ms) and waits until the game moved on.
async fn miss_deadline(h: &Harness, game: GameId) {
    let deadline = h
        .service
        .deadline_of(game)
        .unwrap()
        .expect("a person's deadline");
    let ply = h.load(game).ply;
    h.advance(deadline - now(h) + 1);
    h.fake
        .wait_for("the deadline to be applied", |_| {
            let row = h.load(game);
            (row.ply > ply || row.status != GameStatus::Active).then_some(())
        })
        .await;
}

/// The service's (manual) clock now.
pub fn now(h: &Harness) -> i64 {
    use jackal::game::Clock;
    h.clock.now_ms()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_comes_once_before_the_deadline_and_not_for_a_turn_already_played() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let duel = duel(&h, alice, bob, &[]).await;
    let config = h.load(duel.game).config;
    assert_eq!(
        (config.turn_seconds, config.reminder_seconds),
        (86_400, 3 * 3600)
    );

    // 21 hours in, the player on turn is reminded in private.
    let first = on_turn(&h, duel.game);
    let second = if first == alice { bob } else { alice };
    h.advance(21 * HOUR);
    let reminder = h.fake.wait_dm(first, |m| m.content.starts_with("⏰")).await;
    assert!(
        reminder.content.contains(&format!("#{}", duel.game))
            && reminder.content.contains(&format!("<#{}>", duel.thread)),
        "{}",
        reminder.content
    );
    assert!(
        reminder
            .custom_ids()
            .contains(&format!("jk1:moves:{}", duel.game)),
        "the reminder opens the player's moves: {:?}",
        reminder.custom_ids()
    );
    // An hour later (22 h) they play; an hour after that (23 h) the other player answers,
    // long before their own reminder (at 22 h + 21 h) was due.
    h.advance(HOUR);
    play_in_thread(&h, &duel).await;
    assert_eq!(on_turn(&h, duel.game), second);
    h.advance(HOUR);
    let ply = play_in_thread(&h, &duel).await;
    assert_eq!(on_turn(&h, duel.game), first);
    // The first turn's deadline (24 h) and the second player's would-be reminder (43 h) pass
    // without a word; the first player's next reminder comes 21 hours into their new turn
    // (44 h), and it is only their second.
    h.advance(3 * HOUR);
    h.advance(17 * HOUR);
    h.advance(HOUR);
    let reminders = h
        .fake
        .wait_for("the first player's next reminder", |_| {
            let sent = reminder_dms(&h, first);
            (sent.len() >= 2).then_some(sent)
        })
        .await;
    assert_eq!(reminders.len(), 2, "one reminder a turn");
    assert!(
        reminder_dms(&h, second).is_empty(),
        "no reminder for a turn already played"
    );
    assert!(
        notices(&h, duel.thread).is_empty(),
        "no deadline was missed"
    );
    assert_eq!(h.load(duel.game).ply, ply, "nobody timed out");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missed_deadlines_let_a_bot_move_then_take_the_seat() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    // The 13×13 island (the default size): a smaller one can end, on a random map, before
    // the seat is taken back at the end of this test.
    let ix = h
        .jackal(
            alice,
            h.fake.general(),
            "new",
            &[("players", OptionValue::Int(0))],
        )
        .await;
    let lobby = h.reply(&ix).await;
    let game = game_of(&lobby);
    // Two missed deadlines in a row hand the seat to a bot (set with /jackal settings).
    let ix = h
        .jackal(
            alice,
            h.fake.general(),
            "settings",
            &[
                ("setting", OptionValue::Str("max_missed".into())),
                ("value", OptionValue::Str("2".into())),
            ],
        )
        .await;
    h.reply(&ix).await;
    assert_eq!(h.load(game).config.max_missed, 2);
    assert_eq!(h.load(game).config.timeout, TimeoutPolicy::Bot);
    let duel = start(&h, game, &lobby, bob).await;

    // The one who moves first never moves; the other always does, in time.
    let sleeper = on_turn(&h, game);
    let sleeper_team = team_on_turn(&h, game);
    let prompt = h.fake.wait_dm(sleeper, |m| !m.components.is_empty()).await;

    // First miss: a notice in words, then the move a bot made for them.
    miss_deadline(&h, game).await;
    let notice = h
        .fake
        .wait_message(duel.thread, |m| m.content.starts_with("ℹ️"))
        .await;
    assert!(
        notice.content.contains("time ran out")
            && notice.content.contains(&format!("<@{sleeper}>")),
        "{}",
        notice.content
    );
    let actions = h.service.history(game).unwrap();
    assert_eq!(actions[0].user_id, None, "a bot made the move");
    let ply = h.load(game).ply;
    let post = move_post(&h, duel.thread, ply).await;
    assert!(
        notice.id < post.id,
        "the notice comes before the move's post"
    );
    // Their private prompt lost its buttons: the turn is over.
    let retired = h
        .fake
        .wait_for("the prompt to be retired", |f| {
            f.message(prompt.id).filter(|m| m.components.is_empty())
        })
        .await;
    assert!(retired.content.contains("is over"), "{}", retired.content);
    assert_eq!(h.load(game).seat(sleeper_team).unwrap().missed_deadlines, 1);

    // The other player moves; the sleeper misses again (a move's choices are each a turn).
    let mut misses = 1;
    while h.load(game).seat(sleeper_team).unwrap().user_id.is_some() {
        if team_on_turn(&h, game) == sleeper_team {
            miss_deadline(&h, game).await;
            misses += 1;
        } else {
            play_in_thread(&h, &duel).await;
        }
        assert!(misses <= 2, "the seat should be taken after 2 misses");
    }
    assert_eq!(misses, 2);
    let told = h
        .fake
        .wait_for("the take-over notice", |_| {
            let all = notices(&h, duel.thread);
            (all.len() == 2).then_some(all)
        })
        .await;
    // The notice names the player who missed (and pings them: the button is theirs).
    let mark = ["🟠", "🟦"][usize::from(sleeper_team) - 1];
    assert!(
        told[1].content.starts_with(&format!(
            "ℹ️ {mark} <@{sleeper}> missed 2 deadlines in a row: a bot plays the seat for them"
        )),
        "{}",
        told[1].content
    );
    assert_eq!(told[1].pinged_users(), vec![sleeper]);
    let loaded = h.load(game);
    let seat = loaded.seat(sleeper_team).unwrap();
    assert_eq!((seat.user_id, seat.missed_deadlines), (None, 2));
    assert!(seat.bot.is_some());
    // From now on a bot plays that seat, at once, with no deadline for it.
    let taken_at = loaded.ply;
    if loaded.status != GameStatus::Active {
        return;
    }
    play_in_thread(&h, &duel).await;
    h.fake
        .wait_for("the bot's own move", |_| {
            let history = h.service.history(game).unwrap();
            history
                .iter()
                .any(|a| a.ply > taken_at && a.team == sleeper_team && a.user_id.is_none())
                .then_some(())
        })
        .await;
    // Its posts say that a bot plays for the sleeper.
    let bot_move = h
        .service
        .history(game)
        .unwrap()
        .into_iter()
        .rfind(|a| a.team == sleeper_team && a.user_id.is_none())
        .map(|a| a.ply)
        .unwrap();
    let bot_post = move_post(&h, duel.thread, h.move_end_at_or_after(game, bot_move)).await;
    assert!(
        bot_post
            .content
            .lines()
            .next()
            .unwrap_or_default()
            .ends_with(&format!("{mark} 🤖 bot for <@{sleeper}>")),
        "{}",
        bot_post.content
    );

    // The take-over notice has a button to take the seat back: only for the sleeper.
    let reclaim = format!("jk1:reclaim:{game}");
    assert_eq!(told[1].custom_ids(), std::slice::from_ref(&reclaim));
    let other = if sleeper == alice { bob } else { alice };
    let ix = h.fake.click(other, told[1].id, &reclaim);
    let answer = crate::bot::duel::private_answer(&h, &ix).await;
    assert_eq!(
        answer.content,
        format!("You already have a seat in game #{game}.")
    );
    let ix = h.fake.click(sleeper, told[1].id, &reclaim);
    let answer = crate::bot::duel::private_answer(&h, &ix).await;
    assert_eq!(
        answer.content,
        format!("You are back in game #{game}: seat {sleeper_team} is yours again.")
    );
    let seat = h.load(game).seat(sleeper_team).unwrap().clone();
    assert_eq!(
        (seat.user_id, seat.bot, seat.missed_deadlines),
        (Some(sleeper.into()), None, 0)
    );
    let back = h
        .fake
        .wait_for("the notice that the player is back", |_| {
            notices(&h, duel.thread)
                .into_iter()
                .find(|m| m.content.contains("is back"))
        })
        .await;
    assert!(
        back.content.contains(&format!("<@{sleeper}>")),
        "{}",
        back.content
    );
    // The seat is back: the button goes (nothing is left to press), the notice stays.
    let answered = h
        .fake
        .wait_for("the take-back button to go", |f| {
            f.message(told[1].id).filter(|m| m.components.is_empty())
        })
        .await;
    assert_eq!(answered.content, told[1].content);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_resign_policy_ends_a_duel_at_its_deadline() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    // `timeout` choice 1: resign.
    let duel = duel(&h, alice, bob, &[("timeout", OptionValue::Int(1))]).await;
    assert_eq!(h.load(duel.game).config.timeout, TimeoutPolicy::Resign);
    let loser = team_on_turn(&h, duel.game);
    let loser_user = on_turn(&h, duel.game);
    let winner = if loser == 1 { 2 } else { 1 };
    let prompt = crate::bot::play::prompt(&h, loser_user, duel.game, 1).await;

    h.advance(24 * HOUR + 1);
    let over = h
        .fake
        .wait_message(duel.thread, |m| m.content.starts_with("🏁"))
        .await;
    // It says that time ran out, not that the player resigned by hand.
    assert!(
        over.content.contains(&format!(
            "<@{loser_user}> let the turn's time run out, which resigns the game"
        )),
        "{}",
        over.content
    );
    let loaded = h.load(duel.game);
    assert_eq!(loaded.status, GameStatus::Finished);
    assert_eq!(
        loaded.end,
        Some(GameEnd::Resigned {
            team: jackal::engine::Team::of(loser),
            winners: vec![jackal::engine::Team::of(winner)],
            timed_out: true,
        })
    );
    // The late player's prompt is closed with the result: nothing left to press.
    let closed = h
        .fake
        .wait_for("the prompt to be closed", |f| {
            f.message(prompt.id).filter(|m| m.components.is_empty())
        })
        .await;
    assert!(
        closed
            .content
            .starts_with(&format!("🏁 Jackal #{}: ", duel.game)),
        "{}",
        closed.content
    );
    assert_eq!(loaded.ply, 0, "nobody moved");
    assert_eq!(h.service.deadline_of(duel.game).unwrap(), None);
    assert!(move_posts(&h, duel.thread).is_empty());
}
