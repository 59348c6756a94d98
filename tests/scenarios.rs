//! Runs every rules scenario in `tests/scenarios/` through the checker (`jackal check`), and
//! checks that scenarios needing the expansion are reported as "not yet supported", never as
//! passing.

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

#[test]
fn expansion_scenarios_are_not_yet_supported() {
    let files = jackal::scenario::collect_files(&[dir("scenarios-expansion")]).expect("readable");
    assert!(!files.is_empty());
    for file in files {
        let report =
            jackal::scenario::check_paths(std::slice::from_ref(&file), false).expect("readable");
        assert_eq!(
            report.exit_code(),
            2,
            "{}:\n{}",
            file.display(),
            report.text
        );
        assert!(report.text.contains("not yet supported"), "{}", report.text);
        assert_eq!(report.totals.passed, 0, "{}", report.text);
    }
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
