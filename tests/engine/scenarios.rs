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
/// (found by the long fuzz run, tests/service/fuzz.rs): it is refused at that line.
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

/// SCENARIOS §3.4 (2) and §6: hits on a ship while `destroying_ships` is off, and an
/// `expect reject` with no action text (none at all, or only an error kind), are scenario
/// errors at their line; hits with the setting on are a position.
#[test]
fn hits_without_destroying_ships_and_a_reject_without_an_action_are_errors() {
    for (content, line) in [
        (
            "scenario hits\nship 1 g1 hits 1\nexpect not over\n",
            "ERROR a.scn:2 ship 1 g1 hits 1",
        ),
        (
            "scenario reject\nexpect reject\n",
            "ERROR a.scn:2 expect reject",
        ),
        (
            "scenario reject\nexpect reject syntax\n",
            "ERROR a.scn:2 expect reject syntax",
        ),
    ] {
        let mut report = jackal::scenario::Report::new(false);
        report.check_content("a.scn", content);
        assert_eq!(report.exit_code(), 2, "{}", report.text);
        assert!(report.text.contains(line), "{}", report.text);
    }
    let mut report = jackal::scenario::Report::new(false);
    report.check_content(
        "a.scn",
        "scenario hit ship\nset destroying_ships = on\nship 1 g1 hits 1\nexpect ship 1 hits 1\n",
    );
    assert_eq!(report.exit_code(), 0, "{}", report.text);
}

/// SCENARIOS §9 read strictly: an action is required where the grammar has one (`exactly`
/// included: no legal action at all is `count 0`; an `expect fatal` without one is an error
/// line of its own, S-EXP-1, the others stop the scenario), numbers are digits only (in a
/// setting's value and a pack's counts too), a board size, a team and a tile's number are
/// written as the grammar lists them, and words are separated by spaces and tabs alone. Each
/// of these lines is a scenario error at its line.
#[test]
fn lines_outside_the_grammar_are_scenario_errors() {
    let maze = "tile e5 maze3\nunit 1.1 e5 step 1\n";
    for (setup, line) in [
        ("", "expect legal exactly"),
        ("", "expect legal for 1 exactly"),
        ("", "expect fatal"),
        ("", "expect not fatal"),
        ("", "play"),
        ("", "play-as 1"),
        ("", "score 1 = +3"),
        ("", "expect score 1 = +0"),
        ("", "seed +5"),
        ("", "seed 0x+1"),
        ("", "board 09"),
        ("", "board +9"),
        ("", "set board_size = +9"),
        ("", "set stall_rounds = +5"),
        ("", "set tile_pack = empty*+117"),
        ("", "tile e5 chest01"),
        ("", "unit 01.1 e5"),
        ("", "turn 01"),
        (maze, "expect unit 1.1 at e5 step 01"),
        (maze, "expect unit 1.1 at e5 step 9"),
        ("", "board\u{a0}9"),
        ("", "expect\u{a0}turn 1"),
        ("", "expect turn\u{b}1"),
    ] {
        let content = format!("scenario strict\n{setup}{line}\n");
        let mut report = jackal::scenario::Report::new(false);
        report.check_content("a.scn", &content);
        assert_eq!(report.exit_code(), 2, "`{line}`:\n{}", report.text);
        assert!(
            report.text.contains("ERROR a.scn:"),
            "`{line}`:\n{}",
            report.text
        );
    }
    // The same lines as the grammar writes them are read.
    let mut report = jackal::scenario::Report::new(false);
    report.check_content(
        "a.scn",
        "scenario strict\nseed 0x1F\nscore 1 = 03\ntile d10 fog chest1\nturn 1\n\
         expect score 1 = 3\nexpect\tturn 1\n",
    );
    assert_eq!(report.exit_code(), 0, "{}", report.text);
    assert!(report.text.contains("PASS a.scn:7 "), "{}", report.text);
}

