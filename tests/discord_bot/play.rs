//! Playing moves as a user would: through the picker's menus and buttons (in a DM or a
//! private reply), or by typing `/jackal move` with what autocomplete offers.

use serenity::all::{ChannelId, UserId};

use crate::fake_discord::{Message, OptionValue};
use crate::harness::{Harness, buttons, select_values};

/// Clicks through a picker message until the move is played: the first entry of each menu,
/// the first answer of each choice, and "play it anyway" when a move is fatal. Returns the
/// final message ("✅ Played …").
pub async fn through_picker(h: &Harness, user: UserId, start: Message) -> Message {
    let mut m = start;
    for _ in 0..20 {
        if m.content.contains('✅') {
            return m;
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

/// The private "your turn" DM for the move numbered `number`, once it arrives.
pub async fn prompt(h: &Harness, user: UserId, game: i64, number: u32) -> Message {
    let heading = format!("#{game} · move {number} ");
    h.fake
        .wait_dm(user, |m| {
            m.content.contains(&heading) && !m.components.is_empty()
        })
        .await
}
