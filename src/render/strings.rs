//! The few words the picture shows, from the project's Fluent files (`board-*` messages).

use crate::tr;
pub use crate::words::Lang;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Key {
    /// Before the ply number: "Move 81".
    Move,
    GameOver,
    Draw,
}

pub fn text(lang: Lang, key: Key) -> String {
    match key {
        Key::Move => tr!(lang, "board-move"),
        Key::GameOver => tr!(lang, "board-game-over"),
        Key::Draw => tr!(lang, "board-draw"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages() {
        assert_eq!(text(Lang::En, Key::Move), "Move");
        assert_eq!(text(Lang::Ru, Key::Move), "Ход");
        assert_eq!(text(Lang::Ru, Key::GameOver), "Конец игры");
    }
}
