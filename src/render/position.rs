//! The position a scenario file reaches, with the path of its last `play`, for
//! `jackal render --scenario FILE`.
//!
//! `scenario::position_after_plays` gives the position but drops the events, and the picture
//! wants the last action's path; this runs the same steps (first scenario, setup, start of
//! play, every `play`/`play-as`) and keeps the last action's events.

use crate::engine::{Cell, Game};
use crate::scenario::{lexer, setup};

/// The game after the first scenario's `play` steps, and the path of the last one.
pub fn from_scenario(content: &str) -> Result<(Game, Vec<Cell>), String> {
    let src = lexer::split("scenario", content)
        .into_iter()
        .next()
        .ok_or("no scenario in the file")?;
    let (mut game, first_step) =
        setup::build(&src).map_err(|e| format!("line {}: {}", e.line, e.message))?;
    game.start(&mut Vec::new());
    let mut path = Vec::new();
    for line in &src.lines[first_step..] {
        let text = match line.keyword() {
            "play" => line.words[1..].join(" "),
            "play-as" => line.words[2..].join(" "),
            _ => continue,
        };
        let events = game
            .play_text(&text)
            .map_err(|e| format!("line {}: `{text}` rejected: {e}", line.no))?;
        let p = super::path_of(&events);
        // A rum serving moves nothing: keep the path of the last action that did.
        if !p.is_empty() {
            path = p;
        }
    }
    Ok((game, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_the_scenario_module() {
        let text = "board 7\ntile d3 fog chest2\nplay 1 d2\nplay 1 d6\nplay 1 d3\n";
        let (game, _) = from_scenario(text).unwrap();
        let reference = crate::scenario::position_after_plays(text).unwrap();
        assert_eq!(game, reference);
    }

    #[test]
    fn keeps_the_last_path() {
        let text = "board 7\ntile c3 fog chest1\nplay 1 d2\n";
        let (_, path) = from_scenario(text).unwrap();
        assert_eq!(path.first().map(|c| c.to_string()).as_deref(), Some("d1"));
        assert_eq!(path.last().map(|c| c.to_string()).as_deref(), Some("d2"));
    }
}
