//! Games in Russian: the game's language comes from its creator (or the server), every public
//! post and prompt speaks it with Russian plurals, a player may choose English for what is
//! said to them alone, and the commands themselves carry their Russian names.

use jackal::id::GameId;
use jackal::store::GameStatus;
use serenity::all::UserId;

use crate::bot::duel::{ask, open_thread};
use crate::bot::harness::{
    Harness, board_picture, buttons, custom_id, game_of, posts, select_values,
};
use crate::bot::play;
use fake_discord::{Message, OptionValue, perms};

/// The Russian plural form of `n`: 0 one (1, 21…), 1 few (2–4, 22–24…), 2 many (the rest).
fn ru_form(n: u64) -> usize {
    match (n % 10, n % 100) {
        (1, h) if h != 11 => 0,
        (2..=4, h) if !(12..=14).contains(&h) => 1,
        _ => 2,
    }
}

/// `n` with the noun in the right form: `ru(2, ["монета", "монеты", "монет"])`.
fn ru(n: u64, forms: [&str; 3]) -> String {
    format!("{n} {}", forms[ru_form(n)])
}

/// Every "<number> <noun>" for the noun's three forms in `text` uses the right form.
fn assert_plurals(text: &str, forms: [&str; 3]) -> usize {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || ",.;:()·—«»".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let mut seen = 0;
    for pair in words.windows(2) {
        let Ok(n) = pair[0].parse::<u64>() else {
            continue;
        };
        if let Some(used) = forms.iter().position(|f| *f == pair[1]) {
            assert_eq!(
                forms[ru_form(n)],
                forms[used],
                "«{n} {}» in: {text}",
                pair[1]
            );
            seen += 1;
        }
    }
    seen
}

/// A DM prompt once its move is played: "✅ played …" (or, once the outbox retired it,
/// "✅ your turn is over"), in Russian.
fn played_ru(m: &Message) -> bool {
    let c = &m.content;
    (c.contains("✅ Сделан ход: ") && c.contains("Поле опубликовано в ветке игры."))
        || (c.starts_with("✅ Ваш ход в игре Шакал #") && c.contains(") завершён. Сыграно: "))
}

/// The same in English.
fn played_en(m: &Message) -> bool {
    let c = &m.content;
    (c.contains("✅ Played: ") && c.contains("The board is posted in the game's thread."))
        || (c.starts_with("✅ Your turn in Jackal #") && c.contains(") is over. Played: "))
}

/// `/jackal new` in #general; the lobby message.
async fn new_lobby(h: &Harness, owner: UserId, options: &[(&str, OptionValue)]) -> Message {
    let ix = h.jackal(owner, h.fake.general(), "new", options).await;
    let lobby = h.reply(&ix).await;
    assert!(!lobby.is_ephemeral());
    lobby
}

/// The user on turn, and the ply.
fn on_turn(h: &Harness, game: GameId) -> (UserId, u32) {
    let loaded = h.load(game);
    let state = loaded.state.as_ref().expect("running");
    let user = loaded
        .team_seat(state.controller())
        .and_then(|s| s.user_id)
        .expect("people play");
    (UserId::from(user), state.ply())
}

