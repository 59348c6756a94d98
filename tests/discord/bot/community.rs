//! `/jackal stats` and `/jackal leaderboard` as players see them: private answers in words,
//! a chart of the rating, a board paged with buttons and filtered with menus in place.

use jackal::game::{Actor, Location};
use jackal::id::{GameId, GuildId};
use jackal::words::Lang;
use serenity::all::UserId;

use crate::bot::duel::{Duel, ask, assert_in_words};
use crate::bot::harness::{Harness, buttons, dump_png};
use fake_discord::{Message, OptionValue};

fn ours(user: UserId) -> jackal::id::UserId {
    jackal::id::UserId::new(user.get())
}

/// A duel of `a` against `b` in the fake's server, outside any channel (so nothing is posted),
/// which `a` resigns: `b` wins.
fn finished_duel(h: &Harness, a: UserId, b: UserId) -> GameId {
    let s = &h.service;
    let mut config = jackal::game::GameConfig::default();
    config.set("board_size", "5").unwrap();
    let location = Location {
        guild_id: Some(GuildId::new(h.fake.guild().get())),
        channel_id: None,
        thread_id: None,
    };
    let id = s
        .create_lobby(Actor::user(ours(a)), location, Lang::En, config, Some(1))
        .unwrap();
    s.join(Actor::user(ours(b)), id, None).unwrap();
    s.start_with_seed(Actor::user(ours(a)), id, 3).unwrap();
    s.resign(Actor::user(ours(a)), id).unwrap();
    id
}

/// The private answer, edited in place after a press.
async fn after_press(
    h: &Harness,
    before: &Message,
    ix: &fake_discord::InteractionHandle,
) -> Message {
    h.fake.response(ix).await;
    h.changed(before).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leaderboard_pages_and_filters_in_place_and_stats_draw_the_rating() {
    let h = Harness::start().await;
    let general = h.fake.general();
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");

    // Nothing finished yet: both say so, in words.
    let empty = ask(&h, alice, general, "leaderboard", &[]).await;
    assert!(
        empty.content.contains("Nobody is on this board yet"),
        "{}",
        empty.content
    );
    let none = ask(&h, alice, general, "stats", &[]).await;
    assert!(
        none.content
            .contains("has not finished a rated game on this server yet"),
        "{}",
        none.content
    );

    // Twelve players in a chain of duels (each loses to the next), Alice first, Bob last.
    let mut chain = vec![alice];
    chain.extend((0..10).map(|i| h.fake.add_member(&format!("p{i}"))));
    chain.push(bob);
    for pair in chain.windows(2) {
        finished_duel(&h, pair[0], pair[1]);
    }

    let board = ask(&h, alice, general, "leaderboard", &[]).await;
    assert_in_words(&board.content);
    assert!(board.is_ephemeral());
    assert!(
        board.content.contains("this server · all time · all games"),
        "{}",
        board.content
    );
    assert!(
        board.content.contains("Page 1 of 2 · 12 players"),
        "{}",
        board.content
    );
    assert!(board.content.contains("🥇**1.**"), "{}", board.content);
    assert!(
        board.content.contains("You: ") && board.content.contains(&format!("<@{alice}>")),
        "the caller's own line, though not on this page: {}",
        board.content
    );
    let shown = buttons(&board);
    let next = shown
        .iter()
        .find(|(label, _)| label == "▶")
        .map(|(_, id)| id.clone())
        .expect("a next-page button");
    let ix = h.fake.click(alice, board.id, &next);
    let second = after_press(&h, &board, &ix).await;
    assert!(second.content.contains("Page 2 of 2"), "{}", second.content);
    assert_eq!(
        second.content.matches("**").count() / 2,
        // Title, two lines of two bold spans each, and the caller's line of two.
        1 + 2 * 2 + 2,
        "{}",
        second.content
    );
    let period = second
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("jk1:topperiod:"))
        .expect("a period menu");
    let ix = h.fake.select(alice, second.id, &period, &["week"]);
    let week = after_press(&h, &second, &ix).await;
    assert!(week.content.contains("this week"), "{}", week.content);
    assert!(
        week.content.contains("Page 1 of 2"),
        "a new filter starts at the first page"
    );
    let everywhere = buttons(&week)
        .into_iter()
        .find(|(label, _)| label == "Every server")
        .map(|(_, id)| id)
        .expect("the switch to every server");
    let ix = h.fake.click(alice, week.id, &everywhere);
    let global = after_press(&h, &week, &ix).await;
    assert!(
        global.content.contains("every server · this week"),
        "{}",
        global.content
    );
    let format = global
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("jk1:topformat:"))
        .expect("a format menu");
    let ix = h.fake.select(alice, global.id, &format, &["four"]);
    let fours = after_press(&h, &global, &ix).await;
    assert!(fours.content.contains("4 players"), "{}", fours.content);
    assert!(
        fours.content.contains("Nobody is on this board yet"),
        "{}",
        fours.content
    );

    // Bob won his one game: his stats, and the chart of his rating.
    let stats = ask(
        &h,
        alice,
        general,
        "stats",
        &[("user", OptionValue::User(bob))],
    )
    .await;
    assert_in_words(&stats.content);
    assert!(
        stats.content.contains(&format!("Stats of <@{bob}>")),
        "{}",
        stats.content
    );
    assert!(
        stats.content.contains("Games **1** · wins **1** (100%)"),
        "{}",
        stats.content
    );
    assert!(
        stats.content.contains("place **1** of 12"),
        "{}",
        stats.content
    );
    let chart = stats
        .png_attachments()
        .first()
        .map(|a| a.url.clone())
        .expect("a chart");
    let png = h.fake.download(&chart).await;
    let img = image::load_from_memory(&png).expect("a PNG").to_rgb8();
    assert_eq!(img.dimensions(), (640, 280));
    dump_png("stats-chart", &png);

    // In Russian.
    h.fake.set_locale(alice, "ru");
    let board = ask(&h, alice, general, "leaderboard", &[]).await;
    assert_in_words(&board.content);
    assert!(
        board.content.contains("🏆 **Рейтинг** · этот сервер"),
        "{}",
        board.content
    );
    assert!(
        board.content.contains("Страница 1 из 2 · 12 игроков"),
        "{}",
        board.content
    );
    let mine = ask(&h, alice, general, "stats", &[]).await;
    assert!(
        mine.content.contains("Игр **1** · побед **0** (0 %)"),
        "{}",
        mine.content
    );
    // Russian writes a decimal comma (the chart too: its picture is dumped to look at).
    // A digit, the mark, a digit: a number written with that decimal mark.
    let written_with = |mark: u8| {
        mine.content
            .as_bytes()
            .windows(3)
            .any(|w| w[0].is_ascii_digit() && w[1] == mark && w[2].is_ascii_digit())
    };
    assert!(written_with(b','), "{}", mine.content);
    assert!(!written_with(b'.'), "{}", mine.content);
    let chart = mine
        .png_attachments()
        .first()
        .map(|a| a.url.clone())
        .expect("a chart");
    dump_png("stats-chart-ru", &h.fake.download(&chart).await);
}

