//! The few words the picture shows, in English and Russian.
//!
//! A small table for now; the project's Fluent layer (DESIGN §7) will replace it when it
//! lands, keeping these keys.

/// The language of the text on the picture.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Lang {
    #[default]
    En,
    Ru,
}

impl Lang {
    /// `en` or `ru`, in any case, alone or as a locale's language (`en-US`, `ru_RU`, as Discord
    /// locales are written).
    pub fn parse(text: &str) -> Option<Lang> {
        let language = text.split(['-', '_']).next()?;
        match language.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Key {
    /// Before the ply number: "Move 81".
    Move,
    GameOver,
    Draw,
}

pub fn text(lang: Lang, key: Key) -> &'static str {
    match (lang, key) {
        (Lang::En, Key::Move) => "Move",
        (Lang::En, Key::GameOver) => "Game over",
        (Lang::En, Key::Draw) => "draw",
        (Lang::Ru, Key::Move) => "Ход",
        (Lang::Ru, Key::GameOver) => "Конец игры",
        (Lang::Ru, Key::Draw) => "ничья",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_parse_from_discord_locales() {
        assert_eq!(Lang::parse("ru"), Some(Lang::Ru));
        assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        assert_eq!(Lang::parse("EN"), Some(Lang::En));
        assert_eq!(Lang::parse("ru_RU"), Some(Lang::Ru));
        // Only the language itself, not any word that starts like it.
        assert_eq!(Lang::parse("rubbish"), None);
        assert_eq!(Lang::parse("english"), None);
        assert_ne!(text(Lang::Ru, Key::Move), text(Lang::En, Key::Move));
    }
}
