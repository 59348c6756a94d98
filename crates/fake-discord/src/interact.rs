//! Acting as a user: slash commands (with typed options and subcommands), autocomplete,
//! buttons, select menus and modals. Each builds the interaction Discord would send, checks
//! it against what the bot registered or posted (a test cannot press a button that is not
//! there), then dispatches INTERACTION_CREATE over the gateway.

use std::time::Instant;

use serde_json::{Map, Value, json};
use serenity::all::{ChannelId, InteractionId, MessageId, UserId};

use super::gateway::check_event;
use super::world::{ChannelKind, Interaction, InteractionKind, World, next_snowflake, perms};
use super::{Callback, FakeDiscord};

/// How long the fake "types" into a modal before submitting it.
const MODAL_TYPING_TIME: std::time::Duration = std::time::Duration::from_millis(100);

/// An interaction the test made, to wait for the bot's answer with.
#[derive(Debug, Clone)]
pub struct InteractionHandle {
    pub id: InteractionId,
    pub token: String,
    pub user: UserId,
    pub channel: ChannelId,
}

/// A typed slash-command option value.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    Str(String),
    Int(i64),
    Num(f64),
    Bool(bool),
    User(UserId),
    Channel(ChannelId),
}

impl OptionValue {
    /// Discord's option type codes this value may fill.
    fn fits(&self, option_type: u64) -> bool {
        match self {
            OptionValue::Str(_) => option_type == 3,
            OptionValue::Int(_) => option_type == 4 || option_type == 10,
            OptionValue::Num(_) => option_type == 10,
            OptionValue::Bool(_) => option_type == 5,
            OptionValue::User(_) => option_type == 6 || option_type == 9,
            OptionValue::Channel(_) => option_type == 7,
        }
    }

    fn to_json(&self) -> Value {
        match self {
            OptionValue::Str(s) => s.clone().into(),
            OptionValue::Int(i) => (*i).into(),
            OptionValue::Num(n) => (*n).into(),
            OptionValue::Bool(b) => (*b).into(),
            OptionValue::User(u) => u.to_string().into(),
            OptionValue::Channel(c) => c.to_string().into(),
        }
    }
}

impl From<&str> for OptionValue {
    fn from(s: &str) -> Self {
        OptionValue::Str(s.into())
    }
}
impl From<String> for OptionValue {
    fn from(s: String) -> Self {
        OptionValue::Str(s)
    }
}
impl From<i64> for OptionValue {
    fn from(i: i64) -> Self {
        OptionValue::Int(i)
    }
}
impl From<f64> for OptionValue {
    fn from(n: f64) -> Self {
        OptionValue::Num(n)
    }
}
impl From<bool> for OptionValue {
    fn from(b: bool) -> Self {
        OptionValue::Bool(b)
    }
}
impl From<UserId> for OptionValue {
    fn from(u: UserId) -> Self {
        OptionValue::User(u)
    }
}
impl From<ChannelId> for OptionValue {
    fn from(c: ChannelId) -> Self {
        OptionValue::Channel(c)
    }
}

/// `data.resolved` of a command interaction: the users, members and channels its options name.
#[derive(Default)]
struct Resolved {
    users: Map<String, Value>,
    members: Map<String, Value>,
    channels: Map<String, Value>,
}

impl Resolved {
    fn add(
        &mut self,
        w: &World,
        value: &OptionValue,
        guild_channel: ChannelId,
    ) -> Result<(), String> {
        match value {
            OptionValue::User(id) => {
                let user = w
                    .user(*id)
                    .ok_or_else(|| format!("option names unknown user {id}"))?;
                self.users.insert(id.to_string(), user.to_json());
                let guild = w.channels[&guild_channel]
                    .guild
                    .and_then(|g| w.guilds.get(&g));
                if let Some(member) = guild.and_then(|g| g.members.get(id)) {
                    let mut m =
                        w.member_json(member, Some(w.channel_permissions(*id, guild_channel)));
                    m.as_object_mut().expect("object").remove("user");
                    self.members.insert(id.to_string(), m);
                }
            }
            OptionValue::Channel(id) => {
                let c = w
                    .channels
                    .get(id)
                    .ok_or_else(|| format!("option names unknown channel {id}"))?;
                let bits = w.channel_permissions(w.bot, *id);
                self.channels.insert(
                    id.to_string(),
                    json!({"id": id.to_string(), "name": c.name, "type": c.kind.code(), "permissions": bits.to_string()}),
                );
            }
            _ => {}
        }
        Ok(())
    }

