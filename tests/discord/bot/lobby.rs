//! Lobbies through their message's buttons: a 2x2 game with a bot seat played in its thread,
//! leaving (and the owner leaving), two people racing for the last seat, and a start pressed
//! on a lobby that emptied meanwhile.

use jackal::id::GameId;
use std::collections::HashMap;

use jackal::game::Actor;
use jackal::store::GameStatus;
use serenity::all::{ChannelId, UserId};

use crate::bot::harness::{
    Harness, board_picture, buttons, custom_id, game_of, posts, select_values,
};
use crate::bot::play;
use fake_discord::{Message, OptionValue};

/// The lobby's seat lines ("2. 🟦 <@…>"), in order.
fn seat_lines(message: &Message) -> Vec<String> {
    message
        .content
        .lines()
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u8>().is_ok_and(|n| (1..=4).contains(&n)))
        })
        .map(str::to_string)
        .collect()
}

/// The seat line of `team`.
fn seat_line(message: &Message, team: u8) -> String {
    seat_lines(message)
        .into_iter()
        .find(|l| l.starts_with(&format!("{team}. ")))
        .unwrap_or_else(|| panic!("no seat {team} in {}", message.content))
}

/// Whether the button `custom_id` on a message is greyed out.
fn disabled(message: &Message, custom_id: &str) -> bool {
    fn find(components: &[serde_json::Value], id: &str) -> Option<bool> {
        components.iter().find_map(|c| {
            if c["custom_id"] == id {
                return Some(c["disabled"] == true);
            }
            find(c["components"].as_array()?, id)
        })
    }
    find(&message.components, custom_id)
        .unwrap_or_else(|| panic!("no `{custom_id}` on {:?}", message.custom_ids()))
}

fn lobby_id(game: GameId, button: &str) -> String {
    format!("jk1:lobby:{game}:{button}")
}

/// A 2x2 lobby's settings, in words, as every version of its message shows them.
fn assert_settings_in_words(message: &Message) {
    let text = &message.content;
    for words in [
        "Players: 2 against 2",
        "Board: 7×7",
        "Tiles: full (with the expansion)",
        "Turn time: 1 day",
        "Reminder before the deadline: 3 hours",
        "When time runs out: a bot plays the turn",
        "Teams 1 and 3 play together against teams 2 and 4.",
        "**Seats**",
    ] {
        assert!(text.contains(words), "`{words}` missing from:\n{text}");
    }
    for raw in [
        "board_size",
        "turn_time",
        "2x2",
        "value-",
        "setting-",
        "lobby-",
    ] {
        assert!(!text.contains(raw), "raw `{raw}` in:\n{text}");
    }
    assert_eq!(seat_lines(message).len(), 4, "{text}");
}

/// The team `user` sits in.
fn team_of(h: &Harness, game: GameId, user: UserId) -> u8 {
    h.load(game)
        .seat_of(user.into())
        .unwrap_or_else(|| panic!("{user} has no seat"))
        .team
        .number()
}

/// Presses a lobby button and returns the lobby message once the press changed it.
async fn press(h: &Harness, user: UserId, lobby: &Message, button: &str) -> Message {
    let game = game_of(lobby);
    let ix = h.fake.click(user, lobby.id, &lobby_id(game, button));
    let callback = h.fake.response(&ix).await;
    assert_eq!(callback.kind, 6, "the lobby is edited in place");
    h.changed(lobby).await
}

/// The owner presses "Add bot": with one bot level the bot sits at once; with several, a
/// private menu asks which (the first is taken). Returns the lobby once it shows the bot.
async fn add_bot(h: &Harness, owner: UserId, lobby: &Message) -> Message {
    let game = game_of(lobby);
    let bots = lobby.content.matches('🤖').count();
    let ix = h.fake.click(owner, lobby.id, &lobby_id(game, "bot"));
    if h.fake.response(&ix).await.kind != 6 {
        let menu = h.reply(&ix).await;
        assert!(menu.is_ephemeral(), "{}", menu.content);
        let level = select_values(&menu)[0].1.clone();
        let ix = h.fake.select(
            owner,
            menu.id,
            &custom_id(&menu, "jk1:botlevel:"),
            &[&level],
        );
        h.fake.response(&ix).await;
    }
    h.fake
        .wait_for("the lobby to show the bot", |f| {
            f.message(lobby.id)
                .filter(|m| m.content.matches('🤖').count() > bots)
        })
        .await
}

/// `/jackal new` in #general with these options; the lobby message.
async fn new_lobby(h: &Harness, owner: UserId, options: &[(&str, OptionValue)]) -> Message {
    let ix = h.jackal(owner, h.fake.general(), "new", options).await;
    let lobby = h.reply(&ix).await;
    assert!(!lobby.is_ephemeral());
    lobby
}

