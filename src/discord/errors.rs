//! Why the bot could not do what a user asked, and how that is told to them: one enum, one
//! mapping to localised text (DESIGN §10). Every refusal is answered ephemerally and changes
//! nothing.

use crate::engine::error::Detail;
use crate::engine::{ErrorKind, IllegalAction};

use crate::discord::views::settings;
use crate::discord::views::{Case, duration, duration_in};
use crate::engine::SetupError;
use crate::engine::tile::{MAX_PACK_TILES, PackError};
use crate::game::config::ConfigError;
use crate::game::reminders::SettingError;
use crate::game::{Reveal, ServiceError, UndoBar};
use crate::tr;
use crate::words::Lang;
use crate::words::narrate::one_of;

/// A permission the bot needs in a channel, by its Discord bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Permission {
    ViewChannel,
    SendMessages,
    SendMessagesInThreads,
    CreatePublicThreads,
    AttachFiles,
    EmbedLinks,
    ReadMessageHistory,
}

impl Permission {
    /// Everything the bot asks for when it is invited.
    pub const ALL: [Permission; 7] = [
        Permission::ViewChannel,
        Permission::SendMessages,
        Permission::SendMessagesInThreads,
        Permission::CreatePublicThreads,
        Permission::AttachFiles,
        Permission::EmbedLinks,
        Permission::ReadMessageHistory,
    ];

    pub fn bit(self) -> u64 {
        match self {
            Permission::ViewChannel => 1 << 10,
            Permission::SendMessages => 1 << 11,
            Permission::EmbedLinks => 1 << 14,
            Permission::AttachFiles => 1 << 15,
            Permission::ReadMessageHistory => 1 << 16,
            Permission::CreatePublicThreads => 1 << 35,
            Permission::SendMessagesInThreads => 1 << 38,
        }
    }

    fn message_id(self) -> &'static str {
        match self {
            Permission::ViewChannel => "perm-view-channel",
            Permission::SendMessages => "perm-send-messages",
            Permission::SendMessagesInThreads => "perm-send-in-threads",
            Permission::CreatePublicThreads => "perm-create-threads",
            Permission::AttachFiles => "perm-attach-files",
            Permission::EmbedLinks => "perm-embed-links",
            Permission::ReadMessageHistory => "perm-read-history",
        }
    }

    /// The permission's name as Discord's settings show it, in `lang`.
    pub fn name(self, lang: Lang) -> String {
        tr!(lang, self.message_id())
    }
}