    fn to_json(&self) -> Value {
        let mut v = json!({});
        for (key, map) in [
            ("users", &self.users),
            ("members", &self.members),
            ("channels", &self.channels),
        ] {
            if !map.is_empty() {
                v[key] = Value::Object(map.clone());
            }
        }
        v
    }
}

/// The option tree of a command invocation, checked against the registered definition.
/// `path` is the subcommand group / subcommand names after the command name.
fn command_options(
    w: &World,
    definition: &Value,
    path: &[&str],
    options: &[(&str, OptionValue)],
    focused: Option<&str>,
    channel: ChannelId,
    resolved: &mut Resolved,
) -> Result<Vec<Value>, String> {
    let empty = Vec::new();
    let mut defs = definition["options"].as_array().unwrap_or(&empty);
    let mut wrappers = Vec::new();
    for part in path {
        let sub = defs
            .iter()
            .find(|o| o["name"] == *part && matches!(o["type"].as_u64(), Some(1 | 2)))
            .ok_or_else(|| format!("no subcommand `{part}` in {}", definition["name"]))?;
        wrappers.push((part.to_string(), sub["type"].as_u64().unwrap_or(1)));
        defs = sub["options"].as_array().unwrap_or(&empty);
    }
    if defs
        .iter()
        .any(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
    {
        return Err(format!("{} needs a subcommand", definition["name"]));
    }
    let mut leaf = Vec::new();
    for (name, value) in options {
        let def = defs.iter().find(|o| o["name"] == *name).ok_or_else(|| {
            let known: Vec<&str> = defs.iter().filter_map(|o| o["name"].as_str()).collect();
            format!("no option `{name}` (the command has {known:?})")
        })?;
        let option_type = def["type"].as_u64().unwrap_or(0);
        let is_focused = focused == Some(*name);
        // While typing, Discord sends the focused option's partial text whatever its type.
        if !is_focused && !value.fits(option_type) {
            return Err(format!(
                "option `{name}` has type {option_type}; {value:?} does not fit"
            ));
        }
        // poise registers `choices: []` for free-form options.
        if let Some(choices) = def["choices"]
            .as_array()
            .filter(|c| !c.is_empty() && !is_focused)
            && !choices.iter().any(|c| c["value"] == value.to_json())
        {
            return Err(format!("{value:?} is not one of the choices of `{name}`"));
        }
        resolved.add(w, value, channel)?;
        let mut option = json!({"name": name, "type": option_type, "value": value.to_json()});
        if is_focused {
            option["focused"] = true.into();
        }
        leaf.push(option);
    }
    if focused.is_none() {
        for def in defs.iter().filter(|d| d["required"] == true) {
            if !options.iter().any(|(n, _)| def["name"] == *n) {
                return Err(format!("required option `{}` is missing", def["name"]));
            }
        }
    }
    for (name, kind) in wrappers.into_iter().rev() {
        leaf = vec![json!({"name": name, "type": kind, "options": leaf})];
    }
    Ok(leaf)
}

/// The fields every interaction carries: who, where, with which permissions and locale.
fn envelope(w: &World, ix: &Interaction, data: Value) -> Value {
    let channel = &w.channels[&ix.channel];
    let user = w.user(ix.user).expect("interaction user exists");
    let mut partial = json!({"id": ix.channel.to_string(), "type": channel.kind.code()});
    if channel.guild.is_some() {
        partial["name"] = channel.name.clone().into();
    }
    let mut v = json!({
        "id": ix.id.to_string(),
        "application_id": w.app_id.to_string(),
        "type": ix.kind.code(),
        "data": data,
        "channel_id": ix.channel.to_string(),
        "channel": partial,
        "token": ix.token,
        "version": 1,
        "app_permissions": w.channel_permissions(w.bot, ix.channel).to_string(),
        "locale": user.locale,
        // serenity 0.12.5 requires these two on every interaction.
        "entitlements": [],
        "attachment_size_limit": super::rest::MAX_FILE_BYTES,
    });
    match channel.guild.and_then(|g| w.guilds.get(&g)) {
        Some(guild) => {
            let member = guild
                .members
                .get(&ix.user)
                .expect("checked: the user is a member");
            v["guild_id"] = guild.id.to_string().into();
            v["guild_locale"] = "en-US".into();
            // A guild interaction has `member` (with the user inside) and no `user` at all.
            v["member"] = w.member_json(member, Some(w.channel_permissions(ix.user, ix.channel)));
            v["authorizing_integration_owners"] = json!({"0": guild.id.to_string()});
            v["context"] = 0.into();
        }
        None => {
            v["user"] = user.to_json();
            v["authorizing_integration_owners"] = json!({"1": ix.user.to_string()});
            v["context"] = 1.into();
        }
    }
    if let Some(message) = ix.source_message.and_then(|m| w.messages.get(&m)) {
        v["message"] = message.to_json(w);
    }
    v
}

/// Finds the component with `custom_id` in a component tree.
fn find_component<'a>(components: &'a [Value], custom_id: &str) -> Option<&'a Value> {
    components.iter().find_map(|c| {
        if c["custom_id"] == custom_id {
            return Some(c);
        }
        find_component(
            c["components"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default(),
            custom_id,
        )
        .or_else(|| {
            c.get("component")
                .and_then(|inner| find_component(std::slice::from_ref(inner), custom_id))
        })
    })
}