/// `-q` prints only the `FAIL`, `SKIP` and `ERROR` lines (each with its detail) and the
/// totals (SCENARIOS §8): no scenario's `==` or `--` line.
#[test]
fn quiet_prints_only_what_went_wrong_and_the_totals() {
    let content = "scenario fine\nexpect turn 1\n\
                   scenario wrong\nexpect turn 2\nplay 1 z9\nexpect turn 1\n\
                   scenario broken\nunit 1.1 z9\n";
    let mut report = jackal::scenario::Report::new(true);
    report.check_content("a.scn", content);
    report.finish();
    let lines: Vec<&str> = report.text.lines().collect();
    assert_eq!(
        lines,
        [
            "FAIL a.scn:4 expect turn 2",
            "     actual: turn 1",
            "FAIL a.scn:5 play 1 z9",
            "     rejected: syntax",
            "SKIP a.scn:6 expect turn 1",
            "ERROR a.scn:8 unit 1.1 z9",
            lines[6],
            "TOTAL files=1 scenarios=3 passed=1 failed=2 skipped=1 errors=1",
        ],
        "{}",
        report.text
    );
    assert!(lines[6].starts_with("     "), "{}", report.text);
}

/// A command line of `check` that cannot be read is a usage error: exit code 3, not clap's
/// 2, which the contract gives to a scenario error (S-OUT-2).
#[test]
fn an_unknown_option_of_check_is_a_usage_error() {
    let run = jackal().args(["check", "-x", "a.scn"]).output().unwrap();
    assert_eq!(
        run.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("-x"));
    let help = jackal().args(["check", "--help"]).output().unwrap();
    assert_eq!(help.status.code(), Some(0));
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

// ----- the contract's coverage -----------------------------------------------------------------

/// The project's copy of the rules contract (`docs/RULES.md`, so that a clone alone tests
/// itself).
fn rules_contract() -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/RULES.md"))
        .expect("docs/RULES.md")
}

/// Every rule id the contract defines (`**R-BALL-1**`), in order.
fn rule_ids(contract: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for part in contract.split("**R-").skip(1) {
        let Some((id, _)) = part.split_once("**") else {
            continue;
        };
        let well_formed = id.split_once('-').is_some_and(|(group, n)| {
            group.chars().all(|c| c.is_ascii_uppercase()) && n.chars().all(|c| c.is_ascii_digit())
        });
        if well_formed && !ids.iter().any(|i| i == &format!("R-{id}")) {
            ids.push(format!("R-{id}"));
        }
    }
    ids
}

/// The rule ids scenario titles and comments cite: `R-CAVE-3`, and the short forms
/// `R-CAVE-3/4` and `R-TRAP-1/2/3`.
fn cited_ids(text: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices("R-") {
        // `ERR-1` holds an `R-` too: an id starts a word.
        if i > 0 && bytes[i - 1].is_ascii_alphanumeric() {
            continue;
        }
        let part = &text[i + 2..];
        let group: String = part
            .chars()
            .take_while(|c| c.is_ascii_uppercase())
            .collect();
        let Some(numbers) = part[group.len()..].strip_prefix('-') else {
            continue;
        };
        let numbers: String = numbers
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '/')
            .collect();
        for n in numbers.split('/').filter(|n| !n.is_empty()) {
            out.insert(format!("R-{group}-{n}"));
        }
    }
    out
}

/// The ids of `ids` that no scenario file in `tests/scenarios/` cites, as `cites` reads them.
fn uncited(ids: &[String], cites: fn(&str) -> std::collections::BTreeSet<String>) -> Vec<&String> {
    let mut cited = std::collections::BTreeSet::new();
    for file in jackal::scenario::collect_files(&[dir("scenarios")]).unwrap() {
        cited.extend(cites(&std::fs::read_to_string(file).unwrap()));
    }
    ids.iter().filter(|id| !cited.contains(*id)).collect()
}

/// Every rule of the contract is cited by at least one scenario in `tests/scenarios/`; a rule
/// added to RULES.md without a scenario fails here.
#[test]
fn every_rule_id_is_cited_by_a_scenario() {
    let ids = rule_ids(&rules_contract());
    assert!(
        ids.len() > 150,
        "the contract's ids were not found: {ids:?}"
    );
    let missing = uncited(&ids, cited_ids);
    assert!(missing.is_empty(), "rules no scenario cites: {missing:?}");
}

