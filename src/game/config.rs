//! A game's configuration: the engine's rule settings plus what the service adds (turn time,
//! reminders, what happens when a deadline passes). Validated on every change.

use serde::{Deserialize, Serialize};

use crate::ai::{BotLevel, UnknownLevel};
use crate::engine::settings::{SETTING_IDS, SettingError};
use crate::engine::tile::PackError;
use crate::engine::{Game, Settings, SetupError, Team};

/// Why a setting was refused. Typed, so that each caller words it for its reader (the bot
/// in the player's language, from the setting's id and the value given); the `Display` is
/// the English the terminal and the logs read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No setting has this id.
    #[error(
        "unknown setting `{shown}` (the settings are {list})",
        shown = crate::visible::visible(.0),
        list = GameConfig::ids().collect::<Vec<_>>().join(", ")
    )]
    UnknownSetting(String),
    /// A value the setting `id` does not take (every setting but the tile pack); `expected`
    /// says what it takes, in English.
    #[error(
        "`{shown}` is not a valid value for `{id}` (expected {expected})",
        shown = crate::visible::visible(.value)
    )]
    Value {
        id: String,
        value: String,
        expected: &'static str,
    },
    /// A tile pack that cannot be read, or holds too much.
    #[error(
        "`{shown}` is not a valid tile_pack: {why} (expected full, classic or a list such as chest5*20,empty*97)",
        shown = crate::visible::visible(.value)
    )]
    Pack { value: String, why: PackError },
    /// A chosen reminder at or after the start of the turn.
    #[error(
        "the reminder ({}) must come before the deadline ({})",
        format_duration(*.reminder),
        format_duration(*.turn)
    )]
    ReminderLate { reminder: u32, turn: u32 },
    /// Settings each valid alone that no game can be dealt with (a pack too small for the
    /// board), or, read from outside, that the engine refuses.
    #[error(transparent)]
    Setup(SetupError),
}

impl From<SettingError> for ConfigError {
    fn from(e: SettingError) -> ConfigError {
        match e {
            SettingError::UnknownSetting(id) => ConfigError::UnknownSetting(id),
            SettingError::BadValue {
                id,
                value,
                expected,
            } => ConfigError::Value {
                id,
                value,
                expected,
            },
            SettingError::BadPack { value, why } => ConfigError::Pack { value, why },
        }
    }
}

impl From<SetupError> for ConfigError {
    fn from(e: SetupError) -> ConfigError {
        ConfigError::Setup(e)
    }
}

/// What happens when a player lets the deadline pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeoutPolicy {
    /// A bot makes this one move for the player; after `max_missed` missed deadlines in a row
    /// the bot keeps the seat.
    Bot,
    /// The player's seat resigns (a duel is lost; otherwise a bot keeps the seat).
    Resign,
    /// The turn passes without a move (a turn half played is finished by a bot); after
    /// `max_missed` missed deadlines in a row a bot keeps the seat.
    Skip,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    pub rules: Settings,
    /// Time for one turn, in seconds.
    pub turn_seconds: u32,
    /// How long before the deadline the player is reminded, in seconds (0: no reminder).
    pub reminder_seconds: u32,
    /// Whether someone chose the reminder. One nobody chose follows the turn time (a third of
    /// a turn too short for the usual three hours), so every offered turn time is accepted as
    /// it is; only a chosen reminder that does not fit is refused. (Games stored before this
    /// existed read as not chosen.)
    #[serde(default)]
    pub reminder_chosen: bool,
    pub timeout: TimeoutPolicy,
    /// Missed deadlines in a row after which a bot takes the seat for good.
    pub max_missed: u8,
    /// The level of the bot that plays a seat its player left: a move when time ran out, the
    /// seat for good after `max_missed` of them, a kick or a resignation. (Games stored before
    /// this setting existed read as the default.)
    #[serde(default = "default_timeout_level")]
    pub timeout_level: BotLevel,
}

/// A sensible player that answers at once: `normal` thinks a second a move, which a game
/// may ask for, but need not.
fn default_timeout_level() -> BotLevel {
    BotLevel::Easy
}

pub const MIN_TURN_SECONDS: u32 = 60;
/// The reminder nobody chose, where the turn is long enough for it.
pub const DEFAULT_REMINDER_SECONDS: u32 = 3 * 3600;