/// The DM prompt for the player on turn, played through its menus; returns the prompt.
async fn play_from_dm(h: &Harness, game: GameId) -> (UserId, Message, Message) {
    let (user, ply) = on_turn(h, game);
    let heading = format!("Шакал #{game} · ход {} ", h.next_move_number(game, ply));
    let dm = h
        .fake
        .wait_dm(user, |m| {
            m.content.contains(&heading) && !m.components.is_empty()
        })
        .await;
    let done = play::through_picker(h, user, dm.clone()).await;
    (user, dm, done)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_russian_with_russian_plurals() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    fake.set_locale(alice, "ru");
    fake.set_locale(bob, "ru");

    // The lobby, in Russian.
    let lobby = new_lobby(
        &h,
        alice,
        &[
            ("players", OptionValue::Int(0)),
            ("size", OptionValue::Int(0)),
        ],
    )
    .await;
    let game = game_of(&lobby);
    assert_eq!(h.load(game).lang, jackal::words::Lang::Ru);
    for words in [
        &format!("**Шакал #{game}** · новая игра · создатель: <@{alice}>"),
        "Игроки: 2 игрока",
        "Поле: 5×5",
        "Клетки: полный (с дополнением)",
        "Время на ход: 1 день",
        "Напоминание до срока: 3 часа",
        "Когда время вышло: за игрока ходит бот",
        "**Места**",
        "(свободно)",
        "Нажмите **Играть**",
    ] {
        assert!(
            lobby.content.contains(words),
            "`{words}` in:\n{}",
            lobby.content
        );
    }
    let labels: Vec<String> = buttons(&lobby).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels,
        [
            "Играть",
            "Выйти",
            "Добавить бота",
            "Настройки",
            "Начать",
            "Отменить"
        ]
    );

    // The settings panel: the turn times, each with its plural.
    let ix = fake.click(alice, lobby.id, &format!("jk1:lobby:{game}:settings"));
    let panel = h.reply(&ix).await;
    assert!(panel.is_ephemeral());
    assert!(
        panel
            .content
            .starts_with(&format!("Настройки игры #{game}: Игроки: 2 игрока")),
        "{}",
        panel.content
    );
    let ix = fake.select(
        alice,
        panel.id,
        &custom_id(&panel, "jk1:setting:"),
        &["turn_time"],
    );
    fake.response(&ix).await;
    let mut panel = h.changed(&panel).await;
    assert_eq!(panel.content, "Выберите новое значение «Время на ход».");
    let offered: Vec<String> = select_values(&panel).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        offered,
        [
            "1 час",
            "6 часов",
            "12 часов",
            "1 день",
            "2 дня",
            "3 дня",
            "7 дней"
        ],
        "every turn time: the reminder nobody chose fits itself to a short turn"
    );
    for (value, words) in [("2d", "2 дня"), ("6h", "6 часов")] {
        let ix = fake.select(alice, panel.id, &custom_id(&panel, "jk1:value:"), &[value]);
        fake.response(&ix).await;
        let changed = h.changed(&panel).await;
        assert!(
            changed.content.starts_with(&format!(
                "Игра #{game}: настройка «Время на ход» изменена. Теперь: "
            )) && changed.content.contains(&format!("Время на ход: {words}")),
            "{}",
            changed.content
        );
        fake.wait_for("the lobby to show the turn time", |f| {
            f.message(lobby.id)
                .filter(|m| m.content.contains(&format!("Время на ход: {words}")))
        })
        .await;
        // Back to the first menu, for the next value.
        let ix = fake.select(
            alice,
            changed.id,
            &custom_id(&changed, "jk1:setting:"),
            &["turn_time"],
        );
        fake.response(&ix).await;
        panel = h.changed(&changed).await;
    }
    let ix = fake.select(
        alice,
        panel.id,
        &custom_id(&panel, "jk1:setting:"),
        &["players"],
    );
    fake.response(&ix).await;
    let panel = h.changed(&panel).await;
    let offered: Vec<String> = select_values(&panel).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        offered,
        ["2 игрока", "3 игрока", "4 игрока", "двое на двое"]
    );
    let ix = fake.select(
        alice,
        panel.id,
        &custom_id(&panel, "jk1:setting:"),
        &["reminder"],
    );
    fake.response(&ix).await;
    let panel = h.changed(&panel).await;
    let offered: Vec<String> = select_values(&panel).into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        offered,
        ["выкл.", "1 час", "3 часа"],
        "reminders before a 6 hours' turn"
    );

    // Bob joins, Alice starts: the thread and its posts speak Russian.
    let lobby = fake.message(lobby.id).expect("lobby");
    let (thread, first) = open_thread(&h, alice, bob, &lobby).await;
    let name = fake.channel(thread).expect("thread").name;
    assert!(
        [
            format!("Шакал #{game}: alice, bob"),
            format!("Шакал #{game}: bob, alice")
        ]
        .contains(&name),
        "{name}"
    );
    assert!(
        first
            .content
            .starts_with(&format!("🏴‍☠️ **Шакал #{game} начинается!**")),
        "{}",
        first.content
    );
    for words in [
        "Время на ход: 6 часов",
        "Ходит: ",
        "· срок <t:",
        "Нажмите **Мои ходы**",
    ] {
        assert!(
            first.content.contains(words),
            "`{words}` in {}",
            first.content
        );
    }
    assert_eq!(buttons(&first)[0].0, "Мои ходы");
    board_picture(fake, &first).await;
    let lobby = fake
        .wait_for("the lobby marked started", |f| {
            f.message(lobby.id).filter(|m| m.custom_ids().is_empty())
        })
        .await;
    assert!(
        lobby.content.contains("▶️ Игра началась"),
        "{}",
        lobby.content
    );

    // The first prompt, in Russian, with Russian menus.
    let (user, ply) = on_turn(&h, game);
    assert_eq!(ply, 0);
    let dm = h.fake.wait_dm(user, |m| !m.components.is_empty()).await;
    assert!(
        dm.content
            .starts_with(&format!("**Ваш ход** · Шакал #{game} · ход 1 ")),
        "{}",
        dm.content
    );
    assert!(dm.content.contains("Срок: <t:"), "{}", dm.content);
    assert!(
        dm.content.contains("Выберите фигуру.") || dm.content.contains("Выберите ход."),
        "{}",
        dm.content
    );
    let entries: Vec<String> = select_values(&dm).into_iter().map(|(l, _)| l).collect();
    assert!(
        entries
            .iter()
            .any(|l| l.starts_with("Пират ") || l == "Корабль"),
        "{entries:?}"
    );

    // Moves, each from the player's DM, and a typed one with Russian autocomplete; after each,
    // the post, the history and the board caption count moves in Russian.
    let mut moves = 0;
    let mut typed = false;
    let coins = ["монета", "монеты", "монет"];
    let coins_told = |h: &Harness| {
        posts(&h.fake, thread)
            .iter()
            .any(|m| assert_plurals(&m.content, coins) > 0)
    };
    while moves < 8 || (moves < 24 && !coins_told(&h)) {
        if h.load(game).status != GameStatus::Active {
            break;
        }
        let (user, ply) = on_turn(&h, game);
        if !typed && user == bob {
            typed = true;
            let offered = fake
                .autocomplete(
                    bob,
                    thread,
                    "jackal move",
                    &[("action", OptionValue::Str(String::new()))],
                    "action",
                )
                .await;
            let first = offered[0]["name"].as_str().unwrap().to_string();
            assert!(
                first.starts_with("Пират ") || first.starts_with("Корабль") || first.contains("→"),
                "{first}"
            );
            assert!(
                !offered.iter().any(|c| c["name"]
                    .as_str()
                    .is_some_and(|n| n.contains("Pirate") || n.contains("Ship"))),
                "{offered:?}"
            );
            let done = play::by_command(&h, bob, thread).await;
            assert!(done.content.contains("✅ Сделан ход: "), "{}", done.content);
        } else {
            let (_, _, done) = play_from_dm(&h, game).await;
            assert!(played_ru(&done), "{}", done.content);
        }
        moves += 1;
        let plies = h.load(game).ply;
        assert!(plies > ply);
        let number = h.move_number(game, plies);
        let post = fake
            .wait_message(thread, |m| {
                m.content
                    .contains(&format!("Шакал #{game} · ход {number}**"))
            })
            .await;
        assert!(post.content.contains("Золото: "), "{}", post.content);
        if moves > 6 {
            continue;
        }
        let history = ask(&h, user, thread, "history", &[]).await;
        let count = u64::from(plies);
        assert!(
            history.content.starts_with(&format!(
                "**Шакал #{game}** · {}",
                ru(count, ["шаг", "шага", "шагов"])
            )),
            "{}",
            history.content
        );
        let board = ask(&h, user, thread, "board", &[]).await;
        let after = if count % 10 == 1 && count % 100 != 11 {
            format!("{count} шага")
        } else {
            format!("{count} шагов")
        };
        assert_eq!(board.content, format!("Шакал #{game} после {after}"));
    }
    let board = ask(&h, alice, thread, "board", &[("ply", OptionValue::Int(0))]).await;
    assert_eq!(board.content, format!("Шакал #{game} после начала игры"));

    // Whatever was found and carried, every count in the thread agrees with its noun.
    let thread_text: String = posts(fake, thread)
        .iter()
        .map(|m| format!("{}\n", m.content))
        .collect();
    for forms in [
        coins,
        ["слиток", "слитка", "слитков"],
        ["очко", "очка", "очков"],
        ["бутылка", "бутылки", "бутылок"],
    ] {
        assert_plurals(&thread_text, forms);
    }
    let history = ask(&h, alice, thread, "history", &[]).await;
    assert_plurals(&history.content, ["монета", "монеты", "монет"]);
    for english in ["Pirate", "Gold:", "move ", "Jackal #"] {
        assert!(
            !thread_text.contains(english),
            "`{english}` in:\n{thread_text}"
        );
    }

    // A refusal, in Russian too.
    let (user, _) = on_turn(&h, game);
    let other = if user == alice { bob } else { alice };
    let ix = h.jackal(other, thread, "moves", &[]).await;
    let refused = h.reply(&ix).await;
    assert!(refused.is_ephemeral());
    let expected = match h.load(game).status {
        GameStatus::Active => "Сейчас не ваш ход: ходит команда ".to_string(),
        _ => format!("Игра #{game} окончена."),
    };
    assert!(
        refused.content.starts_with(&expected),
        "{}",
        refused.content
    );
}

