//! A whole two-player game on a 5×5 island, from `/jackal new` to game over, played only
//! through slash commands, autocomplete, buttons and menus: Alice plays from her DMs, Bob
//! types `/jackal move` in the game's thread.

use jackal::engine::Game;
use jackal::store::GameStatus;
use serenity::all::ChannelId;

use crate::bot::harness::{Harness, board_picture, custom_id, game_of, posts, select_values};
use crate::bot::play;
use fake_discord::OptionValue;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_from_new_to_game_over() {
    let h = Harness::start().await;
    let fake = &h.fake;
    assert!(
        h.bot()
            .invite_url
            .contains("scope=bot%20applications.commands")
    );
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let general = fake.general();

    // The lobby: two players on a 5×5 island.
    let ix = h
        .jackal(
            alice,
            general,
            "new",
            &[
                ("players", OptionValue::Int(0)),
                ("size", OptionValue::Int(0)),
            ],
        )
        .await;
    let lobby = h.reply(&ix).await;
    assert!(!lobby.is_ephemeral());
    assert!(lobby.content.contains("5×5"), "{}", lobby.content);
    assert!(lobby.content.contains(&format!("<@{alice}>")));
    assert!(lobby.pinged_users().is_empty(), "the lobby pings nobody");
    let game = game_of(&lobby);

    // The owner shortens the stall guard in the settings panel (two menus).
    let ix = fake.click(alice, lobby.id, &format!("jk1:lobby:{game}:settings"));
    let panel = h.reply(&ix).await;
    assert!(panel.is_ephemeral());
    let pick = custom_id(&panel, "jk1:setting:");
    let ix = fake.select(alice, panel.id, &pick, &["stall_rounds"]);
    fake.response(&ix).await;
    let panel = h.changed(&panel).await;
    assert!(select_values(&panel).iter().any(|(_, v)| v == "25"));
    let ix = fake.select(alice, panel.id, &custom_id(&panel, "jk1:value:"), &["25"]);
    fake.response(&ix).await;
    let panel = h.changed(&panel).await;
    assert!(panel.content.contains("#1"), "{}", panel.content);
    let lobby = h.changed(&lobby).await;
    assert!(
        lobby.content.contains("25"),
        "the lobby shows the changed rule: {}",
        lobby.content
    );
    assert_eq!(h.load(game).config.rules.stall_rounds, 25);

    // Bob joins; the owner starts.
    let ix = fake.click(bob, lobby.id, &format!("jk1:lobby:{game}:join"));
    fake.response(&ix).await;
    let lobby = h.changed(&lobby).await;
    assert!(
        lobby.content.contains(&format!("<@{bob}>")),
        "{}",
        lobby.content
    );
    let ix = fake.click(alice, lobby.id, &format!("jk1:lobby:{game}:start"));
    fake.response(&ix).await;

    // A thread opens on the lobby message, named after the game and its players.
    let thread = fake
        .wait_for("the game's thread", |f| f.threads().first().copied())
        .await;
    assert_eq!(
        thread.get(),
        lobby.id.get(),
        "the thread starts from the lobby message"
    );
    let channel = fake.channel(thread).expect("the thread");
    assert!(
        channel.name.contains("Jackal #1") && channel.name.contains("alice"),
        "{}",
        channel.name
    );
    let start = fake
        .wait_message(thread, |m| m.content.contains("begins"))
        .await;
    board_picture(fake, &start).await;
    let first = h.load(game).state.expect("started").controller();
    let first_user = h
        .load(game)
        .team_seat(first)
        .and_then(|s| s.user_id)
        .expect("a person");
    assert_eq!(
        start.pinged_users(),
        vec![serenity::all::UserId::from(first_user)],
        "only the player on turn is pinged"
    );
    let lobby = fake.message(lobby.id).expect("lobby");
    assert!(
        lobby.custom_ids().is_empty(),
        "a started lobby has no buttons"
    );

    // The game, move by move.
    let mut moves = 0;
    loop {
        let loaded = h.load(game);
        if loaded.status != GameStatus::Active {
            break;
        }
        let state = loaded.state.clone().expect("running");
        let user = loaded
            .team_seat(state.controller())
            .and_then(|s| s.user_id)
            .expect("two people play");
        let number = state.ply() + 1;
        let done = if user == alice.into() {
            let dm = play::prompt(&h, alice, game, number).await;
            board_picture(fake, &dm).await;
            play::through_picker(&h, alice, dm).await
        } else {
            play::by_command(&h, bob, ChannelId::new(thread.get())).await
        };
        assert!(done.content.contains('✅'), "{}", done.content);
        let after = h.load(game);
        assert!(after.ply >= number, "the move was stored");
        moves += 1;
        assert!(moves < 400, "the game should have ended");
        // Its post in the thread.
        let header = format!("· move {}**", after.moves);
        fake.wait_message(thread, |m| m.content.contains(&header))
            .await;
    }

    // The end: a result post with the final board, and the stored game equals a replay of
    // its own action log.
    let over = fake
        .wait_message(thread, |m| m.content.starts_with("🏁"))
        .await;
    board_picture(fake, &over).await;
    // Each player's rating on the server's ladder moved, and the post says how: both start at
    // 0 (the conservative 25 − 3 × 25/3), and a game leaves them surer of it.
    let rating_lines: Vec<&str> = over
        .content
        .lines()
        .filter(|l| l.contains(" · rating 0.0 → "))
        .collect();
    assert_eq!(rating_lines.len(), 2, "{}", over.content);
    assert!(
        rating_lines.iter().all(|l| l.contains(", ±")),
        "{}",
        over.content
    );
    // Under it, the whole game as an animation: one GIF, a frame a step.
    let replay = fake
        .wait_message(thread, |m| {
            m.attachments
                .iter()
                .any(|a| a.filename == format!("jackal-{game}-replay.gif"))
        })
        .await;
    let gif = &replay.attachments[0].bytes;
    assert!(replay.id > over.id, "after the result");
    let loaded = h.load(game);
    assert_eq!(loaded.status, GameStatus::Finished);
    assert!(loaded.end.is_some());
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(gif))
        .unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert!(
        frames > loaded.ply as usize / 2,
        "{frames} frames for {} steps",
        loaded.ply
    );
    let mut replay = Game::new(loaded.config.rules.clone(), loaded.seed.expect("seed")).unwrap();
    for entry in h.service.history(game).unwrap() {
        replay.play(&entry.action.expect("readable")).unwrap();
    }
    assert_eq!(Some(&replay), loaded.state.as_ref());

    // Every move has one post, each with its picture; no post was made twice.
    let thread_posts = posts(fake, ChannelId::new(thread.get()));
    let move_posts: Vec<_> = thread_posts
        .iter()
        .filter(|m| m.content.contains("· move "))
        .collect();
    let mut headers: Vec<&str> = move_posts
        .iter()
        .map(|m| m.content.lines().next().unwrap_or_default())
        .collect();
    let count = headers.len();
    headers.dedup();
    assert_eq!(headers.len(), count, "a post was made twice");
    for m in &move_posts {
        assert_eq!(
            m.png_attachments().len(),
            1,
            "{}: {:?}",
            m.content,
            m.attachments
                .iter()
                .map(|a| (&a.filename, &a.content_type, a.bytes.len()))
                .collect::<Vec<_>>()
        );
    }
    crate::bot::harness::dump(fake, ChannelId::new(thread.get()), "thread").await;
    crate::bot::harness::dump(fake, fake.dm_channel(alice).expect("DMs"), "alice-dm").await;
    crate::bot::harness::dump(fake, general, "general").await;
    // Alice's prompts lost their buttons once their turns were over.
    let dm = fake.dm_channel(alice).expect("Alice got DMs");
    let live: Vec<_> = fake
        .messages_in(dm)
        .into_iter()
        .filter(|m| m.custom_ids().iter().any(|id| id.starts_with("jk1:pick:")))
        .collect();
    assert!(
        live.is_empty(),
        "prompts with buttons left: {:?}",
        live.iter().map(|m| &m.content).collect::<Vec<_>>()
    );
}