/// The private refusal that followed an acknowledged press.
async fn refusal(h: &Harness, ix: &fake_discord::InteractionHandle) -> Message {
    let reply = h.fake.followups(ix, 1).await.remove(0);
    assert!(
        reply.is_ephemeral(),
        "a refusal is private: {}",
        reply.content
    );
    reply
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2x2_game_with_a_bot_seat_played_in_its_thread() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let carol = fake.add_member("carol");

    // Four seats, two against two; the owner sits at once. A 7×7 island: on a 5×5 one the
    // little gold there is may be home after the bot's second turn, and the game over.
    let lobby = new_lobby(
        &h,
        alice,
        &[
            ("players", OptionValue::Int(3)),
            ("size", OptionValue::Int(1)),
        ],
    )
    .await;
    let game = game_of(&lobby);
    assert_settings_in_words(&lobby);
    let a = team_of(&h, game, alice);
    assert!(seat_line(&lobby, a).contains(&format!("<@{alice}>")));
    assert_eq!(
        seat_lines(&lobby)
            .iter()
            .filter(|l| l.ends_with("(free)"))
            .count(),
        3,
        "{}",
        lobby.content
    );
    assert!(disabled(&lobby, &lobby_id(game, "start")));
    assert!(!disabled(&lobby, &lobby_id(game, "join")));

    // Bob joins.
    let lobby = press(&h, bob, &lobby, "join").await;
    assert_settings_in_words(&lobby);
    let b = team_of(&h, game, bob);
    assert!(seat_line(&lobby, b).contains(&format!("<@{bob}>")));
    assert_eq!(
        seat_lines(&lobby)
            .iter()
            .filter(|l| l.ends_with("(free)"))
            .count(),
        2
    );

    // The owner adds a bot: it takes the first free seat.
    let bot_team = h.load(game).free_seats()[0].number();
    let lobby = add_bot(&h, alice, &lobby).await;
    assert_settings_in_words(&lobby);
    assert!(
        seat_line(&lobby, bot_team).contains("🤖 bot"),
        "{}",
        lobby.content
    );
    assert!(
        h.load(game)
            .seat(bot_team)
            .is_some_and(|s| s.user_id.is_none())
    );
    assert!(
        disabled(&lobby, &lobby_id(game, "start")),
        "a seat is still free"
    );

    // Carol fills the last seat: Join and Add bot grey out, Start lights up.
    let lobby = press(&h, carol, &lobby, "join").await;
    assert_settings_in_words(&lobby);
    let c = team_of(&h, game, carol);
    assert!(seat_line(&lobby, c).contains(&format!("<@{carol}>")));
    assert!(!lobby.content.contains("(free)"), "{}", lobby.content);
    assert!(disabled(&lobby, &lobby_id(game, "join")));
    assert!(disabled(&lobby, &lobby_id(game, "bot")));
    assert!(!disabled(&lobby, &lobby_id(game, "start")));
    assert!(lobby.pinged_users().is_empty(), "the lobby pings nobody");

    // Start: the thread opens on the lobby message, which says so and loses its buttons.
    let lobby = press(&h, alice, &lobby, "start").await;
    let thread = fake
        .wait_for("the game's thread", |f| f.threads().first().copied())
        .await;
    let lobby = fake
        .wait_for("the lobby to point at the thread", |f| {
            f.message(lobby.id)
                .filter(|m| m.content.contains(&format!("<#{thread}>")))
        })
        .await;
    assert!(
        lobby.content.contains("▶️ The game has started"),
        "{}",
        lobby.content
    );
    assert!(lobby.custom_ids().is_empty());
    assert_settings_in_words(&lobby);
    let thread = ChannelId::new(thread.get());
    let start = fake
        .wait_message(thread, |m| m.content.contains("begins"))
        .await;
    board_picture(fake, &start).await;
    assert!(start.content.contains("🤖 bot"), "{}", start.content);
    let my_moves = buttons(&start)
        .into_iter()
        .find(|(_, id)| id.starts_with("jk1:moves:"))
        .expect("My moves under the start post")
        .1;

    // Each person plays a few moves (Alice from her DMs, Bob by command, Carol with
    // "My moves" under the board); the bot's turns are played by its timer, at once.
    // (Under the weed, R-WEED-2, each team is commanded by the player before it for a round:
    // the bot may move a person's team, and a person the bot's.)
    let bot_turns = || {
        let history = h.service.history(game).unwrap();
        (0..history.len())
            .filter(|&i| {
                let entry = &history[i];
                let ends_turn = history.get(i + 1).is_none_or(|n| n.team != entry.team);
                entry.user_id.is_none() && entry.team == bot_team && ends_turn
            })
            .map(|i| history[i].ply)
            .collect::<Vec<u32>>()
    };
    let mut moves: HashMap<UserId, u32> = HashMap::new();
    for _ in 0..80 {
        let loaded = h.load(game);
        assert_eq!(loaded.status, GameStatus::Active, "the game goes on");
        if [alice, bob, carol]
            .iter()
            .all(|u| moves.get(u).copied().unwrap_or(0) >= 2)
            && bot_turns().len() >= 2
        {
            break;
        }
        let state = loaded.state.clone().expect("running");
        let ply = state.ply();
        let on_turn = loaded.team_seat(state.controller()).and_then(|s| s.user_id);
        let done = match on_turn.map(UserId::from) {
            None => {
                h.bot().wake();
                fake.wait_for("the bot's move", |_| (h.load(game).ply > ply).then_some(()))
                    .await;
                continue;
            }
            Some(user) if user == alice => {
                let dm = play::prompt(&h, alice, game, ply + 1).await;
                play::through_picker(&h, alice, dm).await
            }
            Some(user) if user == bob => play::by_command(&h, bob, thread).await,
            Some(user) => {
                assert_eq!(user, carol);
                let ix = fake.click(carol, start.id, &my_moves);
                let picker = h.reply(&ix).await;
                assert!(picker.is_ephemeral());
                play::through_picker(&h, carol, picker).await
            }
        };
        assert!(done.content.contains('✅'), "{}", done.content);
        *moves.entry(on_turn.map(UserId::from).unwrap()).or_default() += 1;
    }
    assert!(
        [alice, bob, carol].iter().all(|u| moves[u] >= 2),
        "{moves:?}"
    );

    // Once the bot has finished any turn it is on, every move so far has its post; the bot's
    // are named after it.
    fake.wait_for("a person's turn", |_| {
        let loaded = h.load(game);
        let state = loaded.state.as_ref()?;
        loaded
            .team_seat(state.controller())
            .and_then(|s| s.user_id)
            .map(|_| ())
    })
    .await;
    let last = h.move_number(game, h.load(game).ply);
    fake.wait_message(thread, |m| m.content.contains(&format!("· move {last}**")))
        .await;
    let bot_mark = ["🟠", "🟦", "🟩", "🟪"][usize::from(bot_team) - 1];
    let thread_posts = posts(fake, thread);
    let mut bot_posts = 0;
    for ply in bot_turns() {
        let number = h.move_number(game, ply);
        let post = thread_posts
            .iter()
            .find(|m| m.content.contains(&format!("· move {number}**")))
            .unwrap_or_else(|| panic!("no post for the bot's move {ply}"));
        let header = post.content.lines().next().unwrap_or_default();
        assert!(
            header.contains(&format!("· {bot_mark} 🤖 bot")),
            "the post names the bot: {header}"
        );
        assert_eq!(post.png_attachments().len(), 1, "with its board");
        bot_posts += 1;
    }
    assert!(bot_posts >= 2, "the bot moved and its moves were posted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leave_frees_a_seat_and_the_owner_leaving_cancels_the_lobby() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let lobby = new_lobby(&h, alice, &[("players", OptionValue::Int(2))]).await;
    let game = game_of(&lobby);

    let lobby = press(&h, bob, &lobby, "join").await;
    let b = team_of(&h, game, bob);
    assert!(seat_line(&lobby, b).contains(&format!("<@{bob}>")));

    // Bob leaves: his seat is free again, in the message and in the game.
    let lobby = press(&h, bob, &lobby, "leave").await;
    assert!(
        seat_line(&lobby, b).ends_with("(free)"),
        "{}",
        lobby.content
    );
    assert!(!lobby.content.contains(&format!("<@{bob}>")));
    assert!(h.load(game).seat_of(bob.into()).is_none());
    assert_eq!(h.load(game).status, GameStatus::Lobby);
    assert!(!disabled(&lobby, &lobby_id(game, "join")));

    // The owner leaves: the lobby is cancelled, says so, and its buttons go.
    let lobby = press(&h, alice, &lobby, "leave").await;
    assert!(
        lobby.content.contains("The game was cancelled."),
        "{}",
        lobby.content
    );
    assert!(lobby.custom_ids().is_empty(), "{:?}", lobby.custom_ids());
    assert_eq!(h.load(game).status, GameStatus::Cancelled);
    // The game-over row redraws the same message; it stays cancelled and without buttons.
    fake.wait_for("the outbox to be delivered", |_| {
        h.service
            .pending_messages()
            .unwrap()
            .is_empty()
            .then_some(())
    })
    .await;
    let lobby = fake.message(lobby.id).expect("lobby");
    assert!(lobby.content.contains("The game was cancelled."));
    assert!(lobby.custom_ids().is_empty());
    assert!(fake.threads().is_empty(), "no thread for a cancelled lobby");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_racing_for_the_last_seat_one_is_refused_kindly() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let carol = fake.add_member("carol");
    let lobby = new_lobby(&h, alice, &[("players", OptionValue::Int(0))]).await;
    let game = game_of(&lobby);

    // Both press Join on the same message, before either press is answered.
    let join = lobby_id(game, "join");
    let by_bob = fake.click(bob, lobby.id, &join);
    let by_carol = fake.click(carol, lobby.id, &join);
    fake.response(&by_bob).await;
    fake.response(&by_carol).await;
    let loaded = fake
        .wait_for("one of them seated", |_| {
            let l = h.load(game);
            (l.free_seats().is_empty()).then_some(l)
        })
        .await;
    let (winner, loser, lost) = if loaded.seat_of(bob.into()).is_some() {
        (bob, carol, by_carol)
    } else {
        (carol, bob, by_bob)
    };
    assert!(loaded.seat_of(loser.into()).is_none());
    let refused = refusal(&h, &lost).await;
    assert_eq!(
        refused.content,
        format!("Every seat of game #{game} is taken.")
    );
    assert!(refused.custom_ids().is_empty());

    // The lobby shows the winner, full.
    let lobby = fake
        .wait_for("the lobby to show the winner", |f| {
            f.message(lobby.id)
                .filter(|m| m.content.contains(&format!("<@{winner}>")))
        })
        .await;
    assert!(!lobby.content.contains(&format!("<@{loser}>")));
    assert!(disabled(&lobby, &join));
    assert!(!disabled(&lobby, &lobby_id(game, "start")));

    // Nothing broke: the owner starts.
    press(&h, alice, &lobby, "start").await;
    fake.wait_for("the game's thread", |f| f.threads().first().copied())
        .await;
    assert_eq!(h.load(game).status, GameStatus::Active);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_with_empty_seats_is_refused_with_the_seats_named() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let carol = fake.add_member("carol");
    let dave = fake.add_member("dave");
    let lobby = new_lobby(&h, alice, &[("players", OptionValue::Int(2))]).await;
    let game = game_of(&lobby);
    let mut lobby = lobby;
    for user in [bob, carol, dave] {
        lobby = press(&h, user, &lobby, "join").await;
    }
    assert!(!disabled(&lobby, &lobby_id(game, "start")));

    // Bob and Dave leave while the owner looks at the full lobby (their leaving reaches the
    // game, not yet her screen) and she presses Start.
    let mut empty = Vec::new();
    for user in [bob, dave] {
        empty.push(team_of(&h, game, user));
        h.service.leave(Actor::user(user.into()), game).unwrap();
    }
    empty.sort();
    let before = h.load(game);
    let ix = fake.click(alice, lobby.id, &lobby_id(game, "start"));
    let refused = refusal(&h, &ix).await;
    assert_eq!(
        refused.content,
        format!(
            "Seats {}, {} are still empty: wait for players to join, or add bots.",
            empty[0], empty[1]
        )
    );
    let after = h.load(game);
    assert_eq!(after, before, "nothing changed");
    assert_eq!(after.status, GameStatus::Lobby);
    assert!(fake.threads().is_empty());

    // Bob comes back to his seat: one seat is left, named in the singular.
    h.service
        .join(Actor::user(bob.into()), game, Some(empty[0]))
        .unwrap();
    let ix = fake.click(alice, lobby.id, &lobby_id(game, "start"));
    let refused = refusal(&h, &ix).await;
    assert_eq!(
        refused.content,
        format!(
            "Seat {} is still empty: wait for players to join, or add bots.",
            empty[1]
        )
    );
    assert_eq!(h.load(game).status, GameStatus::Lobby);

    // The refusals crashed nothing. A change of settings redraws the lobby as it is (one
    // seat free), a bot takes that seat, and the game starts.
    let ix = h
        .jackal(
            alice,
            fake.general(),
            "settings",
            &[("setting", "turn_time".into()), ("value", "2d".into())],
        )
        .await;
    assert!(h.reply(&ix).await.is_ephemeral());
    let lobby = fake
        .wait_for("the lobby redrawn", |f| {
            f.message(lobby.id)
                .filter(|m| m.content.contains("Turn time: 2 days"))
        })
        .await;
    assert!(
        seat_line(&lobby, empty[1]).ends_with("(free)"),
        "{}",
        lobby.content
    );
    assert!(disabled(&lobby, &lobby_id(game, "start")));
    let lobby = add_bot(&h, alice, &lobby).await;
    assert!(seat_line(&lobby, empty[1]).contains("🤖 bot"));
    press(&h, alice, &lobby, "start").await;
    fake.wait_for("the game's thread", |f| f.threads().first().copied())
        .await;
    assert_eq!(h.load(game).status, GameStatus::Active);
}
