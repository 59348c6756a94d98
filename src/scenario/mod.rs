//! The rules-scenario checker: `jackal check` (SCENARIOS.md).
//!
//! A file is split into scenarios ([`lexer`]), each scenario's position is built and
//! validated ([`setup`]), then its steps run in order ([`run_scenario`]); [`Report`] collects
//! the lines of S-OUT-1 and the exit code of S-OUT-2. Whatever the report quotes from a file
//! goes through [`visible`]: an invisible character in a statement is shown escaped.

pub mod expect;
mod files;
pub mod lexer;
pub mod setup;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::engine::event::Event;
use crate::engine::game::Game;
use crate::visible::visible;
use expect::Verdict;
pub use files::{collect_files, kind_of as special_file_kind};
use lexer::{Line, Source};
use setup::LineError;

/// Counts for one scenario or a whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub passed: u32,
    pub failed: u32,
    pub skipped: u32,
    pub errors: u32,
}

/// The output of a checker run.
#[derive(Debug, Default)]
pub struct Report {
    pub text: String,
    pub files: u32,
    pub scenarios: u32,
    pub totals: Counts,
    quiet: bool,
}

impl Report {
    pub fn new(quiet: bool) -> Report {
        Report {
            quiet,
            ..Report::default()
        }
    }

    fn result(&mut self, kind: &str, file: &str, line: &Line, detail: Option<String>) {
        if self.quiet && kind == "PASS" {
            return;
        }
        let _ = writeln!(
            self.text,
            "{kind} {}:{} {}",
            visible(file),
            line.no,
            visible(&line.text)
        );
        if let Some(d) = detail {
            let _ = writeln!(self.text, "     {}", visible(&d));
        }
    }

    /// A scenario's opening `==` line or closing `--` line (S-OUT-1); `-q` prints neither, only
    /// the `FAIL`, `SKIP` and `ERROR` lines and the totals (§8).
    fn frame(&mut self, line: std::fmt::Arguments) {
        if !self.quiet {
            let _ = self.text.write_fmt(line);
            self.text.push('\n');
        }
    }

    fn error(&mut self, file: &str, e: &LineError) {
        let _ = writeln!(
            self.text,
            "ERROR {}:{} {}",
            visible(file),
            e.line,
            visible(&e.text)
        );
        let _ = writeln!(self.text, "     {}", visible(&e.message));
    }

    /// S-OUT-2: 0 all passed, 1 failures or skips, 2 a scenario error.
    pub fn exit_code(&self) -> i32 {
        if self.totals.errors > 0 {
            2
        } else if self.totals.failed > 0 || self.totals.skipped > 0 {
            1
        } else {
            0
        }
    }

    pub fn finish(&mut self) {
        let t = self.totals;
        let _ = writeln!(
            self.text,
            "TOTAL files={} scenarios={} passed={} failed={} skipped={} errors={}",
            self.files, self.scenarios, t.passed, t.failed, t.skipped, t.errors
        );
    }

    /// Checks the scenarios of one file's content; `file` names it in the output.
    pub fn check_content(&mut self, file: &str, content: &str) {
        self.files += 1;
        let name = Path::new(file)
            .file_name()
            .map_or(file.to_string(), |n| n.to_string_lossy().into_owned());
        for src in lexer::split(&name, content) {
            self.scenarios += 1;
            self.frame(format_args!(
                "== {}:{} scenario \"{}\"",
                visible(file),
                src.line,
                visible(&src.title)
            ));
            let counts = run_scenario(self, file, &src);
            self.totals.passed += counts.passed;
            self.totals.failed += counts.failed;
            self.totals.skipped += counts.skipped;
            self.totals.errors += counts.errors;
        }
    }
}

/// Runs `jackal check` over paths; returns the report (text and exit code) or a usage/file
/// error (exit code 3).
pub fn check_paths(paths: &[PathBuf], quiet: bool) -> Result<Report, String> {
    if paths.is_empty() {
        return Err("no scenario file given".into());
    }
    let found = collect_files(paths)?;
    let mut report = Report::new(quiet);
    for f in found {
        let content = files::read_scenario_file(&f)?;
        report.check_content(&f.display().to_string(), &content);
    }
    report.finish();
    Ok(report)
}

/// Writes a finished report to `out` (standard output). A reader that stops early, as
/// `jackal check … | head -1` does, closes the pipe: that is the reader's choice, not a
/// failure, so the rest of the report is dropped without a word. The run's exit code stays
/// the report's own (not 141, a shell's code for a death by SIGPIPE): every scenario was
/// checked before the first line was written, so the code still tells how the check went,
/// which is what `set -o pipefail` scripts want to see. Any other write error is returned.
pub fn print_report(report: &Report, out: &mut impl std::io::Write) -> Result<(), String> {
    match out
        .write_all(report.text.as_bytes())
        .and_then(|()| out.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the report: {e}"))
        }
        _ => Ok(()),
    }
}

/// The game the first scenario of a file reaches after its setup and its `play` steps, and the
/// events of each of those steps (for `jackal render`).
pub fn position_after_plays(content: &str) -> Result<(Game, Vec<Vec<Event>>), String> {
    position_after(content, None)
}