/// The reminder of a turn of `turn_seconds` that nobody chose: three hours before the
/// deadline, or a third of the turn (whole minutes where it has them) when that would not
/// come before it.
pub fn default_reminder_seconds(turn_seconds: u32) -> u32 {
    if DEFAULT_REMINDER_SECONDS < turn_seconds {
        return DEFAULT_REMINDER_SECONDS;
    }
    let third = turn_seconds / 3;
    if third >= 60 { third / 60 * 60 } else { third }
}
pub const MAX_TURN_SECONDS: u32 = 14 * 24 * 3600;

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig {
            rules: Settings::default(),
            turn_seconds: 24 * 3600,
            reminder_seconds: DEFAULT_REMINDER_SECONDS,
            reminder_chosen: false,
            timeout: TimeoutPolicy::Bot,
            max_missed: 3,
            timeout_level: default_timeout_level(),
        }
    }
}

/// Settings ids the service adds to the engine's (RULES §20), for the error naming an unknown
/// one.
pub const SERVICE_SETTING_IDS: [&str; 5] = [
    "turn_time",
    "reminder",
    "timeout",
    "max_missed",
    "timeout_level",
];

/// Reads `90s`, `30m`, `12h`, `2d` or a bare number of seconds. Players write lengths in
/// their own language, so the units are read in Russian too (`30мин`, `12ч`, `2д`), and as
/// words, with or without a space (`12 часов`, `1 day`).
pub fn parse_duration(text: &str) -> Option<u32> {
    let text = text.trim().to_lowercase();
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text.as_str(), "s"),
    };
    let n: u32 = digits.parse().ok()?;
    // An abbreviation may end with a full stop (`ч.`, `мин.`).
    let scale = unit_seconds(unit.trim().trim_end_matches('.'))?;
    n.checked_mul(scale)
}

/// The seconds in a unit of length, by any of the names it is written with.
fn unit_seconds(unit: &str) -> Option<u32> {
    Some(match unit {
        "s" | "sec" | "с" | "сек" => 1,
        "m" | "min" | "mins" | "minute" | "minutes" | "м" | "мин" | "минута" | "минуты"
        | "минут" => 60,
        "h" | "hr" | "hour" | "hours" | "ч" | "час" | "часа" | "часов" => 3600,
        "d" | "day" | "days" | "д" | "дн" | "день" | "дня" | "дней" => 86400,
        _ => return None,
    })
}

/// Is `text` one of the words that turn a setting off (`off`, `выкл`, `нет`…)? Wherever the
/// bot offers "off", a player may answer in their own language.
pub fn is_off(text: &str) -> bool {
    matches!(
        text.trim().trim_end_matches('.').to_lowercase().as_str(),
        "off" | "none" | "no" | "never" | "выкл" | "выключить" | "нет" | "никогда"
    )
}

pub fn format_duration(seconds: u32) -> String {
    match seconds {
        s if s % 86400 == 0 && s > 0 => format!("{}d", s / 86400),
        s if s % 3600 == 0 && s > 0 => format!("{}h", s / 3600),
        s if s % 60 == 0 && s > 0 => format!("{}m", s / 60),
        s => format!("{s}s"),
    }
}

impl GameConfig {
    /// Changes one setting by its id (an engine setting of RULES §20 or a service one).
    /// On error nothing changes.
    pub fn set(&mut self, id: &str, value: &str) -> Result<(), ConfigError> {
        let mut next = self.clone();
        next.apply(id, value)?;
        next.validate()?;
        *self = next;
        Ok(())
    }

