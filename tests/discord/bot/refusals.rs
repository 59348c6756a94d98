//! Everything the bot refuses: each refusal is a private answer in the asker's language, in
//! words (never an error id), changes nothing in the stored game, and leaves the bot working
//! (a move is played after).

use jackal::store::GameStatus;
use serenity::all::{ChannelId, UserId};

use crate::bot::duel::{Duel, ask, lobby, press, private_answer, snapshot};
use crate::bot::harness::{Harness, buttons, game_of, select_values};
use crate::bot::play;
use fake_discord::{OptionValue, perms};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_cannot_use_a_lobby_or_a_board_that_is_not_theirs() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let stranger = fake.add_member("stranger");
    let russian = fake.add_member("ivan");
    fake.set_locale(russian, "ru");
    let message = lobby(&h, alice).await;
    let game = game_of(&message);
    let message = press(&h, bob, &message, "join").await;

    let before = snapshot(&h, game);
    for (user, button, expected) in [
        (
            stranger,
            "settings",
            "Only the game's owner or a member with Manage Server can do that.",
        ),
        (
            stranger,
            "start",
            "Only the game's owner or a member with Manage Server can do that.",
        ),
        (
            stranger,
            "cancel",
            "Only the game's owner or a member with Manage Server can do that.",
        ),
        (
            russian,
            "start",
            "Это может только создатель игры или участник с правом «Управлять сервером».",
        ),
        (
            russian,
            "cancel",
            "Это может только создатель игры или участник с правом «Управлять сервером».",
        ),
        (
            stranger,
            "leave",
            &*format!("You are not playing in game #{game}."),
        ),
    ] {
        let ix = fake.click(user, message.id, &format!("jk1:lobby:{game}:{button}"));
        let answer = private_answer(&h, &ix).await;
        assert_eq!(answer.content, expected, "{button}");
        assert_eq!(snapshot(&h, game), before, "{button} changed the game");
    }
    // The lobby message is as it was.
    let now = fake.message(message.id).expect("lobby");
    assert_eq!(
        (&now.content, &now.components),
        (&message.content, &message.components)
    );
    assert!(fake.threads().is_empty());

    // The owner starts; the stranger presses "My moves" under the board.
    press(&h, alice, &message, "start").await;
    let thread = fake
        .wait_for("the game's thread", |f| f.threads().first().copied())
        .await;
    let thread = ChannelId::new(thread.get());
    let start = fake
        .wait_message(thread, |m| m.content.contains("begins"))
        .await;
    let my_moves = buttons(&start)
        .into_iter()
        .find(|(_, id)| id.starts_with("jk1:moves:"))
        .expect("My moves")
        .1;
    let before = snapshot(&h, game);
    let ix = fake.click(stranger, start.id, &my_moves);
    let answer = private_answer(&h, &ix).await;
    assert_eq!(
        answer.content,
        format!("You are not playing in game #{game}.")
    );
    assert!(answer.custom_ids().is_empty() && answer.attachments.is_empty());
    let ix = fake.click(russian, start.id, &my_moves);
    let answer = private_answer(&h, &ix).await;
    assert_eq!(answer.content, format!("Вы не играете в игре #{game}."));
    // Nor can a stranger type a move or see anyone's moves.
    let answer = ask(
        &h,
        stranger,
        thread,
        "move",
        &[
            ("action", "1 b2".into()),
            ("game", OptionValue::Int(game.get())),
        ],
    )
    .await;
    assert_eq!(
        answer.content,
        format!("You are not playing in game #{game}.")
    );
    let answer = ask(&h, stranger, thread, "move", &[("action", "1 b2".into())]).await;
    assert!(
        answer
            .content
            .starts_with("You have no game in this channel."),
        "{}",
        answer.content
    );
    let offered = fake
        .autocomplete(
            stranger,
            thread,
            "jackal move",
            &[("action", OptionValue::Str(String::new()))],
            "action",
        )
        .await;
    assert!(offered.is_empty(), "{offered:?}");
    assert_eq!(snapshot(&h, game), before);

    let duel = Duel {
        alice,
        bob,
        game,
        thread,
        start,
    };
    duel.play_on(&h).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_from_an_earlier_move_is_out_of_date() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let duel = Duel::start(&h).await;
    let (first, second) = duel.players(&h);

    // The first player's DM prompt for move 1; the edit that would retire it fails (the
    // prompt keeps its menu, as a prompt whose retirement was lost would).
    let prompt = play::prompt(&h, first, duel.game, 1).await;
    let path = format!("/channels/{}/messages/{}", prompt.channel, prompt.id);
    fake.fail_next("PATCH", &path, 403);
    // They play elsewhere: by command in the thread.
    let done = play::by_command(&h, first, duel.thread).await;
    assert!(done.content.contains('✅'));
    fake.wait_request("the prompt's failed retirement", |e| {
        e.method == "PATCH" && e.path == path && e.status == 403
    })
    .await;
    let prompt = fake.message(prompt.id).expect("prompt");
    let menu = prompt
        .custom_ids()
        .into_iter()
        .find(|id| id.starts_with("jk1:pick:"))
        .expect("the old prompt still has its menu");
    let value = select_values(&prompt)[0].1.clone();

    // Pressed now (the other player's turn), and again once it is their turn once more.
    let before = snapshot(&h, duel.game);
    let ix = fake.select(first, prompt.id, &menu, &[&value]);
    let answer = private_answer(&h, &ix).await;
    let number = h.load(duel.game).move_number();
    assert_eq!(
        answer.content,
        format!(
            "That button is from an older board: the game is at move {number} now. Press **My moves** for the current one."
        )
    );
    assert_eq!(snapshot(&h, duel.game), before);
    play::finish_turn(&h, duel.game, duel.thread, first).await;
    let done = play::by_command(&h, second, duel.thread).await;
    assert!(done.content.contains('✅'));
    if duel.players(&h).0 == first {
        let before = snapshot(&h, duel.game);
        let ix = fake.select(first, prompt.id, &menu, &[&value]);
        let answer = private_answer(&h, &ix).await;
        assert!(
            answer
                .content
                .starts_with("That button is from an older board"),
            "{}",
            answer.content
        );
        assert_eq!(snapshot(&h, duel.game), before);
    }
    // The prompt was not touched by the refusals.
    let after = fake.message(prompt.id).expect("prompt");
    assert_eq!(after.content, prompt.content);
    duel.play_on(&h).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_acting_out_of_turn_is_told_whose_turn_it_is() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let duel = Duel::start(&h).await;
    let (on_turn, waiting) = duel.players(&h);
    let team = h.load(duel.game).state.unwrap().controller();
    let expected = format!("It is not your turn: team {team} is to move.");
    let before = snapshot(&h, duel.game);

    let answer = ask(
        &h,
        waiting,
        duel.thread,
        "move",
        &[("action", "1 b2".into())],
    )
    .await;
    assert_eq!(answer.content, expected);
    let answer = ask(&h, waiting, duel.thread, "moves", &[]).await;
    assert_eq!(answer.content, expected);
    let ix = fake.click(waiting, duel.start.id, &duel.my_moves());
    let answer = private_answer(&h, &ix).await;
    assert_eq!(answer.content, expected);
    assert!(answer.attachments.is_empty() && answer.custom_ids().is_empty());
    let offered = fake
        .autocomplete(
            waiting,
            duel.thread,
            "jackal move",
            &[("action", OptionValue::Str(String::new()))],
            "action",
        )
        .await;
    assert!(
        offered.is_empty(),
        "no moves offered out of turn: {offered:?}"
    );
    // In Russian.
    fake.set_locale(waiting, "ru");
    let answer = ask(&h, waiting, duel.thread, "moves", &[]).await;
    assert_eq!(
        answer.content,
        format!("Сейчас не ваш ход: ходит команда {team}.")
    );
    assert_eq!(snapshot(&h, duel.game), before);
    let _ = on_turn;
    duel.play_on(&h).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_game_is_named() {
    let h = Harness::start().await;
    let duel = Duel::start(&h).await;
    let (on_turn, _) = duel.players(&h);
    let before = snapshot(&h, duel.game);
    // A number past every game, and numbers no game can have (refused before any lookup).
    for (number, said) in [
        (999, "There is no game #999."),
        (0, "There is no game #0."),
        (-5, "There is no game #-5."),
    ] {
        for (sub, mut options) in [
            ("move", vec![("action", OptionValue::from("1 b2"))]),
            ("moves", vec![]),
            ("board", vec![]),
            ("history", vec![]),
            ("resign", vec![]),
            ("cancel", vec![]),
            ("settings", vec![]),
        ] {
            options.push(("game", OptionValue::Int(number)));
            let answer = ask(&h, on_turn, duel.thread, sub, &options).await;
            assert_eq!(answer.content, said, "/jackal {sub} game:{number}");
        }
    }
    h.fake.set_locale(on_turn, "ru");
    for (number, said) in [(999, "Игры #999 нет."), (0, "Игры #0 нет.")] {
        let options = [("game", OptionValue::Int(number))];
        let answer = ask(&h, on_turn, duel.thread, "board", &options).await;
        assert_eq!(answer.content, said);
    }
    assert_eq!(snapshot(&h, duel.game), before);
    duel.play_on(&h).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_move_is_explained_in_words() {
    let h = Harness::start().await;
    let duel = Duel::start(&h).await;
    let (on_turn, _) = duel.players(&h);
    let before = snapshot(&h, duel.game);
    // Text the notation cannot read names the word to blame.
    let not_a_piece = |w: &str| {
        format!("`{w}` is not a piece (1, 2, 3, b, f, m), `ship`, `boat`, `res`, `rum` or a cell")
    };
    for (typed, why) in [
        (
            "b c3",
            "your team has no living piece with that id".to_string(),
        ),
        ("9 a1", not_a_piece("9")),
        ("hello there", not_a_piece("hello")),
        ("1 a1", "`a1` is not a cell of this board".to_string()),
        (
            "1 c2 gold",
            "`gold` is not an item (coin, bar, ball, boat, cart)".to_string(),
        ),
        ("ship", "the cell is missing".to_string()),
    ] {
        let answer = ask(
            &h,
            on_turn,
            duel.thread,
            "move",
            &[("action", typed.into())],
        )
        .await;
        assert_eq!(
            answer.content,
            format!("That move is not allowed: {why}."),
            "{typed}"
        );
    }
    // A piece of theirs to a cell it cannot reach from its ship.
    let state = h.load(duel.game).state.unwrap();
    let legal: Vec<String> = state
        .legal_actions()
        .iter()
        .map(|l| state.notation(&l.action))
        .collect();
    let far = ["1 c3", "1 d4", "1 e5", "1 b6", "1 f2"]
        .into_iter()
        .find(|m| !legal.iter().any(|l| l == m))
        .expect("a cell out of reach");
    let answer = ask(&h, on_turn, duel.thread, "move", &[("action", far.into())]).await;
    assert!(
        answer.content.starts_with("That move is not allowed: "),
        "{}",
        answer.content
    );
    h.fake.set_locale(on_turn, "ru");
    let answer = ask(
        &h,
        on_turn,
        duel.thread,
        "move",
        &[("action", "b c3".into())],
    )
    .await;
    assert_eq!(
        answer.content,
        "Так ходить нельзя: у вашей команды нет живой фигуры с таким номером."
    );
    let answer = ask(
        &h,
        on_turn,
        duel.thread,
        "move",
        &[("action", "1 a1".into())],
    )
    .await;
    assert_eq!(
        answer.content,
        "Так ходить нельзя: «a1» — не клетка этого поля."
    );
    assert_eq!(snapshot(&h, duel.game), before);
    duel.play_on(&h).await;
}

/// Who asks, in which language, which subcommand with which option, and the answer.
type Refusal<'a> = (UserId, &'a str, &'a str, (&'a str, OptionValue), &'a str);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_option_out_of_range_or_absurdly_long_is_refused() {
    let h = Harness::start().await;
    let duel = Duel::start(&h).await;
    let (on_turn, other) = duel.players(&h);
    let before = snapshot(&h, duel.game);
    // 5,000 characters (Discord takes up to 6,000 in a string option).
    let long = "2 e5 coin ".repeat(500);
    assert_eq!(long.chars().count(), 5_000);

    // In Russian the options are named as a Russian client shows them.
    let refusals: [Refusal; 5] = [
        (
            other,
            "en",
            "board",
            ("ply", OptionValue::Int(99_999)),
            "The `ply` you gave is out of range (0 to 0).",
        ),
        (
            on_turn,
            "en",
            "move",
            ("action", long.clone().into()),
            "The `action` you gave is far too long.",
        ),
        (
            other,
            "en",
            "rules",
            ("topic", long.clone().into()),
            "The `topic` you gave is far too long.",
        ),
        (
            other,
            "ru",
            "board",
            ("ply", OptionValue::Int(99_999)),
            "Значение `после` вне допустимых пределов (от 0 до 0).",
        ),
        (
            other,
            "ru",
            "rules",
            ("topic", "x".repeat(101).into()),
            "Значение `тема` слишком длинное.",
        ),
    ];
    for (who, locale, sub, option, said) in refusals {
        h.fake.set_locale(who, locale);
        let answer = ask(&h, who, duel.thread, sub, &[option]).await;
        assert_eq!(answer.content, said, "/jackal {sub} in {locale}");
        assert!(answer.attachments.is_empty(), "/jackal {sub}: no picture");
    }

    // Typing that much into autocomplete offers nothing, and breaks nothing.
    for (who, command, option, most) in [
        (on_turn, "jackal move", "action", 0),
        (other, "jackal rules", "topic", 25),
    ] {
        let offered = h
            .fake
            .autocomplete(
                who,
                duel.thread,
                command,
                &[(option, long.clone().into())],
                option,
            )
            .await;
        assert!(
            offered.len() <= most,
            "{command}: {} offered",
            offered.len()
        );
    }
    assert_eq!(snapshot(&h, duel.game), before);

    duel.play_on(&h).await;
    // One move later the range has grown.
    let answer = ask(
        &h,
        on_turn,
        duel.thread,
        "board",
        &[("ply", OptionValue::Int(2))],
    )
    .await;
    let ply = h.load(duel.game).ply;
    if ply < 2 {
        assert_eq!(
            answer.content,
            format!("The `ply` you gave is out of range (0 to {ply}).")
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_command_in_a_dm_is_refused() {
    let h = Harness::start().await;
    let duel = Duel::start(&h).await;
    let (on_turn, _) = duel.players(&h);
    // The "your turn" DM opened the DM channel.
    let prompt = play::prompt(&h, on_turn, duel.game, 1).await;
    let dm = prompt.channel;
    assert_eq!(Some(dm), h.fake.dm_channel(on_turn));
    let before = snapshot(&h, duel.game);

    let needs_server = "This command works in a server's channel, not in a DM.";
    for (sub, options) in [
        ("new", vec![]),
        ("kick", vec![("seat", OptionValue::Int(1))]),
        ("cancel", vec![("game", OptionValue::Int(duel.game.get()))]),
        (
            "settings",
            vec![("game", OptionValue::Int(duel.game.get()))],
        ),
        (
            "language",
            vec![
                ("language", OptionValue::Int(1)),
                ("server", OptionValue::Bool(true)),
            ],
        ),
    ] {
        let answer = ask(&h, on_turn, dm, sub, &options).await;
        assert_eq!(answer.content, needs_server, "/jackal {sub}");
    }
    // What needs no server works there.
    let answer = ask(&h, on_turn, dm, "games", &[]).await;
    assert!(
        answer.content.starts_with("**Your games**") && answer.content.contains("**your turn**"),
        "{}",
        answer.content
    );
    let answer = ask(&h, on_turn, dm, "history", &[]).await;
    assert!(
        answer
            .content
            .starts_with("You have no game in this channel."),
        "{}",
        answer.content
    );
    assert_eq!(snapshot(&h, duel.game), before);
    assert!(h.fake.threads().len() == 1, "no new lobby or thread");

    // The prompt still plays.
    let done = play::through_picker(&h, on_turn, prompt).await;
    assert!(done.content.contains('✅'));
    duel.play_on(&h).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_where_the_bot_lacks_permissions_is_named() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let no_files = fake.add_text_channel_denying_bot("no-files", perms::ATTACH_FILES);
    let answer = ask(&h, alice, no_files, "new", &[]).await;
    assert_eq!(
        answer.content,
        "I cannot run a game here: I am missing Attach Files in this channel. A server manager can grant them in the channel's settings."
    );
    let no_posts = fake.add_text_channel_denying_bot(
        "no-posts",
        perms::SEND_MESSAGES | perms::SEND_MESSAGES_IN_THREADS | perms::ATTACH_FILES,
    );
    fake.set_locale(alice, "ru");
    let answer = ask(&h, alice, no_posts, "new", &[]).await;
    assert!(
        answer.content.starts_with("Здесь я не могу вести игру: ")
            && answer
                .content
                .contains("Прикреплять файлы, Отправлять сообщения"),
        "{}",
        answer.content
    );
    assert!(h.service.my_games(alice.into(), true).unwrap().is_empty());
    for channel in [no_files, no_posts] {
        assert!(
            fake.messages_in(channel)
                .iter()
                .all(|m| m.is_ephemeral() || m.deleted),
            "nothing public was posted"
        );
    }
    // Where it can, the same command works.
    let ix = h.jackal(alice, fake.general(), "new", &[]).await;
    let lobby = h.reply(&ix).await;
    assert!(!lobby.is_ephemeral());
    assert_eq!(h.load(game_of(&lobby)).status, GameStatus::Lobby);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_rules_topic_is_refused() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let general = h.fake.general();
    let answer = ask(&h, alice, general, "rules", &[("topic", "zzyzx".into())]).await;
    assert_eq!(
        answer.content,
        "There is no rules topic “zzyzx”. Try `/jackal rules` and pick one from the list."
    );
    h.fake.set_locale(alice, "ru");
    let answer = ask(&h, alice, general, "rules", &[("topic", "zzyzx".into())]).await;
    assert_eq!(
        answer.content,
        "Раздела правил «zzyzx» нет. Наберите `/шакал правила` и выберите из списка."
    );
    // A known topic still answers.
    let ix = h
        .jackal(alice, general, "rules", &[("topic", "arrow".into())])
        .await;
    let reply = h.reply(&ix).await;
    assert!(reply.is_ephemeral() && !reply.embeds.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_by_someone_not_the_owner_are_refused() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    let general = fake.general();
    let message = lobby(&h, alice).await;
    let game = game_of(&message);
    let message = press(&h, bob, &message, "join").await;
    let before = snapshot(&h, game);
    let not_owner = "Only the game's owner or a member with Manage Server can do that.";

    let answer = ask(&h, bob, general, "settings", &[]).await;
    assert_eq!(answer.content, not_owner);
    let answer = ask(
        &h,
        bob,
        general,
        "settings",
        &[("setting", "turn_time".into()), ("value", "2d".into())],
    )
    .await;
    assert_eq!(answer.content, not_owner);
    let ix = fake.click(bob, message.id, &format!("jk1:lobby:{game}:settings"));
    assert_eq!(private_answer(&h, &ix).await.content, not_owner);
    assert_eq!(snapshot(&h, game), before);
    assert_eq!(fake.message(message.id).unwrap().content, message.content);

    // The owner can.
    let answer = ask(
        &h,
        alice,
        general,
        "settings",
        &[("setting", "turn_time".into()), ("value", "2d".into())],
    )
    .await;
    assert!(
        answer.content.contains("Turn time: 2 days"),
        "{}",
        answer.content
    );
    assert_eq!(h.load(game).config.turn_seconds, 2 * 86_400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_ended_is_over_in_its_thread_not_missing() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let duel = Duel::start(&h).await;
    let (on_turn, other) = duel.players(&h);
    duel.play_on(&h).await;

    // The other player resigns (asked first): the duel is over.
    let confirm = ask(&h, other, duel.thread, "resign", &[]).await;
    assert!(
        confirm
            .content
            .starts_with(&format!("Resign from Jackal #{}?", duel.game)),
        "{}",
        confirm.content
    );
    let resign = buttons(&confirm)
        .into_iter()
        .find(|(_, id)| id.starts_with("jk1:resign:"))
        .expect("the resign button")
        .1;
    let ix = fake.click(other, confirm.id, &resign);
    fake.response(&ix).await;
    fake.wait_message(duel.thread, |m| m.content.starts_with("🏁"))
        .await;
    let finished = h.load(duel.game);
    assert_eq!(finished.status, GameStatus::Finished);
    // The map is dealt at random: the move played may have taken a choice too (an arrow).
    let plies = match finished.ply {
        1 => "1 step".to_string(),
        n => format!("{n} steps"),
    };
    let before = snapshot(&h, duel.game);

    // In the thread, the game is still found: what changes it is refused as over, what looks
    // back at it answers.
    let over = format!("Game #{} is over.", duel.game);
    for (user, sub, options) in [
        (on_turn, "move", vec![("action", OptionValue::from("1 b2"))]),
        (on_turn, "moves", vec![]),
        (other, "resign", vec![]),
        (duel.alice, "cancel", vec![]),
    ] {
        let answer = ask(&h, user, duel.thread, sub, &options).await;
        assert_eq!(answer.content, over, "/jackal {sub}");
    }
    let ix = fake.click(on_turn, duel.start.id, &duel.my_moves());
    assert_eq!(private_answer(&h, &ix).await.content, over);
    let history = ask(&h, other, duel.thread, "history", &[]).await;
    assert!(
        history
            .content
            .starts_with(&format!("**Jackal #{}** · {plies}\n", duel.game)),
        "{}",
        history.content
    );
    let ix = h.jackal(on_turn, duel.thread, "board", &[]).await;
    let board = h.reply(&ix).await;
    assert!(board.is_ephemeral());
    assert_eq!(
        board.content,
        format!("Jackal #{} after {plies}", duel.game)
    );
    assert_eq!(board.png_attachments().len(), 1);
    // Elsewhere it is not "here".
    let answer = ask(&h, on_turn, fake.general(), "history", &[]).await;
    assert!(
        answer
            .content
            .starts_with("You have no game in this channel.")
    );
    assert_eq!(snapshot(&h, duel.game), before);
}
