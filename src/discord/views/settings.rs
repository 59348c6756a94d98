//! A game's settings in words, and the settings panel: a menu of settings, then a menu of the
//! values each can take (only values the service accepts are offered).

use crate::id::GameId;
use serenity::all::{
    CreateActionRow, CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption,
};

use super::duration;
use crate::ai::BotLevel;
use crate::discord::ids::CustomId;
use crate::game::GameConfig;
use crate::game::config::parse_duration;
use crate::tr;
use crate::words::Lang;

/// The name of a setting, by id.
pub fn name(lang: Lang, id: &str) -> String {
    let message = match id {
        "board_size" => "setting-board_size",
        "players" => "setting-players",
        "tile_pack" => "setting-tile_pack",
        "plane_seats" => "setting-plane_seats",
        "retreat_distance" => "setting-retreat_distance",
        "restriction_kills" => "setting-restriction_kills",
        "missionary_blocks_attack" => "setting-missionary_blocks_attack",
        "cannonball_kills" => "setting-cannonball_kills",
        "fortress_vs_cannonball" => "setting-fortress_vs_cannonball",
        "cannonball_spares_fog" => "setting-cannonball_spares_fog",
        "no_wasted_rum" => "setting-no_wasted_rum",
        "no_trapped_rum" => "setting-no_trapped_rum",
        "boardgame_caves" => "setting-boardgame_caves",
        "destroying_ships" => "setting-destroying_ships",
        "friendly_fire" => "setting-friendly_fire",
        "stall_rounds" => "setting-stall_rounds",
        "turn_time" => "setting-turn_time",
        "reminder" => "setting-reminder",
        "timeout" => "setting-timeout",
        "max_missed" => "setting-max_missed",
        "timeout_level" => "setting-timeout_level",
        _ => return id.to_string(),
    };
    tr!(lang, message)
}

/// A setting's value in words ("on", "13×13", "1 day", "a bot plays the turn").
pub fn value(lang: Lang, id: &str, raw: &str) -> String {
    match (id, raw) {
        (_, "on") => tr!(lang, "value-on"),
        (_, "off") => tr!(lang, "value-off"),
        ("board_size", n) => tr!(lang, "value-board", n = n.to_string()),
        ("players", "2x2") => tr!(lang, "value-players-2x2"),
        ("players", n) => tr!(lang, "value-players", n = n.parse::<u32>().unwrap_or(0)),
        ("tile_pack", "classic") => tr!(lang, "value-pack-classic"),
        ("tile_pack", "full") => tr!(lang, "value-pack-full"),
        ("tile_pack", _) => tr!(lang, "value-pack-custom"),
        ("plane_seats", "two") => tr!(lang, "value-seats-two"),
        ("plane_seats", "one") => tr!(lang, "value-seats-one"),
        ("plane_seats", "chosen") => tr!(lang, "value-seats-chosen"),
        ("retreat_distance", "king") => tr!(lang, "value-distance-king"),
        ("retreat_distance", "taxicab") => tr!(lang, "value-distance-taxicab"),
        ("retreat_distance", "euclid") => tr!(lang, "value-distance-euclid"),
        ("timeout", "bot") => tr!(lang, "value-timeout-bot"),
        ("timeout", "resign") => tr!(lang, "value-timeout-resign"),
        ("timeout", "skip") => tr!(lang, "value-timeout-skip"),
        ("timeout_level", name) => {
            BotLevel::parse(name).map_or(name.to_string(), |l| level(lang, l))
        }
        ("turn_time" | "reminder", d) => {
            parse_duration(d).map_or(d.to_string(), |s| duration(lang, s))
        }
        (_, other) => other.to_string(),
    }
}

/// A bot level's name ("Easy").
pub fn level(lang: Lang, level: BotLevel) -> String {
    match level {
        BotLevel::Random => tr!(lang, "level-random"),
        BotLevel::Easy => tr!(lang, "level-easy"),
        BotLevel::Normal => tr!(lang, "level-normal"),
        BotLevel::Hard => tr!(lang, "level-hard"),
    }
}

/// What a bot level plays like, in a few words.
pub fn level_about(lang: Lang, level: BotLevel) -> String {
    match level {
        BotLevel::Random => tr!(lang, "level-random-about"),
        BotLevel::Easy => tr!(lang, "level-easy-about"),
        BotLevel::Normal => tr!(lang, "level-normal-about"),
        BotLevel::Hard => tr!(lang, "level-hard-about"),
    }
}

/// "setting: value" for one setting of a configuration.
fn line(config: &GameConfig, lang: Lang, id: &str) -> String {
    let raw = config.get(id).unwrap_or_default();
    format!("{}: {}", name(lang, id), value(lang, id, &raw))
}

/// The main settings on one line: players, board, tiles, turn time, reminder, timeout.
pub fn summary(config: &GameConfig, lang: Lang) -> String {
    [
        "players",
        "board_size",
        "tile_pack",
        "turn_time",
        "reminder",
        "timeout",
    ]
    .iter()
    .map(|id| line(config, lang, id))
    .collect::<Vec<_>>()
    .join(" · ")
}

