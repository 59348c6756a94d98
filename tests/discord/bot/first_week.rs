//! The rough edges a new server met in its first week: turn times that refused their own
//! default reminder, a lobby message that never told the result, DMs that lost the record of
//! what was played, move numbers that skipped, picture names, closed DMs tried every turn.

use jackal::store::GameStatus;

use crate::bot::harness::Harness;
use fake_discord::OptionValue;

/// Every turn time `/jackal new` offers opens a lobby as it is: the reminder nobody chose
/// shrinks to fit a short turn. Only a reminder chosen on purpose can be refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_offered_turn_time_is_accepted_with_a_reminder_that_fits() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let offered = [
        "1 hour", "6 hours", "12 hours", "1 day", "2 days", "3 days", "7 days",
    ];
    for (choice, words) in offered.iter().enumerate() {
        let ix = h
            .jackal(
                alice,
                fake.general(),
                "new",
                &[("turn_time", OptionValue::Int(choice as i64))],
            )
            .await;
        let lobby = h.reply(&ix).await;
        assert!(
            !lobby.is_ephemeral(),
            "turn time {words} refused: {}",
            lobby.content
        );
        assert!(
            lobby.content.contains(&format!("Turn time: {words}")),
            "{}",
            lobby.content
        );
        let game = crate::bot::harness::game_of(&lobby);
        let config = h.load(game).config;
        assert!(
            config.reminder_seconds > 0 && config.reminder_seconds < config.turn_seconds,
            "{words}: reminder {} s",
            config.reminder_seconds
        );
        // Cancel it, so the next `/jackal new` in the channel is not refused as a second lobby.
        let ix = fake.click(alice, lobby.id, &format!("jk1:lobby:{game}:cancel"));
        fake.response(&ix).await;
        fake.wait_for("the lobby to be cancelled", |_| {
            (h.load(game).status == GameStatus::Cancelled).then_some(())
        })
        .await;
    }

    // An hour's turn reminds 20 minutes before its deadline; a 6-hour one keeps 3 hours.
    let ix = h
        .jackal(
            alice,
            fake.general(),
            "new",
            &[("turn_time", OptionValue::Int(0))],
        )
        .await;
    let lobby = h.reply(&ix).await;
    assert!(
        lobby
            .content
            .contains("Reminder before the deadline: 20 minutes"),
        "{}",
        lobby.content
    );
    // The settings command follows the same rule: a shorter turn shrinks the default reminder…
    let game = crate::bot::harness::game_of(&lobby);
    let ix = h
        .jackal(
            alice,
            fake.general(),
            "settings",
            &[("setting", "turn_time".into()), ("value", "6h".into())],
        )
        .await;
    assert!(h.reply(&ix).await.is_ephemeral());
    fake.wait_for("six-hour turns", |_| {
        (h.load(game).config.turn_seconds == 6 * 3600).then_some(())
    })
    .await;
    assert_eq!(h.load(game).config.reminder_seconds, 3 * 3600);
    // …while a reminder chosen on purpose that would not come before the deadline is refused.
    let ix = h
        .jackal(
            alice,
            fake.general(),
            "settings",
            &[("setting", "reminder".into()), ("value", "12h".into())],
        )
        .await;
    let refused = h.reply(&ix).await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.content.starts_with(
            "A reminder 12 hours before the deadline would come no later than the turn"
        ),
        "{}",
        refused.content
    );
    assert_eq!(h.load(game).config.reminder_seconds, 3 * 3600);
}

/// A player who plays from their DM keeps the record of what they played there: the prompt
/// loses its buttons, and says the move is over and what it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_prompt_keeps_what_was_played() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let duel = crate::bot::deadlines::duel(&h, alice, bob, &[]).await;
    let first = crate::bot::deadlines::on_turn(&h, duel.game);
    let prompt = crate::bot::play::prompt(&h, first, duel.game, 1).await;
    let done = crate::bot::play::through_picker(&h, first, prompt.clone()).await;
    // The picker's own answer ("✅ Played: X. The board…"), or already the prompt retired
    // ("… is over. Played: X.").
    let played = done
        .content
        .split("Played: ")
        .nth(1)
        .and_then(|rest| rest.split(". The board").next())
        .map(|words| words.trim_end_matches('.'))
        .unwrap_or_else(|| panic!("what was played: {}", done.content))
        .to_string();
    // The turn's end retires the prompt (in the store, then on Discord). The picker's own
    // answer and that edit may land in either order: each says what was played.
    let retired = h
        .fake
        .wait_for("the prompt to be retired", |f| {
            let open = h.service.open_prompts(duel.game).unwrap();
            f.message(prompt.id)
                .filter(|m| open.is_empty() && m.components.is_empty())
        })
        .await;
    assert!(
        retired.content.starts_with(&format!(
            "✅ Your turn in Jackal #{} (move 1) is over. Played: ",
            duel.game
        )) || retired.content.contains("✅ Played: "),
        "{}",
        retired.content
    );
    assert!(
        retired.content.contains(&played),
        "`{played}` missing from: {}",
        retired.content
    );
}

