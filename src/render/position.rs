//! The position a scenario file reaches, with the path of its last `play`, for
//! `jackal render --scenario FILE`.

use crate::engine::{Cell, Game};

/// The game after the first scenario's `play` steps, and the path of the last one.
pub fn from_scenario(content: &str) -> Result<(Game, Vec<Cell>), String> {
    let (game, played) = crate::scenario::position_after_plays(content)?;
    // A rum serving moves nothing: keep the path of the last action that did.
    let path = played
        .iter()
        .rev()
        .map(|events| super::path_of(events))
        .find(|p| !p.is_empty())
        .unwrap_or_default();
    Ok((game, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_path() {
        let text = "board 7\ntile c3 fog chest1\nplay 1 d2\n";
        let (_, path) = from_scenario(text).unwrap();
        assert_eq!(path.first().map(|c| c.to_string()).as_deref(), Some("d1"));
        assert_eq!(path.last().map(|c| c.to_string()).as_deref(), Some("d2"));
    }
}
