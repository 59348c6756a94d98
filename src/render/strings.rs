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
    /// `en` or `ru` (as Discord locales start).
    pub fn parse(text: &str) -> Option<Lang> {
        match text.get(..2)? {
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
        assert_ne!(text(Lang::Ru, Key::Move), text(Lang::En, Key::Move));
    }
}
