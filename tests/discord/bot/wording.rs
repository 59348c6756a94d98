//! What the commands say and suggest, in the reader's language: refusals that name the rule
//! that applies, suggestions for every setting's value and for time zones, lengths written
//! in Russian, and size choices that say what each island is.

use jackal::discord::views::settings;
use jackal::engine::Board;
use jackal::game::GameConfig;
use jackal::words::Lang;
use serde_json::Value;

use crate::bot::duel::ask;
use crate::bot::harness::{Harness, game_of};
use fake_discord::{OptionValue, perms};

/// Point 6: changing the server's settings without Manage Server is refused with the rule
/// that applies (there is no game, so no game's owner), in the reader's language, and
/// nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_setting_refused_names_the_server_rule() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let dave = fake.add_member("dave");
    let olga = fake.add_member("olga");
    fake.set_locale(olga, "ru");
    let general = fake.general();
    let rule = "Only a member with Manage Server can change the server's settings.";
    let rule_ru = "Менять настройки сервера может только участник с правом «Управлять сервером».";

    let language = [
        ("language", OptionValue::Int(1)),
        ("server", OptionValue::Bool(true)),
    ];
    let limits = [("vacation_days", OptionValue::Int(3))];
    for (user, expected) in [(dave, rule), (olga, rule_ru)] {
        let answer = ask(&h, user, general, "language", &language).await;
        assert_eq!(answer.content, expected);
        let answer = ask(&h, user, general, "server", &limits).await;
        assert_eq!(answer.content, expected);
    }
    // Nothing changed: the server still speaks each member's language, with its old limits.
    let answer = ask(&h, dave, general, "server", &[]).await;
    assert!(
        answer
            .content
            .starts_with("This server's limits: 14 vacation days"),
        "{}",
        answer.content
    );
    // One who manages the server may.
    let admin = fake.add_member_with_permissions("admin", perms::MANAGE_GUILD);
    let answer = ask(&h, admin, general, "server", &limits).await;
    assert!(
        answer
            .content
            .starts_with("This server's limits: 3 vacation days"),
        "{}",
        answer.content
    );
    let one = [("vacation_days", OptionValue::Int(1))];
    let answer = ask(&h, admin, general, "server", &one).await;
    assert!(
        answer
            .content
            .starts_with("This server's limits: 1 vacation day a year"),
        "{}",
        answer.content
    );
}

