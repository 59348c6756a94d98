//! Playing moves as a user would: through the picker's menus and buttons (in a DM or a
//! private reply), or by typing `/jackal move` with what autocomplete offers.
//!
//! A move does not always hand the turn to the next player: serving rum is a free action (the
//! same player plays on), and once the shaitan weed is found every team is commanded by the
//! player before it for a round (R-WEED-2: in a duel the finder's player plays the other
//! team's next turn too, then the other player the finder's team's and their own). Whoever is
//! to move is read from the game ([`commander_at`]).

use jackal::id::GameId;
use serenity::all::{ChannelId, UserId};

use crate::bot::harness::{Harness, buttons, select_values};
use fake_discord::{Message, OptionValue};

/// Clicks through a picker message until the move is played: the first entry of each menu,
/// the first answer of each choice, and "play it anyway" when a move is fatal. Returns the
/// final message ("✅ Played …").
pub async fn through_picker(h: &Harness, user: UserId, start: Message) -> Message {
    through_picker_counted(h, user, start).await.0
}

/// [`through_picker`], with the number of presses it took.
async fn through_picker_counted(h: &Harness, user: UserId, start: Message) -> (Message, usize) {
    let mut m = start;
    for presses in 0..20 {
        if m.content.contains('✅') {
            return (m, presses);
        }
        let values = select_values(&m);
        let ix = if let Some((_, value)) = values.first() {
            let id = m
                .custom_ids()
                .into_iter()
                .find(|id| id.starts_with("jk1:pick:"))
                .expect("a picker menu");
            h.fake.select(user, m.id, &id, &[value])
        } else {
            let play = buttons(&m)
                .into_iter()
                .find(|(_, id)| id.starts_with("jk1:play:") || id.starts_with("jk1:sure:"))
                .unwrap_or_else(|| {
                    panic!("nothing to press on {:?}: {}", m.custom_ids(), m.content)
                });
            h.fake.click(user, m.id, &play.1)
        };
        h.fake.response(&ix).await;
        m = h.changed(&m).await;
    }
    panic!("the picker never reached a move: {}", m.content);
}

/// Plays the first move autocomplete offers with `/jackal move`, then anything it asks
/// (a choice, a confirmation) through its buttons.
pub async fn by_command(h: &Harness, user: UserId, channel: ChannelId) -> Message {
    let offered = h
        .fake
        .autocomplete(
            user,
            channel,
            "jackal move",
            &[("action", OptionValue::Str(String::new()))],
            "action",
        )
        .await;
    assert!(
        !offered.is_empty(),
        "autocomplete offers the player's moves"
    );
    assert!(offered.len() <= 25);
    let value = offered[0]["value"]
        .as_str()
        .expect("a string value")
        .to_string();
    let name = offered[0]["name"].as_str().expect("a name");
    assert!(
        name.contains('→') || name.contains("Resurrect") || name.contains("rum"),
        "{name}"
    );
    let ix = h
        .jackal(
            user,
            channel,
            "move",
            &[("action", OptionValue::Str(value))],
        )
        .await;
    let reply = h.reply(&ix).await;
    assert!(reply.is_ephemeral());
    if reply.content.contains('✅') {
        return reply;
    }
    through_picker(h, user, reply).await
}

/// The private "your turn" DM for the position after `next_ply - 1` actions, once it
/// arrives.
pub async fn prompt(h: &Harness, user: UserId, game: GameId, next_ply: u32) -> Message {
    let number = h.next_move_number(game, next_ply - 1);
    let heading = format!("#{game} · move {number} ");
    h.fake
        .wait_dm(user, |m| {
            m.content.contains(&heading) && !m.components.is_empty()
        })
        .await
}

/// The person to move at `ply`: the player commanding the team on turn (another team's player
/// under the weed); none when a bot's seat commands or the game is over.
pub fn commander_at(h: &Harness, game: GameId, ply: u32) -> Option<UserId> {
    let position = h.service.position_at(game, ply).expect("the position");
    if position.is_over() {
        return None;
    }
    let loaded = h.load(game);
    let seat = loaded.team_seat(position.controller())?;
    seat.user_id.map(UserId::from)
}

/// The plies at which a move was complete (0, the start, and every ply that left no choice
/// pending): each has its post (but 0) and its "your turn".
pub fn move_ends(h: &Harness, game: GameId) -> Vec<u32> {
    let last = h.load(game).ply;
    (0..=last)
        .filter(|&ply| {
            let position = h.service.position_at(game, ply).expect("the position");
            position.pending_kind().is_none()
        })
        .collect()
}

/// The ply of `user`'s latest action (0 if they have not played).
pub fn last_ply_of(h: &Harness, game: GameId, user: UserId) -> u32 {
    let history = h.service.history(game).expect("the history");
    history
        .iter()
        .rev()
        .find(|a| a.user_id == Some(user.into()))
        .map_or(0, |a| a.ply)
}

/// After a move by `user`, plays on with `/jackal move` in `thread` for as long as it is
/// still their move (rum served, a weed turn); returns the ply they ended at, once its post
/// is in the thread.
pub async fn finish_turn(h: &Harness, game: GameId, thread: ChannelId, user: UserId) -> u32 {
    let mut ply = last_ply_of(h, game, user);
    for _ in 0..10 {
        if ply > 0 {
            let header = format!("· move {}**", h.move_number(game, ply));
            h.fake
                .wait_message(thread, |m| m.content.contains(&header))
                .await;
        }
        if commander_at(h, game, ply) != Some(user) {
            return ply;
        }
        let done = by_command(h, user, thread).await;
        assert!(done.content.contains('✅'), "{}", done.content);
        ply = last_ply_of(h, game, user);
    }
    panic!("game #{game}: {user} was still on turn after ten moves");
}

/// Every press is answered with one call of the game service: the lobby's buttons, "My
/// moves", each menu of the picker and the move it plays. (The service answers in views made
/// for each press; a press that asked several times would hold the interaction longer and
/// load the game again each time.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_press_costs_one_service_call() {
    let h = Harness::start().await;
    let duel = crate::bot::duel::Duel::start(&h).await;
    let (on_turn, _) = duel.players(&h);
    let ix = h.fake.click(on_turn, duel.start.id, &duel.my_moves());
    h.fake.response(&ix).await;
    let picker = h.reply(&ix).await;
    let (played, picks) = through_picker_counted(&h, on_turn, picker).await;
    assert!(played.content.contains('✅'), "{}", played.content);

    // Join, start, My moves, then the picker's presses: each is counted once answered, a
    // moment after its message changed.
    let presses = 3 + picks;
    let mut costs = h.press_costs().await;
    for _ in 0..500 {
        if costs.len() >= presses {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        costs = h.press_costs().await;
    }
    assert_eq!(costs.len(), presses, "{costs:?}");
    let kinds: Vec<&str> = costs
        .iter()
        .map(|c| c.custom_id.split(':').nth(1).unwrap_or_default())
        .collect();
    for kind in ["lobby", "moves", "pick"] {
        assert!(kinds.contains(&kind), "no `{kind}` press among {kinds:?}");
    }
    for cost in &costs {
        assert_eq!(cost.service_calls, 1, "{cost:?}");
    }
}
