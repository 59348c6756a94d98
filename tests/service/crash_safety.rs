//! Crash safety: a child process plays 200 scripted actions over 20 games and is killed with
//! SIGKILL at random moments (at least 50 kills). After every restart no acknowledged action
//! is lost, none is doubled, every outbox row an action wrote is still there, and every game
//! equals a fresh replay of its action log.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use jackal::engine::{Event, Game};
use jackal::game::{GameService, ManualClock};
use jackal::id::GameId;
use jackal::store::{self, Store};

const GAMES: usize = 20;
const ACTIONS: u32 = 200;
const KILLS: usize = 50;

fn child(db: &std::path::Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args([
            "chaos-child",
            "--pace-ms",
            "2",
            "--games",
            &GAMES.to_string(),
        ])
        .args(["--actions", &ACTIONS.to_string(), "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn jackal")
}

/// (game, ply) → notation of every action the child acknowledged (after its commit).
fn read_acks(out: &str, acks: &mut BTreeMap<(GameId, u32), String>) {
    for line in out.lines().filter(|l| l.starts_with("ack ")) {
        let mut parts = line.splitn(4, ' ').skip(1);
        let (Some(game), Some(ply), Some(notation)) = (parts.next(), parts.next(), parts.next())
        else {
            continue; // a line cut by the kill
        };
        let (Ok(game), Ok(ply)) = (game.parse(), ply.parse()) else {
            continue;
        };
        let previous = acks.insert((game, ply), notation.to_string());
        assert!(
            previous.is_none(),
            "ply {ply} of game {game} acknowledged twice"
        );
    }
}

fn verify(db: &std::path::Path, acks: &BTreeMap<(GameId, u32), String>) -> u32 {
    let store = Arc::new(Store::open(db).expect("the database reopens"));
    let service = GameService::new(store.clone(), Arc::new(ManualClock::new(0)));
    let conn = store.conn().unwrap();
    let mut total = 0;
    for id in store::all_game_ids(&conn).unwrap() {
        let row = store::get_game(&conn, id).unwrap().unwrap();
        let actions = store::actions_after(&conn, id, 0).unwrap();
        // Nothing doubled or skipped: plies are exactly 1..=n and match the game's counter.
        let plies: Vec<u32> = actions.iter().map(|a| a.ply).collect();
        assert_eq!(plies, (1..=row.ply).collect::<Vec<_>>(), "game {id}");
        total += row.ply;
        // Nothing acknowledged is lost.
        for ((game, ply), notation) in acks.range((id, 0)..=(id, u32::MAX)) {
            let found = actions.iter().find(|a| a.ply == *ply);
            assert_eq!(
                found.map(|a| &a.notation),
                Some(notation),
                "game {game} ply {ply}"
            );
        }
        // Every completed move's board post is there, unsent.
        let outbox = store::game_outbox(&conn, id).unwrap();
        assert!(outbox.iter().all(|o| o.sent_at.is_none()));
        for a in &actions {
            let events: Vec<Event> = serde_json::from_str(&a.events).unwrap();
            let mid_move = matches!(events.last(), Some(Event::ChoiceRequired { .. }));
            let posted = outbox.iter().any(|o| {
                o.kind == "board_post"
                    && serde_json::from_str::<serde_json::Value>(&o.payload).unwrap()["ply"]
                        == a.ply
            });
            assert_eq!(posted, !mid_move, "board post of game {id} ply {}", a.ply);
        }
        // The stored game equals a fresh replay of its log.
        let loaded = service.game(id).unwrap();
        let Some(seed) = row.seed else {
            assert!(
                actions.is_empty(),
                "game {id} has actions but never started"
            );
            continue; // a lobby whose set-up was interrupted; the next run finishes it
        };
        let mut fresh = Game::new(loaded.config.rules.clone(), seed).unwrap();
        for a in &actions {
            fresh
                .play(&serde_json::from_str(&a.action).unwrap())
                .unwrap();
        }
        assert_eq!(loaded.state.as_ref(), Some(&fresh), "game {id}");
    }
    total
}

#[test]
fn killed_at_random_moments_nothing_is_lost_or_doubled() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chaos.db");
    let mut acks = BTreeMap::new();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut kills = 0;
    let mut runs = 0;
    loop {
        runs += 1;
        assert!(runs < 10 * KILLS, "the child never finished its work");
        let mut c = child(&db);
        if kills < KILLS {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            std::thread::sleep(Duration::from_millis(2 + rng % 15));
            let _ = c.kill(); // SIGKILL on Unix
        }
        let status = c.wait().unwrap();
        let mut out = String::new();
        c.stdout.take().unwrap().read_to_string(&mut out).unwrap();
        read_acks(&out, &mut acks);
        let done = verify(&db, &acks);
        match status.signal() {
            Some(9) => kills += 1,
            _ => {
                assert!(status.success(), "the child failed: {status}");
                // The child finished before it could be killed: all the work is done.
                assert!(
                    kills >= KILLS,
                    "all {done} actions were played after only {kills} kills"
                );
                break;
            }
        }
    }
    eprintln!(
        "{kills} kills in {runs} runs; {} actions acknowledged",
        acks.len()
    );
    assert!(kills >= KILLS);
    assert_eq!(
        verify(&db, &acks),
        ACTIONS,
        "all scripted actions played in the end"
    );
}