/// The start of every interaction token; the rest is the interaction's id.
pub(crate) const INTERACTION_TOKEN_PREFIX: &str = "fake-interaction-token-";

impl FakeDiscord {
    /// Records the interaction, then dispatches it; panics (failing the test) if the user
    /// could not really do this or serenity could not read the payload.
    fn send_interaction(
        &self,
        kind: InteractionKind,
        user: UserId,
        channel: ChannelId,
        source_message: Option<MessageId>,
        data: impl FnOnce(&World) -> Result<Value, String>,
    ) -> InteractionHandle {
        let id = InteractionId::new(next_snowflake());
        let token = format!("{INTERACTION_TOKEN_PREFIX}{id}");
        let payload = self.shared.with(|w| {
            check_user_can_act(w, user, channel)?;
            let data = data(w)?;
            let ix = Interaction {
                id,
                token: token.clone(),
                kind,
                user,
                channel,
                created: Instant::now(),
                written: None,
                answered: None,
                source_message,
                callback: None,
                original: None,
                followups: Vec::new(),
            };
            let payload = envelope(w, &ix, data);
            w.interactions.insert(id, ix);
            Ok::<_, String>(payload)
        });
        let payload =
            payload.unwrap_or_else(|e| panic!("fake Discord: user {user} cannot do this: {e}"));
        // The deadline counts from the moment the bot is told: after the fake has checked
        // the payload (its own cost, which Discord does not add).
        if let Err(e) = check_event("INTERACTION_CREATE", &payload) {
            panic!("fake Discord: {e}");
        }
        self.shared
            .with(|w| w.interactions.get_mut(&id).expect("stored").created = Instant::now());
        if let Err(e) = self.shared.dispatch_checked("INTERACTION_CREATE", payload) {
            panic!("fake Discord: {e}");
        }
        InteractionHandle {
            id,
            token,
            user,
            channel,
        }
    }

    async fn command_definition(&self, name: &str, channel: ChannelId) -> Value {
        let guild = self
            .shared
            .read(|w| w.channels.get(&channel).and_then(|c| c.guild));
        let (id, mut definition) = self
            .wait_for(&format!("command /{name} to be registered"), |f| {
                f.shared.read(|w| {
                    w.commands
                        .iter()
                        .filter(|c| c.guild.is_none() || c.guild == guild)
                        .find(|c| c.name() == name)
                        .map(|c| (c.id, c.definition.clone()))
                })
            })
            .await;
        definition["id"] = id.to_string().into();
        definition
    }

    async fn command_interaction(
        &self,
        kind: InteractionKind,
        user: UserId,
        channel: ChannelId,
        command: &str,
        options: &[(&str, OptionValue)],
        focused: Option<&str>,
    ) -> InteractionHandle {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (name, path) = words.split_first().expect("a command name");
        let definition = self.command_definition(name, channel).await;
        self.send_interaction(kind, user, channel, None, |w| {
            check_command_permissions(w, &definition, user, channel)?;
            let mut resolved = Resolved::default();
            let options = command_options(
                w,
                &definition,
                path,
                options,
                focused,
                channel,
                &mut resolved,
            )?;
            let mut data = json!({
                "id": definition["id"],
                "name": name,
                "type": definition.get("type").cloned().unwrap_or(1.into()),
                "options": options,
                "resolved": resolved.to_json(),
            });
            if let Some(guild) = w.channels[&channel].guild {
                data["guild_id"] = guild.to_string().into();
            }
            Ok(data)
        })
    }