/// Every board picture is named after its game and ply: the DM's, the one "My moves" opens,
/// the thread's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn board_pictures_are_named_after_their_game_and_ply() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let duel = crate::bot::deadlines::duel(&h, alice, bob, &[]).await;
    let game = duel.game;
    let name = |ply: u32| format!("jackal-{game}-{ply}.png");
    let first = crate::bot::deadlines::on_turn(&h, game);
    let prompt = crate::bot::play::prompt(&h, first, game, 1).await;
    assert_eq!(prompt.png_attachments()[0].filename, name(0));
    let start = crate::bot::harness::posts(fake, duel.thread)
        .into_iter()
        .find(|m| m.content.contains("begins"))
        .expect("the first post");
    assert_eq!(start.png_attachments()[0].filename, name(0));
    let ix = fake.click(first, start.id, &format!("jk1:moves:{game}"));
    let mine = crate::bot::duel::private_answer(&h, &ix).await;
    assert_eq!(mine.png_attachments()[0].filename, name(0));

    // After a move, the thread's post and the next player's pictures follow.
    let ply = crate::bot::deadlines::play_in_thread(&h, &duel).await;
    let post = crate::bot::deadlines::move_post(&h, duel.thread, ply).await;
    assert_eq!(post.png_attachments()[0].filename, name(ply));
    let next = crate::bot::deadlines::on_turn(&h, game);
    let ix = fake.click(next, post.id, &format!("jk1:moves:{game}"));
    let mine = crate::bot::duel::private_answer(&h, &ix).await;
    assert_eq!(mine.png_attachments()[0].filename, name(ply));
}

/// The lobby message tells the whole story: never "has started ." without its thread, and at
/// the end the result, the scores and a link to the post that told them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_message_ends_with_the_result_and_a_link() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let duel = crate::bot::deadlines::duel(&h, alice, bob, &[]).await;
    // The thread opens on the lobby message: they share their id.
    let lobby_id = serenity::all::MessageId::new(duel.thread.get());
    let lobby = fake
        .wait_for("the lobby to name its thread", |f| {
            f.message(lobby_id)
                .filter(|m| m.content.contains(&format!("<#{}>", duel.thread)))
        })
        .await;
    assert!(
        lobby
            .content
            .ends_with(&format!("▶️ The game has started in <#{}>.", duel.thread)),
        "{}",
        lobby.content
    );

    // Bob resigns: the duel is over.
    let confirm = crate::bot::duel::ask(&h, bob, duel.thread, "resign", &[]).await;
    let resign = crate::bot::harness::custom_id(&confirm, "jk1:resign:");
    let ix = fake.click(bob, confirm.id, &resign);
    fake.response(&ix).await;
    let over = fake
        .wait_message(duel.thread, |m| m.content.starts_with("🏁"))
        .await;
    let link = format!(
        "https://discord.com/channels/{}/{}/{}",
        fake.guild(),
        duel.thread,
        over.id
    );
    let ended = fake
        .wait_for("the lobby to tell the end", |f| {
            f.message(lobby_id).filter(|m| m.content.contains(&link))
        })
        .await;
    let first_line = over.content.lines().next().unwrap_or_default();
    assert!(ended.content.contains(first_line), "{}", ended.content);
    // The scores as the post gives them; the ratings' move is the post's alone.
    for line in over.content.lines().skip(1) {
        let (scores, rating) = line.split_once(" · rating ").unwrap_or((line, ""));
        assert!(
            ended.content.contains(scores),
            "`{scores}` missing: {}",
            ended.content
        );
        assert!(!rating.is_empty(), "the post gives the rating: {line}");
    }
    assert!(!ended.content.contains("has started"), "{}", ended.content);
    assert!(ended.components.is_empty());

    // No version of the lobby message ever said it started without saying where.
    for entry in fake.rest_log() {
        let Some(content) = entry.body.as_ref().and_then(|b| b["content"].as_str()) else {
            continue;
        };
        if content.contains("has started") {
            assert!(
                content.contains("<#"),
                "{} {}: {content}",
                entry.method,
                entry.path
            );
        }
    }
}