/// Everything that can go wrong in an interaction.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The game service refused (nothing was changed).
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// A server-only command used in a DM.
    #[error("needs a server")]
    NotInServer,
    /// The bot lacks permissions in this channel.
    #[error("missing permissions: {0:?}")]
    MissingPermissions(Vec<Permission>),
    /// Only the game's owner or a Manage Server member may do this.
    #[error("not allowed")]
    NotOwner,
    /// Only a Manage Server member may change the server's settings (no game is involved).
    #[error("not a server manager")]
    NotServerManager,
    /// Someone else's button (a stranger pressing a player's component).
    #[error("not your button")]
    NotYours,
    /// A component id this version does not know.
    #[error("unknown component")]
    UnknownComponent,
    /// A resignation pressed anywhere but on its private confirmation.
    #[error("resignation without its confirmation")]
    ResignUnconfirmed,
    /// An option value longer than anything valid.
    #[error("option `{option}` is too long")]
    TooLong { option: &'static str },
    /// An option value out of range.
    #[error("option `{option}` is out of range")]
    OutOfRange { option: &'static str, max: u32 },
    /// A game number no game can have (zero or below), typed in an option.
    #[error("no game #{0}")]
    NoGameNumbered(i64),
    /// An option Discord could not hand over as its type, or a command without its
    /// subcommand: only a forged or outdated request sends either.
    #[error("a bad option")]
    BadOption,
    /// `/jackal settings` with a setting and no value, or a value and no setting.
    #[error("a setting without its value, or a value without its setting")]
    SettingHalfGiven,
    /// An unknown rules topic.
    #[error("no rules topic `{0}`")]
    NoSuchTopic(String),
    /// The bot is shutting down and takes no new actions.
    #[error("shutting down")]
    Closing,
    /// Discord refused or failed a call (boxed: serenity's error is large, and every
    /// handler's result carries this type).
    #[error("Discord: {0}")]
    Discord(Box<serenity::Error>),
    /// A defect or an unexpected failure (logged; the user gets a generic apology).
    #[error("internal: {0}")]
    Internal(String),
}

impl From<serenity::Error> for BotError {
    fn from(e: serenity::Error) -> BotError {
        BotError::Discord(Box::new(e))
    }
}

impl BotError {
    /// Is this the user's doing (answered plainly) rather than a failure (logged as one)?
    pub fn is_refusal(&self) -> bool {
        !matches!(
            self,
            BotError::Discord(_)
                | BotError::Internal(_)
                | BotError::Service(ServiceError::Store(_) | ServiceError::Damaged { .. })
        )
    }

    /// What the user reads.
    pub fn user_text(&self, lang: Lang) -> String {
        match self {
            BotError::Service(e) => service_text(e, lang),
            BotError::NotInServer => tr!(lang, "err-not-in-server"),
            BotError::MissingPermissions(perms) => {
                let names: Vec<String> = perms.iter().map(|p| p.name(lang)).collect();
                tr!(
                    lang,
                    "err-missing-permissions",
                    permissions = names.join(", ")
                )
            }
            BotError::NotOwner => tr!(lang, "err-not-owner"),
            BotError::NotServerManager => tr!(lang, "err-not-server-manager"),
            BotError::NotYours => tr!(lang, "err-not-yours"),
            BotError::UnknownComponent => tr!(lang, "err-unknown-component"),
            BotError::NoGameNumbered(number) => {
                tr!(lang, "err-unknown-game", game = number.to_string())
            }
            BotError::ResignUnconfirmed => tr!(lang, "err-resign-unconfirmed"),
            BotError::TooLong { option } => {
                tr!(lang, "err-too-long", option = option_name(lang, option))
            }
            BotError::OutOfRange { option, max } => {
                tr!(
                    lang,
                    "err-out-of-range",
                    option = option_name(lang, option),
                    max = *max
                )
            }
            BotError::SettingHalfGiven => tr!(lang, "err-setting-half-given"),
            BotError::BadOption => tr!(lang, "err-bad-option"),
            BotError::NoSuchTopic(topic) => tr!(lang, "err-no-topic", topic = topic.clone()),
            BotError::Closing => tr!(lang, "err-closing"),
            BotError::Discord(_) | BotError::Internal(_) => tr!(lang, "err-internal"),
        }
    }
}

/// An option's name as the asker's Discord shows it: its command's localisation
/// (`commands.ftl`), so a Russian client reads `после` where an English one reads `ply`.
fn option_name(lang: Lang, option: &str) -> String {
    let command = match option {
        "action" => "move",
        "ply" => "board",
        "topic" => "rules",
        "setting" | "value" => "settings",
        "seat" => "kick",
        "before" | "quiet" | "zone" | "digest" => "remind",
        // `/jackal vacation`, `pause` and `extend` all name their `length` alike.
        "length" => "vacation",
        _ => return option.to_string(),
    };
    let id = format!("cmd-{command}.{option}");
    if lang == Lang::En || !crate::words::has(lang, &id) {
        return option.to_string();
    }
    crate::words::format(lang, &id, None)
}

/// The service's refusals in words.
fn service_text(e: &ServiceError, lang: Lang) -> String {
    match e {
        // The number as given, never through Fluent's floating-point numbers (a forged id's
        // 9223372036854775807 would read 9223372036854776000).
        ServiceError::UnknownGame(id) => tr!(lang, "err-unknown-game", game = id.to_string()),
        ServiceError::AlreadyStarted(id) => tr!(lang, "err-already-started", game = *id),
        ServiceError::NotRunning(id) => tr!(lang, "err-not-running", game = *id),
        ServiceError::Finished(id) => tr!(lang, "err-finished", game = *id),
        ServiceError::Full(id) => tr!(lang, "err-full", game = *id),
        ServiceError::AlreadySeated(id) => tr!(lang, "err-already-seated", game = *id),
        ServiceError::SeatTaken(seat) => tr!(lang, "err-seat-taken", seat = *seat),
        ServiceError::NoSuchSeat(seat) => tr!(lang, "err-no-such-seat", seat = *seat),
        ServiceError::SeatEmpty(seat) => tr!(lang, "err-seat-empty", seat = *seat),
        ServiceError::AlreadyBot(seat) => tr!(lang, "err-already-bot", seat = *seat),
        ServiceError::NotYourGame(id) => tr!(lang, "err-not-your-game", game = *id),
        ServiceError::NothingToReclaim(id) => tr!(lang, "err-nothing-to-reclaim", game = *id),
        ServiceError::NotOwner => tr!(lang, "err-not-owner"),
        ServiceError::NoGameHere => tr!(lang, "err-no-game-here"),
        ServiceError::WhichGame(ids) => {
            let list: Vec<String> = ids.iter().map(|id| format!("#{id}")).collect();
            tr!(lang, "err-which-game", games = list.join(", "))
        }
        ServiceError::NotServerManager => tr!(lang, "err-not-server-manager"),
        ServiceError::NotYourTurn { team } => tr!(lang, "err-not-your-turn", team = *team),
        ServiceError::StaleButton { move_number, .. } => {
            tr!(lang, "err-stale-button", current = *move_number)
        }
        ServiceError::StaleView { move_number, .. } => {
            tr!(lang, "err-stale-view", current = *move_number)
        }
        ServiceError::AlreadyPlayed => tr!(lang, "err-already-played"),
        ServiceError::Illegal(refusal) => {
            tr!(lang, "err-illegal", why = refusal_text(refusal, lang))
        }
        ServiceError::BadSetting(why) => config_text(why, lang),
        ServiceError::BadExtension => tr!(lang, "err-bad-extension"),
        ServiceError::LimitTooLong { days, max } => {
            tr!(lang, "err-limit-too-long", days = *days, max = *max)
        }
        ServiceError::SeatsEmpty(seats) => {
            let list: Vec<String> = seats.iter().map(|t| t.number().to_string()).collect();
            tr!(
                lang,
                "err-seats-empty",
                seats = list.join(", "),
                count = seats.len()
            )
        }
        ServiceError::Setting(setting) => setting_text(setting, lang),
        ServiceError::VacationTooLong {
            left_ms,
            allowance_days,
        } => tr!(
            lang,
            "err-vacation-too-long",
            left = crate::discord::views::span(lang, *left_ms),
            days = *allowance_days
        ),
        ServiceError::NotOnVacation => tr!(lang, "err-not-on-vacation"),
        ServiceError::PauseTooLong { max_days } => {
            tr!(lang, "err-pause-too-long", days = *max_days)
        }
        ServiceError::AlreadyPaused { until_ms } => tr!(
            lang,
            "err-already-paused",
            until = crate::discord::views::relative_time(*until_ms)
        ),
        ServiceError::PauseProposed(id) => tr!(lang, "err-pause-proposed", game = *id),
        ServiceError::NoPauseProposed(id) => tr!(lang, "err-no-pause-proposed", game = *id),
        ServiceError::AlreadyVoted(id) => tr!(lang, "err-already-voted", game = *id),
        ServiceError::NoDeadline(id) => tr!(lang, "err-no-deadline", game = *id),
        ServiceError::Undo(bar) => undo_bar_text(*bar, lang),
        ServiceError::UndoProposed(id) => tr!(lang, "err-undo-proposed", game = *id),
        ServiceError::NoUndoProposed(id) => tr!(lang, "err-no-undo-proposed", game = *id),
        ServiceError::UndoVoted(id) => tr!(lang, "err-undo-voted", game = *id),
        ServiceError::NoRandomness(_)
        | ServiceError::BadExport(_)
        | ServiceError::Store(_)
        | ServiceError::Damaged { .. } => tr!(lang, "err-internal"),
    }
}

/// Why a move cannot be taken back, in words.
fn undo_bar_text(bar: UndoBar, lang: Lang) -> String {
    match bar {
        UndoBar::NothingToTakeBack => tr!(lang, "err-undo-nothing"),
        UndoBar::MidMove => tr!(lang, "err-undo-mid-move"),
        UndoBar::BotPlayed => tr!(lang, "err-undo-bot-played"),
        UndoBar::Revealed { reveal, yours } => {
            let what = match reveal {
                Reveal::Tile => "tile",
                Reveal::Lighthouse => "lighthouse",
                Reveal::Earthquake => "earthquake",
            };
            let whose = if yours { "yours" } else { "after" };
            tr!(lang, "err-undo-revealed", what = what, whose = whose)
        }
    }
}

/// Why a game setting was refused, in words: the setting by its name in the settings menu,
/// and what it takes.
fn config_text(e: &ConfigError, lang: Lang) -> String {
    match e {
        ConfigError::UnknownSetting(id) => tr!(lang, "err-setting-unknown", id = shown(id)),
        ConfigError::Value { id, value, .. } => tr!(
            lang,
            "err-setting-value",
            value = shown(value),
            setting = settings::name(lang, id),
            takes = takes(id, lang)
        ),
        ConfigError::Pack { value, why } => tr!(
            lang,
            "err-setting-pack",
            value = shown(value),
            why = pack_text(why, lang)
        ),
        ConfigError::ReminderLate { reminder, turn } => tr!(
            lang,
            "err-setting-reminder-late",
            reminder = duration_in(lang, *reminder, Case::Accusative),
            turn = duration(lang, *turn)
        ),
        ConfigError::Setup(SetupError::Map(_)) => tr!(lang, "err-setting-no-map"),
        // Read from a stored game, never typed: the checks of `set` would have refused them.
        ConfigError::Setup(SetupError::BoardSize(side)) => config_text(
            &ConfigError::Value {
                id: "board_size".into(),
                value: side.to_string(),
                expected: "",
            },
            lang,
        ),
        ConfigError::Setup(SetupError::PackTooLarge(count)) => tr!(
            lang,
            "err-setting-tiles",
            why = pack_text(&PackError::TooLarge(*count), lang)
        ),
    }
}

/// What a setting takes, as the end of a sentence: a range, or its values in words.
fn takes(id: &str, lang: Lang) -> String {
    match id {
        "turn_time" => tr!(lang, "takes-turn-time"),
        "reminder" => tr!(lang, "takes-reminder"),
        "max_missed" => tr!(lang, "takes-range", min = 1, max = 20),
        "stall_rounds" => tr!(lang, "takes-range", min = 0, max = 1000),
        _ => {
            // Each by its name in the menu and as it is typed: the option takes the latter.
            let values: Vec<String> = settings::presets(id)
                .iter()
                .map(|v| {
                    let label = tr!(lang, "quoted", text = settings::value(lang, id, v));
                    tr!(lang, "choice-typed", label = label, raw = *v)
                })
                .collect();
            tr!(lang, "takes-one-of", values = one_of(lang, &values))
        }
    }
}

/// Why a list of tiles is no tile set, in words.
fn pack_text(e: &PackError, lang: Lang) -> String {
    match e {
        PackError::UnknownTile(tile) => tr!(lang, "pack-unknown-tile", tile = shown(tile)),
        PackError::BadEntry(entry) => tr!(lang, "pack-bad-entry", entry = shown(entry)),
        PackError::TooManySpecial(tile) => tr!(lang, "pack-too-many-special", tile = *tile),
        // As text: Fluent's numbers are floating point, and a count may be past 2^53.
        PackError::TooLarge(count) => tr!(
            lang,
            "pack-too-large",
            count = count.to_string(),
            max = MAX_PACK_TILES
        ),
    }
}

/// What a player typed, as it is echoed back: characters that would not show are made
/// visible.
fn shown(text: &str) -> String {
    crate::visible::visible(text).into_owned()
}

/// Why a reminder setting was refused, in words.
pub fn setting_text(e: &SettingError, lang: Lang) -> String {
    match e {
        SettingError::UnknownZone(zone) => tr!(lang, "err-unknown-zone", zone = zone.clone()),
        SettingError::BadClock(text) => tr!(lang, "err-bad-clock", text = text.clone()),
        SettingError::BadQuiet(text) => tr!(lang, "err-bad-quiet", text = text.clone()),
        SettingError::QuietWholeDay => tr!(lang, "err-quiet-whole-day"),
        SettingError::BadOffset(text) => tr!(lang, "err-bad-offset", text = text.clone()),
        SettingError::BadLength(text) => tr!(lang, "err-bad-length", text = text.clone()),
        SettingError::TooShort { text, min_seconds } => tr!(
            lang,
            "err-too-short",
            text = text.clone(),
            min = crate::discord::views::duration(lang, *min_seconds)
        ),
        SettingError::TooManyReminders(count) => tr!(
            lang,
            "err-too-many-reminders",
            count = *count,
            max = crate::game::MAX_REMINDERS
        ),
    }
}

/// Why a move is not legal, in words: what exactly stands in the way where the engine says,
/// else its error kind (RULES R-ERR).
pub fn refusal_text(refusal: &IllegalAction, lang: Lang) -> String {
    match &refusal.detail {
        Some(detail) => detail_text(detail, lang),
        None => illegal_text(refusal.kind, lang),
    }
}

/// An engine [`Detail`] in words.
fn detail_text(detail: &Detail, lang: Lang) -> String {
    let word = |id: &str, w: &str| tr!(lang, id, word = w.to_string());
    let id = match detail {
        Detail::UnknownStart(w) => return word("illegal-detail-unknown-start", w),
        Detail::NotACell(w) => return word("illegal-detail-not-a-cell", w),
        Detail::NotAnItem(w) => return word("illegal-detail-not-an-item", w),
        Detail::TooManyWords(w) => return word("illegal-detail-too-many-words", w),
        Detail::NoText => "illegal-detail-no-text",
        Detail::CellMissing => "illegal-detail-cell-missing",
        Detail::Drunk => "illegal-detail-drunk",
        Detail::Trapped => "illegal-detail-trapped",
        Detail::Stuck => "illegal-detail-stuck",
        Detail::NoBoatToLaunch => "illegal-detail-no-boat",
        Detail::CarriesNothing => "illegal-detail-carries-nothing",
        Detail::CargoNotThere => "illegal-detail-cargo-not-there",
        Detail::CargoTooMuch => "illegal-detail-cargo-too-much",
        Detail::CargoIntoFog => "illegal-detail-cargo-fog",
        Detail::CargoIntoFortress => "illegal-detail-cargo-fortress",
        Detail::CargoIntoJungle => "illegal-detail-cargo-jungle",
        Detail::CargoOntoEnemies => "illegal-detail-cargo-enemies",
        Detail::NoCrew => "illegal-detail-no-crew",
        Detail::NoRumInStock => "illegal-detail-no-rum",
        Detail::WeedTurn => "illegal-detail-weed-turn",
        Detail::NoServer => "illegal-detail-no-server",
        Detail::RumOnJungle => "illegal-detail-rum-jungle",
        Detail::RumOntoEnemy => "illegal-detail-rum-enemy",
        Detail::RumWasted => "illegal-detail-rum-wasted",
    };
    tr!(lang, id)
}

/// Why a move is not legal, in words (the engine's error kinds, RULES R-ERR).
pub fn illegal_text(kind: ErrorKind, lang: Lang) -> String {
    let id = match kind {
        ErrorKind::Syntax => "illegal-syntax",
        ErrorKind::Ambiguous => "illegal-ambiguous",
        ErrorKind::GameOver => "illegal-game-over",
        ErrorKind::ChoicePending => "illegal-choice-pending",
        ErrorKind::NoChoicePending => "illegal-no-choice-pending",
        ErrorKind::BadChoice => "illegal-bad-choice",
        ErrorKind::NoSuchUnit => "illegal-no-such-unit",
        ErrorKind::UnitDisabled => "illegal-unit-disabled",
        ErrorKind::Unreachable => "illegal-unreachable",
        ErrorKind::EnemyVessel => "illegal-enemy-vessel",
        ErrorKind::BadCargo => "illegal-bad-cargo",
        ErrorKind::EnemyFortress => "illegal-enemy-fortress",
        ErrorKind::EnemyMissionary => "illegal-enemy-missionary",
        ErrorKind::CannotAttack => "illegal-cannot-attack",
        ErrorKind::CargoForbidden => "illegal-cargo-forbidden",
        ErrorKind::VesselCannotMove => "illegal-vessel-cannot-move",
        ErrorKind::NoResurrection => "illegal-no-resurrection",
        ErrorKind::RumForbidden => "illegal-rum-forbidden",
    };
    tr!(lang, id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option a refusal names has its Russian name (the one a Russian client shows).
    #[test]
    fn options_are_named_as_each_client_shows_them() {
        assert_eq!(option_name(Lang::En, "ply"), "ply");
        assert_eq!(option_name(Lang::Ru, "ply"), "после");
        let options = [
            "action", "ply", "topic", "setting", "value", "seat", "before", "quiet", "zone",
            "digest", "length",
        ];
        for option in options {
            let shown = option_name(Lang::Ru, option);
            assert!(
                shown
                    .chars()
                    .all(|c| c == '_' || ('а'..='я').contains(&c) || c == 'ё'),
                "{option}: {shown}"
            );
        }
    }

    /// A refused setting is told in the reader's words, whichever setting it is: its name
    /// as the settings menu shows it and what it takes, never the English of the logs.
    #[test]
    fn every_refused_setting_is_told_in_words() {
        let config = crate::game::GameConfig::default();
        let english = |text: &str| text.contains(" or ") || text.contains("must");
        for id in crate::game::GameConfig::ids().filter(|id| *id != "tile_pack") {
            let refused = ConfigError::Value {
                id: id.to_string(),
                value: "x".into(),
                expected: "",
            };
            for lang in [Lang::En, Lang::Ru] {
                let text = config_text(&refused, lang);
                assert!(text.contains(&settings::name(lang, id)), "{id}: {text}");
                assert!(text.ends_with('.'), "{id}: {text}");
            }
            let ru = config_text(&refused, Lang::Ru);
            assert!(!english(&ru), "{id}: {ru}");
            // Every value it offers is one the setting takes.
            for value in settings::presets(id) {
                let mut c = config.clone();
                if id != "turn_time" && id != "reminder" {
                    c.set(id, value)
                        .unwrap_or_else(|e| panic!("{id}={value}: {e}"));
                }
            }
        }
        assert_eq!(
            config_text(
                &ConfigError::Value {
                    id: "turn_time".into(),
                    value: "30d".into(),
                    expected: ""
                },
                Lang::En
            ),
            "“30d” will not do for “Turn time”: it takes a length of time from 1 minute to 14 \
             days, such as 12h or 2d."
        );
        assert_eq!(
            config_text(
                &ConfigError::Value {
                    id: "timeout".into(),
                    value: "wait".into(),
                    expected: ""
                },
                Lang::En
            ),
            "“wait” will not do for “When time runs out”: the choices are “a bot plays the \
             turn” (`bot`), “the seat resigns” (`resign`) or “the turn passes” (`skip`)."
        );
        let packs = [
            PackError::UnknownTile("dragon".into()),
            PackError::BadEntry("chest5".into()),
            PackError::TooManySpecial("friday"),
            PackError::TooLarge(1001),
        ];
        for why in packs {
            let refused = ConfigError::Pack {
                value: "chest5".into(),
                why: why.clone(),
            };
            let ru = config_text(&refused, Lang::Ru);
            assert!(ru.starts_with("«chest5» — не набор клеток"), "{ru}");
            assert!(!english(&ru) && !ru.contains("pack"), "{ru}");
        }
        let late = ConfigError::ReminderLate {
            reminder: 21 * 60,
            turn: 20 * 60,
        };
        assert!(
            config_text(&late, Lang::Ru).starts_with(
                "Напоминание за 21 минуту до конца хода пришло бы не позже начала хода"
            ),
            "{}",
            config_text(&late, Lang::Ru)
        );
        let no_map = ConfigError::Setup(SetupError::Map(crate::engine::mapgen::MapError));
        assert!(config_text(&no_map, Lang::Ru).starts_with("Из этого набора клеток"));
        let limit = ServiceError::LimitTooLong {
            days: 400,
            max: 365,
        };
        assert_eq!(
            service_text(&limit, Lang::Ru),
            "Не больше 365 дней, а не 400."
        );
        assert_eq!(service_text(&limit, Lang::En), "At most 365 days, not 400.");
        assert_eq!(
            service_text(&ServiceError::BadExtension, Lang::Ru),
            "Добавить можно от 1 часа до 14 дней, например 1д или 6ч."
        );
    }

    /// Every reason a move cannot be taken back reads as a sentence in both languages, the
    /// reveal and whose move it was in its words.
    #[test]
    fn each_reason_a_move_stays_is_told_in_words() {
        let revealed = |reveal, yours| UndoBar::Revealed { reveal, yours };
        let bars = [
            UndoBar::NothingToTakeBack,
            UndoBar::MidMove,
            UndoBar::BotPlayed,
            revealed(Reveal::Tile, true),
            revealed(Reveal::Lighthouse, false),
            revealed(Reveal::Earthquake, true),
        ];
        for lang in [Lang::En, Lang::Ru] {
            let texts: Vec<String> = bars.iter().map(|b| undo_bar_text(*b, lang)).collect();
            for text in &texts {
                assert!(!text.contains("err-") && text.ends_with('.'), "{text}");
            }
            let unique: std::collections::HashSet<_> = texts.iter().collect();
            assert_eq!(unique.len(), texts.len(), "{texts:?}");
        }
        let tile = undo_bar_text(revealed(Reveal::Tile, false), Lang::En);
        assert!(
            tile.contains("a move played after it opened a tile"),
            "{tile}"
        );
        let quake = undo_bar_text(revealed(Reveal::Earthquake, true), Lang::Ru);
        assert!(quake.contains("он вызвал землетрясение"), "{quake}");
    }
}
