//! `jackal play`: all-bot games run to their end without input, hot-seat players type moves,
//! bad input changes nothing, games are saved and resumed, and the board picture follows.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use jackal::ai::BotLevel;
use jackal::cli::play::{self, BoardPicture, PlayOptions};
use jackal::engine::Game;
use jackal::game::{GameService, ManualClock};
use jackal::id::{GameId, UserId};
use jackal::store::{GameStatus, Store};

fn service(db: &Path) -> GameService {
    let store = Arc::new(Store::open(db).unwrap());
    GameService::new(store, Arc::new(ManualClock::new(1_700_000_000_000)))
}

/// A PNG of the board: 1024×1024.
fn assert_board_picture(path: &Path) {
    let img = image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!((img.width(), img.height()), (1024, 1024));
}

#[test]
fn a_game_of_bots_runs_to_its_end_and_draws_the_final_board() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bots.db");
    let run = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["play", "--db", db.to_str().unwrap(), "--size", "7"])
        .args(["--bots", "random,random", "--seed", "3", "--quiet"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8(run.stdout).unwrap();
    assert_eq!(
        said.lines().count(),
        1,
        "--quiet prints the result only: {said}"
    );

    let s = service(&db);
    let loaded = s.game(game_no(1)).unwrap();
    assert_eq!(loaded.status, GameStatus::Finished);
    let export = s.export(game_no(1)).unwrap();
    let mut replayed = Game::new(export.config.rules.clone(), 3).unwrap();
    for a in &export.actions {
        replayed
            .play(&a.action.action().expect("no take-back here"))
            .unwrap();
    }
    assert_eq!(loaded.state.unwrap(), replayed);
    assert_board_picture(&dir.path().join("bots-game-1.png"));

    // --no-png: no picture.
    let db = dir.path().join("plain.db");
    let run = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["play", "--db", db.to_str().unwrap(), "--size", "5"])
        .args([
            "--bots",
            "random,random",
            "--seed",
            "4",
            "--quiet",
            "--no-png",
        ])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    assert!(!dir.path().join("plain-game-1.png").exists());
}

fn hot_seat(db: &Path, picture: &Path, game: Option<i64>) -> PlayOptions {
    let game = game.map(game_no);
    PlayOptions {
        db: db.to_path_buf(),
        size: 7,
        team_play: false,
        humans: 1,
        bots: vec![BotLevel::Random],
        seed: Some(5),
        pack: "full".into(),
        settings: Vec::new(),
        game,
        quiet: false,
        picture: BoardPicture::At(picture.to_path_buf()),
    }
}

fn play_with(options: &PlayOptions, input: &str) -> (i32, String) {
    let mut out = Vec::new();
    let code = play::run(options, &mut input.as_bytes(), &mut out).unwrap();
    (code, String::from_utf8(out).unwrap())
}

#[test]
fn a_player_lists_moves_is_refused_kindly_saves_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("local.db");
    let picture = dir.path().join("board.png");

    // The human (team 1) moves first: list the moves, try nonsense, quit.
    let (code, said) = play_with(&hot_seat(&db, &picture, None), "moves\nzz9 coin\nquit\n");
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("team 1, your move"), "{said}");
    assert!(said.contains("Not played:"), "{said}");
    assert!(
        said.contains("Saved. Resume with: jackal play --db"),
        "{said}"
    );
    let s = service(&db);
    assert_eq!(s.game(game_no(1)).unwrap().ply, 0, "nothing was played");
    let listed = s.legal_moves(UserId::new(1), game_no(1)).unwrap();
    for m in &listed {
        assert!(said.contains(&m.notation), "`moves` lists {}", m.notation);
    }
    assert_board_picture(&picture);
    let before = std::fs::read(&picture).unwrap();

    // Resume and play a move: the bot answers, the board is redrawn for the next turn.
    let (code, said) = play_with(
        &hot_seat(&db, &picture, Some(1)),
        &format!("{}\nquit\n", listed[0].notation),
    );
    assert_eq!(code, 0, "{said}");
    let after = s.game(game_no(1)).unwrap().ply;
    assert!(after >= 2, "the move and the bot's answer: ply {after}");
    assert_board_picture(&picture);
    assert_ne!(
        std::fs::read(&picture).unwrap(),
        before,
        "the picture follows the game"
    );

    // A game that is not there: refused, nothing said about it.
    let mut out = Vec::new();
    let unknown = hot_seat(&db, &picture, Some(99));
    let refused = play::run(&unknown, &mut "".as_bytes(), &mut out).unwrap_err();
    assert_eq!(refused, "there is no game #99");
    assert!(out.is_empty());

    // A mistyped database file when resuming: refused, and not created.
    let typo = dir.path().join("lcoal.db");
    let refused = play::run(
        &hot_seat(&typo, &picture, Some(1)),
        &mut "".as_bytes(),
        &mut Vec::new(),
    );
    assert_eq!(
        refused.unwrap_err(),
        format!("there is no database file {}", typo.display())
    );
    assert!(!typo.exists());

    // Input that ends mid-game: saved, exit code 1.
    let (code, said) = play_with(&hot_seat(&db, &picture, Some(1)), "");
    assert_eq!(code, 1);
    assert!(said.contains("No more input: the game is saved"), "{said}");
    assert_eq!(s.game(game_no(1)).unwrap().ply, after);
}

/// A game that ended by resignation says so when resumed, not just "finished".
#[test]
fn a_resigned_game_says_how_it_ended() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("local.db");
    let picture = dir.path().join("board.png");
    let mut options = hot_seat(&db, &picture, None);
    options.bots.clear();
    options.humans = 2;
    play_with(&options, "quit\n");
    service(&db)
        .resign(jackal::game::Actor::user(UserId::new(2)), game_no(1))
        .unwrap();
    let (code, said) = play_with(&hot_seat(&db, &picture, Some(1)), "");
    assert_eq!(code, 0);
    assert!(said.contains("Team 2 resigned: Team 1 wins."), "{said}");
}

/// `jackal play --pack classic --set destroying_ships=on`: the game is stored with those
/// settings; a setting the lobby would refuse is refused before anything is created.
#[test]
fn the_pack_and_the_rule_settings_are_chosen_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("set.db");
    let jackal = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_jackal"))
            .arg("play")
            .args(["--db", db.to_str().unwrap(), "--size", "5", "--seed", "3"])
            .args(["--bots", "random,random", "--quiet", "--no-png"])
            .args(args)
            .output()
            .unwrap()
    };
    let run = jackal(&["--pack", "classic", "--set", "destroying_ships=on"]);
    assert!(run.status.success(), "{run:?}");
    let s = service(&db);
    let loaded = s.game(game_no(1)).unwrap();
    assert_eq!(loaded.config.rules.tile_pack, jackal::engine::Pack::Classic);
    assert!(loaded.config.rules.destroying_ships);
    let run = jackal(&["--set", "destroying_ships=maybe"]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("destroying_ships"));
    assert!(s.game(game_no(2)).is_err(), "nothing created");
}

fn game_no(n: i64) -> GameId {
    GameId::new(n).expect("a game's number")
}