/// Private messages speak the reader's language: a Russian player in a game an English
/// speaker opened gets their turns in Russian, while the game's thread stays English.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dms_speak_the_players_language_not_the_games() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let ivan = fake.add_member("ivan");
    fake.set_locale(ivan, "ru");
    let duel = crate::bot::deadlines::duel(&h, alice, ivan, &[]).await;
    let game = duel.game;
    while crate::bot::deadlines::on_turn(&h, game) != ivan {
        crate::bot::deadlines::play_in_thread(&h, &duel).await;
    }
    let heading = format!(
        "**Ваш ход** · Шакал #{game} · ход {} ",
        h.load(game).move_number()
    );
    let prompt = fake
        .wait_dm(ivan, |m| {
            m.content.starts_with(&heading) && !m.components.is_empty()
        })
        .await;
    assert!(
        prompt
            .content
            .starts_with(&format!("**Ваш ход** · Шакал #{game} · ход ")),
        "{}",
        prompt.content
    );
    // The thread speaks the game's language.
    let posts = crate::bot::harness::posts(fake, duel.thread);
    assert!(posts.iter().any(|m| m.content.contains("begins")));
    // Played from the DM, the prompt keeps, in Russian, what was played.
    crate::bot::play::through_picker(&h, ivan, prompt.clone()).await;
    let retired = fake
        .wait_for("the prompt to be retired", |f| {
            let open = h.service.open_prompts(game).unwrap();
            f.message(prompt.id)
                .filter(|m| open.is_empty() && m.components.is_empty())
        })
        .await;
    // The turn's end, or the picker's own answer (they may land in either order).
    assert!(
        retired.content.contains("завершён. Сыграно: ")
            || retired.content.contains("✅ Сделан ход: "),
        "{}",
        retired.content
    );
}

/// Vacations say what changes: a second one replaces the first (and says so), and moving
/// ends one in the mover's own answer, with the allowance given back and what is left
/// counted to the hour (seconds held are not an hour spent).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_says_what_changes_and_moving_ends_it_in_your_answer() {
    use fake_discord::OptionValue;
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let duel = crate::bot::deadlines::duel(&h, alice, bob, &[]).await;
    let away = crate::bot::deadlines::on_turn(&h, duel.game);
    async fn vacation(h: &Harness, user: serenity::all::UserId, length: &str) -> String {
        let length = OptionValue::Str(length.to_string());
        let ix = h
            .jackal(user, h.fake.general(), "vacation", &[("length", length)])
            .await;
        h.reply(&ix).await.content
    }
    let first = vacation(&h, away, "5d").await;
    assert!(first.starts_with("🏖️ You are on vacation until"), "{first}");
    let second = vacation(&h, away, "2d").await;
    assert!(
        second.starts_with("🏖️ This replaces your vacation that was to end <t:"),
        "{second}"
    );

    // Their deadline passes while away: it is held, and the allowance starts to pay.
    h.advance(24 * crate::bot::harness::HOUR + 1);
    fake.wait_message(duel.thread, |m| {
        m.content.starts_with("🏖️") && m.content.contains("now ends")
    })
    .await;
    // They move at once: the vacation ends, in their own answer.
    let offered = fake
        .autocomplete(
            away,
            duel.thread,
            "jackal move",
            &[("action", OptionValue::Str(String::new()))],
            "action",
        )
        .await;
    let value = offered[0]["value"].as_str().unwrap().to_string();
    let ix = h
        .jackal(
            away,
            duel.thread,
            "move",
            &[("action", OptionValue::Str(value))],
        )
        .await;
    let answer = h.reply(&ix).await;
    assert!(
        answer.content.contains(
            "🏖️ Welcome back: moving ended your vacation. 1 day of your allowance came back; \
             left this year: 14 days of 14 days."
        ),
        "{}",
        answer.content
    );
}

