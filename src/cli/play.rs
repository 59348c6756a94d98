//! `jackal play`: a local game in the terminal, on the same game service and SQLite file the
//! bot uses. Seats are hot-seat humans (local players 1, 2, …) and bots; a game of bots only
//! runs to its end without input. The board is printed as text and drawn as a PNG, the
//! picture the bot posts, rewritten whenever a human is to move and at the end.

use crate::id::{GameId, UserId};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::ai::BotLevel;
use crate::engine::{Game, Players};
use crate::game::{Actor, GameConfig, GameService, Location, Occupant, ServiceError, SystemClock};
use crate::render::{self, RenderOptions};
use crate::store::{Durability, GameStatus, Store};
use crate::words::Lang;
use crate::words::narrate::{self, Numbered};

use super::output::{self, Output};
use super::text_board;

/// What `jackal play` was asked for.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    pub db: std::path::PathBuf,
    pub size: u8,
    /// `2x2` for team play with four seats; otherwise the seat count decides.
    pub team_play: bool,
    pub humans: u8,
    pub bots: Vec<BotLevel>,
    pub seed: Option<u64>,
    /// The tile pack (`full`, `classic` or a custom list), as the lobby's setting takes it.
    pub pack: String,
    /// Further rule settings (RULES §20), as the lobby's settings take them.
    pub settings: Vec<(String, String)>,
    /// Resume this game instead of starting one.
    pub game: Option<GameId>,
    /// Print only the result (for scripts).
    pub quiet: bool,
    pub picture: BoardPicture,
}

/// Where the board picture goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardPicture {
    Off,
    /// `<database name>-game-<id>.png` in the database's folder.
    BesideDatabase,
    At(PathBuf),
}

impl BoardPicture {
    fn path(&self, db: &Path, id: GameId) -> Option<PathBuf> {
        match self {
            BoardPicture::Off => None,
            BoardPicture::At(path) => Some(path.clone()),
            BoardPicture::BesideDatabase => {
                let stem = db
                    .file_stem()
                    .map_or("jackal".into(), |s| s.to_string_lossy());
                Some(db.with_file_name(format!("{stem}-game-{id}.png")))
            }
        }
    }
}

/// Draws `game` (game `id` after its latest ply) with its last move outlined, into `path`.
fn write_picture(
    service: &GameService,
    id: GameId,
    game: &Game,
    path: &Output,
) -> Result<(), String> {
    let events = service
        .move_events(id, game.ply())
        .map_err(|e| e.to_string())?;
    let options = RenderOptions {
        path: render::path_of(&events),
        ..RenderOptions::default()
    };
    path.write(&render::render(game, &options))
        .map_err(|e| format!("the board picture: {e}"))
}

/// Local player ids: human seat k is played by local user k.
fn local_user(k: u8) -> UserId {
    UserId::new(k.into())
}

fn players_for(seats: usize, team_play: bool) -> Result<Players, String> {
    match (seats, team_play) {
        (4, true) => Ok(Players::TwoVsTwo),
        (_, true) => Err("2x2 needs four seats".into()),
        (2, _) => Ok(Players::Two),
        (3, _) => Ok(Players::Three),
        (4, _) => Ok(Players::Four),
        (n, _) => Err(format!("a game has 2, 3 or 4 seats, not {n}")),
    }
}

/// How the session begins.
enum Start {
    Resume(GameId),
    New(NewGame),
}

/// A new game as asked for, every argument checked: made before the database is opened, so
/// that a refused argument (`--size 6`) leaves no file behind.
struct NewGame {
    config: GameConfig,
    seats: Vec<(u8, Occupant)>,
    seed: u64,
}

fn new_game(o: &PlayOptions) -> Result<NewGame, String> {
    let seats = o.humans as usize + o.bots.len();
    let players = players_for(seats, o.team_play)?;
    let mut config = GameConfig::default();
    config
        .set("board_size", &o.size.to_string())
        .map_err(|e| e.to_string())?;
    config
        .set("tile_pack", &o.pack)
        .map_err(|e| e.to_string())?;
    for (id, value) in &o.settings {
        config.set(id, value).map_err(|e| e.to_string())?;
    }
    config.rules.players = players;
    config.validate().map_err(|e| e.to_string())?;
    let humans = (1..=o.humans).map(|k| Occupant::Player(local_user(k)));
    let bots = o.bots.iter().map(|&level| Occupant::Bot(level));
    let seats: Vec<(u8, Occupant)> = (1..).zip(humans.chain(bots)).collect();
    let seed = match o.seed {
        Some(seed) => seed,
        None => getrandom::u64().map_err(|e| format!("no random seed: {e}"))?,
    };
    Ok(NewGame {
        config,
        seats,
        seed,
    })
}

fn create(service: &GameService, new: NewGame) -> Result<GameId, String> {
    let owner = Actor::user(local_user(1));
    service
        .create_started(
            owner,
            Location::default(),
            crate::words::Lang::En,
            new.config,
            &new.seats,
            new.seed,
        )
        .map_err(|e| e.to_string())
}

/// What a line typed at the prompt is: one of the session's words (in any case: `QUIT` is
/// not a piece's name), or a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Typed {
    Nothing,
    Quit,
    Moves,
    Move,
}

impl Typed {
    fn of(text: &str) -> Typed {
        match text.to_lowercase().as_str() {
            "" => Typed::Nothing,
            "quit" | "exit" => Typed::Quit,
            "moves" => Typed::Moves,
            _ => Typed::Move,
        }
    }
}