/// [`position_after_plays`], stopping after the first `plays` of them when given (`Some(0)`:
/// the position the setup makes). Asking for more plays than the scenario has is an error
/// that says how many it has.
pub fn position_after(
    content: &str,
    plays: Option<usize>,
) -> Result<(Game, Vec<Vec<Event>>), String> {
    let src = lexer::split("scenario", content)
        .into_iter()
        .next()
        .ok_or("no scenario in the file")?;
    let (mut game, first_step) =
        setup::build(&src).map_err(|e| format!("line {}: {}", e.line, visible(&e.message)))?;
    game.start(&mut Vec::new());
    let mut played = Vec::new();
    for line in &src.lines[first_step..] {
        // A `play-as` line without its team or action (found by tests/service/fuzz.rs) is as short
        // as the words say: its action is empty, which the notation refuses.
        let words = |from: usize| line.words.get(from..).unwrap_or_default().join(" ");
        let text = match line.keyword() {
            "play" => words(1),
            "play-as" => words(2),
            _ => continue,
        };
        if plays == Some(played.len()) {
            return Ok((game, played));
        }
        let events = game
            .play_text(&text)
            .map_err(|e| format!("line {}: `{}` rejected: {e}", line.no, visible(&text)))?;
        played.push(events);
    }
    match plays {
        Some(n) if n > played.len() => Err(format!(
            "the scenario has {k} play step{s}: the position after {n} does not exist (0 to {k})",
            k = played.len(),
            s = if played.len() == 1 { "" } else { "s" },
        )),
        _ => Ok((game, played)),
    }
}

fn run_scenario(report: &mut Report, file: &str, src: &Source) -> Counts {
    let mut counts = Counts::default();
    let (mut game, first_step) = match setup::build(src) {
        Ok(built) => built,
        Err(e) => {
            report.error(file, &e);
            counts.errors += 1;
            report.frame(format_args!("-- not run"));
            return counts;
        }
    };
    let board = game.board();
    let teams = game.settings().players.team_count();
    // Parse every step before running any (syntax errors are scenario errors, §7).
    let mut steps = Vec::new();
    for line in &src.lines[first_step..] {
        let step = match line.keyword() {
            "expect" => expect::parse(line, board, teams).map(Step::Expect),
            "play" => play_step(line, None),
            _ => {
                let mut w = setup::Words::new(line);
                w.team(teams).and_then(|t| play_step(line, Some(t)))
            }
        };
        match step {
            Ok(s) => steps.push((line, s)),
            Err(e) => {
                report.error(file, &e);
                counts.errors += 1;
                report.frame(format_args!("-- not run"));
                return counts;
            }
        }
    }
    game.start(&mut Vec::new());
    let mut skipping = false;
    for (line, step) in &steps {
        if skipping {
            report.result("SKIP", file, line, None);
            counts.skipped += 1;
            continue;
        }
        match step {
            Step::Expect(e) => match expect::check(&game, e) {
                Verdict::Pass => {
                    report.result("PASS", file, line, None);
                    counts.passed += 1;
                }
                Verdict::Fail(actual) => {
                    report.result("FAIL", file, line, Some(format!("actual: {actual}")));
                    counts.failed += 1;
                }
                Verdict::Error(why) => {
                    report.result("ERROR", file, line, Some(why));
                    counts.errors += 1;
                }
            },
            Step::Play(team, text) => {
                if let Some(t) = team
                    && (game.is_over() || game.turn() != *t)
                {
                    let actual = if game.is_over() {
                        "the game is over".to_string()
                    } else {
                        format!("turn {}", game.turn())
                    };
                    report.result("FAIL", file, line, Some(format!("acting team: {actual}")));
                    counts.failed += 1;
                    skipping = true;
                    continue;
                }
                match game.play_text(text) {
                    Ok(_) => {}
                    Err(kind) => {
                        report.result("FAIL", file, line, Some(format!("rejected: {kind}")));
                        counts.failed += 1;
                        skipping = true;
                    }
                }
            }
        }
    }
    let mut summary = format!(
        "-- {} passed, {} failed, {} skipped",
        counts.passed, counts.failed, counts.skipped
    );
    if counts.errors > 0 {
        let _ = write!(summary, ", {} errors", counts.errors);
    }
    report.frame(format_args!("{summary}"));
    counts
}

enum Step {
    Expect(expect::Expectation),
    Play(Option<crate::engine::unit::Team>, String),
}

/// A `play` (`team` none) or `play-as` line's step. The grammar asks for an action after the
/// keyword and the team (§9): a line without one is a scenario error, as for `expect reject`,
/// while an action the notation cannot read is the step's rejection (`syntax`, §5).
fn play_step(
    line: &lexer::Line,
    team: Option<crate::engine::unit::Team>,
) -> Result<Step, setup::LineError> {
    let from = if team.is_some() { 2 } else { 1 };
    let action = line.words.get(from..).unwrap_or_default().join(" ");
    if action.is_empty() {
        return Err(setup::LineError::at(line, "an action to play expected"));
    }
    Ok(Step::Play(team, action))
}
