//! `jackal render --db FILE --game ID [--ply N]`: a stored game's board picture at any ply,
//! and clear refusals (unknown game, a ply beyond the game, a lobby, a missing file).

use jackal::id::{GameId, UserId};
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;

use jackal::game::{Actor, GameConfig, GameService, Location, ManualClock};
use jackal::store::Store;

const ALICE: UserId = UserId::new(1);
const BOB: UserId = UserId::new(2);

fn service(db: &Path) -> GameService {
    let store = Store::open(db).unwrap();
    GameService::new(
        Arc::new(store),
        Arc::new(ManualClock::new(1_700_000_000_000)),
    )
}

fn lobby(s: &GameService) -> GameId {
    let mut config = GameConfig::default();
    config.set("board_size", "7").unwrap();
    s.create_lobby(
        Actor::user(ALICE),
        Location::default(),
        jackal::words::Lang::En,
        config,
        Some(1),
    )
    .unwrap()
}

/// A duel with `plies` actions played (the first legal move of whoever is to move).
fn played(s: &GameService, plies: u32) -> GameId {
    let id = lobby(s);
    s.join(Actor::user(BOB), id, Some(2)).unwrap();
    s.start_with_seed(Actor::user(ALICE), id, 7).unwrap();
    for ply in 0..plies {
        let user = [ALICE, BOB]
            .into_iter()
            .find(|u| s.legal_moves(*u, id).is_ok())
            .expect("someone is to move");
        let text = s.legal_moves(user, id).unwrap()[0].notation.clone();
        s.act(user, id, ply, &text).unwrap();
    }
    id
}

fn render(db: &Path, args: &[&str], out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jackal"))
        .arg("render")
        .arg("--db")
        .arg(db)
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .expect("run jackal")
}

#[test]
fn renders_a_stored_game_at_a_ply() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("jackal.db");
    let s = service(&db);
    let id = played(&s, 6);
    for (ply, name) in [
        (Some("3"), "ply3.png"),
        (Some("0"), "start.png"),
        (None, "latest.png"),
    ] {
        let out = dir.path().join(name);
        let mut args = vec!["--game".to_string(), id.to_string()];
        if let Some(p) = ply {
            args.extend(["--ply".to_string(), p.to_string()]);
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = render(&db, &args, &out);
        assert!(
            run.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let img = image::open(&out).unwrap();
        assert_eq!((img.width(), img.height()), (1024, 1024), "{name}");
    }
}

#[test]
fn refuses_what_cannot_be_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("jackal.db");
    let s = service(&db);
    let id = played(&s, 2);
    let waiting = lobby(&s);
    let out = dir.path().join("never.png");
    let cases: [(&Path, Vec<String>, &str); 4] = [
        (
            &db,
            vec!["--game".into(), "999".into()],
            "there is no game #999",
        ),
        (
            &db,
            vec!["--game".into(), id.to_string(), "--ply".into(), "3".into()],
            &format!("game #{id} is at ply 2"),
        ),
        (
            &db,
            vec!["--game".into(), waiting.to_string()],
            &format!("game #{waiting} has not started yet"),
        ),
        (
            &dir.path().join("typo.db"),
            vec!["--game".into(), id.to_string()],
            "there is no database file",
        ),
    ];
    for (file, args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = render(file, &args, &out);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?} wrote a picture");
    }
    assert!(
        !dir.path().join("typo.db").exists(),
        "a mistyped --db file must not be created"
    );
}