/// The decisions of RULES §21 (`| D-n |` rows): where the rules alone left a choice, the
/// contract made it, and a scenario shows it.
fn decision_ids(contract: &str) -> Vec<String> {
    contract
        .lines()
        .filter_map(|line| line.strip_prefix("| D-"))
        .filter_map(|rest| rest.split_once(' '))
        .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .map(|(n, _)| format!("D-{n}"))
        .collect()
}

/// The decision ids a text cites (`D-21`), each starting a word.
fn cited_decisions(text: &str) -> std::collections::BTreeSet<String> {
    let bytes = text.as_bytes();
    text.match_indices("D-")
        .filter(|(i, _)| *i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
        .filter_map(|(i, _)| {
            let n: String = text[i + 2..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            (!n.is_empty()).then(|| format!("D-{n}"))
        })
        .collect()
}

/// Every decision of the contract is cited by at least one scenario that plays it.
#[test]
fn every_decision_is_cited_by_a_scenario() {
    let ids = decision_ids(&rules_contract());
    assert!(
        ids.len() > 40,
        "the contract's decisions were not found: {ids:?}"
    );
    let missing = uncited(&ids, cited_decisions);
    assert!(
        missing.is_empty(),
        "decisions no scenario cites: {missing:?}"
    );
}

/// Every setting of RULES §20 is played by some scenario in each of its values: `set` lines
/// (and `board` / `players` headers) name every value but the default, which every scenario
/// without the line plays; custom packs and the stall guard's range are sampled.
#[test]
fn every_setting_is_played_in_each_of_its_values() {
    let mut set: std::collections::BTreeSet<(String, String)> = Default::default();
    for file in jackal::scenario::collect_files(&[dir("scenarios")]).unwrap() {
        for line in std::fs::read_to_string(file).unwrap().lines() {
            let line = line.split('#').next().unwrap().trim().to_ascii_lowercase();
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["board", n] => set.insert(("board_size".into(), n.to_string())),
                ["players", p] => set.insert(("players".into(), p.to_string())),
                ["set", ..] => {
                    let (id, value) = line[3..].split_once('=').expect("set ID = VALUE");
                    let value: String = value.chars().filter(|c| !c.is_whitespace()).collect();
                    let value = match id.trim() {
                        "tile_pack" if value != "full" && value != "classic" => "custom".into(),
                        "stall_rounds" if value != "0" && value != "50" => "other".into(),
                        _ => value,
                    };
                    set.insert((id.trim().to_string(), value))
                }
                _ => false,
            };
        }
    }
    let on_off = ["on", "off"];
    let values: [(&str, &[&str]); 16] = [
        ("board_size", &["5", "7", "9", "11", "13"]),
        ("players", &["2", "3", "4", "2x2"]),
        ("tile_pack", &["full", "classic", "custom"]),
        ("plane_seats", &["two", "one", "chosen"]),
        ("retreat_distance", &["king", "taxicab", "euclid"]),
        ("restriction_kills", &on_off),
        ("missionary_blocks_attack", &on_off),
        ("cannonball_kills", &on_off),
        ("fortress_vs_cannonball", &on_off),
        ("cannonball_spares_fog", &on_off),
        ("no_wasted_rum", &on_off),
        ("no_trapped_rum", &on_off),
        ("boardgame_caves", &on_off),
        ("destroying_ships", &on_off),
        ("friendly_fire", &on_off),
        ("stall_rounds", &["0", "50", "other"]),
    ];
    assert_eq!(
        values.map(|(id, _)| id),
        jackal::engine::settings::SETTING_IDS,
        "RULES §20 and this list name the same settings"
    );
    let defaults = jackal::engine::Settings::default();
    let mut missing = Vec::new();
    for (id, wanted) in values {
        for value in wanted {
            let default = defaults.get(id).as_deref() == Some(*value);
            if !default && !set.contains(&(id.to_string(), value.to_string())) {
                missing.push(format!("{id} = {value}"));
            }
        }
    }
    assert!(missing.is_empty(), "no scenario plays: {missing:?}");
}