    /// Reads one setting into `self`, checking that value alone (not how it goes with the
    /// others: that is [`GameConfig::validate`]). On error `self` may be half changed.
    fn apply(&mut self, id: &str, value: &str) -> Result<(), ConfigError> {
        let next = self;
        let value = value.trim();
        let bad = |expected: &'static str| ConfigError::Value {
            id: id.to_string(),
            value: value.to_string(),
            expected,
        };
        match id {
            "turn_time" => {
                let s = parse_duration(value)
                    .filter(|s| (MIN_TURN_SECONDS..=MAX_TURN_SECONDS).contains(s))
                    .ok_or_else(|| bad("a length from 1m to 14d, e.g. 12h"))?;
                next.turn_seconds = s;
                if !next.reminder_chosen {
                    next.reminder_seconds = default_reminder_seconds(s);
                }
            }
            "reminder" => {
                next.reminder_chosen = true;
                next.reminder_seconds = if is_off(value) {
                    0
                } else {
                    parse_duration(value).ok_or_else(|| bad("a length such as 3h, or off"))?
                };
            }
            "timeout" => {
                next.timeout = match value {
                    "bot" => TimeoutPolicy::Bot,
                    "resign" => TimeoutPolicy::Resign,
                    "skip" => TimeoutPolicy::Skip,
                    _ => return Err(bad("bot, resign or skip")),
                }
            }
            "max_missed" => {
                next.max_missed = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=20).contains(n))
                    .ok_or_else(|| bad("a number from 1 to 20"))?;
            }
            "timeout_level" => {
                next.timeout_level = value
                    .parse()
                    .map_err(|_: UnknownLevel| bad("random, easy, normal or hard"))?;
            }
            _ => next.rules.set(id, &value.to_ascii_lowercase())?,
        }
        Ok(())
    }

    /// One setting's value as [`GameConfig::set`] reads it (`None` for an unknown id).
    pub fn get(&self, id: &str) -> Option<String> {
        Some(match id {
            "turn_time" => format_duration(self.turn_seconds),
            "reminder" if self.reminder_seconds == 0 => "off".into(),
            "reminder" => format_duration(self.reminder_seconds),
            "timeout" => match self.timeout {
                TimeoutPolicy::Bot => "bot",
                TimeoutPolicy::Resign => "resign",
                TimeoutPolicy::Skip => "skip",
            }
            .into(),
            "max_missed" => self.max_missed.to_string(),
            "timeout_level" => self.timeout_level.name().into(),
            _ => return self.rules.get(id),
        })
    }

    /// Every setting id, the engine's first.
    pub fn ids() -> impl Iterator<Item = &'static str> {
        SETTING_IDS.into_iter().chain(SERVICE_SETTING_IDS)
    }

    /// Checks the whole configuration, including that a game can be dealt with these rules.
    ///
    /// A configuration read from outside (a stored game, an import) never went through
    /// [`GameConfig::set`], so each value is first read back through it: a stored value passes
    /// exactly the checks a new one does (a board side of 8, 30-second turns, 5000 stall
    /// rounds are refused here as in the lobby).
    pub fn validate(&self) -> Result<(), ConfigError> {
        for id in GameConfig::ids() {
            // `get` answers every id of `ids` (`every_setting_reads_back` holds it to that).
            let value = self.get(id).expect("every setting has a value");
            self.clone().apply(id, &value)?;
        }
        if self.reminder_seconds >= self.turn_seconds {
            return Err(ConfigError::ReminderLate {
                reminder: self.reminder_seconds,
                turn: self.turn_seconds,
            });
        }
        Game::new(self.rules.clone(), 0)?;
        Ok(())
    }

    /// The game's seat numbered `number` (1 to the number of teams), as a player names it.
    pub fn seat_numbered(&self, number: u8) -> Option<Team> {
        Team::new(number).filter(|t| self.has_team(*t))
    }

    /// Does the game have `team`?
    pub fn has_team(&self, team: Team) -> bool {
        team.number() <= self.team_count()
    }

    /// The game's teams, in turn order.
    pub fn teams(&self) -> impl Iterator<Item = Team> + use<> {
        Team::ALL.into_iter().take(usize::from(self.team_count()))
    }

    pub fn team_count(&self) -> u8 {
        self.rules.players.team_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("12h"), Some(43200));
        assert_eq!(parse_duration("90"), Some(90));
        assert_eq!(parse_duration("2d"), Some(172800));
        assert_eq!(parse_duration("x"), None);
        assert_eq!(format_duration(7200), "2h");
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut c = GameConfig::default();
        let before = c.clone();
        assert!(c.set("board_size", "8").is_err());
        assert!(c.set("turn_time", "5s").is_err());
        assert!(c.set("reminder", "2d").is_err());
        assert!(c.set("nonsense", "1").is_err());
        assert_eq!(c, before);
        c.set("board_size", "9").unwrap();
        c.set("players", "4").unwrap();
        assert_eq!(c.team_count(), 4);
    }

    /// `get` gives back what `set` reads, for every setting.
    #[test]
    fn every_setting_reads_back() {
        let mut c = GameConfig::default();
        c.set("reminder", "off").unwrap();
        for id in GameConfig::ids() {
            let value = c.get(id).unwrap_or_else(|| panic!("no value for {id}"));
            let before = c.clone();
            c.set(id, &value)
                .unwrap_or_else(|e| panic!("{id} = {value}: {e}"));
            assert_eq!(c, before, "{id}");
        }
    }

    /// A mistyped setting or tile names what would have been right.
    #[test]
    fn errors_name_the_choices() {
        let mut c = GameConfig::default();
        let unknown = c.set("bord_size", "9").unwrap_err().to_string();
        assert!(unknown.contains("unknown setting `bord_size`"), "{unknown}");
        assert!(
            unknown.contains("board_size") && unknown.contains("turn_time"),
            "{unknown}"
        );
        let pack = c.set("tile_pack", "chest5*20,dragon*3").unwrap_err();
        assert_eq!(
            pack,
            ConfigError::Pack {
                value: "chest5*20,dragon*3".into(),
                why: PackError::UnknownTile("dragon".into())
            }
        );
        assert!(
            pack.to_string().contains("`dragon` is not a tile id"),
            "{pack}"
        );
        let level = c.set("timeout_level", "genius").unwrap_err();
        assert_eq!(
            level.to_string(),
            "`genius` is not a valid value for `timeout_level` (expected random, easy, normal or hard)"
        );
        let turn = c.set("turn_time", "30d").unwrap_err();
        assert_eq!(
            turn,
            ConfigError::Value {
                id: "turn_time".into(),
                value: "30d".into(),
                expected: "a length from 1m to 14d, e.g. 12h"
            }
        );
        let late = c.set("reminder", "2d").unwrap_err();
        assert_eq!(
            late,
            ConfigError::ReminderLate {
                reminder: 2 * 86_400,
                turn: c.turn_seconds
            }
        );
        assert!(late.to_string().contains("(2d)"), "{late}");
    }

    /// A configuration read from JSON (a stored game, an import) passes the checks a new
    /// one does, value by value: before, a board side of 8 reached the engine and panicked.
    #[test]
    fn stored_values_pass_the_checks_of_new_ones() {
        assert_eq!(GameConfig::default().validate(), Ok(()));
        let stored = |edit: fn(&mut serde_json::Value)| {
            let mut json = serde_json::to_value(GameConfig::default()).unwrap();
            edit(&mut json);
            serde_json::from_value::<GameConfig>(json)
                .unwrap()
                .validate()
        };
        let size8 = stored(|j| j["rules"]["board_size"] = 8.into())
            .unwrap_err()
            .to_string();
        assert!(size8.contains("board_size"), "{size8}");
        assert!(stored(|j| j["rules"]["board_size"] = 200.into()).is_err());
        assert!(stored(|j| j["rules"]["stall_rounds"] = 5000.into()).is_err());
        assert!(stored(|j| j["turn_seconds"] = 30.into()).is_err());
        assert!(stored(|j| j["max_missed"] = 0.into()).is_err());
        assert!(stored(|j| j["rules"]["board_size"] = 9.into()).is_ok());
    }

    /// A configuration stored before the timeout level existed reads with the default one.
    #[test]
    fn older_configurations_get_the_default_timeout_level() {
        let mut stored = serde_json::to_value(GameConfig::default()).unwrap();
        stored.as_object_mut().unwrap().remove("timeout_level");
        let read: GameConfig = serde_json::from_value(stored).unwrap();
        assert_eq!(read.timeout_level, BotLevel::Easy);
        let mut c = GameConfig::default();
        c.set("timeout_level", "Normal").unwrap();
        assert_eq!(c.get("timeout_level").as_deref(), Some("normal"));
    }

    /// Every level, `hard` among them, is set by name, shown by name, and stored and read
    /// back as it was; values stored before `hard` existed read as they did.
    #[test]
    fn every_timeout_level_round_trips() {
        for level in BotLevel::ALL {
            let mut c = GameConfig::default();
            c.set("timeout_level", level.name()).unwrap();
            assert_eq!(c.get("timeout_level").as_deref(), Some(level.name()));
            let stored = serde_json::to_value(&c).unwrap();
            assert_eq!(stored["timeout_level"], level.name());
            let read: GameConfig = serde_json::from_value(stored).unwrap();
            assert_eq!(read.timeout_level, level);
        }
        for (old, level) in [
            ("random", BotLevel::Random),
            ("easy", BotLevel::Easy),
            ("normal", BotLevel::Normal),
        ] {
            let mut stored = serde_json::to_value(GameConfig::default()).unwrap();
            stored["timeout_level"] = old.into();
            let read: GameConfig = serde_json::from_value(stored).unwrap();
            assert_eq!(read.timeout_level, level);
        }
    }
}