/// A whole game between two Russian-speaking players, from `/jackal new` to game over: every
/// post in the channel and the thread, and every DM, is in Russian (dumped with
/// `JACKAL_E2E_DUMP=<folder>` to be read by eye).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_russian_reads_in_russian() {
    use fake_discord::OptionValue;
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alisa");
    let bob = fake.add_member("boris");
    fake.set_locale(alice, "ru");
    fake.set_locale(bob, "ru");
    // Alisa opens the game from a Russian client: the game speaks Russian.
    let (game, lobby) = crate::bot::deadlines::lobby(&h, alice, &[]).await;
    let ix = fake.click(bob, lobby.id, &format!("jk1:lobby:{game}:join"));
    fake.response(&ix).await;
    let lobby = fake
        .wait_for("Boris seated", |f| {
            f.message(lobby.id)
                .filter(|m| m.content.contains(&format!("<@{bob}>")))
        })
        .await;
    let ix = fake.click(alice, lobby.id, &format!("jk1:lobby:{game}:start"));
    fake.response(&ix).await;
    let thread = serenity::all::ChannelId::new(lobby.id.get());
    fake.wait_message(thread, |m| m.content.contains("начинается"))
        .await;
    let duel = crate::bot::deadlines::Duel { game, thread };
    for _ in 0..300 {
        let loaded = h.load(game);
        if loaded.status != GameStatus::Active {
            break;
        }
        let user = crate::bot::deadlines::on_turn(&h, game);
        let state = loaded.state.as_ref().expect("running");
        let own_turn = loaded.seat_of(alice.into()).map(|s| s.team.number())
            == Some(state.controller().number());
        let done = if user == alice && own_turn && state.pending().is_none() {
            // Alisa plays her own turns from her DMs; everything else is typed in the thread.
            let heading = format!("Шакал #{game} · ход {} ", loaded.move_number());
            let prompt = fake
                .wait_dm(alice, |m| {
                    m.content.contains(&heading) && !m.components.is_empty()
                })
                .await;
            crate::bot::play::through_picker(&h, alice, prompt).await
        } else {
            let offered = fake
                .autocomplete(
                    user,
                    duel.thread,
                    "jackal move",
                    &[("action", OptionValue::Str(String::new()))],
                    "action",
                )
                .await;
            let value = offered[0]["value"].as_str().expect("a value").to_string();
            let ix = h
                .jackal(
                    user,
                    duel.thread,
                    "move",
                    &[("action", OptionValue::Str(value))],
                )
                .await;
            let reply = h.reply(&ix).await;
            if reply.content.contains('✅') {
                reply
            } else {
                crate::bot::play::through_picker(&h, user, reply).await
            }
        };
        assert!(done.content.contains("✅"), "{}", done.content);
        // The move's post in the thread, in Russian.
        let ply = h.load(game).ply;
        let number = h.move_number(game, ply);
        fake.wait_message(duel.thread, |m| {
            m.content
                .contains(&format!("**Шакал #{game} · ход {number}**"))
        })
        .await;
    }
    assert_eq!(h.load(game).status, GameStatus::Finished);
    let over = fake
        .wait_message(duel.thread, |m| m.content.starts_with("🏁"))
        .await;
    // The lobby message ends with the result and its link.
    let lobby = serenity::all::MessageId::new(duel.thread.get());
    fake.wait_for("the lobby to tell the end", |f| {
        f.message(lobby)
            .filter(|m| m.content.contains(&over.id.to_string()))
    })
    .await;
    crate::bot::harness::dump(fake, duel.thread, "ru-thread").await;
    crate::bot::harness::dump(fake, fake.dm_channel(alice).expect("DMs"), "ru-alice-dm").await;
    crate::bot::harness::dump(fake, fake.general(), "ru-general").await;

    let mut read = crate::bot::harness::posts(fake, duel.thread);
    read.extend(crate::bot::harness::posts(fake, fake.general()));
    read.extend(crate::bot::deadlines::dms(&h, alice));
    assert!(read.len() > 5);
    for m in &read {
        for english in [
            "Jackal #",
            " move ",
            "Played",
            "Your turn",
            "Gold:",
            "begins",
            "Pirate",
            " is over",
            "bot",
            "wins",
            "Score",
        ] {
            assert!(
                !m.content.contains(english),
                "`{english}` in a Russian game: {}",
                m.content
            );
        }
    }
}

/// `/jackal new` offers both standard tile packs by name: the full one (the default, the
/// expansion in) as well, not only by leaving the option out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_tile_packs_are_offered_by_name() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    for (choice, pack) in [(0, "full"), (1, "classic")] {
        let ix = h
            .jackal(
                alice,
                fake.general(),
                "new",
                &[("pack", OptionValue::Int(choice))],
            )
            .await;
        let lobby = h.reply(&ix).await;
        assert!(!lobby.is_ephemeral(), "{pack}: {}", lobby.content);
        let game = crate::bot::harness::game_of(&lobby);
        assert_eq!(h.load(game).config.get("tile_pack").as_deref(), Some(pack));
        let ix = fake.click(alice, lobby.id, &format!("jk1:lobby:{game}:cancel"));
        fake.response(&ix).await;
        fake.wait_for("the lobby to be cancelled", |_| {
            (h.load(game).status == GameStatus::Cancelled).then_some(())
        })
        .await;
    }
}
