//! Runs every rules scenario in `tests/scenarios/` through the checker (`jackal check`), and
//! the checker itself on hostile files and pipes.

use std::path::PathBuf;

fn dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

#[test]
fn every_scenario_passes() {
    let report = jackal::scenario::check_paths(&[dir("scenarios")], true).expect("readable");
    assert!(report.scenarios > 0, "no scenario found");
    assert_eq!(report.exit_code(), 0, "scenario failures:\n{}", report.text);
}

/// A seed whose deal cannot meet the map constraints is an error at the `seed` line.
#[test]
fn a_deal_that_fails_is_reported_at_its_seed_line() {
    let mut report = jackal::scenario::Report::new(false);
    let content = "scenario deal fails\nboard 5\nset tile_pack = cave*40\nseed 1\nexpect turn 1\n";
    report.check_content("a.scn", content);
    report.finish();
    assert_eq!(report.exit_code(), 2, "{}", report.text);
    assert!(
        report.text.contains("ERROR a.scn:4 seed 1"),
        "{}",
        report.text
    );
}

/// `jackal render --scenario` on a file whose `play-as` line is cut short used to panic
/// (found by the long fuzz run, tests/fuzz.rs): it is refused at that line.
#[test]
fn a_play_as_without_its_action_is_refused_not_a_panic() {
    for text in ["play-as", "play-as 1", "play"] {
        let e = jackal::scenario::position_after_plays(text).unwrap_err();
        assert!(e.contains("line 1"), "{text}: {e}");
    }
}

/// A scenario that delivers gold onto a score at the counter's limit used to read 0 (the
/// score wrapped); such a score is no game's and is refused at its line.
#[test]
fn a_score_beyond_any_game_is_a_scenario_error() {
    let mut report = jackal::scenario::Report::new(false);
    let content = "scenario wrap\nscore 1 = 4294967295\ntile d10 fog chest1\nunit 1.1 g2\n\
                   item g2 coin\nplay 1 g1 coin\nexpect score 1 = 0\n";
    report.check_content("a.scn", content);
    assert_eq!(report.exit_code(), 2, "{}", report.text);
    assert!(
        report.text.contains("ERROR a.scn:2 score 1 = 4294967295"),
        "{}",
        report.text
    );
}

// ----- `jackal check` on hostile trees and pipes ----------------------------------------------

fn jackal() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_jackal"))
}

/// `jackal check … | head -1`: the reader closes the pipe after one line. The binary used to
/// panic there (`print!` on EPIPE, exit 101); now it stops quietly with the report's own
/// exit code.
#[test]
fn check_into_a_closed_pipe_stops_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // The full report (over 100 KB) outgrows the pipe's buffer (64 KB): the child is still
    // writing when the pipe closes.
    let mut child = jackal()
        .arg("check")
        .arg(dir("scenarios"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the jackal binary runs");
    // Wait for the first line, then close our end, as `head -1` does.
    let mut out = BufReader::new(child.stdout.take().expect("piped"));
    let mut first = String::new();
    out.read_line(&mut first).expect("a first line");
    drop(out);
    let done = child.wait_with_output().expect("the child ends");
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
    assert_eq!(done.status.code(), Some(0), "{first}{stderr}");
}

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

const PASSING: &str = "scenario ok\nexpect turn 1\n";

/// A link back to a parent used to make the walk check the same file at every level of the
/// loop (dozens of times); each real file is checked once.
#[cfg(unix)]
#[test]
fn a_symlink_loop_checks_each_file_once() {
    let tmp = scratch();
    let root = tmp.path();
    std::fs::create_dir(root.join("sub")).unwrap();
    std::fs::write(root.join("a.scn"), PASSING).unwrap();
    std::fs::write(root.join("sub/b.scn"), PASSING).unwrap();
    std::os::unix::fs::symlink("..", root.join("sub/up")).unwrap();
    std::os::unix::fs::symlink(".", root.join("here")).unwrap();
    std::os::unix::fs::symlink("a.scn", root.join("also.scn")).unwrap();
    let files = jackal::scenario::collect_files(&[root.to_path_buf()]).unwrap();
    assert_eq!(files, [root.join("a.scn"), root.join("sub/b.scn")]);
    let report = jackal::scenario::check_paths(&[root.to_path_buf()], true).unwrap();
    assert_eq!(
        (report.files, report.exit_code()),
        (2, 0),
        "{}",
        report.text
    );
}

/// A FIFO named `x.scn` used to hang the checker (opening it waits for a writer); only
/// regular files are read, and a special file is a file error that names it.
#[cfg(unix)]
#[test]
fn a_fifo_is_reported_not_opened() {
    let tmp = scratch();
    let root = tmp.path().to_path_buf();
    std::fs::write(root.join("a.scn"), PASSING).unwrap();
    let fifo = root.join("x.scn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // On a thread, so that a hang fails the test instead of stalling the run.
    let (tx, rx) = std::sync::mpsc::channel();
    for paths in [vec![root.clone()], vec![fifo.clone()]] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let _ = tx.send(jackal::scenario::check_paths(&paths, true).map(|r| r.text));
        });
        let result = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the check does not hang on a FIFO");
        let e = result.expect_err("a FIFO is a file error");
        assert!(e.contains("x.scn: not a regular file (a FIFO)"), "{e}");
    }
}

/// A directory without any `.scn` file used to pass (exit 0, nothing checked); it is a file
/// error (exit code 3) that says so, like a path that does not exist.
#[test]
fn a_directory_without_scenarios_is_an_error() {
    let tmp = scratch();
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(empty.join("deeper")).unwrap();
    std::fs::write(empty.join("notes.txt"), "scenario ok\n").unwrap();
    let e = jackal::scenario::check_paths(std::slice::from_ref(&empty), true).unwrap_err();
    assert!(e.contains("no .scn file in this directory"), "{e}");
    let missing = tmp.path().join("missing");
    let e = jackal::scenario::check_paths(&[missing], true).unwrap_err();
    assert!(e.contains("no such file or directory"), "{e}");
    let run = jackal().arg("check").arg(&empty).output().unwrap();
    assert_eq!(run.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&run.stderr).contains("no .scn file"));
}
