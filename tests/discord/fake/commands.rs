//! Slash commands: replies with files, typed options and subcommands, autocomplete,
//! deferred replies, the response deadline and the one-initial-response rule.

use std::time::Duration;

use crate::fake::bot;
use fake_discord::{Config, FakeDiscord, OptionValue};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slash_command_replies_with_a_png_served_back_over_the_cdn() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    let ix = fake.slash(alice, fake.general(), "board", &[]).await;
    let callback = fake.response(&ix).await;
    assert_eq!(callback.kind, 4);
    let reply = fake.reply(&ix).await;
    assert_eq!(reply.content, "The board");
    assert_eq!(reply.custom_ids(), ["roll", "rename", "pick"]);
    let [file] = reply.attachments.as_slice() else {
        panic!("one attachment expected: {reply:?}")
    };
    assert_eq!(file.filename, "board.png");
    assert_eq!(file.content_type, "image/png");
    assert_eq!(*file.bytes, *bot::board_png());
    assert_eq!(fake.download(&file.url).await, bot::board_png());
    // Discord points the embed's attachment:// image at the uploaded file.
    assert_eq!(reply.embeds[0]["image"]["url"], file.url.as_str());
    assert_eq!(reply.embeds[0]["image"]["width"], 1);
    let upload = fake
        .rest_log()
        .into_iter()
        .find(|e| e.path.ends_with("/callback"))
        .expect("callback logged");
    assert_eq!(
        upload.files,
        [("files[0]".to_string(), "board.png".to_string())]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subcommand_options_arrive_typed() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    let options = [("size", OptionValue::Int(13)), ("public", true.into())];
    let ix = fake
        .slash(alice, fake.general(), "game new", &options)
        .await;
    assert_eq!(
        fake.reply(&ix).await.content,
        "New game 13x13, public: true"
    );

    let ix = fake
        .slash(alice, fake.general(), "game new", &[("size", 7.into())])
        .await;
    assert_eq!(fake.reply(&ix).await.content, "New game 7x7, public: false");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[should_panic(expected = "no option `colour`")]
async fn an_option_the_command_does_not_have_is_refused() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");
    fake.slash(
        alice,
        fake.general(),
        "game new",
        &[("size", 7.into()), ("colour", "red".into())],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_offers_the_bots_choices() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    let choices = fake
        .autocomplete(
            alice,
            fake.general(),
            "game join",
            &[("name", "b".into())],
            "name",
        )
        .await;
    let names: Vec<&str> = choices.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names, ["beta", "bravo"]);

    let ix = fake
        .slash(
            alice,
            fake.general(),
            "game join",
            &[("name", "beta".into())],
        )
        .await;
    assert_eq!(fake.reply(&ix).await.content, "Joined beta");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deferred_reply_is_filled_in_by_the_first_followup() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    let ix = fake.slash(alice, fake.general(), "slow", &[]).await;
    assert_eq!(fake.response(&ix).await.kind, 5);
    let reply = fake.reply(&ix).await;
    assert_eq!(reply.content, "Done thinking");
    assert!(!reply.is_loading());
    // The followup edited the placeholder: one message in the channel, no extra followup.
    assert_eq!(fake.messages_in(fake.general()).len(), 1);
    assert!(fake.followups_so_far(&ix).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_after_the_deadline_gets_unknown_interaction() {
    let config = Config {
        response_deadline: bot::LATE_DELAY / 2,
        ..Config::default()
    };
    let fake = FakeDiscord::start_with(config).await;
    let bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    fake.slash(alice, fake.general(), "late", &[]).await;
    let refused = fake
        .wait_request("the late callback", |e| e.path.ends_with("/callback"))
        .await;
    assert_eq!((refused.status, refused.error_code), (404, Some(10062)));
    assert!(fake.messages_in(fake.general()).is_empty());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        bot.errors()
            .iter()
            .any(|e| e.contains("Unknown interaction")),
        "{:?}",
        bot.errors()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_initial_response_is_refused() {
    let fake = FakeDiscord::start().await;
    let bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    let ix = fake.slash(alice, fake.general(), "twice", &[]).await;
    assert_eq!(fake.reply(&ix).await.content, "first");
    let second = fake
        .wait_request("the second callback", |e| {
            e.path.ends_with("/callback") && e.status != 204
        })
        .await;
    assert_eq!((second.status, second.error_code), (400, Some(40060)));
    fake.wait_for("the bot to notice", |_| {
        bot.errors()
            .iter()
            .any(|e| e.contains("Some(40060)"))
            .then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_posted_picture_downloads_and_decodes() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    let ix = fake.slash(alice, fake.general(), "board", &[]).await;
    let reply = fake.reply(&ix).await;
    let [png] = reply.png_attachments()[..] else {
        panic!("one PNG expected: {:?}", reply.attachments)
    };
    assert_eq!(png.png_size(), Some((1, 1)));
    let picture = image::load_from_memory(&fake.download(&png.url).await).expect("a PNG");
    assert_eq!((picture.width(), picture.height()), (1, 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_response_and_each_message_are_timed() {
    let fake = FakeDiscord::start().await;
    let _bot = bot::start(&fake).await;
    let alice = fake.add_member("alice");

    // `/late` sleeps before answering: its response time covers that sleep.
    let ix = fake.slash(alice, fake.general(), "late", &[]).await;
    assert_eq!(fake.response_time(&ix), None, "not answered yet");
    let reply = fake.reply(&ix).await;
    let timed = fake.response_time(&ix).expect("answered");
    assert!(timed >= bot::LATE_DELAY, "{timed:?}");
    let told = fake.interaction(&ix).expect("known");
    assert_eq!(told.answered, Some(told.created + timed));
    assert!(reply.posted >= told.created + bot::LATE_DELAY);

    // Later messages follow, oldest first, each stamped when stored.
    let ix = fake.slash(alice, fake.general(), "ping", &[]).await;
    let pong = fake.reply(&ix).await;
    let after = fake.messages_after(reply.id);
    assert_eq!(
        after.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![pong.id]
    );
    assert!(after[0].posted >= reply.posted);
    assert!(fake.messages_after(pong.id).is_empty());
}
