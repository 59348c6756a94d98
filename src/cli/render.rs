//! `jackal render`: the board picture of a position, written as a PNG. The position is either
//! the one a scenario file reaches or a stored game's after any ply; either way the last
//! move's path is outlined. Drawing is `render`'s job; this finds the position and the path.

use crate::id::GameId;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};

use super::output::{self, Output};
use crate::engine::{Cell, Game};
use crate::game::{GameService, ServiceError, SystemClock};
use crate::render::{self, Lang, RenderOptions};
use crate::store::{Database, GameStatus, Store};
use crate::visible::visible;

/// Where the position comes from.
#[derive(Clone, Debug)]
pub enum Source {
    /// The first scenario of a `.scn` file, after its first `ply` `play` steps (`None`: all
    /// of them). A game `jackal arena --record` wrote is such a file, one step a ply.
    Scenario { file: PathBuf, ply: Option<u32> },
    /// A game in a database (a file, or a PostgreSQL server's), after `ply` actions
    /// (`None`: all of them).
    Stored {
        db: Database,
        game: GameId,
        ply: Option<u32>,
    },
}

/// What `jackal render` was asked for.
#[derive(Clone, Debug)]
pub struct RenderRequest {
    pub source: Source,
    pub output: PathBuf,
    /// `en` or `ru`.
    pub lang: String,
    /// Cell names to highlight, e.g. `g2`.
    pub highlight: Vec<String>,
}

/// Draws the picture and writes it; returns its size in bytes.
pub fn run(request: &RenderRequest) -> Result<usize> {
    let lang = Lang::parse(&request.lang)
        .with_context(|| format!("`{}` is not a language: en or ru", visible(&request.lang)))?;
    // The output is checked before anything is read or written: `-o jackal.db` is refused.
    let inputs = match &request.source {
        Source::Scenario { file, .. } => vec![file.clone()],
        Source::Stored {
            db: Database::File(db),
            ..
        } => output::database_files(db),
        Source::Stored { .. } => Vec::new(),
    };
    let output = Output::checked(&request.output, &inputs)?;
    let (game, path) = match &request.source {
        Source::Scenario { file, ply } => scenario_position(file, *ply)?,
        Source::Stored { db, game, ply } => stored_position(db, *game, *ply)?,
    };
    let highlights = request
        .highlight
        .iter()
        .map(|h| {
            game.board()
                .parse_cell(h)
                .with_context(|| format!("`{}` is not a cell of this board", visible(h)))
        })
        .collect::<Result<Vec<_>>>()?;
    let options = RenderOptions {
        highlights,
        path,
        lang,
        // A scenario's position has no log of moves: the header counts plies.
        move_number: None,
    };
    let png = render::render(&game, &options);
    output.write(&png)?;
    Ok(png.len())
}

fn scenario_position(file: &Path, ply: Option<u32>) -> Result<(Game, Vec<Cell>)> {
    let content =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    from_scenario(&content, ply).map_err(|e| anyhow!("{}: {e}", file.display()))
}

/// The game after the first scenario's first `ply` `play` steps (default: all), and the path
/// of the last of them.
fn from_scenario(
    content: &str,
    ply: Option<u32>,
) -> std::result::Result<(Game, Vec<Cell>), String> {
    let plays = ply.map(|n| n as usize);
    let (game, played) = crate::scenario::position_after(content, plays)?;
    // A rum serving moves nothing: keep the path of the last action that did.
    let path = played
        .iter()
        .rev()
        .map(|events| render::path_of(events))
        .find(|p| !p.is_empty())
        .unwrap_or_default();
    Ok((game, path))
}

/// Stored game `id` after `ply` actions (default: the latest), and the path of the move that
/// ended there (all its choice steps: a fork or a horse is one move on the picture).
pub fn stored_position(db: &Database, id: GameId, ply: Option<u32>) -> Result<(Game, Vec<Cell>)> {
    // Opening a missing file would create it: a typo must not leave an empty database.
    if let Database::File(path) = db
        && !path.is_file()
    {
        bail!("there is no database file {}", path.display());
    }
    // Drawing only reads: the file is neither made a database nor upgraded, and one the
    // user may read but not write is drawn too; a server's sessions are read-only.
    let store =
        Store::open_database_read_only(db).with_context(|| format!("opening {}", db.shown()))?;
    // The service loads from the latest snapshot at or before `ply`, as the bot does.
    let service = GameService::new(Arc::new(store), Arc::new(SystemClock));
    let row = match service.game(id) {
        Ok(view) => view,
        Err(ServiceError::UnknownGame(_)) => {
            bail!("there is no game #{id} in {}", db.shown())
        }
        Err(e) => return Err(e.into()),
    };
    match (row.status, row.seed) {
        (GameStatus::Lobby, _) => {
            bail!("game #{id} has not started yet (it is still a lobby): there is no board to draw")
        }
        (_, None) => bail!("game #{id} was cancelled before it started: there is no board to draw"),
        _ => {}
    }
    let ply = ply.unwrap_or(row.ply);
    if ply > row.ply {
        bail!(
            "game #{id} is at ply {}: --ply must be from 0 (the start) to {}, not {ply}",
            row.ply,
            row.ply
        );
    }
    let path = render::path_of(&service.move_events(id, ply)?);
    let game = service.position_at(id, ply)?;
    Ok((game, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scenario_keeps_its_last_path() {
        let text = "board 7\ntile c3 fog chest1\nplay 1 d2\n";
        let (_, path) = from_scenario(text, None).unwrap();
        assert_eq!(path.first().map(|c| c.to_string()).as_deref(), Some("d1"));
        assert_eq!(path.last().map(|c| c.to_string()).as_deref(), Some("d2"));
    }

    /// `--ply` stops a scenario's plays where asked: ply 0 is the setup, ply 1 the first
    /// move; past the last step the error says how many there are.
    #[test]
    fn a_scenario_is_drawn_after_the_plies_asked_for() {
        let text = "board 7\ntile c3 fog chest1\nplay 1 d2\nplay 2 d6\n";
        let at = |ply| from_scenario(text, Some(ply));
        let (start, path) = at(0).unwrap();
        assert!(path.is_empty());
        assert_eq!(start.ply(), 0);
        let (first, path) = at(1).unwrap();
        assert_eq!(first.ply(), 1);
        assert_eq!(path.last().map(|c| c.to_string()).as_deref(), Some("d2"));
        let (both, _) = at(2).unwrap();
        assert_eq!(both.ply(), from_scenario(text, None).unwrap().0.ply());
        let past = at(3).unwrap_err();
        assert!(past.contains("2 play steps"), "{past}");
    }
}
