//! A game `jackal arena` played, written down as a rules scenario (SCENARIOS.md): its settings
//! and map seed, each ply's action as a `play-as` step in canonical notation, and what the
//! end must be. `jackal check` replays the file and confirms the engine reaches the same end;
//! `jackal render --scenario FILE --ply N` draws the board at any ply. A game a level lost in
//! a long run can so be read move by move afterwards, which its last board alone does not tell.

use std::fmt::Write;

use crate::engine::settings::SETTING_IDS;
use crate::engine::{Action, Game, Settings, Team};

/// The plies of one game, as they are played.
pub(super) struct GameRecord {
    plays: Vec<String>,
}

impl GameRecord {
    pub fn new() -> GameRecord {
        GameRecord { plays: Vec::new() }
    }

    /// Notes `action`, about to be played in `game`, chosen by the player commanding the turn
    /// (`Game::controller`), the level named `who`. The step's team is the acting team
    /// (`Game::turn`), as `play-as` checks it, even on a weed turn. The notation is read before the action is played: it is the
    /// canonical form in the position the action is played from (S-NOT-2).
    pub fn note(&mut self, game: &Game, action: &Action, who: &str) {
        let ply = self.plays.len() + 1;
        self.plays.push(format!(
            "play-as {} {}  # ply {ply}, {who}",
            game.turn(),
            game.notation(action)
        ));
    }

    /// The scenario text of the game, which has ended in `game`. `title` names the game (the
    /// scenario's title) and `summary` says how it went (a comment at the top).
    pub fn scenario(
        &self,
        settings: &Settings,
        map: u64,
        game: &Game,
        title: &str,
        summary: &str,
    ) -> String {
        let mut text = String::new();
        let _ = writeln!(text, "# {summary}");
        let _ = writeln!(
            text,
            "# Replay: jackal check FILE. The board after ply N: jackal render --scenario FILE --ply N -o board.png"
        );
        let _ = writeln!(text, "scenario {title}");
        let defaults = Settings::default();
        for id in SETTING_IDS {
            let value = settings.get(id);
            if value != defaults.get(id) {
                let _ = writeln!(text, "set {id} = {}", value.unwrap_or_default());
            }
        }
        let _ = writeln!(text, "seed {map}");
        for play in &self.plays {
            let _ = writeln!(text, "{play}");
        }
        let teams: Vec<Team> = game.teams().collect();
        for team in &teams {
            let _ = writeln!(text, "expect score {team} = {}", game.score(*team));
        }
        match game.outcome() {
            Some(outcome) if outcome.draw => {
                let sides: Vec<String> = outcome.winners.iter().map(Team::to_string).collect();
                let _ = writeln!(
                    text,
                    "expect over draw {} {}",
                    sides.join(" "),
                    outcome.reason.id()
                );
            }
            Some(outcome) => {
                if let Some(winner) = outcome.winners.first() {
                    let _ = writeln!(text, "expect over winner {winner} {}", outcome.reason.id());
                }
            }
            None => {
                let _ = writeln!(text, "expect not over");
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{self, Bot, BotLevel, Budget};
    use crate::engine::{Pack, Players};

    /// A whole game of two `random` bots on 5×5, written down and replayed by the scenario
    /// checker: every step is accepted and every expectation of the end holds.
    #[test]
    fn a_recorded_game_replays_to_the_same_end() {
        let settings = Settings {
            board_size: 5,
            players: Players::Two,
            tile_pack: Pack::Classic,
            ..Settings::default()
        };
        let map = 77;
        let mut game = Game::new(settings.clone(), map).unwrap();
        let bot = Bot {
            level: BotLevel::Random,
            seed: 5,
            budget: Budget::time(std::time::Duration::from_millis(10)),
        };
        let mut record = GameRecord::new();
        while !game.is_over() {
            let action = ai::decide(&game.public_view(), &bot).unwrap();
            record.note(&game, &action, "random");
            game.play(&action).unwrap();
        }
        let text = record.scenario(&settings, map, &game, "a random game", "random v random");
        assert!(text.contains("set board_size = 5\n"), "{text}");
        assert!(text.contains("set tile_pack = classic\n"), "{text}");
        assert!(!text.contains("set players"), "{text}");
        assert!(text.contains(&format!("seed {map}\n")), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.starts_with("play-as ")).count(),
            game.ply() as usize
        );
        assert!(text.contains("expect over "), "{text}");
        let mut report = crate::scenario::Report::new(true);
        report.check_content("game.scn", &text);
        assert_eq!(report.exit_code(), 0, "{}\n{text}", report.text);
        // Each score and the end, passed.
        assert_eq!(report.totals.passed, 3, "{}", report.text);
        let (replayed, _) = crate::scenario::position_after_plays(&text).unwrap();
        assert_eq!(replayed.ply(), game.ply());
        assert_eq!(replayed.outcome(), game.outcome());
    }
}