#[test]
fn russian_plural_forms() {
    assert_eq!(ru(1, ["монета", "монеты", "монет"]), "1 монета");
    assert_eq!(ru(2, ["монета", "монеты", "монет"]), "2 монеты");
    assert_eq!(ru(5, ["монета", "монеты", "монет"]), "5 монет");
    assert_eq!(ru(11, ["монета", "монеты", "монет"]), "11 монет");
    assert_eq!(ru(21, ["монета", "монеты", "монет"]), "21 монета");
    assert_eq!(ru(24, ["монета", "монеты", "монет"]), "24 монеты");
    assert_eq!(
        assert_plurals("На e5: 3 монеты, 1 слиток", ["монета", "монеты", "монет"]),
        1
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_chooses_english_hears_english_while_the_game_stays_russian() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let alice = fake.add_member("alice");
    let bob = fake.add_member("bob");
    fake.set_locale(alice, "ru");
    fake.set_locale(bob, "ru");
    let general = fake.general();

    // Bob's client is Russian, but he chooses English.
    let said = ask(
        &h,
        bob,
        general,
        "language",
        &[("language", OptionValue::Int(0))],
    )
    .await;
    assert_eq!(said.content, "I will speak to you in English.");

    let lobby = new_lobby(&h, alice, &[("size", OptionValue::Int(0))]).await;
    let game = game_of(&lobby);
    assert!(lobby.content.contains(&format!("**Шакал #{game}**")));
    let (thread, first) = open_thread(&h, alice, bob, &lobby).await;
    assert!(first.content.contains("начинается"), "{}", first.content);

    // Bob's prompts and answers are English; Alice's and the thread's stay Russian.
    for _ in 0..4 {
        if h.load(game).status != GameStatus::Active {
            break;
        }
        let (user, ply) = on_turn(&h, game);
        let number = h.next_move_number(game, ply);
        let dm = h
            .fake
            .wait_dm(user, |m| {
                !m.components.is_empty()
                    && (m.content.contains(&format!(" · ход {number} "))
                        || m.content.contains(&format!(" · move {number} ")))
            })
            .await;
        let english = dm
            .content
            .starts_with(&format!("**Your move** · Jackal #{game} · move {number} "));
        assert_eq!(english, user == bob, "{}", dm.content);
        let done = play::through_picker(&h, user, dm).await;
        if user == bob {
            assert!(played_en(&done), "{}", done.content);
        } else {
            assert!(played_ru(&done), "{}", done.content);
        }
        let number = h.move_number(game, h.load(game).ply);
        fake.wait_message(thread, |m| {
            m.content
                .contains(&format!("**Шакал #{game} · ход {number}**"))
        })
        .await;
    }
    let history = ask(&h, bob, thread, "history", &[]).await;
    assert!(
        history
            .content
            .starts_with(&format!("**Jackal #{game}** · ")),
        "{}",
        history.content
    );
    let history = ask(&h, alice, thread, "history", &[]).await;
    assert!(
        history
            .content
            .starts_with(&format!("**Шакал #{game}** · ")),
        "{}",
        history.content
    );
    let thread_text: String = posts(fake, thread)
        .iter()
        .map(|m| format!("{}\n", m.content))
        .collect();
    assert!(!thread_text.contains("Jackal #"), "{thread_text}");
    assert!(!thread_text.contains("Gold:"), "{thread_text}");

    // Back to his Discord's language.
    let said = ask(
        &h,
        bob,
        thread,
        "language",
        &[("language", OptionValue::Int(2))],
    )
    .await;
    assert_eq!(said.content, "Буду говорить с вами: язык вашего Discord.");
    let history = ask(&h, bob, thread, "history", &[]).await;
    assert!(
        history
            .content
            .starts_with(&format!("**Шакал #{game}** · "))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_admin_sets_the_server_language() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let admin = fake.add_member_with_permissions("admin", perms::MANAGE_GUILD);
    let carol = fake.add_member("carol");
    let dave = fake.add_member("dave");
    let general = fake.general();

    // A member without Manage Server cannot.
    let ix = h
        .jackal(
            dave,
            general,
            "language",
            &[
                ("language", OptionValue::Int(1)),
                ("server", OptionValue::Bool(true)),
            ],
        )
        .await;
    let refused = h.reply(&ix).await;
    assert!(refused.is_ephemeral());
    assert_eq!(
        refused.content,
        "Only a member with Manage Server can change the server's settings."
    );
    let games = ask(&h, carol, general, "games", &[]).await;
    assert!(
        games.content.starts_with("You are not in any game."),
        "{}",
        games.content
    );

    // The admin can: the server speaks Russian to everyone who chose nothing themselves.
    let said = ask(
        &h,
        admin,
        general,
        "language",
        &[
            ("language", OptionValue::Int(1)),
            ("server", OptionValue::Bool(true)),
        ],
    )
    .await;
    assert_eq!(said.content, "Язык этого сервера теперь: Русский.");
    let games = ask(&h, carol, general, "games", &[]).await;
    assert!(
        games
            .content
            .starts_with("Вы не участвуете ни в одной игре."),
        "{}",
        games.content
    );

    // A game opened by an English client is Russian.
    let lobby = new_lobby(&h, carol, &[("size", OptionValue::Int(0))]).await;
    let game = game_of(&lobby);
    assert_eq!(h.load(game).lang, jackal::words::Lang::Ru);
    assert!(
        lobby
            .content
            .contains(&format!("**Шакал #{game}** · новая игра")),
        "{}",
        lobby.content
    );
    let (thread, first) = open_thread(&h, carol, dave, &lobby).await;
    assert!(first.content.contains("начинается"), "{}", first.content);
    let (_, dm, _) = play_from_dm(&h, game).await;
    assert!(dm.content.starts_with("**Ваш ход**"), "{}", dm.content);
    let number = h.move_number(game, h.load(game).ply);
    fake.wait_message(thread, |m| {
        m.content
            .contains(&format!("**Шакал #{game} · ход {number}**"))
    })
    .await;

    // Back to each member's own Discord language: new games follow their creator again.
    let said = ask(
        &h,
        admin,
        general,
        "language",
        &[
            ("language", OptionValue::Int(2)),
            ("server", OptionValue::Bool(true)),
        ],
    )
    .await;
    assert_eq!(
        said.content,
        "This server's language is now your Discord language."
    );
    let channel = fake.add_text_channel("more-games", Vec::new());
    let ix = h.jackal(carol, channel, "new", &[]).await;
    let lobby = h.reply(&ix).await;
    assert!(lobby.content.contains("a new game by"), "{}", lobby.content);
    // The running game keeps its language.
    assert_eq!(h.load(game).lang, jackal::words::Lang::Ru);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_commands_are_registered_with_their_russian_names() {
    let h = Harness::start().await;
    let jackal = h.fake.registered_command("jackal").expect("registered");
    assert_eq!(jackal["name_localizations"]["ru"], "шакал");
    assert_eq!(
        jackal["description_localizations"]["ru"],
        "Шакал — настольная игра о пиратах"
    );
    let sub = |name: &str| {
        jackal["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no /jackal {name}"))
    };
    for (name, ru) in [
        ("new", "новая"),
        ("move", "ход"),
        ("moves", "ходы"),
        ("board", "доска"),
        ("rules", "правила"),
        ("language", "язык"),
        ("settings", "настройки"),
    ] {
        let sub = sub(name);
        assert_eq!(sub["name_localizations"]["ru"], ru, "/jackal {name}");
        assert!(
            sub["description_localizations"]["ru"]
                .as_str()
                .is_some_and(|d| d.chars().any(|c| ('а'..='я').contains(&c))),
            "/jackal {name}: {}",
            sub["description_localizations"]
        );
    }
    let new = sub("new");
    let players = new["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "players")
        .expect("players")
        .clone();
    assert_eq!(players["name_localizations"]["ru"], "игроки");
    let choices: Vec<(&str, &str)> = players["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap(),
                c["name_localizations"]["ru"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(choices[1].1, "3 игрока");
    assert_eq!(choices[3].1, "двое на двое");
    assert_eq!(
        sub("move")["options"][0]["name_localizations"]["ru"],
        "действие"
    );
}

/// The bot loads every language choice when it starts, and then trusts that a choice it did
/// not load was never made: after a restart, a player who chose English over a Russian client
/// must hear English (a load that missed his choice would answer in Russian), and one who
/// chose nothing still hears the client's language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn language_choices_outlive_a_restart() {
    let mut h = Harness::start().await;
    let bob = h.fake.add_member("bob");
    let carol = h.fake.add_member("carol");
    h.fake.set_locale(bob, "ru");
    h.fake.set_locale(carol, "ru");
    let general = h.fake.general();
    let english = [("language", OptionValue::Int(0))];
    let said = ask(&h, bob, general, "language", &english).await;
    assert_eq!(said.content, "I will speak to you in English.");

    let bot = h.bot.take().expect("a bot runs");
    tokio::task::spawn_blocking(move || bot.kill())
        .await
        .expect("killed");
    h.start_bot().await;

    let bobs = ask(&h, bob, general, "games", &[]).await;
    assert!(
        bobs.content.starts_with("You are not in any game."),
        "{}",
        bobs.content
    );
    let carols = ask(&h, carol, general, "games", &[]).await;
    assert!(
        carols.content.starts_with("Вы не участвуете"),
        "{}",
        carols.content
    );
}