/// The suggestions Discord shows for `/jackal settings setting:<id> value:<typed>`.
async fn suggested(
    h: &Harness,
    user: serenity::all::UserId,
    id: &str,
    typed: &str,
) -> Vec<(String, String)> {
    let offered = h
        .fake
        .autocomplete(
            user,
            h.fake.general(),
            "jackal settings",
            &[
                ("setting", OptionValue::Str(id.into())),
                ("value", OptionValue::Str(typed.into())),
            ],
            "value",
        )
        .await;
    offered
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or_default().to_string(),
                c["value"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// Point 7: every setting's `value` suggests its values, named in the reader's language, and
/// the command takes each of them.
/// A lobby's settings, whether the reminder was chosen aside: setting it back to its value by
/// hand makes it chosen (it then no longer follows the turn time), and is otherwise the same.
fn settled(h: &Harness, game: jackal::id::GameId) -> jackal::game::GameConfig {
    let mut config = h.load(game).config;
    config.reminder_chosen = false;
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_setting_suggests_values_the_command_takes() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let olga = fake.add_member("olga");
    fake.set_locale(olga, "ru");
    let general = fake.general();
    let ix = h.jackal(olga, general, "new", &[]).await;
    let game = game_of(&h.reply(&ix).await);
    let defaults = GameConfig::default();

    for id in GameConfig::ids() {
        let offered = suggested(&h, olga, id, "").await;
        assert!(!offered.is_empty(), "{id}: nothing suggested");
        let before = settled(&h, game);
        for (name, value) in &offered {
            assert_eq!(
                *name,
                settings::value(Lang::Ru, id, value),
                "{id}={value} is not named in Russian"
            );
            let answer = ask(
                &h,
                olga,
                general,
                "settings",
                &[("setting", id.into()), ("value", value.as_str().into())],
            )
            .await;
            assert!(
                answer
                    .content
                    .starts_with(&format!("Игра #{game}: настройка «")),
                "{id}={value}: {}",
                answer.content
            );
            assert_eq!(h.load(game).config.get(id).as_deref(), Some(value.as_str()));
            // Back to where it was, so the next value is tried on the same lobby.
            let back = before.get(id).expect("a setting");
            ask(
                &h,
                olga,
                general,
                "settings",
                &[("setting", id.into()), ("value", back.as_str().into())],
            )
            .await;
            assert_eq!(settled(&h, game), before, "{id} back to {back}");
        }
    }
    assert_eq!(settled(&h, game), defaults);

    // What is typed narrows the suggestions, by the value or by its name in words.
    let offered = suggested(&h, olga, "turn_time", "12").await;
    assert_eq!(offered, [("12 часов".to_string(), "12h".to_string())]);
    let offered = suggested(&h, olga, "timeout", "бот").await;
    assert_eq!(
        offered,
        [("за игрока ходит бот".to_string(), "bot".to_string())]
    );
    // An unknown setting suggests nothing (the command then says what is wrong).
    assert!(suggested(&h, olga, "no_such_setting", "").await.is_empty());
}

/// Point 16: lengths are read in the reader's language, and one below the minimum is told
/// as that, with the minimum.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lengths_are_read_in_russian_and_a_short_one_is_named() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let olga = fake.add_member("olga");
    fake.set_locale(olga, "ru");
    let dave = fake.add_member("dave");
    let general = fake.general();

    let said = ask(
        &h,
        olga,
        general,
        "remind",
        &[("before", "12ч, 1 час".into())],
    )
    .await;
    assert!(
        said.content
            .contains("• Когда: за 12 часов, 1 час до конца хода"),
        "{}",
        said.content
    );
    let said = ask(
        &h,
        olga,
        general,
        "remind",
        &[("before", "2д 30мин".into())],
    )
    .await;
    assert!(
        said.content
            .contains("• Когда: за 2 дня, 30 минут до конца хода"),
        "{}",
        said.content
    );
    let said = ask(&h, olga, general, "remind", &[("before", "выкл".into())]).await;
    assert!(
        said.content.contains("• Когда: никогда"),
        "{}",
        said.content
    );
    let said = ask(&h, olga, general, "remind", &[("before", "game".into())]).await;
    assert!(
        said.content.contains("как задано в каждой игре"),
        "{}",
        said.content
    );
    let said = ask(&h, olga, general, "remind", &[("before", "нет".into())]).await;
    assert!(
        said.content.contains("• Когда: никогда"),
        "{}",
        said.content
    );

    // Too short: said so, with the minimum; nothing changes.
    let said = ask(&h, dave, general, "vacation", &[("length", "10m".into())]).await;
    assert_eq!(said.content, "“10m” is too short: the shortest is 1 hour.");
    let said = ask(&h, olga, general, "vacation", &[("length", "30мин".into())]).await;
    assert_eq!(
        said.content,
        "«30мин» — слишком коротко: самое меньшее — 1 час."
    );
    let said = ask(&h, olga, general, "vacation", &[]).await;
    assert!(
        said.content.starts_with("Вы не в отпуске."),
        "{}",
        said.content
    );
    // Not a length at all: said so, with examples in the reader's units.
    let said = ask(&h, olga, general, "vacation", &[("length", "скоро".into())]).await;
    assert_eq!(
        said.content,
        "«скоро» — не продолжительность: напишите её как 5д или 36ч (не меньше часа)."
    );
    // Russian units are lengths.
    let said = ask(&h, olga, general, "vacation", &[("length", "3д".into())]).await;
    assert!(
        said.content.starts_with("🏖️ Вы в отпуске до"),
        "{}",
        said.content
    );
    let said = ask(&h, olga, general, "vacation", &[("length", "выкл".into())]).await;
    assert!(
        said.content.starts_with("Вы не в отпуске."),
        "{}",
        said.content
    );
}

/// The zones Discord suggests for `/jackal remind zone:<typed>` to `user`.
async fn zones(h: &Harness, user: serenity::all::UserId, typed: &str) -> Vec<String> {
    h.fake
        .autocomplete(
            user,
            h.fake.general(),
            "jackal remind",
            &[("zone", OptionValue::Str(typed.into()))],
            "zone",
        )
        .await
        .iter()
        .map(|c| c["value"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Point 18: with nothing typed, the zones suggested are real places' names (no aliases kept
/// for old systems), those of the reader's locale first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zone_suggestions_are_canonical_and_local_first() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let olga = fake.add_member("olga");
    fake.set_locale(olga, "ru");
    let dave = fake.add_member("dave");
    fake.set_locale(dave, "en-US");
    let jane = fake.add_member("jane");
    fake.set_locale(jane, "en-GB");

    let canonical = |list: &[String]| {
        for name in list {
            assert!(
                name.contains('/')
                    && !name.starts_with("Etc/")
                    && !name.starts_with("US/")
                    && !name.starts_with("SystemV/"),
                "{name} is an alias: {list:?}"
            );
        }
    };
    let ru = zones(&h, olga, "").await;
    assert_eq!(ru.len(), 25, "{ru:?}");
    canonical(&ru);
    assert_eq!(ru[0], "Europe/Moscow", "{ru:?}");
    for russian in ["Europe/Samara", "Asia/Yekaterinburg", "Asia/Vladivostok"] {
        assert!(ru[..12].contains(&russian.to_string()), "{ru:?}");
    }
    let us = zones(&h, dave, "").await;
    canonical(&us);
    assert_eq!(us[0], "America/New_York", "{us:?}");
    assert!(
        us[..6].contains(&"America/Los_Angeles".to_string()),
        "{us:?}"
    );
    let gb = zones(&h, jane, "").await;
    canonical(&gb);
    assert_eq!(gb[0], "Europe/London", "{gb:?}");

    // What is typed still finds any canonical zone, and no alias.
    let found = zones(&h, dave, "mosc").await;
    assert_eq!(found, ["Europe/Moscow"]);
    let found = zones(&h, olga, "new").await;
    canonical(&found);
    assert!(found.contains(&"America/New_York".to_string()), "{found:?}");
    assert!(zones(&h, olga, "W-SU").await.is_empty());
}

/// The choices of `/jackal new size`, as registered.
fn size_choices(h: &Harness) -> Vec<Value> {
    let jackal = h.fake.registered_command("jackal").expect("registered");
    let new = jackal["options"]
        .as_array()
        .expect("subcommands")
        .iter()
        .find(|o| o["name"] == "new")
        .expect("/jackal new");
    let size = new["options"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["name"] == "size")
        .expect("the size option");
    size["choices"].as_array().expect("choices").clone()
}

/// Point 8: each size's label says how much land its island has, in both languages; the
/// smallest is not sold as a "quick game" of the real thing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn size_choices_say_what_each_island_is() {
    let h = Harness::start().await;
    let choices = size_choices(&h);
    assert_eq!(choices.len(), Board::SIZES.len());
    for (choice, n) in choices.iter().zip(Board::SIZES) {
        let land = Board::new(n).expect("a size").land_count();
        let en = choice["name"].as_str().expect("a name");
        let ru = choice["name_localizations"]["ru"]
            .as_str()
            .expect("Russian");
        assert!(en.starts_with(&format!("{n}×{n}")), "{en}");
        assert!(ru.starts_with(&format!("{n}×{n}")), "{ru}");
        assert!(en.contains(&format!("{land} land cells")), "{n}: {en}");
        let cells = match land % 10 {
            1 if land % 100 != 11 => "клетка",
            2..=4 if !(12..=14).contains(&(land % 100)) => "клетки",
            _ => "клеток",
        };
        assert!(ru.contains(&format!("{land} {cells} суши")), "{n}: {ru}");
        assert!(
            !en.contains("quick") && !ru.contains("быстр"),
            "{en} / {ru}"
        );
    }
}

/// A setting refused is told in the reader's language, with the setting by its name in the
/// settings menu and what it takes; the lobby keeps its settings. (The reasons were English
/// text in a Russian sentence: «Такую настройку нельзя: turn_time must be between 1m and 14d».)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_setting_is_told_in_the_readers_language() {
    let h = Harness::start().await;
    let fake = &h.fake;
    let olga = fake.add_member("olga");
    fake.set_locale(olga, "ru");
    let general = fake.general();
    let ix = h.jackal(olga, general, "new", &[]).await;
    let game = game_of(&h.reply(&ix).await);
    let before = h.load(game).config;

    let set =
        |id: &'static str, value: &'static str| [("setting", id.into()), ("value", value.into())];
    let refused = [
        (
            set("turn_time", "30д"),
            "«30д» не подходит для настройки «Время на ход»: нужна длительность от 1 минуты до 14 дней, например 12ч или 2д.",
        ),
        (
            set("board_size", "8"),
            "«8» не подходит для настройки «Поле»: можно выбрать «5×5» (`5`), «7×7» (`7`), «9×9» (`9`), «11×11» (`11`) или «13×13» (`13`).",
        ),
        (
            set("max_missed", "0"),
            "«0» не подходит для настройки «Пропусков до замены ботом»: нужно число от 1 до 20.",
        ),
        (
            set("tile_pack", "chest5*20,dragon*3"),
            "«chest5*20,dragon*3» — не набор клеток, которым можно играть: клетки «dragon» не бывает.",
        ),
        (
            set("reminder", "2д"),
            "Напоминание за 2 дня до конца хода пришло бы не позже начала хода: на ход даётся 1 день.",
        ),
        (
            set("bord_size", "9"),
            "Настройки «bord_size» нет: выберите настройку из списка.",
        ),
    ];
    for (options, expected) in &refused {
        let answer = ask(&h, olga, general, "settings", options).await;
        assert!(answer.content.starts_with(expected), "{}", answer.content);
    }
    let half = ask(
        &h,
        olga,
        general,
        "settings",
        &[("setting", "turn_time".into())],
    )
    .await;
    assert!(
        half.content
            .starts_with("Укажите и настройку, и её новое значение"),
        "{}",
        half.content
    );
    assert_eq!(h.load(game).config, before, "nothing changed");
}
