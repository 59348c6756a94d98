//! `jackal think`: what a bot would play in a position, and why. The position is a scenario
//! file's after its first N `play` steps, so any moment of a game `jackal arena --record`
//! wrote can be asked about again: easy's judgement of every action it weighed, and the
//! rounds of normal's search, candidate by candidate.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::ai::{self, Bot, BotLevel, Budget, Thought};
use crate::engine::Game;

/// What `jackal think` was asked for.
#[derive(Clone, Debug)]
pub struct ThinkRequest {
    pub scenario: PathBuf,
    /// The position after this many `play` steps (`None`: all of them).
    pub ply: Option<u32>,
    pub level: BotLevel,
    pub seed: u64,
    /// The searching levels' budget a move (`None`: the level's own).
    pub think: Option<std::time::Duration>,
}

/// Easy's judgements shown at most: the rest are seldom worth reading.
const JUDGED_SHOWN: usize = 12;

/// The report, as text; an error names the file and says what is wrong.
pub fn run(request: &ThinkRequest) -> Result<String, String> {
    let file = request.scenario.display();
    let content = std::fs::read_to_string(&request.scenario).map_err(|e| format!("{file}: {e}"))?;
    let plays = request.ply.map(|n| n as usize);
    let (game, _) =
        crate::scenario::position_after(&content, plays).map_err(|e| format!("{file}: {e}"))?;
    let bot = Bot {
        level: request.level,
        seed: request.seed,
        budget: request
            .think
            .map_or(Budget::of_level(request.level), Budget::time),
    };
    let mut out = position(&game);
    match ai::think(&game.public_view(), &bot) {
        Ok(thought) => out.push_str(&report(&game, &bot, &thought)),
        Err(e) => {
            let _ = writeln!(out, "{}: {e}", request.level);
        }
    }
    Ok(out)
}

/// Who is to move, the scores and the stall guard.
fn position(game: &Game) -> String {
    let scores: Vec<String> = game
        .teams()
        .map(|t| format!("team {} {}", t.number(), game.side_score(t)))
        .collect();
    let mut out = format!(
        "ply {}: team {} to move; {}",
        game.ply() + 1,
        game.controller().number(),
        scores.join(", ")
    );
    if let Some(turns) = game.turns_before_stall() {
        let _ = write!(out, "; the stall guard ends the game in {turns} turns");
    }
    out.push('\n');
    out
}

fn report(game: &Game, bot: &Bot, thought: &Thought) -> String {
    let mut out = String::new();
    let name = |a| game.notation(a);
    let width = thought
        .judged
        .iter()
        .map(|(a, _)| name(a).len())
        .max()
        .unwrap_or(0)
        .max("action".len());
    if !thought.judged.is_empty() {
        let _ = writeln!(
            out,
            "easy's judgement of {} actions (reward for the mover, 0 lost … 1 won), best first:",
            thought.judged.len()
        );
        for (action, reward) in thought.judged.iter().take(JUDGED_SHOWN) {
            let _ = writeln!(out, "  {reward:>8.5}  {}", name(action));
        }
        if thought.judged.len() > JUDGED_SHOWN {
            let _ = writeln!(out, "  … and {} more", thought.judged.len() - JUDGED_SHOWN);
        }
    }
    if let Some(search) = &thought.search {
        let _ = writeln!(
            out,
            "{}'s search ({} ms): {} rounds, {} playouts",
            bot.level,
            bot.budget.time.as_millis(),
            search.rounds,
            search.playouts
        );
        let _ = writeln!(
            out,
            "  {:<width$}  rounds      mean  gain over easy's favourite",
            "action"
        );
        for c in &search.candidates {
            let gain = match c.gain {
                None if c.rounds > 0 && c.action == search.candidates[0].action => {
                    "(easy's favourite)".to_string()
                }
                None => "-".to_string(),
                Some((mean, error)) => format!("{mean:+.5} ± {error:.5}"),
            };
            let mark = match (c.chosen, c.dropped) {
                (true, _) => "  ← played",
                (false, true) => "  dropped",
                (false, false) => "",
            };
            let _ = writeln!(
                out,
                "  {:<width$}  {:>6}  {:>8.5}  {gain}{mark}",
                name(&c.action),
                c.rounds,
                c.mean
            );
        }
    }
    let _ = writeln!(out, "{} plays: {}", bot.level, name(&thought.action));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(scenario: PathBuf, ply: Option<u32>, level: BotLevel) -> ThinkRequest {
        ThinkRequest {
            scenario,
            ply,
            level,
            seed: 3,
            think: Some(std::time::Duration::from_millis(50)),
        }
    }

    /// A pirate beside a coin, its ship two cells off: normal's report says who is to move,
    /// lists easy's judgement and the search's candidates, and ends with the action played.
    /// A position past the file's end, or a file that is not there, is an error naming the
    /// file.
    #[test]
    fn the_report_shows_the_judgement_and_the_search() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("coin.scn");
        std::fs::write(
            &file,
            "scenario coin\nset tile_pack = classic\nitem g4 coin\nunit 1.1 g3\n\
             unit 2.1 c11\nturn 1\nplay 1 f3\n",
        )
        .unwrap();
        let report = run(&request(file.clone(), Some(0), BotLevel::Normal)).unwrap();
        assert!(
            report.starts_with("ply 1: team 1 to move; team 1 0, team 2 0"),
            "{report}"
        );
        assert!(report.contains("easy's judgement of"), "{report}");
        assert!(report.contains("normal's search (50 ms)"), "{report}");
        assert!(report.contains("(easy's favourite)"), "{report}");
        assert!(
            report
                .lines()
                .last()
                .unwrap()
                .starts_with("normal plays: 1 "),
            "{report}"
        );
        let after = run(&request(file.clone(), None, BotLevel::Easy)).unwrap();
        assert!(after.starts_with("ply 2: team 2 to move"), "{after}");
        assert!(!after.contains("search"), "{after}");
        let past = run(&request(file.clone(), Some(5), BotLevel::Easy)).unwrap_err();
        assert!(
            past.contains("coin.scn") && past.contains("play step"),
            "{past}"
        );
        let missing = run(&request(dir.path().join("none.scn"), None, BotLevel::Easy));
        assert!(missing.unwrap_err().contains("none.scn"));
    }
}
