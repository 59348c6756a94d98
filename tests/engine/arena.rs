//! `jackal arena`, for sanity only: a few quick games on a small board add up and are
//! reported, and bad input is refused with what would be right. The figures of the bots come
//! from real arena runs (see `jackal arena --help`), never from a test.

use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jackal"))
        .arg("arena")
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_small_arena_reports_every_level() {
    let run = arena(&[
        "--games",
        "4",
        "--size",
        "5",
        "--bots",
        "normal,easy",
        "--seed",
        "3",
        "--threads",
        "2",
        "--think-ms",
        "20",
    ]);
    assert!(run.status.success(), "{run:?}");
    let out = text(&run.stdout);
    assert!(out.contains("4 games on 5×5, full pack, seed 3"), "{out}");
    for level in ["normal", "easy"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(level))
            .unwrap_or_else(|| panic!("no line for {level}: {out}"));
        let numbers: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(numbers[1], "4", "{line}");
        let results: u32 = numbers[2..5]
            .iter()
            .map(|n| n.parse::<u32>().unwrap())
            .sum();
        assert_eq!(results, 4, "wins + draws + losses: {line}");
        assert!(line.contains(" ms"), "{line}");
    }
    // Each decision is timed by the wall clock and, where the platform has one, by the
    // deciding thread's CPU clock.
    let header = out.lines().find(|l| l.starts_with("level")).unwrap();
    assert!(header.contains("max move"), "{out}");
    if cfg!(target_os = "linux") {
        assert!(
            header.contains("max CPU") && header.contains("CPU > 10 ms"),
            "{out}"
        );
        assert!(!out.contains("no CPU clock"), "{out}");
    }
    // One progress line per game, on stderr.
    assert_eq!(
        text(&run.stderr).lines().count(),
        4,
        "{}",
        text(&run.stderr)
    );
}

/// `hard` plays in the arena like any level, with its own time or one given per entry.
#[test]
fn hard_takes_a_seat_in_the_arena() {
    let run = arena(&[
        "--games",
        "2",
        "--size",
        "5",
        "--bots",
        "hard,easy",
        "--seed",
        "4",
        "--think-ms",
        "10,10",
    ]);
    assert!(run.status.success(), "{run:?}");
    let out = text(&run.stdout);
    assert!(out.contains("; `hard` thinks up to 10 ms a move"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("hard ")), "{out}");
    let three = arena(&["--games", "2", "--bots", "hard,easy", "--think-ms", "5,5,5"]);
    assert!(!three.status.success());
    assert!(
        text(&three.stderr).contains("one per entry of --bots (2), not 3"),
        "{}",
        text(&three.stderr)
    );
}

#[test]
fn bad_arena_input_names_what_is_right() {
    let run = arena(&["--games", "2", "--bots", "normal,genius"]);
    assert!(!run.status.success());
    let said = text(&run.stderr);
    assert!(
        said.contains("unknown bot level `genius` (levels: random, easy, normal, hard)"),
        "{said}"
    );

    let run = arena(&["--games", "2", "--bots", "easy"]);
    assert!(!run.status.success());
    assert!(
        text(&run.stderr).contains("2, 3 or 4 bots"),
        "{}",
        text(&run.stderr)
    );

    let run = arena(&[
        "--games",
        "2",
        "--bots",
        "easy,random",
        "--think-ms",
        "5000",
    ]);
    assert!(!run.status.success());
    assert!(
        text(&run.stderr).contains("1 to 2000 ms"),
        "{}",
        text(&run.stderr)
    );

    let run = arena(&["--games", "2", "--bots", "easy,random", "--size", "8"]);
    assert!(!run.status.success());
    assert!(
        text(&run.stderr).contains("5, 7, 9, 11 or 13"),
        "{}",
        text(&run.stderr)
    );
}

/// `--record DIR` writes each game as a scenario file, which `jackal check` replays to the
/// same scores and end, and `jackal render --scenario FILE --ply N` draws at any ply.
#[test]
fn recorded_games_replay_and_draw() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    let run = arena(&[
        "--games",
        "2",
        "--first",
        "3",
        "--size",
        "5",
        "--bots",
        "normal,easy",
        "--seed",
        "6",
        "--think-ms",
        "5",
        "--record",
        games.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{run:?}");
    let mut files: Vec<String> = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["game-003.scn", "game-004.scn"]);
    let first = std::fs::read_to_string(games.join("game-003.scn")).unwrap();
    assert!(first.contains("scenario arena seed 6 game 3: "), "{first}");
    assert!(first.contains("  # ply 1, "), "{first}");
    // The game line the arena printed is the file's first comment.
    let line = text(&run.stderr)
        .lines()
        .find(|l| l.starts_with("game 3/4: "))
        .unwrap()
        .trim_start_matches("game 3/4: ")
        .to_string();
    assert!(first.lines().next().unwrap().ends_with(&line), "{first}");

    let check = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["check", "-q"])
        .arg(&games)
        .output()
        .unwrap();
    let said = text(&check.stdout);
    assert!(check.status.success(), "{said}{}", text(&check.stderr));
    assert!(
        said.contains("TOTAL files=2 scenarios=2 passed=6 failed=0"),
        "{said}"
    );

    let png = dir.path().join("ply3.png");
    let render = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["render", "--ply", "3", "--scenario"])
        .arg(games.join("game-003.scn"))
        .arg("-o")
        .arg(&png)
        .output()
        .unwrap();
    assert!(render.status.success(), "{render:?}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let past = Command::new(env!("CARGO_BIN_EXE_jackal"))
        .args(["render", "--ply", "100000", "--scenario"])
        .arg(games.join("game-003.scn"))
        .arg("-o")
        .arg(dir.path().join("past.png"))
        .output()
        .unwrap();
    assert!(!past.status.success());
    assert!(
        text(&past.stderr).contains("play steps"),
        "{}",
        text(&past.stderr)
    );

    // What normal would play at ply 4 of the recorded game, and why.
    let think = |ms: &str| {
        Command::new(env!("CARGO_BIN_EXE_jackal"))
            .args(["think", "--ply", "3", "--think-ms", ms, "--scenario"])
            .arg(games.join("game-003.scn"))
            .output()
            .unwrap()
    };
    let thought = think("20");
    let said = text(&thought.stdout);
    assert!(thought.status.success(), "{thought:?}");
    assert!(said.starts_with("ply 4: team "), "{said}");
    assert!(said.contains("\nnormal plays: "), "{said}");
    let never = think("0");
    assert!(!never.status.success());
    assert!(text(&never.stderr).contains("think-ms"), "{never:?}");
}