/// The rules that differ from the defaults, in words.
pub fn changed_rules(config: &GameConfig, lang: Lang) -> Vec<String> {
    let defaults = GameConfig::default();
    let main = [
        "players",
        "board_size",
        "tile_pack",
        "turn_time",
        "reminder",
        "timeout",
    ];
    GameConfig::ids()
        .filter(|id| !main.contains(id))
        .filter(|id| config.get(id) != defaults.get(id))
        .map(|id| line(config, lang, id))
        .collect()
}

/// In a 2x2 game, who plays with whom (teams 1 and 3 against 2 and 4).
pub fn sides(config: &GameConfig, lang: Lang) -> Option<String> {
    (config.rules.players == crate::engine::Players::TwoVsTwo).then(|| tr!(lang, "lobby-sides"))
}

/// The values offered for a setting: a few useful ones, each accepted by the service for
/// this configuration (a reminder never at or after the deadline, only playable packs…).
pub fn choices(config: &GameConfig, id: &str) -> Vec<String> {
    presets(id)
        .iter()
        .filter(|v| config.clone().set(id, v).is_ok())
        .map(|v| v.to_string())
        .collect()
}

/// A few useful values of each setting, whatever the configuration: every value of the
/// settings that take one of a list, a handful of the others'.
pub fn presets(id: &str) -> &'static [&'static str] {
    match id {
        "board_size" => &["5", "7", "9", "11", "13"],
        "players" => &["2", "3", "4", "2x2"],
        "tile_pack" => &["classic", "full"],
        "plane_seats" => &["two", "one", "chosen"],
        "retreat_distance" => &["king", "taxicab", "euclid"],
        "stall_rounds" => &["0", "25", "50", "100", "200"],
        "turn_time" => &["1h", "6h", "12h", "1d", "2d", "3d", "7d"],
        "reminder" => &["off", "1h", "3h", "6h", "12h"],
        "timeout" => &["bot", "resign", "skip"],
        "max_missed" => &["1", "2", "3", "5", "10"],
        "timeout_level" => &["random", "easy", "normal", "hard"],
        _ => &["on", "off"],
    }
}

/// The setting a value of the panel's first menu names, if it names one. A menu's value comes
/// back as any string a client sends; only a real setting may reach the next menu, whose
/// custom id carries it (and must fit Discord's 100 characters).
pub fn known_setting(value: &str) -> Option<&'static str> {
    GameConfig::ids().find(|id| *id == value)
}

/// The panel's first menu: which setting to change.
pub fn pick_menu(game: GameId, config: &GameConfig, lang: Lang) -> CreateActionRow {
    let options = GameConfig::ids()
        .map(|id| {
            let raw = config.get(id).unwrap_or_default();
            CreateSelectMenuOption::new(super::picker::clip(&name(lang, id), 100), id)
                .description(super::picker::clip(&value(lang, id, &raw), 100))
        })
        .collect();
    CreateActionRow::SelectMenu(
        CreateSelectMenu::new(
            CustomId::SettingPick { game }.encode(),
            CreateSelectMenuKind::String { options },
        )
        .placeholder(tr!(lang, "settings-pick")),
    )
}

/// The panel's second menu: the values of one setting.
pub fn value_menu(game: GameId, config: &GameConfig, lang: Lang, id: &str) -> CreateActionRow {
    let current = config.get(id).unwrap_or_default();
    let options = choices(config, id)
        .into_iter()
        .map(|v| {
            CreateSelectMenuOption::new(super::picker::clip(&value(lang, id, &v), 100), v.clone())
                .default_selection(v == current)
        })
        .collect();
    CreateActionRow::SelectMenu(
        CreateSelectMenu::new(
            CustomId::SettingValue {
                game,
                setting: id.to_string(),
            }
            .encode(),
            CreateSelectMenuKind::String { options },
        )
        .placeholder(name(lang, id)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words;

    #[test]
    fn every_setting_has_a_name_and_choices_in_both_languages() {
        let config = GameConfig::default();
        for lang in Lang::ALL {
            for id in GameConfig::ids() {
                let n = name(lang, id);
                assert!(!n.starts_with("setting-"), "{id}: {n}");
                let offered = choices(&config, id);
                assert!(!offered.is_empty(), "{id} offers nothing");
                assert!(offered.len() <= 25);
                for v in offered {
                    let words = value(lang, id, &v);
                    assert!(!words.starts_with("value-"), "{id}={v}: {words}");
                }
            }
        }
        assert!(words::has(Lang::Ru, "setting-turn_time"));
    }

    /// Only values the service takes: both packs, and a reminder always before the deadline.
    #[test]
    fn only_accepted_values_are_offered() {
        let mut config = GameConfig::default();
        assert_eq!(choices(&config, "tile_pack"), ["classic", "full"]);
        config.set("turn_time", "6h").unwrap();
        config.set("reminder", "1h").unwrap();
        assert_eq!(choices(&config, "reminder"), ["off", "1h", "3h"]);
    }

    #[test]
    fn summaries_read_well() {
        let config = GameConfig::default();
        let text = summary(&config, Lang::En);
        assert!(text.contains("13×13") && text.contains("1 day"), "{text}");
        assert!(changed_rules(&config, Lang::En).is_empty());
        let mut c = config.clone();
        c.set("friendly_fire", "on").unwrap();
        assert_eq!(changed_rules(&c, Lang::En).len(), 1);
    }
}