    /// `user` runs a slash command in `channel`. `command` is the name with any subcommand
    /// group and subcommand (`"game new"`); options are checked against the registration.
    /// Waits (up to `wait_timeout`) for the command to be registered.
    pub async fn slash(
        &self,
        user: UserId,
        channel: ChannelId,
        command: &str,
        options: &[(&str, OptionValue)],
    ) -> InteractionHandle {
        self.command_interaction(
            InteractionKind::Command,
            user,
            channel,
            command,
            options,
            None,
        )
        .await
    }

    /// `user` is typing `focused`'s value; returns the choices the bot offered.
    pub async fn autocomplete(
        &self,
        user: UserId,
        channel: ChannelId,
        command: &str,
        options: &[(&str, OptionValue)],
        focused: &str,
    ) -> Vec<Value> {
        let ix = self
            .autocomplete_interaction(user, channel, command, options, focused)
            .await;
        let Callback { kind, data } = self.response(&ix).await;
        assert_eq!(
            kind, 8,
            "autocomplete must be answered with callback type 8"
        );
        data["choices"].as_array().cloned().unwrap_or_default()
    }

    /// As [`FakeDiscord::autocomplete`], without waiting: the interaction, whose answer (a
    /// callback of type 8) `response` brings.
    pub async fn autocomplete_interaction(
        &self,
        user: UserId,
        channel: ChannelId,
        command: &str,
        options: &[(&str, OptionValue)],
        focused: &str,
    ) -> InteractionHandle {
        self.command_interaction(
            InteractionKind::Autocomplete,
            user,
            channel,
            command,
            options,
            Some(focused),
        )
        .await
    }

    /// `user` presses the button `custom_id` on a message.
    pub fn click(&self, user: UserId, message: MessageId, custom_id: &str) -> InteractionHandle {
        self.component(user, message, custom_id, None)
    }

    /// `user` chooses `values` in the string select menu `custom_id` on a message.
    pub fn select(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
        values: &[&str],
    ) -> InteractionHandle {
        self.component(user, message, custom_id, Some(values))
    }

    /// A button press with a custom id the message does not carry, as a modified client can
    /// send one: Discord delivers it with the message as it really is.
    pub fn click_forged(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
    ) -> InteractionHandle {
        let channel = self
            .message(message)
            .filter(|m| !m.deleted)
            .unwrap_or_else(|| panic!("fake Discord: no message {message} to interact with"))
            .channel;
        let custom_id = custom_id.to_string();
        self.send_interaction(
            InteractionKind::Component,
            user,
            channel,
            Some(message),
            move |_| Ok(json!({"custom_id": custom_id, "component_type": 2})),
        )
    }

    fn component(
        &self,
        user: UserId,
        message: MessageId,
        custom_id: &str,
        values: Option<&[&str]>,
    ) -> InteractionHandle {
        let channel = self
            .message(message)
            .filter(|m| !m.deleted)
            .unwrap_or_else(|| panic!("fake Discord: no message {message} to interact with"))
            .channel;
        self.send_interaction(
            InteractionKind::Component,
            user,
            channel,
            Some(message),
            |w| {
                let m = &w.messages[&message];
                if m.is_ephemeral() {
                    let owner = m
                        .interaction
                        .and_then(|i| w.interactions.get(&i))
                        .map(|i| i.user);
                    if owner != Some(user) {
                        return Err("an ephemeral message is visible only to its recipient".into());
                    }
                }
                let component = find_component(&m.components, custom_id).ok_or_else(|| {
                    format!(
                        "message {message} has no component `{custom_id}` (it has {:?})",
                        m.custom_ids()
                    )
                })?;
                if component["disabled"] == true {
                    return Err(format!("component `{custom_id}` is disabled"));
                }
                let component_type = component["type"].as_u64().unwrap_or(0);
                let mut data = json!({"custom_id": custom_id, "component_type": component_type});
                match (component_type, values) {
                    (2, None) => {}
                    (3, Some(values)) => {
                        let options = component["options"].as_array().cloned().unwrap_or_default();
                        for v in values {
                            if !options.iter().any(|o| o["value"] == *v) {
                                return Err(format!(
                                    "`{v}` is not an option of select `{custom_id}`"
                                ));
                            }
                        }
                        let (min, max) = (
                            component["min_values"].as_u64().unwrap_or(1),
                            component["max_values"].as_u64().unwrap_or(1),
                        );
                        if (values.len() as u64) < min || values.len() as u64 > max {
                            return Err(format!(
                                "select `{custom_id}` takes {min}..={max} values, not {}",
                                values.len()
                            ));
                        }
                        data["values"] = json!(values);
                    }
                    (t, _) => {
                        return Err(format!(
                            "component `{custom_id}` (type {t}) cannot be used that way"
                        ));
                    }
                }
                Ok(data)
            },
        )
    }