/// `/jackal history` opens the board after the latest step with the steps in words; the
/// buttons and the menu show the board after any other step, in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_history_browser_steps_through_a_game() {
    let h = Harness::start().await;
    let duel = Duel::start(&h).await;
    for _ in 0..3 {
        duel.play_on(&h).await;
    }
    let last = h.load(duel.game).ply;
    assert!(last >= 3);
    let (player, _) = duel.players(&h);
    let open = ask(&h, player, duel.thread, "history", &[]).await;
    assert_in_words(&open.content);
    assert!(open.is_ephemeral());
    assert!(
        open.content.starts_with(&format!(
            "**Jackal #{}** · {last} steps\nBoard after step {last}\n",
            duel.game
        )),
        "{}",
        open.content
    );
    assert_eq!(
        open.png_attachments().len(),
        1,
        "the board after the last step"
    );
    assert!(
        open.content.contains("\n• **") && open.content.contains(&format!(" {last}. ")),
        "the last step, in bold: {}",
        open.content
    );
    let back = buttons(&open)
        .into_iter()
        .find(|(label, _)| label == "◀")
        .map(|(_, id)| id)
        .expect("a back button");
    assert_eq!(back, format!("jk1:hist:{}:{}:back", duel.game, last - 1));
    let ix = h.fake.click(player, open.id, &back);
    let before = after_press(&h, &open, &ix).await;
    assert!(
        before
            .content
            .contains(&format!("Board after step {}\n", last - 1)),
        "{}",
        before.content
    );
    assert!(
        !before.content.contains(&format!(" {last}. ")),
        "the steps after the one shown are not told: {}",
        before.content
    );
    let menu = before
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("jk1:histat:"))
        .expect("a menu of steps");
    let ix = h.fake.select(player, before.id, &menu, &["0"]);
    let start = after_press(&h, &before, &ix).await;
    assert!(
        start.content.contains("Board at the start"),
        "{}",
        start.content
    );
    let picture = start
        .png_attachments()
        .first()
        .map(|a| a.url.clone())
        .expect("a board");
    let png = h.fake.download(&picture).await;
    let img = image::load_from_memory(&png).expect("a PNG").to_rgb8();
    assert_eq!(img.dimensions(), (1024, 1024));
    // Past the last step: refused, with the game's last step named.
    let past = ask(
        &h,
        player,
        duel.thread,
        "history",
        &[("ply", OptionValue::Int(i64::from(last) + 5))],
    )
    .await;
    assert_in_words(&past.content);
    assert!(past.content.contains(&last.to_string()), "{}", past.content);

    // The whole game so far as an animation: one frame for the deal, then a frame for each
    // step that changed the picture.
    let replay = ask(&h, player, duel.thread, "replay", &[]).await;
    assert!(
        replay
            .content
            .starts_with(&format!("**Jackal #{}** · {last} steps", duel.game)),
        "{}",
        replay.content
    );
    let gif = replay
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".gif"))
        .expect("a GIF");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(&gif.bytes[..])
        .expect("a GIF");
    assert_eq!((decoder.width(), decoder.height()), (512, 512));
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert!(
        frames >= 2 && frames <= last + 1,
        "{frames} frames for {last} steps"
    );
    // A game still in its lobby has nothing to replay.
    let waiting = crate::bot::duel::lobby(&h, player).await;
    let lobby_game = crate::bot::harness::game_of(&waiting);
    let answer = ask(
        &h,
        player,
        h.fake.general(),
        "replay",
        &[("game", OptionValue::Int(lobby_game.get()))],
    )
    .await;
    assert_eq!(
        answer.content,
        format!("Game #{lobby_game} has not started yet.")
    );
    duel.play_on(&h).await;
}
