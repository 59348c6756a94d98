//! Games that survive real life, end to end on the manual clock: reminders each player tunes
//! with `/jackal remind` (times, quiet hours in their own zone, by DM or in the thread), the
//! daily digest, and the refusals of bad settings.

use jackal::id::GameId;
use jackal::store::{self, TimerKind};
use serenity::all::{ChannelId, UserId};

use crate::bot::deadlines::{dms, duel, now, on_turn, play_in_thread};
use crate::bot::harness::{HOUR, Harness, START_MS, dump, posts};
use fake_discord::{Message, OptionValue};

fn ms(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
}

fn text(s: &str) -> OptionValue {
    OptionValue::Str(s.to_string())
}

/// `/jackal remind` with options, in #general; its private answer.
async fn remind(h: &Harness, user: UserId, options: &[(&str, OptionValue)]) -> Message {
    let ix = h.jackal(user, h.fake.general(), "remind", options).await;
    h.reply(&ix).await
}

fn reminder_dms(h: &Harness, user: UserId) -> Vec<Message> {
    dms(h, user)
        .into_iter()
        .filter(|m| m.content.starts_with("⏰"))
        .collect()
}

fn reminder_timers(h: &Harness, game: GameId) -> Vec<i64> {
    let conn = h.service.store().conn().unwrap();
    store::game_timers(&conn, game)
        .unwrap()
        .into_iter()
        .filter(|t| t.kind == TimerKind::Reminder)
        .map(|t| t.due_at)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_come_at_the_players_times_out_of_their_quiet_hours_in_their_zone() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let duel = duel(&h, alice, bob, &[]).await;
    assert_eq!(now(&h), START_MS, "2026-11-18 12:00 UTC");
    let first = on_turn(&h, duel.game);
    let second = if first == alice { bob } else { alice };

    // The deadline is 2026-11-19 12:00 UTC. Ten hours before is 02:00 UTC, 05:00 in Moscow:
    // inside 23:00–08:00 there, so that reminder waits until 08:00 Moscow time, 05:00 UTC.
    let answer = remind(
        &h,
        first,
        &[
            ("before", text("10h, 2h")),
            ("quiet", text("23:00-08:00")),
            ("zone", text("Europe/Moscow")),
        ],
    )
    .await;
    assert!(
        answer
            .content
            .contains("10 hours, 2 hours before the deadline")
            && answer.content.contains("23:00–08:00")
            && answer.content.contains("Europe/Moscow"),
        "{}",
        answer.content
    );
    assert_eq!(
        reminder_timers(&h, duel.game),
        [ms("2026-11-19T05:00:00Z"), ms("2026-11-19T10:00:00Z")]
    );

    // Bad settings are refused in words, and nothing changes.
    let refused = remind(&h, first, &[("zone", text("Mars/Olympus"))]).await;
    assert!(
        refused
            .content
            .contains("no time zone called “Mars/Olympus”"),
        "{}",
        refused.content
    );
    let refused = remind(&h, first, &[("quiet", text("08:00-08:00"))]).await;
    assert!(refused.content.contains("whole day"), "{}", refused.content);
    let refused = remind(&h, first, &[("before", text("1d 12h 6h 1h"))]).await;
    assert!(refused.content.contains("at most 3"), "{}", refused.content);
    let prefs = h.service.user_prefs(first.into()).unwrap();
    assert_eq!(
        (prefs.time_zone.as_str(), prefs.quiet_start, prefs.reminders),
        ("Europe/Moscow", Some(23 * 60), Some(vec![600, 120]))
    );

    // 02:00 UTC passes without a word; 05:00 UTC brings the first reminder, 10:00 the second.
    h.advance(14 * HOUR);
    h.advance(3 * HOUR);
    h.fake.wait_dm(first, |m| m.content.starts_with("⏰")).await;
    h.advance(5 * HOUR);
    let sent = h
        .fake
        .wait_for("the second reminder", |_| {
            let sent = reminder_dms(&h, first);
            (sent.len() >= 2).then_some(sent)
        })
        .await;
    assert_eq!(sent.len(), 2);

    // The other player wants one reminder, an hour before, in the thread.
    let answer = remind(
        &h,
        second,
        &[("before", text("1h")), ("via", OptionValue::Int(1))],
    )
    .await;
    assert!(
        answer.content.contains("in the game's thread"),
        "{}",
        answer.content
    );
    play_in_thread(&h, &duel).await;
    assert_eq!(on_turn(&h, duel.game), second);
    h.advance(23 * HOUR);
    let mention = format!("<@{second}>");
    let post = h
        .fake
        .wait_message(duel.thread, |m| {
            m.content.starts_with("⏰") && m.content.contains(&mention)
        })
        .await;
    assert!(post.content.contains(&format!("#{}", duel.game)));
    assert!(
        reminder_dms(&h, second).is_empty(),
        "the thread instead of a DM"
    );
    assert_eq!(
        reminder_dms(&h, first).len(),
        2,
        "nothing more for the player who moved"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_digest_lists_every_game_on_turn_instead_of_reminders() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let mut threads: Vec<(GameId, ChannelId)> = Vec::new();
    for _ in 0..2 {
        let duel = duel(&h, alice, bob, &[]).await;
        if on_turn(&h, duel.game) == bob {
            play_in_thread(&h, &duel).await;
        }
        assert_eq!(on_turn(&h, duel.game), alice);
        threads.push((duel.game, duel.thread));
    }
    let answer = remind(&h, alice, &[("digest", text("09:00"))]).await;
    assert!(answer.content.contains("at 09:00"), "{}", answer.content);
    for (game, _) in &threads {
        assert!(
            reminder_timers(&h, *game).is_empty(),
            "no reminders of each game"
        );
    }

    // 09:00 UTC the next day: one DM lists both games with their threads.
    h.advance(21 * HOUR);
    let digest = h.fake.wait_dm(alice, |m| m.content.starts_with("☀️")).await;
    assert!(
        digest.content.contains("your turn in 2 games"),
        "{}",
        digest.content
    );
    for (game, thread) in &threads {
        assert!(
            digest.content.contains(&format!("#{game} <#{thread}>")),
            "{}",
            digest.content
        );
    }
    if let Some(dm) = h.fake.dm_channel(alice) {
        dump(&h.fake, dm, "digest").await;
    }
    assert!(reminder_dms(&h, alice).is_empty());
    for (_, thread) in &threads {
        assert!(
            posts(&h.fake, *thread)
                .iter()
                .all(|m| !m.content.starts_with("⏰")),
            "no reminder in the thread either"
        );
    }
}

/// `/jackal <sub>` in the game's thread; its private answer.
async fn in_thread(
    h: &Harness,
    user: UserId,
    thread: ChannelId,
    sub: &str,
    options: &[(&str, OptionValue)],
) -> Message {
    let ix = h.jackal(user, thread, sub, options).await;
    h.reply(&ix).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pause_is_voted_with_buttons_shown_on_the_posts_and_ends_by_itself() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let eve = h.fake.add_member("eve");
    let duel = duel(&h, alice, bob, &[]).await;
    let game = duel.game;
    let first = on_turn(&h, game);
    let second = if first == alice { bob } else { alice };

    let too_long = in_thread(&h, second, duel.thread, "pause", &[("length", text("30d"))]).await;
    assert!(
        too_long.content.contains("at most 7 days"),
        "{}",
        too_long.content
    );
    let answer = in_thread(&h, second, duel.thread, "pause", &[("length", text("3d"))]).await;
    assert!(
        answer.content.contains("the others have a day"),
        "{}",
        answer.content
    );
    let proposal = h
        .fake
        .wait_message(duel.thread, |m| m.content.contains("proposes to pause"))
        .await;
    assert!(proposal.content.contains("3 days"), "{}", proposal.content);
    let yes = format!("jk1:pause:{game}:yes");
    assert_eq!(
        proposal.custom_ids(),
        [yes.clone(), format!("jk1:pause:{game}:no")]
    );
    // Someone not in the game may not vote; the proposer has voted already.
    let ix = h.fake.click(eve, proposal.id, &yes);
    let refused = crate::bot::duel::private_answer(&h, &ix).await;
    assert!(
        refused.content.contains("not playing"),
        "{}",
        refused.content
    );
    let ix = h.fake.click(second, proposal.id, &yes);
    let refused = crate::bot::duel::private_answer(&h, &ix).await;
    assert!(
        refused.content.contains("already voted"),
        "{}",
        refused.content
    );
    let before = h.service.deadline_of(game).unwrap().unwrap();
    let ix = h.fake.click(first, proposal.id, &yes);
    let accepted = crate::bot::duel::private_answer(&h, &ix).await;
    assert!(
        accepted.content.contains("The pause is on"),
        "{}",
        accepted.content
    );
    h.fake
        .wait_message(duel.thread, |m| {
            m.content.contains("The game is paused until")
        })
        .await;
    // The vote is decided: its buttons go, its words stay.
    let decided = h
        .fake
        .wait_for("the vote's buttons to go", |f| {
            f.message(proposal.id).filter(|m| m.components.is_empty())
        })
        .await;
    assert_eq!(decided.content, proposal.content);
    assert_eq!(
        h.service.deadline_of(game).unwrap(),
        Some(before + 3 * 24 * HOUR)
    );
    // A second pause while this one runs is refused.
    let again = in_thread(&h, first, duel.thread, "pause", &[("length", text("1d"))]).await;
    assert!(
        again.content.contains("already paused"),
        "{}",
        again.content
    );
    // A move during the pause: its post says the game is paused.
    let ply = play_in_thread(&h, &duel).await;
    let post = crate::bot::deadlines::move_post(&h, duel.thread, ply).await;
    assert!(
        post.content.contains("⏸️ The game is paused"),
        "{}",
        post.content
    );
    // Three days on, it ends by itself.
    h.advance(3 * 24 * HOUR);
    h.fake
        .wait_message(duel.thread, |m| m.content.contains("The pause is over"))
        .await;

    // Another proposal, turned down with the other button.
    in_thread(&h, first, duel.thread, "pause", &[("length", text("1d"))]).await;
    let proposal = h
        .fake
        .wait_for("the second proposal", |f| {
            f.messages_in(duel.thread)
                .into_iter()
                .filter(|m| m.content.contains("proposes to pause"))
                .nth(1)
        })
        .await;
    let ix = h
        .fake
        .click(second, proposal.id, &format!("jk1:pause:{game}:no"));
    let answer = crate::bot::duel::private_answer(&h, &ix).await;
    assert!(
        answer.content.contains("the pause is off"),
        "{}",
        answer.content
    );
    h.fake
        .wait_message(duel.thread, |m| {
            m.content.contains("voted against the pause")
        })
        .await;
    assert_eq!(h.service.paused_until(game).unwrap(), None);
    h.fake
        .wait_for("the refused vote's buttons to go", |f| {
            f.message(proposal.id).filter(|m| m.components.is_empty())
        })
        .await;

    // More time: the owner may give it, the other player may not.
    let owner = UserId::from(h.load(game).owner);
    let other = if owner == alice { bob } else { alice };
    let refused = in_thread(&h, other, duel.thread, "extend", &[("length", text("1d"))]).await;
    assert!(
        refused.content.contains("Only the game's owner"),
        "{}",
        refused.content
    );
    let before = h.service.deadline_of(game).unwrap().unwrap();
    let given = in_thread(&h, owner, duel.thread, "extend", &[("length", text("1d"))]).await;
    assert!(
        given.content.contains("now has more time: their turn ends"),
        "{}",
        given.content
    );
    assert_eq!(
        h.service.deadline_of(game).unwrap(),
        Some(before + 24 * HOUR)
    );
    h.fake
        .wait_message(duel.thread, |m| m.content.contains("has more time"))
        .await;
    dump(&h.fake, duel.thread, "pause").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_holds_a_deadline_is_announced_and_ends_when_the_player_moves() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let duel = duel(&h, alice, bob, &[]).await;
    let first = on_turn(&h, duel.game);

    let refused = remind_like(&h, first, "vacation", &[("length", text("30d"))]).await;
    assert!(
        refused
            .content
            .contains("You have 14 days of vacation left"),
        "{}",
        refused.content
    );
    let answer = remind_like(&h, first, "vacation", &[("length", text("5d"))]).await;
    assert!(
        answer.content.contains("You are on vacation until") && answer.content.contains("14 days"),
        "{}",
        answer.content
    );
    h.fake
        .wait_message(duel.thread, |m| m.content.contains("is on vacation until"))
        .await;
    // The deadline (a day in) waits: no bot moves for them.
    h.advance(24 * HOUR + 1);
    h.fake
        .wait_message(duel.thread, |m| m.content.contains("their turn now ends"))
        .await;
    assert_eq!(h.load(duel.game).ply, 0);
    let status = remind_like(&h, first, "vacation", &[]).await;
    assert!(
        status.content.contains("10 days of 14 days"),
        "{}",
        status.content
    );
    // Back early, a day later: they move, the thread hears it, and the three days they did
    // not use come back.
    h.advance(24 * HOUR);
    play_in_thread(&h, &duel).await;
    h.fake
        .wait_message(duel.thread, |m| m.content.contains("is back from vacation"))
        .await;
    dump(&h.fake, duel.thread, "vacation").await;
    let status = remind_like(&h, first, "vacation", &[]).await;
    assert!(
        status
            .content
            .contains("You are not on vacation. Left this year: 13 days of 14 days"),
        "{}",
        status.content
    );
}

/// A command in #general; its private answer.
async fn remind_like(
    h: &Harness,
    user: UserId,
    sub: &str,
    options: &[(&str, OptionValue)],
) -> Message {
    let ix = h.jackal(user, h.fake.general(), sub, options).await;
    h.reply(&ix).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_skip_policy_passes_the_turn_and_says_so_in_the_thread() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    // `timeout` choice 2: skip.
    let duel = duel(&h, alice, bob, &[("timeout", OptionValue::Int(2))]).await;
    assert_eq!(
        h.load(duel.game).config.timeout,
        jackal::game::TimeoutPolicy::Skip
    );
    let sleeper = on_turn(&h, duel.game);
    h.advance(24 * HOUR + 1);
    let notice = h
        .fake
        .wait_message(duel.thread, |m| m.content.starts_with("ℹ️"))
        .await;
    assert!(
        notice.content.contains("the turn passes without a move"),
        "{}",
        notice.content
    );
    let loaded = h.load(duel.game);
    assert_eq!(loaded.ply, 1, "one action: the pass");
    assert_ne!(on_turn(&h, duel.game), sleeper);
    assert_eq!(h.service.history(duel.game).unwrap()[0].notation, "pass");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_deadlines_that_passed_while_the_bot_was_down_fire_once_each() {
    let mut h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let mut duels = Vec::new();
    for _ in 0..3 {
        duels.push(duel(&h, alice, bob, &[]).await);
    }
    // The bot stops; two days pass; a new one starts on the same database.
    let bot = h.bot.take().expect("a bot runs");
    tokio::task::spawn_blocking(move || bot.stop())
        .await
        .expect("stopped");
    h.clock.advance_ms(48 * HOUR);
    h.start_bot().await;
    for d in &duels {
        h.fake
            .wait_message(d.thread, |m| m.content.contains("time ran out"))
            .await;
    }
    // A moment later nothing more has come: one notice each, one move each.
    h.advance(1);
    crate::bot::deadlines::move_post(&h, duels[2].thread, h.load(duels[2].game).ply).await;
    for d in &duels {
        let told: Vec<Message> = posts(&h.fake, d.thread)
            .into_iter()
            .filter(|m| m.content.contains("time ran out"))
            .collect();
        assert_eq!(told.len(), 1, "game #{}", d.game);
        let fired = h
            .service
            .history(d.game)
            .unwrap()
            .iter()
            .filter(|e| e.user_id.is_none())
            .map(|e| e.team)
            .collect::<std::collections::BTreeSet<_>>();
        assert_eq!(fired.len(), 1, "one team's turn was played by the bot");
    }
}

/// The refusals speak the player's language: a Russian client hears them in Russian.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_settings_are_refused_in_the_players_language() {
    let h = Harness::start().await;
    let ivan = h.fake.add_member("ivan");
    h.fake.set_locale(ivan, "ru");
    let refused = remind(&h, ivan, &[("zone", text("Марс/Олимп"))]).await;
    assert!(
        refused.content.contains("Часового пояса «Марс/Олимп» нет"),
        "{}",
        refused.content
    );
    let refused = remind(&h, ivan, &[("quiet", text("07:00-07:00"))]).await;
    assert!(refused.content.contains("весь день"), "{}", refused.content);
    let refused = remind_like(&h, ivan, "vacation", &[("length", text("20d"))]).await;
    assert!(
        refused
            .content
            .contains("Осталось отпуска в этом году: 14 дней"),
        "{}",
        refused.content
    );
    let shown = remind(&h, ivan, &[]).await;
    assert!(
        shown.content.contains("Ваши напоминания"),
        "{}",
        shown.content
    );
}

/// Undo by consent, end to end: `/jackal undo` asks (privately answered), the request is
/// posted in the thread with two buttons; someone not in the game, the asker themselves and a
/// second request are refused in private words; the other player's "Take it back" puts the
/// board back, posts it, and takes the buttons off the request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_taken_back_by_consent_with_the_buttons_under_the_request() {
    let h = Harness::start().await;
    let alice = h.fake.add_member("alice");
    let bob = h.fake.add_member("bob");
    let eve = h.fake.add_member("eve");
    // 7×7: the ships have room to sail along the coast.
    let duel = duel(&h, alice, bob, &[("size", OptionValue::Int(1))]).await;
    let game = duel.game;
    let first = on_turn(&h, game);
    let second = if first == alice { bob } else { alice };
    let start = h.load(game).state.unwrap();

    let nothing = in_thread(&h, first, duel.thread, "undo", &[]).await;
    assert!(
        nothing.content.contains("no move to take back"),
        "{}",
        nothing.content
    );
    // A ship move opens nothing, so it may be taken back.
    let moves = h
        .service
        .legal_moves(jackal::id::UserId::new(first.get()), game)
        .unwrap();
    let ship = moves
        .iter()
        .map(|m| m.notation.clone())
        .find(|n| n.starts_with("ship"))
        .unwrap_or_else(|| panic!("a ship move among {moves:?}"));
    let played = in_thread(&h, first, duel.thread, "move", &[("action", text(&ship))]).await;
    assert!(played.content.contains('✅'), "{}", played.content);
    // Someone not in the game names it (in the thread they have no game of their own).
    let named = [("game", OptionValue::Int(game.get()))];
    let outsider = in_thread(&h, eve, duel.thread, "undo", &named).await;
    assert!(
        outsider.content.contains("not playing"),
        "{}",
        outsider.content
    );
    let asked = in_thread(&h, first, duel.thread, "undo", &[]).await;
    assert!(asked.content.contains("1 of 2 agree"), "{}", asked.content);
    let request = h
        .fake
        .wait_message(duel.thread, |m| m.content.contains("asks to take back"))
        .await;
    let yes = format!("jk1:undo:{game}:1:yes");
    assert_eq!(
        request.custom_ids(),
        [yes.clone(), format!("jk1:undo:{game}:1:no")]
    );
    let again = in_thread(&h, second, duel.thread, "undo", &[]).await;
    assert!(
        again.content.contains("already waiting"),
        "{}",
        again.content
    );
    let ix = h.fake.click(eve, request.id, &yes);
    let refused = crate::bot::duel::private_answer(&h, &ix).await;
    assert!(
        refused.content.contains("not playing"),
        "{}",
        refused.content
    );
    let ix = h.fake.click(first, request.id, &yes);
    let refused = crate::bot::duel::private_answer(&h, &ix).await;
    assert!(
        refused.content.contains("already agreed"),
        "{}",
        refused.content
    );
    assert_eq!(h.load(game).ply, 1, "nothing changed yet");

    let ix = h.fake.click(second, request.id, &yes);
    let done = crate::bot::duel::private_answer(&h, &ix).await;
    assert!(done.content.contains("Taken back"), "{}", done.content);
    h.fake
        .wait_message(duel.thread, |m| m.content.contains("Everyone agreed"))
        .await;
    let board = h
        .fake
        .wait_message(duel.thread, |m| m.content.contains("taken back by consent"))
        .await;
    assert!(board.content.contains("after move 0"), "{}", board.content);
    assert!(!board.attachments.is_empty(), "the board is drawn again");
    h.fake
        .wait_for("the request's buttons to go", |f| {
            f.message(request.id).filter(|m| m.components.is_empty())
        })
        .await;
    let view = h.load(game);
    assert_eq!(view.ply, 2);
    let state = view.state.unwrap();
    assert_eq!(state.controller(), start.controller());
    assert_eq!(state.legal_actions(), start.legal_actions());
    let history = h.service.history(game).unwrap();
    assert!(history[0].taken_back);
    assert_eq!(history[1].take_back, Some(0));
    crate::bot::harness::dump(&h.fake, duel.thread, "undo-thread").await;
}