    /// `user` fills in and submits the modal the bot opened in answer to `opened_by`.
    pub async fn submit_modal(
        &self,
        opened_by: &InteractionHandle,
        values: &[(&str, &str)],
    ) -> InteractionHandle {
        let callback = self.response(opened_by).await;
        assert_eq!(
            callback.kind, 9,
            "the bot answered {} with callback type {}, not a modal",
            opened_by.id, callback.kind
        );
        // A person needs seconds to fill in a modal; a test needs a moment too, because poise
        // installs its modal collector only after its modal callback returned, and a submit
        // arriving before that is dropped (a race real users never win).
        let callback_path = format!(
            "/interactions/{}/{}/callback",
            opened_by.id, opened_by.token
        );
        self.wait_request("the modal callback to finish", |e| e.path == callback_path)
            .await;
        tokio::time::sleep(MODAL_TYPING_TIME).await;
        let source = self
            .shared
            .read(|w| w.interactions[&opened_by.id].source_message);
        let modal = callback.data;
        self.send_interaction(InteractionKind::ModalSubmit, opened_by.user, opened_by.channel, source, |_| {
            let fields = modal["components"].as_array().cloned().unwrap_or_default();
            let mut rows = Vec::new();
            for (custom_id, value) in values {
                let input = find_component(&fields, custom_id).ok_or_else(|| format!("the modal has no field `{custom_id}`"))?;
                if input["type"] != 4 {
                    return Err(format!("modal field `{custom_id}` is not a text input"));
                }
                rows.push(json!({"type": 1, "components": [{"type": 4, "custom_id": custom_id, "value": value}]}));
            }
            Ok(json!({"custom_id": modal["custom_id"], "components": rows}))
        })
    }

    /// Dispatches any gateway event on the shard of the guild it names (`guild_id`; a guild
    /// event's `id`), shard 0 without one; the payload must be something serenity can read.
    pub fn dispatch(&self, event: &str, data: Value) -> Result<(), String> {
        self.shared.dispatch(event, data)
    }

    /// Closes every gateway connection of the bot with a close code (4000: "unknown error",
    /// which a client answers by resuming). Returns false if the bot was not connected.
    pub fn close_gateway(&self, code: u16) -> bool {
        self.shared.close_gateway(code)
    }
}

/// A command registered with `default_member_permissions` is hidden from (and refused to)
/// members lacking any of those permissions in the channel; "0" leaves it to administrators.
/// DMs are not gated.
fn check_command_permissions(
    w: &World,
    definition: &Value,
    user: UserId,
    channel: ChannelId,
) -> Result<(), String> {
    let required = match &definition["default_member_permissions"] {
        Value::String(bits) => bits
            .parse::<u64>()
            .map_err(|e| format!("bad bits {bits}: {e}"))?,
        Value::Number(bits) => bits.as_u64().unwrap_or(0),
        _ => return Ok(()),
    };
    if w.channels[&channel].guild.is_none() {
        return Ok(());
    }
    let has = w.channel_permissions(user, channel);
    let allowed = if required == 0 {
        has & perms::ADMINISTRATOR != 0 || has == perms::ALL
    } else {
        has & required == required
    };
    if allowed {
        Ok(())
    } else {
        Err(format!(
            "the command needs permissions {required:#x} (default_member_permissions), the user has {has:#x}"
        ))
    }
}

/// A user can act in a guild channel only as a member who can see it; in a DM only as its
/// recipient. Nobody can act in an archived thread until a message unarchives it.
fn check_user_can_act(w: &World, user: UserId, channel: ChannelId) -> Result<(), String> {
    let u = w.user(user).ok_or("unknown user")?;
    if u.bot {
        return Err("bots do not send interactions".into());
    }
    let ch = w.channels.get(&channel).ok_or("unknown channel")?;
    if ch.archived {
        return Err("the thread is archived".into());
    }
    match ch.kind {
        ChannelKind::Dm { recipient } if recipient == user => Ok(()),
        ChannelKind::Dm { .. } => Err("this DM belongs to someone else".into()),
        _ => {
            let member = ch
                .guild
                .and_then(|g| w.guilds.get(&g))
                .is_some_and(|g| g.members.contains_key(&user));
            if !member {
                return Err("not a member of the guild".into());
            }
            if w.channel_permissions(user, channel) & perms::VIEW_CHANNEL == 0 {
                return Err("cannot see the channel".into());
            }
            Ok(())
        }
    }
}