/// Runs the game; returns the process exit code.
pub fn run(o: &PlayOptions, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<i32, String> {
    // Resuming reads an existing file: a mistyped --db must not create an empty one.
    if o.game.is_some() && !o.db.is_file() {
        return Err(format!("there is no database file {}", o.db.display()));
    }
    // A picture path that names the database is refused before the database is touched.
    let database = output::database_files(&o.db);
    if let BoardPicture::At(path) = &o.picture {
        Output::checked(path, &database).map_err(|e| format!("--png: {e}"))?;
    }
    // Every argument of a new game is checked before a file is made.
    let start = match o.game {
        Some(id) => Start::Resume(id),
        None => Start::New(new_game(o)?),
    };
    // Resuming needs a jackal database already there: an empty or foreign file is refused
    // as it is, never given the game's tables.
    let store = match start {
        Start::Resume(_) => Store::open_existing(&o.db, Durability::default()),
        Start::New(_) => Store::open(&o.db),
    }
    .map_err(|e| e.to_string())?;
    let service = GameService::new(Arc::new(store), Arc::new(SystemClock));
    let id = match start {
        Start::Resume(id) => id,
        Start::New(new) => create(&service, new)?,
    };
    // An unknown --game is refused before anything is said about it.
    service.game(id).map_err(|e| e.to_string())?;
    let say = |out: &mut dyn Write, text: &str| {
        let _ = writeln!(out, "{text}");
    };
    if !o.quiet {
        say(out, &format!("Game #{id} in {}", o.db.display()));
    }
    let picture = match o.picture.path(&o.db, id) {
        Some(path) => Some(Output::checked(&path, &database).map_err(|e| e.to_string())?),
        None => None,
    };
    if let (Some(path), false) = (&picture, o.quiet) {
        say(
            out,
            &format!("The board picture is redrawn in {}", path.path().display()),
        );
    }
    let mut shown_ply = None;
    loop {
        let game_view = service.game(id).map_err(|e| e.to_string())?;
        if game_view.status != GameStatus::Active {
            let game = game_view.state.as_ref();
            if let (Some(path), Some(game)) = (&picture, game) {
                write_picture(&service, id, game, path)?;
            }
            if let Some(outcome) = game.and_then(|g| g.outcome()) {
                if !o.quiet {
                    say(out, &text_board::render(game.expect("started")));
                }
                say(
                    out,
                    &narrate::outcome(Lang::En, &Numbered(Lang::En), outcome),
                );
            } else {
                let ending = game_view
                    .end
                    .clone()
                    .map(|end| crate::game::narrate::ending(Lang::En, &Numbered(Lang::En), &end));
                let status = format!("Game #{id} is {}.", game_view.status.as_str());
                say(out, &ending.unwrap_or(status));
            }
            return Ok(0);
        }
        let game = game_view
            .state
            .as_ref()
            .expect("an active game has a state");
        let team = game.controller();
        let Some(user) = game_view.team_seat(team).and_then(|s| s.user_id) else {
            // A bot's turn (a bot's move writes the game: only then is one asked for).
            let acc = service
                .bot_step(id)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("seat {team} of game #{id} has nobody to play it"))?;
            if !o.quiet {
                say(
                    out,
                    &format!("[{}] team {}: {}", acc.ply, acc.team, acc.notation),
                );
                for line in narrate::events(Lang::En, &Numbered(Lang::En), &acc.events) {
                    say(out, &format!("    {line}"));
                }
            }
            continue;
        };
        if shown_ply != Some(game_view.ply) {
            say(out, &text_board::render(game));
            if let Some(path) = &picture {
                write_picture(&service, id, game, path)?;
            }
            shown_ply = Some(game_view.ply);
        }
        let choice = game
            .pending_kind()
            .map(|k| format!(" (answer the {} choice with a cell)", k.name()))
            .unwrap_or_default();
        let _ = write!(
            out,
            "[move {}] team {team}, your move{choice} — `moves` lists them, `quit` stops: ",
            game_view.ply + 1
        );
        let _ = out.flush();
        let mut bytes = Vec::new();
        if input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| e.to_string())?
            == 0
        {
            say(
                out,
                "\nNo more input: the game is saved; resume it with --game.",
            );
            return Ok(1);
        }
        // A line that is not text (a stray binary paste, another encoding) is refused alone;
        // the session goes on.
        let Ok(line) = String::from_utf8(bytes) else {
            say(out, "Not played: that line is not UTF-8 text.");
            continue;
        };
        let text = line.trim();
        match Typed::of(text) {
            Typed::Nothing => continue,
            Typed::Quit => {
                say(
                    out,
                    &format!(
                        "Saved. Resume with: jackal play --db {} --game {id}",
                        o.db.display()
                    ),
                );
                return Ok(0);
            }
            Typed::Moves => {
                let moves = service.legal_moves(user, id).map_err(|e| e.to_string())?;
                let list: Vec<String> = moves
                    .iter()
                    .map(|m| {
                        if m.fatal {
                            format!("{} (fatal)", m.notation)
                        } else {
                            m.notation.clone()
                        }
                    })
                    .collect();
                say(out, &list.join("; "));
            }
            Typed::Move => match service.act(user, id, game_view.ply, text) {
                Ok(acc) => {
                    for line in narrate::events(Lang::En, &Numbered(Lang::En), &acc.events) {
                        say(out, &format!("    {line}"));
                    }
                }
                Err(e @ (ServiceError::Illegal(_) | ServiceError::StaleView { .. })) => {
                    say(out, &format!("Not played: {e}."));
                }
                Err(e) => return Err(e.to_string()),
            },
        }
    }
}
